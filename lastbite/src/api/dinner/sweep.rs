//! The `dinner` commands that run as sweeps (`pareto` over every permutation dinner,
//! `experiment`, `multiplicity`, `balance`, the `discount` search): each a [`Sweep`] of independent items, and the
//! command itself as the one-shard case.

use super::costs;
use super::report::{
    deviation_report, dinner_rows, perm, BalanceReport, BalanceRow, DiscountReport,
    DiscountSearchReport, ExperimentReport, MultiplicityReport, OutcomeCount, ParetoOneReport,
    ParetoReport, ParetoSweepReport,
};
use super::{
    BalanceRequest, DiscountRequest, ExperimentRequest, MultiplicityRequest, ParetoRequest,
    MAX_BALANCE_TRIALS, MAX_TRIALS,
};
use crate::api::cost::{Estimate, Work};
use crate::api::sweep::{self, Sweep};
use crate::api::{Control, Error};
use crate::engine::{Budget, CancelOnly};
use crate::exact::Exact;
use crate::games::dinner::analysis::variants::{
    discount_piece, discount_piece_len, discount_pieces, discounted,
};
use crate::games::dinner::analysis::{balance, pareto};
use crate::games::dinner::{random_spe_outcomes, Dinner, TurnOrder};
use serde::{Deserialize, Serialize};

/// Pareto efficiency of crossout.
pub fn pareto(req: &ParetoRequest, ctl: &Control) -> Result<ParetoReport, Error> {
    if req.size.is_some() {
        return sweep::run::<ParetoSweep>(req, ctl);
    }
    let setup = req.input().setup()?;
    let (d, order) = (setup.dinner(), setup.order());
    ctl.admit(costs::pareto_one(d.len()))?;
    let e = pareto::efficiency(&setup)?;
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
    fn cost(_req: &ParetoRequest, n: &usize) -> Estimate {
        costs::pareto_sweep(*n)
    }
    fn item(
        _req: &ParetoRequest,
        n: &usize,
        item: u64,
        _ctl: &Control,
    ) -> Result<ParetoPartial, Error> {
        Ok(ParetoPartial(vec![(item, pareto::sweep_chunk(*n, item))]))
    }
    fn merge(into: &mut ParetoPartial, other: ParetoPartial) {
        sweep::append_ordered(&mut into.0, other.0, |c| c.0);
    }
    fn check(_req: &ParetoRequest, n: &usize, all: &ParetoPartial) -> Result<(), String> {
        sweep::check_every_item(&all.0, Self::items(n), |c| c.0)?;
        for (k, (_, (a, b))) in all.0.iter().enumerate() {
            let morsels = 1..=*n as i64;
            if let Some(p) = a
                .iter()
                .chain(b)
                .find(|p| p.len() != *n || p.iter().any(|v| !morsels.contains(v)))
            {
                return Err(format!(
                    "[{k}][1]: {p:?} is not a permutation dinner of {n} morsels"
                ));
            }
        }
        Ok(())
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
        trials_in(req.trials, MAX_TRIALS)?;
        Ok(req.trials)
    }
    fn items(trials: &u64) -> u64 {
        *trials
    }
    fn cost(req: &ExperimentRequest, trials: &u64) -> Estimate {
        // Each dinner's crossout against the exchanges that could improve it: measured to
        // grow about as 2^(n/2) n.
        let n = req.size as f64;
        costs::trials(
            *trials,
            Work::pow2(n / 2.0).times(Work::count(0.11 * n.max(1.0))),
        )
    }
    fn item(
        req: &ExperimentRequest,
        _: &u64,
        t: u64,
        _ctl: &Control,
    ) -> Result<ExperimentPartial, Error> {
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
    fn check(_req: &ExperimentRequest, trials: &u64, e: &ExperimentPartial) -> Result<(), String> {
        sweep::check_count("trials", e.trials, *trials)?;
        if e.inefficient > e.trials || e.weakly_inefficient > e.trials {
            return Err("inefficient: more inefficient dinners than trials".into());
        }
        if let Some((_, t)) = e.max_improvement {
            sweep::check_item("max_improvement[1]", t, *trials)?;
        }
        Ok(())
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
            max_improvement_percent: percent.map(|x| (x.to_f64() * 1e4).round() / 1e4),
            max_improvement_percent_exact: percent,
            max_improvement_trial: e.max_improvement.map(|(_, t)| t),
        })
    }
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
        trials_in(req.trials, MAX_TRIALS)?;
        Ok(req.trials)
    }
    fn items(trials: &u64) -> u64 {
        *trials
    }
    fn cost(req: &MultiplicityRequest, trials: &u64) -> Estimate {
        // Every equilibrium outcome of each dinner, over its lattice.
        costs::lattice_of(req.size, req.players).times(Work::count(*trials as f64 * 4.0))
    }
    fn item(
        req: &MultiplicityRequest,
        _: &u64,
        t: u64,
        ctl: &Control,
    ) -> Result<MultiplicityPartial, Error> {
        let n = random_spe_outcomes(
            req.players,
            req.size,
            &req.order,
            req.seed,
            t,
            Budget::default(),
            &CancelOnly(ctl),
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
    fn check(
        _req: &MultiplicityRequest,
        trials: &u64,
        all: &MultiplicityPartial,
    ) -> Result<(), String> {
        let counted = all
            .histogram
            .iter()
            .try_fold(0u64, |a, &c| a.checked_add(c))
            .ok_or("histogram: its counts overflow")?;
        sweep::check_count("histogram", counted, *trials)?;
        if let Some((outcomes, t)) = all.most {
            sweep::check_item("most[1]", t, *trials)?;
            if all.histogram.get(outcomes as usize).is_none_or(|&c| c == 0) {
                return Err(format!(
                    "most[0]: no trial has {outcomes} outcomes in the histogram"
                ));
            }
        }
        Ok(())
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
                .filter(|&(_, &c)| c > 0)
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
        trials_in(req.trials, MAX_BALANCE_TRIALS)?;
        Ok(req.max_size)
    }
    fn items(max_size: &usize) -> u64 {
        *max_size as u64
    }
    fn cost(req: &BalanceRequest, max_size: &usize) -> Estimate {
        let all: f64 = (0..*max_size as u64)
            .map(|i| Self::weight(req, max_size, i))
            .sum();
        // A sort is a fiftieth of a trial morsel's work (measured).
        costs::trials(req.trials, Work::count(all * 0.02))
    }
    fn weight(_req: &BalanceRequest, _: &usize, item: u64) -> f64 {
        // Size n: crossout under two orders, a sort of n morsels each.
        let n = (item + 1) as f64;
        2.0 * n * (n.log2() + 1.0)
    }
    fn item(
        req: &BalanceRequest,
        _: &usize,
        item: u64,
        ctl: &Control,
    ) -> Result<BalancePartial, Error> {
        let n = item as usize + 1;
        // A size's trials are one item (10^6 dinners of up to 10^5 morsels): asked
        // between trials.
        let (alt, tm) =
            balance::size_sums_until(n, req.trials, req.seed, ctl).ok_or(Error::Cancelled)?;
        Ok(BalancePartial(vec![(n, alt, tm)]))
    }
    fn merge(into: &mut BalancePartial, other: BalancePartial) {
        sweep::append_ordered(&mut into.0, other.0, |r| r.0);
    }
    fn check(req: &BalanceRequest, max_size: &usize, all: &BalancePartial) -> Result<(), String> {
        sweep::check_count("length", all.0.len() as u64, *max_size as u64)?;
        for (k, &(n, alt, tm)) in all.0.iter().enumerate() {
            if n != k + 1 {
                return Err(format!("[{k}][0]: size {n} where size {} belongs", k + 1));
            }
            // A trial's difference is at most the dinner's total.
            let most = (n * (n + 1) / 2) as i128 * req.trials as i128;
            if alt.abs() > most || tm.abs() > most {
                return Err(format!(
                    "[{k}]: a difference over the {most} the trials of size {n} can sum to"
                ));
            }
        }
        Ok(())
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
                    r.alternation.to_f64()
                }),
                series("Thue-Morse ABBA BAAB...", "#1f77b4", &|r| {
                    r.thue_morse.to_f64()
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
                alternation_approx: (r.alternation.to_f64() * 1e4).round() / 1e4,
                thue_morse_approx: (r.thue_morse.to_f64() * 1e4).round() / 1e4,
            })
            .collect(),
        svg,
    }
}

/// Refuses a number of random dinners outside `1..=max`.
fn trials_in(trials: u64, max: u64) -> Result<(), Error> {
    if (1..=max).contains(&trials) {
        Ok(())
    } else {
        Err(Error::invalid("trials", trials, format!("use 1..={max}")))
    }
}

/// `dinner discount --search` as a sweep: one item per piece of
/// [`DISCOUNT_PIECE`](crate::games::dinner::analysis::variants::DISCOUNT_PIECE)
/// permutation dinners of one size ([`discount_pieces`]), each giving its first
/// permutation where crossout is not an equilibrium; the report's is the first of all.
pub struct DiscountSweep;

/// The search's pieces, in its order, and the discount factor.
pub struct DiscountPlan {
    discount: Exact,
    pieces: Vec<(usize, u64)>,
}

/// Some pieces' first failing permutations (`None`: crossout held in every dinner of the
/// piece), by piece.
#[derive(Default, Serialize, Deserialize)]
pub struct DiscountPartial(Vec<(u64, Option<Vec<i64>>)>);

impl Sweep for DiscountSweep {
    const COMMAND: &'static str = "dinner-discount";
    type Request = DiscountRequest;
    type Plan = DiscountPlan;
    type Partial = DiscountPartial;
    type Report = DiscountReport;

    fn plan(req: &DiscountRequest) -> Result<DiscountPlan, Error> {
        let discount = req.positive_discount()?;
        if !req.search {
            return Err(Error::combination(
                "search",
                "one dinner's check is not a sweep; the search over permutation dinners is",
            ));
        }
        if req.dinner_given() {
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
        Ok(DiscountPlan {
            discount,
            pieces: discount_pieces(req.max_size),
        })
    }
    fn items(plan: &DiscountPlan) -> u64 {
        plan.pieces.len() as u64
    }
    fn cost(req: &DiscountRequest, _plan: &DiscountPlan) -> Estimate {
        costs::permutation_dinners(1..=req.max_size, 13.0)
    }
    fn weight(_req: &DiscountRequest, plan: &DiscountPlan, item: u64) -> f64 {
        let (n, piece) = plan.pieces[item as usize];
        discount_piece_len(n, piece) as f64 * 2f64.powi(n as i32)
    }
    fn item(
        req: &DiscountRequest,
        plan: &DiscountPlan,
        item: u64,
        _ctl: &Control,
    ) -> Result<DiscountPartial, Error> {
        let (n, piece) = plan.pieces[item as usize];
        let budget = Budget {
            max_states: req.max_states,
        };
        let found = discount_piece(plan.discount, n, piece, budget)?;
        Ok(DiscountPartial(vec![(item, found)]))
    }
    fn merge(into: &mut DiscountPartial, other: DiscountPartial) {
        sweep::append_ordered(&mut into.0, other.0, |c| c.0);
    }
    fn check(
        _req: &DiscountRequest,
        plan: &DiscountPlan,
        all: &DiscountPartial,
    ) -> Result<(), String> {
        sweep::check_every_item(&all.0, Self::items(plan), |c| c.0)?;
        for (k, (item, found)) in all.0.iter().enumerate() {
            let n = plan.pieces[*item as usize].0;
            if let Some(p) = found {
                let mut sorted = p.clone();
                sorted.sort_unstable();
                if !sorted.iter().copied().eq(1..=n as i64) {
                    return Err(format!(
                        "[{k}][1]: {p:?} is not a permutation dinner of {n} morsels"
                    ));
                }
            }
        }
        Ok(())
    }
    fn report(
        req: &DiscountRequest,
        plan: &DiscountPlan,
        all: DiscountPartial,
        _ctl: &Control,
    ) -> Result<DiscountReport, Error> {
        let budget = Budget {
            max_states: req.max_states,
        };
        let mut out = DiscountSearchReport {
            discount: plan.discount,
            max_size: req.max_size,
            found: false,
            dinner: None,
            turn_order: None,
            deviation: None,
        };
        // The pieces are in the search's order: the first failure is the smallest.
        if let Some(perm) = all.0.into_iter().find_map(|(_, found)| found) {
            let (d, check) = discounted(&perm, plan.discount, budget)?;
            out.found = true;
            out.turn_order = Some(TurnOrder::default_for(&d).to_string());
            out.dinner = Some(dinner_rows(&d));
            out.deviation = Some(deviation_report(&check.deviation));
        }
        Ok(DiscountReport::Search(out))
    }
}
