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
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::engine::Payoff;
use crate::exact::Exact;

use super::wide::{self, Wide};

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

    /// The expectation `sum p * v` of `(p, v)` pairs, reduced once rather than after each
    /// product and sum: the terms are put over one common denominator (the largest when,
    /// as with a die's powers of 6, each divides it) and their numerators summed. Big
    /// reductions are the cost of chance in exact arithmetic, so this is the chance
    /// state's one gcd.
    ///
    /// ```
    /// use lastbite::rational::Rational;
    /// let r = |s: &str| Rational::from_exact(s.parse().unwrap());
    /// let (p, q, v, w) = (r("1/3"), r("2/3"), r("1/2"), r("1/4"));
    /// assert_eq!(Rational::weighted_sum(&[(&p, &v), (&q, &w)]), r("1/3"));
    /// ```
    pub fn weighted_sum(terms: &[(&Rational, &Rational)]) -> Rational {
        if let Some(sum) = Rational::small_weighted_sum(terms) {
            return sum.supported_by(|| {
                terms
                    .iter()
                    .fold(0, |s, (p, v)| s | p.support() | v.support())
            });
        }
        let terms: Vec<_> = terms
            .iter()
            .filter(|(p, v)| !p.is_zero() && !v.is_zero())
            .collect();
        let Some((p, _)) = terms.first() else {
            return Rational::zero();
        };
        if terms.iter().all(|(q, _)| q == p) {
            // A die's faces are equally likely: sum the values, then scale once, on the
            // stack when the numbers fit 512 bits.
            if let Some(sum) = Rational::equal_weight_sum(p, terms.iter().map(|(_, v)| *v)) {
                return sum;
            }
            let values: Vec<_> = terms.iter().map(|(_, v)| v.big()).collect();
            let parts: Vec<_> = values.iter().map(|v| (v.numer(), v.denom())).collect();
            let (sum, common) = Rational::sum_over(&parts);
            let p = p.big();
            return Rational::reduced(sum * p.numer(), common * p.denom());
        }
        let products: Vec<(BigInt, BigInt)> = terms
            .iter()
            .map(|(p, v)| {
                let (p, v) = (p.big(), v.big());
                (p.numer() * v.numer(), p.denom() * v.denom())
            })
            .collect();
        let parts: Vec<_> = products.iter().map(|(n, d)| (n, d)).collect();
        let (sum, common) = Rational::sum_over(&parts);
        Rational::reduced(sum, common)
    }

    /// `p * sum values` in fixed width ([`Wide`]): the values over their least common
    /// denominator, found from the widest by word quotients (a die's `2^i 3^j`), one gcd.
    /// `None` when there are more than 8 values, a number does not fit or a quotient is
    /// not a word.
    fn equal_weight_sum<'a, I>(p: &Rational, values: I) -> Option<Rational>
    where
        I: Iterator<Item = &'a Rational> + Clone,
    {
        let p = p.fraction()?;
        let (p_neg, pn, pd) = (p.negative, p.n.to_u64()?, p.d.to_u64()?);
        // Two passes over the values, each read in place (a copy of 8 of them was a
        // tenth of the time): the common denominator and the scales, then the sum.
        let mut common: Option<Wide> = None;
        let mut scales = [1u64; 8];
        let mut widened = false;
        // The primes of the sum's denominator are among those of the terms' and p's.
        let mut support = wide::support_u64(pd);
        for (i, value) in values.clone().enumerate() {
            support |= value.support();
            let v = value.fraction()?;
            if i >= scales.len() {
                return None;
            }
            let Some(c) = common.as_mut() else {
                common = Some(v.d);
                continue;
            };
            if v.d == *c {
                continue;
            }
            // The quotient either way: the wider denominator becomes the common one.
            let forward = c.exact_quotient(&v.d);
            let reverse = forward.is_none().then(|| v.d.exact_quotient(c)).flatten();
            match (forward, reverse) {
                (Some(q), _) => scales[i] = q,
                (None, Some(q)) => {
                    // A wider denominator that the common one divides: it becomes the
                    // common one, and the earlier values' scales grow by the quotient.
                    *c = v.d;
                    for earlier in &mut scales[..i] {
                        *earlier = earlier.checked_mul(q)?;
                    }
                }
                (None, None) => {
                    // lcm(c, d) = c * (d / gcd(c, d)), the factor a word.
                    let g = c.gcd(&v.d);
                    *c = c.mul_u64(v.d.exact_quotient(&g)?)?;
                    widened = true;
                }
            }
        }
        let common = common?;
        // Positive and negative terms apart: the magnitudes are unsigned.
        let (mut pos, mut neg) = (Wide::ZERO, Wide::ZERO);
        for (v, &scale) in values.zip(&scales) {
            let v = v.fraction()?;
            let scale = match widened {
                false => scale,
                true if v.d == common => 1,
                true => common.exact_quotient(&v.d)?,
            };
            let acc = if v.negative { &mut neg } else { &mut pos };
            if scale == 1 {
                acc.add_assign(&v.n)?;
            } else {
                acc.add_mul_assign(&v.n, scale)?;
            }
        }
        let (negative, sum) = if pos.cmp(&neg).is_ge() {
            (false, pos.sub(&neg))
        } else {
            (true, neg.sub(&pos))
        };
        if sum.is_zero() {
            return Some(Rational::zero());
        }
        let mut n = if pn == 1 { sum } else { sum.mul_u64(pn)? };
        let mut d = common.mul_u64(pd)?;
        if support & wide::BEYOND == 0 {
            Wide::strip_common(&mut n, &mut d, support);
            return Some(Rational::from_wide(negative ^ p_neg, n, d, support));
        }
        let g = n.gcd(&d);
        Some(match g.to_u64() {
            Some(1) => Rational::from_wide(negative ^ p_neg, n, d, support),
            Some(g) => Rational::from_wide(negative ^ p_neg, n.div_u64(g), d.div_u64(g), support),
            None => {
                let g = g.to_biguint();
                let sign = if negative ^ p_neg {
                    Sign::Minus
                } else {
                    Sign::Plus
                };
                Rational::from_big(BigRational::new_raw(
                    BigInt::from_biguint(sign, n.to_biguint() / &g),
                    BigInt::from(d.to_biguint() / &g),
                ))
            }
        })
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

    /// The sum of fractions `(numerator, positive denominator)` as `(numerator, common
    /// denominator)`, unreduced. The common denominator is the widest one when every other
    /// divides it (an exact division a term, whose quotient scales the numerator), else
    /// their least common multiple.
    fn sum_over(parts: &[(&BigInt, &BigInt)]) -> (BigInt, BigInt) {
        let Some(&(_, common)) = parts.iter().max_by_key(|(_, d)| d.bits()) else {
            return (BigInt::zero(), BigInt::one());
        };
        let mut scales = Vec::with_capacity(parts.len());
        for (_, d) in parts {
            if *d == common {
                scales.push(None);
                continue;
            }
            match super::big::divide_exactly(common.magnitude(), d.magnitude()) {
                Some(q) => scales.push(Some(BigInt::from(q))),
                None => return Rational::sum_over_lcm(parts),
            }
        }
        let mut sum = BigInt::zero();
        for ((n, _), scale) in parts.iter().zip(&scales) {
            match scale {
                None => sum += *n,
                Some(q) => sum += *n * q,
            }
        }
        (sum, common.clone())
    }

    /// [`Rational::sum_over`] when the denominators do not divide one another (rare).
    fn sum_over_lcm(parts: &[(&BigInt, &BigInt)]) -> (BigInt, BigInt) {
        let common = parts.iter().fold(BigInt::one(), |l, (_, d)| l.lcm(d));
        let sum = parts.iter().map(|(n, d)| *n * (&common / *d)).sum();
        (sum, common)
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

    /// [`Rational::weighted_sum`] in 128 bits, or `None` when a step overflows.
    fn small_weighted_sum(terms: &[(&Rational, &Rational)]) -> Option<Rational> {
        if terms
            .iter()
            .any(|(p, v)| !matches!(p.0, Repr::Small { .. }) || !matches!(v.0, Repr::Small { .. }))
        {
            return None;
        }
        if let Some(sum) = Rational::small_equal_weight_sum(terms) {
            return Some(sum);
        }
        let (mut n, mut d) = (0i128, 1i128);
        for (p, v) in terms {
            let (Repr::Small { n: pn, d: pd }, Repr::Small { n: vn, d: vd }) = (&p.0, &v.0) else {
                return None;
            };
            // Products of two i64s fit i128; the running sum is checked.
            let (tn, td) = (*pn as i128 * *vn as i128, *pd as i128 * *vd as i128);
            if tn == 0 {
                continue;
            }
            // Over lcm(d, td) = (d / g) td, scaling n by td / g and tn by d / g (word
            // divisions while they fit: a 128-bit one is a library call).
            let g = super::gcd(d as u128, td as u128);
            let quot = |a: i128| match u64::try_from(a) {
                Ok(a) => (a / g as u64) as i128,
                Err(_) => a / g as i128,
            };
            let (dg, tdg) = (quot(d), quot(td));
            n = n.checked_mul(tdg)?.checked_add(tn.checked_mul(dg)?)?;
            d = dg.checked_mul(td)?;
        }
        Some(Rational::from_parts(n, d))
    }

    /// [`Rational::small_weighted_sum`] when every probability is the same and every
    /// denominator divides the widest (a die's `6^k`): a division a term, one reduction,
    /// and no gcd when the denominators' primes are small ones. `None` otherwise.
    fn small_equal_weight_sum(terms: &[(&Rational, &Rational)]) -> Option<Rational> {
        let small = |x: &Rational| match x.0 {
            Repr::Small { n, d } => Some((n, d as u64)),
            _ => None,
        };
        let (first, _) = terms.first()?;
        let (pn, pd) = small(first)?;
        let mut common = 1u64;
        for (p, v) in terms {
            if small(p)? != (pn, pd) {
                return None;
            }
            common = common.max(small(v)?.1);
        }
        let mut sum = 0i128;
        for (_, v) in terms {
            let (n, d) = small(v)?;
            if n == 0 {
                continue;
            }
            let scale = common / d;
            if scale * d != common {
                return None;
            }
            // |n| scale < 2^127; the sum is checked.
            sum = sum.checked_add(n as i128 * scale as i128)?;
        }
        let n = sum.checked_mul(pn as i128)?;
        let d = common as u128 * pd as u128;
        let support = wide::support_u64(common) | wide::support_u64(pd);
        if support & wide::BEYOND != 0 || n == 0 {
            return Some(Rational::from_parts(n, i128::try_from(d).ok()?));
        }
        let (m, d) = wide::strip_common_u128(n.unsigned_abs(), d, support);
        let negative = n < 0;
        Some(match (i64::try_from(m), i64::try_from(d)) {
            (Ok(m), Ok(d)) => Rational(Repr::Small {
                n: if negative { -m } else { m },
                d,
            }),
            _ => Rational::from_wide(negative, Wide::from_u128(m), Wide::from_u128(d), support),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Rational {
        Rational::from_exact(s.parse().unwrap())
    }

    #[test]
    fn promotes_on_overflow_and_demotes_back() {
        let big = r(&i128::MAX.to_string());
        assert!(matches!(big.0, Repr::Wide(_)));
        let small = r(&i64::MAX.to_string());
        assert!(matches!(small.add(&small).0, Repr::Wide(_)));
        assert!(matches!(
            small.add(&small).sub(&small).0,
            Repr::Small { .. }
        ));
        let sum = big.add(&big);
        assert!(matches!(sum.0, Repr::Wide(_)));
        assert_eq!(
            sum.to_string(),
            (BigInt::from(i128::MAX) * BigInt::from(2)).to_string()
        );
        let back = sum.sub(&big);
        assert_eq!(back, big);
        assert_eq!(back.to_exact(), Some(Exact::integer(i128::MAX)));
    }

    #[test]
    fn compares_across_forms() {
        let huge = r(&i128::MAX.to_string()).mul(&r("4"));
        assert!(huge > r("1"));
        assert!(huge.neg() < r("-1"));
        assert_eq!(r("1/2").cmp(&r("2/4")), Ordering::Equal);
    }

    /// A rational from a numerator and denominator of up to `limbs` random words, with
    /// dice-like denominators (powers of 6 times a word) half the time.
    fn arbitrary(limbs: usize) -> impl proptest::strategy::Strategy<Value = Rational> {
        use proptest::prelude::*;
        let word = prop_oneof![any::<u64>(), 0u64..7];
        let number = proptest::collection::vec(word, 0..=limbs).prop_map(|ws| {
            ws.iter()
                .fold(BigInt::zero(), |acc, &w| (acc << 64) + BigInt::from(w))
        });
        (
            number.clone(),
            number,
            0u32..200,
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(n, d, k, dice, negative)| {
                let d = if dice {
                    BigInt::from(6).pow(k) * BigInt::from(d.magnitude() % 5u32 + 1u32)
                } else {
                    d + 1
                };
                let n = if negative { -n } else { n };
                Rational::from_big(BigRational::new(n, d))
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The fixed-width paths (equally weighted sums, comparisons) against plain big
        /// rational arithmetic, on numbers beyond their 512 bits too.
        #[test]
        fn fixed_width_paths_equal_big_arithmetic(
            values in proptest::collection::vec(arbitrary(9), 1..7),
            p in arbitrary(1),
        ) {
            let terms: Vec<_> = values.iter().map(|v| (&p, v)).collect();
            let want: BigRational = values.iter().map(|v| p.to_big() * v.to_big()).sum();
            let got = Rational::weighted_sum(&terms);
            proptest::prop_assert_eq!(&got, &Rational::from_big(want.clone()));
            for (a, b) in values.iter().zip(values.iter().skip(1)) {
                // Equal values have equal forms (the derived equality is exact).
                proptest::prop_assert_eq!(a.add(b), Rational::from_big(a.to_big() + b.to_big()));
                proptest::prop_assert_eq!(a.sub(b), Rational::from_big(a.to_big() - b.to_big()));
                proptest::prop_assert_eq!(a.mul(b), Rational::from_big(a.to_big() * b.to_big()));
                proptest::prop_assert_eq!(a.to_exact().map(Rational::from_exact), a.to_exact().map(|_| a.clone()));
                proptest::prop_assert_eq!(a.cmp(b), a.to_big().cmp(&b.to_big()));
                proptest::prop_assert_eq!(a.cmp(a), Ordering::Equal);
                proptest::prop_assert_eq!(got.cmp(a), want.cmp(&a.to_big()));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Expectations of expectations, as a solver makes them: each step an equally
        /// weighted sum of earlier values (a die of 2 to 8 faces, or a probability whose
        /// denominator has a prime beyond the small ones), so values carry their
        /// denominators' small primes from the 64-bit form through 128 bits and fixed
        /// width past 512 bits; each against big rational arithmetic, forms included.
        #[test]
        fn chained_expectations_equal_big_arithmetic(
            seeds in proptest::collection::vec((-50i64..50, 0usize..6), 2..8),
            beyond in proptest::prelude::any::<bool>(),
            steps in proptest::collection::vec(
                (
                    0usize..12,
                    // Mostly the latest values, whose denominators are alike (as a
                    // race's children's are), so that common factors come up.
                    proptest::collection::vec(proptest::prop_oneof![0usize..3, 0usize..1000], 2..9),
                    proptest::prelude::any::<bool>(),
                ),
                1..80,
            ),
        ) {
            const DENOMINATORS: [i64; 6] = [1, 2, 3, 4, 6, 36];
            let mut pool: Vec<(Rational, BigRational)> = seeds
                .iter()
                .map(|&(n, d)| {
                    let x = BigRational::new(n.into(), DENOMINATORS[d].into());
                    (Rational::from_big(x.clone()), x)
                })
                .collect();
            const DIE: [i64; 12] = [2, 3, 4, 5, 6, 7, 8, 12, 36, 52, 67, 6 * 101];
            for (die, picks, negate) in steps {
                // Half the chains keep to small primes (no gcd at all), half may not.
                let die = if beyond { DIE[die] } else { DIE[die % 10] };
                let p = Rational::from_parts(1, die as i128);
                let at = |i: usize| &pool[pool.len() - 1 - i % pool.len()];
                let picked: Vec<_> = picks.iter().map(|&i| at(i)).collect();
                let terms: Vec<_> = picked.iter().map(|(v, _)| (&p, v)).collect();
                let got = Rational::weighted_sum(&terms);
                let want: BigRational = picked.iter().map(|(_, v)| v / BigInt::from(die)).sum();
                proptest::prop_assert_eq!(&got, &Rational::from_big(want.clone()));
                let (got, want) = if negate { (got.neg(), -want) } else { (got, want) };
                // A two-term sum over the new value too (the `add` path).
                let other = at(picks[0]);
                proptest::prop_assert_eq!(got.add(&other.0), Rational::from_big(&want + &other.1));
                pool.push((got, want));
            }
        }
    }

    #[test]
    fn json_forms() {
        let huge = r(&i128::MAX.to_string()).mul(&r("4"));
        assert_eq!(
            huge.to_json().to_string(),
            (BigInt::from(i128::MAX) * BigInt::from(4)).to_string()
        );
        assert_eq!(r("5/2").to_json().to_string(), "\"5/2\"");
        assert_eq!(r("-7").to_json().to_string(), "-7");
        let tiny = r("1/3").mul(&r(&format!("1/{}", i128::MAX)));
        assert!(tiny.to_json().as_str().unwrap().starts_with("1/"));
    }
}
