//! `lastbite reproduce`: the papers' published values, recomputed, with pass/fail marks.

use std::process::ExitCode;

use lastbite::api::reproduce::{reproduce, ReproduceRequest};
use lastbite::api::Control;

use crate::out::{call, emit};

/// Arguments of `lastbite reproduce`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs the command; exits 1 when any published value is not reproduced.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = call(reproduce(&ReproduceRequest {}, &Control::silent()))?;
    emit(&report, args.json)?;
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
