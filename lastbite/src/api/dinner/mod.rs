//! `dinner` commands: Ethiopian Dinner (Levine and Stange 2012), see
//! [`crate::games::dinner`].
//!
//! The family's files: the dinner input fields every request has and the one road from
//! them to a checked `Setup` in `input.rs`; requests and the commands' functions here;
//! reports in `report.rs`, their text in `text/` (the game's own reports, the analyses,
//! picking), the commands that run as sweeps in `sweep.rs`, the picking-sequence commands
//! (fair division) in `picking.rs`, the fairness of strategic picking over every profile
//! (`dinner strategic-fairness`: request, report and text) in `strategic.rs`, the dinner
//! to play move by move in `game.rs`.
//! Nothing here computes a game: the work is [`crate::games::dinner`]'s; this module turns
//! requests into its validated types and its results into reports.

mod costs;
pub(crate) use costs::drawn as drawn_cost;
mod game;
pub(crate) mod input;
mod picking;
mod report;
mod strategic;
mod sweep;
mod text;

pub use crate::api::input::Letter;
pub use crate::games::dinner::picking::expected::Play;
pub use crate::games::dinner::picking::Welfare;
pub use game::{game, GameRequest};
pub use input::{First, Morsels};
pub use picking::{
    best_order, expected, fairness, manipulate, sincere, BestOrderPartial, BestOrderPlan,
    BestOrderRequest, BestOrderSweep, ExpectedRequest, FairnessPartial, FairnessRequest,
    FairnessSweep, ManipulateRequest, SincereRequest,
};
pub use report::{
    AgentFairnessReport, AltruismReport, AttainableReport, BalanceReport, BalanceRow,
    BestOrderReport, BiteReport, BoardReport, Checked, DeviationReport, DiscountCheckReport,
    DiscountReport, DiscountSearchReport, EfgReport, ExpectedReport, ExperimentReport,
    FairnessFailures, FairnessReport, ManipulateReport, MechanismFairness, MultiplicityReport,
    OutcomeCount, ParetoOneReport, ParetoReport, ParetoSweepReport, PermutationDinner, PlayReport,
    PlotReport, PositionReport, RankedOrder, RulesReport, SincereReport, SolveReport, VerifyReport,
    WelfareRow,
};
pub use strategic::{
    strategic_fairness, CriteriaReport, GuaranteeRow, StrategicFairnessReport,
    StrategicFairnessRequest, StrategicPartial, StrategicPlan, StrategicSweep, ThreeAgentRow,
    TwoAgentRow, VerdictReport, WitnessReport,
};
pub use sweep::{
    balance, experiment, multiplicity, pareto, BalancePartial, BalanceSweep, DiscountPartial,
    DiscountPlan, DiscountSweep, ExperimentPartial, ExperimentSweep, MultiplicityPartial,
    MultiplicitySweep, ParetoPartial, ParetoSweep,
};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::api::drawing::TreeReport;

use crate::api::cost::Work;
use crate::api::drawing::{tree_request, TreeFields};
use crate::api::input::request;
use crate::api::{Control, Error};
use crate::engine::{verify, write_efg, Budget, Verdict};
use crate::exact::Exact;
use crate::games::dinner::analysis::{attainable, figures, variants};
use crate::games::dinner::{
    all_spe_scores_within, crossout, crossout_gap, evaluate, solve_exact, Bite, CrossoutGap,
    Dinner, DinnerError, DinnerGame, DinnerTies, Position, Precedence, Rules, Setup, Strategy,
    DEFAULT_DINNER_MAX_STATES, DEFAULT_DINNER_MEMORY, DEFAULT_DINNER_MEMORY_GIB,
};
use input::dinner_request;
use report::{bites, deviation_report, dinner_rows, remaining_of, rules_report};

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
        rules = rules
            .with_discount(l)
            .map_err(|_| Error::invalid("discount", l, "the discount factor must be positive"))?;
    }
    if let Some(b) = before {
        rules = rules.with_before(Precedence::parse(b, dinner)?);
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
        rules = rules.with_altruism(vec![vec![c[0], c[2]], vec![c[1], c[3]]])?;
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
        #[schemars(extend("x-open" = true))]
        ties: String = "index".into(),
        /// Also list the score vectors of all pure subgame perfect equilibria.
        all: bool = false,
        /// Explain the choice at a state: every legal move and the payoffs it leads to.
        explain: bool = false,
        /// Explain the state after these morsels are eaten (indices from 0; implies
        /// `explain`, which alone explains the start).
        #[schemars(extend("x-budget" = "none"))]
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<usize>>")]
        at: Option<Vec<usize>> = None,
        /// Delayed gratification: a morsel eaten on turn t is worth L^t times its value.
        discount: Option<Exact> = None,
        /// Inaccessible morsels, e.g. `"0<3,1<3"`: morsel 3 only after 0 and 1.
        before: Option<String> = None,
        /// Altruism payoffs alpha_A, beta_A, alpha_B, beta_B.
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        altruism: Option<Vec<Exact>> = None,
        /// Refuse to hold more states at once than this: the full table holds every
        /// state (at most 3e8); from 22 morsels without `explain` the lean solver holds
        /// two layers.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = DEFAULT_DINNER_MAX_STATES,
        /// The most memory, in GiB, the lean solver may hold: two layers of payoffs, and a
        /// choice byte per state when those fit too (else the equilibrium path is
        /// recovered by re-solving, about twice the work).
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = DEFAULT_DINNER_MEMORY_GIB,
    }
}

/// Solves a dinner: crossout or the exact SPE, with the CLI's method choice.
pub fn solve(req: &SolveRequest, ctl: &Control) -> Result<SolveReport, Error> {
    let setup = req.input().setup_with(|d| {
        rules_of(
            d,
            req.discount,
            req.before.as_deref(),
            req.altruism.as_deref(),
        )
    })?;
    let (d, order, rules) = (setup.dinner(), setup.order(), setup.rules());
    let ties = DinnerTies::parse(&req.ties, d.players())
        .map_err(|e| Error::invalid("ties", &req.ties, e))?;
    let budget = Budget {
        max_states: req.max_states,
    };
    // A state to explain asks for an explanation, as in every family.
    let explain = req.explain || req.at.is_some();
    let use_crossout = match (req.method, crossout_gap(&setup, &ties, explain)) {
        (Method::Exact, _) => false,
        (Method::Auto, gap) => gap.is_none(),
        (Method::Crossout, None) => true,
        (Method::Crossout, Some(gap)) => return Err(crossout_refused(gap, req.explain)),
    };
    let at: Vec<usize> = req.at.clone().unwrap_or_default();
    let position = explain.then(|| position_at(&setup, &at)).transpose()?;
    ctl.admit(match use_crossout {
        true => costs::crossout(d.len()),
        // Every equilibrium too: a set of outcomes per state, a few times a value's work.
        false if req.all => costs::lattice(&setup).times(Work::count(4.0)),
        false => costs::exact(&setup, explain),
    })?;
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
        eating_order_rule: if use_crossout { "crossout" } else { "ties" },
        crossout_sequence: None,
        states: None,
        path_recovery: None,
        resolved_states: None,
        gpu: None,
        gpu_declined: None,
        outcomes: None,
        explanation: None,
        position: position.map(|p| PositionReport::new(&setup, &p)),
        dinner: None,
    };
    if use_crossout {
        let (eating, scores) = variants::crossout_under(&setup)?;
        if rules.altruism_matrix().is_some() {
            report.transformed = Some(dinner_rows(&variants::transformed(d, rules)?));
        }
        report.crossout_sequence = Some(eating.iter().rev().map(|b| b.morsel).collect());
        report.eating_order = bites(d, &eating);
        report.scores = scores;
    } else {
        let explain_after = explain.then_some(at.as_slice());
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
        // Within the request's memory budget, as the solve itself.
        let memory = u128::from(req.memory_gib) << 30;
        report.outcomes = Some(all_spe_scores_within(&setup, budget, memory, ctl)?);
    }
    report.dinner = Some(setup.dinner().clone());
    Ok(report)
}

/// `method: crossout` refused, naming the field that asks for more than crossout gives.
fn crossout_refused(gap: CrossoutGap, explain: bool) -> Error {
    match gap {
        CrossoutGap::Ties => Error::combination(
            "ties",
            "the crossout method uses the index tie rule; the exact method takes others",
        ),
        CrossoutGap::Explanation => Error::combination(
            if explain { "explain" } else { "at" },
            "explanations need the exact method",
        ),
        CrossoutGap::Rules => Error::combination(
            "method",
            "crossout does not cover a discount or a precedence; the exact method does",
        ),
        CrossoutGap::Players(k) => Error::combination(
            "method",
            format!("crossout is defined for two players; this dinner has {k}"),
        ),
    }
}

/// The plain game left after the bites `at` (when given), with the morsels left in the
/// dinner's numbering.
fn dinner_left(
    setup: Setup,
    at: &Option<Vec<usize>>,
) -> Result<(Setup, Option<Vec<usize>>), Error> {
    let Some(at) = at else {
        return Ok((setup, None));
    };
    let position = position_at(&setup, at)?;
    let (d, order) = position.rest(&setup).ok_or_else(|| {
        Error::invalid(
            "at",
            format!("{} morsels", at.len()),
            "every morsel is eaten; nothing is left to draw",
        )
    })?;
    Ok((Setup::ordered(d, order)?, Some(position.left().to_vec())))
}

/// The position after the bites `at` of a request, its errors naming the field.
fn position_at(setup: &Setup, at: &[usize]) -> Result<Position, Error> {
    setup.position(at).map_err(|e| {
        let n = setup.dinner().len();
        match e {
            DinnerError::NotOnPlate(m) if m >= n => Error::invalid(
                "at",
                m,
                format!("not a morsel index between 0 and {}", n - 1),
            ),
            DinnerError::NotOnPlate(m) => Error::invalid("at", m, "eaten twice"),
            e => e.into(),
        }
    })
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
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<String>")]
        strategies: String = "crossout".into(),
    }
}

/// Plays a strategy profile in `O(n log n)` at any size: when every player plays crossout
/// the play is the crossout eating order; in a mixed profile crossout's plan follows the
/// other players' bites.
pub fn play(req: &PlayRequest, ctl: &Control) -> Result<PlayReport, Error> {
    let setup = req.input().setup()?;
    ctl.admit(costs::crossout(setup.dinner().len()))?;
    let (d, order) = (setup.dinner(), setup.order());
    let strategies = parse_strategies(&req.strategies, d.players())?;
    let (eating, scores) =
        if strategies.iter().all(|&s| s == Strategy::Crossout) && d.players() == 2 {
            let eating: Vec<Bite> = crossout(&setup)?.eating().collect();
            let scores = setup.scoring().score(d, eating.iter().copied())?;
            (eating, scores)
        } else {
            let p = evaluate(&setup, &strategies)?;
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

dinner_request! {
    /// `dinner verify`: check a strategy profile for subgame perfection (one-shot
    /// deviations).
    VerifyRequest {
        /// One strategy per player in player order (greedy, competitive, cooperative,
        /// masochistic, crossout); one name applies to all.
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<String>")]
        strategies: String = "crossout".into(),
        /// Refuse state spaces larger than this.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// Checks a strategy profile for subgame perfection (one-shot deviations).
pub fn verify_profile(req: &VerifyRequest, ctl: &Control) -> Result<VerifyReport, Error> {
    let setup = req.input().setup()?;
    ctl.admit(costs::verify(&setup))?;
    let (d, order) = (setup.dinner(), setup.order());
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
    let game = DinnerGame::<i128>::new(&setup, false)?;
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

dinner_request! {
    /// `dinner efg`: the game tree in Gambit's .efg format.
    EfgRequest {
        /// Refuse trees with more nodes than this.
        #[schemars(extend("x-budget" = "states"))]
        max_nodes: u64 = 1_000_000,
    }
}

impl DiscountRequest {
    /// The discount factor, checked positive.
    pub(super) fn positive_discount(&self) -> Result<Exact, Error> {
        match self.discount > Exact::ZERO {
            true => Ok(self.discount),
            false => Err(Error::invalid(
                "discount",
                self.discount,
                "the discount factor must be positive",
            )),
        }
    }

    /// Whether a dinner is given (the search tries permutation dinners instead).
    pub(super) fn dinner_given(&self) -> bool {
        self.input().given()
    }
}

/// Exports the dinner's game tree for Gambit.
pub fn efg(req: &EfgRequest, ctl: &Control) -> Result<EfgReport, Error> {
    let setup = req.input().setup()?;
    ctl.admit(costs::tree(setup.dinner().len(), req.max_nodes))?;
    let (d, order) = (setup.dinner(), setup.order());
    let game = DinnerGame::<i128>::new(&setup, false)?;
    let title = format!(
        "Ethiopian Dinner, {} morsels, turn order {}",
        d.len(),
        order
    );
    let mut buf = Vec::new();
    write_efg(&game, &title, req.max_nodes.into(), &mut buf)?;
    Ok(EfgReport {
        title,
        efg: String::from_utf8(buf).expect("the writer writes UTF-8"),
    })
}

dinner_request! {
    /// `dinner discount`: is crossout still an equilibrium under a discount?
    DiscountRequest {
        /// The discount factor L (exact), e.g. `9/10`.
        #[schemars(extend("x-required" = true))]
        discount: Exact = Exact::integer(1),
        /// Search permutation dinners of sizes 1..=max_size for the smallest one where
        /// crossout is not an equilibrium.
        search: bool = false,
        /// Largest size searched.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 10))]
        max_size: usize = 7,
        /// Refuse state spaces larger than this.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// Checks crossout under a discount, or searches for the smallest dinner where it fails
/// (a sweep: [`DiscountSweep`]).
pub fn discount(req: &DiscountRequest, ctl: &Control) -> Result<DiscountReport, Error> {
    if req.search {
        return crate::api::sweep::run::<DiscountSweep>(req, ctl);
    }
    let l = req.positive_discount()?;
    let budget = Budget {
        max_states: req.max_states,
    };
    let plain = req.input().setup()?;
    // The check (every deviation, a pass each) and the exact solve.
    let n = plain.dinner().len().max(1) as f64;
    ctl.admit(costs::lattice(&plain).times(Work::count(1.4 * n)))?;
    let plain_eating: Vec<Bite> = crossout(&plain)?.eating().collect();
    let setup = plain.with_rules(Rules::default().with_discount(l)?)?;
    let (d, order) = (setup.dinner(), setup.order());
    let check = variants::discount_check(&setup, budget)?;
    let crossout_scores = setup.scoring().score(d, plain_eating.iter().copied())?;
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

dinner_request! {
    /// `dinner pareto`: Pareto efficiency of crossout, of one dinner or of every
    /// permutation dinner of a size.
    ParetoRequest {
        /// Check every permutation dinner of this size (Bob moving last) instead.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 12))]
        size: Option<usize> = None,
    }
}

/// The most random dinners one sweep draws (`trials`): the sweeps stream their trials,
/// so this bounds time, not memory.
pub const MAX_TRIALS: u64 = 1_000_000_000;

/// The most random dinners `dinner balance` draws per size.
pub const MAX_BALANCE_TRIALS: u64 = 1_000_000;

request! {
    /// `dinner experiment`: the paper's random experiment.
    ExperimentRequest {
        /// Morsels per dinner.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 24))]
        size: usize = 16,
        /// Number of random permutation dinners.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = MAX_TRIALS))]
        trials: u64 = 10_000,
        /// Seed of the random streams.
        #[schemars(extend("x-budget" = "none"))]
        seed: u64 = 1,
    }
}

request! {
    /// `dinner multiplicity`: how often random dinners with distinct utilities have more
    /// than one pure subgame perfect equilibrium outcome (the paper's "Three's a crowd").
    MultiplicityRequest {
        /// Players (2 to 6).
        #[schemars(extend("x-budget" = "range"), range(max = 6))]
        players: usize = 3,
        /// Morsels per dinner (1 to 24: every equilibrium is enumerated).
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 24))]
        size: usize = 8,
        /// Number of random dinners.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = MAX_TRIALS))]
        trials: u64 = 200,
        /// Seed of the random streams.
        #[schemars(extend("x-budget" = "none"))]
        seed: u64 = 3,
        /// Turn order: `snake`, `alternate` or letters.
        #[schemars(extend("x-open" = true))]
        order: String = "snake".into(),
    }
}

request! {
    /// `dinner attainable`: the Hopkins-Jones count of attainable sets.
    AttainableRequest {
        /// Size 2k of the permutation dinners (Bob moving last).
        #[schemars(extend("x-required" = true))]
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 24))]
        size: usize = 0,
    }
}

/// Counts the attainable sets.
pub fn attainable_sets(req: &AttainableRequest, ctl: &Control) -> Result<AttainableReport, Error> {
    if req.size == 0 || !req.size.is_multiple_of(2) || req.size > 24 {
        return Err(Error::invalid(
            "size",
            req.size,
            "the count is stated for even sizes 2k, 2..=24",
        ));
    }
    let k = (req.size / 2) as u64;
    ctl.admit(costs::attainable(req.size))?;
    Ok(AttainableReport {
        size: req.size,
        alice: attainable::attainable(req.size, 0, ctl)?,
        bob: attainable::attainable(req.size, 1, ctl)?,
        catalan_k: attainable::catalan(k) as u64,
        catalan_k_plus_1: attainable::catalan(k + 1) as u64,
    })
}

dinner_request! {
    /// `dinner plot`: Figure 1, the outcomes of all strategy pairs.
    PlotRequest {
        /// Also draw the picture ([`PlotReport::svg`]).
        picture: bool = false,
        /// Plot the position after these morsels are eaten (indices from 0): the morsels
        /// left, numbered from 0 among themselves, with the turns left.
        #[schemars(extend("x-budget" = "none"))]
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<usize>>")]
        at: Option<Vec<usize>> = None,
    }
}

/// Computes Figure 1.
pub fn plot(req: &PlotRequest, ctl: &Control) -> Result<PlotReport, Error> {
    let (setup, left) = dinner_left(req.input().setup()?, &req.at)?;
    let (d, order) = (setup.dinner(), setup.order());
    ctl.admit(costs::strategy_pairs(d.len()))?;
    let o = figures::outcomes(&setup, Budget::default())?;
    let pair = |&(x, y): &(i128, i128)| [d.unscale(x), d.unscale(y)];
    Ok(PlotReport {
        turn_order: order.to_string(),
        all: o.all.iter().map(pair).collect(),
        against_crossout: o.against_crossout.iter().map(pair).collect(),
        crossout: pair(&o.crossout),
        left,
        svg: req
            .picture
            .then(|| figures::outcome_chart(d, &o).to_svg(720.0, 600.0)),
    })
}

dinner_request! {
    /// `dinner board`: the crossout board (Figures 2, 4, 5).
    BoardRequest {
        /// Label the order of play instead of the crossout sequence (Figure 4).
        play_order: bool = false,
        /// Also draw the board of D - m, m (an index) eaten first (Figure 2, right).
        #[schemars(extend("x-budget" = "none"))]
        remove: Option<usize> = None,
        /// Draw the board of the transformed dinner D' for these altruism payoffs.
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        altruism: Option<Vec<Exact>> = None,
        /// Also draw the picture ([`BoardReport::svg`]).
        picture: bool = false,
        /// Draw the position after these morsels are eaten (indices from 0): the morsels
        /// left, numbered from 0 among themselves, with the turns left.
        #[schemars(extend("x-budget" = "none"))]
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<usize>>")]
        at: Option<Vec<usize>> = None,
    }
}

/// The crossout board.
pub fn board(req: &BoardRequest, ctl: &Control) -> Result<BoardReport, Error> {
    let (plain, left) = dinner_left(req.input().setup()?, &req.at)?;
    ctl.admit(costs::board(plain.dinner().len(), req.picture))?;
    let (setup, name) = match &req.altruism {
        Some(altruism) => {
            let rules = rules_of(plain.dinner(), None, None, Some(altruism))?;
            let order = plain.order().clone();
            let transformed = variants::transformed(plain.dinner(), &rules)?;
            (Setup::ordered(transformed, order)?, "D'")
        }
        None => (plain, "D"),
    };
    let (d, order) = (setup.dinner(), setup.order());
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
    let c = crossout(&setup)?;
    let scores = c.scores.iter().map(|&s| d.unscale(s)).collect();
    let svg = if req.picture {
        Some(figures::board_svg(
            &setup,
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
        dinner: dinner_rows(d),
        crossout_sequence: c.sequence().collect(),
        scores,
        left,
        svg,
    })
}

tree_request!(dinner_request! {
    /// `dinner tree`: the game tree of a small dinner drawn, with its subgame perfect
    /// equilibrium.
    TreeRequest {
        /// `index` (earlier morsel counts as tastier: the path `dinner solve --method
        /// exact` eats) or the engine's friendly|antagonistic|first|last, for all players
        /// or per player (`A=friendly,B=antagonistic`); `first` prefers the
        /// lower-numbered morsel.
        #[schemars(extend("x-open" = true))]
        ties: String = "index".into(),
        /// Refuse dinners with more states (subsets of morsels) than this.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
});

/// Draws the game tree of a small dinner: the exact equilibrium under the engine's tie
/// rules, unfolded and drawn by [`crate::api::drawing`].
///
/// ```
/// use lastbite::api::{dinner, Control};
/// let req = dinner::TreeRequest { morsels: Some(dinner::Morsels::Text("1,2 2,3 3,1".into())), order: Some("ABA".into()), ..Default::default() };
/// let r = dinner::tree(&req, &Control::silent()).unwrap();
/// assert_eq!((r.drawn_nodes, r.value.clone()), (16, vec!["5".to_string(), "2".to_string()]));
/// ```
pub fn tree(req: &TreeRequest, ctl: &Control) -> Result<TreeReport, Error> {
    let fields = TreeFields::new(req.horizontal, req.values, req.spe, req.draw_nodes)?;
    let setup = req.input().setup()?;
    let (d, order) = (setup.dinner(), setup.order());
    let ties = DinnerTies::parse(&req.ties, d.players())
        .map_err(|e| Error::invalid("ties", &req.ties, e))?;
    let budget = Budget {
        max_states: req.max_states,
    };
    // The index rule is the engine's `first` on perturbed payoffs, as in `dinner solve`;
    // the drawn values are the real ones (the game's payoff text undoes the perturbation).
    ctl.admit(costs::engine(&setup).plus(costs::drawn(req.draw_nodes)))?;
    let game = DinnerGame::<i128>::new(&setup, ties == DinnerTies::Index)?;
    ctl.check()?;
    let sol = crate::engine::solve(&game, &ties.for_engine(d.players()), budget)?;
    let title = format!(
        "Ethiopian Dinner, {} morsels, turn order {}",
        d.len(),
        order
    );
    crate::api::drawing::draw(&sol, &fields, budget, &title, &ties.describe())
}

request! {
    /// `dinner balance`: first-mover advantage under alternation and Thue-Morse order.
    BalanceRequest {
        /// Largest number of morsels.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 100_000))]
        max_size: usize = 32,
        /// Random permutation dinners per size.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = MAX_BALANCE_TRIALS))]
        trials: u64 = 1000,
        /// Seed of the random streams.
        #[schemars(extend("x-budget" = "none"))]
        seed: u64 = 1,
        /// Also draw the picture ([`BalanceReport::svg`]).
        picture: bool = false,
    }
}
