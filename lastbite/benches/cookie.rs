//! Cookie-game speed targets: D(A) and a winning move for 10^6 components (O(n log n)),
//! the count table to n = 200 by lattice paths (under 10 s), and the nim distribution of
//! strict positions to n = 24 (under 30 s).

use criterion::{criterion_group, criterion_main, Criterion};
use lastbite::engine::Silent;
use lastbite::games::cookie::theory::{winning_interval, winning_rule};
use lastbite::games::cookie::{
    count_table_by_paths, d_value, NimTable, Packing, Position, DEFAULT_NIM_MEMORY,
};
use lastbite::rng::Rng;

fn cookie(c: &mut Criterion) {
    let mut g = c.benchmark_group("cookie");
    g.sample_size(10);
    let n = 1_000_000u64;
    // Distinct sizes in random order (the reduced form is strict), and the staircase.
    let mut rng = Rng::for_trial(5, 0);
    let random = Position::new(
        rng.permutation(3 * n as usize)[..n as usize]
            .iter()
            .map(|&x| x as u64)
            .collect(),
    );
    let stair = Position::new((1..=n).collect());
    for (name, p) in [("random", &random), ("staircase", &stair)] {
        g.bench_function(format!("d_value_1e6_{name}"), |b| b.iter(|| d_value(p)));
        g.bench_function(format!("d_and_winning_move_1e6_{name}"), |b| {
            b.iter(|| (d_value(p), winning_rule(&p.reduced())))
        });
    }
    g.bench_function("winning_interval_1e6_staircase", |b| {
        b.iter(|| winning_interval(&stair))
    });
    g.bench_function("count_table_paths_200", |b| {
        b.iter(|| count_table_by_paths(200, &Silent))
    });
    for (name, packing) in [
        ("nim_table_24_2bit", Packing::TwoBits),
        ("nim_table_24_4bit", Packing::FourBits),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                NimTable::build(24, packing, None, DEFAULT_NIM_MEMORY, &Silent)
                    .unwrap()
                    .distribution()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, cookie);
criterion_main!(benches);
