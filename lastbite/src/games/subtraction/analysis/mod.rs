//! Per-ruleset analyses decided exactly through the certificate, the sweeps over families
//! of rulesets, and the paper's conjectures and problems as checks with verdicts.
//!
//! Beyond the pre-period every outcome shifts by the same `(c, c)` per period, so every
//! *difference* between two conventions (and between AvA and the zero-sum score) repeats
//! with the period: a property of differences that holds on all heaps below `h0 + p`
//! holds on all heaps. That makes "never" a proof, not a bounded search.

//!
//! Here one ruleset's analysis and the shapes its report groups; the families of
//! rulesets a sweep covers in `family.rs`, the conjectures and problems as checks with
//! verdicts in `statements.rs`.

mod family;
mod statements;

pub use family::{ruleset_bytes, rulesets_of, Family, MAX_RULESETS};
pub use statements::{
    check_one, check_statement, statement_families, statement_rulesets, Checked, Positive,
    ProblemRecord, ScanRecord, Statement, Verdict, PROBLEM5,
};

use super::model::{Convention, Ruleset, SubtractionError};
use super::theory::{
    find_period_until, first_discrepancy, first_zero_sum_discrepancy, Period, Table,
};
use crate::engine::{Progress, Silent};

/// A unilateral deviation of the Appendix: from `from` to `to`, one player changes her
/// convention; `player` 0 is Alice (who starts), 1 is Bob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deviation {
    /// The setting before.
    pub from: Convention,
    /// The setting after.
    pub to: Convention,
    /// The deviating player (0 Alice, 1 Bob).
    pub player: usize,
}

/// The four unilateral deviations the paper studies, plus the two toward AvA of
/// Problem 6.
pub const DEVIATIONS: [(&str, Deviation); 6] = [
    (
        "FvF_to_AvF_alice",
        Deviation {
            from: Convention::FvF,
            to: Convention::AvF,
            player: 0,
        },
    ),
    (
        "FvF_to_FvA_bob",
        Deviation {
            from: Convention::FvF,
            to: Convention::FvA,
            player: 1,
        },
    ),
    (
        "AvA_to_FvA_alice",
        Deviation {
            from: Convention::AvA,
            to: Convention::FvA,
            player: 0,
        },
    ),
    (
        "AvA_to_AvF_bob",
        Deviation {
            from: Convention::AvA,
            to: Convention::AvF,
            player: 1,
        },
    ),
    (
        "FvA_to_AvA_alice",
        Deviation {
            from: Convention::FvA,
            to: Convention::AvA,
            player: 0,
        },
    ),
    (
        "AvF_to_AvA_bob",
        Deviation {
            from: Convention::AvF,
            to: Convention::AvA,
            player: 1,
        },
    ),
];

/// Everything the sweeps record about one ruleset.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The ruleset.
    pub set: Ruleset,
    /// Its certified periodicity.
    pub period: Period,
    table: Table,
}

fn part(p: (u64, u64), player: usize) -> i64 {
    if player == 0 {
        p.0 as i64
    } else {
        p.1 as i64
    }
}

impl Analysis {
    /// Analyses a ruleset, searching for its period up to heap `limit`.
    pub fn new(set: &Ruleset, limit: u64) -> Result<Analysis, SubtractionError> {
        Self::new_until(set, limit, &Silent)
    }

    /// [`Analysis::new`], giving up with [`SubtractionError::Cancelled`] when `stop` says
    /// so.
    pub fn new_until(
        set: &Ruleset,
        limit: u64,
        stop: &dyn Progress,
    ) -> Result<Analysis, SubtractionError> {
        let (period, table) = find_period_until(set, limit, stop)?;
        Ok(Analysis {
            set: set.clone(),
            period,
            table,
        })
    }

    /// The table the period was found in.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Every difference between conventions repeats from here on: heaps below it decide.
    pub fn horizon(&self) -> u64 {
        self.period.preperiod + self.period.period
    }

    /// The smallest heap where `x` and `y` differ, or `None`: never.
    pub fn first_discrepancy(&self, x: Convention, y: Convention) -> Option<u64> {
        first_discrepancy(&self.table, &self.period, x, y)
    }

    /// The smallest heap where AvA and zero-sum play differ, or `None`: never.
    pub fn first_zero_sum_discrepancy(&self) -> Option<u64> {
        first_zero_sum_discrepancy(&self.table, &self.period)
    }

    /// The largest change of `player`'s utility from `from` to `to` over all heaps, and the
    /// smallest heap attaining it.
    pub fn largest_change(&self, from: Convention, to: Convention, player: usize) -> (i64, u64) {
        (0..self.horizon())
            .map(|h| {
                (
                    part(self.table.outcome(to, h), player)
                        - part(self.table.outcome(from, h), player),
                    h,
                )
            })
            .fold(
                (i64::MIN, 0),
                |best, (d, h)| if d > best.0 { (d, h) } else { best },
            )
    }

    /// The smallest heap where some player is strictly better off in `from` than... in
    /// `to` (`worse` true) or strictly better off in `to` (`worse` false), if any.
    fn first_strict(&self, from: Convention, to: Convention, gain: bool) -> Option<(u64, usize)> {
        (0..self.horizon()).find_map(|h| {
            let (a, b) = (self.table.outcome(from, h), self.table.outcome(to, h));
            (0..2).find_map(|p| {
                let d = part(b, p) - part(a, p);
                ((gain && d > 0) || (!gain && d < 0)).then_some((h, p))
            })
        })
    }
}

/// The shape of a ruleset, as Problem 4's report groups the rulesets with no discrepancy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroClass {
    /// The largest element is at least twice the second largest (where the paper proves
    /// pairs have no discrepancy).
    Dominant,
    /// A pair `{s1, s2}` with `s1` a multiple of `s2 - s1` (ratio `(k+1)/k`,
    /// Conjecture 11).
    HalfLine,
    /// Any other shape.
    Other,
}

impl ZeroClass {
    /// The class of a ruleset's elements (in increasing order).
    ///
    /// ```
    /// use lastbite::games::subtraction::analysis::ZeroClass;
    /// assert_eq!(ZeroClass::of(&[2, 5]), ZeroClass::Dominant);
    /// assert_eq!(ZeroClass::of(&[3, 4]), ZeroClass::HalfLine);
    /// assert_eq!(ZeroClass::of(&[3, 4, 5]), ZeroClass::Other);
    /// ```
    pub fn of(e: &[u64]) -> ZeroClass {
        let k = e.len();
        if k >= 2 && e[k - 1] >= 2 * e[k - 2] {
            ZeroClass::Dominant
        } else if k == 2 && e[0].is_multiple_of(e[1] - e[0]) {
            ZeroClass::HalfLine
        } else {
            ZeroClass::Other
        }
    }
}

/// Whether a ruleset's elements have no common factor (a ruleset and its multiples play
/// alike, scaled).
///
/// ```
/// use lastbite::games::subtraction::analysis::is_primitive;
/// assert!(is_primitive(&[2, 3]));
/// assert!(!is_primitive(&[2, 4, 6]));
/// ```
pub fn is_primitive(elements: &[u64]) -> bool {
    elements
        .iter()
        .fold(0u128, |g, &x| crate::number::gcd(g, x as u128))
        == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement that is false is caught: Table 3's S = {4, 5, 9} has a player gaining by
    /// a unilateral deviation from FvF (heap 61), so "no deviation from FvF pays" fails.
    #[test]
    fn a_false_statement_fails() {
        let a = Analysis::new(&"4,5,9".parse().unwrap(), 1 << 20).unwrap();
        let (gain, heap) = a.largest_change(Convention::FvF, Convention::FvA, 1);
        assert_eq!((gain, heap), (1, 61));
    }
}
