//! The `tokens` commands' reports: what each command returns, serialised as its `--json`
//! document. Types only; no command logic, no text (see `text.rs`).

use crate::api::input::Letter;
use crate::exact::Exact;
use crate::games::tokens::{AnywherePlay, Arena, Board, GridPlay, PlacementLine, Placements};
use schemars::JsonSchema;
use serde::Serialize;

/// One free stack in an explanation ([`SolveRequest::at`]).
#[allow(rustdoc::broken_intra_doc_links)] // the doc is also the schema's text, kept
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PlacementReport {
    /// The stack.
    pub stack: usize,
    /// Every player's payoff when the next player places here and the rest play the
    /// equilibrium of the tie rule.
    pub payoffs: Vec<Exact>,
    /// The whole placement that results, in turn order.
    pub placement: Vec<usize>,
    /// Whether it maximises the mover's own payoff.
    pub best_for_mover: bool,
    /// Whether it is the equilibrium's choice.
    pub chosen: bool,
}

impl PlacementReport {
    /// One line of an explanation, payoffs in real units.
    pub(super) fn new(b: &Board, l: PlacementLine) -> PlacementReport {
        PlacementReport {
            stack: l.position,
            payoffs: l.payoffs.iter().map(|&v| b.real(v)).collect(),
            placement: l.placement,
            best_for_mover: l.best,
            chosen: l.chosen,
        }
    }
}

/// The report of `tokens`: a discrete game or the games on grids.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SolveReport {
    /// Tokens on stacks.
    Discrete(DiscreteReport),
    /// Tokens on grids of ever finer step.
    Continuous(ContinuousReport),
}

/// A solved discrete game.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiscreteReport {
    /// Number of stacks.
    pub stacks: usize,
    /// Number of players.
    pub players: usize,
    /// Whether on a clock.
    pub clock: bool,
    /// The tie rule (as asked for, in lower case).
    pub ties: String,
    /// The stack each player places on, in turn.
    pub moves: Vec<usize>,
    /// Each player's payoff.
    pub payoffs: Vec<Exact>,
    /// The move prefixes along the equilibrium path after which the mover was indifferent
    /// between several best stacks.
    pub indifferent_after: Vec<Vec<usize>>,
    /// All pure SPE payoff vectors (with `ties = all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<Vec<Exact>>>,
    /// With `at`: every free stack for the next player (empty when all have placed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Vec<PlacementReport>>,
    /// With `at`: each stack's territory under the tokens placed so far, stack by stack:
    /// the players (letters in turn order: A places first) whose tokens are nearest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub territory: Option<Vec<Vec<Letter>>>,
    /// With `at`: each placed token's share of the stacks now, in turn order (the
    /// payoffs, once every player has placed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shares: Option<Vec<Exact>>,
    /// With `at`: each stack's value, in order (worthless stacks included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<Exact>>,
    /// The board (an SVG document), when asked for (`picture`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    #[serde(skip)]
    #[schemars(skip)]
    pub(super) title: String,
}

/// One grid of the continuous game.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GridReport {
    /// The refinement: step 1/k.
    pub k: usize,
    /// Each player's location.
    pub moves: Vec<Exact>,
    /// Each player's payoff.
    pub payoffs: Vec<Exact>,
    /// Each player's best responses as closed intervals `[a, z]`.
    pub best_responses: Vec<Vec<[Exact; 2]>>,
}

impl GridReport {
    /// One grid's equilibrium.
    pub(super) fn new(p: &GridPlay) -> GridReport {
        GridReport {
            k: p.k,
            moves: p.moves.clone(),
            payoffs: p.payoffs.clone(),
            best_responses: p
                .best
                .iter()
                .map(|r| r.iter().map(|&(a, z)| [a, z]).collect())
                .collect(),
        }
    }
}

/// The games on grids of ever finer step (evidence about the continuous game).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ContinuousReport {
    /// Number of stacks.
    pub stacks: usize,
    /// Number of players.
    pub players: usize,
    /// Whether on a clock.
    pub clock: bool,
    /// Always true: these are the games on grids, not the continuous game.
    pub on_grids: bool,
    /// Where the continuous game is solved exactly (`tokens anywhere`).
    pub see_also: String,
    /// The finest grid's locations.
    pub moves: Vec<Exact>,
    /// The finest grid's payoffs.
    pub payoffs: Vec<Exact>,
    /// Every grid.
    pub grids: Vec<GridReport>,
    /// Each player's indifference set in the limit, as interval texts.
    pub best_response_intervals: Vec<Vec<String>>,
}

/// One number of players.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SeatsRow {
    /// Number of players.
    pub players: usize,
    /// Their moves.
    pub moves: Vec<usize>,
    /// Their payoffs, by seat.
    pub payoffs: Vec<Exact>,
}

/// The report of `tokens seats`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SeatsReport {
    /// Number of stacks.
    pub stacks: usize,
    /// Whether on a clock.
    pub clock: bool,
    /// One row per number of players.
    pub rows: Vec<SeatsRow>,
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// An interval of placements (a point when its ends are equal).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct IntervalReport {
    /// The left end.
    pub from: Exact,
    /// Whether the left end belongs to it.
    pub from_closed: bool,
    /// The right end.
    pub to: Exact,
    /// Whether the right end belongs to it.
    pub to_closed: bool,
}

fn intervals(p: &Placements) -> Vec<IntervalReport> {
    p.0.iter()
        .map(|i| IntervalReport {
            from: i.from,
            from_closed: i.from_closed,
            to: i.to,
            to_closed: i.to_closed,
        })
        .collect()
}

/// One player's choice in `tokens anywhere`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnywhereChoice {
    /// Where she places: a breakpoint of the arrangement, or the midpoint of the open
    /// interval chosen (any point of it has the same outcome).
    pub at: Exact,
    /// Her payoff.
    pub payoff: Exact,
    /// Every placement as good for her, given the earlier tokens (`at` of the earlier
    /// players) and equilibrium play after her, as intervals.
    pub best: Vec<IntervalReport>,
    /// `best` written out, e.g. `(7, 9)` or `5 U [6, 7)`.
    pub best_text: String,
    /// Every placement with the same payoffs for everyone (within `best`).
    pub same_outcome: Vec<IntervalReport>,
    /// `same_outcome` written out.
    pub same_outcome_text: String,
    /// Whether `best` holds placements with other outcomes for the others (the tie rule
    /// chose among them).
    pub tie: bool,
}

/// The report of `tokens anywhere`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnywhereReport {
    /// The game, in words.
    pub title: String,
    /// Number of players.
    pub players: usize,
    /// Whether on a clock.
    pub clock: bool,
    /// The tie rule (as asked for, in lower case).
    pub ties: String,
    /// The stacks' positions.
    pub positions: Vec<Exact>,
    /// The stacks' values.
    pub values: Vec<Exact>,
    /// Each player's placement, in turn order.
    pub moves: Vec<Exact>,
    /// Each player's payoff.
    pub payoffs: Vec<Exact>,
    /// Each player's choice.
    pub choices: Vec<AnywhereChoice>,
    /// Placements the search tried.
    pub placements: u64,
}

impl AnywhereReport {
    /// The report of a solved game.
    pub(super) fn new(arena: &Arena, ties: &str, play: AnywherePlay) -> AnywhereReport {
        AnywhereReport {
            title: arena.to_string(),
            players: arena.players(),
            clock: arena.clock(),
            ties: ties.trim().to_ascii_lowercase(),
            positions: arena.stacks().iter().map(|s| s.0).collect(),
            values: arena.stacks().iter().map(|s| s.1).collect(),
            moves: play.moves,
            payoffs: play.payoffs,
            choices: play
                .choices
                .iter()
                .map(|c| AnywhereChoice {
                    at: c.at,
                    payoff: c.payoff,
                    best: intervals(&c.best),
                    best_text: c.best.to_string(),
                    same_outcome: intervals(&c.same_outcome),
                    same_outcome_text: c.same_outcome.to_string(),
                    tie: c.tie,
                })
                .collect(),
            placements: play.placements,
        }
    }
}
