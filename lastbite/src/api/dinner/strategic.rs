//! `dinner strategic-fairness`: the fairness of strategic picking settled at small sizes
//! (every profile of rankings). The searches are
//! [`crate::games::dinner::picking::strategic`]'s; here is the request, the report and
//! its text and tables.

use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use super::costs;
use crate::api::cost::Estimate;
use crate::api::input::{request, Letter};
use crate::api::sweep::{self, Sweep};
use crate::api::{Control, Error, Render};
use crate::exact::Exact;
use crate::games::dinner::picking::strategic::{
    instances, Folded, Part, Question, Search, StrategicError, Verdict, Witness, MAX_ITEMS,
};
use crate::table::{Align, Cell, Column, Group, Table, Tabulate};
use serde::Deserialize;

/// The default budget of instances (`max_instances`): minutes on two cores.
pub const DEFAULT_MAX_INSTANCES: u64 = 2_000_000_000;

/// The default of `strict_items` when not given: `items`, at most this.
pub const DEFAULT_STRICT_ITEMS: usize = 6;

request! {
    /// `dinner strategic-fairness`: is every subgame-perfect equilibrium allocation of
    /// round robin and of every recursively balanced sequence EF1, and what do sincere
    /// and strategic play guarantee? Decided over every profile of rankings (or of small
    /// integer utilities) for every number of items up to `items`.
    StrategicFairnessRequest {
        /// `two-agents` (EF1 of the equilibrium of every recursively balanced sequence,
        /// strict rankings: Borda, lexicographic and every consistent utility),
        /// `three-agents` (round robin: utilities min_value..=max_value with ties, and strict
        /// rankings) or `guarantees` (two agents: worst maximin-share ratio and
        /// egalitarian welfare of sincere and strategic play, sequence by sequence).
        question: Question = Question::TwoAgents,
        /// The most items: every size from 1 up to this is searched.
        #[schemars(extend("x-budget" = "max_instances"))]
        items: usize = 8,
        /// Every equilibrium over strict rankings (two agents: under Borda scores, a
        /// backward induction per profile; three agents: Borda and lexicographic) up to
        /// this many items (default: `items`, at most 6).
        #[schemars(extend("x-budget" = "max_instances"))]
        strict_items: Option<usize> = None,
        /// Three agents: the largest utility of the instances with ties (utilities
        /// min_value..=max_value, every instance up to relabelling the items).
        #[schemars(extend("x-budget" = "max_instances"))]
        #[schemars(extend("x-requires" = "question=three-agents"))]
        max_value: u64 = 1,
        /// Three agents: the least utility of the instances with ties (1 leaves out
        /// agents indifferent between items they do not value).
        #[schemars(extend("x-budget" = "none"))]
        #[schemars(extend("x-requires" = "question=three-agents"))]
        min_value: u64 = 0,
        /// Three agents: only the tied instances where every agent values some two items
        /// differently (no agent indifferent among all of them).
        #[schemars(extend("x-requires" = "question=three-agents"))]
        discerning: bool = false,
        /// Refuse to examine more instances (sequence and profile pairs) than this.
        #[schemars(extend("x-budget" = "budget"))]
        max_instances: u64 = DEFAULT_MAX_INSTANCES,
        /// Refuse an instance holding more equilibrium allocations than this.
        #[schemars(extend("x-budget" = "states"))]
        max_outcomes: u64 = 1 << 24,
    }
}

crate::api::input::closed_set!(
    Question,
    "StrategicQuestion",
    ["two-agents", "three-agents", "guarantees"]
);

/// A profile where an equilibrium allocation is not EF1.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct WitnessReport {
    /// The picking sequence.
    pub sequence: String,
    /// The utilities item by item (one row an item, a utility per agent, as a dinner's
    /// morsels are listed).
    pub utilities: Vec<Vec<u64>>,
    /// The same dinner as `dinner solve --morsels` takes it.
    pub morsels: String,
    /// The allocation: each agent's items (numbered from 0, as a dinner's morsels).
    pub bundles: Vec<Vec<usize>>,
    /// The agent that envies beyond one item.
    pub envious: Letter,
    /// The agent it envies.
    pub envied: Letter,
}

impl From<Witness> for WitnessReport {
    fn from(w: Witness) -> Self {
        let items = w.utilities.first().map_or(0, Vec::len);
        let utilities: Vec<Vec<u64>> = (0..items)
            .map(|i| w.utilities.iter().map(|agent| agent[i]).collect())
            .collect();
        let morsels = utilities
            .iter()
            .map(|row| row.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join(" ");
        WitnessReport {
            sequence: w.sequence,
            utilities,
            morsels,
            bundles: w.bundles,
            envious: Letter(w.envy.0),
            envied: Letter(w.envy.1),
        }
    }
}

impl WitnessReport {
    fn text(&self) -> String {
        let bundles: Vec<String> = self
            .bundles
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let items: Vec<String> = b.iter().map(usize::to_string).collect();
                format!("{} {{{}}}", Letter(i), items.join(","))
            })
            .collect();
        format!(
            "{}: morsels {}; {}; {} envies {}",
            self.sequence,
            self.morsels,
            bundles.join(" "),
            self.envious,
            self.envied
        )
    }
}

/// How often EF1 fails, and the first failure.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct VerdictReport {
    /// Instances examined.
    pub instances: u64,
    /// Instances with an equilibrium allocation that is not EF1.
    pub failures: u64,
    /// The first such instance in the enumeration's order.
    pub first: Option<WitnessReport>,
}

impl From<Verdict> for VerdictReport {
    fn from(v: Verdict) -> Self {
        VerdictReport {
            instances: v.instances,
            failures: v.failures,
            first: v.first.map(WitnessReport::from),
        }
    }
}

impl VerdictReport {
    fn cell(&self) -> Cell {
        Cell::Text(format!("{} of {}", self.failures, self.instances))
    }
}

/// EF1 of the two-agent equilibria of some sequences, by utility.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CriteriaReport {
    /// Every equilibrium allocation under Borda scores (`null` above `strict_items`).
    pub borda: Option<VerdictReport>,
    /// The equilibrium under lexicographic scores.
    pub lexicographic: VerdictReport,
    /// The ordinal equilibrium under every additive utility consistent with the rankings.
    pub every_utility: VerdictReport,
}

/// The two-agent verdicts at one number of items.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TwoAgentRow {
    /// Items.
    pub items: usize,
    /// Recursively balanced sequences whose first pick is A's.
    pub sequences: usize,
    /// Profiles of rankings (A's fixed): items!.
    pub profiles: u64,
    /// Round robin (`ABAB...`).
    pub round_robin: CriteriaReport,
    /// Every recursively balanced sequence (round robin included).
    pub balanced: CriteriaReport,
    /// Sequence and profile pairs with more than one Borda equilibrium allocation
    /// (`null` above `strict_items`).
    pub borda_several: Option<u64>,
}

/// The three-agent verdicts (round robin) at one number of items.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ThreeAgentRow {
    /// Items.
    pub items: usize,
    /// Utilities min_value..=max_value, every instance up to relabelling the items.
    pub tied: VerdictReport,
    /// Strict rankings, Borda scores (`null` above `strict_items`).
    pub borda: Option<VerdictReport>,
    /// Strict rankings, lexicographic scores (`null` above `strict_items`).
    pub lexicographic: Option<VerdictReport>,
}

/// The worst guarantees of one two-agent sequence under one scoring.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct GuaranteeRow {
    /// Items.
    pub items: usize,
    /// The sequence (first pick A's).
    pub sequence: String,
    /// `borda` or `lexicographic`.
    pub scores: String,
    /// Each agent's maximin share (in the scores' integer units: lexicographic scores
    /// are 2^(m-1-r)).
    pub mms: u64,
    /// The least ratio of an agent's value to its maximin share, sincere play (`null`
    /// when the share is 0).
    pub mms_sincere: Option<Exact>,
    /// The same for the equilibrium.
    pub mms_strategic: Option<Exact>,
    /// The least value of the worse-off agent as a share of everything, sincere play.
    pub egalitarian_sincere: Exact,
    /// The same for the equilibrium.
    pub egalitarian_strategic: Exact,
    /// Whether both worst cases are met where the agents rank the items alike (where
    /// sincere play is the equilibrium).
    pub worst_when_alike: bool,
}

/// The report of `dinner strategic-fairness`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct StrategicFairnessReport {
    /// The question.
    pub question: String,
    /// Every size from 1 up to this was searched.
    pub items: usize,
    /// Every equilibrium over strict rankings up to this many items.
    pub strict_items: usize,
    /// Three agents: the largest utility of the instances with ties.
    pub max_value: u64,
    /// Three agents: the least utility of the instances with ties.
    pub min_value: u64,
    /// Three agents: only tied instances where no agent is indifferent among all items.
    pub discerning: bool,
    /// The answer in one sentence, from the rows.
    pub verdict: String,
    /// `two-agents`: one row a size.
    pub two_agents: Option<Vec<TwoAgentRow>>,
    /// `three-agents`: one row a size.
    pub three_agents: Option<Vec<ThreeAgentRow>>,
    /// `guarantees`: one row a size, sequence and scoring.
    pub guarantees: Option<Vec<GuaranteeRow>>,
}

fn stopped(e: StrategicError, limit: u64) -> Error {
    match e {
        StrategicError::Stopped => Error::Cancelled,
        StrategicError::TooManyOutcomes(_) => Error::over_budget(
            "max_outcomes",
            format!("one instance holds more than {limit} equilibrium allocations"),
        ),
    }
}

/// The first failure over rows, as text, or that there is none.
fn first_failure<'a>(rows: impl Iterator<Item = (usize, &'a VerdictReport)>) -> Option<String> {
    rows.filter(|(_, v)| v.failures > 0)
        .map(|(m, v)| {
            format!(
                "first at {m} items ({} of {} instances), e.g. {}",
                v.failures,
                v.instances,
                v.first.as_ref().map_or(String::new(), WitnessReport::text)
            )
        })
        .next()
}

/// Runs the search the request asks for, size by size ([`StrategicSweep`]).
pub fn strategic_fairness(
    req: &StrategicFairnessRequest,
    ctl: &Control,
) -> Result<StrategicFairnessReport, Error> {
    sweep::run::<StrategicSweep>(req, ctl)
}

/// `dinner strategic-fairness` as a sweep: one item a run of a size's search (the
/// profiles whose second ranking starts with one item; for three agents' tied
/// instances, the multisets whose first item is of one type), sizes in order.
pub struct StrategicSweep;

/// The sweep's items: each its size and its run of that size's search.
pub struct StrategicPlan {
    search: Search,
    items: usize,
    values: u64,
    runs: Vec<(usize, u64)>,
}

/// The parts of some runs, by item.
#[derive(Default, Serialize, Deserialize)]
pub struct StrategicPartial(Vec<(u64, Part)>);

impl Sweep for StrategicSweep {
    const COMMAND: &'static str = "dinner-strategic-fairness";
    type Request = StrategicFairnessRequest;
    type Plan = StrategicPlan;
    type Partial = StrategicPartial;
    type Report = StrategicFairnessReport;

    fn plan(req: &StrategicFairnessRequest) -> Result<StrategicPlan, Error> {
        let items = req.items;
        if !(1..=MAX_ITEMS).contains(&items) {
            return Err(Error::invalid(
                "items",
                items,
                format!("use 1..={MAX_ITEMS} items"),
            ));
        }
        let strict_items = req.strict_items.unwrap_or(items.min(DEFAULT_STRICT_ITEMS));
        if strict_items > items {
            return Err(Error::invalid(
                "strict_items",
                strict_items,
                format!("use at most items ({items})"),
            ));
        }
        if req.max_value <= req.min_value {
            return Err(Error::invalid(
                "max_value",
                req.max_value,
                format!(
                    "use more than min_value ({}): one value makes every agent indifferent",
                    req.min_value
                ),
            ));
        }
        let values = req.max_value - req.min_value + 1;
        let count = instances(req.question, items, strict_items, values);
        if count > u128::from(req.max_instances) {
            return Err(Error::over_budget(
                "max_instances",
                format!(
                    "{} examines {count} instances, over the budget of {}",
                    req.question.name(),
                    req.max_instances
                ),
            ));
        }
        // The value sums of a lexicographic instance and the types of a tied one fit.
        if req.question == Question::ThreeAgents && req.max_value > 1 << 12 {
            return Err(Error::invalid(
                "max_value",
                req.max_value,
                "use at most 4096",
            ));
        }
        let search = Search {
            question: req.question,
            strict_items,
            values: req.min_value..=req.max_value,
            discerning: req.discerning,
            limit: usize::try_from(req.max_outcomes).unwrap_or(usize::MAX),
        };
        let runs = (1..=items)
            .flat_map(|m| (0..search.runs(m)).map(move |r| (m, r)))
            .collect();
        Ok(StrategicPlan {
            search,
            items,
            values,
            runs,
        })
    }
    fn items(plan: &StrategicPlan) -> u64 {
        plan.runs.len() as u64
    }
    fn cost(req: &StrategicFairnessRequest, plan: &StrategicPlan) -> Estimate {
        costs::strategic(
            req.question,
            plan.items,
            plan.search.strict_items,
            plan.values,
        )
    }
    fn weight(_req: &StrategicFairnessRequest, plan: &StrategicPlan, item: u64) -> f64 {
        let (m, run) = plan.runs[item as usize];
        costs::strategic_run(&plan.search, m, run)
    }
    fn item(
        req: &StrategicFairnessRequest,
        plan: &StrategicPlan,
        item: u64,
        ctl: &Control,
    ) -> Result<StrategicPartial, Error> {
        let (m, run) = plan.runs[item as usize];
        let part = plan
            .search
            .run(m, run, ctl)
            .map_err(|e| stopped(e, req.max_outcomes))?;
        Ok(StrategicPartial(vec![(item, part)]))
    }
    fn merge(into: &mut StrategicPartial, other: StrategicPartial) {
        sweep::append_ordered(&mut into.0, other.0, |p| p.0);
    }
    fn check(
        _req: &StrategicFairnessRequest,
        plan: &StrategicPlan,
        all: &StrategicPartial,
    ) -> Result<(), String> {
        sweep::check_every_item(&all.0, Self::items(plan), |p| p.0)?;
        for (k, (item, part)) in all.0.iter().enumerate() {
            let (m, run) = plan.runs[*item as usize];
            plan.search
                .fits(m, run, part)
                .map_err(|e| format!("[{k}][1]: {e}"))?;
        }
        Ok(())
    }
    fn report(
        req: &StrategicFairnessRequest,
        plan: &StrategicPlan,
        all: StrategicPartial,
        _ctl: &Control,
    ) -> Result<StrategicFairnessReport, Error> {
        // Each size's parts, in their runs' order (the merged list is by item).
        let mut sizes: Vec<Vec<Part>> = vec![Vec::new(); plan.items];
        for (item, part) in all.0 {
            sizes[plan.runs[item as usize].0 - 1].push(part);
        }
        let folded = sizes
            .into_iter()
            .enumerate()
            .map(|(i, parts)| plan.search.fold(i + 1, parts))
            .collect();
        Ok(report_of(req, plan, folded))
    }
}

/// The report of every size's folded verdicts.
fn report_of(
    req: &StrategicFairnessRequest,
    plan: &StrategicPlan,
    folded: Vec<Folded>,
) -> StrategicFairnessReport {
    let (items, strict_items) = (plan.items, plan.search.strict_items);
    let mut report = StrategicFairnessReport {
        question: req.question.name().into(),
        items,
        strict_items,
        max_value: req.max_value,
        min_value: req.min_value,
        discerning: req.discerning,
        verdict: String::new(),
        two_agents: None,
        three_agents: None,
        guarantees: None,
    };
    match req.question {
        Question::TwoAgents => {
            let mut rows = Vec::new();
            for (i, f) in folded.into_iter().enumerate() {
                let (m, Folded::Two(r)) = (i + 1, f) else {
                    unreachable!("two agents fold into two-agent verdicts")
                };
                let [rr, all] = r.verdicts;
                let criteria = |[b, l, e]: [Verdict; 3]| CriteriaReport {
                    borda: (m <= strict_items).then(|| b.into()),
                    lexicographic: l.into(),
                    every_utility: e.into(),
                };
                rows.push(TwoAgentRow {
                    items: m,
                    sequences: r.sequences,
                    profiles: r.profiles,
                    round_robin: criteria(rr),
                    balanced: criteria(all),
                    borda_several: (m <= strict_items).then_some(r.borda_several),
                });
            }
            let fail = |f: fn(&CriteriaReport) -> Option<&VerdictReport>, upto: usize| {
                first_failure(
                    rows.iter()
                        .filter_map(|r| f(&r.balanced).map(|v| (r.items, v))),
                )
                .unwrap_or_else(|| format!("EF1 always, 1 to {upto} items"))
            };
            let borda = match strict_items {
                0 => "not searched".into(),
                _ => fail(|c| c.borda.as_ref(), strict_items),
            };
            report.verdict = format!(
                "Two agents, every recursively balanced sequence, every profile of strict rankings: every Borda equilibrium: {borda}; lexicographic: {}; every consistent utility: {}.",
                fail(|c| Some(&c.lexicographic), items),
                fail(|c| Some(&c.every_utility), items),
            );
            report.two_agents = Some(rows);
        }
        Question::ThreeAgents => {
            let mut rows = Vec::new();
            for (i, f) in folded.into_iter().enumerate() {
                let (m, Folded::Three(boxed)) = (i + 1, f) else {
                    unreachable!("three agents fold into three-agent verdicts")
                };
                let r = *boxed;
                let strict = m <= strict_items;
                rows.push(ThreeAgentRow {
                    items: m,
                    tied: r.tied.into(),
                    borda: strict.then(|| r.borda.into()),
                    lexicographic: strict.then(|| r.lexicographic.into()),
                });
            }
            let tied = first_failure(rows.iter().map(|r| (r.items, &r.tied)))
                .unwrap_or_else(|| format!("EF1 always, 1 to {items} items"));
            let strict = first_failure(rows.iter().flat_map(|r| {
                [r.borda.as_ref(), r.lexicographic.as_ref()]
                    .into_iter()
                    .flatten()
                    .map(move |v| (r.items, v))
            }))
            .unwrap_or_else(|| match strict_items {
                0 => "not searched".into(),
                _ => format!("EF1 always, 1 to {strict_items} items"),
            });
            report.verdict = format!(
                "Three agents, round robin, every equilibrium allocation: utilities {} to {}{}: {tied}; strict rankings (Borda and lexicographic): {strict}.",
                req.min_value,
                req.max_value,
                if req.discerning { ", no agent indifferent among all items" } else { "" }
            );
            report.three_agents = Some(rows);
        }
        Question::Guarantees => {
            let mut rows = Vec::new();
            for (i, f) in folded.into_iter().enumerate() {
                let (m, Folded::Guarantees(gs)) = (i + 1, f) else {
                    unreachable!("guarantees fold into guarantees")
                };
                for g in gs {
                    rows.push(GuaranteeRow {
                        items: m,
                        sequence: g.sequence,
                        scores: g.scores.name().into(),
                        mms: g.mms,
                        mms_sincere: g.mms_ratio[0],
                        mms_strategic: g.mms_ratio[1],
                        egalitarian_sincere: g.egalitarian[0],
                        egalitarian_strategic: g.egalitarian[1],
                        worst_when_alike: g.worst_when_alike,
                    });
                }
            }
            let worse = rows
                .iter()
                .filter(|r| r.mms_strategic < r.mms_sincere)
                .count();
            let better = rows
                .iter()
                .filter(|r| r.mms_strategic > r.mms_sincere)
                .count();
            let alike = rows.iter().filter(|r| r.worst_when_alike).count();
            report.verdict = format!(
                "Two agents, every recursively balanced sequence of 1 to {items} items, every profile of rankings: strategic play's worst maximin-share ratio is below sincere play's for {worse} of {} sequence and scoring pairs and above it for {better}; both worst cases are met where the agents rank the items alike for {alike}.",
                rows.len()
            );
            report.guarantees = Some(rows);
        }
    }
    report
}

impl Render for StrategicFairnessReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(self.tables())
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{}", self.verdict)?;
        let text = |v: &VerdictReport| format!("{} of {}", v.failures, v.instances);
        let maybe = |v: Option<&VerdictReport>| v.map_or("-".to_string(), text);
        if let Some(rows) = &self.two_agents {
            writeln!(w, "\nEF1 fails (pairs of sequence and profile): round robin | every balanced sequence, under Borda / lexicographic / every utility")?;
            for r in rows {
                writeln!(
                    w,
                    "  {:>9}, {:>12}: {} / {} / {} | {} / {} / {}",
                    crate::text::count(r.items, "item"),
                    crate::text::count(r.sequences, "sequence"),
                    maybe(r.round_robin.borda.as_ref()),
                    text(&r.round_robin.lexicographic),
                    text(&r.round_robin.every_utility),
                    maybe(r.balanced.borda.as_ref()),
                    text(&r.balanced.lexicographic),
                    text(&r.balanced.every_utility),
                )?;
            }
        }
        if let Some(rows) = &self.three_agents {
            writeln!(
                w,
                "\nEF1 fails (instances): tied utilities | strict Borda / lexicographic"
            )?;
            for r in rows {
                writeln!(
                    w,
                    "  {:>9}: {} | {} / {}",
                    crate::text::count(r.items, "item"),
                    text(&r.tied),
                    maybe(r.borda.as_ref()),
                    maybe(r.lexicographic.as_ref()),
                )?;
            }
        }
        if let Some(rows) = &self.guarantees {
            writeln!(
                w,
                "\nWorst MMS ratio (sincere, strategic) and egalitarian share (sincere, strategic)"
            )?;
            let show = |x: Option<Exact>| x.map_or("-".to_string(), |x| x.to_string());
            for r in rows {
                writeln!(
                    w,
                    "  {:<16} {:<13} MMS {:>4}: {:>7} {:>7}   {:>7} {:>7}{}",
                    r.sequence,
                    r.scores,
                    r.mms,
                    show(r.mms_sincere),
                    show(r.mms_strategic),
                    r.egalitarian_sincere.to_string(),
                    r.egalitarian_strategic.to_string(),
                    if r.worst_when_alike {
                        ""
                    } else {
                        "  (worst not when alike)"
                    },
                )?;
            }
        }
        Ok(())
    }
}

fn optional(v: Option<&VerdictReport>) -> Cell {
    v.map_or(Cell::Empty, VerdictReport::cell)
}

fn ratio(x: Option<Exact>) -> Cell {
    x.map_or(Cell::Empty, Cell::exact)
}

impl Tabulate for StrategicFairnessReport {
    /// One table for the question: a row a size (a row a sequence and scoring for
    /// `guarantees`), instances where EF1 fails "of" instances examined.
    fn tables(&self) -> Vec<Table> {
        let mut out = Vec::new();
        if let Some(rows) = &self.two_agents {
            let mut t = Table::new(
                "Two agents, strict rankings: equilibrium allocations that are not EF1, of sequence and profile pairs (round robin; every recursively balanced sequence).",
                vec![
                    Column::new("items", Align::Right),
                    Column::new("sequences", Align::Right),
                    Column::new("Borda", Align::Right),
                    Column::new("lexicographic", Align::Right),
                    Column::new("every utility", Align::Right),
                    Column::new("Borda", Align::Right),
                    Column::new("lexicographic", Align::Right),
                    Column::new("every utility", Align::Right),
                    Column::new("several", Align::Right),
                ],
            );
            t.groups = vec![
                Group {
                    title: String::new(),
                    span: 2,
                },
                Group {
                    title: "round robin".into(),
                    span: 3,
                },
                Group {
                    title: "every balanced sequence".into(),
                    span: 3,
                },
                Group {
                    title: String::new(),
                    span: 1,
                },
            ];
            for r in rows {
                t.push(vec![
                    Cell::number(r.items as i128),
                    Cell::number(r.sequences as i128),
                    optional(r.round_robin.borda.as_ref()),
                    r.round_robin.lexicographic.cell(),
                    r.round_robin.every_utility.cell(),
                    optional(r.balanced.borda.as_ref()),
                    r.balanced.lexicographic.cell(),
                    r.balanced.every_utility.cell(),
                    r.borda_several.map_or(Cell::Empty, Cell::number),
                ]);
            }
            out.push(t);
        }
        if let Some(rows) = &self.three_agents {
            let mut t = Table::new(
                format!("Three agents, round robin: instances with an equilibrium allocation that is not EF1 (utilities {} to {}{} up to relabelling the items; strict rankings with A's fixed).", self.min_value, self.max_value, if self.discerning { ", no agent indifferent among all items," } else { "" }),
                vec![
                    Column::new("items", Align::Right),
                    Column::new("tied utilities", Align::Right),
                    Column::new("Borda", Align::Right),
                    Column::new("lexicographic", Align::Right),
                    Column::new("first failure", Align::Left),
                ],
            );
            for r in rows {
                let first = [Some(&r.tied), r.borda.as_ref(), r.lexicographic.as_ref()]
                    .into_iter()
                    .flatten()
                    .find_map(|v| v.first.as_ref())
                    .map_or(Cell::Empty, |w| Cell::Text(w.text()));
                t.push(vec![
                    Cell::number(r.items as i128),
                    r.tied.cell(),
                    optional(r.borda.as_ref()),
                    optional(r.lexicographic.as_ref()),
                    first,
                ]);
            }
            out.push(t);
        }
        if let Some(rows) = &self.guarantees {
            let mut t = Table::new(
                "Two agents, every profile of rankings: the worst maximin-share ratio and egalitarian welfare (the worse-off agent's share of everything) of sincere and strategic play.",
                vec![
                    Column::new("items", Align::Right),
                    Column::new("sequence", Align::Left),
                    Column::new("scores", Align::Left),
                    Column::new("MMS", Align::Right),
                    Column::new("MMS ratio sincere", Align::Right),
                    Column::new("strategic", Align::Right),
                    Column::new("egalitarian sincere", Align::Right),
                    Column::new("strategic", Align::Right),
                    Column::new("worst when alike", Align::Left),
                ],
            );
            for r in rows {
                t.push(vec![
                    Cell::number(r.items as i128),
                    Cell::Text(r.sequence.clone()),
                    Cell::Text(r.scores.clone()),
                    Cell::number(r.mms as i128),
                    ratio(r.mms_sincere),
                    ratio(r.mms_strategic),
                    Cell::exact(r.egalitarian_sincere),
                    Cell::exact(r.egalitarian_strategic),
                    Cell::Text(if r.worst_when_alike { "yes" } else { "no" }.into()),
                ]);
            }
            out.push(t);
        }
        out
    }
}
