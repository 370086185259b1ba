//! `dinner` commands: Ethiopian Dinner (Levine and Stange 2012), see
//! [`crate::games::dinner`].
//!
//! Every request that takes a dinner has the same input fields: `file` (a CSV, JSON or
//! TOML file, sniffed by extension and content), `data` (the same text, for callers
//! without files), or `morsels` (inline text `"1,2 2,3 3,1"` or rows of numbers), with
//! `first` or `order` for the turn order. A dinner, its order and its rules are checked
//! together once, in [`Setup::new`], before any solver runs.

use std::io::{self, Write};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::sweep::{self, Sweep};
use super::{Control, Error, Render};
use crate::engine::{verify, write_efg, Budget, Ties, Verdict};
use crate::exact::Exact;
use crate::games::dinner::Explained;
use crate::games::dinner::{
    all_spe_scores, attainable, balance, crossout, evaluate, figures, pareto, random_spe_outcomes,
    solve_exact, variants, Bite, Dinner, DinnerGame, DinnerTies, Precedence, Rules, Setup,
    Strategy, TurnOrder, DEFAULT_DINNER_MAX_STATES, DEFAULT_DINNER_MEMORY,
    DEFAULT_DINNER_MEMORY_GIB,
};

/// Declares a request struct: serde defaults from the listed expressions, unknown fields
/// refused, a JSON Schema derived.
macro_rules! request {
    ($(#[$m:meta])* $name:ident { $( $(#[$fm:meta])* $f:ident : $t:ty = $d:expr ),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name { $( $(#[$fm])* pub $f: $t, )* }
        impl Default for $name {
            fn default() -> Self { $name { $( $f: $d, )* } }
        }
    };
}
pub(crate) use request;

/// A request with the dinner input fields first (see the module documentation).
macro_rules! dinner_request {
    ($(#[$m:meta])* $name:ident { $($rest:tt)* }) => {
        request! {
            $(#[$m])* $name {
                /// A dinner file: CSV (one morsel per line, one column per player, optional
                /// header), JSON or TOML.
                file: Option<String> = None,
                /// The contents of a dinner file, for callers without files (format sniffed).
                data: Option<String> = None,
                /// The morsels inline: `"1,2 2,3 3,1"`, or rows of exact numbers.
                morsels: Option<Morsels> = None,
                /// Alternate turns starting with this player (default: Bob moves last).
                first: Option<First> = None,
                /// Explicit turn order (letters, e.g. `ABBA`; `ABC...` repeats), `thue-morse`,
                /// `alternate` or `snake`.
                order: Option<String> = None,
                $($rest)*
            }
        }
        impl $name {
            fn input(&self) -> Input<'_> {
                Input { file: &self.file, data: &self.data, morsels: &self.morsels, first: self.first, order: &self.order }
            }
        }
    };
}

/// Morsels given inline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Morsels {
    /// Text like `"1,2 2,3 3,1"`: morsels separated by spaces or semicolons, utilities by
    /// commas.
    Text(String),
    /// One row of exact utilities per morsel, one per player.
    Rows(Vec<Vec<Exact>>),
}

/// Who moves first under alternation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum First {
    /// Alice (player A).
    Alice,
    /// Bob (player B).
    Bob,
}

/// The dinner input fields of a request.
struct Input<'a> {
    file: &'a Option<String>,
    data: &'a Option<String>,
    morsels: &'a Option<Morsels>,
    first: Option<First>,
    order: &'a Option<String>,
}

impl Input<'_> {
    fn given(&self) -> bool {
        self.file.is_some() || self.data.is_some() || self.morsels.is_some()
    }

    /// The dinner and its turn order, validated together.
    fn load(&self) -> Result<(Dinner, TurnOrder), Error> {
        let given = [
            self.file.is_some(),
            self.data.is_some(),
            self.morsels.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(Error::combination(
                "morsels",
                "give the dinner once: a file, its data or the morsels",
            ));
        }
        let (dinner, file_order) = match (self.file, self.data, self.morsels) {
            (Some(path), _, _) => {
                let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
                    action: "read",
                    path: path.clone(),
                    message: e.to_string(),
                })?;
                let ext = std::path::Path::new(path)
                    .extension()
                    .and_then(|e| e.to_str())
                    .map(str::to_ascii_lowercase);
                Dinner::from_file_text(&text, path, ext.as_deref())?
            }
            (_, Some(text), _) => Dinner::from_file_text(text, "data", None)?,
            (_, _, Some(Morsels::Text(t))) => (Dinner::from_morsels(t)?, None),
            (_, _, Some(Morsels::Rows(rows))) => {
                let k = rows.first().map_or(0, Vec::len);
                if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != k) {
                    return Err(Error::invalid(
                        "morsels",
                        format!("row {}", i + 1),
                        format!("{} utilities, but the first morsel has {k}", r.len()),
                    ));
                }
                let flat = rows.iter().flatten().copied().collect();
                (
                    Dinner::from_flat(k, flat, |i, p| {
                        format!("morsel {}, utility {}", i + 1, p + 1)
                    })?,
                    None,
                )
            }
            (None, None, None) => {
                return Err(Error::Missing {
                    field: "morsels",
                    what: "dinner",
                    hint: "give a dinner file, its data, or morsels like \"1,2 2,3 3,1\"".into(),
                })
            }
        };
        if self.first.is_some() && self.order.is_some() {
            return Err(Error::combination(
                "first",
                "give either a first player or an order",
            ));
        }
        let order = match (self.order, self.first, file_order) {
            (Some(o), _, _) => TurnOrder::parse(o, &dinner)?,
            (None, Some(First::Alice), _) => TurnOrder::alternating(&dinner, 0),
            (None, Some(First::Bob), _) => {
                if dinner.players() < 2 {
                    return Err(Error::invalid(
                        "first",
                        "bob",
                        "this dinner has only one player",
                    ));
                }
                TurnOrder::alternating(&dinner, 1)
            }
            (None, None, Some(o)) => TurnOrder::parse(&o, &dinner)?,
            (None, None, None) => TurnOrder::default_for(&dinner),
        };
        Ok((dinner, order))
    }
}

/// A player's letter, serialised as a one-letter string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Letter(pub usize);

impl Serialize for Letter {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(char::from(b'A' + self.0 as u8))
    }
}

impl JsonSchema for Letter {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Player".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "pattern": "^[A-Z]$", "description": "A player's letter (A is Alice, B is Bob)."})
    }
}

impl std::fmt::Display for Letter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", char::from(b'A' + self.0 as u8))
    }
}

/// One bite of an eating order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BiteReport {
    /// The turn, from 1.
    pub turn: usize,
    /// Who eats.
    pub player: Letter,
    /// The morsel (index in input order, from 0).
    pub morsel: usize,
    /// Its utility to the eater.
    pub utility: Exact,
}

fn bites(d: &Dinner, eating: &[Bite]) -> Vec<BiteReport> {
    eating
        .iter()
        .map(|b| BiteReport {
            turn: b.turn + 1,
            player: Letter(b.player),
            morsel: b.morsel,
            utility: d.value(b.morsel, b.player),
        })
        .collect()
}

/// Which solver `dinner solve` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Crossout for two players with the index tie rule and rules it covers, else exact.
    Auto,
    /// The crossout strategy (two players).
    Crossout,
    /// The exact subgame perfect equilibrium over all subsets (at most 63 morsels).
    Exact,
}

fn rules_of(
    dinner: &Dinner,
    discount: Option<Exact>,
    before: Option<&str>,
    altruism: Option<&[Exact]>,
) -> Result<Rules, Error> {
    let mut rules = Rules::default();
    if let Some(l) = discount {
        if l <= Exact::ZERO {
            return Err(Error::invalid(
                "discount",
                l,
                "the discount factor must be positive",
            ));
        }
        rules.discount = Some(l);
    }
    if let Some(b) = before {
        rules.before = Some(Precedence::parse(b, dinner)?);
    }
    if let Some(c) = altruism {
        if dinner.players() != 2 {
            return Err(Error::combination(
                "altruism",
                format!(
                    "the paper's four coefficients are for two-player dinners; this one has {}",
                    dinner.players()
                ),
            ));
        }
        if c.len() != 4 {
            let text: Vec<String> = c.iter().map(|x| x.to_string()).collect();
            return Err(Error::invalid(
                "altruism",
                text.join(","),
                format!(
                    "give alpha_A, beta_A, alpha_B, beta_B (four numbers, not {})",
                    c.len()
                ),
            ));
        }
        rules.altruism = Rules::altruism(c[0], c[1], c[2], c[3]).altruism;
    }
    Ok(rules)
}

dinner_request! {
    /// `dinner solve`: crossout (two players) or the exact subgame perfect equilibrium.
    SolveRequest {
        /// `auto`: crossout for two players with the index tie rule, exact otherwise.
        method: Method = Method::Auto,
        /// `index` (earlier morsel counts as tastier; agrees with crossout) or the engine's
        /// friendly|antagonistic|first|last, for all players or per player
        /// (`A=friendly,B=antagonistic`).
        ties: String = "index".into(),
        /// Also list the score vectors of all pure subgame perfect equilibria.
        all: bool = false,
        /// Explain the choice at a state: every legal move and the payoffs it leads to.
        explain: bool = false,
        /// With `explain`: the morsels eaten before the explained state (indices from 0).
        at: Option<Vec<usize>> = None,
        /// Delayed gratification: a morsel eaten on turn t is worth L^t times its value.
        discount: Option<Exact> = None,
        /// Inaccessible morsels: `"0<3,1<3"` means morsel 3 only after 0 and 1.
        before: Option<String> = None,
        /// Altruism payoffs alpha_A, beta_A, alpha_B, beta_B.
        altruism: Option<Vec<Exact>> = None,
        /// Refuse to hold more states at once than this: the full table holds every
        /// state (at most 3e8); from 22 morsels without `explain` the lean solver holds
        /// two layers.
        max_states: u64 = DEFAULT_DINNER_MAX_STATES,
        /// The most memory, in GiB, the lean solver may hold: two layers of payoffs, and a
        /// choice byte per state when those fit too (else the equilibrium path is
        /// recovered by re-solving, about twice the work).
        memory_gib: u64 = DEFAULT_DINNER_MEMORY_GIB,
    }
}

/// The rules of a solved dinner, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RulesReport {
    /// The discount factor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discount: Option<Exact>,
    /// The altruism coefficients.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub altruism: Option<AltruismReport>,
    /// Every pair `[i, j]` (morsel i before j) of the precedence, transitively closed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Vec<[usize; 2]>>,
}

/// The paper's four altruism coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct AltruismReport {
    /// Alice's weight on what she eats.
    pub alpha_A: Exact,
    /// Alice's weight on what Bob eats.
    pub beta_A: Exact,
    /// Bob's weight on what Alice eats.
    pub alpha_B: Exact,
    /// Bob's weight on what he eats.
    pub beta_B: Exact,
}

fn rules_report(rules: &Rules) -> RulesReport {
    RulesReport {
        discount: rules.discount,
        altruism: rules.altruism.as_ref().map(|c| AltruismReport {
            alpha_A: c[0][0],
            beta_A: c[1][0],
            alpha_B: c[0][1],
            beta_B: c[1][1],
        }),
        before: rules.before.as_ref().map(|b| {
            let n = b.morsels();
            (0..n)
                .flat_map(|j| (0..n).map(move |i| (i, j)))
                .filter(|&(i, j)| b.before(j) >> i & 1 == 1)
                .map(|(i, j)| [i, j])
                .collect()
        }),
    }
}

/// The report of `dinner solve`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SolveReport {
    /// Number of players.
    pub players: usize,
    /// Number of morsels.
    pub morsels: usize,
    /// `crossout` or `exact`.
    pub method: &'static str,
    /// The turn order, one letter per turn.
    pub turn_order: String,
    /// The tie rule.
    pub ties: String,
    /// The rules, when not the plain game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesReport>,
    /// The transformed dinner D' (altruism under crossout).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transformed: Option<Vec<Vec<Exact>>>,
    /// Each player's payoff.
    pub scores: Vec<Exact>,
    /// The equilibrium eating order.
    pub eating_order: Vec<BiteReport>,
    /// The crossout sequence (crossout only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossout_sequence: Option<Vec<usize>>,
    /// States solved (exact only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// How the lean solver read the equilibrium path back: `choice bytes` (one a state)
    /// or `re-solving` (below each state of the path, when the choice bytes do not fit
    /// `memory_gib`); absent for crossout and the full table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_recovery: Option<&'static str>,
    /// States solved again to recover the path (with `re-solving`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved_states: Option<u64>,
    /// The GPU that solved the layers (builds with the `gpu` feature, when one is
    /// present), e.g. `NVIDIA H100 80GB HBM3 (Vulkan)`; absent when the CPU did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// Why a GPU that is present did not take this dinner (the CPU solved it): not the
    /// plain game, payoffs past 32 bits, a layer over the device's buffers, more than 32
    /// morsels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_declined: Option<String>,
    /// All pure SPE score vectors (with `all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<Vec<Exact>>>,
    /// The explained state (with `explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explained>,
    #[serde(skip)]
    #[schemars(skip)]
    dinner: Option<Dinner>,
}

fn dinner_rows(d: &Dinner) -> Vec<Vec<Exact>> {
    (0..d.len())
        .map(|i| (0..d.players()).map(|p| d.value(i, p)).collect())
        .collect()
}

/// Solves a dinner: crossout or the exact SPE, with the CLI's method choice.
pub fn solve(req: &SolveRequest, ctl: &Control) -> Result<SolveReport, Error> {
    let (d, order) = req.input().load()?;
    let ties = if req.ties.trim().eq_ignore_ascii_case("index") {
        DinnerTies::Index
    } else {
        DinnerTies::Engine(
            Ties::parse(&req.ties, d.players())
                .map_err(|e| Error::invalid("ties", &req.ties, e))?,
        )
    };
    let budget = Budget {
        max_states: req.max_states,
    };
    let rules = rules_of(
        &d,
        req.discount,
        req.before.as_deref(),
        req.altruism.as_deref(),
    )?;
    let crossout_covers = rules.discount.is_none() && rules.before.is_none();
    let use_crossout = match req.method {
        Method::Crossout => {
            if ties != DinnerTies::Index {
                return Err(Error::combination(
                    "ties",
                    "the crossout method uses the index tie rule; the exact method takes others",
                ));
            }
            if req.explain {
                return Err(Error::combination(
                    "explain",
                    "explanations need the exact method",
                ));
            }
            if !crossout_covers {
                return Err(Error::combination(
                    "method",
                    "crossout does not cover a discount or a precedence; the exact method does",
                ));
            }
            if d.players() != 2 {
                return Err(Error::combination(
                    "method",
                    format!(
                        "crossout is defined for two players; this dinner has {}",
                        d.players()
                    ),
                ));
            }
            true
        }
        Method::Exact => false,
        Method::Auto => {
            d.players() == 2 && ties == DinnerTies::Index && !req.explain && crossout_covers
        }
    };
    if req.at.is_some() && !req.explain {
        return Err(Error::combination("at", "a state to explain needs explain"));
    }
    let at: Vec<usize> = req.at.clone().unwrap_or_default();
    if let Some(&m) = at.iter().find(|&&m| m >= d.len()) {
        return Err(Error::invalid(
            "at",
            m,
            format!("not a morsel index between 0 and {}", d.len() - 1),
        ));
    }
    let setup = Setup::new(d, order, rules)?;
    let (d, order, rules) = (setup.dinner(), setup.order(), setup.rules());
    let mut report = SolveReport {
        players: d.players(),
        morsels: d.len(),
        method: if use_crossout { "crossout" } else { "exact" },
        turn_order: order.to_string(),
        ties: match &ties {
            DinnerTies::Index => "index".into(),
            DinnerTies::Engine(t) => t.describe(),
        },
        rules: (!rules.is_plain()).then(|| rules_report(rules)),
        transformed: None,
        scores: vec![],
        eating_order: vec![],
        crossout_sequence: None,
        states: None,
        path_recovery: None,
        resolved_states: None,
        gpu: None,
        gpu_declined: None,
        outcomes: None,
        explanation: None,
        dinner: None,
    };
    if use_crossout {
        let (eating, scores) = variants::crossout_under(&setup)?;
        if rules.altruism.is_some() {
            report.transformed = Some(dinner_rows(&variants::transformed(d, rules)?));
        }
        report.crossout_sequence = Some(eating.iter().rev().map(|b| b.morsel).collect());
        report.eating_order = bites(d, &eating);
        report.scores = scores;
    } else {
        let explain_after = req.explain.then_some(at.as_slice());
        let memory = u128::from(req.memory_gib) << 30;
        let e = solve_exact(&setup, &ties, budget, memory, ctl, explain_after)?;
        report.eating_order = bites(d, &e.eating);
        report.scores = e.scores;
        report.states = Some(e.states);
        report.path_recovery = e.recovery.map(|r| r.name());
        report.resolved_states = (e.resolved > 0).then_some(e.resolved);
        report.gpu = e.gpu;
        report.gpu_declined = e.gpu_declined;
        report.explanation = e.explained;
    }
    if req.all {
        // Two layers of equilibrium sets held at once, like the lean solver.
        report.outcomes = Some(all_spe_scores(&setup, budget, ctl)?);
    }
    report.dinner = Some(setup.dinner().clone());
    Ok(report)
}

fn abbreviate(s: &str) -> String {
    if s.len() > 60 {
        format!("{}...({} turns)", &s[..40], s.len())
    } else {
        s.to_string()
    }
}

fn join(v: &[Exact]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn score_line(scores: &[Exact]) -> String {
    let parts: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} = {}", Letter(p), s))
        .collect();
    format!("Scores: {}", parts.join(", "))
}

/// A morsel's utilities as `(a, b, ...)`, integers without allocating per value.
fn write_morsel(w: &mut impl Write, d: &Dinner, i: usize) -> io::Result<()> {
    w.write_all(b"(")?;
    for p in 0..d.players() {
        if p > 0 {
            w.write_all(b", ")?;
        }
        if d.scale() == 1 {
            write!(w, "{}", d.utility(i, p))?;
        } else {
            write!(w, "{}", d.value(i, p))?;
        }
    }
    w.write_all(b")")
}

impl Render for SolveReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        // A concrete buffer: a million rows of small writes, each a dynamic call else.
        let mut buf = io::BufWriter::with_capacity(1 << 16, w);
        let w = &mut buf;
        writeln!(
            w,
            "Dinner: {} morsels, {} players, turn order {}, method {}, ties {}",
            self.morsels,
            self.players,
            abbreviate(&self.turn_order),
            self.method,
            self.ties
        )?;
        if let Some(s) = self.states {
            writeln!(w, "States solved: {s}")?;
        }
        if let Some(g) = &self.gpu {
            writeln!(w, "Layers solved on the GPU: {g}")?;
        }
        if let Some(g) = &self.gpu_declined {
            writeln!(w, "Solved on the CPU; the GPU declined ({g})")?;
        }
        if let (Some("re-solving"), Some(r)) = (self.path_recovery, self.resolved_states) {
            writeln!(
                w,
                "Path recovered by re-solving ({r} states again; the choice bytes did not fit the memory budget)"
            )?;
        }
        writeln!(
            w,
            "\n{:>6}  {:<6}  {:>6}  utilities",
            "turn", "player", "index"
        )?;
        for b in &self.eating_order {
            write!(
                w,
                "{:>6}  {:<6}  {:>6}  ",
                b.turn,
                b.player.to_string(),
                b.morsel
            )?;
            match &self.dinner {
                Some(d) => write_morsel(w, d, b.morsel)?,
                None => write!(w, "{}", b.utility)?,
            }
            w.write_all(b"\n")?;
        }
        writeln!(w)?;
        writeln!(w, "{}", score_line(&self.scores))?;
        if let Some(o) = &self.outcomes {
            writeln!(w, "\nAll pure SPE outcomes ({}):", o.len())?;
            for v in o {
                writeln!(w, "  ({})", join(v))?;
            }
        }
        if let Some(e) = &self.explanation {
            let rem: Vec<String> = e.remaining.iter().map(|m| m.to_string()).collect();
            writeln!(
                w,
                "\nExplanation: morsels {{{}}} left, {} to move",
                rem.join(","),
                Letter(e.mover)
            )?;
            writeln!(
                w,
                "{:>8}  {:<20}  {:<24}  note",
                "index", "utilities", "payoffs after"
            )?;
            for m in &e.moves {
                let note = match (m.selected, m.optimal, m.best_for_mover) {
                    (true, _, _) => "<- chosen",
                    (false, true, _) => "optimal (same payoffs)",
                    (false, false, true) => "best for mover, lost the tie-break",
                    _ => "",
                };
                let text = self
                    .dinner
                    .as_ref()
                    .map_or(String::new(), |d| d.morsel_text(m.morsel));
                writeln!(
                    w,
                    "{:>8}  {:<20}  {:<24}  {}",
                    m.morsel,
                    text,
                    format!("({})", join(&m.value)),
                    note
                )?;
            }
            writeln!(w, "Rule: {}", e.reason)?;
        }
        w.flush()
    }
}

fn parse_strategies(spec: &str, players: usize) -> Result<Vec<Strategy>, Error> {
    let list: Vec<Strategy> = spec
        .split(',')
        .map(|s| {
            s.parse::<Strategy>()
                .map_err(|e| Error::invalid("strategies", spec, e))
        })
        .collect::<Result<_, _>>()?;
    match list.len() {
        1 => Ok(vec![list[0]; players]),
        n if n == players => Ok(list),
        n => Err(Error::invalid(
            "strategies",
            spec,
            format!("{n} strategies for a {players}-player dinner (give one, or one per player)"),
        )),
    }
}

dinner_request! {
    /// `dinner play`: play a strategy profile and report each player's score.
    PlayRequest {
        /// One strategy per player in player order (greedy, competitive, cooperative,
        /// masochistic, crossout); one name applies to all.
        strategies: String = "crossout".into(),
        /// Unused by `play` (the CLI shares its flags with `verify`).
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// The report of `dinner play`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PlayReport {
    /// The turn order.
    pub turn_order: String,
    /// The strategies, in player order.
    pub strategies: Vec<&'static str>,
    /// Each player's score v_P(s, t).
    pub scores: Vec<Exact>,
    /// The eating order.
    pub eating_order: Vec<BiteReport>,
    #[serde(skip)]
    #[schemars(skip)]
    dinner: Option<Dinner>,
}

/// Plays a strategy profile. When every player plays crossout the play is the crossout
/// eating order, computed once (any size); mixed profiles recompute crossout per turn.
pub fn play(req: &PlayRequest, _ctl: &Control) -> Result<PlayReport, Error> {
    let (d, order) = req.input().load()?;
    let strategies = parse_strategies(&req.strategies, d.players())?;
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let (eating, scores) =
        if strategies.iter().all(|&s| s == Strategy::Crossout) && d.players() == 2 {
            let eating: Vec<Bite> = crossout(d, order)?.eating().collect();
            let scores = setup.scoring().score(d, eating.iter().copied())?;
            (eating, scores)
        } else {
            let p = evaluate(d, order, &strategies)?;
            let scores = p.scores.iter().map(|&s| d.unscale(s)).collect();
            (p.eating, scores)
        };
    Ok(PlayReport {
        turn_order: order.to_string(),
        strategies: strategies.iter().map(|s| s.name()).collect(),
        scores,
        eating_order: bites(d, &eating),
        dinner: Some(d.clone()),
    })
}

impl Render for PlayReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Strategies {} under turn order {}",
            self.strategies.join(" vs "),
            abbreviate(&self.turn_order)
        )?;
        for b in &self.eating_order {
            let text = self
                .dinner
                .as_ref()
                .map_or(String::new(), |d| d.morsel_text(b.morsel));
            writeln!(
                w,
                "{:>6}  {:<3} eats morsel {:>4} {}",
                b.turn,
                b.player.to_string(),
                b.morsel,
                text
            )?;
        }
        writeln!(w, "{}", score_line(&self.scores))
    }
}

/// `dinner verify` takes the same fields as `dinner play`.
pub type VerifyRequest = PlayRequest;

/// A profitable one-shot deviation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DeviationReport {
    /// The morsels left.
    pub remaining: Vec<usize>,
    /// The player who gains.
    pub player: Letter,
    /// The morsel the strategy prescribes.
    pub prescribed: usize,
    /// A better morsel.
    pub better: usize,
    /// The gain.
    pub gain: Exact,
}

/// The states checked when no deviation pays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Checked {
    /// States checked.
    pub states: u64,
}

/// The report of `dinner verify`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct VerifyReport {
    /// The turn order.
    pub turn_order: String,
    /// The strategies.
    pub strategies: Vec<&'static str>,
    /// Whether no one-shot deviation pays anywhere.
    pub subgame_perfect: bool,
    /// When subgame perfect: the states checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<Checked>,
    /// Otherwise: a profitable deviation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<DeviationReport>,
}

fn remaining_of(state: u64) -> Vec<usize> {
    (0..64).filter(|i| state >> i & 1 == 1).collect()
}

/// Checks a strategy profile for subgame perfection (one-shot deviations).
pub fn verify_profile(req: &VerifyRequest, _ctl: &Control) -> Result<VerifyReport, Error> {
    let (d, order) = req.input().load()?;
    let strategies = parse_strategies(&req.strategies, d.players())?;
    if d.players() != 2 && strategies.contains(&Strategy::Crossout) {
        return Err(Error::invalid(
            "strategies",
            &req.strategies,
            format!(
                "the crossout strategy is defined for two players; this dinner has {}",
                d.players()
            ),
        ));
    }
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let game = DinnerGame::<i128>::new(d, order, false)?;
    let budget = Budget {
        max_states: req.max_states,
    };
    let verdict = verify(&game, budget, |s, p| {
        strategies[p]
            .choose(d, order, *s)
            .expect("strategies validated above")
    })?;
    let (checked, counterexample) = match verdict {
        Verdict::SubgamePerfect { states } => (Some(Checked { states }), None),
        Verdict::Deviation(dev) => (
            None,
            Some(DeviationReport {
                remaining: remaining_of(dev.state),
                player: Letter(dev.player),
                prescribed: dev.prescribed,
                better: dev.better,
                gain: d.unscale(dev.gain),
            }),
        ),
    };
    Ok(VerifyReport {
        turn_order: order.to_string(),
        strategies: strategies.iter().map(|s| s.name()).collect(),
        subgame_perfect: checked.is_some(),
        checked,
        counterexample,
    })
}

fn set_text(v: &[usize]) -> String {
    let parts: Vec<String> = v.iter().map(|m| m.to_string()).collect();
    format!("{{{}}}", parts.join(","))
}

impl Render for VerifyReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let names = self.strategies.join(", ");
        match (&self.checked, &self.counterexample) {
            (Some(c), _) => writeln!(
                w,
                "({names}) is a subgame perfect equilibrium: no profitable one-shot deviation in {} states",
                c.states
            ),
            (_, Some(dev)) => writeln!(
                w,
                "({names}) is NOT subgame perfect: with morsels {} left, {} should eat morsel {} instead of {} and gain {}",
                set_text(&dev.remaining),
                dev.player,
                dev.better,
                dev.prescribed,
                dev.gain
            ),
            _ => Ok(()),
        }
    }
}

dinner_request! {
    /// `dinner efg`: the game tree in Gambit's .efg format.
    EfgRequest {
        /// Refuse trees with more nodes than this.
        max_nodes: u128 = 1_000_000,
    }
}

/// The report of `dinner efg`: the file's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct EfgReport {
    /// The title written into the file.
    pub title: String,
    /// The .efg text.
    pub efg: String,
}

/// Exports the dinner's game tree for Gambit.
pub fn efg(req: &EfgRequest, _ctl: &Control) -> Result<EfgReport, Error> {
    let (d, order) = req.input().load()?;
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let game = DinnerGame::<i128>::new(d, order, false)?;
    let title = format!(
        "Ethiopian Dinner, {} morsels, turn order {}",
        d.len(),
        order
    );
    let mut buf = Vec::new();
    write_efg(&game, &title, req.max_nodes, &mut buf)?;
    Ok(EfgReport {
        title,
        efg: String::from_utf8(buf).expect("the writer writes UTF-8"),
    })
}

impl Render for EfgReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        w.write_all(self.efg.as_bytes())
    }
}

dinner_request! {
    /// `dinner discount`: is crossout still an equilibrium under a discount?
    DiscountRequest {
        /// The discount factor L (exact).
        discount: Exact = Exact::integer(1),
        /// Search permutation dinners of sizes 1..=max_size for the smallest one where
        /// crossout is not an equilibrium.
        search: bool = false,
        /// Largest size searched.
        max_size: usize = 7,
        /// Refuse state spaces larger than this.
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// The report of `dinner discount`: a search or a check of one dinner.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum DiscountReport {
    /// With `search`.
    Search(DiscountSearchReport),
    /// One dinner.
    Check(DiscountCheckReport),
}

/// The smallest permutation dinner where crossout fails, if any.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiscountSearchReport {
    /// The discount factor.
    pub discount: Exact,
    /// Largest size searched.
    pub max_size: usize,
    /// Whether a dinner was found.
    pub found: bool,
    /// The dinner found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dinner: Option<Vec<Vec<Exact>>>,
    /// Its turn order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_order: Option<String>,
    /// The profitable deviation, when found (`null` if none was recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<Option<DeviationReport>>,
}

/// Crossout under a discount, for one dinner.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiscountCheckReport {
    /// The discount factor.
    pub discount: Exact,
    /// The turn order.
    pub turn_order: String,
    /// Whether (crossout, crossout) is still subgame perfect.
    pub crossout_is_spe: bool,
    /// A profitable deviation, or null.
    pub deviation: Option<DeviationReport>,
    /// The discounted scores of crossout play.
    pub crossout_scores: Vec<Exact>,
    /// The exact SPE's scores.
    pub spe_scores: Vec<Exact>,
}

fn deviation_report(dev: &Option<(u64, usize, usize, usize, Exact)>) -> Option<DeviationReport> {
    dev.as_ref().map(
        |&(state, player, prescribed, better, gain)| DeviationReport {
            remaining: remaining_of(state),
            player: Letter(player),
            prescribed,
            better,
            gain,
        },
    )
}

/// Checks crossout under a discount, or searches for the smallest dinner where it fails.
pub fn discount(req: &DiscountRequest, ctl: &Control) -> Result<DiscountReport, Error> {
    let l = req.discount;
    if l <= Exact::ZERO {
        return Err(Error::invalid(
            "discount",
            l,
            "the discount factor must be positive",
        ));
    }
    let budget = Budget {
        max_states: req.max_states,
    };
    if req.search {
        if req.input().given() {
            return Err(Error::combination(
                "search",
                "the search tries permutation dinners; give no dinner",
            ));
        }
        if req.max_size > 10 {
            return Err(Error::invalid(
                "max_size",
                req.max_size,
                "the search tries every permutation; at most 10",
            ));
        }
        let found = variants::discount_search(l, req.max_size, budget)?;
        return Ok(DiscountReport::Search(match found {
            None => DiscountSearchReport {
                discount: l,
                max_size: req.max_size,
                found: false,
                dinner: None,
                turn_order: None,
                deviation: None,
            },
            Some((d, check)) => DiscountSearchReport {
                discount: l,
                max_size: req.max_size,
                found: true,
                dinner: Some(dinner_rows(&d)),
                turn_order: Some(TurnOrder::default_for(&d).to_string()),
                deviation: Some(deviation_report(&check.deviation)),
            },
        }));
    }
    let (d, order) = req.input().load()?;
    let rules = Rules {
        discount: Some(l),
        ..Rules::default()
    };
    let setup = Setup::new(d, order, rules)?;
    let (d, order) = (setup.dinner(), setup.order());
    let check = variants::discount_check(d, order, l, budget)?;
    let plain: Vec<Bite> = crossout(d, order)?.eating().collect();
    let crossout_scores = setup.scoring().score(d, plain.iter().copied())?;
    let spe = solve_exact(
        &setup,
        &DinnerTies::Index,
        budget,
        DEFAULT_DINNER_MEMORY,
        ctl,
        None,
    )?;
    Ok(DiscountReport::Check(DiscountCheckReport {
        discount: l,
        turn_order: order.to_string(),
        crossout_is_spe: check.crossout_is_spe,
        deviation: deviation_report(&check.deviation),
        crossout_scores,
        spe_scores: spe.scores,
    }))
}

fn deviation_text(dev: &DeviationReport) -> String {
    format!(
        "with morsels {} left, {} gains {} by eating {} instead of {}",
        set_text(&dev.remaining),
        dev.player,
        dev.gain,
        dev.better,
        dev.prescribed
    )
}

impl Render for DiscountReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            DiscountReport::Search(s) => match &s.dinner {
                None => writeln!(
                    w,
                    "Crossout is an equilibrium of every permutation dinner up to size {} discounted by {}.",
                    s.max_size, s.discount
                ),
                Some(rows) => {
                    let morsels: Vec<String> = rows.iter().map(|r| format!("({})", join(r))).collect();
                    writeln!(
                        w,
                        "Smallest permutation dinner where crossout is not an equilibrium with discount {}:",
                        s.discount
                    )?;
                    writeln!(
                        w,
                        "  {} (turn order {})",
                        morsels.join(" "),
                        s.turn_order.as_deref().unwrap_or("")
                    )?;
                    if let Some(Some(dev)) = &s.deviation {
                        writeln!(w, "  {}", deviation_text(dev))?;
                    }
                    Ok(())
                }
            },
            DiscountReport::Check(c) => {
                let verdict = if c.crossout_is_spe { "still" } else { "NOT" };
                writeln!(
                    w,
                    "With discount {}, crossout is {verdict} a subgame perfect equilibrium.",
                    c.discount
                )?;
                if let Some(dev) = &c.deviation {
                    writeln!(w, "  {}", deviation_text(dev))?;
                }
                writeln!(w, "Crossout play, discounted scores: ({})", join(&c.crossout_scores))?;
                writeln!(w, "Exact SPE scores:                 ({})", join(&c.spe_scores))
            }
        }
    }
}

dinner_request! {
    /// `dinner pareto`: Pareto efficiency of crossout, of one dinner or of every
    /// permutation dinner of a size.
    ParetoRequest {
        /// Check every permutation dinner of this size (Bob moving last) instead.
        size: Option<usize> = None,
    }
}

/// The report of `dinner pareto`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ParetoReport {
    /// Every permutation dinner of a size.
    Sweep(ParetoSweepReport),
    /// One dinner.
    One(ParetoOneReport),
}

/// A Bob permutation `b` as pairs `[i, b_i]`, `i` from 1.
pub type PermutationDinner = Vec<[i64; 2]>;

/// The sweep over permutation dinners.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ParetoSweepReport {
    /// The size.
    pub size: usize,
    /// Dinners checked.
    pub dinners: u64,
    /// The Pareto-inefficient dinners.
    pub inefficient: Vec<PermutationDinner>,
    /// The weakly inefficient ones.
    pub weakly_inefficient: Vec<PermutationDinner>,
}

/// The efficiency of one dinner.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ParetoOneReport {
    /// The turn order.
    pub turn_order: String,
    /// The crossout scores.
    pub crossout: [Exact; 2],
    /// No outcome is at least as good for both and better for one.
    pub pareto_efficient: bool,
    /// No outcome is better for both.
    pub weakly_pareto_efficient: bool,
    /// The improving score pairs.
    pub improving: Vec<[Exact; 2]>,
    /// The largest relative improvement in percent, or null.
    pub max_improvement_percent: Option<Exact>,
}

fn perm(b: &[i64]) -> PermutationDinner {
    b.iter()
        .enumerate()
        .map(|(i, &bi)| [i as i64 + 1, bi])
        .collect()
}

/// Pareto efficiency of crossout.
pub fn pareto(req: &ParetoRequest, ctl: &Control) -> Result<ParetoReport, Error> {
    if req.size.is_some() {
        return sweep::run::<ParetoSweep>(req, ctl);
    }
    let (d, order) = req.input().load()?;
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let e = pareto::efficiency(d, order)?;
    let real = |(x, y): (i128, i128)| [d.unscale(x), d.unscale(y)];
    Ok(ParetoReport::One(ParetoOneReport {
        turn_order: order.to_string(),
        crossout: real(e.crossout),
        pareto_efficient: e.efficient,
        weakly_pareto_efficient: e.weakly_efficient,
        improving: e.improving.iter().map(|&p| real(p)).collect(),
        max_improvement_percent: e.max_improvement_percent(),
    }))
}

/// `dinner pareto` over every permutation dinner of a size, as a sweep: one item per
/// chunk of [`pareto::SWEEP_CHUNK`] permutations in lexicographic order.
pub struct ParetoSweep;

/// The inefficient permutations found in some chunks, by chunk.
#[derive(Default, Serialize, Deserialize)]
pub struct ParetoPartial(Vec<(u64, pareto::Found)>);

impl Sweep for ParetoSweep {
    const COMMAND: &'static str = "dinner-pareto";
    type Request = ParetoRequest;
    type Plan = usize;
    type Partial = ParetoPartial;
    type Report = ParetoReport;

    fn plan(req: &ParetoRequest) -> Result<usize, Error> {
        let Some(n) = req.size else {
            return Err(Error::Missing {
                field: "size",
                what: "the size of the permutation dinners",
                hint:
                    "a sweep covers every permutation dinner of one size; one dinner is not a sweep"
                        .into(),
            });
        };
        if req.input().given() {
            return Err(Error::combination("size", "give either a dinner or a size"));
        }
        if !(1..=12).contains(&n) {
            return Err(Error::invalid(
                "size",
                n,
                "the sweep covers all n! permutation dinners; use 1..=12",
            ));
        }
        Ok(n)
    }
    fn items(n: &usize) -> u64 {
        (1..=*n as u64)
            .product::<u64>()
            .div_ceil(pareto::SWEEP_CHUNK)
    }
    fn item(_req: &ParetoRequest, n: &usize, item: u64) -> Result<ParetoPartial, Error> {
        Ok(ParetoPartial(vec![(item, pareto::sweep_chunk(*n, item))]))
    }
    fn merge(into: &mut ParetoPartial, other: ParetoPartial) {
        into.0.extend(other.0);
        into.0.sort_unstable_by_key(|c| c.0);
    }
    fn report(
        _req: &ParetoRequest,
        n: &usize,
        all: ParetoPartial,
        _ctl: &Control,
    ) -> Result<ParetoReport, Error> {
        let (mut inefficient, mut weakly_inefficient) = (Vec::new(), Vec::new());
        for (_, (a, b)) in &all.0 {
            inefficient.extend(a.iter().map(|b| perm(b)));
            weakly_inefficient.extend(b.iter().map(|b| perm(b)));
        }
        Ok(ParetoReport::Sweep(ParetoSweepReport {
            size: *n,
            dinners: (1..=*n as u64).product(),
            inefficient,
            weakly_inefficient,
        }))
    }
}

impl Render for ParetoReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            ParetoReport::Sweep(s) => {
                writeln!(
                    w,
                    "{} permutation dinners of size {} (Bob moves last)",
                    s.dinners, s.size
                )?;
                writeln!(
                    w,
                    "crossout Pareto inefficient in {}, weakly inefficient in {}",
                    s.inefficient.len(),
                    s.weakly_inefficient.len()
                )?;
                for (name, list) in [
                    ("inefficient", &s.inefficient),
                    ("weakly inefficient", &s.weakly_inefficient),
                ] {
                    for b in list.iter().take(20) {
                        let m: Vec<String> =
                            b.iter().map(|[i, bi]| format!("({i},{bi})")).collect();
                        writeln!(w, "  {name}: {}", m.join(" "))?;
                    }
                    if list.len() > 20 {
                        writeln!(
                            w,
                            "  ... and {} more (see the JSON report)",
                            list.len() - 20
                        )?;
                    }
                }
                Ok(())
            }
            ParetoReport::One(o) => {
                writeln!(w, "Crossout scores: ({}, {})", o.crossout[0], o.crossout[1])?;
                writeln!(
                    w,
                    "Pareto efficient: {}; weakly Pareto efficient: {}",
                    o.pareto_efficient, o.weakly_pareto_efficient
                )?;
                for [x, y] in &o.improving {
                    writeln!(w, "  improving outcome: ({x}, {y})")?;
                }
                Ok(())
            }
        }
    }
}

request! {
    /// `dinner experiment`: the paper's random experiment.
    ExperimentRequest {
        /// Morsels per dinner.
        size: usize = 16,
        /// Number of random permutation dinners.
        trials: u64 = 10_000,
        /// Seed of the random streams.
        seed: u64 = 1,
    }
}

/// The report of `dinner experiment`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExperimentReport {
    /// Morsels per dinner.
    pub size: usize,
    /// Dinners tried.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// Pareto-inefficient dinners.
    pub inefficient: u64,
    /// Weakly inefficient dinners.
    pub weakly_inefficient: u64,
    /// The largest improvement in percent, rounded to 4 decimals (for reading only).
    pub max_improvement_percent: Option<f64>,
    /// The same, exact.
    pub max_improvement_percent_exact: Option<Exact>,
    /// The trial where it occurred.
    pub max_improvement_trial: Option<u64>,
}

fn approx(x: &Exact) -> f64 {
    x.numer() as f64 / x.denom() as f64
}

/// Runs the random experiment.
pub fn experiment(req: &ExperimentRequest, ctl: &Control) -> Result<ExperimentReport, Error> {
    sweep::run::<ExperimentSweep>(req, ctl)
}

/// `dinner experiment` as a sweep: one item per random dinner.
pub struct ExperimentSweep;

/// The folded results of some trials.
#[derive(Default, Serialize, Deserialize)]
pub struct ExperimentPartial {
    trials: u64,
    inefficient: u64,
    weakly_inefficient: u64,
    /// The largest improvement in percent and its trial, the first trial among equals.
    max_improvement: Option<(Exact, u64)>,
}

impl Sweep for ExperimentSweep {
    const COMMAND: &'static str = "dinner-experiment";
    type Request = ExperimentRequest;
    type Plan = u64;
    type Partial = ExperimentPartial;
    type Report = ExperimentReport;

    fn plan(req: &ExperimentRequest) -> Result<u64, Error> {
        if !(1..=24).contains(&req.size) {
            return Err(Error::invalid(
                "size",
                req.size,
                "use 1..=24 (every split of each dinner is enumerated)",
            ));
        }
        Ok(req.trials)
    }
    fn items(trials: &u64) -> u64 {
        *trials
    }
    fn item(req: &ExperimentRequest, _: &u64, t: u64) -> Result<ExperimentPartial, Error> {
        let (efficient, weakly, improvement) = pareto::experiment_trial(req.size, req.seed, t);
        Ok(ExperimentPartial {
            trials: 1,
            inefficient: !efficient as u64,
            weakly_inefficient: !weakly as u64,
            max_improvement: improvement.map(|x| (x, t)),
        })
    }
    fn merge(into: &mut ExperimentPartial, other: ExperimentPartial) {
        into.trials += other.trials;
        into.inefficient += other.inefficient;
        into.weakly_inefficient += other.weakly_inefficient;
        into.max_improvement = sweep::max_first(into.max_improvement, other.max_improvement);
    }
    fn report(
        req: &ExperimentRequest,
        _: &u64,
        e: ExperimentPartial,
        _ctl: &Control,
    ) -> Result<ExperimentReport, Error> {
        let percent = e.max_improvement.map(|(x, _)| x);
        Ok(ExperimentReport {
            size: req.size,
            trials: e.trials,
            seed: req.seed,
            inefficient: e.inefficient,
            weakly_inefficient: e.weakly_inefficient,
            max_improvement_percent: percent.map(|x| (approx(&x) * 1e4).round() / 1e4),
            max_improvement_percent_exact: percent,
            max_improvement_trial: e.max_improvement.map(|(_, t)| t),
        })
    }
}

impl Render for ExperimentReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} random permutation dinners of size {} (seed {}):",
            self.trials, self.size, self.seed
        )?;
        writeln!(
            w,
            "  crossout Pareto inefficient:        {}",
            self.inefficient
        )?;
        writeln!(
            w,
            "  crossout weakly Pareto inefficient: {}",
            self.weakly_inefficient
        )?;
        match (
            &self.max_improvement_percent_exact,
            self.max_improvement_percent,
        ) {
            (Some(x), Some(f)) => writeln!(
                w,
                "  largest improvement for a player:   {f}% (exactly {x}%)"
            ),
            _ => writeln!(w, "  no improving outcome"),
        }
    }
}

request! {
    /// `dinner multiplicity`: how often random dinners with distinct utilities have more
    /// than one pure subgame perfect equilibrium outcome (the paper's "Three's a crowd").
    MultiplicityRequest {
        /// Players (2 to 6).
        players: usize = 3,
        /// Morsels per dinner (1 to 24: every equilibrium is enumerated).
        size: usize = 8,
        /// Number of random dinners.
        trials: u64 = 200,
        /// Seed of the random streams.
        seed: u64 = 3,
        /// Turn order: `snake`, `alternate` or letters.
        order: String = "snake".into(),
    }
}

/// How many dinners had a given number of equilibrium outcomes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OutcomeCount {
    /// Distinct pure SPE score vectors.
    pub outcomes: u64,
    /// Dinners with that many.
    pub dinners: u64,
}

/// The report of `dinner multiplicity`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MultiplicityReport {
    /// Players.
    pub players: usize,
    /// Morsels per dinner.
    pub size: usize,
    /// Dinners tried.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The turn order as given.
    pub order: String,
    /// Dinners with more than one pure SPE outcome.
    pub multiple: u64,
    /// Dinners by their number of distinct outcomes, fewest first (counts of 0 left out).
    pub histogram: Vec<OutcomeCount>,
    /// The most outcomes of one dinner.
    pub most_outcomes: u64,
    /// The first trial with that many (trial numbers from 0).
    pub most_trial: u64,
}

/// `dinner multiplicity` as a sweep: one item per random dinner.
pub struct MultiplicitySweep;

/// The folded counts of some trials.
#[derive(Default, Serialize, Deserialize)]
pub struct MultiplicityPartial {
    /// `histogram[k]`: trials with `k` outcomes.
    histogram: Vec<u64>,
    /// `(outcomes, trial)`: the most, the first trial among equals.
    most: Option<(u64, u64)>,
}

impl Sweep for MultiplicitySweep {
    const COMMAND: &'static str = "dinner-multiplicity";
    type Request = MultiplicityRequest;
    type Plan = u64;
    type Partial = MultiplicityPartial;
    type Report = MultiplicityReport;

    fn plan(req: &MultiplicityRequest) -> Result<u64, Error> {
        if !(2..=6).contains(&req.players) {
            return Err(Error::invalid("players", req.players, "use 2 to 6 players"));
        }
        if !(1..=24).contains(&req.size) {
            return Err(Error::invalid(
                "size",
                req.size,
                "use 1 to 24 morsels (every equilibrium of each dinner is enumerated)",
            ));
        }
        // The order must fit the dinner: checked once here on the first dinner's shape.
        let probe = Dinner::from_integers(req.players, vec![1; req.players * req.size])?;
        TurnOrder::parse(&req.order, &probe).map_err(|e| Error::invalid("order", &req.order, e))?;
        Ok(req.trials)
    }
    fn items(trials: &u64) -> u64 {
        *trials
    }
    fn item(req: &MultiplicityRequest, _: &u64, t: u64) -> Result<MultiplicityPartial, Error> {
        let n = random_spe_outcomes(
            req.players,
            req.size,
            &req.order,
            req.seed,
            t,
            Budget::default(),
        )?
        .len();
        let mut histogram = vec![0; n + 1];
        histogram[n] = 1;
        Ok(MultiplicityPartial {
            histogram,
            most: Some((n as u64, t)),
        })
    }
    fn merge(into: &mut MultiplicityPartial, other: MultiplicityPartial) {
        if into.histogram.len() < other.histogram.len() {
            into.histogram.resize(other.histogram.len(), 0);
        }
        for (a, b) in into.histogram.iter_mut().zip(other.histogram) {
            *a += b;
        }
        into.most = sweep::max_first(into.most, other.most);
    }
    fn report(
        req: &MultiplicityRequest,
        trials: &u64,
        all: MultiplicityPartial,
        _ctl: &Control,
    ) -> Result<MultiplicityReport, Error> {
        let (most_outcomes, most_trial) = all.most.unwrap_or((0, 0));
        Ok(MultiplicityReport {
            players: req.players,
            size: req.size,
            trials: *trials,
            seed: req.seed,
            order: req.order.clone(),
            multiple: all.histogram.iter().skip(2).sum(),
            histogram: all
                .histogram
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(k, &c)| OutcomeCount {
                    outcomes: k as u64,
                    dinners: c,
                })
                .collect(),
            most_outcomes,
            most_trial,
        })
    }
}

/// Counts the pure SPE outcomes of random dinners ([`MultiplicitySweep`]).
pub fn multiplicity(req: &MultiplicityRequest, ctl: &Control) -> Result<MultiplicityReport, Error> {
    sweep::run::<MultiplicitySweep>(req, ctl)
}

impl Render for MultiplicityReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} random dinners of {} morsels, {} players with distinct utilities, order {} (seed {}):",
            self.trials, self.size, self.players, self.order, self.seed
        )?;
        writeln!(
            w,
            "  more than one pure SPE outcome: {} of {}",
            self.multiple, self.trials
        )?;
        for h in &self.histogram {
            writeln!(w, "  {} outcome(s): {} dinners", h.outcomes, h.dinners)?;
        }
        if self.trials > 0 {
            writeln!(
                w,
                "  most outcomes: {} (trial {})",
                self.most_outcomes, self.most_trial
            )?;
        }
        Ok(())
    }
}

request! {
    /// `dinner attainable`: the Hopkins-Jones count of attainable sets.
    AttainableRequest {
        /// Size 2k of the permutation dinners (Bob moving last).
        size: usize = 0,
    }
}

/// The report of `dinner attainable`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AttainableReport {
    /// The size 2k.
    pub size: usize,
    /// Distinct sets Alice can eat.
    pub alice: u64,
    /// Distinct sets Bob can eat.
    pub bob: u64,
    /// The Catalan number C_k.
    pub catalan_k: u64,
    /// The Catalan number C_(k+1).
    pub catalan_k_plus_1: u64,
}

/// Counts the attainable sets.
pub fn attainable_sets(req: &AttainableRequest, _ctl: &Control) -> Result<AttainableReport, Error> {
    if req.size == 0 || !req.size.is_multiple_of(2) || req.size > 24 {
        return Err(Error::invalid(
            "size",
            req.size,
            "the count is stated for even sizes 2k, 2..=24",
        ));
    }
    let k = (req.size / 2) as u64;
    Ok(AttainableReport {
        size: req.size,
        alice: attainable::attainable(req.size, 0)?,
        bob: attainable::attainable(req.size, 1)?,
        catalan_k: attainable::catalan(k) as u64,
        catalan_k_plus_1: attainable::catalan(k + 1) as u64,
    })
}

impl Render for AttainableReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Permutation dinners of size {} (k = {}), crossout play:",
            self.size,
            self.size / 2
        )?;
        writeln!(
            w,
            "  distinct sets Alice can eat: {} (Catalan C_k = {})",
            self.alice, self.catalan_k
        )?;
        writeln!(
            w,
            "  distinct sets Bob can eat:   {} (Catalan C_k+1 = {})",
            self.bob, self.catalan_k_plus_1
        )
    }
}

dinner_request! {
    /// `dinner plot`: Figure 1, the outcomes of all strategy pairs.
    PlotRequest {
        /// Also draw the picture ([`PlotReport::svg`]).
        picture: bool = false,
    }
}

/// The report of `dinner plot`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PlotReport {
    /// The turn order.
    pub turn_order: String,
    /// Every split's score pair.
    pub all: Vec<[Exact; 2]>,
    /// The outcomes Alice reaches against Bob's crossout.
    pub against_crossout: Vec<[Exact; 2]>,
    /// The crossout outcome.
    pub crossout: [Exact; 2],
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// Computes Figure 1.
pub fn plot(req: &PlotRequest, _ctl: &Control) -> Result<PlotReport, Error> {
    let (d, order) = req.input().load()?;
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let o = figures::outcomes(d, order, Budget::default())?;
    let pair = |&(x, y): &(i128, i128)| [d.unscale(x), d.unscale(y)];
    Ok(PlotReport {
        turn_order: order.to_string(),
        all: o.all.iter().map(pair).collect(),
        against_crossout: o.against_crossout.iter().map(pair).collect(),
        crossout: pair(&o.crossout),
        svg: req
            .picture
            .then(|| figures::outcome_chart(d, &o).to_svg(720.0, 600.0)),
    })
}

impl Render for PlotReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} outcomes of all strategy pairs, {} reachable by Alice against Bob's crossout; crossout at ({}, {})",
            self.all.len(),
            self.against_crossout.len(),
            self.crossout[0],
            self.crossout[1]
        )
    }
}

dinner_request! {
    /// `dinner board`: the crossout board (Figures 2, 4, 5).
    BoardRequest {
        /// Label the order of play instead of the crossout sequence (Figure 4).
        play_order: bool = false,
        /// Also draw the board of D - m, m (an index) eaten first (Figure 2, right).
        remove: Option<usize> = None,
        /// Draw the board of the transformed dinner D' for these altruism payoffs.
        altruism: Option<Vec<Exact>> = None,
        /// Also draw the picture ([`BoardReport::svg`]).
        picture: bool = false,
    }
}

/// The report of `dinner board`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BoardReport {
    /// The turn order.
    pub turn_order: String,
    /// The dinner drawn (D, or D').
    pub dinner: Vec<Vec<Exact>>,
    /// The crossout sequence.
    pub crossout_sequence: Vec<usize>,
    /// The crossout scores of the dinner drawn.
    pub scores: Vec<Exact>,
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// The crossout board.
pub fn board(req: &BoardRequest, _ctl: &Control) -> Result<BoardReport, Error> {
    let (d, order) = req.input().load()?;
    let rules = rules_of(&d, None, None, req.altruism.as_deref())?;
    let setup = Setup::new(d, order, rules)?;
    let (d, order) = (setup.dinner(), setup.order());
    let (d, name) = match &req.altruism {
        Some(_) => (variants::transformed(d, setup.rules())?, "D'"),
        None => (d.clone(), "D"),
    };
    if let Some(m) = req.remove {
        if m >= d.len() || d.len() < 2 {
            return Err(Error::invalid(
                "remove",
                m,
                format!(
                    "the dinner has morsels 0..{} and needs at least two",
                    d.len() - 1
                ),
            ));
        }
    }
    let c = crossout(&d, order)?;
    let scores = c.scores.iter().map(|&s| d.unscale(s)).collect();
    let svg = if req.picture {
        Some(figures::board_svg(
            &d,
            order,
            figures::BoardOptions {
                name,
                play_order: req.play_order,
                removed: req.remove,
            },
        )?)
    } else {
        None
    };
    Ok(BoardReport {
        turn_order: order.to_string(),
        dinner: dinner_rows(&d),
        crossout_sequence: c.sequence().collect(),
        scores,
        svg,
    })
}

impl Render for BoardReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Crossout board of {} morsels, turn order {}: scores ({})",
            self.dinner.len(),
            abbreviate(&self.turn_order),
            join(&self.scores)
        )
    }
}

request! {
    /// `dinner balance`: first-mover advantage under alternation and Thue-Morse order.
    BalanceRequest {
        /// Largest number of morsels.
        max_size: usize = 32,
        /// Random permutation dinners per size.
        trials: u64 = 1000,
        /// Seed of the random streams.
        seed: u64 = 1,
        /// Also draw the picture ([`BalanceReport::svg`]).
        picture: bool = false,
    }
}

/// One size of the balance table.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BalanceRow {
    /// Number of morsels.
    pub size: usize,
    /// Mean (A - B) as a percentage of n(n+1)/2 under alternation (exact).
    pub alternation: Exact,
    /// The same under Thue-Morse order.
    pub thue_morse: Exact,
    /// `alternation` rounded to 4 decimals.
    pub alternation_approx: f64,
    /// `thue_morse` rounded to 4 decimals.
    pub thue_morse_approx: f64,
}

/// The report of `dinner balance`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BalanceReport {
    /// Dinners per size.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// One row per size.
    pub rows: Vec<BalanceRow>,
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// First-mover advantage by size.
pub fn balance(req: &BalanceRequest, ctl: &Control) -> Result<BalanceReport, Error> {
    sweep::run::<BalanceSweep>(req, ctl)
}

/// `dinner balance` as a sweep: one item per size.
pub struct BalanceSweep;

/// The summed differences of some sizes: `(size, alternation, Thue-Morse)`, by size.
#[derive(Default, Serialize, Deserialize)]
pub struct BalancePartial(Vec<(usize, i128, i128)>);

impl Sweep for BalanceSweep {
    const COMMAND: &'static str = "dinner-balance";
    type Request = BalanceRequest;
    type Plan = usize;
    type Partial = BalancePartial;
    type Report = BalanceReport;

    fn plan(req: &BalanceRequest) -> Result<usize, Error> {
        if !(1..=100_000).contains(&req.max_size) {
            return Err(Error::invalid("max_size", req.max_size, "use 1..=100000"));
        }
        if req.trials == 0 {
            return Err(Error::invalid("trials", 0, "at least one dinner per size"));
        }
        Ok(req.max_size)
    }
    fn items(max_size: &usize) -> u64 {
        *max_size as u64
    }
    fn item(req: &BalanceRequest, _: &usize, item: u64) -> Result<BalancePartial, Error> {
        let n = item as usize + 1;
        let (alt, tm) = balance::size_sums(n, req.trials, req.seed);
        Ok(BalancePartial(vec![(n, alt, tm)]))
    }
    fn merge(into: &mut BalancePartial, other: BalancePartial) {
        into.0.extend(other.0);
        into.0.sort_unstable_by_key(|r| r.0);
    }
    fn report(
        req: &BalanceRequest,
        _: &usize,
        all: BalancePartial,
        _ctl: &Control,
    ) -> Result<BalanceReport, Error> {
        let rows: Vec<balance::Advantage> = all
            .0
            .iter()
            .map(|&(n, alt, tm)| balance::advantage(n, req.trials, alt, tm))
            .collect();
        Ok(balance_report(req, &rows))
    }
}

/// The balance report of its rows.
fn balance_report(req: &BalanceRequest, rows: &[balance::Advantage]) -> BalanceReport {
    let svg = req.picture.then(|| {
        let series =
            |name: &str, color: &str, f: &dyn Fn(&balance::Advantage) -> f64| crate::svg::Series {
                name: name.into(),
                color: color.into(),
                mark: crate::svg::Mark::Line,
                points: rows.iter().map(|r| (r.size as f64, f(r))).collect(),
            };
        crate::svg::Chart {
            title: format!(
                "First-mover advantage, {} random permutation dinners per size",
                req.trials
            ),
            x_label: "number of morsels".into(),
            y_label: "mean (Alice - Bob) as % of a player's total".into(),
            series: vec![
                series("alternation ABAB...", "#d62728", &|r| {
                    approx(&r.alternation)
                }),
                series("Thue-Morse ABBA BAAB...", "#1f77b4", &|r| {
                    approx(&r.thue_morse)
                }),
            ],
        }
        .to_svg(760.0, 520.0)
    });
    BalanceReport {
        trials: req.trials,
        seed: req.seed,
        rows: rows
            .iter()
            .map(|r| BalanceRow {
                size: r.size,
                alternation: r.alternation,
                thue_morse: r.thue_morse,
                alternation_approx: (approx(&r.alternation) * 1e4).round() / 1e4,
                thue_morse_approx: (approx(&r.thue_morse) * 1e4).round() / 1e4,
            })
            .collect(),
        svg,
    }
}

impl Render for BalanceReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{:>6}  {:>12}  {:>12}   (mean Alice - Bob, % of n(n+1)/2)",
            "size", "alternation", "thue-morse"
        )?;
        for r in &self.rows {
            writeln!(
                w,
                "{:>6}  {:>11.3}%  {:>11.3}%",
                r.size,
                approx(&r.alternation),
                approx(&r.thue_morse)
            )?;
        }
        Ok(())
    }
}
