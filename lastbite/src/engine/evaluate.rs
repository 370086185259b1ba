//! One state's value from its moves' values: the mover's best under the tie rules, a
//! chance state's expectation, a terminal state's payoffs. Every solver (sparse, dense,
//! lean), the verifier and the outcome search evaluate a state through these, so the
//! tie rules are applied in one place.

use super::chance::weights;
use super::{EngineError, Game, Payoff, Player, TieBreak};

/// Buffers reused from state to state so the hot loop does not allocate.
pub(crate) struct Scratch<G: Game> {
    pub(crate) moves: Vec<G::Move>,
    pub(crate) best: Vec<G::Payoff>,
    /// A chance state's probabilities, its outcomes' values through their moves, and
    /// which outcomes have a probability above zero: kept between states, as allocating
    /// them costs as much as a die's arithmetic.
    probs: Vec<G::Payoff>,
    values: Vec<G::Payoff>,
    kept: Vec<usize>,
}

impl<G: Game> Scratch<G> {
    pub(crate) fn new(players: usize) -> Self {
        Scratch {
            moves: Vec::new(),
            best: Vec::with_capacity(players),
            probs: Vec::new(),
            values: Vec::new(),
            kept: Vec::new(),
        }
    }
}

/// The terminal payoff vector of `state`.
pub(crate) fn terminal_value<G: Game>(game: &G, state: &G::State, out: &mut Vec<G::Payoff>) {
    out.clear();
    out.extend((0..game.players()).map(|p| game.terminal_payoff(state, p)));
}

/// The payoff vector of playing `mv` at `state` given the child's value.
pub(crate) fn through<G: Game>(
    game: &G,
    state: &G::State,
    mv: &G::Move,
    child: &[G::Payoff],
    out: &mut Vec<G::Payoff>,
) {
    out.clear();
    out.extend_from_slice(child);
    game.add_move_payoffs(state, mv, out);
}

/// The expected payoff vector of the chance state `state` into `scratch.best`: each
/// move's probability times its payoffs and the value of the state it leads to.
/// `Err(child)` when a child has no value yet; `Ok(Err(_))` when the probabilities are
/// not a distribution.
pub(crate) fn expectation<'t, G: Game>(
    game: &G,
    state: &G::State,
    lookup: impl Fn(&G::State) -> Option<&'t [G::Payoff]>,
    scratch: &mut Scratch<G>,
) -> Result<Result<(), EngineError>, G::State>
where
    G::Payoff: 't,
{
    let Scratch {
        moves,
        best: out,
        probs,
        values,
        kept,
    } = scratch;
    moves.clear();
    game.moves(state, moves);
    if let Err(e) = weights(game, state, moves, probs) {
        return Ok(Err(e));
    }
    // Each outcome's payoffs through its move, outcome by outcome, then one weighted sum
    // a player: exact types reduce once a sum instead of once a term.
    let players = game.players();
    values.clear();
    kept.clear();
    for (j, (mv, p)) in moves.iter().zip(probs.iter()).enumerate() {
        let child = game.play(state, mv);
        let cv = lookup(&child).ok_or(child)?;
        if *p == G::Payoff::zero() {
            continue;
        }
        // `through`, written in place: a big value is shared once, not twice.
        let at = values.len();
        values.extend_from_slice(cv);
        game.add_move_payoffs(state, mv, &mut values[at..]);
        kept.push(j);
    }
    out.clear();
    let mut terms = Vec::with_capacity(kept.len());
    for i in 0..players {
        terms.clear();
        terms.extend(
            kept.iter()
                .zip(values.iter().skip(i).step_by(players))
                .map(|(&j, v)| (&probs[j], v)),
        );
        out.push(G::Payoff::weighted_sum(&terms));
    }
    Ok(Ok(()))
}

/// The move selected at a state: its index and the child's value.
type Selected<'t, P> = Option<(usize, &'t [P])>;

/// A child's value and the mover's payoff through the move to it.
type Selection<'t, P> = (&'t [P], P);

/// The other players' total after playing `mv` into a child worth `child` (only needed
/// to break ties, so it may allocate).
fn others_through<G: Game>(
    game: &G,
    state: &G::State,
    mv: &G::Move,
    child: &[G::Payoff],
    mover: Player,
) -> G::Payoff {
    let mut v = Vec::with_capacity(child.len());
    through(game, state, mv, child, &mut v);
    let mut total = G::Payoff::zero();
    for (j, x) in v.iter().enumerate() {
        if j != mover {
            total = total.plus(x);
        }
    }
    total
}

/// Solves one non-terminal state from its children's values: returns the index (into
/// `scratch.moves`) of the selected move and the selected child's value, or `None` when
/// the state has no legal moves (it is then terminal). `Err(child)` when a child is
/// unsolved. The state's value is the child's value plus the move's payoffs
/// ([`through`]), which callers build where they store it.
///
/// Only the mover's own payoff is compared per move ([`TieBreak::decide`]).
pub(crate) fn evaluate<'t, G: Game>(
    game: &G,
    rule: TieBreak,
    state: &G::State,
    mover: Player,
    lookup: impl Fn(&G::State) -> Option<&'t [G::Payoff]>,
    scratch: &mut Scratch<G>,
) -> Result<Selected<'t, G::Payoff>, G::State>
where
    G::Payoff: 't,
{
    scratch.moves.clear();
    game.moves(state, &mut scratch.moves);
    let moves = &scratch.moves;
    // (move index, child value, mover's payoff) of the best move so far.
    let mut best: Option<(usize, Selection<'t, G::Payoff>)> = None;
    for (i, mv) in moves.iter().enumerate() {
        let child = game.play(state, mv);
        let cv = lookup(&child).ok_or(child)?;
        let own = cv[mover].plus(&game.mover_payoff(state, mv, mover));
        let take = match &best {
            None => true,
            Some((bi, (bcv, bown))) => rule.decide(&own, bown, || {
                (
                    others_through(game, state, mv, cv, mover),
                    others_through(game, state, &moves[*bi], bcv, mover),
                )
            }),
        };
        if take {
            best = Some((i, (cv, own)));
        }
    }
    Ok(best.map(|(bi, (bcv, _))| (bi, bcv)))
}

/// The value of a non-terminal state into `scratch.best` via [`evaluate`].
pub(crate) fn evaluate_into<'t, G: Game>(
    game: &G,
    rule: TieBreak,
    state: &G::State,
    mover: Player,
    lookup: impl Fn(&G::State) -> Option<&'t [G::Payoff]>,
    scratch: &mut Scratch<G>,
) -> Result<(), G::State>
where
    G::Payoff: 't,
{
    match evaluate(game, rule, state, mover, lookup, scratch)? {
        None => terminal_value(game, state, &mut scratch.best),
        Some((bi, cv)) => through(game, state, &scratch.moves[bi], cv, &mut scratch.best),
    }
    Ok(())
}
