//! Sweeps in shards: for every sweep command and several shard counts, the merged
//! shards (given in any order) equal the unsharded command's report byte for byte, and
//! bad shard sets are refused with one-line errors.

use lastbite::api::{call, sweep, Control};
use lastbite::rng::Rng;

/// A request for each sweep command, small enough for a test but with counterexamples,
/// ties and several items per shard.
const SWEEPS: &[(&str, &str)] = &[
    (
        "subtraction-conjecture",
        r#"{"statement": "4", "sizes": [4], "max": 31}"#,
    ),
    (
        "subtraction-conjecture",
        r#"{"statement": "p3", "sizes": [2, 3], "max": 14}"#,
    ),
    (
        "subtraction-conjecture",
        r#"{"statement": "p6", "sizes": [2, 3], "max": 16}"#,
    ),
    ("subtraction-scan", r#"{"triples": 9}"#),
    (
        "subtraction-scan",
        r#"{"size": 4, "max": 12, "random": 30, "csv": true}"#,
    ),
    ("subtraction-problems", r#"{"sizes": [2, 3, 4], "max": 12}"#),
    ("subtraction-plot", r#"{"figure": "figure1", "max": 30}"#),
    (
        "subtraction-plot",
        r#"{"figure": "figure3", "max": 14, "picture": true}"#,
    ),
    (
        "dinner-experiment",
        r#"{"size": 8, "trials": 97, "seed": 5}"#,
    ),
    ("dinner-balance", r#"{"max_size": 13, "trials": 20}"#),
    ("dinner-pareto", r#"{"size": 8}"#),
    ("cookie-general", r#"{"max_size": 12}"#),
    ("tokens-anywhere", r#"{"players": 3}"#),
    (
        "tokens-anywhere",
        r#"{"players": 4, "stacks": 6, "clock": true, "ties": "highest"}"#,
    ),
    (
        "dinner-discount",
        r#"{"discount": "1", "search": true, "max_size": 7}"#,
    ),
    (
        "dinner-discount",
        r#"{"discount": "9/10", "search": true, "max_size": 7}"#,
    ),
    (
        "dinner-multiplicity",
        r#"{"players": 3, "size": 6, "trials": 60, "seed": 3}"#,
    ),
    (
        "dinner-strategic-fairness",
        r#"{"items": 6, "strict_items": 5}"#,
    ),
    ("dinner-best-order", r#"{"size": 10}"#),
    (
        "dinner-fairness",
        r#"{"trials": 40, "size": 6, "players": 3, "every_spe": true, "seed": 2}"#,
    ),
    (
        "dinner-best-order",
        r#"{"size": 11, "counts": [5, 6], "play": "strategic", "model": "lexicographic"}"#,
    ),
    (
        "dinner-strategic-fairness",
        r#"{"question": "three-agents", "items": 7, "strict_items": 3}"#,
    ),
    (
        "dinner-strategic-fairness",
        r#"{"question": "guarantees", "items": 7}"#,
    ),
];

fn shards(name: &str, req: &str, n: u64) -> Vec<String> {
    (1..=n)
        .map(|i| {
            sweep::shard(
                name,
                req,
                sweep::Shard::new(i, n).unwrap(),
                &Control::silent(),
            )
            .unwrap_or_else(|e| panic!("{name} shard {i}/{n}: {e}"))
        })
        .collect()
}

#[test]
fn every_sweep_is_covered() {
    let mut names: Vec<&str> = SWEEPS.iter().map(|s| s.0).collect();
    names.sort_unstable();
    names.dedup();
    let mut registry = sweep::SWEEPS.to_vec();
    registry.sort_unstable();
    assert_eq!(names, registry);
}

#[test]
fn merged_shards_equal_the_unsharded_report() {
    let mut rng = Rng::for_trial(7, 0);
    for &(name, req) in SWEEPS {
        let whole = call(name, req, &Control::silent()).unwrap();
        let items = sweep::items(name, req).unwrap();
        assert!(items > 3, "{name}: {items} items");
        // More shards than items leaves some empty (each shard lists the items anew, so
        // only small sweeps get that many).
        let many = if items < 2000 { items + 2 } else { 5 };
        for n in [1, 2, 3, 7, many] {
            let mut docs = shards(name, req, n);
            // Completion order must not matter.
            for i in (1..docs.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                docs.swap(i, j);
            }
            let merged = sweep::merge(&docs, &Control::silent()).unwrap();
            assert_eq!(merged.command, name);
            assert_eq!(merged.json, whole, "{name} {req} in {n} shards");
        }
    }
}

#[test]
fn conjecture_lists_every_counterexample() {
    // Conjecture 4 fails on sets of size 4 up to 33 (the first release found the
    // smallest); every counterexample must be listed, the smallest first.
    let r: serde_json::Value = serde_json::from_str(
        &call(
            "subtraction-conjecture",
            r#"{"statement": "4", "sizes": [4], "max": 33}"#,
            &Control::silent(),
        )
        .unwrap(),
    )
    .unwrap();
    let all = r["counterexamples"].as_array().unwrap();
    assert!(!all.is_empty(), "{r}");
    assert_eq!(all[0]["set"], r["counterexample"]["set"]);
    assert_eq!(all[0]["heap"], r["counterexample"]["heap"]);
    // Each listed counterexample really fails: checked alone, it is the smallest.
    for c in all {
        let set = c["set"].as_array().unwrap();
        let max = set.last().unwrap().as_u64().unwrap();
        let one: serde_json::Value = serde_json::from_str(
            &call(
                "subtraction-conjecture",
                &format!(r#"{{"statement": "4", "sizes": [4], "max": {max}}}"#),
                &Control::silent(),
            )
            .unwrap(),
        )
        .unwrap();
        assert!(one["counterexamples"].as_array().unwrap().contains(c));
    }
}

#[test]
fn bad_shard_sets_are_refused() {
    let (name, req) = SWEEPS[0];
    let docs = shards(name, req, 3);
    let err = |docs: &[String]| {
        sweep::merge(docs, &Control::silent())
            .unwrap_err()
            .to_string()
    };
    assert!(
        err(&docs[..2]).contains("1 of 3 shards missing: 3"),
        "{}",
        err(&docs[..2])
    );
    let twice = vec![
        docs[0].clone(),
        docs[0].clone(),
        docs[1].clone(),
        docs[2].clone(),
    ];
    assert!(err(&twice).contains("shard 1/3 is given twice"));
    let other = shards(name, r#"{"statement": "4", "sizes": [4], "max": 20}"#, 3);
    let mixed = vec![docs[0].clone(), docs[1].clone(), other[2].clone()];
    assert!(err(&mixed).contains("from another sweep"));
    assert!(err(&["{\"a\": 1}".to_string()]).contains("shard document 1 cannot be used"));
    // Shard 1's document relabelled as shard 3: the checksum
    // refuses it, as it refuses any number edited.
    let relabelled = docs[0].replace("\"shard\":1,", "\"shard\":3,");
    assert_ne!(relabelled, docs[0]);
    let forged = vec![docs[0].clone(), docs[1].clone(), relabelled];
    assert!(
        err(&forged)
            .contains("shard document 3 cannot be used: its content does not match its checksum"),
        "{}",
        err(&forged)
    );
    assert!(err(&[]).contains("no shard documents"));
    for e in [err(&docs[..2]), err(&mixed)] {
        assert!(!e.contains('\n'));
    }
    assert!(sweep::Shard::parse("0/3").is_err());
    assert!(sweep::Shard::parse("4/3").is_err());
    assert!(sweep::Shard::parse("x").is_err());
    assert_eq!(sweep::Shard::parse("2/3").unwrap().index(), 2);
    assert!(sweep::shard(
        "dinner-solve",
        "{}",
        sweep::Shard::whole(),
        &Control::silent()
    )
    .unwrap_err()
    .to_string()
    .contains("is not a sweep"));
    // A scan writing to a file is not a sweep in shards.
    assert!(sweep::shard(
        "subtraction-scan",
        r#"{"pairs": 5, "out": "x.jsonl"}"#,
        sweep::Shard::whole(),
        &Control::silent()
    )
    .is_err());
}

/// Shards carry equal estimated cost: a sweep whose rulesets differ in cost (largest
/// elements 3 to 40) cut into 2 to 16 shards has its costliest shard within 1.5x of the
/// mean, the shares summing to the whole; and the merged report is the unsharded one.
#[test]
fn shards_carry_equal_estimated_cost() {
    let req = r#"{"statement": "4", "sizes": [3], "max": 40}"#;
    let whole = lastbite::api::call("subtraction-conjecture", req, &Control::silent()).unwrap();
    for n in [2u64, 3, 8, 16] {
        let shares = sweep::shard_shares("subtraction-conjecture", req, n).unwrap();
        let sum: f64 = shares.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{shares:?}");
        let top = shares.iter().cloned().fold(0.0, f64::max);
        assert!(top <= 1.5 / n as f64, "{n} shards: {shares:?}");
        let docs: Vec<String> = (1..=n)
            .map(|i| {
                sweep::shard(
                    "subtraction-conjecture",
                    req,
                    sweep::Shard::new(i, n).unwrap(),
                    &Control::silent(),
                )
                .unwrap()
            })
            .collect();
        assert_eq!(sweep::merge(&docs, &Control::silent()).unwrap().json, whole);
    }
    // Trials alike are dealt round-robin: equal counts.
    let shares =
        sweep::shard_shares("dinner-experiment", r#"{"size": 6, "trials": 10}"#, 4).unwrap();
    assert_eq!(shares, [0.3, 0.3, 0.2, 0.2]);
}

/// Every number (and array) of every shard's partial result changed, one at a time, and
/// the document sealed again as a forger would: `merge` answers each (a report, or an
/// error of one line) and never panics.
#[test]
fn resealed_mutants_never_panic_merge() {
    use serde_json::Value;
    let mut rng = Rng::for_trial(11, 0);
    let odd = [
        Value::from(0),
        Value::from(1),
        Value::from(-1),
        Value::from(1_000_000_000_000u64),
        Value::from(1u64 << 63),
        Value::from(u64::MAX),
        Value::from(-(1i64 << 62)),
    ];
    // The paths to the partial's numbers and arrays.
    fn leaves(v: &Value, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, bool)>) {
        match v {
            Value::Number(_) => out.push((path.clone(), false)),
            Value::Array(a) => {
                out.push((path.clone(), true));
                for (i, x) in a.iter().enumerate() {
                    path.push(i);
                    leaves(x, path, out);
                    path.pop();
                }
            }
            Value::Object(o) => {
                for (i, (_, x)) in o.iter().enumerate() {
                    path.push(i);
                    leaves(x, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    fn at<'a>(v: &'a mut Value, path: &[usize]) -> &'a mut Value {
        path.iter().fold(v, |v, &i| match v {
            Value::Array(a) => &mut a[i],
            Value::Object(o) => o.values_mut().nth(i).unwrap(),
            _ => unreachable!(),
        })
    }
    let mut tried = 0;
    for &(name, req) in SWEEPS {
        let docs = shards(name, req, 2);
        for d in 0..docs.len() {
            let text = &docs[d];
            let bare = &text[..text.rfind(",\"checksum\"").unwrap()];
            let doc: Value = serde_json::from_str(&format!("{bare}}}")).unwrap();
            let mut paths = Vec::new();
            leaves(&doc["partial"], &mut Vec::new(), &mut paths);
            // Every leaf of a small partial; a sample of a large one.
            let step = paths.len().div_ceil(60).max(1);
            for (path, array) in paths.into_iter().step_by(step) {
                let mut forged = doc.clone();
                let target = at(&mut forged["partial"], &path);
                if array {
                    let a = target.as_array_mut().unwrap();
                    match (a.is_empty(), rng.below(2)) {
                        (true, _) => a.push(Value::from(7)),
                        (false, 0) => {
                            a.pop();
                        }
                        (false, _) => a.push(a[0].clone()),
                    }
                } else {
                    *target = odd[rng.below(odd.len() as u64) as usize].clone();
                }
                let mut all = docs.clone();
                all[d] = lastbite::files::seal_json(forged.to_string());
                let merged = std::panic::catch_unwind(|| sweep::merge(&all, &Control::silent()));
                match merged {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => assert!(!e.to_string().contains('\n'), "{name}: {e}"),
                    Err(_) => panic!("{name} {req}: merge panicked on partial {path:?} changed"),
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 300, "{tried} mutants");
}
