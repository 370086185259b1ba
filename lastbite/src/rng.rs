//! A small deterministic random generator for reproducible experiments.
//!
//! Experiments promise the same output for the same `--seed` forever, on any machine and
//! with any number of threads. So lastbite uses its own generator (SplitMix64, Steele,
//! Lea and Flood 2014) and its own unbiased sampling instead of a dependency whose stream
//! may change between versions; trial `t` of seed `s` draws from its own stream.

/// SplitMix64.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// The stream of trial `trial` under seed `seed`.
    pub fn for_trial(seed: u64, trial: u64) -> Rng {
        let mut r = Rng {
            state: seed ^ 0x6A09_E667_F3BC_C908,
        };
        r.state = r.next_u64() ^ trial.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound` (Lemire's method with rejection: unbiased).
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "empty range");
        loop {
            let m = (self.next_u64() as u128) * (bound as u128);
            let low = m as u64;
            if low >= bound.wrapping_neg() % bound {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniformly random permutation of `1..=n` (Fisher-Yates).
    pub fn permutation(&mut self, n: usize) -> Vec<i64> {
        let mut v: Vec<i64> = (1..=n as i64).collect();
        for i in (1..n).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_trial(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_trial(7, 3).next_u64(),
            Rng::for_trial(7, 4).next_u64()
        );
        assert_ne!(
            Rng::for_trial(7, 3).next_u64(),
            Rng::for_trial(8, 3).next_u64()
        );
    }

    #[test]
    fn below_is_roughly_uniform_and_permutations_are_permutations() {
        let mut r = Rng::for_trial(1, 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        let mut p = r.permutation(16);
        p.sort_unstable();
        assert_eq!(p, (1..=16).collect::<Vec<_>>());
    }
}
