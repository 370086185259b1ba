//! Token Dollars speed targets: 7 players on 10 stacks (against the Riddler's reference
//! program, `benches/token_dollars_reference.py`), 10 players on 10 stacks and 4 players
//! on 30 stacks (each under 10 s).

use criterion::{criterion_group, criterion_main, Criterion};
use lastbite::games::tokens::{solve, Board, TokenTies};

fn tokens(c: &mut Criterion) {
    let mut g = c.benchmark_group("tokens");
    g.sample_size(20);
    for (stacks, players) in [(10, 7), (10, 10), (30, 4), (30, 5)] {
        let b = Board::dollars(stacks, players, false).unwrap();
        g.bench_function(format!("{players}_players_{stacks}_stacks"), |bench| {
            bench.iter(|| solve(&b, TokenTies::Lowest).payoffs)
        });
    }
    g.finish();
}

criterion_group!(benches, tokens);
criterion_main!(benches);
