//! A load test on loopback: 200 concurrent requests of mixed endpoints against a real
//! server on a real socket, all answered with the library's own report, none lost; the
//! latencies' p50 and p99 are printed. And a slow request does not hold up a cheap one.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::http::post;
use lastbite::api::{self, Control};
use lastbite_web::{endpoint, Config};
use serde_json::Value;

async fn start(config: Config) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(lastbite_web::serve(listener, config, async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_concurrent_requests_all_answered_correctly() {
    // Budgets wide enough for a loaded machine: this test is about answers, not budgets.
    let (addr, stop) = start(Config {
        jobs: 256,
        timeout: Duration::from_secs(600),
        ..Config::default()
    })
    .await;
    // The cheap samples (reproduce recomputes every paper: not a load-test request).
    let samples: Vec<(&str, String)> = common::samples()
        .into_iter()
        .filter(|(c, _)| *c != "reproduce")
        .collect();
    let expected: Vec<Value> = samples
        .iter()
        .map(|(c, b)| serde_json::from_str(&api::call(c, b, &Control::silent()).unwrap()).unwrap())
        .collect();
    let names: Vec<&str> = samples.iter().map(|(c, _)| *c).collect();
    let mut tasks = Vec::new();
    for i in 0..200 {
        let k = i % samples.len();
        let (command, body) = samples[k].clone();
        tasks.push(tokio::spawn(async move {
            let t = Instant::now();
            let (status, got) = post(addr, &endpoint(command), &body).await;
            (k, status, got, t.elapsed())
        }));
    }
    let mut latencies = Vec::new();
    for t in tasks {
        let (k, status, got, took) = t.await.expect("no request lost");
        assert_eq!(status, 200, "{}: {got}", names[k]);
        let got: Value = serde_json::from_str(&got).unwrap();
        assert_eq!(got, expected[k], "{}", names[k]);
        latencies.push(took);
    }
    assert_eq!(latencies.len(), 200);
    latencies.sort();
    eprintln!(
        "200 concurrent mixed requests: p50 {:?}, p99 {:?}, max {:?}",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies[199]
    );
    let _ = stop.send(());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_request_does_not_hold_up_a_cheap_one() {
    let (addr, stop) = start(Config {
        max_states: 30_000_000,
        timeout: Duration::from_secs(600),
        ..Config::default()
    })
    .await;
    // 26 morsels: seconds of work even for the lean solver (24 took under a second).
    let slow_body = r#"{"morsels": "1,2 2,3 3,4 4,5 5,6 6,7 7,8 8,9 9,1 1,3 3,5 5,7 7,9 9,2 2,4 4,6 6,8 8,1 1,4 4,7 7,1 2,5 5,8 8,2 3,6 6,9", "method": "exact"}"#;
    let slow = tokio::spawn(async move {
        let t = Instant::now();
        let (status, _) = post(addr, "/api/dinner/solve", slow_body).await;
        (status, t.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = Instant::now();
    let (status, body) = post(
        addr,
        "/api/subtraction/outcome",
        r#"{"set":"4,5,9","heap":"1000000000000000000"}"#,
    )
    .await;
    let cheap = t.elapsed();
    assert_eq!(status, 200, "{body}");
    let (slow_status, slow_took) = slow.await.unwrap();
    assert_eq!(slow_status, 200);
    eprintln!("cheap request {cheap:?} while a slow one ran ({slow_took:?})");
    // The cheap answer came back while the slow computation was still running.
    assert!(cheap < slow_took, "cheap {cheap:?}, slow {slow_took:?}");
    let _ = stop.send(());
}

/// Plain load: 200 cheap solves from 50 clients at once, on the
/// server's defaults, are all answered (requests wait for a slot, none is refused busy).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_of_cheap_solves_are_all_served() {
    let (addr, stop) = start(Config::default()).await;
    let body = r#"{"morsels": "1,2 2,3 3,1 4,1 2,2", "order": "ABABA"}"#;
    let want: Value =
        serde_json::from_str(&api::call("dinner-solve", body, &Control::silent()).unwrap())
            .unwrap();
    let mut clients = Vec::new();
    for _ in 0..50 {
        clients.push(tokio::spawn(async move {
            let mut took = Vec::new();
            for _ in 0..4 {
                let t = Instant::now();
                let (status, got) = post(addr, "/api/dinner/solve", body).await;
                took.push((status, got, t.elapsed()));
            }
            took
        }));
    }
    let mut latencies = Vec::new();
    for c in clients {
        for (status, got, took) in c.await.unwrap() {
            assert_eq!(status, 200, "{got}");
            assert_eq!(serde_json::from_str::<Value>(&got).unwrap(), want);
            latencies.push(took);
        }
    }
    latencies.sort();
    eprintln!(
        "200 cheap solves from 50 clients: p50 {:?}, p99 {:?}, max {:?}",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies[199]
    );
    let _ = stop.send(());
}

/// Writes `request` on a fresh connection and reads the answer to its end (or what came
/// within `within`).
async fn exchange(addr: SocketAddr, request: &[u8], within: Duration) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(within, s.read_to_end(&mut buf)).await;
    String::from_utf8_lossy(&buf).into_owned()
}

/// The edges of HTTP a hostile or broken client reaches, on a real
/// socket: every refusal a one-line JSON body with the security headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_edges_are_refused_up_front() {
    let (addr, stop) = start(Config {
        read_timeout: Duration::from_millis(500),
        ..Config::default()
    })
    .await;
    let json_error = |answer: &str, status: &str| {
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{answer}"
        );
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(
            head.to_ascii_lowercase()
                .contains("content-security-policy"),
            "{head}"
        );
        let v: Value = serde_json::from_str(body.trim()).unwrap_or_else(|_| panic!("{body}"));
        assert!(
            v["error"].as_str().is_some_and(|e| !e.contains('\n')),
            "{body}"
        );
    };
    // A connection that sends nothing (or its headers too slowly) is closed.
    let t = Instant::now();
    let silent = exchange(
        addr,
        b"POST /api/dinner/solve HTTP/1.1\r\n",
        Duration::from_secs(5),
    )
    .await;
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "{:?}: {silent}",
        t.elapsed()
    );
    // A body that does not come: 408.
    let slow = format!(
        "POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"mor"
    );
    json_error(
        &exchange(addr, slow.as_bytes(), Duration::from_secs(5)).await,
        "408",
    );
    // A declared body over the limit: 413 before any of it, and no 100 Continue.
    let big = format!(
        "POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
    );
    let answer = exchange(addr, big.as_bytes(), Duration::from_secs(5)).await;
    assert!(!answer.contains("100 Continue"), "{answer}");
    json_error(&answer, "413");
    // Security-relevant headers given twice; an absolute target for another host. The
    // body is a good request: only the head is at fault.
    let body = r#"{"morsels": "1,2 2,1"}"#;
    let n = body.len();
    for (request, says) in [
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "host header is given more than once"),
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "content-type header is given more than once"),
        (format!("POST http://evil.example/api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "target names host"),
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "content-length header is given more than once"),
        // Host values that a loose parser reads as loopback.
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: localhost:80@evil.com\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "not a host name"),
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: 127.0.0.1:abc\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "not a host name"),
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: [::1\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "not a host name"),
        (format!("POST /api/dinner/solve HTTP/1.1\r\nHost: 127.0.0.1:99999\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}"), "not a host name"),
    ] {
        let answer = exchange(addr, request.as_bytes(), Duration::from_secs(5)).await;
        json_error(&answer, "400");
        assert!(answer.contains(says), "{answer}");
    }
    // HTTP/2 with prior knowledge: an HTTP/1.1 error, not silence.
    let h2 = exchange(
        addr,
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        Duration::from_secs(5),
    )
    .await;
    json_error(&h2, "505");
    assert!(h2.contains("HTTP/2 is not served here"), "{h2}");
    let good = format!("POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n{body}");
    let answer = exchange(addr, good.as_bytes(), Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // What hyper refuses itself, before the service: a malformed header (400), a target
    // over 64 KiB (414), too many headers (431); also after a good answer on the
    // same connection.
    let long_target = format!(
        "GET /{} HTTP/1.1\r\nHost: {addr}\r\n\r\n",
        "a".repeat(70_000)
    );
    // Too many headers is hyper's 431 whatever the reads' sizes (one header over its
    // buffer is not: a read that completes the head may pass the limit unseen).
    let huge_header = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\n{}\r\n",
        (0..200)
            .map(|i| format!("X-{i}: a\r\n"))
            .collect::<String>()
    );
    for (request, status) in [
        (
            format!("GET / HTTP/1.1\r\nHost: {addr}\r\nno colon here\r\n\r\n"),
            "400",
        ),
        (long_target, "414"),
        (huge_header, "431"),
    ] {
        json_error(
            &exchange(addr, request.as_bytes(), Duration::from_secs(5)).await,
            status,
        );
    }
    let pipelined = format!("POST /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n{body}GET / HTTP/1.1\r\nbroken\r\n\r\n");
    let answer = exchange(addr, pipelined.as_bytes(), Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let second = answer
        .find("HTTP/1.1 400")
        .unwrap_or_else(|| panic!("{answer}"));
    json_error(&answer[second..], "400");
    // A method the API does not take: 405 with a body.
    let get =
        format!("GET /api/dinner/solve HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    json_error(
        &exchange(addr, get.as_bytes(), Duration::from_secs(5)).await,
        "405",
    );
    let _ = stop.send(());
}
