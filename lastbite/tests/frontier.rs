//! The recorded frontier runs (`data/frontier/`, made by the commands in the README),
//! checked by a second route: each recorded counterexample to Conjecture 4 up to
//! max S = 41 is re-solved by the generic engine (no subtraction DP) at its heap, and a
//! player must be strictly better off in AvA than in FvF there.

use lastbite::engine::{solve, Budget, Ties};
use lastbite::games::subtraction::{Convention, Ruleset, SubtractionGame};

fn engine_outcome(set: &Ruleset, heap: u64, x: Convention) -> (i64, i64) {
    let game = SubtractionGame::new(set, heap);
    let sol = solve(&game, &Ties::per_player(x.rules().to_vec()), Budget::default()).unwrap();
    (sol.root_value()[0], sol.root_value()[1])
}

#[test]
fn conjecture_4_counterexamples_by_the_engine() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/frontier/conjecture-4-size-4-max-60.json"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(report["verdict"], "fails");
    let all = report["counterexamples"].as_array().unwrap();
    let mut checked = 0;
    for c in all {
        let set: Vec<u64> = serde_json::from_value(c["set"].clone()).unwrap();
        if set[3] > 41 {
            continue;
        }
        let heap = c["heap"].as_u64().unwrap();
        let ruleset = Ruleset::new(set.clone()).unwrap();
        let fvf = engine_outcome(&ruleset, heap, Convention::FvF);
        let ava = engine_outcome(&ruleset, heap, Convention::AvA);
        assert!(
            ava.0 > fvf.0 || ava.1 > fvf.1,
            "{set:?} heap {heap}: FvF {fvf:?}, AvA {ava:?}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}
