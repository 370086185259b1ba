//! The lean solver's layers of a plain dinner on the CPU, specialised: the engine's
//! [`engine::solve_lean`] walks any [`engine::RankedGame`] through the `Game` trait (a
//! vector of moves, a child state, its rank by table, a closure per child), which costs
//! about 40 ns a state; this kernel decides the same states with the same rule in a few
//! nanoseconds, and [`engine::path_from_choices`] reads the path back from its choice
//! bytes (those of the layers nearest the root; below them it solves the path's state
//! again) as after an engine solve.
//!
//! Most layers are decided block by block (`games/dinner/blocks.rs`): the states that
//! share their high morsels lie together, and most of their children are read as
//! sequential streams. Two players under the index rule share one packed word a state
//! (`Packing`); otherwise each player has a column of payoffs, the mover compares its
//! own column's (`Columns`, under the rules first and last) and the other columns are
//! gathered through the moves chosen. The rules friendly and antagonistic compare the
//! others' total on ties: with 32-bit payoffs the layer below holds a key a state for
//! such a mover, its payoff and the others' total in one 64-bit word (`tie_key`,
//! `Keys`).
//!
//! With wider payoffs those two rules walk their layers state by state, the children's
//! ranks without unranking. A state of `l` morsels
//! left, `p_0 < ... < p_(l-1)`, has colexicographic rank `r = sum_j C(p_j, j + 1)`;
//! removing `p_j` leaves `sum_(i<j) C(p_i, i + 1) + sum_(i>j) C(p_i, i)`, that is `r -
//! C(p_j, j + 1) - sum_(i>j) D(p_i, i)` with `D(p, i) = C(p, i + 1) - C(p, i)`: one
//! subtraction and two lookups a child. Both routes meet the moves in increasing morsel
//! order, as the engine does, and keep what the engine keeps.
//!
//! Covered: plain dinners (no discount, altruism or precedence; the index rule's offsets
//! are in the payoffs) whose choice bytes fit the memory budget, with any tie rule per
//! player and any number of players; anything else goes to the engine
//! ([`solve`] returns `None`). It is checked against the engine on every tie rule, with 2
//! to 4 players, and on random dinners (tests below).

use std::ops::Add;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{
    self, EngineError, IndexedGame, LeanSolution, PathRecovery, Payoff, Progress, RankedGame,
    TieBreak, Ties,
};
use crate::par::prelude::*;

use crate::games::dinner::solver::blocks::{
    decide_blocks, Blocks, Cells, Low, Place, MAX_SPLIT, SPLIT,
};
use crate::games::dinner::solver::game::DinnerGame;

/// A machine payoff the kernel adds and compares directly (the dinner's `i32`, `i64` and
/// `i128`).
pub trait Word: Payoff + Zero + Default + Add<Output = Self> {
    /// Whether a payoff is 32 bits wide: then a payoff and a total of payoffs share one
    /// 64-bit key, and the friendly and antagonistic rules go block by block.
    const NARROW: bool;
    /// The payoff as 32 bits (only called when [`Word::NARROW`]).
    fn narrow(self) -> i32;
    /// A payoff from 32 bits (only called when [`Word::NARROW`]).
    fn widen(x: i32) -> Self;
}

impl Word for i32 {
    const NARROW: bool = true;
    fn narrow(self) -> i32 {
        self
    }
    fn widen(x: i32) -> i32 {
        x
    }
}

macro_rules! wide_word {
    ($t:ty) => {
        impl Word for $t {
            const NARROW: bool = false;
            fn narrow(self) -> i32 {
                unreachable!("a wide payoff is never narrowed")
            }
            fn widen(x: i32) -> $t {
                x as $t
            }
        }
    };
}
wide_word!(i64);
wide_word!(i128);

/// A friendly (or `antagonistic`) mover's key of a state: its own payoff in the high
/// half, the others' total in the low half (complemented when antagonistic, so that a
/// larger key is a smaller total), as an unsigned number: one comparison of two keys
/// orders them as the rule does, and adding a gain shifted into the high half adds it
/// to the payoff (which never overflows: every payoff and total fits 32 bits).
fn tie_key(own: i32, others: i32, antagonistic: bool) -> i64 {
    let low = (others as u32) ^ 0x8000_0000;
    let low = if antagonistic { !low } else { low };
    (own as i64) << 32 | low as i64
}

/// No move: the state is terminal (the engine's byte).
const TERMINAL: u8 = u8::MAX;

/// States a parallel work item decides (one unrank, then Gosper's next subset).
const CHUNK: usize = 1 << 12;

/// The layers nearest the root whose choice bytes are kept: the path's first bites. The
/// middle layers hold nearly all states, and a byte a state is memory the system must
/// hand over fresh (2^32 bytes at 32 morsels, about 8 s of system time on this
/// project's machines); instead the path's state after these bites is solved again with
/// the states below it, `2^(n - KEPT_LAYERS)` of them, at the engine's pace of about
/// 40 ns a state ([`engine::path_from_choices`]): 0.2 s of CPU at 32 morsels.
const KEPT_LAYERS: usize = 10;

/// Whether the choice bytes of `layer` (of a dinner of `n` morsels) are kept.
fn kept(layer: usize, n: usize) -> bool {
    layer + KEPT_LAYERS > n
}

/// The layer's choice bytes when they are kept ([`kept`]); none (an empty vector) when not.
fn choice_bytes(layer: usize, n: usize, size: usize, bytes: u128) -> Result<Vec<u8>, EngineError> {
    if kept(layer, n) {
        zeroed::<u8>(size, bytes)
    } else {
        Ok(Vec::new())
    }
}

/// `[C(p, j + 1), D(p, j)]` with `D(p, j) = C(p, j + 1) - C(p, j)` (wrapping) at
/// `j * 64 + p` for `p, j < 64`: a walk reads both of one morsel at once, and the rows a
/// dinner of `n` morsels reads (`p < n`) lie together.
struct Binomials(Vec<[usize; 2]>);

impl Binomials {
    fn new() -> Binomials {
        let mut c = vec![[0u128; 66]; 66];
        for a in 0..66 {
            c[a][0] = 1;
            for b in 1..=a {
                c[a][b] = c[a - 1][b - 1] + if b < a { c[a - 1][b] } else { 0 };
            }
        }
        // Ranks inside a layer fit `usize` (the layer was allocated); larger binomials
        // only appear in states no layer holds, and wrap harmlessly there.
        let w = |x: u128| x as usize;
        let mut t = vec![[0usize; 2]; 64 * 64];
        for j in 0..64 {
            for p in 0..64 {
                t[j * 64 + p] = [w(c[p][j + 1]), w(c[p][j + 1]).wrapping_sub(w(c[p][j]))];
            }
        }
        Binomials(t)
    }

    /// `C(p, j + 1)` and `D(p, j)`.
    #[inline(always)]
    fn at(&self, j: usize, p: usize) -> [usize; 2] {
        self.0[j * 64 + p]
    }
}

/// Solves a plain dinner's layers with the kernel, holding two buffers of the widest
/// layer's payoff vectors (one packed word a state for two players under the index
/// rule) and the kept layers' choice bytes; `None` when the dinner is not
/// plain or its layers do not fit `memory` (the engine then solves it, re-solving for
/// the path if need be).
pub fn solve<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    memory: u128,
    progress: &dyn Progress,
) -> Option<Result<LeanSolution<DinnerGame<'g, P>>, EngineError>> {
    let pay = game.plain_payoffs()?;
    let n = game.layer_count() - 1;
    if n > 63 {
        return None;
    }
    // Two buffers of the widest layer's payoffs and a choice byte per state.
    let widest = (0..=n)
        .map(|l| game.layer_size(l) as u128)
        .max()
        .unwrap_or(1);
    let k = engine::Game::players(game) as u128;
    let size = std::mem::size_of::<P>() as u128;
    // The kept choice bytes beside the two layers; the base re-solved for the path
    // afterwards holds far less.
    let kept_bytes: u128 = (0..=n)
        .filter(|&l| kept(l, n))
        .map(|l| game.layer_size(l) as u128)
        .sum();
    let base = 1u128 << n.saturating_sub(KEPT_LAYERS);
    let held = |word: u128| (2 * widest * word + kept_bytes).max(base * (1 + k * size));
    // Two players under the index rule: one word a state instead of two payoffs, and
    // the layers decided block by block (2 x 26 morsels: 0.74 s against 1.33 s in two
    // columns, see docs/performance.md).
    if let Some(packing) = Packing::of(game, ties, pay, n) {
        let bytes = held(8);
        return (bytes <= memory)
            .then(|| run_packed(game, ties, &packing, n, bytes, SPLIT, progress));
    }
    // A column of 64-bit keys beside the payoffs for friendly and antagonistic movers.
    let bytes = held(
        k * size
            + if keyed(ties, k as usize, P::NARROW) {
                8
            } else {
                0
            },
    );
    if bytes > memory {
        return None;
    }
    // Every partial sum (a payoff, the others' total) is at most the sum of all payoffs'
    // magnitudes; the game's own check covers the first, this one the second.
    let total = pay
        .iter()
        .map(|p| p.to_integer().map(i128::unsigned_abs))
        .try_fold(0u128, |a, x| a.checked_add(x?));
    if !total.is_some_and(|t| t <= i128::MAX as u128 && P::fits(t as i128)) {
        return None;
    }
    Some(run(game, ties, pay, n, bytes, SPLIT, progress))
}

/// Solves the layers in columns of payoffs, a player's each, block by block (low
/// morsels `0..split`, [`blocks`](crate::games::dinner::solver::blocks)): the rules first and last compare the
/// mover's column, friendly and antagonistic a column of keys (32-bit payoffs); with
/// wider payoffs those two walk their layers state by state.
fn run<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    pay: &[P],
    n: usize,
    bytes: u128,
    split: usize,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let k = engine::Game::players(game);
    let table = Binomials::new();
    let low = Low::new(split.min(n).min(MAX_SPLIT));
    let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
    progress.start(states as u64, "states");
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
    // Two buffers of the widest layer, reused (a fresh layer each time would be faulted
    // in again), each holding one column of payoffs a player: the
    // mover's comparisons then read 8 bytes a child, not a whole vector.
    let stride = (0..=n).map(|l| game.layer_size(l)).max().unwrap_or(1);
    let (mut prev, mut cur) = (
        zeroed::<P>(stride * k, bytes)?,
        zeroed::<P>(stride * k, bytes)?,
    );
    // Friendly and antagonistic movers with 32-bit payoffs read a column of keys too.
    let (mut prev_keys, mut cur_keys) = if keyed(ties, k, P::NARROW) {
        (zeroed::<i64>(stride, bytes)?, zeroed::<i64>(stride, bytes)?)
    } else {
        (Vec::new(), Vec::new())
    };
    for layer in 0..=n {
        let size = game.layer_size(layer);
        // Every state's byte is written below.
        let mut chosen = choice_bytes(layer, n, size, bytes)?;
        if layer > 0 {
            let mover = game.player_of_turn(n - layer);
            let below = game.layer_size(layer - 1);
            let own_pay: Vec<P> = (0..n).map(|i| pay[i * k + mover]).collect();
            let stop = AtomicBool::new(false);
            let mut columns: Vec<&mut [P]> =
                cur.chunks_mut(stride).map(|c| &mut c[..size]).collect();
            let prev: Vec<&[P]> = prev.chunks(stride).map(|c| &c[..below]).collect();
            let rule = ties.of(mover);
            if P::NARROW && matches!(rule, TieBreak::Friendly | TieBreak::Antagonistic) {
                decide_blocks(
                    &Blocks {
                        low: &low,
                        cells: Keys {
                            keys: &prev_keys[..below],
                            gains: own_pay.iter().map(|&g| (g.narrow() as i64) << 32).collect(),
                            prev,
                            mover,
                        },
                        layer,
                        n,
                    },
                    &mut cur_keys[..size],
                    columns,
                    &mut chosen,
                    progress,
                    &stop,
                )
            } else if matches!(rule, TieBreak::First | TieBreak::Last) {
                let words = columns.remove(mover);
                let others = (0..k).filter(|&q| q != mover).map(|q| prev[q]).collect();
                macro_rules! go {
                    ($last:literal) => {
                        decide_blocks(
                            &Blocks {
                                low: &low,
                                cells: Columns::<P, $last> {
                                    own: prev[mover],
                                    gains: &own_pay,
                                    others,
                                },
                                layer,
                                n,
                            },
                            words,
                            columns,
                            &mut chosen,
                            progress,
                            &stop,
                        )
                    };
                }
                if matches!(rule, TieBreak::Last) {
                    go!(true)
                } else {
                    go!(false)
                }
            } else {
                let job = Layer {
                    table: &table,
                    own_pay,
                    prev,
                    layer,
                    n,
                    mover,
                };
                macro_rules! go {
                    ($k:literal, $antagonistic:literal) => {
                        decide_layer::<P, $k, $antagonistic>(
                            &job,
                            columns,
                            &mut chosen,
                            progress,
                            &stop,
                        )
                    };
                    ($antagonistic:literal) => {
                        match k {
                            2 => go!(2, $antagonistic),
                            3 => go!(3, $antagonistic),
                            _ => go!(0, $antagonistic),
                        }
                    };
                }
                if matches!(rule, TieBreak::Antagonistic) {
                    go!(true)
                } else {
                    go!(false)
                }
            }
            if stop.load(Ordering::Relaxed) || progress.cancelled() {
                progress.finish();
                return Err(EngineError::Cancelled);
            }
        } else {
            // The empty plate: nothing more to eat.
            cur.iter_mut()
                .step_by(stride)
                .for_each(|x| *x = P::default());
            chosen.fill(TERMINAL);
            progress.advance(size as u64);
        }
        // The keys of the layer for its reader, when its rule needs them.
        if layer < n && !cur_keys.is_empty() {
            let next = game.player_of_turn(n - layer - 1);
            if let rule @ (TieBreak::Friendly | TieBreak::Antagonistic) = ties.of(next) {
                let columns: Vec<&[P]> = cur.chunks(stride).map(|c| &c[..size]).collect();
                let antagonistic = matches!(rule, TieBreak::Antagonistic);
                write_keys(&columns, &mut cur_keys[..size], next, antagonistic);
            }
        }
        choices.push(chosen);
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut prev_keys, &mut cur_keys);
    }
    progress.finish();
    // The top layer holds the root alone, rank 0 of each column.
    let value = prev.iter().step_by(stride).copied().collect();
    drop((prev, cur, prev_keys, cur_keys));
    from_choices(game, ties, value, &choices, states, bytes, progress)
}

/// Whether a layered solve keeps a column of [`tie_key`]s: some player's rule is friendly
/// or antagonistic and the payoffs are `narrow` (32 bits).
fn keyed(ties: &Ties, players: usize, narrow: bool) -> bool {
    narrow
        && (0..players).any(|q| matches!(ties.of(q), TieBreak::Friendly | TieBreak::Antagonistic))
}

/// The solution of a layered solve: the root's `value` and the path read back from the
/// layers' choice bytes (those kept; below them the path's state is solved again),
/// `states` states solved holding `bytes` at most.
pub(super) fn from_choices<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    value: Vec<P>,
    choices: &[Vec<u8>],
    states: u128,
    bytes: u128,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let (path, resolved) = engine::path_from_choices(game, ties, choices, bytes, progress)?;
    Ok(LeanSolution {
        value,
        path,
        states: states as u64,
        resolved: resolved.min(u64::MAX as u128) as u64,
        recovery: PathRecovery::ChoiceBytes,
        bytes,
    })
}

/// `len` zeros, or [`EngineError::OutOfMemory`]. The memory comes zeroed from the system
/// and untouched: its pages are faulted in by the cores that first write them, once (a
/// filled vector writes every byte twice). On this project's virtual machines each first
/// touch of fresh memory costs about 2 s a GB of system time (35 s of a 2 x 32 dinner's
/// 14 GB), so pages never written are worth never touching.
fn zeroed<T: Zero>(len: usize, bytes: u128) -> Result<Vec<T>, EngineError> {
    let oom = || EngineError::OutOfMemory(bytes);
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| oom())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout is non-zero; a null pointer is refused; the memory is zeroed,
    // and zero bytes are a valid `T` (`Zero` is sealed to integers), so the vector owns
    // `len` initialised values allocated by the global allocator with `T`'s layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            return Err(oom());
        }
        huge_pages(ptr as *mut u8, layout.size());
        Ok(Vec::from_raw_parts(ptr, len, len))
    }
}

/// Asks Linux to back `len` bytes at `ptr` (fresh, untouched) with transparent huge pages
/// where the system allows it on request (`madvise` mode, the default of many
/// distributions): a first touch then faults 2 MiB at once instead of 4 KiB. Only tables
/// of 64 MiB or more; elsewhere, or where the kernel refuses, nothing changes.
fn huge_pages(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        if len < 32 * HUGE {
            return;
        }
        // The whole 2 MiB pages inside the allocation.
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + len) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside memory this process owns and has not touched;
            // MADV_HUGEPAGE only changes how its pages are backed, never their contents.
            // A refusal (an old kernel, huge pages off) leaves the memory as it was.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// Types whose all-zero bytes are a valid value: the payoffs' integers and the choice
/// bytes.
pub trait Zero: Copy + Send + Sync + sealed::Sealed {}
impl Zero for u8 {}
impl Zero for u64 {}
impl Zero for i32 {}
impl Zero for i64 {}
impl Zero for i128 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u64 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for i128 {}
}

/// What one layer's decisions read.
struct Layer<'a, P> {
    table: &'a Binomials,
    /// `own_pay[i]`: what the mover gains by eating morsel `i`.
    own_pay: Vec<P>,
    /// The layer below's payoffs, a column a player, by rank.
    prev: Vec<&'a [P]>,
    layer: usize,
    n: usize,
    mover: usize,
}

/// The layer's choice bytes cut into chunks of [`CHUNK`] states, `None` for each chunk of
/// a layer whose bytes are not kept (empty `chosen`): its walk writes them to a scratch.
fn pick_chunks(chosen: &mut [u8], chunks: usize) -> Vec<Option<&mut [u8]>> {
    if chosen.is_empty() {
        (0..chunks).map(|_| None).collect()
    } else {
        chosen.chunks_mut(CHUNK).map(Some).collect()
    }
}

/// Decides every state of one layer into `columns` (a player's payoffs each) and
/// `chosen` (the move's index in increasing morsel order; empty when the layer's bytes
/// are not kept), in parallel chunks. `K` is the number of players (0: read it at run
/// time); the mover's tie rule looks at the others' payoffs, `ANTAGONISTIC` or friendly
/// (the rules first and last go block by block).
fn decide_layer<P: Word, const K: usize, const ANTAGONISTIC: bool>(
    job: &Layer<'_, P>,
    columns: Vec<&mut [P]>,
    chosen: &mut [u8],
    progress: &dyn Progress,
    stop: &AtomicBool,
) {
    let k = if K == 0 { columns.len() } else { K };
    // Each chunk of ranks gets its piece of every column.
    let chunks = columns.first().map_or(0, |c| c.len().div_ceil(CHUNK));
    let mut pieces: Vec<Vec<&mut [P]>> = (0..chunks).map(|_| Vec::with_capacity(k)).collect();
    for column in columns {
        for (c, piece) in column.chunks_mut(CHUNK).enumerate() {
            pieces[c].push(piece);
        }
    }
    let mover = job.mover;
    let chunk = |c: usize, mut values: Vec<&mut [P]>, picks: Option<&mut [u8]>| {
        if progress.cancelled() {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        let first = c * CHUNK;
        let len = values[0].len();
        let mut scratch = [0u8; CHUNK];
        let picks = picks.unwrap_or(&mut scratch[..len]);
        walk_states(job, first, len, |j, walk| {
            let (best, child, own) = walk.decide::<K, ANTAGONISTIC>(job, first + j);
            for (column, below) in values.iter_mut().zip(&job.prev) {
                column[j] = below[child];
            }
            values[mover][j] = own;
            picks[j] = best;
        });
        progress.advance(picks.len() as u64);
    };
    let picks = pick_chunks(chosen, chunks);
    if chunks <= 1 {
        if let (Some(values), Some(picks)) = (pieces.pop(), picks.into_iter().next()) {
            chunk(0, values, picks);
        }
    } else {
        pieces
            .into_par_iter()
            .zip(picks)
            .enumerate()
            .for_each(|(c, (values, picks))| chunk(c, values, picks));
    }
}

/// The subset of rank `rank` among the layer's, colexicographic.
fn first_of<P>(job: &Layer<'_, P>, rank: usize) -> u64 {
    let mut r = rank;
    let mut mask = 0u64;
    let mut top = job.n;
    for j in (1..=job.layer).rev() {
        // The largest p < top with C(p, j) <= r.
        let mut p = top - 1;
        while p >= j && job.table.at(j - 1, p)[0] > r {
            p -= 1;
        }
        mask |= 1 << p;
        r -= job.table.at(j - 1, p)[0];
        top = p;
    }
    mask
}

/// Walks the `len` states of ranks `first..` of the layer in rank order, the walk
/// refreshed for each before `visit(j, walk)` decides state `first + j`.
#[inline(always)]
fn walk_states<P: Copy + Default>(
    job: &Layer<'_, P>,
    first: usize,
    len: usize,
    mut visit: impl FnMut(usize, &Walk<P>),
) {
    let mut mask = first_of(job, first);
    let mut walk = Walk::new(job, mask);
    for j in 0..len {
        if j > 0 {
            // Gosper's step moves the lowest run of morsels only: the children's
            // offsets above it stay.
            let run = (!(mask >> mask.trailing_zeros())).trailing_zeros() as usize;
            mask = engine::next_subset(mask);
            walk.refresh(job, mask, run);
        }
        visit(j, &walk);
    }
}

/// A walk along a layer in rank order. For the state at hand, with morsels `p_0 < ... <
/// p_(l-1)` and rank `r`, removing `p_j` leaves the child of rank `r - off[j]`, where
/// `off[j] = C(p_j, j + 1) + acc[j]` and `acc[j] = sum_(i>j) D(p_i, i)`: an offset
/// depends only on the morsels from `p_j` up, so Gosper's step, which moves the lowest
/// run of morsels, leaves the offsets above that run as they were.
struct Walk<P> {
    off: [usize; 64],
    acc: [usize; 64],
    /// `gain[j]`: the mover's payoff for eating `p_j`.
    gain: [P; 64],
}

impl<P: Copy + Default> Walk<P> {
    fn new(job: &Layer<'_, P>, mask: u64) -> Walk<P> {
        let mut walk = Walk {
            off: [0; 64],
            acc: [0; 64],
            gain: [P::default(); 64],
        };
        walk.refresh(job, mask, job.layer);
        walk
    }

    /// Recomputes the lowest `low` offsets of `mask` (all of them when `low` is the
    /// layer's size).
    #[inline(always)]
    fn refresh(&mut self, job: &Layer<'_, P>, mask: u64, low: usize) {
        // Bytes: clearing 64 of them a state is one store, 64 words were a memset.
        let mut pos = [0u8; 64];
        let mut m = mask;
        for p in pos.iter_mut().take(low) {
            *p = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        // `acc[low - 1]` depends on the morsels above the run only: it stays, but for
        // the full refresh, where the top's is zero.
        if low == job.layer {
            self.acc[low - 1] = 0;
        }
        let mut above = 0usize;
        for j in (0..low).rev() {
            let [up, diff] = job.table.at(j, pos[j] as usize);
            if j + 1 < low {
                self.acc[j] = self.acc[j + 1].wrapping_add(above);
            }
            self.off[j] = up.wrapping_add(self.acc[j]);
            self.gain[j] = job.own_pay[pos[j] as usize];
            above = diff;
        }
    }
}

impl<P: Word> Walk<P> {
    /// Decides the state of rank `rank`: the chosen move's index (in increasing morsel
    /// order), its child's rank and the mover's payoff through it, among equals the one
    /// the others value most (friendly) or least (`ANTAGONISTIC`), and among those the
    /// first in increasing morsel order, as the engine chooses.
    #[inline(always)]
    fn decide<const K: usize, const ANTAGONISTIC: bool>(
        &self,
        job: &Layer<'_, P>,
        rank: usize,
    ) -> (u8, usize, P) {
        let k = if K == 0 { job.prev.len() } else { K };
        let mover = job.mover;
        let own_column = job.prev[mover];
        let others = |child: usize| -> P {
            let mut s = P::default();
            for q in 0..k {
                if q != mover {
                    s = s + child_of(job.prev[q], child);
                }
            }
            s
        };
        let mut best_child = rank.wrapping_sub(self.off[0]);
        let mut best_own = child_of(own_column, best_child) + self.gain[0];
        let mut best_others = others(best_child);
        let mut best = 0u8;
        for j in 1..job.layer {
            let child = rank.wrapping_sub(self.off[j]);
            let own = child_of(own_column, child) + self.gain[j];
            let take = own > best_own
                || own == best_own
                    && if ANTAGONISTIC {
                        others(child) < best_others
                    } else {
                        others(child) > best_others
                    };
            if take {
                best = j as u8;
                best_child = child;
                best_own = own;
                best_others = others(child);
            }
        }
        (best, best_child, best_own)
    }
}

/// The value of a child in the layer below, `column[child]`, read without a bounds test.
///
/// A walk's child ranks lie inside the layer below by the identity in the module's
/// documentation: a state of `l` morsels has a colexicographic rank below `C(n, l)`, and
/// removing one of its morsels leaves a state of `l - 1` whose rank `r - off[j]` is that
/// state's rank, below `C(n, l - 1)`, the length of every column of that layer. The test
/// cost a compare and branch a child, 6% of a 2 x 30 solve's CPU (three interleaved runs
/// each); the kernel's tests (against the engine) and debug builds check it.
#[inline(always)]
fn child_of<T: Copy>(column: &[T], child: usize) -> T {
    debug_assert!(
        child < column.len(),
        "child rank {child} of {}",
        column.len()
    );
    // SAFETY: `child < column.len()`, as argued above and checked in debug builds.
    unsafe { *column.get_unchecked(child) }
}

/// The columns' cells for the blocks ([`blocks`](crate::games::dinner::solver::blocks)) under the rule first
/// (`LAST` false) or last: the mover compares its own payoff, read from its column;
/// once a block is decided the other players' payoffs are read through the moves chosen.
struct Columns<'a, P, const LAST: bool> {
    /// The mover's column of the layer below.
    own: &'a [P],
    /// The mover's payoff for eating each morsel.
    gains: &'a [P],
    /// The other players' columns of the layer below, in the players' order.
    others: Vec<&'a [P]>,
}

impl<P: Word, const LAST: bool> Cells for Columns<'_, P, LAST> {
    type W = P;
    type O = P;
    const PICKS: bool = true;

    #[inline(always)]
    fn below(&self) -> &[P] {
        self.own
    }

    #[inline(always)]
    fn gain(&self, morsel: usize) -> P {
        self.gains[morsel]
    }

    #[inline(always)]
    fn add(&self, child: P, gain: P) -> P {
        child + gain
    }

    #[inline(always)]
    fn better(&self, new: P, old: P) -> bool {
        if LAST {
            new >= old
        } else {
            new > old
        }
    }

    #[inline(always)]
    fn finish(
        &self,
        place: &Place<'_>,
        at: usize,
        _: &mut [P],
        picks: &[u8],
        others: &mut [&mut [P]],
        room: &mut [usize],
    ) {
        // The children's ranks once, then each other column gathered through them.
        let kids = place.children(picks, room);
        for (column, below) in others.iter_mut().zip(&self.others) {
            gather(&mut column[at..at + kids.len()], below, kids);
        }
    }
}

/// The columns' cells for the blocks under the rules friendly and antagonistic (32-bit
/// payoffs): the mover compares [`tie_key`]s, read from the key column the layer below
/// was given for it; once a block is decided, the mover's payoff is its key's high half
/// and the other columns are gathered through the moves chosen.
struct Keys<'a, P> {
    /// The layer below's keys for the mover.
    keys: &'a [i64],
    /// The mover's payoff for eating each morsel, in the high half.
    gains: Vec<i64>,
    /// The layer below's columns, every player's.
    prev: Vec<&'a [P]>,
    mover: usize,
}

impl<P: Word> Cells for Keys<'_, P> {
    type W = i64;
    type O = P;
    const PICKS: bool = true;

    #[inline(always)]
    fn below(&self) -> &[i64] {
        self.keys
    }

    #[inline(always)]
    fn gain(&self, morsel: usize) -> i64 {
        self.gains[morsel]
    }

    #[inline(always)]
    fn add(&self, child: i64, gain: i64) -> i64 {
        child + gain
    }

    #[inline(always)]
    fn better(&self, new: i64, old: i64) -> bool {
        new > old
    }

    #[inline(always)]
    fn finish(
        &self,
        place: &Place<'_>,
        at: usize,
        out: &mut [i64],
        picks: &[u8],
        columns: &mut [&mut [P]],
        room: &mut [usize],
    ) {
        let kids = place.children(picks, room);
        for (q, (column, below)) in columns.iter_mut().zip(&self.prev).enumerate() {
            let column = &mut column[at..at + kids.len()];
            if q == self.mover {
                for (value, &key) in column.iter_mut().zip(out.iter()) {
                    *value = P::widen((key >> 32) as i32);
                }
            } else {
                gather(column, below, kids);
            }
        }
    }
}

/// `column[j] = below[kids[j]]`: a block's column read through its children's ranks.
#[inline(always)]
fn gather<P: Copy>(column: &mut [P], below: &[P], kids: &[usize]) {
    for (value, &kid) in column.iter_mut().zip(kids) {
        *value = child_of(below, kid);
    }
}

/// Writes `keys` for the next mover, a friendly or `antagonistic` `player`, from the
/// layer's columns: its own payoff and the others' total ([`tie_key`]).
fn write_keys<P: Word>(columns: &[&[P]], keys: &mut [i64], player: usize, antagonistic: bool) {
    keys.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, keys)| {
            let first = c * CHUNK;
            for (j, key) in keys.iter_mut().enumerate() {
                let mut total = 0i32;
                for column in columns {
                    total += column[first + j].narrow();
                }
                let own = columns[player][first + j].narrow();
                *key = tie_key(own, total - own, antagonistic);
            }
        });
}

/// The packed words' cells for the blocks: the mover's key is the word shifted right
/// by `shift`; a decided word is rewritten for the next mover (`rekey`).
struct Words<'a, F> {
    /// The layer below, keyed for the mover.
    prev: &'a [u64],
    /// The mover's packed gain of each morsel.
    gains: &'a [u64],
    shift: u32,
    rekey: F,
}

impl<F: Fn(u64) -> u64 + Sync> Cells for Words<'_, F> {
    type W = u64;
    type O = u64;
    const PICKS: bool = false;

    #[inline(always)]
    fn below(&self) -> &[u64] {
        self.prev
    }

    #[inline(always)]
    fn gain(&self, morsel: usize) -> u64 {
        self.gains[morsel]
    }

    #[inline(always)]
    fn add(&self, child: u64, gain: u64) -> u64 {
        child.wrapping_add(gain)
    }

    #[inline(always)]
    fn better(&self, new: u64, old: u64) -> bool {
        new >> self.shift > old >> self.shift
    }

    #[inline(always)]
    fn finish(
        &self,
        _: &Place<'_>,
        _: usize,
        out: &mut [u64],
        _: &[u8],
        _: &mut [&mut [u64]],
        _: &mut [usize],
    ) {
        for o in out.iter_mut() {
            *o = (self.rekey)(*o);
        }
    }
}

/// Two players' payoffs under the index rule in one word a state. A player's payoff is
/// `U m + E`: `U` the utilities of the morsels they eat, `E < m` the sum of those
/// morsels' offsets `n - 1 - i`. Both players' offsets together are those of every morsel
/// left, fixed by the state, so a word holds `U_A`, `E_A` and `U_B` only, in fields wide
/// enough for any total: a child's word plus the eater's packed gain is the parent's,
/// with no carry between fields.
///
/// The mover compares its payoffs through its children, and the word is laid out so
/// that its top bits order them: keyed for `A`, `U_A | E_A | U_B` (`A`'s payoff orders as
/// `(U_A, E_A)`); keyed for `B`, `U_B | F | U_A` with `F = max - E_A` (`B`'s offsets are
/// the state's total, the same for every child, less `A`'s, so its payoff orders as
/// `(U_B, F)`). A layer is stored keyed for the mover of the layer above, which reads it,
/// so a comparison is a shift; a state's word changes layout at most once, when it is
/// written. Half the memory of two 64-bit payoffs: the 2 x 32 dinner with utilities to
/// `10^6` fits the machine this way.
struct Packing {
    /// Widths of the `U_A`, `E_A` (and `F`) and `U_B` fields.
    a: u32,
    e: u32,
    b: u32,
    /// The index rule's multiplier `m`.
    m: i128,
    /// Per morsel, the packed gain of its eater in the layout keyed for them: `[A's, B's]`.
    gains: Vec<[u64; 2]>,
}

impl Packing {
    /// The packing of a two-player dinner under the index rule, both players' rule
    /// `first`, utilities non-negative, when the fields fit a word; else `None`.
    fn of<P: Word>(game: &DinnerGame<'_, P>, ties: &Ties, pay: &[P], n: usize) -> Option<Packing> {
        let m = game.index_multiplier()?;
        if engine::Game::players(game) != 2
            || (0..2).any(|p| !matches!(ties.of(p), TieBreak::First))
        {
            return None;
        }
        // Utilities back from the payoffs: `u m + (n - 1 - i)`.
        let mut utilities = vec![[0u128; 2]; n];
        let mut totals = [0u128; 2];
        for (i, u) in utilities.iter_mut().enumerate() {
            for p in 0..2 {
                let scaled = pay[i * 2 + p].to_integer()? - (n - 1 - i) as i128;
                if scaled < 0 || scaled % m != 0 {
                    return None;
                }
                u[p] = (scaled / m) as u128;
                totals[p] = totals[p].checked_add(u[p])?;
            }
        }
        let bits = |x: u128| 128 - x.leading_zeros();
        let offsets = (n * n.saturating_sub(1) / 2) as u128;
        let (a, e, b) = (bits(totals[0]), bits(offsets), bits(totals[1]));
        // `E < m` keeps the keys' order the payoffs' (offsets at most n (n - 1) / 2).
        if a + e + b > 64 || offsets >= m as u128 {
            return None;
        }
        let mut packing = Packing {
            a,
            e,
            b,
            m,
            gains: Vec::new(),
        };
        packing.gains = utilities
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let offset = (n - 1 - i) as u64;
                [
                    packing.pack(false, [u[0] as u64, offset, 0]),
                    packing.pack(true, [0, packing.emax(), u[1] as u64]),
                ]
            })
            .collect();
        Some(packing)
    }

    fn emax(&self) -> u64 {
        (1u64 << self.e) - 1
    }

    /// The word of `[U_A, E_A, U_B]`, keyed for `B` or for `A`.
    #[inline(always)]
    fn pack(&self, for_b: bool, [ua, ea, ub]: [u64; 3]) -> u64 {
        if for_b {
            ub << (self.e + self.a) | (self.emax() - ea) << self.a | ua
        } else {
            ua << (self.e + self.b) | ea << self.b | ub
        }
    }

    /// `[U_A, E_A, U_B]` of a word keyed for `B` or for `A`.
    #[inline(always)]
    fn fields(&self, for_b: bool, w: u64) -> [u64; 3] {
        let low = |bits: u32| (1u64 << bits) - 1;
        if for_b {
            let f = (w >> self.a) & self.emax();
            [w & low(self.a), self.emax() - f, w >> (self.e + self.a)]
        } else {
            [
                w >> (self.e + self.b),
                (w >> self.b) & self.emax(),
                w & low(self.b),
            ]
        }
    }

    /// The shift that leaves the mover's key of a word keyed for them.
    fn key_shift(&self, for_b: bool) -> u32 {
        if for_b {
            self.a
        } else {
            self.b
        }
    }

    /// The two payoffs of a word keyed as said, of a state whose morsels' offsets total
    /// `left`.
    fn payoffs(&self, for_b: bool, w: u64, left: u64) -> [i128; 2] {
        let [ua, ea, ub] = self.fields(for_b, w);
        [
            ua as i128 * self.m + ea as i128,
            ub as i128 * self.m + (left - ea) as i128,
        ]
    }
}

/// [`run`] with a [`Packing`]: one column of words, each layer decided block by block
/// with the low morsels `0..split` ([`blocks`](crate::games::dinner::solver::blocks)).
fn run_packed<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    packing: &Packing,
    n: usize,
    bytes: u128,
    split: usize,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
    progress.start(states as u64, "states");
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
    let stride = (0..=n).map(|l| game.layer_size(l)).max().unwrap_or(1);
    // Whether the layer of `l` morsels left is read by player B (its words keyed so).
    let keyed_b = |l: usize| l < n && game.player_of_turn(n - l - 1) == 1;
    let (mut prev, mut cur) = (zeroed::<u64>(stride, bytes)?, zeroed::<u64>(stride, bytes)?);
    let low = Low::new(split.min(n).min(MAX_SPLIT));
    for layer in 0..=n {
        let size = game.layer_size(layer);
        let mut chosen = choice_bytes(layer, n, size, bytes)?;
        if layer == 0 {
            // The empty plate: nothing more to eat.
            prev[0] = packing.pack(keyed_b(0), [0, 0, 0]);
            chosen.fill(TERMINAL);
            progress.advance(size as u64);
        } else {
            let mover = game.player_of_turn(n - layer);
            let below = game.layer_size(layer - 1);
            let gains: Vec<u64> = packing.gains.iter().map(|g| g[mover]).collect();
            let stop = AtomicBool::new(false);
            let words = &mut cur[..size];
            // The mover reads its children keyed for itself; the words it writes are
            // keyed for the next mover.
            let (from_b, to_b) = (
                mover == 1,
                if layer < n {
                    keyed_b(layer)
                } else {
                    mover == 1
                },
            );
            macro_rules! go {
                ($from:literal, $to:literal) => {
                    decide_blocks(
                        &Blocks {
                            low: &low,
                            cells: Words {
                                prev: &prev[..below],
                                gains: &gains,
                                shift: packing.key_shift($from),
                                rekey: |w: u64| {
                                    if $from == $to {
                                        w
                                    } else {
                                        packing.pack($to, packing.fields($from, w))
                                    }
                                },
                            },
                            layer,
                            n,
                        },
                        words,
                        Vec::new(),
                        &mut chosen,
                        progress,
                        &stop,
                    )
                };
            }
            match (from_b, to_b) {
                (false, false) => go!(false, false),
                (false, true) => go!(false, true),
                (true, false) => go!(true, false),
                (true, true) => go!(true, true),
            }
            if stop.load(Ordering::Relaxed) || progress.cancelled() {
                progress.finish();
                return Err(EngineError::Cancelled);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        choices.push(chosen);
    }
    progress.finish();
    let left = (n * n.saturating_sub(1) / 2) as u64;
    let root_b = n > 0 && game.player_of_turn(0) == 1;
    let value = packing
        .payoffs(root_b, prev[0], left)
        .into_iter()
        .map(P::from_integer)
        .collect();
    drop((prev, cur));
    from_choices(game, ties, value, &choices, states, bytes, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{solve_lean, Silent};
    use crate::games::dinner::{Dinner, TurnOrder};
    use crate::rng::Rng;

    /// A random two-player dinner of `n` morsels, utilities below `span`, alternating
    /// or in a random order.
    fn two_players(rng: &mut Rng, n: usize, span: u64, alternate: bool) -> (Dinner, TurnOrder) {
        let flat: Vec<i64> = (0..2 * n).map(|_| rng.below(span) as i64).collect();
        let d = Dinner::from_integers(2, flat).expect("dinner");
        let order = if alternate {
            TurnOrder::parse("alternate", &d)
        } else {
            let s: String = (0..n)
                .map(|_| (b'A' + rng.below(2) as u8) as char)
                .collect();
            TurnOrder::parse(&s, &d)
        }
        .expect("order");
        (d, order)
    }

    /// The packed words (two players, index rule) give the engine's value and path on
    /// random dinners: utilities from 0 up to 2^26, so that the fields are filled to
    /// their widths, ties of utility broken by the offsets alone, any turn order.
    #[test]
    fn packed_words_agree_with_the_engine() {
        let mut rng = Rng::for_trial(30, 2);
        let mut packed = 0;
        for trial in 0..300u64 {
            let n = 1 + rng.below(15) as usize;
            let span = [2, 4, 1000, 1_000_001, 1 << 26][(trial % 5) as usize];
            let (d, order) = two_players(&mut rng, n, span, trial % 3 == 0);
            let ties = Ties::uniform(TieBreak::First, 2);
            let game = DinnerGame::<i64>::new(&d, &order, true).expect("game");
            let pay = game.plain_payoffs().expect("plain");
            packed += Packing::of(&game, &ties, pay, n).is_some() as usize;
            let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
            // A budget that holds the packed words but not two columns of payoffs.
            let sizes: Vec<u128> = (0..=n).map(|l| game.layer_size(l) as u128).collect();
            let widest = sizes.iter().copied().max().unwrap_or(1);
            let memory = 2 * widest * 8 + sizes.iter().sum::<u128>();
            let Some(got) = solve(&game, &ties, memory, &Silent) else {
                assert!(Packing::of(&game, &ties, pay, n).is_none(), "trial {trial}");
                continue;
            };
            let got = got.expect("kernel");
            assert_eq!(got.value, want.value, "trial {trial}");
            let steps = |s: &LeanSolution<DinnerGame<'_, i64>>| {
                s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
            };
            assert_eq!(steps(&got), steps(&want), "trial {trial}");
            // Every split of the blocks, from all morsels high to all low.
            let packing = Packing::of(&game, &ties, pay, n).expect("packed");
            for split in [0, 1, 2, 3, 5, 8, n] {
                let got =
                    run_packed(&game, &ties, &packing, n, memory, split, &Silent).expect("blocks");
                assert_eq!(got.value, want.value, "trial {trial} split {split}");
                assert_eq!(steps(&got), steps(&want), "trial {trial} split {split}");
            }
        }
        // Only the widest utilities of the largest dinners overflow a word.
        assert!(packed > 280, "packed {packed} of 300");
    }

    /// At sizes where the default split makes full blocks of low morsels under several
    /// high ones, the blocks give the engine's value and path: the packed words and the
    /// columns (two players under the index rule), the columns alone (two or three
    /// players, every rule for each player), on random dinners of 16 to 18 morsels under
    /// alternation and random orders, utilities with ties and without.
    #[test]
    fn blocks_agree_with_the_engine_at_larger_sizes() {
        let mut rng = Rng::for_trial(30, 3);
        let steps = |s: &LeanSolution<DinnerGame<'_, i64>>| {
            s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
        };
        for trial in 0..8u64 {
            let n = 16 + rng.below(3) as usize;
            let span = [3, 1_000_001][(trial % 2) as usize];
            let (d, order) = two_players(&mut rng, n, span, trial < 4);
            let ties = Ties::uniform(TieBreak::First, 2);
            let game = DinnerGame::<i64>::new(&d, &order, true).expect("game");
            let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
            let pay = game.plain_payoffs().expect("plain");
            let packing = Packing::of(&game, &ties, pay, n).expect("packed");
            let packed =
                run_packed(&game, &ties, &packing, n, u128::MAX, SPLIT, &Silent).expect("blocks");
            let columns = run(&game, &ties, pay, n, u128::MAX, SPLIT, &Silent).expect("columns");
            for got in [packed, columns] {
                assert_eq!(got.value, want.value, "trial {trial}");
                assert_eq!(steps(&got), steps(&want), "trial {trial}");
            }
            // Three players (or two), every rule (the friendly and antagonistic ones
            // through their keys, the payoffs being 32-bit), no index rule.
            let k = 2 + (trial % 2) as usize;
            let flat: Vec<i64> = (0..k * n).map(|_| rng.below(span) as i64).collect();
            let d = Dinner::from_integers(k, flat).expect("dinner");
            let order =
                TurnOrder::parse(if trial < 4 { "snake" } else { "alternate" }, &d).expect("order");
            let rules = [
                TieBreak::First,
                TieBreak::Last,
                TieBreak::Friendly,
                TieBreak::Antagonistic,
            ];
            let ties = Ties::per_player((0..k).map(|_| rules[rng.below(4) as usize]).collect());
            let game = DinnerGame::<i32>::new(&d, &order, false).expect("game");
            let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
            let pay = game.plain_payoffs().expect("plain");
            let got = run(&game, &ties, pay, n, u128::MAX, SPLIT, &Silent).expect("columns");
            let steps = |s: &LeanSolution<DinnerGame<'_, i32>>| {
                s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
            };
            assert_eq!(got.value, want.value, "trial {trial}, {k} players");
            assert_eq!(steps(&got), steps(&want), "trial {trial}, {k} players");
        }
    }

    /// The kernel's value and path equal the engine's lean solve on random plain dinners:
    /// 2 to 4 players, 1 to 13 morsels (past [`KEPT_LAYERS`], the path's last bites come
    /// from a second solve below its state), utilities with many ties (so the rules matter),
    /// every tie rule for everyone and mixed per player, with and without the index rule.
    #[test]
    fn kernel_agrees_with_the_engine() {
        let rules = [
            TieBreak::First,
            TieBreak::Last,
            TieBreak::Friendly,
            TieBreak::Antagonistic,
        ];
        let mut rng = Rng::for_trial(30, 1);
        for trial in 0..400u64 {
            let k = 2 + (trial % 3) as usize;
            let n = 1 + rng.below(13) as usize;
            let span = [3, 10, 1000][(trial / 3 % 3) as usize];
            let flat: Vec<i64> = (0..k * n).map(|_| rng.below(span) as i64 - 1).collect();
            let d = Dinner::from_integers(k, flat).expect("dinner");
            let order = match trial % 4 {
                0 => TurnOrder::parse("snake", &d),
                1 => TurnOrder::parse("alternate", &d),
                _ => {
                    let s: String = (0..n)
                        .map(|_| (b'A' + rng.below(k as u64) as u8) as char)
                        .collect();
                    TurnOrder::parse(&s, &d)
                }
            }
            .expect("order");
            let ties = if trial % 5 == 4 {
                Ties::per_player((0..k).map(|_| rules[rng.below(4) as usize]).collect())
            } else {
                Ties::uniform(rules[(trial % 4) as usize], k)
            };
            for perturb in [false, true] {
                let game = DinnerGame::<i32>::new(&d, &order, perturb).expect("game");
                let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
                let got = solve(&game, &ties, u128::MAX, &Silent)
                    .expect("a plain dinner")
                    .expect("kernel");
                assert_eq!(got.value, want.value, "trial {trial} perturb {perturb}");
                let steps = |s: &LeanSolution<DinnerGame<'_, i32>>| {
                    s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
                };
                assert_eq!(steps(&got), steps(&want), "trial {trial} perturb {perturb}");
                assert_eq!(got.states, want.states);
                // Below the kept layers the path's state was solved again.
                assert_eq!(got.resolved > 0, n > KEPT_LAYERS, "trial {trial}");
                // The columns (which two players under the index rule skip), with every
                // split of the blocks, from all morsels high to all low.
                let pay = game.plain_payoffs().expect("plain");
                for split in [0, 1, 2, 3, 5, 8, n] {
                    let got = run(&game, &ties, pay, n, u128::MAX, split, &Silent).expect("run");
                    let at = format!("trial {trial} perturb {perturb} split {split}");
                    assert_eq!(got.value, want.value, "{at}");
                    assert_eq!(steps(&got), steps(&want), "{at}");
                }
                // 64-bit payoffs: the friendly and antagonistic layers walked state by
                // state (their keys need 32-bit payoffs).
                let wide = DinnerGame::<i64>::new(&d, &order, perturb).expect("game");
                let pay = wide.plain_payoffs().expect("plain");
                let got = run(&wide, &ties, pay, n, u128::MAX, SPLIT, &Silent).expect("run");
                let value: Vec<i64> = want.value.iter().map(|&v| v as i64).collect();
                assert_eq!(got.value, value, "trial {trial} perturb {perturb} wide");
                let wide_steps: Vec<_> = got.path.iter().map(|x| (x.mover, x.mv)).collect();
                assert_eq!(
                    wide_steps,
                    steps(&want),
                    "trial {trial} perturb {perturb} wide"
                );
            }
        }
    }
}
