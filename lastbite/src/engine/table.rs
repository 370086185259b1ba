//! The sparse solver's table of states: a vector indexed by the game's own state ids
//! ([`Game::state_id`]) where it assigns them, a hash map for the other states.
//!
//! Games that intern their states (the Python front end numbers each distinct Python
//! object) already hold small dense integers; hashing them again would cost several
//! random probes of a large map per move, where a vector costs one load.

use super::fx::FxMap;
use super::Game;

/// A map from the states of `G` to values `V`.
pub(crate) struct StateTable<'g, G: Game, V> {
    game: &'g G,
    /// States with an id, at their id.
    slots: Vec<Option<V>>,
    /// States without one.
    map: FxMap<G::State, V>,
    len: usize,
}

impl<'g, G: Game, V> StateTable<'g, G, V> {
    /// An empty table for `game`'s states.
    pub(crate) fn new(game: &'g G) -> Self {
        StateTable {
            game,
            slots: Vec::new(),
            map: FxMap::default(),
            len: 0,
        }
    }

    /// Number of states stored.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The value of `state`.
    #[inline]
    pub(crate) fn get(&self, state: &G::State) -> Option<&V> {
        match self.game.state_id(state) {
            Some(i) => self.slots.get(i).and_then(Option::as_ref),
            None => self.map.get(state),
        }
    }

    /// Whether `state` has a value.
    #[inline]
    pub(crate) fn contains_key(&self, state: &G::State) -> bool {
        self.get(state).is_some()
    }

    /// Stores the value of `state`, replacing any earlier one.
    pub(crate) fn insert(&mut self, state: G::State, value: V) {
        let old = match self.game.state_id(&state) {
            Some(i) => {
                if i >= self.slots.len() {
                    // Ids are dense, so growing geometrically keeps the table near the
                    // number of states.
                    let len = (i + 1).max(self.slots.len() * 2).max(64);
                    self.slots.resize_with(len, || None);
                }
                self.slots[i].replace(value)
            }
            None => self.map.insert(state, value),
        };
        if old.is_none() {
            self.len += 1;
        }
    }

    /// Takes the value of `state` out of the table.
    pub(crate) fn remove(&mut self, state: &G::State) -> Option<V> {
        let old = match self.game.state_id(state) {
            Some(i) => self.slots.get_mut(i).and_then(Option::take),
            None => self.map.remove(state),
        };
        if old.is_some() {
            self.len -= 1;
        }
        old
    }
}

impl<G: Game, V> std::ops::Index<&G::State> for StateTable<'_, G, V> {
    type Output = V;

    fn index(&self, state: &G::State) -> &V {
        self.get(state).expect("a solved state")
    }
}
