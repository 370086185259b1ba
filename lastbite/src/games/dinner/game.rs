//! The dinner as a game for the generic engine: states are the subsets of morsels still
//! on the plate (bitmasks), so the engine's dense solver indexes them directly. This is
//! the brute-force route that checks crossout, and the exact solver for any number of
//! players.

use crate::engine::{
    self, solve_dense, Budget, Game, IndexedGame, Payoff, Player, Progress, Reason, Ties,
};
use crate::exact::Exact;

use super::crossout::Bite;
use super::model::{Dinner, DinnerError, Precedence, TurnOrder};
use super::scoring::Scoring;
use super::setup::{check_order, Setup};

/// Variations of the payoffs and rules of a dinner (paper: "Generalized payoffs" and
/// "Open questions"). The default is the plain game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    /// `altruism[e][r]`: what player `r` receives, per unit of the eater's utility, when
    /// player `e` eats a morsel. The paper's two-player case is
    /// `[[alpha_A, alpha_B], [beta_A, beta_B]]` ([`Rules::altruism`]); `None` is the plain
    /// game (the identity).
    pub altruism: Option<Vec<Vec<Exact>>>,
    /// Delayed gratification: a morsel eaten on turn `t` (from 1) is worth
    /// `discount^t` times its value.
    pub discount: Option<Exact>,
    /// Inaccessible morsels: the partial order eating must respect.
    pub before: Option<Precedence>,
}

impl Rules {
    /// The paper's altruism payoffs for two players: `p_A = alpha_A * (Alice's utility of
    /// what she eats) + beta_A * (Bob's utility of what he eats)`, and `p_B = alpha_B *
    /// (Alice's utility of what she eats) + beta_B * (Bob's utility of what he eats)`.
    pub fn altruism(alpha_a: Exact, beta_a: Exact, alpha_b: Exact, beta_b: Exact) -> Rules {
        Rules {
            altruism: Some(vec![vec![alpha_a, alpha_b], vec![beta_a, beta_b]]),
            ..Rules::default()
        }
    }

    /// Whether these are the rules of the plain dinner.
    pub fn is_plain(&self) -> bool {
        self.altruism.is_none()
            && self.discount.is_none()
            && self.before.as_ref().is_none_or(Precedence::is_trivial)
    }
}

/// Ethiopian Dinner as an engine game over subsets of at most 63 morsels, under any
/// [`Rules`].
///
/// With `perturb`, payoffs follow the index tie rule of [`super::crossout`](mod@super::crossout): eating
/// morsel `i` of `n` adds `(n - 1 - i)` to the eater's payoff scaled by `M = n^2`, larger
/// than any sum of the offsets, so the order of real payoffs is kept and each player's
/// utilities become distinct.
pub struct DinnerGame<'d, P> {
    dinner: &'d Dinner,
    order: &'d TurnOrder,
    before: Option<&'d Precedence>,
    /// Plain rules: the mover's payoff for each (morsel, player), perturbed and scaled.
    plain: Option<Vec<P>>,
    /// The payoff arithmetic shared with crossout.
    scoring: Scoring,
    multiplier: i128,
    perturb: bool,
}

impl<'d, P: Payoff> DinnerGame<'d, P> {
    /// The plain game of `dinner` under `order`; `perturb` applies the index tie rule.
    pub fn new(
        dinner: &'d Dinner,
        order: &'d TurnOrder,
        perturb: bool,
    ) -> Result<Self, DinnerError> {
        let scoring = Scoring::new(dinner, &Rules::default())?;
        Self::build(dinner, order, scoring, None, perturb)
    }

    /// The game under `rules`.
    pub fn with_rules(
        dinner: &'d Dinner,
        order: &'d TurnOrder,
        rules: &'d Rules,
        perturb: bool,
    ) -> Result<Self, DinnerError> {
        let scoring = Scoring::new(dinner, rules)?;
        Self::build(dinner, order, scoring, rules.before.as_ref(), perturb)
    }

    fn build(
        dinner: &'d Dinner,
        order: &'d TurnOrder,
        scoring: Scoring,
        before: Option<&'d Precedence>,
        perturb: bool,
    ) -> Result<Self, DinnerError> {
        let n = dinner.len();
        let k = dinner.players();
        check_order(dinner, order)?;
        if let Some(b) = before {
            if b.morsels() != n {
                return Err(DinnerError::PrecedenceMismatch {
                    precedence: b.morsels(),
                    morsels: n,
                });
            }
        }
        if n > 63 {
            return Err(DinnerError::TooManyMorsels(n));
        }
        let overflow = || DinnerError::Overflow(n);
        let multiplier = if perturb { (n * n).max(1) as i128 } else { 1 };
        let bound = scoring
            .bound(dinner)
            .checked_mul(multiplier)
            .and_then(|b| b.checked_add(n as i128))
            .and_then(|b| b.checked_mul(n as i128))
            .ok_or_else(overflow)?;
        if !P::fits(bound) {
            return Err(overflow());
        }
        let mut game = DinnerGame {
            dinner,
            order,
            before: before.filter(|b| !b.is_trivial()),
            plain: None,
            scoring,
            multiplier,
            perturb,
        };
        if game.scoring.is_plain() {
            let mut plain = Vec::with_capacity(n * k);
            for i in 0..n {
                for p in 0..k {
                    plain.push(P::from_integer(game.payoff_int(0, i, p, p)));
                }
            }
            game.plain = Some(plain);
        }
        Ok(game)
    }

    /// The scaled payoff to `receiver` when `eater` eats morsel `i` on turn `turn` (from
    /// 0), including the tie-rule offset.
    #[inline]
    fn payoff_int(&self, turn: usize, i: usize, eater: Player, receiver: Player) -> i128 {
        let real = self.scoring.scaled(self.dinner, turn, i, eater, receiver);
        let offset = if self.perturb && eater == receiver {
            (self.dinner.len() - 1 - i) as i128
        } else {
            0
        };
        real * self.multiplier + offset
    }

    /// The plain game's payoffs, `[i * players + p]`: what player `p` gains by eating
    /// morsel `i` (scaled, the index rule's offsets included); `None` under a discount,
    /// altruism or a precedence, where payoffs depend on more than the morsel.
    pub fn plain_payoffs(&self) -> Option<&[P]> {
        match self.before {
            Some(_) => None,
            None => self.plain.as_deref(),
        }
    }

    /// The player of turn `t` (from 0).
    pub fn player_of_turn(&self, t: usize) -> Player {
        self.order.player(t)
    }

    /// The payoff arithmetic of this game.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// A payoff of this game in the dinner's real units (undoing scale and perturbation).
    pub fn real(&self, scaled: i128) -> Exact {
        self.scoring.real(scaled.div_euclid(self.multiplier))
    }

    #[inline]
    fn turn(&self, state: u64) -> Option<usize> {
        let left = state.count_ones() as usize;
        (left > 0).then(|| self.dinner.len() - left)
    }

    #[inline]
    fn mover(&self, state: u64) -> Option<Player> {
        self.turn(state).map(|t| self.order.player(t))
    }
}

impl<P: Payoff> Game for DinnerGame<'_, P> {
    type State = u64;
    type Move = usize;
    type Payoff = P;

    fn players(&self) -> usize {
        self.dinner.players()
    }

    fn root(&self) -> u64 {
        full_mask(self.dinner.len())
    }

    #[inline]
    fn to_move(&self, state: &u64) -> Option<Player> {
        self.mover(*state)
    }

    #[inline]
    fn moves(&self, state: &u64, out: &mut Vec<usize>) {
        let mut s = *state;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            if self.before.is_none_or(|b| b.accessible(i, *state)) {
                out.push(i);
            }
        }
    }

    #[inline]
    fn play(&self, state: &u64, mv: &usize) -> u64 {
        state & !(1u64 << mv)
    }

    #[inline]
    fn add_move_payoffs(&self, state: &u64, mv: &usize, acc: &mut [P]) {
        let Some(t) = self.turn(*state) else { return };
        let e = self.order.player(t);
        match &self.plain {
            Some(plain) => acc[e] = acc[e].plus(&plain[mv * self.dinner.players() + e]),
            None => {
                for (r, a) in acc.iter_mut().enumerate() {
                    *a = a.plus(&P::from_integer(self.payoff_int(t, *mv, e, r)));
                }
            }
        }
    }

    #[inline]
    fn mover_payoff(&self, state: &u64, mv: &usize, mover: Player) -> P {
        match &self.plain {
            Some(plain) => plain[mv * self.dinner.players() + mover].clone(),
            None => {
                let t = self.turn(*state).expect("a mover implies a turn");
                P::from_integer(self.payoff_int(t, *mv, mover, mover))
            }
        }
    }

    fn move_label(&self, _state: &u64, mv: &usize) -> String {
        format!("m{} {}", mv, self.dinner.morsel_text(*mv))
    }

    fn payoff_text(&self, payoff: &P) -> String {
        match payoff.to_integer() {
            Some(v) => self.real(v).to_string(),
            None => payoff.to_string(),
        }
    }

    fn state_text(&self, state: &u64) -> String {
        let morsels: Vec<String> = (0..64)
            .filter(|i| state >> i & 1 == 1)
            .map(|i| i.to_string())
            .collect();
        format!("{{{}}}", morsels.join(","))
    }
}

impl<P: Payoff> IndexedGame for DinnerGame<'_, P> {
    fn state_count(&self) -> u128 {
        1u128 << self.dinner.len()
    }
    #[inline]
    fn index(&self, state: &u64) -> usize {
        *state as usize
    }
    #[inline]
    fn state_at(&self, index: usize) -> u64 {
        index as u64
    }
    fn layer_count(&self) -> usize {
        self.dinner.len() + 1
    }
    #[inline]
    fn layer(&self, index: usize) -> Option<usize> {
        match self.before {
            Some(b) if !b.reachable(index as u64) => None,
            _ => Some(index.count_ones() as usize),
        }
    }
    fn layer_members(&self, layer: usize, range: std::ops::Range<usize>, out: &mut Vec<usize>) {
        engine::subset_layer_members(layer, range, out);
        if let Some(b) = self.before {
            // Only the down-sets' complements are states: the rest cannot occur.
            out.retain(|&i| b.reachable(i as u64));
        }
    }
}

/// `C(a, b)` for `a <= 64`.
fn binomial(a: usize, b: usize) -> u64 {
    static TABLE: std::sync::OnceLock<Vec<[u64; 65]>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = vec![[0u64; 65]; 65];
        for a in 0..65 {
            t[a][0] = 1;
            for b in 1..=a {
                t[a][b] = t[a - 1][b - 1].saturating_add(if b < a { t[a - 1][b] } else { 0 });
            }
        }
        t
    });
    if b > a {
        0
    } else {
        t[a][b]
    }
}

/// Colexicographic ranks of subsets of at most 32 morsels in two lookups: the low 16
/// bits' share, and the high 16 bits' share given how many low bits are set (4.5 MB,
/// built once). The rank of `{p_0 < p_1 < ...}` is `sum_j C(p_j, j + 1)`.
struct Colex {
    low: Vec<u32>,
    high: Vec<u32>,
}

fn colex() -> &'static Colex {
    static TABLES: std::sync::OnceLock<Colex> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let share = |bits: usize, offset: usize, before: usize| -> u32 {
            let mut r = 0u64;
            let mut j = before;
            for p in 0..16 {
                if bits >> p & 1 == 1 {
                    r += binomial(p + offset, j + 1);
                    j += 1;
                }
            }
            r as u32
        };
        let low = (0..1 << 16).map(|m| share(m, 0, 0)).collect();
        let mut high = Vec::with_capacity(17 << 16);
        for c in 0..=16 {
            high.extend((0..1 << 16).map(|h| share(h, 16, c)));
        }
        Colex { low, high }
    })
}

/// The colexicographic rank of a subset among those of its size.
#[inline]
fn colex_rank(mask: u64) -> usize {
    if mask >> 32 == 0 {
        let t = colex();
        let lo = (mask & 0xffff) as usize;
        let c = lo.count_ones() as usize;
        (t.low[lo] + t.high[c << 16 | (mask >> 16) as usize]) as usize
    } else {
        let mut r = 0u64;
        let mut m = mask;
        let mut j = 0;
        while m != 0 {
            r += binomial(m.trailing_zeros() as usize, j + 1);
            m &= m - 1;
            j += 1;
        }
        r as usize
    }
}

impl<P: Payoff> engine::RankedGame for DinnerGame<'_, P> {
    fn layer_size(&self, layer: usize) -> usize {
        binomial(self.dinner.len(), layer) as usize
    }
    #[inline]
    fn rank(&self, index: usize) -> usize {
        colex_rank(index as u64)
    }
    fn unrank(&self, layer: usize, rank: usize) -> usize {
        colex_unrank(self.dinner.len(), layer, rank)
    }
    #[inline]
    fn next_in_layer(&self, _layer: usize, index: usize) -> usize {
        if index == 0 {
            return 0;
        }
        gosper(index)
    }
    fn below(&self, top: usize) -> Option<Box<dyn engine::Lattice + '_>> {
        Some(Box::new(Subsets::of(top as u64)))
    }
}

/// The subset of rank `rank` among the `layer`-subsets of `0..n` in colexicographic
/// order.
fn colex_unrank(n: usize, layer: usize, rank: usize) -> usize {
    let mut r = rank as u64;
    let mut mask = 0usize;
    let mut top = n;
    for j in (1..=layer).rev() {
        // The largest p with C(p, j) <= r.
        let mut p = top;
        while p > 0 && binomial(p - 1, j) > r {
            p -= 1;
        }
        let p = p.saturating_sub(1).max(j - 1);
        mask |= 1 << p;
        r -= binomial(p, j);
        top = p;
    }
    mask
}

/// Gosper's hack: the next larger integer with as many bits set, which is the next subset
/// in colexicographic order.
#[inline]
fn gosper(index: usize) -> usize {
    let c = index & index.wrapping_neg();
    let r = index + c;
    (((r ^ index) >> 2) / c) | r
}

/// The subsets of the morsels left at one state, numbered by the colexicographic rank of
/// their positions among those morsels: the sub-lattice the lean solver re-solves to
/// recover its path. States keep their masks in the whole dinner, so payoffs and tie
/// rules are the game's own.
struct Subsets {
    /// The morsels left at the top state.
    size: usize,
    /// `gather[j][v]`: the bits of byte `j` of a mask (value `v`), compressed onto
    /// their positions among the morsels left (a parallel bit extract by table).
    gather: Vec<[u64; 256]>,
    /// `scatter[j][v]`: the inverse, byte `j` of a compressed mask back to morsels.
    scatter: Vec<[u64; 256]>,
}

impl Subsets {
    fn of(top: u64) -> Subsets {
        let positions: Vec<u32> = (0..64).filter(|&i| top >> i & 1 == 1).collect();
        let mut gather = vec![[0u64; 256]; 8];
        let mut scatter = vec![[0u64; 256]; 8];
        for (at, &i) in positions.iter().enumerate() {
            let (gj, gb) = (i as usize / 8, i % 8);
            let (sj, sb) = (at / 8, at % 8);
            for v in 0..256usize {
                if v >> gb & 1 == 1 {
                    gather[gj][v] |= 1 << at;
                }
                if v >> sb & 1 == 1 {
                    scatter[sj][v] |= 1 << i;
                }
            }
        }
        Subsets {
            size: positions.len(),
            gather,
            scatter,
        }
    }

    #[inline]
    fn by_bytes(table: &[[u64; 256]], x: u64) -> u64 {
        let (mut x, mut out, mut j) = (x, 0, 0);
        while x != 0 {
            out |= table[j][(x & 0xff) as usize];
            x >>= 8;
            j += 1;
        }
        out
    }
}

impl engine::Lattice for Subsets {
    fn layers(&self) -> usize {
        self.size + 1
    }
    fn layer_size(&self, layer: usize) -> usize {
        binomial(self.size, layer) as usize
    }
    #[inline]
    fn rank(&self, index: usize) -> usize {
        colex_rank(Self::by_bytes(&self.gather, index as u64))
    }
    fn unrank(&self, layer: usize, rank: usize) -> usize {
        Self::by_bytes(&self.scatter, colex_unrank(self.size, layer, rank) as u64) as usize
    }
    #[inline]
    fn next_in_layer(&self, _layer: usize, index: usize) -> usize {
        if index == 0 {
            return 0;
        }
        let c = gosper(Self::by_bytes(&self.gather, index as u64) as usize);
        Self::by_bytes(&self.scatter, c as u64) as usize
    }
}

/// The mask of all `n` morsels.
pub fn full_mask(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// How the exact solver breaks ties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DinnerTies {
    /// The index tie rule shared with crossout (see [`super::crossout`](mod@super::crossout)); after it,
    /// `first` by morsel order.
    Index,
    /// The engine's per-player rules on the real utilities.
    Engine(Ties),
}

impl DinnerTies {
    /// The engine's per-player rules: the index rule is `first` on the perturbed payoffs
    /// (the perturbation itself is the game's, [`DinnerGame::new`]'s `perturb`).
    pub fn for_engine(&self, players: usize) -> Ties {
        match self {
            DinnerTies::Index => Ties::uniform(engine::TieBreak::First, players),
            DinnerTies::Engine(t) => t.clone(),
        }
    }

    /// The rule's name as written on the command line.
    pub fn describe(&self) -> String {
        match self {
            DinnerTies::Index => "index".into(),
            DinnerTies::Engine(t) => t.describe(),
        }
    }
}

/// One legal move in an explained state, in real units (serialised as the `dinner
/// solve` report writes it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedMove {
    /// The morsel (from 0).
    pub morsel: usize,
    /// The payoff vector it leads to.
    #[serde(rename = "payoffs")]
    pub value: Vec<Exact>,
    /// Whether it maximises the mover's payoff.
    pub best_for_mover: bool,
    /// Whether it yields the equilibrium payoff vector.
    pub optimal: bool,
    /// Whether it is the equilibrium move.
    pub selected: bool,
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

/// Solves a dinner exactly over all subsets with the engine, explaining the state
/// reached after the bites `explain_after` (morsel indices) when given: the full table
/// ([`engine::solve_dense`]) below [`LEAN_FROM`] morsels or with an explanation, else
/// the lean solver. `budget` counts the states held at once (the full table holds all,
/// at most [`FULL_TABLE_MAX_STATES`]; the lean solver two layers); the lean solver also
/// holds at most `memory` bytes, keeping a choice byte per state when they fit and else
/// recovering the path by re-solving ([`engine::solve_lean`]).
///
/// Payoffs are `i32` when the utilities allow it (8 bytes a state for two players), else
/// `i64`, else `i128`.
pub fn solve_exact(
    setup: &Setup,
    ties: &DinnerTies,
    budget: Budget,
    memory: u128,
    progress: &dyn Progress,
    explain_after: Option<&[usize]>,
) -> Result<ExactPlay, DinnerError> {
    let (dinner, order, rules) = (setup.dinner(), setup.order(), setup.rules());
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
            match solve_on_gpu(gpu, dinner, order, rules, ties, limits, progress)? {
                Ok(play) => return Ok(play),
                Err(why) => declined = Some(format!("{}: {why}", gpu.name())),
            }
        }
    }
    let limits = (budget, memory);
    macro_rules! with {
        ($p:ty) => {
            solve_exact_with::<$p>(dinner, order, rules, ties, limits, progress, explain_after)
        };
    }
    let cpu = match with!(i32) {
        Err(DinnerError::Overflow(_)) => match with!(i64) {
            Err(DinnerError::Overflow(_)) => with!(i128),
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
    dinner: &Dinner,
    order: &TurnOrder,
    rules: &Rules,
    ties: &DinnerTies,
    (budget, memory): (Budget, u128),
    progress: &dyn Progress,
) -> Result<Result<ExactPlay, String>, DinnerError> {
    let perturb = matches!(ties, DinnerTies::Index);
    let game = match DinnerGame::<i32>::with_rules(dinner, order, rules, perturb) {
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
    let lean = match super::gpu::solve(gpu, &game, &engine_ties, progress) {
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

fn solve_exact_with<P: Payoff>(
    dinner: &Dinner,
    order: &TurnOrder,
    rules: &Rules,
    ties: &DinnerTies,
    (budget, memory): (Budget, u128),
    progress: &dyn Progress,
    explain_after: Option<&[usize]>,
) -> Result<ExactPlay, DinnerError> {
    let n = dinner.len();
    let perturb = matches!(ties, DinnerTies::Index);
    let game = DinnerGame::<P>::with_rules(dinner, order, rules, perturb)?;
    let engine_ties = ties.for_engine(dinner.players());
    if explain_after.is_none() && n >= LEAN_FROM {
        // Two layers and a choice byte per state (or re-solving for the path), not the
        // full table: its budget counts the states held at once.
        engine::check_held(&game, budget)?;
        let lean = engine::solve_lean(&game, &engine_ties, memory, progress)?;
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
                            best_for_mover: value[e.mover] == own_best,
                            optimal: l.optimal,
                            selected: l.selected,
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
) -> Result<Vec<Vec<Exact>>, DinnerError> {
    let mut rng = crate::rng::Rng::for_trial(seed, trial);
    let cols: Vec<Vec<i64>> = (0..players).map(|_| rng.permutation(size)).collect();
    let flat = (0..size)
        .flat_map(|i| cols.iter().map(move |c| c[i]))
        .collect();
    let d = Dinner::from_integers(players, flat)?;
    let order = TurnOrder::parse(order, &d)?;
    all_spe_scores(
        &Setup::new(d, order, Rules::default())?,
        budget,
        &engine::Silent,
    )
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
    match all_spe_with::<i32>(setup, budget, progress) {
        Err(DinnerError::Overflow(_)) => {}
        other => return other,
    }
    match all_spe_with::<i64>(setup, budget, progress) {
        Err(DinnerError::Overflow(_)) => all_spe_with::<i128>(setup, budget, progress),
        other => other,
    }
}

fn all_spe_with<P: Payoff>(
    setup: &Setup,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Exact>>, DinnerError> {
    let game = DinnerGame::<P>::with_rules(setup.dinner(), setup.order(), setup.rules(), false)?;
    engine::check_held(&game, budget)?;
    let outcomes = engine::all_outcomes_lean(&game, ALL_OUTCOMES_MEMORY, progress)?;
    Ok(outcomes
        .into_iter()
        .map(|v| {
            v.into_iter()
                .map(|x| game.real(x.to_integer().expect("machine payoffs")))
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::Subsets;
    use crate::engine::Lattice;

    /// Each layer of the subsets below a state, walked as the lean solver walks it (one
    /// unrank, then the next in layer), is every subset of that size in increasing
    /// compressed order, ranked `0, 1, 2, ...`, and unrank inverts rank.
    #[test]
    fn subsets_below_a_state_are_numbered_densely() {
        for top in [
            0u64,
            1,
            0b1011_0110,
            0xF0F0,
            (1 << 40) | (1 << 33) | 0b1101,
            1 << 63,
        ] {
            let lattice = Subsets::of(top);
            let m = top.count_ones() as usize;
            assert_eq!(lattice.layers(), m + 1);
            for layer in 0..=m {
                let mut want: Vec<u64> = Vec::new();
                // Every subset of `top` (at most 2^9 here) with `layer` elements.
                let mut sub = top;
                loop {
                    if sub.count_ones() as usize == layer {
                        want.push(sub);
                    }
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & top;
                }
                want.sort_unstable_by_key(|&s| {
                    // Colexicographic order = numeric order of the compressed masks.
                    (0..64)
                        .filter(|i| top >> i & 1 == 1)
                        .enumerate()
                        .filter(|&(_, i)| s >> i & 1 == 1)
                        .map(|(at, _)| 1u64 << at)
                        .sum::<u64>()
                });
                assert_eq!(lattice.layer_size(layer), want.len());
                let mut idx = lattice.unrank(layer, 0);
                for (r, &w) in want.iter().enumerate() {
                    if r > 0 {
                        idx = lattice.next_in_layer(layer, idx);
                    }
                    assert_eq!(idx as u64, w, "top {top:#x} layer {layer} rank {r}");
                    assert_eq!(lattice.rank(idx), r);
                    assert_eq!(lattice.unrank(layer, r), idx);
                }
            }
        }
    }
}
