//! `lastbite tokens ...`: Token Dollars.

use std::io::Write;
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, Subcommand};
use lastbite::exact::Exact;
use lastbite::games::tokens::{
    all_outcomes, continuous as grids, limit_intervals, solve, Board, TokenTies,
};
use serde_json::{json, Value};

use crate::out;

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
    /// lowest (the reference program's rule), highest, friendly, antagonistic, or all
    /// (every pure SPE outcome, besides the lowest-rule play).
    #[arg(long, default_value = "lowest")]
    ties: String,
    /// Tokens anywhere on the line (or clock): solve on the grids of step 1, 1/2, 1/4,
    /// ... down to 1/--grid, and report best responses as intervals.
    #[arg(long)]
    continuous: bool,
    /// The finest grid refinement K (a power of two) for --continuous.
    #[arg(long, default_value_t = 8, requires = "continuous")]
    grid: usize,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
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
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Runs `lastbite tokens`.
pub fn run(a: TokensArgs) -> anyhow::Result<ExitCode> {
    match a.sub {
        Some(Sub::Seats(s)) => seats(s),
        None => game(a.game),
    }
}

fn board(g: &GameArgs) -> anyhow::Result<Board> {
    Ok(match &g.values {
        Some(v) => Board::parse_values(v, g.players, g.clock)?,
        None => Board::dollars(g.stacks, g.players, g.clock)?,
    })
}

fn exact(b: &Board, v: i64) -> Value {
    out::exact(&b.real(v))
}

fn game(g: GameArgs) -> anyhow::Result<ExitCode> {
    if g.continuous {
        return continuous(&g);
    }
    let b = board(&g)?;
    let all = g.ties.trim().eq_ignore_ascii_case("all");
    let rule = if all {
        TokenTies::Lowest
    } else {
        match TokenTies::parse(&g.ties) {
            Some(r) => r,
            None => bail!(
                "--ties '{}': expected lowest, highest, friendly, antagonistic or all",
                g.ties
            ),
        }
    };
    let play = solve(&b, rule);
    let outcomes = all.then(|| all_outcomes(&b));
    if g.json {
        let mut doc = json!({
            "stacks": b.stacks(),
            "players": b.players(),
            "clock": b.clock(),
            "tie_rule": g.ties.to_ascii_lowercase(),
            "moves": play.moves,
            "payoffs": play.payoffs.iter().map(|&v| exact(&b, v)).collect::<Vec<_>>(),
            "ties": play.ties,
        });
        if let Some(o) = &outcomes {
            doc.as_object_mut().expect("object").insert(
                "outcomes".into(),
                Value::Array(
                    o.iter()
                        .map(|v| Value::Array(v.iter().map(|&x| exact(&b, x)).collect()))
                        .collect(),
                ),
            );
        }
        out::print_json(&doc)?;
    } else {
        let mut w = out::stdout();
        writeln!(w, "{b}, ties {}", g.ties.to_ascii_lowercase())?;
        for (i, (m, p)) in play.moves.iter().zip(&play.payoffs).enumerate() {
            writeln!(
                w,
                "  player {} places on stack {m:>3}  payoff {}",
                i + 1,
                b.real(*p)
            )?;
        }
        for t in &play.ties {
            writeln!(w, "  tie: the mover was indifferent after {t:?}")?;
        }
        if let Some(o) = &outcomes {
            writeln!(w, "all pure SPE outcomes ({}):", o.len())?;
            for v in o {
                let parts: Vec<String> = v.iter().map(|&x| b.real(x).to_string()).collect();
                writeln!(w, "  ({})", parts.join(", "))?;
            }
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn seats(s: SeatsArgs) -> anyhow::Result<ExitCode> {
    if s.max_players == 0 || s.max_players > s.stacks {
        bail!(
            "--max-players {}: use 1..={} (one token per stack)",
            s.max_players,
            s.stacks
        );
    }
    let mut rows = Vec::new();
    for p in 1..=s.max_players {
        let b = Board::dollars(s.stacks, p, s.clock)?;
        let play = solve(&b, TokenTies::Lowest);
        rows.push((b, play));
    }
    if s.out.requested() {
        let f = |b: &Board, v: i64| {
            let x = b.real(v);
            x.numer() as f64 / x.denom() as f64
        };
        let colors = [
            "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf",
        ];
        let series = (0..s.max_players.min(10))
            .map(|seat| lastbite::svg::Series {
                name: format!("seat {}", seat + 1),
                color: colors[seat].into(),
                mark: lastbite::svg::Mark::Line,
                points: rows
                    .iter()
                    .filter(|(b, _)| b.players() > seat)
                    .map(|(b, p)| (b.players() as f64, f(b, p.payoffs[seat])))
                    .collect(),
            })
            .collect();
        let chart = lastbite::svg::Chart {
            title: format!(
                "What each seat is worth, $1..${} on a {}",
                s.stacks,
                if s.clock { "clock" } else { "line" }
            ),
            x_label: "number of players".into(),
            y_label: "equilibrium payoff ($)".into(),
            series,
        };
        s.out
            .write(&chart.to_svg(760.0, 560.0 + 18.0 * s.max_players.min(10) as f64))?;
    }
    if s.json {
        out::print_json(&json!({
            "stacks": s.stacks,
            "clock": s.clock,
            "rows": rows.iter().map(|(b, p)| json!({
                "players": b.players(),
                "moves": p.moves,
                "payoffs": p.payoffs.iter().map(|&v| exact(b, v)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "Equilibrium payoff of each seat, $1..${} on a {} (lowest-stack ties)",
            s.stacks,
            if s.clock { "clock" } else { "line" }
        )?;
        for (b, p) in &rows {
            let parts: Vec<String> = p.payoffs.iter().map(|&v| b.real(v).to_string()).collect();
            writeln!(w, "{:>3} players: {}", b.players(), parts.join("  "))?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn continuous(g: &GameArgs) -> anyhow::Result<ExitCode> {
    if !g.grid.is_power_of_two() || g.grid > 64 {
        bail!("--grid {}: use a power of two up to 64", g.grid);
    }
    if !g.ties.eq_ignore_ascii_case("lowest") {
        bail!("--continuous uses the lowest-location tie rule; drop --ties");
    }
    let values: Vec<Exact> = match &g.values {
        Some(v) => v
            .split(',')
            .enumerate()
            .map(|(i, t)| {
                t.trim()
                    .parse::<Exact>()
                    .map_err(|e| anyhow::anyhow!("stack value {} ('{}'): {e}", i + 1, t.trim()))
            })
            .collect::<anyhow::Result<_>>()?,
        None => (1..=g.stacks as i128).map(Exact::integer).collect(),
    };
    let ks: Vec<usize> = (0..=g.grid.trailing_zeros()).map(|e| 1usize << e).collect();
    let plays = grids(&values, g.players, g.clock, &ks)?;
    let limits = limit_intervals(&plays);
    if g.json {
        let grid_json: Vec<Value> = plays
            .iter()
            .map(|p| {
                json!({
                    "k": p.k,
                    "moves": p.moves.iter().map(out::exact).collect::<Vec<_>>(),
                    "payoffs": p.payoffs.iter().map(out::exact).collect::<Vec<_>>(),
                    "best_responses": p.best.iter().map(|r| r.iter().map(|(a, z)| json!([out::exact(a), out::exact(z)])).collect::<Vec<_>>()).collect::<Vec<_>>(),
                })
            })
            .collect();
        let finest = plays.last().expect("at least one grid");
        out::print_json(&json!({
            "stacks": values.len(),
            "players": g.players,
            "clock": g.clock,
            "continuous": true,
            "moves": finest.moves.iter().map(out::exact).collect::<Vec<_>>(),
            "payoffs": finest.payoffs.iter().map(out::exact).collect::<Vec<_>>(),
            "grids": grid_json,
            "best_response_intervals": limits,
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "{} stacks on a {}, {} players, tokens anywhere (grids of step 1 to 1/{})",
            values.len(),
            if g.clock { "clock" } else { "line" },
            g.players,
            g.grid
        )?;
        for p in &plays {
            let moves: Vec<String> = p.moves.iter().map(|x| x.to_string()).collect();
            let pays: Vec<String> = p.payoffs.iter().map(|x| x.to_string()).collect();
            writeln!(
                w,
                "  step 1/{:<3} locations {:<28} payoffs {}",
                p.k,
                moves.join(", "),
                pays.join(", ")
            )?;
        }
        for (i, l) in limits.iter().enumerate() {
            writeln!(w, "  player {} is indifferent on {}", i + 1, l.join(" U "))?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
