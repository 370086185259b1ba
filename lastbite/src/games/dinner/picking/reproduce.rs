//! The picking-sequence literature's claims, each against a computation over a
//! stated range: alternation's optimality for sincere and strategic play (Bouveret and
//! Lang 2011; Kalinowski, Narodytska and Walsh 2013), the two-agent equilibrium by the
//! reversed sequence (Kohler and Chandrasekaran 1971), sincere round-robin's EF1
//! (Caragiannis et al. 2016) and the manipulator's factor of two (Xiao and Ling 2020);
//! and the questions they leave open, answered. The claims come from
//! `data/published/picking-sequences.toml`; every computed value is the verdict of a run.

use num_bigint::BigInt;
use num_rational::BigRational;
use serde::Deserialize;

use super::equilibria::spe_allocations;
use super::expected::{best_sequences, sincere_expected_two, strategic_expected_two, Best, Play};
use super::fairness::fairness;
use super::strategic::{three_agents, two_agents};
use super::{bundles, manipulate, sincere};
use crate::engine::{Budget, Silent};
use crate::games::dinner::model::Setup;
use crate::games::dinner::model::{Dinner, Rules, TurnOrder};
use crate::games::dinner::solver::game::DinnerTies;
use crate::games::dinner::solver::solve::{solve_exact, DEFAULT_DINNER_MEMORY};
use crate::reproduce::{check, Answer, Check, Recorded};
use crate::rng::Rng;

/// The claims, as the papers state them.
pub const PUBLISHED: &str = include_str!("../../../../data/published/picking-sequences.toml");

/// No answer here cites a sweep too long to rerun.
pub const RECORDED: &[Recorded] = &[];

#[derive(Deserialize)]
struct Published {
    alternation: Optimal,
    strategic: Optimal,
    reversal: Holds,
    round_robin_ef1: Holds,
    manipulation: Holds,
}

#[derive(Deserialize)]
struct Optimal {
    #[serde(rename = "where")]
    source: String,
    best: String,
    items: usize,
}

#[derive(Deserialize)]
struct Holds {
    #[serde(rename = "where")]
    source: String,
    holds: String,
    trials: u64,
}

fn published() -> Published {
    toml::from_str(PUBLISHED).expect("the embedded published-values file is valid")
}

/// Borda scores of `m` items: m, m - 1, ..., 1.
fn borda(m: usize) -> Vec<BigRational> {
    (0..m)
        .map(|r| BigRational::from_integer(BigInt::from(m - r)))
        .collect()
}

/// Lexicographic scores of `m` items: 1/2, 1/4, ...
fn lexicographic(m: usize) -> Vec<BigRational> {
    (1..=m)
        .map(|r| BigRational::new(BigInt::from(1), BigInt::from(2).pow(r as u32)))
        .collect()
}

fn text(turns: &[u8]) -> String {
    turns.iter().map(|&p| char::from(b'A' + p)).collect()
}

/// The best sequences of `m` items over every split of the turns.
fn best_of_all(scores: &[BigRational], play: Play) -> Best {
    let m = scores.len();
    (0..=m)
        .map(|a| best_sequences([a, m - a], scores, play))
        .reduce(Best::merge)
        .expect("one split at least")
}

fn expected(turns: &[u8], scores: &[BigRational], play: Play) -> BigRational {
    let [a, b] = match play {
        Play::Sincere => sincere_expected_two(turns, scores),
        Play::Strategic => strategic_expected_two(turns, scores),
    };
    a + b
}

/// `alternation` when alternation (`ABAB...`) reaches the best expected utilitarian
/// welfare under Borda scores for every number of items up to `items`, over every
/// sequence; else the first size where it does not.
fn alternation_verdict(items: usize, play: Play) -> String {
    for m in 1..=items {
        let scores = borda(m);
        let best = best_of_all(&scores, play);
        let alternation: Vec<u8> = (0..m).map(|t| (t % 2) as u8).collect();
        let w = expected(&alternation, &scores, play);
        if w != best.welfare {
            return format!(
                "not at {m} items: {} gives {} against alternation's {w}",
                text(&best.tied[0]),
                best.welfare
            );
        }
    }
    "alternation".into()
}

/// A random two-agent dinner with strict preferences (distinct utilities per agent, any
/// gaps) and a random sequence.
fn strict_dinner(rng: &mut Rng, max: u64) -> (Vec<i64>, String) {
    let m = 1 + rng.below(max) as usize;
    let ranks: Vec<Vec<i64>> = (0..2).map(|_| rng.permutation(m)).collect();
    let steps: Vec<Vec<i64>> = (0..2)
        .map(|_| (0..m).map(|_| 1 + rng.below(9) as i64).collect())
        .collect();
    let util = |p: usize, i: usize| -> i64 { steps[p][..ranks[p][i] as usize].iter().sum() };
    let flat = (0..m).flat_map(|i| [util(0, i), util(1, i)]).collect();
    let order = (0..m)
        .map(|_| if rng.below(2) == 0 { 'A' } else { 'B' })
        .collect();
    (flat, order)
}

fn sorted(mut b: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for x in &mut b {
        x.sort_unstable();
    }
    b
}

/// Over `trials` strict dinners, the exact solver's equilibrium allocation against
/// sincere play of the reversed sequence with the rankings reversed and swapped.
fn reversal_verdict(trials: u64) -> String {
    let mut differ = Vec::new();
    for trial in 0..trials {
        let mut rng = Rng::for_trial(2013, trial);
        let (flat, order) = strict_dinner(&mut rng, 10);
        let d = Dinner::from_integers(2, flat.clone()).expect("valid dinner");
        let o = TurnOrder::parse(&order, &d).expect("valid order");
        let setup = Setup::new(d, o, Rules::default()).expect("valid setup");
        let spe = solve_exact(
            &setup,
            &DinnerTies::Index,
            Budget::default(),
            DEFAULT_DINNER_MEMORY,
            &Silent,
            None,
        )
        .expect("small dinner solves");
        let flipped: Vec<i64> = flat.chunks(2).flat_map(|u| [-u[1], -u[0]]).collect();
        let r = Dinner::from_integers(2, flipped).expect("valid dinner");
        let back: String = order.chars().rev().collect();
        let ro = TurnOrder::parse(&back, &r).expect("valid order");
        let reversed = bundles(
            2,
            &sincere(&Setup::ordered(r, ro).expect("valid")).expect("valid"),
        );
        if sorted(bundles(2, &spe.eating)) != sorted(reversed) {
            differ.push(trial);
        }
    }
    if differ.is_empty() {
        "every dinner".into()
    } else {
        format!(
            "{} of {trials} dinners differ (trials {differ:?})",
            differ.len()
        )
    }
}

/// A random dinner of `players` with utilities `0..values` (ties when `values` is small)
/// and up to `max` morsels.
fn random_dinner(rng: &mut Rng, players: usize, max: u64, values: u64) -> Dinner {
    let m = 1 + rng.below(max) as usize;
    let flat = (0..m * players).map(|_| rng.below(values) as i64).collect();
    Dinner::from_integers(players, flat).expect("valid dinner")
}

fn round_robin(d: &Dinner) -> TurnOrder {
    TurnOrder::parse("alternate", d).expect("valid order")
}

/// Over `trials` random dinners of 2 to 4 agents, sincere round-robin's allocations
/// that are not EF1.
fn round_robin_verdict(trials: u64) -> String {
    let budget = Budget { max_states: 1 };
    let mut failing = 0;
    for trial in 0..trials {
        let mut rng = Rng::for_trial(2016, trial);
        let players = 2 + (trial % 3) as usize;
        let d = random_dinner(&mut rng, players, 12, 10);
        let order = round_robin(&d);
        let b = bundles(
            players,
            &sincere(&Setup::ordered(d.clone(), order).expect("valid")).expect("valid"),
        );
        if fairness(&d, &b, budget).iter().any(|f| !f.ef1) {
            failing += 1;
        }
    }
    if failing == 0 {
        "every allocation".into()
    } else {
        format!("{failing} of {trials} allocations are not EF1")
    }
}

/// Over `trials` random dinners (goods, 2 or 3 agents, any sequence), the manipulator's
/// best score against twice its sincere score; with the largest ratio found.
fn manipulation_verdict(trials: u64) -> (String, String) {
    let mut over = 0;
    let mut largest = (0i128, 1i128);
    for trial in 0..trials {
        let mut rng = Rng::for_trial(2020, trial);
        let players = 2 + (trial % 2) as usize;
        let d = random_dinner(&mut rng, players, 10, 10);
        let order: String = (0..d.len())
            .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
            .collect();
        let o = TurnOrder::parse(&order, &d).expect("valid order");
        let agent = rng.below(players as u64) as usize;
        let setup = Setup::ordered(d.clone(), o).expect("valid");
        let best = manipulate(&setup, agent, Budget::default()).expect("small search");
        let honest: i128 = sincere(&setup)
            .expect("valid")
            .iter()
            .filter(|b| b.player == agent)
            .map(|b| d.utility(b.morsel, agent) as i128)
            .sum();
        if best.score > 2 * honest {
            over += 1;
        }
        if honest > 0 && best.score * largest.1 > largest.0 * honest {
            largest = (best.score, honest);
        }
    }
    let ratio = num_rational::Ratio::new(largest.0, largest.1).to_string();
    let verdict = if over == 0 {
        "at most twice the sincere score".into()
    } else {
        format!("{over} of {trials} manipulators gain more")
    };
    (verdict, ratio)
}

/// Every claim of the file, against its computation.
pub fn checks() -> Vec<Check> {
    let p = published();
    let mut out = Vec::new();
    // The two searches over every sequence take most of the time: one a core.
    let (sincere, strategic) = std::thread::scope(|s| {
        let other = s.spawn(|| alternation_verdict(p.strategic.items, Play::Strategic));
        let here = alternation_verdict(p.alternation.items, Play::Sincere);
        (here, other.join().expect("the search does not panic"))
    });
    let a = &p.alternation;
    out.push(check(
        "picking.alternation_sincere",
        &a.source,
        &format!("the best sequence for two sincere agents, by expected utilitarian welfare under Borda scores and impartial culture (every sequence of 1 to {} items, exact)", a.items),
        a.best.clone(),
        sincere,
    ));
    let s = &p.strategic;
    out.push(check(
        "picking.alternation_strategic",
        &s.source,
        &format!("the best sequence when both agents play the subgame-perfect equilibrium, Borda scores (every sequence of 1 to {} items, exact)", s.items),
        s.best.clone(),
        strategic,
    ));
    let r = &p.reversal;
    out.push(check(
        "picking.reversal",
        &r.source,
        &format!("the exact solver's equilibrium allocation is sincere play of the reversed sequence, each agent taking the other's least liked item ({} random dinners with strict preferences, up to 10 morsels)", r.trials),
        r.holds.clone(),
        reversal_verdict(r.trials),
    ));
    let e = &p.round_robin_ef1;
    out.push(check(
        "picking.round_robin_ef1",
        &e.source,
        &format!("sincere round-robin allocations are EF1 ({} random dinners of 2 to 4 agents, up to 12 morsels, utilities 0 to 9 with ties)", e.trials),
        e.holds.clone(),
        round_robin_verdict(e.trials),
    ));
    let m = &p.manipulation;
    let (verdict, _) = manipulation_verdict(m.trials);
    out.push(check(
        "picking.manipulation_factor",
        &m.source,
        &format!("one agent's best play against sincere others gets at most twice its sincere score ({} random dinners of 2 or 3 agents, any sequence, up to 10 morsels)", m.trials),
        m.holds.clone(),
        verdict,
    ));
    out
}

/// How many of `trials` random round-robin dinners have an equilibrium allocation that is
/// not EF1, and how many allocations there were.
fn every_spe_ef1(players: usize, max: u64, values: u64, trials: u64) -> (u64, u64, Option<String>) {
    let budget = Budget::default();
    let (mut dinners, mut allocations, mut first) = (0, 0, None);
    for trial in 0..trials {
        let mut rng = Rng::for_trial(29, trial * 8 + players as u64);
        let d = random_dinner(&mut rng, players, max, values);
        let setup = Setup::new(d.clone(), round_robin(&d), Rules::default()).expect("valid");
        let all = spe_allocations(&setup, budget).expect("small dinner");
        allocations += all.len() as u64;
        let bad = all.iter().find(|b| {
            fairness(&d, b, Budget { max_states: 1 })
                .iter()
                .any(|f| !f.ef1)
        });
        if let Some(b) = bad {
            dinners += 1;
            if first.is_none() {
                let morsels: Vec<String> = (0..d.len()).map(|i| d.morsel_text(i)).collect();
                first = Some(format!("{} eaten as {b:?}", morsels.join(" ")));
            }
        }
    }
    (dinners, allocations, first)
}

/// The random dinners' answer settled at small sizes: every profile (two agents, every
/// recursively balanced sequence of up to 8 items; three agents, round robin, utilities 0
/// or 1 up to 7 items and strict rankings up to 5).
fn exhaustive_ef1() -> Answer {
    let limit = 1 << 24;
    let (mut pairs, mut two_fail) = (0u64, 0u64);
    for m in 1..=8 {
        let r = two_agents(m, true, limit, &Silent).expect("small sizes");
        pairs += r.verdicts[1][0].instances;
        two_fail += r.verdicts[1].iter().map(|v| v.failures).sum::<u64>();
    }
    let mut tied = None;
    let mut strict_fail = 0;
    for m in 1..=7 {
        let r = three_agents(m, 0..=1, false, m <= 5, limit, &Silent).expect("small sizes");
        strict_fail += r.borda.failures + r.lexicographic.failures;
        if tied.is_none() && r.tied.failures > 0 {
            tied = Some((m, r.tied.failures, r.tied.instances));
        }
    }
    let tied = match tied {
        Some((m, f, n)) => format!("the fewest items with an instance of utilities 0 or 1 whose equilibrium allocation is not EF1 is {m} ({f} of {n} instances up to relabelling the items)"),
        None => "no instance of utilities 0 or 1 up to 7 items has an equilibrium allocation that is not EF1".into(),
    };
    Answer {
        id: "picking.every_spe_ef1_exhaustive".into(),
        question: "Is every equilibrium allocation EF1 over every profile at small sizes, not only over random dinners?".into(),
        answer: format!(
            "Two agents, strict rankings, every recursively balanced sequence of 1 to 8 items ({pairs} sequence and profile pairs): {two_fail} failures of EF1 under Borda scores (every equilibrium), lexicographic scores and every consistent additive utility. Three agents, round robin: {tied}; with strict rankings up to 5 items, {strict_fail} failures (Borda and lexicographic). `lastbite dinner strategic-fairness` goes further."
        ),
    }
}

/// The questions the papers leave open, answered by this run.
pub fn answers() -> Vec<Answer> {
    let mut out = Vec::new();
    let mut parts = Vec::new();
    for (players, max, values, kind) in [
        (2, 8, 1000, "utilities 0 to 999"),
        (2, 8, 3, "utilities 0 to 2 (many ties)"),
        (3, 7, 1000, "utilities 0 to 999"),
        (3, 7, 3, "utilities 0 to 2 (many ties)"),
    ] {
        let trials = 150;
        let (bad, allocations, first) = every_spe_ef1(players, max, values, trials);
        parts.push(format!(
            "{players} agents, {kind}: {bad} of {trials} dinners ({allocations} equilibrium allocations){}",
            first.map_or(String::new(), |f| format!(", e.g. {f}"))
        ));
    }
    out.push(Answer {
        id: "picking.every_spe_ef1".into(),
        question: "Sincere round-robin is EF1; is every subgame-perfect equilibrium allocation of round-robin EF1 too?".into(),
        answer: format!(
            "Dinners with an equilibrium allocation that is not EF1, over random dinners of up to 8 (2 agents) or 7 (3 agents) morsels: {}.",
            parts.join("; ")
        ),
    });
    out.push(exhaustive_ef1());
    let (_, ratio) = manipulation_verdict(published().manipulation.trials);
    out.push(Answer {
        id: "picking.manipulation_ratio".into(),
        question: "How close do random instances come to the manipulator's factor of two?".into(),
        answer: format!("The largest ratio of the best manipulation's score to the sincere score over the check's random dinners: {ratio}."),
    });
    // Strategic play against sincere play, sequence by sequence.
    let m = 8;
    let (b, l) = (borda(m), lexicographic(m));
    let mut mirrored = 0;
    for code in 0..1u32 << m {
        let turns: Vec<u8> = (0..m).map(|t| (code >> t & 1) as u8).collect();
        let back: Vec<u8> = turns.iter().rev().copied().collect();
        if expected(&turns, &b, Play::Strategic) == expected(&back, &b, Play::Sincere) {
            mirrored += 1;
        }
    }
    let lex = best_sequences([6, 6], &lexicographic(12), Play::Strategic);
    let alternation: Vec<u8> = (0..m).map(|t| (t % 2) as u8).collect();
    out.push(Answer {
        id: "picking.strategic_sequences".into(),
        question: "What does strategic play cost, and which sequence is best for it beyond Borda scores?".into(),
        answer: format!(
            "Under Borda scores a sequence's expected equilibrium welfare equals the expected sincere welfare of the reversed sequence ({mirrored} of {} sequences of {m} items; it follows from the reversal for every linear scoring), so alternation loses nothing. Under lexicographic scores it does: alternation of {m} items gives {} sincere and {} strategic, and the best strategic sequence of 12 items with 6 turns each is {} ({}), not alternation.",
            1u32 << m,
            expected(&alternation, &l, Play::Sincere),
            expected(&alternation, &l, Play::Strategic),
            text(&lex.tied[0]),
            lex.welfare
        ),
    });
    out
}
