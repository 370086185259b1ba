//! The dinner as a picking sequence (fair division): `dinner sincere`, `dinner
//! manipulate`, `dinner fairness`, `dinner expected` and `dinner best-order`. The work
//! is [`crate::games::dinner::picking`]'s; here requests become its validated inputs and
//! its results reports.

use super::input::{dinner_request, First, Morsels};
use super::report::{
    bites, BestOrderReport, BiteReport, ExpectedReport, FairnessFailures, FairnessReport,
    ManipulateReport, MechanismFairness, RankedOrder, SincereReport, WelfareRow,
};
use super::{costs, MAX_TRIALS};
use crate::api::cost::{Estimate, Work};
use crate::api::input::{request, Letter};
use crate::api::sweep::{self, Sweep};
use crate::api::{Control, Error};
use crate::engine::{Budget, Player};
use crate::games::dinner::picking::expected::{best_below, best_pieces, Best, Play};
use crate::games::dinner::picking::mechanisms::{self, Allocation, Failures, Trials};
use crate::games::dinner::picking::profiles::{expectation, values, ProfilesError, Routes};
use crate::games::dinner::picking::welfare::compare;
use crate::games::dinner::picking::Welfare;
use crate::games::dinner::picking::{manipulate as best_response, sincere as play};
use crate::games::dinner::{all_spe_scores_within, Dinner, TurnOrder, DEFAULT_DINNER_MEMORY_GIB};
use crate::rational::Rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

dinner_request! {
    /// `dinner sincere`: every agent takes its favourite morsel left (the earlier one
    /// among equal utilities).
    SincereRequest {
        /// Also compare with every pure SPE outcome and the welfare optimum
        /// (utilitarian, egalitarian, Nash): the prices of anarchy and stability. The
        /// SPE outcomes need the exact solver (small dinners).
        compare: bool = false,
        /// Refuse more states (the SPE solver's) or allocations (the optimum's
        /// enumeration) than this.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
        /// Memory budget of the equilibrium sets `compare` holds, in GiB.
        #[schemars(extend("x-budget" = "memory"))]
        memory_gib: u64 = DEFAULT_DINNER_MEMORY_GIB,
    }
}

/// Sincere play, and with `compare` its welfare against strategic play and the optimum.
pub fn sincere(req: &SincereRequest, ctl: &Control) -> Result<SincereReport, Error> {
    let setup = req.input().setup()?;
    let (d, order) = (setup.dinner(), setup.order());
    ctl.admit(match req.compare {
        // Every equilibrium, and each welfare's optimum over the lattice.
        true => costs::lattice(&setup).times(Work::count(8.0)),
        false => costs::crossout(d.len()),
    })?;
    let eating = play(&setup)?;
    let scores = setup.scoring().score(d, eating.iter().copied())?;
    let budget = Budget {
        max_states: req.max_states,
    };
    let (spe_outcomes, welfare) = if req.compare {
        let outcomes =
            all_spe_scores_within(&setup, budget, u128::from(req.memory_gib) << 30, ctl)?;
        let rows = compare(d, order, &scores, &outcomes, budget)?;
        let rows = rows.into_iter().map(WelfareRow::from).collect();
        (Some(outcomes), Some(rows))
    } else {
        (None, None)
    };
    Ok(SincereReport {
        players: d.players(),
        morsels: d.len(),
        turn_order: order.to_string(),
        scores,
        eating_order: bites(d, &eating),
        spe_outcomes,
        welfare,
        dinner: (d.len() <= 60).then(|| d.clone()),
    })
}

dinner_request! {
    /// `dinner manipulate`: one agent's best play against sincere others.
    ManipulateRequest {
        /// The manipulator, a player's letter (`A`, `B`, ...).
        agent: String = "A".into(),
        /// Refuse to memoise more sets of morsels left than this (the search, three or
        /// more agents).
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// The manipulator's best play, its gain over sincere play, and its picks.
pub fn manipulate(req: &ManipulateRequest, ctl: &Control) -> Result<ManipulateReport, Error> {
    let setup = req.input().setup()?;
    // A best response by dynamic programming over the agent's turns: polynomial.
    ctl.admit(costs::pareto_one(setup.dinner().len()))?;
    let (d, order) = (setup.dinner(), setup.order());
    let agent = agent_of(&req.agent, d.players())?;
    let budget = Budget {
        max_states: req.max_states,
    };
    let m = best_response(&setup, agent, budget)?;
    let sincere_play = play(&setup)?;
    let sincere = setup.scoring().score(d, sincere_play.iter().copied())?[agent];
    let score = d.unscale(m.score);
    // With nothing to gain, sincere play is a best play: report it, not another of the
    // same score.
    let played = if score == sincere {
        &sincere_play
    } else {
        &m.eating
    };
    let eating: Vec<BiteReport> = bites(d, played);
    Ok(ManipulateReport {
        turn_order: order.to_string(),
        agent: Letter(agent),
        score,
        sincere_score: sincere,
        gain: score - sincere,
        picks: played
            .iter()
            .filter(|b| b.player == agent)
            .map(|b| b.morsel)
            .collect(),
        eating_order: eating,
        method: if d.players() == 2 { "greedy" } else { "search" },
        states: (d.players() > 2).then_some(m.states),
    })
}

fn agent_of(text: &str, players: usize) -> Result<Player, Error> {
    let t = text.trim();
    let last = char::from(b'A' + players.min(26) as u8 - 1);
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            let p = (c.to_ascii_uppercase() as u8 - b'A') as usize;
            if p < players {
                return Ok(p);
            }
        }
        _ => {}
    }
    Err(Error::invalid(
        "agent",
        t,
        format!("not a player of this dinner (A..{last})"),
    ))
}

dinner_request! {
    /// `dinner fairness`: envy-freeness, EF1, proportionality and maximin shares of the
    /// sincere and the equilibrium allocation, of one dinner or (`trials`) of random
    /// permutation dinners.
    FairnessRequest {
        /// Instead of one dinner: this many random permutation dinners (each agent ranks
        /// the morsels by an independent random permutation of 1..=size).
        #[schemars(extend("x-budget" = "max_seconds"), range(max = MAX_TRIALS))]
        trials: Option<u64> = None,
        /// Morsels of each random dinner.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = 24))]
        #[schemars(extend("x-requires" = "trials"))]
        size: usize = 8,
        /// Agents of each random dinner.
        #[schemars(extend("x-budget" = "range"), range(max = 6))]
        #[schemars(extend("x-requires" = "trials"))]
        players: usize = 2,
        /// Seed of the random dinners.
        #[schemars(extend("x-budget" = "none"))]
        #[schemars(extend("x-requires" = "trials"))]
        seed: u64 = 1,
        /// Refuse more states (the equilibrium) or maximin-share nodes (an agent) than
        /// this; a share past it is reported as null.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
        /// Also every subgame-perfect equilibrium allocation, not only the one `dinner
        /// solve` plays (the engine's all-outcomes rule: small dinners).
        every_spe: bool = false,
    }
}

/// Fairness of the sincere and the equilibrium allocations, of one dinner or (`trials`)
/// of random dinners ([`FairnessSweep`]).
pub fn fairness(req: &FairnessRequest, ctl: &Control) -> Result<FairnessReport, Error> {
    if req.trials.is_some() {
        return sweep::run::<FairnessSweep>(req, ctl);
    }
    let budget = Budget {
        max_states: req.max_states,
    };
    let setup = req.input().setup()?;
    // The mechanisms' allocations (an equilibrium over the lattice) and every agent's
    // maximin share (a search over the partitions).
    let every = if req.every_spe { 4.0 } else { 1.0 };
    ctl.admit(costs::lattice(&setup).times(Work::count(every)))?;
    let report = |a: Vec<Allocation>| -> Vec<MechanismFairness> {
        let d = setup.dinner();
        a.into_iter()
            .map(|a| MechanismFairness::new(d, a))
            .collect()
    };
    let every_spe = match req.every_spe {
        true => Some(report(mechanisms::every_spe(&setup, budget, ctl)?)),
        false => None,
    };
    Ok(FairnessReport {
        turn_order: setup.order().to_string(),
        mechanisms: Some(report(mechanisms::mechanisms(&setup, budget, ctl)?)),
        every_spe,
        trials: None,
        failures: None,
    })
}

/// `dinner fairness --trials` as a sweep: one item a random dinner.
pub struct FairnessSweep;

/// The failures counted over some trials: per mechanism, dinners failing envy-freeness,
/// EF1, proportionality and the maximin share.
#[derive(Default, Serialize, Deserialize)]
pub struct FairnessPartial {
    trials: u64,
    counts: Vec<[u64; 4]>,
}

impl FairnessSweep {
    fn trials_of(req: &FairnessRequest, trials: u64) -> Trials<'_> {
        Trials {
            players: req.players,
            size: req.size,
            order: req.order.as_deref(),
            trials,
            seed: req.seed,
            every_spe: req.every_spe,
        }
    }
}

impl Sweep for FairnessSweep {
    const COMMAND: &'static str = "dinner-fairness";
    type Request = FairnessRequest;
    type Plan = u64;
    type Partial = FairnessPartial;
    type Report = FairnessReport;

    fn plan(req: &FairnessRequest) -> Result<u64, Error> {
        let Some(trials) = req.trials else {
            return Err(Error::Missing {
                field: "trials",
                what: "how many random dinners",
                hint: "a sweep covers random dinners; one dinner is not a sweep".into(),
            });
        };
        if req.input().given() {
            return Err(Error::combination(
                "trials",
                "draws its own random dinners; give a dinner or trials, not both",
            ));
        }
        if !(1..=MAX_TRIALS).contains(&trials) {
            return Err(Error::invalid(
                "trials",
                trials,
                format!("use 1..={MAX_TRIALS}"),
            ));
        }
        if !(1..=24).contains(&req.size) {
            return Err(Error::invalid("size", req.size, "use 1..=24 morsels"));
        }
        if !(2..=6).contains(&req.players) {
            return Err(Error::invalid("players", req.players, "use 2..=6 players"));
        }
        // The order's text is checked on the dinners' size before any trial.
        mechanisms::turn_order(&Self::trials_of(req, trials))?;
        Ok(trials)
    }
    fn items(trials: &u64) -> u64 {
        *trials
    }
    fn cost(req: &FairnessRequest, trials: &u64) -> Estimate {
        costs::random_fairness(*trials, req.size, req.players, req.every_spe)
    }
    fn item(
        req: &FairnessRequest,
        trials: &u64,
        t: u64,
        ctl: &Control,
    ) -> Result<FairnessPartial, Error> {
        let budget = Budget {
            max_states: req.max_states,
        };
        let fails = mechanisms::trial_failures(&Self::trials_of(req, *trials), t, budget, ctl)?;
        Ok(FairnessPartial {
            trials: 1,
            counts: fails.iter().map(|f| f.map(u64::from)).collect(),
        })
    }
    fn merge(into: &mut FairnessPartial, other: FairnessPartial) {
        into.trials += other.trials;
        if into.counts.len() < other.counts.len() {
            into.counts.resize(other.counts.len(), [0; 4]);
        }
        for (a, b) in into.counts.iter_mut().zip(other.counts) {
            for (x, y) in a.iter_mut().zip(b) {
                *x = x.saturating_add(y);
            }
        }
    }
    fn check(req: &FairnessRequest, trials: &u64, all: &FairnessPartial) -> Result<(), String> {
        sweep::check_count("trials", all.trials, *trials)?;
        let names = mechanisms::mechanism_names(&Self::trials_of(req, *trials));
        sweep::check_count("counts.length", all.counts.len() as u64, names.len() as u64)?;
        if all.counts.iter().flatten().any(|&c| c > *trials) {
            return Err("counts: more failing dinners than trials".into());
        }
        Ok(())
    }
    fn report(
        req: &FairnessRequest,
        trials: &u64,
        all: FairnessPartial,
        _ctl: &Control,
    ) -> Result<FairnessReport, Error> {
        let t = Self::trials_of(req, *trials);
        let failures = mechanisms::mechanism_names(&t)
            .into_iter()
            .zip(all.counts)
            .map(|(mechanism, counts)| FairnessFailures::from(Failures { mechanism, counts }))
            .collect();
        Ok(FairnessReport {
            turn_order: mechanisms::turn_order(&t)?,
            mechanisms: None,
            every_spe: None,
            trials: Some(*trials),
            failures: Some(failures),
        })
    }
}

/// The most random profiles `dinner expected` draws (`samples`).
pub const MAX_SAMPLES: u64 = 100_000_000;

/// The default of `dinner expected`'s `max_items`: a few seconds of work.
pub const DEFAULT_MAX_ITEMS: usize = 200;

request! {
    /// `dinner expected`: each agent's expected score and the expected welfare of a
    /// picking sequence under impartial culture (independent uniformly random rankings).
    ExpectedRequest {
        /// The picking sequence: letters (`ABBA`, `AB...` repeats), `alternate`,
        /// `snake` or `thue-morse`.
        #[schemars(extend("x-open" = true))]
        order: String = "alternate".into(),
        /// Number of items (morsels); `items` is the older spelling.
        #[serde(alias = "items")]
        #[schemars(extend("x-budget" = "max_items", "x-aliases" = ["items"]))]
        size: usize = 10,
        /// Number of agents.
        #[schemars(extend("x-budget" = "range"), range(max = 6))]
        players: usize = 2,
        /// What the item ranked r-th is worth: `borda` (m - r + 1), `lexicographic`
        /// (2^-r), or a scoring vector `"s1,s2,...,sm"` (exact, best first).
        #[schemars(extend("x-open" = true))]
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<crate::number::exact::Exact>")]
        model: String = "borda".into(),
        /// `utilitarian`, `egalitarian` or `nash`.
        welfare: Welfare = Welfare::Utilitarian,
        /// `sincere` or `strategic` (the subgame-perfect equilibrium; ties between equal
        /// values broken by the agent's ranking; two agents: exact by the reversal at any
        /// size).
        play: Play = Play::Sincere,
        /// Refuse more items than this: the exact programs take `O(items^3)` operations
        /// on exact rationals (100 items about half a second, 300 about 80 s).
        #[schemars(extend("x-budget" = "budget"))]
        max_items: usize = DEFAULT_MAX_ITEMS,
        /// Refuse to average over more profiles of rankings than this (every route but
        /// the two-agent utilitarian one enumerates them).
        #[schemars(extend("x-budget" = "budget"))]
        max_profiles: u64 = 1_000_000,
        /// Beyond `max_profiles` (where no exact route applies), estimate from this many
        /// random profiles, with 95% confidence intervals.
        #[schemars(extend("x-budget" = "max_seconds"), range(max = MAX_SAMPLES))]
        samples: Option<u64> = None,
        /// Seed of the sampled profiles.
        #[schemars(extend("x-budget" = "none"))]
        seed: u64 = 1,
        /// Average over the profiles (every one, or `samples`) even where a program
        /// applies: a second route to the same number.
        enumerate: bool = false,
    }
}

/// Expected scores and welfare of a picking sequence.
pub fn expected(req: &ExpectedRequest, ctl: &Control) -> Result<ExpectedReport, Error> {
    use crate::rational::Rational;
    let (m, k) = (req.size, req.players);
    if m > req.max_items {
        return Err(Error::over_budget(
            "max_items",
            format!(
                "{m} items are over this budget of {}: the exact programs take O(items^3) operations on exact rationals (300 items about 80 s); raise it to run them",
                req.max_items
            ),
        ));
    }
    if m == 0 || m > 1000 {
        return Err(Error::invalid("size", m, "use 1..=1000"));
    }
    if let Some(s) = req.samples.filter(|&s| s > MAX_SAMPLES) {
        return Err(Error::invalid(
            "samples",
            s,
            format!("use 1..={MAX_SAMPLES}"),
        ));
    }
    if !(1..=6).contains(&k) {
        return Err(Error::invalid("players", k, "use 1..=6"));
    }
    let blank = Dinner::from_integers(k, vec![0; m * k])?;
    let order = TurnOrder::parse(&req.order, &blank)?;
    ctl.admit(costs::expected(&costs::ExpectedShape {
        size: req.size,
        players: req.players,
        enumerate: req.enumerate,
        max_profiles: req.max_profiles,
        samples: req.samples,
        strategic: req.play == Play::Strategic,
    }))?;
    let (welfare, how) = (req.welfare, req.play);
    let values = values(&req.model, m).map_err(|e| profiles_error(e, &req.model, m))?;
    let routes = Routes {
        enumerate: req.enumerate,
        max_profiles: req.max_profiles,
        samples: req.samples,
        seed: req.seed,
    };
    let found = expectation(&order, &values, welfare, how, &routes, ctl)
        .map_err(|e| profiles_error(e, &req.model, m))?;
    let sampled = found.sampled;
    Ok(ExpectedReport {
        turn_order: order.to_string(),
        model: req.model.trim().to_string(),
        play: how.name(),
        welfare: welfare.name(),
        expected_scores: found.scores.into_iter().map(Rational::from_big).collect(),
        expected_welfare: Rational::from_big(found.welfare),
        method: found.method,
        profiles: found.profiles,
        samples: sampled.as_ref().map(|s| s.samples),
        confidence_95: sampled.as_ref().map(|s| s.scores.clone()),
        welfare_confidence_95: sampled.map(|s| s.welfare),
    })
}

/// An expectation's error, named by the request field it comes from.
fn profiles_error(e: ProfilesError, model: &str, items: usize) -> Error {
    match e {
        ProfilesError::Dinner(d) => Error::from(d),
        ProfilesError::TooManyProfiles { .. } => Error::invalid("size", items, e.to_string()),
        ProfilesError::NoSamples => Error::invalid("samples", 0, e.to_string()),
        ProfilesError::Model(_)
        | ProfilesError::ModelLength { .. }
        | ProfilesError::ModelTooWide
        | ProfilesError::ModelTooFarApart => Error::invalid("model", model, e.to_string()),
    }
}

request! {
    /// `dinner best-order`: the picking sequence with the greatest expected welfare
    /// under impartial culture (two agents, utilitarian welfare, sincere or strategic
    /// play: exact).
    BestOrderRequest {
        /// Number of items (morsels); `items` is the older spelling.
        #[serde(alias = "items")]
        #[schemars(extend("x-budget" = "max_seconds", "x-aliases" = ["items"]), range(max = 24))]
        size: usize = 8,
        /// Number of agents (two).
        #[schemars(extend("x-budget" = "range"), range(max = 2))]
        players: usize = 2,
        /// Each agent's number of turns, e.g. `[4, 4]`; absent: every sequence of
        /// `size` turns.
        #[schemars(extend("x-budget" = "none"))]
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<usize>>")]
        counts: Option<Vec<usize>> = None,
        /// `borda`, `lexicographic` or a scoring vector (as `dinner expected`).
        #[schemars(extend("x-open" = true))]
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<crate::number::exact::Exact>")]
        model: String = "borda".into(),
        /// `utilitarian` (the measure the program computes).
        #[schemars(with = "UtilitarianOnly")]
        welfare: Welfare = Welfare::Utilitarian,
        /// `sincere` or `strategic`.
        play: Play = Play::Sincere,
    }
}

/// The schema of best-order's `welfare`: the one value its program computes (the request
/// reads any [`Welfare`] and refuses the others by name).
struct UtilitarianOnly;

impl schemars::JsonSchema for UtilitarianOnly {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "UtilitarianWelfare".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "oneOf": [{"const": "utilitarian", "x-aliases": []}]})
    }
}

/// The best sequence, every sequence tied with it, and the runner-up ([`BestOrderSweep`]).
pub fn best_order(req: &BestOrderRequest, ctl: &Control) -> Result<BestOrderReport, Error> {
    sweep::run::<BestOrderSweep>(req, ctl)
}

/// The turns of each sequence's prefix that cut `dinner best-order`'s walk into items:
/// `2^8` prefixes a split, a few thousand items at 24 items (each a millisecond to
/// seconds).
const PREFIX_TURNS: usize = 8;

/// `dinner best-order` as a sweep: one item a piece of the walk over sequences (a split
/// of the items between the agents and a prefix of its first turns, [`best_pieces`]).
pub struct BestOrderSweep;

/// The request checked: the model's scores, the split asked and the pieces.
pub struct BestOrderPlan {
    scores: Vec<BigRational>,
    counts: Option<[usize; 2]>,
    pieces: Vec<([usize; 2], Vec<u8>)>,
}

/// The best sequences of some pieces. Read back from a shard document it is parsed
/// (ratios with positive denominators, sequences of `A` and `B`) before it is merged.
#[derive(Default, Clone, Serialize, Deserialize)]
#[serde(try_from = "BestDoc", into = "BestDoc")]
pub struct BestOrderPartial(Best);

/// [`BestOrderPartial`] as a shard document holds it: ratios as numerator and denominator,
/// sequences as text.
#[derive(Serialize, Deserialize)]
struct BestDoc {
    welfare: (BigInt, BigInt),
    tied: Vec<String>,
    tied_count: u64,
    runner_up: Option<(String, (BigInt, BigInt))>,
    seen: u64,
}

fn order_text(t: &[u8]) -> String {
    t.iter().map(|&p| char::from(b'A' + p)).collect()
}

impl From<BestOrderPartial> for BestDoc {
    fn from(BestOrderPartial(b): BestOrderPartial) -> BestDoc {
        let ratio = |r: &BigRational| (r.numer().clone(), r.denom().clone());
        BestDoc {
            welfare: ratio(&b.welfare),
            tied: b.tied.iter().map(|t| order_text(t)).collect(),
            tied_count: b.tied_count,
            runner_up: b.runner_up.as_ref().map(|(t, w)| (order_text(t), ratio(w))),
            seen: b.seen,
        }
    }
}

impl TryFrom<BestDoc> for BestOrderPartial {
    type Error = String;
    fn try_from(d: BestDoc) -> Result<BestOrderPartial, String> {
        let ratio = |(n, q): (BigInt, BigInt)| match q.sign() {
            num_bigint::Sign::Plus => Ok(BigRational::new(n, q)),
            _ => Err(format!("a ratio with denominator {q}")),
        };
        let order = |t: String| {
            t.bytes()
                .map(|c| match c {
                    b'A' | b'B' => Ok(c - b'A'),
                    _ => Err(format!("{t:?} is not a sequence of A and B")),
                })
                .collect::<Result<Vec<u8>, String>>()
        };
        if d.seen > 0 && d.tied.is_empty() {
            return Err(format!(
                "{} sequences seen and none listed as the best",
                d.seen
            ));
        }
        Ok(BestOrderPartial(Best {
            welfare: ratio(d.welfare)?,
            tied: d.tied.into_iter().map(order).collect::<Result<_, _>>()?,
            tied_count: d.tied_count,
            runner_up: match d.runner_up {
                Some((t, w)) => Some((order(t)?, ratio(w)?)),
                None => None,
            },
            seen: d.seen,
        }))
    }
}

impl Sweep for BestOrderSweep {
    const COMMAND: &'static str = "dinner-best-order";
    type Request = BestOrderRequest;
    type Plan = BestOrderPlan;
    type Partial = BestOrderPartial;
    type Report = BestOrderReport;

    fn plan(req: &BestOrderRequest) -> Result<BestOrderPlan, Error> {
        let m = req.size;
        if m == 0 || m > 24 {
            return Err(Error::invalid(
                "size",
                m,
                "use 1..=24 (every sequence is compared)",
            ));
        }
        if req.players != 2 {
            return Err(Error::invalid(
                "players",
                req.players,
                "the expected welfare of every sequence is computed for two agents",
            ));
        }
        if req.welfare != Welfare::Utilitarian {
            return Err(Error::invalid(
                "welfare",
                req.welfare.name(),
                "the search over sequences ranks by utilitarian welfare (dinner expected gives the others for one sequence)",
            ));
        }
        let scores = values(&req.model, m).map_err(|e| profiles_error(e, &req.model, m))?;
        let counts = match &req.counts {
            Some(c) if c.len() == 2 && c[0] + c[1] == m => Some([c[0], c[1]]),
            Some(c) => {
                return Err(Error::invalid(
                    "counts",
                    format!("{c:?}"),
                    format!("two counts that add up to the {m} items"),
                ))
            }
            None => None,
        };
        Ok(BestOrderPlan {
            scores,
            counts,
            pieces: best_pieces(m, counts, PREFIX_TURNS),
        })
    }
    fn items(plan: &BestOrderPlan) -> u64 {
        plan.pieces.len() as u64
    }
    fn cost(req: &BestOrderRequest, _plan: &BestOrderPlan) -> Estimate {
        costs::sequences(req.size, req.counts.is_some())
    }
    fn weight(_req: &BestOrderRequest, plan: &BestOrderPlan, item: u64) -> f64 {
        // The sequences below the piece's prefix: C(turns left, A's turns left).
        let (split, prefix) = &plan.pieces[item as usize];
        let left = plan.scores.len() - prefix.len();
        let a = split[0] - prefix.iter().filter(|&&p| p == 0).count();
        (0..a).fold(1.0, |c, i| c * (left - i) as f64 / (i + 1) as f64)
    }
    fn item(
        req: &BestOrderRequest,
        plan: &BestOrderPlan,
        item: u64,
        ctl: &Control,
    ) -> Result<BestOrderPartial, Error> {
        let (split, prefix) = &plan.pieces[item as usize];
        best_below(*split, prefix, &plan.scores, req.play, ctl)
            .map(BestOrderPartial)
            .ok_or(Error::Cancelled)
    }
    fn merge(into: &mut BestOrderPartial, other: BestOrderPartial) {
        into.0 = std::mem::take(&mut into.0).merge(other.0);
    }
    fn check(
        _req: &BestOrderRequest,
        plan: &BestOrderPlan,
        all: &BestOrderPartial,
    ) -> Result<(), String> {
        let m = plan.scores.len();
        let b = &all.0;
        let splits: Vec<usize> = match plan.counts {
            Some([a, _]) => vec![a],
            None => (0..=m).collect(),
        };
        let choose = |a: usize| (0..a).fold(1u64, |c, i| c * (m - i) as u64 / (i + 1) as u64);
        sweep::check_count("seen", b.seen, splits.iter().map(|&a| choose(a)).sum())?;
        if b.tied.is_empty() || b.tied_count < b.tied.len() as u64 || b.tied_count > b.seen {
            return Err(format!(
                "tied_count: {} sequences tied, {} listed, of {} seen",
                b.tied_count,
                b.tied.len(),
                b.seen
            ));
        }
        let sequences = b.tied.iter().chain(b.runner_up.iter().map(|r| &r.0));
        for (k, t) in sequences.enumerate() {
            let a = t.iter().filter(|&&p| p == 0).count();
            if t.len() != m || !splits.contains(&a) {
                return Err(format!(
                    "tied[{k}]: {} is not a sequence the request compares",
                    order_text(t)
                ));
            }
        }
        if b.tied.windows(2).any(|w| w[0] >= w[1]) {
            return Err("tied: not in A < B order, or a sequence twice".into());
        }
        if b.runner_up.as_ref().is_some_and(|r| r.1 >= b.welfare) {
            return Err("runner_up: not worse than the best".into());
        }
        Ok(())
    }
    fn report(
        req: &BestOrderRequest,
        _plan: &BestOrderPlan,
        all: BestOrderPartial,
        _ctl: &Control,
    ) -> Result<BestOrderReport, Error> {
        let found = all.0;
        let tied: Vec<String> = found.tied.iter().map(|t| order_text(t)).collect();
        let runner_up = found.runner_up.as_ref().map(|(t, w)| RankedOrder {
            order: order_text(t),
            expected_welfare: Rational::from_big(w.clone()),
        });
        Ok(BestOrderReport {
            size: req.size,
            counts: req.counts.clone(),
            model: req.model.trim().to_string(),
            play: req.play.name(),
            welfare: "utilitarian",
            order: tied[0].clone(),
            expected_welfare: Rational::from_big(found.welfare),
            tied,
            tied_count: found.tied_count,
            runner_up,
            sequences: found.seen,
        })
    }
}

crate::api::input::closed_set!(Welfare, "Welfare", ["utilitarian", "egalitarian", "nash"]);
crate::api::input::closed_set!(Play, "Play", ["sincere", "strategic" | "spe"]);
