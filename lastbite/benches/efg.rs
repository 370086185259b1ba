//! `.efg` speed target: read and solve a 10^6-node file in under 2 s (the whole command
//! with memory is measured by `benches/efg_read_solve.sh`). Here the phases apart, on a
//! random game of 10^6 nodes (2 players, chance at a fifth of the inner nodes).

use criterion::{criterion_group, criterion_main, Criterion};
use lastbite::engine::{Silent, TieBreak, Ties};
use lastbite::games::efg::{random_tree, solve, Efg, RandomSpec};

fn efg(c: &mut Criterion) {
    let game = random_tree(&RandomSpec {
        nodes: 1_000_000,
        seed: 7,
        ..RandomSpec::default()
    });
    let text = game.to_text();
    let ties = Ties::uniform(TieBreak::First, 2);
    let mut g = c.benchmark_group("efg_1e6_nodes");
    g.sample_size(10);
    g.bench_function("parse", |b| {
        b.iter(|| Efg::parse(&text, u64::MAX).unwrap().nodes().len())
    });
    g.bench_function("solve", |b| {
        b.iter(|| solve(&game, &ties, &Silent).unwrap().choice(0))
    });
    g.bench_function("parse_and_solve", |b| {
        b.iter(|| {
            let g = Efg::parse(&text, u64::MAX).unwrap();
            solve(&g, &ties, &Silent).unwrap().choice(0)
        })
    });
    g.finish();
}

criterion_group!(benches, efg);
criterion_main!(benches);
