//! `lastbite efg ...`: games in Gambit's `.efg` format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use lastbite::api::efg as api;
use lastbite::api::Control;
use lastbite::games::efg::{DEFAULT_MAX_NODES, DEFAULT_MAX_OUTCOMES};

use crate::out::{call, emit};
use crate::progress::Bar;

/// The `efg` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The subgame perfect equilibrium of a perfect-information game: the payoff vector at
    /// the root and at every node, and the action at every information set (also as a
    /// Gambit behaviour profile).
    Solve(SolveArgs),
    /// Is a behaviour profile (Gambit's NE,... form) subgame perfect? If not, the first
    /// node where a one-shot deviation pays.
    Verify(VerifyArgs),
    /// What a file holds: players, nodes, depth, chance nodes, perfect information, and
    /// the size of each player's (reduced) strategy set.
    Info(InfoArgs),
    /// Write a random perfect-information game (for tests and benchmarks).
    Random(RandomArgs),
    /// Draw the game tree with its subgame perfect equilibrium: the equilibrium play
    /// thick, every move the tie rules chose highlighted, payoffs at the leaves (SVG,
    /// PNG, TikZ).
    Draw(DrawArgs),
}

/// The drawing flags of every tree command.
#[derive(Args, Debug)]
pub struct TreeFlags {
    /// Root on the left, levels to the right (default: root on top).
    #[arg(long)]
    pub horizontal: bool,
    /// Write each inner node's equilibrium value beside it.
    #[arg(long)]
    pub values: bool,
    /// Ring the leaves that pure subgame perfect equilibria reach, and list their payoffs.
    #[arg(long)]
    pub spe: bool,
    /// Draw at most this many nodes; subtrees past it are folded into triangles.
    #[arg(long, default_value_t = 300)]
    pub draw_nodes: u64,
    #[command(flatten)]
    pub out: crate::figure::PictureOut,
    /// Print the drawn tree (every node, its box and flags) as one JSON document.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `efg draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// The .efg file.
    file: PathBuf,
    /// Tie rule for everyone (friendly, antagonistic, first, last) or per player.
    #[arg(long, default_value = "first")]
    ties: String,
    /// Refuse files with more nodes than this.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
    #[command(flatten)]
    tree: TreeFlags,
}

/// Arguments of `efg solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The .efg file.
    file: PathBuf,
    /// Tie rule for everyone (friendly, antagonistic, first, last) or per player, e.g.
    /// A=friendly,B=antagonistic (players by letter, number from 1, or name).
    #[arg(long, default_value = "first")]
    ties: String,
    /// Also list the payoff vectors of all pure subgame perfect equilibria.
    #[arg(long)]
    all: bool,
    /// Explain every node the equilibrium play reaches: each action's payoff vector and
    /// the rule that chose.
    #[arg(long)]
    explain: bool,
    /// Explain from this node (number in file order, 0 = root; implies --explain).
    #[arg(long)]
    at: Option<u64>,
    /// Leave the per-node table out of the JSON (root value and profile only).
    #[arg(long)]
    root_only: bool,
    /// Refuse files with more nodes than this.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
    /// Refuse --all when a node has more pure SPE payoff vectors than this.
    #[arg(long, default_value_t = DEFAULT_MAX_OUTCOMES)]
    max_outcomes: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `efg verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The .efg file.
    file: PathBuf,
    /// The profile: every action's probability, comma separated, players in order, each
    /// player's information sets in order of appearance (as Gambit prints NE,...), or
    /// @PATH for a file holding it.
    #[arg(long)]
    profile: String,
    /// Refuse files with more nodes than this.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `efg info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The .efg file.
    file: PathBuf,
    /// Refuse files with more nodes than this.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: crate::out::LatexArgs,
}

/// Arguments of `efg random`.
#[derive(Args, Debug)]
pub struct RandomArgs {
    /// Number of nodes.
    #[arg(long, default_value_t = 100)]
    nodes: u64,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    players: u32,
    /// The most actions at a node.
    #[arg(long, default_value_t = 3)]
    max_actions: u32,
    /// Percent of inner nodes that are chance nodes.
    #[arg(long, default_value_t = 20)]
    chance: u32,
    /// Percent of inner nodes that carry an outcome.
    #[arg(long, default_value_t = 20)]
    outcomes: u32,
    /// Payoffs are integers from -R to R.
    #[arg(long, default_value_t = 3)]
    payoff_range: u32,
    /// The random stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn path(p: PathBuf) -> Option<String> {
    Some(p.to_string_lossy().into_owned())
}

/// Runs an efg command.
pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    let bar = Bar::new();
    let ctl = Control::new(&bar);
    match cmd {
        Command::Solve(a) => {
            let req = api::SolveRequest {
                file: path(a.file),
                data: None,
                ties: a.ties,
                all: a.all,
                explain: a.explain,
                at: a.at,
                // The text output shows no per-node table: do not build one.
                root_only: a.root_only || !a.json,
                max_nodes: a.max_nodes,
                max_outcomes: a.max_outcomes,
            };
            emit(&call(api::solve(&req, &ctl))?, a.json)?;
        }
        Command::Verify(a) => {
            let req = api::VerifyRequest {
                file: path(a.file),
                data: None,
                profile: Some(a.profile),
                max_nodes: a.max_nodes,
            };
            let report = call(api::verify(&req, &ctl))?;
            emit(&report, a.json)?;
            return Ok(crate::out::verdict(report.subgame_perfect));
        }
        Command::Info(a) => {
            let req = api::InfoRequest {
                file: path(a.file),
                data: None,
                max_nodes: a.max_nodes,
            };
            crate::out::emit_table(&call(api::info(&req, &ctl))?, a.json, &a.latex)?;
        }
        Command::Draw(a) => {
            let t = a.tree;
            t.out.check(t.json)?;
            let req = api::DrawRequest {
                file: path(a.file),
                data: None,
                ties: a.ties,
                max_nodes: a.max_nodes,
                horizontal: t.horizontal,
                values: t.values,
                spe: t.spe,
                draw_nodes: t.draw_nodes,
            };
            let report = call(api::draw(&req, &ctl))?;
            t.out.write_opt(Some(&report.svg))?;
            emit(&report, t.json)?;
        }
        Command::Random(a) => {
            let req = api::RandomRequest {
                nodes: a.nodes,
                players: a.players,
                max_actions: a.max_actions,
                chance: a.chance,
                outcomes: a.outcomes,
                payoff_range: a.payoff_range,
                seed: a.seed,
            };
            let report = call(api::random(&req, &ctl))?;
            match &a.output {
                Some(path) => std::fs::write(path, &report.efg)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => emit(&report, false)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
