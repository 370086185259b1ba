//! Normal-play analysis of impartial games: the player who cannot move loses.
//!
//! For any game given by its options, memoised over canonical positions: the outcome
//! class (N: the next player wins, P: the previous one), the Sprague-Grundy value, the
//! Steinhaus remoteness (the winner hurries, the loser dawdles), the suspense number (the
//! winner dawdles, the loser hurries; Winning Ways, ch. 9) and the *strategic duration*
//! of Propp and Ullman where it exists: a value `D` with (a) `D = 0` iff there are no
//! options, (b) `D` even: every option has `D - 1`, (c) `D` odd: some option has `D - 1`
//! and the others have odd `D`; it must hold for the position and everything below it.

use std::collections::HashMap;
use std::hash::Hash;

/// An impartial game: both players have the same options.
pub trait Impartial {
    /// A position.
    type Position: Clone + Eq + Hash + std::fmt::Debug;
    /// The options of a position (in any order; duplicates are allowed).
    fn options(&self, p: &Self::Position) -> Vec<Self::Position>;
    /// A canonical representative: positions with the same canonical form must have the
    /// same options up to canonical form (default: the position itself).
    fn canonical(&self, p: &Self::Position) -> Self::Position {
        p.clone()
    }
}

/// Who wins with perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The next player (to move) wins.
    N,
    /// The previous player wins.
    P,
}

/// Everything the engine knows of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImpartialValue {
    /// N or P.
    pub outcome: Outcome,
    /// The Sprague-Grundy value.
    pub grundy: u32,
    /// The remoteness.
    pub remoteness: u32,
    /// The suspense number.
    pub suspense: u32,
    /// The strategic duration, when the position has one.
    pub duration: Option<u32>,
}

/// A memoised analyser (keep it to analyse many positions of one game).
pub struct Analyser<'g, G: Impartial> {
    game: &'g G,
    memo: HashMap<G::Position, ImpartialValue>,
}

impl<'g, G: Impartial> Analyser<'g, G> {
    /// An analyser for `game`.
    pub fn new(game: &'g G) -> Self {
        Analyser {
            game,
            memo: HashMap::new(),
        }
    }

    /// Number of canonical positions analysed so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// Analyses a position (recursively; depth = the longest play).
    pub fn value(&mut self, p: &G::Position) -> ImpartialValue {
        let key = self.game.canonical(p);
        if let Some(v) = self.memo.get(&key) {
            return *v;
        }
        let options: Vec<ImpartialValue> = self
            .game
            .options(&key)
            .iter()
            .map(|o| self.value(o))
            .collect();
        let v = combine(&options);
        self.memo.insert(key, v);
        v
    }
}

/// The value of a position from its options' values.
pub fn combine(options: &[ImpartialValue]) -> ImpartialValue {
    if options.is_empty() {
        return ImpartialValue {
            outcome: Outcome::P,
            grundy: 0,
            remoteness: 0,
            suspense: 0,
            duration: Some(0),
        };
    }
    // The mex; a bit mask when every value is small (no allocation: the general cookie
    // table calls this once per position, 10^8 times).
    let grundy = if options.iter().all(|o| o.grundy < 64) {
        let seen = options.iter().fold(0u64, |m, o| m | 1 << o.grundy);
        (!seen).trailing_zeros()
    } else {
        let mut seen: Vec<bool> = vec![false; options.len() + 1];
        for o in options {
            if (o.grundy as usize) < seen.len() {
                seen[o.grundy as usize] = true;
            }
        }
        seen.iter().position(|&s| !s).expect("mex exists") as u32
    };
    let winning = options.iter().any(|o| o.outcome == Outcome::P);
    let even = |x: u32| x.is_multiple_of(2);
    // Remoteness: a winner moves to the nearest even-remoteness option, a loser to the
    // farthest. Suspense: a winner to the farthest even one, a loser to the nearest.
    let (remoteness, suspense) = if winning {
        (
            1 + options
                .iter()
                .map(|o| o.remoteness)
                .filter(|&r| even(r))
                .min()
                .expect("a P option"),
            1 + options
                .iter()
                .map(|o| o.suspense)
                .filter(|&r| even(r))
                .max()
                .expect("a P option"),
        )
    } else {
        (
            1 + options
                .iter()
                .map(|o| o.remoteness)
                .max()
                .expect("non-empty"),
            1 + options.iter().map(|o| o.suspense).min().expect("non-empty"),
        )
    };
    // (b) no option has an even duration and all share one odd value: D is one more;
    // (c) the even options share one value e: D = e + 1 is odd. Either way D is one more
    // than a value all the relevant options share, and every option needs a duration.
    let all_known = options.iter().all(|o| o.duration.is_some());
    let any_even = options.iter().any(|o| o.duration.is_some_and(even));
    let relevant = |o: &&ImpartialValue| !any_even || o.duration.is_some_and(even);
    let first = options.iter().find(relevant).and_then(|o| o.duration);
    let duration = first
        .filter(|&d| {
            all_known
                && options
                    .iter()
                    .filter(relevant)
                    .all(|o| o.duration == Some(d))
        })
        .map(|d| d + 1);
    ImpartialValue {
        outcome: if winning { Outcome::N } else { Outcome::P },
        grundy,
        remoteness,
        suspense,
        duration,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subtraction game {1, 2} on one heap: P iff h = 0 mod 3, Grundy value h mod 3.
    struct TakeOneOrTwo;

    impl Impartial for TakeOneOrTwo {
        type Position = u32;
        fn options(&self, h: &u32) -> Vec<u32> {
            (1..=2).filter(|&s| s <= *h).map(|s| h - s).collect()
        }
    }

    #[test]
    fn a_classic_subtraction_game() {
        let mut a = Analyser::new(&TakeOneOrTwo);
        for h in 0..30u32 {
            let v = a.value(&h);
            assert_eq!(v.outcome == Outcome::P, h % 3 == 0, "heap {h}");
            assert_eq!(v.grundy, h % 3);
            // Both numbers are even exactly at P-positions.
            assert_eq!(v.remoteness.is_multiple_of(2), v.outcome == Outcome::P);
            assert_eq!(v.suspense.is_multiple_of(2), v.outcome == Outcome::P);
        }
    }

    #[test]
    fn duration_requires_properties_b_and_c() {
        let leaf = combine(&[]);
        assert_eq!(leaf.duration, Some(0));
        let one = combine(&[leaf]);
        assert_eq!(one.duration, Some(1));
        // Options with durations 1 and 3 (both odd, different): no duration.
        let three = combine(&[combine(&[one])]);
        assert_eq!(three.duration, Some(3));
        let mixed = combine(&[one, three]);
        assert_eq!(mixed.duration, None);
        assert_eq!((mixed.remoteness, mixed.suspense), (4, 2));
    }
}
