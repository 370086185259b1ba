//! Exact rationals of any size, for computations whose values can outgrow 128 bits.
//!
//! [`Exact`] (two `i128`s) is the right type for inputs and for solvers that scale to
//! integers, but an expectation over chance nodes multiplies probabilities along a path,
//! and denominators such as `3^90` overflow it. [`Rational`] keeps the 128-bit
//! representation while values fit and promotes a value to big integers only when an
//! operation overflows, so common files run at `Exact`'s speed and none fails for size.
//!
//! ```
//! use lastbite::rational::Rational;
//! let third = Rational::from_exact("1/3".parse().unwrap());
//! let mut p = Rational::one();
//! for _ in 0..100 {
//!     p = p.mul(&third);
//! }
//! assert_eq!(p.to_string(), format!("1/{}", num_bigint::BigInt::from(3).pow(100)));
//! assert!(p > Rational::zero());
//! ```

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::engine::Payoff;
use crate::exact::Exact;

use super::wide::{self, Wide};

mod sums;
#[cfg(test)]
mod tests;

/// An exact rational number of any size.
///
/// Invariant: the small form is reduced with a positive denominator, and the `Big` form
/// holds only values that do not fit it, so equal values have equal representations and
/// the derived equality and hash are exact. The small form is two `i64`s: sums and
/// products of two of them fit `i128` exactly before reduction, and a value is 24 bytes
/// (a solver keeps one per player per node). The big form is shared, never copied: a
/// solver copies a child's value into its parent's and a chance state's terms, and a
/// copy of a few hundred bits would cost more than the arithmetic.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Rational(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small {
        n: i64,
        d: i64,
    },
    /// Up to 512 bits: the arithmetic of chance runs on the stack ([`Wide`]).
    Wide(Arc<WideFraction>),
    Big(Arc<BigRational>),
}

/// A reduced fraction `+-n / d` that does not fit the small form but fits [`Wide`].
#[derive(Clone, Copy)]
struct WideFraction {
    negative: bool,
    n: Wide,
    d: Wide,
    /// Which small primes may divide `d` (`wide::support_u64`'s bits; `wide::ANY` when
    /// unknown): known, a sum over this denominator is reduced without a gcd. Not part
    /// of the value: equality and hash ignore it.
    support: u64,
}

impl PartialEq for WideFraction {
    fn eq(&self, other: &Self) -> bool {
        (self.negative, &self.n, &self.d) == (other.negative, &other.n, &other.d)
    }
}

impl Eq for WideFraction {}

impl std::hash::Hash for WideFraction {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.negative, &self.n, &self.d).hash(state);
    }
}

impl Rational {
    /// Zero.
    pub fn zero() -> Rational {
        Rational(Repr::Small { n: 0, d: 1 })
    }

    /// One.
    pub fn one() -> Rational {
        Rational(Repr::Small { n: 1, d: 1 })
    }

    /// `n / d` from 128-bit parts (`d != 0`), reduced, small when it fits.
    fn from_parts(n: i128, d: i128) -> Rational {
        debug_assert!(d != 0);
        if let (Ok(n), Ok(d)) = (i64::try_from(n), i64::try_from(d)) {
            // 64-bit divisions: several times faster than 128-bit ones (a library call).
            if n != i64::MIN && d != i64::MIN {
                let g =
                    super::gcd(n.unsigned_abs() as u128, d.unsigned_abs() as u128).max(1) as i64;
                let (n, d) = (n / g, d / g);
                return if d < 0 {
                    Rational(Repr::Small { n: -n, d: -d })
                } else {
                    Rational(Repr::Small { n, d })
                };
            }
        }
        let g = super::gcd(n.unsigned_abs(), d.unsigned_abs()).max(1) as i128;
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            (n, d) = (-n, -d);
        }
        Rational::from_reduced(n, d)
    }

    /// The value of an [`Exact`].
    pub fn from_exact(x: Exact) -> Rational {
        // Already reduced with a positive denominator: only the form is chosen.
        Rational::from_reduced(x.numer(), x.denom())
    }

    /// The reduced fraction `n / d` (`d > 0`) in the form that fits it.
    fn from_reduced(n: i128, d: i128) -> Rational {
        match (i64::try_from(n), i64::try_from(d)) {
            (Ok(n), Ok(d)) => Rational(Repr::Small { n, d }),
            _ => Rational::from_wide(
                n < 0,
                Wide::from_u128(n.unsigned_abs()),
                Wide::from_u128(d as u128),
                wide::ANY,
            ),
        }
    }

    /// The value of a big rational, kept small (or in fixed width) when it fits.
    pub fn from_big(x: BigRational) -> Rational {
        if let (Some(n), Some(d)) = (x.numer().to_i64(), x.denom().to_i64()) {
            return Rational(Repr::Small { n, d });
        }
        if let (Some(n), Some(d)) = (
            Wide::from_biguint(x.numer().magnitude()),
            Wide::from_biguint(x.denom().magnitude()),
        ) {
            return Rational::from_wide(x.numer().is_negative(), n, d, wide::ANY);
        }
        Rational(Repr::Big(Arc::new(x)))
    }

    /// The value as a big rational.
    pub fn to_big(&self) -> BigRational {
        self.big().into_owned()
    }

    /// The value as a big rational, borrowed when it is one (big arithmetic works on
    /// references, so a big operand is never copied).
    fn big(&self) -> Cow<'_, BigRational> {
        match &self.0 {
            Repr::Small { n, d } => {
                Cow::Owned(BigRational::new_raw(BigInt::from(*n), BigInt::from(*d)))
            }
            Repr::Wide(w) => {
                let sign = if w.negative { Sign::Minus } else { Sign::Plus };
                Cow::Owned(BigRational::new_raw(
                    BigInt::from_biguint(sign, w.n.to_biguint()),
                    BigInt::from(w.d.to_biguint()),
                ))
            }
            Repr::Big(b) => Cow::Borrowed(b),
        }
    }

    /// The value as an [`Exact`], when it fits.
    pub fn to_exact(&self) -> Option<Exact> {
        match &self.0 {
            Repr::Small { n, d } => Exact::new(*n as i128, *d as i128),
            Repr::Wide(w) => {
                let (m, d) = (w.n.to_u128()?, i128::try_from(w.d.to_u128()?).ok()?);
                let n = match w.negative {
                    // -2^127 fits, as the big form's conversion allows.
                    true if m <= 1 << 127 => (m as i128).wrapping_neg(),
                    false => i128::try_from(m).ok()?,
                    true => return None,
                };
                Exact::new(n, d)
            }
            Repr::Big(b) => Exact::new(b.numer().to_i128()?, b.denom().to_i128()?),
        }
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small { d, .. } => *d == 1,
            Repr::Wide(w) => w.d == Wide::from_u64(1),
            Repr::Big(b) => b.is_integer(),
        }
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        matches!(&self.0, Repr::Small { n: 0, .. })
    }

    /// The sum.
    pub fn add(&self, other: &Rational) -> Rational {
        // Adding a zero move payoff to a big value is common and must not cost a gcd.
        if other.is_zero() {
            return self.clone();
        }
        if self.is_zero() {
            return other.clone();
        }
        if let (Repr::Small { n: a, d: b }, Repr::Small { n: c, d }) = (&self.0, &other.0) {
            if *b == 1 && *d == 1 {
                // Integers, the common case: no gcd.
                if let Some(n) = a.checked_add(*c) {
                    return Rational(Repr::Small { n, d: 1 });
                }
            }
            let (b64, d64) = (*b as u64, *d as u64);
            let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
            // |a d|, |c b| < 2^126: the sum fits.
            return Rational::from_parts(a * d + c * b, b * d)
                .supported_by(|| wide::support_u64(b64) | wide::support_u64(d64));
        }
        if let Some(sum) = Rational::equal_weight_sum(&Rational::one(), [self, other].into_iter()) {
            return sum;
        }
        let (a, b) = (self.big(), other.big());
        let (sum, common) = Rational::sum_over(&[(a.numer(), a.denom()), (b.numer(), b.denom())]);
        Rational::reduced(sum, common)
    }

    /// The difference `self - other`.
    pub fn sub(&self, other: &Rational) -> Rational {
        self.add(&other.neg())
    }

    /// The negation.
    pub fn neg(&self) -> Rational {
        match &self.0 {
            Repr::Small { n, d } if *n != i64::MIN => Rational(Repr::Small { n: -n, d: *d }),
            _ => Rational::from_big(-self.to_big()),
        }
    }

    /// The product.
    pub fn mul(&self, other: &Rational) -> Rational {
        if let (Repr::Small { n: a, d: b }, Repr::Small { n: c, d }) = (&self.0, &other.0) {
            return Rational::from_parts(*a as i128 * *c as i128, *b as i128 * *d as i128);
        }
        let (a, b) = (self.big(), other.big());
        Rational::reduced(a.numer() * b.numer(), a.denom() * b.denom())
    }

    /// The value in fixed width, borrowed when it is held so, when it fits.
    fn fraction(&self) -> Option<Cow<'_, WideFraction>> {
        match &self.0 {
            Repr::Small { n, d } => Some(Cow::Owned(WideFraction {
                negative: *n < 0,
                n: Wide::from_u64(n.unsigned_abs()),
                d: Wide::from_u64(*d as u64),
                support: wide::ANY,
            })),
            Repr::Wide(w) => Some(Cow::Borrowed(w)),
            Repr::Big(_) => None,
        }
    }

    /// The value, with its denominator's support from `support` when it was just made in
    /// fixed width (a sum of small values that outgrew them): later sums over it then
    /// skip the gcd.
    fn supported_by(mut self, support: impl FnOnce() -> u64) -> Rational {
        if let Repr::Wide(w) = &mut self.0 {
            if let Some(w) = Arc::get_mut(w) {
                w.support = support();
            }
        }
        self
    }

    /// Which small primes may divide the denominator (`wide::support_u64`'s bits).
    fn support(&self) -> u64 {
        match &self.0 {
            Repr::Small { d, .. } => wide::support_u64(*d as u64),
            Repr::Wide(w) => w.support,
            Repr::Big(_) => wide::ANY,
        }
    }

    /// The reduced fraction `+-n / d` (`d > 0`), small when it fits; `support` holds the
    /// small primes that may divide `d` (`wide::ANY` when unknown).
    fn from_wide(negative: bool, n: Wide, d: Wide, support: u64) -> Rational {
        if let (Some(a), Some(b)) = (n.to_u64(), d.to_u64()) {
            let a = if negative { -(a as i128) } else { a as i128 };
            if let (Ok(n), Ok(d)) = (i64::try_from(a), i64::try_from(b)) {
                return Rational(Repr::Small { n, d });
            }
        }
        Rational(Repr::Wide(Arc::new(WideFraction {
            negative,
            n,
            d,
            support,
        })))
    }

    /// `n / d` for big `n` and positive `d`, reduced by one Lehmer gcd.
    fn reduced(n: BigInt, d: BigInt) -> Rational {
        debug_assert!(d.is_positive());
        let g = BigInt::from(super::big::big_gcd(n.magnitude(), d.magnitude()));
        let (n, d) = if g.is_one() || g.is_zero() {
            (n, d)
        } else {
            (n / &g, d / &g)
        };
        Rational::from_big(BigRational::new_raw(n, d))
    }

    /// Adds `other` in place.
    pub fn add_assign(&mut self, other: &Rational) {
        if other.is_zero() {
            return;
        }
        *self = self.add(other);
    }

    /// The value as a JSON value: an integer when it is one, else a string like `"25/2"`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a rational serialises")
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small { n: a, d: b }, Repr::Small { n: c, d }) => {
                (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128))
            }
            // Cross-multiplied in fixed width when the numbers fit (num-rational compares
            // by a continued fraction: a big division and copies a step).
            _ => match (self.fraction(), other.fraction()) {
                (Some(a), Some(b)) => {
                    let sign = |negative: bool, n: &Wide| match (n.is_zero(), negative) {
                        (true, _) => 0,
                        (false, true) => -1,
                        (false, false) => 1,
                    };
                    let (x, y) = (sign(a.negative, &a.n), sign(b.negative, &b.n));
                    if x != y || x == 0 {
                        return x.cmp(&y);
                    }
                    let magnitudes = a.n.cmp_products(&b.d, &b.n, &a.d);
                    if x < 0 {
                        magnitudes.reverse()
                    } else {
                        magnitudes
                    }
                }
                _ => self.big().cmp(&other.big()),
            },
        }
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small { n, d: 1 } => write!(f, "{n}"),
            Repr::Small { n, d } => write!(f, "{n}/{d}"),
            _ => {
                let b = self.big();
                if b.is_integer() {
                    write!(f, "{}", b.numer())
                } else {
                    write!(f, "{}/{}", b.numer(), b.denom())
                }
            }
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl From<Exact> for Rational {
    fn from(x: Exact) -> Rational {
        Rational::from_exact(x)
    }
}

impl From<i64> for Rational {
    fn from(n: i64) -> Rational {
        Rational(Repr::Small { n, d: 1 })
    }
}

impl Default for Rational {
    fn default() -> Rational {
        Rational::zero()
    }
}

impl Payoff for Rational {
    fn zero() -> Self {
        Rational::zero()
    }
    fn plus(&self, other: &Self) -> Self {
        self.add(other)
    }
    fn minus(&self, other: &Self) -> Self {
        self.sub(other)
    }
    fn times(&self, other: &Self) -> Self {
        self.mul(other)
    }
    fn weighted_sum(terms: &[(&Self, &Self)]) -> Self {
        Rational::weighted_sum(terms)
    }
    fn from_integer(n: i128) -> Self {
        Rational::from_exact(Exact::integer(n))
    }
    fn fits(_bound: i128) -> bool {
        true
    }
    fn to_integer(&self) -> Option<i128> {
        match &self.0 {
            Repr::Small { n, d: 1 } => Some(*n as i128),
            _ => self.to_exact().filter(Exact::is_integer).map(|x| x.numer()),
        }
    }
}

/// Serialised as [`Exact`] is: a JSON integer when the value is one (of any size), else a
/// string like `"25/2"`.
impl serde::Serialize for Rational {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Small { n, d: 1 } => s.serialize_i64(*n),
            Repr::Small { .. } => s.collect_str(self),
            _ if self.is_integer() => super::json::serialize_bigint(self.big().numer(), s),
            _ => s.collect_str(self),
        }
    }
}

/// Its own schema (reports only): written as [`Exact`] is, but of any size.
impl schemars::JsonSchema for Rational {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rational".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An exact rational number of any size: a JSON integer (every digit kept) when it is one, else a string \"a/b\" in lowest terms.",
            "anyOf": [
                {"type": "integer"},
                {"type": "string", "pattern": "^-?[0-9]+/[0-9]+$"}
            ]
        })
    }
}
