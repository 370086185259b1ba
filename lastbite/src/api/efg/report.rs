//! The `efg` commands' reports: what each command returns, serialised as its `--json`
//! document. Types only; no command logic, no text (see `text.rs`).

use crate::exact::Exact;
use crate::number::Count;
use crate::rational::Rational;
use schemars::JsonSchema;
use serde::Serialize;

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
    /// where her own earlier moves already ended the play are one), counted on her
    /// sequences of own moves; `null` for a player with imperfect recall (plans are not
    /// defined then).
    pub reduced_strategies: Vec<Option<Count>>,
}

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

/// The report of `efg random`: the file's text.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RandomReport {
    /// Number of nodes.
    pub nodes: u64,
    /// The `.efg` text.
    pub efg: String,
}
