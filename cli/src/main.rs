//! The `lastbite` command: a thin layer that parses flags, calls the library and prints.
//!
//! Exit codes: 0 on success, 1 when the input or the computation is refused (with a
//! one-line message on stderr), 2 on a command-line usage error or a request whose
//! estimated work is over `--max-seconds`, 3 when a `verify` finds the profile not
//! subgame perfect. A closed stdout (e.g.
//! `lastbite ... | head`) ends the program quietly with 0.

#![deny(missing_docs)]

mod cookie;
mod declared;
mod figure;
mod out;
mod progress;
mod serve;
mod shard;

use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// Exact subgame perfect play of turn-taking games, from the papers behind lastbite.
#[derive(Parser, Debug)]
#[command(name = "lastbite", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// With --json: the document broken over lines even when stdout is not a terminal
    /// (it is one compact line then, for the program reading it).
    #[arg(long, global = true)]
    pretty: bool,
}

/// The commands that are not analyses (the analyses are built from the library's command
/// table, [`declared`]).
#[derive(Subcommand, Debug)]
enum Command {
    /// The HTTP API and the explorer page on a local port (POST /api/<family>/<command>).
    Serve(serve::Args),
    /// Combine the shard documents of a sweep run with --shard I/N into its report.
    Merge(shard::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell) on stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout: `lastbite man > lastbite.1`.
    Man,
}

/// The families, in the order `--help` lists them, with their help lines.
const FAMILIES: [(&str, &str); 5] = [
    (
        "dinner",
        "Ethiopian Dinner: players take turns eating morsels (Levine & Stange 2012).",
    ),
    (
        "subtraction",
        "Self-interest cumulative subtraction games: FvF, FvA, AvF, AvA and zero-sum play.",
    ),
    (
        "tokens",
        "Token Dollars: placing tokens on stacks of money on a line or a clock.",
    ),
    (
        "cookie",
        "The cookie game: cookies with spoilage dates (Propp & Ullman 1990).",
    ),
    (
        "efg",
        "Any perfect-information game in Gambit's .efg format: subgame perfect equilibria with chance nodes and tie rules, profile checks, file summaries.",
    ),
];

/// What `--version` prints after the name: the version, the commit the binary was built
/// from (cli/build.rs) and every feature compiled in, the library's and the CLI's: what a
/// bug report needs.
fn version() -> String {
    let mut features = lastbite::build::features();
    if cfg!(feature = "png") {
        features.push("png");
    }
    if cfg!(feature = "gpu") && !features.contains(&"gpu") {
        features.push("gpu");
    }
    format!(
        "{} (commit {}; features: {})",
        env!("CARGO_PKG_VERSION"),
        env!("LASTBITE_COMMIT"),
        if features.is_empty() {
            "none".to_string()
        } else {
            features.join(", ")
        }
    )
}

/// The whole command line: the analyses from the library's command table, in families,
/// and the other commands.
fn cli() -> clap::Command {
    cli_for(None)
}

/// The analysis a command line names (`dinner solve`, `tokens`, `reproduce`), when it
/// names one and asks for no help: only that command's flags need building (a command's
/// are built from its request's schema; all of them take milliseconds, one a fraction).
fn named_command(args: &[std::ffi::OsString]) -> Option<(String, String)> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str())
        .collect::<Option<Vec<_>>>()?;
    if words
        .iter()
        .any(|w| matches!(*w, "-h" | "--help" | "help" | "-V" | "--version"))
    {
        return None;
    }
    let mut plain = words.iter().filter(|w| !w.starts_with('-'));
    let family = plain.next()?.to_string();
    let command = plain.next().map(|c| c.to_string()).unwrap_or_default();
    Some((family, command))
}

/// The command line, with every analysis's flags (`only: None`) or only those of the named
/// one (the others by name alone).
fn cli_for(only: Option<&(String, String)>) -> clap::Command {
    let full = |name: &str| match only {
        None => true,
        Some((family, command)) => match declared::cli_path(name) {
            (n, None) => n == family,
            (f, Some(c)) => f == family && (c == command || name == "tokens-solve"),
        },
    };
    // Each family's subcommands gathered first, each Command built once (a clap Command
    // is rebuilt by value: adding to one in a loop would copy it each time).
    let mut top: Vec<clap::Command> = Vec::new();
    let mut members: Vec<Vec<clap::Command>> = FAMILIES.iter().map(|_| Vec::new()).collect();
    let mut plain_tokens: Option<clap::Command> = None;
    for &name in lastbite::api::COMMANDS {
        let (family, command) = declared::cli_path(name);
        let sub = if full(name) {
            let info = declared::info(name).expect("a command of the table");
            // `lastbite tokens ...` alone solves: the family takes solve's flags.
            if name == "tokens-solve" {
                plain_tokens = Some(declared::subcommand(info, "solve"));
            }
            declared::subcommand(info, command.unwrap_or(family))
        } else {
            clap::Command::new(command.unwrap_or(family))
        };
        match FAMILIES.iter().position(|(f, _)| *f == family) {
            Some(i) => members[i].push(sub),
            None => top.push(sub),
        }
    }
    let cookie = FAMILIES
        .iter()
        .position(|(f, _)| *f == "cookie")
        .expect("cookie");
    members[cookie].push(cookie::PlayArgs::augment_args(
        clap::Command::new("play").about(cookie::PLAY_ABOUT),
    ));
    let families = FAMILIES.iter().zip(members).map(|((name, about), subs)| {
        let family = clap::Command::new(*name).about(*about).subcommands(subs);
        match (&plain_tokens, *name) {
            (Some(solve), "tokens") => family
                .args(solve.get_arguments().cloned())
                .args_conflicts_with_subcommands(true),
            _ => family
                .subcommand_required(true)
                .arg_required_else_help(true),
        }
    });
    // Reproduce and the families first, then serve, merge, completions.
    let derived = Cli::command();
    let others: Vec<clap::Command> = derived.get_subcommands().cloned().collect();
    let mut root = clap::Command::new("lastbite")
        .version(version())
        .about(derived.get_about().cloned().unwrap_or_default())
        .args(derived.get_arguments().cloned())
        .subcommand_required(true)
        .arg_required_else_help(true);
    for (order, c) in top.into_iter().chain(families).chain(others).enumerate() {
        root = root.subcommand(c.display_order(order));
    }
    root
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let named = named_command(&args);
    let matches = match cli_for(named.as_ref()).try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            eprintln!("{} (see --help)", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    out::set_pretty(matches.get_flag("pretty"));
    match run(&matches) {
        Ok(code) => code,
        Err(e) if out::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = format!("{e:#}").replace(['\n', '\r'], "; ");
            eprintln!("error: {msg}");
            // A request over its work budget is refused before any work, as a usage error
            // is: the flag that raises it is in the message.
            let over_cost = e
                .downcast_ref::<out::CliError>()
                .is_some_and(|c| matches!(c.0, lastbite::api::Error::OverCost { .. }));
            if over_cost {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Dispatches a parsed command line.
fn run(matches: &clap::ArgMatches) -> anyhow::Result<ExitCode> {
    let (name, sub) = matches.subcommand().expect("a subcommand is required");
    let api_name = match sub.subcommand() {
        _ if name == "reproduce" => "reproduce".to_string(),
        Some(("play", m)) if name == "cookie" => {
            cookie::play(cookie::PlayArgs::from_arg_matches(m)?)?;
            return Ok(ExitCode::SUCCESS);
        }
        Some((command, _)) if FAMILIES.iter().any(|(f, _)| *f == name) => {
            format!("{name}-{command}")
        }
        None if name == "tokens" => "tokens-solve".to_string(),
        _ => {
            return match Cli::from_arg_matches(matches)?.command {
                Command::Serve(args) => serve::run(args),
                Command::Merge(args) => shard::merge(args),
                Command::Completions { shell } => {
                    // Into a buffer first: clap_complete panics on a failed write (a closed pipe).
                    let mut script = Vec::new();
                    clap_complete::generate(shell, &mut cli(), "lastbite", &mut script);
                    out::to_stdout(|w| Ok(w.write_all(&script)?)).map(|()| ExitCode::SUCCESS)
                }
                Command::Man => {
                    let mut page = Vec::new();
                    clap_mangen::Man::new(cli()).render(&mut page)?;
                    out::to_stdout(|w| Ok(w.write_all(&page)?)).map(|()| ExitCode::SUCCESS)
                }
            };
        }
    };
    let info = declared::info(&api_name).expect("built from the command table");
    let m = match sub.subcommand() {
        Some((_, m)) => m,
        None => sub,
    };
    declared::run(info, m)
}

/// A clap error on one line, with everything useful in it: the missing arguments, the
/// valid values, the "did you mean" tip; not the usage, which `--help` shows.
fn one_line(rendered: &str) -> String {
    let body = rendered
        .split("\nUsage:")
        .next()
        .unwrap_or(rendered)
        .split("\nFor more information")
        .next()
        .unwrap_or(rendered);
    let mut out = String::new();
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !out.is_empty() {
            out.push_str(if line.starts_with("tip:") { "; " } else { " " });
        }
        out.push_str(line);
    }
    if out.is_empty() {
        "error: invalid arguments".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cli_definition_is_valid() {
        super::cli().debug_assert();
    }
}

/// The contract over the command table: every analysis command on every surface. A new
/// command that misses one fails here by name.
#[cfg(test)]
mod contract {
    use lastbite::api::{command_info, COMMANDS};

    fn doc(name: &str) -> String {
        let path = format!("{}/../docs/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn every_command_on_every_surface() {
        let root = super::cli();
        let examples = doc("examples.md");
        let python = doc("python.md");
        let mut problems = Vec::new();
        for &name in COMMANDS {
            let info = command_info(name).expect("a command of the table");
            let (family, command) = super::declared::cli_path(name);
            let mut cmd = root.find_subcommand(family).expect("a family");
            if let Some(c) = command {
                cmd = cmd.find_subcommand(c).expect("built from the table");
            }
            let has = |flag: &str| cmd.get_arguments().any(|a| a.get_long() == Some(flag));
            // A documented example that the docs test runs.
            let words = match command {
                Some(c) => format!("lastbite {family} {c}"),
                None => format!("lastbite {family}"),
            };
            let plain = name == "tokens-solve";
            let example = examples.lines().any(|l| {
                let l = l.trim_start_matches("$ ");
                l.starts_with(&format!("{words} "))
                    || (plain && l.starts_with("lastbite tokens --"))
            });
            if !example {
                problems.push(format!("{name}: no example in docs/examples.md"));
            }
            // A row in docs/python.md's table of functions.
            let function = command.unwrap_or(family).replace("-", "_");
            let module = if command.is_some() {
                format!("`lastbite.{family}`")
            } else {
                "`lastbite`".into()
            };
            let row = python.lines().any(|l| {
                l.starts_with(&format!("| {module} |")) && l.contains(&format!("`{function}`"))
            });
            if !row {
                problems.push(format!("{name}: no `{function}` in docs/python.md's table"));
            }
            // Exports exactly where the report has them.
            for (flag, wanted) in [
                ("json", true),
                ("output", true),
                ("latex", info.tables),
                ("svg", info.picture),
                ("png", info.picture),
                ("tikz", info.picture),
                ("standalone", info.tables || info.picture),
                ("shard", info.sweep),
            ] {
                if has(flag) != wanted {
                    problems.push(format!(
                        "{name}: --{flag} {}",
                        if wanted {
                            "missing"
                        } else {
                            "where the report has no use for it"
                        }
                    ));
                }
            }
            // One export convention: each export takes an optional FILE (none: stdout).
            // (`subtraction scan --csv` is a request field: its records' format, written
            // where `--out` says.)
            for a in cmd.get_arguments() {
                let long = a.get_long().unwrap_or("");
                let id = a.get_id().as_str();
                if ["latex", "csv_table", "svg", "png", "tikz"].contains(&id) {
                    let n = a.get_num_args().expect("built");
                    if n.min_values() != 0 || n.max_values() != 1 {
                        problems.push(format!("{name}: --{long} does not take an optional FILE"));
                    }
                }
            }
            // Every field with help, and a closed set of values as an enum: a text field
            // whose help lists its values as `a|b|c` would lose them in the schema.
            let props = info.request["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for (field, prop) in props {
                let help = prop["description"].as_str().unwrap_or("");
                if help.trim().is_empty() {
                    problems.push(format!("{name}: field {field} has no help"));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
