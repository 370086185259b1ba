//! The outcome function of Definition 2 for all four conventions at once, the zero-sum
//! outcome of Section 5, and eventual arithmetic periodicity with a certificate.
//!
//! **The DP.** `o_X(h)` looks back at `o_d(X)(h - s)` for `s` in `S`, so one pass over
//! `h = 0, 1, ...` fills all four conventions (and the zero-sum score) in `O(h |S|)`.
//!
//! **The certificate.** If for every convention and every `h` in one window
//! `[h0, h0 + max S)` we have `o_X(h + p) = o_X(h) + (c, c)` and `o_zs(h + p) = o_zs(h)`,
//! then it holds for all `h >= h0`: the recursion at `h >= h0 + max S` reads only heaps in
//! `[h - max S, h)`, where the relation holds by induction, and adding the same `c` to
//! every candidate keeps every comparison (max, tie, argmin/argmax) unchanged, while all
//! of `S` is playable at both `h` and `h + p`. So any heap, however large, is answered
//! exactly by `o_X(h) = o_X(h') + k (c, c)` with `h' = h0 + (h - h0) mod p`.

use super::model::{Convention, Ruleset, SubtractionError};
use crate::engine::{Progress, Silent};

/// Steps (heaps times elements) between two questions to the caller's
/// [`Progress::cancelled`] (a time budget, Ctrl-C, the server's cancel): a cancelled search
/// stops within milliseconds, not after its 2^24 heaps.
const STEPS_PER_CHECK: usize = 1 << 20;

/// The largest table (in heaps) built on request: four conventions and the zero-sum score
/// take 36 bytes a heap, so this is about 9 GB.
pub const MAX_TABLE: u64 = 250_000_000;

/// One heap's outcomes: `o[X] = (o^1_X(h), o^2_X(h))` for each convention and the
/// zero-sum score, side by side, since the recursion reads all of them at `h - s`. In 32
/// bits: an outcome never exceeds its heap, and heaps stay below [`MAX_TABLE`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Row {
    o: [[u32; 2]; 4],
    zs: i32,
}

/// `d(X)` and whether the mover is antagonistic, by [`Convention::index`].
const DUAL: [usize; 4] = [0, 2, 1, 3];
const ANTAGONISTIC: [bool; 4] = [false, false, true, true];

/// Outcomes of all heaps `0..len` under the four conventions, and the zero-sum scores.
#[derive(Debug, Clone)]
pub struct Table {
    set: Ruleset,
    rows: Vec<Row>,
}

impl Table {
    /// Computes heaps `0..=max_heap`.
    ///
    /// ```
    /// use lastbite::games::subtraction::{Convention, Ruleset, Table};
    /// let t = Table::compute(&"3,5".parse::<Ruleset>().unwrap(), 15).unwrap();
    /// // Table 1: the first discrepancy, at heap 14.
    /// assert_eq!(t.outcome(Convention::FvF, 14), (8, 6));
    /// assert_eq!(t.outcome(Convention::AvA, 14), (8, 5));
    /// ```
    pub fn compute(set: &Ruleset, max_heap: u64) -> Result<Table, SubtractionError> {
        Self::compute_until(set, max_heap, &Silent)
    }

    /// [`Table::compute`], giving up with [`SubtractionError::Cancelled`] when `stop` says
    /// so.
    pub fn compute_until(
        set: &Ruleset,
        max_heap: u64,
        stop: &dyn Progress,
    ) -> Result<Table, SubtractionError> {
        let mut t = Table {
            set: set.clone(),
            rows: Vec::new(),
        };
        t.extend(max_heap, stop)?;
        Ok(t)
    }

    /// Computes the heaps from [`Table::len`] up to `max_heap`, keeping those already
    /// computed: the period search grows one table instead of recomputing it.
    fn extend(&mut self, max_heap: u64, stop: &dyn Progress) -> Result<(), SubtractionError> {
        if max_heap >= MAX_TABLE {
            return Err(SubtractionError::Budget(format!(
                "a table of {} heaps needs about {} GB; the limit is {MAX_TABLE} heaps (use the periodic formula for larger heaps)",
                max_heap + 1,
                (max_heap as u128 + 1) * 36 / 1_000_000_000
            )));
        }
        let len = max_heap as usize + 1;
        let from = self.rows.len();
        if len <= from {
            return Ok(());
        }
        self.rows.reserve_exact(len - from);
        let elements = self.set.elements();
        let chunk = (STEPS_PER_CHECK / elements.len()).max(1);
        for start in (from..len).step_by(chunk) {
            if stop.cancelled() {
                return Err(SubtractionError::Cancelled);
            }
            for h in start..(start + chunk).min(len) {
                let row = Self::decide(&self.rows, h, elements);
                self.rows.push(row);
            }
        }
        Ok(())
    }

    /// Heap `h`'s row from the rows below it (Definition 2 for each convention, and the
    /// zero-sum score): the mover takes the most for herself; among equals her convention
    /// picks the other's utility (least when antagonistic, most when friendly).
    #[inline]
    fn decide(rows: &[Row], h: usize, elements: &[u64]) -> Row {
        // Elements are at most MAX_ELEMENT, far below 2^31.
        let mut playable = elements.iter().map(|&s| s as usize).take_while(|&s| s <= h);
        let Some(first) = playable.next() else {
            return Row::default();
        };
        let below = &rows[h - first];
        let mut out = Row {
            o: std::array::from_fn(|x| {
                let [c1, c2] = below.o[DUAL[x]];
                [first as u32 + c2, c1]
            }),
            zs: first as i32 - below.zs,
        };
        for s in playable {
            let below = &rows[h - s];
            for x in 0..4 {
                let [c1, c2] = below.o[DUAL[x]];
                let mine = s as u32 + c2;
                let [m, other] = out.o[x];
                let tie = if ANTAGONISTIC[x] {
                    other.min(c1)
                } else {
                    other.max(c1)
                };
                // Branch-free: which of three the comparison picks is data.
                let other = if mine > m {
                    c1
                } else if mine == m {
                    tie
                } else {
                    other
                };
                out.o[x] = [m.max(mine), other];
            }
            out.zs = out.zs.max(s as i32 - below.zs);
        }
        out
    }

    /// The ruleset.
    pub fn set(&self) -> &Ruleset {
        &self.set
    }

    /// Number of heaps computed (`0..len`).
    pub fn len(&self) -> u64 {
        self.rows.len() as u64
    }

    /// Always false (heap 0 is always computed).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// `o_X(h)`: (utility of the player to move, utility of the other).
    ///
    /// # Panics
    /// When `h` is not below [`Table::len`].
    pub fn outcome(&self, x: Convention, h: u64) -> (u64, u64) {
        let [a, b] = self.rows[h as usize].o[x.index()];
        (a.into(), b.into())
    }

    /// The zero-sum score `o_zs(h)` (mover's total minus the other's).
    pub fn zero_sum(&self, h: u64) -> i64 {
        self.rows[h as usize].zs.into()
    }

    /// The PSPE moves of `X` at `h`: every `s` that yields the outcome pair after
    /// tie-breaking, increasing. Empty when no move is possible.
    pub fn moves(&self, x: Convention, h: u64) -> Vec<u64> {
        let target = self.outcome(x, h);
        let d = x.dual();
        self.set
            .elements()
            .iter()
            .copied()
            .take_while(|&s| s <= h)
            .filter(|&s| {
                let (c1, c2) = self.outcome(d, h - s);
                (s + c2, c1) == target
            })
            .collect()
    }

    /// Whether `o(h + p) = o(h) + (c, c)` for every convention and `o_zs(h + p) = o_zs(h)`.
    fn shifts(&self, h: u64, p: u64, c: u64) -> bool {
        let (x, y) = (&self.rows[h as usize], &self.rows[(h + p) as usize]);
        x.zs == y.zs
            && x.o
                .iter()
                .flatten()
                .zip(y.o.iter().flatten())
                .all(|(&a, &b)| u64::from(b) == u64::from(a) + c)
    }
}

/// Eventual arithmetic periodicity: for all `h >= preperiod`, every outcome at `h +
/// period` is the outcome at `h` plus `(increment, increment)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    /// The pre-period `h0` (smallest).
    pub preperiod: u64,
    /// The period `p` (smallest).
    pub period: u64,
    /// The increment `c` per period, for both players.
    pub increment: u64,
    /// The certificate window `[h0, h0 + max S)` on which the relation was checked.
    pub window: (u64, u64),
}

/// Finds the smallest period and pre-period with a certificate, building tables up to
/// heap `limit`.
///
/// ```
/// use lastbite::games::subtraction::{find_period, Ruleset};
/// let p = find_period(&"3,5".parse::<Ruleset>().unwrap(), 1 << 20).unwrap().0;
/// assert_eq!((p.preperiod, p.period, p.increment), (18, 10, 5));
/// ```
pub fn find_period(set: &Ruleset, limit: u64) -> Result<(Period, Table), SubtractionError> {
    find_period_until(set, limit, &Silent)
}

/// [`find_period`], giving up with [`SubtractionError::Cancelled`] when `stop` says so.
pub fn find_period_until(
    set: &Ruleset,
    limit: u64,
    stop: &dyn Progress,
) -> Result<(Period, Table), SubtractionError> {
    let m = set.max();
    let mut top = (6 * m).max(256).min(limit);
    let mut table = Table::compute_until(set, top, stop)?;
    loop {
        if let Some(period) = certify(&table, stop)? {
            return Ok((period, table));
        }
        if top >= limit {
            return Err(SubtractionError::NoPeriod(limit));
        }
        // The certificate found does not depend on the table's length (the smallest
        // period and pre-period are found whenever the tail window lies past the
        // pre-period), so growing by half wastes less than doubling.
        top = top.saturating_add(top / 2).min(limit);
        table.extend(top, stop)?;
    }
}

/// The smallest certified period of a table, if its tail already repeats.
fn certify(t: &Table, stop: &dyn Progress) -> Result<Option<Period>, SubtractionError> {
    let m = t.set().max();
    let last = t.len() - 1;
    // A certificate needs a window of max S heaps and its image one period later.
    // Heaps compared so far: a period may match for most of a long window before it fails,
    // so the work between two questions to `stop` is counted in heaps, not periods.
    let mut steps = 0usize;
    for p in 1..=(last.saturating_sub(m)) / 2 {
        if steps >= STEPS_PER_CHECK {
            if stop.cancelled() {
                return Err(SubtractionError::Cancelled);
            }
            steps = 0;
        }
        steps += 1;
        let start = last - m + 1 - p;
        let c1 = t.outcome(Convention::FvF, start + p).0;
        let c0 = t.outcome(Convention::FvF, start).0;
        if c1 < c0 {
            continue;
        }
        let c = c1 - c0;
        if (start..start + m).all(|h| {
            steps += 1;
            t.shifts(h, p, c)
        }) {
            // Certified from `start` on; the relation also holds below as long as direct
            // checks pass, which lowers the pre-period to the smallest one.
            let mut h0 = start;
            while h0 > 0 && t.shifts(h0 - 1, p, c) {
                h0 -= 1;
            }
            return Ok(Some(Period {
                preperiod: h0,
                period: p,
                increment: c,
                window: (h0, h0 + m),
            }));
        }
    }
    Ok(None)
}

/// How an outcome was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derivation {
    /// Read from the table.
    Direct,
    /// From the periodic formula: `heap = reduced + periods * p`.
    Periodic {
        /// The heap in the table it reduces to.
        reduced: u64,
        /// How many periods were added.
        periods: u128,
    },
}

/// The outcome of one heap under one convention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapOutcome {
    /// `o_X(h)`.
    pub outcome: (u128, u128),
    /// The PSPE moves.
    pub moves: Vec<u64>,
    /// How it was obtained.
    pub derivation: Derivation,
}

/// `o_X(h)` for any heap below 2^128, its PSPE moves and how it was obtained. Heaps beyond
/// the table need the period; the table must reach `h0 + max S + p` (the tables of
/// [`find_period`] always do).
pub fn outcome_at(
    table: &Table,
    period: Option<&Period>,
    x: Convention,
    heap: u128,
) -> Result<HeapOutcome, SubtractionError> {
    if heap < table.len() as u128 {
        let h = heap as u64;
        let (a, b) = table.outcome(x, h);
        return Ok(HeapOutcome {
            outcome: (a as u128, b as u128),
            moves: table.moves(x, h),
            derivation: Derivation::Direct,
        });
    }
    let p = period.ok_or(SubtractionError::NoPeriod(table.len() - 1))?;
    // The move set at h compares the children h - s, so it repeats only from h0 + max S
    // on (the outcomes already from h0): reduce into that range.
    let base = p.preperiod + table.set().max();
    let k = (heap - base as u128) / p.period as u128;
    let reduced = base + ((heap - base as u128) % p.period as u128) as u64;
    if reduced >= table.len() {
        return Err(SubtractionError::NoPeriod(table.len() - 1));
    }
    let (a, b) = table.outcome(x, reduced);
    let add = k
        .checked_mul(p.increment as u128)
        .ok_or_else(|| SubtractionError::Overflow(heap.to_string()))?;
    let shift = |v: u64| {
        (v as u128)
            .checked_add(add)
            .ok_or_else(|| SubtractionError::Overflow(heap.to_string()))
    };
    Ok(HeapOutcome {
        outcome: (shift(a)?, shift(b)?),
        moves: table.moves(x, reduced),
        derivation: Derivation::Periodic {
            reduced,
            periods: k,
        },
    })
}

/// The smallest heap where conventions `x` and `y` give different outcome pairs, or
/// `None` if they never do: decided exactly, since beyond the pre-period the difference
/// repeats with the period.
pub fn first_discrepancy(
    table: &Table,
    period: &Period,
    x: Convention,
    y: Convention,
) -> Option<u64> {
    (0..period.preperiod + period.period).find(|&h| table.outcome(x, h) != table.outcome(y, h))
}

/// The smallest heap where the zero-sum score differs from `o^1_AvA - o^2_AvA`, or `None`
/// if it never does.
pub fn first_zero_sum_discrepancy(table: &Table, period: &Period) -> Option<u64> {
    (0..period.preperiod + period.period).find(|&h| {
        let (a, b) = table.outcome(Convention::AvA, h);
        a as i64 - b as i64 != table.zero_sum(h)
    })
}
