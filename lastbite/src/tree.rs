//! Game trees drawn: a tidy layout of an [`UnfoldedTree`] and its SVG (TikZ comes from the
//! SVG through [`crate::tikz`]).
//!
//! The layout is the classic tidy one: leaves (terminal and folded nodes) evenly spaced
//! in the order of a depth-first walk, each parent centred over its first and last
//! child, one level a depth. Every node lies between its subtree's first and last leaf,
//! so two nodes of one level are at least a slot apart, and the slot is wider than the
//! widest node box: no two boxes overlap, whatever the tree. Linear time.
//!
//! Drawn: nodes by player (a letter in a disc of the player's colour; chance a grey
//! square), the moves' labels (with probabilities at chance nodes), payoff vectors at the
//! leaves, each node's equilibrium value on request; the equilibrium path thick, every
//! other move the equilibrium plays blue, moves that tie with it dashed; leaves some pure
//! SPE reaches ringed green on request; folded subtrees as triangles with the nodes and
//! leaves they hide and their value.
//!
//! Coordinates are floats only because they are drawn; no solver reads them.

use std::fmt::Write;

use crate::engine::{player_letter, NodeRole, TreeNode, UnfoldedTree};
use crate::svg::escape;

/// How a tree is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    /// Root on the left, levels to the right (default: root on top).
    pub horizontal: bool,
    /// Write each inner node's equilibrium value beside it.
    pub values: bool,
}

/// A node's box: its centre and size, in SVG pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeBox {
    /// Horizontal centre.
    pub x: f64,
    /// Vertical centre.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl NodeBox {
    /// Whether two boxes share interior points.
    pub fn overlaps(&self, other: &NodeBox) -> bool {
        (self.x - other.x).abs() * 2.0 < self.width + other.width
            && (self.y - other.y).abs() * 2.0 < self.height + other.height
    }
}

/// Where every node goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Each node's box, by node index; the node's mark is at the box's anchor
    /// ([`Layout::anchor`]).
    pub boxes: Vec<NodeBox>,
    /// Each node's mark (disc, square, dot or triangle apex), by node index.
    pub anchors: Vec<(f64, f64)>,
    /// The picture's width.
    pub width: f64,
    /// The picture's height.
    pub height: f64,
}

impl Layout {
    /// Where node `i`'s mark is.
    pub fn anchor(&self, i: usize) -> (f64, f64) {
        self.anchors[i]
    }
}

const RADIUS: f64 = 11.0;
const FONT: f64 = 11.0;
const LINE: f64 = 14.0;
const MARGIN: f64 = 24.0;
const TITLE: f64 = 30.0;
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
];
const PATH: &str = "#ff7f0e";
const CHOSEN: &str = "#1f4e99";
const SPE: &str = "#2ca02c";

/// The width of a text in pixels, estimated generously (0.62 em a character).
fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * FONT * 0.62
}

/// A payoff vector as written in the picture.
pub fn vector_text(v: &[String]) -> String {
    format!("({})", v.join(", "))
}

fn folded_text(nodes: u128, leaves: u128) -> String {
    format!(
        "{} node{}, {} lea{}",
        nodes,
        if nodes == 1 { "" } else { "s" },
        leaves,
        if leaves == 1 { "f" } else { "ves" }
    )
}

/// The text lines beside a leaf's mark (below it, or right of it drawn horizontally),
/// and an inner node's value when asked.
fn node_texts(node: &TreeNode, style: &Style) -> (Vec<String>, Option<String>) {
    match &node.role {
        NodeRole::Terminal => (vec![vector_text(&node.value)], None),
        NodeRole::Folded { nodes, leaves, .. } => (
            vec![folded_text(*nodes, *leaves), vector_text(&node.value)],
            None,
        ),
        NodeRole::Decision(_) | NodeRole::Chance => {
            (Vec::new(), style.values.then(|| vector_text(&node.value)))
        }
    }
}

/// The size of a node's mark.
fn mark_size(node: &TreeNode) -> (f64, f64) {
    match node.role {
        NodeRole::Terminal => (6.0, 6.0),
        NodeRole::Folded { .. } => (2.6 * RADIUS, 2.2 * RADIUS),
        _ => (2.0 * RADIUS, 2.0 * RADIUS),
    }
}

/// The room the move's label takes above the mark: the label belongs to the node's box,
/// so boxes that do not overlap keep labels apart too.
fn label_room(node: &TreeNode) -> f64 {
    match edge_label(node) {
        Some(l) if !l.is_empty() => LINE + 2.0,
        _ => 0.0,
    }
}

/// The node's box relative to its mark's centre: (left, top, right, bottom) extents.
/// The move's label sits above the mark; a leaf's texts below it (to its right drawn
/// horizontally); an inner node's value to its right (below it drawn horizontally, where
/// the edges leave to the right).
fn extents(node: &TreeNode, style: &Style) -> (f64, f64, f64, f64) {
    let (mw, mh) = mark_size(node);
    let (lines, value) = node_texts(node, style);
    let widest = lines.iter().map(|t| text_width(t)).fold(0.0, f64::max);
    let label = edge_label(node).map_or(0.0, |l| text_width(&l));
    let value_w = value.as_deref().map_or(0.0, text_width);
    let half = (mw / 2.0).max(label / 2.0);
    let top = mh / 2.0 + label_room(node);
    if style.horizontal {
        let text_h = LINE * lines.len() as f64 / 2.0;
        let below = if value.is_some() {
            mh / 2.0 + LINE + 2.0
        } else {
            mh / 2.0
        };
        let right = if lines.is_empty() {
            0.0
        } else {
            mw / 2.0 + 4.0 + widest
        };
        let side = half.max(value_w / 2.0);
        (side, top.max(text_h), side.max(right), below.max(text_h))
    } else {
        let below = mh / 2.0
            + if lines.is_empty() {
                0.0
            } else {
                2.0 + LINE * lines.len() as f64
            };
        let right = if value.is_some() {
            mw / 2.0 + 4.0 + value_w
        } else {
            0.0
        };
        let side = half.max(widest / 2.0);
        (side, top, side.max(right), below)
    }
}

/// Lays the tree out (see the module documentation).
pub fn layout(tree: &UnfoldedTree, style: &Style) -> Layout {
    let n = tree.nodes.len();
    let ext: Vec<_> = tree.nodes.iter().map(|x| extents(x, style)).collect();
    // Along the leaves' axis a slot holds the widest box; across, a level holds the
    // deepest box and room for the moves' labels.
    let along = |e: &(f64, f64, f64, f64)| {
        if style.horizontal {
            e.1 + e.3
        } else {
            e.0 + e.2
        }
    };
    let slot = ext.iter().map(along).fold(2.0 * RADIUS, f64::max) + 12.0;
    let level = if style.horizontal {
        ext.iter().map(|e| e.0 + e.2).fold(0.0, f64::max) + 40.0
    } else {
        ext.iter().map(|e| e.1 + e.3).fold(0.0, f64::max) + 30.0
    };
    // Leaf order: a depth-first walk, children in move order (explicit stack).
    let mut along_pos = vec![0.0f64; n];
    let mut next_leaf = 0usize;
    let mut stack = vec![(0usize, false)];
    while let Some((i, done)) = stack.pop() {
        let kids = &tree.nodes[i].children;
        if kids.is_empty() {
            along_pos[i] = next_leaf as f64 * slot;
            next_leaf += 1;
        } else if done {
            along_pos[i] = (along_pos[kids[0]] + along_pos[kids[kids.len() - 1]]) / 2.0;
        } else {
            stack.push((i, true));
            stack.extend(kids.iter().rev().map(|&c| (c, false)));
        }
    }
    // Offsets so that every box lies inside the margins.
    let (mut lo_a, mut hi_a, mut lo_c, mut hi_c) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (i, e) in ext.iter().enumerate() {
        let (a, c) = (along_pos[i], tree.nodes[i].depth as f64 * level);
        let (a0, a1, c0, c1) = if style.horizontal {
            (a - e.1, a + e.3, c - e.0, c + e.2)
        } else {
            (a - e.0, a + e.2, c - e.1, c + e.3)
        };
        lo_a = lo_a.min(a0);
        hi_a = hi_a.max(a1);
        lo_c = lo_c.min(c0);
        hi_c = hi_c.max(c1);
    }
    let (off_a, off_c) = (MARGIN - lo_a, MARGIN - lo_c);
    let mut boxes = Vec::with_capacity(n);
    let mut anchors = Vec::with_capacity(n);
    for (i, e) in ext.iter().enumerate() {
        let a = along_pos[i] + off_a;
        let c = tree.nodes[i].depth as f64 * level + off_c;
        let (x, y) = if style.horizontal { (c, a) } else { (a, c) };
        let (l, t, r, b) = *e;
        anchors.push((x, y + TITLE));
        boxes.push(NodeBox {
            x: x + (r - l) / 2.0,
            y: y + TITLE + (b - t) / 2.0,
            width: l + r,
            height: t + b,
        });
    }
    let (span_a, span_c) = (hi_a - lo_a + 2.0 * MARGIN, hi_c - lo_c + 2.0 * MARGIN);
    let (width, height) = if style.horizontal {
        (span_c, span_a)
    } else {
        (span_a, span_c)
    };
    let legend = legend_lines(tree);
    let widest = legend.iter().map(|l| text_width(l)).fold(0.0, f64::max);
    Layout {
        boxes,
        anchors,
        width: width.max(widest + 2.0 * MARGIN),
        height: height + TITLE + legend.len() as f64 * LINE + 8.0,
    }
}

/// The label of the move into a node: its name, and its probability below chance.
fn edge_label(node: &TreeNode) -> Option<String> {
    node.parent?;
    Some(match &node.probability {
        Some(p) => format!("{} ({p})", node.label),
        None => node.label.clone(),
    })
}

fn legend_lines(tree: &UnfoldedTree) -> Vec<String> {
    let mut lines = vec![tree
        .players
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let letter = player_letter(p);
            if *name == letter {
                letter
            } else {
                format!("{letter} = {name}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")];
    lines.push(
        "thick orange: equilibrium play; blue: the equilibrium's other moves; dashed: moves tied with them"
            .into(),
    );
    let folded = tree
        .nodes
        .iter()
        .filter(|x| matches!(x.role, NodeRole::Folded { .. }))
        .count();
    if folded > 0 {
        lines.push(format!(
            "{} of {} nodes drawn; each triangle a folded subtree, with the nodes and leaves it holds and its value",
            tree.nodes.len(),
            tree.total_nodes
        ));
    }
    if let Some(all) = &tree.spe_outcomes {
        let list: Vec<String> = all.iter().map(|v| vector_text(v)).collect();
        lines.push(format!(
            "pure SPE outcomes: {}{}",
            list.join(" "),
            if tree.has_chance {
                " (leaves are not marked in games with chance)"
            } else {
                "; leaves they reach ringed green"
            }
        ));
    }
    lines
}

fn text(s: &mut String, x: f64, y: f64, anchor: &str, body: &str, extra: &str) {
    let _ = writeln!(
        s,
        r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}"{extra}>{}</text>"#,
        escape(body)
    );
}

/// Draws the tree as a standalone SVG document, `title` above it.
pub fn to_svg(tree: &UnfoldedTree, layout: &Layout, style: &Style, title: &str) -> String {
    let h = layout.height;
    let w = layout.width.max(text_width(title) * 1.3 + 2.0 * MARGIN);
    let mut s = String::with_capacity(200 * tree.nodes.len() + 1000);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{FONT}">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    text(&mut s, w / 2.0, 22.0, "middle", title, r#" font-size="14""#);
    // Edges first, so that marks cover their ends; the equilibrium path last of them.
    let mut order: Vec<usize> = (1..tree.nodes.len()).collect();
    order.sort_by_key(|&i| (tree.nodes[i].on_path, tree.nodes[i].chosen));
    for &i in &order {
        let node = &tree.nodes[i];
        let Some(p) = node.parent else { continue };
        let ((px, py), (cx, cy)) = (layout.anchor(p), layout.anchor(i));
        let (pw, ph) = mark_size(&tree.nodes[p]);
        let (cw, ch) = mark_size(node);
        // From the parent's mark to the child's label (or mark): no line crosses a label.
        let (x1, y1, x2, y2) = if style.horizontal {
            (px + pw / 2.0, py, cx - cw / 2.0, cy)
        } else {
            (px, py + ph / 2.0, cx, cy - ch / 2.0 - label_room(node))
        };
        let (color, width, dash) = if node.on_path {
            (PATH, 3.5, "")
        } else if node.chosen {
            (CHOSEN, 2.0, "")
        } else if node.tied {
            (CHOSEN, 1.5, r#" stroke-dasharray="5,3""#)
        } else {
            ("#999999", 1.0, "")
        };
        let _ = writeln!(
            s,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{color}" stroke-width="{width}"{dash}/>"#
        );
    }
    for (i, node) in tree.nodes.iter().enumerate() {
        let (x, y) = layout.anchor(i);
        match &node.role {
            NodeRole::Decision(p) => {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{RADIUS}" fill="{}" stroke="black"/>"#,
                    PALETTE[p % PALETTE.len()]
                );
                text(
                    &mut s,
                    x,
                    y + 4.0,
                    "middle",
                    &player_letter(*p),
                    r#" fill="white" font-weight="bold""#,
                );
            }
            NodeRole::Chance => {
                let r = RADIUS * 0.9;
                let _ = writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#bbbbbb" stroke="black"/>"##,
                    x - r,
                    y - r,
                    2.0 * r,
                    2.0 * r
                );
                text(&mut s, x, y + 4.0, "middle", "C", r#" font-weight="bold""#);
            }
            NodeRole::Terminal => {
                if node.spe {
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{x:.1}" cy="{y:.1}" r="7" fill="none" stroke="{SPE}" stroke-width="2"/>"#
                    );
                }
                let _ = writeln!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="black"/>"#);
            }
            NodeRole::Folded { mover, .. } => {
                let (w, hh) = mark_size(node);
                let color = mover.map_or("#bbbbbb", |p| PALETTE[p % PALETTE.len()]);
                let _ = writeln!(
                    s,
                    r#"<polygon points="{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{color}" fill-opacity="0.35" stroke="black"/>"#,
                    y - hh / 2.0,
                    x - w / 2.0,
                    y + hh / 2.0,
                    x + w / 2.0,
                    y + hh / 2.0
                );
            }
        }
        let (lines, value) = node_texts(node, style);
        let (mw, mh) = mark_size(node);
        if let Some(label) = edge_label(node).filter(|l| !l.is_empty()) {
            let ly = y - mh / 2.0 - 4.0;
            text(&mut s, x, ly, "middle", &label, r##" fill="#444444""##);
        }
        for (k, line) in lines.iter().enumerate() {
            if style.horizontal {
                let top = y - LINE * lines.len() as f64 / 2.0;
                let (lx, ly) = (x + mw / 2.0 + 4.0, top + LINE * (k as f64 + 1.0) - 3.0);
                text(&mut s, lx, ly, "start", line, "");
            } else {
                let ly = y + mh / 2.0 + LINE * (k as f64 + 1.0) - 1.0;
                text(&mut s, x, ly, "middle", line, "");
            }
        }
        if let Some(v) = value {
            let (vx, vy, anchor) = if style.horizontal {
                (x, y + mh / 2.0 + LINE - 1.0, "middle")
            } else {
                (x + mw / 2.0 + 4.0, y - 2.0, "start")
            };
            text(&mut s, vx, vy, anchor, &v, r##" fill="#1f4e99""##);
        }
    }
    let legend = legend_lines(tree);
    let top = h - LINE * legend.len() as f64 - 4.0;
    for (k, line) in legend.iter().enumerate() {
        text(
            &mut s,
            MARGIN,
            top + LINE * (k as f64 + 0.8),
            "start",
            line,
            r##" fill="#333333""##,
        );
    }
    s.push_str("</svg>\n");
    s
}
