//! The reference solver: every pure strategy profile, tried one by one (pubgrub's
//! "intended to be easy to read, as compared to the real resolver"). It knows nothing of
//! backward induction: a profile is kept when the caller's check says no mover gains by
//! deviating at any decision point, and the answer is the set of kept profiles'
//! outcomes. Exponential in the decision points, so for the small games of the tests,
//! where it is the second route that every family's fast solvers are checked against
//! (the engine's all-outcomes search, the chance solver, `.efg` files).
//!
//! It must stay plain: no pruning, no memo, nothing shared with the solvers it checks.

/// Every pure profile of a game whose decision points have `actions[i]` actions each (an
/// odometer, the first point turning fastest): `outcome(choice)` is called with each
/// assignment of an action to every point and answers the profile's outcome when the
/// profile is subgame perfect, `None` otherwise. The distinct outcomes, sorted.
///
/// ```
/// use lastbite::engine::reference::subgame_perfect_outcomes;
/// // One decision point with three actions worth 1, 3 and 3 to its mover: actions 1
/// // and 2 are equilibria, with the same outcome.
/// let pay = [1, 3, 3];
/// let best = *pay.iter().max().unwrap();
/// let outcomes = subgame_perfect_outcomes(&[3], |c| (pay[c[0]] == best).then_some(pay[c[0]]));
/// assert_eq!(outcomes, vec![3]);
/// ```
pub fn subgame_perfect_outcomes<T: Ord>(
    actions: &[usize],
    mut outcome: impl FnMut(&[usize]) -> Option<T>,
) -> Vec<T> {
    let mut choice = vec![0usize; actions.len()];
    let mut found = std::collections::BTreeSet::new();
    loop {
        if let Some(o) = outcome(&choice) {
            found.insert(o);
        }
        // The next profile (odometer over the decision points).
        let mut i = 0;
        loop {
            if i == actions.len() {
                return found.into_iter().collect();
            }
            choice[i] += 1;
            if choice[i] < actions[i] {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
    }
}
