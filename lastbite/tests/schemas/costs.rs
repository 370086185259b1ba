//! The cost models over the command table: every command states its cost before its work,
//! a request over its work budget is refused with its estimate, and (ignored, minutes)
//! the estimates against the clock and the budget's edge.

#[path = "../../benches/cost_points.rs"]
#[allow(dead_code)]
mod cost_points;

use crate::base_requests;

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
            && text.contains("is over max_seconds 60 (raise it to "),
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
        let estimated = e.seconds.unwrap_or(f64::INFINITY);
        let measured = match cost_points::measure(command, &body, estimated) {
            Ok(m) => m,
            Err(err) => {
                problems.push(format!("{command}: refused: {err}"));
                continue;
            }
        };
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
    let wait_budgets: u64 = std::env::var("LASTBITE_EDGE_WAIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut problems = Vec::new();
    let admitted = |name: &str, mut r: serde_json::Map<String, serde_json::Value>| {
        r.insert("max_seconds".into(), serde_json::json!(budget));
        let request = serde_json::Value::Object(r).to_string();
        estimate(name, &request)
            .is_ok_and(|e| e.admitted)
            .then_some(request)
    };
    for crate::edges::Edge {
        name,
        field,
        value: lo,
        request,
    } in crate::edges::edges(&["states", "memory", "seconds"], admitted)
    {
        let est = estimate(&name, &request)
            .map(|e| e.text)
            .unwrap_or_default();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let (flag, command, body) = (stop.clone(), name.to_string(), request.clone());
        let started = Instant::now();
        std::thread::spawn(move || {
            let ctl = Control::silent().with_cancel(&flag);
            let _ = tx.send(call(&command, &body, &ctl).err());
        });
        let limit = Duration::from_secs(3 * budget);
        // Past the limit, wait up to `LASTBITE_EDGE_WAIT` budgets to measure how
        // far the model is off (a fitted term needs the measured time).
        let wait = Duration::from_secs(wait_budgets * budget).max(limit);
        let outcome = rx.recv_timeout(wait);
        let took = started.elapsed();
        if outcome.is_err() {
            stop.store(true, Ordering::Relaxed);
            let _ = rx.recv_timeout(Duration::from_secs(5));
        }
        let error = outcome.ok().flatten().map(|e| format!(" ({e})"));
        eprintln!(
            "{name} {field} = {lo}: {:.2} s{} [estimated {est}]",
            took.as_secs_f64(),
            error.unwrap_or_default()
        );
        if took > limit {
            problems.push(format!(
                "{name} {field} = {lo}: {:.1} s, past 3 x {budget} s [estimated {est}]",
                took.as_secs_f64()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every command whose largest request its other budgets admit (its time budget raised
/// out of the way) is estimated past a few minutes is a sweep, cut into shards that can
/// run anywhere, be merged and resumed ([`lastbite::api::sweep::SWEEPS`]); or it is named
/// below as one computation (a backward induction or a search whose parts share their
/// table), with why.
#[test]
fn every_long_command_is_a_sweep() {
    use lastbite::api::estimate;
    use lastbite::api::sweep::SWEEPS;
    /// A few minutes of one core.
    const LONG: f64 = 300.0;
    const ONE_COMPUTATION: &[(&str, &str)] = &[
        (
            "cookie-nim",
            "one table of nim values, each layer read from the layers below",
        ),
        (
            "tokens-solve",
            "one backward induction over the board's positions",
        ),
    ];
    let admitted = |name: &str, mut r: serde_json::Map<String, serde_json::Value>| {
        r.insert("max_seconds".into(), serde_json::json!(1u64 << 50));
        let request = serde_json::Value::Object(r).to_string();
        estimate(name, &request)
            .is_ok_and(|e| e.admitted)
            .then_some(request)
    };
    let mut long = std::collections::BTreeMap::new();
    for edge in crate::edges::edges(&["seconds"], admitted) {
        let seconds = estimate(&edge.name, &edge.request)
            .ok()
            .and_then(|e| e.seconds)
            .unwrap_or(f64::INFINITY);
        if seconds > LONG {
            long.entry(edge.name.clone())
                .or_insert_with(|| format!("{} = {}: {seconds:.0} s", edge.field, edge.value));
        }
    }
    let mut problems = Vec::new();
    for (name, at) in &long {
        let exempt = ONE_COMPUTATION.iter().any(|(n, _)| n == name);
        if !SWEEPS.contains(&name.as_str()) && !exempt {
            problems.push(format!("{name} runs long ({at}) and is not a sweep"));
        }
    }
    // Every exemption is still needed: a command that became a sweep, or no longer runs
    // long, leaves the list.
    for name in ONE_COMPUTATION.iter().map(|e| e.0) {
        if SWEEPS.contains(&name) || !long.contains_key(name) {
            problems.push(format!(
                "{name} is listed as a long non-sweep, but is not one"
            ));
        }
    }
    eprintln!("long commands: {long:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
