//! The requests at which every command's cost model is checked: three per way of running
//! a command, growing, each a second or a few at the largest on the reference machine.
//! The cost benchmark (`cost.rs`) measures them and derives each unit's calibration;
//! the ignored test `estimates_are_within_4x_of_measured` (tests/schemas/costs.rs) requires
//! every estimate within 4x of its measured time. Instances are drawn from fixed seeds.

use lastbite::rng::Rng;
use serde_json::{json, Value};

/// `n` morsels of `players` random utilities.
fn morsels(n: usize, players: usize, seed: u64) -> String {
    let mut r = Rng::for_trial(seed, n as u64);
    let mut s = String::with_capacity(n * 16);
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        for p in 0..players {
            if p > 0 {
                s.push(',');
            }
            s.push_str(&(1 + r.below(1_000_000)).to_string());
        }
    }
    s
}

/// A random game tree of `nodes` nodes in Gambit's format, drawn by lastbite itself.
fn efg_text(nodes: u64) -> String {
    let req = json!({"nodes": nodes, "seed": 5}).to_string();
    let doc = lastbite::api::call("efg-random", &req, &lastbite::api::Control::silent())
        .expect("a random game");
    let v: Value = serde_json::from_str(&doc).expect("JSON");
    v["efg"].as_str().expect("its text").to_string()
}

/// Every point: `(command, request)`.
pub fn points() -> Vec<(&'static str, Value)> {
    let mut p: Vec<(&'static str, Value)> = Vec::new();
    let mut add = |c: &'static str, reqs: Vec<Value>| p.extend(reqs.into_iter().map(|r| (c, r)));
    let m = |n: usize, k: usize| morsels(n, k, 68);
    add(
        "dinner-solve",
        [10_000, 100_000, 1_000_000]
            .map(|n| json!({"morsels": m(n, 2)}))
            .to_vec(),
    );
    add(
        "dinner-solve",
        [16, 19, 22, 26]
            .map(|n| json!({"morsels": m(n, 3)}))
            .to_vec(),
    );
    add(
        "dinner-play",
        [10_000, 100_000, 1_000_000]
            .map(|n| json!({"morsels": m(n, 2)}))
            .to_vec(),
    );
    add(
        "dinner-verify",
        [14, 17, 20].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-efg",
        [5, 6, 7].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-discount",
        [14, 17, 20]
            .map(|n| json!({"morsels": m(n, 2), "discount": "9/10"}))
            .to_vec(),
    );
    add(
        "dinner-discount",
        [6, 7, 8]
            .map(|n| json!({"discount": "1", "search": true, "max_size": n}))
            .to_vec(),
    );
    add(
        "dinner-pareto",
        [12, 15, 18].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-pareto",
        [7, 8, 9].map(|n| json!({"size": n})).to_vec(),
    );
    add(
        "dinner-experiment",
        [10, 13, 16]
            .map(|n| json!({"size": n, "trials": 200}))
            .to_vec(),
    );
    add(
        "dinner-attainable",
        [14, 18, 22].map(|n| json!({"size": n})).to_vec(),
    );
    add(
        "dinner-plot",
        [10, 13, 16].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-board",
        [100, 300, 1000]
            .map(|n| json!({"morsels": m(n, 2), "picture": true}))
            .to_vec(),
    );
    add(
        "dinner-tree",
        [10, 14, 18].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-balance",
        [100, 300, 1000]
            .map(|n| json!({"max_size": n, "trials": 200}))
            .to_vec(),
    );
    add(
        "dinner-multiplicity",
        [8, 11, 14]
            .map(|n| json!({"size": n, "trials": 50}))
            .to_vec(),
    );
    add(
        "dinner-sincere",
        [10_000, 100_000, 1_000_000]
            .map(|n| json!({"morsels": m(n, 2)}))
            .to_vec(),
    );
    add(
        "dinner-sincere",
        [10, 13, 16]
            .map(|n| json!({"morsels": m(n, 2), "compare": true}))
            .to_vec(),
    );
    add(
        "dinner-manipulate",
        [14, 17, 20].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-fairness",
        [8, 10, 12].map(|n| json!({"morsels": m(n, 2)})).to_vec(),
    );
    add(
        "dinner-fairness",
        [8, 14, 20]
            .map(|n| json!({"size": n, "trials": 2000}))
            .to_vec(),
    );
    add(
        "dinner-expected",
        [40, 80, 160].map(|n| json!({"size": n})).to_vec(),
    );
    add(
        "dinner-expected",
        [3, 4, 5]
            .map(|n| json!({"size": n, "players": 3, "max_profiles": 10_000_000}))
            .to_vec(),
    );
    add(
        "dinner-best-order",
        [10, 12, 14].map(|n| json!({"size": n})).to_vec(),
    );
    add(
        "dinner-strategic-fairness",
        [7, 8, 9].map(|n| json!({"items": n})).to_vec(),
    );
    add(
        "dinner-strategic-fairness",
        [4, 5, 6]
            .map(|n| json!({"question": "three-agents", "items": n, "strict_items": n.min(5)}))
            .to_vec(),
    );
    add(
        "dinner-strategic-fairness",
        [7, 8, 9]
            .map(|n| json!({"question": "guarantees", "items": n}))
            .to_vec(),
    );
    add(
        "subtraction-table",
        [10_000, 100_000, 1_000_000]
            .map(|n| json!({"set": "3,5,9", "max_heap": n}))
            .to_vec(),
    );
    add(
        "subtraction-outcome",
        [100, 1000, 4000]
            .map(|x| json!({"set": format!("3,{x}"), "heap": "1000000000000"}))
            .to_vec(),
    );
    add(
        "subtraction-period",
        [100, 1000, 4000]
            .map(|x| json!({"set": format!("3,{x}")}))
            .to_vec(),
    );
    add(
        "subtraction-scan",
        [15, 25, 40].map(|x| json!({"size": 3, "max": x})).to_vec(),
    );
    add(
        "subtraction-conjecture",
        [15, 25, 40]
            .map(|x| json!({"statement": "4", "sizes": [3], "max": x}))
            .to_vec(),
    );
    add(
        "subtraction-problems",
        [15, 25, 40]
            .map(|x| json!({"sizes": [3], "max": x}))
            .to_vec(),
    );
    add(
        "subtraction-plot",
        [30, 60, 100]
            .map(|x| json!({"figure": "figure1", "max": x}))
            .to_vec(),
    );
    add(
        "tokens-solve",
        [20, 40, 80]
            .map(|n| json!({"stacks": n, "players": 3}))
            .to_vec(),
    );
    add(
        "tokens-solve",
        [4, 16, 64]
            .map(|g| json!({"stacks": 10, "players": 2, "on_grids": true, "grid": g}))
            .to_vec(),
    );
    add(
        "tokens-seats",
        [20, 40, 80]
            .map(|n| json!({"stacks": n, "max_players": 3}))
            .to_vec(),
    );
    add(
        "tokens-anywhere",
        [(10, 4), (10, 5), (8, 6)]
            .map(|(n, k)| json!({"stacks": n, "players": k}))
            .to_vec(),
    );
    add(
        "cookie-analyze",
        [100, 1000, 10_000]
            .map(|n| {
                let c: Vec<String> = (0..n).map(|i| i.to_string()).collect();
                json!({"components": c.join(" ")})
            })
            .to_vec(),
    );
    add(
        "cookie-critical",
        [100, 200, 400].map(|n| json!({"max_size": n})).to_vec(),
    );
    add(
        "cookie-table",
        [50, 100, 200].map(|n| json!({"max_size": n})).to_vec(),
    );
    add(
        "cookie-table",
        [16, 20, 24]
            .map(|n| json!({"max_size": n, "enumerate": true}))
            .to_vec(),
    );
    add(
        "cookie-nim",
        [16, 20, 24].map(|n| json!({"max_size": n})).to_vec(),
    );
    add(
        "cookie-general",
        [8, 10, 12].map(|n| json!({"max_size": n})).to_vec(),
    );
    let games: Vec<(u64, String)> = [10_000, 100_000, 1_000_000]
        .map(|n| (n, efg_text(n)))
        .to_vec();
    add(
        "efg-info",
        games.iter().map(|(_, g)| json!({"data": g})).collect(),
    );
    add(
        "efg-solve",
        games.iter().map(|(_, g)| json!({"data": g})).collect(),
    );
    add(
        "efg-draw",
        games.iter().map(|(_, g)| json!({"data": g})).collect(),
    );
    // Each game with its own equilibrium's profile (Gambit's form), as a user checks one.
    add(
        "efg-verify",
        games
            .iter()
            .map(|(_, g)| {
                let req = json!({"data": g, "max_seconds": u64::MAX}).to_string();
                let doc = lastbite::api::call("efg-solve", &req, &lastbite::api::Control::silent())
                    .expect("a random game solves");
                let v: serde_json::Value = serde_json::from_str(&doc).expect("JSON");
                json!({"data": g, "profile": v["behavior"]})
            })
            .collect(),
    );
    add(
        "efg-random",
        [10_000, 100_000, 1_000_000]
            .map(|n| json!({"nodes": n}))
            .to_vec(),
    );
    add("reproduce", vec![json!({})]);
    p
}

/// The seconds of CPU `command` takes on `body` (its work budget lifted), or its refusal:
/// the cost models count seconds of one core, and a command whose work runs on both cores
/// halves its wall time, not its work (where the process's CPU time cannot be read, wall
/// time). A short call measured far over `estimated` is run once more and the faster time
/// kept: the first call after a large point can carry that point's aftermath (its memory
/// handed back to the system), which is no part of the call's own cost.
pub fn measure(command: &str, body: &str, estimated: f64) -> Result<f64, lastbite::api::Error> {
    let run = || -> Result<f64, lastbite::api::Error> {
        let start = seconds();
        lastbite::api::call(command, body, &lastbite::api::Control::silent())?;
        Ok(seconds() - start)
    };
    let first = run()?;
    if first < 1.0 && first > 4.0 * estimated {
        return Ok(first.min(run()?));
    }
    Ok(first)
}

/// The CPU time this process has used, all its threads (user and system), in seconds.
#[cfg(target_os = "linux")]
fn seconds() -> f64 {
    // SAFETY: getrusage writes only the struct it is given.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let time = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Seconds since the first call (no CPU clock read here).
#[cfg(not(target_os = "linux"))]
fn seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}
