//! Subtraction-game speed target (issue: subtraction games): all four conventions and
//! the zero-sum score for |S| = 10, max S = 1000, every heap up to 10^7, under 2 s.

use criterion::{criterion_group, criterion_main, Criterion};
use lastbite::games::subtraction::{Ruleset, Table};

fn table_1e7(c: &mut Criterion) {
    let set = Ruleset::new(vec![17, 101, 233, 347, 499, 503, 641, 777, 911, 1000]).unwrap();
    let mut g = c.benchmark_group("subtraction");
    g.sample_size(10);
    g.bench_function("table_s10_max1000_h1e7", |b| {
        b.iter(|| Table::compute(&set, 10_000_000).unwrap().len())
    });
    g.finish();
}

criterion_group!(benches, table_1e7);
criterion_main!(benches);
