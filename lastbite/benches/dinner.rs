//! Ethiopian Dinner speed targets (issue: foundation):
//! * crossout on 10^7 morsels in memory, next to sorting the two utility columns;
//! * the exact two-player SPE over all subsets (dense engine) at n = 16 and n = 22;
//! * mixed strategy profiles: fixed strategies at 10^6 morsels next to crossout
//!   alone (the anchor); crossout against greedy at 10^4 and 3 x 10^4 morsels, and the
//!   per-turn recomputation it replaced at 10^4.
//!
//! The n = 26 exact solve and the 10^6-line CSV run are measured end to end with the CLI
//! (`benches/crossout_vs_sort.sh`, README), since criterion's repetitions would take
//! minutes there.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use lastbite::engine::{Budget, Silent};
use lastbite::games::dinner::{
    crossout, evaluate, evaluate_by_recomputation, solve_exact, Dinner, DinnerTies, Setup,
    Strategy, TurnOrder, DEFAULT_DINNER_MEMORY,
};

/// A reproducible pseudo-random dinner (splitmix64), utilities in 0..10^9.
fn random_dinner(n: usize, seed: u64) -> Dinner {
    let mut next = splitmix(seed);
    Dinner::from_integers(2, (0..2 * n).map(|_| next()).collect()).unwrap()
}

/// A dinner of `n` morsels that B values as A does, give or take `noise` of A's
/// `n` steps: B's rank of a morsel lies within about `noise` of A's.
fn nearly_alike_dinner(n: usize, noise: u64, seed: u64) -> Dinner {
    let mut next = splitmix(seed);
    let step = 1_000_000_000 / n as i64;
    let utilities = (0..n).flat_map(|_| {
        let a = next();
        [a, a + next() % (noise as i64 * step)]
    });
    Dinner::from_integers(2, utilities.collect()).unwrap()
}

/// Numbers below 10^9 from SplitMix64.
fn splitmix(seed: u64) -> impl FnMut() -> i64 {
    let mut x = seed;
    move || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % 1_000_000_000) as i64
    }
}

fn crossout_large(c: &mut Criterion) {
    let n = 10_000_000;
    let d = random_dinner(n, 7);
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let (col_a, col_b): (Vec<i64>, Vec<i64>) =
        (0..n).map(|i| (d.utility(i, 0), d.utility(i, 1))).unzip();
    let mut g = c.benchmark_group("crossout_1e7");
    g.sample_size(10);
    g.bench_function("crossout", |b| b.iter(|| crossout(&setup).unwrap().scores));
    g.bench_function("sort_two_columns", |b| {
        b.iter(|| {
            let (mut a, mut bb) = (col_a.clone(), col_b.clone());
            a.sort_unstable();
            bb.sort_unstable();
            (a[0], bb[0])
        })
    });
    g.finish();
}

fn exact_spe(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact_spe");
    g.sample_size(10);
    for n in [16usize, 22] {
        let d = random_dinner(n, 11);
        let setup = Setup::plain(d).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                solve_exact(
                    &setup,
                    &DinnerTies::Index,
                    Budget::default(),
                    DEFAULT_DINNER_MEMORY,
                    &Silent,
                    None,
                )
                .unwrap()
                .scores
            })
        });
    }
    g.finish();
}

fn mixed_profiles(c: &mut Criterion) {
    let mut g = c.benchmark_group("mixed_profiles");
    g.sample_size(10);
    let d = random_dinner(1_000_000, 5);
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    g.bench_function("crossout_1e6", |b| {
        b.iter(|| crossout(&setup).unwrap().scores)
    });
    // Profiles without crossout eat down fixed lists: O(n log n).
    let profile = [Strategy::Greedy, Strategy::Masochistic];
    g.bench_function("greedy_vs_masochistic_1e6", |b| {
        b.iter(|| evaluate(&setup, &profile).unwrap().scores)
    });
    // Crossout's plan against a player who leaves it: kept as two sets, a deviation
    // costs its crossings, each found by one query of the records under alternation
    // (docs/performance-notes.md).
    for (n, other) in [
        (10_000usize, Strategy::Greedy),
        (100_000, Strategy::Greedy),
        (100_000, Strategy::Masochistic),
    ] {
        let small = random_dinner(n, 5);
        let order = TurnOrder::default_for(&small);
        let setup = Setup::ordered(small.clone(), order.clone()).unwrap();
        let profile = [Strategy::Crossout, other];
        g.bench_function(format!("crossout_vs_{other}_{n}"), |b| {
            b.iter(|| evaluate(&setup, &profile).unwrap().scores)
        });
    }
    // Other orders keep a bound of each record's slack and check the records it finds.
    let small = random_dinner(100_000, 5);
    let order = TurnOrder::parse("thue-morse", &small).unwrap();
    let setup = Setup::ordered(small.clone(), order.clone()).unwrap();
    let profile = [Strategy::Crossout, Strategy::Greedy];
    g.bench_function("crossout_vs_greedy_100000_thue_morse", |b| {
        b.iter(|| evaluate(&setup, &profile).unwrap().scores)
    });
    // Nearly alike rankings: a masochist's bite moves most planned morsels across, and
    // the coupling answers from the top of both rankings (docs/performance-notes.md).
    let alike = nearly_alike_dinner(100_000, 30, 5);
    let order = TurnOrder::parse("thue-morse", &alike).unwrap();
    let setup = Setup::ordered(alike.clone(), order.clone()).unwrap();
    let profile = [Strategy::Crossout, Strategy::Masochistic];
    g.bench_function("crossout_vs_masochistic_100000_nearly_alike", |b| {
        b.iter(|| evaluate(&setup, &profile).unwrap().scores)
    });
    // In between (B's rank within about sqrt(n) of A's): the coupling meets far back,
    // and the scan kept from there (`Tail`) answers until its meetings are spent.
    let between = nearly_alike_dinner(100_000, 1_000, 5);
    let order = TurnOrder::default_for(&between);
    let setup = Setup::ordered(between.clone(), order.clone()).unwrap();
    g.bench_function("crossout_vs_masochistic_100000_between", |b| {
        b.iter(|| evaluate(&setup, &profile).unwrap().scores)
    });
    // The anchor: crossout recomputed on every turn.
    let profile = [Strategy::Crossout, Strategy::Greedy];
    let small = random_dinner(10_000, 5);
    let order = TurnOrder::default_for(&small);
    let setup = Setup::ordered(small.clone(), order.clone()).unwrap();
    g.bench_function("crossout_vs_greedy_10000_recomputed", |b| {
        b.iter(|| evaluate_by_recomputation(&setup, &profile).unwrap().scores)
    });
    // The quadratic case: both players rank the morsels alike and the masochist eats
    // crossout's last planned morsel, so every planned morsel changes sides each time.
    let alike = {
        let d = random_dinner(3_000, 9);
        let a: Vec<i64> = (0..d.len()).map(|i| d.utility(i, 0)).collect();
        Dinner::from_integers(2, a.iter().flat_map(|&u| [u, u]).collect()).unwrap()
    };
    let order = TurnOrder::default_for(&alike);
    let setup = Setup::ordered(alike.clone(), order.clone()).unwrap();
    let profile = [Strategy::Crossout, Strategy::Masochistic];
    g.bench_function("alike_crossout_vs_masochistic_3000", |b| {
        b.iter(|| evaluate(&setup, &profile).unwrap().scores)
    });
    g.bench_function("alike_crossout_vs_masochistic_3000_recomputed", |b| {
        b.iter(|| evaluate_by_recomputation(&setup, &profile).unwrap().scores)
    });
    g.finish();
}

criterion_group!(benches, crossout_large, exact_spe, mixed_profiles);
criterion_main!(benches);
