//! The paper's conjectures and problems as checks with verdicts, decided exactly per
//! ruleset through the certificate, and the records a scan writes.

use crate::engine::{Progress, Silent};
use crate::games::subtraction::model::{Convention, Ruleset, SubtractionError};
use crate::games::subtraction::theory::{Period, Table};

use super::family::Family;
use super::{part, Analysis, Deviation, DEVIATIONS};

/// A conjecture or problem of the paper, as a check on one ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statement {
    /// Conjecture 4: FvF is never worse than AvA for either player.
    C4,
    /// Conjecture 11: s1/s2 = (k+1)/k gives no FvF/AvA discrepancy.
    C11,
    /// Conjecture 12: otherwise, in the non-dominant regime, the first discrepancy is at
    /// (n+2) s2 + n s1, n = floor(s2 / (s1 - s2)).
    C12,
    /// Conjecture 13: for s1 >= 2 s2, no discrepancy in {s3, s2} means none in S.
    C13,
    /// Conjecture 14: additive triples s1 = s3 + s2 have a discrepancy iff s2/s3 is not an
    /// integer, first at n s3 + (2n+2) s2, n = floor(s2/s3).
    C14,
    /// Conjecture 15: for pairs, zero-sum equals o^1_AvA - o^2_AvA.
    C15,
    /// Conjecture 16: triples with s2 <= 2 s3 or s1 >= s2 + s3 have no AvA/zero-sum
    /// discrepancy.
    C16,
    /// Conjecture 17: discrepancies are bounded.
    C17,
    /// Problem 2: discrepancies are eventually periodic with period 2 max S.
    P2,
    /// Problem 3: a bound on the pre-period (recorded: h0 / max S).
    P3,
    /// Problem 6: no player gains by going from AvF or FvA to AvA.
    P6,
}

impl Statement {
    /// Parses `4`, `11`, ..., `17`, `p2`, `p3`, `p6`.
    pub fn parse(s: &str) -> Result<Statement, SubtractionError> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "4" => Statement::C4,
            "11" => Statement::C11,
            "12" => Statement::C12,
            "13" => Statement::C13,
            "14" => Statement::C14,
            "15" => Statement::C15,
            "16" => Statement::C16,
            "17" => Statement::C17,
            "p2" => Statement::P2,
            "p3" => Statement::P3,
            "p6" => Statement::P6,
            other => {
                return Err(SubtractionError::Budget(format!(
                    "unknown statement '{other}' (conjectures 4, 11-17; problems p2, p3, p6)"
                )))
            }
        })
    }

    /// The set sizes the statement is about (`None`: any).
    pub fn sizes(self) -> Option<usize> {
        match self {
            Statement::C11 | Statement::C12 | Statement::C15 => Some(2),
            Statement::C13 | Statement::C14 | Statement::C16 => Some(3),
            _ => None,
        }
    }

    /// Checks one ruleset: `Ok(None)` when the statement holds or does not apply,
    /// `Ok(Some((heap, why)))` for a counterexample.
    pub fn check(
        self,
        a: &Analysis,
        limit: u64,
        stop: &dyn Progress,
    ) -> Result<Option<(Option<u64>, String)>, SubtractionError> {
        let e = a.set.elements();
        let fa = || a.first_discrepancy(Convention::FvF, Convention::AvA);
        let zero_sum_failure = || {
            a.first_zero_sum_discrepancy().map(|h| {
                let (u, v) = a.table().outcome(Convention::AvA, h);
                (
                    Some(h),
                    format!("zero-sum {} vs AvA ({u},{v})", a.table().zero_sum(h)),
                )
            })
        };
        let show = |h: u64| {
            let p = |x| {
                let (u, v) = a.table().outcome(x, h);
                format!("{x} ({u},{v})")
            };
            format!(
                "{}, {}, {}, {}",
                p(Convention::FvF),
                p(Convention::FvA),
                p(Convention::AvF),
                p(Convention::AvA)
            )
        };
        Ok(match self {
            Statement::C4 => {
                a.first_strict(Convention::FvF, Convention::AvA, true)
                    .map(|(h, p)| {
                        (
                            Some(h),
                            format!("player {} is better off in AvA: {}", p + 1, show(h)),
                        )
                    })
            }
            Statement::C11 => {
                let (s2, s1) = (e[0], e[1]);
                // s1/s2 = (k+1)/k  <=>  s2 is a multiple of s1 - s2.
                if e.len() == 2 && s2.is_multiple_of(s1 - s2) {
                    fa().map(|h| {
                        (
                            Some(h),
                            format!("s1/s2 = (k+1)/k but FvF and AvA differ: {}", show(h)),
                        )
                    })
                } else {
                    None
                }
            }
            Statement::C12 => {
                let (s2, s1) = (e[0], e[1]);
                if e.len() == 2 && s1 < 2 * s2 && !s2.is_multiple_of(s1 - s2) {
                    let n = s2 / (s1 - s2);
                    let predicted = (n + 2) * s2 + n * s1;
                    match fa() {
                        Some(h) if h == predicted => None,
                        Some(h) => Some((
                            Some(h),
                            format!("first discrepancy at {h}, predicted {predicted} (n = {n})"),
                        )),
                        None => Some((
                            None,
                            format!("no discrepancy at all, predicted at {predicted} (n = {n})"),
                        )),
                    }
                } else {
                    None
                }
            }
            Statement::C13 => {
                let (s3, s2, s1) = (e[0], e[1], e[2]);
                if e.len() == 3 && s1 >= 2 * s2 {
                    let sub = Analysis::new_until(&Ruleset::new(vec![s3, s2])?, limit, stop)?;
                    if sub
                        .first_discrepancy(Convention::FvF, Convention::AvA)
                        .is_none()
                    {
                        fa().map(|h| {
                            (
                                Some(h),
                                format!("{{s3, s2}} has no discrepancy but S does: {}", show(h)),
                            )
                        })
                    } else {
                        None
                    }
                } else {
                    None
                }
            }
            Statement::C14 => {
                let (s3, s2, s1) = (e[0], e[1], e[2]);
                if e.len() == 3 && s1 == s3 + s2 {
                    let integer = s2.is_multiple_of(s3);
                    match (integer, fa()) {
                        (true, None) => None,
                        (true, Some(h)) => Some((
                            Some(h),
                            format!("s2/s3 is an integer but FvF and AvA differ: {}", show(h)),
                        )),
                        (false, None) => Some((
                            None,
                            "s2/s3 is not an integer but there is no discrepancy".into(),
                        )),
                        (false, Some(h)) => {
                            let n = s2 / s3;
                            let predicted = n * s3 + (2 * n + 2) * s2;
                            (h != predicted).then(|| {
                                (
                                    Some(h),
                                    format!(
                                        "first discrepancy at {h}, predicted {predicted} (n = {n})"
                                    ),
                                )
                            })
                        }
                    }
                } else {
                    None
                }
            }
            Statement::C15 => {
                if e.len() == 2 {
                    zero_sum_failure()
                } else {
                    None
                }
            }
            Statement::C16 => {
                let (s3, s2, s1) = (e[0], e[1], e[2]);
                if e.len() == 3 && (s2 <= 2 * s3 || s1 >= s2 + s3) {
                    zero_sum_failure()
                } else {
                    None
                }
            }
            // Certified periodicity makes every difference periodic, hence bounded: the
            // certificate itself is the verdict (an uncertified ruleset is an error).
            Statement::C17 => None,
            Statement::P2 => {
                let two_max = 2 * a.set.max();
                let p = a.period.period;
                // Differences repeat with p; they repeat with 2 max S when it is a multiple
                // of p, otherwise check the differences directly over one full cycle.
                if two_max.is_multiple_of(p) {
                    None
                } else {
                    let t = Table::compute(&a.set, a.horizon() + two_max)?;
                    let d = |h: u64| {
                        Convention::ALL.map(|x| {
                            let (u, v) = t.outcome(x, h);
                            let (f, g) = t.outcome(Convention::FvF, h);
                            (u as i64 - f as i64, v as i64 - g as i64)
                        })
                    };
                    (a.period.preperiod..a.horizon())
                        .find(|&h| d(h) != d(h + two_max))
                        .map(|h| {
                            (
                                Some(h),
                                format!(
                                    "outcome period {p}; the discrepancies at {h} and {} differ",
                                    h + two_max
                                ),
                            )
                        })
                }
            }
            Statement::P3 => None,
            Statement::P6 => {
                let fva = a.first_strict(Convention::FvA, Convention::AvA, true);
                let avf = a.first_strict(Convention::AvF, Convention::AvA, true);
                match (fva, avf) {
                    (Some((h, p)), _) => Some((
                        Some(h),
                        format!("player {} gains going from FvA to AvA: {}", p + 1, show(h)),
                    )),
                    (None, Some((h, p))) => Some((
                        Some(h),
                        format!("player {} gains going from AvF to AvA: {}", p + 1, show(h)),
                    )),
                    _ => None,
                }
            }
        })
    }
}

/// The two deviations of Problem 5 (Section 6): from FvF, Alice turns antagonistic (to
/// AvF) or Bob does (to FvA).
pub const PROBLEM5: [Deviation; 2] = [DEVIATIONS[0].1, DEVIATIONS[1].1];

/// A positive discrepancy of a deviation (Problem 5): some player is strictly better off
/// after it at some heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Positive {
    /// The smallest such heap.
    pub heap: u64,
    /// The player better off there (0 Alice, 1 Bob; Alice first when both are).
    pub player: usize,
    /// That player's largest gain over all heaps.
    pub gain: i64,
    /// Whether, at every heap where the deviator is strictly better off, the other player
    /// is worse off by exactly as much (the Appendix's observation; true when the
    /// deviator never gains).
    pub mirrored: bool,
}

/// What Problems 1, 4 and 5 of Section 6 ask of one ruleset, decided on every heap
/// through the certificate (differences repeat beyond the pre-period).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemRecord {
    /// Problem 1: the largest discrepancy FvF -> AvA in absolute value,
    /// `|o^i_AvA(h) - o^i_FvF(h)|` over both players and every heap, with the smallest
    /// heap and the player attaining it (`(0, 0, 0)`: no discrepancy).
    pub largest: (u64, u64, usize),
    /// Problem 4: FvF and AvA agree at every heap.
    pub zero: bool,
    /// Problem 5: the first positive discrepancy of each deviation of [`PROBLEM5`].
    pub positive: [Option<Positive>; 2],
}

impl ProblemRecord {
    /// Analyses one ruleset.
    ///
    /// ```
    /// use lastbite::games::subtraction::analysis::ProblemRecord;
    /// // Table 1: S = {3,5} first differs at heap 14, where Bob loses one point in AvA.
    /// let r = ProblemRecord::new(&"3,5".parse().unwrap(), 1 << 20).unwrap();
    /// assert!(!r.zero);
    /// assert!(r.largest.0 >= 1);
    /// ```
    pub fn new(set: &Ruleset, limit: u64) -> Result<ProblemRecord, SubtractionError> {
        Self::new_until(set, limit, &Silent)
    }

    /// [`ProblemRecord::new`], giving up with [`SubtractionError::Cancelled`] when `stop`
    /// says so.
    pub fn new_until(
        set: &Ruleset,
        limit: u64,
        stop: &dyn Progress,
    ) -> Result<ProblemRecord, SubtractionError> {
        let a = Analysis::new_until(set, limit, stop)?;
        let t = a.table();
        let mut largest = (0, 0, 0);
        for h in 0..a.horizon() {
            let (f, v) = (t.outcome(Convention::FvF, h), t.outcome(Convention::AvA, h));
            for p in 0..2 {
                let d = (part(v, p) - part(f, p)).unsigned_abs();
                if d > largest.0 {
                    largest = (d, h, p);
                }
            }
        }
        let positive = PROBLEM5.map(|d| {
            a.first_strict(d.from, d.to, true)
                .map(|(heap, player)| Positive {
                    heap,
                    player,
                    gain: a.largest_change(d.from, d.to, player).0,
                    mirrored: (0..a.horizon()).all(|h| {
                        let (x, y) = (t.outcome(d.from, h), t.outcome(d.to, h));
                        let gain = part(y, d.player) - part(x, d.player);
                        gain <= 0 || part(y, 1 - d.player) - part(x, 1 - d.player) == -gain
                    }),
                })
        });
        Ok(ProblemRecord {
            zero: largest.0 == 0,
            largest,
            positive,
        })
    }
}

/// What `subtraction scan` records per ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanRecord {
    /// The ruleset.
    pub set: Ruleset,
    /// Its periodicity.
    pub period: Period,
    /// First FvF/AvA discrepancy, or never.
    pub first_fvf_ava: Option<u64>,
    /// First AvA/zero-sum discrepancy, or never.
    pub first_ava_zero_sum: Option<u64>,
    /// For each of [`DEVIATIONS`]: the deviator's largest change of utility (positive: the
    /// deviation pays) and the smallest heap attaining it.
    pub deviation_gains: [(i64, u64); 6],
}

impl ScanRecord {
    /// Analyses one ruleset, giving up with [`SubtractionError::Cancelled`] when `stop`
    /// says so.
    pub fn new(
        set: &Ruleset,
        limit: u64,
        stop: &dyn Progress,
    ) -> Result<ScanRecord, SubtractionError> {
        let a = Analysis::new_until(set, limit, stop)?;
        Ok(ScanRecord {
            set: set.clone(),
            first_fvf_ava: a.first_discrepancy(Convention::FvF, Convention::AvA),
            first_ava_zero_sum: a.first_zero_sum_discrepancy(),
            deviation_gains: DEVIATIONS.map(|(_, d)| a.largest_change(d.from, d.to, d.player)),
            period: a.period,
        })
    }

    /// The record as one line of JSON (JSON lines output of `scan`).
    pub fn to_json(&self) -> serde_json::Value {
        let mut gains = serde_json::Map::new();
        for ((name, _), (g, h)) in DEVIATIONS.iter().zip(self.deviation_gains) {
            gains.insert((*name).into(), serde_json::json!({"gain": g, "heap": h}));
        }
        serde_json::json!({
            "set": self.set.elements(),
            "preperiod": self.period.preperiod,
            "period": self.period.period,
            "increment": self.period.increment,
            "first_FvF_AvA": self.first_fvf_ava,
            "first_AvA_zero_sum": self.first_ava_zero_sum,
            "deviation_gains": serde_json::Value::Object(gains),
        })
    }

    /// The CSV header matching [`ScanRecord::to_csv`].
    pub fn csv_header() -> String {
        let mut h = String::from("set,preperiod,period,increment,first_FvF_AvA,first_AvA_zero_sum");
        for (name, _) in DEVIATIONS {
            h.push_str(&format!(",{name}_gain,{name}_heap"));
        }
        h
    }

    /// The record as one CSV row (set elements separated by spaces; empty for never).
    pub fn to_csv(&self) -> String {
        let e: Vec<String> = self.set.elements().iter().map(|x| x.to_string()).collect();
        let opt = |x: Option<u64>| x.map_or(String::new(), |v| v.to_string());
        let mut row = format!(
            "{},{},{},{},{},{}",
            e.join(" "),
            self.period.preperiod,
            self.period.period,
            self.period.increment,
            opt(self.first_fvf_ava),
            opt(self.first_ava_zero_sum)
        );
        for (g, h) in self.deviation_gains {
            row.push_str(&format!(",{g},{h}"));
        }
        row
    }
}

/// The verdict of a statement over a family of rulesets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The statement.
    pub statement: Statement,
    /// Rulesets checked (those the statement applies to are a subset).
    pub rulesets: u64,
    /// Rulesets the statement applies to.
    pub applicable: u64,
    /// The smallest counterexample (by largest element, then lexicographically, then
    /// heap): the ruleset, the heap (if one), and what it shows.
    pub counterexample: Option<(Ruleset, Option<u64>, String)>,
    /// Problem 3: the largest pre-period seen and its ruleset.
    pub largest_preperiod: Option<(u64, Ruleset)>,
}

/// One ruleset's result: whether the hypothesis applies, the counterexample if any, and
/// the pre-period.
pub type Checked = (bool, Option<(Option<u64>, String)>, u64);

/// Checks `statement` on one ruleset ([`check_statement`] and the sharded sweep of the
/// API share it).
pub fn check_one(
    statement: Statement,
    set: &Ruleset,
    limit: u64,
    stop: &dyn Progress,
) -> Result<Checked, SubtractionError> {
    let applies =
        statement.sizes().is_none_or(|k| k == set.elements().len()) && applies_to(statement, set);
    let a = Analysis::new_until(set, limit, stop)?;
    let found = if applies {
        statement.check(&a, limit, stop)?
    } else {
        None
    };
    Ok((applies, found, a.period.preperiod))
}

/// Every ruleset of the given sizes (those of the statement's own size only, when it has
/// one) with largest element at most `max`, smallest first: by largest element, then
/// lexicographically, so the first failure is the smallest counterexample.
pub fn statement_rulesets(
    statement: Statement,
    sizes: &[usize],
    max: u64,
) -> Result<Vec<Ruleset>, SubtractionError> {
    let mut sets = super::family::rulesets_of(&statement_families(statement, sizes, max))?;
    sets.sort_unstable_by(|a, b| (a.max(), a.elements()).cmp(&(b.max(), b.elements())));
    Ok(sets)
}

/// The families [`statement_rulesets`] lists: every ruleset of each of the given sizes
/// (the statement's own size only, when it has one) with largest element at most `max`.
pub fn statement_families(statement: Statement, sizes: &[usize], max: u64) -> Vec<Family> {
    sizes
        .iter()
        .filter(|&&size| statement.sizes().is_none_or(|k| k == size))
        .map(|&size| Family::All { size, max })
        .collect()
}

/// Checks `statement` on every ruleset of `families` (each given as a size and a largest
/// element), in parallel, stopping at the chunk holding the smallest counterexample.
pub fn check_statement(
    statement: Statement,
    sizes: &[usize],
    max: u64,
    limit: u64,
    progress: &dyn crate::engine::Progress,
) -> Result<Verdict, SubtractionError> {
    use crate::par::prelude::*;
    let sets = statement_rulesets(statement, sizes, max)?;
    progress.start(sets.len() as u64, "rulesets");
    let mut verdict = Verdict {
        statement,
        rulesets: 0,
        applicable: 0,
        counterexample: None,
        largest_preperiod: None,
    };
    for chunk in sets.chunks(1024) {
        if progress.cancelled() {
            progress.finish();
            return Err(SubtractionError::Cancelled);
        }
        let results: Vec<Result<Checked, SubtractionError>> = chunk
            .par_iter()
            .map(|set| {
                let checked = check_one(statement, set, limit, progress)?;
                progress.advance(1);
                Ok(checked)
            })
            .collect();
        for (set, r) in chunk.iter().zip(results) {
            let (applies, found, h0) = r?;
            verdict.rulesets += 1;
            verdict.applicable += applies as u64;
            if verdict
                .largest_preperiod
                .as_ref()
                .is_none_or(|(m, _)| h0 > *m)
            {
                verdict.largest_preperiod = Some((h0, set.clone()));
            }
            if let Some((h, why)) = found {
                verdict.counterexample = Some((set.clone(), h, why));
                progress.finish();
                return Ok(verdict);
            }
        }
    }
    progress.finish();
    Ok(verdict)
}

/// Whether a statement's hypothesis covers a ruleset (the rest is in [`Statement::check`]).
fn applies_to(statement: Statement, set: &Ruleset) -> bool {
    let e = set.elements();
    match statement {
        Statement::C11 => e[0].is_multiple_of(e[1] - e[0]),
        Statement::C12 => e[1] < 2 * e[0] && !e[0].is_multiple_of(e[1] - e[0]),
        Statement::C13 => e[2] >= 2 * e[1],
        Statement::C14 => e[2] == e[0] + e[1],
        Statement::C16 => e[1] <= 2 * e[0] || e[2] >= e[1] + e[0],
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;

    /// The paper's Table 1 example satisfies Conjecture 12's formula: S = {3, 5} has
    /// n = floor(3/2) = 1 and first discrepancy (1+2)*3 + 1*5 = 14.
    #[test]
    fn conjecture_12_on_the_papers_example() {
        let a = Analysis::new(&"3,5".parse().unwrap(), 1 << 20).unwrap();
        assert_eq!(Statement::C12.check(&a, 1 << 20, &Silent).unwrap(), None);
        let v = check_statement(Statement::C12, &[2], 12, 1 << 20, &Silent).unwrap();
        assert!(v.applicable > 0);
    }
}
