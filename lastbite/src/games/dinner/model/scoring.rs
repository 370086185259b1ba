//! Payoff arithmetic of a dinner under its [`Rules`] (paper: "Generalized payoffs" and
//! the open question "Delayed gratification"), in one validated type that both the exact
//! solver and crossout use.
//!
//! A bite is worth, to each receiver, `coeff[eater][receiver] * utility * weight[turn]`,
//! all integers over one common denominator: the dinner's scale, the altruism
//! coefficients' common denominator and, with a discount `p/q`, `q^n`. The plain game
//! has the identity coefficients and no weights, and then scoring a play touches only
//! the bites: no per-turn table, no per-state table. This is why crossout scores dinners
//! of millions of morsels while the discount, which needs `q^n`, is refused with an
//! overflow error long before (and only used by the exact solver, at most 63 morsels).

use crate::engine::Player;
use crate::exact::Exact;

use crate::games::dinner::model::Bite;
use crate::games::dinner::model::Rules;
use crate::games::dinner::model::{Dinner, DinnerError};

/// The validated payoff arithmetic of one dinner under one set of [`Rules`].
///
/// ```
/// use lastbite::exact::Exact;
/// use lastbite::games::dinner::{crossout, Dinner, Rules, Scoring, Setup, TurnOrder};
/// let d = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let order = TurnOrder::parse("ABA", &d).unwrap();
/// let plain_game = Setup::ordered(d.clone(), order).unwrap();
/// let bites: Vec<_> = crossout(&plain_game).unwrap().eating().collect();
/// let plain = Scoring::new(&d, &Rules::default()).unwrap();
/// assert_eq!(plain.score(&d, bites.iter().copied()).unwrap(), vec![Exact::integer(5), Exact::integer(2)]);
/// let zero_sum = Rules::altruism(Exact::integer(1), Exact::integer(-1), Exact::integer(-1), Exact::integer(1));
/// let z = Scoring::new(&d, &zero_sum).unwrap();
/// assert_eq!(z.score(&d, bites.iter().copied()).unwrap(), vec![Exact::integer(3), Exact::integer(-3)]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scoring {
    players: usize,
    /// `coeff[e * k + r]`, scaled by the coefficients' common denominator.
    coeff: Vec<i128>,
    /// Whether `coeff` is the identity (the plain game): the hot path.
    identity: bool,
    /// Turn weights `p^t q^(n-t)` (discount `p/q`, turns from 1), or `None` for weight 1.
    weights: Option<Vec<i128>>,
    /// The largest absolute coefficient and weight (for overflow bounds).
    max_coeff: i128,
    max_weight: i128,
    /// Real payoff = scaled / denominator.
    denominator: i128,
}

impl Scoring {
    /// The scoring of `dinner` under `rules`. Errors: an altruism matrix that is not
    /// `k x k` for the dinner's `k` players, or arithmetic beyond 128 bits.
    pub fn new(dinner: &Dinner, rules: &Rules) -> Result<Scoring, DinnerError> {
        let n = dinner.len();
        let k = dinner.players();
        let overflow = || DinnerError::Overflow(n);
        let (coeff, coeff_den, identity) = match rules.altruism_matrix() {
            None => {
                let c = (0..k * k)
                    .map(|i| (i / k == i % k) as i128)
                    .collect::<Vec<_>>();
                (c, 1, true)
            }
            Some(matrix) => {
                if matrix.len() != k || matrix.iter().any(|row| row.len() != k) {
                    return Err(DinnerError::AltruismShape {
                        players: k,
                        rows: matrix.len(),
                        columns: matrix.iter().map(Vec::len).max().unwrap_or(0),
                    });
                }
                let mut den: i128 = 1;
                for x in matrix.iter().flatten() {
                    den = crate::exact::lcm(den, x.denom()).ok_or_else(overflow)?;
                }
                let c = matrix
                    .iter()
                    .flatten()
                    .map(|x| x.scaled_to(den).ok_or_else(overflow))
                    .collect::<Result<Vec<_>, _>>()?;
                let identity = den == 1
                    && c.iter()
                        .enumerate()
                        .all(|(i, &v)| v == (i / k == i % k) as i128);
                (c, den, identity)
            }
        };
        let (weights, weight_den) = match rules.discount() {
            None => (None, 1i128),
            // Positive: `Rules` admits no other discount.
            Some(l) => {
                let (p, q) = (l.numer(), l.denom());
                let exp = u32::try_from(n).map_err(|_| overflow())?;
                let mut w = Vec::with_capacity(n);
                for t in 1..=exp {
                    let a = p.checked_pow(t).ok_or_else(overflow)?;
                    let b = q.checked_pow(exp - t).ok_or_else(overflow)?;
                    w.push(a.checked_mul(b).ok_or_else(overflow)?);
                }
                (Some(w), q.checked_pow(exp).ok_or_else(overflow)?)
            }
        };
        let max_coeff = coeff.iter().map(|c| c.abs()).max().unwrap_or(0);
        let max_weight = weights
            .as_ref()
            .map_or(1, |w| w.iter().copied().max().unwrap_or(1));
        // Every partial sum of a play stays below n * max|u| * max|c| * max w.
        dinner
            .max_abs()
            .checked_mul(max_coeff)
            .and_then(|b| b.checked_mul(max_weight))
            .and_then(|b| b.checked_mul(n as i128))
            .ok_or_else(overflow)?;
        let denominator = dinner
            .scale()
            .checked_mul(coeff_den)
            .and_then(|d| d.checked_mul(weight_den))
            .ok_or_else(overflow)?;
        Ok(Scoring {
            players: k,
            coeff,
            identity,
            weights,
            max_coeff,
            max_weight,
            denominator,
        })
    }

    /// Whether bites are worth their plain utility to their eater only.
    pub fn is_plain(&self) -> bool {
        self.identity && self.weights.is_none()
    }

    /// The scaled payoff to `receiver` when `eater` eats morsel `i` on turn `turn` (from
    /// 0). Never overflows: [`Scoring::new`] bounded every play's sum.
    #[inline]
    pub fn scaled(
        &self,
        dinner: &Dinner,
        turn: usize,
        i: usize,
        eater: Player,
        receiver: Player,
    ) -> i128 {
        let c = self.coeff[eater * self.players + receiver];
        let u = dinner.utility(i, eater) as i128;
        match &self.weights {
            None => c * u,
            Some(w) => c * u * w[turn],
        }
    }

    /// The largest absolute scaled payoff of one bite (for the exact solver's bounds).
    pub fn bound(&self, dinner: &Dinner) -> i128 {
        // Checked in `new`, with a factor n to spare.
        dinner.max_abs() * self.max_coeff * self.max_weight
    }

    /// A scaled amount in the dinner's real units.
    pub fn real(&self, scaled: i128) -> Exact {
        Exact::new(scaled, self.denominator).expect("positive denominator")
    }

    /// The denominator of scaled amounts.
    pub fn denominator(&self) -> i128 {
        self.denominator
    }

    /// Each player's payoff when the morsels are eaten as in `bites`, in real units.
    pub fn score(
        &self,
        dinner: &Dinner,
        bites: impl IntoIterator<Item = Bite>,
    ) -> Result<Vec<Exact>, DinnerError> {
        let mut scores = vec![0i128; self.players];
        if self.is_plain() {
            for b in bites {
                scores[b.player] += dinner.utility(b.morsel, b.player) as i128;
            }
        } else {
            for b in bites {
                for (r, s) in scores.iter_mut().enumerate() {
                    *s += self.scaled(dinner, b.turn, b.morsel, b.player, r);
                }
            }
        }
        Ok(scores.into_iter().map(|s| self.real(s)).collect())
    }
}
