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
