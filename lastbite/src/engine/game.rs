//! The game traits every family implements.

use std::fmt::Debug;
use std::hash::Hash;

use super::Payoff;

/// A player, numbered from 0 (shown as A, B, C, ...).
pub type Player = usize;

/// What [`Game::to_move`] answers at a chance state, where each move is played with its
/// [`Game::probability`].
pub const CHANCE: Player = Player::MAX;

/// A finite, perfect-information game in which one player moves at a time.
///
/// Payoffs accrue per move ([`Game::add_move_payoffs`]) and at terminal states
/// ([`Game::terminal_payoff`]); a player's payoff for a play is the sum along it. The
/// graph of states must be acyclic; states reached along different paths
/// (transpositions) are solved once. A game may have chance states
/// ([`CHANCE`]), where each move is played with an exact probability
/// ([`Game::probability`]); payoffs are then expectations, so the payoff type must hold
/// the probabilities' products (a rational type).
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
    /// The player to move, [`CHANCE`] at a chance state, `None` at a terminal
    /// state.
    fn to_move(&self, state: &Self::State) -> Option<Player>;
    /// Appends the legal moves of a non-terminal state to `out` in the game's defined
    /// order (the order `first` / `last` tie-breaking refers to).
    fn moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);
    /// The state after `mv`.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Self::State;
    /// Adds to `acc[j]` the payoff each player `j` receives when `mv` is played at
    /// `state` (nothing, by default: payoffs only at terminal states).
    #[inline]
    fn add_move_payoffs(&self, _state: &Self::State, _mv: &Self::Move, _acc: &mut [Self::Payoff]) {}
    /// The payoff the player to move, `mover`, receives for `mv`: the `mover` entry of
    /// [`Game::add_move_payoffs`]. The engine's hot loop asks only for this, once per
    /// move; games override it to skip the other players.
    fn mover_payoff(&self, state: &Self::State, mv: &Self::Move, mover: Player) -> Self::Payoff {
        let mut acc = vec![Self::Payoff::zero(); self.players()];
        self.add_move_payoffs(state, mv, &mut acc);
        acc.swap_remove(mover)
    }
    /// The probability of `mv` at a chance state: exact and non-negative, the state's
    /// moves' summing to exactly one (the engine checks, and refuses a state whose do
    /// not). Asked only at chance states; games without them keep the default.
    fn probability(&self, _state: &Self::State, _mv: &Self::Move) -> Self::Payoff {
        Self::Payoff::zero()
    }
    /// The probabilities of `moves` at a chance state, appended to `out` in order: by
    /// default [`Game::probability`] a move; a game whose probabilities sit behind a
    /// lock or a lookup overrides it to find them once a state.
    fn probabilities(
        &self,
        state: &Self::State,
        moves: &[Self::Move],
        out: &mut Vec<Self::Payoff>,
    ) {
        out.extend(moves.iter().map(|mv| self.probability(state, mv)));
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
    /// A small integer naming `state`, for games that already number their states (a
    /// front end that interns the states of a game written in another language): the
    /// sparse solver then keeps such states in vectors indexed by it instead of hash
    /// maps. Distinct states must have distinct ids, and ids should be dense (the
    /// vectors grow to the largest id seen). `None`, the default, for a state without
    /// one.
    #[inline]
    fn state_id(&self, _state: &Self::State) -> Option<usize> {
        None
    }
}

/// `A`, `B`, ..., `Z`, then `P26`, ...; `chance` for [`CHANCE`].
pub fn player_letter(player: Player) -> String {
    if player == CHANCE {
        "chance".to_string()
    } else if player < 26 {
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
    /// Appends the indices in `range` that are states of layer `layer`, in increasing
    /// order. The default filters the range with [`IndexedGame::layer`]; games on subsets
    /// override it with [`subset_layer_members`].
    fn layer_members(&self, layer: usize, range: std::ops::Range<usize>, out: &mut Vec<usize>) {
        out.extend(range.filter(|&i| self.layer(i) == Some(layer)));
    }
}

/// [`IndexedGame::layer_members`] for games whose index is a subset bitmask and whose
/// layer is its number of elements: inside a block aligned to its power-of-two length,
/// the high bits are fixed, so the low bits run through the subsets of the right size
/// (Gosper's hack) without testing the others.
pub fn subset_layer_members(layer: usize, range: std::ops::Range<usize>, out: &mut Vec<usize>) {
    let len = range.end - range.start;
    if !len.is_power_of_two() || !range.start.is_multiple_of(len) {
        out.extend(range.filter(|&i| i.count_ones() as usize == layer));
        return;
    }
    let bits = len.trailing_zeros() as usize;
    let high = range.start.count_ones() as usize;
    if layer < high || layer - high > bits {
        return;
    }
    let want = layer - high;
    if want == 0 {
        out.push(range.start);
        return;
    }
    let mut x: usize = (1 << want) - 1;
    while x < len {
        out.push(range.start | x);
        x = next_subset(x as u64) as usize;
    }
}

/// Gosper's hack: the next larger integer with as many bits set as `x` (not zero), which
/// is the next subset of as many elements in colexicographic order. The lowest run of
/// ones moves up one place and the rest of it drops to the bottom; the division of the
/// textbook form is a shift here (by a power of two), which a solver's walk, calling
/// this once a state, notices.
///
/// ```
/// use lastbite::engine::next_subset;
/// assert_eq!(next_subset(0b0111), 0b1011);
/// assert_eq!(next_subset(0b1100), 0b1_0001);
/// ```
#[inline]
pub fn next_subset(x: u64) -> u64 {
    let c = x & x.wrapping_neg();
    let r = x.wrapping_add(c);
    ((r ^ x) >> 2 >> c.trailing_zeros()) | r
}

/// Serialises a player as its letter ([`player_letter`]), for reports.
pub fn serialize_player<S: serde::Serializer>(player: &Player, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&player_letter(*player))
}

#[cfg(test)]
mod tests {
    use super::subset_layer_members;

    #[test]
    fn subset_layers_match_the_filter() {
        for (start, len) in [
            (0, 1024),
            (1024, 1024),
            (3 << 10, 1024),
            (5, 37),
            (4096, 4096),
        ] {
            for layer in 0..=14 {
                let mut fast = Vec::new();
                subset_layer_members(layer, start..start + len, &mut fast);
                let slow: Vec<usize> = (start..start + len)
                    .filter(|i| i.count_ones() as usize == layer)
                    .collect();
                assert_eq!(fast, slow, "start {start} len {len} layer {layer}");
            }
        }
    }
}
