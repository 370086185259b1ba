//! The general cookie game: every reduced position, not only the strict ones
//! Section 3 of Propp and Ullman solves. The paper reduces every position to a reduced
//! one (the Depletion and Deletion Theorems, Section 2) and remarks that "a full
//! solution still seems far off"; this module tabulates the whole game as far as memory
//! allows: for each reduced position its type (N or P), nim-value, remoteness, suspense
//! and strategic duration (when it has one).
//!
//! A reduced position with `n` components is `1 <= a_1 <= ... <= a_n = n` with
//! `a_k >= k` (a Dyck path: Catalan many, 1.3 x 10^8 at n = 17). Layer `n` numbers them
//! in lexicographic order ([`rank`], [`unrank`]), so each layer is a dense vector of
//! packed values, filled in parallel from the layers below.
//!
//! **Why the options can be looked up in their reduced form.** Depletion keeps the game
//! tree (Claim 1), so every value survives it. Claim 4's induction compares only the
//! *sets* of the options' values (`A_i ~ A_{s+1}` for `i <= s`, and `A_k ~ B_{k-t}`):
//! read with "has the same nim-value, remoteness, suspense and duration" for `~`, it
//! proves deletion keeps all four, since each is a function of the set of the options'
//! values ([`combine`]). The tests check this against the engine's brute force over
//! unreduced positions for every reduced position up to `n = 10`.
//!
//! **The options of a reduced position, in O(n).** Eating `a_k` and counting a day down
//! gives `b = (a_1 - 1, ..., a_{k-1} - 1, a_{k+1} - 1, ..., a_n - 1)`. Its surplus is 1 if
//! some `j < k` is tight (`a_j = j`), else 0: before `k`, `j - b_j = j - a_j + 1 <= 1`;
//! from `k` on, `j - b_j = j + 1 - a_{j+1} <= 0`. So the reduced option drops `b_1` and
//! caps at `n - 2` when such a `j` exists, and is `b` itself otherwise. The table never
//! builds them: an option's rank is a prefix sum, a suffix sum and one joining term over
//! `a` (`OptionRanks`), and the sums are kept along the walk in lexicographic order, so
//! a position of 17 components costs about 77 ns of CPU (was 270 ns).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::engine::impartial::{combine, ImpartialValue, Outcome};
use crate::engine::Progress;
use crate::par::prelude::*;

#[cfg(test)]
use super::layout::{next, rank_with};
use super::layout::{next_from, suffix_tables, MAX_COUNTED};
pub use super::layout::{rank, reduced_count, unrank, BYTES_PER_POSITION};
use super::model::TableKind;
use super::model::{CookieError, Position};
use super::store::{self, io_error};

/// The largest `n` of a general table: layer 20 alone has 6.6 x 10^9 positions (26 GB).
pub const MAX_GENERAL: u32 = 20;

/// No strategic duration, in a packed value's duration byte.
const NO_DURATION: u32 = 0xff;

/// Calls `f` with the reduced form of each distinct option of the reduced position `a`
/// (one per distinct component), written into `buf`: the reference that
/// [`for_each_option_rank`] is tested against.
#[cfg(test)]
fn for_each_option(a: &[u8], buf: &mut [u8; 64], mut f: impl FnMut(&[u8])) {
    let n = a.len();
    // Whether some j < k is tight (a_j = j, 1-based), for the current k.
    let mut tight = false;
    for k in 0..n {
        if k > 0 {
            tight |= a[k - 1] as usize == k;
            if a[k] == a[k - 1] {
                continue;
            }
        }
        // b: every other component, a day older.
        let mut m = 0;
        for (j, &x) in a.iter().enumerate() {
            if j != k {
                buf[m] = x - 1;
                m += 1;
            }
        }
        if tight {
            // The surplus is 1: delete the smallest, deplete to n - 2.
            let cap = (n - 2) as u8;
            for j in 0..n - 2 {
                buf[j] = buf[j + 1].min(cap);
            }
            f(&buf[..n - 2]);
        } else {
            f(&buf[..n - 1]);
        }
    }
}

/// The ranks of the options of a reduced position with `n` components, kept from one
/// position to the next in lexicographic order.
///
/// The rank of a position `b` is `sum_i s(i + 1, b_(i-1)) - s(i + 1, b_i)` (`s`: the
/// suffix table of its size, `b_(-1) = 0`). An option is `a` with component `k` removed
/// and the rest a day older, `b_i = a_i - 1` before `k` and `a_(i+1) - 1` from it on (and,
/// when some component before `k` is tight, the first dropped and the rest capped at
/// `n - 2`): its terms before `k` are a prefix sum over `a`, those after it the
/// difference of two, and one term joins them, so each option's rank costs `O(1)`. The
/// sums are prefix sums, so when [`next_from`] changes `a` from component `c` on, only
/// their entries from about `c` on are recomputed: a few, on average.
struct OptionRanks {
    /// Not tight (size `n - 1`): `pre[j] = sum_(i<j) s(i + 1, day(i - 1)) - s(i + 1,
    /// day(i))`, `q[j] = sum_(1<=i<j) s(i + 1, day(i)) - s(i + 1, day(i + 1))`.
    pre: [u64; 64],
    q: [u64; 64],
    /// Tight (size `n - 2`): the same over `cap(i) = min(a_i - 1, n - 2)`, shifted by one.
    tpre: [u64; 64],
    tq: [u64; 64],
}

impl OptionRanks {
    fn new() -> OptionRanks {
        OptionRanks {
            pre: [0; 64],
            q: [0; 64],
            tpre: [0; 64],
            tq: [0; 64],
        }
    }

    /// Brings the sums up to date for `a`, whose components before `from` are those of
    /// the last position given (0: all new).
    #[inline]
    fn update(&mut self, a: &[u8], from: usize, tables: &[Flat]) {
        let n = a.len();
        if n < 2 {
            return;
        }
        let (l, m) = (n - 1, n - 2);
        let (s, t) = (&tables[l], &tables[m]);
        let day = |i: usize| usize::from(a[i] - 1);
        let cap = |i: usize| usize::from(a[i] - 1).min(m);
        self.pre[0] = 0;
        for i in from..l {
            let prev = if i == 0 { 0 } else { day(i - 1) };
            self.pre[i + 1] = self.pre[i]
                .wrapping_add(s.at(i + 1, prev))
                .wrapping_sub(s.at(i + 1, day(i)));
        }
        self.q[1] = 0;
        for i in from.saturating_sub(1).max(1)..l {
            self.q[i + 1] = self.q[i]
                .wrapping_add(s.at(i + 1, day(i)))
                .wrapping_sub(s.at(i + 1, day(i + 1)));
        }
        self.tpre[0] = 0;
        for i in from.saturating_sub(1)..m {
            let prev = if i == 0 { 0 } else { cap(i) };
            self.tpre[i + 1] = self.tpre[i]
                .wrapping_add(t.at(i + 1, prev))
                .wrapping_sub(t.at(i + 1, cap(i + 1)));
        }
        self.tq[1] = 0;
        for i in from.saturating_sub(2).max(1)..m {
            self.tq[i + 1] = self.tq[i]
                .wrapping_add(t.at(i + 1, cap(i + 1)))
                .wrapping_sub(t.at(i + 1, cap(i + 2)));
        }
    }

    /// Calls `f(components, rank)` with the size and rank of the reduced form of each
    /// distinct option of `a` (the position last given to [`OptionRanks::update`]), in
    /// [`for_each_option`]'s order.
    #[inline]
    fn for_each(&self, a: &[u8], tables: &[Flat], mut f: impl FnMut(usize, u64)) {
        let n = a.len();
        match n {
            0 => return,
            1 => return f(0, 0),
            _ => {}
        }
        let (l, m) = (n - 1, n - 2);
        let (s, t) = (&tables[l], &tables[m]);
        let day = |i: usize| usize::from(a[i] - 1);
        let cap = |i: usize| usize::from(a[i] - 1).min(m);
        let mut tight = false;
        for k in 0..n {
            if k > 0 {
                tight |= a[k - 1] as usize == k;
                if a[k] == a[k - 1] {
                    continue;
                }
            }
            if !tight {
                let r = if k == l {
                    self.pre[l]
                } else {
                    let prev = if k == 0 { 0 } else { day(k - 1) };
                    self.pre[k]
                        .wrapping_add(s.at(k + 1, prev))
                        .wrapping_sub(s.at(k + 1, day(k + 1)))
                        .wrapping_add(self.q[l].wrapping_sub(self.q[k + 1]))
                };
                f(l, r);
            } else {
                // A tight k is at least 1: some component before it is tight.
                let r = if k == l {
                    self.tpre[m]
                } else {
                    let prev = if k == 1 { 0 } else { cap(k - 1) };
                    self.tpre[k - 1]
                        .wrapping_add(t.at(k, prev))
                        .wrapping_sub(t.at(k, cap(k + 1)))
                        .wrapping_add(self.tq[m].wrapping_sub(self.tq[k]))
                };
                f(m, r);
            }
        }
    }
}

/// One size's [`suffix_tables`] entry in one block, `at(k, v)` at `k * stride + v`: the
/// option ranks read it without a second indirection.
struct Flat {
    stride: usize,
    data: Vec<u64>,
}

impl Flat {
    #[inline(always)]
    fn at(&self, k: usize, v: usize) -> u64 {
        self.data[k * self.stride + v]
    }
}

/// Every size's suffix table, flat, built once.
fn flat_tables() -> &'static [Flat] {
    static FLAT: std::sync::OnceLock<Vec<Flat>> = std::sync::OnceLock::new();
    FLAT.get_or_init(|| {
        suffix_tables()
            .iter()
            .map(|rows| {
                let stride = rows.first().map_or(0, Vec::len);
                Flat {
                    stride,
                    data: rows.iter().flatten().copied().collect(),
                }
            })
            .collect()
    })
}

/// [`combine`] on packed values, packed: one pass, no unpacking (the general table calls
/// it once a position). Falls back to [`combine`] when a nim-value reaches 64.
#[inline]
fn combine_packed(options: &[u32]) -> u32 {
    let mut seen = 0u64;
    let mut winning = false;
    let (mut near_even, mut far_even) = (u32::MAX, 0u32);
    let (mut far, mut near) = (0u32, u32::MAX);
    let mut all_known = true;
    // The first duration (even, and of any parity) and whether all others equal it.
    let (mut first_even, mut evens_agree) = (NO_DURATION, true);
    let (mut first_any, mut all_agree) = (NO_DURATION, true);
    for &v in options {
        let g = v & 0xff;
        if g >= 64 {
            let unpacked: Vec<ImpartialValue> =
                options.iter().map(|&v| Packed(v).unpack()).collect();
            return Packed::pack(&combine(&unpacked)).0;
        }
        seen |= 1 << g;
        winning |= g == 0;
        let (r, su, d) = (v >> 8 & 0xff, v >> 16 & 0xff, v >> 24);
        if r % 2 == 0 {
            near_even = near_even.min(r);
        }
        if su % 2 == 0 {
            far_even = far_even.max(su);
        }
        far = far.max(r);
        near = near.min(su);
        if d == NO_DURATION {
            all_known = false;
            continue;
        }
        if d % 2 == 0 {
            if first_even == NO_DURATION {
                first_even = d;
            } else {
                evens_agree &= d == first_even;
            }
        }
        if first_any == NO_DURATION {
            first_any = d;
        } else {
            all_agree &= d == first_any;
        }
    }
    if options.is_empty() {
        return Packed::pack(&combine(&[])).0;
    }
    let grundy = (!seen).trailing_zeros();
    let (remoteness, suspense) = if winning {
        (1 + near_even, 1 + far_even)
    } else {
        (1 + far, 1 + near)
    };
    let duration = match (all_known, first_even != NO_DURATION) {
        (false, _) => NO_DURATION,
        (true, true) if evens_agree => first_even + 1,
        (true, false) if all_agree => first_any + 1,
        _ => NO_DURATION,
    };
    grundy | remoteness << 8 | suspense << 16 | duration << 24
}

/// The values of one position, packed in a `u32`: nim-value, remoteness, suspense and
/// duration (`0xff`: none), a byte each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packed(u32);

impl Packed {
    fn pack(v: &ImpartialValue) -> Packed {
        let d = v.duration.unwrap_or(NO_DURATION);
        debug_assert!(v.grundy < 256 && v.remoteness < 256 && v.suspense < 256 && d < 256);
        Packed(v.grundy | v.remoteness << 8 | v.suspense << 16 | d << 24)
    }

    /// The values.
    fn unpack(self) -> ImpartialValue {
        let grundy = self.0 & 0xff;
        let d = self.0 >> 24;
        ImpartialValue {
            outcome: if grundy == 0 { Outcome::P } else { Outcome::N },
            grundy,
            remoteness: self.0 >> 8 & 0xff,
            suspense: self.0 >> 16 & 0xff,
            duration: (d != NO_DURATION).then_some(d),
        }
    }
}

/// The values of every reduced position with up to `max_n` components, layer by layer.
///
/// ```
/// use lastbite::engine::Silent;
/// use lastbite::games::cookie::general::GeneralTable;
/// use lastbite::games::cookie::Position;
/// let t = GeneralTable::build(8, None, 1 << 30, &Silent).unwrap();
/// // (2, 2, 3) is reduced but not strict (2 < 3 repeats): a P-position that lasts
/// // exactly 2 moves, whatever the loser does.
/// let v = t.value(&"2 2 3".parse::<Position>().unwrap()).unwrap();
/// assert_eq!((v.grundy, v.duration), (0, Some(2)));
/// // Any position is reduced first: (0, 2, 2, 7) reduces to (2, 2, 3).
/// assert_eq!(t.value(&"0 2 2 7".parse::<Position>().unwrap()), Some(v));
/// assert_eq!(t.rows()[8].positions, 1430);
/// ```
#[derive(Debug, Clone)]
pub struct GeneralTable {
    layers: Vec<Vec<u32>>,
}

/// The counts of one layer of a [`GeneralTable`] (a row of `cookie general`'s report).
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct GeneralRow {
    /// Components.
    pub n: u32,
    /// Reduced positions (the Catalan number).
    pub positions: u64,
    /// P-positions (the previous player wins; nim-value 0).
    pub p_positions: u64,
    /// Positions by nim-value (keys are the values, as strings).
    pub nim: BTreeMap<u32, u64>,
    /// Positions without a strategic duration.
    pub no_duration: u64,
    /// The largest nim-value.
    pub max_nim: u32,
    /// Positions whose remoteness differs from their suspense.
    pub remoteness_not_suspense: u64,
    /// The largest remoteness.
    pub max_remoteness: u32,
}

impl GeneralTable {
    /// The bytes a table to `max_n` holds: every layer, 4 bytes a position.
    pub fn memory_for(max_n: u32) -> u64 {
        (0..=max_n as usize)
            .map(|n| reduced_count(n) * BYTES_PER_POSITION)
            .sum()
    }

    /// Builds the table to `max_n` components, refusing (before allocating) when it would
    /// hold more than `memory` bytes. With `store`, each finished layer is written there
    /// (atomically) and a rerun resumes after the last layer it finds.
    pub fn build(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        progress: &dyn Progress,
    ) -> Result<GeneralTable, CookieError> {
        GeneralTable::build_with(max_n, store, memory, &mut Maker::shared(max_n), progress)
    }

    /// [`GeneralTable::build`] with its layers on `gpu` (none: the CPU); the same table
    /// either way (tested), and the device's name when it computed a layer.
    #[cfg(feature = "gpu")]
    pub fn build_on(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        gpu: Option<&crate::gpu::Gpu>,
        progress: &dyn Progress,
    ) -> Result<(GeneralTable, Option<String>), CookieError> {
        let mut maker = Maker::on(gpu, max_n);
        let t = GeneralTable::build_with(max_n, store, memory, &mut maker, progress)?;
        Ok((t, maker.used()))
    }

    /// [`GeneralTable::build`] with `maker`'s layers: refused over `memory` before
    /// anything is allocated.
    fn build_with(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        maker: &mut Maker<'_>,
        progress: &dyn Progress,
    ) -> Result<GeneralTable, CookieError> {
        refuse_over(
            max_n,
            GeneralTable::memory_for(max_n.min(MAX_GENERAL)),
            memory,
        )?;
        GeneralTable::build_layers(max_n, store, progress, 0, maker)
    }

    /// The layers to `max_n`, loaded from `store` where they are there, the rest
    /// computed (and stored); the progress phase counts `extra` more positions to come.
    fn build_layers(
        max_n: u32,
        store: Option<&Path>,
        progress: &dyn Progress,
        extra: u64,
        maker: &mut Maker<'_>,
    ) -> Result<GeneralTable, CookieError> {
        let mut t = GeneralTable {
            layers: vec![vec![Packed::pack(&combine(&[])).0]],
        };
        if let Some(dir) = store {
            std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
            while t.layers.len() <= max_n as usize {
                match store::load_general_layer(dir, t.layers.len() as u32)? {
                    Some(layer) => t.layers.push(layer),
                    None => break,
                }
            }
        }
        let first = t.layers.len() as u32;
        let total: u64 = (first..=max_n).map(|n| reduced_count(n as usize)).sum();
        progress.start(total + extra, "reduced positions");
        for n in first..=max_n {
            let layer = maker.layer(&t, n, progress)?;
            if let Some(dir) = store {
                store::save_general_layer(dir, n, &layer)?;
            }
            t.layers.push(layer);
        }
        if extra == 0 {
            progress.finish();
        }
        Ok(t)
    }

    /// The counts of every layer to `max_n`, the last one counted as it is computed and
    /// never held: a table to `max_n - 1` is all it needs (n = 20: 9.4 GB instead of
    /// 36 GB). With `store`, the layers below `max_n` are kept and resumed as by
    /// [`GeneralTable::build`].
    pub fn rows_to(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        progress: &dyn Progress,
    ) -> Result<Vec<GeneralRow>, CookieError> {
        Ok(GeneralTable::rows_with(max_n, store, memory, &mut Maker::shared(max_n), progress)?.0)
    }

    /// [`GeneralTable::rows_to`] with its layers on `gpu` (none: the CPU): the same rows
    /// either way (tested), and the device's name when it computed a layer.
    #[cfg(feature = "gpu")]
    pub fn rows_to_on(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        gpu: Option<&crate::gpu::Gpu>,
        progress: &dyn Progress,
    ) -> Result<(Vec<GeneralRow>, Option<String>), CookieError> {
        GeneralTable::rows_with(max_n, store, memory, &mut Maker::on(gpu, max_n), progress)
    }

    /// [`GeneralTable::rows_to`] on `maker`'s device (when it has one), the GPU's name
    /// when it computed a layer.
    pub(crate) fn rows_with(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        maker: &mut Maker<'_>,
        progress: &dyn Progress,
    ) -> Result<(Vec<GeneralRow>, Option<String>), CookieError> {
        let below = max_n.saturating_sub(1).min(MAX_GENERAL);
        let streamed = 2 * crate::par::current_num_threads() as u64 * CHUNK as u64 * 4;
        refuse_over(max_n, GeneralTable::memory_for(below) + streamed, memory)?;
        if max_n == 0 {
            let t = GeneralTable::build_layers(0, None, progress, 0, maker)?;
            return Ok((t.rows(), maker.used()));
        }
        let size = reduced_count(max_n as usize);
        let t = GeneralTable::build_layers(below, store, progress, size, maker)?;
        let last = match maker.last_row(&t, max_n, progress) {
            Some(row) => row,
            None => {
                let last = t.count_layer(max_n, store, LAST_BATCH, progress);
                if last.is_err() {
                    progress.finish();
                }
                last?
            }
        };
        progress.finish();
        if progress.cancelled() {
            return Err(CookieError::Cancelled);
        }
        let mut rows = t.rows();
        rows.push(last);
        Ok((rows, maker.used()))
    }

    /// The counts of layer `n`, computed from the layers below and never held: in
    /// batches of `batch` positions (each filled in parallel), and, with `store`, the
    /// counts so far written there after each batch (`general-last-NN.json`), so that an
    /// interrupted run resumes after its last finished batch.
    fn count_layer(
        &self,
        n: u32,
        store: Option<&Path>,
        batch: u64,
        progress: &dyn Progress,
    ) -> Result<GeneralRow, CookieError> {
        let size = reduced_count(n as usize);
        let (mut done, mut row) = match store {
            Some(dir) => load_partial(dir, n, size)?,
            None => (0, GeneralRow::empty(n)),
        };
        progress.advance(done);
        while done < size {
            if progress.cancelled() {
                return Err(CookieError::Cancelled);
            }
            let end = (done + batch).min(size);
            let part = (done..end)
                .step_by(CHUNK)
                .collect::<Vec<u64>>()
                .into_par_iter()
                .map(|first| {
                    let mut buf = vec![0u32; (end - first).min(CHUNK as u64) as usize];
                    if progress.cancelled() {
                        return GeneralRow::empty(n);
                    }
                    self.fill(n, first, &mut buf);
                    progress.advance(buf.len() as u64);
                    GeneralRow::count(n, &buf)
                })
                .reduce(|| GeneralRow::empty(n), GeneralRow::merge);
            // A batch cut short by a cancel is not counted (nor stored).
            if progress.cancelled() {
                return Err(CookieError::Cancelled);
            }
            row = GeneralRow::merge(row, part);
            done = end;
            if let Some(dir) = store {
                save_partial(dir, n, done, &row)?;
            }
        }
        Ok(row)
    }

    fn next_layer(&self, n: u32, progress: &dyn Progress) -> Result<Vec<u32>, CookieError> {
        let size = reduced_count(n as usize) as usize;
        let mut values = Vec::new();
        values
            .try_reserve_exact(size)
            .map_err(|_| CookieError::OutOfMemory { layer: n })?;
        values.resize(size, 0u32);
        values
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                if progress.cancelled() {
                    return;
                }
                self.fill(n, (c * CHUNK) as u64, chunk);
                progress.advance(chunk.len() as u64);
            });
        if progress.cancelled() {
            progress.finish();
            return Err(CookieError::Cancelled);
        }
        Ok(values)
    }

    /// Computes the values of the reduced positions with `n` components from rank
    /// `first` on into `out`, from the layers below.
    fn fill(&self, n: u32, first: u64, out: &mut [u32]) {
        // The position on the stack: a heap position whose address happened to match a
        // stack buffer's modulo 4 KiB made every load of it wait on the buffer's stores
        // (the loop ran 2.2 times slower in one build).
        let mut here = [0u8; 64];
        here[..n as usize].copy_from_slice(&unrank(n as usize, first));
        let a = &mut here[..n as usize];
        let tables = flat_tables();
        let mut options = [0u32; 64];
        let mut ranks = OptionRanks::new();
        ranks.update(a, 0, tables);
        let layer = |below: u32| -> &[u32] {
            n.checked_sub(below)
                .and_then(|m| self.layers.get(m as usize))
                .map_or(&[], Vec::as_slice)
        };
        let (below, two_below) = (layer(1), layer(2));
        for (j, slot) in out.iter_mut().enumerate() {
            if j > 0 {
                if let Some(from) = next_from(a) {
                    ranks.update(a, from, tables);
                }
            }
            let mut count = 0;
            ranks.for_each(a, tables, |size, r| {
                // An option has n - 1 or n - 2 components.
                let layer = if size + 1 == n as usize {
                    below
                } else {
                    two_below
                };
                options[count] = layer[r as usize];
                count += 1;
            });
            *slot = combine_packed(&options[..count]);
        }
    }

    /// The largest `n` of the table.
    pub fn max_n(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// The values of a position (any position: it is reduced first), `None` when its
    /// reduced form has more components than the table.
    pub fn value(&self, p: &Position) -> Option<ImpartialValue> {
        let r = p.reduced();
        let a: Vec<u8> = r.components().iter().map(|&x| x as u8).collect();
        let layer = self.layers.get(a.len())?;
        Some(Packed(layer[rank(&a) as usize]).unpack())
    }

    /// The values of the reduced position of rank `r` with `n` components.
    pub fn get(&self, n: u32, r: u64) -> Option<ImpartialValue> {
        let v = *self.layers.get(n as usize)?.get(r as usize)?;
        Some(Packed(v).unpack())
    }

    /// The counts of every layer, from `n = 0`.
    pub fn rows(&self) -> Vec<GeneralRow> {
        self.layers
            .iter()
            .enumerate()
            .map(|(n, layer)| {
                let n = n as u32;
                layer
                    .par_chunks(1 << 16)
                    .map(|c| GeneralRow::count(n, c))
                    .reduce(|| GeneralRow::empty(n), GeneralRow::merge)
            })
            .collect()
    }
}

impl GeneralRow {
    fn empty(n: u32) -> GeneralRow {
        GeneralRow {
            n,
            positions: 0,
            p_positions: 0,
            nim: BTreeMap::new(),
            no_duration: 0,
            max_nim: 0,
            remoteness_not_suspense: 0,
            max_remoteness: 0,
        }
    }

    /// The counts of some packed values of layer `n`.
    fn count(n: u32, values: &[u32]) -> GeneralRow {
        let mut nim = [0u64; 256];
        let mut row = GeneralRow::empty(n);
        for &v in values {
            let v = Packed(v).unpack();
            nim[v.grundy as usize] += 1;
            row.no_duration += u64::from(v.duration.is_none());
            row.remoteness_not_suspense += u64::from(v.remoteness != v.suspense);
            row.max_remoteness = row.max_remoteness.max(v.remoteness);
        }
        row.positions = values.len() as u64;
        row.p_positions = nim[0];
        for (k, &c) in nim.iter().enumerate().filter(|&(_, &c)| c > 0) {
            row.nim.insert(k as u32, c);
            row.max_nim = k as u32;
        }
        row
    }

    fn merge(mut a: GeneralRow, b: GeneralRow) -> GeneralRow {
        a.positions += b.positions;
        a.p_positions += b.p_positions;
        for (k, c) in b.nim {
            *a.nim.entry(k).or_insert(0) += c;
        }
        a.no_duration += b.no_duration;
        a.remoteness_not_suspense += b.remoteness_not_suspense;
        a.max_nim = a.max_nim.max(b.max_nim);
        a.max_remoteness = a.max_remoteness.max(b.max_remoteness);
        a
    }
}

/// Refuses a table to `max_n` that would hold `need` bytes over `memory`, or go past
/// [`MAX_GENERAL`].
/// Where a general table's layers are computed: on a GPU first when one was given and
/// takes them (feature `gpu`), else, and after the device hands a layer back, on the CPU.
pub(crate) struct Maker<'g> {
    #[cfg(feature = "gpu")]
    device: Option<super::gpu::GeneralOnDevice<'g>>,
    #[cfg(feature = "gpu")]
    name: Option<String>,
    #[cfg(feature = "gpu")]
    used: bool,
    cpu: std::marker::PhantomData<&'g ()>,
}

impl<'g> Maker<'g> {
    /// The GPU the solvers share, when built with it and one is present; else the CPU.
    fn shared(max_n: u32) -> Maker<'static> {
        #[cfg(feature = "gpu")]
        {
            Maker::on(crate::gpu::Gpu::shared(), max_n)
        }
        #[cfg(not(feature = "gpu"))]
        {
            let _ = max_n;
            Maker {
                cpu: std::marker::PhantomData,
            }
        }
    }

    #[cfg(feature = "gpu")]
    fn on(gpu: Option<&'g crate::gpu::Gpu>, max_n: u32) -> Maker<'g> {
        // Room for the largest layer the device holds: the layers above it run on the CPU.
        let device = gpu.and_then(|g| {
            (1..=max_n.min(super::gpu::MAX_GENERAL_ON_DEVICE))
                .rev()
                .find_map(|m| super::gpu::GeneralOnDevice::new(g, m).ok())
        });
        Maker {
            name: gpu.map(|g| g.name().to_string()),
            device,
            used: false,
            cpu: std::marker::PhantomData,
        }
    }

    /// The device's name, when it computed a layer.
    fn used(&self) -> Option<String> {
        #[cfg(feature = "gpu")]
        {
            self.name.clone().filter(|_| self.used)
        }
        #[cfg(not(feature = "gpu"))]
        {
            None
        }
    }

    /// Layer `n` of `t`.
    fn layer(
        &mut self,
        t: &GeneralTable,
        n: u32,
        progress: &dyn Progress,
    ) -> Result<Vec<u32>, CookieError> {
        #[cfg(feature = "gpu")]
        if let Some(d) = self.device.as_mut() {
            let size = reduced_count(n as usize);
            match d
                .compute(&t.layers, n, progress)
                .and_then(|()| d.read(n, 0, size))
            {
                Ok(layer) => {
                    self.used = true;
                    return Ok(layer);
                }
                Err(_) => self.device = None,
            }
        }
        t.next_layer(n, progress)
    }

    /// The counts of layer `n`, computed on the device and read back a chunk at a time;
    /// `None` when there is no device or it hands the layer back.
    fn last_row(
        &mut self,
        t: &GeneralTable,
        n: u32,
        progress: &dyn Progress,
    ) -> Option<GeneralRow> {
        #[cfg(feature = "gpu")]
        if let Some(d) = self.device.as_mut() {
            let size = reduced_count(n as usize);
            let counted = d.compute(&t.layers, n, progress).and_then(|()| {
                const READ: u64 = 1 << 22;
                let mut row = GeneralRow::empty(n);
                for first in (0..size).step_by(READ as usize) {
                    let part = d.read(n, first, READ.min(size - first))?;
                    row = GeneralRow::merge(row, GeneralRow::count(n, &part));
                }
                Ok(row)
            });
            match counted {
                Ok(row) => {
                    self.used = true;
                    return Some(row);
                }
                Err(_) => self.device = None,
            }
        }
        let _ = (t, n, progress);
        None
    }
}

fn refuse_over(max_n: u32, need: u64, memory: u64) -> Result<(), CookieError> {
    if max_n > MAX_GENERAL || need > memory {
        return Err(CookieError::OverBudget {
            table: TableKind::General,
            max_n,
            positions: (0..=max_n.min(MAX_COUNTED as u32) as usize)
                .map(reduced_count)
                .sum::<u64>()
                .into(),
            need,
            budget: memory,
            limit: MAX_GENERAL,
        });
    }
    Ok(())
}

/// Positions a parallel work item (one unrank, then `next` steps).
const CHUNK: usize = 1 << 14;

/// Positions of the streamed last layer between two checkpoints of its counts (about a
/// minute of work on two cores).
const LAST_BATCH: u64 = 1 << 28;

/// The counts so far of a streamed last layer, as `save_partial` wrote them.
#[derive(serde::Serialize, serde::Deserialize)]
struct Partial {
    n: u32,
    done: u64,
    row: GeneralRow,
}

fn partial_path(dir: &Path, n: u32) -> PathBuf {
    dir.join(format!("general-last-{n:02}.json"))
}

/// The positions of layer `n` counted so far and their counts (none: nothing).
fn load_partial(dir: &Path, n: u32, size: u64) -> Result<(u64, GeneralRow), CookieError> {
    let path = partial_path(dir, n);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, GeneralRow::empty(n))),
        Err(e) => return Err(io_error(&path, e)),
    };
    let bad = |why: String| CookieError::CorruptStore {
        path: path.clone(),
        problem: format!("{why} (remove it to count layer {n} again)"),
    };
    crate::files::unseal_json(&text).map_err(bad)?;
    let p: Partial = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    if p.n != n || p.row.n != n || p.done > size || p.row.positions != p.done {
        return Err(bad(format!(
            "not the counts of a prefix of layer {n} ({} of {size} positions)",
            p.done
        )));
    }
    Ok((p.done, p.row))
}

fn save_partial(dir: &Path, n: u32, done: u64, row: &GeneralRow) -> Result<(), CookieError> {
    let text = serde_json::to_string(&Partial {
        n,
        done,
        row: row.clone(),
    })
    .expect("counts serialise");
    store::save_text(&partial_path(dir, n), &crate::files::seal_json(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::impartial::Analyser;
    use crate::engine::Silent;
    use crate::games::cookie::{d_value, CookieGame, NimTable, Packing, StrictCode};

    /// Every reduced position, by brute force: sorted sequences with `a_k >= k`, `a_n = n`.
    fn all_reduced(n: usize) -> Vec<Vec<u8>> {
        fn go(n: usize, a: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            let k = a.len() + 1;
            if k > n {
                if a.last().is_none_or(|&x| x as usize == n) {
                    out.push(a.clone());
                }
                return;
            }
            let lo = a.last().map_or(1, |&x| x as usize).max(k);
            for x in lo..=n {
                a.push(x as u8);
                go(n, a, out);
                a.pop();
            }
        }
        let mut out = Vec::new();
        go(n, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn ranks_number_the_reduced_positions_in_order() {
        for n in 0..=11 {
            let all = all_reduced(n);
            assert_eq!(all.len() as u64, reduced_count(n), "n {n}");
            let mut walk = unrank(n, 0);
            for (r, a) in all.iter().enumerate() {
                assert_eq!(rank(a), r as u64, "{a:?}");
                assert_eq!(&unrank(n, r as u64), a);
                assert_eq!(&walk, a);
                let more = next(&mut walk);
                assert_eq!(more, r + 1 < all.len(), "n {n} r {r}");
                // Reduced, as the paper defines it.
                let p = Position::new(a.iter().map(|&x| u64::from(x)).collect());
                assert_eq!(p.reduced(), p);
            }
        }
        assert_eq!(reduced_count(17), 129_644_790);
    }

    /// The options in O(n) equal the reduced forms of [`Position::options`].
    #[test]
    fn options_are_the_reduced_options() {
        for n in 1..=9 {
            for a in all_reduced(n) {
                let p = Position::new(a.iter().map(|&x| u64::from(x)).collect());
                let mut want: Vec<Position> = p.options().iter().map(|o| o.reduced()).collect();
                want.sort();
                want.dedup();
                let mut got = Vec::new();
                for_each_option(&a, &mut [0u8; 64], |o| {
                    got.push(Position::new(o.iter().map(|&x| u64::from(x)).collect()))
                });
                got.sort();
                got.dedup();
                assert_eq!(got, want, "{p}");
            }
        }
    }

    /// The options' ranks kept along the lexicographic walk ([`OptionRanks`]) equal the
    /// ranks of the options built one by one ([`for_each_option`], [`rank_with`]): every
    /// reduced position up to n = 12, walked from the first and from random starts (as
    /// the table's chunks start).
    #[test]
    fn option_ranks_kept_along_the_walk_equal_the_built_options() {
        let (tables, flat) = (suffix_tables(), flat_tables());
        let mut rng = crate::rng::Rng::for_trial(15, 3);
        for n in 0..=12usize {
            let count = reduced_count(n);
            let mut starts = vec![0u64];
            starts.extend((0..5).map(|_| rng.below(count)));
            for start in starts {
                let mut a = unrank(n, start);
                let mut ranks = OptionRanks::new();
                ranks.update(&a, 0, flat);
                for r in start..count.min(start + 3000) {
                    if r > start {
                        let from = next_from(&mut a).expect("a next position");
                        ranks.update(&a, from, flat);
                    }
                    let mut want = Vec::new();
                    for_each_option(&a, &mut [0u8; 64], |o| {
                        want.push((o.len(), rank_with(tables, o)))
                    });
                    let mut got = Vec::new();
                    ranks.for_each(&a, flat, |size, rank| got.push((size, rank)));
                    assert_eq!(got, want, "{a:?}");
                }
            }
        }
    }

    /// [`combine_packed`] is [`combine`] on packed values, on random sets of options:
    /// small nim-values and large ones (the fallback), durations even, odd and missing.
    #[test]
    fn packed_combine_is_combine() {
        let mut rng = crate::rng::Rng::for_trial(15, 4);
        for trial in 0..20_000u64 {
            let len = rng.below(9) as usize;
            let top = if trial % 10 == 0 { 80 } else { 5 };
            let options: Vec<u32> = (0..len)
                .map(|_| {
                    // As in a real table: a P-position's remoteness, suspense and duration
                    // are even, an N-position's odd.
                    let g = rng.below(top) as u32;
                    let parity = u32::from(g != 0);
                    let r = 2 * rng.below(3) as u32 + parity;
                    let su = 2 * rng.below(3) as u32 + parity;
                    let d = match rng.below(4) {
                        0 => NO_DURATION,
                        _ => 2 * rng.below(2) as u32 + parity,
                    };
                    g | r << 8 | su << 16 | d << 24
                })
                .collect();
            let unpacked: Vec<ImpartialValue> =
                options.iter().map(|&v| Packed(v).unpack()).collect();
            assert_eq!(
                combine_packed(&options),
                Packed::pack(&combine(&unpacked)).0,
                "{options:x?}"
            );
        }
    }

    /// The table equals the engine's brute force over *unreduced* positions (options
    /// taken as they are, only expired components dropped) for every reduced position up
    /// to n = 10: type, nim-value, remoteness, suspense and duration. This also checks
    /// that reduction keeps all four values.
    #[test]
    fn general_table_equals_brute_force() {
        let t = GeneralTable::build(10, None, 1 << 30, &Silent).unwrap();
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        for n in 0..=10u32 {
            for (r, a) in all_reduced(n as usize).iter().enumerate() {
                let p = Position::new(a.iter().map(|&x| u64::from(x)).collect());
                assert_eq!(t.get(n, r as u64), Some(an.value(&p)), "{p}");
                // An unreduced position with the same reduced form: a larger top
                // component and an expired one in front.
                let mut c = p.components().to_vec();
                if let Some(last) = c.last_mut() {
                    *last += 3;
                }
                c.insert(0, 0);
                let q = Position::new(c);
                assert_eq!(t.value(&q), Some(an.value(&q)), "{q}");
            }
        }
    }

    /// On strict positions the table agrees with Section 3: the duration is `D(A)`, and
    /// the nim-value is the strict nim table's.
    #[test]
    fn strict_positions_agree_with_the_theory() {
        let t = GeneralTable::build(13, None, 1 << 30, &Silent).unwrap();
        let nim = NimTable::build(13, Packing::TwoBits, None, 1 << 30, &Silent).unwrap();
        for n in 1..=13u32 {
            for mask in 0..1u64 << (n - 1) {
                let p = StrictCode { n, mask }.position();
                let v = t.value(&p).unwrap();
                assert_eq!(v.duration.map(u64::from), d_value(&p), "{p}");
                assert_eq!(v.grundy, u32::from(nim.layer(n).unwrap().get(mask)), "{p}");
            }
        }
    }

    /// A closed rule found in the table for a non-strict family: the two-value position
    /// `(a x j, n x (n - j))`, `1 <= j <= a < n`, is a P-position iff `a < 2j` and `a` is
    /// even, or `a >= 2j` and `n` is even (checked here to n = 14; the README records
    /// the wider check).
    #[test]
    fn two_value_positions_follow_a_closed_rule() {
        let t = GeneralTable::build(14, None, 1 << 30, &Silent).unwrap();
        let mut checked = 0;
        for n in 2..=14u32 {
            for j in 1..n {
                for a in j..n {
                    let mut c = vec![a as u8; j as usize];
                    c.resize(n as usize, n as u8);
                    let p = if a < 2 * j { a % 2 == 0 } else { n % 2 == 0 };
                    let v = t.get(n, rank(&c)).unwrap();
                    assert_eq!(v.outcome == Outcome::P, p, "{c:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 455);
    }

    #[test]
    fn general_table_resumes_and_refuses() {
        let dir = std::env::temp_dir().join(format!("lastbite-general-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let whole = GeneralTable::build(12, None, 1 << 30, &Silent).unwrap();
        GeneralTable::build(9, Some(&dir), 1 << 30, &Silent).unwrap();
        std::fs::remove_file(crate::games::cookie::store::layer_path(&dir, "general", 9)).unwrap();
        let resumed = GeneralTable::build(12, Some(&dir), 1 << 30, &Silent).unwrap();
        assert_eq!(resumed.rows(), whole.rows());
        assert_eq!(resumed.layers, whole.layers);
        std::fs::write(
            crate::games::cookie::store::layer_path(&dir, "general", 3),
            [0u8; 7],
        )
        .unwrap();
        let e = GeneralTable::build(12, Some(&dir), 1 << 30, &Silent).unwrap_err();
        assert!(e.to_string().contains("general-layer-03.bin"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        // The last layer counted on the fly gives the same rows, and is not stored.
        assert_eq!(
            GeneralTable::rows_to(12, Some(&dir), 1 << 30, &Silent).unwrap(),
            whole.rows()
        );
        assert!(
            crate::games::cookie::store::layer_path(&dir, "general", 11).exists()
                && !crate::games::cookie::store::layer_path(&dir, "general", 12).exists()
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            GeneralTable::rows_to(1, None, 1 << 30, &Silent).unwrap(),
            &whole.rows()[..2]
        );
        let e = GeneralTable::build(19, None, 8 << 30, &Silent).unwrap_err();
        assert!(e.to_string().contains("over the budget"), "{e}");
        assert!(GeneralTable::build(21, None, u64::MAX, &Silent).is_err());
    }

    /// Cancels once `after` positions have been reported done.
    struct CancelAfter {
        after: u64,
        done: std::sync::atomic::AtomicU64,
    }

    impl Progress for CancelAfter {
        fn advance(&self, done: u64) {
            self.done
                .fetch_add(done, std::sync::atomic::Ordering::Relaxed);
        }
        fn cancelled(&self) -> bool {
            self.done.load(std::sync::atomic::Ordering::Relaxed) >= self.after
        }
    }

    /// An interrupted count of the streamed last layer keeps its finished batches in the
    /// store, and the rerun counts only the rest: the same row as one uninterrupted run.
    #[test]
    fn the_streamed_last_layer_resumes_after_its_last_batch() {
        let dir =
            std::env::temp_dir().join(format!("lastbite-general-last-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let t = GeneralTable::build(11, None, 1 << 30, &Silent).unwrap();
        let whole = t.count_layer(12, None, u64::MAX, &Silent).unwrap();
        assert_eq!(
            whole,
            GeneralTable::build(12, None, 1 << 30, &Silent)
                .unwrap()
                .rows()[12]
        );
        let batch = 1 << 15;
        let stop = CancelAfter {
            after: 100_000,
            done: Default::default(),
        };
        assert!(matches!(
            t.count_layer(12, Some(&dir), batch, &stop),
            Err(CookieError::Cancelled)
        ));
        let (done, _) = load_partial(&dir, 12, reduced_count(12)).unwrap();
        assert!(
            done > 0 && done < reduced_count(12) && done % batch == 0,
            "{done}"
        );
        // The rerun computes only what is left.
        let counted = CancelAfter {
            after: u64::MAX,
            done: Default::default(),
        };
        assert_eq!(
            t.count_layer(12, Some(&dir), batch, &counted).unwrap(),
            whole
        );
        assert_eq!(
            counted.done.into_inner(),
            reduced_count(12),
            "the resumed positions are reported as done, the rest as computed"
        );
        // A checkpoint that is not a prefix's counts is an error naming the file.
        std::fs::write(partial_path(&dir, 12), r#"{"n": 12, "done": 5, "row": 1}"#).unwrap();
        let e = t.count_layer(12, Some(&dir), batch, &Silent).unwrap_err();
        assert!(e.to_string().contains("general-last-12.json"), "{e}");
        // Counts edited so that they still add up are refused by the checksum.
        let _ = std::fs::remove_file(partial_path(&dir, 12));
        let stop = CancelAfter {
            after: 100_000,
            done: Default::default(),
        };
        t.count_layer(12, Some(&dir), batch, &stop).unwrap_err();
        let text = std::fs::read_to_string(partial_path(&dir, 12)).unwrap();
        let p: Partial = serde_json::from_str(&text).unwrap();
        let mut edited = p.row.clone();
        edited.p_positions += 1;
        *edited.nim.get_mut(&0).unwrap() += 1;
        *edited.nim.values_mut().last().unwrap() -= 1;
        let forged = text.replace(
            &serde_json::to_string(&p.row).unwrap(),
            &serde_json::to_string(&edited).unwrap(),
        );
        assert_ne!(forged, text);
        std::fs::write(partial_path(&dir, 12), forged).unwrap();
        let e = t.count_layer(12, Some(&dir), batch, &Silent).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
