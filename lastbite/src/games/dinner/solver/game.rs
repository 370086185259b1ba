//! The dinner as a game for the generic engine: states are the subsets of morsels still
//! on the plate (bitmasks), so the engine's dense solver indexes them directly. This is
//! the brute-force route that checks crossout, and the exact solver for any number of
//! players.

use crate::engine::{self, Game, IndexedGame, Payoff, Player, Ties};
use crate::exact::Exact;

use crate::games::dinner::model::Scoring;
use crate::games::dinner::model::{Dinner, DinnerError, Precedence, Setup, TurnOrder};

/// Ethiopian Dinner as an engine game over subsets of at most 63 morsels, under a
/// [`Setup`]'s rules.
///
/// With `perturb`, payoffs follow the index tie rule of [`super::crossout`](mod@crate::games::dinner::theory::crossout): eating
/// morsel `i` of `n` adds `(n - 1 - i)` to the eater's payoff scaled by `M = n^2`, larger
/// than any sum of the offsets, so the order of real payoffs is kept and each player's
/// utilities become distinct.
pub struct DinnerGame<'d, P> {
    pub(super) dinner: &'d Dinner,
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
    /// The game of a setup (its dinner, order and rules); `perturb` applies the index tie
    /// rule.
    pub fn new(setup: &'d Setup, perturb: bool) -> Result<Self, DinnerError> {
        let (dinner, order) = (setup.dinner(), setup.order());
        let scoring = setup.scoring().clone();
        let before = setup.rules().before();
        let n = dinner.len();
        let k = dinner.players();
        if n > 63 {
            return Err(DinnerError::TooManyMorsels(n));
        }
        let overflow = || DinnerError::Overflow(n);
        let multiplier = if perturb { (n * n).max(1) as i128 } else { 1 };
        let mut game = DinnerGame {
            dinner,
            order,
            before: before.filter(|b| !b.is_trivial()),
            plain: None,
            scoring,
            multiplier,
            perturb,
        };
        // A bound on every sum a solver forms: one player's total, the others' total or
        // everyone's. Plain payoffs go to the eater alone, so any such sum is at most
        // each morsel's largest payoff to anyone, summed: 3 x 32 morsels of utilities to
        // 1,000 fit 16 bits. Other scorings (a discount, altruism) are bounded by their
        // largest payoff of one bite at each turn.
        // Each payoff times the index rule's multiplier, plus its offset, fits `i128`.
        game.scoring
            .bound(dinner)
            .checked_mul(multiplier)
            .and_then(|b| b.checked_add(n as i128))
            .ok_or_else(overflow)?;
        let plain: Option<Vec<i128>> = game.scoring.is_plain().then(|| {
            (0..n)
                .flat_map(|i| (0..k).map(move |p| (i, p)))
                .map(|(i, p)| game.payoff_int(0, i, p, p))
                .collect()
        });
        let bound = match &plain {
            Some(plain) => plain
                .chunks(k.max(1))
                .map(|row| row.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0))
                .try_fold(0u128, |a, x| a.checked_add(x))
                .and_then(|b| i128::try_from(b).ok()),
            None => game
                .scoring
                .bound(dinner)
                .checked_mul(multiplier)
                .and_then(|b| b.checked_add(n as i128))
                .and_then(|b| b.checked_mul(n as i128)),
        }
        .ok_or_else(overflow)?;
        if !P::fits(bound) {
            return Err(overflow());
        }
        game.plain = plain.map(|plain| plain.into_iter().map(P::from_integer).collect());
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

    /// The index rule's multiplier when the payoffs carry its offsets (the eater of
    /// morsel `i` gets `u * multiplier + (n - 1 - i)`), else `None`.
    pub fn index_multiplier(&self) -> Option<i128> {
        self.perturb.then_some(self.multiplier)
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
    /// The index tie rule shared with crossout (see [`super::crossout`](mod@crate::games::dinner::theory::crossout)); after it,
    /// `first` by morsel order.
    Index,
    /// The engine's per-player rules on the real utilities.
    Engine(Ties),
}

/// Why a dinner's tie rule was refused: the engine's reasons, and an unknown rule told
/// with the dinner's own `index` among the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DinnerTiesError {
    /// Not `index` nor one of the engine's rule names.
    #[error("unknown tie-breaking rule {} (expected index, friendly, antagonistic, first or last)", crate::text::quote(.0))]
    UnknownRule(String),
    /// A per-player entry the engine's parser refused.
    #[error(transparent)]
    Engine(engine::ParseTiesError),
}

impl DinnerTies {
    /// Reads a dinner's tie rule: `index` (the default, shared with crossout), or the
    /// engine's rules for every player or per player (`A=friendly,B=antagonistic`).
    ///
    /// ```
    /// use lastbite::games::dinner::DinnerTies;
    /// assert_eq!(DinnerTies::parse("Index", 2).unwrap(), DinnerTies::Index);
    /// let e = DinnerTies::parse("fair", 2).unwrap_err();
    /// assert!(e.to_string().contains("expected index, friendly"));
    /// ```
    pub fn parse(spec: &str, players: usize) -> Result<DinnerTies, DinnerTiesError> {
        if spec.trim().eq_ignore_ascii_case("index") {
            return Ok(DinnerTies::Index);
        }
        engine::Ties::parse(spec, players)
            .map(DinnerTies::Engine)
            .map_err(|e| match e {
                engine::ParseTiesError::UnknownRule(r) => DinnerTiesError::UnknownRule(r),
                e => DinnerTiesError::Engine(e),
            })
    }

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
