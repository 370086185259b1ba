//! The payoff vectors of all pure subgame perfect equilibria.
//!
//! Computed state by state rather than by enumerating strategy profiles. In a pure SPE
//! the mover at state `s` plays some move `m` followed by some SPE of the subgame; she
//! must not gain by deviating to any other move `m'`, and since the continuation after a
//! deviation may be any SPE of that subgame, the harshest one is the threat. So
//!
//! `SPE(s) = U_m { v in r_m + SPE(s.m) : v[p] >= max_{m' != m} min_{w in r_m' + SPE(s.m')} w[p] }`.
//!
//! Subgames at different histories are independent in the game tree, so memoising the set
//! per state is exact. At a chance state no one chooses: the set is every
//! probability-weighted combination of one vector from each move's set
//! ([`super::chance`]), since each subgame after a chance move may play any of its SPE.

use super::chance::{combine, weights};
use super::evaluate::through;
use super::solve::backward;
use super::table::StateTable;
use super::{Budget, EngineError, Game, Payoff, Player, CHANCE};

/// The distinct payoff vectors of all pure subgame perfect equilibria at the root, sorted.
///
/// ```
/// use lastbite::engine::{all_outcomes, Budget};
/// use lastbite::games::dinner::{Dinner, DinnerGame, Setup, TurnOrder};
/// // Alice is indifferent between the two morsels; Bob's score depends on her choice.
/// let dinner = Dinner::from_morsels("1,5 1,3").unwrap();
/// let order = TurnOrder::parse("AB", &dinner).unwrap();
/// let setup = Setup::ordered(dinner.clone(), order.clone()).unwrap();
/// let game = DinnerGame::<i64>::new(&setup, false).unwrap();
/// assert_eq!(all_outcomes(&game, Budget::default()).unwrap(), vec![vec![1, 3], vec![1, 5]]);
/// ```
pub fn all_outcomes<G: Game>(game: &G, budget: Budget) -> Result<Vec<Vec<G::Payoff>>, EngineError> {
    let mut table = spe_sets(game, budget)?;
    Ok(table.remove(&game.root()).unwrap_or_default())
}

/// Every state's set of pure SPE payoff vectors (of its subgame), sorted and distinct.
pub(crate) fn spe_sets<G: Game>(
    game: &G,
    budget: Budget,
) -> Result<StateTable<'_, G, Set<G::Payoff>>, EngineError> {
    let mut moves = Vec::new();
    backward(
        game,
        budget,
        |state| terminal_set(game, state),
        |state, mover, lookup| {
            let per_move = sets_through_moves(game, state, &mut moves, lookup)?;
            if per_move.is_empty() {
                return Ok(terminal_set(game, state));
            }
            if mover == CHANCE {
                return chance_set(game, state, &moves, per_move, budget);
            }
            Ok(spe_set(mover, per_move))
        },
    )
}

/// The SPE set of a state from the sets through each of its moves (the module's
/// formula): the vectors through move `m` whose mover's payoff is at least the best of
/// the other moves' threats (the harshest continuation after each), sorted, distinct.
/// Shared by [`all_outcomes`] and the layered [`super::all_outcomes_lean`].
pub(crate) fn spe_set<P: Payoff>(mover: Player, per_move: Vec<Set<P>>) -> Set<P> {
    let threats: Vec<P> = per_move
        .iter()
        .map(|set| {
            set.iter()
                .map(|v| v[mover].clone())
                .min()
                .expect("non-empty")
        })
        .collect();
    let mut result = Vec::new();
    for (i, set) in per_move.into_iter().enumerate() {
        let bound = threats
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, t)| t)
            .max();
        result.extend(
            set.into_iter()
                .filter(|v| bound.is_none_or(|b| &v[mover] >= b)),
        );
    }
    result.sort();
    result.dedup();
    result
}

/// The set of a chance state from its moves' sets: their probability-weighted
/// combinations, at most the state budget of them.
fn chance_set<G: Game>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    per_move: Vec<Set<G::Payoff>>,
    budget: Budget,
) -> Result<Set<G::Payoff>, EngineError> {
    let mut probs = Vec::with_capacity(moves.len());
    weights(game, state, moves, &mut probs)?;
    combine(game, state, per_move, &probs, budget.max_states)
}

/// A set of payoff vectors.
pub(crate) type Set<P> = Vec<Vec<P>>;

/// How the sets of solved children are looked up.
type Lookup<'t, S, P> = &'t dyn Fn(&S) -> Option<&'t Set<P>>;

/// The one-element set holding a state's terminal payoff vector.
fn terminal_set<G: Game>(game: &G, state: &G::State) -> Vec<Vec<G::Payoff>> {
    vec![(0..game.players())
        .map(|p| game.terminal_payoff(state, p))
        .collect()]
}

/// For each legal move, the child's set of payoff vectors shifted by the move's payoffs.
fn sets_through_moves<'t, G: Game>(
    game: &G,
    state: &G::State,
    moves: &mut Vec<G::Move>,
    lookup: Lookup<'t, G::State, G::Payoff>,
) -> Result<Vec<Set<G::Payoff>>, EngineError> {
    moves.clear();
    game.moves(state, moves);
    moves
        .iter()
        .map(|mv| {
            let child = game.play(state, mv);
            let set = lookup(&child).ok_or_else(|| EngineError::Cycle(game.state_text(&child)))?;
            Ok(set
                .iter()
                .map(|v| {
                    let mut out = Vec::with_capacity(v.len());
                    through(game, state, mv, v, &mut out);
                    out
                })
                .collect())
        })
        .collect()
}

/// The distinct payoff vectors of all plays from the root (the outcomes of all strategy
/// profiles), sorted. Combine with [`super::Fixed`] for the outcomes some players can
/// reach while the others follow given strategies.
pub fn reachable_payoffs<G: Game>(
    game: &G,
    budget: Budget,
) -> Result<Vec<Vec<G::Payoff>>, EngineError> {
    let mut moves = Vec::new();
    let mut table = backward(
        game,
        budget,
        |state| terminal_set(game, state),
        |state, mover, lookup| {
            let per_move = sets_through_moves(game, state, &mut moves, lookup)?;
            if per_move.is_empty() {
                return Ok(terminal_set(game, state));
            }
            if mover == CHANCE {
                return chance_set(game, state, &moves, per_move, budget);
            }
            let mut result: Vec<Vec<G::Payoff>> = per_move.into_iter().flatten().collect();
            result.sort();
            result.dedup();
            Ok(result)
        },
    )?;
    Ok(table.remove(&game.root()).unwrap_or_default())
}
