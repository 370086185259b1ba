//! `lastbite subtraction ...`: self-interest cumulative subtraction games.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
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
