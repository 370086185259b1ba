//! The lean solver's layers of a plain dinner on a GPU (cargo feature `gpu`,
//! [`crate::gpu`]): the same two layers of payoff vectors, now in device memory, each
//! layer decided by one dispatch of `layer.wgsl` (one invocation per four states, ranked
//! colexicographically as [`DinnerGame`]'s [`RankedGame`] order, decided as the engine's
//! `evaluate` decides), and one choice byte per state read back to the host, from which
//! [`engine::path_from_choices`] reads the path exactly as after a CPU solve.
//!
//! Covered: plain dinners (no discount, altruism or precedence) of at most 32 morsels
//! whose payoffs fit 32-bit integers and whose widest layer fits the device's storage
//! buffers; every tie rule, per player. Anything else is declined ([`GpuRefusal`]) and
//! the caller solves it on the CPU.

use crate::engine::{self, IndexedGame, LeanSolution, Progress, RankedGame, Ties};
use crate::gpu::{as_bytes, Gpu};

use crate::games::dinner::solver::game::DinnerGame;

/// Why a dinner was not solved on the device (the caller then solves it on the CPU).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuRefusal {
    /// More morsels than the kernel's 32-bit subsets hold.
    #[error("the GPU kernel takes at most 32 morsels, not {0}")]
    TooManyMorsels(usize),
    /// Not the plain game: a discount, altruism or a precedence.
    #[error("the GPU kernel solves plain dinners only")]
    NotPlain,
    /// A sum of payoffs might not fit 32 bits.
    #[error("payoffs may not fit 32-bit integers")]
    Wide,
    /// A layer is larger than the device's buffers.
    #[error("a layer of {bytes} bytes is over the device's buffer limit of {limit} bytes")]
    TooLarge {
        /// The largest layer's payoff vectors, in bytes.
        bytes: u64,
        /// The device's limit.
        limit: u64,
    },
}

/// States one invocation decides (their choice bytes make one word).
const PER_INVOCATION: u64 = 4;

/// Solves a plain dinner's lean layers on `gpu`; the path is read back from the choice
/// bytes on the host. The same values and path as [`engine::solve_lean`] with choice
/// bytes (tested against it). The outer `Err` declines the dinner; the inner one is a
/// failure while solving (cancelled, the device lost).
pub fn solve<'g>(
    gpu: &Gpu,
    game: &DinnerGame<'g, i32>,
    ties: &Ties,
    progress: &dyn Progress,
) -> Result<Result<LeanSolution<DinnerGame<'g, i32>>, engine::EngineError>, GpuRefusal> {
    let n = game.layer_count() - 1;
    if n > 32 {
        return Err(GpuRefusal::TooManyMorsels(n));
    }
    let pay = game.plain_payoffs().ok_or(GpuRefusal::NotPlain)?;
    let k = engine::Game::players(game);
    // Every partial sum the kernel forms (a player's payoff, the others' total) is at
    // most the sum of all payoffs' magnitudes.
    let total: i64 = pay.iter().map(|&p| i64::from(p).abs()).sum();
    if total > i64::from(i32::MAX) {
        return Err(GpuRefusal::Wide);
    }
    let widest = (0..=n)
        .map(|l| game.layer_size(l) as u64)
        .max()
        .unwrap_or(1);
    let value_bytes = widest * k as u64 * 4;
    let limit = gpu.buffer_limit();
    if value_bytes > limit {
        return Err(GpuRefusal::TooLarge {
            bytes: value_bytes,
            limit,
        });
    }
    let pay: Vec<u32> = pay.iter().map(|&p| p as u32).collect();
    Ok(run(gpu, game, ties, &pay, n, value_bytes, progress))
}

fn run<'g>(
    gpu: &Gpu,
    game: &DinnerGame<'g, i32>,
    ties: &Ties,
    pay: &[u32],
    n: usize,
    value_bytes: u64,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, i32>>, engine::EngineError> {
    let k = engine::Game::players(game);
    let failed = |e: crate::gpu::GpuFailure| engine::EngineError::Io(e.to_string());
    let kernel = gpu.kernel("dinner layer", include_str!("layer.wgsl"));
    let mut binom = vec![0u32; 33 * 33];
    for a in 0..33 {
        binom[a * 33] = 1;
        for b in 1..=a {
            binom[a * 33 + b] =
                binom[(a - 1) * 33 + b - 1] + if b < a { binom[(a - 1) * 33 + b] } else { 0 };
        }
    }
    let binom = gpu.words("binomials", &binom);
    let pay = gpu.words("payoffs", pay);
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let values = [
        gpu.buffer("values a", value_bytes, storage),
        gpu.buffer("values b", value_bytes, storage),
    ];
    let widest = value_bytes / (k as u64 * 4);
    let picks = gpu.buffer("choices", widest.div_ceil(PER_INVOCATION) * 4, storage);
    let params = gpu.buffer(
        "params",
        32,
        wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    );
    // Bind group `s` reads values[s] and writes values[1 - s].
    let groups: Vec<wgpu::BindGroup> = (0..2)
        .map(|s| {
            gpu.bind(
                &kernel,
                &[&params, &binom, &pay, &values[s], &values[1 - s], &picks],
            )
        })
        .collect();
    let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
    progress.start(states as u64, "states (GPU)");
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
    for layer in 0..=n {
        if progress.cancelled() {
            progress.finish();
            return Err(engine::EngineError::Cancelled);
        }
        let size = game.layer_size(layer) as u64;
        let invocations = size.div_ceil(PER_INVOCATION);
        let (x, y, row) = gpu.grid(invocations);
        let (mover, rule) = if layer == 0 {
            (0, 0)
        } else {
            let m = game.player_of_turn(n - layer);
            let rule = match ties.of(m) {
                engine::TieBreak::First => 0u32,
                engine::TieBreak::Last => 1,
                engine::TieBreak::Friendly => 2,
                engine::TieBreak::Antagonistic => 3,
            };
            (m as u32, rule)
        };
        let p = [
            n as u32,
            k as u32,
            layer as u32,
            size as u32,
            mover,
            rule,
            row,
            0,
        ];
        gpu.queue().write_buffer(&params, 0, &as_bytes(&p));
        // Layer l reads values[(l + 1) % 2] and writes values[l % 2].
        gpu.run(&kernel, &groups[(layer + 1) % 2], (x, y));
        let mut layer_choices = gpu.read(&picks, 0, invocations * 4).map_err(failed)?;
        layer_choices.truncate(size as usize);
        choices.push(layer_choices);
        progress.advance(size);
    }
    progress.finish();
    // The top layer holds the root alone, rank 0.
    let raw = gpu
        .read(&values[n % 2], 0, (k * 4) as u64)
        .map_err(failed)?;
    let value: Vec<i32> = raw
        .chunks_exact(4)
        .take(k)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    crate::games::dinner::solver::kernel::from_choices(
        game,
        ties,
        value,
        &choices,
        states,
        states + 2 * u128::from(value_bytes),
        progress,
    )
}
