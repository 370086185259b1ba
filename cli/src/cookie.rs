//! `lastbite cookie ...`: the cookie game.

use std::io::Write;
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, Subcommand};
use lastbite::engine::impartial::{Analyser, ImpartialValue, Outcome};
use lastbite::games::cookie::model::brute_force_winning_sizes;
use lastbite::games::cookie::theory::{winning_interval, winning_rule, winning_sizes};
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
    /// Play a position against the favoured player (lastbite), who explains each move by
    /// D-values; read your moves (sizes of cookies to eat) from stdin.
    Play(PlayArgs),
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
    #[arg(required_unless_present = "from", allow_negative_numbers = true)]
    components: Vec<String>,
    /// Read the components from a file instead (`-` for stdin), separated by spaces,
    /// commas or newlines: for positions too long for a command line.
    #[arg(long, value_name = "FILE", conflicts_with = "components")]
    from: Option<std::path::PathBuf>,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `cookie play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The components (days of edibility) of the starting position.
    #[arg(required = true, allow_negative_numbers = true)]
    components: Vec<String>,
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
        Command::Play(a) => play(a),
        Command::Critical(a) => critical_cmd(a),
        Command::Table(a) => table(a),
        Command::Nim(a) => nim(a),
    }
}

/// The values the brute force gives, or the reason it was not run.
struct Brute {
    value: ImpartialValue,
    wins: Vec<u64>,
}

fn brute_force(p: &Position) -> Option<Brute> {
    if p.canonical().len() > BRUTE_FORCE_COMPONENTS {
        return None;
    }
    let game = CookieGame;
    let mut an = Analyser::new(&game);
    let value = an.value(p);
    let wins = brute_force_winning_sizes(&mut an, p);
    Some(Brute { value, wins })
}

/// Reads a position from the arguments or from a file (`-` for stdin).
fn read_position(
    components: &[String],
    from: Option<&std::path::Path>,
) -> anyhow::Result<Position> {
    let text = match from {
        Some(path) if path.as_os_str() == "-" => std::io::read_to_string(std::io::stdin())?,
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None => components.join(" "),
    };
    let p: Position = text.parse()?;
    if let (true, Some(path)) = (p.is_empty(), from) {
        bail!("{}: no components", path.display());
    }
    Ok(p)
}

fn analyze(a: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let p = read_position(&a.components, a.from.as_deref())?;
    let reduced = p.reduced();
    let d = d_value(&p);
    let brute = brute_force(&p);
    // The theory's winning moves, and the rule of Section 3 behind them (strict only).
    let theory_wins = winning_sizes(&p);
    let rule = winning_rule(&reduced);
    let kind = match (&brute, d) {
        (Some(b), _) => if b.value.outcome == Outcome::N { "N" } else { "P" },
        (None, Some(d)) => if d % 2 == 1 { "N" } else { "P" },
        (None, None) => bail!(
            "{} components and a reduced form that is not strict: neither the theory nor the brute force (up to {BRUTE_FORCE_COMPONENTS} components) applies",
            p.len()
        ),
    };
    let wins = brute.as_ref().map(|b| b.wins.clone()).or(theory_wins);
    // A strategic duration makes remoteness and suspense equal to it, and reduction
    // keeps all three, so D stands in for them where the brute force is not run.
    let remoteness = brute.as_ref().map(|b| b.value.remoteness as u64).or(d);
    let suspense = brute.as_ref().map(|b| b.value.suspense as u64).or(d);
    let absent = format!(
        "brute force is limited to {BRUTE_FORCE_COMPONENTS} unexpired components and no theory gives the Grundy value"
    );
    if a.json {
        let mut doc = serde_json::Map::new();
        let show = |q: &Position| json!(q.components());
        doc.insert("position".into(), show(&p));
        doc.insert("surplus".into(), json!(p.surplus()));
        doc.insert("reduced".into(), show(&reduced));
        doc.insert("strict".into(), json!(reduced.is_strict()));
        doc.insert("d_value".into(), json!(d));
        doc.insert("type".into(), json!(kind));
        doc.insert(
            "grundy".into(),
            json!(brute.as_ref().map(|b| b.value.grundy)),
        );
        doc.insert("remoteness".into(), json!(remoteness));
        doc.insert("suspense".into(), json!(suspense));
        doc.insert("winning_moves".into(), json!(wins));
        doc.insert(
            "winning_interval".into(),
            json!(winning_interval(&reduced).map(|w| [*w.start(), *w.end()])),
        );
        doc.insert(
            "rule".into(),
            json!(rule
                .as_ref()
                .map(|m| json!({"rule": m.rule, "j": m.j, "k": m.k}))),
        );
        doc.insert(
            "computed_by".into(),
            json!(if brute.is_some() {
                "brute force"
            } else {
                "theory"
            }),
        );
        if brute.is_none() {
            doc.insert("absent_because".into(), json!(absent));
        }
        out::print_json(&Value::Object(doc))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut w = out::stdout();
    let big = p.len() > 40;
    let show = |q: &Position| {
        if q.len() > 40 {
            format!("({} components)", q.len())
        } else {
            q.to_string()
        }
    };
    writeln!(w, "position  {}", show(&p))?;
    writeln!(
        w,
        "surplus   {}  -> deletion {}",
        p.surplus(),
        show(&p.deletion())
    )?;
    writeln!(
        w,
        "depletion -> reduced form {} ({})",
        show(&reduced),
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
        Some(b) => writeln!(
            w,
            "grundy {}, remoteness {}, suspense {} (brute force)",
            b.value.grundy, b.value.remoteness, b.value.suspense
        )?,
        None => writeln!(
            w,
            "remoteness = suspense = D = {} (theory); grundy absent: {absent}",
            d.expect("theory applies")
        )?,
    }
    if let Some(iv) = winning_interval(&reduced) {
        writeln!(
            w,
            "winning interval of the reduced form: options {}..={}",
            iv.start(),
            iv.end()
        )?;
    }
    if let Some(m) = &rule {
        writeln!(
            w,
            "Section 3: rule {} applies (j = {}); it takes option {}, eating a component of size {} of the reduced form",
            m.rule,
            m.j,
            m.k,
            reduced.components()[m.k - 1]
        )?;
    }
    match wins {
        Some(m) if m.is_empty() => writeln!(w, "winning moves: none (P-position)")?,
        Some(m) if big && m.len() > 20 => writeln!(
            w,
            "winning moves: eat a component of size {} .. {} ({} sizes)",
            m[0],
            m[m.len() - 1],
            m.len()
        )?,
        Some(m) => {
            let m: Vec<String> = m.iter().map(|x| x.to_string()).collect();
            writeln!(
                w,
                "winning moves: eat a component of size {}",
                m.join(" or ")
            )?
        }
        None => writeln!(w, "winning moves: absent ({absent})")?,
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// What the favoured player knows of a position: its type, and D when the theory applies.
struct Judged {
    n_position: bool,
    d: Option<u64>,
}

/// Judges a position by the theory when its reduced form is strict, else by brute force.
fn judge(p: &Position, an: &mut Analyser<CookieGame>) -> Judged {
    match d_value(p) {
        Some(d) => Judged {
            n_position: d % 2 == 1,
            d: Some(d),
        },
        None => Judged {
            n_position: an.value(p).outcome == Outcome::N,
            d: None,
        },
    }
}

fn describe(j: &Judged) -> String {
    match j.d {
        Some(d) => format!(
            "D = {d} ({}, {})",
            if d % 2 == 1 { "odd" } else { "even" },
            if j.n_position { "N" } else { "P" }
        ),
        None => format!(
            "no D-value (reduced form not strict); {} by brute force",
            if j.n_position { "N" } else { "P" }
        ),
    }
}

/// Eats a cookie of the given size: the position after it.
fn eat(p: &Position, size: u64) -> Option<Position> {
    let k = p.components().iter().position(|&c| c == size && c > 0)?;
    p.option(k + 1)
}

fn play(a: PlayArgs) -> anyhow::Result<ExitCode> {
    use std::io::BufRead;
    let mut p: Position = a.components.join(" ").parse()?;
    if d_value(&p).is_none() && p.canonical().len() > BRUTE_FORCE_COMPONENTS {
        bail!(
            "{} unexpired components and a reduced form that is not strict: lastbite cannot find its moves (the brute force stops at {BRUTE_FORCE_COMPONENTS})",
            p.canonical().len()
        );
    }
    let game = CookieGame;
    let mut an = Analyser::new(&game);
    let mut w = out::stdout();
    let mut lines = std::io::stdin().lock().lines();
    let first = judge(&p, &mut an);
    let mut my_turn = first.n_position;
    writeln!(
        w,
        "start {p}: {}. {}",
        describe(&first),
        if my_turn {
            "I am the favoured player and move first."
        } else {
            "You move first, but every move you have leads to an N-position: I am the favoured player."
        }
    )?;
    loop {
        let here = judge(&p, &mut an);
        if p.canonical().is_empty() {
            writeln!(
                w,
                "{} no edible cookie left: {}",
                p,
                if my_turn {
                    "you ate the last one. You win."
                } else {
                    "I ate the last one. I win."
                }
            )?;
            w.flush()?;
            return Ok(ExitCode::SUCCESS);
        }
        if my_turn {
            let size = my_move(&p, &mut an);
            let next = eat(&p, size).expect("a legal move");
            let after = judge(&next, &mut an);
            let why = match after.d {
                Some(0) => "no options are left for you".to_string(),
                Some(d) => format!(
                    "D = {d} is even, so every option you have has D = {} (odd): Theorem 12(b)",
                    d - 1
                ),
                None => "a P-position (brute force): every option you have is N".into(),
            };
            writeln!(w, "I eat {size}: {next}, {}; {why}.", describe(&after))?;
            p = next;
        } else {
            write!(
                w,
                "{p} {}. Your move (size of a cookie to eat): ",
                describe(&here)
            )?;
            w.flush()?;
            let Some(line) = lines.next() else {
                bail!("input ended before the game did");
            };
            let line = line?;
            let size: u64 = match line.trim().parse() {
                Ok(x) => x,
                Err(_) => {
                    writeln!(w, "'{}' is not a size; eat one of {p}", line.trim())?;
                    continue;
                }
            };
            let Some(next) = eat(&p, size) else {
                writeln!(w, "no edible cookie of size {size} in {p}")?;
                continue;
            };
            let after = judge(&next, &mut an);
            let verdict = if after.n_position {
                match after.d {
                    Some(d) => format!(
                        "D = {d} is odd, so I have an option with D = {} (even)",
                        d - 1
                    ),
                    None => "an N-position (brute force): I have a move to a P-position".into(),
                }
            } else {
                "a P-position: that move wins for you".into()
            };
            writeln!(
                w,
                "You eat {size}: {next}, {}; {verdict}.",
                describe(&after)
            )?;
            p = next;
        }
        my_turn = !my_turn;
    }
}

/// The favoured player's move: Section 3's rule on the reduced form when it is strict
/// (carried back to a component of the position), else a P-option by brute force.
fn my_move(p: &Position, an: &mut Analyser<CookieGame>) -> u64 {
    let reduced = p.reduced();
    if let Some(m) = winning_rule(&reduced) {
        return p.components()[p.surplus() + m.k - 1];
    }
    brute_force_winning_sizes(an, p)
        .first()
        .copied()
        .expect("the favoured player has a winning move")
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
