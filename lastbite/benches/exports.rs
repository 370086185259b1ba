//! Export speed targets (issue "Results into papers"): a game tree of 10^4 nodes laid out
//! and written in under 1 s, and a 10^4-row table in LaTeX in under 1 s. Measured the
//! way the commands run: a random `.efg` game of 10^4 nodes (chance at a fifth of the
//! inner nodes) solved, unfolded whole, laid out and written as SVG (`efg draw`), its
//! SVG translated to TikZ; Table 3's layout for heaps 0..9999 (`subtraction table`)
//! written as a longtable. The solve itself is timed apart, as the anchor.

use criterion::{criterion_group, criterion_main, Criterion};
use lastbite::api::{efg, subtraction, Control};
use lastbite::engine::{Silent, TieBreak, Ties};
use lastbite::games::efg::{random_tree, solve, RandomSpec};
use lastbite::table::Tabulate;

fn exports(c: &mut Criterion) {
    let game = random_tree(&RandomSpec {
        nodes: 10_000,
        seed: 7,
        ..RandomSpec::default()
    });
    let text = game.to_text();
    let ctl = Control::silent();
    let draw = efg::DrawRequest {
        data: Some(text.clone()),
        draw_nodes: 10_000,
        spe: false,
        ..Default::default()
    };
    let drawn = efg::draw(&draw, &ctl).unwrap();
    assert_eq!(drawn.drawn_nodes, 10_000);
    let table = subtraction::table(
        &subtraction::TableRequest {
            set: "2,5,7".into(),
            max_heap: 9_999,
            ..Default::default()
        },
        &ctl,
    )
    .unwrap();
    let ties = Ties::uniform(TieBreak::First, 2);
    let mut g = c.benchmark_group("exports");
    g.sample_size(10);
    g.bench_function("anchor_efg_solve_1e4", |b| {
        b.iter(|| solve(&game, &ties, &Silent).unwrap().choice(0))
    });
    g.bench_function("tree_1e4_nodes_svg", |b| {
        b.iter(|| efg::draw(&draw, &ctl).unwrap().svg.len())
    });
    g.bench_function("tree_1e4_nodes_tikz", |b| {
        b.iter(|| lastbite::tikz::from_svg(&drawn.svg).unwrap().len())
    });
    g.bench_function("table_1e4_rows_latex", |b| {
        b.iter(|| lastbite::latex::tables(&table.tables()).len())
    });
    g.finish();
}

criterion_group!(benches, exports);
criterion_main!(benches);
