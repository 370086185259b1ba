//! Helpers shared by the integration tests.

use lastbite::engine::{solve, Budget, Ties};
use lastbite::games::subtraction::{Convention, Ruleset, SubtractionGame};

/// The generic engine's outcome (Alice, Bob) of the subtraction game on `set` from
/// `heap` under convention `x`: no subtraction DP, no period.
pub fn engine_outcome(set: &Ruleset, heap: u64, x: Convention) -> (i64, i64) {
    let game = SubtractionGame::new(set, heap);
    let sol = solve(
        &game,
        &Ties::per_player(x.rules().to_vec()),
        Budget::default(),
    )
    .unwrap();
    (sol.root_value()[0], sol.root_value()[1])
}
