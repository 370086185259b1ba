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

/// The most profiles [`game_outcomes`] tries (a second of the tests at most).
pub const MAX_PROFILES: u64 = 1_000_000;

/// Every pure subgame perfect outcome of a small perfect-information `game` (no chance
/// states), by [`subgame_perfect_outcomes`] over its game tree unfolded from the root:
/// each node of the tree is a decision point of its own (no transpositions merged, so
/// nothing is shared with the engine's solvers), and a profile is kept when no mover
/// gains by a one-step deviation anywhere. The payoffs of the game's moves along a play
/// are added to its terminal payoffs. `None` when the tree has more than `max_nodes`
/// nodes or [`MAX_PROFILES`] profiles, or a chance state.
///
/// ```
/// use lastbite::engine::{all_outcomes, reference::game_outcomes, Budget};
/// use lastbite::games::dinner::{Dinner, DinnerGame, Setup};
/// let setup = Setup::plain(Dinner::from_morsels("1,1 2,2 2,2").unwrap()).unwrap();
/// let game = DinnerGame::<i64>::new(&setup, false).unwrap();
/// let fast = all_outcomes(&game, Budget::default()).unwrap();
/// assert_eq!(game_outcomes(&game, 1000).unwrap(), fast);
/// ```
pub fn game_outcomes<G: crate::engine::Game>(
    game: &G,
    max_nodes: usize,
) -> Option<Vec<Vec<G::Payoff>>> {
    use crate::engine::Payoff;
    let players = game.players();
    // The tree, root first: each node's children (ids above its own), its mover, and
    // at a leaf the payoffs of its whole play.
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut mover: Vec<usize> = Vec::new();
    let mut leaf: Vec<Vec<G::Payoff>> = Vec::new();
    let mut stack = vec![(game.root(), vec![G::Payoff::zero(); players], None::<usize>)];
    let mut moves = Vec::new();
    while let Some((state, acc, parent)) = stack.pop() {
        let id = children.len();
        if id == max_nodes {
            return None;
        }
        if let Some(p) = parent {
            children[p].push(id);
        }
        children.push(Vec::new());
        match game.to_move(&state) {
            None => {
                mover.push(0);
                leaf.push(
                    (0..players)
                        .map(|j| acc[j].plus(&game.terminal_payoff(&state, j)))
                        .collect(),
                );
            }
            Some(p) if p == crate::engine::CHANCE => return None,
            Some(p) => {
                mover.push(p);
                leaf.push(Vec::new());
                moves.clear();
                game.moves(&state, &mut moves);
                // Pushed in reverse so the children get ids in the moves' order.
                for mv in moves.iter().rev() {
                    let mut next = acc.clone();
                    game.add_move_payoffs(&state, mv, &mut next);
                    stack.push((game.play(&state, mv), next, Some(id)));
                }
            }
        }
    }
    let decisions: Vec<usize> = (0..children.len())
        .filter(|&n| !children[n].is_empty())
        .collect();
    let actions: Vec<usize> = decisions.iter().map(|&n| children[n].len()).collect();
    let profiles = actions
        .iter()
        .try_fold(1u64, |p, &a| p.checked_mul(a as u64));
    if profiles.is_none_or(|p| p > MAX_PROFILES) {
        return None;
    }
    Some(subgame_perfect_outcomes(&actions, |at| {
        let mut choice = vec![0usize; children.len()];
        for (&n, &c) in decisions.iter().zip(at) {
            choice[n] = c;
        }
        // The profile's outcome from every node (children have larger ids).
        let mut value: Vec<Vec<G::Payoff>> = vec![Vec::new(); children.len()];
        for n in (0..children.len()).rev() {
            value[n] = match children[n].is_empty() {
                true => leaf[n].clone(),
                false => value[children[n][choice[n]]].clone(),
            };
        }
        let perfect = decisions.iter().all(|&n| {
            let p = mover[n];
            children[n].iter().all(|&c| value[c][p] <= value[n][p])
        });
        perfect.then(|| value[0].clone())
    }))
}
