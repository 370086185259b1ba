//! A Python game as the engine's [`Game`]: the engine asks, the arena answers from what
//! each callback gave once.

use lastbite::engine::{self, Game, Player, CHANCE};
use lastbite::rational::Rational;
use pyo3::prelude::*;

use super::values::{borrowed, chance_marker, short};
use super::{Edge, Id, PyGame, DEAD};
use crate::error::Error;

impl Game for PyGame {
    type State = Id;
    type Move = Id;
    type Payoff = Rational;

    fn players(&self) -> usize {
        self.players
    }

    fn root(&self) -> Id {
        if let Some(r) = self.arena().root {
            return r;
        }
        let id = Python::attach(|py| match self.call(py, &self.methods.root, ()) {
            Some(r) => self.intern(r, None),
            None => DEAD,
        });
        if !self.failed() {
            self.arena().root = Some(id);
        }
        id
    }

    fn to_move(&self, s: &Id) -> Option<Player> {
        if self.failed() {
            return None;
        }
        let id = *s;
        let state = {
            let arena = self.arena();
            match arena.nodes.get(id as usize) {
                None => return None,
                Some(n) => {
                    if let Some(known) = n.to_move {
                        return known;
                    }
                }
            }
            arena.objs[id as usize].as_ptr()
        };
        let answer = Python::attach(|py| {
            let state = borrowed(py, state);
            let r = self.call(py, &self.methods.to_move, (state,))?;
            if r.is_none() {
                return None;
            }
            if r.is(chance_marker(py)) {
                return Some(CHANCE);
            }
            // True is not player 1: a bool is a mistake (a test for "is it over?").
            let is_bool = r.is_instance_of::<pyo3::types::PyBool>();
            match r.extract::<usize>() {
                Ok(p) if p < self.players && !is_bool => Some(p),
                _ => {
                    self.fail(Error::new_err(format!(
                        "to_move({}) returned {}, not None, lastbite.CHANCE or a player index from 0 to {}",
                        short(&state),
                        short(&r),
                        self.players - 1
                    )));
                    None
                }
            }
        });
        if !self.failed() {
            self.arena().nodes[id as usize].to_move = Some(answer);
        }
        answer
    }

    fn moves(&self, s: &Id, out: &mut Vec<Id>) {
        let n = self.move_count(*s);
        out.extend(0..n as Id);
    }

    fn play(&self, s: &Id, m: &Id) -> Id {
        let (id, i) = (*s, *m as usize);
        let Some((arena, e)) = self.locate(id, i) else {
            return DEAD;
        };
        if arena.children[e] != DEAD {
            return arena.children[e];
        }
        let (state, mv) = (arena.objs[id as usize].as_ptr(), arena.moves[e].as_ptr());
        drop(arena);
        Python::attach(|py| {
            match self.call(
                py,
                &self.methods.play,
                (borrowed(py, state), borrowed(py, mv)),
            ) {
                Some(r) => self.intern(r, Some((id, i))),
                None => DEAD,
            }
        })
    }

    fn add_move_payoffs(&self, s: &Id, m: &Id, acc: &mut [Rational]) {
        self.with_payoffs(*s, *m, |v| {
            for (a, x) in acc.iter_mut().zip(v) {
                a.add_assign(x);
            }
        });
    }

    fn mover_payoff(&self, s: &Id, m: &Id, mover: Player) -> Rational {
        self.with_payoffs(*s, *m, |v| v[mover].clone())
            .unwrap_or_else(Rational::zero)
    }

    fn probability(&self, s: &Id, m: &Id) -> Rational {
        match self.locate(*s, *m as usize) {
            Some((arena, e)) => arena.probability(e),
            None => Rational::zero(),
        }
    }

    fn probabilities(&self, s: &Id, moves: &[Id], out: &mut Vec<Rational>) {
        // The engine asks after listing the moves, so they are in the arena: one lock.
        {
            let arena = self.arena();
            let at = |m: &Id| match arena.edge(*s, *m as usize) {
                Edge::At(e) => Some(e),
                _ => None,
            };
            if moves.iter().all(|m| at(m).is_some()) {
                out.extend(moves.iter().filter_map(at).map(|e| arena.probability(e)));
                return;
            }
        }
        out.extend(moves.iter().map(|m| self.probability(s, m)));
    }

    fn terminal_payoff(&self, s: &Id, p: Player) -> Rational {
        let Some(method) = &self.methods.terminal_payoffs else {
            return Rational::zero();
        };
        if self.failed() {
            return Rational::zero();
        }
        let id = *s;
        match self.arena().nodes.get(id as usize) {
            None => return Rational::zero(),
            Some(n) => {
                if let Some(v) = &n.terminal {
                    return v[p].clone();
                }
            }
        }
        // The engine asks once per player: one Python call per terminal state.
        let v = Python::attach(|py| {
            let state = self.obj(py, id);
            let r = self.call(py, method, (state,))?;
            self.payoff_vector(&r, "terminal_payoffs")
        });
        match v {
            Some(v) => {
                let x = v[p].clone();
                self.arena().nodes[id as usize].terminal = Some(v.into_boxed_slice());
                x
            }
            None => Rational::zero(),
        }
    }

    fn player_name(&self, p: Player) -> String {
        self.names
            .get(p)
            .cloned()
            .unwrap_or_else(|| engine::player_letter(p))
    }

    fn move_label(&self, s: &Id, m: &Id) -> String {
        Python::attach(|py| {
            self.move_obj(py, *s, *m)
                .str()
                .map(|s| s.to_string())
                .unwrap_or_else(|_| "?".into())
        })
    }

    fn state_text(&self, s: &Id) -> String {
        Python::attach(|py| short(&self.obj(py, *s)))
    }

    /// The arena's ids are dense: the engine's tables become vectors.
    fn state_id(&self, s: &Id) -> Option<usize> {
        (*s != DEAD).then_some(*s as usize)
    }
}
