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
    all_spe_scores, attainable, balance, evaluate, figures, pareto, solve_exact, variants, Bite,
    Dinner, DinnerGame, DinnerTies, Precedence, Rules, Strategy, TurnOrder,
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
    /// Delayed gratification: is crossout still an equilibrium when a morsel eaten on
    /// turn t is worth L^t times its value? With --search, the smallest dinner where not.
    Discount(DiscountArgs),
    /// Pareto efficiency of the crossout outcome: of one dinner, or (--size n) of every
    /// permutation dinner of size n.
    Pareto(ParetoArgs),
    /// The paper's random experiment: efficiency of crossout on random permutation dinners.
    Experiment(ExperimentArgs),
    /// Hopkins-Jones: how many distinct sets of utilities Alice and Bob can end up eating
    /// under crossout over all permutation dinners of a size.
    Attainable(AttainableArgs),
    /// Figure 1: the outcomes of all strategy pairs, those Alice reaches against Bob's
    /// crossout, and the crossout outcome, as a scatter plot.
    Plot(PlotArgs),
    /// Figures 2, 4, 5: the crossout board (labels on the axes), optionally with the
    /// order of play or next to the board of D - m.
    Board(BoardArgs),
    /// Balanced alternation: first-mover advantage under alternation vs Thue-Morse order
    /// over random permutation dinners, as a table and a plot.
    Balance(BalanceArgs),
}

/// Arguments of `dinner plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Print the plotted points as one JSON document on stdout (the picture is optional).
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Label the order of play (A_i, B_j) instead of the crossout sequence (Figure 4).
    #[arg(long)]
    play_order: bool,
    /// Also draw the board of D - m, m (an index) eaten first (Figure 2, right).
    #[arg(long, value_name = "INDEX")]
    remove: Option<usize>,
    /// Draw the board of the transformed dinner D' for these altruism payoffs
    /// (Figure 5: 1,-1,-1,1 is zero-sum, 1,1,1,1 cooperative).
    #[arg(long, value_name = "aA,bA,aB,bB")]
    altruism: Option<String>,
    /// Print the labels as one JSON document on stdout (the picture is optional).
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner balance`.
#[derive(Args, Debug)]
pub struct BalanceArgs {
    /// Largest number of morsels.
    #[arg(long, default_value_t = 32)]
    max_size: usize,
    /// Random permutation dinners per size.
    #[arg(long, default_value_t = 1000)]
    trials: u64,
    /// Seed of the random streams.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner pareto`.
#[derive(Args, Debug)]
pub struct ParetoArgs {
    /// The dinner to check (omit with --size).
    #[command(flatten)]
    input: Input,
    /// Check every permutation dinner of this size (Bob moving last).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner experiment`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// Morsels per dinner.
    #[arg(long, default_value_t = 16)]
    size: usize,
    /// Number of random permutation dinners.
    #[arg(long, default_value_t = 10_000)]
    trials: u64,
    /// Seed of the random streams (same seed, same result on any machine).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner attainable`.
#[derive(Args, Debug)]
pub struct AttainableArgs {
    /// Size 2k of the permutation dinners (Bob moving last).
    #[arg(long, value_name = "2K")]
    size: usize,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner discount`.
#[derive(Args, Debug)]
pub struct DiscountArgs {
    /// The dinner to check (not needed with --search).
    #[command(flatten)]
    input: Input,
    /// The discount factor L (exact, e.g. 9/10).
    #[arg(long, value_name = "L")]
    discount: String,
    /// Search permutation dinners of sizes 1..=--max-size (default turn order) for the
    /// smallest one where crossout is not an equilibrium.
    #[arg(long)]
    search: bool,
    /// Largest size searched.
    #[arg(long, default_value_t = 7)]
    max_size: usize,
    /// Refuse state spaces larger than this.
    #[arg(long, default_value_t = Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
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
    /// Delayed gratification: a morsel eaten on turn t is worth L^t times its value
    /// (exact, e.g. 9/10). Solved exactly.
    #[arg(long, value_name = "L")]
    discount: Option<String>,
    /// Inaccessible morsels: "0<3,1<3" means morsel 3 can be eaten only after 0 and 1
    /// (indices from 0; chains like 0<1<2 allowed). Solved exactly over the down-sets.
    #[arg(long, value_name = "ORDER")]
    before: Option<String>,
    /// Altruism payoffs alpha_A,beta_A,alpha_B,beta_B: Alice gets alpha_A times her
    /// utility of what she eats plus beta_A times Bob's utility of what he eats; Bob
    /// alike. Crossout then runs on the paper's transformed dinner D'.
    #[arg(long, value_name = "aA,bA,aB,bB")]
    altruism: Option<String>,
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
        Command::Discount(a) => discount(a),
        Command::Pareto(a) => pareto_cmd(a),
        Command::Experiment(a) => experiment_cmd(a),
        Command::Attainable(a) => attainable_cmd(a),
        Command::Plot(a) => plot_cmd(a),
        Command::Board(a) => board_cmd(a),
        Command::Balance(a) => balance_cmd(a),
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
    let rules = parse_rules(
        &d,
        a.discount.as_deref(),
        a.before.as_deref(),
        a.altruism.as_deref(),
    )?;
    let crossout_covers = rules.discount.is_none() && rules.before.is_none();
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
            if !crossout_covers {
                bail!("crossout does not cover --discount or --before: use --method exact");
            }
            true
        }
        Method::Exact => false,
        Method::Auto => {
            d.players() == 2 && ties == DinnerTies::Index && !a.explain && crossout_covers
        }
    };
    let at: Vec<usize> = match &a.at {
        None => vec![],
        Some(s) => s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| match t.parse::<usize>() {
                Ok(m) if m < d.len() => Ok(m),
                _ => bail!(
                    "--at: '{t}' is not a morsel index between 0 and {}",
                    d.len() - 1
                ),
            })
            .collect::<anyhow::Result<_>>()?,
    };

    let mut transformed = None;
    let (method, eating, scores, sequence, states, explained) = if use_crossout {
        let (eating, scores) = variants::crossout_under(&d, &order, &rules)?;
        if rules.altruism.is_some() {
            transformed = Some(variants::transformed(&d, &rules)?);
        }
        let sequence: Vec<usize> = eating.iter().rev().map(|b| b.morsel).collect();
        ("crossout", eating, scores, Some(sequence), None, None)
    } else {
        let bar = Bar::new();
        let explain_after = a.explain.then_some(at.as_slice());
        let e = solve_exact(&d, &order, &rules, &ties, budget, &bar, explain_after)?;
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
        Some(all_spe_scores(&d, &order, &rules, budget)?)
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
        if !rules.is_plain() {
            doc.field("rules", &rules_json(&rules))?;
        }
        if let Some(t) = &transformed {
            let rows: Vec<Value> = (0..t.len())
                .map(|i| json!([out::exact(&t.value(i, 0)), out::exact(&t.value(i, 1))]))
                .collect();
            doc.field("transformed", &Value::Array(rows))?;
        }
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

/// The rules of a dinner from the command-line flags.
fn parse_rules(
    d: &Dinner,
    discount: Option<&str>,
    before: Option<&str>,
    altruism: Option<&str>,
) -> anyhow::Result<Rules> {
    let mut rules = Rules::default();
    if let Some(l) = discount {
        let l: Exact = l.parse().with_context(|| format!("--discount '{l}'"))?;
        if l <= Exact::ZERO {
            bail!("--discount {l}: the discount factor must be positive");
        }
        rules.discount = Some(l);
    }
    if let Some(b) = before {
        rules.before = Some(Precedence::parse(b, d)?);
    }
    if let Some(c) = altruism {
        if d.players() != 2 {
            bail!("--altruism takes the paper's four coefficients, for two-player dinners");
        }
        let v: Vec<Exact> = c
            .split(',')
            .map(|x| {
                x.parse::<Exact>()
                    .with_context(|| format!("--altruism '{c}'"))
            })
            .collect::<anyhow::Result<_>>()?;
        if v.len() != 4 {
            bail!("--altruism '{c}': give alpha_A,beta_A,alpha_B,beta_B (four numbers)");
        }
        rules.altruism = Rules::altruism(v[0], v[1], v[2], v[3]).altruism;
    }
    Ok(rules)
}

fn rules_json(rules: &Rules) -> Value {
    let mut m = serde_json::Map::new();
    if let Some(l) = &rules.discount {
        m.insert("discount".into(), out::exact(l));
    }
    if let Some(c) = &rules.altruism {
        m.insert(
            "altruism".into(),
            json!({"alpha_A": out::exact(&c[0][0]), "beta_A": out::exact(&c[1][0]),
                   "alpha_B": out::exact(&c[0][1]), "beta_B": out::exact(&c[1][1])}),
        );
    }
    if let Some(b) = &rules.before {
        // Every pair i < j of the order, transitively closed.
        let n = b.morsels();
        let pairs: Vec<Value> = (0..n)
            .flat_map(|j| (0..n).map(move |i| (i, j)))
            .filter(|&(i, j)| b.before(j) >> i & 1 == 1)
            .map(|(i, j)| json!([i, j]))
            .collect();
        m.insert("before".into(), Value::Array(pairs));
    }
    Value::Object(m)
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

/// A profitable deviation in words.
fn deviation_text(
    (state, player, prescribed, better, gain): &(u64, usize, usize, usize, Exact),
) -> String {
    let left: Vec<String> = (0..64)
        .filter(|i| state >> i & 1 == 1)
        .map(|i: u32| i.to_string())
        .collect();
    format!(
        "with morsels {{{}}} left, {} gains {gain} by eating {better} instead of {prescribed}",
        left.join(","),
        letter(*player)
    )
}

fn deviation_json(dev: &Option<(u64, usize, usize, usize, Exact)>) -> Value {
    match dev {
        None => Value::Null,
        Some((state, player, prescribed, better, gain)) => json!({
            "remaining": (0..64).filter(|i| state >> i & 1 == 1).collect::<Vec<u32>>(),
            "player": letter(*player),
            "prescribed": prescribed,
            "better": better,
            "gain": out::exact(gain),
        }),
    }
}

fn dinner_json(d: &Dinner) -> Value {
    Value::Array(
        (0..d.len())
            .map(|i| {
                Value::Array(
                    (0..d.players())
                        .map(|p| out::exact(&d.value(i, p)))
                        .collect(),
                )
            })
            .collect(),
    )
}

fn discount(a: DiscountArgs) -> anyhow::Result<ExitCode> {
    let l: Exact = a
        .discount
        .parse()
        .with_context(|| format!("--discount '{}'", a.discount))?;
    if l <= Exact::ZERO {
        bail!("--discount {l}: the discount factor must be positive");
    }
    let budget = Budget {
        max_states: a.max_states,
    };
    if a.search {
        if a.max_size > 10 {
            bail!(
                "--max-size {}: the search tries every permutation; at most 10",
                a.max_size
            );
        }
        let found = variants::discount_search(l, a.max_size, budget)?;
        if a.json {
            let mut doc = json!({"discount": out::exact(&l), "max_size": a.max_size, "found": found.is_some()});
            if let Some((d, check)) = &found {
                let m = doc.as_object_mut().expect("object");
                m.insert("dinner".into(), dinner_json(d));
                m.insert(
                    "turn_order".into(),
                    json!(TurnOrder::default_for(d).to_string()),
                );
                m.insert("deviation".into(), deviation_json(&check.deviation));
            }
            out::print_json(&doc)?;
        } else {
            let mut w = out::stdout();
            match &found {
                None => writeln!(w, "Crossout is an equilibrium of every permutation dinner up to size {} discounted by {l}.", a.max_size)?,
                Some((d, check)) => {
                    let morsels: Vec<String> = (0..d.len()).map(|i| d.morsel_text(i)).collect();
                    writeln!(w, "Smallest permutation dinner where crossout is not an equilibrium with discount {l}:")?;
                    writeln!(w, "  {} (turn order {})", morsels.join(" "), TurnOrder::default_for(d))?;
                    if let Some(dev) = &check.deviation {
                        writeln!(w, "  {}", deviation_text(dev))?;
                    }
                }
            }
            w.flush()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (d, order) = load(&a.input)?;
    let check = variants::discount_check(&d, &order, l, budget)?;
    let rules = Rules {
        discount: Some(l),
        ..Rules::default()
    };
    let (_, crossout_scores) = {
        let plain = variants::crossout_under(&d, &order, &Rules::default())?;
        (
            plain.0.clone(),
            variants::score(&d, &order, &rules, &plain.0)?,
        )
    };
    let spe = solve_exact(
        &d,
        &order,
        &rules,
        &DinnerTies::Index,
        budget,
        &Bar::new(),
        None,
    )?;
    if a.json {
        out::print_json(&json!({
            "discount": out::exact(&l),
            "turn_order": order.to_string(),
            "crossout_is_spe": check.crossout_is_spe,
            "deviation": deviation_json(&check.deviation),
            "crossout_scores": out::exacts(&crossout_scores),
            "spe_scores": out::exacts(&spe.scores),
        }))?;
    } else {
        let mut w = out::stdout();
        let verdict = if check.crossout_is_spe {
            "still"
        } else {
            "NOT"
        };
        writeln!(
            w,
            "With discount {l}, crossout is {verdict} a subgame perfect equilibrium."
        )?;
        if let Some(dev) = &check.deviation {
            writeln!(w, "  {}", deviation_text(dev))?;
        }
        let fmt = |v: &[Exact]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(
            w,
            "Crossout play, discounted scores: ({})",
            fmt(&crossout_scores)
        )?;
        writeln!(
            w,
            "Exact SPE scores:                 ({})",
            fmt(&spe.scores)
        )?;
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn perm_json(b: &[i64]) -> Value {
    Value::Array(
        b.iter()
            .enumerate()
            .map(|(i, &bi)| json!([i + 1, bi]))
            .collect(),
    )
}

fn pareto_cmd(a: ParetoArgs) -> anyhow::Result<ExitCode> {
    if let Some(n) = a.size {
        if a.input.file.is_some() || a.input.morsels.is_some() {
            bail!("--size checks permutation dinners; give either a dinner or --size");
        }
        let bar = Bar::new();
        let s = pareto::sweep(n, &bar)?;
        if a.json {
            out::print_json(&json!({
                "size": n,
                "dinners": s.dinners,
                "inefficient": s.inefficient.iter().map(|b| perm_json(b)).collect::<Vec<_>>(),
                "weakly_inefficient": s.weakly_inefficient.iter().map(|b| perm_json(b)).collect::<Vec<_>>(),
            }))?;
        } else {
            let mut w = out::stdout();
            writeln!(
                w,
                "{} permutation dinners of size {n} (Bob moves last)",
                s.dinners
            )?;
            writeln!(
                w,
                "crossout Pareto inefficient in {}, weakly inefficient in {}",
                s.inefficient.len(),
                s.weakly_inefficient.len()
            )?;
            for (name, list) in [
                ("inefficient", &s.inefficient),
                ("weakly inefficient", &s.weakly_inefficient),
            ] {
                for b in list.iter().take(20) {
                    let m: Vec<String> = b
                        .iter()
                        .enumerate()
                        .map(|(i, bi)| format!("({},{bi})", i + 1))
                        .collect();
                    writeln!(w, "  {name}: {}", m.join(" "))?;
                }
                if list.len() > 20 {
                    writeln!(w, "  ... and {} more (see --json)", list.len() - 20)?;
                }
            }
            w.flush()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (d, order) = load(&a.input)?;
    let e = pareto::efficiency(&d, &order)?;
    let real = |(x, y): (i128, i128)| json!([out::exact(&d.unscale(x)), out::exact(&d.unscale(y))]);
    if a.json {
        out::print_json(&json!({
            "turn_order": order.to_string(),
            "crossout": real(e.crossout),
            "pareto_efficient": e.efficient,
            "weakly_pareto_efficient": e.weakly_efficient,
            "improving": e.improving.iter().map(|&p| real(p)).collect::<Vec<_>>(),
            "max_improvement_percent": e.max_improvement_percent().map(|x| out::exact(&x)),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "Crossout scores: ({}, {})",
            d.unscale(e.crossout.0),
            d.unscale(e.crossout.1)
        )?;
        writeln!(
            w,
            "Pareto efficient: {}; weakly Pareto efficient: {}",
            e.efficient, e.weakly_efficient
        )?;
        for &(x, y) in &e.improving {
            writeln!(
                w,
                "  improving outcome: ({}, {})",
                d.unscale(x),
                d.unscale(y)
            )?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn experiment_cmd(a: ExperimentArgs) -> anyhow::Result<ExitCode> {
    let bar = Bar::with_threshold(1);
    let e = pareto::experiment(a.size, a.trials, a.seed, &bar)?;
    let percent = e.max_improvement_percent.map(|(x, _)| x);
    let approx = percent.map(|x| (x.numer() as f64 / x.denom() as f64 * 1e4).round() / 1e4);
    if a.json {
        out::print_json(&json!({
            "size": a.size,
            "trials": e.trials,
            "seed": a.seed,
            "inefficient": e.inefficient,
            "weakly_inefficient": e.weakly_inefficient,
            "max_improvement_percent": approx,
            "max_improvement_percent_exact": percent.map(|x| out::exact(&x)),
            "max_improvement_trial": e.max_improvement_percent.map(|(_, t)| t),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "{} random permutation dinners of size {} (seed {}):",
            e.trials, a.size, a.seed
        )?;
        writeln!(w, "  crossout Pareto inefficient:        {}", e.inefficient)?;
        writeln!(
            w,
            "  crossout weakly Pareto inefficient: {}",
            e.weakly_inefficient
        )?;
        match (percent, approx) {
            (Some(x), Some(f)) => writeln!(
                w,
                "  largest improvement for a player:   {f}% (exactly {x}%)"
            )?,
            _ => writeln!(w, "  no improving outcome")?,
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn attainable_cmd(a: AttainableArgs) -> anyhow::Result<ExitCode> {
    if !a.size.is_multiple_of(2) {
        bail!("--size {}: the count is stated for even sizes 2k", a.size);
    }
    let k = (a.size / 2) as u64;
    let alice = attainable::attainable(a.size, 0)?;
    let bob = attainable::attainable(a.size, 1)?;
    let (ck, ck1) = (attainable::catalan(k), attainable::catalan(k + 1));
    if a.json {
        out::print_json(&json!({
            "size": a.size, "alice": alice, "bob": bob,
            "catalan_k": ck as u64, "catalan_k_plus_1": ck1 as u64,
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "Permutation dinners of size {} (k = {k}), crossout play:",
            a.size
        )?;
        writeln!(
            w,
            "  distinct sets Alice can eat: {alice} (Catalan C_k = {ck})"
        )?;
        writeln!(
            w,
            "  distinct sets Bob can eat:   {bob} (Catalan C_k+1 = {ck1})"
        )?;
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn approx(x: &Exact) -> f64 {
    x.numer() as f64 / x.denom() as f64
}

fn plot_cmd(a: PlotArgs) -> anyhow::Result<ExitCode> {
    let (d, order) = load(&a.input)?;
    let o = figures::outcomes(&d, &order, Budget::default())?;
    let svg = figures::outcome_chart(&d, &o).to_svg(720.0, 600.0);
    if a.out.requested() || !a.json {
        a.out.write(&svg)?;
    }
    let pair =
        |&(x, y): &(i128, i128)| json!([out::exact(&d.unscale(x)), out::exact(&d.unscale(y))]);
    if a.json {
        out::print_json(&json!({
            "turn_order": order.to_string(),
            "all": o.all.iter().map(pair).collect::<Vec<_>>(),
            "against_crossout": o.against_crossout.iter().map(pair).collect::<Vec<_>>(),
            "crossout": pair(&o.crossout),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "{} outcomes of all strategy pairs, {} reachable by Alice against Bob's crossout; crossout at ({}, {})",
            o.all.len(),
            o.against_crossout.len(),
            d.unscale(o.crossout.0),
            d.unscale(o.crossout.1)
        )?;
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn board_cmd(a: BoardArgs) -> anyhow::Result<ExitCode> {
    let (d, order) = load(&a.input)?;
    let (d, name) = match &a.altruism {
        Some(c) => (
            variants::transformed(&d, &parse_rules(&d, None, None, Some(c))?)?,
            "D'",
        ),
        None => (d, "D"),
    };
    let svg = figures::board_svg(
        &d,
        &order,
        figures::BoardOptions {
            name,
            play_order: a.play_order,
            removed: a.remove,
        },
    )?;
    if a.out.requested() || !a.json {
        a.out.write(&svg)?;
    }
    if a.json {
        let c = variants::crossout_under(&d, &order, &Rules::default())?;
        out::print_json(&json!({
            "turn_order": order.to_string(),
            "dinner": dinner_json(&d),
            "crossout_sequence": c.0.iter().rev().map(|b| b.morsel).collect::<Vec<_>>(),
            "scores": out::exacts(&c.1),
        }))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn balance_cmd(a: BalanceArgs) -> anyhow::Result<ExitCode> {
    let bar = Bar::with_threshold(2);
    let rows = balance::first_mover_advantage(a.max_size, a.trials, a.seed, &bar)?;
    let chart = lastbite::svg::Chart {
        title: format!(
            "First-mover advantage, {} random permutation dinners per size",
            a.trials
        ),
        x_label: "number of morsels".into(),
        y_label: "mean (Alice - Bob) as % of a player's total".into(),
        series: vec![
            lastbite::svg::Series {
                name: "alternation ABAB...".into(),
                color: "#d62728".into(),
                mark: lastbite::svg::Mark::Line,
                points: rows
                    .iter()
                    .map(|r| (r.size as f64, approx(&r.alternation)))
                    .collect(),
            },
            lastbite::svg::Series {
                name: "Thue-Morse ABBA BAAB...".into(),
                color: "#1f77b4".into(),
                mark: lastbite::svg::Mark::Line,
                points: rows
                    .iter()
                    .map(|r| (r.size as f64, approx(&r.thue_morse)))
                    .collect(),
            },
        ],
    };
    if a.out.requested() {
        a.out.write(&chart.to_svg(760.0, 520.0))?;
    }
    if a.json {
        out::print_json(&json!({
            "trials": a.trials,
            "seed": a.seed,
            "rows": rows.iter().map(|r| json!({
                "size": r.size,
                "alternation": out::exact(&r.alternation),
                "thue_morse": out::exact(&r.thue_morse),
                "alternation_approx": (approx(&r.alternation) * 1e4).round() / 1e4,
                "thue_morse_approx": (approx(&r.thue_morse) * 1e4).round() / 1e4,
            })).collect::<Vec<_>>(),
        }))?;
    } else {
        let mut w = out::stdout();
        writeln!(
            w,
            "{:>6}  {:>12}  {:>12}   (mean Alice - Bob, % of n(n+1)/2)",
            "size", "alternation", "thue-morse"
        )?;
        for r in &rows {
            writeln!(
                w,
                "{:>6}  {:>11.3}%  {:>11.3}%",
                r.size,
                approx(&r.alternation),
                approx(&r.thue_morse)
            )?;
        }
        w.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
