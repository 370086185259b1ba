//! A minimal HTTP/1.1 client for the load test and the latency bench: one POST on a fresh
//! connection, as a browser's first request or `curl` makes it.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// POSTs `body` to `path`: the status and the body.
pub async fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.expect("send");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.expect("receive");
    let text = String::from_utf8(buf).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    (status, body.to_string())
}
