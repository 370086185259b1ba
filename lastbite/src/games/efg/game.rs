//! An `.efg` tree as a generic engine [`Game`]: the state is a node, a move an action's
//! index, chance nodes the engine's chance states, and a node's outcome paid when play
//! leaves it (or ends there). The family's own solver ([`super::solve`]) is the fast
//! route; this one lets the engine's tools (the drawn tree, [`crate::engine::unfold`])
//! and cross-checks work on any file.

use super::{outcome_vector, Efg, NodeKind};
use crate::engine::{self, Game, Player};
use crate::rational::Rational;

/// An `.efg` game as an engine [`Game`] (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct EfgGame<'a>(pub &'a Efg);

impl Game for EfgGame<'_> {
    type State = u32;
    type Move = u32;
    type Payoff = Rational;
    fn players(&self) -> usize {
        self.0.players().len()
    }
    fn root(&self) -> u32 {
        0
    }
    fn to_move(&self, s: &u32) -> Option<Player> {
        match self.0.nodes()[*s as usize].kind {
            NodeKind::Chance { .. } => Some(engine::CHANCE),
            _ => self.0.mover(*s).map(|p| p as usize),
        }
    }
    fn probability(&self, s: &u32, m: &u32) -> Rational {
        match self.0.nodes()[*s as usize].kind {
            NodeKind::Chance { infoset } => {
                Rational::from_exact(self.0.probabilities(infoset)[*m as usize])
            }
            _ => Rational::zero(),
        }
    }
    fn moves(&self, s: &u32, out: &mut Vec<u32>) {
        out.extend(0..self.0.children(*s).len() as u32)
    }
    fn play(&self, s: &u32, m: &u32) -> u32 {
        self.0.children(*s)[*m as usize]
    }
    fn add_move_payoffs(&self, s: &u32, _m: &u32, acc: &mut [Rational]) {
        for (a, v) in acc.iter_mut().zip(outcome_vector(self.0, *s)) {
            *a = a.add(&v);
        }
    }
    fn terminal_payoff(&self, s: &u32, p: Player) -> Rational {
        outcome_vector(self.0, *s)[p].clone()
    }
    fn player_name(&self, p: Player) -> String {
        self.0.players()[p].clone()
    }
    fn move_label(&self, s: &u32, m: &u32) -> String {
        match self.0.nodes()[*s as usize].kind {
            NodeKind::Chance { infoset } | NodeKind::Personal { infoset, .. } => {
                let label = self.0.action_label(infoset, *m);
                if label.is_empty() {
                    (m + 1).to_string()
                } else {
                    label.to_string()
                }
            }
            NodeKind::Terminal => (m + 1).to_string(),
        }
    }
    fn state_text(&self, s: &u32) -> String {
        let label = self.0.node_label(*s);
        if label.is_empty() {
            format!("node {s}")
        } else {
            format!("node {s} ({label})")
        }
    }
}
