//! A family's game played move by move, behind one interface: for front ends that hand
//! lastbite's games to other tools (OpenSpiel's `pyspiel` games) or let a user step
//! through one.
//!
//! A key design decision is *type erasure at the family boundary*: each family's engine
//! game (with its own state and move types) is wrapped once, here, into a [`Playable`]
//! whose positions are opaque [`Position`]s and whose moves are small integers
//! (*action ids*: a morsel's index, a take, a token's position, a cookie's days left), so
//! a front end plays every family with the same five calls and holds no game logic. The
//! payoffs are the families' own ([`Game::add_move_payoffs`] along the way,
//! [`Game::terminal_payoff`] at the end), in the papers' units, exact.
//!
//! This module owns the erased interface and its checks (an action that is not legal is
//! an [`Error`] naming it); each family's API module says which engine game it plays
//! (a crate-private `Family`), and [`crate::api::game`] picks the family by name.

use std::any::Any;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::api::Error;
use crate::engine::{player_letter, Game, Payoff, Player};
use crate::exact::Exact;

/// How a game's returns are related across players (OpenSpiel's `Utility`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Utility {
    /// Every play's returns sum to zero.
    ZeroSum,
    /// Every play's returns sum to [`GameInfo::utility_sum`].
    ConstantSum,
    /// No relation.
    GeneralSum,
}

/// What a front end needs to declare a game to another tool.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct GameInfo {
    /// The family (`dinner`, `subtraction`, `tokens`, `cookie`).
    pub family: &'static str,
    /// A one-line description of the instance.
    pub title: String,
    /// Number of players.
    pub players: usize,
    /// Every action id is below this.
    pub actions: u64,
    /// The most moves a play can take.
    pub max_length: u64,
    /// No player's return is ever below this.
    pub min_return: Exact,
    /// No player's return is ever above this.
    pub max_return: Exact,
    /// How the players' returns are related.
    pub utility: Utility,
    /// The sum of every play's returns, for zero- and constant-sum games.
    pub utility_sum: Option<Exact>,
    /// Whether payoffs come along the way (each move's), not only at the end.
    pub rewards_along_the_way: bool,
}

/// One family's game for [`Playable`]: which engine game it plays, built from data the
/// family owns (the engine games borrow their instance, so one is made per call; every
/// family's is cheap to make), and how its moves and payoffs read outside.
pub(crate) trait Family: Send + Sync + 'static {
    /// The engine game's state.
    type State: Clone + std::fmt::Debug + Send + Sync + 'static;
    /// The engine game's move.
    type Move: Clone + Eq;
    /// The engine game's payoff.
    type Payoff: Payoff;
    /// The engine game, borrowing the family's data.
    type G<'a>: Game<State = Self::State, Move = Self::Move, Payoff = Self::Payoff>
    where
        Self: 'a;
    /// The engine game.
    fn game(&self) -> Self::G<'_>;
    /// The action id of a move.
    fn action(&self, mv: &Self::Move) -> u64;
    /// A payoff in the paper's units.
    fn real(&self, game: &Self::G<'_>, payoff: &Self::Payoff) -> Exact;
    /// A move as users read it, given its action id.
    fn action_text(&self, game: &Self::G<'_>, state: &Self::State, mv: &Self::Move) -> String {
        game.move_label(state, mv)
    }
}

/// The erased form of a [`Family`].
trait Erased: Send + Sync {
    fn start(&self, players: usize) -> Position;
    fn actions(&self, state: &dyn Any) -> Vec<u64>;
    fn apply(&self, position: &Position, action: u64) -> Result<Position, Error>;
    fn state_text(&self, state: &dyn Any) -> String;
    fn key(&self, state: &dyn Any) -> String;
    fn action_text(&self, state: &dyn Any, action: u64) -> Option<String>;
}

struct Wrapped<F>(F);

impl<F: Family> Wrapped<F> {
    fn state<'s>(&self, state: &'s dyn Any) -> &'s F::State {
        state
            .downcast_ref::<F::State>()
            .expect("a position of this game")
    }

    fn moves(&self, game: &F::G<'_>, state: &F::State) -> Vec<F::Move> {
        let mut out = Vec::new();
        if game.to_move(state).is_some() {
            game.moves(state, &mut out);
        }
        out
    }

    fn position(
        &self,
        game: &F::G<'_>,
        state: F::State,
        returns: Vec<Exact>,
        history: Vec<u64>,
    ) -> Position {
        let to_move = game.to_move(&state);
        let mut returns = returns;
        if to_move.is_none() {
            for (p, r) in returns.iter_mut().enumerate() {
                *r = *r + self.0.real(game, &game.terminal_payoff(&state, p));
            }
        }
        Position {
            state: Arc::new(state),
            rewards: vec![Exact::ZERO; returns.len()],
            returns,
            history,
            to_move,
        }
    }
}

impl<F: Family> Erased for Wrapped<F> {
    fn start(&self, players: usize) -> Position {
        let game = self.0.game();
        let root = game.root();
        self.position(&game, root, vec![Exact::ZERO; players], Vec::new())
    }

    fn actions(&self, state: &dyn Any) -> Vec<u64> {
        let game = self.0.game();
        let mut ids: Vec<u64> = self
            .moves(&game, self.state(state))
            .iter()
            .map(|m| self.0.action(m))
            .collect();
        ids.sort_unstable();
        ids
    }

    fn apply(&self, position: &Position, action: u64) -> Result<Position, Error> {
        let game = self.0.game();
        let state = self.state(position.state.as_ref());
        let Some(mv) = self
            .moves(&game, state)
            .into_iter()
            .find(|m| self.0.action(m) == action)
        else {
            return Err(Error::invalid(
                "action",
                action,
                format!(
                    "is not a legal action at {} (legal: {})",
                    game.state_text(state),
                    join(&self.actions(position.state.as_ref()))
                ),
            ));
        };
        let players = position.returns.len();
        let mut paid = vec![F::Payoff::zero(); players];
        game.add_move_payoffs(state, &mv, &mut paid);
        let rewards: Vec<Exact> = paid.iter().map(|p| self.0.real(&game, p)).collect();
        let returns = position
            .returns
            .iter()
            .zip(&rewards)
            .map(|(a, b)| *a + *b)
            .collect();
        let mut history = position.history.clone();
        history.push(action);
        let next = game.play(state, &mv);
        let mut child = self.position(&game, next, returns, history);
        // The terminal payoffs, too, arrive with the move that ends the play.
        for ((r, before), paid) in child
            .rewards
            .iter_mut()
            .zip(&position.returns)
            .zip(&child.returns)
        {
            *r = *paid - *before;
        }
        Ok(child)
    }

    fn state_text(&self, state: &dyn Any) -> String {
        self.0.game().state_text(self.state(state))
    }

    fn key(&self, state: &dyn Any) -> String {
        format!("{:?}", self.state(state))
    }

    fn action_text(&self, state: &dyn Any, action: u64) -> Option<String> {
        let game = self.0.game();
        let state = self.state(state);
        self.moves(&game, state)
            .iter()
            .find(|m| self.0.action(m) == action)
            .map(|m| self.0.action_text(&game, state, m))
    }
}

fn join(ids: &[u64]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    let parts: Vec<String> = ids.iter().map(u64::to_string).collect();
    parts.join(", ")
}

/// A position of a [`Playable`] game: the family's state, each player's return so far,
/// the last move's rewards and the actions that led here. Cheap to clone (the state is
/// shared); positions never change, [`Playable::apply`] makes a new one.
#[derive(Clone)]
pub struct Position {
    state: Arc<dyn Any + Send + Sync>,
    returns: Vec<Exact>,
    rewards: Vec<Exact>,
    history: Vec<u64>,
    to_move: Option<Player>,
}

impl Position {
    /// The player to move, `None` at the end.
    pub fn to_move(&self) -> Option<Player> {
        self.to_move
    }

    /// Whether the play is over.
    pub fn is_terminal(&self) -> bool {
        self.to_move.is_none()
    }

    /// Each player's return so far: payoffs along the way, and at the end the whole
    /// play's.
    pub fn returns(&self) -> &[Exact] {
        &self.returns
    }

    /// What the move that led here paid each player (terminal payoffs included when it
    /// ended the play); zeros at the start.
    pub fn rewards(&self) -> &[Exact] {
        &self.rewards
    }

    /// The action ids played from the start.
    pub fn history(&self) -> &[u64] {
        &self.history
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("history", &self.history)
            .field("returns", &self.returns)
            .field("to_move", &self.to_move.map(player_letter))
            .finish()
    }
}

/// A family's game to play move by move (see the [module](self) docs); made by
/// [`crate::api::game`] or a family's `game` function.
///
/// ```
/// use lastbite::api::{self, Control};
/// let game = api::game("dinner", r#"{"morsels": "1,2 2,3 3,1", "order": "ABA"}"#).unwrap();
/// let start = game.start();
/// assert_eq!(game.actions(&start), vec![0, 1, 2]);
/// let p = game.apply(&start, 2).unwrap();              // A eats morsel 2, worth 3 to her
/// let p = game.apply(&p, 1).unwrap();                  // B eats morsel 1, worth 3 to him
/// let end = game.apply(&p, 0).unwrap();                // A eats morsel 0
/// assert!(end.is_terminal());
/// assert_eq!(end.returns(), &[4.into(), 3.into()]);
/// assert!(game.apply(&end, 0).is_err());
/// ```
pub struct Playable {
    info: GameInfo,
    erased: Box<dyn Erased>,
}

impl Playable {
    pub(crate) fn new<F: Family>(info: GameInfo, family: F) -> Playable {
        Playable {
            info,
            erased: Box::new(Wrapped(family)),
        }
    }

    /// The game's description.
    pub fn info(&self) -> &GameInfo {
        &self.info
    }

    /// The initial position.
    pub fn start(&self) -> Position {
        self.erased.start(self.info.players)
    }

    /// The legal action ids at `position`, ascending; none at the end.
    pub fn actions(&self, position: &Position) -> Vec<u64> {
        self.erased.actions(position.state.as_ref())
    }

    /// The position after `action`; an action that is not legal there is an error naming
    /// it and the legal ones.
    pub fn apply(&self, position: &Position, action: u64) -> Result<Position, Error> {
        self.erased.apply(position, action)
    }

    /// The position as users read it (the family's own text).
    pub fn state_text(&self, position: &Position) -> String {
        self.erased.state_text(position.state.as_ref())
    }

    /// A key naming the position's state for transpositions: two positions with one key
    /// have the same legal actions, transitions, and payoffs from there on (the engine
    /// game's state, written out; the returns so far are not part of it).
    pub fn key(&self, position: &Position) -> String {
        self.erased.key(position.state.as_ref())
    }

    /// An action as users read it, `None` when it is not legal at `position`.
    pub fn action_text(&self, position: &Position, action: u64) -> Option<String> {
        self.erased.action_text(position.state.as_ref(), action)
    }
}
