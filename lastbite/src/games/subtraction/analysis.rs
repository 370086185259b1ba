//! Per-ruleset analyses decided exactly through the certificate, the sweeps over families
//! of rulesets, and the paper's conjectures and problems as checks with verdicts.
//!
//! Beyond the pre-period every outcome shifts by the same `(c, c)` per period, so every
//! *difference* between two conventions (and between AvA and the zero-sum score) repeats
//! with the period: a property of differences that holds on all heaps below `h0 + p`
//! holds on all heaps. That makes "never" a proof, not a bounded search.

use super::model::{Convention, Ruleset, SubtractionError, MAX_ELEMENT};
use super::theory::{
    find_period_until, first_discrepancy, first_zero_sum_discrepancy, never, Period, Stop, Table,
};
use crate::rng::Rng;

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
        Self::new_until(set, limit, &never)
    }

    /// [`Analysis::new`], giving up with [`SubtractionError::Cancelled`] when `stop` says
    /// so.
    pub fn new_until(set: &Ruleset, limit: u64, stop: Stop) -> Result<Analysis, SubtractionError> {
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

/// Which rulesets a sweep covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Family {
    /// Every set of `size` elements with largest element at most `max` (pairs are size 2).
    All {
        /// Number of elements.
        size: usize,
        /// Largest element.
        max: u64,
    },
    /// `count` random sets of `size` elements at most `max`, from `seed`.
    Random {
        /// Number of elements.
        size: usize,
        /// Largest element.
        max: u64,
        /// How many.
        count: u64,
        /// Seed.
        seed: u64,
    },
}

impl Family {
    /// The rulesets, ordered by largest element, then lexicographically (descending
    /// element lists compared from the largest), so the first failure is the smallest
    /// counterexample.
    pub fn rulesets(&self) -> Result<Vec<Ruleset>, SubtractionError> {
        match *self {
            Family::All { size, max } => {
                if size == 0 || max < size as u64 {
                    return Err(SubtractionError::Budget(format!(
                        "no set of {size} elements has largest element <= {max}"
                    )));
                }
                let count = binomial(max, size as u64);
                if count > MAX_RULESETS {
                    let over = if count == u64::MAX { "more than " } else { "" };
                    return Err(SubtractionError::Budget(format!(
                        "{over}{count} rulesets of {size} elements up to {max}: too many to sweep (at most {MAX_RULESETS})"
                    )));
                }
                let mut out = Vec::with_capacity(count as usize);
                // Largest element first, then the rest in lexicographic order.
                for top in size as u64..=max {
                    let mut rest: Vec<u64> = (1..size as u64).collect();
                    loop {
                        let mut e = rest.clone();
                        e.push(top);
                        out.push(Ruleset::new(e)?);
                        // Next combination of size-1 elements below `top`.
                        let k = rest.len();
                        let mut i = k;
                        while i > 0 && rest[i - 1] == top - 1 - (k - i) as u64 {
                            i -= 1;
                        }
                        if i == 0 {
                            break;
                        }
                        rest[i - 1] += 1;
                        for j in i..k {
                            rest[j] = rest[j - 1] + 1;
                        }
                    }
                }
                Ok(out)
            }
            Family::Random {
                size,
                max,
                count,
                seed,
            } => {
                if size == 0 || max < size as u64 {
                    return Err(SubtractionError::Budget(format!(
                        "no set of {size} elements has largest element <= {max}"
                    )));
                }
                if max > MAX_ELEMENT {
                    return Err(SubtractionError::Budget(format!(
                        "random sets with elements up to {max}: the largest element is {MAX_ELEMENT}"
                    )));
                }
                if count > MAX_RULESETS {
                    return Err(SubtractionError::Budget(format!(
                        "{count} random rulesets: too many to sweep (at most {MAX_RULESETS})"
                    )));
                }
                (0..count)
                    .map(|t| {
                        let mut rng = Rng::for_trial(seed, t);
                        let mut e: Vec<u64> = Vec::new();
                        while e.len() < size {
                            let x = 1 + rng.below(max);
                            if !e.contains(&x) {
                                e.push(x);
                            }
                        }
                        // Positive and distinct; an element past the games' range is refused.
                        Ruleset::new(e)
                    })
                    .collect()
            }
        }
    }
}

/// The most rulesets one sweep lists.
pub const MAX_RULESETS: u64 = 20_000_000;

/// C(n, k), saturating at `u64::MAX` (a family too large to sweep either way).
fn binomial(n: u64, k: u64) -> u64 {
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc.saturating_mul((n - i) as u128) / (i + 1) as u128;
        if acc >= u64::MAX as u128 {
            return u64::MAX;
        }
    }
    acc as u64
}

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
        stop: Stop,
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
        Self::new_until(set, limit, &never)
    }

    /// [`ProblemRecord::new`], giving up with [`SubtractionError::Cancelled`] when `stop`
    /// says so.
    pub fn new_until(
        set: &Ruleset,
        limit: u64,
        stop: Stop,
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
    pub fn new(set: &Ruleset, limit: u64, stop: Stop) -> Result<ScanRecord, SubtractionError> {
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
    stop: Stop,
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
    let mut sets = Vec::new();
    for &size in sizes {
        if statement.sizes().is_some_and(|k| k != size) {
            continue;
        }
        sets.extend(Family::All { size, max }.rulesets()?);
    }
    sets.sort_by(|a, b| (a.max(), a.elements()).cmp(&(b.max(), b.elements())));
    Ok(sets)
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
                let checked = check_one(statement, set, limit, &|| progress.cancelled())?;
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

    #[test]
    fn families_are_ordered_and_complete() {
        let pairs = Family::All { size: 2, max: 5 }.rulesets().unwrap();
        let text: Vec<String> = pairs.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            text,
            [
                "{1,2}", "{1,3}", "{2,3}", "{1,4}", "{2,4}", "{3,4}", "{1,5}", "{2,5}", "{3,5}",
                "{4,5}"
            ]
        );
        assert_eq!(
            Family::All { size: 3, max: 10 }.rulesets().unwrap().len(),
            120
        );
        let r = Family::Random {
            size: 3,
            max: 25,
            count: 20,
            seed: 1,
        }
        .rulesets()
        .unwrap();
        assert!(r.iter().all(|s| s.elements().len() == 3 && s.max() <= 25));
    }

    /// The paper's Table 1 example satisfies Conjecture 12's formula: S = {3, 5} has
    /// n = floor(3/2) = 1 and first discrepancy (1+2)*3 + 1*5 = 14.
    #[test]
    fn conjecture_12_on_the_papers_example() {
        let a = Analysis::new(&"3,5".parse().unwrap(), 1 << 20).unwrap();
        assert_eq!(Statement::C12.check(&a, 1 << 20, &never).unwrap(), None);
        let v = check_statement(Statement::C12, &[2], 12, 1 << 20, &Silent).unwrap();
        assert!(v.applicable > 0);
    }

    /// A statement that is false is caught: Table 3's S = {4, 5, 9} has a player gaining by
    /// a unilateral deviation from FvF (heap 61), so "no deviation from FvF pays" fails.
    #[test]
    fn a_false_statement_fails() {
        let a = Analysis::new(&"4,5,9".parse().unwrap(), 1 << 20).unwrap();
        let (gain, heap) = a.largest_change(Convention::FvF, Convention::FvA, 1);
        assert_eq!((gain, heap), (1, 61));
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
