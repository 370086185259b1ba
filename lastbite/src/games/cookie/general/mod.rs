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
//! Here the table and its layers' search, and the streamed last layer ([`LastLayer`]);
//! how an option's rank and a position's values are computed in `options.rs`, a layer's
//! counts and the checkpoints of a streamed layer's parts in `counts.rs`.

mod counts;
mod options;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use crate::engine::impartial::{combine, ImpartialValue};
use crate::engine::Progress;
use crate::par::prelude::*;

#[cfg(test)]
use super::layout::{next, rank_with};
use super::layout::{next_from, MAX_COUNTED};
pub use super::layout::{rank, reduced_count, unrank, BYTES_PER_POSITION};
use super::model::TableKind;
use super::model::{CookieError, Position};
use super::store::{self, io_error};
pub use counts::GeneralRow;
pub use counts::{last_parts, part_range};
use counts::{load_part, save_part, CHUNK};
use options::{combine_packed, flat_tables, OptionRanks, Packed};

/// The largest `n` of a general table: layer 20 alone has 6.6 x 10^9 positions (26 GB).
pub const MAX_GENERAL: u32 = 20;

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
        // One progress phase for the layers below and the parts of the last.
        let size = reduced_count(max_n as usize);
        let last = LastLayer::make(max_n, store, memory, maker, progress, size)?;
        let counted = (0..last.parts()).try_fold(GeneralRow::empty(max_n), |row, part| {
            Ok(GeneralRow::merge(row, last.count_part(part, progress)?))
        });
        progress.finish();
        let last_row = counted?;
        if progress.cancelled() {
            return Err(CookieError::Cancelled);
        }
        let mut rows = last.rows_below();
        rows.push(last_row);
        Ok((rows, last.gpu))
    }

    /// Counts the positions of layer `n` from rank `first` on (`len` of them), computed
    /// from the layers below in parallel chunks and never held.
    fn count_range(
        &self,
        n: u32,
        first: u64,
        len: u64,
        progress: &dyn Progress,
    ) -> Result<GeneralRow, CookieError> {
        let end = first + len;
        let row = (first..end)
            .step_by(CHUNK)
            .collect::<Vec<u64>>()
            .into_par_iter()
            .map(|from| {
                let mut buf = vec![0u32; (end - from).min(CHUNK as u64) as usize];
                if progress.cancelled() {
                    return GeneralRow::empty(n);
                }
                self.fill(n, from, &mut buf);
                progress.advance(buf.len() as u64);
                GeneralRow::count(n, &buf)
            })
            .reduce(|| GeneralRow::empty(n), GeneralRow::merge);
        // A part cut short by a cancel is not counted (nor stored).
        if progress.cancelled() {
            return Err(CookieError::Cancelled);
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

    /// The counts of each part of layer `n` ([`last_parts`]), computed on the device and
    /// read back a chunk at a time; `None` when there is no device or it hands the layer
    /// back.
    fn last_rows(
        &mut self,
        t: &GeneralTable,
        n: u32,
        progress: &dyn Progress,
    ) -> Option<Vec<GeneralRow>> {
        #[cfg(feature = "gpu")]
        if let Some(d) = self.device.as_mut() {
            let counted = d.compute(&t.layers, n, progress).and_then(|()| {
                const READ: u64 = 1 << 22;
                (0..last_parts(n))
                    .map(|part| {
                        let (first, len) = part_range(n, part);
                        let mut row = GeneralRow::empty(n);
                        for from in (first..first + len).step_by(READ as usize) {
                            let values = d.read(n, from, READ.min(first + len - from))?;
                            row = GeneralRow::merge(row, GeneralRow::count(n, &values));
                        }
                        Ok(row)
                    })
                    .collect::<Result<Vec<_>, _>>()
            });
            match counted {
                Ok(rows) => {
                    self.used = true;
                    return Some(rows);
                }
                Err(_) => self.device = None,
            }
        }
        let _ = (t, n, progress);
        None
    }
}

/// A general table's layers below `n`, ready to count layer `n` a part at a time
/// ([`last_parts`] parts, none of them held): how [`GeneralTable::rows_to`] streams its
/// last layer, and what the shards of a sweep over those parts share.
pub struct LastLayer {
    table: GeneralTable,
    n: u32,
    store: Option<PathBuf>,
    /// Each part's counts, when a GPU computed the layer.
    device: Option<Vec<GeneralRow>>,
    gpu: Option<String>,
}

impl LastLayer {
    /// The layers below `max_n` (up to [`MAX_GENERAL`]), loaded from `store` where they are
    /// there and computed (and stored) otherwise, in a progress phase of their own, on the
    /// GPU the solvers share when built with the `gpu` feature and one is there (the last
    /// layer too, then); refused over `memory` before anything is allocated.
    pub fn build(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        progress: &dyn Progress,
    ) -> Result<LastLayer, CookieError> {
        LastLayer::make(max_n, store, memory, &mut Maker::shared(max_n), progress, 0)
    }

    /// The layers below `max_n` on `maker`, in a progress phase that counts `extra` more
    /// positions to come (none: the phase ends here).
    fn make(
        max_n: u32,
        store: Option<&Path>,
        memory: u64,
        maker: &mut Maker<'_>,
        progress: &dyn Progress,
        extra: u64,
    ) -> Result<LastLayer, CookieError> {
        refuse_last_layer(max_n, memory)?;
        let table = match max_n.checked_sub(1) {
            Some(below) => GeneralTable::build_layers(below, store, progress, extra, maker)?,
            // Layer 0 (the empty position) has no layers below.
            None => GeneralTable { layers: Vec::new() },
        };
        let device = maker.last_rows(&table, max_n, progress);
        Ok(LastLayer {
            table,
            n: max_n,
            store: store.map(Path::to_path_buf),
            device,
            gpu: maker.used(),
        })
    }

    /// The layer it counts.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// How many parts the layer is counted in ([`last_parts`]).
    pub fn parts(&self) -> u64 {
        last_parts(self.n)
    }

    /// The counts of the layers below, from `n = 0`.
    pub fn rows_below(&self) -> Vec<GeneralRow> {
        self.table.rows()
    }

    /// The GPU's name, when it computed a layer.
    pub fn gpu(&self) -> Option<&str> {
        self.gpu.as_deref()
    }

    /// The counts of part `part` of the layer (below [`LastLayer::parts`]): kept in the
    /// store, when it has one, once counted, and read back from there (checked) by a
    /// rerun.
    pub fn count_part(
        &self,
        part: u64,
        progress: &dyn Progress,
    ) -> Result<GeneralRow, CookieError> {
        let (first, len) = part_range(self.n, part);
        if let Some(rows) = &self.device {
            progress.advance(len);
            return Ok(rows[part as usize].clone());
        }
        let dir = self.store.as_deref();
        if let Some(row) = dir
            .map(|d| load_part(d, self.n, part))
            .transpose()?
            .flatten()
        {
            progress.advance(len);
            return Ok(row);
        }
        let row = self.table.count_range(self.n, first, len, progress)?;
        if let Some(dir) = dir {
            save_part(dir, self.n, part, &row)?;
        }
        Ok(row)
    }
}

/// Refuses a table to `max_n` whose last layer is streamed ([`LastLayer`]) when the layers
/// below it and the chunks in flight would hold more than `memory` bytes, or past
/// [`MAX_GENERAL`]: what a request is checked against before any work.
pub fn refuse_last_layer(max_n: u32, memory: u64) -> Result<(), CookieError> {
    let below = max_n.saturating_sub(1).min(MAX_GENERAL);
    let streamed = 2 * crate::par::current_num_threads() as u64 * CHUNK as u64 * 4;
    refuse_over(max_n, GeneralTable::memory_for(below) + streamed, memory)
}

/// Refuses a table to `max_n` that would hold `need` bytes over `memory`, or go past
/// [`MAX_GENERAL`].
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
