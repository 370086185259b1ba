//! The exact dinner solver's dispatch: the full table (engine's dense solver) for small
//! dinners, the memory-lean layered solver from [`LEAN_FROM`] morsels, the GPU kernel
//! when the `gpu` feature finds a device, all SPE outcomes, and the budgets they share.
//! It chooses a route and turns the engine's answer into the dinner's play; the game
//! itself is `game.rs`.

#[cfg(feature = "gpu")]
use crate::engine::IndexedGame;
use crate::engine::{self, solve_dense, Budget, Game, Payoff, Player, Progress, Reason};
use crate::exact::Exact;

use crate::games::dinner::model::Setup;
use crate::games::dinner::model::{Bite, Dinner, DinnerError, TurnOrder};
use crate::games::dinner::solver::game::{DinnerGame, DinnerTies};
use crate::games::dinner::solver::kernel::{self, Word};

/// One legal move in an explained state, in real units (serialised as the `dinner
/// solve` report writes it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedMove {
    /// The morsel (from 0).
    pub morsel: usize,
    /// The morsel's utility to each player, as given.
    pub utilities: Vec<Exact>,
    /// The payoff vector it leads to.
    #[serde(rename = "payoffs")]
    pub value: Vec<Exact>,
    /// Whether it maximises the mover's payoff.
    pub best_for_mover: bool,
    /// Whether it yields the equilibrium payoff vector.
    pub optimal: bool,
    /// Whether it is the equilibrium move.
    pub chosen: bool,
}

/// The explanation of one state.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Explained {
    /// Morsels still on the plate (from 0).
    pub remaining: Vec<usize>,
    /// The player to move (serialised as a letter).
    #[serde(serialize_with = "crate::engine::serialize_player")]
    #[schemars(with = "String")]
    pub mover: Player,
    /// Why the equilibrium move was chosen.
    pub reason: String,
    /// Every legal move.
    pub moves: Vec<ExplainedMove>,
}

/// The exact subgame perfect play of a dinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactPlay {
    /// The equilibrium eating order.
    pub eating: Vec<Bite>,
    /// Each player's score.
    pub scores: Vec<Exact>,
    /// States solved.
    pub states: u64,
    /// How the lean solver recovered the path (`None`: the full table, which keeps every
    /// state's value).
    pub recovery: Option<engine::PathRecovery>,
    /// States solved again to recover the path ([`engine::PathRecovery::Resolving`]).
    pub resolved: u64,
    /// The GPU that solved the layers (cargo feature `gpu`), if one did.
    pub gpu: Option<String>,
    /// Why a GPU that is present did not take this dinner (the CPU solved it).
    pub gpu_declined: Option<String>,
    /// The explanation of the requested state, if any.
    pub explained: Option<Explained>,
}

/// From this many morsels on, a dinner without an explanation is solved by the lean
/// solver ([`engine::solve_lean`]): two layers of payoff vectors and a choice byte per
/// state (3 players x 26 morsels: 548 MB instead of 1.6 GB).
pub const LEAN_FROM: usize = 22;

/// The most states of a full table (explanations need one): 3 x 10^8, 7.2 GB for three
/// players over `i64`.
pub const FULL_TABLE_MAX_STATES: u64 = 300_000_000;

/// The default budget of exact dinner solves, in states held at once: 1.2 x 10^9 takes
/// the lean solver to 2 players x 32 morsels (1.17 x 10^9 states in two layers).
pub const DEFAULT_DINNER_MAX_STATES: u64 = 1_200_000_000;

/// The default memory of the lean solver, in GiB: enough for 2 players x 32 morsels
/// with a choice byte per state (about 13 GiB), and room left on a 24 GiB machine.
pub const DEFAULT_DINNER_MEMORY_GIB: u64 = 16;

/// [`DEFAULT_DINNER_MEMORY_GIB`] in bytes.
pub const DEFAULT_DINNER_MEMORY: u128 = (DEFAULT_DINNER_MEMORY_GIB as u128) << 30;

/// What crossout does not cover of a setup, in the order `dinner solve` reports it;
/// where nothing applies, crossout is the equilibrium's fast route (`O(n log n)` at any
/// size, the index tie rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrossoutGap {
    /// A tie rule other than the index rule crossout follows.
    Ties,
    /// An explanation asked for: crossout does not value the moves it does not make.
    Explanation,
    /// A discount or a precedence (altruism it covers, by the transformed dinner).
    Rules,
    /// Not two players: the number there are.
    Players(usize),
}

/// The first thing crossout does not cover of `setup` under `ties`, with an explanation
/// asked for when `explain`; `None` when crossout gives the equilibrium.
///
/// ```
/// use lastbite::games::dinner::{crossout_gap, CrossoutGap, Dinner, DinnerTies, Setup};
/// let two = Setup::plain(Dinner::from_morsels("1,2 2,1").unwrap()).unwrap();
/// assert_eq!(crossout_gap(&two, &DinnerTies::Index, false), None);
/// assert_eq!(crossout_gap(&two, &DinnerTies::Index, true), Some(CrossoutGap::Explanation));
/// let three = Setup::plain(Dinner::from_morsels("1,2,3 2,1,3").unwrap()).unwrap();
/// assert_eq!(crossout_gap(&three, &DinnerTies::Index, false), Some(CrossoutGap::Players(3)));
/// ```
pub fn crossout_gap(setup: &Setup, ties: &DinnerTies, explain: bool) -> Option<CrossoutGap> {
    let rules = setup.rules();
    if *ties != DinnerTies::Index {
        Some(CrossoutGap::Ties)
    } else if explain {
        Some(CrossoutGap::Explanation)
    } else if rules.discount().is_some() || rules.before().is_some() {
        Some(CrossoutGap::Rules)
    } else if setup.dinner().players() != 2 {
        Some(CrossoutGap::Players(setup.dinner().players()))
    } else {
        None
    }
}

/// Solves a dinner exactly over all subsets with the engine, explaining the state
/// reached after the bites `explain_after` (morsel indices) when given: the full table
/// ([`engine::solve_dense`]) below [`LEAN_FROM`] morsels or with an explanation, else
/// the lean solver. `budget` counts the states held at once (the full table holds all,
/// at most [`FULL_TABLE_MAX_STATES`]; the lean solver two layers); the lean solver also
/// holds at most `memory` bytes, keeping a choice byte per state when they fit and else
/// recovering the path by re-solving ([`engine::solve_lean`]).
///
/// Payoffs are `i16` when the utilities allow it (6 bytes a state for three players),
/// else `i32`, else `i64`, else `i128`.
pub fn solve_exact(
    setup: &Setup,
    ties: &DinnerTies,
    budget: Budget,
    memory: u128,
    progress: &dyn Progress,
    explain_after: Option<&[usize]>,
) -> Result<ExactPlay, DinnerError> {
    let dinner = setup.dinner();
    let n = dinner.len();
    if n > 63 {
        return Err(engine::EngineError::TooManyStates {
            states: 1u128 << n.min(127),
            budget: budget.max_states,
            bytes: (1u128 << n.min(120)) * 8 * dinner.players() as u128,
        }
        .into());
    }
    // The narrowest payoffs that hold every sum: the table's size and the memory traffic
    // halve with each step down.
    #[allow(unused_mut)]
    let mut declined: Option<String> = None;
    #[cfg(feature = "gpu")]
    if explain_after.is_none() && n >= LEAN_FROM {
        if let Some(gpu) = crate::gpu::Gpu::shared() {
            let limits = (budget, memory);
            match solve_on_gpu(gpu, setup, ties, limits, progress)? {
                Ok(play) => return Ok(play),
                Err(why) => declined = Some(format!("{}: {why}", gpu.name())),
            }
        }
    }
    let limits = (budget, memory);
    macro_rules! with {
        ($p:ty) => {
            solve_exact_with::<$p>(setup, ties, limits, progress, explain_after)
        };
    }
    // Each width is tried only when the narrower one overflows: the game's constructor
    // refuses a width before any state is solved.
    let cpu = match with!(i16) {
        Err(DinnerError::Overflow(_)) => match with!(i32) {
            Err(DinnerError::Overflow(_)) => match with!(i64) {
                Err(DinnerError::Overflow(_)) => with!(i128),
                other => other,
            },
            other => other,
        },
        other => other,
    };
    cpu.map(|play| ExactPlay {
        gpu_declined: declined,
        ..play
    })
}

/// The lean solve on `gpu`, or why the device does not take this dinner (not plain,
/// wide payoffs, a layer over its buffers, choice bytes over `memory`): the CPU then
/// solves it.
#[cfg(feature = "gpu")]
fn solve_on_gpu(
    gpu: &crate::gpu::Gpu,
    setup: &Setup,
    ties: &DinnerTies,
    (budget, memory): (Budget, u128),
    progress: &dyn Progress,
) -> Result<Result<ExactPlay, String>, DinnerError> {
    let dinner = setup.dinner();
    let perturb = matches!(ties, DinnerTies::Index);
    let game = match DinnerGame::<i32>::new(setup, perturb) {
        Ok(g) => g,
        Err(DinnerError::Overflow(_)) => {
            return Ok(Err("payoffs may not fit 32-bit integers".into()))
        }
        Err(e) => return Err(e),
    };
    engine::check_held(&game, budget)?;
    if game.state_count() > memory {
        return Ok(Err(
            "its choice bytes do not fit the memory budget (the CPU re-solves for the path)".into(),
        ));
    }
    let engine_ties = ties.for_engine(dinner.players());
    let lean = match crate::games::dinner::solver::gpu::solve(gpu, &game, &engine_ties, progress) {
        Ok(solved) => solved?,
        Err(refusal) => return Ok(Err(refusal.to_string())),
    };
    Ok(Ok(lean_play(
        &game,
        dinner,
        lean,
        Some(gpu.name().to_string()),
    )?))
}

/// The play a lean solve found: its path as bites, scored in the dinner's real units.
fn lean_play<P: Payoff>(
    game: &DinnerGame<'_, P>,
    dinner: &Dinner,
    lean: engine::LeanSolution<DinnerGame<'_, P>>,
    gpu: Option<String>,
) -> Result<ExactPlay, DinnerError> {
    let eating = bites(lean.path.into_iter().map(|s| (s.mover, s.mv)));
    let scores = game.scoring().score(dinner, eating.iter().copied())?;
    Ok(ExactPlay {
        eating,
        scores,
        states: lean.states,
        recovery: Some(lean.recovery),
        resolved: lean.resolved,
        gpu,
        gpu_declined: None,
        explained: None,
    })
}

fn solve_exact_with<P: Word>(
    setup: &Setup,
    ties: &DinnerTies,
    (budget, memory): (Budget, u128),
    progress: &dyn Progress,
    explain_after: Option<&[usize]>,
) -> Result<ExactPlay, DinnerError> {
    let dinner = setup.dinner();
    let n = dinner.len();
    let perturb = matches!(ties, DinnerTies::Index);
    let game = DinnerGame::<P>::new(setup, perturb)?;
    let engine_ties = ties.for_engine(dinner.players());
    if explain_after.is_none() && n >= LEAN_FROM {
        // Two layers and a choice byte per state (or re-solving for the path), not the
        // full table: its budget counts the states held at once.
        engine::check_held(&game, budget)?;
        let lean = match kernel::solve(&game, &engine_ties, memory, progress) {
            Some(solved) => solved?,
            None => engine::solve_lean(&game, &engine_ties, memory, progress)?,
        };
        return lean_play(&game, dinner, lean, None);
    }
    // The full table (explanations read any state's children from it).
    let full = Budget {
        max_states: budget.max_states.min(FULL_TABLE_MAX_STATES),
    };
    let solution = solve_dense(&game, &engine_ties, full, progress)?;
    let eating = bites(solution.path().into_iter().map(|s| (s.mover, s.mv)));
    let scores = game.scoring().score(dinner, eating.iter().copied())?;
    let explained = match explain_after {
        None => None,
        Some(prefix) => {
            let mut state = game.root();
            for &m in prefix {
                if m >= n || state >> m & 1 == 0 {
                    return Err(DinnerError::NotOnPlate(m));
                }
                state &= !(1u64 << m);
            }
            solution.explain(&state).map(|e| {
                let real = |v: &P| game.real(v.to_integer().expect("dinner payoffs are integers"));
                let values: Vec<Vec<Exact>> = e
                    .lines
                    .iter()
                    .map(|l| l.value.iter().map(real).collect())
                    .collect();
                let own_best = values
                    .iter()
                    .map(|v| v[e.mover])
                    .max()
                    .unwrap_or(Exact::ZERO);
                let tied = values.iter().filter(|v| v[e.mover] == own_best).count();
                let reason = match (e.reason, perturb) {
                    (Reason::OnlyMove, _) => Reason::OnlyMove.to_string(),
                    (_, true) if tied > 1 => {
                        "own payoff tied; tie broken by the index rule (earlier morsel first)"
                            .into()
                    }
                    (r, _) => r.to_string(),
                };
                Explained {
                    remaining: (0..n).filter(|i| state >> i & 1 == 1).collect(),
                    mover: e.mover,
                    reason,
                    moves: e
                        .lines
                        .iter()
                        .zip(values)
                        .map(|(l, value)| ExplainedMove {
                            morsel: l.mv,
                            utilities: (0..dinner.players())
                                .map(|p| dinner.value(l.mv, p))
                                .collect(),
                            best_for_mover: value[e.mover] == own_best,
                            optimal: l.optimal,
                            chosen: l.selected,
                            value,
                        })
                        .collect(),
                }
            })
        }
    };
    Ok(ExactPlay {
        eating,
        scores,
        states: solution.states(),
        recovery: None,
        resolved: 0,
        gpu: None,
        gpu_declined: None,
        explained,
    })
}

/// Three's a crowd (the paper's open question): the distinct score vectors of every pure
/// subgame perfect equilibrium of random dinner `trial` from `seed`: each of `players`
/// ranks the `size` morsels by an independent random permutation of `1..=size` (distinct
/// utilities, which make the two-player outcome unique), turns in `order` (`snake`,
/// `alternate`, or letters).
pub fn random_spe_outcomes(
    players: usize,
    size: usize,
    order: &str,
    seed: u64,
    trial: u64,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Exact>>, DinnerError> {
    let mut rng = crate::rng::Rng::for_trial(seed, trial);
    let cols: Vec<Vec<i64>> = (0..players).map(|_| rng.permutation(size)).collect();
    let flat = (0..size)
        .flat_map(|i| cols.iter().map(move |c| c[i]))
        .collect();
    let d = Dinner::from_integers(players, flat)?;
    let order = TurnOrder::parse(order, &d)?;
    all_spe_scores(&Setup::ordered(d, order)?, budget, progress)
}

/// The eating order of an equilibrium path of `(mover, morsel)` steps.
fn bites(path: impl Iterator<Item = (Player, usize)>) -> Vec<Bite> {
    path.enumerate()
        .map(|(turn, (player, morsel))| Bite {
            turn,
            player,
            morsel,
        })
        .collect()
}

/// The memory budget of the equilibrium sets of [`all_spe_scores`] (two layers of them;
/// their size is known only as they are computed): 16 GiB.
pub const ALL_OUTCOMES_MEMORY: u128 = 16 << 30;

/// The score vectors of all pure subgame perfect equilibria of a dinner (real
/// utilities, no tie rule), sorted: the engine's set rule ([`engine::all_outcomes`])
/// layer by layer over the subset lattice, two layers of sets held
/// ([`engine::all_outcomes_lean`]), with the narrowest payoffs that hold every sum.
/// `budget` counts the states of the two largest adjacent layers.
pub fn all_spe_scores(
    setup: &Setup,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Exact>>, DinnerError> {
    all_spe_scores_within(setup, budget, ALL_OUTCOMES_MEMORY, progress)
}

/// [`all_spe_scores`] with the equilibrium sets held at most `memory` bytes: past it the
/// run stops with the engine's `SetsTooLarge`.
pub fn all_spe_scores_within(
    setup: &Setup,
    budget: Budget,
    memory: u128,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Exact>>, DinnerError> {
    match all_spe_with::<i32>(setup, budget, memory, progress) {
        Err(DinnerError::Overflow(_)) => {}
        other => return other,
    }
    match all_spe_with::<i64>(setup, budget, memory, progress) {
        Err(DinnerError::Overflow(_)) => all_spe_with::<i128>(setup, budget, memory, progress),
        other => other,
    }
}

fn all_spe_with<P: Payoff>(
    setup: &Setup,
    budget: Budget,
    memory: u128,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Exact>>, DinnerError> {
    let game = DinnerGame::<P>::new(setup, false)?;
    engine::check_held(&game, budget)?;
    let outcomes = engine::all_outcomes_lean(&game, memory, progress)?;
    Ok(outcomes
        .into_iter()
        .map(|v| {
            v.into_iter()
                .map(|x| game.real(x.to_integer().expect("machine payoffs")))
                .collect()
        })
        .collect())
}
