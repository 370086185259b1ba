//! The cost models against the clock: every point of `cost_points.rs` estimated
//! ([`lastbite::api::estimate`]) and run ([`lastbite::api::call`], work budget lifted),
//! printed as a table of estimate, measured time and their ratio, then each unit's
//! calibration (nanoseconds per unit) as measured here beside the table's
//! ([`lastbite::api::cost::UNITS`]): the median over its points of measured time per
//! unit, and what the admission check costs: the whole [`lastbite::api::estimate`] call
//! (parsing, validating and the model's arithmetic, an upper bound on what the check adds
//! to a command), listing the points where it is over 2% of the run. `cargo bench -p lastbite --bench cost`
//! (a few minutes); `LASTBITE_ONLY=dinner-`
//! keeps the commands whose names start so (a comma-separated list). The figures of a run are in
//! `docs/performance.md`.

#[path = "cost_points.rs"]
mod cost_points;

use std::collections::BTreeMap;

use lastbite::api::{self, cost::UNITS};

fn main() {
    let only = std::env::var("LASTBITE_ONLY").unwrap_or_default();
    let mut per_unit: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let (mut over_share, mut checked, mut slowest_check) = (Vec::new(), 0, 0f64);
    println!("| command | request | estimate (s) | measured (s) | measured / estimate |");
    println!("|---|---|---:|---:|---:|");
    for (command, mut request) in cost_points::points() {
        if !only.split(',').any(|o| command.starts_with(o)) {
            continue;
        }
        request["max_seconds"] = serde_json::json!(u64::MAX);
        let body = request.to_string();
        let e = api::estimate(command, &body).expect("an estimate");
        let estimated = e.seconds.unwrap_or(f64::INFINITY);
        let measured = match cost_points::measure(command, &body, estimated) {
            Ok(m) => m,
            Err(err) => {
                println!("| {command} | {} | refused: {err} | | |", short(&request));
                continue;
            }
        };
        // The check's own time: the median of a few estimates of the same request.
        let mut checks: Vec<f64> = (0..15)
            .map(|_| {
                let t = std::time::Instant::now();
                let _ = api::estimate(command, &body);
                t.elapsed().as_secs_f64()
            })
            .collect();
        checks.sort_by(f64::total_cmp);
        let check = checks[checks.len() / 2];
        if check > 0.02 * measured {
            over_share.push(format!(
                "{command} {} ({:.0} us of {:.4} s)",
                short(&request),
                check * 1e6,
                measured
            ));
        }
        checked += 1;
        slowest_check = slowest_check.max(check);
        let unit = UNITS
            .iter()
            .find(|u| u.name == e.unit)
            .expect("a unit of the table");
        let work = 10f64.powf(e.log10_seconds) / (unit.nanoseconds * 1e-9);
        per_unit
            .entry(unit.name)
            .or_default()
            .push(measured / work * 1e9);
        println!(
            "| {command} | {} | {estimated:.3} | {measured:.3} | {:.2} |",
            short(&request),
            measured / estimated
        );
    }
    println!(
        "\nThe whole estimate call took at most {:.0} us; over 2% of its point's run at {} of {checked} points:",
        slowest_check * 1e6,
        over_share.len()
    );
    for p in &over_share {
        println!("- {p}");
    }
    println!("\n| unit | table ns | measured ns (median) | points |");
    println!("|---|---:|---:|---:|");
    for (name, mut ns) in per_unit {
        ns.sort_by(f64::total_cmp);
        let table = UNITS
            .iter()
            .find(|u| u.name == name)
            .map_or(0.0, |u| u.nanoseconds);
        println!(
            "| {name} | {table} | {:.1} | {} |",
            ns[ns.len() / 2],
            ns.len()
        );
    }
}

/// A request in a table cell: long text fields by their length.
fn short(request: &serde_json::Value) -> String {
    let mut r = request.clone();
    if let Some(o) = r.as_object_mut() {
        o.remove("max_seconds");
        for v in o.values_mut() {
            if v.as_str().is_some_and(|s| s.len() > 40) {
                *v = serde_json::json!(format!("<{} bytes>", v.as_str().unwrap().len()));
            }
        }
    }
    r.to_string().replace('|', "\\|")
}
