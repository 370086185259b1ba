//! `lastbite dinner ...`: Ethiopian Dinner commands.

use std::fs;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use lastbite::engine::{self, verify, write_efg, Budget, Ties, Verdict};
use lastbite::exact::Exact;
use lastbite::games::dinner::{
    all_spe_scores, crossout, evaluate, solve_exact, Bite, Dinner, DinnerGame, DinnerTies,
    Strategy, TurnOrder,
};
use serde_json::{json, Value};

use crate::out::{self, letter};
use crate::progress::Bar;

/// Ethiopian Dinner commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a dinner: crossout (two players) or the exact subgame perfect equilibrium.
    Solve(SolveArgs),
    /// Play a strategy profile and report each player's score v_P(s, t).
    Play(PlayArgs),
    /// Check a strategy profile for subgame perfection (one-shot deviations).
    Verify(PlayArgs),
    /// Export the dinner's game tree as a Gambit .efg file (small dinners).
    Efg(EfgArgs),
}

/// Where the dinner and its turn order come from.
#[derive(Args, Debug)]
pub struct Input {
    /// A dinner file: CSV (one morsel per line, one column per player, optional header),
    /// JSON or TOML; `-` reads stdin.
    file: Option<PathBuf>,
    /// Morsels inline, e.g. "1,2 2,3 3,1" (utilities separated by commas).
    #[arg(long, conflicts_with = "file")]
    morsels: Option<String>,
    /// Alternate turns starting with this player (default: Bob moves last).
    #[arg(long, value_enum, conflicts_with = "order")]
    first: Option<First>,
    /// Explicit turn order (letters, e.g. ABBA), `thue-morse` or `alternate`.
    #[arg(long)]
    order: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum First {
    Alice,
    Bob,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Auto,
    Crossout,
    Exact,
}

/// Arguments of `dinner solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    input: Input,
    /// auto: crossout for two players with the index tie rule, exact otherwise.
    #[arg(long, value_enum, default_value = "auto")]
    method: Method,
    /// Tie-breaking: `index` (earlier morsel counts as tastier; agrees with crossout) or
    /// the engine's friendly|antagonistic|first|last, for all players or per player
    /// (`A=friendly,B=antagonistic`).
    #[arg(long, default_value = "index")]
    ties: String,
    /// Also list the score vectors of all pure subgame perfect equilibria.
    #[arg(long)]
    all: bool,
    /// Explain the choice at a state: every legal move and the payoffs it leads to.
    #[arg(long)]
    explain: bool,
    /// With --explain: the morsels eaten before the explained state (indices from 0, e.g. "2,0").
    #[arg(long, requires = "explain")]
    at: Option<String>,
    /// Refuse state spaces larger than this.
    #[arg(long, default_value_t = Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner play` and `dinner verify`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    input: Input,
    /// One strategy per player in player order (greedy, competitive, cooperative,
    /// masochistic, crossout), e.g. "crossout,greedy"; one name applies to all.
    #[arg(long, default_value = "crossout")]
    strategies: String,
    /// Refuse state spaces larger than this (verify).
    #[arg(long, default_value_t = Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner efg`.
#[derive(Args, Debug)]
pub struct EfgArgs {
    #[command(flatten)]
    input: Input,
    /// Output file (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Refuse trees with more nodes than this.
    #[arg(long, default_value_t = 1_000_000)]
    max_nodes: u128,
}

/// Runs a dinner command.
pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Solve(a) => solve(a),
        Command::Play(a) => play(a, false),
        Command::Verify(a) => play(a, true),
        Command::Efg(a) => efg(a),
    }
}

fn load(input: &Input) -> anyhow::Result<(Dinner, TurnOrder)> {
    let (dinner, file_order) = match (&input.file, &input.morsels) {
        (_, Some(m)) => (Dinner::from_morsels(m)?, None),
        (Some(path), None) => {
            let name = path.display().to_string();
            let text = if name == "-" {
                let mut s = String::new();
                std::io::stdin()
                    .read_to_string(&mut s)
                    .context("cannot read stdin")?;
                s
            } else {
                fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?
            };
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            let trimmed = text.trim_start();
            if ext == "json"
                || (ext.is_empty() && (trimmed.starts_with('[') || trimmed.starts_with('{')))
            {
                Dinner::from_json(&text, &name)?
            } else if ext == "toml" || (ext.is_empty() && trimmed.starts_with("morsels")) {
                Dinner::from_toml(&text, &name)?
            } else {
                (Dinner::from_csv(&text, &name)?, None)
            }
        }
        (None, None) => bail!("no dinner given: pass a FILE or --morsels \"1,2 2,3 3,1\""),
    };
    let order = match (&input.order, input.first, file_order) {
        (Some(o), _, _) => TurnOrder::parse(o, &dinner)?,
        (None, Some(First::Alice), _) => TurnOrder::alternating(&dinner, 0),
        (None, Some(First::Bob), _) => {
            if dinner.players() < 2 {
                bail!("--first bob: this dinner has only one player");
            }
            TurnOrder::alternating(&dinner, 1)
        }
        (None, None, Some(o)) => TurnOrder::parse(&o, &dinner)?,
        (None, None, None) => TurnOrder::default_for(&dinner),
    };
    Ok((dinner, order))
}

fn bite_json(d: &Dinner, b: &Bite) -> Value {
    json!({
        "turn": b.turn + 1,
        "player": letter(b.player),
        "morsel": b.morsel,
        "utility": out::exact(&d.value(b.morsel, b.player)),
    })
}

fn parse_ties(spec: &str, players: usize) -> anyhow::Result<DinnerTies> {
    if spec.trim().eq_ignore_ascii_case("index") {
        Ok(DinnerTies::Index)
    } else {
        Ok(DinnerTies::Engine(
            Ties::parse(spec, players).context("--ties")?,
        ))
    }
}

fn solve(a: SolveArgs) -> anyhow::Result<ExitCode> {
    let (d, order) = load(&a.input)?;
    let ties = parse_ties(&a.ties, d.players())?;
    let budget = Budget {
        max_states: a.max_states,
    };
    let use_crossout = match a.method {
        Method::Crossout => {
            if ties != DinnerTies::Index {
                bail!(
                    "--method crossout uses the index tie rule; drop --ties or use --method exact"
                );
            }
            if a.explain {
                bail!("--explain needs the exact solver: add --method exact");
            }
            true
        }
        Method::Exact => false,
        Method::Auto => d.players() == 2 && ties == DinnerTies::Index && !a.explain,
    };
    let at: Vec<usize> = match &a.at {
        None => vec![],
        Some(s) => s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| match t.parse::<usize>() {
                Ok(m) if m >= 1 && m <= d.len() => Ok(m - 1),
                _ => bail!(
                    "--at: '{t}' is not a morsel number between 1 and {}",
                    d.len()
                ),
            })
            .collect::<anyhow::Result<_>>()?,
    };

    let (method, eating, scores, sequence, states, explained) = if use_crossout {
        let c = crossout(&d, &order)?;
        let scores: Vec<Exact> = c.scores.iter().map(|&s| d.unscale(s)).collect();
        let sequence: Vec<usize> = c.sequence().collect();
        (
            "crossout",
            c.eating().collect(),
            scores,
            Some(sequence),
            None,
            None,
        )
    } else {
        let bar = Bar::new();
        let explain_after = a.explain.then_some(at.as_slice());
        let e = solve_exact(&d, &order, &ties, budget, &bar, explain_after)?;
        (
            "exact",
            e.eating,
            e.scores,
            None,
            Some(e.states),
            e.explained,
        )
    };
    let outcomes = if a.all {
        Some(all_spe_scores(&d, &order, budget)?)
    } else {
        None
    };

    if a.json {
        let mut doc = out::JsonDoc::new(out::stdout())?;
        doc.field("players", &json!(d.players()))?;
        doc.field("morsels", &json!(d.len()))?;
        doc.field("method", &json!(method))?;
        doc.field("turn_order", &json!(order.to_string()))?;
        doc.field("ties", &json!(ties.describe()))?;
        doc.field("scores", &out::exacts(&scores))?;
        doc.array("eating_order", &eating, |w, b| {
            write!(
                w,
                "{{\"turn\": {}, \"player\": \"{}\", \"morsel\": {}, \"utility\": ",
                b.turn + 1,
                letter(b.player),
                b.morsel
            )?;
            write_value(w, &d, b.morsel, b.player, true)?;
            w.write_all(b"}")
        })?;
        if let Some(seq) = &sequence {
            doc.field("crossout_sequence", &json!(seq))?;
        }
        if let Some(s) = states {
            doc.field("states", &json!(s))?;
        }
        if let Some(o) = &outcomes {
            doc.field(
                "outcomes",
                &Value::Array(o.iter().map(|v| out::exacts(v)).collect()),
            )?;
        }
        if let Some(e) = &explained {
            doc.field(
                "explanation",
                &json!({
                    "remaining": e.remaining,
                    "mover": letter(e.mover),
                    "reason": e.reason,
                    "moves": e.moves.iter().map(|m| json!({
                        "morsel": m.morsel,
                        "payoffs": out::exacts(&m.value),
                        "best_for_mover": m.best_for_mover,
                        "optimal": m.optimal,
                        "selected": m.selected,
                    })).collect::<Vec<_>>(),
                }),
            )?;
        }
        doc.finish()?;
        return Ok(ExitCode::SUCCESS);
    }

    let mut w = out::stdout();
    writeln!(
        w,
        "Dinner: {} morsels, {} players, turn order {}, method {}, ties {}",
        d.len(),
        d.players(),
        abbreviate(&order.to_string()),
        method,
        ties.describe()
    )?;
    if let Some(s) = states {
        writeln!(w, "States solved: {s}")?;
    }
    writeln!(
        w,
        "\n{:>6}  {:<6}  {:>6}  utilities",
        "turn", "player", "index"
    )?;
    for b in &eating {
        let player = char::from(b'A' + b.player as u8);
        write!(w, "{:>6}  {:<6}  {:>6}  ", b.turn + 1, player, b.morsel)?;
        write_morsel(&mut w, &d, b.morsel)?;
        w.write_all(b"\n")?;
    }
    writeln!(w)?;
    let parts: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} = {}", letter(p), s))
        .collect();
    writeln!(w, "Scores: {}", parts.join(", "))?;
    if let Some(o) = &outcomes {
        writeln!(w, "\nAll pure SPE outcomes ({}):", o.len())?;
        for v in o {
            let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            writeln!(w, "  ({})", parts.join(", "))?;
        }
    }
    if let Some(e) = &explained {
        let rem: Vec<String> = e.remaining.iter().map(|m| m.to_string()).collect();
        writeln!(
            w,
            "\nExplanation: morsels {{{}}} left, {} to move",
            rem.join(","),
            letter(e.mover)
        )?;
        writeln!(
            w,
            "{:>8}  {:<20}  {:<24}  note",
            "index", "utilities", "payoffs after"
        )?;
        for m in &e.moves {
            let vals: Vec<String> = m.value.iter().map(|x| x.to_string()).collect();
            let note = match (m.selected, m.optimal, m.best_for_mover) {
                (true, _, _) => "<- chosen",
                (false, true, _) => "optimal (same payoffs)",
                (false, false, true) => "best for mover, lost the tie-break",
                _ => "",
            };
            writeln!(
                w,
                "{:>8}  {:<20}  {:<24}  {}",
                m.morsel,
                d.morsel_text(m.morsel),
                format!("({})", vals.join(", ")),
                note
            )?;
        }
        writeln!(w, "Rule: {}", e.reason)?;
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A utility, without allocating when the dinner has integer utilities (large tables).
fn write_value(
    w: &mut impl Write,
    d: &Dinner,
    i: usize,
    p: usize,
    json: bool,
) -> std::io::Result<()> {
    if d.scale() == 1 {
        write!(w, "{}", d.utility(i, p))
    } else if json {
        serde_json::to_writer(&mut *w, &out::exact(&d.value(i, p)))?;
        Ok(())
    } else {
        write!(w, "{}", d.value(i, p))
    }
}

/// A morsel as `(a, b, ...)`.
fn write_morsel(w: &mut impl Write, d: &Dinner, i: usize) -> std::io::Result<()> {
    w.write_all(b"(")?;
    for p in 0..d.players() {
        if p > 0 {
            w.write_all(b", ")?;
        }
        write_value(w, d, i, p, false)?;
    }
    w.write_all(b")")
}

fn abbreviate(s: &str) -> String {
    if s.len() > 60 {
        format!("{}...({} turns)", &s[..40], s.len())
    } else {
        s.to_string()
    }
}

fn parse_strategies(spec: &str, players: usize) -> anyhow::Result<Vec<Strategy>> {
    let list: Vec<Strategy> = spec
        .split(',')
        .map(|s| s.parse::<Strategy>().map_err(anyhow::Error::msg))
        .collect::<anyhow::Result<_>>()
        .context("--strategies")?;
    match list.len() {
        1 => Ok(vec![list[0]; players]),
        n if n == players => Ok(list),
        n => bail!("--strategies: {n} strategies for a {players}-player dinner (give one, or one per player)"),
    }
}

fn play(a: PlayArgs, check: bool) -> anyhow::Result<ExitCode> {
    let (d, order) = load(&a.input)?;
    let strategies = parse_strategies(&a.strategies, d.players())?;
    let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
    if !check {
        let p = evaluate(&d, &order, &strategies)?;
        let scores: Vec<Exact> = p.scores.iter().map(|&s| d.unscale(s)).collect();
        if a.json {
            out::print_json(&json!({
                "turn_order": order.to_string(),
                "strategies": names,
                "scores": out::exacts(&scores),
                "eating_order": p.eating.iter().map(|b| bite_json(&d, b)).collect::<Vec<_>>(),
            }))?;
        } else {
            let mut w = out::stdout();
            writeln!(
                w,
                "Strategies {} under turn order {}",
                names.join(" vs "),
                abbreviate(&order.to_string())
            )?;
            for b in &p.eating {
                writeln!(
                    w,
                    "{:>6}  {:<3} eats morsel {:>4} {}",
                    b.turn + 1,
                    letter(b.player),
                    b.morsel,
                    d.morsel_text(b.morsel)
                )?;
            }
            let parts: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(p, s)| format!("{} = {}", letter(p), s))
                .collect();
            writeln!(w, "Scores: {}", parts.join(", "))?;
            w.flush()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let game = DinnerGame::<i128>::new(&d, &order, false)?;
    let budget = Budget {
        max_states: a.max_states,
    };
    // Strategies are checked ahead so the profile below cannot fail.
    if d.players() != 2 && strategies.contains(&Strategy::Crossout) {
        bail!(
            "the crossout strategy is defined for two players; this dinner has {}",
            d.players()
        );
    }
    let verdict = verify(&game, budget, |s, p| {
        strategies[p]
            .choose(&d, &order, *s)
            .expect("strategies validated above")
    })?;
    let (spe, deviation) = match &verdict {
        Verdict::SubgamePerfect { states } => (true, json!({"states": states})),
        Verdict::Deviation(dev) => {
            let left: Vec<usize> = (0..d.len()).filter(|i| dev.state >> i & 1 == 1).collect();
            (
                false,
                json!({
                    "remaining": left,
                    "player": letter(dev.player),
                    "prescribed": dev.prescribed,
                    "better": dev.better,
                    "gain": out::exact(&d.unscale(dev.gain)),
                }),
            )
        }
    };
    if a.json {
        let mut doc =
            json!({"turn_order": order.to_string(), "strategies": names, "subgame_perfect": spe});
        let key = if spe { "checked" } else { "counterexample" };
        doc.as_object_mut()
            .expect("object")
            .insert(key.into(), deviation);
        out::print_json(&doc)?;
    } else {
        let mut w = out::stdout();
        match verdict {
            Verdict::SubgamePerfect { states } => writeln!(
                w,
                "({}) is a subgame perfect equilibrium: no profitable one-shot deviation in {states} states",
                names.join(", ")
            )?,
            Verdict::Deviation(dev) => writeln!(
                w,
                "({}) is NOT subgame perfect: with morsels {} left, {} should eat morsel {} instead of {} and gain {}",
                names.join(", "),
                engine::Game::state_text(&game, &dev.state),
                letter(dev.player),
                dev.better,
                dev.prescribed,
                d.unscale(dev.gain)
            )?,
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn efg(a: EfgArgs) -> anyhow::Result<ExitCode> {
    let (d, order) = load(&a.input)?;
    let game = DinnerGame::<i128>::new(&d, &order, false)?;
    let title = format!(
        "Ethiopian Dinner, {} morsels, turn order {}",
        d.len(),
        order
    );
    match &a.output {
        Some(path) => {
            let mut buf = Vec::new();
            write_efg(&game, &title, a.max_nodes, &mut buf)?;
            fs::write(path, buf).with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut w = out::stdout();
            write_efg(&game, &title, a.max_nodes, &mut w)?;
            w.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
