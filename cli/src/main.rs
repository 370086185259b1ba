//! The `lastbite` command: a thin layer that parses flags, calls the library and prints.
//!
//! Exit codes: 0 on success, 1 when the input or the computation is refused (with a
//! one-line message on stderr), 2 on a command-line usage error. A closed stdout (e.g.
//! `lastbite ... | head`) ends the program quietly with 0.

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
            // One line: clap's first line names the problem; the usage follows on --help.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            eprintln!("{first} (see --help)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Reproduce(args) => reproduce::run(args),
        Command::Dinner(cmd) => dinner::run(cmd),
        Command::Subtraction(cmd) => subtraction::run(cmd),
        Command::Tokens(a) => tokens::run(a),
        Command::Cookie(cmd) => cookie::run(cmd),
        Command::Efg(cmd) => efg::run(cmd),
        Command::Serve(args) => serve::run(args),
        Command::Merge(args) => shard::merge(args),
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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_valid() {
        super::Cli::command().debug_assert();
    }
}
