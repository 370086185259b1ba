//! Random perfect-information games, for cross-checks and benchmarks: random shapes,
//! chance nodes with rational probabilities (zeros included), outcomes on inner nodes,
//! outcomes shared between nodes, and payoffs from a small range so that ties are common.

use super::{Efg, Infoset, Node, NodeKind, Outcome, NONE};
use crate::engine::{Progress, Silent};
use crate::exact::Exact;
use crate::rng::Rng;

/// The shape of a random game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSpec {
    /// The number of nodes (at least 1).
    pub nodes: u64,
    /// The number of players (at least 1).
    pub players: u32,
    /// The most actions at a node (at least 1).
    pub max_actions: u32,
    /// Percent of inner nodes that are chance nodes.
    pub chance: u32,
    /// Percent of inner nodes that carry an outcome.
    pub outcomes: u32,
    /// Payoffs are integers from `-payoff_range` to `payoff_range`.
    pub payoff_range: u32,
    /// The random stream.
    pub seed: u64,
}

impl Default for RandomSpec {
    fn default() -> Self {
        RandomSpec {
            nodes: 100,
            players: 2,
            max_actions: 3,
            chance: 20,
            outcomes: 20,
            payoff_range: 3,
            seed: 1,
        }
    }
}

/// A random game of exactly `spec.nodes` nodes (clamped to at least 1), the same for the
/// same spec on every machine.
///
/// ```
/// use lastbite::games::efg::{random_tree, RandomSpec};
/// let g = random_tree(&RandomSpec { nodes: 50, ..RandomSpec::default() });
/// assert_eq!(g.nodes().len(), 50);
/// assert!(g.check_perfect_information().is_ok());
/// ```
pub fn random_tree(spec: &RandomSpec) -> Efg {
    random_tree_until(spec, &Silent).expect("never stopped")
}

/// [`random_tree`], asking `stop` every 2^16 nodes made: `None` when it said to stop.
pub fn random_tree_until(spec: &RandomSpec, stop: &dyn Progress) -> Option<Efg> {
    let asks = |n: usize| n.is_multiple_of(1 << 16) && stop.cancelled();
    let mut rng = Rng::for_trial(spec.seed, 0);
    let target = spec.nodes.max(1) as usize;
    let players = spec.players.max(1);
    let max_actions = spec.max_actions.max(1) as u64;
    // The shape first: expand random leaves until the tree has `target` nodes.
    let mut kids: Vec<Vec<u32>> = vec![Vec::new()];
    let mut open: Vec<u32> = vec![0];
    while kids.len() < target && !open.is_empty() {
        if asks(kids.len()) {
            return None;
        }
        let pick = rng.below(open.len() as u64) as usize;
        let leaf = open.swap_remove(pick);
        let room = (target - kids.len()) as u64;
        let b = (1 + rng.below(max_actions)).min(room);
        for _ in 0..b {
            let id = kids.len() as u32;
            kids.push(Vec::new());
            kids[leaf as usize].push(id);
            open.push(id);
        }
    }
    let mut efg = Efg {
        title: format!("random game, seed {}", spec.seed),
        comment: String::new(),
        decimal: false,
        players: (1..=players).map(|p| format!("Player {p}")).collect(),
        // "" and then the action labels "1", "2", ... as they first appear, as the
        // parser would have them.
        labels: vec!["".into()],
        nodes: Vec::with_capacity(target),
        children: Vec::with_capacity(target),
        infosets: Vec::new(),
        actions: Vec::new(),
        probs: Vec::new(),
        outcomes: Vec::new(),
        payoffs: Vec::new(),
    };
    let mut counters = vec![0u32; players as usize + 1];
    let range = spec.payoff_range as u64;
    let payoff = |rng: &mut Rng| Exact::integer(rng.below(2 * range + 1) as i128 - range as i128);
    // Then the nodes in preorder, each child slot filled when the child is written.
    let mut stack: Vec<(u32, Option<u32>)> = vec![(0, None)];
    while let Some((shape, slot)) = stack.pop() {
        let number = efg.nodes.len() as u32;
        if asks(number as usize + 1) {
            return None;
        }
        if let Some(slot) = slot {
            efg.children[slot as usize] = number;
        }
        let ch = &kids[shape as usize];
        let kind = if ch.is_empty() {
            NodeKind::Terminal
        } else {
            let chance = rng.below(100) < spec.chance as u64;
            let player = if chance {
                None
            } else {
                Some(rng.below(players as u64) as u32)
            };
            let who = player.map_or(0, |p| p as usize + 1);
            counters[who] += 1;
            let infoset = efg.infosets.len() as u32;
            let first_prob = efg.probs.len() as u32;
            if chance {
                let weights: Vec<u64> = ch.iter().map(|_| rng.below(4)).collect();
                let total: u64 = weights.iter().sum();
                for (i, &w) in weights.iter().enumerate() {
                    let p = match total {
                        0 if i == 0 => Exact::integer(1),
                        0 => Exact::ZERO,
                        t => Exact::new(w as i128, t as i128).expect("positive total"),
                    };
                    efg.probs.push(p);
                }
            }
            efg.infosets.push(Infoset {
                player,
                number: counters[who],
                label: 0,
                first_action: efg.actions.len() as u32,
                actions: ch.len() as u32,
                first_prob,
                members: 1,
                first_node: number,
            });
            while efg.labels.len() <= ch.len() {
                efg.labels.push(efg.labels.len().to_string().into());
            }
            efg.actions.extend(1..=ch.len() as u32);
            match player {
                None => NodeKind::Chance { infoset },
                Some(player) => NodeKind::Personal { player, infoset },
            }
        };
        let with_outcome = match kind {
            NodeKind::Terminal => rng.below(16) != 0,
            _ => rng.below(100) < spec.outcomes as u64,
        };
        let outcome = if !with_outcome {
            NONE
        } else if !efg.outcomes.is_empty() && rng.below(8) == 0 {
            rng.below(efg.outcomes.len() as u64) as u32
        } else {
            let index = efg.outcomes.len() as u32;
            efg.outcomes.push(Outcome {
                number: index + 1,
                label: 0,
                first_payoff: efg.payoffs.len() as u32,
            });
            for _ in 0..players {
                let x = payoff(&mut rng);
                efg.payoffs.push(x);
            }
            index
        };
        let first_child = efg.children.len() as u32;
        efg.children.extend(std::iter::repeat_n(NONE, ch.len()));
        efg.nodes.push(Node {
            label: 0,
            kind,
            outcome,
            first_child,
        });
        for (a, &c) in ch.iter().enumerate().rev() {
            stack.push((c, Some(first_child + a as u32)));
        }
    }
    Some(efg)
}
