//! The dinner's states ranked densely layer by layer: the subsets of `l` morsels left
//! in colexicographic order (binomial tables, Gosper's next subset), the
//! [`crate::engine::RankedGame`] order the lean solver and the GPU kernel walk, and the
//! lattice below one state (`Subsets`) for re-solving a path. It owns the numbering
//! only; payoffs and moves are the game's.

use crate::engine::{self, Payoff};

use crate::games::dinner::solver::game::DinnerGame;

/// `C(a, b)` for `a <= 64`.
pub(super) fn binomial(a: usize, b: usize) -> u64 {
    static TABLE: std::sync::OnceLock<Vec<[u64; 65]>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = vec![[0u64; 65]; 65];
        for a in 0..65 {
            t[a][0] = 1;
            for b in 1..=a {
                t[a][b] = t[a - 1][b - 1].saturating_add(if b < a { t[a - 1][b] } else { 0 });
            }
        }
        t
    });
    if b > a {
        0
    } else {
        t[a][b]
    }
}

/// Colexicographic ranks of subsets of at most 32 morsels in two lookups: the low 16
/// bits' share, and the high 16 bits' share given how many low bits are set (4.5 MB,
/// built once). The rank of `{p_0 < p_1 < ...}` is `sum_j C(p_j, j + 1)`.
struct Colex {
    low: Vec<u32>,
    high: Vec<u32>,
}

fn colex() -> &'static Colex {
    static TABLES: std::sync::OnceLock<Colex> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let share = |bits: usize, offset: usize, before: usize| -> u32 {
            let mut r = 0u64;
            let mut j = before;
            for p in 0..16 {
                if bits >> p & 1 == 1 {
                    r += binomial(p + offset, j + 1);
                    j += 1;
                }
            }
            r as u32
        };
        let low = (0..1 << 16).map(|m| share(m, 0, 0)).collect();
        let mut high = Vec::with_capacity(17 << 16);
        for c in 0..=16 {
            high.extend((0..1 << 16).map(|h| share(h, 16, c)));
        }
        Colex { low, high }
    })
}

/// The colexicographic rank of a subset among those of its size.
#[inline]
pub(super) fn colex_rank(mask: u64) -> usize {
    if mask >> 32 == 0 {
        let t = colex();
        let lo = (mask & 0xffff) as usize;
        let c = lo.count_ones() as usize;
        (t.low[lo] + t.high[c << 16 | (mask >> 16) as usize]) as usize
    } else {
        let mut r = 0u64;
        let mut m = mask;
        let mut j = 0;
        while m != 0 {
            r += binomial(m.trailing_zeros() as usize, j + 1);
            m &= m - 1;
            j += 1;
        }
        r as usize
    }
}

impl<P: Payoff> engine::RankedGame for DinnerGame<'_, P> {
    fn layer_size(&self, layer: usize) -> usize {
        binomial(self.dinner.len(), layer) as usize
    }
    #[inline]
    fn rank(&self, index: usize) -> usize {
        colex_rank(index as u64)
    }
    fn unrank(&self, layer: usize, rank: usize) -> usize {
        colex_unrank(self.dinner.len(), layer, rank)
    }
    #[inline]
    fn next_in_layer(&self, _layer: usize, index: usize) -> usize {
        if index == 0 {
            return 0;
        }
        engine::next_subset(index as u64) as usize
    }
    fn below(&self, top: usize) -> Option<Box<dyn engine::Lattice + '_>> {
        Some(Box::new(Subsets::of(top as u64)))
    }
}

/// The subset of rank `rank` among the `layer`-subsets of `0..n` in colexicographic
/// order.
fn colex_unrank(n: usize, layer: usize, rank: usize) -> usize {
    let mut r = rank as u64;
    let mut mask = 0usize;
    let mut top = n;
    for j in (1..=layer).rev() {
        // The largest p with C(p, j) <= r.
        let mut p = top;
        while p > 0 && binomial(p - 1, j) > r {
            p -= 1;
        }
        let p = p.saturating_sub(1).max(j - 1);
        mask |= 1 << p;
        r -= binomial(p, j);
        top = p;
    }
    mask
}

/// The subsets of the morsels left at one state, numbered by the colexicographic rank of
/// their positions among those morsels: the sub-lattice the lean solver re-solves to
/// recover its path. States keep their masks in the whole dinner, so payoffs and tie
/// rules are the game's own.
struct Subsets {
    /// The morsels left at the top state.
    size: usize,
    /// `gather[j][v]`: the bits of byte `j` of a mask (value `v`), compressed onto
    /// their positions among the morsels left (a parallel bit extract by table).
    gather: Vec<[u64; 256]>,
    /// `scatter[j][v]`: the inverse, byte `j` of a compressed mask back to morsels.
    scatter: Vec<[u64; 256]>,
}

impl Subsets {
    fn of(top: u64) -> Subsets {
        let positions: Vec<u32> = (0..64).filter(|&i| top >> i & 1 == 1).collect();
        let mut gather = vec![[0u64; 256]; 8];
        let mut scatter = vec![[0u64; 256]; 8];
        for (at, &i) in positions.iter().enumerate() {
            let (gj, gb) = (i as usize / 8, i % 8);
            let (sj, sb) = (at / 8, at % 8);
            for v in 0..256usize {
                if v >> gb & 1 == 1 {
                    gather[gj][v] |= 1 << at;
                }
                if v >> sb & 1 == 1 {
                    scatter[sj][v] |= 1 << i;
                }
            }
        }
        Subsets {
            size: positions.len(),
            gather,
            scatter,
        }
    }

    #[inline]
    fn by_bytes(table: &[[u64; 256]], x: u64) -> u64 {
        let (mut x, mut out, mut j) = (x, 0, 0);
        while x != 0 {
            out |= table[j][(x & 0xff) as usize];
            x >>= 8;
            j += 1;
        }
        out
    }
}

impl engine::Lattice for Subsets {
    fn layers(&self) -> usize {
        self.size + 1
    }
    fn layer_size(&self, layer: usize) -> usize {
        binomial(self.size, layer) as usize
    }
    #[inline]
    fn rank(&self, index: usize) -> usize {
        colex_rank(Self::by_bytes(&self.gather, index as u64))
    }
    fn unrank(&self, layer: usize, rank: usize) -> usize {
        Self::by_bytes(&self.scatter, colex_unrank(self.size, layer, rank) as u64) as usize
    }
    #[inline]
    fn next_in_layer(&self, _layer: usize, index: usize) -> usize {
        if index == 0 {
            return 0;
        }
        let c = engine::next_subset(Self::by_bytes(&self.gather, index as u64)) as usize;
        Self::by_bytes(&self.scatter, c as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Subsets;
    use crate::engine::Lattice;

    /// Each layer of the subsets below a state, walked as the lean solver walks it (one
    /// unrank, then the next in layer), is every subset of that size in increasing
    /// compressed order, ranked `0, 1, 2, ...`, and unrank inverts rank.
    #[test]
    fn subsets_below_a_state_are_numbered_densely() {
        for top in [
            0u64,
            1,
            0b1011_0110,
            0xF0F0,
            (1 << 40) | (1 << 33) | 0b1101,
            1 << 63,
        ] {
            let lattice = Subsets::of(top);
            let m = top.count_ones() as usize;
            assert_eq!(lattice.layers(), m + 1);
            for layer in 0..=m {
                let mut want: Vec<u64> = Vec::new();
                // Every subset of `top` (at most 2^9 here) with `layer` elements.
                let mut sub = top;
                loop {
                    if sub.count_ones() as usize == layer {
                        want.push(sub);
                    }
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & top;
                }
                want.sort_unstable_by_key(|&s| {
                    // Colexicographic order = numeric order of the compressed masks.
                    (0..64)
                        .filter(|i| top >> i & 1 == 1)
                        .enumerate()
                        .filter(|&(_, i)| s >> i & 1 == 1)
                        .map(|(at, _)| 1u64 << at)
                        .sum::<u64>()
                });
                assert_eq!(lattice.layer_size(layer), want.len());
                let mut idx = lattice.unrank(layer, 0);
                for (r, &w) in want.iter().enumerate() {
                    if r > 0 {
                        idx = lattice.next_in_layer(layer, idx);
                    }
                    assert_eq!(idx as u64, w, "top {top:#x} layer {layer} rank {r}");
                    assert_eq!(lattice.rank(idx), r);
                    assert_eq!(lattice.unrank(layer, r), idx);
                }
            }
        }
    }
}
