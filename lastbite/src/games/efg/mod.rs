//! Games from Gambit's extensive-form files (`.efg`, format version 2): subgame perfect
//! equilibria of any perfect-information game a user has, not only the papers' families.
//!
//! Gambit removed subgame-perfect solving in 16.5; this family reads its files and solves
//! them by backward induction, exactly:
//!
//! * [`Efg::parse`] reads `EFG 2 R` (rationals) and `EFG 2 D` (decimals, read exactly as
//!   written) files as Gambit's own reader does: personal, chance and terminal nodes,
//!   outcomes on any node (a player's payoff is the sum of the outcomes along the play),
//!   information sets and outcomes declared once and referred to by number afterwards,
//!   quoted labels with escapes, the optional comment after the header. It is stricter
//!   than Gambit where Gambit accepts a broken game: chance probabilities must lie in
//!   `[0, 1]` and sum to exactly 1, and nothing may follow the tree. Every problem is
//!   one line naming the line and column.
//! * [`solve`] values chance nodes by exact expectation ([`Rational`], which outgrows 128
//!   bits when it must) and breaks each player's ties by her [`TieBreak`](crate::engine::TieBreak) rule, giving the
//!   payoff vector at every node and the equilibrium action at every decision node;
//!   [`all_outcomes`] gives the payoff vectors of all pure subgame perfect equilibria;
//!   [`verify`] checks any behaviour profile (pure or mixed) for subgame perfection with a
//!   counterexample; [`Efg::info`] summarises a file, with the sizes of the players'
//!   reduced strategy sets.
//! * [`Efg::write`] writes the game back in Gambit's format; [`random_tree`] makes
//!   random games for tests and benchmarks.
//!
//! The solver needs perfect information: every decision node its own information set
//! (chance nodes may share theirs: chance does not choose). [`Efg::check_perfect_information`]
//! refuses other games naming the information set and its nodes.
//!
//! Nodes are numbered in file order (preorder) from 0, the root; actions at a node from
//! 0 in the file's order, which is the order `first` and `last` tie-breaking refer to.
//! A tree is kept as flat arrays in that order, so every child has a larger number than
//! its parent and backward induction is one reverse sweep without recursion.
//!
//! The family owns its model, theory, cross-checks and analyses; it must not depend on
//! another family or on the API (requests, reports and their text are `api`'s).

mod game;
mod parse;
mod random;
mod solve;
mod write;

pub use game::EfgGame;
pub use random::{random_tree, random_tree_until, RandomSpec};
pub use solve::{
    all_outcomes, equilibrium_nodes, explain, solve, verify, Behavior, Deviation, MoveExplanation,
    NodeExplanation, Solution, Verdict,
};

use num_bigint::BigUint;

use crate::exact::Exact;
use crate::rational::Rational;

/// The sentinel for "none" in the flat arrays.
pub(crate) const NONE: u32 = u32::MAX;

/// The default limit on the number of nodes of a file (about 300 bytes each while
/// solving: 2 * 10^7 nodes is about 6 GiB).
pub const DEFAULT_MAX_NODES: u64 = 20_000_000;

/// The default limit on the number of payoff vectors in one node's set of all pure SPE
/// outcomes.
pub const DEFAULT_MAX_OUTCOMES: u64 = 1_000_000;

/// What can go wrong with an `.efg` game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EfgError {
    /// The file does not follow the format, or describes an inconsistent game.
    #[error("line {line}, column {column}: {problem}")]
    Syntax {
        /// Line, from 1.
        line: u32,
        /// Column, from 1 (in characters).
        column: u32,
        /// What is wrong, user text escaped.
        problem: String,
    },
    /// The file has more nodes than the budget allows.
    #[error(
        "the game tree has more than {budget} nodes (the budget); the file was not read further"
    )]
    TooManyNodes {
        /// The budget.
        budget: u64,
    },
    /// An information set with two or more decision nodes.
    #[error("information set {infoset} of player {player} has {count} nodes ({nodes}): the game has imperfect information, and backward induction needs every decision node in an information set of its own")]
    ImperfectInformation {
        /// The player's name, quoted.
        player: String,
        /// The information set's number in the file (and its label, quoted, if any).
        infoset: String,
        /// The number of nodes in it.
        count: usize,
        /// The first nodes, by number.
        nodes: String,
    },
    /// A node number that the game does not have.
    #[error("node {node} is not in this game: its nodes are numbered 0 (the root) to {last}")]
    NoSuchNode {
        /// The number asked for.
        node: u64,
        /// The last node's number.
        last: u64,
    },
    /// A behaviour profile that does not fit the game.
    #[error("{0}")]
    Profile(String),
    /// Too many payoff vectors in a set of SPE outcomes.
    #[error("node {node} has more than {limit} pure SPE payoff vectors (the outcome budget)")]
    TooManyOutcomes {
        /// The node.
        node: u32,
        /// The budget.
        limit: u64,
    },
    /// The caller cancelled the computation.
    #[error("cancelled before the computation finished")]
    Cancelled,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// The end of a play.
    Terminal,
    /// Chance moves, with the probabilities of its information set.
    Chance {
        /// Index into [`Efg::infosets`].
        infoset: u32,
    },
    /// A player moves.
    Personal {
        /// The player, from 0.
        player: u32,
        /// Index into [`Efg::infosets`].
        infoset: u32,
    },
}

/// A node of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The node's label (often empty), an index into the label table.
    label: u32,
    /// Terminal, chance or personal.
    pub kind: NodeKind,
    /// Index into [`Efg::outcomes`], or none.
    outcome: u32,
    /// Start of the node's children in the flat child list.
    first_child: u32,
}

/// An information set: a player's (or chance's) moves, shared by its nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Infoset {
    /// The player, from 0, or `None` for chance.
    pub player: Option<u32>,
    /// Its number in the file (per player).
    pub number: u32,
    /// Its label, an index into the label table.
    label: u32,
    /// Start of its action labels in the flat action list.
    first_action: u32,
    /// Number of actions.
    pub actions: u32,
    /// Start of its probabilities in the flat probability list (chance only).
    first_prob: u32,
    /// Number of nodes in it.
    pub members: u32,
    /// Its first node.
    pub first_node: u32,
}

/// An outcome: a payoff vector that accrues where it is attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Its number in the file.
    pub number: u32,
    /// Its label, an index into the label table.
    label: u32,
    /// Start of its payoffs in the flat payoff list.
    first_payoff: u32,
}

/// A game read from an `.efg` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Efg {
    title: String,
    comment: String,
    decimal: bool,
    players: Vec<String>,
    nodes: Vec<Node>,
    children: Vec<u32>,
    infosets: Vec<Infoset>,
    /// Every distinct label once; nodes, sets, actions and outcomes refer to it by index
    /// (a million actions labelled "1" and "2" keep two strings). Index 0 is "".
    labels: Vec<Box<str>>,
    /// The action labels of the information sets, as label indices.
    actions: Vec<u32>,
    probs: Vec<Exact>,
    outcomes: Vec<Outcome>,
    payoffs: Vec<Exact>,
}

/// What `efg info` tells about a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// Number of nodes.
    pub nodes: u64,
    /// Decision nodes.
    pub personal: u64,
    /// Chance nodes.
    pub chance: u64,
    /// Terminal nodes.
    pub terminal: u64,
    /// The longest path from the root, in moves.
    pub depth: u64,
    /// Information sets of the players (not chance).
    pub infosets: u64,
    /// Distinct outcomes.
    pub outcomes: u64,
    /// Whether every decision node is its own information set.
    pub perfect_information: bool,
    /// Per player: the number of pure strategies (one action per information set).
    pub pure_strategies: Vec<BigUint>,
    /// Per player: the number of strategies of the reduced strategic form (actions at
    /// information sets the player's own earlier moves rule out are not told apart), or
    /// `None` where the player's recall is imperfect (plans are not defined then).
    pub reduced_strategies: Vec<Option<BigUint>>,
}

impl Efg {
    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The comment after the header.
    pub fn comment(&self) -> &str {
        &self.comment
    }

    /// Whether the file declared decimal data (`EFG 2 D`).
    pub fn is_decimal(&self) -> bool {
        self.decimal
    }

    /// The players' names, in the file's order.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// The nodes in file order; the root is node 0.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The information sets, in order of first appearance.
    pub fn infosets(&self) -> &[Infoset] {
        &self.infosets
    }

    /// The outcomes, in order of first appearance.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The children of node `n`, one per action of its information set.
    pub fn children(&self, n: u32) -> &[u32] {
        let node = &self.nodes[n as usize];
        let count = match node.kind {
            NodeKind::Terminal => 0,
            NodeKind::Chance { infoset } | NodeKind::Personal { infoset, .. } => {
                self.infosets[infoset as usize].actions
            }
        };
        let start = node.first_child as usize;
        &self.children[start..start + count as usize]
    }

    /// The action labels of an information set, in order.
    pub fn action_labels(&self, infoset: u32) -> impl ExactSizeIterator<Item = &str> + '_ {
        let s = &self.infosets[infoset as usize];
        let start = s.first_action as usize;
        self.actions[start..start + s.actions as usize]
            .iter()
            .map(|&l| &*self.labels[l as usize])
    }

    /// The label of action `a` (from 0) of an information set.
    pub fn action_label(&self, infoset: u32, a: u32) -> &str {
        let s = &self.infosets[infoset as usize];
        &self.labels[self.actions[(s.first_action + a) as usize] as usize]
    }

    /// The label of node `n`.
    pub fn node_label(&self, n: u32) -> &str {
        &self.labels[self.nodes[n as usize].label as usize]
    }

    /// The label of an information set.
    pub fn infoset_label(&self, infoset: u32) -> &str {
        &self.labels[self.infosets[infoset as usize].label as usize]
    }

    /// The label of an outcome.
    pub fn outcome_label(&self, outcome: &Outcome) -> &str {
        &self.labels[outcome.label as usize]
    }

    /// The probabilities of a chance information set (empty for a player's).
    pub fn probabilities(&self, infoset: u32) -> &[Exact] {
        let s = &self.infosets[infoset as usize];
        if s.player.is_some() {
            return &[];
        }
        let start = s.first_prob as usize;
        &self.probs[start..start + s.actions as usize]
    }

    /// The outcome attached to node `n`, if any.
    pub fn outcome_of(&self, n: u32) -> Option<&Outcome> {
        let o = self.nodes[n as usize].outcome;
        (o != NONE).then(|| &self.outcomes[o as usize])
    }

    /// The payoffs of an outcome, one per player.
    pub fn payoffs(&self, outcome: &Outcome) -> &[Exact] {
        let start = outcome.first_payoff as usize;
        &self.payoffs[start..start + self.players.len()]
    }

    /// The player moving at node `n`, if a player moves there.
    pub fn mover(&self, n: u32) -> Option<u32> {
        match self.nodes[n as usize].kind {
            NodeKind::Personal { player, .. } => Some(player),
            _ => None,
        }
    }

    /// Node `n` when the game has it.
    pub fn node(&self, n: u64) -> Result<u32, EfgError> {
        if n < self.nodes.len() as u64 {
            Ok(n as u32)
        } else {
            Err(EfgError::NoSuchNode {
                node: n,
                last: self.nodes.len() as u64 - 1,
            })
        }
    }

    /// `Ok` when every decision node is its own information set; else the first
    /// information set (in order of appearance) with two or more nodes.
    pub fn check_perfect_information(&self) -> Result<(), EfgError> {
        let Some((i, s)) = self
            .infosets
            .iter()
            .enumerate()
            .find(|(_, s)| s.player.is_some() && s.members > 1)
        else {
            return Ok(());
        };
        let members: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&n| {
                matches!(self.nodes[n as usize].kind,
                    NodeKind::Personal { infoset, .. } if infoset as usize == i)
            })
            .collect();
        let mut nodes: Vec<String> = members.iter().take(5).map(|n| n.to_string()).collect();
        if members.len() > 5 {
            nodes.push("...".into());
        }
        let player = crate::text::quote(&self.players[s.player.unwrap_or(0) as usize]);
        let label = self.infoset_label(i as u32);
        let infoset = if label.is_empty() {
            s.number.to_string()
        } else {
            format!("{} {}", s.number, crate::text::quote(label))
        };
        Err(EfgError::ImperfectInformation {
            player,
            infoset,
            count: members.len(),
            nodes: format!("nodes {}", nodes.join(", ")),
        })
    }

    /// The number of player `p`'s reduced strategies (plans), counted on her sequences:
    /// a sequence's plans are the product, over the information sets that come next for
    /// her after it, of the sum of their actions' plans. Needs perfect recall (every node
    /// of an information set follows the same own last move), else `None`; with perfect
    /// information it is the tree count (a sum at her nodes, a product elsewhere).
    fn reduced_strategies(&self, p: u32) -> Option<BigUint> {
        let n = self.nodes.len();
        // `last[v]`: p's own last move (information set, action) before node v. Nodes are
        // in preorder, so a parent is seen before its children.
        let mut last: Vec<Option<(u32, u32)>> = vec![None; n];
        // Per information set of hers: the own last move before it, and its first node
        // (`u32::MAX` while unseen).
        let mut parent: Vec<Option<(u32, u32)>> = vec![None; self.infosets.len()];
        let mut first_node = vec![u32::MAX; self.infosets.len()];
        for v in 0..n as u32 {
            let here = last[v as usize];
            match self.nodes[v as usize].kind {
                NodeKind::Personal { player, infoset } if player == p => {
                    let i = infoset as usize;
                    if first_node[i] == u32::MAX {
                        parent[i] = here;
                        first_node[i] = v;
                    } else if parent[i] != here {
                        return None;
                    }
                    for (a, &c) in self.children(v).iter().enumerate() {
                        last[c as usize] = Some((infoset, a as u32));
                    }
                }
                _ => {
                    for &c in self.children(v) {
                        last[c as usize] = here;
                    }
                }
            }
        }
        // Plans after each own sequence (information set, action), filled from the
        // information sets met last: a parent sequence's set is met before its children.
        let mut plans: Vec<Vec<BigUint>> = self
            .infosets
            .iter()
            .map(|s| vec![BigUint::from(1u32); s.actions as usize])
            .collect();
        let mut order: Vec<usize> = (0..self.infosets.len())
            .filter(|&i| first_node[i] != u32::MAX)
            .collect();
        order.sort_unstable_by_key(|&i| std::cmp::Reverse(first_node[i]));
        let mut root = BigUint::from(1u32);
        for i in order {
            let total: BigUint = std::mem::take(&mut plans[i]).into_iter().sum();
            match parent[i] {
                Some((j, a)) => plans[j as usize][a as usize] *= total,
                None => root *= total,
            }
        }
        Some(root)
    }

    /// Counts, depth, perfect information and strategy-set sizes.
    pub fn info(&self) -> Info {
        let n = self.nodes.len();
        let k = self.players.len();
        let mut depth = vec![0u64; n];
        let (mut personal, mut chance, mut terminal) = (0, 0, 0);
        for i in 0..n as u32 {
            match self.nodes[i as usize].kind {
                NodeKind::Terminal => terminal += 1,
                NodeKind::Chance { .. } => chance += 1,
                NodeKind::Personal { .. } => personal += 1,
            }
            for &c in self.children(i) {
                depth[c as usize] = depth[i as usize] + 1;
            }
        }
        let mut pure = vec![BigUint::from(1u32); k];
        for s in &self.infosets {
            if let Some(p) = s.player {
                pure[p as usize] *= s.actions;
            }
        }
        let reduced = (0..k as u32).map(|p| self.reduced_strategies(p)).collect();
        Info {
            nodes: n as u64,
            personal,
            chance,
            terminal,
            depth: depth.into_iter().max().unwrap_or(0),
            infosets: self.infosets.iter().filter(|s| s.player.is_some()).count() as u64,
            outcomes: self.outcomes.len() as u64,
            perfect_information: self.check_perfect_information().is_ok(),
            pure_strategies: pure,
            reduced_strategies: reduced,
        }
    }
}

/// The payoff vector of node `n`'s outcome as rationals (zeros for none).
pub(crate) fn outcome_vector(efg: &Efg, n: u32) -> Vec<Rational> {
    match efg.outcome_of(n) {
        Some(o) => efg
            .payoffs(o)
            .iter()
            .map(|&x| Rational::from_exact(x))
            .collect(),
        None => vec![Rational::zero(); efg.players.len()],
    }
}

#[cfg(test)]
mod tests;
