//! Welfare of an allocation (utilitarian: the sum of the scores; egalitarian: the least;
//! Nash: the product), the best welfare over every allocation that gives each agent as
//! many morsels as the picking sequence gives it turns, and the ratios that price
//! strategic play (Koutsoupias and Papadimitriou's price of anarchy: the reference
//! welfare over the worst equilibrium's; the price of stability: over the best one's).

use crate::engine::{Budget, EngineError};
use crate::exact::Exact;
use crate::games::dinner::model::{Dinner, DinnerError, TurnOrder};

/// A welfare measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Welfare {
    /// The sum of the agents' scores.
    Utilitarian,
    /// The least score.
    Egalitarian,
    /// The product of the scores.
    Nash,
}

impl Welfare {
    /// The three measures, in this order.
    pub const ALL: [Welfare; 3] = [Welfare::Utilitarian, Welfare::Egalitarian, Welfare::Nash];

    /// `utilitarian`, `egalitarian` or `nash`.
    pub fn name(self) -> &'static str {
        match self {
            Welfare::Utilitarian => "utilitarian",
            Welfare::Egalitarian => "egalitarian",
            Welfare::Nash => "nash",
        }
    }

    /// The welfare of `scores`; `None` when it overflows exact 128-bit arithmetic.
    ///
    /// ```
    /// use lastbite::exact::Exact;
    /// use lastbite::games::dinner::picking::Welfare;
    /// let s = [Exact::integer(3), Exact::new(5, 2).unwrap()];
    /// let w: Vec<String> = Welfare::ALL.iter().map(|w| w.of(&s).unwrap().to_string()).collect();
    /// assert_eq!(w, ["11/2", "5/2", "15/2"]);
    /// ```
    pub fn of(self, scores: &[Exact]) -> Option<Exact> {
        match self {
            Welfare::Utilitarian => scores.iter().try_fold(Exact::ZERO, |a, s| a.checked_add(s)),
            Welfare::Egalitarian => scores.iter().min().copied(),
            Welfare::Nash => scores
                .iter()
                .try_fold(Exact::integer(1), |a, s| a.checked_mul(s)),
        }
    }
}

impl std::str::FromStr for Welfare {
    type Err = String;
    fn from_str(s: &str) -> Result<Welfare, String> {
        Welfare::ALL
            .into_iter()
            .find(|w| w.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| "expected utilitarian, egalitarian or nash".to_string())
    }
}

/// `a / b`, when `b > 0` and it fits.
pub fn ratio(a: Exact, b: Exact) -> Option<Exact> {
    if b <= Exact::ZERO {
        return None;
    }
    let num = a.numer().checked_mul(b.denom())?;
    let den = a.denom().checked_mul(b.numer())?;
    Exact::new(num, den)
}

/// Each agent's number of turns in `order`.
pub fn counts(order: &TurnOrder) -> Vec<usize> {
    let mut c = vec![0; order.players()];
    for &p in order.turns() {
        c[p as usize] += 1;
    }
    c
}

/// The best welfare over every allocation that gives agent `i` exactly `counts[i]`
/// morsels, with one such allocation. Utilitarian welfare for two agents is a sort (the
/// first agent takes the morsels where her utility most exceeds the other's); otherwise
/// every allocation is enumerated, refused with their number when it passes
/// `budget.max_states`.
pub fn optimum(
    dinner: &Dinner,
    counts: &[usize],
    measure: Welfare,
    budget: Budget,
) -> Result<(Exact, Vec<usize>), DinnerError> {
    let n = dinner.len();
    let k = dinner.players();
    debug_assert_eq!(counts.iter().sum::<usize>(), n);
    if measure == Welfare::Utilitarian && k == 2 {
        let mut by_gain: Vec<usize> = (0..n).collect();
        by_gain.sort_by_key(|&m| {
            std::cmp::Reverse(dinner.utility(m, 0) as i128 - dinner.utility(m, 1) as i128)
        });
        let mut owner = vec![1; n];
        for &m in &by_gain[..counts[0]] {
            owner[m] = 0;
        }
        let scores = scores_of(dinner, &owner);
        let w = measure.of(&scores).ok_or(DinnerError::Overflow(n))?;
        return Ok((w, owner));
    }
    let allocations = multinomial(counts);
    if allocations > budget.max_states as u128 {
        return Err(EngineError::TooManyStates {
            states: allocations,
            budget: budget.max_states,
            bytes: 0,
        }
        .into());
    }
    let mut search = Search {
        dinner,
        measure,
        left: counts.to_vec(),
        owner: vec![0; n],
        sums: vec![0; k],
        best: None,
    };
    search.go(0)?;
    let (w, owner) = search.best.expect("the counts allow an allocation");
    Ok((w, owner))
}

/// One welfare measure compared across the ways to play: sincere play, the worst and best
/// subgame-perfect outcome, the optimum, and the prices of anarchy and stability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The measure.
    pub measure: Welfare,
    /// The welfare of sincere play.
    pub sincere: Exact,
    /// The least welfare of an equilibrium outcome.
    pub spe_worst: Exact,
    /// The greatest welfare of an equilibrium outcome.
    pub spe_best: Exact,
    /// The best welfare of any allocation with the sequence's counts; `None` past the
    /// budget (the comparison stays, the optimum is left out).
    pub optimum: Option<Exact>,
    /// `optimum / spe_worst`.
    pub price_of_anarchy: Option<Exact>,
    /// `optimum / spe_best`.
    pub price_of_stability: Option<Exact>,
    /// `sincere / spe_worst`.
    pub sincere_over_worst: Option<Exact>,
    /// `sincere / spe_best`.
    pub sincere_over_best: Option<Exact>,
}

/// Every measure of [`Welfare::ALL`] compared over the sincere scores and the
/// equilibrium outcomes (at least one) of the dinner played in `order`.
pub fn compare(
    dinner: &Dinner,
    order: &TurnOrder,
    sincere: &[Exact],
    outcomes: &[Vec<Exact>],
    budget: Budget,
) -> Result<Vec<Comparison>, DinnerError> {
    let overflow = DinnerError::Overflow(dinner.len());
    let counts = counts(order);
    Welfare::ALL
        .into_iter()
        .map(|w| {
            let of = |s: &[Exact]| w.of(s).ok_or(overflow.clone());
            let spe: Vec<Exact> = outcomes.iter().map(|o| of(o)).collect::<Result<_, _>>()?;
            let worst = *spe.iter().min().expect("a game has an SPE");
            let best = *spe.iter().max().expect("a game has an SPE");
            let sincere = of(sincere)?;
            let optimum = match optimum(dinner, &counts, w, budget) {
                Ok((value, _)) => Some(value),
                Err(DinnerError::Engine(_)) => None,
                Err(e) => return Err(e),
            };
            Ok(Comparison {
                measure: w,
                sincere,
                spe_worst: worst,
                spe_best: best,
                optimum,
                price_of_anarchy: optimum.and_then(|o| ratio(o, worst)),
                price_of_stability: optimum.and_then(|o| ratio(o, best)),
                sincere_over_worst: ratio(sincere, worst),
                sincere_over_best: ratio(sincere, best),
            })
        })
        .collect()
}

/// The number of allocations with these counts: `n! / (c_1! ... c_k!)`, saturating.
pub fn multinomial(counts: &[usize]) -> u128 {
    let mut total: u128 = 1;
    let mut placed = 0u128;
    for &c in counts {
        for i in 1..=c as u128 {
            placed += 1;
            // total * placed / i stays an integer at each step (a binomial coefficient).
            total = match total.checked_mul(placed) {
                Some(x) => x / i,
                None => return u128::MAX,
            };
        }
    }
    total
}

fn scores_of(dinner: &Dinner, owner: &[usize]) -> Vec<Exact> {
    let mut sums = vec![0i128; dinner.players()];
    for (m, &p) in owner.iter().enumerate() {
        sums[p] += dinner.utility(m, p) as i128;
    }
    sums.into_iter().map(|s| dinner.unscale(s)).collect()
}

struct Search<'a> {
    dinner: &'a Dinner,
    measure: Welfare,
    left: Vec<usize>,
    owner: Vec<usize>,
    sums: Vec<i128>,
    best: Option<(Exact, Vec<usize>)>,
}

impl Search<'_> {
    fn go(&mut self, m: usize) -> Result<(), DinnerError> {
        if m == self.owner.len() {
            let scores: Vec<Exact> = self.sums.iter().map(|&s| self.dinner.unscale(s)).collect();
            let w = self
                .measure
                .of(&scores)
                .ok_or(DinnerError::Overflow(self.owner.len()))?;
            if self.best.as_ref().is_none_or(|(b, _)| w > *b) {
                self.best = Some((w, self.owner.clone()));
            }
            return Ok(());
        }
        for p in 0..self.left.len() {
            if self.left[p] == 0 {
                continue;
            }
            self.left[p] -= 1;
            self.owner[m] = p;
            let u = self.dinner.utility(m, p) as i128;
            self.sums[p] += u;
            self.go(m + 1)?;
            self.sums[p] -= u;
            self.left[p] += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn multinomial_counts_allocations() {
        assert_eq!(multinomial(&[2, 2]), 6);
        assert_eq!(multinomial(&[8, 8]), 12870);
        assert_eq!(multinomial(&[4, 4, 4]), 34650);
        assert_eq!(multinomial(&[200, 200]), u128::MAX);
    }

    /// The two-agent sort against the enumeration.
    #[test]
    fn utilitarian_sort_is_the_enumeration() {
        let mut rng = Rng::for_trial(29, 11);
        for _ in 0..200 {
            let n = 1 + rng.below(10) as usize;
            let flat = (0..2 * n).map(|_| rng.below(7) as i64 - 2).collect();
            let d = Dinner::from_integers(2, flat).unwrap();
            let a = rng.below(n as u64 + 1) as usize;
            let counts = [a, n - a];
            let (fast, owner) =
                optimum(&d, &counts, Welfare::Utilitarian, Budget::default()).unwrap();
            assert_eq!(owner.iter().filter(|&&p| p == 0).count(), a);
            let mut all = Search {
                dinner: &d,
                measure: Welfare::Utilitarian,
                left: counts.to_vec(),
                owner: vec![0; n],
                sums: vec![0; 2],
                best: None,
            };
            all.go(0).unwrap();
            assert_eq!(fast, all.best.unwrap().0);
        }
    }
}
