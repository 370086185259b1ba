//! `--shard I/N` on the sweep commands and `lastbite merge`: the CLI's side of the
//! library's sharded sweeps ([`lastbite::api::sweep`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use lastbite::api::{sweep, Control};

use crate::out::{self, call};

/// Writes a shard document to `path` (by the library's one writer), or to stdout.
pub fn write_document(path: Option<&Path>, doc: &str) -> anyhow::Result<()> {
    match path {
        Some(path) => Ok(lastbite::files::write_bytes(path, doc.as_bytes())?),
        None => out::to_stdout(|w| {
            w.write_all(doc.as_bytes())?;
            Ok(w.write_all(b"\n")?)
        }),
    }
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
        .map(|p| {
            // Only a regular file, within the size a shard document may have: a FIFO or
            // `/dev/zero` among the shards is refused, not waited on or read for ever.
            let text = lastbite::files::read_regular_text(p, sweep::MAX_DOCUMENT_BYTES)?;
            // Checked here too, to name the file (the library names the document's place).
            lastbite::files::unseal_json(&text)
                .map_err(|problem| anyhow::anyhow!("cannot use {}: {problem}", p.display()))?;
            Ok(text)
        })
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
