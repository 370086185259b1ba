//! `lastbite cookie ...`: the cookie game.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, Subcommand};
use lastbite::api::cookie::{self as api, Components, Match};
use lastbite::api::Control;

use crate::out::{self, call, emit};
use crate::progress::Bar;

/// Cookie-game commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse a position: its reduction, D-value and type by the theory, and (for up to
    /// 24 components) Grundy value, remoteness, suspense and winning moves by brute force.
    Analyze(AnalyzeArgs),
    /// Play a position against the favoured player (lastbite), who explains each move by
    /// D-values; read your moves (sizes of cookies to eat) from stdin.
    Play(PlayArgs),
    /// The critical positions C^{n,d} for n up to --max-size.
    Critical(CriticalArgs),
    /// How many strict n-component positions have each D-value (by lattice paths up to
    /// n = 1000, exact; or by enumerating all 2^(n-1) strict positions up to n = 28).
    Table(TableArgs),
    /// The distribution of nim-values of all strict positions up to --max-size components
    /// (a 4-bit table over subset codes up to n = 34; or the engine's brute force up to 20).
    Nim(NimArgs),
    /// Every reduced position (not only strict ones) up to --max-size components: type,
    /// nim-value, remoteness, suspense and strategic duration, counted by n (Catalan many
    /// positions: 1.3 x 10^8 at n = 17).
    General(GeneralArgs),
}

/// Arguments of `cookie general`.
#[derive(Args, Debug)]
pub struct GeneralArgs {
    /// Largest size (number of components).
    #[arg(long, visible_alias = "max-n", default_value_t = 12)]
    max_size: u64,
    /// Keep each finished layer in this directory and resume from the layers found there.
    #[arg(long, value_name = "DIR")]
    store: Option<std::path::PathBuf>,
    /// Memory budget of the table, in GiB (4 bytes a reduced position, every layer held).
    #[arg(long, value_name = "GIB", default_value_t = 8)]
    memory_gib: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
}

/// Arguments of `cookie nim`.
#[derive(Args, Debug)]
pub struct NimArgs {
    /// Largest size (number of components).
    #[arg(long, visible_alias = "max-n", default_value_t = 16)]
    max_size: u64,
    /// Use the engine's brute force (memoised search over positions) instead of the table.
    #[arg(long)]
    engine: bool,
    /// Keep each finished layer in this directory and resume from the layers found there.
    #[arg(long, value_name = "DIR", conflicts_with = "engine")]
    store: Option<std::path::PathBuf>,
    /// Memory budget of the table, in GiB (layers it must hold at once).
    #[arg(long, value_name = "GIB", default_value_t = 8)]
    memory_gib: u64,
    /// Bits a position in the table: 2 (values of 4 and more kept aside exactly) or 4.
    #[arg(long, default_value_t = 2)]
    bits: u8,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
}

/// Arguments of `cookie table`.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Largest size (number of components).
    #[arg(long, visible_alias = "max-n", default_value_t = 16)]
    max_size: u64,
    /// Enumerate every strict position instead of counting lattice paths.
    #[arg(long)]
    enumerate: bool,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
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
    /// Also analyse every move: the position each distinct component size eaten leaves,
    /// its type, D-value and winning interval.
    #[arg(long)]
    explain: bool,
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
    /// Largest size (number of components).
    #[arg(long, visible_alias = "max-n", default_value_t = 9)]
    max_size: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
}

/// Runs a cookie command.
pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Analyze(a) => {
            let req = api::AnalyzeRequest {
                components: (!a.components.is_empty())
                    .then(|| Components::Text(a.components.join(" "))),
                from: match &a.from {
                    Some(p) if p.as_os_str() == "-" => None,
                    other => other.as_ref().map(|p| p.display().to_string()),
                },
                explain: a.explain,
            };
            // `--from -` reads the components from stdin.
            let req = match &a.from {
                Some(p) if p.as_os_str() == "-" => api::AnalyzeRequest {
                    components: Some(Components::Text(std::io::read_to_string(std::io::stdin())?)),
                    from: None,
                    explain: a.explain,
                },
                _ => req,
            };
            emit(&call(api::analyze(&req, &Control::silent()))?, a.json)?;
        }
        Command::Play(a) => play(a)?,
        Command::Critical(a) => {
            let req = api::CriticalRequest {
                max_size: a.max_size,
            };
            out::emit_table(
                &call(api::critical(&req, &Control::silent()))?,
                a.json,
                &a.latex,
            )?;
        }
        Command::Table(a) => {
            let bar = if a.enumerate {
                Bar::with_threshold(1 << 22)
            } else {
                Bar::with_threshold(300)
            };
            let req = api::TableRequest {
                max_size: a.max_size,
                enumerate: a.enumerate,
            };
            out::emit_table(
                &call(api::table(&req, &Control::new(&bar)))?,
                a.json,
                &a.latex,
            )?;
        }
        Command::Nim(a) => {
            let bar = Bar::with_threshold(1 << 20);
            let req = api::NimRequest {
                max_size: a.max_size,
                engine: a.engine,
                store: a.store.map(|p| p.display().to_string()),
                memory_gib: a.memory_gib,
                bits: a.bits,
            };
            out::emit_table(
                &call(api::nim(&req, &Control::new(&bar)))?,
                a.json,
                &a.latex,
            )?;
        }
        Command::General(a) => {
            let bar = Bar::with_threshold(1 << 20);
            let req = api::GeneralRequest {
                max_size: a.max_size,
                store: a.store.map(|p| p.display().to_string()),
                memory_gib: a.memory_gib,
            };
            out::emit_table(
                &call(api::general(&req, &Control::new(&bar)))?,
                a.json,
                &a.latex,
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Relays a game of the library's [`Match`] between stdin and stdout.
fn play(a: PlayArgs) -> anyhow::Result<()> {
    let mut game = call(Match::new(&Components::Text(a.components.join(" "))))?;
    let mut w = out::stdout();
    let mut lines = std::io::stdin().lock().lines();
    writeln!(w, "{}", game.opening())?;
    loop {
        if let Some(end) = game.finished() {
            writeln!(w, "{end}")?;
            w.flush()?;
            return Ok(());
        }
        if game.lastbite_to_move() {
            writeln!(w, "{}", game.favoured_move())?;
        } else {
            write!(w, "{}", game.prompt())?;
            w.flush()?;
            let Some(line) = lines.next() else {
                bail!("input ended before the game did");
            };
            match game.answer(&line?) {
                Ok(text) | Err(text) => writeln!(w, "{text}")?,
            }
        }
    }
}
