//! `lastbite subtraction ...`: self-interest cumulative subtraction games.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use lastbite::api::subtraction::{self as api, DEFAULT_LIMIT};
use lastbite::api::sweep::Sweep;
use lastbite::api::Control;

use crate::out::{self, call, emit};
use crate::progress::Bar;

/// Subtraction-game commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Outcomes and PSPE moves of every heap up to --max-heap, all four conventions, the
    /// zero-sum score and the discrepancies (the paper's table layout).
    Table(TableArgs),
    /// The outcome and PSPE moves of one heap under one convention, for any heap below
    /// 2^128 (by the certified periodic formula beyond the table).
    Outcome(OutcomeArgs),
    /// The pre-period h0, period p and increment c of the outcome sequences, with the
    /// certificate window, and the first discrepancies between conventions.
    Period(PeriodArgs),
    /// Sweep families of rulesets (all pairs, all triples, all sets of a size, random
    /// sets): per ruleset h0, p, c, the first FvF/AvA and AvA/zero-sum discrepancies and
    /// the unilateral-deviation gains. Parallel; resumable with --out.
    Scan(ScanArgs),
    /// Check a conjecture (4, 11-17) or problem (p2, p3, p6) of the paper on every ruleset
    /// of the given sizes with largest element <= --max, exactly via the certificate.
    Conjecture(ConjectureArgs),
    /// The data of Problems 1, 4 and 5 on every ruleset of the given sizes with largest
    /// element <= --max: the largest FvF -> AvA discrepancy by max S, the rulesets without
    /// discrepancy and those with a positive discrepancy from FvF to AvF or FvA, with a
    /// summary of their shape.
    Problems(SetsArgs),
    /// Pictures: figure1 (pairs with an FvF/AvA discrepancy), figure2 and figure3
    /// (triples with FvF/AvA and AvA/zero-sum discrepancies, projected), heatmap (the
    /// discrepancies of one table).
    Plot(PlotArgs),
}

/// Which picture.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Figure {
    /// Pairs (s2, s1) with an FvF/AvA discrepancy, coloured by n mod 5.
    Figure1,
    /// Triples with an FvF/AvA discrepancy, at (s3/s1, s2/s1).
    Figure2,
    /// Triples with an AvA/zero-sum discrepancy, at (s3/s1, s2/s1).
    Figure3,
    /// The discrepancies from FvF of one ruleset's table, by heap (needs --set).
    Heatmap,
}

/// Arguments of `subtraction plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    /// The picture.
    #[arg(value_enum)]
    figure: Figure,
    /// Largest element of the rulesets drawn (figures 1-3).
    #[arg(long, value_name = "M")]
    max: Option<u64>,
    /// The ruleset (heatmap).
    #[arg(long, value_name = "S")]
    set: Option<String>,
    /// The largest heap (heatmap).
    #[arg(long, default_value_t = 199)]
    max_heap: u64,
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Print the plotted data as one JSON document on stdout.
    #[arg(long)]
    json: bool,
    /// Largest heap to search for each period.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    limit: u64,
}

/// Arguments of `subtraction scan`.
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// All pairs s2 < s1 <= N.
    #[arg(long, value_name = "N", conflicts_with_all = ["triples", "size"])]
    pairs: Option<u64>,
    /// All triples s3 < s2 < s1 <= N.
    #[arg(long, value_name = "N", conflicts_with = "size")]
    triples: Option<u64>,
    /// All sets (or, with --random, random sets) of this size ...
    #[arg(long, value_name = "K", requires = "max")]
    size: Option<usize>,
    /// ... with largest element at most M.
    #[arg(long, value_name = "M")]
    max: Option<u64>,
    /// Draw this many random sets instead of all of them.
    #[arg(long, value_name = "COUNT", requires = "size")]
    random: Option<u64>,
    /// Seed of the random sets.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append results to this file (JSON lines, or CSV when it ends in .csv); rulesets
    /// already in it are skipped, so an interrupted sweep resumes where it stopped.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Print CSV instead of JSON lines on stdout (without --out).
    #[arg(long)]
    csv: bool,
    /// Largest heap to search for each period.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    limit: u64,
    #[command(flatten)]
    shard: crate::shard::ShardArgs,
}

/// Every ruleset of some sizes up to a largest element (`conjecture`, `problems`).
#[derive(Args, Debug)]
pub struct SetsArgs {
    /// Set sizes, e.g. 2 or 3,4 (a conjecture about pairs or triples uses its own).
    #[arg(long, value_delimiter = ',', default_value = "2")]
    sizes: Vec<usize>,
    /// Largest element.
    #[arg(long, value_name = "M", default_value_t = 30)]
    max: u64,
    /// Largest heap to search for each period.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    limit: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
    #[command(flatten)]
    shard: crate::shard::ShardArgs,
}

/// Arguments of `subtraction conjecture`.
#[derive(Args, Debug)]
pub struct ConjectureArgs {
    /// 4, 11, 12, 13, 14, 15, 16, 17, p2, p3 or p6.
    statement: String,
    #[command(flatten)]
    sets: SetsArgs,
}

/// Arguments of `subtraction table`.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The subtraction set, e.g. 4,5,9.
    #[arg(long, value_name = "S")]
    set: String,
    /// The largest heap listed.
    #[arg(long, default_value_t = 99)]
    max_heap: u64,
    /// Print one JSON document on stdout.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV on stdout.
    #[arg(long, conflicts_with = "latex")]
    csv: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
}

/// Arguments of `subtraction outcome`.
#[derive(Args, Debug)]
pub struct OutcomeArgs {
    /// The subtraction set.
    #[arg(long, value_name = "S")]
    set: String,
    /// The heap (any non-negative integer below 2^128).
    #[arg(long)]
    heap: String,
    /// FvF, FvA, AvF or AvA (Alice's convention first).
    #[arg(long, default_value = "FvF")]
    convention: String,
    /// Largest heap to search for the period when the heap is beyond the table.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    limit: u64,
    /// Also list every legal move with the outcome it leads to under PSPE play.
    #[arg(long)]
    explain: bool,
    /// Play these takes first (Alice first, turns alternating, e.g. `4,9`) and report the
    /// heap they leave, with the whole game's totals.
    #[arg(long, value_delimiter = ',', value_name = "TAKES")]
    takes: Option<Vec<u64>>,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `subtraction period`.
#[derive(Args, Debug)]
pub struct PeriodArgs {
    /// The subtraction set.
    #[arg(long, value_name = "S")]
    set: String,
    /// Largest heap to search for the period.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    limit: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Runs a subtraction command.
pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    let bar = Bar::with_threshold(1);
    let ctl = Control::new(&bar);
    match cmd {
        Command::Table(a) => {
            let req = api::TableRequest {
                set: a.set,
                max_heap: a.max_heap,
            };
            let report = call(api::table(&req, &ctl))?;
            if a.csv {
                let mut w = out::stdout();
                report.write_csv(&mut w)?;
                w.flush()?;
            } else {
                out::emit_table(&report, a.json, &a.latex)?;
            }
        }
        Command::Outcome(a) => {
            let req = api::OutcomeRequest {
                set: a.set,
                heap: a.heap,
                convention: a.convention,
                limit: a.limit,
                explain: a.explain,
                takes: a.takes,
            };
            emit(&call(api::outcome(&req, &ctl))?, a.json)?;
        }
        Command::Period(a) => {
            let req = api::PeriodRequest {
                set: a.set,
                limit: a.limit,
            };
            emit(&call(api::period(&req, &ctl))?, a.json)?;
        }
        Command::Scan(a) => {
            let req = api::ScanRequest {
                pairs: a.pairs,
                triples: a.triples,
                size: a.size,
                max: a.max,
                random: a.random,
                seed: a.seed,
                out: a.out.map(|p| p.display().to_string()),
                csv: a.csv,
                limit: a.limit,
            };
            if a.shard.run(api::ScanSweep::COMMAND, &req, &ctl)? {
                return Ok(ExitCode::SUCCESS);
            }
            let report = call(api::scan(&req, &ctl))?;
            if req.out.is_some() {
                eprintln!(
                    "{} rulesets analysed, {} already done",
                    report.analysed, report.already_done
                );
            } else {
                let mut w = out::stdout();
                report.write_lines(&mut w)?;
                w.flush()?;
            }
        }
        Command::Conjecture(ConjectureArgs { statement, sets: a }) => {
            let req = api::ConjectureRequest {
                statement,
                sizes: a.sizes,
                max: a.max,
                limit: a.limit,
            };
            if a.shard.run(api::ConjectureSweep::COMMAND, &req, &ctl)? {
                return Ok(ExitCode::SUCCESS);
            }
            out::emit_table(&call(api::conjecture(&req, &ctl))?, a.json, &a.latex)?;
        }
        Command::Problems(a) => {
            let req = api::ProblemsRequest {
                sizes: a.sizes,
                max: a.max,
                limit: a.limit,
            };
            if a.shard.run(api::ProblemsSweep::COMMAND, &req, &ctl)? {
                return Ok(ExitCode::SUCCESS);
            }
            out::emit_table(&call(api::problems(&req, &ctl))?, a.json, &a.latex)?;
        }
        Command::Plot(a) => {
            // A heat map without its set is refused by the library first.
            if !(matches!(a.figure, Figure::Heatmap) && a.set.is_none()) {
                a.out.check(a.json)?;
            }
            let req = api::PlotRequest {
                figure: match a.figure {
                    Figure::Figure1 => api::Figure::Figure1,
                    Figure::Figure2 => api::Figure::Figure2,
                    Figure::Figure3 => api::Figure::Figure3,
                    Figure::Heatmap => api::Figure::Heatmap,
                },
                max: a.max,
                set: a.set,
                max_heap: a.max_heap,
                limit: a.limit,
                picture: a.out.requested(),
            };
            let report = call(api::plot(&req, &ctl))?;
            a.out.write_opt(report.svg.as_deref())?;
            if a.json {
                emit(&report, true)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
