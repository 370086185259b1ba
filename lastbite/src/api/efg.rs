//! `efg` commands: subgame perfect equilibria of games in Gambit's `.efg` format, see
//! [`crate::games::efg`].
//!
//! Every request takes the game as `file` (a path) or `data` (the file's text). Players
//! in `ties` are named by letter (`A`), by number from 1 (as the file numbers them) or by
//! their name in the file.

use std::borrow::Cow;
use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use super::cookie::Count;
use super::input::request;
use super::{Control, Error, Render};
use crate::engine::{player_letter, TieBreak, Ties};
use crate::exact::Exact;
use crate::games::efg::{
    self as family, Behavior, Efg, EfgError, NodeKind, RandomSpec, Verdict, DEFAULT_MAX_NODES,
    DEFAULT_MAX_OUTCOMES,
};
use crate::rational::Rational;

/// Text output lists profiles and node tables up to this many rows; JSON has them all.
const TEXT_ROWS: usize = 200;

request! {
    /// `efg info`: what a file holds.
    InfoRequest {
        /// An `.efg` file.
        file: Option<String> = None,
        /// The text of an `.efg` file, for callers without files.
        data: Option<String> = None,
        /// Refuse files with more nodes than this.
        max_nodes: u64 = DEFAULT_MAX_NODES,
    }
}

request! {
    /// `efg solve`: the subgame perfect equilibrium under tie rules, and optionally all
    /// pure SPE outcomes and explanations.
    SolveRequest {
        /// An `.efg` file.
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
        /// Explain from this node (its number in file order, 0 = the root) instead.
        at: Option<u64> = None,
        /// Leave out the per-node table (root value and profile only).
        root_only: bool = false,
        /// Refuse files with more nodes than this.
        max_nodes: u64 = DEFAULT_MAX_NODES,
        /// Refuse `all` when a node has more pure SPE payoff vectors than this.
        max_outcomes: u64 = DEFAULT_MAX_OUTCOMES,
    }
}

request! {
    /// `efg verify`: is a behaviour profile subgame perfect?
    VerifyRequest {
        /// An `.efg` file.
        file: Option<String> = None,
        /// The text of an `.efg` file, for callers without files.
        data: Option<String> = None,
        /// The profile in Gambit's form: every action's probability, comma separated,
        /// players in order, information sets in order of appearance (`NE,` first is
        /// allowed), or `@PATH` for a file holding it.
        profile: Option<String> = None,
        /// Refuse files with more nodes than this.
        max_nodes: u64 = DEFAULT_MAX_NODES,
    }
}

request! {
    /// `efg random`: a random perfect-information game, for tests and benchmarks.
    RandomRequest {
        /// Number of nodes.
        nodes: u64 = 100,
        /// Number of players.
        players: u32 = 2,
        /// The most actions at a node.
        max_actions: u32 = 3,
        /// Percent of inner nodes that are chance nodes.
        chance: u32 = 20,
        /// Percent of inner nodes that carry an outcome.
        outcomes: u32 = 20,
        /// Payoffs are integers in [-payoff_range, payoff_range].
        payoff_range: u32 = 3,
        /// The random stream.
        seed: u64 = 1,
    }
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
            let bytes = std::fs::read(path).map_err(|e| Error::Io {
                action: "read",
                path: path.clone(),
                message: e.to_string(),
            })?;
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

/// Per-player tie rules; players by letter, number from 1, or name.
fn parse_ties(spec: &str, efg: &Efg) -> Result<Ties, Error> {
    let k = efg.players().len();
    if !spec.contains('=') {
        let rule: TieBreak = spec
            .parse()
            .map_err(|e: crate::engine::ParseTiesError| Error::invalid("ties", spec, e))?;
        return Ok(Ties::uniform(rule, k));
    }
    let mut rules = vec![TieBreak::First; k];
    for entry in spec.split(',') {
        let Some((who, rule)) = entry.split_once('=') else {
            return Err(Error::invalid("ties", entry, "expected PLAYER=RULE"));
        };
        let who = who.trim();
        let p = (0..k)
            .find(|&p| player_letter(p).eq_ignore_ascii_case(who))
            .or_else(|| {
                who.parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=k).contains(&n))
                    .map(|n| n - 1)
            })
            .or_else(|| efg.players().iter().position(|name| name == who))
            .ok_or_else(|| {
                Error::invalid(
                    "ties",
                    entry,
                    format!(
                        "names no player of this game (players: A..{} or 1..{k} or their names)",
                        player_letter(k - 1)
                    ),
                )
            })?;
        rules[p] = rule
            .parse()
            .map_err(|e: crate::engine::ParseTiesError| Error::invalid("ties", entry, e))?;
    }
    Ok(Ties::per_player(rules))
}

/// The report of `efg info`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InfoReport {
    /// The game's title.
    pub title: String,
    /// The comment after the header.
    pub comment: String,
    /// The players, in the file's order.
    pub players: Vec<String>,
    /// Number of nodes.
    pub nodes: u64,
    /// Decision nodes.
    pub personal_nodes: u64,
    /// Chance nodes.
    pub chance_nodes: u64,
    /// Terminal nodes.
    pub terminal_nodes: u64,
    /// The longest play, in moves.
    pub depth: u64,
    /// The players' information sets.
    pub infosets: u64,
    /// Distinct outcomes.
    pub outcomes: u64,
    /// Whether every decision node is its own information set.
    pub perfect_information: bool,
    /// Why not, naming the first information set with several nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imperfect: Option<String>,
    /// Per player: pure strategies (one action at each of her information sets).
    pub pure_strategies: Vec<Count>,
    /// Per player: strategies of the reduced strategic form (plans that differ only
    /// where her own earlier moves already ended the play are one).
    pub reduced_strategies: Vec<Count>,
}

/// Summarises a file.
///
/// ```
/// use lastbite::api::{efg, Control};
/// let req = efg::InfoRequest { data: Some(efg::ENTRY_GAME.into()), ..Default::default() };
/// let r = efg::info(&req, &Control::silent()).unwrap();
/// assert_eq!((r.nodes, r.depth, r.perfect_information), (5, 2, true));
/// ```
pub fn info(req: &InfoRequest, _ctl: &Control) -> Result<InfoReport, Error> {
    let g = load(&req.file, &req.data, req.max_nodes)?;
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
        reduced_strategies: i.reduced_strategies.into_iter().map(Count).collect(),
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

/// The action chosen at one information set.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProfileEntry {
    /// The player (name from the file).
    pub player: String,
    /// The information set's number in the file.
    pub infoset: u32,
    /// Its only node.
    pub node: u32,
    /// The action, numbered from 0 in the file's order.
    pub action: u32,
    /// The action's label.
    pub label: String,
}

/// One node's equilibrium value.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NodeValue {
    /// The node's number in file order.
    pub node: u32,
    /// The player moving there (`null` at chance and terminal nodes).
    pub player: Option<String>,
    /// The action played there under the equilibrium (decision nodes).
    pub action: Option<u32>,
    /// The subgame's payoff vector (the node's own outcome and everything after it).
    pub value: Vec<Rational>,
}

/// One action at an explained node.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExplainedAction {
    /// The action's number from 0.
    pub action: u32,
    /// Its label.
    pub label: String,
    /// Its probability at a chance node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<Exact>,
    /// The payoff vector it leads to under equilibrium play.
    pub payoffs: Vec<Rational>,
    /// Whether it gives the mover her largest payoff.
    pub best_for_mover: bool,
    /// Whether the equilibrium plays it.
    pub chosen: bool,
}

/// A node on the equilibrium play, explained.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExplainedNode {
    /// The node's number.
    pub node: u32,
    /// Its label.
    pub label: String,
    /// `personal` or `chance`.
    pub kind: String,
    /// The player to move (decision nodes).
    pub player: Option<String>,
    /// The mover's tie rule.
    pub rule: Option<String>,
    /// The subgame's payoff vector.
    pub value: Vec<Rational>,
    /// Every action.
    pub actions: Vec<ExplainedAction>,
    /// What chose the action at a decision node.
    pub reason: Option<String>,
}

/// The report of `efg solve`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SolveReport {
    /// The game's title.
    pub title: String,
    /// The players, in the file's order.
    pub players: Vec<String>,
    /// The tie rules, e.g. `first` or `A=friendly,B=first`.
    pub ties: String,
    /// Number of nodes.
    pub nodes: u64,
    /// The SPE payoff vector at the root, one exact value per player.
    pub value: Vec<Rational>,
    /// The equilibrium: the action at each information set (in Gambit's order).
    pub profile: Vec<ProfileEntry>,
    /// The same profile as a Gambit behaviour profile (`NE,` and every action's
    /// probability).
    pub behavior: String,
    /// Every node's value and action, in file order (absent with `root_only`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_values: Option<Vec<NodeValue>>,
    /// With `all`: the payoff vectors of all pure SPE, sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<Vec<Rational>>>,
    /// With `explain` or `at`: the nodes the equilibrium reaches, explained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Vec<ExplainedNode>>,
}

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

/// A profitable deviation, in the report.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeviationReport {
    /// The node.
    pub node: u32,
    /// Its label.
    pub label: String,
    /// The player moving there.
    pub player: String,
    /// Her payoff in the subgame under the profile.
    pub profile_value: Rational,
    /// A best action instead, from 0.
    pub better_action: u32,
    /// Its label.
    pub better_label: String,
    /// Her payoff in the subgame after it.
    pub better_value: Rational,
    /// The gain (positive).
    pub gain: Rational,
    /// Whether the profile reaches the node (then it is not even a Nash equilibrium).
    pub reached: bool,
}

/// The report of `efg verify`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct VerifyReport {
    /// The game's title.
    pub title: String,
    /// The players.
    pub players: Vec<String>,
    /// The profile as read, in Gambit's form.
    pub behavior: String,
    /// Whether no one-shot deviation pays anywhere.
    pub subgame_perfect: bool,
    /// Decision nodes checked.
    pub nodes_checked: u64,
    /// The first node in file order where a deviation pays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<DeviationReport>,
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
            Some(path) => std::fs::read_to_string(path).map_err(|e| Error::Io {
                action: "read",
                path: path.into(),
                message: e.to_string(),
            })?,
            None => p.clone(),
        },
    };
    // Gambit's solvers print one profile per line; the first is checked.
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let beh = Behavior::parse(&g, line).map_err(|e| Error::invalid("profile", line, e))?;
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

/// The report of `efg random`: the file's text.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RandomReport {
    /// Number of nodes.
    pub nodes: u64,
    /// The `.efg` text.
    pub efg: String,
}

/// Makes a random perfect-information game.
pub fn random(req: &RandomRequest, _ctl: &Control) -> Result<RandomReport, Error> {
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
    let g = family::random_tree(&RandomSpec {
        nodes: req.nodes,
        players: req.players,
        max_actions: req.max_actions,
        chance: req.chance,
        outcomes: req.outcomes,
        payoff_range: req.payoff_range,
        seed: req.seed,
    });
    Ok(RandomReport {
        nodes: g.nodes().len() as u64,
        efg: g.to_text(),
    })
}

/// A count for a table: in full up to 15 digits, else like `2.65e1234` (the JSON output
/// keeps every digit).
fn short_count(c: &Count) -> String {
    let digits = c.0.to_string();
    if digits.len() <= 15 {
        digits
    } else {
        format!("{}.{}e{}", &digits[..1], &digits[1..3], digits.len() - 1)
    }
}

fn vector(v: &[Rational]) -> String {
    format!(
        "({})",
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

impl Render for InfoReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "Game: {}", crate::text::quote(&self.title))?;
        if !self.comment.is_empty() {
            writeln!(w, "Comment: {}", crate::text::clean(&self.comment))?;
        }
        let names: Vec<String> = self.players.iter().map(|p| crate::text::quote(p)).collect();
        writeln!(w, "Players: {} ({})", self.players.len(), names.join(", "))?;
        writeln!(
            w,
            "Nodes: {} ({} decision, {} chance, {} terminal), depth {}",
            self.nodes, self.personal_nodes, self.chance_nodes, self.terminal_nodes, self.depth
        )?;
        writeln!(
            w,
            "Information sets: {}, outcomes: {}",
            self.infosets, self.outcomes
        )?;
        match &self.imperfect {
            None => writeln!(w, "Perfect information: yes")?,
            Some(why) => writeln!(w, "Perfect information: no ({why})")?,
        }
        writeln!(
            w,
            "\n  player            pure strategies   reduced strategies"
        )?;
        for (p, name) in self.players.iter().enumerate() {
            writeln!(
                w,
                "  {:<16}  {:>15}   {:>18}",
                crate::text::clean(name),
                short_count(&self.pure_strategies[p]),
                short_count(&self.reduced_strategies[p])
            )?;
        }
        Ok(())
    }
}

impl Render for SolveReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Game: {}, {} players, {} nodes, ties {}",
            crate::text::quote(&self.title),
            self.players.len(),
            self.nodes,
            self.ties
        )?;
        writeln!(w, "SPE payoffs:")?;
        for (name, v) in self.players.iter().zip(&self.value) {
            writeln!(w, "  {:<16}  {v}", crate::text::clean(name))?;
        }
        writeln!(w, "\nEquilibrium profile (action at each decision node):")?;
        writeln!(w, "  {:>8}  {:<16}  action", "node", "player")?;
        for e in self.profile.iter().take(TEXT_ROWS) {
            writeln!(
                w,
                "  {:>8}  {:<16}  {} {}",
                e.node,
                crate::text::clean(&e.player),
                e.action,
                crate::text::quote(&e.label)
            )?;
        }
        if self.profile.len() > TEXT_ROWS {
            writeln!(
                w,
                "  ... {} more (the JSON output has them all)",
                self.profile.len() - TEXT_ROWS
            )?;
        } else {
            writeln!(w, "Gambit behaviour profile: {}", self.behavior)?;
        }
        if let Some(outcomes) = &self.outcomes {
            writeln!(w, "\nAll pure SPE payoff vectors ({}):", outcomes.len())?;
            for v in outcomes {
                writeln!(w, "  {}", vector(v))?;
            }
        }
        if let Some(nodes) = &self.explanation {
            for e in nodes {
                let label = if e.label.is_empty() {
                    String::new()
                } else {
                    format!(" {}", crate::text::quote(&e.label))
                };
                match &e.player {
                    Some(p) => writeln!(
                        w,
                        "\nNode {}{label}: {} moves ({}), value {}",
                        e.node,
                        crate::text::clean(p),
                        e.rule.as_deref().unwrap_or(""),
                        vector(&e.value)
                    )?,
                    None => writeln!(
                        w,
                        "\nNode {}{label}: chance, value {}",
                        e.node,
                        vector(&e.value)
                    )?,
                }
                for a in &e.actions {
                    let mark = if a.chosen { "*" } else { " " };
                    let p = a
                        .probability
                        .map(|p| format!("p={p}  "))
                        .unwrap_or_default();
                    let best = if a.best_for_mover {
                        "  best for mover"
                    } else {
                        ""
                    };
                    writeln!(
                        w,
                        "  {mark} {} {:<16} {p}{}{best}",
                        a.action,
                        crate::text::quote(&a.label),
                        vector(&a.payoffs)
                    )?;
                }
                if let Some(r) = &e.reason {
                    writeln!(w, "    chosen: {r}")?;
                }
            }
        }
        Ok(())
    }
}

impl Render for VerifyReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "Game: {}", crate::text::quote(&self.title))?;
        match &self.deviation {
            None => writeln!(
                w,
                "The profile is a subgame perfect equilibrium ({} decision nodes checked).",
                self.nodes_checked
            ),
            Some(d) => {
                writeln!(w, "The profile is NOT subgame perfect.")?;
                let label = if d.label.is_empty() {
                    String::new()
                } else {
                    format!(" {}", crate::text::quote(&d.label))
                };
                writeln!(
                    w,
                    "At node {}{label}, {} gets {} by the profile but {} by action {} {} (gain {}).",
                    d.node,
                    crate::text::quote(&d.player),
                    d.profile_value,
                    d.better_value,
                    d.better_action,
                    crate::text::quote(&d.better_label),
                    d.gain
                )?;
                if d.reached {
                    writeln!(
                        w,
                        "The profile reaches this node, so it is not a Nash equilibrium either."
                    )
                } else {
                    writeln!(w, "The profile does not reach this node (a non-credible threat off the equilibrium play).")
                }
            }
        }
    }
}

impl Render for RandomReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        w.write_all(self.efg.as_bytes())
    }
}
