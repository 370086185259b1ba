//! Chance states: positions where nature, not a player, moves, each move with an exact
//! probability.
//!
//! A game marks a chance state by answering [`super::CHANCE`] from [`Game::to_move`] and gives
//! each of its moves a probability ([`Game::probability`]). The engine values the state
//! at the expectation of its moves (move payoffs included), so equilibrium values are
//! exact expected payoffs; players still choose, and break ties, only at their own
//! states. This module owns the check that the probabilities form a distribution and,
//! for the sets of equilibrium outcomes, every probability-weighted combination of one
//! outcome per chance move (as `games::efg` combines them on Gambit trees); the
//! expectation of values is the solver's ([`super::solve`]).

use super::{EngineError, Game, Payoff};

/// The probabilities of `moves` at the chance state `state` into `out`, checked: none
/// negative, summing to exactly one.
pub(crate) fn weights<G: Game>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    out: &mut Vec<G::Payoff>,
) -> Result<(), EngineError> {
    out.clear();
    game.probabilities(state, moves, out);
    // A die: equal probabilities sum to one when one of them times their count is one
    // (one product instead of a sum of fractions, each with its gcd).
    if let Some(p) = out.first() {
        if out.iter().all(|q| q == p)
            && *p >= G::Payoff::zero()
            && *p <= G::Payoff::from_integer(1)
            && p.times(&G::Payoff::from_integer(out.len() as i128)) == G::Payoff::from_integer(1)
        {
            return Ok(());
        }
    }
    let zero = G::Payoff::zero();
    let mut sum = G::Payoff::zero();
    for (mv, p) in moves.iter().zip(out.iter()) {
        if *p < zero {
            return Err(EngineError::Probabilities {
                state: game.state_text(state),
                problem: format!(
                    "give move {} the negative probability {}",
                    game.move_label(state, mv),
                    p
                ),
            });
        }
        sum = sum.plus(p);
    }
    if sum != G::Payoff::from_integer(1) {
        return Err(EngineError::Probabilities {
            state: game.state_text(state),
            problem: format!("sum to {sum}, not 1"),
        });
    }
    Ok(())
}

/// Every probability-weighted combination of one vector from each chance move's set
/// (`per_move[i]` already shifted by move `i`'s payoffs), sorted and distinct; moves of
/// probability zero take no part. Refuses a set of more than `limit` vectors.
pub(crate) fn combine<G: Game>(
    game: &G,
    state: &G::State,
    per_move: Vec<Vec<Vec<G::Payoff>>>,
    probs: &[G::Payoff],
    limit: u64,
) -> Result<Vec<Vec<G::Payoff>>, EngineError> {
    let mut acc: Vec<Vec<G::Payoff>> = vec![vec![G::Payoff::zero(); game.players()]];
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
