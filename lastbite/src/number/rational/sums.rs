//! Sums of rationals reduced once: an expectation's terms over one common denominator,
//! in 128 bits, in fixed width or in big integers, whichever the terms fit. Big
//! reductions are the cost of chance in exact arithmetic; these keep them to one a sum.

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{Rational, Repr};
use crate::number::wide::{self, Wide};

impl Rational {
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
    pub(super) fn equal_weight_sum<'a, I>(p: &Rational, values: I) -> Option<Rational>
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

    /// The sum of fractions `(numerator, positive denominator)` as `(numerator, common
    /// denominator)`, unreduced. The common denominator is the widest one when every other
    /// divides it (an exact division a term, whose quotient scales the numerator), else
    /// their least common multiple.
    pub(super) fn sum_over(parts: &[(&BigInt, &BigInt)]) -> (BigInt, BigInt) {
        let Some(&(_, common)) = parts.iter().max_by_key(|(_, d)| d.bits()) else {
            return (BigInt::zero(), BigInt::one());
        };
        let mut scales = Vec::with_capacity(parts.len());
        for (_, d) in parts {
            if *d == common {
                scales.push(None);
                continue;
            }
            match crate::number::big::divide_exactly(common.magnitude(), d.magnitude()) {
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
    pub(super) fn sum_over_lcm(parts: &[(&BigInt, &BigInt)]) -> (BigInt, BigInt) {
        let common = parts.iter().fold(BigInt::one(), |l, (_, d)| l.lcm(d));
        let sum = parts.iter().map(|(n, d)| *n * (&common / *d)).sum();
        (sum, common)
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
            let g = crate::number::gcd(d as u128, td as u128);
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
}
