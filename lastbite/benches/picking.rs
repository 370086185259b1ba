//! Picking-sequence speed targets (issue: picking sequences):
//! * sincere play of 10^6 morsels, two agents, next to sorting the two utility columns
//!   (the anchor: within 2x);
//! * one agent's best play against a sincere other (the two-agent greedy) at 10^5
//!   morsels (under 1 s);
//! * the exact search for three agents at 24 morsels (under 10 s);
//! * the exact expected sincere scores of 100 items, two agents, Borda (under 1 s), and
//!   the strategic ones (the same program on the reversed sequence);
//! * the best strategic sequence of 12 items with 6 turns each (16 items: the CLI, under a
//!   minute).

use criterion::{criterion_group, criterion_main, Criterion};
use lastbite::engine::Budget;
use lastbite::games::dinner::picking::{manipulate, sincere};
use lastbite::games::dinner::{Dinner, Setup, TurnOrder};

/// A reproducible pseudo-random dinner (splitmix64), utilities in 0..10^9.
fn random_dinner(players: usize, n: usize, seed: u64) -> Dinner {
    let mut x = seed;
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % 1_000_000_000) as i64
    };
    Dinner::from_integers(players, (0..players * n).map(|_| next()).collect()).unwrap()
}

fn sincere_large(c: &mut Criterion) {
    let n = 1_000_000;
    let d = random_dinner(2, n, 7);
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let (col_a, col_b): (Vec<i64>, Vec<i64>) =
        (0..n).map(|i| (d.utility(i, 0), d.utility(i, 1))).unzip();
    let mut g = c.benchmark_group("sincere_1e6");
    g.sample_size(10);
    g.bench_function("sincere", |b| b.iter(|| sincere(&setup).unwrap().len()));
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

fn manipulation(c: &mut Criterion) {
    let mut g = c.benchmark_group("manipulate");
    g.sample_size(10);
    let d = random_dinner(2, 100_000, 9);
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    g.bench_function("two_agents_1e5", |b| {
        b.iter(|| manipulate(&setup, 1, Budget::default()).unwrap().score)
    });
    let d = random_dinner(3, 24, 13);
    let order = TurnOrder::parse("ABC...", &d).unwrap();
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    g.bench_function("three_agents_24", |b| {
        b.iter(|| {
            manipulate(
                &setup,
                2,
                Budget {
                    max_states: 100_000_000,
                },
            )
            .unwrap()
            .score
        })
    });
    g.finish();
}

fn expectation(c: &mut Criterion) {
    use lastbite::games::dinner::picking::expected::{
        best_sequences, sincere_expected_two, strategic_expected_two, Play,
    };
    use num_bigint::BigInt;
    use num_rational::BigRational;
    let m = 100;
    let turns: Vec<u8> = (0..m).map(|t| (t % 2) as u8).collect();
    let borda: Vec<BigRational> = (0..m)
        .map(|r| BigRational::from_integer(BigInt::from(m - r)))
        .collect();
    let mut g = c.benchmark_group("expected");
    g.sample_size(10);
    g.bench_function("sincere_two_agents_100_borda", |b| {
        b.iter(|| sincere_expected_two(&turns, &borda))
    });
    g.bench_function("strategic_two_agents_100_borda", |b| {
        b.iter(|| strategic_expected_two(&turns, &borda))
    });
    let twelve: Vec<BigRational> = (0..12)
        .map(|r| BigRational::from_integer(BigInt::from(12 - r)))
        .collect();
    g.bench_function("best_strategic_order_12_items_6_6", |b| {
        b.iter(|| best_sequences([6, 6], &twelve, Play::Strategic).seen)
    });
    g.finish();
}

criterion_group!(benches, sincere_large, manipulation, expectation);
criterion_main!(benches);
