//! `--shard I/N` on the sweep commands and `lastbite merge`: the CLI's side of the
//! library's sharded sweeps ([`lastbite::api::sweep`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lastbite::api::{sweep, Control};

use crate::out::{self, call};

/// The sharding flags every sweep command takes.
/// Writes a shard document to `path` (atomically), or to stdout.
pub fn write_document(path: Option<&Path>, doc: &str) -> anyhow::Result<()> {
    match path {
        Some(path) => write_atomically(path, doc.as_bytes()),
        None => out::to_stdout(|w| {
            w.write_all(doc.as_bytes())?;
            Ok(w.write_all(b"\n")?)
        }),
    }
}

/// Writes `bytes` to `path` whole or not at all: a temporary file in the same folder,
/// synced, renamed over the path. A path that is not a regular file (a device, a FIFO, a
/// symbolic link) is written through, never replaced: `/dev/stdout` stays a device and a
/// link stays a link.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            let through = || -> std::io::Result<()> {
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(std::fs::metadata(path)?.is_file())
                    .open(path)?;
                f.write_all(bytes)?;
                f.flush()
            };
            return through().map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()));
        }
    }
    let name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::anyhow!("cannot write {}: {e}", path.display())
    })
}

/// Arguments of `lastbite merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard documents of one sweep (`--shard I/N` runs), every shard once, any order.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Print one JSON document on stdout: the report the unsharded command prints.
    #[arg(long)]
    json: bool,
}

/// `lastbite merge`.
pub fn merge(a: MergeArgs) -> anyhow::Result<ExitCode> {
    let docs = a
        .files
        .iter()
        .map(|p| std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display())))
        .collect::<anyhow::Result<Vec<String>>>()?;
    let merged = call(sweep::merge(&docs, &Control::silent()))?;
    // As every --json is written: broken over lines for a terminal (or --pretty), one
    // compact line for a file or a pipe.
    let json = if out::pretty_json() {
        merged.document
    } else {
        merged.json + "\n"
    };
    out::to_stdout(|w| Ok(w.write_all(if a.json { &json } else { &merged.text }.as_bytes())?))?;
    Ok(ExitCode::SUCCESS)
}
