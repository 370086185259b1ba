//! Balanced alternation (paper: "First move advantage"; Brams and Taylor): does the
//! Thue-Morse turn order reduce the first mover's advantage compared with alternation?
//!
//! For each size, random permutation dinners (Alice's utilities `1..n` by morsel, Bob's a
//! uniformly random permutation, so the two players are alike in distribution) are played
//! under crossout with Alice first, and the first mover's advantage is her score minus
//! Bob's, as a percentage of one player's total utility `n(n+1)/2`. Exact means.

use crate::engine::{Progress, Silent};
use crate::par::prelude::*;

use crate::exact::Exact;
use crate::rng::Rng;

use crate::games::dinner::model::{Dinner, DinnerError, TurnOrder};
use crate::games::dinner::theory::crossout::crossout_of;

/// The mean first-mover advantage at one size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advantage {
    /// Number of morsels.
    pub size: usize,
    /// Alternation A B A B ...: mean (A - B) as a percentage of n(n+1)/2.
    pub alternation: Exact,
    /// Thue-Morse A B B A B A A B ...: the same.
    pub thue_morse: Exact,
}

/// The summed score differences (Alice - Bob) of `trials` random permutation dinners of
/// `n` morsels under alternation and under Thue-Morse (one row of
/// [`first_mover_advantage`]).
pub fn size_sums(n: usize, trials: u64, seed: u64) -> (i128, i128) {
    size_sums_until(n, trials, seed, &Silent).expect("never stopped")
}

/// [`size_sums`], asking `stop` before each trial: `None` when it said to stop.
pub fn size_sums_until(
    n: usize,
    trials: u64,
    seed: u64,
    stop: &dyn Progress,
) -> Option<(i128, i128)> {
    let sums = (0..trials)
        .into_par_iter()
        .map(|t| {
            if stop.cancelled() {
                return (0, 0);
            }
            let b = Rng::for_trial(seed, ((n as u64) << 32) + t).permutation(n);
            let d = Dinner::permutation(&b).expect("valid");
            // Orders built for the dinner: no setup each (it would cost more than the play).
            let diff = |order: TurnOrder| {
                let c = crossout_of(&d, &order);
                c.scores[0] - c.scores[1]
            };
            (
                diff(TurnOrder::alternating(&d, 0)),
                diff(TurnOrder::thue_morse(&d)),
            )
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    // Sums cut short by a stop are not sums of every trial.
    (!stop.cancelled()).then_some(sums)
}

/// A row of the table from its sums ([`size_sums`]): the mean differences as percentages
/// of a player's total.
pub fn advantage(n: usize, trials: u64, alt: i128, tm: i128) -> Advantage {
    let total = (n * (n + 1) / 2) as i128 * trials as i128;
    Advantage {
        size: n,
        alternation: Exact::new(100 * alt, total).expect("positive"),
        thue_morse: Exact::new(100 * tm, total).expect("positive"),
    }
}

/// Mean first-mover advantages for sizes `1..=max_size`, `trials` dinners each (trial `t`
/// of size `n` draws stream `n * 2^32 + t` of `seed`).
pub fn first_mover_advantage(
    max_size: usize,
    trials: u64,
    seed: u64,
    progress: &dyn Progress,
) -> Result<Vec<Advantage>, DinnerError> {
    if !(1..=100_000).contains(&max_size) {
        return Err(DinnerError::Size {
            what: "the balance table",
            size: max_size,
            unit: "size up to the largest",
            min: 1,
            max: 100_000,
        });
    }
    if trials == 0 {
        return Err(DinnerError::NoTrials);
    }
    progress.start(max_size as u64, "sizes");
    let out: Vec<Advantage> = (1..=max_size)
        .take_while(|_| !progress.cancelled())
        .map(|n| {
            let (alt, tm) = size_sums(n, trials, seed);
            progress.advance(1);
            advantage(n, trials, alt, tm)
        })
        .collect();
    progress.finish();
    if progress.cancelled() {
        return Err(crate::engine::EngineError::Cancelled.into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;

    #[test]
    fn one_morsel_goes_to_the_first_mover() {
        let a = first_mover_advantage(2, 10, 1, &Silent).unwrap();
        assert_eq!(a[0].alternation, Exact::integer(100));
        assert_eq!(a[0].thue_morse, Exact::integer(100));
        // Two morsels: both orders are A B, so they agree.
        assert_eq!(a[1].alternation, a[1].thue_morse);
    }
}
