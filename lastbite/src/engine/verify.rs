//! Checking a strategy profile for subgame perfection by the one-shot deviation principle.
//!
//! In a finite game a profile is a subgame perfect equilibrium exactly when no player can
//! gain by changing her move at a single state and following the profile afterwards. So
//! the check computes the profile's payoff vector at every state and compares, at every
//! state, the mover's payoff with each alternative move's. Chance states are valued at
//! their expectation and offer no one a deviation.

use std::collections::{HashSet, VecDeque};

use super::evaluate::{expectation, terminal_value, through, Scratch};
use super::solve::backward;
use super::{Budget, EngineError, Game, Payoff, Player, CHANCE};

/// A profitable one-shot deviation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deviation<S, M, P> {
    /// The state where the deviation pays.
    pub state: S,
    /// The player to move there.
    pub player: Player,
    /// The move the profile prescribes.
    pub prescribed: M,
    /// A better move (the one with the largest gain, first in move order among equals).
    pub better: M,
    /// What the deviation gains the player (positive).
    pub gain: P,
}

/// The verdict on a strategy profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict<S, M, P> {
    /// No one-shot deviation pays anywhere; `states` states were checked.
    SubgamePerfect {
        /// Number of states checked.
        states: u64,
    },
    /// A counterexample: the deviation nearest the root (breadth-first, in move order).
    Deviation(Deviation<S, M, P>),
}

/// The [`Verdict`] type of a game.
pub type VerdictOf<G> = Verdict<<G as Game>::State, <G as Game>::Move, <G as Game>::Payoff>;

/// Checks whether `profile` (the move each mover plays at each state; never asked at a
/// chance state) is a subgame perfect equilibrium, over every state reachable from the
/// root by any play.
///
/// ```
/// use lastbite::engine::{verify, Budget, Verdict};
/// use lastbite::games::dinner::{Dinner, DinnerGame, Setup, Strategy, TurnOrder};
/// let dinner = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let order = TurnOrder::parse("ABA", &dinner).unwrap();
/// let setup = Setup::ordered(dinner.clone(), order.clone()).unwrap();
/// let game = DinnerGame::<i64>::new(&setup, false).unwrap();
/// // Greedy Alice takes (3,1) first and loses a point: not an equilibrium.
/// let greedy = |s: &u64, _p: usize| Strategy::Greedy.choose(&dinner, &order, *s).unwrap();
/// match verify(&game, Budget::default(), greedy).unwrap() {
///     Verdict::Deviation(d) => assert_eq!((d.player, d.gain), (0, 1)),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn verify<G: Game>(
    game: &G,
    budget: Budget,
    profile: impl Fn(&G::State, Player) -> G::Move,
) -> Result<VerdictOf<G>, EngineError> {
    let k = game.players();
    let mut moves = Vec::new();
    let mut chance = Scratch::<G>::new(k);
    let table = backward(
        game,
        budget,
        |state| {
            let mut v = Vec::with_capacity(k);
            terminal_value(game, state, &mut v);
            v
        },
        |state, mover, lookup| {
            let cycle = |child: G::State| EngineError::Cycle(game.state_text(&child));
            if mover == CHANCE {
                let lookup = |s: &G::State| lookup(s).map(|v| &v[..]);
                expectation(game, state, lookup, &mut chance).map_err(cycle)??;
                return Ok(chance.best.clone());
            }
            moves.clear();
            game.moves(state, &mut moves);
            let mv = profile(state, mover);
            if !moves.contains(&mv) {
                return Err(EngineError::IllegalMove {
                    player: game.player_name(mover),
                    state: game.state_text(state),
                });
            }
            let child = game.play(state, &mv);
            let cv = lookup(&child).ok_or_else(|| cycle(child.clone()))?;
            let mut v = Vec::with_capacity(k);
            through(game, state, &mv, cv, &mut v);
            Ok(v)
        },
    )?;

    // Breadth-first from the root, so the reported deviation is the shallowest one and
    // the verdict does not depend on hash order.
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([game.root()]);
    seen.insert(game.root());
    let mut buf = Vec::new();
    let mut alt = Vec::new();
    while let Some(state) = queue.pop_front() {
        let Some(mover) = game.to_move(&state) else {
            continue;
        };
        buf.clear();
        game.moves(&state, &mut buf);
        if mover == CHANCE {
            for mv in &buf {
                let child = game.play(&state, mv);
                if seen.insert(child.clone()) {
                    queue.push_back(child);
                }
            }
            continue;
        }
        let own = &table[&state][mover];
        let mut best: Option<(G::Move, G::Payoff)> = None;
        for mv in &buf {
            let child = game.play(&state, mv);
            through(game, &state, mv, &table[&child], &mut alt);
            let gain = alt[mover].minus(own);
            if gain > G::Payoff::zero() && best.as_ref().is_none_or(|(_, g)| &gain > g) {
                best = Some((mv.clone(), gain));
            }
            if seen.insert(child.clone()) {
                queue.push_back(child);
            }
        }
        if let Some((better, gain)) = best {
            let prescribed = profile(&state, mover);
            return Ok(Verdict::Deviation(Deviation {
                state,
                player: mover,
                prescribed,
                better,
                gain,
            }));
        }
    }
    Ok(Verdict::SubgamePerfect {
        states: table.len() as u64,
    })
}
