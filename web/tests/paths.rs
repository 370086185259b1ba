//! No request reads or writes a file, by the table: every field of every command is sent
//! a path (alone, and in the command's sample request), and no file is read or made.
//!
//! The paths: a FIFO, whose opening for reading a watcher sees (a non-blocking open for
//! writing succeeds only while a reader holds it) without ever leaving a reader blocked;
//! a file outside the request's reach holding a secret, which no answer may quote and no
//! request may change; `/dev/zero` (sent only where the FIFO was not opened: a read of it
//! never ends); and a path that does not exist, which no request may make. The server
//! refuses by the fields' declarations (`x-path` in the request schemas), so this test is
//! what catches a field that names a file and is not declared.

#![cfg(unix)]

mod common;

use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use lastbite_web::{endpoint, router, Config};
use serde_json::Value;
use tower::ServiceExt;

async fn post(app: &axum::Router, command: &str, body: String) -> (StatusCode, String) {
    let req = Request::builder()
        .method("POST")
        .uri(endpoint(command))
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// A FIFO and a thread that notes (and ends, by opening and closing the other side)
/// every opening of it for reading.
struct Fifo {
    path: PathBuf,
    opened: Arc<AtomicBool>,
    rounds: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

impl Fifo {
    fn new(path: PathBuf) -> Fifo {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        let opened = Arc::new(AtomicBool::new(false));
        let rounds = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (path, opened, rounds, stop) =
                (path.clone(), opened.clone(), rounds.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let w = std::fs::OpenOptions::new()
                        .write(true)
                        .custom_flags(libc::O_NONBLOCK)
                        .open(&path);
                    // ENXIO while no reader holds it; a reader gets end of file when this
                    // side closes.
                    if w.is_ok() {
                        opened.store(true, Ordering::SeqCst);
                    }
                    rounds.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_micros(200));
                }
            })
        };
        Fifo {
            path,
            opened,
            rounds,
            stop,
            watcher: Some(watcher),
        }
    }

    /// Whether anything opened it for reading since the last call (a reader still
    /// waiting is seen by the watcher's next whole round).
    fn take(&self) -> bool {
        let start = self.rounds.load(Ordering::SeqCst);
        while self.rounds.load(Ordering::SeqCst) < start + 2 {
            std::thread::sleep(Duration::from_micros(100));
        }
        self.opened.swap(false, Ordering::SeqCst)
    }
}

impl Drop for Fifo {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
    }
}

/// The files a directory holds, with their contents.
fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = if p.is_file() {
                std::fs::read(&p).unwrap()
            } else {
                Vec::new()
            };
            (p, bytes)
        })
        .collect();
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_field_of_any_command_reads_or_makes_a_file() {
    let dir = std::env::temp_dir().join(format!("lastbite-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let secret = "lastbite-secret-7c1f0e";
    let secret_file = dir.join("secret.csv");
    std::fs::write(&secret_file, format!("{secret},1\n2,3\n")).unwrap();
    let fifo = Fifo::new(dir.join("fifo"));
    let absent = dir.join("absent");
    let before = listing(&dir);
    // One router for every request: building one derives every schema.
    let app = router(Config {
        timeout: Duration::from_secs(20),
        ..Config::default()
    });
    let schemas: std::collections::HashMap<String, Value> =
        lastbite::api::schemas().into_iter().collect();
    let samples: std::collections::HashMap<_, _> = common::samples().into_iter().collect();
    let mut sent = 0;
    let mut failures = Vec::new();
    for command in lastbite::api::COMMANDS {
        let props = schemas[&format!("{command}.request")]["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let sample: Value = serde_json::from_str(&samples[command]).unwrap();
        for field in props.keys() {
            let bodies = |value: &str| {
                let mut with_sample = sample.clone();
                with_sample[field.as_str()] = Value::from(value);
                [serde_json::json!({ field: value }), with_sample]
            };
            let mut targets = vec![
                fifo.path.display().to_string(),
                format!("@{}", fifo.path.display()),
                secret_file.display().to_string(),
                format!("@{}", secret_file.display()),
                absent.display().to_string(),
                format!("{}/", absent.display()),
                String::new(),
            ];
            let mut fifo_opened = false;
            let mut i = 0;
            while i < targets.len() {
                let target = targets[i].clone();
                i += 1;
                for body in bodies(&target) {
                    let (status, answer) = post(&app, command, body.to_string()).await;
                    sent += 1;
                    let what = format!("{command} {field}={target:?}");
                    if fifo.take() {
                        fifo_opened = true;
                        failures.push(format!("{what}: opened the FIFO"));
                    }
                    if answer.contains(secret) {
                        failures.push(format!("{what}: quoted the secret file"));
                    }
                    if status == StatusCode::INTERNAL_SERVER_ERROR {
                        failures.push(format!("{what}: 500 {answer}"));
                    }
                }
                // /dev/zero only where nothing opened the FIFO: a read of it never ends.
                if i == targets.len() && !fifo_opened && !targets.iter().any(|t| t == "/dev/zero") {
                    targets.push("/dev/zero".into());
                    targets.push("@/dev/zero".into());
                }
            }
        }
    }
    drop(fifo);
    let after = listing(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        failures.is_empty(),
        "{} of {sent}: {failures:#?}",
        failures.len()
    );
    assert_eq!(after, before, "a request made or changed a file");
    // Every command was reached, with more than one field each.
    assert!(sent > 20 * lastbite::api::COMMANDS.len(), "{sent}");
}

/// The declarations themselves: every field declared to name a file is refused by the
/// server whatever its value, with a message naming the field.
#[tokio::test]
async fn every_declared_path_field_is_refused() {
    let app = router(Config::default());
    let mut declared = 0;
    for (command, fields) in lastbite::api::serving::request_fields() {
        for path in &fields.paths {
            for value in ["x", "", "@x"] {
                let body = serde_json::json!({ path.name.as_str(): value }).to_string();
                let (status, answer) = post(&app, command, body).await;
                let refused = status == StatusCode::BAD_REQUEST
                    && answer.contains(&format!(
                        "{}: this server reads and writes no files",
                        path.name
                    ));
                let plain_value = path.kind == lastbite::api::serving::PathKind::AtFile
                    && !value.starts_with('@');
                assert!(
                    refused != plain_value,
                    "{command} {}={value:?}: {status} {answer}",
                    path.name
                );
            }
            declared += 1;
        }
    }
    // file (16 dinner commands, 4 efg), profile, from, store (2), out.
    assert_eq!(declared, 21);
}
