//! How the cookie tables lay positions out in memory and on disk, shared by the CPU
//! tables, the GPU kernels and the layer store: the nim table's layers ([`NimLayer`],
//! 2 or 4 bits a strict position by its subset code, [`Packing`]) and the general
//! table's dense numbering of reduced positions (lexicographic [`rank`] and [`unrank`],
//! [`reduced_count`] a layer). It owns indexing only: no game values are computed here.

use std::sync::OnceLock;

use crate::par::prelude::*;

/// How a [`NimTable`](super::NimTable) packs nim-values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// 2 bits a position: values 0, 1 and 2, and 3 for "3 or more", with the positions
    /// of value 4 and more kept aside in a sorted escape list (empty to n = 34: every
    /// strict position there has value at most 3). Half the memory of 4 bits.
    TwoBits,
    /// 4 bits a position: values 0 to 15 (a larger one is refused).
    FourBits,
}

impl Packing {
    #[inline]
    pub(super) fn bits(self) -> u32 {
        match self {
            Packing::TwoBits => 2,
            Packing::FourBits => 4,
        }
    }

    /// The largest value stored in place (2 bits: 3 means "3, or look in the escapes").
    #[inline]
    pub(super) fn top(self) -> u32 {
        (1 << self.bits()) - 1
    }

    pub(super) fn bytes_for(self, n: u32) -> u64 {
        (1u64 << n.saturating_sub(1)).div_ceil(u64::from(8 / self.bits()))
    }

    pub(super) fn file_stem(self) -> &'static str {
        match self {
            Packing::TwoBits => "nim2",
            Packing::FourBits => "nim",
        }
    }
}

/// One layer of the nim table: the nim-values of the `2^(n-1)` strict positions with `n`
/// components, packed 2 or 4 bits a position, indexed by the subset code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimLayer {
    pub(super) n: u32,
    pub(super) packing: Packing,
    pub(super) packed: Vec<u8>,
    /// 2 bits: `(code, value)` of the positions with value 4 or more, by code.
    pub(super) escapes: Vec<(u64, u8)>,
}

impl NimLayer {
    /// The number of components.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The nim-value of the strict position with code `mask`.
    #[inline]
    pub fn get(&self, mask: u64) -> u8 {
        let bits = self.packing.bits();
        let per_byte = u64::from(8 / bits);
        let v = self.packed[(mask / per_byte) as usize] >> ((mask % per_byte) as u32 * bits)
            & self.packing.top() as u8;
        if self.packing == Packing::TwoBits && v == 3 && !self.escapes.is_empty() {
            if let Ok(i) = self.escapes.binary_search_by_key(&mask, |e| e.0) {
                return self.escapes[i].1;
            }
        }
        v
    }

    /// The layer of `n` components from its values in 4 bits a position (`nibbles`, the
    /// layout of [`Packing::FourBits`], as a device returns it), packed as `packing`.
    #[cfg(feature = "gpu")]
    pub(super) fn from_nibbles(n: u32, packing: Packing, nibbles: &[u8]) -> NimLayer {
        let positions = 1u64 << n.saturating_sub(1);
        let bytes = packing.bytes_for(n) as usize;
        match packing {
            Packing::FourBits => NimLayer {
                n,
                packing,
                packed: nibbles[..bytes].to_vec(),
                escapes: Vec::new(),
            },
            Packing::TwoBits => {
                let mut packed = vec![0u8; bytes];
                let mut escapes = Vec::new();
                for mask in 0..positions {
                    let v = nibbles[(mask / 2) as usize] >> (4 * (mask % 2)) & 15;
                    if v > 3 {
                        escapes.push((mask, v));
                    }
                    packed[(mask / 4) as usize] |= v.min(3) << (2 * (mask % 4));
                }
                NimLayer {
                    n,
                    packing,
                    packed,
                    escapes,
                }
            }
        }
    }

    /// The bytes the layer holds.
    pub fn bytes(&self) -> u64 {
        self.packed.len() as u64 + 9 * self.escapes.len() as u64
    }

    /// The count of positions with each nim-value.
    pub fn histogram(&self) -> Vec<u64> {
        let bits = self.packing.bits();
        let top = self.packing.top() as u8;
        let h = self
            .packed
            .par_chunks(1 << 16)
            .map(|bytes| {
                let mut h = [0u64; 16];
                for &b in bytes {
                    for k in 0..8 / bits {
                        h[(b >> (k * bits) & top) as usize] += 1;
                    }
                }
                h
            })
            .reduce(|| [0u64; 16], |a, b| std::array::from_fn(|i| a[i] + b[i]));
        let mut h = h.to_vec();
        // The last byte's unused fields read as value 0.
        h[0] -= self.packed.len() as u64 * u64::from(8 / bits) - (1u64 << self.n.saturating_sub(1));
        for &(_, v) in &self.escapes {
            h[3] -= 1;
            if h.len() <= v as usize {
                h.resize(v as usize + 1, 0);
            }
            h[v as usize] += 1;
        }
        while h.len() > 1 && h.last() == Some(&0) {
            h.pop();
        }
        h
    }
}

/// The largest `n` with counts in [`reduced_count`] (Catalan numbers fit a `u64` far
/// beyond; the tables stop at [`super::general::MAX_GENERAL`]).
pub(super) const MAX_COUNTED: usize = 32;

/// Bytes a position in a general table (nim-value, remoteness, suspense, duration).
pub const BYTES_PER_POSITION: u64 = 4;

/// `suffix(n)[k][v]`: the completions `a_k, ..., a_n` of a reduced position with `n`
/// components whose `a_k >= v` (for `1 <= k <= n`, `0 <= v <= n + 1`); one table a size,
/// built once.
#[inline]
pub(super) fn suffix(n: usize) -> &'static [Vec<u64>] {
    &suffix_tables()[n]
}

/// Every size's [`suffix`] table, built once; hot loops fetch it once and rank with
/// [`rank_with`].
pub(super) fn suffix_tables() -> &'static [Vec<Vec<u64>>] {
    static TABLES: OnceLock<Vec<Vec<Vec<u64>>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        (0..=MAX_COUNTED)
            .map(|n| {
                let mut s = vec![vec![0u64; n + 2]; n + 2];
                for k in (1..=n).rev() {
                    for v in (0..=n).rev() {
                        // a_k = x exactly, for x = max(v, k): the completions from k + 1
                        // with a_{k+1} >= x (or just a_n = n at the end).
                        let x = v.max(k);
                        let exact = if k == n {
                            u64::from(x == n)
                        } else {
                            s[k + 1][x]
                        };
                        s[k][v] = exact.saturating_add(if x < n { s[k][x + 1] } else { 0 });
                    }
                }
                s
            })
            .collect()
    })
}

/// The number of reduced positions with `n` components: the Catalan number
/// `C(2n, n) / (n + 1)`.
///
/// ```
/// use lastbite::games::cookie::general::reduced_count;
/// assert_eq!((0..=5).map(reduced_count).collect::<Vec<_>>(), [1, 1, 2, 5, 14, 42]);
/// assert_eq!(reduced_count(17), 129_644_790);
/// ```
#[inline]
pub fn reduced_count(n: usize) -> u64 {
    assert!(n <= MAX_COUNTED, "reduced_count covers n <= {MAX_COUNTED}");
    if n == 0 {
        1
    } else {
        suffix(n)[1][1]
    }
}

/// The lexicographic rank of a reduced position's components among those with as many.
///
/// ```
/// use lastbite::games::cookie::general::{rank, unrank};
/// // (1, 2, 3), (1, 3, 3), (2, 2, 3), (2, 3, 3), (3, 3, 3)
/// assert_eq!(rank(&[2, 2, 3]), 2);
/// assert_eq!(unrank(3, 4), vec![3, 3, 3]);
/// ```
#[inline]
pub fn rank(a: &[u8]) -> u64 {
    rank_with(suffix_tables(), a)
}

/// [`rank`] with the suffix tables at hand.
#[inline]
pub(super) fn rank_with(tables: &[Vec<Vec<u64>>], a: &[u8]) -> u64 {
    let s = &tables[a.len()];
    let mut r = 0;
    let mut prev = 0usize;
    for (i, &x) in a.iter().enumerate() {
        let row = &s[i + 1];
        r += row[prev] - row[x as usize];
        prev = x as usize;
    }
    r
}

/// The components of the reduced position of rank `r` with `n` components.
pub fn unrank(n: usize, r: u64) -> Vec<u8> {
    let s = suffix(n);
    let mut a = Vec::with_capacity(n);
    let mut r = r;
    let mut prev = 0usize;
    for (k, row) in s.iter().enumerate().take(n + 1).skip(1) {
        let mut x = prev.max(k);
        loop {
            // Completions with a_k = x exactly.
            let exact = row[x] - if x < n { row[x + 1] } else { 0 };
            if r < exact || x == n {
                break;
            }
            r -= exact;
            x += 1;
        }
        a.push(x as u8);
        prev = x;
    }
    a
}

/// The next reduced position in lexicographic order, in place; `false` after the last.
#[cfg(test)]
pub(super) fn next(a: &mut [u8]) -> bool {
    next_from(a).is_some()
}

/// [`next`], returning the first component it changed (those before it stay), or `None`
/// after the last.
#[inline]
pub(super) fn next_from(a: &mut [u8]) -> Option<usize> {
    let n = a.len();
    let k = (0..n.saturating_sub(1))
        .rev()
        .find(|&k| (a[k] as usize) < n)?;
    a[k] += 1;
    for j in k + 1..n - 1 {
        a[j] = a[k].max(j as u8 + 1);
    }
    Some(k)
}
