//! `subtraction outcome` with `explain`: every legal move's consequence, by the periodic
//! formula beyond the table, against the table computed directly up to the heap; and the
//! PSPE moves' consequences are the heap's outcome.

use lastbite::api::subtraction::{outcome, OutcomeRequest};
use lastbite::api::Control;
use lastbite::games::subtraction::{Convention, Ruleset, Table};
use lastbite::rng::Rng;

#[test]
fn explained_moves_agree_with_a_direct_table() {
    let mut rng = Rng::for_trial(7, 0);
    let mut next = |m: u64| rng.below(m);
    for _ in 0..40 {
        let k = 1 + next(3) as usize;
        let mut set: Vec<u64> = (0..k).map(|_| 1 + next(12)).collect();
        set.sort();
        set.dedup();
        let text = set
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let heap = (1u64 << 16) + next(500);
        let x = Convention::ALL[next(4) as usize];
        let req = OutcomeRequest {
            set: text.clone(),
            heap: heap.to_string(),
            convention: x,
            explain: true,
            ..OutcomeRequest::default()
        };
        let r = outcome(&req, &Control::silent()).unwrap();
        let table = Table::compute(&Ruleset::new(set.clone()).unwrap(), heap).unwrap();
        let options = r.options.expect("explained");
        assert_eq!(options.len(), set.len(), "{text}");
        let best = options.iter().map(|o| o.outcome[0]).max().unwrap();
        for o in &options {
            let (c1, c2) = table.outcome(x.dual(), heap - o.take);
            assert_eq!(
                o.outcome,
                [(o.take + c2) as u128, c1 as u128],
                "{text} heap {heap} take {}",
                o.take
            );
            assert_eq!(o.best_for_mover, o.outcome[0] == best);
            assert_eq!(o.pspe, table.moves(x, heap).contains(&o.take));
            if o.pspe {
                assert_eq!(o.outcome, r.outcome);
            }
        }
    }
}
