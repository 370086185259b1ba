//! Fairness of *strategic* picking, settled at small sizes by exhaustive enumeration:
//! is every subgame-perfect equilibrium allocation of round robin (and of every
//! recursively balanced sequence) EF1, and what do sincere and strategic play guarantee?
//!
//! Amanatidis, Birmpas, Fusco, Lazos, Leonardi and Reiffenhäuser (Math. Oper. Res.,
//! 2023/24) show that round robin has pure equilibria whose allocations are EF1; sincere
//! play of a recursively balanced sequence (each round every agent picks once) is EF1
//! (Aziz, Walsh and Xia, IJCAI 2015). This module owns three exhaustive searches:
//!
//! * [`two_agents`]: two agents with strict rankings, every profile (agent A's ranking
//!   fixed, which loses nothing: items are relabelled), every recursively balanced
//!   sequence whose first pick is A's (the others are these with the agents' names
//!   swapped). The equilibrium under every utility without ties between bundles is
//!   sincere play of the reversed sequence with each agent taking the other's least liked
//!   item (Kohler and Chandrasekaran 1971; [`ordinal_equilibrium`]); it is EF1 under
//!   *every* additive utility consistent with the rankings exactly when, for each agent,
//!   its bundle dominates stochastically the other's bundle less the agent's favourite
//!   item there ([`ef1_every_utility`]: removing the favourite is best for every such
//!   utility, and Abel summation turns "for every decreasing positive value vector" into
//!   "for every prefix of the ranking"). Under Borda scores bundles tie, equilibria
//!   multiply, and every equilibrium allocation is found by [`Spe`] and checked.
//! * [`three_agents`]: round robin for three agents, every equilibrium allocation, over
//!   every instance with utilities in a range such as `0..=1` (tied utilities; instances up to
//!   relabelling the items, a multiset of utility triples) and over every profile of
//!   strict rankings with Borda and lexicographic scores (from 3 to 8 items every
//!   ranking of C solved together for fixed rankings of A and B: `shared.rs`).
//! * [`guarantees`]: for each recursively balanced sequence of two agents, the worst
//!   maximin-share ratio and the worst egalitarian welfare (as a share of everything) of
//!   sincere and of strategic play over every profile of rankings, Borda and
//!   lexicographic.
//!
//! Items are at most [`MAX_ITEMS`] (bundles are 16-bit masks). Every search is checked in
//! the tests against the generic engine's every-equilibrium rule and against the dinner's
//! own fairness measures at small sizes.

//!
//! Here the three searches and their verdicts; the instances, rankings and the backward
//! induction that finds every equilibrium allocation of one instance in `model.rs`; the
//! strict three-agent runs in `shared.rs`.

mod model;
mod shared;
#[cfg(test)]
mod tests;

use crate::engine::Progress;
pub use model::{
    balanced_two, ef1, ef1_every_utility, first_envy_beyond_one, ordinal_equilibrium,
    ordinal_subgame, sequence_text, sincere_two, Rankings, Scores, Spe, StrategicError, Verdict,
    Witness, MAX_ITEMS,
};
use model::{free_picks, value};
use shared::{strict_run, strict_runs};

use crate::exact::Exact;
use crate::games::dinner::analysis::variants::next_permutation;
use crate::par::prelude::*;
use serde::{Deserialize, Serialize};

/// Every permutation of `0..m`, in lexicographic order, split into `m` runs by their
/// first item: run `first` is called with each permutation starting with `first`; it
/// returns `false` to stop.
fn permutations_from(m: usize, first: usize, mut f: impl FnMut(&[u8]) -> bool) {
    if m == 0 {
        f(&[]);
        return;
    }
    let mut p: Vec<u8> = std::iter::once(first as u8)
        .chain((0..m as u8).filter(|&x| x != first as u8))
        .collect();
    while f(&p) && next_permutation(&mut p[1..]) {}
}

fn factorial(m: usize) -> u128 {
    (1..=m as u128).product()
}

/// The instances a question examines for every size `1..=items` (every equilibrium
/// over strict rankings only up to `strict_items`), for the budget check before any
/// work: (sequence, profile) pairs and instances as the searches count them, saturating.
/// `values` is how many utilities the tied instances take (three agents).
pub fn instances(question: Question, items: usize, strict_items: usize, values: u64) -> u128 {
    let pairs = |m: usize| factorial(m).saturating_mul(1u128 << free_picks(m).min(100));
    let sizes = |upto: usize, f: &dyn Fn(usize) -> u128| {
        (1..=upto).map(f).fold(0u128, u128::saturating_add)
    };
    match question {
        Question::TwoAgents => sizes(items, &pairs).saturating_add(sizes(strict_items, &pairs)),
        Question::Guarantees => sizes(items, &|m| pairs(m).saturating_mul(2)),
        Question::ThreeAgents => {
            let types = u128::from(values.min(1 << 20)).pow(3);
            sizes(items, &|m| multisets(types, m as u128))
                .saturating_add(sizes(strict_items, &|m| {
                    factorial(m).saturating_mul(factorial(m)).saturating_mul(2)
                }))
        }
    }
}

/// C(types + m - 1, m), saturating.
fn multisets(types: u128, m: u128) -> u128 {
    let mut c: u128 = 1;
    for i in 0..m {
        c = match c.checked_mul(types + i) {
            Some(x) => x / (i + 1),
            None => return u128::MAX,
        };
    }
    c
}

/// The three searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// [`two_agents`].
    TwoAgents,
    /// [`three_agents`].
    ThreeAgents,
    /// [`guarantees`].
    Guarantees,
}

impl Question {
    /// Every question.
    pub const ALL: [Question; 3] = [
        Question::TwoAgents,
        Question::ThreeAgents,
        Question::Guarantees,
    ];

    /// `two-agents`, `three-agents` or `guarantees`.
    pub fn name(self) -> &'static str {
        match self {
            Question::TwoAgents => "two-agents",
            Question::ThreeAgents => "three-agents",
            Question::Guarantees => "guarantees",
        }
    }
}

impl std::str::FromStr for Question {
    type Err = String;
    fn from_str(s: &str) -> Result<Question, String> {
        Question::ALL
            .into_iter()
            .find(|q| q.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| "expected two-agents, three-agents or guarantees".to_string())
    }
}

/// The two-agent verdicts at one number of items, for round robin and for every
/// recursively balanced sequence.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwoAgents {
    /// Items.
    pub items: usize,
    /// Recursively balanced sequences (first pick A's).
    pub sequences: usize,
    /// Profiles of rankings (A's fixed): `items!`.
    pub profiles: u64,
    /// `[round robin, every sequence]` x `[every Borda equilibrium, lexicographic,
    /// every consistent utility]`: the verdicts (Borda's examines no instance unless
    /// asked).
    pub verdicts: [[Verdict; 3]; 2],
    /// (sequence, profile) pairs whose Borda equilibrium allocation is not unique.
    pub borda_several: u64,
    /// The most Borda equilibrium allocations of one pair.
    pub borda_most: usize,
}

/// The column names of [`TwoAgents::verdicts`].
pub const TWO_AGENT_CRITERIA: [&str; 3] = ["borda", "lexicographic", "every utility"];

impl TwoAgents {
    fn merge(mut self, o: TwoAgents) -> TwoAgents {
        for (a, b) in self.verdicts.iter_mut().zip(o.verdicts) {
            for (x, y) in a.iter_mut().zip(b) {
                *x = std::mem::take(x).merge(y);
            }
        }
        self.borda_several += o.borda_several;
        self.borda_most = self.borda_most.max(o.borda_most);
        self
    }
}

/// Runs `run` on `0..n` in parallel, each finished run one unit of `stop`'s progress (a
/// search's runs are what [`runs`] counts).
fn counted<T: Send>(
    n: usize,
    run: impl Fn(usize) -> T + Sync + Send,
    stop: &dyn Progress,
) -> Vec<T> {
    (0..n)
        .into_par_iter()
        .map(|i| {
            let r = run(i);
            stop.advance(1);
            r
        })
        .collect()
}

/// Whether `stop` asks to stop, asked once every [`ASK_EVERY`] calls (`asked` counts
/// them): a profile is microseconds, a run of them seconds.
fn asks(asked: &mut u32, stop: &dyn Progress) -> bool {
    *asked += 1;
    if *asked < ASK_EVERY {
        return false;
    }
    *asked = 0;
    stop.cancelled()
}

/// Profiles between two questions to the caller.
const ASK_EVERY: u32 = 256;

/// The runs (units of progress) of one size's search: [`two_agents`] and [`guarantees`]
/// make `m` (profiles split by the second agent's first item), [`three_agents`] one for
/// each utility triple of `values` (`values^3`), and `m (m - 1)` more for strict rankings (split by the second agent's first two items).
pub fn runs(m: usize, three_agents: Option<(u64, bool)>) -> u64 {
    match three_agents {
        None => m as u64,
        Some((values, strict)) => {
            values.saturating_pow(3) + if strict { strict_runs(m) as u64 } else { 0 }
        }
    }
}

/// Every profile of strict rankings of `m` items for two agents, every recursively
/// balanced sequence: is the (unique) equilibrium allocation under lexicographic scores
/// EF1, the ordinal one under every consistent utility, and, with `every_borda`, every
/// equilibrium allocation under Borda scores (the costly part: a backward induction per
/// pair)? `stop` is asked between runs of profiles.
pub fn two_agents(
    m: usize,
    every_borda: bool,
    limit: usize,
    stop: &dyn Progress,
) -> Result<TwoAgents, StrategicError> {
    let parts = counted(
        m,
        |first| two_agents_run(m, first, every_borda, limit, stop),
        stop,
    );
    Ok(fold_two(
        m,
        parts.into_iter().collect::<Result<Vec<_>, _>>()?,
    ))
}

/// Run `first` of [`two_agents`]: the profiles whose second ranking starts with item
/// `first`.
fn two_agents_run(
    m: usize,
    first: usize,
    every_borda: bool,
    limit: usize,
    stop: &dyn Progress,
) -> Result<TwoAgents, StrategicError> {
    assert!((1..=MAX_ITEMS).contains(&m) && first < m);
    if stop.cancelled() {
        return Err(StrategicError::Stopped);
    }
    let sequences = balanced_two(m);
    let identity: Vec<u8> = (0..m as u8).collect();
    let mut out = TwoAgents::default();
    let mut p = Rankings::new(&[identity.clone(), identity.clone()]);
    let mut spe = Spe::default();
    let mut fault = None;
    let mut asked = 0u32;
    permutations_from(m, first, |order| {
        if asks(&mut asked, stop) {
            fault = Some(StrategicError::Stopped);
            return false;
        }
        p.set(1, order);
        let borda = [p.utilities(0, Scores::Borda), p.utilities(1, Scores::Borda)];
        let lex = [
            p.utilities(0, Scores::Lexicographic),
            p.utilities(1, Scores::Lexicographic),
        ];
        for (s, turns) in sequences.iter().enumerate() {
            let ordinal = ordinal_equilibrium(turns, &p);
            let borda_fail = if every_borda {
                let all = match spe.solve(&borda, turns, limit) {
                    Ok(all) => all,
                    Err(e) => {
                        fault = Some(e);
                        return false;
                    }
                };
                if all.len() > 1 {
                    out.borda_several += 1;
                }
                out.borda_most = out.borda_most.max(all.len());
                Some(all.iter().find_map(|o| {
                    first_envy_beyond_one(&borda, &o[..2])
                        .map(|e| Witness::new(turns, &borda, &o[..2], e))
                }))
            } else {
                None
            };
            let lex_fail = first_envy_beyond_one(&lex, &ordinal)
                .map(|e| Witness::new(turns, &lex, &ordinal, e));
            let sd_fail = (0..2)
                .find(|&i| !ef1_every_utility(&p, i, ordinal[i], ordinal[1 - i]))
                .map(|i| Witness::new(turns, &borda, &ordinal, (i, 1 - i)));
            let checked = [borda_fail, Some(lex_fail), Some(sd_fail)];
            for (c, fail) in checked.into_iter().enumerate() {
                let Some(fail) = fail else { continue };
                if s == 0 {
                    out.verdicts[0][c].record(|| fail.clone());
                }
                out.verdicts[1][c].record(|| fail);
            }
        }
        true
    });
    match fault {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The verdicts of `m` items from its runs' in their order.
fn fold_two(m: usize, parts: Vec<TwoAgents>) -> TwoAgents {
    let out = TwoAgents {
        items: m,
        sequences: balanced_two(m).len(),
        profiles: factorial(m) as u64,
        ..TwoAgents::default()
    };
    parts.into_iter().fold(out, TwoAgents::merge)
}

/// The three-agent verdicts at one number of items (round robin).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreeAgents {
    /// Items.
    pub items: usize,
    /// Utilities in the range asked, every instance up to relabelling the items: is every
    /// equilibrium allocation EF1?
    pub tied: Verdict,
    /// Strict rankings (A's fixed), Borda scores: is every equilibrium allocation EF1?
    pub borda: Verdict,
    /// Strict rankings, lexicographic scores: is every equilibrium allocation EF1? (There can be
    /// several: two choices may give an agent the same bundle and the others different ones.)
    pub lexicographic: Verdict,
}

/// Round robin for three agents with `m` items: every equilibrium allocation checked for
/// EF1 over every instance with utilities in `values` (a multiset of the items'
/// utility triples; with `discerning`, only those where every agent values some two
/// items differently) and, with `strict`, over every profile of strict rankings under Borda
/// and lexicographic scores.
pub fn three_agents(
    m: usize,
    values: std::ops::RangeInclusive<u64>,
    discerning: bool,
    strict: bool,
    limit: usize,
    stop: &dyn Progress,
) -> Result<ThreeAgents, StrategicError> {
    let v = values.end() - values.start() + 1;
    let types = (v * v * v) as usize;
    let tied = counted(
        types,
        |first| tied_run(m, &values, discerning, first, limit, stop),
        stop,
    );
    let strict = match strict {
        true => counted(
            strict_runs(m),
            |run| strict_run(m, run, limit, true, stop),
            stop,
        ),
        false => Vec::new(),
    };
    let tied = tied.into_iter().collect::<Result<Vec<_>, _>>()?;
    let strict = strict.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(fold_three(m, tied, strict))
}

/// The round robin of three agents with `m` items.
fn round_robin_three(m: usize) -> Vec<u8> {
    (0..m).map(|t| (t % 3) as u8).collect()
}

/// Tied run `first` of [`three_agents`]: the multisets of item types (utility triples)
/// whose first (smallest) type is `first`.
fn tied_run(
    m: usize,
    values: &std::ops::RangeInclusive<u64>,
    discerning: bool,
    first: usize,
    limit: usize,
    stop: &dyn Progress,
) -> Result<Verdict, StrategicError> {
    assert!((1..=MAX_ITEMS).contains(&m));
    if stop.cancelled() {
        return Err(StrategicError::Stopped);
    }
    let turns = round_robin_three(m);
    let (low, v) = (*values.start(), values.end() - values.start() + 1);
    let types = (v * v * v) as usize;
    let triple = |t: usize| [t as u64 / (v * v), t as u64 / v % v, t as u64 % v].map(|x| x + low);
    let mut out = Verdict::default();
    let mut spe = Spe::default();
    let mut items = vec![first; m];
    let mut asked = 0u32;
    loop {
        if asks(&mut asked, stop) {
            return Err(StrategicError::Stopped);
        }
        let mut u = [[0u64; MAX_ITEMS]; 3];
        for (i, &t) in items.iter().enumerate() {
            for (a, x) in triple(t).into_iter().enumerate() {
                u[a][i] = x;
            }
        }
        let indifferent = u.iter().any(|row| row[..m].iter().all(|&x| x == row[0]));
        if discerning && indifferent {
            // Not an instance of this search.
        } else {
            let all = spe.solve(&u, &turns, limit)?;
            out.record(|| {
                all.iter().find_map(|o| {
                    first_envy_beyond_one(&u, o).map(|e| Witness::new(&turns, &u, o, e))
                })
            });
        }
        // Next nondecreasing sequence with items[0] == first.
        let Some(i) = (1..m).rev().find(|&i| items[i] + 1 < types) else {
            break;
        };
        let next = items[i] + 1;
        items[i..].iter_mut().for_each(|x| *x = next);
    }
    Ok(out)
}

/// The three-agent verdicts of `m` items from its runs' in their order (no strict runs:
/// strict rankings not searched).
fn fold_three(m: usize, tied: Vec<Verdict>, strict: Vec<[Verdict; 2]>) -> ThreeAgents {
    let mut out = ThreeAgents {
        items: m,
        ..ThreeAgents::default()
    };
    for part in tied {
        out.tied = std::mem::take(&mut out.tied).merge(part);
    }
    for [b, l] in strict {
        out.borda = std::mem::take(&mut out.borda).merge(b);
        out.lexicographic = std::mem::take(&mut out.lexicographic).merge(l);
    }
    out
}

/// The worst guarantees of one sequence under one scoring, over every profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guarantee {
    /// The sequence.
    pub sequence: String,
    /// The scores.
    pub scores: Scores,
    /// The maximin share of each agent (the same for both: their values are the same
    /// numbers), in the scores' integer units.
    pub mms: u64,
    /// `[sincere, strategic]`: the least ratio of an agent's value to its maximin share
    /// (`None` when the share is 0).
    pub mms_ratio: [Option<Exact>; 2],
    /// `[sincere, strategic]`: the least egalitarian welfare (the worse-off agent's
    /// value) as a share of the value of everything.
    pub egalitarian: [Exact; 2],
    /// Whether both worst cases are met where the agents rank the items alike (there
    /// sincere play is the equilibrium).
    pub worst_when_alike: bool,
}

/// For every recursively balanced sequence of `m` items (first pick A's) and both
/// scorings: the worst maximin-share ratio and egalitarian welfare of sincere play and of
/// the ordinal equilibrium over every profile of rankings.
pub fn guarantees(m: usize, stop: &dyn Progress) -> Result<Vec<Guarantee>, StrategicError> {
    let parts = counted(m, |first| guarantees_run(m, first, stop), stop);
    Ok(fold_guarantees(
        m,
        parts.into_iter().collect::<Result<Vec<_>, _>>()?,
    ))
}

/// Run `first` of [`guarantees`]: per scoring, sequence and play (sincere, strategic),
/// the least value an agent gets over the profiles whose second ranking starts with
/// item `first`.
fn guarantees_run(m: usize, first: usize, stop: &dyn Progress) -> Result<Vec<u64>, StrategicError> {
    assert!((1..=MAX_ITEMS).contains(&m) && first < m);
    if stop.cancelled() {
        return Err(StrategicError::Stopped);
    }
    let sequences = balanced_two(m);
    let identity: Vec<u8> = (0..m as u8).collect();
    let mut least = vec![u64::MAX; 2 * sequences.len() * 2];
    let mut p = Rankings::new(&[identity.clone(), identity.clone()]);
    let (mut asked, mut stopped) = (0u32, false);
    permutations_from(m, first, |order| {
        if asks(&mut asked, stop) {
            stopped = true;
            return false;
        }
        p.set(1, order);
        for (k, scores) in Scores::ALL.into_iter().enumerate() {
            let u = [p.utilities(0, scores), p.utilities(1, scores)];
            for (s, turns) in sequences.iter().enumerate() {
                for (play, alloc) in [sincere_two(turns, &p), ordinal_equilibrium(turns, &p)]
                    .into_iter()
                    .enumerate()
                {
                    let worse = value(&u[0], alloc[0]).min(value(&u[1], alloc[1]));
                    let slot = &mut least[(k * sequences.len() + s) * 2 + play];
                    *slot = (*slot).min(worse);
                }
            }
        }
        true
    });
    if stopped {
        return Err(StrategicError::Stopped);
    }
    Ok(least)
}

/// The least values a run of [`guarantees`] of `m` items holds: one a scoring, sequence
/// and play.
pub fn guarantee_slots(m: usize) -> usize {
    2 * balanced_two(m).len() * 2
}

/// The guarantees of `m` items from its runs' least values.
fn fold_guarantees(m: usize, parts: Vec<Vec<u64>>) -> Vec<Guarantee> {
    let sequences = balanced_two(m);
    let identity: Vec<u8> = (0..m as u8).collect();
    let mut least = vec![u64::MAX; guarantee_slots(m)];
    for part in parts {
        for (a, b) in least.iter_mut().zip(part) {
            *a = (*a).min(b);
        }
    }
    let mut out = Vec::new();
    for (k, scores) in Scores::ALL.into_iter().enumerate() {
        let values: Vec<i64> = (0..m).map(|r| scores.value(m, r) as i64).collect();
        let total: u64 = values.iter().map(|&x| x as u64).sum();
        let mms = super::fairness::maximin_share(&values, 2, crate::engine::Budget::default())
            .expect("16 items are within the default budget") as u64;
        let alike = Rankings::new(&[identity.clone(), identity.clone()]);
        let u = [alike.utilities(0, scores), alike.utilities(1, scores)];
        for (s, turns) in sequences.iter().enumerate() {
            let at = |play: usize| least[(k * sequences.len() + s) * 2 + play];
            let b = sincere_two(turns, &alike);
            let when_alike = value(&u[0], b[0]).min(value(&u[1], b[1]));
            let ratio = |x: u64, d: u64| Exact::new(x as i128, d as i128);
            out.push(Guarantee {
                sequence: sequence_text(turns),
                scores,
                mms,
                mms_ratio: [0, 1].map(|play| (mms > 0).then(|| ratio(at(play), mms)).flatten()),
                egalitarian: [0, 1].map(|play| ratio(at(play), total).expect("total > 0")),
                worst_when_alike: at(0) == when_alike && at(1) == when_alike,
            });
        }
    }
    out
}

/// One run's result, what a sweep's item holds: the runs of one size fold, in their
/// order, into its verdicts ([`Search::fold`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    /// A run of [`two_agents`].
    Two(Box<TwoAgents>),
    /// A tied run of [`three_agents`].
    Tied(Verdict),
    /// A strict run of [`three_agents`]: Borda's verdict and the lexicographic one.
    Strict([Verdict; 2]),
    /// A run of [`guarantees`]: [`guarantee_slots`] least values.
    Least(Vec<u64>),
}

/// A size's verdicts, folded from its runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Folded {
    /// [`two_agents`]'.
    Two(Box<TwoAgents>),
    /// [`three_agents`]'.
    Three(Box<ThreeAgents>),
    /// [`guarantees`]'.
    Guarantees(Vec<Guarantee>),
}

/// One search as a list of runs, each size's runs in the enumeration's order: what a
/// sweep cuts into shards. Size `m`'s runs are [`runs`]'s.
#[derive(Debug, Clone)]
pub struct Search {
    /// The question.
    pub question: Question,
    /// Every equilibrium over strict rankings up to this many items.
    pub strict_items: usize,
    /// Three agents: the tied instances' utilities.
    pub values: std::ops::RangeInclusive<u64>,
    /// Three agents: only tied instances where no agent is indifferent among all items.
    pub discerning: bool,
    /// The most equilibrium allocations an instance may hold.
    pub limit: usize,
}

impl Search {
    /// How many utilities the tied instances take.
    fn value_count(&self) -> u64 {
        self.values.end() - self.values.start() + 1
    }

    /// Size `m`'s runs.
    pub fn runs(&self, m: usize) -> u64 {
        match self.question {
            Question::ThreeAgents => runs(m, Some((self.value_count(), m <= self.strict_items))),
            Question::TwoAgents | Question::Guarantees => runs(m, None),
        }
    }

    /// Run `run` of size `m`.
    pub fn run(&self, m: usize, run: u64, stop: &dyn Progress) -> Result<Part, StrategicError> {
        let strict = m <= self.strict_items;
        Ok(match self.question {
            Question::TwoAgents => Part::Two(Box::new(two_agents_run(
                m,
                run as usize,
                strict,
                self.limit,
                stop,
            )?)),
            Question::Guarantees => Part::Least(guarantees_run(m, run as usize, stop)?),
            Question::ThreeAgents => {
                let types = self.value_count().pow(3);
                match run.checked_sub(types) {
                    None => Part::Tied(tied_run(
                        m,
                        &self.values,
                        self.discerning,
                        run as usize,
                        self.limit,
                        stop,
                    )?),
                    Some(run) => Part::Strict(strict_run(m, run as usize, self.limit, true, stop)?),
                }
            }
        })
    }

    /// Whether `part` is of the kind run `run` of size `m` makes, with counts it can hold
    /// (a part read back from a shard is checked before it is trusted).
    pub fn fits(&self, m: usize, run: u64, part: &Part) -> Result<(), String> {
        let verdict = |v: &Verdict, most: u128| {
            if v.failures > v.instances || u128::from(v.instances) > most {
                Err(format!(
                    "{} failures of {} instances where a run of {m} items examines at most {most}",
                    v.failures, v.instances
                ))
            } else {
                Ok(())
            }
        };
        let profiles = factorial(m - 1);
        let sequences = balanced_two(m).len() as u128;
        match (self.question, part) {
            (Question::TwoAgents, Part::Two(t)) => {
                for row in &t.verdicts {
                    for v in row {
                        verdict(v, profiles * sequences)?;
                    }
                }
                Ok(())
            }
            (Question::Guarantees, Part::Least(least)) if least.len() == guarantee_slots(m) => {
                Ok(())
            }
            (Question::ThreeAgents, Part::Tied(v)) if run < self.value_count().pow(3) => {
                verdict(v, multisets(self.value_count().pow(3) as u128, m as u128))
            }
            (Question::ThreeAgents, Part::Strict(vs)) if run >= self.value_count().pow(3) => vs
                .iter()
                .try_for_each(|v| verdict(v, factorial(m.saturating_sub(2)) * factorial(m))),
            _ => Err(format!("not what run {run} of {m} items makes")),
        }
    }

    /// Size `m`'s verdicts from its runs' parts, in their order.
    pub fn fold(&self, m: usize, parts: Vec<Part>) -> Folded {
        match self.question {
            Question::TwoAgents => {
                let two = parts.into_iter().filter_map(|p| match p {
                    Part::Two(t) => Some(*t),
                    _ => None,
                });
                Folded::Two(Box::new(fold_two(m, two.collect())))
            }
            Question::Guarantees => Folded::Guarantees(fold_guarantees(
                m,
                parts
                    .into_iter()
                    .filter_map(|p| match p {
                        Part::Least(l) => Some(l),
                        _ => None,
                    })
                    .collect(),
            )),
            Question::ThreeAgents => {
                let (mut tied, mut strict) = (Vec::new(), Vec::new());
                for p in parts {
                    match p {
                        Part::Tied(v) => tied.push(v),
                        Part::Strict(vs) => strict.push(vs),
                        _ => {}
                    }
                }
                Folded::Three(Box::new(fold_three(m, tied, strict)))
            }
        }
    }
}
