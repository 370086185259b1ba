//! The one layer store of the cookie tables (`--store DIR`): each finished layer of the
//! nim table (`nim-layer-NN.bin`, `nim2-layer-NN.bin`) or of the general table
//! (`general-layer-NN.bin`) as a file written by [`crate::files::write_file`] (a temporary
//! name, synced and renamed), so a killed run leaves whole layers only and a rerun resumes
//! after the last one. Each file is a header (magic, format, table, layer, payload size),
//! the payload, and a CRC-32 of both: a file that fails any of them is refused with its
//! path and what failed, never used. It owns file names, formats and their checks; the
//! tables decide what to store.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::layout::{reduced_count, NimLayer, Packing, BYTES_PER_POSITION};
use super::model::CookieError;
use crate::files::{self, Checksummed};

/// The file of layer `n` of the table whose files start with `stem`.
pub(super) fn layer_path(dir: &Path, stem: &str, n: u32) -> PathBuf {
    dir.join(format!("{stem}-layer-{n:02}.bin"))
}

/// The first bytes of every stored layer.
const MAGIC: &[u8; 8] = b"LBSTORE\n";
/// The version of the layer format (1: header, payload, CRC-32).
const FORMAT: u32 = 1;
/// Header bytes: magic, format, layer, table name (16 bytes, zero-padded), payload size.
const HEADER: usize = 8 + 4 + 4 + 16 + 8;

/// The header of layer `n` of table `stem` with `payload` bytes.
fn header(stem: &str, n: u32, payload: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT.to_le_bytes());
    h[12..16].copy_from_slice(&n.to_le_bytes());
    h[16..16 + stem.len()].copy_from_slice(stem.as_bytes());
    h[32..40].copy_from_slice(&payload.to_le_bytes());
    h
}

/// Writes layer `n` of `stem`: header, `payload` bytes from `write`, CRC-32 of both.
fn save(
    path: &Path,
    stem: &str,
    n: u32,
    payload: u64,
    write: impl FnOnce(&mut Checksummed<&mut BufWriter<File>>) -> std::io::Result<()>,
) -> Result<(), CookieError> {
    files::write_file(path, |w| {
        let mut c = Checksummed::new(w);
        c.write_all(&header(stem, n, payload))?;
        write(&mut c)?;
        let (crc, w) = c.finish();
        w.write_all(&crc.to_le_bytes())
    })
    .map_err(|e| CookieError::Io {
        path: e.path,
        message: e.message,
    })
}

/// A stored layer opened and its header checked: the reader positioned at the payload,
/// the checksum so far, and the payload's size.
struct Stored {
    path: PathBuf,
    file: std::io::BufReader<File>,
    crc: crc32fast::Hasher,
    payload: u64,
}

impl Stored {
    /// Layer `n` of `stem` from `dir`, `None` when absent; a header that is not this
    /// layer's, or a size that disagrees with the header, is an error.
    fn open(dir: &Path, stem: &str, n: u32) -> Result<Option<Stored>, CookieError> {
        let path = layer_path(dir, stem, n);
        let Some(f) = open(&path)? else {
            return Ok(None);
        };
        let len = f.metadata().map_err(|e| io_error(&path, e))?.len();
        let bad = |problem: String| CookieError::CorruptStore {
            path: path.clone(),
            problem: format!("{problem}; delete it to recompute"),
        };
        let mut file = std::io::BufReader::with_capacity(1 << 20, f);
        let mut h = [0u8; HEADER];
        if len < (HEADER + 4) as u64 {
            return Err(bad(format!("{len} bytes, shorter than a layer's header")));
        }
        file.read_exact(&mut h).map_err(|e| io_error(&path, e))?;
        if &h[..8] != MAGIC {
            return Err(bad(
                "not a lastbite layer (no header: written by an older lastbite?)".into(),
            ));
        }
        let format = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if format != FORMAT {
            return Err(bad(format!(
                "layer format {format}, this lastbite reads {FORMAT}"
            )));
        }
        let payload = u64::from_le_bytes(h[32..40].try_into().expect("8 bytes"));
        if h != header(stem, n, payload) {
            return Err(bad(format!("its header is not that of {stem} layer {n}")));
        }
        if len != HEADER as u64 + payload + 4 {
            return Err(bad(format!(
                "{len} bytes, its header states {payload} and 4 of checksum: cut short or extended"
            )));
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&h);
        Ok(Some(Stored {
            path,
            file,
            crc,
            payload,
        }))
    }

    /// Reads `buf.len()` payload bytes into `buf`, adding them to the checksum.
    fn read(&mut self, buf: &mut [u8]) -> Result<(), CookieError> {
        self.file
            .read_exact(buf)
            .map_err(|e| io_error(&self.path, e))?;
        self.crc.update(buf);
        Ok(())
    }

    /// Checks the stored checksum against the bytes read (all of the payload).
    fn check(mut self) -> Result<(), CookieError> {
        let mut stated = [0u8; 4];
        self.file
            .read_exact(&mut stated)
            .map_err(|e| io_error(&self.path, e))?;
        let (found, stated) = (self.crc.finalize(), u32::from_le_bytes(stated));
        if found != stated {
            return Err(CookieError::CorruptStore {
                path: self.path,
                problem: format!(
                    "its content does not match its checksum (crc32 {found:08x}, it states {stated:08x}): damaged since it was written; delete it to recompute"
                ),
            });
        }
        Ok(())
    }
}

/// An I/O error on a stored file.
pub(super) fn io_error(path: &Path, e: std::io::Error) -> CookieError {
    CookieError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The file at `path` opened for reading, `None` when it does not exist.
/// Only a regular file is read: a layer that is a FIFO or a device (or a link to one) is
/// refused, never waited on or read for ever.
pub(super) fn open(path: &Path) -> Result<Option<File>, CookieError> {
    crate::files::open_regular(path).map_err(|e| CookieError::Io {
        path: path.to_path_buf(),
        message: e.message,
    })
}

/// A stored nim layer, `None` when absent; a file of the wrong size is an error. A 2-bit
/// layer's file is its packed bytes followed by its escapes (9 bytes each: the code,
/// little-endian, and the value).
pub(super) fn load_nim_layer(
    dir: &Path,
    n: u32,
    packing: Packing,
) -> Result<Option<NimLayer>, CookieError> {
    let Some(mut stored) = Stored::open(dir, packing.file_stem(), n)? else {
        return Ok(None);
    };
    let want = packing.bytes_for(n);
    let extra = stored.payload.checked_sub(want);
    let escapes = match (packing, extra) {
        (Packing::FourBits, Some(0)) => 0,
        (Packing::TwoBits, Some(x)) if x % 9 == 0 => x / 9,
        _ => {
            return Err(CookieError::CorruptStore {
                path: stored.path,
                problem: format!(
                    "a payload of {} bytes, a layer for {n} components has {want}{}; delete it to recompute",
                    stored.payload,
                    if packing == Packing::TwoBits {
                        " and 9 per escape"
                    } else {
                        ""
                    }
                ),
            })
        }
    };
    let mut packed = Vec::new();
    packed
        .try_reserve_exact(want as usize)
        .map_err(|_| CookieError::OutOfMemory { layer: n })?;
    packed.resize(want as usize, 0);
    stored.read(&mut packed)?;
    let mut tail = vec![0u8; escapes as usize * 9];
    stored.read(&mut tail)?;
    stored.check()?;
    let escapes = tail
        .chunks(9)
        .map(|e| {
            (
                u64::from_le_bytes(e[..8].try_into().expect("9-byte records")),
                e[8],
            )
        })
        .collect();
    Ok(Some(NimLayer {
        n,
        packing,
        packed,
        escapes,
    }))
}

/// Stores a nim layer.
pub(super) fn save_nim_layer(dir: &Path, layer: &NimLayer) -> Result<(), CookieError> {
    let stem = layer.packing.file_stem();
    let payload = layer.packed.len() as u64 + 9 * layer.escapes.len() as u64;
    save(
        &layer_path(dir, stem, layer.n),
        stem,
        layer.n,
        payload,
        |w| {
            w.write_all(&layer.packed)?;
            for &(code, v) in &layer.escapes {
                w.write_all(&code.to_le_bytes())?;
                w.write_all(&[v])?;
            }
            Ok(())
        },
    )
}

/// A stored general layer (4 bytes a position, little-endian), `None` when absent.
pub(super) fn load_general_layer(dir: &Path, n: u32) -> Result<Option<Vec<u32>>, CookieError> {
    let Some(mut stored) = Stored::open(dir, "general", n)? else {
        return Ok(None);
    };
    let want = reduced_count(n as usize) * BYTES_PER_POSITION;
    if stored.payload != want {
        return Err(CookieError::CorruptStore {
            path: stored.path,
            problem: format!(
                "a payload of {} bytes, a layer for {n} components has {want}; delete it to recompute",
                stored.payload
            ),
        });
    }
    // Read through a buffer into the values, never as one copy of the file.
    let mut values = Vec::new();
    values
        .try_reserve_exact((want / BYTES_PER_POSITION) as usize)
        .map_err(|_| CookieError::OutOfMemory { layer: n })?;
    let mut buf = vec![0u8; 1 << 16];
    let mut left = want as usize;
    while left > 0 {
        let take = left.min(buf.len());
        stored.read(&mut buf[..take])?;
        values.extend(
            buf[..take]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4-byte values"))),
        );
        left -= take;
    }
    stored.check()?;
    Ok(Some(values))
}

/// Stores a general layer.
pub(super) fn save_general_layer(dir: &Path, n: u32, layer: &[u32]) -> Result<(), CookieError> {
    let payload = layer.len() as u64 * BYTES_PER_POSITION;
    save(&layer_path(dir, "general", n), "general", n, payload, |w| {
        // A block of values at a time: one write (and one checksum step) per 64 KiB.
        let mut buf = Vec::with_capacity(1 << 16);
        for block in layer.chunks(1 << 14) {
            buf.clear();
            for v in block {
                buf.extend_from_slice(&v.to_le_bytes());
            }
            w.write_all(&buf)?;
        }
        Ok(())
    })
}

/// Writes a small file of the store (the counts so far of a streamed layer) whole.
pub(super) fn save_text(path: &Path, text: &str) -> Result<(), CookieError> {
    files::write_bytes(path, text.as_bytes()).map_err(|e| CookieError::Io {
        path: e.path,
        message: e.message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_layer_refuses_any_changed_byte_and_any_other_layers_header() {
        let dir = std::env::temp_dir().join(format!("lastbite-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let n = 6;
        let layer: Vec<u32> = (0..reduced_count(n) as u32).map(|i| i * 7 + 1).collect();
        save_general_layer(&dir, n as u32, &layer).unwrap();
        assert_eq!(load_general_layer(&dir, n as u32).unwrap().unwrap(), layer);
        let path = layer_path(&dir, "general", n as u32);
        let good = std::fs::read(&path).unwrap();
        // Every byte changed in turn, the file's size kept: each is refused, naming it.
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            let e = load_general_layer(&dir, n as u32).unwrap_err().to_string();
            assert!(e.contains("general-layer-06.bin"), "byte {i}: {e}");
        }
        // A whole layer of another size renamed to this one's name: its header says so.
        save_general_layer(&dir, 5, &vec![1; reduced_count(5) as usize]).unwrap();
        std::fs::rename(layer_path(&dir, "general", 5), &path).unwrap();
        let e = load_general_layer(&dir, n as u32).unwrap_err().to_string();
        assert!(e.contains("not that of general layer 6"), "{e}");
        // A file from before headers: refused as such.
        std::fs::write(&path, vec![0u8; layer.len() * 4]).unwrap();
        let e = load_general_layer(&dir, n as u32).unwrap_err().to_string();
        assert!(e.contains("no header"), "{e}");
        // Nothing but the layers is left in the store (no temporaries).
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["general-layer-06.bin"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
