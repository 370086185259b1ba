//! The one layer store of the cookie tables (`--store DIR`): each finished layer of the
//! nim table (`nim-layer-NN.bin`, `nim2-layer-NN.bin`) or of the general table
//! (`general-layer-NN.bin`) as a file, written to a temporary name, synced and renamed,
//! so a killed run leaves whole layers only and a rerun resumes after the last one. It
//! owns file names, formats and their checks; the tables decide what to store.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::layout::{reduced_count, NimLayer, Packing, BYTES_PER_POSITION};
use super::model::CookieError;

/// The file of layer `n` of the table whose files start with `stem`.
pub(super) fn layer_path(dir: &Path, stem: &str, n: u32) -> PathBuf {
    dir.join(format!("{stem}-layer-{n:02}.bin"))
}

/// An I/O error on a stored file.
pub(super) fn io_error(path: &Path, e: std::io::Error) -> CookieError {
    CookieError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The file at `path` opened for reading, `None` when it does not exist.
pub(super) fn open(path: &Path) -> Result<Option<File>, CookieError> {
    match File::open(path) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error(path, e)),
    }
}

/// Writes `path` through `write` (buffered) to a temporary name first, synced before the
/// rename makes it count: an interrupted run leaves no torn file.
pub(super) fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), CookieError> {
    let tmp = path.with_extension("tmp");
    let f = File::create(&tmp).map_err(|e| io_error(&tmp, e))?;
    // Through a buffer, never as one copy of the layer (7 GB at n = 19).
    let mut w = BufWriter::with_capacity(1 << 20, f);
    write(&mut w).map_err(|e| io_error(&tmp, e))?;
    let f = w.into_inner().map_err(|e| io_error(&tmp, e.into_error()))?;
    f.sync_all().map_err(|e| io_error(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io_error(path, e))
}

/// A stored nim layer, `None` when absent; a file of the wrong size is an error. A 2-bit
/// layer's file is its packed bytes followed by its escapes (9 bytes each: the code,
/// little-endian, and the value).
pub(super) fn load_nim_layer(
    dir: &Path,
    n: u32,
    packing: Packing,
) -> Result<Option<NimLayer>, CookieError> {
    let path = layer_path(dir, packing.file_stem(), n);
    let Some(mut f) = open(&path)? else {
        return Ok(None);
    };
    let mut packed = Vec::new();
    f.read_to_end(&mut packed).map_err(|e| io_error(&path, e))?;
    let want = packing.bytes_for(n);
    let extra = (packed.len() as u64).checked_sub(want);
    let escapes = match (packing, extra) {
        (Packing::FourBits, Some(0)) => Vec::new(),
        (Packing::TwoBits, Some(x)) if x % 9 == 0 => {
            let tail = packed.split_off(want as usize);
            tail.chunks(9)
                .map(|e| {
                    (
                        u64::from_le_bytes(e[..8].try_into().expect("9-byte records")),
                        e[8],
                    )
                })
                .collect()
        }
        _ => {
            return Err(CookieError::CorruptStore {
                path,
                problem: format!(
                    "{} bytes, a layer for {n} components has {want}{}; delete it to recompute",
                    packed.len(),
                    if packing == Packing::TwoBits {
                        " and 9 per escape"
                    } else {
                        ""
                    }
                ),
            })
        }
    };
    Ok(Some(NimLayer {
        n,
        packing,
        packed,
        escapes,
    }))
}

/// Stores a nim layer.
pub(super) fn save_nim_layer(dir: &Path, layer: &NimLayer) -> Result<(), CookieError> {
    let path = layer_path(dir, layer.packing.file_stem(), layer.n);
    write_atomic(&path, |w| {
        w.write_all(&layer.packed)?;
        for &(code, v) in &layer.escapes {
            w.write_all(&code.to_le_bytes())?;
            w.write_all(&[v])?;
        }
        Ok(())
    })
}

/// A stored general layer (4 bytes a position, little-endian), `None` when absent; a
/// file of the wrong size is an error.
pub(super) fn load_general_layer(dir: &Path, n: u32) -> Result<Option<Vec<u32>>, CookieError> {
    let path = layer_path(dir, "general", n);
    let Some(f) = open(&path)? else {
        return Ok(None);
    };
    let len = f.metadata().map_err(|e| io_error(&path, e))?.len();
    let want = reduced_count(n as usize) * BYTES_PER_POSITION;
    if len != want {
        return Err(CookieError::CorruptStore {
            path,
            problem: format!(
                "{len} bytes, a layer for {n} components has {want}; delete it to recompute"
            ),
        });
    }
    // Read through a buffer into the values, never as one copy of the file.
    let mut values = Vec::new();
    values
        .try_reserve_exact((want / BYTES_PER_POSITION) as usize)
        .map_err(|_| CookieError::OutOfMemory { layer: n })?;
    let mut r = std::io::BufReader::with_capacity(1 << 20, f);
    let mut buf = [0u8; 1 << 16];
    let mut left = want as usize;
    while left > 0 {
        let take = left.min(buf.len());
        r.read_exact(&mut buf[..take])
            .map_err(|e| io_error(&path, e))?;
        values.extend(
            buf[..take]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4-byte values"))),
        );
        left -= take;
    }
    Ok(Some(values))
}

/// Stores a general layer.
pub(super) fn save_general_layer(dir: &Path, n: u32, layer: &[u32]) -> Result<(), CookieError> {
    write_atomic(&layer_path(dir, "general", n), |w| {
        for v in layer {
            w.write_all(&v.to_le_bytes())?;
        }
        Ok(())
    })
}
