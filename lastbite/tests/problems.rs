//! Problems 1, 4 and 5 (`subtraction problems`) by a second route: on every ruleset of
//! sizes 2 to 4 with largest element at most 9, the generic engine (no subtraction DP,
//! no period) solves every heap up to the certified horizon and two periods past it, and
//! its outcomes give the same largest discrepancy, the same zero-discrepancy verdict and
//! the same first positive discrepancies as the sweep's records.

use lastbite::api::subtraction::{problems, ProblemsRequest};
use lastbite::api::Control;
use lastbite::games::subtraction::analysis::{Analysis, ProblemRecord, PROBLEM5};
use lastbite::games::subtraction::{Convention, Ruleset};

mod common;

fn engine_outcome(set: &Ruleset, heap: u64, x: Convention) -> [i64; 2] {
    let (a, b) = common::engine_outcome(set, heap, x);
    [a, b]
}

fn sets() -> Vec<Ruleset> {
    let mut out = Vec::new();
    for mask in 0u32..(1 << 9) {
        let e: Vec<u64> = (1..=9).filter(|i| mask >> (i - 1) & 1 == 1).collect();
        if (2..=4).contains(&e.len()) {
            out.push(Ruleset::new(e).unwrap());
        }
    }
    out
}

#[test]
fn problem_records_agree_with_the_engine() {
    let limit = 1 << 20;
    let mut zero = 0;
    let mut positive = 0;
    for set in sets() {
        let r = ProblemRecord::new(&set, limit).unwrap();
        let a = Analysis::new(&set, limit).unwrap();
        let top = a.horizon() + 2 * a.period.period;
        let conv = [
            Convention::FvF,
            Convention::FvA,
            Convention::AvF,
            Convention::AvA,
        ];
        let o: Vec<Vec<[i64; 2]>> = conv
            .iter()
            .map(|&x| (0..top).map(|h| engine_outcome(&set, h, x)).collect())
            .collect();
        let at = |x: Convention, h: u64| o[conv.iter().position(|&c| c == x).unwrap()][h as usize];
        // Problem 1: the largest |AvA - FvF|, first heap, then player.
        let mut largest = (0u64, 0u64, 0usize);
        for h in 0..top {
            for p in 0..2 {
                let d = (at(Convention::AvA, h)[p] - at(Convention::FvF, h)[p]).unsigned_abs();
                if d > largest.0 {
                    largest = (d, h, p);
                }
            }
        }
        assert_eq!(r.largest, largest, "{set}: largest discrepancy");
        assert_eq!(r.zero, largest.0 == 0, "{set}: zero discrepancy");
        zero += r.zero as u32;
        // Problem 5: the first heap where someone gains, that player's largest gain, and
        // whether the deviator's gains are the other's losses.
        for (d, rec) in PROBLEM5.iter().zip(r.positive) {
            let first = (0..top).find_map(|h| {
                (0..2)
                    .find(|&p| at(d.to, h)[p] > at(d.from, h)[p])
                    .map(|p| (h, p))
            });
            match (rec, first) {
                (None, None) => {}
                (Some(rec), Some((h, p))) => {
                    positive += 1;
                    assert_eq!((rec.heap, rec.player), (h, p), "{set} {:?}", d.to);
                    let gain = (0..top)
                        .map(|h| at(d.to, h)[p] - at(d.from, h)[p])
                        .max()
                        .unwrap();
                    assert_eq!(rec.gain, gain, "{set} {:?}", d.to);
                    let mirrored = (0..top).all(|h| {
                        let (x, y) = (at(d.from, h), at(d.to, h));
                        let g = y[d.player] - x[d.player];
                        g <= 0 || y[1 - d.player] - x[1 - d.player] == -g
                    });
                    assert_eq!(rec.mirrored, mirrored, "{set} {:?}", d.to);
                }
                (rec, first) => panic!("{set} {:?}: record {rec:?}, engine {first:?}", d.to),
            }
        }
    }
    // The check must see both answers of each question.
    assert!(zero > 10 && zero < 200, "{zero} zero-discrepancy rulesets");
    assert!(
        positive > 0,
        "no positive discrepancy among the small rulesets"
    );
}

/// The report lists exactly the zero-discrepancy rulesets and the positive ones its
/// records give, and its per-max rows add up.
#[test]
fn the_report_lists_what_the_records_say() {
    let req: ProblemsRequest = serde_json::from_str(r#"{"sizes": [2, 3, 4], "max": 9}"#).unwrap();
    let rep = problems(&req, &Control::silent()).unwrap();
    let all = sets();
    assert_eq!(rep.rulesets, all.len() as u64);
    let mut zero = Vec::new();
    let mut positive = 0;
    for set in &all {
        let r = ProblemRecord::new(set, 1 << 20).unwrap();
        if r.zero {
            zero.push(set.elements().to_vec());
        }
        positive += r.positive.iter().flatten().count();
    }
    zero.sort_by_key(|e| (e.len(), e.last().copied(), e.clone()));
    let mut listed = rep.zero_discrepancy.clone();
    listed.sort_by_key(|e| (e.len(), e.last().copied(), e.clone()));
    assert_eq!(listed, zero);
    assert_eq!(rep.positive.len(), positive);
    assert_eq!(
        rep.by_max.iter().map(|r| r.zero_discrepancy).sum::<u64>(),
        zero.len() as u64
    );
    for z in &rep.zero_shape {
        assert_eq!(z.dominant + z.half_line + z.other, z.zero_discrepancy);
    }
}

/// Bad requests are refused with one line naming the field.
#[test]
fn bad_requests_are_refused() {
    for (req, what) in [
        (r#"{"sizes": [], "max": 8}"#, "sizes"),
        (r#"{"sizes": [2, 2], "max": 8}"#, "sizes"),
        (r#"{"sizes": [0], "max": 8}"#, "sizes"),
        (r#"{"sizes": [5], "max": 3}"#, "no set of 5"),
    ] {
        let req: ProblemsRequest = serde_json::from_str(req).unwrap();
        let e = problems(&req, &Control::silent()).unwrap_err().to_string();
        assert!(e.contains(what) && !e.contains('\n'), "{e}");
    }
}
