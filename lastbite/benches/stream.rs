//! A STREAM-like measure of this machine's memory bandwidth (McCalpin's four kernels:
//! copy, scale, add, triad over arrays far larger than the caches, on every core with
//! rayon), then the lean exact solver on 3-player dinners of 22, 26 and (with
//! `STREAM_DINNER_30=1`) 30 morsels: states per second and bytes moved per state, against
//! the triad bandwidth; then the exact solver as `dinner solve` runs it (plain dinners go
//! through the specialised kernel) on 2 and 3 players x 26 morsels: states a second, the
//! bytes its necessary traffic moves a state (each state's payoff vector written once and
//! read by each of its parents), and the ratio of the solve's
//! time to the time those bytes take at the triad speed of the same run (the target: within
//! 2x of that bound means a ratio of at most 2).
//!
//! `cargo bench -p lastbite --bench stream` (about a minute; 30 morsels add 2 to 4
//! minutes and 8 GB).

use std::time::Instant;

use lastbite::engine::Budget;
use lastbite::engine::{solve_lean, IndexedGame, Silent, TieBreak, Ties};
use lastbite::games::dinner::{
    solve_exact, Dinner, DinnerGame, DinnerTies, Setup, TurnOrder, DEFAULT_DINNER_MEMORY,
};
use lastbite::rng::Rng;
use rayon::prelude::*;

const LEN: usize = 1 << 26; // 512 MiB an array of f64

/// Best bandwidth in GB/s of `runs` runs of a kernel moving `bytes` a run.
fn best(runs: usize, bytes: f64, mut kernel: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            kernel();
            bytes / t.elapsed().as_secs_f64() / 1e9
        })
        .fold(0.0, f64::max)
}

fn main() {
    let mut a = vec![1.0f64; LEN];
    let mut b = vec![2.0f64; LEN];
    let mut c = vec![0.0f64; LEN];
    let s = 3.0;
    let n = LEN as f64 * 8.0;
    let copy = best(5, 2.0 * n, || {
        c.par_iter_mut().zip(&a).for_each(|(c, a)| *c = *a);
    });
    let scale = best(5, 2.0 * n, || {
        b.par_iter_mut().zip(&c).for_each(|(b, c)| *b = s * c);
    });
    let add = best(5, 3.0 * n, || {
        c.par_iter_mut()
            .zip(a.par_iter().zip(&b))
            .for_each(|(c, (a, b))| *c = a + b);
    });
    let triad = best(5, 3.0 * n, || {
        a.par_iter_mut()
            .zip(b.par_iter().zip(&c))
            .for_each(|(a, (b, c))| *a = b + s * c);
    });
    assert!(a.iter().take(8).all(|&x| x == 2.0 * 3.0 + 3.0 * 3.0));
    println!(
        "memory bandwidth ({} threads, 3 arrays of {} MiB): copy {copy:.1} GB/s, scale {scale:.1} GB/s, add {add:.1} GB/s, triad {triad:.1} GB/s",
        rayon::current_num_threads(),
        (LEN * 8) >> 20
    );
    drop((a, b, c));

    for k in [2usize, 3] {
        kernel(k, 26, triad);
    }
    let mut sizes = vec![22usize, 26];
    if std::env::var_os("STREAM_DINNER_30").is_some() {
        sizes.push(30);
    }
    for m in sizes {
        let mut rng = Rng::for_trial(26, m as u64);
        let d = Dinner::from_integers(3, (0..3 * m).map(|_| 1 + rng.below(1000) as i64).collect())
            .expect("a dinner");
        let order = TurnOrder::parse("snake", &d).expect("snake");
        // i32 payoffs are what `dinner solve` picks for such utilities; i64 for comparison
        // (skipped at 30 morsels, where it would add minutes).
        lean::<i32>(&d, &order, m, triad);
        if m < 30 {
            lean::<i64>(&d, &order, m, triad);
        }
    }
}

/// Times the lean solver on one dinner with payoffs `P` and prints its rates.
fn lean<P: lastbite::engine::Payoff>(d: &Dinner, order: &TurnOrder, m: usize, triad: f64) {
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<P>::new(&setup, true).expect("a game");
    let t = Instant::now();
    let sol = solve_lean(
        &game,
        &Ties::uniform(TieBreak::First, 3),
        u128::MAX,
        &Silent,
    )
    .expect("solved");
    let secs = t.elapsed().as_secs_f64();
    let states = game.state_count() as f64;
    // Per state: each child's payoff vector read (3 payoffs; a state with l morsels left
    // has l children, m/2 on average over all states), its own vector written and its
    // choice byte. Most child reads hit the cache; this is the traffic a solver without
    // any cache would move.
    let width = 3.0 * std::mem::size_of::<P>() as f64;
    let per_state = (m as f64 / 2.0) * width + width + 1.0;
    println!(
        "lean solver, 3 players x {m} morsels, {}-bit payoffs: {secs:.2} s, {:.1} M states/s, {per_state:.0} bytes/state touched = {:.1} GB/s ({:.0}% of triad); {} states, {:.2} GB held",
        8 * std::mem::size_of::<P>(),
        states / secs / 1e6,
        states / secs * per_state / 1e9,
        100.0 * states / secs * per_state / 1e9 / triad,
        sol.states,
        sol.bytes as f64 / 1e9
    );
}

/// Times the exact solve of a `k`-player dinner of `m` morsels (utilities 1 to 10^6 at
/// random, alternating or snake order) as `dinner solve` runs it, against its necessary
/// memory traffic at triad speed.
fn kernel(k: usize, m: usize, triad: f64) {
    let mut rng = Rng::for_trial(30, (k * 100 + m) as u64);
    let d = Dinner::from_integers(
        k,
        (0..k * m)
            .map(|_| 1 + rng.below(1_000_000) as i64)
            .collect(),
    )
    .expect("a dinner");
    let order = TurnOrder::parse(if k == 2 { "alternate" } else { "snake" }, &d).expect("an order");
    // The payoffs `dinner solve` picks: i32 where every sum fits (the index rule's
    // offsets scale the utilities by n^2), else i64.
    let setup = Setup::ordered(d, order).expect("a setup");
    let payoff = if DinnerGame::<i32>::new(&setup, true).is_ok() {
        4.0
    } else {
        8.0
    };
    let best = (0..3)
        .map(|_| {
            let t = Instant::now();
            solve_exact(
                &setup,
                &DinnerTies::Index,
                Budget::default(),
                DEFAULT_DINNER_MEMORY,
                &Silent,
                None,
            )
            .expect("solved");
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let states = (1u64 << m) as f64;
    // Each state's vector written once and read by each of its parents (m 2^(m-1) reads
    // in all). The kernel writes choice bytes for the ten layers nearest the root only
    // (well under a byte a state), so none are counted. Two players under the index rule
    // share one packed word a state.
    let width = if k == 2 { 8.0 } else { payoff * k as f64 };
    let per_state = width * (1.0 + m as f64 / 2.0);
    let bound = states * per_state / (triad * 1e9);
    println!(
        "exact solver (kernel), {k} players x {m} morsels, {} bytes a state: {best:.2} s (best of 3), {:.1} M states/s, {per_state:.0} bytes/state necessary = {:.2} s at triad speed; ratio {:.1}",
        width,
        states / best / 1e6,
        bound,
        best / bound
    );
}
