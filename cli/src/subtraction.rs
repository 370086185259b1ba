//! `lastbite subtraction ...`: self-interest cumulative subtraction games.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use lastbite::games::subtraction::analysis::{check_statement, Family, ScanRecord, Statement};
use lastbite::games::subtraction::{
    find_period, first_discrepancy, first_zero_sum_discrepancy, outcome_at, parse_heap, Convention,
    Derivation, Ruleset, Table,
};
use serde_json::{json, Value};

use crate::out;

/// The largest heap up to which periods are searched by default.
const DEFAULT_LIMIT: u64 = 1 << 24;

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
}

/// Arguments of `subtraction conjecture`.
#[derive(Args, Debug)]
pub struct ConjectureArgs {
    /// 4, 11, 12, 13, 14, 15, 16, 17, p2, p3 or p6.
    statement: String,
    /// Set sizes to check, e.g. 2 or 3,4 (statements about pairs or triples use theirs).
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
    #[arg(long)]
    csv: bool,
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
    match cmd {
        Command::Table(a) => table(a),
        Command::Outcome(a) => outcome(a),
        Command::Period(a) => period(a),
        Command::Scan(a) => scan(a),
        Command::Conjecture(a) => conjecture(a),
        Command::Plot(a) => plot(a),
    }
}

fn ruleset(s: &str) -> anyhow::Result<Ruleset> {
    s.parse::<Ruleset>().context("--set")
}

fn pair(p: (u64, u64)) -> Value {
    json!([p.0, p.1])
}

fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    let set = ruleset(&a.set)?;
    let t = Table::compute(&set, a.max_heap)?;
    let mut w = out::stdout();
    if a.json {
        let rows: Vec<Value> = (0..=a.max_heap)
            .map(|h| {
                let mut row = serde_json::Map::new();
                row.insert("heap".into(), json!(h));
                for x in Convention::ALL {
                    row.insert(
                        x.name().into(),
                        json!({"outcome": pair(t.outcome(x, h)), "moves": t.moves(x, h)}),
                    );
                }
                row.insert("zero_sum".into(), json!(t.zero_sum(h)));
                Value::Object(row)
            })
            .collect();
        out::print_json(&json!({"set": set.elements(), "rows": rows}))?;
        return Ok(ExitCode::SUCCESS);
    }
    if a.csv {
        writeln!(w, "heap,FvF_1,FvF_2,FvF_moves,FvA_1,FvA_2,FvA_moves,AvF_1,AvF_2,AvF_moves,AvA_1,AvA_2,AvA_moves,zero_sum")?;
        for h in 0..=a.max_heap {
            write!(w, "{h}")?;
            for x in Convention::ALL {
                let (p, q) = t.outcome(x, h);
                let m: Vec<String> = t.moves(x, h).iter().map(|m| m.to_string()).collect();
                write!(w, ",{p},{q},{}", m.join(" "))?;
            }
            writeln!(w, ",{}", t.zero_sum(h))?;
        }
        w.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    // The paper's layout: outcome and moves per convention, deviations from FvF.
    writeln!(w, "S = {set}")?;
    writeln!(
        w,
        "{:>6}  {:<18} {:<18} {:>3} {:>3}  {:<18} {:>3} {:>3}  {:<18} {:>3} {:>3}  {:>5}",
        "heap", "FvF", "FvA", "da", "db", "AvF", "da", "db", "AvA", "da", "db", "zs"
    )?;
    for h in 0..=a.max_heap {
        let cell = |x: Convention| {
            let (p, q) = t.outcome(x, h);
            let m: Vec<String> = t.moves(x, h).iter().map(|m| m.to_string()).collect();
            if m.is_empty() {
                format!("({p},{q})")
            } else {
                format!("({p},{q}), {}", m.join(","))
            }
        };
        let base = t.outcome(Convention::FvF, h);
        let delta = |x: Convention| {
            let (p, q) = t.outcome(x, h);
            (p as i64 - base.0 as i64, q as i64 - base.1 as i64)
        };
        let (fa, fb) = delta(Convention::FvA);
        let (aa, ab) = delta(Convention::AvF);
        let (va, vb) = delta(Convention::AvA);
        writeln!(
            w,
            "{h:>6}  {:<18} {:<18} {fa:>3} {fb:>3}  {:<18} {aa:>3} {ab:>3}  {:<18} {va:>3} {vb:>3}  {:>5}",
            cell(Convention::FvF),
            cell(Convention::FvA),
            cell(Convention::AvF),
            cell(Convention::AvA),
            t.zero_sum(h)
        )?;
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn outcome(a: OutcomeArgs) -> anyhow::Result<ExitCode> {
    let set = ruleset(&a.set)?;
    let heap = parse_heap(&a.heap).context("--heap")?;
    let x: Convention = a.convention.parse()?;
    let (found, table) = if heap < 1 << 16 {
        (None, Table::compute(&set, heap as u64)?)
    } else {
        let (p, t) = find_period(&set, a.limit)?;
        (Some(p), t)
    };
    let o = outcome_at(&table, found.as_ref(), x, heap)?;
    let ((p, q), moves, how) = (o.outcome, o.moves, o.derivation);
    let how_json = match how {
        Derivation::Direct => json!({"method": "direct"}),
        Derivation::Periodic { reduced, periods } => {
            let per = found.as_ref().expect("periodic implies a period");
            json!({"method": "periodic", "reduced_heap": reduced, "periods": periods.to_string(),
                   "preperiod": per.preperiod, "period": per.period, "increment": per.increment})
        }
    };
    if a.json {
        // Outcomes may exceed 64 bits: JSON numbers keep them exact as text.
        let num = |v: u128| Value::Number(v.to_string().parse().expect("integer"));
        out::print_json(&json!({
            "set": set.elements(), "heap": num(heap), "convention": x.name(),
            "outcome": [num(p), num(q)], "moves": moves, "derivation": how_json,
        }))?;
    } else {
        let mut w = out::stdout();
        let m: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        writeln!(
            w,
            "S = {set}, heap {heap}, {x}: outcome ({p}, {q}), PSPE moves {{{}}}",
            m.join(",")
        )?;
        if let Derivation::Periodic { reduced, periods } = how {
            let per = found.as_ref().expect("periodic implies a period");
            writeln!(
                w,
                "  by periodicity: heap {reduced} + {periods} x {} (each period adds {} to both players)",
                per.period, per.increment
            )?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn period(a: PeriodArgs) -> anyhow::Result<ExitCode> {
    let set = ruleset(&a.set)?;
    let (p, t) = find_period(&set, a.limit)?;
    let disc = |x, y| first_discrepancy(&t, &p, x, y);
    let pairs = [
        ("FvF_AvA", Convention::FvF, Convention::AvA),
        ("FvF_FvA", Convention::FvF, Convention::FvA),
        ("FvF_AvF", Convention::FvF, Convention::AvF),
        ("AvA_FvA", Convention::AvA, Convention::FvA),
        ("AvA_AvF", Convention::AvA, Convention::AvF),
    ];
    let zs = first_zero_sum_discrepancy(&t, &p);
    if a.json {
        let mut d = serde_json::Map::new();
        for (name, x, y) in pairs {
            d.insert(name.into(), json!(disc(x, y)));
        }
        d.insert("AvA_zero_sum".into(), json!(zs));
        out::print_json(&json!({
            "set": set.elements(), "preperiod": p.preperiod, "period": p.period,
            "increment": p.increment, "certificate_window": [p.window.0, p.window.1],
            "first_discrepancy": Value::Object(d),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "S = {set}: pre-period h0 = {}, period p = {}, increment c = {}",
            p.preperiod, p.period, p.increment
        )?;
        writeln!(
            w,
            "certificate: o_X(h + {}) = o_X(h) + ({}, {}) for every convention and o_zs(h + {}) = o_zs(h) on [{}, {}), hence for all h >= {}",
            p.period, p.increment, p.increment, p.period, p.window.0, p.window.1, p.preperiod
        )?;
        for (name, x, y) in pairs {
            let v = disc(x, y).map_or("never".to_string(), |h| format!("heap {h}"));
            writeln!(
                w,
                "first {name} discrepancy: {v}",
                name = name.replace('_', " vs ")
            )?;
        }
        writeln!(
            w,
            "first AvA vs zero-sum discrepancy: {}",
            zs.map_or("never".to_string(), |h| format!("heap {h}"))
        )?;
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn scan(a: ScanArgs) -> anyhow::Result<ExitCode> {
    use rayon::prelude::*;
    use std::collections::HashSet;
    use std::io::BufRead;
    let family = match (a.pairs, a.triples, a.size, a.max, a.random) {
        (Some(n), _, _, _, _) => Family::All { size: 2, max: n },
        (_, Some(n), _, _, _) => Family::All { size: 3, max: n },
        (_, _, Some(size), Some(max), None) => Family::All { size, max },
        (_, _, Some(size), Some(max), Some(count)) => Family::Random {
            size,
            max,
            count,
            seed: a.seed,
        },
        _ => anyhow::bail!(
            "choose the rulesets: --pairs N, --triples N, or --size K --max M [--random COUNT]"
        ),
    };
    let sets = family.rulesets()?;
    let csv = a
        .out
        .as_ref()
        .map_or(a.csv, |p| p.extension().is_some_and(|e| e == "csv"));
    // Resume: skip what the output file already holds.
    let mut done = HashSet::new();
    if let Some(path) = &a.out {
        if path.exists() {
            // A run killed mid-write can leave a torn last line: cut back to the last
            // complete one, whose ruleset is then simply analysed again.
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            if !bytes.is_empty() && bytes.last() != Some(&b'\n') {
                let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)?
                    .set_len(keep as u64)?;
            }
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            for line in std::io::BufReader::new(file).lines() {
                let line = line?;
                let key = if csv {
                    line.split(',').next().unwrap_or("").to_string()
                } else {
                    serde_json::from_str::<Value>(&line)
                        .ok()
                        .and_then(|v| v.get("set").cloned())
                        .map(|v| {
                            v.as_array()
                                .map(|a| {
                                    a.iter()
                                        .map(|x| x.to_string())
                                        .collect::<Vec<_>>()
                                        .join(" ")
                                })
                                .unwrap_or_default()
                        })
                        .unwrap_or_default()
                };
                if !key.is_empty() {
                    done.insert(key);
                }
            }
        }
    }
    let key = |s: &Ruleset| {
        s.elements()
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let todo: Vec<Ruleset> = sets
        .into_iter()
        .filter(|s| !done.contains(&key(s)))
        .collect();
    let mut sink: Box<dyn Write> = match &a.out {
        Some(path) => {
            let fresh = !path.exists() || std::fs::metadata(path)?.len() == 0;
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            if fresh && csv {
                writeln!(f, "{}", ScanRecord::csv_header())?;
            }
            Box::new(f)
        }
        None => {
            let mut w = out::stdout();
            if csv {
                writeln!(w, "{}", ScanRecord::csv_header())?;
            }
            Box::new(w)
        }
    };
    let bar = crate::progress::Bar::with_threshold(1);
    use lastbite::engine::Progress;
    bar.start(todo.len() as u64, "rulesets");
    // Chunks are written as they finish, so an interruption loses at most one chunk.
    for chunk in todo.chunks(2048) {
        let records: Vec<Result<ScanRecord, _>> = chunk
            .par_iter()
            .map(|s| {
                let r = ScanRecord::new(s, a.limit);
                bar.advance(1);
                r
            })
            .collect();
        for r in records {
            let r = r?;
            if csv {
                writeln!(sink, "{}", r.to_csv())?;
            } else {
                writeln!(sink, "{}", serde_json::to_string(&r.to_json())?)?;
            }
        }
        sink.flush()?;
    }
    bar.finish();
    if a.out.is_some() {
        eprintln!(
            "{} rulesets analysed, {} already done",
            todo.len(),
            done.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn conjecture(a: ConjectureArgs) -> anyhow::Result<ExitCode> {
    let statement = Statement::parse(&a.statement)?;
    let bar = crate::progress::Bar::with_threshold(1);
    let v = check_statement(statement, &a.sizes, a.max, a.limit, &bar)?;
    let range = format!(
        "every ruleset of size {} with largest element <= {}",
        statement.sizes().map_or(
            a.sizes
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(" or "),
            |k| k.to_string()
        ),
        a.max
    );
    let verdict = match (&v.counterexample, statement) {
        (None, Statement::P3) => "data",
        (None, _) => "holds",
        (Some(_), _) => "fails",
    };
    if a.json {
        let ce = v.counterexample.as_ref().map(|(set, heap, why)| {
            let mut m = serde_json::Map::new();
            m.insert("set".into(), json!(set.elements()));
            m.insert("heap".into(), json!(heap));
            m.insert("detail".into(), json!(why));
            if let Some(h) = heap {
                if let Ok(t) = Table::compute(set, *h) {
                    for x in Convention::ALL {
                        m.insert(x.name().into(), pair(t.outcome(x, *h)));
                    }
                    m.insert("zero_sum".into(), json!(t.zero_sum(*h)));
                }
            }
            Value::Object(m)
        });
        out::print_json(&json!({
            "statement": a.statement,
            "verdict": verdict,
            "range": range,
            "rulesets": v.rulesets,
            "applicable": v.applicable,
            "counterexample": ce,
            "largest_preperiod": v.largest_preperiod.as_ref().map(|(h, s)| json!({"set": s.elements(), "preperiod": h})),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "{} {}: {verdict} on {range} ({} rulesets, {} covered by the hypothesis)",
            if a.statement.starts_with('p') {
                "Problem"
            } else {
                "Conjecture"
            },
            a.statement.trim_start_matches('p'),
            v.rulesets,
            v.applicable
        )?;
        if let Some((set, heap, why)) = &v.counterexample {
            writeln!(
                w,
                "smallest counterexample: S = {set}{}: {why}",
                heap.map_or(String::new(), |h| format!(", heap {h}"))
            )?;
        }
        if let Some((h, s)) = &v.largest_preperiod {
            writeln!(
                w,
                "largest pre-period: {h} for S = {s} (max S = {})",
                s.max()
            )?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn plot(a: PlotArgs) -> anyhow::Result<ExitCode> {
    use lastbite::games::subtraction::figures;
    let (svg, data) = match a.figure {
        Figure::Figure1 => {
            let (chart, hits) = figures::figure1(a.max.unwrap_or(100), a.limit)?;
            (
                chart.to_svg(760.0, 700.0),
                json!({"pairs": hits.iter().map(|&(x, y)| json!([x, y])).collect::<Vec<_>>()}),
            )
        }
        Figure::Figure2 | Figure::Figure3 => {
            let zero_sum = matches!(a.figure, Figure::Figure3);
            let (chart, hits) = figures::figure_triples(a.max.unwrap_or(40), zero_sum, a.limit)?;
            (chart.to_svg(760.0, 680.0), json!({"triples": hits}))
        }
        Figure::Heatmap => {
            let set = ruleset(a.set.as_deref().context("heatmap needs --set")?)?;
            let t = Table::compute(&set, a.max_heap)?;
            let map = figures::heatmap(&t);
            let rows: Vec<Value> = map
                .rows
                .iter()
                .zip(&map.cells)
                .map(|(r, c)| json!({"row": r, "values": c}))
                .collect();
            (map.to_svg(), json!({"set": set.elements(), "rows": rows}))
        }
    };
    if a.out.requested() || !a.json {
        a.out.write(&svg)?;
    }
    if a.json {
        out::print_json(&data)?;
    }
    Ok(ExitCode::SUCCESS)
}
