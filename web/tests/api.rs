//! The HTTP API against the router (no socket): every endpoint answers what the library
//! answers, and every error code is what the issue names.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use lastbite::api::{self, Control};
use lastbite_web::{endpoint, router, Config};
use serde_json::Value;
use tower::ServiceExt;

async fn send(
    config: &Config,
    method: &str,
    path: &str,
    body: impl Into<Body>,
) -> (StatusCode, String) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(body.into())
        .unwrap();
    let res = router(config.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn post(config: &Config, command: &str, body: &str) -> (StatusCode, String) {
    send(config, "POST", &endpoint(command), body.to_string()).await
}

/// A JSON error answer: the status, and a one-line message.
fn error_of(status: StatusCode, body: &str, want: StatusCode, mentions: &str) {
    assert_eq!(status, want, "{body}");
    let v: Value = serde_json::from_str(body).unwrap();
    let msg = v["error"].as_str().unwrap();
    assert!(!msg.contains('\n'), "{msg}");
    assert!(msg.contains(mentions), "{msg} should mention {mentions}");
}

#[tokio::test]
async fn every_endpoint_answers_the_librarys_report() {
    // `reproduce` recomputes every paper: give it time on a loaded machine.
    let config = Config {
        timeout: Duration::from_secs(600),
        ..Config::default()
    };
    let samples = common::samples();
    // Every command has a sample, and so an endpoint checked here.
    let named: std::collections::BTreeSet<_> = samples.iter().map(|(c, _)| *c).collect();
    assert_eq!(named, api::COMMANDS.iter().copied().collect());
    for (command, body) in samples {
        let (status, got) = post(&config, command, &body).await;
        assert_eq!(status, StatusCode::OK, "{command}: {got}");
        // `reproduce` recomputes every paper (half a minute on 2 cores): the library's
        // report is the CLI's golden document, which cli/tests/golden.rs recomputes and
        // compares on every run, so it is not computed a second time here.
        let want: Value = if command == "reproduce" {
            let golden = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../cli/tests/golden/reproduce.json"
            );
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(golden).unwrap()).unwrap();
            doc["output"].clone()
        } else {
            serde_json::from_str(&api::call(command, &body, &Control::silent()).unwrap()).unwrap()
        };
        let got: Value = serde_json::from_str(&got).unwrap();
        assert_eq!(got, want, "{command}");
    }
}

#[tokio::test]
async fn the_schema_lists_every_endpoint_with_its_schemas() {
    let (status, body) = send(&Config::default(), "GET", "/api/schema", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_str(&body).unwrap();
    let endpoints = v["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), api::COMMANDS.len());
    let schemas: std::collections::HashMap<String, Value> = api::schemas().into_iter().collect();
    for e in endpoints {
        let c = e["command"].as_str().unwrap();
        assert_eq!(e["path"], endpoint(c));
        assert_eq!(e["request"], schemas[&format!("{c}.request")]);
        assert_eq!(e["report"], schemas[&format!("{c}.report")]);
    }
    assert_eq!(endpoint("dinner-solve"), "/api/dinner/solve");
    assert_eq!(endpoint("reproduce"), "/api/reproduce");
}

#[tokio::test]
async fn the_page_is_served() {
    let (status, body) = send(&Config::default(), "GET", "/", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("<html"));
}

#[tokio::test]
async fn bad_requests_are_400_with_one_line() {
    let c = Config::default();
    let (s, b) = post(&c, "dinner-solve", r#"{"morsels": "1,2"#).await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "not JSON");
    let (s, b) = post(&c, "dinner-solve", r#"{"morsels": 12}"#).await;
    error_of(
        s,
        &b,
        StatusCode::BAD_REQUEST,
        "morsels: the number 12 is not morsels",
    );
    let (s, b) = post(&c, "dinner-solve", r#"{"morsels": [[1, "x"]]}"#).await;
    error_of(
        s,
        &b,
        StatusCode::BAD_REQUEST,
        "morsel 0, player 1: 'x' is not a number",
    );
    let (s, b) = post(
        &c,
        "subtraction-table",
        r#"{"set": "4,5", "max_heap": "many"}"#,
    )
    .await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "invalid type");
    let (s, b) = post(&c, "dinner-solve", r#"{"morsel": "1,2"}"#).await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "unknown field `morsel`");
    let (s, b) = post(&c, "dinner-solve", "[1, 2]").await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "JSON object");
    let (s, b) = post(&c, "dinner-solve", r#"{"morsels": "1,x"}"#).await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "not a number");
    let (s, b) = post(&c, "efg-solve", r#"{"file": "/etc/passwd"}"#).await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "no files");
    let (s, b) = post(
        &c,
        "efg-verify",
        r#"{"data": "EFG 2 R \"\" { \"A\" } t \"\" 1 \"\" { 1 }", "profile": "@/etc/passwd"}"#,
    )
    .await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "no files");
    let (s, b) = post(&c, "cookie-nim", r#"{"max_n": 5, "store": "/tmp"}"#).await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "no files");
    let (s, b) = post(
        &c,
        "subtraction-scan",
        r#"{"size": 2, "max": 5, "out": "x.jsonl"}"#,
    )
    .await;
    error_of(s, &b, StatusCode::BAD_REQUEST, "no files");
}

#[tokio::test]
async fn unknown_endpoints_are_404() {
    let c = Config::default();
    let (s, b) = post(&c, "dinner-cook", "{}").await;
    error_of(s, &b, StatusCode::NOT_FOUND, "no such endpoint");
    let (s, b) = send(&c, "GET", "/nowhere", Body::empty()).await;
    error_of(s, &b, StatusCode::NOT_FOUND, "no such endpoint");
}

#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let c = Config::default();
    let big = format!(r#"{{"morsels": "{}"}}"#, "1,2 ".repeat(300_000));
    assert!(big.len() > c.max_body);
    let (s, b) = post(&c, "dinner-solve", &big).await;
    error_of(s, &b, StatusCode::PAYLOAD_TOO_LARGE, "over 1048576 bytes");
}

#[tokio::test]
async fn budgets_refuse_with_422_and_the_size() {
    // A work budget that admits every size here: the memory and state budgets refuse.
    let c = Config {
        max_states: 1000,
        max_seconds: 1_000_000_000,
        ..Config::default()
    };
    // Asking for more than the server allows.
    let (s, b) = post(
        &c,
        "dinner-solve",
        r#"{"morsels": "1,2 2,3", "max_states": 5000}"#,
    )
    .await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "budget of 1000");
    // Asking for nothing gets the server's budget, and the library refuses past it, with
    // the state space's size.
    let morsels: Vec<String> = (1..=14).map(|i| format!("{i},{}", 15 - i)).collect();
    let body = format!(
        r#"{{"morsels": "{}", "method": "exact"}}"#,
        morsels.join(" ")
    );
    let (s, b) = post(&c, "dinner-solve", &body).await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "16384");
    // At the server's most, the advice is where to run it, not a raise it would refuse;
    // below its most, raising to it (as advised) is taken.
    assert!(
        !b.contains("raise") && b.contains("max_states is at this server's most (1000)"),
        "{b}"
    );
    let (s, b) = post(&c, "tokens-solve", r#"{"stacks": 12, "max_states": 100}"#).await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "raise max_states");
    let (s, b) = post(&c, "tokens-solve", r#"{"stacks": 12, "max_states": 1000}"#).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = post(&c, "efg-random", r#"{"nodes": 3000}"#).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let data = serde_json::to_string(&serde_json::from_str::<Value>(&b).unwrap()["efg"]).unwrap();
    let (s, b) = post(&c, "efg-solve", &format!(r#"{{"data": {data}}}"#)).await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "max_nodes");
    // Table memory has its own budget (2 GiB by default): asking for more is refused, and
    // a table past the server's budget is refused by the library with its size.
    let (s, b) = post(&c, "cookie-general", r#"{"max_n": 5, "memory_gib": 100}"#).await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "budget of 2");
    // The dinner's lean solver (22 morsels and up) under a memory budget of 0 GiB.
    let c22 = Config {
        max_states: 10_000_000,
        ..Config::default()
    };
    let morsels: Vec<String> = (1..=22).map(|i| format!("{i},{}", 23 - i)).collect();
    let body = format!(
        r#"{{"morsels": "{}", "method": "exact", "memory_gib": 0}}"#,
        morsels.join(" ")
    );
    let (s, b) = post(&c22, "dinner-solve", &body).await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "raise memory_gib");
    let (s, b) = post(&c, "cookie-general", r#"{"max_n": 20}"#).await;
    error_of(
        s,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over the budget of 2.0 GiB",
    );
    let (s, b) = post(&c, "cookie-nim", r#"{"max_n": 34}"#).await;
    error_of(
        s,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over the budget of 2.0 GiB",
    );
    // A budget with no server flag of its own (declared `budget`) is capped at its
    // default: dinner expected's items, subtraction's period search.
    let (s, b) = post(&c, "dinner-expected", r#"{"size": 300, "max_items": 1000}"#).await;
    error_of(
        s,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "max_items 1000 is over",
    );
    let (s, b) = post(&c, "dinner-expected", r#"{"size": 300}"#).await;
    error_of(
        s,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over this budget of 200",
    );
    let (s, b) = post(&c, "subtraction-period", r#"{"set": "1,2", "limit": 1e9}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let (s, b) = post(
        &c,
        "subtraction-period",
        r#"{"set": "1,2", "limit": 100000000}"#,
    )
    .await;
    error_of(
        s,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "limit 100000000 is over",
    );
}

/// A request that runs for seconds and notices cancellation within a layer: the exact
/// solve of a 28-morsel dinner (2^28 states, about 10 s on 2 cores; 24 morsels took
/// under a second once the lean solver came, too fast to be sure of a cancellation).
const SLOW: (&str, &str) = (
    "dinner-solve",
    r#"{"morsels": "1,2 2,3 3,4 4,5 5,6 6,7 7,8 8,9 9,1 1,3 3,5 5,7 7,9 9,2 2,4 4,6 6,8 8,1 1,4 4,7 7,1 2,5 5,8 8,2 3,6 6,9 9,3 4,8", "method": "exact", "max_states": 100000000}"#,
);

#[tokio::test]
async fn the_time_budget_cancels_with_422() {
    let c = Config {
        timeout: Duration::from_millis(100),
        max_states: 100_000_000,
        ..Config::default()
    };
    let t = std::time::Instant::now();
    let (s, b) = post(&c, SLOW.0, SLOW.1).await;
    error_of(s, &b, StatusCode::UNPROCESSABLE_ENTITY, "time budget");
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// The slow request, sent to `app` in the background: its answer's status.
fn spawn_slow(app: &axum::Router) -> tokio::task::JoinHandle<StatusCode> {
    let app = app.clone();
    tokio::spawn(async move {
        let req = Request::post(endpoint(SLOW.0))
            .header("host", "localhost:8080")
            .header("content-type", "application/json")
            .body(Body::from(SLOW.1))
            .unwrap();
        app.oneshot(req).await.unwrap().status()
    })
}

/// A cheap request.
fn cheap_request() -> Request<Body> {
    Request::post(endpoint("subtraction-period"))
        .header("host", "localhost:8080")
        .header("content-type", "application/json")
        .body(Body::from(r#"{"set":"1,2"}"#))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_answers_503() {
    let c = Config {
        jobs: 1,
        // No queue: a request finding the only slot taken is answered at once.
        queue: 0,
        // The slow request is cancelled soon after the 503 is seen.
        timeout: Duration::from_secs(1),
        max_states: 100_000_000,
        ..Config::default()
    };
    let app = router(c.clone());
    let slow = spawn_slow(&app);
    // Wait until the slow request holds the only slot.
    let mut busy = None;
    for _ in 0..200 {
        tokio::time::sleep(Duration::from_millis(10)).await;
        let res = app.clone().oneshot(cheap_request()).await.unwrap();
        if res.status() == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(
                res.headers()["retry-after"],
                "30",
                "a 503 says when to retry"
            );
            let bytes = res.into_body().collect().await.unwrap().to_bytes();
            busy = Some(String::from_utf8(bytes.to_vec()).unwrap());
            break;
        }
    }
    let busy = busy.expect("a 503 while the only slot is taken");
    error_of(
        StatusCode::SERVICE_UNAVAILABLE,
        &busy,
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
    );
    assert_eq!(slow.await.unwrap(), StatusCode::UNPROCESSABLE_ENTITY);
}

/// A request finding every slot taken waits in the queue for one (and is answered when
/// the slow request's time runs out), unless its wait runs out first: then 503 with
/// `Retry-After`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_waits_for_a_slot_then_503_with_retry_after() {
    for (wait, want) in [
        (10_000, StatusCode::OK),
        (100, StatusCode::SERVICE_UNAVAILABLE),
    ] {
        let c = Config {
            jobs: 1,
            timeout: Duration::from_secs(1),
            queue_wait: Duration::from_millis(wait),
            max_states: 100_000_000,
            ..Config::default()
        };
        let app = router(c.clone());
        let slow = spawn_slow(&app);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let res = app.clone().oneshot(cheap_request()).await.unwrap();
        assert_eq!(res.status(), want, "waiting {wait} ms");
        if want == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(res.headers()["retry-after"], "1");
        }
        assert_eq!(slow.await.unwrap(), StatusCode::UNPROCESSABLE_ENTITY);
    }
}

/// A request with the given headers (no others): the status, the answer's headers, body.
async fn raw(
    config: &Config,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut req = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let body = if method == "POST" {
        r#"{"set":"1,2"}"#
    } else {
        ""
    };
    let res = router(config.clone())
        .oneshot(req.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let (status, head) = (res.status(), res.headers().clone());
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, head, String::from_utf8(bytes.to_vec()).unwrap())
}

const JSON: (&str, &str) = ("content-type", "application/json");
const HOST: (&str, &str) = ("host", "127.0.0.1:8080");

/// Only the server's own page and user can use it: a post that is not JSON (a form or
/// `text/plain` from another site) is 415, a foreign Host (DNS rebinding) or Origin 403,
/// and with a token every API call must carry it (401).
#[tokio::test]
async fn foreign_requests_are_refused() {
    let c = Config::default();
    let path = endpoint("subtraction-period");
    let ok = |r: &(StatusCode, axum::http::HeaderMap, String)| {
        assert_eq!(r.0, StatusCode::OK, "{}", r.2)
    };
    ok(&raw(&c, "POST", &path, &[HOST, JSON]).await);
    ok(&raw(
        &c,
        "POST",
        &path,
        &[
            ("host", "localhost"),
            ("content-type", "application/json; charset=utf-8"),
        ],
    )
    .await);
    ok(&raw(
        &c,
        "POST",
        &path,
        &[("host", "[::1]:9"), JSON, ("origin", "http://[::1]:9")],
    )
    .await);
    for t in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (s, _, b) = raw(&c, "POST", &path, &[HOST, ("content-type", t)]).await;
        error_of(
            s,
            &b,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        );
    }
    let (s, _, b) = raw(&c, "POST", &path, &[HOST]).await;
    error_of(
        s,
        &b,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "application/json",
    );
    for host in [
        "evil.example",
        "evil.example:8080",
        "127.0.0.1.evil.example",
        "10.0.0.1:8080",
    ] {
        for (method, p) in [
            ("POST", path.as_str()),
            ("GET", "/"),
            ("GET", "/api/schema"),
            ("GET", "/assets/js/main.js"),
        ] {
            let (s, _, b) = raw(&c, method, p, &[("host", host), JSON]).await;
            error_of(s, &b, StatusCode::FORBIDDEN, "is not this server's");
        }
    }
    let (s, _, b) = raw(&c, "GET", "/", &[]).await;
    error_of(s, &b, StatusCode::FORBIDDEN, "no Host header");
    for origin in [
        "http://evil.example",
        "null",
        "http://127.0.0.1:9999",
        "https://127.0.0.1:8080",
    ] {
        let (s, _, b) = raw(&c, "POST", &path, &[HOST, JSON, ("origin", origin)]).await;
        error_of(s, &b, StatusCode::FORBIDDEN, "another site");
    }
    ok(&raw(
        &c,
        "POST",
        &path,
        &[HOST, JSON, ("origin", "http://127.0.0.1:8080")],
    )
    .await);
    // A host allowed when the server started.
    let named = Config {
        allow_hosts: vec!["lab.example.org".into()],
        ..Config::default()
    };
    ok(&raw(
        &named,
        "POST",
        &path,
        &[("host", "lab.example.org:8080"), JSON],
    )
    .await);
    // A token: every API call carries it; the page and its files do not need it.
    let t = Config {
        token: Some("s3cret".into()),
        ..Config::default()
    };
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("s3cret"),
        Some("Bearer s3cret2"),
    ] {
        let mut h = vec![HOST, JSON];
        if let Some(a) = auth {
            h.push(("authorization", a));
        }
        let (s, _, b) = raw(&t, "POST", &path, &h).await;
        error_of(s, &b, StatusCode::UNAUTHORIZED, "token");
        let (s, _, _) = raw(&t, "GET", "/api/schema", &h).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    ok(&raw(
        &t,
        "POST",
        &path,
        &[HOST, JSON, ("authorization", "Bearer s3cret")],
    )
    .await);
    ok(&raw(&t, "GET", "/", &[HOST]).await);
}

/// Every answer, page, files, API, errors and refusals alike, carries the policy headers
/// and no CORS header.
#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let c = Config::default();
    let path = endpoint("subtraction-period");
    for (method, p, h) in [
        ("GET", "/", vec![HOST]),
        ("GET", "/assets/js/main.js", vec![HOST]),
        ("GET", "/assets/js/dinner.js", vec![HOST]),
        ("GET", "/assets/style.css", vec![HOST]),
        ("GET", "/api/schema", vec![HOST]),
        ("POST", path.as_str(), vec![HOST, JSON]),
        ("POST", "/api/no/such", vec![HOST, JSON]),
        ("POST", path.as_str(), vec![HOST]),
        ("GET", "/", vec![("host", "evil.example")]),
    ] {
        let (s, head, _) = raw(&c, method, p, &h).await;
        assert_eq!(
            head["content-security-policy"],
            lastbite_web::CSP,
            "{method} {p} {s}"
        );
        assert_eq!(head["x-content-type-options"], "nosniff", "{method} {p}");
        assert!(
            !head
                .keys()
                .any(|k| k.as_str().starts_with("access-control-")),
            "{method} {p}: {head:?}"
        );
    }
    assert!(lastbite_web::CSP.contains("script-src 'self' 'wasm-unsafe-eval'"));
    // The page runs no inline script and no inline style: the policy would block them.
    let (_, _, page) = raw(&c, "GET", "/", &[HOST]).await;
    assert!(page.contains(r#"<script type="module" src="assets/js/main.js"></script>"#));
    assert!(!page.contains("<script>") && !page.contains("<style") && !page.contains("style=\""));
    let (_, head, js) = raw(&c, "GET", "/assets/js/transport.js", &[HOST]).await;
    assert!(head["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    assert!(!js.contains("style=\""));
}

/// Every module of the page (web/assets/js) is served, as JavaScript; an unknown one is a
/// JSON 404.
#[tokio::test]
async fn every_page_module_is_served() {
    let c = Config::default();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/js");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let (s, head, body) = raw(&c, "GET", &format!("/assets/js/{name}"), &[HOST]).await;
        assert_eq!(s, StatusCode::OK, "{name}");
        assert!(head["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript"));
        assert_eq!(
            body,
            std::fs::read_to_string(format!("{dir}/{name}")).unwrap(),
            "{name}"
        );
        n += 1;
    }
    assert!(n >= 8);
    let (s, _, b) = raw(&c, "GET", "/assets/js/nope.js", &[HOST]).await;
    error_of(s, &b, StatusCode::NOT_FOUND, "no such endpoint");
}

#[tokio::test]
async fn formats_are_the_librarys_exports_as_text() {
    let config = Config::default();
    for (command, body, format) in [
        ("cookie-critical", r#"{"max_size": 5}"#, "latex"),
        (
            "subtraction-table",
            r#"{"set": "2,5,7", "max_heap": 20}"#,
            "latex-standalone",
        ),
        (
            "dinner-board",
            r#"{"morsels": "1,6 2,14 3,10 4,3"}"#,
            "tikz",
        ),
        ("dinner-tree", r#"{"morsels": "1,2 2,3 3,1"}"#, "svg"),
        ("efg-random", r#"{"nodes": 10}"#, "json"),
    ] {
        let path = format!("{}?format={format}", endpoint(command));
        let req = Request::builder()
            .method("POST")
            .uri(&path)
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let res = router(config.clone()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let kind = res.headers()["content-type"].to_str().unwrap().to_string();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let got = String::from_utf8(bytes.to_vec()).unwrap();
        let f = api::Format::parse(format).unwrap();
        let want = api::export(command, body, f, &Control::silent()).unwrap();
        assert_eq!(got, want, "{path}");
        let json = format == "json";
        assert_eq!(kind.starts_with("application/json"), json, "{kind}");
        assert_eq!(kind.starts_with("text/plain"), !json, "{kind}");
    }
    // A report without a table, an unknown format, any other query: 400, one line.
    for (path, mentions) in [
        (
            format!("{}?format=latex", endpoint("subtraction-outcome")),
            "no table",
        ),
        (
            format!(
                "{}?format=%3Cscript%3Ealert(1)%3C/script%3E",
                endpoint("cookie-critical")
            ),
            "format",
        ),
        (
            format!("{}?callback=x", endpoint("cookie-critical")),
            "only format",
        ),
        (
            format!("{}?format=latex&x=1", endpoint("cookie-critical")),
            "only format",
        ),
    ] {
        let (status, body) = send(&config, "POST", &path, r#"{"set": "1,2", "heap": "3"}"#).await;
        error_of(status, &body, StatusCode::BAD_REQUEST, mentions);
        assert!(!body.contains("<script>"), "{body}");
    }
}

/// `?estimate` answers the cost model's estimate under the server's budget (its
/// `--max-seconds` filled in), the library's own; a request over it is refused 422
/// naming `max_seconds` before any work.
#[tokio::test]
async fn estimates_are_answered_under_the_servers_budget() {
    let config = Config {
        max_seconds: 5,
        ..Config::default()
    };
    let body = r#"{"size": 14}"#;
    let path = format!("{}?estimate", endpoint("dinner-best-order"));
    let (status, got) = send(&config, "POST", &path, body).await;
    assert_eq!(status, StatusCode::OK, "{got}");
    let want = api::estimate("dinner-best-order", r#"{"size": 14, "max_seconds": 5}"#).unwrap();
    assert_eq!(got, serde_json::to_string(&want).unwrap());
    let (status, got) = send(
        &config,
        "POST",
        &endpoint("dinner-best-order"),
        r#"{"size": 20}"#,
    )
    .await;
    error_of(
        status,
        &got,
        StatusCode::UNPROCESSABLE_ENTITY,
        "max_seconds 5",
    );
    let over = format!("{}?estimate", endpoint("dinner-best-order"));
    let (status, got) = send(&config, "POST", &over, r#"{"max_seconds": 6}"#).await;
    error_of(
        status,
        &got,
        StatusCode::UNPROCESSABLE_ENTITY,
        "max_seconds",
    );
}

/// A JSON client's numbers and arrays: exact fields take JSON numbers, list fields JSON
/// arrays, each giving the report of the text forms the command line sends.
#[tokio::test]
async fn json_numbers_and_arrays_give_the_text_forms_report() {
    let config = Config::default();
    for (command, json_form, text_form) in [
        (
            "subtraction-outcome",
            r#"{"set": [3, 5], "heap": 100, "takes": [3]}"#,
            r#"{"set": "3,5", "heap": "100", "takes": "3"}"#,
        ),
        (
            "subtraction-outcome",
            r#"{"set": [4, 5, 9], "heap": 1000000000000000000000}"#,
            r#"{"set": "4,5,9", "heap": "1000000000000000000000"}"#,
        ),
        (
            "tokens-anywhere",
            r#"{"values": [1, 5, 2, 8], "positions": [0, 0.5, 2, 2.5], "players": 2, "clock": true, "circumference": 3}"#,
            r#"{"values": "1,5,2,8", "positions": "0,1/2,2,5/2", "players": 2, "clock": true, "circumference": "3"}"#,
        ),
        (
            "tokens-solve",
            r#"{"values": [1, 5, 3, 7], "players": 2, "at": [2]}"#,
            r#"{"values": "1,5,3,7", "players": 2, "at": "[2]"}"#,
        ),
    ] {
        let (status, got) = post(&config, command, json_form).await;
        assert_eq!(status, StatusCode::OK, "{command} {json_form}: {got}");
        let want = api::call(command, text_form, &Control::silent()).unwrap();
        let (got, want): (Value, Value) = (
            serde_json::from_str(&got).unwrap(),
            serde_json::from_str(&want).unwrap(),
        );
        assert_eq!(got, want, "{command} {json_form}");
    }
    // A wrong form is a 400 naming the field and the forms it takes.
    let (status, body) = post(&config, "subtraction-table", r#"{"set": {"a": 1}}"#).await;
    error_of(status, &body, StatusCode::BAD_REQUEST, "set");
    assert!(body.contains("[3, 5]"), "{body}");
}
