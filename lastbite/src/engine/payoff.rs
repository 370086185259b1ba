//! Exact payoff types.

use std::fmt::{Debug, Display};

use crate::exact::Exact;

/// An exactly comparable payoff: integers or rationals, never floats.
pub trait Payoff: Clone + Ord + Send + Sync + Debug + Display + 'static {
    /// Zero.
    fn zero() -> Self;
    /// The sum.
    fn plus(&self, other: &Self) -> Self;
    /// The difference `self - other`.
    fn minus(&self, other: &Self) -> Self;
    /// The product, for weighting a chance outcome's value by its probability (a game
    /// whose payoffs are integers can only have probabilities 0 and 1).
    fn times(&self, other: &Self) -> Self;
    /// The expectation `sum p * v` over `(p, v)` pairs. Types whose arithmetic reduces
    /// fractions override it to reduce once rather than after every product and sum.
    fn weighted_sum(terms: &[(&Self, &Self)]) -> Self {
        // A die's faces are equally likely: then the values are summed and multiplied
        // once, which saves most of the products.
        match terms.first() {
            Some((p, _)) if terms.iter().all(|(q, _)| q == p) => terms
                .iter()
                .fold(Self::zero(), |acc, (_, v)| acc.plus(v))
                .times(p),
            _ => terms
                .iter()
                .fold(Self::zero(), |acc, (p, v)| acc.plus(&p.times(v))),
        }
    }
    /// An integer as a payoff; callers check ranges with [`Payoff::fits`] first.
    fn from_integer(n: i128) -> Self;
    /// Whether every integer of absolute value at most `bound` is representable.
    fn fits(bound: i128) -> bool;
    /// The payoff as an integer, when it is one.
    fn to_integer(&self) -> Option<i128>;
}

/// Machine integers as payoffs; `i16` and `i32` take a quarter and half the memory of
/// `i64` where the payoffs allow it (the lean solver's 3 x 32 and 2 x 32 dinners), `i128`
/// holds what `i64` cannot.
macro_rules! integer_payoff {
    ($($t:ty),*) => {$(
        impl Payoff for $t {
            fn zero() -> Self {
                0
            }
            fn plus(&self, other: &Self) -> Self {
                self + other
            }
            fn minus(&self, other: &Self) -> Self {
                self - other
            }
            fn times(&self, other: &Self) -> Self {
                self * other
            }
            fn from_integer(n: i128) -> Self {
                n as $t
            }
            fn fits(bound: i128) -> bool {
                bound <= <$t>::MAX as i128
            }
            fn to_integer(&self) -> Option<i128> {
                Some(*self as i128)
            }
        }
    )*};
}

integer_payoff!(i16, i32, i64, i128);

impl Payoff for Exact {
    fn zero() -> Self {
        Exact::ZERO
    }
    fn plus(&self, other: &Self) -> Self {
        *self + *other
    }
    fn minus(&self, other: &Self) -> Self {
        *self - *other
    }
    fn times(&self, other: &Self) -> Self {
        *self * *other
    }
    fn from_integer(n: i128) -> Self {
        Exact::integer(n)
    }
    fn fits(_bound: i128) -> bool {
        true
    }
    fn to_integer(&self) -> Option<i128> {
        self.is_integer().then(|| self.numer())
    }
}
