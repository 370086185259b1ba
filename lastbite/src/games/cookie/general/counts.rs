//! The counts of a layer of the general table (a row of the report), and the parts of a
//! streamed last layer: each part's counts kept, sealed, so a killed count resumes after
//! its finished parts and a sweep deals the parts out to its shards.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::options::Packed;
use crate::games::cookie::layout::reduced_count;

use crate::games::cookie::model::CookieError;
use crate::games::cookie::store;

/// The counts of one layer of a `GeneralTable` (a row of `cookie general`'s report).
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

impl GeneralRow {
    /// The counts of no positions of layer `n`.
    pub fn empty(n: u32) -> GeneralRow {
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
    pub(super) fn count(n: u32, values: &[u32]) -> GeneralRow {
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

    /// Checks that the row could count `positions` positions of layer `n`: its own layer,
    /// that many positions, every count within them (what is read from a file or a shard
    /// is checked before it is trusted).
    pub fn fits(&self, n: u32, positions: u64) -> Result<(), String> {
        let nim: u64 = self.nim.values().fold(0u64, |a, &c| a.saturating_add(c));
        let problem = if self.n != n {
            format!("counts layer {} where layer {n} is", self.n)
        } else if self.positions != positions || nim != positions {
            format!(
                "counts {} positions ({nim} by nim-value) where there are {positions}",
                self.positions
            )
        } else if self.p_positions != self.nim.get(&0).copied().unwrap_or(0)
            || self.max_nim != self.nim.keys().last().copied().unwrap_or(0)
            || self.no_duration > positions
            || self.remoteness_not_suspense > positions
        {
            "has counts that contradict each other".to_string()
        } else {
            return Ok(());
        };
        Err(format!("row n = {}: {problem}", self.n))
    }

    /// The counts of two sets of positions of one layer together.
    pub fn merge(mut a: GeneralRow, b: GeneralRow) -> GeneralRow {
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

/// Positions a parallel work item (one unrank, then `next` steps).
pub(super) const CHUNK: usize = 1 << 14;

/// The most parts a streamed last layer is counted in: the checkpoints of a long count
/// (n = 20: about 10^8 positions, under a minute of two cores, apart) and the items a
/// sweep deals out to its shards.
const PARTS: u64 = 64;

/// How many parts layer `n` is counted in: at most 64, each a whole number of
/// parallel chunks but the last.
pub fn last_parts(n: u32) -> u64 {
    let size = reduced_count(n as usize);
    size.div_ceil(part_len(size))
}

/// The positions of a part of a layer of `size` positions.
fn part_len(size: u64) -> u64 {
    size.div_ceil(PARTS).next_multiple_of(CHUNK as u64)
}

/// The ranks of part `part` of layer `n`: the first and how many.
pub fn part_range(n: u32, part: u64) -> (u64, u64) {
    let size = reduced_count(n as usize);
    let len = part_len(size);
    let first = (part * len).min(size);
    (first, len.min(size - first))
}

/// The counts of a part of a streamed last layer, as `save_part` writes them.
#[derive(serde::Serialize, serde::Deserialize)]
struct Part {
    n: u32,
    part: u64,
    row: GeneralRow,
}

pub(super) fn part_path(dir: &Path, n: u32, part: u64) -> PathBuf {
    dir.join(format!("general-last-{n:02}-{part:03}.json"))
}

/// The counts of part `part` of layer `n` kept in `dir`, when they are there.
pub(super) fn load_part(dir: &Path, n: u32, part: u64) -> Result<Option<GeneralRow>, CookieError> {
    let path = part_path(dir, n, part);
    if !path.exists() {
        return Ok(None);
    }
    // A few numbers per count: a file over 1 MiB is not one of ours.
    let text = crate::files::read_regular_text(&path, 1 << 20).map_err(|e| CookieError::Io {
        path: path.clone(),
        message: e.message,
    })?;
    let bad = |why: String| CookieError::CorruptStore {
        path: path.clone(),
        problem: format!("{why} (remove it to count it again)"),
    };
    crate::files::unseal_json(&text).map_err(bad)?;
    let p: Part = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let (_, len) = part_range(n, part);
    if p.n != n || p.part != part {
        return Err(bad(format!("not part {part} of layer {n}")));
    }
    p.row.fits(n, len).map_err(bad)?;
    Ok(Some(p.row))
}

pub(super) fn save_part(
    dir: &Path,
    n: u32,
    part: u64,
    row: &GeneralRow,
) -> Result<(), CookieError> {
    let text = serde_json::to_string(&Part {
        n,
        part,
        row: row.clone(),
    })
    .expect("counts serialise");
    store::save_text(&part_path(dir, n, part), &crate::files::seal_json(text))
}
