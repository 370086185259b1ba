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
    (
        "dinner-experiment",
        r#"{"size": 8, "trials": 97, "seed": 5}"#,
    ),
    ("dinner-balance", r#"{"max_size": 13, "trials": 20}"#),
    ("dinner-pareto", r#"{"size": 8}"#),
    (
        "dinner-multiplicity",
        r#"{"players": 3, "size": 6, "trials": 60, "seed": 3}"#,
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
