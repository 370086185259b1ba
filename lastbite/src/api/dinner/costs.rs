//! The dinner commands' cost models ([`crate::api::cost`]): the work of each command in
//! the units its loops count, from its checked request. Each command admits one of these
//! before its work; the calibration of each unit is the cost module's table.

use crate::api::cost::{
    Estimate, Work, DINNER_STATES, LAYER_STATES, MORSELS, NODES, PROFILE_ITEMS, SEQUENCE_STEPS,
    TRIAL_MORSELS,
};
use crate::games::dinner::picking::strategic::{balanced_two, instances, Question, Search};
use crate::games::dinner::{Setup, LEAN_FROM};

/// The exact solver over the subset lattice: `2^n` states, each a payoff per player.
pub(super) fn lattice(setup: &Setup) -> Estimate {
    lattice_of(setup.dinner().len(), setup.dinner().players())
}

/// [`lattice`] of a dinner of `n` morsels and `players` players.
pub(super) fn lattice_of(n: usize, players: usize) -> Estimate {
    Estimate::new(
        Work::pow2(n as f64).times(Work::count(players as f64 + 1.0)),
        DINNER_STATES,
    )
}

/// The exact solver of `dinner solve`: [`lattice`], at the kernel's pace where it takes
/// the dinner (plain, from [`LEAN_FROM`] morsels, no explanation asked).
pub(super) fn exact(setup: &Setup, explain: bool) -> Estimate {
    let plain = setup.scoring().is_plain() && setup.rules().before().is_none();
    match plain && !explain && setup.dinner().len() >= LEAN_FROM {
        true => Estimate::new(lattice(setup).work, LAYER_STATES),
        false => lattice(setup),
    }
}

/// Crossout or sincere play: a sort and a pass over `n` morsels.
pub(super) fn crossout(n: usize) -> Estimate {
    let n = n.max(1) as f64;
    Estimate::new(Work::count(n * (n.log2() + 1.0)), MORSELS)
}

/// A dinner's whole game tree (`n!/(n-k)!` nodes at depth `k`), up to `max_nodes`, which
/// refuses more.
pub(super) fn tree(n: usize, max_nodes: u64) -> Estimate {
    let mut nodes = Work::count(1.0);
    let mut level = Work::count(1.0);
    for k in 0..n {
        level = level.times(Work::count((n - k) as f64));
        nodes = nodes.plus(level);
        if nodes.log10() > (max_nodes as f64).log10() {
            return Estimate::new(Work::count(max_nodes as f64), NODES);
        }
    }
    Estimate::new(nodes.times(Work::count(n.max(1) as f64)), NODES)
}

/// Every permutation dinner of each size in `sizes`, each solved over its lattice
/// `factor` times (the discount search: crossout checked against every deviation).
pub(super) fn permutation_dinners(sizes: std::ops::RangeInclusive<usize>, factor: f64) -> Estimate {
    let mut w = Work::ZERO;
    for s in sizes {
        w = w.plus(
            Work::factorial(s as f64)
                .times(Work::pow2(s as f64))
                .times(Work::count(3.0 * factor)),
        );
    }
    Estimate::new(w, DINNER_STATES)
}

/// The Hopkins-Jones count of the attainable sets of a dinner of `size` morsels: a walk
/// over the subsets for each player.
pub(super) fn attainable(size: usize) -> Estimate {
    Estimate::new(
        Work::pow2(size as f64).times(Work::count(2.0 * size as f64)),
        DINNER_STATES,
    )
}

/// Figure 1: every pair of the paper's strategies played out over the lattice, each
/// a pass over the morsels.
pub(super) fn strategy_pairs(n: usize) -> Estimate {
    let n = n.max(1) as f64;
    Estimate::new(Work::pow2(n).times(Work::count(n * n / 4.0)), DINNER_STATES)
}

/// Crossout's Pareto efficiency in one dinner: its allocation against every improving
/// exchange, about `n^3` steps.
pub(super) fn pareto_one(n: usize) -> Estimate {
    Estimate::new(Work::count(4.0 * (n as f64).powi(3)), MORSELS)
}

/// Crossout's Pareto efficiency in every permutation dinner of size `n`: `n!` dinners,
/// each about `n` steps per morsel.
pub(super) fn pareto_sweep(n: usize) -> Estimate {
    Estimate::new(
        Work::factorial(n as f64).times(Work::count(6.0 * n as f64)),
        DINNER_STATES,
    )
}

/// Checking a strategy profile over the lattice: every state's every deviation, each a
/// pass over the morsels.
pub(super) fn verify(setup: &Setup) -> Estimate {
    let n = setup.dinner().len().max(1) as f64;
    lattice(setup).times(Work::count(3.0 * n))
}

/// The exact solve of a dinner by the generic engine (a hash map of states, and the
/// moves of each): about `n` times the lattice's work.
pub(super) fn engine(setup: &Setup) -> Estimate {
    let n = setup.dinner().len().max(1) as f64;
    lattice(setup).times(Work::count(1.1 * n))
}

/// The crossout board: crossout, and a row of the picture per morsel when drawn.
pub(super) fn board(n: usize, picture: bool) -> Estimate {
    let rows = if picture { 150.0 * n as f64 } else { 0.0 };
    crossout(n).plus(Estimate::new(Work::count(rows), MORSELS))
}

/// Drawing `nodes` nodes of a tree.
pub(crate) fn drawn(nodes: u64) -> Estimate {
    Estimate::new(Work::count(nodes as f64), NODES)
}

/// `trials` random dinners of `size` morsels and `players` players, each solved by a
/// method whose work per dinner is `per_dinner` (in morsel-players), and each drawn from
/// its own seeded generator and merged into the sweep (measured about ten morsel-players
/// a trial: what dominates a million trials of a small dinner).
pub(super) fn trials(trials: u64, per_dinner: Work) -> Estimate {
    Estimate::new(
        Work::count(trials as f64).times(per_dinner.plus(Work::count(10.0))),
        TRIAL_MORSELS,
    )
}

/// `dinner fairness` over `trials` random dinners of `size` morsels and `players` agents:
/// each is crossout and the maximin shares (measured about `n^2` trial morsels for two
/// agents, and fifty more for the failures' checks whatever the size), an equilibrium
/// over the lattice for more agents, and about four times the lot for every equilibrium.
pub(super) fn random_fairness(
    trials_: u64,
    size: usize,
    players: usize,
    every_spe: bool,
) -> Estimate {
    let (n, k) = (size as f64, players as f64);
    let lattice = match players > 2 {
        true => Work::pow2(n).times(Work::count((k + 1.0) / 4.0)),
        false => Work::ZERO,
    };
    let per = Work::count(n * n * k / 2.0 + 50.0).plus(lattice);
    trials(
        trials_,
        per.times(Work::count(if every_spe { 4.0 } else { 1.0 })),
    )
}

/// `profiles` profiles of rankings of `items` items, each evaluated.
pub(super) fn profiles(profiles: Work, items: usize) -> Estimate {
    Estimate::new(
        profiles.times(Work::count(items.max(1) as f64)),
        PROFILE_ITEMS,
    )
}

/// The search over picking sequences of `m` items: measured to grow about 2.5-fold an
/// item (the sequences and the exact expectation of each), `m^2` steps each; fixed
/// counts leave about a tenth of them.
pub(super) fn sequences(m: usize, counts: bool) -> Estimate {
    let m = m as f64;
    let share = if counts { 0.1 } else { 1.0 };
    Estimate::new(
        Work::pow(2.5, m).times(Work::count(share * m.max(1.0) * m.max(1.0))),
        SEQUENCE_STEPS,
    )
}

/// What `dinner expected`'s cost depends on, read off its request.
pub(super) struct ExpectedShape {
    pub size: usize,
    pub players: usize,
    pub enumerate: bool,
    pub max_profiles: u64,
    pub samples: Option<u64>,
    pub strategic: bool,
}

/// `dinner expected`'s cost model: two agents take exact programs of `O(m^3)` operations
/// (each about a profile item's work times `m`); more agents (or `enumerate`) play out
/// every profile of rankings (`(m!)^k`, about 23 profile items of work an item, measured),
/// or each sample where `samples` is given past `max_profiles` (a count past it without
/// samples is refused at once, before any work).
pub(super) fn expected(e: &ExpectedShape) -> Estimate {
    let (m, k) = (e.size as f64, e.players as f64);
    let program = Work::count(0.07 * m * m * m * k);
    if !e.enumerate && e.players <= 2 {
        return profiles(program, e.size);
    }
    let every = Work::factorial(m).power(k);
    let over = every.log10() > (e.max_profiles.max(1) as f64).log10();
    let played = match (e.samples, over) {
        (Some(s), true) => Work::count(s as f64),
        (None, true) => return profiles(Work::count(1.0), e.size),
        (_, false) => every,
    };
    // Strategic play of more than two agents: an equilibrium over the item masks each.
    let each = match e.strategic && e.players > 2 {
        true => Work::pow2(m).times(Work::count(k * 23.0)),
        false => Work::count(23.0),
    };
    profiles(played.times(each), e.size)
}

/// `dinner strategic-fairness`'s share of one run (an item of its sweep): the instances
/// the run examines, each as [`strategic`] weighs an instance of its size.
pub(super) fn strategic_run(search: &Search, m: usize, run: u64) -> f64 {
    let two_agent_profiles = fact(m - 1) * balanced_two(m).len() as f64;
    let strict = m <= search.strict_items;
    let each = m as f64 * item_step(search.question, m, search.strict_items);
    match search.question {
        Question::TwoAgents => {
            two_agent_profiles * (each + if strict { 2f64.powi(m as i32) } else { 0.0 })
        }
        Question::Guarantees => two_agent_profiles * 2.0 * each,
        Question::ThreeAgents => {
            let v = (search.values.end() - search.values.start() + 1) as f64;
            let types = v * v * v;
            match (run as f64) < types {
                // The multisets of m types, about evenly over their first type.
                true => {
                    (0..m)
                        .map(|i| (types + i as f64) / (i + 1) as f64)
                        .product::<f64>()
                        / types
                        * each
                }
                // The profiles whose second ranking starts with the run's two items.
                false => fact(m.saturating_sub(2)) * fact(m) * 2.0 * strict_three_step(m),
            }
        }
    }
}

fn fact(k: usize) -> f64 {
    (1..=k).map(|x| x as f64).product()
}

/// The work of one item of one instance of `m` items, in profile items (measured).
fn item_step(question: Question, m: usize, strict_items: usize) -> f64 {
    match question {
        // 12 items took 1,148 s of one core, 0.096 of a unit an item step.
        Question::TwoAgents => 0.12,
        Question::ThreeAgents => {
            // Items past the strict ones tie in utility, and each tie multiplies the
            // equilibria taken (measured about 1.9-fold a tied item from the fourth on).
            let tied = (1.9f64.powi((m - strict_items.min(m)) as i32) / 4.5).max(1.0);
            0.15 * 2f64.powi(m as i32) * tied
        }
        Question::Guarantees => 0.09,
    }
}

/// The work of one profile of strict rankings of three agents under one scoring, in
/// profile items: from 3 to 8 items the shared induction's moves at the three levels
/// above the shared subgames (measured 0.15 of a unit a move: 29 million profiles of 8
/// items, both scorings, in 122 s of one core), else the plain induction over `2^m` masks.
fn strict_three_step(m: usize) -> f64 {
    let pairs = m * m.saturating_sub(1) / 2;
    match m {
        3..=8 => 0.15 * (pairs * (m - 2) + m * (m - 1) + m) as f64,
        _ => m as f64 * 0.15 * 2f64.powi(m as i32),
    }
}

/// `dinner strategic-fairness`'s cost model: the instances of each size `m` (the new
/// ones a size adds), each `m` item steps, and an induction over the `2^m` item masks for
/// each instance that takes every equilibrium (strict rankings under Borda, tied
/// utilities); three agents' strict profiles at [`strict_three_step`].
pub(super) fn strategic(
    question: Question,
    items: usize,
    strict_items: usize,
    values: u64,
) -> Estimate {
    // Three agents' tied instances and strict profiles are weighed apart.
    let strict_apart = matches!(question, Question::ThreeAgents);
    let upto = |m: usize| {
        let strict = if strict_apart { 0 } else { strict_items.min(m) };
        instances(question, m, strict, values) as f64
    };
    let mut work = Work::ZERO;
    for m in 1..=items {
        let new = (upto(m) - upto(m - 1)).max(0.0);
        let each = item_step(question, m, strict_items);
        work = work.plus(Work::count(new * m as f64 * each));
        if strict_apart && m <= strict_items {
            let profiles = fact(m) * fact(m) * 2.0;
            work = work.plus(Work::count(profiles * strict_three_step(m)));
        }
        if matches!(question, Question::TwoAgents) && m <= strict_items {
            // Every Borda equilibrium of each pair: an induction over the `2^m` item
            // masks keeping every equilibrium allocation (measured about a unit a mask:
            // 58 million pairs of 10 items took 42 minutes on 2 cores).
            let ordinal = |m: usize| instances(question, m, 0, values) as f64;
            let pairs = (ordinal(m) - ordinal(m - 1)).max(0.0);
            work = work.plus(Work::count(pairs * 2f64.powi(m as i32)));
        }
    }
    Estimate::new(work, PROFILE_ITEMS)
}
