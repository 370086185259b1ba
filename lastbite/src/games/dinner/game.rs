//! The dinner as a game for the generic engine: states are the subsets of morsels still
//! on the plate (bitmasks), so the engine's dense solver indexes them directly. This is
//! the brute-force route that checks crossout, and the exact solver for any number of
//! players.

use crate::engine::{
    self, all_outcomes, solve_dense, Budget, Game, IndexedGame, Payoff, Player, Progress, Reason,
    Ties,
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
    /// The explanation of the requested state, if any.
    pub explained: Option<Explained>,
}

/// Solves a dinner exactly over all subsets with the dense engine, explaining the state
/// reached after the bites `explain_after` (morsel indices) when given.
///
/// Payoffs are `i64` when the utilities allow it (16 bytes a state for two players) and
/// `i128` otherwise.
pub fn solve_exact(
    setup: &Setup,
    ties: &DinnerTies,
    budget: Budget,
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
    match solve_exact_with::<i64>(dinner, order, rules, ties, budget, progress, explain_after) {
        Err(DinnerError::Overflow(_)) => {
            solve_exact_with::<i128>(dinner, order, rules, ties, budget, progress, explain_after)
        }
        other => other,
    }
}

fn solve_exact_with<P: Payoff>(
    dinner: &Dinner,
    order: &TurnOrder,
    rules: &Rules,
    ties: &DinnerTies,
    budget: Budget,
    progress: &dyn Progress,
    explain_after: Option<&[usize]>,
) -> Result<ExactPlay, DinnerError> {
    let n = dinner.len();
    let perturb = matches!(ties, DinnerTies::Index);
    let game = DinnerGame::<P>::with_rules(dinner, order, rules, perturb)?;
    let engine_ties = match ties {
        DinnerTies::Index => Ties::uniform(engine::TieBreak::First, dinner.players()),
        DinnerTies::Engine(t) => t.clone(),
    };
    let solution = solve_dense(&game, &engine_ties, budget, progress)?;
    let eating: Vec<Bite> = solution
        .path()
        .into_iter()
        .enumerate()
        .map(|(turn, step)| Bite {
            turn,
            player: step.mover,
            morsel: step.mv,
        })
        .collect();
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
        explained,
    })
}

/// The score vectors of all pure subgame perfect equilibria of a dinner (real
/// utilities, no tie rule), sorted.
pub fn all_spe_scores(setup: &Setup, budget: Budget) -> Result<Vec<Vec<Exact>>, DinnerError> {
    let game = DinnerGame::<i128>::with_rules(setup.dinner(), setup.order(), setup.rules(), false)?;
    let outcomes = all_outcomes(&game, budget)?;
    Ok(outcomes
        .into_iter()
        .map(|v| v.into_iter().map(|x| game.real(x)).collect())
        .collect())
}
