//! The options of a reduced position and the values they combine into, packed: what one
//! step of the general table's search computes for one position.
//!
//! **Why the options can be looked up in their reduced form.** Depletion keeps the game
//! tree (Claim 1), so every value survives it. Claim 4's induction compares only the
//! *sets* of the options' values (`A_i ~ A_{s+1}` for `i <= s`, and `A_k ~ B_{k-t}`):
//! read with "has the same nim-value, remoteness, suspense and duration" for `~`, it
//! proves deletion keeps all four, since each is a function of the set of the options'
//! values ([`combine`]). The tests check this against the engine's brute force over
//! unreduced positions for every reduced position up to `n = 10`.
//!
//! **The options of a reduced position, in O(n).** Eating `a_k` and counting a day down
//! gives `b = (a_1 - 1, ..., a_{k-1} - 1, a_{k+1} - 1, ..., a_n - 1)`. Its surplus is 1 if
//! some `j < k` is tight (`a_j = j`), else 0: before `k`, `j - b_j = j - a_j + 1 <= 1`;
//! from `k` on, `j - b_j = j + 1 - a_{j+1} <= 0`. So the reduced option drops `b_1` and
//! caps at `n - 2` when such a `j` exists, and is `b` itself otherwise. The table never
//! builds them: an option's rank is a prefix sum, a suffix sum and one joining term over
//! `a` (`OptionRanks`), and the sums are kept along the walk in lexicographic order, so
//! a position of 17 components costs about 77 ns of CPU (was 270 ns).

use crate::engine::impartial::{combine, ImpartialValue, Outcome};

use crate::games::cookie::layout::suffix_tables;

/// No strategic duration, in a packed value's duration byte.
pub(super) const NO_DURATION: u32 = 0xff;

/// Calls `f` with the reduced form of each distinct option of the reduced position `a`
/// (one per distinct component), written into `buf`: the reference that
/// [`for_each_option_rank`] is tested against.
#[cfg(test)]
pub(super) fn for_each_option(a: &[u8], buf: &mut [u8; 64], mut f: impl FnMut(&[u8])) {
    let n = a.len();
    // Whether some j < k is tight (a_j = j, 1-based), for the current k.
    let mut tight = false;
    for k in 0..n {
        if k > 0 {
            tight |= a[k - 1] as usize == k;
            if a[k] == a[k - 1] {
                continue;
            }
        }
        // b: every other component, a day older.
        let mut m = 0;
        for (j, &x) in a.iter().enumerate() {
            if j != k {
                buf[m] = x - 1;
                m += 1;
            }
        }
        if tight {
            // The surplus is 1: delete the smallest, deplete to n - 2.
            let cap = (n - 2) as u8;
            for j in 0..n - 2 {
                buf[j] = buf[j + 1].min(cap);
            }
            f(&buf[..n - 2]);
        } else {
            f(&buf[..n - 1]);
        }
    }
}

/// The ranks of the options of a reduced position with `n` components, kept from one
/// position to the next in lexicographic order.
///
/// The rank of a position `b` is `sum_i s(i + 1, b_(i-1)) - s(i + 1, b_i)` (`s`: the
/// suffix table of its size, `b_(-1) = 0`). An option is `a` with component `k` removed
/// and the rest a day older, `b_i = a_i - 1` before `k` and `a_(i+1) - 1` from it on (and,
/// when some component before `k` is tight, the first dropped and the rest capped at
/// `n - 2`): its terms before `k` are a prefix sum over `a`, those after it the
/// difference of two, and one term joins them, so each option's rank costs `O(1)`. The
/// sums are prefix sums, so when [`next_from`] changes `a` from component `c` on, only
/// their entries from about `c` on are recomputed: a few, on average.
pub(super) struct OptionRanks {
    /// Not tight (size `n - 1`): `pre[j] = sum_(i<j) s(i + 1, day(i - 1)) - s(i + 1,
    /// day(i))`, `q[j] = sum_(1<=i<j) s(i + 1, day(i)) - s(i + 1, day(i + 1))`.
    pre: [u64; 64],
    q: [u64; 64],
    /// Tight (size `n - 2`): the same over `cap(i) = min(a_i - 1, n - 2)`, shifted by one.
    tpre: [u64; 64],
    tq: [u64; 64],
}

impl OptionRanks {
    pub(super) fn new() -> OptionRanks {
        OptionRanks {
            pre: [0; 64],
            q: [0; 64],
            tpre: [0; 64],
            tq: [0; 64],
        }
    }

    /// Brings the sums up to date for `a`, whose components before `from` are those of
    /// the last position given (0: all new).
    #[inline]
    pub(super) fn update(&mut self, a: &[u8], from: usize, tables: &[Flat]) {
        let n = a.len();
        if n < 2 {
            return;
        }
        let (l, m) = (n - 1, n - 2);
        let (s, t) = (&tables[l], &tables[m]);
        let day = |i: usize| usize::from(a[i] - 1);
        let cap = |i: usize| usize::from(a[i] - 1).min(m);
        self.pre[0] = 0;
        for i in from..l {
            let prev = if i == 0 { 0 } else { day(i - 1) };
            self.pre[i + 1] = self.pre[i]
                .wrapping_add(s.at(i + 1, prev))
                .wrapping_sub(s.at(i + 1, day(i)));
        }
        self.q[1] = 0;
        for i in from.saturating_sub(1).max(1)..l {
            self.q[i + 1] = self.q[i]
                .wrapping_add(s.at(i + 1, day(i)))
                .wrapping_sub(s.at(i + 1, day(i + 1)));
        }
        self.tpre[0] = 0;
        for i in from.saturating_sub(1)..m {
            let prev = if i == 0 { 0 } else { cap(i) };
            self.tpre[i + 1] = self.tpre[i]
                .wrapping_add(t.at(i + 1, prev))
                .wrapping_sub(t.at(i + 1, cap(i + 1)));
        }
        self.tq[1] = 0;
        for i in from.saturating_sub(2).max(1)..m {
            self.tq[i + 1] = self.tq[i]
                .wrapping_add(t.at(i + 1, cap(i + 1)))
                .wrapping_sub(t.at(i + 1, cap(i + 2)));
        }
    }

    /// Calls `f(components, rank)` with the size and rank of the reduced form of each
    /// distinct option of `a` (the position last given to [`OptionRanks::update`]), in
    /// [`for_each_option`]'s order.
    #[inline]
    pub(super) fn for_each(&self, a: &[u8], tables: &[Flat], mut f: impl FnMut(usize, u64)) {
        let n = a.len();
        match n {
            0 => return,
            1 => return f(0, 0),
            _ => {}
        }
        let (l, m) = (n - 1, n - 2);
        let (s, t) = (&tables[l], &tables[m]);
        let day = |i: usize| usize::from(a[i] - 1);
        let cap = |i: usize| usize::from(a[i] - 1).min(m);
        let mut tight = false;
        for k in 0..n {
            if k > 0 {
                tight |= a[k - 1] as usize == k;
                if a[k] == a[k - 1] {
                    continue;
                }
            }
            if !tight {
                let r = if k == l {
                    self.pre[l]
                } else {
                    let prev = if k == 0 { 0 } else { day(k - 1) };
                    self.pre[k]
                        .wrapping_add(s.at(k + 1, prev))
                        .wrapping_sub(s.at(k + 1, day(k + 1)))
                        .wrapping_add(self.q[l].wrapping_sub(self.q[k + 1]))
                };
                f(l, r);
            } else {
                // A tight k is at least 1: some component before it is tight.
                let r = if k == l {
                    self.tpre[m]
                } else {
                    let prev = if k == 1 { 0 } else { cap(k - 1) };
                    self.tpre[k - 1]
                        .wrapping_add(t.at(k, prev))
                        .wrapping_sub(t.at(k, cap(k + 1)))
                        .wrapping_add(self.tq[m].wrapping_sub(self.tq[k]))
                };
                f(m, r);
            }
        }
    }
}

/// One size's [`suffix_tables`] entry in one block, `at(k, v)` at `k * stride + v`: the
/// option ranks read it without a second indirection.
pub(super) struct Flat {
    stride: usize,
    data: Vec<u64>,
}

impl Flat {
    #[inline(always)]
    fn at(&self, k: usize, v: usize) -> u64 {
        self.data[k * self.stride + v]
    }
}

/// Every size's suffix table, flat, built once.
pub(super) fn flat_tables() -> &'static [Flat] {
    static FLAT: std::sync::OnceLock<Vec<Flat>> = std::sync::OnceLock::new();
    FLAT.get_or_init(|| {
        suffix_tables()
            .iter()
            .map(|rows| {
                let stride = rows.first().map_or(0, Vec::len);
                Flat {
                    stride,
                    data: rows.iter().flatten().copied().collect(),
                }
            })
            .collect()
    })
}

/// [`combine`] on packed values, packed: one pass, no unpacking (the general table calls
/// it once a position). Falls back to [`combine`] when a nim-value reaches 64.
#[inline]
pub(super) fn combine_packed(options: &[u32]) -> u32 {
    let mut seen = 0u64;
    let mut winning = false;
    let (mut near_even, mut far_even) = (u32::MAX, 0u32);
    let (mut far, mut near) = (0u32, u32::MAX);
    let mut all_known = true;
    // The first duration (even, and of any parity) and whether all others equal it.
    let (mut first_even, mut evens_agree) = (NO_DURATION, true);
    let (mut first_any, mut all_agree) = (NO_DURATION, true);
    for &v in options {
        let g = v & 0xff;
        if g >= 64 {
            let unpacked: Vec<ImpartialValue> =
                options.iter().map(|&v| Packed(v).unpack()).collect();
            return Packed::pack(&combine(&unpacked)).0;
        }
        seen |= 1 << g;
        winning |= g == 0;
        let (r, su, d) = (v >> 8 & 0xff, v >> 16 & 0xff, v >> 24);
        if r % 2 == 0 {
            near_even = near_even.min(r);
        }
        if su % 2 == 0 {
            far_even = far_even.max(su);
        }
        far = far.max(r);
        near = near.min(su);
        if d == NO_DURATION {
            all_known = false;
            continue;
        }
        if d % 2 == 0 {
            if first_even == NO_DURATION {
                first_even = d;
            } else {
                evens_agree &= d == first_even;
            }
        }
        if first_any == NO_DURATION {
            first_any = d;
        } else {
            all_agree &= d == first_any;
        }
    }
    if options.is_empty() {
        return Packed::pack(&combine(&[])).0;
    }
    let grundy = (!seen).trailing_zeros();
    let (remoteness, suspense) = if winning {
        (1 + near_even, 1 + far_even)
    } else {
        (1 + far, 1 + near)
    };
    let duration = match (all_known, first_even != NO_DURATION) {
        (false, _) => NO_DURATION,
        (true, true) if evens_agree => first_even + 1,
        (true, false) if all_agree => first_any + 1,
        _ => NO_DURATION,
    };
    grundy | remoteness << 8 | suspense << 16 | duration << 24
}

/// The values of one position, packed in a `u32`: nim-value, remoteness, suspense and
/// duration (`0xff`: none), a byte each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Packed(pub(super) u32);

impl Packed {
    pub(super) fn pack(v: &ImpartialValue) -> Packed {
        let d = v.duration.unwrap_or(NO_DURATION);
        debug_assert!(v.grundy < 256 && v.remoteness < 256 && v.suspense < 256 && d < 256);
        Packed(v.grundy | v.remoteness << 8 | v.suspense << 16 | d << 24)
    }

    /// The values.
    pub(super) fn unpack(self) -> ImpartialValue {
        let grundy = self.0 & 0xff;
        let d = self.0 >> 24;
        ImpartialValue {
            outcome: if grundy == 0 { Outcome::P } else { Outcome::N },
            grundy,
            remoteness: self.0 >> 8 & 0xff,
            suspense: self.0 >> 16 & 0xff,
            duration: (d != NO_DURATION).then_some(d),
        }
    }
}
