//! `efg` commands: subgame perfect equilibria of games in Gambit's `.efg` format, see
//! [`crate::games::efg`].
//!
//! Every request takes the game as `file` (a path) or `data` (the file's text). Players
//! in `ties` are named by letter (`A`), by number from 1 (as the file numbers them) or by
//! their name in the file.
//!
//! The family's files: requests and the commands' functions here; reports in
//! `report.rs`, their text in `text.rs`. Nothing here computes a game: the work is
//! [`crate::games::efg`]'s; this module turns requests into its validated types and its
//! results into reports.

mod report;
mod text;

pub use report::{
    DeviationReport, ExplainedAction, ExplainedNode, InfoReport, NodeValue, ProfileEntry,
    RandomReport, SolveReport, VerifyReport,
};

pub use crate::api::drawing::TreeReport;

use crate::api::cost::{Estimate, Work, NODES};
use crate::api::drawing::{tree_request, TreeFields};
use crate::api::input::request;
use crate::api::{Control, Error};
use crate::engine::{self, player_letter, Budget, ParseTiesError, TieBreak, Ties};
use crate::games::efg::{
    self as family, Behavior, Efg, EfgError, NodeKind, RandomSpec, Verdict, DEFAULT_MAX_NODES,
    DEFAULT_MAX_OUTCOMES,
};
use crate::number::Count;
use std::borrow::Cow;

request! {
    /// `efg info`: what a file holds.
    InfoRequest {
        /// An `.efg` file.
        #[schemars(extend("x-path" = "file", "x-instead" = "data", "x-positional" = true, "x-required" = true))]
        file: Option<String> = None,
        /// The text of an `.efg` file, for callers without files.
        data: Option<String> = None,
        /// Refuse files with more nodes than this.
        #[schemars(extend("x-budget" = "states"))]
        max_nodes: u64 = DEFAULT_MAX_NODES,
    }
}

request! {
    /// `efg solve`: the subgame perfect equilibrium under tie rules, and optionally all
    /// pure SPE outcomes and explanations.
    SolveRequest {
        /// An `.efg` file.
        #[schemars(extend("x-path" = "file", "x-instead" = "data", "x-positional" = true, "x-required" = true))]
        file: Option<String> = None,
        /// The text of an `.efg` file, for callers without files.
        data: Option<String> = None,
        /// One rule for everyone (friendly, antagonistic, first, last) or one per player,
        /// e.g. `A=friendly,B=antagonistic` (players by letter, number or name).
        ties: String = "first".into(),
        /// Also the payoff vectors of all pure subgame perfect equilibria.
        all: bool = false,
        /// Explain every decision and chance node the equilibrium reaches.
        explain: bool = false,
        /// Explain from this node (its number in file order, 0 = the root) instead; implies
        /// `explain`.
        #[schemars(extend("x-budget" = "none"))]
        at: Option<u64> = None,
        /// Leave out the per-node table (root value and profile only); the text, which
        /// shows no such table, leaves it out (`x-text`).
        #[schemars(extend("x-text" = true))]
        root_only: bool = false,
        /// Refuse files with more nodes than this.
        #[schemars(extend("x-budget" = "states"))]
        max_nodes: u64 = DEFAULT_MAX_NODES,
        /// Refuse `all` when a node has more pure SPE payoff vectors than this.
        #[schemars(extend("x-budget" = "states"))]
        max_outcomes: u64 = DEFAULT_MAX_OUTCOMES,
    }
}

request! {
    /// `efg verify`: is a behaviour profile subgame perfect?
    VerifyRequest {
        /// An `.efg` file.
        #[schemars(extend("x-path" = "file", "x-instead" = "data", "x-positional" = true, "x-required" = true))]
        file: Option<String> = None,
        /// The text of an `.efg` file, for callers without files.
        data: Option<String> = None,
        /// The profile in Gambit's form: every action's probability, comma separated,
        /// players in order, information sets in order of appearance (`NE,` first is
        /// allowed), or `@PATH` for a file holding it.
        #[schemars(extend("x-path" = "@file", "x-required" = true))]
        #[serde(deserialize_with = "crate::api::forms::optional_list")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        profile: Option<String> = None,
        /// Refuse files with more nodes than this.
        #[schemars(extend("x-budget" = "states"))]
        max_nodes: u64 = DEFAULT_MAX_NODES,
    }
}

request! {
    /// `efg random`: a random perfect-information game, for tests and benchmarks.
    RandomRequest {
        /// Number of nodes.
        #[schemars(extend("x-budget" = "memory_gib"), range(max = 20_000_000))]
        nodes: u64 = 100,
        /// Number of players.
        #[schemars(extend("x-budget" = "range"), range(max = 1000))]
        players: u32 = 2,
        /// The most actions at a node.
        #[schemars(extend("x-budget" = "range"), range(max = 1000))]
        max_actions: u32 = 3,
        /// Percent of inner nodes that are chance nodes.
        #[schemars(extend("x-budget" = "range"), range(max = 100))]
        chance: u32 = 20,
        /// Percent of inner nodes that carry an outcome.
        #[schemars(extend("x-budget" = "range"), range(max = 100))]
        outcomes: u32 = 20,
        /// Payoffs are integers in [-payoff_range, payoff_range].
        #[schemars(extend("x-budget" = "range"), range(max = 1_000_000_000))]
        payoff_range: u32 = 3,
        /// The random stream.
        #[schemars(extend("x-budget" = "none"))]
        seed: u64 = 1,
        /// Memory budget of the game and its text, in GiB (about 150 bytes a node and 24
        /// a player's payoff).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = 8,
    }
}

tree_request!(request! {
    /// `efg draw`: the game tree drawn, with its equilibrium under tie rules.
    DrawRequest {
        /// An `.efg` file.
        #[schemars(extend("x-path" = "file", "x-instead" = "data", "x-positional" = true, "x-required" = true))]
        file: Option<String> = None,
        /// The text of an `.efg` file, for callers without files.
        data: Option<String> = None,
        /// One rule for everyone (friendly, antagonistic, first, last) or one per player,
        /// e.g. `A=friendly,B=antagonistic` (players by letter, number or name).
        ties: String = "first".into(),
        /// Refuse files with more nodes than this.
        #[schemars(extend("x-budget" = "states"))]
        max_nodes: u64 = DEFAULT_MAX_NODES,
    }
});

/// Draws the game tree of a file with its subgame perfect equilibrium: the engine
/// solves the tree ([`family::EfgGame`]) and [`crate::api::drawing`] draws it.
///
/// ```
/// use lastbite::api::{efg, Control};
/// let req = efg::DrawRequest { data: Some(efg::ENTRY_GAME.into()), spe: true, ..Default::default() };
/// let r = efg::draw(&req, &Control::silent()).unwrap();
/// assert_eq!(r.drawn_nodes, 5);
/// assert_eq!(r.path, ["In", "Accommodate"]);
/// assert!(r.svg.starts_with("<svg"));
/// ```
pub fn draw(req: &DrawRequest, ctl: &Control) -> Result<TreeReport, Error> {
    let fields = TreeFields::new(req.horizontal, req.values, req.spe, req.draw_nodes)?;
    let g = load(&req.file, &req.data, req.max_nodes)?;
    g.check_perfect_information()
        .map_err(|error| Error::Efg { file: None, error })?;
    let ties = parse_ties(&req.ties, &g)?;
    ctl.admit(nodes_cost(&g, 1.0).plus(crate::api::dinner::drawn_cost(req.draw_nodes)))?;
    ctl.check()?;
    let game = family::EfgGame(&g);
    let budget = Budget {
        max_states: req.max_nodes.max(1),
    };
    let sol = engine::solve(&game, &ties, budget)?;
    let title = if g.title().is_empty() {
        "Game tree".to_string()
    } else {
        g.title().to_string()
    };
    crate::api::drawing::draw(&sol, &fields, budget, &title, &sol.ties().describe())
}

/// Reads the game of a request.
fn load(file: &Option<String>, data: &Option<String>, max_nodes: u64) -> Result<Efg, Error> {
    let (text, path) = match (file, data) {
        (Some(_), Some(_)) => {
            return Err(Error::combination(
                "data",
                "give the game once: a file or its data",
            ))
        }
        (Some(path), None) => {
            let bytes = crate::files::read_input(std::path::Path::new(path))?;
            // Labels in other encodings keep their place as replacement characters.
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            (Cow::Owned(text), Some(path.clone()))
        }
        (None, Some(text)) => (Cow::Borrowed(text.as_str()), None),
        (None, None) => {
            return Err(Error::Missing {
                field: "file",
                what: "game",
                hint: "give an .efg file or its text".into(),
            })
        }
    };
    Efg::parse(&text, max_nodes).map_err(|error| Error::Efg { file: path, error })
}

fn efg_error(error: EfgError) -> Error {
    match error {
        EfgError::Cancelled => Error::Cancelled,
        error => Error::Efg { file: None, error },
    }
}

/// Per-player tie rules; players by letter, number from 1, or name (the engine's one
/// parser), with the game's players named in the error.
fn parse_ties(spec: &str, efg: &Efg) -> Result<Ties, Error> {
    let k = efg.players().len();
    Ties::parse_named(spec, k, efg.players()).map_err(|e| match e {
        ParseTiesError::UnknownPlayer(entry) => Error::invalid(
            "ties",
            &entry,
            format!(
                "names no player of this game (players: A..{} or 1..{k} or their names)",
                player_letter(k - 1)
            ),
        ),
        ParseTiesError::NoRule(entry) => Error::invalid("ties", &entry, "expected PLAYER=RULE"),
        // Quote the entry whose rule is unknown, or the whole rule when it is one.
        ParseTiesError::UnknownRule(ref bad) => {
            let entry = spec
                .split(',')
                .find(|en| {
                    en.split_once('=')
                        .is_some_and(|(_, r)| r.trim().eq_ignore_ascii_case(bad))
                })
                .unwrap_or(spec);
            Error::invalid("ties", entry, e)
        }
    })
}

/// Summarises a file.
///
/// ```
/// use lastbite::api::{efg, Control};
/// let req = efg::InfoRequest { data: Some(efg::ENTRY_GAME.into()), ..Default::default() };
/// let r = efg::info(&req, &Control::silent()).unwrap();
/// assert_eq!((r.nodes, r.depth, r.perfect_information), (5, 2, true));
/// ```
pub fn info(req: &InfoRequest, ctl: &Control) -> Result<InfoReport, Error> {
    let g = load(&req.file, &req.data, req.max_nodes)?;
    ctl.admit(nodes_cost(&g, 1.0))?;
    let i = g.info();
    Ok(InfoReport {
        title: g.title().into(),
        comment: g.comment().into(),
        players: g.players().to_vec(),
        nodes: i.nodes,
        personal_nodes: i.personal,
        chance_nodes: i.chance,
        terminal_nodes: i.terminal,
        depth: i.depth,
        infosets: i.infosets,
        outcomes: i.outcomes,
        perfect_information: i.perfect_information,
        imperfect: g.check_perfect_information().err().map(|e| e.to_string()),
        pure_strategies: i.pure_strategies.into_iter().map(Count).collect(),
        reduced_strategies: i
            .reduced_strategies
            .into_iter()
            .map(|c| c.map(Count))
            .collect(),
    })
}

/// A small example game (entry deterrence), for documentation and tests.
pub const ENTRY_GAME: &str = r#"EFG 2 R "Entry deterrence" { "Entrant" "Incumbent" }
""

p "" 1 1 "" { "Out" "In" } 0
t "" 1 "Out" { 0, 2 }
p "" 2 1 "" { "Fight" "Accommodate" } 0
t "" 2 "Fight" { -1, -1 }
t "" 3 "Share" { 1, 1 }
"#;

fn player_name(g: &Efg, p: u32) -> String {
    g.players()[p as usize].clone()
}

/// Solves a game.
///
/// ```
/// use lastbite::api::{efg, Control};
/// let req = efg::SolveRequest { data: Some(efg::ENTRY_GAME.into()), ..Default::default() };
/// let r = efg::solve(&req, &Control::silent()).unwrap();
/// assert_eq!(serde_json::to_value(&r.value).unwrap(), serde_json::json!([1, 1]));
/// assert_eq!(r.behavior, "NE,0,1,0,1");
/// ```
pub fn solve(req: &SolveRequest, ctl: &Control) -> Result<SolveReport, Error> {
    let g = load(&req.file, &req.data, req.max_nodes)?;
    let ties = parse_ties(&req.ties, &g)?;
    let from = req
        .at
        .map(|n| g.node(n))
        .transpose()
        .map_err(|error| Error::Efg { file: None, error })?;
    // Every outcome too: a set of payoff vectors per node, a few times a value's work.
    ctl.admit(nodes_cost(&g, if req.all { 4.0 } else { 1.0 }))?;
    let sol = family::solve(&g, &ties, ctl).map_err(efg_error)?;
    let beh = sol.behavior(&g);
    let profile = Behavior::gambit_order(&g)
        .into_iter()
        .map(|i| {
            let s = &g.infosets()[i as usize];
            let action = sol.choice(s.first_node).expect("a decision node");
            ProfileEntry {
                player: player_name(&g, s.player.expect("a player's set")),
                infoset: s.number,
                node: s.first_node,
                action,
                label: g.action_label(i, action).to_string(),
            }
        })
        .collect();
    let node_values = (!req.root_only).then(|| {
        (0..g.nodes().len() as u32)
            .map(|n| NodeValue {
                node: n,
                player: g.mover(n).map(|p| player_name(&g, p)),
                action: sol.choice(n),
                value: sol.value(n).to_vec(),
            })
            .collect()
    });
    let outcomes = if req.all {
        ctl.check()?;
        Some(family::all_outcomes(&g, req.max_outcomes, ctl).map_err(efg_error)?)
    } else {
        None
    };
    let explanation = (req.explain || from.is_some()).then(|| {
        family::equilibrium_nodes(&g, &beh, from.unwrap_or(0))
            .into_iter()
            .filter(|&n| g.nodes()[n as usize].kind != NodeKind::Terminal)
            .map(|n| {
                let e = family::explain(&g, &sol, n);
                ExplainedNode {
                    node: n,
                    label: e.label,
                    kind: if e.player.is_some() {
                        "personal"
                    } else {
                        "chance"
                    }
                    .into(),
                    player: e.player.map(|p| player_name(&g, p)),
                    rule: e.rule.map(|r| r.name().into()),
                    value: e.value,
                    actions: e
                        .moves
                        .into_iter()
                        .map(|m| ExplainedAction {
                            action: m.action,
                            label: m.label,
                            probability: m.probability,
                            payoffs: m.payoffs,
                            best_for_mover: m.best_for_mover,
                            chosen: m.chosen,
                        })
                        .collect(),
                    reason: e.reason.map(|r| r.to_string()),
                }
            })
            .collect()
    });
    Ok(SolveReport {
        title: g.title().into(),
        players: g.players().to_vec(),
        ties: describe_ties(&ties, &g),
        nodes: g.nodes().len() as u64,
        value: sol.value(0).to_vec(),
        behavior: beh.to_gambit(&g),
        profile,
        node_values,
        outcomes,
        explanation,
    })
}

fn describe_ties(t: &Ties, g: &Efg) -> String {
    let k = g.players().len();
    let rules: Vec<TieBreak> = (0..k).map(|p| t.of(p)).collect();
    if rules.windows(2).all(|w| w[0] == w[1]) {
        return rules[0].name().into();
    }
    rules
        .iter()
        .enumerate()
        .map(|(p, r)| format!("{}={}", player_letter(p), r.name()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Checks a behaviour profile for subgame perfection.
///
/// ```
/// use lastbite::api::{efg, Control};
/// let req = efg::VerifyRequest {
///     data: Some(efg::ENTRY_GAME.into()),
///     profile: Some("NE,1,0,1,0".into()), // stay out, as the incumbent would fight
///     ..Default::default()
/// };
/// let r = efg::verify(&req, &Control::silent()).unwrap();
/// assert!(!r.subgame_perfect);
/// assert_eq!(r.deviation.unwrap().better_label, "Accommodate");
/// ```
pub fn verify(req: &VerifyRequest, ctl: &Control) -> Result<VerifyReport, Error> {
    let g = load(&req.file, &req.data, req.max_nodes)?;
    let text = match &req.profile {
        None => {
            return Err(Error::Missing {
                field: "profile",
                what: "profile",
                hint: "give every action's probability, e.g. NE,1,0,0,1".into(),
            })
        }
        Some(p) => match p.strip_prefix('@') {
            Some(path) => crate::files::read_input_text(std::path::Path::new(path))?,
            None => p.clone(),
        },
    };
    // Gambit's solvers print one profile per line; the first is checked.
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let beh = Behavior::parse(&g, line).map_err(|e| Error::invalid("profile", line, e))?;
    ctl.admit(nodes_cost(&g, 1.0))?;
    let verdict = family::verify(&g, &beh, ctl).map_err(efg_error)?;
    let (ok, checked, deviation) = match verdict {
        Verdict::SubgamePerfect { nodes } => (true, nodes, None),
        Verdict::Deviation(d) => {
            let infoset = match g.nodes()[d.node as usize].kind {
                NodeKind::Personal { infoset, .. } => infoset,
                _ => unreachable!("deviations are at decision nodes"),
            };
            let decisions = g
                .nodes()
                .iter()
                .filter(|n| matches!(n.kind, NodeKind::Personal { .. }))
                .count();
            (
                false,
                decisions as u64,
                Some(DeviationReport {
                    node: d.node,
                    label: g.node_label(d.node).to_string(),
                    player: player_name(&g, d.player),
                    profile_value: d.profile_value,
                    better_action: d.better,
                    better_label: g.action_label(infoset, d.better).to_string(),
                    better_value: d.better_value,
                    gain: d.gain,
                    reached: d.reached,
                }),
            )
        }
    };
    Ok(VerifyReport {
        title: g.title().into(),
        players: g.players().to_vec(),
        behavior: beh.to_gambit(&g),
        subgame_perfect: ok,
        nodes_checked: checked,
        deviation,
    })
}

/// Makes a random perfect-information game.
pub fn random(req: &RandomRequest, ctl: &Control) -> Result<RandomReport, Error> {
    if req.nodes == 0 || req.nodes > DEFAULT_MAX_NODES {
        return Err(Error::invalid(
            "nodes",
            req.nodes,
            format!("must be from 1 to {DEFAULT_MAX_NODES}"),
        ));
    }
    for (field, v) in [("players", req.players), ("max_actions", req.max_actions)] {
        if v == 0 || v > 1000 {
            return Err(Error::invalid(field, v, "must be from 1 to 1000"));
        }
    }
    for (field, v) in [("chance", req.chance), ("outcomes", req.outcomes)] {
        if v > 100 {
            return Err(Error::invalid(field, v, "is a percentage, from 0 to 100"));
        }
    }
    if req.payoff_range > 1_000_000_000 {
        return Err(Error::invalid(
            "payoff_range",
            req.payoff_range,
            "must be at most 10^9",
        ));
    }
    // Measured: 20 million nodes of two players took 2.7 GB with their text.
    let need = req.nodes as u128 * (150 + 24 * req.players as u128);
    Error::check_memory(
        need,
        req.memory_gib,
        format_args!(
            "a random game of {} nodes and {} players takes",
            req.nodes, req.players
        ),
        "ask for fewer nodes",
    )?;
    // Drawn, then written as text.
    ctl.admit(Estimate::new(
        Work::count(req.nodes as f64 * (2.0 + req.players as f64)),
        NODES,
    ))?;
    let g = family::random_tree_until(
        &RandomSpec {
            nodes: req.nodes,
            players: req.players,
            max_actions: req.max_actions,
            chance: req.chance,
            outcomes: req.outcomes,
            payoff_range: req.payoff_range,
            seed: req.seed,
        },
        ctl,
    )
    .ok_or(Error::Cancelled)?;
    // The text is written through a writer that stops when asked (seconds at 10^7 nodes).
    let mut text = crate::files::Stoppable::new(Vec::new(), ctl);
    g.write(&mut text).map_err(|_| Error::Cancelled)?;
    Ok(RandomReport {
        nodes: g.nodes().len() as u64,
        efg: String::from_utf8(text.into_inner()).expect("labels are UTF-8"),
    })
}

/// The cost model of a loaded game: a pass over its nodes (read already), each a payoff
/// per player, `factor` times.
fn nodes_cost(g: &Efg, factor: f64) -> Estimate {
    Estimate::new(
        Work::count(g.nodes().len() as f64 * (1.0 + g.players().len() as f64) * factor),
        NODES,
    )
}
