//! The JSON Schemas in `docs/schema/` are generated from the API's request and report
//! types; this test fails when a committed schema is stale. `LASTBITE_BLESS=1 cargo test
//! -p lastbite --test schemas` rewrites them.

use std::path::Path;

#[path = "../benches/cost_points.rs"]
#[allow(dead_code)]
mod cost_points;

/// A value with every object's keys in order, so that a blessed file's text does not
/// depend on serde_json's `preserve_order` (which the workspace's build turns on).
fn sorted(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            serde_json::Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&m[k])))
                    .collect(),
            )
        }
        serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[test]
fn committed_schemas_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/schema");
    let bless = std::env::var_os("LASTBITE_BLESS").is_some();
    let mut stale = Vec::new();
    let schemas = lastbite::api::schemas();
    assert_eq!(schemas.len(), 2 * 40, "a request and a report per command");
    for (stem, schema) in schemas {
        let path = dir.join(format!("{stem}.json"));
        let text = serde_json::to_string_pretty(&sorted(&schema)).unwrap() + "\n";
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else {
            // Compared as JSON values: key order depends on serde_json's `preserve_order`,
            // which a workspace build turns on for the CLI.
            let committed: Option<serde_json::Value> = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            if committed.as_ref() != Some(&schema) {
                stale.push(stem);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing schemas in docs/schema (rerun with LASTBITE_BLESS=1): {stale:?}"
    );
}

#[test]
fn requests_take_the_cli_defaults_and_refuse_unknown_fields() {
    use lastbite::api::dinner::SolveRequest;
    let req: SolveRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(req, SolveRequest::default());
    assert_eq!(req.ties, "index");
    assert!(serde_json::from_str::<SolveRequest>(r#"{"max_state": 3}"#).is_err());
    // Exact numbers from JSON numbers are read by their decimal text.
    let req: SolveRequest = serde_json::from_str(r#"{"discount": 0.1}"#).unwrap();
    assert_eq!(req.discount.unwrap().to_string(), "1/10");
}

/// The smallest requests each command answers: the fields it cannot do without, and one
/// request per way of running it where a field sizes the work of one way only.
fn base_requests(name: &str, schema: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::json;
    let props = &schema["properties"];
    let mut m = serde_json::Map::new();
    let mut give = |k: &str, v: serde_json::Value| {
        if props.get(k).is_some() {
            m.insert(k.into(), v);
        }
    };
    give("morsels", json!("1,2 2,3 3,1"));
    give("set", json!("1,2"));
    give("heap", json!("10"));
    give("components", json!("1 2"));
    give("statement", json!("4"));
    give("profile", json!("NE,1,0"));
    if name.starts_with("efg-") && name != "efg-random" {
        give("data", json!("EFG 2 R \"g\" { \"A\" \"B\" }\np \"\" 1 1 \"\" { \"l\" \"r\" } 0\nt \"\" 1 \"o\" { 1, 2 }\nt \"\" 2 \"p\" { 2, 1 }\n"));
    }
    let with = |extra: serde_json::Value| {
        let mut r = m.clone();
        if name.starts_with("dinner-") && extra.get("morsels").is_none() {
            // A sweep over sizes draws its own dinners.
            if extra.as_object().is_some_and(|e| {
                e.contains_key("size") || e.contains_key("trials") || e.contains_key("search")
            }) {
                r.remove("morsels");
            }
        }
        r.extend(extra.as_object().unwrap().clone());
        serde_json::Value::Object(r)
    };
    match name {
        "dinner-pareto" | "dinner-attainable" => vec![with(json!({"size": 4}))],
        "dinner-fairness" => vec![with(json!({})), with(json!({"trials": 2, "size": 4}))],
        "dinner-discount" => vec![
            with(json!({"discount": "1/2"})),
            with(json!({"discount": "1/2", "search": true, "max_size": 3})),
        ],
        "dinner-experiment" | "dinner-multiplicity" => vec![with(json!({"size": 4, "trials": 2}))],
        "dinner-balance" => vec![with(json!({"max_size": 4, "trials": 2}))],
        "subtraction-scan" => vec![
            with(json!({"pairs": 4})),
            with(json!({"triples": 5})),
            with(json!({"size": 2, "max": 5})),
            with(json!({"size": 2, "max": 5, "random": 3})),
        ],
        "subtraction-plot" => vec![
            with(json!({"figure": "figure1", "max": 8})),
            with(json!({"figure": "heatmap", "max_heap": 20})),
        ],
        "subtraction-problems" | "subtraction-conjecture" => vec![with(json!({"max": 8}))],
        "dinner-strategic-fairness" => vec![
            with(json!({"items": 5})),
            with(json!({"question": "three-agents", "items": 4, "strict_items": 3})),
            with(json!({"question": "guarantees", "items": 5})),
        ],
        "tokens-solve" => vec![
            with(json!({})),
            with(json!({"continuous": true, "stacks": 3, "players": 2, "grid": 2})),
        ],
        _ => vec![with(json!({}))],
    }
}

/// Runs command `name` on `request` with a deadline: `None` when it ran on past it (and
/// was then cancelled).
fn answered(name: &str, request: String) -> Option<Result<(), lastbite::api::Error>> {
    use lastbite::api::{call, Control};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let (flag, name) = (stop.clone(), name.to_string());
    std::thread::spawn(move || {
        let ctl = Control::silent().with_cancel(&flag);
        let _ = tx.send(call(&name, &request, &ctl).map(|_| ()));
    });
    let wait = std::time::Duration::from_secs(5);
    match rx.recv_timeout(wait) {
        Ok(answer) => Some(answer),
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            let _ = rx.recv_timeout(wait);
            None
        }
    }
}

/// Every field that sizes the work has a budget, declared: each integer
/// field of each request carries an `x-budget` (the kinds of
/// `lastbite::api::input::BUDGET_KINDS`, or the name of the budget field that bounds it),
/// and behaves as declared. Set to the largest value of its type on the command's
/// smallest requests, a field is answered before any long work (refused, or run where it
/// sizes nothing), never cancelled for time and never an abort; a sized field is refused
/// in at least one of them, naming the field (a range, an estimate) or the budget field
/// that raises it; one past a declared range is refused naming the field.
/// `LASTBITE_ONLY=dinner-expected` checks one command.
#[test]
fn every_size_is_refused_over_its_budget_before_work() {
    use lastbite::api::input::BUDGET_KINDS;
    let only = std::env::var("LASTBITE_ONLY").ok();
    let mut problems = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let Some(props) = schema["properties"].as_object() else {
            continue;
        };
        let bases = base_requests(name, &schema);
        if name != "reproduce" {
            for base in &bases {
                if let Err(e) =
                    lastbite::api::call(name, &base.to_string(), &lastbite::api::Control::silent())
                {
                    problems.push(format!("{name}: the base request {base} fails: {e}"));
                }
            }
        }
        for (field, prop) in props {
            let text = prop.to_string();
            if !text.contains("\"integer\"") {
                continue;
            }
            let Some(kind) = prop["x-budget"].as_str() else {
                problems.push(format!(
                    "{name}: integer field {field} declares no x-budget"
                ));
                continue;
            };
            let budget_field = !BUDGET_KINDS.contains(&kind);
            if budget_field
                && !props.get(kind).is_some_and(|b| {
                    matches!(
                        b["x-budget"].as_str(),
                        Some("states" | "memory" | "seconds" | "budget")
                    )
                })
            {
                problems.push(format!(
                    "{name}: {field}'s x-budget {kind} is not a budget field of the request"
                ));
                continue;
            }
            if matches!(kind, "states" | "memory" | "seconds" | "budget") || name == "reproduce" {
                continue;
            }
            let list = prop["type"] == "array";
            let value = |n: u64| match list {
                true => serde_json::json!([n]),
                false => serde_json::json!(n),
            };
            let huge = match text {
                _ if text.contains("\"uint8\"") => u8::MAX as u64,
                _ if text.contains("\"uint32\"") => u32::MAX as u64,
                _ => 1_000_000_000_000_000,
            };
            let mut tries = vec![huge];
            if kind == "range" {
                match prop["maximum"].as_u64() {
                    Some(max) if max < huge => tries.push(max + 1),
                    Some(_) => {}
                    None => {
                        problems.push(format!("{name}: {field} declares a range and no maximum"))
                    }
                }
            }
            // The bases where the field takes part: a small value is answered.
            let with = |base: &serde_json::Value, n: u64| {
                let mut req = base.as_object().unwrap().clone();
                req.insert(field.clone(), value(n));
                serde_json::Value::Object(req)
            };
            // A small value: the base's own, else the default, else 1.
            let small = |base: &serde_json::Value| {
                base[field.as_str()]
                    .as_u64()
                    .or(prop["default"].as_u64().filter(|d| (1..=100).contains(d)))
                    .unwrap_or(1)
            };
            let taking: Vec<&serde_json::Value> = bases
                .iter()
                .filter(|b| matches!(answered(name, with(b, small(b)).to_string()), Some(Ok(()))))
                .collect();
            for n in tries {
                let mut refused = false;
                for base in &taking {
                    let req = with(base, n);
                    match answered(name, req.to_string()) {
                        None => problems.push(format!("{name}: {req} ran on past the deadline")),
                        Some(Ok(())) => {}
                        Some(Err(e)) => {
                            // The field itself, or the budget it is declared under; an
                            // estimate may name none, being over a fixed limit.
                            // Or the work budget every request has: the cost model's.
                            let named = e.field() == Some(field.as_str())
                                || (budget_field && e.field() == Some(kind))
                                || e.field() == Some("max_seconds")
                                || (kind == "estimate"
                                    && e.kind() == lastbite::api::ErrorKind::OverBudget);
                            if named {
                                refused = true;
                            } else {
                                problems.push(format!("{name}: {field} = {n} is refused without naming it or its budget: {e}"));
                            }
                        }
                    }
                }
                if !refused && kind != "none" {
                    problems.push(format!(
                        "{name}: {field} = {n} is not refused in any of {taking:?}"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every command states its cost before its work: on each of its smallest requests the
/// call stops at an estimate ([`lastbite::api::estimate`]), in a unit of the one table,
/// and the request runs within it; a command that admits no cost is named.
#[test]
fn every_command_states_its_cost_before_work() {
    use lastbite::api::cost::UNITS;
    let mut problems = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        if schema["properties"]["max_seconds"]["x-budget"] != "seconds" {
            problems.push(format!("{name}: its request has no max_seconds budget"));
        }
        for base in base_requests(name, &schema) {
            match lastbite::api::estimate(name, &base.to_string()) {
                Ok(e) => {
                    if !UNITS.iter().any(|u| u.name == e.unit) {
                        problems.push(format!("{name}: unit {} is not in the table", e.unit));
                    }
                    if !e.admitted {
                        problems.push(format!(
                            "{name} {base}: its smallest request is over budget: {}",
                            e.text
                        ));
                    }
                }
                Err(e) => problems.push(format!("{name} {base}: no estimate: {e}")),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A request over its work budget is refused before the work with the estimate in
/// seconds and in the command's units, naming `max_seconds`; raising the budget admits
/// it; an astronomical estimate is written as a power of ten.
#[test]
fn over_its_work_budget_a_request_is_refused_with_its_estimate() {
    use lastbite::api::{call, estimate, Control, Error, ErrorKind};
    use std::time::Instant;
    let started = Instant::now();
    let e = call("dinner-best-order", r#"{"size": 24}"#, &Control::silent()).unwrap_err();
    assert!(
        started.elapsed().as_millis() < 100,
        "refused before the work"
    );
    assert_eq!(
        (e.kind(), e.field()),
        (ErrorKind::OverBudget, Some("max_seconds"))
    );
    let text = e.to_string();
    assert!(
        text.starts_with("about ")
            && text.contains("sequence steps)")
            && text.ends_with("is over max_seconds 60"),
        "{text}"
    );
    // The trials a user asks for are the work: 10^8 random dinners are hours.
    let e = call(
        "dinner-fairness",
        r#"{"size": 20, "trials": 100000000}"#,
        &Control::silent(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::OverCost { .. }), "{e}");
    let est = estimate("dinner-fairness", r#"{"size": 20, "trials": 100000000}"#).unwrap();
    assert!(!est.admitted && est.seconds.unwrap() > 3600.0, "{est:?}");
    // Following the advice: a budget that covers the estimate admits it (estimated only).
    let raised = format!(
        r#"{{"size": 20, "trials": 100000000, "max_seconds": {}}}"#,
        est.seconds.unwrap().ceil() as u64 + 1
    );
    assert!(estimate("dinner-fairness", &raised).unwrap().admitted);
    // Astronomical: strategic play of 6 agents over 1000 items searches every item mask.
    let e = estimate(
        "dinner-expected",
        r#"{"size": 1000, "players": 6, "max_items": 1000, "samples": 1000, "play": "strategic"}"#,
    )
    .unwrap();
    assert!(e.seconds.is_none() && e.text.contains("10^"), "{e:?}");
}

/// The cost models against the clock: every point of `benches/cost_points.rs` (three
/// per way of running each command) estimated and run; each estimate must be within 4x
/// of the measured time (points both under 20 ms agree: a process's noise). Minutes:
/// `cargo test --release -p lastbite --test schemas -- --ignored estimates_`;
/// `cargo bench -p lastbite --bench cost` prints the table and the calibration.
#[test]
#[ignore = "minutes: every command's cost points run"]
fn estimates_are_within_4x_of_measured() {
    let mut problems = Vec::new();
    for (command, mut request) in cost_points::points() {
        request["max_seconds"] = serde_json::json!(u64::MAX);
        let body = request.to_string();
        let e = lastbite::api::estimate(command, &body).unwrap();
        let start = std::time::Instant::now();
        if let Err(err) = lastbite::api::call(command, &body, &lastbite::api::Control::silent()) {
            problems.push(format!("{command}: refused: {err}"));
            continue;
        }
        let measured = start.elapsed().as_secs_f64();
        let estimated = e.seconds.unwrap_or(f64::INFINITY);
        let ratio = measured / estimated;
        eprintln!("{command}: estimated {estimated:.3} s, measured {measured:.3} s");
        if (measured > 0.02 || estimated > 0.02) && !(0.25..=4.0).contains(&ratio) {
            problems.push(format!(
                "{command}: estimated {estimated:.3} s, measured {measured:.3} s ({} bytes of request)",
                body.len()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The budget's edge (the cost model's): for every command and sizing field of its
/// smallest requests, the largest value whose estimate a budget of `LASTBITE_EDGE_SECONDS`
/// (default: the default budget, 60 s) admits, found by doubling then halving; that
/// request must finish (answered, or refused for another budget) within 3x the budget.
/// Hours at the default budget: `LASTBITE_EDGE_SECONDS=2 cargo test --release -p
/// lastbite --test schemas -- --ignored budget_edge_runs`.
#[test]
#[ignore = "hours at the default budget: every command at the edge of its work budget"]
fn budget_edge_runs_within_3x_of_its_budget() {
    use lastbite::api::{call, estimate, Control};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let budget: u64 = std::env::var("LASTBITE_EDGE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(lastbite::api::cost::DEFAULT_MAX_SECONDS);
    let only = std::env::var("LASTBITE_ONLY").ok();
    let mut problems = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        if name == "reproduce" || only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let props = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for base in base_requests(name, &schema) {
            for (field, prop) in &props {
                let sizing = prop["x-budget"].as_str().is_some_and(|k| {
                    !matches!(k, "none" | "states" | "memory" | "seconds" | "budget")
                });
                if !sizing || !prop.to_string().contains("\"integer\"") {
                    continue;
                }
                let list = prop["type"] == "array";
                let at = |n: u64| {
                    let mut r = base.as_object().unwrap().clone();
                    r.insert(
                        field.clone(),
                        if list {
                            serde_json::json!([n])
                        } else {
                            serde_json::json!(n)
                        },
                    );
                    r.insert("max_seconds".into(), serde_json::json!(budget));
                    serde_json::Value::Object(r).to_string()
                };
                let admitted = |n: u64| estimate(name, &at(n)).is_ok_and(|e| e.admitted);
                let mut lo = base[field.as_str()].as_u64().unwrap_or(1).max(1);
                if !admitted(lo) {
                    continue;
                }
                let mut hi = lo;
                while hi < 1 << 40 && admitted(hi.saturating_mul(2)) {
                    hi *= 2;
                }
                lo = hi;
                let mut top = hi.saturating_mul(2);
                while top - lo > 1 {
                    let mid = lo + (top - lo) / 2;
                    if admitted(mid) {
                        lo = mid;
                    } else {
                        top = mid;
                    }
                }
                let request = at(lo);
                let stop = Arc::new(AtomicBool::new(false));
                let (tx, rx) = std::sync::mpsc::channel();
                let (flag, command, body) = (stop.clone(), name.to_string(), request.clone());
                let started = Instant::now();
                std::thread::spawn(move || {
                    let ctl = Control::silent().with_cancel(&flag);
                    let _ = tx.send(call(&command, &body, &ctl).err());
                });
                let limit = Duration::from_secs(3 * budget);
                match rx.recv_timeout(limit) {
                    Ok(e) => eprintln!(
                        "{name} {field} = {lo}: {:.2} s{}",
                        started.elapsed().as_secs_f64(),
                        e.map(|e| format!(" ({e})")).unwrap_or_default()
                    ),
                    Err(_) => {
                        stop.store(true, Ordering::Relaxed);
                        let _ = rx.recv_timeout(Duration::from_secs(5));
                        problems.push(format!(
                            "{name} {field} = {lo}: running past 3 x {budget} s"
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Closed sets are enums: a text field whose help names two or more
/// values (`snake`, `alternate`) either lists them in its schema (`oneOf` constants, so the
/// CLI's possible values and Python's `Literal` show them) or declares that it takes other
/// forms too (`x-open`: turn orders as letters, scoring vectors, per-player tie rules).
#[test]
fn closed_sets_are_enums() {
    let mut problems = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        let Some(props) = schema["properties"].as_object() else {
            continue;
        };
        for (field, prop) in props {
            let text = prop.to_string();
            let closed =
                text.contains("oneOf") || text.contains("\"enum\"") || text.contains("$ref");
            if !prop["type"].to_string().contains("string")
                || closed
                || prop.get("x-path").is_some()
            {
                continue;
            }
            let help = prop["description"].as_str().unwrap_or("");
            let named = help
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
                .count();
            if named >= 2 && prop["x-open"] != true {
                problems.push(format!(
                    "{name}: {field} names its values in its help but is not an enum (or x-open)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A sizing field of a command's request, on one of its base requests, grown times 8 a
/// step from the base's value: each step's request as admitted under `caps` (the server's
/// budgets filled in), until the server's checks refuse it. Every command but reproduce
/// (minutes: its sweeps are commands of their own), or the one `LASTBITE_ONLY` names.
struct Growth {
    name: String,
    requests: Vec<String>,
}

fn growths(caps: &lastbite::api::serving::Caps) -> Vec<Growth> {
    use lastbite::api::serving;
    let only = std::env::var("LASTBITE_ONLY").ok();
    let fields: std::collections::HashMap<_, _> = serving::request_fields().into_iter().collect();
    let mut all = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        if name == "reproduce" || only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let props = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for base in base_requests(name, &schema) {
            for (field, prop) in &props {
                let sizing = prop["x-budget"]
                    .as_str()
                    .is_some_and(|k| !matches!(k, "none" | "states" | "memory" | "budget"));
                if !sizing || !prop.to_string().contains("\"integer\"") {
                    continue;
                }
                let list = prop["type"] == "array";
                let mut n = base[field.as_str()].as_u64().unwrap_or(2).max(2);
                let mut requests = Vec::new();
                for _ in 0..24 {
                    let mut req = base.as_object().unwrap().clone();
                    let v = if list {
                        serde_json::json!([n])
                    } else {
                        serde_json::json!(n)
                    };
                    req.insert(field.clone(), v);
                    let body = serde_json::Value::Object(req).to_string();
                    match serving::admit(&fields[name], body.as_bytes(), caps, "t") {
                        Ok(r) => requests.push(r),
                        Err(_) => break,
                    }
                    n = n.saturating_mul(8);
                }
                all.push(Growth {
                    name: name.to_string(),
                    requests,
                });
            }
        }
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
            r#"{"continuous": true, "stacks": 1536, "players": 2, "grid": 2}"#,
        ),
    ];
    for (command, body) in long {
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

/// Budgets that hold, over the command table: each command's sizing
/// fields are grown (times 8 a step) under a server's budgets of 1 GiB and 10^7 states
/// until the library refuses them; the largest size not refused (the budget's edge, within
/// a factor of 8) then runs in a child process with its address space limited, for at
/// most 3 s, and must end (answered, refused or cancelled) with its peak memory within
/// the budget and 0.5 GiB of the process's own. Minutes: `cargo test --release -p
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
    let mut problems = Vec::new();
    for g in growths(&caps) {
        let name = g.name.as_str();
        let mut edge = None;
        for request in g.requests {
            // Refused by the library at once: past the edge. A call still running
            // 2 s after its cancel is left running and reported.
            let stop = Arc::new(AtomicBool::new(false));
            let (tx, rx) = std::sync::mpsc::channel();
            let (flag, command, r) = (stop.clone(), name.to_string(), request.clone());
            std::thread::spawn(move || {
                let ctl = Control::silent().with_cancel(&flag);
                let _ = tx.send(call(&command, &r, &ctl).err());
            });
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
            match rx.recv_timeout(Duration::from_secs(2)) {
                Ok(Some(e)) if !matches!(e, lastbite::api::Error::Cancelled) => break,
                Ok(_) => edge = Some(request),
                Err(_) => {
                    problems.push(format!("{name} {request}: running 2 s after a cancel"));
                    break;
                }
            }
        }
        let Some(request) = edge else { continue };
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "every_command_at_its_budget_edge_stays_within_memory",
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

/// `cookie critical` lists about n^3/9 components for sizes up to n: 10,000 sizes would be
/// terabytes. The budget-edge test found 8,192 sizes admitted and passing 3 GB; now the
/// list is estimated before work and refused over `memory_gib`, naming it and the size.
#[test]
fn cookie_critical_is_refused_over_its_memory_budget() {
    use lastbite::api::{call, Control};
    let t = std::time::Instant::now();
    let e = call(
        "cookie-critical",
        r#"{"max_size": 8192, "memory_gib": 8}"#,
        &Control::silent(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("memory_gib") && e.contains("8192"), "{e}");
    assert!(t.elapsed().as_millis() < 100, "refused before the work");
    let fits = call(
        "cookie-critical",
        r#"{"max_size": 60, "memory_gib": 1}"#,
        &Control::silent(),
    )
    .unwrap();
    assert!(fits.contains("\"critical\""));
}
