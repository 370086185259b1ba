//! A scan's results file (`subtraction scan` with an output file): records appended a
//! chunk at a time, each chunk written whole and synced, so a killed sweep loses at most
//! the chunk in flight; reopening cuts a torn last line and lists the rulesets already
//! finished, so the scan resumes where it stopped. It owns the file's bytes, keys and
//! checksums; the records' format (CSV or JSON lines) is the caller's.
//!
//! **Checksums**. Every record line carries the CRC-32 of its own text:
//! a last JSON member `"checksum":"crc32:XXXXXXXX"` ([`seal_json`]), or a last CSV column
//! `checksum` holding `crc32:XXXXXXXX`. A line is its own unit because the file grows and
//! is resumed a line at a time: resuming checks each line and refuses the file at the
//! first line that fails, naming it, so an edited or damaged record is never taken as
//! done. A record does not depend on the request beyond its ruleset (the period found is
//! the smallest certified one, whatever the search limit), so the key and the format
//! (the CSV header, with its checksum column) are what a file must match to be resumed.

use std::collections::HashSet;

use crate::files::{crc32, seal_json, unseal_json};
use std::fs::File;
use std::io::{self, Write};

/// A file operation that failed: what was being done, to which file, and the error.
#[derive(Debug)]
pub struct FileError {
    /// What was being done: `resume` (reading the finished records) or `write`.
    pub action: &'static str,
    /// The file's path.
    pub path: String,
    /// The operating system's error.
    pub error: io::Error,
}

/// The key a ruleset's record is found by: its elements separated by spaces (the first
/// CSV column, the JSON record's `set`).
pub fn key(elements: &[u64]) -> String {
    elements
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The name of the CSV column holding each row's checksum, the last one.
pub const CHECKSUM_COLUMN: &str = "checksum";

/// One record line as the file holds it: sealed with the checksum of its text.
fn seal(record: &str, csv: bool) -> String {
    if csv {
        format!("{record},crc32:{:08x}", crc32(record.as_bytes()))
    } else {
        seal_json(record.to_string())
    }
}

/// The record of a sealed line, or what is wrong with its checksum.
fn unseal(line: &str, csv: bool) -> Result<&str, String> {
    let failed = |why: &str| format!("fails its check: {why}");
    if !csv {
        return unseal_json(line).map(|()| line).map_err(|e| failed(&e));
    }
    let no_checksum = "it carries no checksum in its last column (not written by this lastbite)";
    let (record, tag) = line.rsplit_once(',').ok_or_else(|| failed(no_checksum))?;
    let stated = tag
        .strip_prefix("crc32:")
        .filter(|h| h.len() == 8)
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or_else(|| failed(no_checksum))?;
    let found = crc32(record.as_bytes());
    if found != stated {
        return Err(failed(&format!(
            "its content does not match its checksum (crc32 {found:08x}, it states {stated:08x}): it was changed or damaged since it was written"
        )));
    }
    Ok(record)
}

/// The key of one finished line, if it is a record.
fn line_key(line: &str, csv: bool) -> Option<String> {
    if csv {
        let k = line.split(',').next()?.trim();
        (!k.is_empty() && k.bytes().all(|b| b.is_ascii_digit() || b == b' ')).then(|| k.to_string())
    } else {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        let set: Vec<u64> = serde_json::from_value(v.get("set")?.clone()).ok()?;
        Some(key(&set))
    }
}

/// An open results file.
pub struct ScanFile {
    file: File,
    path: String,
}

impl ScanFile {
    /// Opens `path` for appending (creating it, with `header` and the checksum column as
    /// its first line when it is new or empty and `header` is given), first cutting a torn last line (a run killed
    /// mid-write: that ruleset is simply analysed again); returns the file and the keys
    /// of the records already in it. The file is read a line at a time, never whole; a
    /// line that is not a record of this scan (another header, a line over
    /// [`MAX_LINE`](crate::files::MAX_LINE), a line failing its checksum) is an error
    /// naming it, so records of another scan or edited ones are never taken as done. A path that is not a regular file (a device, a FIFO)
    /// is written through with nothing to resume.
    pub fn open(
        path: &str,
        csv: bool,
        header: Option<&str>,
    ) -> Result<(ScanFile, HashSet<String>), FileError> {
        let regular = match std::fs::metadata(path) {
            Ok(m) => m.is_file(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => true,
            Err(error) => {
                return Err(FileError {
                    action: "resume",
                    path: path.to_string(),
                    error,
                })
            }
        };
        let err = |error| FileError {
            action: "write",
            path: path.to_string(),
            error,
        };
        // Held while the finished records are read (and a torn line cut), so that no
        // other scan writes meanwhile; the appending handle below takes it over.
        let guard = if regular {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(err)?;
            lock(&f).map_err(err)?;
            Some(f)
        } else {
            None
        };
        let (done, fresh) = if regular {
            finished(path, csv, header)?
        } else {
            (HashSet::new(), true)
        };
        drop(guard);
        let mut file = if regular {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
        } else {
            std::fs::OpenOptions::new().write(true).open(path)
        }
        .map_err(err)?;
        if regular {
            lock(&file).map_err(err)?;
        }
        if let (true, Some(h)) = (fresh, header) {
            writeln!(file, "{h},{CHECKSUM_COLUMN}").map_err(err)?;
        }
        Ok((
            ScanFile {
                file,
                path: path.to_string(),
            },
            done,
        ))
    }

    /// Appends `records` (lines of CSV, without the checksum column, or compact JSON
    /// objects), each sealed with its checksum, in one write, and syncs them: a kill tears
    /// at most the last line, which [`ScanFile::open`] cuts.
    pub fn append<S: AsRef<str>>(&mut self, records: &[S], csv: bool) -> Result<(), FileError> {
        let err = |error| FileError {
            action: "write",
            path: self.path.clone(),
            error,
        };
        let mut lines = String::new();
        for r in records {
            lines.push_str(&seal(r.as_ref(), csv));
            lines.push('\n');
        }
        self.file.write_all(lines.as_bytes()).map_err(err)?;
        // A device or FIFO cannot be synced, nor needs it.
        match self.file.sync_data() {
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => Ok(()),
            r => r.map_err(err),
        }
    }
}

/// Takes the results file for this scan alone, for as long as it is open: a second scan
/// writing the same file at once would interleave (and repeat) records.
fn lock(file: &File) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor this `File` owns and keeps open.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let e = io::Error::last_os_error();
            return Err(if e.kind() == io::ErrorKind::WouldBlock {
                io::Error::other(
                    "another scan is writing it (two at once would interleave their records)",
                )
            } else {
                e
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
    Ok(())
}

/// The keys of the finished records of `path` and whether it holds no line yet, after
/// cutting a torn last line back to the last complete one; read a line at a time.
fn finished(
    path: &str,
    csv: bool,
    header: Option<&str>,
) -> Result<(HashSet<String>, bool), FileError> {
    let err = |error| FileError {
        action: "resume",
        path: path.to_string(),
        error,
    };
    let bad = |line: u64, what: String| {
        err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("line {line} {what}; not this scan's results (give another --out, or remove the file)"),
        ))
    };
    let mut done = HashSet::new();
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((done, true)),
        Err(e) => return Err(err(e)),
    };
    let mut r = io::BufReader::with_capacity(1 << 20, f);
    let (mut keep, mut number, mut line) = (0u64, 0u64, Vec::new());
    let mut repeated = Vec::new();
    let header = header.map(|h| format!("{h},{CHECKSUM_COLUMN}"));
    let columns = header.as_ref().map(|h| h.split(',').count() - 1);
    loop {
        let whole = crate::files::read_line_bounded(&mut r, &mut line, crate::files::MAX_LINE)
            .map_err(|e| bad(number + 1, e.to_string()))?;
        match whole {
            Some(true) => {}
            Some(false) => break,
            None => break,
        }
        number += 1;
        keep += line.len() as u64 + 1;
        let text = std::str::from_utf8(&line).map_err(|_| bad(number, "is not UTF-8".into()))?;
        if number == 1 && csv {
            if let Some(h) = &header {
                if text != h {
                    return Err(bad(
                        1,
                        format!("is not this scan's header ({})", crate::text::escape(h)),
                    ));
                }
                continue;
            }
        }
        let text = unseal(text, csv).map_err(|why| bad(number, why))?;
        match line_key(text, csv) {
            Some(k) if columns.is_none_or(|c| text.split(',').count() == c) => {
                if !done.insert(k) {
                    repeated.push(number);
                }
            }
            _ => {
                return Err(bad(
                    number,
                    format!("is not a record: {}", crate::text::escape(text)),
                ))
            }
        }
    }
    if keep < r.get_ref().metadata().map_err(err)?.len() {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(keep))
            .map_err(err)?;
    }
    if !repeated.is_empty() {
        drop_lines(path, &repeated).map_err(err)?;
    }
    Ok((done, number == 0))
}

/// Rewrites the file at `path` without the lines numbered `lines` (from 1, ascending):
/// a record written twice (by an earlier version, or a copy) is kept once.
fn drop_lines(path: &str, lines: &[u64]) -> io::Result<()> {
    use std::io::BufRead;
    let f = File::open(path)?;
    let mut r = io::BufReader::with_capacity(1 << 20, f);
    let mut skip = lines.iter().peekable();
    crate::files::write_file(std::path::Path::new(path), |w| {
        let (mut number, mut line) = (0u64, Vec::new());
        loop {
            line.clear();
            if r.read_until(b'\n', &mut line)? == 0 {
                return Ok(());
            }
            number += 1;
            if skip.peek() == Some(&&number) {
                skip.next();
                continue;
            }
            w.write_all(&line)?;
        }
    })
    .map_err(|e| io::Error::other(e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder of this test process's own.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("lastbite-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn one_writer_at_a_time() {
        let dir = scratch("scanlock");
        let path = dir.join("scan.csv");
        let path = path.to_str().unwrap();
        let (first, _) = ScanFile::open(path, true, Some("set,x")).unwrap();
        let e = ScanFile::open(path, true, Some("set,x")).err().unwrap();
        assert!(
            e.error.to_string().contains("another scan is writing it"),
            "{}",
            e.error
        );
        drop(first);
        ScanFile::open(path, true, Some("set,x")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_torn_line_is_cut_and_finished_keys_are_read() {
        let dir = scratch("scanfile");
        let path = dir.join("scan.csv");
        let path = path.to_str().unwrap();
        let _ = std::fs::remove_file(path);
        let (mut f, done) = ScanFile::open(path, true, Some("set,x")).unwrap();
        assert!(done.is_empty());
        f.append(&["1 2,a", "1 3,b"], true).unwrap();
        drop(f);
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            text,
            format!(
                "set,x,checksum\n1 2,a,crc32:{:08x}\n1 3,b,crc32:{:08x}\n",
                crc32(b"1 2,a"),
                crc32(b"1 3,b")
            )
        );
        // A torn last line is cut and analysed again.
        std::fs::write(path, format!("{text}1 4,")).unwrap();
        let (mut f, done) = ScanFile::open(path, true, Some("set,x")).unwrap();
        assert_eq!(done, ["1 2", "1 3"].iter().map(|s| s.to_string()).collect());
        f.append(&["1 4,c"], true).unwrap();
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            format!("{text}1 4,c,crc32:{:08x}\n", crc32(b"1 4,c"))
        );
        // The scan is done with it (while open, no other scan may open it).
        drop(f);
        let json = dir.join("scan.jsonl");
        let json = json.to_str().unwrap();
        let sealed = seal_json("{\"set\":[2,5]}".into());
        std::fs::write(json, format!("{sealed}\n{{\"set\":[2,")).unwrap();
        let (_, done) = ScanFile::open(json, false, None).unwrap();
        assert_eq!(done, [key(&[2, 5])].into_iter().collect());
        // An edited record, in either format, is refused naming its line.
        std::fs::write(json, format!("{sealed}\n{}\n", sealed.replace('5', "6"))).unwrap();
        let e = ScanFile::open(json, false, None).err().unwrap();
        assert!(
            e.error
                .to_string()
                .starts_with("line 2 fails its check: its content does not match its checksum"),
            "{}",
            e.error
        );
        // Another scan's file, a line that is no record, an edited or unsealed line, an
        // endless line: refused, named.
        let row = |r: &str| format!("{r},crc32:{:08x}", crc32(r.as_bytes()));
        for (text, why) in [
            (
                format!("set,y,checksum\n{}\n", row("1 2,a")),
                "line 1 is not this scan's header",
            ),
            (
                format!("set,x,checksum\n{}\n", row("1 2,a,b")),
                "line 2 is not a record",
            ),
            (
                format!("set,x,checksum\n{}\n", row("hello,a")),
                "line 2 is not a record",
            ),
            (
                format!("set,x,checksum\n{}\n", row("1 2,a").replace(",a", ",b")),
                "line 2 fails its check: its content",
            ),
            (
                "set,x,checksum\n1 2,a\n".to_string(),
                "line 2 fails its check: it carries no checksum",
            ),
            (
                "set,x\n1 2,a\n".to_string(),
                "line 1 is not this scan's header",
            ),
        ] {
            std::fs::write(path, &text).unwrap();
            let e = ScanFile::open(path, true, Some("set,x")).err().unwrap();
            assert!(e.error.to_string().starts_with(why), "{}", e.error);
            assert_eq!(
                std::fs::read_to_string(path).unwrap(),
                text,
                "left as it was"
            );
        }
        std::fs::write(path, "x".repeat(crate::files::MAX_LINE + 1)).unwrap();
        let e = ScanFile::open(path, true, Some("set,x")).err().unwrap();
        assert!(e.error.to_string().contains("longer than"), "{}", e.error);
        // A device is written through, with nothing to resume.
        let (mut f, done) = ScanFile::open("/dev/null", true, Some("set,x")).unwrap();
        assert!(done.is_empty());
        f.append(&["1 2,a"], true).unwrap();
        let (mut f, _) = ScanFile::open("/dev/full", true, None).unwrap();
        assert_eq!(f.append(&["1 2,a"], true).unwrap_err().action, "write");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
