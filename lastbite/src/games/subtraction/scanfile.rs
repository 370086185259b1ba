//! A scan's results file (`subtraction scan` with an output file): records appended a
//! chunk at a time, each chunk written whole and synced, so a killed sweep loses at most
//! the chunk in flight; reopening cuts a torn last line and lists the rulesets already
//! finished, so the scan resumes where it stopped. It owns the file's bytes and keys; the
//! records' format (CSV or JSON lines) is the caller's.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, Write};

/// A file operation that failed: what was being done, to which file, and the error.
#[derive(Debug)]
pub struct FileError {
    /// What was being done: `resume` (reading the finished records) or `read` (opening
    /// or appending, as the scan has always called it).
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
    /// Opens `path` for appending (creating it, with `header` as its first line when it is
    /// new or empty and `header` is given), first cutting a torn last line (a run killed
    /// mid-write: that ruleset is simply analysed again); returns the file and the keys
    /// of the records already in it.
    pub fn open(
        path: &str,
        csv: bool,
        header: Option<&str>,
    ) -> Result<(ScanFile, HashSet<String>), FileError> {
        let done = finished(path, csv)?;
        let err = |error| FileError {
            action: "read",
            path: path.to_string(),
            error,
        };
        let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        if let (true, Some(h)) = (fresh, header) {
            writeln!(file, "{h}").map_err(err)?;
        }
        Ok((
            ScanFile {
                file,
                path: path.to_string(),
            },
            done,
        ))
    }

    /// Appends whole lines in one write and syncs them: a kill tears at most the last
    /// line, which [`ScanFile::open`] cuts.
    pub fn append(&mut self, lines: &[u8]) -> Result<(), FileError> {
        let err = |error| FileError {
            action: "read",
            path: self.path.clone(),
            error,
        };
        self.file.write_all(lines).map_err(err)?;
        self.file.sync_data().map_err(err)
    }
}

/// The keys of the finished records of `path` (none when it does not exist), after
/// cutting a torn last line back to the last complete one.
fn finished(path: &str, csv: bool) -> Result<HashSet<String>, FileError> {
    let err = |error| FileError {
        action: "resume",
        path: path.to_string(),
        error,
    };
    let mut done = HashSet::new();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(err(e)),
    };
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(keep as u64))
            .map_err(err)?;
    }
    for line in bytes[..keep].lines() {
        if let Some(k) = line_key(&line.map_err(err)?, csv) {
            done.insert(k);
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_line_is_cut_and_finished_keys_are_read() {
        let dir = std::env::temp_dir().join(format!("lastbite-scanfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("scan.csv");
        let path = path.to_str().unwrap();
        std::fs::write(path, "set,x\n1 2,a\n1 3,b\n1 4,").unwrap();
        let (mut f, done) = ScanFile::open(path, true, Some("set,x")).unwrap();
        assert_eq!(done, ["1 2", "1 3"].iter().map(|s| s.to_string()).collect());
        f.append(b"1 4,c\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            "set,x\n1 2,a\n1 3,b\n1 4,c\n"
        );
        let json = dir.join("scan.jsonl");
        let json = json.to_str().unwrap();
        std::fs::write(json, "{\"set\":[2,5]}\n{\"set\":[2,").unwrap();
        let (_, done) = ScanFile::open(json, false, None).unwrap();
        assert_eq!(done, [key(&[2, 5])].into_iter().collect());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
