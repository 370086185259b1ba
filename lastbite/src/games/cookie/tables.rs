//! The tables of Section 4 (the count of strict positions by `D`-value) and of the
//! concluding mystery (nim-values of strict positions), each by two routes: plain
//! enumeration or the engine's brute force, and a fast route that goes far beyond.
//!
//! * [`count_table`] enumerates the `2^(n-1)` strict positions; [`count_table_by_paths`]
//!   counts the solutions of Claim 5's inequalities as lattice paths, with exact big
//!   integers, in `O(n^3)` additions per row.
//! * [`nim_distribution`] asks the engine; [`NimTable`] fills a table of 4-bit
//!   nim-values indexed by [`StrictCode`], layer by layer in parallel.
//!
//! The fast nim route rests on one fact, proved here since the paper proves only its
//! N/P half: *reduction keeps the nim-value* (and remoteness, suspense and strategic
//! duration). Depletion keeps the game tree itself (Claim 1). For deletion, Claim 4's
//! induction goes through word for word with "tantamount" read as "has the same
//! nim-value": it only ever compares the *sets* of values of the options (the options
//! `A_i`, `i <= s`, and `A_{s+1}` all delete to the same position; every other `A_k`
//! deletes to `B_{k-t}`), and a mex, like the other three values, depends on that set
//! alone. The tests also check it exhaustively on small positions.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::par::prelude::*;
use num_bigint::BigUint;

pub use super::layout::{NimLayer, Packing};
use super::model::{CookieError, Position, StrictCode, TableKind};
use super::store::{self, io_error};
use super::theory::{critical, smallest_d};
use crate::engine::Progress;

/// The largest `n` whose strict positions [`count_table`] enumerates (2^(n-1) of them).
pub const MAX_ENUMERATED: u64 = 28;

/// The number of strict `n`-component positions with each D-value, for `n = 0..=max_n`,
/// by enumerating every strict position (`counts[n][d]`), in parallel.
pub fn count_table(max_n: u64, progress: &dyn Progress) -> Vec<Vec<u64>> {
    let mut table = vec![vec![1u64]]; // n = 0: the empty position, D = 0.
    let total: u64 = (1..=max_n).map(|n| 1u64 << (n - 1)).sum();
    progress.start(total, "strict positions");
    for n in 1..=max_n {
        // A cancelled caller gets the rows finished so far; the API discards them.
        if progress.cancelled() {
            break;
        }
        let crit: Vec<Position> = (smallest_d(n)..=n)
            .map(|d| critical(n, d).expect("d in range"))
            .collect();
        const CHUNK: u64 = 1 << 14;
        let count = 1u64 << (n - 1);
        let row = (0..count.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut hist = vec![0u64; n as usize + 1];
                for mask in c * CHUNK..((c + 1) * CHUNK).min(count) {
                    let p = StrictCode { n: n as u32, mask }.position();
                    let d = crit
                        .iter()
                        .rposition(|c| p.dominates(c))
                        .expect("every strict position dominates (1..n)");
                    hist[smallest_d(n) as usize + d] += 1;
                }
                progress.advance(((c + 1) * CHUNK).min(count) - c * CHUNK);
                hist
            })
            .reduce(
                || vec![0u64; n as usize + 1],
                |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
            );
        table.push(row);
    }
    progress.finish();
    table
}

/// The largest `n` for [`count_table_by_paths`] (the work grows as `n^4`).
pub const MAX_BY_PATHS: u64 = 1000;

/// The count table by lattice paths: `counts[n][d]` for `n = 0..=max_n`, exact.
///
/// By Claim 5, `D(A) >= d` holds for the strict position with components
/// `s_1 < s_2 < ... < s_k` below `n` (and `n - k` copies of `n`) exactly when
/// `s_j >= 2j - r` for `r < j <= min(k, m)`, with `r = 2(n - d) + p(d)` and
/// `m = (d + r)/2`. Counting the increasing sequences in `1..n` above that bound is a
/// walk over the values `1..n-1`, each taken or not (a lattice path); the count with
/// `D = d` is the count with `D >= d` less the count with `D >= d + 1`.
pub fn count_table_by_paths(max_n: u64, progress: &dyn Progress) -> Vec<Vec<BigUint>> {
    progress.start(max_n, "rows");
    let mut table = vec![vec![BigUint::from(1u32)]];
    // A row of hundreds of morsels is seconds of big-number sums: each sum asks whether
    // to stop, and a cancelled table's rows are left wrong (its caller discards them).
    table.par_extend((1..=max_n).into_par_iter().map(|n| {
        let at_least: Vec<BigUint> = (smallest_d(n)..=n + 1)
            .map(|d| paths_at_least(n, d, progress))
            .collect();
        let mut row = vec![BigUint::default(); smallest_d(n) as usize];
        row.extend(at_least.windows(2).map(|w| &w[0] - &w[1]));
        progress.advance(1);
        row
    }));
    progress.finish();
    table
}

/// The number of strict `n`-component positions with `D >= d` (zero for `d > n`, and
/// when `progress` asks to stop).
fn paths_at_least(n: u64, d: u64, progress: &dyn Progress) -> BigUint {
    if d > n || progress.cancelled() {
        return BigUint::default();
    }
    let r = 2 * (n - d) + d % 2;
    let m = (d + r) / 2;
    // The extreme case d = (2n-1)/3 has r > m: no constraint, as the critical position
    // is (1, ..., n), below every strict position.
    let bound = |j: u64| if j > r && j <= m { 2 * j - r } else { 0 };
    // ways[j]: sequences of length j so far, over the values seen.
    let mut ways = vec![BigUint::default(); n as usize];
    ways[0] = BigUint::from(1u32);
    for v in 1..n {
        if v % 64 == 0 && progress.cancelled() {
            return BigUint::default();
        }
        for j in (1..=v.min(n - 1)).rev() {
            if v >= bound(j) {
                let (lo, hi) = ways.split_at_mut(j as usize);
                hi[0] += &lo[j as usize - 1];
            }
        }
    }
    ways.iter().sum()
}

/// A closed form for one family of cells of the count table, indexed by `m`.
#[derive(Debug, Clone, Copy)]
pub struct CountPattern {
    /// The family and its formula, e.g. `T(2m+1, 2m) = C(2m, m-1)`.
    pub formula: &'static str,
    /// The kind of numbers, as the paper names them.
    pub kind: &'static str,
    /// The smallest `m` the formula is claimed for.
    pub from_m: u64,
    /// The cell `(n, d)` of index `m`.
    pub cell: fn(u64) -> (u64, u64),
    /// The formula's value at `m`.
    pub value: fn(u64) -> BigUint,
}

fn binomial(n: i64, k: i64) -> BigUint {
    if k < 0 || n < 0 || k > n {
        return BigUint::default();
    }
    let k = k.min(n - k) as u64;
    (0..k).fold(BigUint::from(1u32), |acc, i| acc * (n as u64 - i) / (i + 1))
}

fn pow2_times(m: u64, times: u64, shift: i64) -> BigUint {
    let e = m as i64 + shift;
    debug_assert!(e >= 0);
    BigUint::from(times) << e as u64
}

/// Closed forms found in the count table by fitting the first rows, each then checked
/// on every later row by [`check_patterns`]. At the top (`D` near `n`) the counts are
/// central binomial coefficients and sums of two binomials; at the bottom (`D` near its
/// least value `ceil((2n-1)/3)`) they are a power of two times a polynomial in `m`, the
/// shape of the coefficients of Chebyshev polynomials.
pub const COUNT_PATTERNS: [CountPattern; 10] = [
    CountPattern {
        formula: "T(2m, 2m) = C(2m-1, m)",
        kind: "central binomial coefficient (half of C(2m, m))",
        from_m: 1,
        cell: |m| (2 * m, 2 * m),
        value: |m| binomial(2 * m as i64 - 1, m as i64),
    },
    CountPattern {
        formula: "T(2m+1, 2m+1) = C(2m+1, m)",
        kind: "central binomial coefficient",
        from_m: 0,
        cell: |m| (2 * m + 1, 2 * m + 1),
        value: |m| binomial(2 * m as i64 + 1, m as i64),
    },
    CountPattern {
        formula: "T(2m+1, 2m) = C(2m, m-1)",
        kind: "binomial coefficient next to the central one",
        from_m: 1,
        cell: |m| (2 * m + 1, 2 * m),
        value: |m| binomial(2 * m as i64, m as i64 - 1),
    },
    CountPattern {
        formula: "T(2m, 2m-1) = C(2m-1, m-2) + C(2m, m-1)",
        kind: "sum of two binomial coefficients",
        from_m: 1,
        cell: |m| (2 * m, 2 * m - 1),
        value: |m| binomial(2 * m as i64 - 1, m as i64 - 2) + binomial(2 * m as i64, m as i64 - 1),
    },
    CountPattern {
        formula: "T(2m, 2m-2) = 2 C(2m-2, m-3)",
        kind: "binomial coefficient",
        from_m: 4,
        cell: |m| (2 * m, 2 * m - 2),
        value: |m| binomial(2 * m as i64 - 2, m as i64 - 3) * 2u32,
    },
    CountPattern {
        formula: "T(3m, 2m) = 2^(m-1)",
        kind: "power of two (least D)",
        from_m: 1,
        cell: |m| (3 * m, 2 * m),
        value: |m| pow2_times(m, 1, -1),
    },
    CountPattern {
        formula: "T(3m+1, 2m+1) = (2m+3) 2^(m-1)",
        kind: "Chebyshev-type coefficient (least D)",
        from_m: 1,
        cell: |m| (3 * m + 1, 2 * m + 1),
        value: |m| pow2_times(m, 2 * m + 3, -1),
    },
    CountPattern {
        formula: "T(3m+2, 2m+1) = 2^m",
        kind: "power of two (least D)",
        from_m: 0,
        cell: |m| (3 * m + 2, 2 * m + 1),
        value: |m| pow2_times(m, 1, 0),
    },
    CountPattern {
        formula: "T(3m+2, 2m+2) = (m+1) 2^m",
        kind: "Chebyshev-type coefficient (least D + 1)",
        from_m: 0,
        cell: |m| (3 * m + 2, 2 * m + 2),
        value: |m| pow2_times(m, m + 1, 0),
    },
    CountPattern {
        formula: "T(3m, 2m+1) = (2m+1)(m+2) 2^(m-2)",
        kind: "Chebyshev-type coefficient (least D + 1)",
        from_m: 2,
        cell: |m| (3 * m, 2 * m + 1),
        value: |m| pow2_times(m, (2 * m + 1) * (m + 2), -2),
    },
];

/// Checks each pattern on every row of `table`: `(cells checked, first failure)`.
pub fn check_patterns(table: &[Vec<BigUint>]) -> Vec<(CountPattern, u64, Option<String>)> {
    COUNT_PATTERNS
        .iter()
        .map(|p| {
            let mut checked = 0;
            let mut failure = None;
            for m in p.from_m.. {
                let (n, d) = (p.cell)(m);
                let Some(row) = table.get(n as usize) else {
                    break;
                };
                let got = row.get(d as usize).cloned().unwrap_or_default();
                let want = (p.value)(m);
                if got != want && failure.is_none() {
                    failure = Some(format!("n {n}, d {d}: table {got}, formula {want}"));
                }
                checked += 1;
            }
            (*p, checked, failure)
        })
        .collect()
}

/// The distribution of nim-values (Sprague-Grundy values) of all strict positions with
/// `n = 1..=max_n` components, by the engine's brute force: `dist[n][g]` positions with
/// value `g`. The paper saw none of value 4 or more up to 20 components.
pub fn nim_distribution(max_n: u64, progress: &dyn Progress) -> Vec<Vec<u64>> {
    use crate::engine::impartial::Analyser;
    let game = super::model::CookieGame;
    let mut an = Analyser::new(&game);
    let total: u64 = (1..=max_n).map(|n| 1u64 << (n - 1)).sum();
    progress.start(total, "strict positions");
    let mut dist = vec![Vec::new()];
    for n in 1..=max_n {
        // A cancelled caller gets the rows finished so far; the API discards them.
        if progress.cancelled() {
            break;
        }
        let mut row = Vec::new();
        for mask in 0u64..1 << (n - 1) {
            let p = StrictCode { n: n as u32, mask }.position();
            let g = an.value(&p).grundy as usize;
            if row.len() <= g {
                row.resize(g + 1, 0);
            }
            row[g] += 1;
        }
        progress.advance(1 << (n - 1));
        dist.push(row);
    }
    progress.finish();
    dist
}

/// The largest `n` of a [`NimTable`] (codes fit a `u64`; layer `n` alone takes
/// `2^(n-3)` bytes in 2 bits a position: 32 GiB at 40); [`NimTable::build`] also checks
/// a memory budget.
pub const MAX_NIM_TABLE: u32 = 40;

/// The default memory budget of [`NimTable::build`]: 8 GiB, which takes a 24 GiB machine
/// to n = 35 in 2 bits a position (n = 34 in 4 bits).
pub const DEFAULT_NIM_MEMORY: u64 = 8 << 30;

/// Layers up to this many components are kept whole in a [`NimTable`] (4 MiB together);
/// above it only the last two, which are all the next layer reads.
const KEEP_ALL_UP_TO: u32 = 24;

/// The nim-values of every strict position up to some `n`, built layer by layer: the
/// reduced options of an `n`-component strict position have `n - 1` or `n - 2`
/// components ([`StrictCode::for_each_option`]), so only two earlier layers are read.
///
/// With a store directory every finished layer is written there, and a later run with
/// the same directory resumes after the last layer it finds.
///
/// ```
/// use lastbite::games::cookie::tables::{NimTable, Packing, DEFAULT_NIM_MEMORY};
/// let t = NimTable::build(6, Packing::TwoBits, None, DEFAULT_NIM_MEMORY, &lastbite::engine::Silent).unwrap();
/// // (2, 3, 4, 4) has nim-value 3: code n = 4, components 2 and 3.
/// assert_eq!(t.layer(4).unwrap().get(0b110), 3);
/// assert_eq!(t.distribution()[4], vec![3, 2, 2, 1]);
/// ```
#[derive(Debug, Clone)]
pub struct NimTable {
    layers: Vec<Option<NimLayer>>,
    dist: Vec<Vec<u64>>,
    gpu: Option<String>,
}

/// Computes layer `n` from the table's earlier layers.
type LayerFn<'a> = dyn FnMut(&[Option<NimLayer>], u32) -> Result<NimLayer, CookieError> + 'a;

impl NimTable {
    /// Builds (or, from `store`, resumes) the table up to `max_n` components, refusing
    /// when the layers it must hold at once would take more than `memory` bytes. With
    /// the `gpu` feature the layers run on a GPU when one is present
    /// (`lastbite::gpu::Gpu::shared`).
    pub fn build(
        max_n: u32,
        packing: Packing,
        store: Option<&Path>,
        memory: u64,
        progress: &dyn Progress,
    ) -> Result<NimTable, CookieError> {
        #[cfg(feature = "gpu")]
        {
            Self::build_on(
                max_n,
                packing,
                store,
                memory,
                crate::gpu::Gpu::shared(),
                progress,
            )
        }
        #[cfg(not(feature = "gpu"))]
        {
            let mut cpu = |layers: &[Option<NimLayer>], n| next_layer(layers, n, packing, progress);
            Self::build_with(max_n, packing, store, memory, progress, &mut cpu)
        }
    }

    /// [`NimTable::build`] on `gpu` (none: the CPU). A layer the device hands back (a
    /// value over 15, a failing device) and every later one run on the CPU; so do all
    /// when the last layer does not fit the device. The same table either way (tested).
    #[cfg(feature = "gpu")]
    pub fn build_on(
        max_n: u32,
        packing: Packing,
        store: Option<&Path>,
        memory: u64,
        gpu: Option<&crate::gpu::Gpu>,
        progress: &dyn Progress,
    ) -> Result<NimTable, CookieError> {
        let mut device = gpu.and_then(|g| super::gpu::NimOnDevice::new(g, max_n).ok());
        let mut used = false;
        let mut next = |layers: &[Option<NimLayer>], n| {
            if let Some(d) = device.as_mut() {
                match d.layer(layers, n, packing, progress) {
                    Ok(layer) => {
                        used = true;
                        return Ok(layer);
                    }
                    Err(_) => device = None,
                }
            }
            next_layer(layers, n, packing, progress)
        };
        let mut t = Self::build_with(max_n, packing, store, memory, progress, &mut next)?;
        if used {
            t.gpu = gpu.map(|g| g.name().to_string());
        }
        Ok(t)
    }

    fn build_with(
        max_n: u32,
        packing: Packing,
        store: Option<&Path>,
        memory: u64,
        progress: &dyn Progress,
        next: &mut LayerFn<'_>,
    ) -> Result<NimTable, CookieError> {
        let need = NimTable::memory_for(max_n, packing);
        if max_n > MAX_NIM_TABLE || need > memory {
            return Err(CookieError::OverBudget {
                table: TableKind::Nim {
                    bits: packing.bits(),
                },
                max_n,
                positions: 1u128 << max_n.saturating_sub(1),
                need,
                budget: memory,
                limit: MAX_NIM_TABLE,
            });
        }
        let mut t = NimTable {
            layers: vec![Some(NimLayer {
                n: 0,
                packing,
                packed: vec![0],
                escapes: Vec::new(),
            })],
            dist: vec![Vec::new()],
            gpu: None,
        };
        let mut first = 1;
        if let Some(dir) = store {
            std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
            while first <= max_n {
                match store::load_nim_layer(dir, first, packing)? {
                    Some(layer) => t.push(layer),
                    None => break,
                }
                first += 1;
            }
        }
        let total: u64 = (first..=max_n).map(|n| 1u64 << (n - 1)).sum();
        progress.start(total, "strict positions");
        for n in first..=max_n {
            // Layers finished so far are in the store: a cancelled run resumes there.
            if progress.cancelled() {
                progress.finish();
                return Err(CookieError::Cancelled);
            }
            let layer = next(&t.layers, n)?;
            if let Some(dir) = store {
                store::save_nim_layer(dir, &layer)?;
            }
            t.push(layer);
        }
        progress.finish();
        Ok(t)
    }

    /// The bytes a table to `max_n` holds at once: its last three layers (escapes
    /// aside).
    pub fn memory_for(max_n: u32, packing: Packing) -> u64 {
        (max_n.saturating_sub(2)..=max_n)
            .map(|n| packing.bytes_for(n))
            .sum()
    }

    fn push(&mut self, layer: NimLayer) {
        self.dist.push(layer.histogram());
        let n = layer.n as usize;
        if n >= 3 && n - 3 > KEEP_ALL_UP_TO as usize {
            self.layers[n - 3] = None;
        }
        self.layers.push(Some(layer));
    }

    /// The layer of `n`-component positions, if kept: every layer up to 24 components,
    /// and the last two.
    pub fn layer(&self, n: u32) -> Option<&NimLayer> {
        self.layers.get(n as usize)?.as_ref()
    }

    /// The GPU that computed some of its layers (feature `gpu`), if one did.
    pub fn gpu(&self) -> Option<&str> {
        self.gpu.as_deref()
    }

    /// The largest `n` in the table.
    pub fn max_n(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// `dist[n][g]`: how many strict `n`-component positions have nim-value `g`
    /// (`dist[0]` is empty, as in [`nim_distribution`]).
    pub fn distribution(&self) -> Vec<Vec<u64>> {
        self.dist.clone()
    }
}

/// Layer `n` from the two before it.
fn next_layer(
    layers: &[Option<NimLayer>],
    n: u32,
    packing: Packing,
    progress: &dyn Progress,
) -> Result<NimLayer, CookieError> {
    let mut packed = vec![0u8; packing.bytes_for(n) as usize];
    let too_big = AtomicBool::new(false);
    let lookup = |c: StrictCode| {
        layers[c.n as usize]
            .as_ref()
            .expect("the last two layers are kept")
            .get(c.mask)
    };
    const CHUNK: usize = 1 << 12;
    let positions = 1u64 << (n - 1);
    let bits = packing.bits();
    let per_byte = u64::from(8 / bits);
    let top = packing.top();
    let escapes = std::sync::Mutex::new(Vec::new());
    packed
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, bytes)| {
            let start = chunk as u64 * CHUNK as u64 * per_byte;
            let end = (start + per_byte * bytes.len() as u64).min(positions);
            let mut mine = Vec::new();
            for mask in start..end {
                let mut seen = 0u32;
                StrictCode { n, mask }.for_each_option(|o| seen |= 1 << lookup(o));
                let g = (!seen).trailing_zeros();
                if g > top {
                    match packing {
                        Packing::FourBits => too_big.store(true, Ordering::Relaxed),
                        Packing::TwoBits => mine.push((mask, g as u8)),
                    }
                }
                let at = mask - start;
                bytes[(at / per_byte) as usize] |=
                    (g.min(top) as u8) << ((at % per_byte) as u32 * bits);
            }
            if !mine.is_empty() {
                escapes.lock().expect("no panic holds it").extend(mine);
            }
            progress.advance(end - start);
        });
    if too_big.load(Ordering::Relaxed) {
        return Err(CookieError::ValueTooWide { n });
    }
    let mut escapes = escapes.into_inner().expect("no panic holds it");
    escapes.sort_unstable();
    Ok(NimLayer {
        n,
        packing,
        packed,
        escapes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::impartial::Analyser;
    use crate::engine::Silent;
    use crate::games::cookie::CookieGame;

    /// The O(1) option codes against the model's options, reduced, for n <= 12.
    #[test]
    fn option_codes_are_the_reduced_options() {
        for n in 0..=12u32 {
            for mask in 0..1u64 << n.saturating_sub(1) {
                let code = StrictCode { n, mask };
                let p = code.position();
                assert_eq!(StrictCode::of(&p), Some(code));
                let mut fast = Vec::new();
                code.for_each_option(|o| fast.push(o.position()));
                let slow: Vec<Position> = p.options().iter().map(Position::reduced).collect();
                assert_eq!(fast, slow, "{p}");
            }
        }
    }

    /// Reduction keeps nim-value, remoteness, suspense and duration, on every position
    /// with up to 7 components of size up to 8 (the proof is in the module doc).
    #[test]
    fn reduction_keeps_every_value() {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        fn multisets(len: usize, from: u64, max: u64, cur: &mut Vec<u64>, out: &mut Vec<Position>) {
            if cur.len() == len {
                out.push(Position::new(cur.clone()));
                return;
            }
            for v in from..=max {
                cur.push(v);
                multisets(len, v, max, cur, out);
                cur.pop();
            }
        }
        let mut all = Vec::new();
        for len in 0..=7 {
            multisets(len, 0, 8, &mut Vec::new(), &mut all);
        }
        assert_eq!(all.len(), 11_440); // C(16, 7): multisets of size <= 7 from 9 values
        for p in all {
            assert_eq!(an.value(&p), an.value(&p.reduced()), "{p}");
        }
    }

    #[test]
    fn nim_table_equals_the_engine() {
        let fast =
            NimTable::build(16, Packing::TwoBits, None, DEFAULT_NIM_MEMORY, &Silent).unwrap();
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        for n in 0..=14u32 {
            for mask in 0..1u64 << n.saturating_sub(1) {
                let p = StrictCode { n, mask }.position();
                assert_eq!(
                    u32::from(fast.layer(n).unwrap().get(mask)),
                    an.value(&p).grundy,
                    "{p}"
                );
            }
        }
        assert_eq!(fast.distribution(), nim_distribution(16, &Silent));
    }

    #[test]
    fn nim_table_resumes_from_its_store() {
        let dir = std::env::temp_dir().join(format!("lastbite-nim-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for packing in [Packing::TwoBits, Packing::FourBits] {
            let whole = NimTable::build(14, packing, None, DEFAULT_NIM_MEMORY, &Silent).unwrap();
            NimTable::build(9, packing, Some(&dir), DEFAULT_NIM_MEMORY, &Silent).unwrap();
            std::fs::remove_file(store::layer_path(&dir, packing.file_stem(), 8)).unwrap(); // only 1..=7 are used
            let resumed =
                NimTable::build(14, packing, Some(&dir), DEFAULT_NIM_MEMORY, &Silent).unwrap();
            assert_eq!(resumed.distribution(), whole.distribution());
            std::fs::write(store::layer_path(&dir, packing.file_stem(), 3), [0u8; 5]).unwrap();
            let e =
                NimTable::build(14, packing, Some(&dir), DEFAULT_NIM_MEMORY, &Silent).unwrap_err();
            let name = format!("{}-layer-03.bin", packing.file_stem());
            assert!(e.to_string().contains(&name), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nim_table_refuses_over_its_budget() {
        let e =
            NimTable::build(35, Packing::FourBits, None, DEFAULT_NIM_MEMORY, &Silent).unwrap_err();
        assert!(
            e.to_string().contains("17179869184 strict positions"),
            "{e}"
        );
        // 2 bits a position fit n = 35 in the same budget (7 GiB), not n = 36.
        assert_eq!(NimTable::memory_for(35, Packing::TwoBits), 7 << 30);
        let e =
            NimTable::build(36, Packing::TwoBits, None, DEFAULT_NIM_MEMORY, &Silent).unwrap_err();
        assert!(e.to_string().contains("in 2 bits"), "{e}");
        assert!(NimTable::build(41, Packing::TwoBits, None, u64::MAX, &Silent).is_err());
    }

    /// The 2-bit table equals the 4-bit table, value by value, to n = 24.
    #[test]
    fn two_bits_equal_four_bits() {
        let two = NimTable::build(24, Packing::TwoBits, None, DEFAULT_NIM_MEMORY, &Silent).unwrap();
        let four =
            NimTable::build(24, Packing::FourBits, None, DEFAULT_NIM_MEMORY, &Silent).unwrap();
        assert_eq!(two.distribution(), four.distribution());
        for n in 0..=24 {
            let (a, b) = (two.layer(n).unwrap(), four.layer(n).unwrap());
            assert!(a.bytes() <= b.bytes().div_ceil(2) + 1, "n {n}");
            for mask in 0..1u64 << n.saturating_sub(1) {
                assert_eq!(a.get(mask), b.get(mask), "n {n} code {mask}");
            }
        }
    }

    /// Values of 4 and more go to the escapes and come back, through a layer built
    /// over made-up earlier layers (hashed values 0 to 5, so options often cover 0 to 3),
    /// against a plain mex over the same values; and a stored layer keeps its escapes.
    #[test]
    fn two_bit_escapes_hold_large_values() {
        let value = |mask: u64| (mask.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as u8 % 6;
        let most = (0..1u64 << 11)
            .map(|mask| {
                let mut k = 0;
                StrictCode { n: 12, mask }.for_each_option(|_| k += 1);
                k
            })
            .max();
        assert!(most >= Some(5), "{most:?} options at most");
        let fake = |n: u32| {
            let positions = 1u64 << (n - 1);
            let mut packed = vec![0u8; Packing::TwoBits.bytes_for(n) as usize];
            let mut escapes = Vec::new();
            for mask in 0..positions {
                let v = value(mask);
                packed[(mask / 4) as usize] |= v.min(3) << ((mask % 4) * 2);
                if v > 3 {
                    escapes.push((mask, v));
                }
            }
            NimLayer {
                n,
                packing: Packing::TwoBits,
                packed,
                escapes,
            }
        };
        let n = 12;
        let mut layers: Vec<Option<NimLayer>> = (0..n).map(|_| None).collect();
        layers[n as usize - 2] = Some(fake(n - 2));
        layers[n as usize - 1] = Some(fake(n - 1));
        let layer = next_layer(&layers, n, Packing::TwoBits, &Silent).unwrap();
        assert!(layer.escapes.len() > 10, "{}", layer.escapes.len());
        let mut hist = vec![0u64; 32];
        for mask in 0..1u64 << (n - 1) {
            let mut seen = 0u32;
            StrictCode { n, mask }.for_each_option(|o| seen |= 1 << value(o.mask));
            let g = (!seen).trailing_zeros();
            assert_eq!(u32::from(layer.get(mask)), g, "code {mask}");
            hist[g as usize] += 1;
        }
        while hist.last() == Some(&0) {
            hist.pop();
        }
        assert_eq!(layer.histogram(), hist);
        let dir = std::env::temp_dir().join(format!("lastbite-nim2-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        store::save_nim_layer(&dir, &layer).unwrap();
        assert_eq!(
            store::load_nim_layer(&dir, n, Packing::TwoBits).unwrap(),
            Some(layer)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn count_rows_sum_to_the_number_of_strict_positions() {
        let t = count_table(16, &Silent);
        for (n, row) in t.iter().enumerate().skip(1) {
            assert_eq!(row.iter().sum::<u64>(), 1 << (n - 1), "n {n}");
        }
    }

    /// The lattice-path count against enumeration, every row up to n = 20.
    #[test]
    fn paths_equal_enumeration() {
        let slow = count_table(20, &Silent);
        let fast = count_table_by_paths(20, &Silent);
        for (n, (s, f)) in slow.iter().zip(&fast).enumerate() {
            let f: Vec<u64> = f.iter().map(|x| u64::try_from(x).unwrap()).collect();
            assert_eq!(&f, s, "n {n}");
        }
    }

    #[test]
    fn patterns_hold_to_200_and_can_fail() {
        let t = count_table_by_paths(200, &Silent);
        for (p, checked, failure) in check_patterns(&t) {
            assert!(failure.is_none(), "{}: {failure:?}", p.formula);
            assert!(checked >= 60, "{}", p.formula);
        }
        let mut wrong = t.clone();
        wrong[7][7] += 1u32;
        assert!(check_patterns(&wrong)[1].2.is_some());
    }

    #[test]
    fn path_rows_sum_to_powers_of_two() {
        for (n, row) in count_table_by_paths(60, &Silent).iter().enumerate().skip(1) {
            assert_eq!(
                row.iter().sum::<BigUint>(),
                BigUint::from(1u32) << (n - 1),
                "n {n}"
            );
        }
    }
}
