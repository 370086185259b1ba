//! Files lastbite writes and reads back, in one place: the one writer of every output
//! (reports, pictures, exports, stores, shard documents), the checksums that seal what is
//! read back to resume or merge (stores, their partial counts, shard documents), and the
//! bounded line reader that resuming reads through.
//!
//! The writer replaces a regular file (or makes a new one) whole or not at all: a
//! temporary file in the same folder, written, synced and renamed over the path, removed
//! on any error. A path that is not a regular file is written through and never
//! replaced: a device (`/dev/stdout`, `/dev/full`) or a FIFO stays what it is, and a
//! symbolic link stays a link (the file it names is replaced, atomically, when it is a
//! regular file). A regular file that the writer would silently change the meaning of is
//! refused, naming why: a read-only file (a rename replaces it, whatever its mode) and a
//! file with other names (hard links, which would keep the old content). The temporary
//! name is shortened to fit the file system's 255-byte limit on a name.
//!
//! What is read back (shards, stores, scan files) is opened by [`open_regular`], which
//! refuses a FIFO, a device or a folder (a symbolic link is followed to what it names),
//! so that a FIFO never hangs a resume and `/dev/zero` is never read for ever.
//!
//! ```
//! use std::io::Write;
//! let dir = std::env::temp_dir().join(format!("lastbite-files-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("report.json");
//! lastbite::files::write_file(&path, |w| w.write_all(b"{}\n")).unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"{}\n");
//! // A failed write leaves the old file and no temporary behind.
//! let failed = lastbite::files::write_file(&path, |_| Err(std::io::Error::other("disk full")));
//! assert!(failed.unwrap_err().to_string().contains("report.json"));
//! assert_eq!(std::fs::read(&path).unwrap(), b"{}\n");
//! assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::engine::Progress;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file operation that failed: what was being done, to which file, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// What was being done: `write`, `read`, `resume`.
    pub action: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The operating system's message, or what is wrong with the file's content.
    pub message: String,
}

impl FileError {
    fn new(action: &'static str, path: &Path, e: impl std::fmt::Display) -> FileError {
        FileError {
            action,
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot {} {}: {}",
            self.action,
            crate::text::clean(&self.path.display().to_string()),
            self.message
        )
    }
}

impl std::error::Error for FileError {}

/// The buffer every file is written through: large writes cross to the kernel a mebibyte
/// at a time, small ones are gathered.
const BUFFER: usize = 1 << 20;

/// Writes `path` through `write`, whole or not at all (see the module's documentation):
/// every error, `write`'s own included, is an error naming the path, and leaves neither
/// a torn file nor a temporary behind.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(path) {
            // The link stays; the regular file it names is replaced as any other.
            Ok(target) if std::fs::metadata(&target).is_ok_and(|m| m.is_file()) => {
                let meta = meta_of(&target);
                refuse_to_replace(path, &meta)?;
                replace(&target, Some(meta), write).map_err(|e| FileError {
                    path: path.to_path_buf(),
                    ..e
                })
            }
            _ => write_through(path, write),
        },
        Ok(meta) if meta.is_dir() => Err(FileError::new("write", path, "it is a folder")),
        Ok(meta) if !meta.is_file() => write_through(path, write),
        Ok(meta) => {
            refuse_to_replace(path, &meta)?;
            replace(path, Some(meta), write)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => replace(path, None, write),
        Err(e) => Err(FileError::new("write", path, e)),
    }
}

/// [`write_file`] of bytes already made.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_file(path, |w| w.write_all(bytes))
}

/// A regular file the writer must not replace: read-only (its owner asked that it not
/// change) or with other names (they would keep the old content).
fn refuse_to_replace(path: &Path, meta: &std::fs::Metadata) -> Result<(), FileError> {
    if meta.permissions().readonly() {
        return Err(FileError::new(
            "write",
            path,
            "it is read-only (make it writable, or write elsewhere)",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(FileError::new(
                "write",
                path,
                format!(
                    "it has {} other {} (hard links), which replacing it would leave with the old content (remove it first, or write elsewhere)",
                    meta.nlink() - 1,
                    if meta.nlink() == 2 { "name" } else { "names" }
                ),
            ));
        }
    }
    Ok(())
}

fn meta_of(path: &Path) -> std::fs::Metadata {
    std::fs::metadata(path).expect("checked to exist by the caller")
}

/// Writes into a device, FIFO or the target of a dangling link, in place.
fn write_through(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), FileError> {
    let run = || -> io::Result<()> {
        // Nothing to truncate: a device or FIFO has no length, a dangling link's file is new.
        let f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let mut w = BufWriter::with_capacity(BUFFER, f);
        write(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.flush()
    };
    run().map_err(|e| FileError::new("write", path, e))
}

/// A temporary name no other writer in this process or another uses at the same time.
fn temporary(path: &Path) -> Result<PathBuf, FileError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| FileError::new("write", path, "the path names no file"))?;
    let suffix = format!(
        ".{}-{}.tmp",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    // A name of up to 255 bytes (the common limit) must still have a temporary name: the
    // file's own name is cut to fit, at a character's boundary.
    let name = name.to_string_lossy();
    let mut keep = name.len().min(255 - 1 - suffix.len());
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    Ok(path.with_file_name(format!(".{}{suffix}", &name[..keep])))
}

/// Opens `path` for reading back, `None` when it does not exist. Only a regular file is
/// read (a symbolic link is followed to one): a FIFO, a device or a folder is refused
/// without blocking, so a resume never waits on a FIFO nor reads `/dev/zero` for ever.
pub fn open_regular(path: &Path) -> Result<Option<File>, FileError> {
    let mut options = OpenOptions::new();
    options.read(true);
    // Opening a FIFO for reading waits for a writer unless non-blocking; a regular file
    // ignores the flag.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(FileError::new("read", path, e)),
    };
    let meta = f.metadata().map_err(|e| FileError::new("read", path, e))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "a FIFO or device"
        };
        return Err(FileError::new(
            "read",
            path,
            format!("it is {what}, not a regular file"),
        ));
    }
    Ok(Some(f))
}

/// The whole of the regular file at `path` as UTF-8 text, refused when it is over
/// `max_bytes` (read back from its length before any of it is read).
pub fn read_regular_text(path: &Path, max_bytes: u64) -> Result<String, FileError> {
    use std::io::Read;
    let f = open_regular(path)?
        .ok_or_else(|| FileError::new("read", path, "No such file or directory"))?;
    let len = f
        .metadata()
        .map_err(|e| FileError::new("read", path, e))?
        .len();
    if len > max_bytes {
        return Err(FileError::new(
            "read",
            path,
            format!("it is {len} bytes, over the {max_bytes} such a file may be"),
        ));
    }
    let mut text = String::new();
    f.take(max_bytes)
        .read_to_string(&mut text)
        .map_err(|e| FileError::new("read", path, e))?;
    Ok(text)
}

/// Writes a temporary file next to `path`, syncs it and renames it over `path`; the
/// replaced file's permissions carry over.
fn replace(
    path: &Path,
    old: Option<std::fs::Metadata>,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), FileError> {
    let tmp = temporary(path)?;
    // `create_new`: never through a link someone placed at the temporary name.
    let f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| FileError::new("write", path, e))?;
    let run = || -> io::Result<()> {
        let mut w = BufWriter::with_capacity(BUFFER, f);
        write(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        if let Some(old) = &old {
            f.set_permissions(old.permissions())?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    };
    run().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FileError::new("write", path, e)
    })
}

/// A CRC-32 (IEEE) of everything written through it, passing the bytes on to `W`.
pub struct Checksummed<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Checksummed<W> {
    /// Starts a checksum over what is written to `inner` from now on.
    pub fn new(inner: W) -> Checksummed<W> {
        Checksummed {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// The checksum so far and the writer.
    pub fn finish(self) -> (u32, W) {
        (self.crc.finalize(), self.inner)
    }
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A writer that fails once `stop` says to stop: a long export written
/// through it can be cancelled between any two writes.
pub struct Stoppable<'a, W> {
    inner: W,
    stop: &'a dyn Progress,
    writes: u32,
}

impl<'a, W: Write> Stoppable<'a, W> {
    /// Writes to `inner` until `stop` says to stop.
    pub fn new(inner: W, stop: &'a dyn Progress) -> Stoppable<'a, W> {
        Stoppable {
            inner,
            stop,
            writes: 0,
        }
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for Stoppable<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Asked every 4,096 writes: an atomic load is cheap, but not free per byte.
        self.writes = self.writes.wrapping_add(1);
        if self.writes.is_multiple_of(4096) && self.stop.cancelled() {
            return Err(io::Error::other("stopped"));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The CRC-32 (IEEE) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// The key under which [`seal_json`] puts a document's checksum: the last member.
const SEAL: &str = ",\"checksum\":\"crc32:";

/// Seals a compact JSON object (as `serde_json::to_string` writes it) with the checksum
/// of its text as a last member `"checksum":"crc32:XXXXXXXX"`, which [`unseal_json`]
/// checks. Any edit of the text (a byte flipped, a number changed, a document reformatted)
/// then fails the check.
///
/// ```
/// use lastbite::files::{seal_json, unseal_json};
/// let sealed = seal_json(r#"{"shard":1}"#.to_string());
/// assert!(unseal_json(&sealed).is_ok());
/// assert!(unseal_json(&sealed.replace("1", "2")).is_err());
/// ```
pub fn seal_json(mut object: String) -> String {
    assert!(
        object.ends_with('}') && object.len() > 2,
        "a non-empty JSON object"
    );
    let crc = crc32(object.as_bytes());
    object.pop();
    object.push_str(&format!("{SEAL}{crc:08x}\"}}"));
    object
}

/// Checks the checksum [`seal_json`] wrote into `text`; the problem when it is missing or
/// does not match (`text` is then not to be used).
pub fn unseal_json(text: &str) -> Result<(), String> {
    let text = text.trim_end();
    let Some(at) = text.rfind(SEAL) else {
        return Err("it carries no checksum (not written by this lastbite, or cut short)".into());
    };
    let tail = &text[at + SEAL.len()..];
    let stated = tail
        .strip_suffix("\"}")
        .filter(|h| h.len() == 8)
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or("its checksum is not where this lastbite writes it (the last member)")?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&text.as_bytes()[..at]);
    crc.update(b"}");
    let found = crc.finalize();
    if found != stated {
        return Err(format!(
            "its content does not match its checksum (crc32 {found:08x}, it states {stated:08x}): it was changed or damaged since it was written"
        ));
    }
    Ok(())
}

/// The longest line a line reader of lastbite holds: longer ones are refused as they are
/// read, before they are held whole.
pub const MAX_LINE: usize = 1 << 20;

/// Reads the next line of `r` into `line` (without its `\n`), refusing one longer than
/// `max` bytes after reading at most `max + 1` of them. `Ok(None)` at the end; a last line
/// with no `\n` is returned as `Some(false)`, a whole one as `Some(true)`.
pub fn read_line_bounded<R: BufRead>(
    r: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok((!line.is_empty()).then_some(false));
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if line.len() + take > max {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a line is longer than {max} bytes"),
            ));
        }
        line.extend_from_slice(&buf[..take]);
        r.consume(take + usize::from(done));
        if done {
            return Ok(Some(true));
        }
    }
}

/// The longest line lastbite reads from a user's input (a dinner, a game, a position, a
/// profile, stdin): 64 MiB, a one-line JSON dinner of some three million morsels. A longer
/// line is refused as it is read, before it is held whole; longer input is written over
/// several lines (CSV, or JSON as any pretty-printer writes it).
pub const MAX_INPUT_LINE: usize = 64 << 20;

/// Reads a user's input file whole, refusing a line over [`MAX_INPUT_LINE`] as it is
/// read (`/dev/zero` or a file with no newline is refused after 64 MiB, not read for
/// ever).
pub fn read_input(path: &Path) -> Result<Vec<u8>, FileError> {
    let f = File::open(path).map_err(|e| FileError::new("read", path, e))?;
    read_input_from(f, path)
}

/// [`read_input`] from any reader (stdin), named `name` in errors.
pub fn read_input_from(r: impl io::Read, name: &Path) -> Result<Vec<u8>, FileError> {
    read_bounded(r, MAX_INPUT_LINE).map_err(|e| FileError::new("read", name, e))
}

/// [`read_input`] as UTF-8 text.
pub fn read_input_text(path: &Path) -> Result<String, FileError> {
    String::from_utf8(read_input(path)?).map_err(|e| {
        FileError::new(
            "read",
            path,
            format!(
                "it is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Everything `r` gives, refusing a line over `max` bytes once `max + 1` are read.
fn read_bounded(r: impl io::Read, max: usize) -> io::Result<Vec<u8>> {
    let mut r = io::BufReader::with_capacity(1 << 20, r);
    let (mut out, mut run, mut line) = (Vec::new(), 0usize, 1u64);
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(out);
        }
        let mut start = 0;
        while let Some(i) = buf[start..].iter().position(|&b| b == b'\n') {
            run += i;
            if run > max {
                break;
            }
            (run, line, start) = (0, line + 1, start + i + 1);
        }
        run += buf.len() - start;
        if run > max {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line {line} is longer than {} MiB, the most lastbite reads in one line (write the input over several lines)",
                    max >> 20
                ),
            ));
        }
        let n = buf.len();
        out.extend_from_slice(buf);
        r.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("lastbite-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let d = dir("failed");
        let p = d.join("keep.efg");
        write_bytes(&p, b"good").unwrap();
        let e = write_file(&p, |w| {
            w.write_all(&[b'x'; 3 << 20])?;
            Err(io::Error::other("No space left on device"))
        })
        .unwrap_err();
        assert_eq!(e.action, "write");
        assert!(e.to_string().contains("keep.efg"), "{e}");
        assert_eq!(std::fs::read(&p).unwrap(), b"good");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn devices_are_written_through_and_links_stay_links() {
        let e = write_bytes(Path::new("/dev/full"), b"x").unwrap_err();
        assert!(e.to_string().starts_with("cannot write /dev/full: "), "{e}");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
        let d = dir("link");
        let target = d.join("target.txt");
        std::fs::write(&target, "old").unwrap();
        let link = d.join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_bytes(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert!(write_bytes(&d, b"x")
            .unwrap_err()
            .to_string()
            .contains("folder"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn read_only_files_and_hard_links_are_refused_and_long_names_fit() {
        let d = dir("refused");
        let ro = d.join("read-only.json");
        write_bytes(&ro, b"old").unwrap();
        let mut perms = std::fs::metadata(&ro).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&ro, perms).unwrap();
        let e = write_bytes(&ro, b"new").unwrap_err();
        assert!(e.message.contains("read-only"), "{e}");
        assert_eq!(std::fs::read(&ro).unwrap(), b"old");
        let linked = d.join("linked.json");
        write_bytes(&linked, b"old").unwrap();
        std::fs::hard_link(&linked, d.join("other-name.json")).unwrap();
        let e = write_bytes(&linked, b"new").unwrap_err();
        assert!(e.message.contains("1 other name (hard links)"), "{e}");
        assert_eq!(std::fs::read(d.join("other-name.json")).unwrap(), b"old");
        // The longest name a file system takes still has a temporary name beside it.
        let long = d.join("x".repeat(250));
        write_bytes(&long, b"one").unwrap();
        write_bytes(&long, b"two").unwrap();
        assert_eq!(std::fs::read(&long).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 4);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn only_regular_files_are_read_back() {
        let d = dir("regular");
        assert!(open_regular(&d.join("absent")).unwrap().is_none());
        for path in [Path::new("/dev/zero"), Path::new("/dev/null"), d.as_path()] {
            let e = open_regular(path).unwrap_err();
            assert!(e.message.contains("not a regular file"), "{e}");
        }
        let fifo = d.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Refused at once, not waited on for a writer.
            let e = read_regular_text(&fifo, 100).unwrap_err();
            assert!(e.message.contains("FIFO"), "{e}");
        }
        let zero = d.join("zero-link");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(read_regular_text(&zero, 100).is_err());
        let big = d.join("big.json");
        write_bytes(&big, &[b' '; 200]).unwrap();
        let e = read_regular_text(&big, 100).unwrap_err();
        assert!(e.message.contains("200 bytes, over the 100"), "{e}");
        assert_eq!(read_regular_text(&big, 200).unwrap().len(), 200);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_sealed_document_refuses_every_one_byte_change() {
        let sealed = seal_json(r#"{"shard":1,"shards":2,"partial":[3,4]}"#.into());
        unseal_json(&sealed).unwrap();
        unseal_json(&format!("{sealed}\n")).unwrap();
        for (i, b) in sealed.bytes().enumerate() {
            for c in [b'0', b'2', b'x'] {
                if c != b {
                    let mut t = sealed.clone().into_bytes();
                    t[i] = c;
                    let t = String::from_utf8(t).unwrap();
                    assert!(unseal_json(&t).is_err(), "{t}");
                }
            }
        }
        assert!(unseal_json(r#"{"shard":1}"#)
            .unwrap_err()
            .contains("no checksum"));
    }

    #[test]
    fn input_is_read_whole_and_an_endless_line_is_refused() {
        let text = b"a,b\r\n1,2\n\n3,4";
        assert_eq!(read_bounded(&text[..], 4).unwrap(), text);
        let e = read_bounded(&b"ab\ncdefg\n"[..], 4 << 20).unwrap();
        assert_eq!(e, b"ab\ncdefg\n");
        let e = read_bounded(&b"ab\ncdefg\n"[..], 4).unwrap_err();
        assert!(e.to_string().starts_with("line 2 is longer than"), "{e}");
        // /dev/zero has no newline: refused after the limit, not read for ever.
        let zero = File::open("/dev/zero").unwrap();
        let e = read_bounded(zero, 3 << 20).unwrap_err();
        assert!(
            e.to_string().starts_with("line 1 is longer than 3 MiB"),
            "{e}"
        );
    }

    #[test]
    fn long_lines_are_refused_as_read() {
        let text = format!("ab\n{}\ncd", "x".repeat(100));
        let mut r = io::BufReader::with_capacity(16, text.as_bytes());
        let mut line = Vec::new();
        assert_eq!(
            read_line_bounded(&mut r, &mut line, 100).unwrap(),
            Some(true)
        );
        assert_eq!(line, b"ab");
        assert_eq!(
            read_line_bounded(&mut r, &mut line, 100).unwrap(),
            Some(true)
        );
        assert_eq!(
            read_line_bounded(&mut r, &mut line, 100).unwrap(),
            Some(false)
        );
        assert_eq!(line, b"cd");
        assert_eq!(read_line_bounded(&mut r, &mut line, 100).unwrap(), None);
        let mut r = io::BufReader::with_capacity(16, text.as_bytes());
        read_line_bounded(&mut r, &mut line, 99).unwrap();
        assert!(read_line_bounded(&mut r, &mut line, 99).is_err());
        assert!(line.len() <= 99);
    }
}
