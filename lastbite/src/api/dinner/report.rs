//! The `dinner` commands' reports: what each command returns, serialised as its `--json`
//! document. Types and the pure functions that build their parts; no command logic, no
//! text (see `text/`).

use schemars::JsonSchema;
use serde::Serialize;

use crate::api::input::Letter;
use crate::engine::Deviation;
use crate::exact::Exact;
use crate::games::dinner::picking::mechanisms::{Allocation, Failures};
use crate::games::dinner::picking::welfare::Comparison;
use crate::games::dinner::Explained;
use crate::games::dinner::{Bite, Dinner, Position, Rules, Setup};

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

pub(super) fn bites(d: &Dinner, eating: &[Bite]) -> Vec<BiteReport> {
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

pub(super) fn rules_report(rules: &Rules) -> RulesReport {
    RulesReport {
        discount: rules.discount(),
        altruism: rules.altruism_matrix().map(|c| AltruismReport {
            alpha_A: c[0][0],
            beta_A: c[1][0],
            alpha_B: c[0][1],
            beta_B: c[1][1],
        }),
        before: rules.before().map(|b| {
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
    /// Which rule chose the eating order among those that give the same bundles:
    /// `crossout` (the crossout strategy's bites, the reverse of the crossout sequence) or
    /// `ties` (the exact solver's equilibrium path under `ties`: with `index`, among
    /// moves worth the same the lower-numbered morsel first). The two can eat the same
    /// bundles in different orders; `explain` and `at` explain the exact solver's path.
    pub eating_order_rule: &'static str,
    /// The crossout sequence (crossout only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossout_sequence: Option<Vec<usize>>,
    /// States solved (exact only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// How the lean solver read the equilibrium path back: `choice bytes` (one a state;
    /// the specialised kernel keeps those of the ten layers nearest the root and solves
    /// the states below the path's state after ten bites again) or `re-solving` (below
    /// each state of the path, when the choice bytes do not fit `memory_gib`); absent for
    /// crossout and the full table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_recovery: Option<&'static str>,
    /// States solved again to recover the path: with `re-solving`, below each state of
    /// the path; with `choice bytes` from the kernel, below the path's state after ten
    /// bites (`2^(n - 10)` of `n` morsels).
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
    /// The explained state (with `explain`; absent when `at` has eaten every morsel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explained>,
    /// The position explained (with `explain` or `at`): the bites so far and the scores
    /// they give, also when the dinner is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<PositionReport>,
    #[serde(skip)]
    #[schemars(skip)]
    pub(super) dinner: Option<Dinner>,
}

/// A position of the game: the morsels eaten so far and what they are worth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PositionReport {
    /// The bites so far, turn by turn (the eater by the turn order).
    pub eaten: Vec<BiteReport>,
    /// Each player's score so far, as the rules count it.
    pub so_far: Vec<Exact>,
    /// The morsels left (from 0).
    pub left: Vec<usize>,
    /// Who eats next; absent when nothing is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_move: Option<Letter>,
}

impl PositionReport {
    pub(super) fn new(setup: &Setup, p: &Position) -> PositionReport {
        let turn = p.bites().len();
        PositionReport {
            eaten: bites(setup.dinner(), p.bites()),
            so_far: p.scores().to_vec(),
            left: p.left().to_vec(),
            to_move: (turn < setup.order().len()).then(|| Letter(setup.order().player(turn))),
        }
    }
}

pub(super) fn dinner_rows(d: &Dinner) -> Vec<Vec<Exact>> {
    (0..d.len())
        .map(|i| (0..d.players()).map(|p| d.value(i, p)).collect())
        .collect()
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
    pub(super) dinner: Option<Dinner>,
}

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

pub(super) fn remaining_of(state: u64) -> Vec<usize> {
    (0..64).filter(|i| state >> i & 1 == 1).collect()
}

/// The report of `dinner efg`: the file's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct EfgReport {
    /// The title written into the file.
    pub title: String,
    /// The .efg text.
    pub efg: String,
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

pub(super) fn deviation_report(
    dev: &Option<Deviation<u64, usize, Exact>>,
) -> Option<DeviationReport> {
    dev.as_ref().map(|d| DeviationReport {
        remaining: remaining_of(d.state),
        player: Letter(d.player),
        prescribed: d.prescribed,
        better: d.better,
        gain: d.gain,
    })
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

pub(super) fn perm(b: &[i64]) -> PermutationDinner {
    b.iter()
        .enumerate()
        .map(|(i, &bi)| [i as i64 + 1, bi])
        .collect()
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
    /// With `at`: the morsels left, in the dinner's numbering (morsel `i` drawn is
    /// `left[i]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Vec<usize>>,
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
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
    /// With `at`: the morsels left, in the dinner's numbering (morsel `i` drawn is
    /// `left[i]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Vec<usize>>,
    /// The picture (an SVG document), when asked for (`picture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
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

/// One welfare measure of sincere play beside the SPE outcomes and the optimum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WelfareRow {
    /// `utilitarian`, `egalitarian` or `nash`.
    pub measure: &'static str,
    /// The welfare of sincere play.
    pub sincere: Exact,
    /// The least welfare of a pure SPE outcome.
    pub spe_worst: Exact,
    /// The greatest welfare of a pure SPE outcome.
    pub spe_best: Exact,
    /// The best welfare of any allocation with the sequence's counts (absent when there
    /// are more allocations than `max_states`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimum: Option<Exact>,
    /// The price of anarchy: `optimum / spe_worst` (null when undefined: a welfare of 0
    /// or less, or no optimum).
    pub price_of_anarchy: Option<Exact>,
    /// The price of stability: `optimum / spe_best`.
    pub price_of_stability: Option<Exact>,
    /// Against sincere play: `sincere / spe_worst`.
    pub sincere_over_worst: Option<Exact>,
    /// Against sincere play: `sincere / spe_best`.
    pub sincere_over_best: Option<Exact>,
}

impl From<Comparison> for WelfareRow {
    fn from(c: Comparison) -> WelfareRow {
        WelfareRow {
            measure: c.measure.name(),
            sincere: c.sincere,
            spe_worst: c.spe_worst,
            spe_best: c.spe_best,
            optimum: c.optimum,
            price_of_anarchy: c.price_of_anarchy,
            price_of_stability: c.price_of_stability,
            sincere_over_worst: c.sincere_over_worst,
            sincere_over_best: c.sincere_over_best,
        }
    }
}

/// The report of `dinner sincere`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SincereReport {
    /// Number of players.
    pub players: usize,
    /// Number of morsels.
    pub morsels: usize,
    /// The turn order (the picking sequence).
    pub turn_order: String,
    /// Each player's score under sincere play.
    pub scores: Vec<Exact>,
    /// The sincere eating order.
    pub eating_order: Vec<BiteReport>,
    /// With `compare`: every pure SPE score vector (sorted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spe_outcomes: Option<Vec<Vec<Exact>>>,
    /// With `compare`: utilitarian, egalitarian and Nash welfare of sincere play, the SPE
    /// outcomes and the optimum, with the prices of anarchy and stability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub welfare: Option<Vec<WelfareRow>>,
    #[serde(skip)]
    #[schemars(skip)]
    pub(super) dinner: Option<Dinner>,
}

/// The report of `dinner manipulate`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ManipulateReport {
    /// The turn order.
    pub turn_order: String,
    /// The manipulator.
    pub agent: Letter,
    /// Its best score against sincere others.
    pub score: Exact,
    /// Its score when it plays sincerely too.
    pub sincere_score: Exact,
    /// `score - sincere_score` (never negative).
    pub gain: Exact,
    /// Its picks, in turn order.
    pub picks: Vec<usize>,
    /// The whole play: its picks and the others' sincere ones.
    pub eating_order: Vec<BiteReport>,
    /// `greedy` (two agents: a matroid greedy, O(n log n)) or `search` (memoised, exact).
    pub method: &'static str,
    /// Sets of morsels left memoised by the search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
}

/// One agent's fairness under a mechanism.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AgentFairnessReport {
    /// The agent.
    pub agent: Letter,
    /// Its bundle (morsels, increasing).
    pub bundle: Vec<usize>,
    /// Its score.
    pub score: Exact,
    /// The agents it envies.
    pub envies: Vec<Letter>,
    /// It envies nobody.
    pub envy_free: bool,
    /// Its envy of each agent goes with one item (or one chore of its own).
    pub ef1: bool,
    /// It gets at least a 1/k share of its value of every morsel.
    pub proportional: bool,
    /// Its maximin share (null past the budget).
    pub mms_share: Option<Exact>,
    /// It gets at least its maximin share (null when the share is).
    pub mms: Option<bool>,
}

/// Fairness of one mechanism's allocation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MechanismFairness {
    /// `sincere` or `spe` (the equilibrium of `dinner solve`, index tie rule).
    pub mechanism: &'static str,
    /// Every agent envy-free.
    pub envy_free: bool,
    /// Every agent EF1.
    pub ef1: bool,
    /// Every agent proportional.
    pub proportional: bool,
    /// Every agent at least its maximin share (null when a share is past the budget).
    pub mms: Option<bool>,
    /// Agent by agent.
    pub agents: Vec<AgentFairnessReport>,
}

impl MechanismFairness {
    /// A mechanism's allocation and its fairness, in the dinner's units.
    pub(super) fn new(d: &Dinner, a: Allocation) -> MechanismFairness {
        let agents: Vec<AgentFairnessReport> = a
            .agents
            .iter()
            .zip(a.bundles.iter().zip(&a.scores))
            .enumerate()
            .map(|(i, (f, (bundle, &score)))| AgentFairnessReport {
                agent: Letter(i),
                bundle: bundle.clone(),
                score,
                envy_free: f.envies.is_empty(),
                envies: f.envies.iter().copied().map(Letter).collect(),
                ef1: f.ef1,
                proportional: f.proportional,
                mms_share: f.mms_share.map(|s| d.unscale(s)),
                mms: f.mms,
            })
            .collect();
        MechanismFairness {
            mechanism: a.mechanism,
            envy_free: a.envy_free(),
            ef1: a.ef1(),
            proportional: a.proportional(),
            mms: a.mms(),
            agents,
        }
    }
}

/// How often a mechanism's allocation fails each property over random dinners.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FairnessFailures {
    /// `sincere`, `spe`, or `every_spe` (a dinner counts when some equilibrium
    /// allocation fails).
    pub mechanism: &'static str,
    /// Dinners whose allocation is not envy-free.
    pub envy_free: u64,
    /// Not EF1.
    pub ef1: u64,
    /// Not proportional.
    pub proportional: u64,
    /// Some agent below its maximin share.
    pub mms: u64,
}

impl From<Failures> for FairnessFailures {
    fn from(f: Failures) -> FairnessFailures {
        let [envy_free, ef1, proportional, mms] = f.counts;
        FairnessFailures {
            mechanism: f.mechanism,
            envy_free,
            ef1,
            proportional,
            mms,
        }
    }
}

/// The report of `dinner fairness`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FairnessReport {
    /// The turn order (of the dinner, or of every random dinner).
    pub turn_order: String,
    /// One dinner: each mechanism's allocation and its fairness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mechanisms: Option<Vec<MechanismFairness>>,
    /// One dinner, with `every_spe`: the fairness of every equilibrium allocation
    /// (distinct allocations; mechanism `spe` each).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub every_spe: Option<Vec<MechanismFairness>>,
    /// With `trials`: the random dinners tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// With `trials`: how often each mechanism fails each property.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failures: Option<Vec<FairnessFailures>>,
}

/// The report of `dinner expected`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExpectedReport {
    /// The picking sequence.
    pub turn_order: String,
    /// The preference model: `borda`, `lexicographic` or the scoring vector.
    pub model: String,
    /// `sincere` or `strategic` (the SPE of `dinner solve`'s route: crossout for two
    /// agents, the exact solver with the index tie rule for more).
    pub play: &'static str,
    /// `utilitarian`, `egalitarian` or `nash`.
    pub welfare: &'static str,
    /// Each agent's expected score, exact.
    pub expected_scores: Vec<crate::rational::Rational>,
    /// The expected welfare, exact.
    pub expected_welfare: crate::rational::Rational,
    /// `dynamic program` (two agents, sincere, utilitarian), `dynamic program on the
    /// reversed sequence` (strategic), `joint dynamic program` (two agents, Nash welfare;
    /// `... on the reversed sequence` when strategic), `every profile` or `sampling`.
    pub method: &'static str,
    /// The profiles of rankings averaged over (`every profile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profiles: Option<u64>,
    /// With `samples` (`method`: `sampling`): the random profiles drawn; the expected
    /// values are then the sample means, exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<u64>,
    /// With `samples`: each agent's normal 95% confidence interval (floats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence_95: Option<Vec<[f64; 2]>>,
    /// With `samples`: the welfare's normal 95% confidence interval (floats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub welfare_confidence_95: Option<[f64; 2]>,
}

/// A picking sequence and its expected welfare.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RankedOrder {
    /// The sequence.
    pub order: String,
    /// Its expected welfare, exact.
    pub expected_welfare: crate::rational::Rational,
}

/// The report of `dinner best-order`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BestOrderReport {
    /// Number of items (morsels).
    pub size: usize,
    /// Each agent's number of turns, or null for every sequence of `size` turns.
    pub counts: Option<Vec<usize>>,
    /// The preference model.
    pub model: String,
    /// `sincere`.
    pub play: &'static str,
    /// `utilitarian`.
    pub welfare: &'static str,
    /// The best sequence (the first in A < B order among ties).
    pub order: String,
    /// Its expected welfare.
    pub expected_welfare: crate::rational::Rational,
    /// The sequences as good as the best (the first 64, in A < B order).
    pub tied: Vec<String>,
    /// How many sequences are as good as the best.
    pub tied_count: u64,
    /// The best sequence strictly worse than `order` (null when all tie).
    pub runner_up: Option<RankedOrder>,
    /// Sequences compared.
    pub sequences: u64,
}
