//! The `lastbite` command: a thin layer that parses flags, calls the library and prints.
//!
//! Exit codes: 0 on success, 1 when the input or the computation is refused (with a
//! one-line message on stderr), 2 on a command-line usage error, 3 when a `verify`
//! finds the profile not subgame perfect. A closed stdout (e.g.
//! `lastbite ... | head`) ends the program quietly with 0.

#![deny(missing_docs)]

mod cookie;
mod dinner;
mod efg;
mod figure;
mod out;
mod progress;
mod reproduce;
mod serve;
mod shard;
mod subtraction;
mod tokens;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run; boxing buys nothing
enum Command {
    /// Recompute the papers' published results and mark each pass or fail.
    Reproduce(reproduce::Args),
    /// Ethiopian Dinner: players take turns eating morsels (Levine & Stange 2012).
    #[command(subcommand)]
    Dinner(dinner::Command),
    /// Self-interest cumulative subtraction games: FvF, FvA, AvF, AvA and zero-sum play.
    #[command(subcommand)]
    Subtraction(subtraction::Command),
    /// Token Dollars: placing tokens on stacks of money on a line or a clock.
    Tokens(tokens::TokensArgs),
    /// The cookie game: cookies with spoilage dates (Propp & Ullman 1990).
    #[command(subcommand)]
    Cookie(cookie::Command),
    /// Any perfect-information game in Gambit's .efg format: subgame perfect equilibria
    /// with chance nodes and tie rules, profile checks, file summaries.
    #[command(subcommand)]
    Efg(efg::Command),
    /// The HTTP API and the explorer page on a local port (POST /api/<family>/<command>).
    Serve(serve::Args),
    /// Combine the shard documents of a sweep run with --shard I/N into its report.
    Merge(shard::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell) on stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
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
    out::set_pretty(cli.pretty);
    let result = match cli.command {
        Command::Reproduce(args) => reproduce::run(args),
        Command::Dinner(cmd) => dinner::run(cmd),
        Command::Subtraction(cmd) => subtraction::run(cmd),
        Command::Tokens(a) => tokens::run(a),
        Command::Cookie(cmd) => cookie::run(cmd),
        Command::Efg(cmd) => efg::run(cmd),
        Command::Serve(args) => serve::run(args),
        Command::Merge(args) => shard::merge(args),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            use std::io::Write;
            // Into a buffer first: clap_complete panics on a failed write (a closed pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "lastbite", &mut script);
            std::io::stdout()
                .write_all(&script)
                .map(|()| ExitCode::SUCCESS)
                .map_err(Into::into)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) if out::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = format!("{e:#}").replace(['\n', '\r'], "; ");
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
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
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_valid() {
        super::Cli::command().debug_assert();
    }
}

/// Each request field declared once: the CLI's flags are tested against the library's
/// request types, so a default cannot drift from `Request::default()`.
#[cfg(test)]
mod fields {
    use clap::CommandFactory;
    use serde_json::Value;

    /// Request fields with no flag of the same name, and why (the CLI reaches them
    /// another way, or they make sense only to programs).
    const API_ONLY: &[(&str, &str, &str)] = &[
        (
            "*",
            "picture",
            "whether to draw the SVG into the report: the CLI draws it into --svg/--png files",
        ),
        (
            "*",
            "data",
            "a dinner file's contents, for callers without files: the CLI reads --file",
        ),
    ];

    /// The CLI's subcommand path of an API command.
    fn path(command: &str) -> Vec<&str> {
        match command {
            "reproduce" => vec!["reproduce"],
            "tokens-solve" => vec!["tokens", "solve"],
            c => c.splitn(2, '-').collect(),
        }
    }

    /// Every argument of a subcommand, by id, with its default (as clap holds it).
    fn args(cmd: &clap::Command) -> Vec<(String, Option<String>, bool)> {
        cmd.get_arguments()
            .map(|a| {
                let d = a
                    .get_default_values()
                    .iter()
                    .map(|v| v.to_string_lossy().into_owned())
                    .collect::<Vec<_>>();
                (
                    a.get_id().to_string(),
                    (!d.is_empty()).then(|| d.join(",")),
                    a.get_long().is_some() || a.is_positional(),
                )
            })
            .collect()
    }

    /// A request default as the CLI would write it.
    fn cli_text(v: &Value) -> Option<String> {
        match v {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            Value::Array(a) => Some(a.iter().filter_map(cli_text).collect::<Vec<_>>().join(",")),
            other => Some(other.to_string()),
        }
    }

    #[test]
    fn cli_defaults_are_the_request_defaults() {
        let schemas: std::collections::HashMap<String, Value> =
            lastbite::api::schemas().into_iter().collect();
        let root = super::Cli::command();
        let mut problems = Vec::new();
        let mut used = [false; API_ONLY.len()];
        for &command in lastbite::api::COMMANDS {
            let mut cmd = &root;
            for name in path(command) {
                cmd = cmd
                    .find_subcommand(name)
                    .unwrap_or_else(|| panic!("{command}: no CLI subcommand {name}"));
            }
            let args = args(cmd);
            let schema = &schemas[&format!("{command}.request")];
            let props = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for (field, prop) in props {
                let request_default = prop.get("default").and_then(cli_text);
                match args.iter().find(|(id, _, _)| *id == field) {
                    Some((_, cli_default, _)) => {
                        // A flag without a default (an Option, a bool) leaves the
                        // request's default in force: only a written default can drift.
                        let cli = cli_default.clone().filter(|d| d != "false");
                        if cli.is_some() && cli != request_default {
                            problems.push(format!(
                                "{command}: --{} defaults to {cli:?}, the request to {request_default:?}",
                                field.replace('_', "-")
                            ));
                        }
                    }
                    None => {
                        let note = API_ONLY
                            .iter()
                            .position(|(c, f, _)| (*c == "*" || *c == command) && *f == field);
                        if let Some(i) = note {
                            used[i] = true;
                        } else {
                            problems.push(format!(
                                "{command}: field {field} has no flag and no API-only note"
                            ));
                        }
                    }
                }
            }
        }
        for (i, (c, f, _)) in API_ONLY.iter().enumerate() {
            if !used[i] {
                problems.push(format!("API-only note for {c} {f} names no such field"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
