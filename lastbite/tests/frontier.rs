//! The recorded frontier runs (`data/frontier/`, made by the commands in the README),
//! checked by a second route: every recorded counterexample is re-solved by the generic
//! engine (no subtraction DP, no period) at its heap under the conventions involved.

use lastbite::engine::{solve, Budget, Ties};
use lastbite::games::subtraction::{Convention, Ruleset, SubtractionGame};

mod common;
use common::engine_outcome;

fn recorded(name: &str) -> Vec<(Ruleset, u64)> {
    let path = format!(
        "{}/../data/frontier/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(report["verdict"], "fails");
    report["counterexamples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let set: Vec<u64> = serde_json::from_value(c["set"].clone()).unwrap();
            (Ruleset::new(set).unwrap(), c["heap"].as_u64().unwrap())
        })
        .collect()
}

/// The records replayed by default: all of a file of up to [`SAMPLE`] records, else
/// every k-th (the first, the smallest, among them) so that about [`SAMPLE`] are; the
/// ignored `*_all` tests replay every record (minutes).
fn sample<T>(all: Vec<T>, full: bool) -> Vec<T> {
    let stride = if full { 1 } else { all.len().div_ceil(SAMPLE) };
    all.into_iter().step_by(stride.max(1)).collect()
}

const SAMPLE: usize = 8_000;

const CONJECTURE_4: [&str; 8] = [
    "conjecture-4-size-4-max-60",
    "conjecture-4-size-5-max-35",
    "conjecture-4-size-5-max-60",
    "conjecture-4-size-4-max-100",
    "conjecture-4-size-6-max-50",
    "conjecture-4-size-7-max-35",
    "conjecture-4-size-8-max-32",
    "conjecture-4-size-5-max-80",
];

/// Recorded counterexamples to Conjecture 4 (sizes 4 to 8): a player strictly better off
/// in AvA than in FvF at the recorded heap, by the engine.
fn conjecture_4(full: bool) {
    for name in CONJECTURE_4 {
        let all = recorded(name);
        assert!(all.len() >= 80, "{name}");
        for (set, heap) in &sample(all, full) {
            let fvf = engine_outcome(set, *heap, Convention::FvF);
            let ava = engine_outcome(set, *heap, Convention::AvA);
            assert!(
                ava.0 > fvf.0 || ava.1 > fvf.1,
                "{name} {set} heap {heap}: FvF {fvf:?}, AvA {ava:?}"
            );
        }
    }
}

#[test]
fn conjecture_4_counterexamples_by_the_engine() {
    conjecture_4(false);
}

#[test]
#[ignore = "minutes: every record of the largest sweeps"]
fn conjecture_4_counterexamples_by_the_engine_all() {
    conjecture_4(true);
}

const PROBLEM_6: [&str; 8] = [
    "problem-6-size-4-max-60",
    "problem-6-size-5-max-35",
    "problem-6-size-5-max-60",
    "problem-6-size-4-max-100",
    "problem-6-size-6-max-50",
    "problem-6-size-7-max-35",
    "problem-6-size-8-max-32",
    "problem-6-size-5-max-80",
];

/// Recorded counterexamples to Problem 6: some player strictly gains going from FvA or
/// from AvF to AvA at the recorded heap, by the engine. (Not always the player who
/// turned antagonistic: for {9,13,36,46,47} at heap 252 Bob gains when Alice does.)
fn problem_6(full: bool) {
    for name in PROBLEM_6 {
        let all = recorded(name);
        assert!(all.len() >= 300, "{name}");
        for (set, heap) in &sample(all, full) {
            let fva = engine_outcome(set, *heap, Convention::FvA);
            let avf = engine_outcome(set, *heap, Convention::AvF);
            let ava = engine_outcome(set, *heap, Convention::AvA);
            assert!(
                ava.0 > fva.0 || ava.1 > fva.1 || ava.0 > avf.0 || ava.1 > avf.1,
                "{name} {set} heap {heap}: FvA {fva:?}, AvF {avf:?}, AvA {ava:?}"
            );
        }
    }
}

#[test]
fn problem_6_counterexamples_by_the_engine() {
    problem_6(false);
}

#[test]
#[ignore = "minutes: every record of the largest sweeps"]
fn problem_6_counterexamples_by_the_engine_all() {
    problem_6(true);
}

fn problems_file(name: &str) -> serde_json::Value {
    let path = format!(
        "{}/../data/frontier/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const PROBLEMS: [&str; 6] = [
    "problems-1-4-5-size-2-max-400",
    "problems-1-4-5-size-3-max-60",
    "problems-1-4-5-size-4-max-32",
    "problems-1-4-5-size-5-max-26",
    "problems-1-4-5-size-6-max-22",
    "problems-1-4-5-size-7-max-20",
];

/// Problem 1: every recorded largest discrepancy, re-solved by the engine at its heap:
/// the FvF and AvA outcomes are the recorded ones and differ by the recorded amount for
/// the recorded player.
#[test]
fn problem_1_largest_discrepancies_by_the_engine() {
    let mut rows = 0;
    for name in PROBLEMS {
        let report = problems_file(name);
        for row in report["by_max"].as_array().unwrap() {
            let Some(at) = row["largest_at"].as_object() else {
                assert_eq!(row["largest"], 0, "{name}");
                continue;
            };
            let set: Vec<u64> = serde_json::from_value(at["set"].clone()).unwrap();
            let set = Ruleset::new(set).unwrap();
            let heap = at["heap"].as_u64().unwrap();
            let fvf = engine_outcome(&set, heap, Convention::FvF);
            let ava = engine_outcome(&set, heap, Convention::AvA);
            let pair = |v: (i64, i64)| serde_json::json!([v.0, v.1]);
            assert_eq!(at["FvF"], pair(fvf), "{name} {set} heap {heap}");
            assert_eq!(at["AvA"], pair(ava), "{name} {set} heap {heap}");
            let d = if at["player"] == 1 {
                ava.0 - fvf.0
            } else {
                ava.1 - fvf.1
            };
            assert_eq!(
                d.unsigned_abs(),
                row["largest"].as_u64().unwrap(),
                "{name} {set}"
            );
            rows += 1;
        }
    }
    assert!(rows > 400);
}

/// Problem 5: every recorded positive discrepancy at a heap up to 200, and every one
/// where the first player better off is not the deviator (Alice turns antagonistic and
/// Bob gains, at heaps near 1000), re-solved by the engine.
#[test]
fn problem_5_positive_discrepancies_by_the_engine() {
    let mut seen = 0;
    for name in PROBLEMS {
        let report = problems_file(name);
        for p in report["positive"].as_array().unwrap() {
            if p["deviator"] == true && p["heap"].as_u64().unwrap() > 200 {
                continue;
            }
            let set: Vec<u64> = serde_json::from_value(p["set"].clone()).unwrap();
            let set = Ruleset::new(set).unwrap();
            let heap = p["heap"].as_u64().unwrap();
            let to = match p["deviation"].as_str().unwrap() {
                "FvF_to_AvF" => Convention::AvF,
                _ => Convention::FvA,
            };
            let (before, after) = (
                engine_outcome(&set, heap, Convention::FvF),
                engine_outcome(&set, heap, to),
            );
            let gained = if p["player"] == 1 {
                after.0 > before.0
            } else {
                after.1 > before.1
            };
            assert!(gained, "{name} {set} heap {heap}: {before:?} -> {after:?}");
            seen += 1;
        }
    }
    assert!(seen > 1000, "{seen}");
}

/// Problem 3 on pairs: the recorded largest pre-period up to 1000 is {999, 1000}'s, and
/// it follows (2n - 1)(n - 2) for {n - 1, n}; the engine (no DP, no certificate) confirms
/// that formula on {n - 1, n} for n = 8, 13 and 21: from h0 on every convention and the
/// zero-sum score repeat with period 2n and increment n, and at h0 - 1 one of them does not.
#[test]
fn problem_3_preperiods_of_consecutive_pairs_by_the_engine() {
    let report = problems_file("problem-3-pairs-max-1000");
    assert_eq!(report["verdict"], "data");
    assert_eq!(report["rulesets"], 499_500);
    let largest = &report["largest_preperiod"];
    assert_eq!(largest["set"], serde_json::json!([999, 1000]));
    assert_eq!(largest["preperiod"], (2 * 1000 - 1) * (1000 - 2));
    let conventions = [
        Convention::FvF,
        Convention::FvA,
        Convention::AvF,
        Convention::AvA,
    ];
    for n in [8u64, 13, 21] {
        let set = Ruleset::new(vec![n - 1, n]).unwrap();
        let h0 = (2 * n - 1) * (n - 2);
        let (p, c) = (2 * n, n as i64);
        let zero_sum = |h: u64| {
            let game = SubtractionGame::zero_sum(&set, h);
            let sol = solve(
                &game,
                &Ties::per_player(Convention::FvF.rules().to_vec()),
                Budget::default(),
            )
            .unwrap();
            sol.root_value()[0]
        };
        let shifts = |h: u64| {
            conventions.iter().all(|&x| {
                let (a, b) = (engine_outcome(&set, h, x), engine_outcome(&set, h + p, x));
                b.0 == a.0 + c && b.1 == a.1 + c
            }) && zero_sum(h) == zero_sum(h + p)
        };
        assert!((h0..h0 + n).all(shifts), "{set}: no period from {h0}");
        assert!(!shifts(h0 - 1), "{set}: periodic already from {}", h0 - 1);
    }
}

/// Conjectures 11, 12 and 15 on pairs: the recorded verdicts up to 1000 (when the runs
/// are in `data/frontier/`), and the statements themselves re-decided by the engine on
/// every pair up to 12, at every heap up to the pair's horizon (from which differences
/// repeat): Conjecture 11's pairs never differ in FvF and AvA, Conjecture 12's first
/// differ at (n+2) s2 + n s1, and zero-sum play equals AvA's difference (Conjecture 15).
#[test]
fn conjectures_11_12_15_on_pairs_by_the_engine() {
    for name in [
        "conjecture-11-pairs-max-1000",
        "conjecture-12-pairs-max-1000",
        "conjecture-15-pairs-max-1000",
    ] {
        let path = format!(
            "{}/../data/frontier/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        if std::path::Path::new(&path).exists() {
            let report = problems_file(name);
            assert_eq!(report["rulesets"], 499_500, "{name}");
            assert_eq!(report["verdict"], "holds", "{name}");
        }
    }
    let mut covered = [0; 3];
    for s1 in 2..=12u64 {
        for s2 in 1..s1 {
            let set = Ruleset::new(vec![s2, s1]).unwrap();
            let a = lastbite::games::subtraction::analysis::Analysis::new(&set, 1 << 20).unwrap();
            let top = a.horizon() + 2 * s1;
            let first = (0..top).find(|&h| {
                engine_outcome(&set, h, Convention::FvF) != engine_outcome(&set, h, Convention::AvA)
            });
            if s2 % (s1 - s2) == 0 {
                assert_eq!(first, None, "Conjecture 11 on {set}");
                covered[0] += 1;
            } else if s1 < 2 * s2 {
                let n = s2 / (s1 - s2);
                assert_eq!(first, Some((n + 2) * s2 + n * s1), "Conjecture 12 on {set}");
                covered[1] += 1;
            }
            for h in 0..top {
                let ava = engine_outcome(&set, h, Convention::AvA);
                let game = SubtractionGame::zero_sum(&set, h);
                let zs = solve(
                    &game,
                    &Ties::per_player(Convention::FvF.rules().to_vec()),
                    Budget::default(),
                )
                .unwrap()
                .root_value()[0];
                assert_eq!(zs, ava.0 - ava.1, "Conjecture 15 on {set} at heap {h}");
            }
            covered[2] += 1;
        }
    }
    assert!(covered.iter().all(|&c| c >= 10), "{covered:?}");
}

/// The recorded cookie runs (`cookie nim --max-n 35`, `cookie general --max-n 20`): their
/// rows are consistent (every strict or reduced position counted once), and their first
/// rows are what a fresh table computes, by the 4-bit nim table and the engine's brute
/// force for the strict ones.
#[test]
fn cookie_runs_agree_with_fresh_tables() {
    use lastbite::engine::Silent;
    use lastbite::games::cookie::general::{reduced_count, GeneralTable};
    use lastbite::games::cookie::{nim_distribution, NimTable, Packing};

    let nim = problems_file("cookie-nim-35");
    let mut rows: Vec<Vec<u64>> = vec![Vec::new(); 36];
    for c in nim["distribution"].as_array().unwrap() {
        let (n, g) = (
            c["n"].as_u64().unwrap() as usize,
            c["nim"].as_u64().unwrap() as usize,
        );
        if rows[n].len() <= g {
            rows[n].resize(g + 1, 0);
        }
        rows[n][g] = c["count"].as_u64().unwrap();
    }
    for (n, row) in rows.iter().enumerate().skip(1) {
        assert_eq!(row.iter().sum::<u64>(), 1 << (n - 1), "n {n}");
        assert!(row.len() <= 4, "n {n}: a nim-value above 3");
    }
    let fresh = NimTable::build(22, Packing::FourBits, None, 1 << 30, &Silent)
        .unwrap()
        .distribution();
    assert_eq!(&rows[1..=22], &fresh[1..=22]);
    assert_eq!(&rows[1..=14], &nim_distribution(14, &Silent)[1..=14]);

    let general = problems_file("cookie-general-20");
    let recorded = general["rows"].as_array().unwrap();
    assert_eq!(recorded.len(), 20);
    let fresh = GeneralTable::rows_to(14, None, 1 << 30, &Silent).unwrap();
    for r in recorded {
        let n = r["n"].as_u64().unwrap() as usize;
        assert_eq!(r["positions"].as_u64(), Some(reduced_count(n)), "n {n}");
        let by_nim = r["nim"].as_object().unwrap();
        let total: u64 = by_nim.values().map(|c| c.as_u64().unwrap()).sum();
        assert_eq!(total, reduced_count(n), "n {n}");
        let zero = by_nim.get("0").map_or(0, |c| c.as_u64().unwrap());
        assert_eq!(r["p_positions"].as_u64(), Some(zero), "n {n}");
        let top = by_nim.keys().map(|k| k.parse::<u32>().unwrap()).max();
        assert_eq!(r["max_nim"].as_u64(), top.map(u64::from), "n {n}");
        assert_eq!(r["max_remoteness"].as_u64(), Some(n as u64), "n {n}");
        if let Some(f) = fresh.get(n) {
            assert_eq!(r["p_positions"].as_u64(), Some(f.p_positions), "n {n}");
            assert_eq!(r["no_duration"].as_u64(), Some(f.no_duration), "n {n}");
            let nims: Vec<(u32, u64)> = by_nim
                .iter()
                .map(|(k, c)| (k.parse().unwrap(), c.as_u64().unwrap()))
                .collect();
            let mut nims = nims;
            nims.sort();
            assert_eq!(nims, f.nim.clone().into_iter().collect::<Vec<_>>(), "n {n}");
        }
    }
}
