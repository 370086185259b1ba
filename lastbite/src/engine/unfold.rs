//! A solved game unfolded into its game tree, for drawing: each history a node (a state
//! reached along two paths appears twice, as in the extensive form), with the moves'
//! labels and probabilities, the payoffs of equilibrium play through every node, which
//! moves the equilibrium plays and which tie with them, and, on request, which leaves
//! some pure subgame perfect equilibrium reaches.
//!
//! A tree can be far larger than the game's states (a dinner of 10 morsels has 1,024
//! states and 9,864,101 histories), so at most a budget of nodes is unfolded: the
//! equilibrium play first, then breadth first, and a node whose moves would pass the
//! budget stays folded, with the number of nodes and leaves it hides (counted over the
//! states, never by walking the tree). Nothing is cut without being counted.
//!
//! Payoffs here are texts ([`Game::payoff_text`]): the tree is for showing, and games
//! that scale their payoffs undo the scaling there.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::evaluate::through;
use super::outcomes::{spe_sets, Set};
use super::solve::{backward, Solution};
use super::{Budget, EngineError, Game, Payoff, Player, CHANCE};

/// What a node of an unfolded tree is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeRole {
    /// A player moves.
    Decision(Player),
    /// Chance moves.
    Chance,
    /// Play ends.
    Terminal,
    /// A subtree left folded: its root's mover (`None` for chance), and the number of
    /// nodes (itself included) and of leaves it holds, saturating.
    Folded {
        /// Who moves at the folded node (`None` for chance).
        mover: Option<Player>,
        /// Nodes of the subtree, the folded node included.
        nodes: u128,
        /// Leaves (terminal histories) of the subtree.
        leaves: u128,
    },
}

/// One node of an [`UnfoldedTree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    /// The parent's index (`None` at the root).
    pub parent: Option<usize>,
    /// The children's indices, in move order (empty at leaves and folded nodes).
    pub children: Vec<usize>,
    /// Number of moves from the root.
    pub depth: usize,
    /// The label of the move from the parent (empty at the root).
    pub label: String,
    /// The probability of that move, when the parent is a chance node.
    pub probability: Option<String>,
    /// What the node is.
    pub role: NodeRole,
    /// Each player's payoff of equilibrium play through this node: what the moves from
    /// the root to it paid, plus the equilibrium value of its subgame (at a leaf, the
    /// play's payoffs).
    pub value: Vec<String>,
    /// Whether equilibrium play reaches this node (with positive probability).
    pub on_path: bool,
    /// Whether the move from the parent is the parent's equilibrium move (after the tie
    /// rule); `false` below chance nodes.
    pub chosen: bool,
    /// Whether the move from the parent yields the same payoff vector as the chosen one
    /// without being chosen (an alternative the tie rule passed over).
    pub tied: bool,
    /// Whether some pure subgame perfect equilibrium ends at this leaf (only when asked,
    /// and only in games without chance).
    pub spe: bool,
}

/// What to unfold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnfoldOptions {
    /// The most nodes unfolded; at least 1.
    pub max_nodes: usize,
    /// Mark the leaves that pure subgame perfect equilibria reach.
    pub spe: bool,
    /// Bounds the solves behind the counts and the SPE sets.
    pub budget: Budget,
}

/// A solved game's tree, unfolded up to a budget ([`unfold`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnfoldedTree {
    /// The players' names.
    pub players: Vec<String>,
    /// The nodes; the root is node 0.
    pub nodes: Vec<TreeNode>,
    /// Nodes of the whole game tree (saturating).
    pub total_nodes: u128,
    /// Leaves (terminal histories) of the whole game tree (saturating).
    pub total_leaves: u128,
    /// The payoff vectors of all pure SPE at the root, when asked.
    pub spe_outcomes: Option<Vec<Vec<String>>>,
    /// Whether the game has chance nodes (leaves are then not marked by SPE).
    pub has_chance: bool,
}

/// Nodes and leaves below each state, counted over states.
fn counts<G: Game>(
    game: &G,
    budget: Budget,
) -> Result<super::table::StateTable<'_, G, (u128, u128, bool)>, EngineError> {
    let mut moves = Vec::new();
    backward(
        game,
        budget,
        |_| (1u128, 1u128, false),
        |state, mover, lookup| {
            moves.clear();
            game.moves(state, &mut moves);
            if moves.is_empty() {
                return Ok((1, 1, false));
            }
            let (mut nodes, mut leaves, mut chance) = (1u128, 0u128, mover == CHANCE);
            for mv in &moves {
                let child = game.play(state, mv);
                let &(n, l, c) =
                    lookup(&child).ok_or_else(|| EngineError::Cycle(game.state_text(&child)))?;
                nodes = nodes.saturating_add(n);
                leaves = leaves.saturating_add(l);
                chance |= c;
            }
            Ok((nodes, leaves, chance))
        },
    )
}

fn texts<G: Game>(game: &G, v: &[G::Payoff]) -> Vec<String> {
    v.iter().map(|p| game.payoff_text(p)).collect()
}

fn add<P: Payoff>(a: &[P], b: &[P]) -> Vec<P> {
    a.iter().zip(b).map(|(x, y)| x.plus(y)).collect()
}

/// Unfolds the game tree of a solution (see the module documentation).
///
/// ```
/// use lastbite::engine::{solve, unfold, Budget, TieBreak, Ties, UnfoldOptions};
/// use lastbite::games::dinner::{Dinner, DinnerGame, Setup, TurnOrder};
/// let dinner = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let order = TurnOrder::parse("ABA", &dinner).unwrap();
/// let setup = Setup::ordered(dinner.clone(), order.clone()).unwrap();
/// let game = DinnerGame::<i64>::new(&setup, false).unwrap();
/// let sol = solve(&game, &Ties::uniform(TieBreak::First, 2), Budget::default()).unwrap();
/// let opts = UnfoldOptions { max_nodes: 100, spe: true, budget: Budget::default() };
/// let tree = unfold(&sol, &opts).unwrap();
/// assert_eq!((tree.nodes.len(), tree.total_leaves), (16, 6)); // 1 + 3 + 6 + 6 histories
/// assert_eq!(tree.nodes[0].value, ["5", "2"]);
/// ```
pub fn unfold<G: Game>(
    sol: &Solution<'_, G>,
    opts: &UnfoldOptions,
) -> Result<UnfoldedTree, EngineError> {
    let game = sol.game();
    let k = game.players();
    let counts = counts(game, opts.budget)?;
    let root = game.root();
    let (total_nodes, total_leaves, has_chance) = counts[&root];
    let sets = if opts.spe {
        Some(spe_sets(game, opts.budget)?)
    } else {
        None
    };
    let spe_outcomes = sets
        .as_ref()
        .map(|s| s[&root].iter().map(|v| texts(game, v)).collect());
    // Leaves are marked top-down only without chance: below a chance node an SPE's
    // outcome is a combination of its children's, and which leaves it reaches is not a
    // per-child question.
    let mark = sets.as_ref().filter(|_| !has_chance);

    let role = |state: &G::State| match game.to_move(state) {
        None => NodeRole::Terminal,
        Some(CHANCE) => NodeRole::Chance,
        Some(p) => NodeRole::Decision(p),
    };
    let zero = vec![G::Payoff::zero(); k];
    let value_of = |state: &G::State, acc: &[G::Payoff]| -> Vec<G::Payoff> {
        add(acc, sol.value(state).unwrap_or(&zero))
    };
    let mut nodes = vec![TreeNode {
        parent: None,
        children: Vec::new(),
        depth: 0,
        label: String::new(),
        probability: None,
        role: role(&root),
        value: texts(game, &value_of(&root, &zero)),
        on_path: true,
        chosen: false,
        tied: false,
        spe: game.to_move(&root).is_none() && mark.is_some_and(|s| !s[&root].is_empty()),
    }];
    // Per node: its state, the payoffs paid on the way to it, and (marking SPE) the
    // absolute payoff vectors of the SPE that reach it.
    let mut states = vec![root.clone()];
    let mut accs = vec![zero.clone()];
    let mut targets: Vec<Set<G::Payoff>> = vec![mark.map(|s| s[&root].clone()).unwrap_or_default()];
    let mut expanded = vec![false];
    let mut queue = BinaryHeap::from([Reverse((false, 0usize, 0usize))]);
    let mut moves = Vec::new();
    while let Some(Reverse((_, _, at))) = queue.pop() {
        let state = states[at].clone();
        if game.to_move(&state).is_none() {
            continue;
        }
        moves.clear();
        game.moves(&state, &mut moves);
        if nodes.len() + moves.len() > opts.max_nodes.max(1) {
            continue;
        }
        expanded[at] = true;
        let explanation = sol.explain(&state);
        let lines = explanation
            .as_ref()
            .map(|e| e.lines.as_slice())
            .unwrap_or(&[]);
        // Marking SPE: each move's absolute SPE vectors, and the threat the mover faces
        // from every other move (its harshest continuation), as in `spe_set`.
        let mover = game.to_move(&state).filter(|&p| p != CHANCE);
        let through_sets: Vec<Set<G::Payoff>> = match (mark, mover) {
            (Some(sets), Some(_)) => moves
                .iter()
                .map(|mv| {
                    let child = game.play(&state, mv);
                    sets[&child]
                        .iter()
                        .map(|w| {
                            let mut v = Vec::with_capacity(k);
                            through(game, &state, mv, w, &mut v);
                            add(&accs[at], &v)
                        })
                        .collect()
                })
                .collect(),
            _ => Vec::new(),
        };
        let threats: Vec<Option<G::Payoff>> = match mover {
            Some(p) => through_sets
                .iter()
                .map(|s| s.iter().map(|v| v[p].clone()).min())
                .collect(),
            None => Vec::new(),
        };
        for (i, mv) in moves.iter().enumerate() {
            let child = game.play(&state, mv);
            let line = lines.get(i);
            let mut acc = Vec::with_capacity(k);
            through(game, &state, mv, &accs[at], &mut acc);
            let probability = line.and_then(|l| l.probability.clone());
            let positive = probability
                .as_ref()
                .is_some_and(|p| *p != G::Payoff::zero());
            let chosen = line.is_some_and(|l| l.selected);
            let on_path = nodes[at].on_path && (chosen || positive);
            let target = match (mover, through_sets.get(i)) {
                (Some(p), Some(set)) => {
                    let bound = threats
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .filter_map(|(_, t)| t.as_ref())
                        .max();
                    set.iter()
                        .filter(|v| bound.is_none_or(|b| &v[p] >= b))
                        .filter(|v| targets[at].binary_search(v).is_ok())
                        .cloned()
                        .collect()
                }
                _ => Vec::new(),
            };
            let id = nodes.len();
            let terminal = game.to_move(&child).is_none();
            nodes.push(TreeNode {
                parent: Some(at),
                children: Vec::new(),
                depth: nodes[at].depth + 1,
                label: game.move_label(&state, mv),
                probability: probability.map(|p| game.payoff_text(&p)),
                role: role(&child),
                value: texts(game, &value_of(&child, &acc)),
                on_path,
                chosen,
                tied: line.is_some_and(|l| l.optimal && !l.selected),
                spe: terminal && !target.is_empty(),
            });
            nodes[at].children.push(id);
            if !terminal {
                queue.push(Reverse((!on_path, nodes[id].depth, id)));
            }
            states.push(child);
            accs.push(acc);
            let mut target = target;
            target.sort();
            targets.push(target);
            expanded.push(false);
        }
    }
    for (i, node) in nodes.iter_mut().enumerate() {
        if expanded[i] {
            continue;
        }
        let mover = match &node.role {
            NodeRole::Terminal => continue,
            NodeRole::Decision(p) => Some(*p),
            NodeRole::Chance => None,
            NodeRole::Folded { .. } => unreachable!("folded only here"),
        };
        let (n, l, _) = counts[&states[i]];
        node.role = NodeRole::Folded {
            mover,
            nodes: n,
            leaves: l,
        };
    }
    Ok(UnfoldedTree {
        players: (0..k).map(|p| game.player_name(p)).collect(),
        nodes,
        total_nodes,
        total_leaves,
        spe_outcomes,
        has_chance,
    })
}
