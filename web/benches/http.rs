//! Latency of cheap API calls on loopback, through a real socket (a fresh connection per
//! request, as a browser's first request or `curl` makes it): one client in sequence,
//! then 50 concurrent clients. Prints p50 and p99.
//!
//! `cargo bench -p lastbite-web --bench http`

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use lastbite_web::Config;

#[path = "../tests/common/http.rs"]
mod http;

async fn post(addr: SocketAddr, path: &str, body: &str) -> u16 {
    http::post(addr, path, body).await.0
}

fn report(name: &str, mut t: Vec<Duration>) {
    t.sort();
    let p = |q: f64| t[((t.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name}: {} requests, p50 {:.2?}, p99 {:.2?}",
        t.len(),
        p(0.5),
        p(0.99)
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(lastbite_web::serve(
            listener,
            Config::default(),
            std::future::pending(),
        ));
        let morsels: Vec<String> = (0..100)
            .map(|i| format!("{},{}", 1 + i * 7 % 97, 1 + i * 13 % 89))
            .collect();
        let crossout = format!(r#"{{"morsels": "{}"}}"#, morsels.join(" "));
        let outcome = r#"{"set": "4,5,9", "heap": "1000000000000000000"}"#.to_string();
        let cases = [
            (
                "dinner/solve, 100 morsels (crossout)",
                "/api/dinner/solve",
                crossout,
            ),
            (
                "subtraction/outcome, heap 10^18",
                "/api/subtraction/outcome",
                outcome,
            ),
        ];
        for (name, path, body) in &cases {
            for _ in 0..20 {
                assert_eq!(post(addr, path, body).await, 200);
            }
            let mut t = Vec::new();
            for _ in 0..500 {
                let s = Instant::now();
                assert_eq!(post(addr, path, body).await, 200);
                t.push(s.elapsed());
            }
            report(&format!("{name}, one client"), t);
        }
        for (name, path, body) in &cases {
            let mut clients = Vec::new();
            for _ in 0..50 {
                let (path, body) = (path.to_string(), body.clone());
                clients.push(tokio::spawn(async move {
                    let mut t = Vec::new();
                    for _ in 0..20 {
                        let s = Instant::now();
                        assert_eq!(post(addr, &path, &body).await, 200);
                        t.push(s.elapsed());
                    }
                    t
                }));
            }
            let mut all = Vec::new();
            for c in clients {
                all.extend(c.await.unwrap());
            }
            report(&format!("{name}, 50 concurrent clients"), all);
        }
    });
}
