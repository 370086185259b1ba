//! What a computation costs the server after its client is done with it, on a real
//! socket: a client that disconnects cancels its computation, a shutdown cancels every
//! computation and returns within two seconds, and a client that never reads its answer
//! neither keeps it in memory past the write timeout nor lets unread answers pile up.
//! And at the edge of the server's default budgets, every command's computation stops
//! within a second of its time budget running out: its slot serves the next request.

mod common;
#[path = "../../lastbite/tests/schemas/edges.rs"]
mod edges;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::http::post;
use lastbite_web::{endpoint, Config};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn start(
    config: Config,
) -> (
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        lastbite_web::serve(listener, config, async {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    (addr, stop, server)
}

/// A request of minutes: every allocation of 24 morsels among two players (about 30 s
/// of one core), admitted under a budget of an hour.
const LONG: (&str, &str) = ("dinner-attainable", r#"{"size": 24, "max_seconds": 3600}"#);

/// A cheap request.
const CHEAP: (&str, &str) = ("subtraction-period", r#"{"set": "1,2"}"#);

/// Sends `request` on a fresh connection, and reads nothing.
async fn send_only(addr: SocketAddr, (command, body): (&str, &str)) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        endpoint(command),
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    s
}

/// The time a cheap request takes to be answered 200 on a server of one slot.
async fn cheap(addr: SocketAddr) -> Duration {
    let t = Instant::now();
    let (status, body) = post(addr, &endpoint(CHEAP.0), CHEAP.1).await;
    assert_eq!(status, 200, "{body}");
    t.elapsed()
}

/// The tests of this file one at a time: each times how fast a slot frees on the 2-core
/// machine, which a sibling test's computation on the same cores would measure instead.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_cancels_its_computation() {
    let _serial = SERIAL.lock().await;
    let (addr, _stop, _server) = start(Config {
        jobs: 1,
        timeout: Duration::from_secs(600),
        max_seconds: 3600,
        ..Config::default()
    })
    .await;
    let s = send_only(addr, LONG).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    drop(s);
    // The only slot frees when the cancelled computation stops.
    let took = cheap(addr).await;
    assert!(
        took < Duration::from_millis(1500),
        "a cheap request waited {took:?} behind a computation whose client went away"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_cancels_every_computation_and_returns_within_two_seconds() {
    let _serial = SERIAL.lock().await;
    let (addr, stop, server) = start(Config {
        jobs: 2,
        timeout: Duration::from_secs(600),
        max_seconds: 3600,
        ..Config::default()
    })
    .await;
    let mut a = send_only(addr, LONG).await;
    let _b = send_only(addr, LONG).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let t = Instant::now();
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(2), server)
        .await
        .expect("the server returned within two seconds of its shutdown")
        .unwrap();
    eprintln!("shut down in {:?}", t.elapsed());
    // The computation's client is told it was cancelled (or its connection closed).
    let mut answer = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(2), a.read_to_string(&mut answer)).await;
    assert!(
        answer.is_empty() || answer.contains(" 422 ") || answer.contains(" 503 "),
        "{answer}"
    );
}

/// A dinner of `n` morsels whose report (the play, morsel by morsel) is megabytes.
fn big_dinner(n: usize) -> String {
    let morsels: Vec<String> = (0..n)
        .map(|i| format!("{},{}", i % 7 + 1, i % 5 + 1))
        .collect();
    format!(r#"{{"morsels": "{}"}}"#, morsels.join(" "))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_answers_are_bounded_and_dropped_after_the_write_timeout() {
    let _serial = SERIAL.lock().await;
    let body = big_dinner(200_000);
    let (addr, _stop, _server) = start(Config {
        max_body: 8 << 20,
        write_timeout: Duration::from_secs(2),
        max_held_bytes: 1 << 20,
        ..Config::default()
    })
    .await;
    // A reader of nothing, with a small receive window: its answer waits in the server.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        endpoint("dinner-solve"),
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    // Once its answer is computed, new work is refused while it is held.
    let t = Instant::now();
    let busy = loop {
        let (status, text) = post(addr, &endpoint(CHEAP.0), CHEAP.1).await;
        if status == 503 {
            break text;
        }
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "no 503 while an answer is unread"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        busy.contains("wait for their clients to read them"),
        "{busy}"
    );
    // After the write timeout the connection is closed and the answer dropped: served.
    let t = Instant::now();
    loop {
        let (status, text) = post(addr, &endpoint(CHEAP.0), CHEAP.1).await;
        if status == 200 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(6),
            "still refused {:?} after the write timeout: {text}",
            t.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The unread connection was closed: reading it now ends.
    let mut sink = Vec::new();
    let end = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut sink)).await;
    assert!(end.is_ok(), "the unread connection is still open");
    let text = String::from_utf8_lossy(&sink);
    if let Some((head, got)) = text.split_once("\r\n\r\n") {
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length: ")
                    .map(str::to_string)
            })
            .and_then(|v| v.trim().parse().ok())
            .expect("a Content-Length");
        assert!(
            got.len() < length,
            "the answer was delivered whole: {length} bytes"
        );
    }
}

/// Over the command table, each command's largest request the server's default budgets
/// admit (its states, memory and work budgets; a sizing field at a time) runs on a
/// server of one slot whose time budget is half a second: when it is cancelled (422), a
/// cheap request must be answered within a second. `LASTBITE_ONLY=dinner-balance` checks
/// one command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_its_edge_every_command_frees_its_slot_within_a_second_of_its_timeout() {
    let _serial = SERIAL.lock().await;
    use lastbite::api::{estimate, serving};
    let config = Config {
        jobs: 1,
        timeout: Duration::from_millis(500),
        ..Config::default()
    };
    let caps = serving::Caps {
        max_states: config.max_states,
        max_memory_gib: config.max_memory_gib,
        max_seconds: config.max_seconds,
    };
    let fields: std::collections::HashMap<_, _> = serving::request_fields().into_iter().collect();
    let admitted = |name: &str, r: serde_json::Map<String, serde_json::Value>| {
        let body = serde_json::Value::Object(r).to_string();
        let request = serving::admit(&fields[name], body.as_bytes(), &caps, "t").ok()?;
        estimate(name, &request)
            .is_ok_and(|e| e.admitted)
            .then_some(request)
    };
    let edges = edges::edges(&["states", "memory", "seconds"], admitted);
    let (addr, _stop, _server) = start(config).await;
    let (mut problems, mut cancelled) = (Vec::new(), 0);
    for e in edges {
        let (status, text) = post(addr, &endpoint(&e.name), &e.request).await;
        if status != 422 || !text.contains("time budget") {
            continue;
        }
        cancelled += 1;
        let took = cheap(addr).await;
        eprintln!(
            "{} {} = {}: the next answered in {took:?}",
            e.name, e.field, e.value
        );
        if took > Duration::from_secs(1) {
            problems.push(format!(
                "{} {} = {}: the next request waited {took:?} after the cancel: {}",
                e.name, e.field, e.value, e.request
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        cancelled >= 10,
        "only {cancelled} edge requests ran past the time budget"
    );
}
