//! `lastbite tokens ...`: Token Dollars.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use lastbite::api::tokens as api;
use lastbite::api::Control;

use crate::out::{self, call};

/// Token Dollars: solve a game, or (`seats`) tabulate what each seat is worth.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TokensArgs {
    #[command(subcommand)]
    sub: Option<Sub>,
    #[command(flatten)]
    game: GameArgs,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Solve a game (the same as `lastbite tokens` with these flags: the API's, Python's
    /// and HTTP's `tokens solve`).
    Solve(GameArgs),
    /// What going first is worth: each seat's equilibrium payoff for every number of
    /// players up to --max-players.
    Seats(SeatsArgs),
}

/// The board and the solution options.
#[derive(Args, Debug)]
struct GameArgs {
    /// Stacks worth $1..$M at positions 1..M.
    #[arg(long, default_value_t = 10, conflicts_with = "values")]
    stacks: usize,
    /// Stack values at positions 1, 2, ... (exact, non-negative), e.g. 1,2,3.5.
    #[arg(long)]
    values: Option<String>,
    /// Number of players (placing in turn).
    #[arg(long, default_value_t = 3)]
    players: usize,
    /// Stacks on a clock (circular distance) instead of a line.
    #[arg(long)]
    clock: bool,
    /// lowest (alias first: the reference program's rule), highest (alias last),
    /// friendly, antagonistic ("all" is the older spelling of --all).
    #[arg(long, default_value = "lowest")]
    ties: String,
    /// Also list the payoff vectors of all pure subgame perfect equilibria.
    #[arg(long)]
    all: bool,
    /// Tokens anywhere on the line (or clock): solve on the grids of step 1, 1/2, 1/4,
    /// ... down to 1/--grid, and report best responses as intervals.
    #[arg(long)]
    continuous: bool,
    /// The finest grid refinement K (a power of two) for --continuous.
    #[arg(long, default_value_t = 8, requires = "continuous")]
    grid: usize,
    /// Refuse games with more memoised sets of taken stacks than this.
    #[arg(long, default_value_t = api::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Explain the next player's choice after these placements (stacks in turn order,
    /// e.g. 3,9): every free stack with the payoffs it leads to.
    #[arg(long, value_delimiter = ',')]
    at: Option<Vec<usize>>,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
    /// The board (discrete game): the equilibrium's tokens (or those of --at) and each
    /// stack's territory.
    #[command(flatten)]
    out: crate::figure::PictureOut,
}

#[derive(Args, Debug)]
struct SeatsArgs {
    /// Stacks worth $1..$M.
    #[arg(long, default_value_t = 10)]
    stacks: usize,
    /// Largest number of players.
    #[arg(long, default_value_t = 10)]
    max_players: usize,
    /// Stacks on a clock.
    #[arg(long)]
    clock: bool,
    /// Refuse games with more memoised sets of taken stacks than this.
    #[arg(long, default_value_t = api::DEFAULT_MAX_STATES)]
    max_states: u64,
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: out::LatexArgs,
}

/// Runs `lastbite tokens`.
pub fn run(a: TokensArgs) -> anyhow::Result<ExitCode> {
    let ctl = Control::silent();
    match a.sub {
        Some(Sub::Seats(s)) => {
            let req = api::SeatsRequest {
                stacks: s.stacks,
                max_players: s.max_players,
                clock: s.clock,
                picture: s.out.requested(),
                max_states: s.max_states,
            };
            let report = call(api::seats(&req, &ctl))?;
            s.out.write_opt(report.svg.as_deref())?;
            out::emit_table(&report, s.json, &s.latex)?;
        }
        sub @ (Some(Sub::Solve(_)) | None) => {
            let g = match sub {
                Some(Sub::Solve(g)) => g,
                _ => a.game,
            };
            let req = api::SolveRequest {
                stacks: g.stacks,
                values: g.values,
                players: g.players,
                clock: g.clock,
                ties: g.ties,
                all: g.all,
                continuous: g.continuous,
                grid: g.grid,
                max_states: g.max_states,
                at: g.at,
                picture: g.out.requested(),
            };
            let report = call(api::solve(&req, &ctl))?;
            if let api::SolveReport::Discrete(d) = &report {
                g.out.write_opt(d.svg.as_deref())?;
            }
            out::emit_table(&report, g.json, &g.latex)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
