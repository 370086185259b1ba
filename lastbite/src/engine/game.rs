//! The game traits every family implements.

use std::fmt::Debug;
use std::hash::Hash;

use super::Payoff;

/// A player, numbered from 0 (shown as A, B, C, ...).
pub type Player = usize;

/// A finite, perfect-information game in which one player moves at a time.
///
/// Payoffs accrue per move ([`Game::move_payoff`]) and at terminal states
/// ([`Game::terminal_payoff`]); a player's payoff for a play is the sum along it. The
/// graph of states must be acyclic; states reached along different paths
/// (transpositions) are solved once.
pub trait Game: Sync {
    /// A position, including whatever decides who moves.
    type State: Clone + Eq + Hash + Send + Sync + Debug;
    /// A move.
    type Move: Clone + Eq + Send + Sync + Debug;
    /// An exact payoff.
    type Payoff: Payoff;

    /// Number of players (at least 1).
    fn players(&self) -> usize;
    /// The initial state.
    fn root(&self) -> Self::State;
    /// The player to move, `None` at a terminal state.
    fn to_move(&self, state: &Self::State) -> Option<Player>;
    /// Appends the legal moves of a non-terminal state to `out` in the game's defined
    /// order (the order `first` / `last` tie-breaking refers to).
    fn moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);
    /// The state after `mv`.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Self::State;
    /// The payoff `player` receives when `mv` is played at `state`.
    fn move_payoff(&self, _state: &Self::State, _mv: &Self::Move, _player: Player) -> Self::Payoff {
        Self::Payoff::zero()
    }
    /// The payoff `player` receives at a terminal state.
    fn terminal_payoff(&self, _state: &Self::State, _player: Player) -> Self::Payoff {
        Self::Payoff::zero()
    }
    /// A short name of a player, used in exports and explanations.
    fn player_name(&self, player: Player) -> String {
        player_letter(player)
    }
    /// A short label of a move, used in exports and explanations.
    fn move_label(&self, _state: &Self::State, mv: &Self::Move) -> String {
        format!("{mv:?}")
    }
    /// A payoff as users should read it (games that scale their inputs undo it here).
    fn payoff_text(&self, payoff: &Self::Payoff) -> String {
        payoff.to_string()
    }
    /// A state as users should read it.
    fn state_text(&self, state: &Self::State) -> String {
        format!("{state:?}")
    }
}

/// `A`, `B`, ..., `Z`, then `P26`, ...
pub fn player_letter(player: Player) -> String {
    if player < 26 {
        char::from(b'A' + player as u8).to_string()
    } else {
        format!("P{player}")
    }
}

/// A game whose states map one-to-one onto `0..state_count()`, so that the engine can
/// keep a dense table instead of a hash map ([`super::solve_dense`]).
///
/// States are grouped into layers: every move leads from a layer to a strictly lower one
/// (for games on subsets, the layer is the number of items left). The engine solves the
/// layers in increasing order, each in parallel.
pub trait IndexedGame: Game {
    /// Size of the index space.
    fn state_count(&self) -> u128;
    /// The index of a state.
    fn index(&self, state: &Self::State) -> usize;
    /// The state of an index.
    fn state_at(&self, index: usize) -> Self::State;
    /// Number of layers.
    fn layer_count(&self) -> usize;
    /// The layer of an index, `None` when the index is not a state of the game.
    fn layer(&self, index: usize) -> Option<usize>;
}
