//! Generalized payoffs (paper: "Generalized payoffs") and the open questions "Delayed
//! gratification" and "Inaccessible morsels", computed with the engine.
//!
//! * Altruism payoffs reduce to a plain dinner D' with morsels
//!   `(alpha_A a - beta_A b, beta_B b - alpha_B a)` after centring both utility columns
//!   ([`transformed`]); crossout on D' is then an equilibrium of the original game. The
//!   zero-sum case (`alpha_A = beta_B = 1`, `alpha_B = beta_A = -1`) plays by decreasing
//!   temperature `a + b`, the cooperative case (all ones) splits by `a - b`.
//! * With a discount, crossout is no longer guaranteed to be an equilibrium:
//!   [`discount_check`] asks the verifier, [`discount_search`] finds the smallest
//!   permutation dinner where it fails.

use crate::engine::{verify, Budget, Deviation, Player, Verdict};
use crate::exact::Exact;

use crate::games::dinner::model::Bite;
use crate::games::dinner::model::Rules;
use crate::games::dinner::model::Setup;
use crate::games::dinner::model::{Dinner, DinnerError, TurnOrder};
use crate::games::dinner::solver::game::DinnerGame;
use crate::games::dinner::theory::crossout::crossout;
use crate::games::dinner::theory::strategies::Strategy;

/// The paper's equivalent dinner D' for altruism payoffs (two players): centre each
/// utility column, then `m'_i = (alpha_A a_i - beta_A b_i, beta_B b_i - alpha_B a_i)`.
pub fn transformed(dinner: &Dinner, rules: &Rules) -> Result<Dinner, DinnerError> {
    if dinner.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers(
            "the transformed dinner D'",
            dinner.players(),
        ));
    }
    let c = rules.altruism_matrix().ok_or(DinnerError::NoAltruism)?;
    let (alpha_a, alpha_b, beta_a, beta_b) = (c[0][0], c[0][1], c[1][0], c[1][1]);
    let n = dinner.len() as i128;
    let overflow = || DinnerError::Overflow(dinner.len());
    let mean = |p: Player| -> Result<Exact, DinnerError> {
        let total: i128 = (0..dinner.len())
            .map(|i| dinner.utility(i, p) as i128)
            .sum();
        Exact::new(total, dinner.scale().checked_mul(n).ok_or_else(overflow)?).ok_or_else(overflow)
    };
    let (mean_a, mean_b) = (mean(0)?, mean(1)?);
    let mut flat = Vec::with_capacity(2 * dinner.len());
    for i in 0..dinner.len() {
        let a = dinner
            .value(i, 0)
            .checked_add(&-mean_a)
            .ok_or_else(overflow)?;
        let b = dinner
            .value(i, 1)
            .checked_add(&-mean_b)
            .ok_or_else(overflow)?;
        let term = |x: Exact, y: Exact| x.checked_mul(&y).ok_or_else(overflow);
        flat.push(
            term(alpha_a, a)?
                .checked_add(&-term(beta_a, b)?)
                .ok_or_else(overflow)?,
        );
        flat.push(
            term(beta_b, b)?
                .checked_add(&-term(alpha_b, a)?)
                .ok_or_else(overflow)?,
        );
    }
    Dinner::from_flat(2, flat, |i, p| {
        format!(
            "transformed morsel {i}, utility of {}",
            crate::engine::player_letter(p)
        )
    })
}

/// The crossout play under `rules`: plain crossout, or crossout on the transformed dinner
/// D' for altruism payoffs, scored by [`Scoring`](crate::games::dinner::model::Scoring) (no game is built, so any size works).
/// `Err` for rules crossout does not cover (discount, partial order).
pub fn crossout_under(setup: &Setup) -> Result<(Vec<Bite>, Vec<Exact>), DinnerError> {
    let (dinner, order, rules) = (setup.dinner(), setup.order(), setup.rules());
    if rules.discount().is_some() || rules.before().is_some_and(|b| !b.is_trivial()) {
        return Err(DinnerError::CrossoutRules);
    }
    let bites: Vec<Bite> = match rules.altruism_matrix() {
        None => crossout(setup)?.eating().collect(),
        Some(_) => crossout(&Setup::ordered(transformed(dinner, rules)?, order.clone())?)?
            .eating()
            .collect(),
    };
    let scores = setup.scoring().score(dinner, bites.iter().copied())?;
    Ok((bites, scores))
}

/// Whether crossout (the plain crossout strategy, ignoring the discount) is still a
/// subgame perfect equilibrium of the discounted dinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscountCheck {
    /// `true` when no one-shot deviation from (crossout, crossout) pays.
    pub crossout_is_spe: bool,
    /// A profitable deviation: at a set of remaining morsels (a mask), a player's
    /// prescribed and better morsels and the gain in real units.
    pub deviation: Option<Deviation<u64, usize, Exact>>,
}

/// Checks (crossout, crossout) on a setup's game: the dinner under its rules (a discount
/// per turn), crossout playing the plain dinner's strategy.
pub fn discount_check(setup: &Setup, budget: Budget) -> Result<DiscountCheck, DinnerError> {
    let (dinner, order) = (setup.dinner(), setup.order());
    if dinner.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers("crossout", dinner.players()));
    }
    let game = DinnerGame::<i128>::new(setup, false)?;
    let verdict = verify(&game, budget, |s, _| {
        Strategy::Crossout
            .choose(dinner, order, *s)
            .expect("two players")
    })?;
    Ok(match verdict {
        Verdict::SubgamePerfect { .. } => DiscountCheck {
            crossout_is_spe: true,
            deviation: None,
        },
        Verdict::Deviation(d) => DiscountCheck {
            crossout_is_spe: false,
            deviation: Some(Deviation {
                state: d.state,
                player: d.player,
                prescribed: d.prescribed,
                better: d.better,
                gain: game.real(d.gain),
            }),
        },
    })
}

/// Searches the permutation dinners of sizes `1..=max_size` (the turn order each
/// size's default) for the smallest, then lexicographically first, where crossout is not
/// an equilibrium under `discount`: [`discount_piece`] over [`discount_pieces`] in order.
pub fn discount_search(
    discount: Exact,
    max_size: usize,
    budget: Budget,
) -> Result<Option<(Dinner, DiscountCheck)>, DinnerError> {
    for (n, piece) in discount_pieces(max_size) {
        if let Some(perm) = discount_piece(discount, n, piece, budget)? {
            return discounted(&perm, discount, budget).map(Some);
        }
    }
    Ok(None)
}

/// Permutation dinners a piece of the discount search checks (the last of a size fewer).
pub const DISCOUNT_PIECE: u64 = 5040;

/// The pieces of the discount search up to `max_size`, in its order: `(size, piece)`,
/// each size's `n!` permutations cut into runs of [`DISCOUNT_PIECE`].
pub fn discount_pieces(max_size: usize) -> Vec<(usize, u64)> {
    (1..=max_size)
        .flat_map(|n| {
            let total: u64 = (1..=n as u64).product();
            (0..total.div_ceil(DISCOUNT_PIECE)).map(move |k| (n, k))
        })
        .collect()
}

/// How many permutations piece `piece` of size `n` holds.
pub fn discount_piece_len(n: usize, piece: u64) -> u64 {
    let total: u64 = (1..=n as u64).product();
    (total - piece * DISCOUNT_PIECE).min(DISCOUNT_PIECE)
}

/// The first permutation of piece `piece` of size `n` (those of lexicographic rank
/// `piece * DISCOUNT_PIECE` on) whose crossout is not an equilibrium under `discount`.
pub fn discount_piece(
    discount: Exact,
    n: usize,
    piece: u64,
    budget: Budget,
) -> Result<Option<Vec<i64>>, DinnerError> {
    let mut perm = unrank(n, piece * DISCOUNT_PIECE);
    for _ in 0..discount_piece_len(n, piece) {
        if !discounted(&perm, discount, budget)?.1.crossout_is_spe {
            return Ok(Some(perm));
        }
        next_permutation(&mut perm);
    }
    Ok(None)
}

/// The permutation dinner `perm` under `discount` (its size's default turn order) and
/// its check.
pub fn discounted(
    perm: &[i64],
    discount: Exact,
    budget: Budget,
) -> Result<(Dinner, DiscountCheck), DinnerError> {
    let d = Dinner::permutation(perm)?;
    let order = TurnOrder::default_for(&d);
    let setup = Setup::new(d, order, Rules::default().with_discount(discount)?)?;
    let check = discount_check(&setup, budget)?;
    Ok((setup.dinner().clone(), check))
}

/// The `index`-th permutation of `1..=n` in lexicographic order.
pub fn unrank(n: usize, mut index: u64) -> Vec<i64> {
    let mut pool: Vec<i64> = (1..=n as i64).collect();
    let mut fact: Vec<u64> = vec![1; n + 1];
    for i in 1..=n {
        fact[i] = fact[i - 1] * i as u64;
    }
    let mut out = Vec::with_capacity(n);
    for i in (0..n).rev() {
        let j = (index / fact[i]) as usize;
        index %= fact[i];
        out.push(pool.remove(j));
    }
    out
}

/// Advances to the next permutation in lexicographic order; `false` after the last.
pub fn next_permutation<T: Ord>(v: &mut [T]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len())
        .rev()
        .find(|&j| v[j] > v[i - 1])
        .expect("a larger element exists");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{crossout_under, discount_check, next_permutation, Rules, Setup};
    use crate::engine::{Budget, Silent};
    use crate::exact::Exact;
    use crate::games::dinner::solver::crosscheck::{dinner_of, order_of};
    use crate::games::dinner::{solve_exact, DinnerTies, DEFAULT_DINNER_MEMORY};
    use crate::games::dinner::{Dinner, TurnOrder};

    fn x(n: i64) -> Exact {
        Exact::integer(n as i128)
    }

    proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]

            /// Crossout on the transformed dinner D' gives the exact SPE payoffs of the
            /// altruism game (index tie rule on both routes), for any two-player turn order
            /// whose counts of turns per player are fixed (all of them).
            #[test]
            fn altruism_transform_equals_exact(
                values in prop::collection::vec((-9i64..10, -9i64..10), 1..=9),
                coeffs in prop::collection::vec(-3i64..=3, 4),
                bits in any::<u64>(),
            ) {
                let d = dinner_of(&values);
                let order = order_of(&d, bits);
                let rules = Rules::altruism(x(coeffs[0]), x(coeffs[1]), x(coeffs[2]), x(coeffs[3]));
                let (_, via_crossout) = crossout_under(&Setup::new(d.clone(), order.clone(), rules.clone()).expect("a valid setup")).unwrap();
                let exact = solve_exact(
    &Setup::new(d.clone(), order.clone(), rules.clone()).expect("a valid setup"), &DinnerTies::Index, Budget::default(), DEFAULT_DINNER_MEMORY, &Silent, None).unwrap();
                prop_assert_eq!(via_crossout, exact.scores);
            }

            /// Zero-sum case: play proceeds by decreasing temperature a + b.
            #[test]
            fn zero_sum_plays_by_temperature(perm in Just((1..=8i64).collect::<Vec<_>>()).prop_shuffle(), shift in 0i64..100) {
                let values: Vec<(i64, i64)> = perm.iter().enumerate().map(|(i, &b)| (i as i64 * 3 + shift % 7, b * 5)).collect();
                let d = dinner_of(&values);
                let order = TurnOrder::default_for(&d);
                let rules = Rules::altruism(x(1), x(-1), x(-1), x(1));
                let exact = solve_exact(
    &Setup::new(d.clone(), order.clone(), rules.clone()).expect("a valid setup"), &DinnerTies::Index, Budget::default(), DEFAULT_DINNER_MEMORY, &Silent, None).unwrap();
                let temps: Vec<i64> = exact.eating.iter().map(|b| d.utility(b.morsel, 0) + d.utility(b.morsel, 1)).collect();
                prop_assert!(temps.windows(2).all(|w| w[0] >= w[1]), "{:?}", temps);
            }

            /// Cooperative case: Alice ends up with the floor(n/2) morsels of largest a - b.
            #[test]
            fn cooperative_splits_by_difference(perm in Just((1..=8i64).collect::<Vec<_>>()).prop_shuffle(), len in 1usize..=8) {
                let b: Vec<i64> = perm.into_iter().filter(|&v| v <= len as i64).collect();
                let values: Vec<(i64, i64)> = b.iter().enumerate().map(|(i, &bi)| (10 * i as i64, bi)).collect();
                let d = dinner_of(&values);
                let order = TurnOrder::default_for(&d);
                let rules = Rules::altruism(x(1), x(1), x(1), x(1));
                let exact = solve_exact(
    &Setup::new(d.clone(), order.clone(), rules.clone()).expect("a valid setup"), &DinnerTies::Index, Budget::default(), DEFAULT_DINNER_MEMORY, &Silent, None).unwrap();
                let mut alice: Vec<usize> = exact.eating.iter().filter(|b| b.player == 0).map(|b| b.morsel).collect();
                alice.sort_unstable();
                let mut by_diff: Vec<usize> = (0..d.len()).collect();
                by_diff.sort_by_key(|&i| std::cmp::Reverse(d.utility(i, 0) - d.utility(i, 1)));
                let mut top: Vec<usize> = by_diff[..d.len() / 2].to_vec();
                top.sort_unstable();
                prop_assert_eq!(alice, top);
            }
        }

    #[test]
    fn discount_one_keeps_crossout() {
        let d = Dinner::from_morsels("1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7").unwrap();
        let rules = Rules::default().with_discount(Exact::integer(1)).unwrap();
        let setup = Setup::new(d.clone(), TurnOrder::default_for(&d), rules).unwrap();
        let check = discount_check(&setup, Budget::default()).unwrap();
        assert!(check.crossout_is_spe);
    }

    #[test]
    fn permutations_in_order() {
        let mut v = vec![1, 2, 3];
        let mut seen = vec![v.clone()];
        while next_permutation(&mut v) {
            seen.push(v.clone());
        }
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[1], vec![1, 3, 2]);
        assert_eq!(seen[5], vec![3, 2, 1]);
    }
}
