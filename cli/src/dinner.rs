//! `lastbite dinner ...`: Ethiopian Dinner commands.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use lastbite::api::dinner as api;
use lastbite::api::Control;
use lastbite::engine::Budget;
use lastbite::exact::Exact;

use crate::out::{call, emit};
use crate::progress::Bar;
use lastbite::api::sweep::Sweep;

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
    /// The game tree of a small dinner, drawn with its subgame perfect equilibrium (SVG,
    /// PNG, TikZ).
    Tree(TreeArgs),
    /// Balanced alternation: first-mover advantage under alternation vs Thue-Morse order
    /// over random permutation dinners, as a table and a plot.
    Balance(BalanceArgs),
    /// Three's a crowd: how often random dinners with distinct utilities (three or more
    /// players) have more than one pure subgame perfect equilibrium outcome.
    Multiplicity(MultiplicityArgs),
    /// Picking sequences: sincere play (each takes her favourite morsel left), with
    /// --compare the welfare of every SPE outcome and the optimum (prices of anarchy and
    /// stability).
    Sincere(SincereArgs),
    /// Picking sequences: one agent's best play against sincere others, and its gain.
    Manipulate(ManipulateArgs),
    /// Picking sequences: envy-freeness, EF1, proportionality and maximin shares of the
    /// sincere and the equilibrium allocation; with --trials, how often each fails over
    /// random permutation dinners.
    Fairness(FairnessArgs),
    /// Picking sequences: each agent's expected score and the expected welfare of a
    /// sequence under impartial culture (Borda, lexicographic or your scoring vector).
    Expected(ExpectedArgs),
    /// Picking sequences: the sequence with the greatest expected utilitarian welfare
    /// under impartial culture (two agents, sincere play), with its ties and runner-up.
    BestOrder(BestOrderArgs),
}

/// Arguments of `dinner best-order`.
#[derive(Args, Debug)]
pub struct BestOrderArgs {
    /// Number of items.
    #[arg(long, default_value_t = 8)]
    items: usize,
    /// Number of agents (two).
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Each agent's number of turns, e.g. 4,4 (default: every sequence).
    #[arg(long, value_delimiter = ',')]
    counts: Option<Vec<usize>>,
    /// borda, lexicographic or a scoring vector "s1,...,sm".
    #[arg(long, default_value = "borda")]
    model: String,
    /// utilitarian.
    #[arg(long, default_value = "utilitarian")]
    welfare: String,
    /// sincere.
    #[arg(long, default_value = "sincere")]
    play: String,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner expected`.
#[derive(Args, Debug)]
pub struct ExpectedArgs {
    /// The picking sequence: letters (ABBA, AB... repeats), alternate, snake, thue-morse.
    #[arg(long, default_value = "alternate")]
    order: String,
    /// Number of items.
    #[arg(long, default_value_t = 10)]
    items: usize,
    /// Number of agents.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// borda (m - r + 1), lexicographic (2^-r) or a scoring vector "s1,...,sm".
    #[arg(long, default_value = "borda")]
    model: String,
    /// utilitarian, egalitarian or nash.
    #[arg(long, default_value = "utilitarian")]
    welfare: String,
    /// sincere or strategic.
    #[arg(long, default_value = "sincere")]
    play: String,
    /// Refuse to average over more profiles of rankings than this.
    #[arg(long, default_value_t = 1_000_000)]
    max_profiles: u64,
    /// Estimate from this many random profiles instead (95% confidence intervals).
    #[arg(long)]
    samples: Option<u64>,
    /// Seed of the sampled profiles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Average over the profiles even where a program applies (a second route).
    #[arg(long)]
    enumerate: bool,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner fairness`.
#[derive(Args, Debug)]
pub struct FairnessArgs {
    #[command(flatten)]
    input: Input,
    /// Instead of one dinner: this many random permutation dinners.
    #[arg(long)]
    trials: Option<u64>,
    /// Morsels of each random dinner.
    #[arg(long, default_value_t = 8)]
    size: usize,
    /// Agents of each random dinner.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Seed of the random dinners.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Refuse more states (the equilibrium) or maximin-share nodes than this.
    #[arg(long, default_value_t = Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Also every equilibrium allocation, not only the one `dinner solve` plays.
    #[arg(long)]
    every_spe: bool,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner sincere`.
#[derive(Args, Debug)]
pub struct SincereArgs {
    #[command(flatten)]
    input: Input,
    /// Also compare with every pure SPE outcome and the welfare optimum (utilitarian,
    /// egalitarian, Nash): the prices of anarchy and stability (small dinners).
    #[arg(long)]
    compare: bool,
    /// Refuse more states (the SPE solver's) or allocations (the optimum's) than this.
    #[arg(long, default_value_t = Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner manipulate`.
#[derive(Args, Debug)]
pub struct ManipulateArgs {
    #[command(flatten)]
    input: Input,
    /// The manipulator, a player's letter.
    #[arg(long, default_value = "A")]
    agent: String,
    /// Refuse to memoise more sets of morsels left than this (three or more agents).
    #[arg(long, default_value_t = Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner multiplicity`.
#[derive(Args, Debug)]
pub struct MultiplicityArgs {
    /// Players (2 to 6).
    #[arg(long, default_value_t = 3)]
    players: usize,
    /// Morsels per dinner (1 to 24: every equilibrium is enumerated).
    #[arg(long, default_value_t = 8)]
    size: usize,
    /// Number of random dinners.
    #[arg(long, default_value_t = 200)]
    trials: u64,
    /// Seed of the random streams (same seed, same result on any machine).
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// Turn order: snake, alternate or letters.
    #[arg(long, default_value = "snake")]
    order: String,
    /// Print one JSON document on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    latex: crate::out::LatexArgs,
    #[command(flatten)]
    shard: crate::shard::ShardArgs,
}

/// Arguments of `dinner plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: crate::figure::PictureOut,
    /// Draw the position after these morsels are eaten (indices from 0, e.g. "2,0"): the
    /// morsels left, numbered from 0 among themselves, with the turns left.
    #[arg(long, value_delimiter = ',')]
    at: Option<Vec<usize>>,
    /// Print the plotted points as one JSON document on stdout (the picture is optional).
    #[arg(long)]
    json: bool,
}

/// Arguments of `dinner tree`.
#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    input: Input,
    /// The engine's tie rule (friendly, antagonistic, first, last) for everyone or per
    /// player (A=friendly,B=antagonistic); first prefers the lower-numbered morsel.
    #[arg(long, default_value = "first")]
    ties: String,
    /// Refuse dinners with more states than this.
    #[arg(long, default_value_t = lastbite::engine::Budget::DEFAULT_MAX_STATES)]
    max_states: u64,
    #[command(flatten)]
    tree: crate::efg::TreeFlags,
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
    #[arg(
        long,
        value_name = "aA,bA,aB,bB",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    altruism: Option<Vec<Exact>>,
    /// Draw the position after these morsels are eaten (indices from 0, e.g. "2,0"): the
    /// morsels left, numbered from 0 among themselves, with the turns left.
    #[arg(long, value_delimiter = ',')]
    at: Option<Vec<usize>>,
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
    #[command(flatten)]
    latex: crate::out::LatexArgs,
    #[command(flatten)]
    shard: crate::shard::ShardArgs,
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
    #[command(flatten)]
    latex: crate::out::LatexArgs,
    #[command(flatten)]
    shard: crate::shard::ShardArgs,
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
    #[command(flatten)]
    latex: crate::out::LatexArgs,
    #[command(flatten)]
    shard: crate::shard::ShardArgs,
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
    discount: Exact,
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

impl Input {
    /// Fills the dinner input fields of a request; `-` reads the file from stdin.
    fn fill(
        &self,
        file: &mut Option<String>,
        data: &mut Option<String>,
        morsels: &mut Option<api::Morsels>,
        first: &mut Option<api::First>,
        order: &mut Option<String>,
    ) -> anyhow::Result<()> {
        match &self.file {
            Some(p) if p.as_os_str() == "-" => {
                let mut s = String::new();
                std::io::stdin()
                    .read_to_string(&mut s)
                    .context("cannot read stdin")?;
                *data = Some(s);
            }
            Some(p) => *file = Some(p.display().to_string()),
            None => {}
        }
        *morsels = self.morsels.clone().map(api::Morsels::Text);
        *first = self.first.map(|f| match f {
            First::Alice => api::First::Alice,
            First::Bob => api::First::Bob,
        });
        order.clone_from(&self.order);
        Ok(())
    }
}

/// Fills a request's input fields from `Input`.
macro_rules! input {
    ($req:ident, $input:expr) => {
        $input.fill(
            &mut $req.file,
            &mut $req.data,
            &mut $req.morsels,
            &mut $req.first,
            &mut $req.order,
        )?
    };
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
    /// Explain the state after these morsels are eaten (indices from 0, e.g. "2,0"; implies --explain).
    #[arg(long, value_delimiter = ',')]
    at: Option<Vec<usize>>,
    /// Delayed gratification: a morsel eaten on turn t is worth L^t times its value
    /// (exact, e.g. 9/10). Solved exactly.
    #[arg(long, value_name = "L")]
    discount: Option<Exact>,
    /// Inaccessible morsels: "0<3,1<3" means morsel 3 can be eaten only after 0 and 1
    /// (indices from 0; chains like 0<1<2 allowed). Solved exactly over the down-sets.
    #[arg(long, value_name = "ORDER")]
    before: Option<String>,
    /// Altruism payoffs alpha_A,beta_A,alpha_B,beta_B: Alice gets alpha_A times her
    /// utility of what she eats plus beta_A times Bob's utility of what he eats; Bob
    /// alike. Crossout then runs on the paper's transformed dinner D'.
    #[arg(
        long,
        value_name = "aA,bA,aB,bB",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    altruism: Option<Vec<Exact>>,
    /// Refuse to hold more states at once than this (the full table holds all of them,
    /// at most 3e8; from 22 morsels without --explain the lean solver holds two layers).
    #[arg(long, default_value_t = lastbite::games::dinner::DEFAULT_DINNER_MAX_STATES)]
    max_states: u64,
    /// Memory budget of the lean solver, in GiB: two layers of payoffs, and a choice byte
    /// per state when those fit too (else the path is recovered by re-solving).
    #[arg(long, value_name = "GIB", default_value_t = lastbite::games::dinner::DEFAULT_DINNER_MEMORY_GIB)]
    memory_gib: u64,
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
    let bar = Bar::new();
    let ctl = Control::new(&bar);
    match cmd {
        Command::Solve(a) => {
            let mut req = api::SolveRequest {
                method: match a.method {
                    Method::Auto => api::Method::Auto,
                    Method::Crossout => api::Method::Crossout,
                    Method::Exact => api::Method::Exact,
                },
                ties: a.ties,
                all: a.all,
                explain: a.explain,
                at: a.at,
                discount: a.discount,
                before: a.before,
                altruism: a.altruism,
                max_states: a.max_states,
                memory_gib: a.memory_gib,
                ..Default::default()
            };
            input!(req, a.input);
            emit(&call(api::solve(&req, &ctl))?, a.json)?;
        }
        Command::BestOrder(a) => {
            let req = api::BestOrderRequest {
                items: a.items,
                players: a.players,
                counts: a.counts,
                model: a.model,
                welfare: a.welfare,
                play: a.play,
            };
            emit(&call(api::best_order(&req, &ctl))?, a.json)?;
        }
        Command::Expected(a) => {
            let req = api::ExpectedRequest {
                order: a.order,
                items: a.items,
                players: a.players,
                model: a.model,
                welfare: a.welfare,
                play: a.play,
                max_profiles: a.max_profiles,
                samples: a.samples,
                seed: a.seed,
                enumerate: a.enumerate,
            };
            emit(&call(api::expected(&req, &ctl))?, a.json)?;
        }
        Command::Fairness(a) => {
            let mut req = api::FairnessRequest {
                trials: a.trials,
                size: a.size,
                players: a.players,
                seed: a.seed,
                max_states: a.max_states,
                every_spe: a.every_spe,
                ..Default::default()
            };
            input!(req, a.input);
            emit(&call(api::fairness(&req, &ctl))?, a.json)?;
        }
        Command::Sincere(a) => {
            let mut req = api::SincereRequest {
                compare: a.compare,
                max_states: a.max_states,
                ..Default::default()
            };
            input!(req, a.input);
            emit(&call(api::sincere(&req, &ctl))?, a.json)?;
        }
        Command::Manipulate(a) => {
            let mut req = api::ManipulateRequest {
                agent: a.agent,
                max_states: a.max_states,
                ..Default::default()
            };
            input!(req, a.input);
            emit(&call(api::manipulate(&req, &ctl))?, a.json)?;
        }
        Command::Play(a) => {
            let req = profile_request(a.strategies, a.max_states, &a.input)?;
            emit(&call(api::play(&req, &ctl))?, a.json)?;
        }
        Command::Verify(a) => {
            let req = profile_request(a.strategies, a.max_states, &a.input)?;
            let report = call(api::verify_profile(&req, &ctl))?;
            emit(&report, a.json)?;
            return Ok(crate::out::verdict(report.subgame_perfect));
        }
        Command::Efg(a) => {
            let mut req = api::EfgRequest {
                max_nodes: a.max_nodes,
                ..Default::default()
            };
            input!(req, a.input);
            let report = call(api::efg(&req, &ctl))?;
            match &a.output {
                Some(path) => std::fs::write(path, &report.efg)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => emit(&report, false)?,
            }
        }
        Command::Discount(a) => {
            let mut req = api::DiscountRequest {
                discount: a.discount,
                search: a.search,
                max_size: a.max_size,
                max_states: a.max_states,
                ..Default::default()
            };
            input!(req, a.input);
            emit(&call(api::discount(&req, &ctl))?, a.json)?;
        }
        Command::Pareto(a) => {
            let mut req = api::ParetoRequest {
                size: a.size,
                ..Default::default()
            };
            input!(req, a.input);
            if a.shard.run(api::ParetoSweep::COMMAND, &req, &ctl)? {
                return Ok(ExitCode::SUCCESS);
            }
            crate::out::emit_table(&call(api::pareto(&req, &ctl))?, a.json, &a.latex)?;
        }
        Command::Experiment(a) => {
            let bar = Bar::with_threshold(1);
            let req = api::ExperimentRequest {
                size: a.size,
                trials: a.trials,
                seed: a.seed,
            };
            if a.shard
                .run(api::ExperimentSweep::COMMAND, &req, &Control::new(&bar))?
            {
                return Ok(ExitCode::SUCCESS);
            }
            crate::out::emit_table(
                &call(api::experiment(&req, &Control::new(&bar)))?,
                a.json,
                &a.latex,
            )?;
        }
        Command::Multiplicity(a) => {
            let bar = Bar::with_threshold(1);
            let req = api::MultiplicityRequest {
                players: a.players,
                size: a.size,
                trials: a.trials,
                seed: a.seed,
                order: a.order,
            };
            if a.shard
                .run(api::MultiplicitySweep::COMMAND, &req, &Control::new(&bar))?
            {
                return Ok(ExitCode::SUCCESS);
            }
            crate::out::emit_table(
                &call(api::multiplicity(&req, &Control::new(&bar)))?,
                a.json,
                &a.latex,
            )?;
        }
        Command::Attainable(a) => {
            let req = api::AttainableRequest { size: a.size };
            emit(&call(api::attainable_sets(&req, &ctl))?, a.json)?;
        }
        Command::Plot(a) => {
            a.out.check(a.json)?;
            let mut req = api::PlotRequest {
                picture: a.out.requested(),
                at: a.at,
                ..Default::default()
            };
            input!(req, a.input);
            let report = call(api::plot(&req, &ctl))?;
            a.out.write_opt(report.svg.as_deref())?;
            emit(&report, a.json)?;
        }
        Command::Tree(a) => {
            let t = a.tree;
            t.out.check(t.json)?;
            let mut req = api::TreeRequest {
                ties: a.ties,
                max_states: a.max_states,
                horizontal: t.horizontal,
                values: t.values,
                spe: t.spe,
                draw_nodes: t.draw_nodes,
                ..Default::default()
            };
            input!(req, a.input);
            let report = call(api::tree(&req, &ctl))?;
            t.out.write_opt(Some(&report.svg))?;
            emit(&report, t.json)?;
        }
        Command::Board(a) => {
            a.out.check(a.json)?;
            let mut req = api::BoardRequest {
                play_order: a.play_order,
                remove: a.remove,
                altruism: a.altruism,
                picture: a.out.requested(),
                at: a.at,
                ..Default::default()
            };
            input!(req, a.input);
            let report = call(api::board(&req, &ctl))?;
            a.out.write_opt(report.svg.as_deref())?;
            if a.json {
                emit(&report, true)?;
            }
        }
        Command::Balance(a) => {
            let bar = Bar::with_threshold(2);
            let req = api::BalanceRequest {
                max_size: a.max_size,
                trials: a.trials,
                seed: a.seed,
                picture: a.out.requested(),
            };
            if a.shard
                .run(api::BalanceSweep::COMMAND, &req, &Control::new(&bar))?
            {
                return Ok(ExitCode::SUCCESS);
            }
            let report = call(api::balance(&req, &Control::new(&bar)))?;
            a.out.write_opt(report.svg.as_deref())?;
            crate::out::emit_table(&report, a.json, &a.latex)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The request `dinner play` and `dinner verify` share.
fn profile_request(
    strategies: String,
    max_states: u64,
    input: &Input,
) -> anyhow::Result<api::PlayRequest> {
    let mut req = api::PlayRequest {
        strategies,
        max_states,
        ..Default::default()
    };
    input!(req, input);
    Ok(req)
}
