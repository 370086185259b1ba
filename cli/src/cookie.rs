//! `lastbite cookie ...`: the cookie game.

use std::io::Write;
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, Subcommand};
use lastbite::engine::impartial::{Analyser, Outcome};
use lastbite::games::cookie::{
    count_table, count_table_by_paths, critical, d_value, nim_distribution, smallest_d, CookieGame,
    NimTable, Position, MAX_BY_PATHS, MAX_ENUMERATED, MAX_NIM_TABLE,
};
use num_bigint::BigUint;
use serde_json::{json, Value};

use crate::out;

/// Positions with more components than this get the theory only (the brute force's
/// state space grows exponentially).
const BRUTE_FORCE_COMPONENTS: usize = 24;

/// Cookie-game commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse a position: its reduction, D-value and type by the theory, and (for up to
    /// 24 components) Grundy value, remoteness, suspense and winning moves by brute force.
    Analyze(AnalyzeArgs),
    /// The critical positions C^{n,d} for n up to --max-n.
    Critical(CriticalArgs),
    /// How many strict n-component positions have each D-value (by lattice paths up to
    /// n = 1000, exact; or by enumerating all 2^(n-1) strict positions up to n = 28).
    Table(TableArgs),
    /// The distribution of nim-values of all strict positions up to --max-n components
    /// (a 4-bit table over subset codes up to n = 34; or the engine's brute force up to 20).
    Nim(NimArgs),
}

/// Arguments of `cookie nim`.
#[derive(Args, Debug)]
pub struct NimArgs {
    /// Largest number of components.
    #[arg(long, default_value_t = 16)]
    max_n: u64,
    /// Use the engine's brute force (memoised search over positions) instead of the table.
    #[arg(long)]
    engine: bool,
    /// Keep each finished layer in this directory and resume from the layers found there.
    #[arg(long, value_name = "DIR", conflicts_with = "engine")]
    store: Option<std::path::PathBuf>,
    /// Memory budget of the table, in GiB (layers it must hold at once).
    #[arg(long, value_name = "GIB", default_value_t = 8)]
    memory_gib: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `cookie table`.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Largest number of components.
    #[arg(long, default_value_t = 16)]
    max_n: u64,
    /// Enumerate every strict position instead of counting lattice paths.
    #[arg(long)]
    enumerate: bool,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `cookie analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The components (days of edibility), e.g. 0 1 1 3 4 5 8 8.
    #[arg(required = true, allow_negative_numbers = true)]
    components: Vec<String>,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `cookie critical`.
#[derive(Args, Debug)]
pub struct CriticalArgs {
    /// Largest number of components.
    #[arg(long, default_value_t = 9)]
    max_n: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Runs a cookie command.
pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Analyze(a) => analyze(a),
        Command::Critical(a) => critical_cmd(a),
        Command::Table(a) => table(a),
        Command::Nim(a) => nim(a),
    }
}

fn analyze(a: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let p: Position = a.components.join(" ").parse()?;
    let reduced = p.reduced();
    let d = d_value(&p);
    let brute = (p.canonical().len() <= BRUTE_FORCE_COMPONENTS).then(|| {
        let game = CookieGame;
        let mut an = Analyser::new(&game);
        let v = an.value(&p);
        let mut wins: Vec<u64> = (1..=p.len())
            .filter_map(|k| p.option(k).map(|o| (p.components()[k - 1], o)))
            .filter(|(_, o)| an.value(o).outcome == Outcome::P)
            .map(|(size, _)| size)
            .collect();
        wins.dedup();
        (v, wins)
    });
    let kind = match (&brute, d) {
        (Some((v, _)), _) => if v.outcome == Outcome::N { "N" } else { "P" },
        (None, Some(d)) => if d % 2 == 1 { "N" } else { "P" },
        (None, None) => bail!(
            "{} components and a reduced form that is not strict: neither the theory nor the brute force (up to {BRUTE_FORCE_COMPONENTS} components) applies",
            p.len()
        ),
    };
    let absent = format!("brute force is limited to {BRUTE_FORCE_COMPONENTS} unexpired components");
    if a.json {
        let mut doc = serde_json::Map::new();
        let show = |q: &Position| json!(q.components());
        doc.insert("position".into(), show(&p));
        doc.insert("surplus".into(), json!(p.surplus()));
        doc.insert("reduced".into(), show(&reduced));
        doc.insert("strict".into(), json!(reduced.is_strict()));
        doc.insert("d_value".into(), json!(d));
        doc.insert("type".into(), json!(kind));
        match &brute {
            Some((v, wins)) => {
                doc.insert("grundy".into(), json!(v.grundy));
                doc.insert("remoteness".into(), json!(v.remoteness));
                doc.insert("suspense".into(), json!(v.suspense));
                doc.insert("winning_moves".into(), json!(wins));
            }
            None => {
                for key in ["grundy", "remoteness", "suspense", "winning_moves"] {
                    doc.insert(key.into(), Value::Null);
                }
                doc.insert("absent_because".into(), json!(absent));
            }
        }
        out::print_json(&Value::Object(doc))?;
    } else {
        let mut w = out::stdout();
        writeln!(w, "position  {p}")?;
        writeln!(w, "surplus   {}  -> deletion {}", p.surplus(), p.deletion())?;
        writeln!(
            w,
            "depletion -> reduced form {} ({})",
            reduced,
            if reduced.is_strict() {
                "strict"
            } else {
                "not strict"
            }
        )?;
        writeln!(
            w,
            "D(A)      {}",
            d.map_or("undefined (reduced form not strict)".into(), |d| d
                .to_string())
        )?;
        writeln!(w, "type      {kind}")?;
        match &brute {
            Some((v, wins)) => {
                writeln!(
                    w,
                    "grundy {}, remoteness {}, suspense {}",
                    v.grundy, v.remoteness, v.suspense
                )?;
                let m: Vec<String> = wins.iter().map(|x| x.to_string()).collect();
                writeln!(
                    w,
                    "winning moves: eat a component of size {}",
                    if m.is_empty() {
                        "(none: P-position)".into()
                    } else {
                        m.join(" or ")
                    }
                )?;
            }
            None => writeln!(
                w,
                "grundy, remoteness, suspense, winning moves: absent ({absent})"
            )?,
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn critical_cmd(a: CriticalArgs) -> anyhow::Result<ExitCode> {
    if a.max_n == 0 || a.max_n > 10_000 {
        bail!("--max-n {}: use 1..=10000", a.max_n);
    }
    let rows: Vec<(u64, u64, Position)> = (1..=a.max_n)
        .flat_map(|n| (smallest_d(n)..=n).map(move |d| (n, d, critical(n, d).expect("d in range"))))
        .collect();
    if a.json {
        out::print_json(&json!({
            "critical": rows.iter().map(|(n, d, c)| json!({"n": n, "d": d, "position": c.components()})).collect::<Vec<_>>(),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(w, "{:>4} {:>4}  C^(n,d)", "n", "d")?;
        for (n, d, c) in &rows {
            let parts: Vec<String> = c.components().iter().map(|x| x.to_string()).collect();
            writeln!(w, "{n:>4} {d:>4}  {}", parts.join(" "))?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    let limit = if a.enumerate {
        MAX_ENUMERATED
    } else {
        MAX_BY_PATHS
    };
    if a.max_n > limit {
        bail!(
            "--max-n {}: {} goes up to n = {limit}",
            a.max_n,
            if a.enumerate {
                "enumeration"
            } else {
                "the lattice-path count"
            }
        );
    }
    let t: Vec<Vec<BigUint>> = if a.enumerate {
        let bar = crate::progress::Bar::with_threshold(1 << 22);
        count_table(a.max_n, &bar)
            .into_iter()
            .map(|row| row.into_iter().map(BigUint::from).collect())
            .collect()
    } else {
        count_table_by_paths(a.max_n, &crate::progress::Bar::with_threshold(300))
    };
    if a.json {
        out::print_json(&json!({"counts": cells(&t, "d")}))?;
    } else {
        let mut w = out::stdout();
        writeln!(w, "number of strict n-component positions with D-value d")?;
        for (n, row) in t.iter().enumerate() {
            let first = row.iter().position(|c| *c > BigUint::ZERO).unwrap_or(0);
            let cells: Vec<String> = row[first..].iter().map(|c| c.to_string()).collect();
            writeln!(w, "n = {n:>2}, d from {first:>2}: {}", cells.join(" "))?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn nim(a: NimArgs) -> anyhow::Result<ExitCode> {
    let limit = if a.engine {
        20
    } else {
        u64::from(MAX_NIM_TABLE)
    };
    if a.max_n == 0 || a.max_n > limit {
        bail!(
            "--max-n {}: {} covers 1..={limit} components",
            a.max_n,
            if a.engine {
                "the engine's brute force"
            } else {
                "the nim table"
            }
        );
    }
    let bar = crate::progress::Bar::with_threshold(1 << 20);
    let d = if a.engine {
        nim_distribution(a.max_n, &bar)
    } else {
        NimTable::build(
            a.max_n as u32,
            a.store.as_deref(),
            a.memory_gib.saturating_mul(1 << 30),
            &bar,
        )?
        .distribution()
    };
    let largest = d
        .iter()
        .map(|row| row.len().saturating_sub(1))
        .max()
        .unwrap_or(0);
    let d: Vec<Vec<BigUint>> = d
        .into_iter()
        .map(|row| row.into_iter().map(BigUint::from).collect())
        .collect();
    if a.json {
        out::print_json(&json!({"distribution": cells(&d, "nim"), "largest_nim_value": largest}))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "nim-values of strict positions (count per value 0, 1, 2, ...)"
        )?;
        for (n, row) in d.iter().enumerate().skip(1) {
            let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
            writeln!(w, "n = {n:>2}: {}", cells.join(" "))?;
        }
        writeln!(w, "largest nim-value: {largest}")?;
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A table `rows[n][column]` of counts as JSON cells `{"n", <column>, "count"}`, zeros
/// left out. Counts are JSON integers of any size (exact, possibly beyond 64 bits).
fn cells(rows: &[Vec<BigUint>], column: &str) -> Vec<Value> {
    rows.iter()
        .enumerate()
        .flat_map(|(n, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, c)| **c > BigUint::ZERO)
                .map(move |(k, c)| json!({"n": n, column: k, "count": big(c)}))
        })
        .collect()
}

/// A big integer as a JSON number (serde_json's arbitrary precision keeps every digit).
fn big(x: &BigUint) -> Value {
    serde_json::from_str(&x.to_string()).expect("digits are a JSON number")
}
