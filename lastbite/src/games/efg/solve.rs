//! Backward induction on an `.efg` tree: one sweep over the nodes in reverse file order
//! (children come after their parent), values exact, ties broken per player.
//!
//! A chance node is worth the probability-weighted sum of its children's values; a
//! decision node the value of the action its mover picks: her largest own payoff, and
//! among equals the one her [`TieBreak`] rule selects ([`TieBreak::prefers`], the same
//! selection as the generic engine). Outcomes attached to a node add to every play
//! through it, so they shift all its actions alike and never change a choice.

use super::{outcome_vector, Efg, EfgError, NodeKind, NONE};
use crate::engine::{Progress, Reason, TieBreak, Ties};
use crate::exact::Exact;
use crate::rational::Rational;

/// How many nodes between progress reports and cancellation checks.
const CHUNK: usize = 1 << 16;

/// The solved game: each node's equilibrium payoff vector and each decision node's action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    players: usize,
    values: Vec<Rational>,
    choice: Vec<u32>,
    ties: Ties,
}

impl Solution {
    /// The equilibrium payoff vector of the subgame at node `n` (its own outcome and
    /// everything after it; outcomes above `n` are not included).
    pub fn value(&self, n: u32) -> &[Rational] {
        let k = self.players;
        &self.values[n as usize * k..(n as usize + 1) * k]
    }

    /// The action the mover at node `n` plays (`None` at chance and terminal nodes).
    pub fn choice(&self, n: u32) -> Option<u32> {
        let c = self.choice[n as usize];
        (c != NONE).then_some(c)
    }

    /// The tie rules solved under.
    pub fn ties(&self) -> &Ties {
        &self.ties
    }

    /// The equilibrium as a pure behaviour profile.
    pub fn behavior(&self, efg: &Efg) -> Behavior {
        let mut probs = vec![Rational::zero(); efg.actions.len()];
        for (n, node) in efg.nodes.iter().enumerate() {
            if let (NodeKind::Personal { infoset, .. }, Some(c)) =
                (node.kind, self.choice(n as u32))
            {
                let first = efg.infosets[infoset as usize].first_action;
                probs[(first + c) as usize] = Rational::one();
            }
        }
        Behavior { probs }
    }
}

/// Solves a perfect-information game by backward induction under `ties`.
///
/// ```
/// use lastbite::engine::{Silent, Ties, TieBreak};
/// use lastbite::games::efg::{solve, Efg};
/// let game = Efg::parse(r#"EFG 2 R "" { "A" "B" }
/// c "" 1 "" { "heads" 1/3 "tails" 2/3 } 0
/// p "" 1 1 "" { "x" "y" } 0
/// t "" 1 "" { 1, 0 }
/// t "" 2 "" { 1, 5 }
/// t "" 3 "" { 0, 3 }"#, 100).unwrap();
/// let friendly = solve(&game, &Ties::uniform(TieBreak::Friendly, 2), &Silent).unwrap();
/// assert_eq!(friendly.value(0)[1].to_string(), "11/3"); // 1/3 * 5 + 2/3 * 3
/// let hostile = solve(&game, &Ties::uniform(TieBreak::Antagonistic, 2), &Silent).unwrap();
/// assert_eq!(hostile.value(0)[1].to_string(), "2");
/// ```
pub fn solve(efg: &Efg, ties: &Ties, progress: &dyn Progress) -> Result<Solution, EfgError> {
    efg.check_perfect_information()?;
    let n = efg.nodes.len();
    let k = efg.players.len();
    let mut values = vec![Rational::zero(); n * k];
    let mut choice = vec![NONE; n];
    progress.start(n as u64, "nodes");
    let mut scratch = vec![Rational::zero(); k];
    for i in (0..n).rev() {
        if i % CHUNK == 0 {
            if progress.cancelled() {
                progress.finish();
                return Err(EfgError::Cancelled);
            }
            progress.advance((n - i).min(CHUNK) as u64);
        }
        let (head, tail) = values.split_at_mut((i + 1) * k);
        let here = &mut head[i * k..];
        // Children have larger numbers: their values are in `tail`.
        let child = |c: u32| {
            let at = (c as usize - i - 1) * k;
            &tail[at..at + k]
        };
        let node = &efg.nodes[i];
        match node.kind {
            NodeKind::Terminal => {}
            NodeKind::Chance { infoset } => {
                for (&c, p) in efg
                    .children(i as u32)
                    .iter()
                    .zip(efg.probabilities(infoset))
                {
                    if *p == Exact::ZERO {
                        continue;
                    }
                    let p = Rational::from_exact(*p);
                    for (acc, v) in scratch.iter_mut().zip(child(c)) {
                        acc.add_assign(&p.mul(v));
                    }
                }
                for (h, s) in here.iter_mut().zip(scratch.iter_mut()) {
                    *h = std::mem::take(s);
                }
            }
            NodeKind::Personal { player, .. } => {
                let rule = ties.of(player as usize);
                let children = efg.children(i as u32);
                let mut best = 0;
                for a in 1..children.len() {
                    if rule.prefers(player as usize, child(children[a]), child(children[best])) {
                        best = a;
                    }
                }
                choice[i] = best as u32;
                here.clone_from_slice(child(children[best]));
            }
        }
        if let Some(o) = efg.outcome_of(i as u32) {
            for (h, x) in here.iter_mut().zip(efg.payoffs(o)) {
                if *x != Exact::ZERO {
                    h.add_assign(&Rational::from_exact(*x));
                }
            }
        }
    }
    progress.finish();
    Ok(Solution {
        players: k,
        values,
        choice,
        ties: ties.clone(),
    })
}

/// One action at a node, explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveExplanation {
    /// The action's number at the node, from 0.
    pub action: u32,
    /// The action's label.
    pub label: String,
    /// Its probability, at a chance node.
    pub probability: Option<Exact>,
    /// The payoff vector it leads to under equilibrium play (the node's own outcome
    /// included).
    pub payoffs: Vec<Rational>,
    /// Whether it gives the mover her largest payoff.
    pub best_for_mover: bool,
    /// Whether the equilibrium plays it.
    pub chosen: bool,
}

/// A node and what each of its actions leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeExplanation {
    /// The node.
    pub node: u32,
    /// Its label.
    pub label: String,
    /// The player to move (`None` at chance and terminal nodes).
    pub player: Option<u32>,
    /// The mover's tie rule.
    pub rule: Option<TieBreak>,
    /// The subgame's equilibrium payoff vector.
    pub value: Vec<Rational>,
    /// Every action.
    pub moves: Vec<MoveExplanation>,
    /// What selected the equilibrium action at a decision node.
    pub reason: Option<Reason>,
}

/// Explains node `n`: each action's payoff vector and the rule that chose.
pub fn explain(efg: &Efg, sol: &Solution, n: u32) -> NodeExplanation {
    let base = outcome_vector(efg, n);
    let node = &efg.nodes[n as usize];
    let mover = efg.mover(n);
    let (labels, probs): (Vec<&str>, &[Exact]) = match node.kind {
        NodeKind::Terminal => (Vec::new(), &[]),
        NodeKind::Chance { infoset } => (
            efg.action_labels(infoset).collect(),
            efg.probabilities(infoset),
        ),
        NodeKind::Personal { infoset, .. } => (efg.action_labels(infoset).collect(), &[]),
    };
    let leads: Vec<Vec<Rational>> = efg
        .children(n)
        .iter()
        .map(|&c| {
            sol.value(c)
                .iter()
                .zip(&base)
                .map(|(v, b)| v.add(b))
                .collect()
        })
        .collect();
    let own_best = mover.and_then(|p| leads.iter().map(|v| &v[p as usize]).max().cloned());
    let moves = leads
        .into_iter()
        .enumerate()
        .map(|(a, payoffs)| MoveExplanation {
            action: a as u32,
            label: labels[a].to_string(),
            probability: probs.get(a).copied(),
            best_for_mover: match (mover, &own_best) {
                (Some(p), Some(b)) => &payoffs[p as usize] == b,
                _ => false,
            },
            chosen: sol.choice(n) == Some(a as u32),
            payoffs,
        })
        .collect::<Vec<_>>();
    let rule = mover.map(|p| sol.ties.of(p as usize));
    let reason = rule.map(|rule| {
        let tied = moves.iter().filter(|m| m.best_for_mover).count();
        if moves.len() == 1 {
            Reason::OnlyMove
        } else if tied > 1 {
            Reason::TieBreak(rule)
        } else {
            Reason::OwnPayoff
        }
    });
    NodeExplanation {
        node: n,
        label: efg.node_label(n).to_string(),
        player: mover,
        rule,
        value: sol.value(n).to_vec(),
        moves,
        reason,
    }
}

/// The nodes reached from `from` with positive probability when everyone follows the
/// profile, in file order (`from` first).
pub fn equilibrium_nodes(efg: &Efg, beh: &Behavior, from: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut stack = vec![from];
    while let Some(n) = stack.pop() {
        out.push(n);
        let children = efg.children(n);
        let weights = beh.weights(efg, n);
        for (a, &c) in children.iter().enumerate().rev() {
            if !weights[a].is_zero() {
                stack.push(c);
            }
        }
    }
    out
}

/// The distinct payoff vectors of all pure subgame perfect equilibria at the root,
/// sorted. A decision node's set keeps, for each action, the continuation vectors that
/// give the mover at least the harshest threat of every other action (the one-shot
/// deviation principle with the worst SPE after a deviation); a chance node's set is
/// every probability-weighted combination of its children's (with chance, each vector is
/// an expectation). Refuses a node whose set would hold more than `limit` vectors.
pub fn all_outcomes(
    efg: &Efg,
    limit: u64,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Rational>>, EfgError> {
    efg.check_perfect_information()?;
    let n = efg.nodes.len();
    let mut sets: Vec<Option<Vec<Vec<Rational>>>> = vec![None; n];
    progress.start(n as u64, "SPE outcome sets");
    for i in (0..n).rev() {
        if i % CHUNK == 0 {
            if progress.cancelled() {
                progress.finish();
                return Err(EfgError::Cancelled);
            }
            progress.advance((n - i).min(CHUNK) as u64);
        }
        let node = &efg.nodes[i];
        let children: Vec<Vec<Vec<Rational>>> = efg
            .children(i as u32)
            .iter()
            .map(|&c| sets[c as usize].take().expect("children are solved first"))
            .collect();
        let mut set = match node.kind {
            NodeKind::Terminal => vec![vec![Rational::zero(); efg.players.len()]],
            NodeKind::Chance { infoset } => {
                let mut acc = vec![vec![Rational::zero(); efg.players.len()]];
                for (child, p) in children.iter().zip(efg.probabilities(infoset)) {
                    if *p == Exact::ZERO {
                        continue;
                    }
                    let size = (acc.len() as u128) * (child.len() as u128);
                    if size > limit as u128 {
                        progress.finish();
                        return Err(EfgError::TooManyOutcomes {
                            node: i as u32,
                            limit,
                        });
                    }
                    let p = Rational::from_exact(*p);
                    let mut next = Vec::with_capacity(size as usize);
                    for a in &acc {
                        for w in child {
                            next.push(a.iter().zip(w).map(|(x, y)| x.add(&p.mul(y))).collect());
                        }
                    }
                    next.sort();
                    next.dedup();
                    acc = next;
                }
                acc
            }
            NodeKind::Personal { player, .. } => {
                let p = player as usize;
                let threats: Vec<&Rational> = children
                    .iter()
                    .map(|s| s.iter().map(|v| &v[p]).min().expect("sets are not empty"))
                    .collect();
                let mut out = Vec::new();
                for (a, s) in children.iter().enumerate() {
                    let bound = threats
                        .iter()
                        .enumerate()
                        .filter(|&(b, _)| b != a)
                        .map(|(_, t)| *t)
                        .max();
                    out.extend(
                        s.iter()
                            .filter(|v| bound.is_none_or(|b| &v[p] >= b))
                            .cloned(),
                    );
                }
                out.sort();
                out.dedup();
                out
            }
        };
        if set.len() as u64 > limit {
            progress.finish();
            return Err(EfgError::TooManyOutcomes {
                node: i as u32,
                limit,
            });
        }
        let base = outcome_vector(efg, i as u32);
        if base.iter().any(|b| !b.is_zero()) {
            for v in &mut set {
                for (x, b) in v.iter_mut().zip(&base) {
                    x.add_assign(b);
                }
            }
        }
        sets[i] = Some(set);
    }
    progress.finish();
    Ok(sets[0].take().unwrap_or_default())
}

/// A behaviour profile: a probability for every action of every player's information
/// set (pure profiles put 1 on one action each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Behavior {
    /// Indexed like the game's flat action list.
    probs: Vec<Rational>,
}

impl Behavior {
    /// The players' information sets in Gambit's profile order: by player, then in order
    /// of first appearance in the file.
    pub fn gambit_order(efg: &Efg) -> Vec<u32> {
        let mut order: Vec<u32> = (0..efg.infosets.len() as u32)
            .filter(|&i| efg.infosets[i as usize].player.is_some())
            .collect();
        order.sort_by_key(|&i| efg.infosets[i as usize].player);
        order
    }

    /// Reads a profile in Gambit's form: the probabilities of every action, comma
    /// separated, players in order, each player's information sets in order of first
    /// appearance, actions in order; optionally after `NE,` (as Gambit's command-line
    /// solvers print it). Numbers are exact (integers, decimals, fractions).
    pub fn parse(efg: &Efg, text: &str) -> Result<Behavior, EfgError> {
        let text = text.trim();
        let body = text.strip_prefix("NE,").unwrap_or(text);
        let entries: Vec<&str> = if body.is_empty() {
            Vec::new()
        } else {
            body.split(',').map(str::trim).collect()
        };
        let order = Self::gambit_order(efg);
        let wanted: usize = order
            .iter()
            .map(|&i| efg.infosets[i as usize].actions as usize)
            .sum();
        if entries.len() != wanted {
            return Err(EfgError::Profile(format!(
                "the profile has {} entries but the game's players have {wanted} actions in all (one probability per action, players in order, information sets in order of appearance)",
                entries.len()
            )));
        }
        let mut probs = vec![Rational::zero(); efg.actions.len()];
        let mut next = entries.into_iter().enumerate();
        for &i in &order {
            let s = &efg.infosets[i as usize];
            let mut sum = Exact::ZERO;
            for a in 0..s.actions {
                let (at, e) = next.next().expect("counted above");
                let p = super::parse::exact_value(e).map_err(|problem| {
                    EfgError::Profile(format!("profile entry {}: {problem}", at + 1))
                })?;
                if p < Exact::ZERO || p > Exact::integer(1) {
                    return Err(EfgError::Profile(format!(
                        "profile entry {}: probability {p} is outside [0, 1]",
                        at + 1
                    )));
                }
                sum = sum.checked_add(&p).unwrap_or(Exact::integer(2));
                probs[(s.first_action + a) as usize] = Rational::from_exact(p);
            }
            if sum != Exact::integer(1) {
                let player = &efg.players[s.player.unwrap_or(0) as usize];
                return Err(EfgError::Profile(format!(
                    "the probabilities at information set {} of player {} (node {}) sum to {sum}, not 1",
                    s.number,
                    crate::text::quote(player),
                    s.first_node
                )));
            }
        }
        Ok(Behavior { probs })
    }

    /// The profile in Gambit's form, `NE,` first.
    pub fn to_gambit(&self, efg: &Efg) -> String {
        let mut out = String::from("NE");
        for i in Self::gambit_order(efg) {
            let s = &efg.infosets[i as usize];
            for a in 0..s.actions {
                out.push(',');
                out.push_str(&self.probs[(s.first_action + a) as usize].to_string());
            }
        }
        out
    }

    /// The probabilities of the actions at node `n`: the profile's at a decision node,
    /// chance's at a chance node.
    pub fn weights(&self, efg: &Efg, n: u32) -> Vec<Rational> {
        match efg.nodes[n as usize].kind {
            NodeKind::Terminal => Vec::new(),
            NodeKind::Chance { infoset } => efg
                .probabilities(infoset)
                .iter()
                .map(|&p| Rational::from_exact(p))
                .collect(),
            NodeKind::Personal { infoset, .. } => {
                let s = &efg.infosets[infoset as usize];
                let start = s.first_action as usize;
                self.probs[start..start + s.actions as usize].to_vec()
            }
        }
    }
}

/// A profitable one-shot deviation from a behaviour profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deviation {
    /// The node.
    pub node: u32,
    /// The player moving there.
    pub player: u32,
    /// Her payoff in the subgame when she follows the profile.
    pub profile_value: Rational,
    /// A best action instead (the first in the node's order).
    pub better: u32,
    /// Her payoff in the subgame after that action.
    pub better_value: Rational,
    /// What she gains (positive).
    pub gain: Rational,
    /// Whether the profile reaches the node with positive probability (if so, the
    /// profile is not even a Nash equilibrium).
    pub reached: bool,
}

/// The verdict on a behaviour profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No player gains by changing her move at any node: a subgame perfect equilibrium.
    SubgamePerfect {
        /// The decision nodes checked.
        nodes: u64,
    },
    /// The first node in file order where a deviation pays.
    Deviation(Deviation),
}

/// Checks a behaviour profile for subgame perfection: at every decision node, every action
/// the profile plays with positive probability must give the mover her best payoff
/// among the node's actions, with play after it following the profile (the one-shot
/// deviation principle; exact expectations over chance and mixing).
pub fn verify(efg: &Efg, beh: &Behavior, progress: &dyn Progress) -> Result<Verdict, EfgError> {
    efg.check_perfect_information()?;
    let n = efg.nodes.len();
    let k = efg.players.len();
    let mut values = vec![Rational::zero(); n * k];
    let mut first: Option<Deviation> = None;
    let mut decisions = 0u64;
    progress.start(n as u64, "nodes against the profile");
    for i in (0..n).rev() {
        if i % CHUNK == 0 {
            if progress.cancelled() {
                progress.finish();
                return Err(EfgError::Cancelled);
            }
            progress.advance((n - i).min(CHUNK) as u64);
        }
        let (head, tail) = values.split_at_mut((i + 1) * k);
        let here = &mut head[i * k..];
        let child = |c: u32| {
            let at = (c as usize - i - 1) * k;
            &tail[at..at + k]
        };
        let children = efg.children(i as u32);
        let weights = beh.weights(efg, i as u32);
        for (&c, w) in children.iter().zip(&weights) {
            if w.is_zero() {
                continue;
            }
            for (h, v) in here.iter_mut().zip(child(c)) {
                h.add_assign(&w.mul(v));
            }
        }
        if let Some(p) = efg.mover(i as u32) {
            decisions += 1;
            let p = p as usize;
            let mut better = 0;
            for a in 1..children.len() {
                if child(children[a])[p] > child(children[better])[p] {
                    better = a;
                }
            }
            let best = child(children[better])[p].clone();
            if best > here[p] {
                // Reported like Solution::value: the node's own outcome included.
                let own = match efg.outcome_of(i as u32) {
                    Some(o) => Rational::from_exact(efg.payoffs(o)[p]),
                    None => Rational::zero(),
                };
                first = Some(Deviation {
                    node: i as u32,
                    player: p as u32,
                    profile_value: here[p].add(&own),
                    better: better as u32,
                    gain: best.sub(&here[p]),
                    better_value: best.add(&own),
                    reached: false,
                });
            }
        }
        if let Some(o) = efg.outcome_of(i as u32) {
            for (h, x) in here.iter_mut().zip(efg.payoffs(o)) {
                h.add_assign(&Rational::from_exact(*x));
            }
        }
    }
    progress.finish();
    Ok(match first {
        None => Verdict::SubgamePerfect { nodes: decisions },
        Some(mut d) => {
            d.reached = equilibrium_nodes(efg, beh, 0)
                .binary_search(&d.node)
                .is_ok();
            Verdict::Deviation(d)
        }
    })
}
