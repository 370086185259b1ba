//! `--shard I/N` on the sweep commands and `lastbite merge`: the CLI's side of the
//! library's sharded sweeps ([`lastbite::api::sweep`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use lastbite::api::{sweep, Control};
use serde::Serialize;

use crate::out::{self, call};

/// The sharding flags every sweep command takes.
#[derive(Args, Debug)]
pub struct ShardArgs {
    /// Run only shard I of N of this sweep (numbered from 1) and write its shard document
    /// instead of the report; `lastbite merge` combines the N documents into the report.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write the shard document to this file (atomically: a killed run leaves no partial
    /// file) instead of stdout.
    #[arg(long, value_name = "FILE", requires = "shard")]
    shard_out: Option<PathBuf>,
}

impl ShardArgs {
    /// With `--shard`, runs that shard of sweep `command` on `req` and writes its document;
    /// `Ok(false)` without it (the command runs whole).
    pub fn run<R: Serialize>(&self, command: &str, req: &R, ctl: &Control) -> anyhow::Result<bool> {
        let Some(text) = &self.shard else {
            return Ok(false);
        };
        let shard = call(sweep::Shard::parse(text))?;
        let request = serde_json::to_string(req).expect("requests serialise");
        let doc = call(sweep::shard(command, &request, shard, ctl))?;
        match &self.shard_out {
            Some(path) => write_atomically(path, doc.as_bytes())?,
            None => {
                let mut w = out::stdout();
                w.write_all(doc.as_bytes())?;
                w.write_all(b"\n")?;
                w.flush()?;
            }
        }
        Ok(true)
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .with_context(|| format!("--shard-out {} names no file", path.display()))?;
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
        anyhow::anyhow!("cannot write the shard document {}: {e}", path.display())
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
    let mut w = out::stdout();
    // As every --json is written: broken over lines for a terminal (or --pretty), one
    // compact line for a file or a pipe.
    let json = if out::pretty_json() {
        merged.document
    } else {
        merged.json + "\n"
    };
    w.write_all(if a.json { &json } else { &merged.text }.as_bytes())?;
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}
