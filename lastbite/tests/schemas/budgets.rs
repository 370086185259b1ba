//! Budgets and cancellation over the command table: every command stops within a second
//! of a cancel, and (ignored, minutes) stays within its memory budget at its edge.

/// A sizing field of a command's request, on one of its base requests, grown times 8 a
/// step from the base's value: each step's request as admitted under `caps` (the server's
/// budgets filled in), until the server's checks refuse it. Every command but reproduce
/// (minutes: its sweeps are commands of their own), or the one `LASTBITE_ONLY` names.
pub(crate) struct Growth {
    pub(crate) name: String,
    pub(crate) requests: Vec<String>,
}

pub(crate) fn growths(caps: &lastbite::api::serving::Caps) -> Vec<Growth> {
    use lastbite::api::serving;
    let fields: std::collections::HashMap<_, _> = serving::request_fields().into_iter().collect();
    let mut all = Vec::new();
    for s in crate::edges::sizing_fields(&["states", "memory"]) {
        let mut n = s.from.unwrap_or(2).max(2);
        let mut requests = Vec::new();
        for _ in 0..24 {
            let body = serde_json::Value::Object(s.at(n)).to_string();
            match serving::admit(&fields[s.name.as_str()], body.as_bytes(), caps, "t") {
                Ok(r) => requests.push(r),
                Err(_) => break,
            }
            n = n.saturating_mul(8);
        }
        all.push(Growth {
            name: s.name,
            requests,
        });
    }
    all
}

/// Cancellation that stops, over the command table as the server runs
/// it: each command's requests (its smallest, per way of running it) are admitted under
/// the server's default budgets, and each sizing field is grown (times 8 a step) until the
/// call runs past 100 ms; it is then cancelled, and must return within a second of the
/// cancel (a server's slot is then free). A size the budgets refuse ends the growth.
/// `LASTBITE_ONLY=dinner-balance` checks one command.
#[test]
fn every_command_stops_within_a_second_of_a_cancel() {
    use lastbite::api::{call, serving, Control};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let caps = serving::Caps {
        max_states: 10_000_000,
        max_memory_gib: 2,
        max_seconds: 60,
    };
    let mut problems = Vec::new();
    let mut cancelled = 0;
    for g in growths(&caps) {
        let name = g.name.as_str();
        for request in g.requests {
            let stop = Arc::new(AtomicBool::new(false));
            let (tx, rx) = std::sync::mpsc::channel();
            let (flag, command, body) = (stop.clone(), name.to_string(), request.clone());
            std::thread::spawn(move || {
                let ctl = Control::silent().with_cancel(&flag);
                let _ = tx.send(call(&command, &body, &ctl).map(|_| ()));
            });
            let started = Instant::now();
            match rx.recv_timeout(Duration::from_millis(100)) {
                // Answered before the cancel: grow the size.
                Ok(Ok(())) => continue,
                // Refused: past the budgets.
                Ok(Err(_)) => break,
                Err(_) => {
                    stop.store(true, Ordering::Relaxed);
                    let at = Instant::now();
                    match rx.recv_timeout(Duration::from_secs(1)) {
                        Ok(_) => {
                            cancelled += 1;
                            eprintln!("cancelled: {name} {request} in {:?}", at.elapsed());
                        }
                        Err(_) => problems.push(format!(
                            "{name} {request}: still running 1 s after a cancel at {:?}",
                            at - started
                        )),
                    }
                    break;
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        cancelled >= 10,
        "only {cancelled} requests ran long enough to cancel"
    );
}

/// Single long computations the budget-edge test below found running on after a cancel:
/// one period search is a single item of a sweep and one whole call of `subtraction
/// period`, and with a large element it runs for tens of seconds (`{3, 163840}`: 45 s
/// here), so the table and the certificate search ask the control themselves; the
/// continuous Token Dollars game on a fine grid does work growing with its positions
/// times its states (1536 stacks: minutes), so its search asks too. Cancelled 100 ms in,
/// each call must be back within a second.
#[test]
fn single_long_computations_stop_within_a_second_of_a_cancel() {
    use lastbite::api::{call, Control, Error};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let long = [
        ("subtraction-period", r#"{"set": "3,163840"}"#),
        (
            "subtraction-outcome",
            r#"{"set": "3,163840", "heap": "100000000"}"#,
        ),
        (
            "subtraction-scan",
            r#"{"size": 2, "max": 163840, "random": 1, "seed": 1}"#,
        ),
        (
            "tokens-solve",
            r#"{"on_grids": true, "stacks": 1536, "players": 2, "grid": 2}"#,
        ),
    ];
    for (command, body) in long {
        // The work budget lifted: what is tested is the stop, not the refusal before it.
        let body: &'static str = Box::leak(
            body.replacen('{', r#"{"max_seconds": 1000000, "#, 1)
                .into_boxed_str(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let flag = stop.clone();
        std::thread::spawn(move || {
            let ctl = Control::silent().with_cancel(&flag);
            let _ = tx.send(call(command, body, &ctl).map(|_| ()));
        });
        assert!(
            rx.recv_timeout(Duration::from_millis(100)).is_err(),
            "{command} {body} answered within 100 ms: no longer a long search"
        );
        stop.store(true, Ordering::Relaxed);
        let at = Instant::now();
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(Err(Error::Cancelled)) => eprintln!("{command}: stopped in {:?}", at.elapsed()),
            Ok(other) => panic!("{command} {body}: {other:?} instead of cancelled"),
            Err(_) => panic!("{command} {body}: still running 1 s after a cancel"),
        }
    }
}

/// The memory a process has held at most (`VmHWM`), in bytes.
fn peak_memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb << 10)
}

/// Budgets that hold, over the command table: each command's edge requests under a
/// server's budgets of 1 GiB, 10^7 states and a minute of work (each sizing field at the
/// largest value they admit) run in a child process with its data limited, for at most
/// 3 s, and must end (answered, refused or cancelled) with its peak memory within the
/// budget and 0.5 GiB of the process's own. Minutes: `cargo test --release -p
/// lastbite --test schemas -- --ignored`; `LASTBITE_ONLY=cmd` checks one command.
#[test]
#[ignore = "minutes: every command at its budget's edge in a child process"]
fn every_command_at_its_budget_edge_stays_within_memory() {
    use lastbite::api::{call, serving, Control};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;
    const GIB: u64 = 1 << 30;
    if let Ok(job) = std::env::var("LASTBITE_EDGE_REQUEST") {
        // The child: run one request under an address-space limit, print its peak.
        let (name, request) = job.split_once('\t').expect("name and request");
        let limit = libc::rlimit {
            rlim_cur: 4 * GIB,
            rlim_max: 4 * GIB,
        };
        // SAFETY: setrlimit on this process with a valid struct.
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_DATA, &limit) }, 0);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(3));
            flag.store(true, Ordering::Relaxed);
        });
        let r = call(name, request, &Control::silent().with_cancel(&stop));
        println!(
            "EDGE {} {}",
            peak_memory(),
            match r {
                Ok(_) => "answered".to_string(),
                Err(e) => e.to_string().chars().take(100).collect(),
            }
        );
        return;
    }
    let caps = serving::Caps {
        max_states: 10_000_000,
        max_memory_gib: 1,
        max_seconds: 60,
    };
    let fields: std::collections::HashMap<_, _> = serving::request_fields().into_iter().collect();
    let admitted = |name: &str, r: serde_json::Map<String, serde_json::Value>| {
        let body = serde_json::Value::Object(r).to_string();
        let request = serving::admit(&fields[name], body.as_bytes(), &caps, "t").ok()?;
        lastbite::api::estimate(name, &request)
            .is_ok_and(|e| e.admitted)
            .then_some(request)
    };
    let mut problems = Vec::new();
    for edge in crate::edges::edges(&["states", "memory", "seconds"], admitted) {
        let (name, request) = (edge.name.as_str(), edge.request);
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "budgets::every_command_at_its_budget_edge_stays_within_memory",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("LASTBITE_EDGE_REQUEST", format!("{name}\t{request}"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        // The harness prints its "test ... " head on the same line.
        let Some(line) = text.split("EDGE ").nth(1).and_then(|r| r.lines().next()) else {
            problems.push(format!(
                "{name} {request}: the child ended without an answer ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ));
            continue;
        };
        let (peak, what) = line.split_once(' ').unwrap();
        let peak: u64 = peak.parse().unwrap();
        eprintln!("{name} {request}: peak {} MiB, {what}", peak >> 20);
        if peak > caps.max_memory_gib * GIB + GIB / 2 {
            problems.push(format!(
                "{name} {request}: peak {} MiB ({what})",
                peak >> 20
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
