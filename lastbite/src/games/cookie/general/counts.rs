//! The counts of a layer of the general table (a row of the report), and the checkpoint
//! of a streamed last layer: its counts so far, sealed, so a killed count resumes where
//! it stopped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::options::Packed;

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
    pub(super) fn empty(n: u32) -> GeneralRow {
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

    pub(super) fn merge(mut a: GeneralRow, b: GeneralRow) -> GeneralRow {
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

/// Positions of the streamed last layer between two checkpoints of its counts (about a
/// minute of work on two cores).
pub(super) const LAST_BATCH: u64 = 1 << 28;

/// The counts so far of a streamed last layer, as `save_partial` wrote them.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Partial {
    pub(super) n: u32,
    pub(super) done: u64,
    pub(super) row: GeneralRow,
}

pub(super) fn partial_path(dir: &Path, n: u32) -> PathBuf {
    dir.join(format!("general-last-{n:02}.json"))
}

/// The positions of layer `n` counted so far and their counts (none: nothing).
pub(super) fn load_partial(
    dir: &Path,
    n: u32,
    size: u64,
) -> Result<(u64, GeneralRow), CookieError> {
    let path = partial_path(dir, n);
    if !path.exists() {
        return Ok((0, GeneralRow::empty(n)));
    }
    // A few numbers per count: a file over 64 MiB is not one of ours.
    let text = crate::files::read_regular_text(&path, 64 << 20).map_err(|e| CookieError::Io {
        path: path.clone(),
        message: e.message,
    })?;
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

pub(super) fn save_partial(
    dir: &Path,
    n: u32,
    done: u64,
    row: &GeneralRow,
) -> Result<(), CookieError> {
    let text = serde_json::to_string(&Partial {
        n,
        done,
        row: row.clone(),
    })
    .expect("counts serialise");
    store::save_text(&partial_path(dir, n), &crate::files::seal_json(text))
}
