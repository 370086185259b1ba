//! Chance states: positions where nature, not a player, moves, each move with an exact
//! probability.
//!
//! A game marks a chance state by answering [`CHANCE`] from [`Game::to_move`] and gives
//! each of its moves a probability ([`Game::probability`]). The engine values the state
//! at the expectation of its moves (move payoffs included), so equilibrium values are
//! exact expected payoffs; players still choose, and break ties, only at their own
//! states. This module owns the checks that the probabilities form a distribution and
//! the two combinations every solver shares: the expectation of values and, for the
//! sets of equilibrium outcomes, every probability-weighted combination of one outcome
//! per chance move (as `games::efg` combines them on Gambit trees).

use super::outcomes::Set;
use super::solve::through;
use super::{EngineError, Game, Payoff, Player};

/// What [`Game::to_move`] answers at a chance state.
pub const CHANCE: Player = Player::MAX;

/// The probabilities of `moves` at the chance state `state` into `out`, checked: none
/// negative, summing to exactly one.
pub(crate) fn weights<G: Game>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    out: &mut Vec<G::Payoff>,
) -> Result<(), EngineError> {
    out.clear();
    let zero = G::Payoff::zero();
    let mut sum = G::Payoff::zero();
    for mv in moves {
        let p = game.probability(state, mv);
        if p < zero {
            return Err(EngineError::Probabilities {
                state: game.state_text(state),
                problem: format!(
                    "give move {} the negative probability {}",
                    game.move_label(state, mv),
                    p
                ),
            });
        }
        sum = sum.plus(&p);
        out.push(p);
    }
    if sum != G::Payoff::from_integer(1) {
        return Err(EngineError::Probabilities {
            state: game.state_text(state),
            problem: format!("sum to {sum}, not 1"),
        });
    }
    Ok(())
}

/// The expected payoff vector of the chance state `state` into `out`: each move's
/// probability times its payoffs and the value of the state it leads to. `Err(child)`
/// when a child has no value yet; `Ok(Err(_))` when the probabilities are not a
/// distribution.
pub(crate) fn expectation<'t, G: Game>(
    game: &G,
    state: &G::State,
    lookup: impl Fn(&G::State) -> Option<&'t [G::Payoff]>,
    moves: &mut Vec<G::Move>,
    out: &mut Vec<G::Payoff>,
) -> Result<Result<(), EngineError>, G::State>
where
    G::Payoff: 't,
{
    moves.clear();
    game.moves(state, moves);
    let mut probs = Vec::with_capacity(moves.len());
    if let Err(e) = weights(game, state, moves, &mut probs) {
        return Ok(Err(e));
    }
    out.clear();
    out.resize(game.players(), G::Payoff::zero());
    let mut leads = Vec::with_capacity(out.len());
    for (mv, p) in moves.iter().zip(&probs) {
        let child = game.play(state, mv);
        let cv = lookup(&child).ok_or(child)?;
        if *p == G::Payoff::zero() {
            continue;
        }
        through(game, state, mv, cv, &mut leads);
        for (acc, v) in out.iter_mut().zip(&leads) {
            *acc = acc.plus(&p.times(v));
        }
    }
    Ok(Ok(()))
}

/// Every probability-weighted combination of one vector from each chance move's set
/// (`per_move[i]` already shifted by move `i`'s payoffs), sorted and distinct; moves of
/// probability zero take no part. Refuses a set of more than `limit` vectors.
pub(crate) fn combine<G: Game>(
    game: &G,
    state: &G::State,
    per_move: Vec<Set<G::Payoff>>,
    probs: &[G::Payoff],
    limit: u64,
) -> Result<Set<G::Payoff>, EngineError> {
    let mut acc: Set<G::Payoff> = vec![vec![G::Payoff::zero(); game.players()]];
    for (set, p) in per_move.iter().zip(probs) {
        if *p == G::Payoff::zero() {
            continue;
        }
        let size = acc.len() as u128 * set.len() as u128;
        if size > limit as u128 {
            return Err(EngineError::TooManyOutcomes {
                state: game.state_text(state),
                limit,
            });
        }
        let mut next = Vec::with_capacity(size as usize);
        for a in &acc {
            for w in set {
                next.push(a.iter().zip(w).map(|(x, y)| x.plus(&p.times(y))).collect());
            }
        }
        next.sort();
        next.dedup();
        acc = next;
    }
    Ok(acc)
}
