//! The recorded frontier runs (`data/frontier/`, made by the commands in the README),
//! checked by a second route: every recorded counterexample is re-solved by the generic
//! engine (no subtraction DP, no period) at its heap under the conventions involved.

use lastbite::engine::{solve, Budget, Ties};
use lastbite::games::subtraction::{Convention, Ruleset, SubtractionGame};

fn engine_outcome(set: &Ruleset, heap: u64, x: Convention) -> (i64, i64) {
    let game = SubtractionGame::new(set, heap);
    let sol = solve(
        &game,
        &Ties::per_player(x.rules().to_vec()),
        Budget::default(),
    )
    .unwrap();
    (sol.root_value()[0], sol.root_value()[1])
}

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

/// Every recorded counterexample to Conjecture 4 (sizes 4 and 5): a player strictly
/// better off in AvA than in FvF at the recorded heap, by the engine.
#[test]
fn conjecture_4_counterexamples_by_the_engine() {
    for name in ["conjecture-4-size-4-max-60", "conjecture-4-size-5-max-35"] {
        let all = recorded(name);
        assert!(all.len() >= 80, "{name}");
        for (set, heap) in &all {
            let fvf = engine_outcome(set, *heap, Convention::FvF);
            let ava = engine_outcome(set, *heap, Convention::AvA);
            assert!(
                ava.0 > fvf.0 || ava.1 > fvf.1,
                "{name} {set} heap {heap}: FvF {fvf:?}, AvA {ava:?}"
            );
        }
    }
}

/// Every recorded counterexample to Problem 6: a player strictly gains going from FvA
/// (player 1) or AvF (player 2) to AvA at the recorded heap, by the engine.
#[test]
fn problem_6_counterexamples_by_the_engine() {
    for name in ["problem-6-size-4-max-60", "problem-6-size-5-max-35"] {
        let all = recorded(name);
        assert!(all.len() >= 300, "{name}");
        for (set, heap) in &all {
            let fva = engine_outcome(set, *heap, Convention::FvA);
            let avf = engine_outcome(set, *heap, Convention::AvF);
            let ava = engine_outcome(set, *heap, Convention::AvA);
            assert!(
                ava.0 > fva.0 || ava.1 > avf.1,
                "{name} {set} heap {heap}: FvA {fva:?}, AvF {avf:?}, AvA {ava:?}"
            );
        }
    }
}
