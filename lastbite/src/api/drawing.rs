//! What every command that draws a game tree shares: its request fields (declared once,
//! here, by `tree_request!`), the [`TreeReport`], and the one function that turns a
//! solution into it ([`draw`]). The families' tree commands (`efg draw`, `dinner tree`)
//! load their game, solve it and call [`draw`]; the unfolding is the engine's
//! ([`crate::engine::unfold`]), the layout and the picture [`crate::tree`]'s.

use std::io;

use num_bigint::BigUint;
use schemars::JsonSchema;
use serde::Serialize;

use crate::api::{Error, Picture, Render};
use crate::engine::{unfold, Budget, Game, NodeRole, Solution, UnfoldOptions};
use crate::number::Count;
use crate::tree::{layout, to_svg, vector_text, Style};

/// The most nodes a tree request may ask to draw.
pub const MAX_DRAWN_NODES: u64 = 100_000;

/// Adds the drawing fields to a request declared by `request!` or `dinner_request!`:
/// `tree_request!(request! { Name { ...fields, } })` (the family's fields end in a comma).
macro_rules! tree_request {
    ($mac:ident ! { $(#[$m:meta])* $name:ident { $($rest:tt)* } }) => {
        $mac! {
            $(#[$m])* $name {
                $($rest)*
                /// Root on the left, levels to the right (default: root on top).
                horizontal: bool = false,
                /// Write each inner node's equilibrium value beside it.
                values: bool = false,
                /// Mark the leaves that pure subgame perfect equilibria reach, and list
                /// their payoff vectors.
                spe: bool = false,
                /// Draw at most this many nodes (at most 100000): the equilibrium play
                /// first, then level by level; each subtree past it is folded into a
                /// triangle with the nodes and leaves it holds.
                #[schemars(extend("x-budget" = "range"), range(max = $crate::api::drawing::MAX_DRAWN_NODES))]
                draw_nodes: u64 = 300,
            }
        }
    };
}
pub(crate) use tree_request;

/// A node as drawn.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct DrawnNode {
    /// The parent's index in `nodes` (none at the root).
    pub parent: Option<u64>,
    /// Moves from the root.
    pub depth: u64,
    /// The move from the parent.
    pub label: String,
    /// Its probability, below a chance node.
    #[schemars(with = "Option<crate::exact::Exact>")]
    pub probability: Option<String>,
    /// `decision`, `chance`, `terminal` or `folded`.
    pub kind: &'static str,
    /// Who moves (decision nodes, and folded ones whose root is a decision).
    pub player: Option<String>,
    /// Each player's payoff of equilibrium play through the node (at a leaf: the play's
    /// payoffs; at a folded node: its subtree's equilibrium, plus the way there).
    #[schemars(with = "Vec<crate::exact::Exact>")]
    pub value: Vec<String>,
    /// Equilibrium play reaches it.
    pub on_path: bool,
    /// The move into it is its parent's equilibrium move.
    pub chosen: bool,
    /// The move into it ties with its parent's equilibrium move.
    pub tied: bool,
    /// A leaf some pure subgame perfect equilibrium reaches (when asked; not in games
    /// with chance).
    pub spe: bool,
    /// At a folded node: the nodes of its subtree, itself included.
    pub hidden_nodes: Option<Count>,
    /// At a folded node: the leaves of its subtree.
    pub hidden_leaves: Option<Count>,
    /// Its box in the picture: centre and size, in pixels.
    pub x: f64,
    /// See `x`.
    pub y: f64,
    /// See `x`.
    pub width: f64,
    /// See `x`.
    pub height: f64,
}

/// A game tree drawn: what was drawn, node by node, and the picture.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TreeReport {
    /// The game's title.
    pub title: String,
    /// The players' names.
    pub players: Vec<String>,
    /// The tie rules.
    pub ties: String,
    /// The equilibrium payoff vector.
    #[schemars(with = "Vec<crate::exact::Exact>")]
    pub value: Vec<String>,
    /// The equilibrium play's move labels from the root to its end or its first chance
    /// node.
    pub path: Vec<String>,
    /// Nodes of the whole game tree.
    pub total_nodes: Count,
    /// Leaves of the whole game tree (its terminal histories).
    pub total_leaves: Count,
    /// Nodes drawn (folded ones included).
    pub drawn_nodes: u64,
    /// Folded subtrees drawn as triangles.
    pub folded: u64,
    /// The payoff vectors of all pure SPE, when asked.
    #[schemars(with = "Option<Vec<Vec<crate::exact::Exact>>>")]
    pub spe_outcomes: Option<Vec<Vec<String>>>,
    /// Every drawn node; the root first.
    pub nodes: Vec<DrawnNode>,
    /// The picture's width, in pixels.
    pub width: f64,
    /// The picture's height, in pixels.
    pub height: f64,
    /// The picture.
    pub svg: String,
}

/// The drawing fields of a request, checked: what [`draw`] takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeFields {
    style: Style,
    spe: bool,
    draw_nodes: usize,
}

impl TreeFields {
    /// The drawing fields, checked (`draw_nodes` between 1 and [`MAX_DRAWN_NODES`]).
    pub fn new(horizontal: bool, values: bool, spe: bool, draw_nodes: u64) -> Result<Self, Error> {
        if !(1..=MAX_DRAWN_NODES).contains(&draw_nodes) {
            return Err(Error::invalid(
                "draw_nodes",
                draw_nodes,
                format!("draw between 1 and {MAX_DRAWN_NODES} nodes"),
            ));
        }
        Ok(TreeFields {
            style: Style { horizontal, values },
            spe,
            draw_nodes: draw_nodes as usize,
        })
    }
}

fn count(n: u128) -> Count {
    Count(BigUint::from(n))
}

/// Draws a solved game's tree (see the module documentation): what the tree commands
/// return, and what a front end with its own games (Python's) calls with its solution.
pub fn draw<G: Game>(
    sol: &Solution<'_, G>,
    fields: &TreeFields,
    budget: Budget,
    title: &str,
    ties: &str,
) -> Result<TreeReport, Error> {
    let game = sol.game();
    let tree = unfold(
        sol,
        &UnfoldOptions {
            max_nodes: fields.draw_nodes,
            spe: fields.spe,
            budget,
        },
    )?;
    let lay = layout(&tree, &fields.style);
    let ties = ties.to_string();
    let caption = format!("{title} (ties: {ties})");
    let svg = to_svg(&tree, &lay, &fields.style, &caption);
    let path = sol
        .path()
        .iter()
        .map(|s| game.move_label(&s.state, &s.mv))
        .collect();
    let nodes: Vec<DrawnNode> = tree
        .nodes
        .iter()
        .zip(&lay.boxes)
        .map(|(n, b)| {
            let (kind, player, hidden) = match &n.role {
                NodeRole::Decision(p) => ("decision", Some(*p), None),
                NodeRole::Chance => ("chance", None, None),
                NodeRole::Terminal => ("terminal", None, None),
                NodeRole::Folded {
                    mover,
                    nodes,
                    leaves,
                } => ("folded", *mover, Some((*nodes, *leaves))),
            };
            DrawnNode {
                parent: n.parent.map(|p| p as u64),
                depth: n.depth as u64,
                label: n.label.clone(),
                probability: n.probability.clone(),
                kind,
                player: player.map(|p| tree.players[p].clone()),
                value: n.value.clone(),
                on_path: n.on_path,
                chosen: n.chosen,
                tied: n.tied,
                spe: n.spe,
                hidden_nodes: hidden.map(|h| count(h.0)),
                hidden_leaves: hidden.map(|h| count(h.1)),
                x: b.x,
                y: b.y,
                width: b.width,
                height: b.height,
            }
        })
        .collect();
    Ok(TreeReport {
        title: title.to_string(),
        players: tree.players.clone(),
        ties,
        value: tree.nodes[0].value.clone(),
        path,
        total_nodes: count(tree.total_nodes),
        total_leaves: count(tree.total_leaves),
        drawn_nodes: nodes.len() as u64,
        folded: nodes.iter().filter(|n| n.kind == "folded").count() as u64,
        spe_outcomes: tree.spe_outcomes.clone(),
        nodes,
        width: lay.width,
        height: lay.height,
        svg,
    })
}

impl Render for TreeReport {
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        Some(&self.svg)
    }

    fn write_text(&self, w: &mut dyn io::Write) -> io::Result<()> {
        writeln!(w, "{}", self.title)?;
        writeln!(w, "players:  {}", self.players.join(", "))?;
        writeln!(w, "ties:     {}", self.ties)?;
        writeln!(w, "value:    {}", vector_text(&self.value))?;
        if !self.path.is_empty() {
            writeln!(w, "play:     {}", self.path.join(" -> "))?;
        }
        writeln!(
            w,
            "drawn:    {} of {} nodes ({} leaves in all), {} subtree{} folded",
            self.drawn_nodes,
            self.total_nodes.0,
            self.total_leaves.0,
            self.folded,
            if self.folded == 1 { "" } else { "s" }
        )?;
        if let Some(all) = &self.spe_outcomes {
            let list: Vec<String> = all.iter().map(|v| vector_text(v)).collect();
            writeln!(w, "pure SPE outcomes: {}", list.join(" "))?;
        }
        Ok(())
    }
}

impl Picture for TreeReport {
    fn svg(&self) -> &str {
        &self.svg
    }
}
