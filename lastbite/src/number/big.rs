//! The two big-integer kernels of exact expectations that `num-bigint` makes slow: the
//! greatest common divisor, by Lehmer's algorithm (Knuth, TAOCP vol. 2, 4.5.2, Algorithm
//! L), and exact division (Jebelean's, by the inverse of the low word).
//!
//! A chance state's value is a sum over one common denominator (each term's denominator
//! divides it, found by [`divide_exactly`]) reduced by one gcd ([`big_gcd`]), of numbers
//! of a few hundred bits (a die's `6^k`). `num-bigint`'s gcd is binary (Stein's), one
//! allocating shift a bit; Lehmer's runs Euclid's algorithm on the leading 62 bits in
//! machine words and applies the quotients it is sure of to the whole numbers at once,
//! about 30 bits a pass, and finishes in 128 bits. Its division normalises and allocates
//! for a remainder; exact division cancels the low word each step and needs neither.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;

/// `gcd(a, b)` (`gcd(0, 0) = 0`).
pub(crate) fn big_gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (a, b) = if a >= b { (a, b) } else { (b, a) };
    let mut a: Vec<u64> = a.iter_u64_digits().collect();
    let mut b: Vec<u64> = b.iter_u64_digits().collect();
    loop {
        trim(&mut b);
        if b.is_empty() {
            return from_limbs(a);
        }
        if a.len() <= 2 {
            return BigUint::from(binary_gcd(to_u128(&a), to_u128(&b)));
        }
        // The leading 62 bits of a, and b's bits at the same places.
        let bits = a.len() as u32 * 64 - a[a.len() - 1].leading_zeros();
        let shift = bits - 62;
        let (x, y) = (top(&a, shift), top(&b, shift));
        let [p, q, r, s] = cosequence(x, y);
        // (a, b) <- (p a + q b, r a + s b): the remainders Euclid would reach. With no
        // sure quotient (q = 0), or (unreachable by Knuth's condition) a negative
        // combination, one full-precision step instead, which is always correct.
        let next = match q {
            0 => None,
            _ => combine(&a, &b, p, q).zip(combine(&a, &b, r, s)),
        };
        (a, b) = match next {
            Some(pair) => pair,
            None => euclid_step(a, b),
        };
        trim(&mut a);
        trim(&mut b);
        if cmp_limbs(&a, &b).is_lt() {
            std::mem::swap(&mut a, &mut b);
        }
    }
}

/// `(b, a mod b)` in full precision.
fn euclid_step(a: Vec<u64>, b: Vec<u64>) -> (Vec<u64>, Vec<u64>) {
    let (a, b) = (from_limbs(a), from_limbs(b));
    let rem = a.mod_floor(&b);
    (
        b.iter_u64_digits().collect(),
        rem.iter_u64_digits().collect(),
    )
}

/// `c / d` when `d` divides `c`, else `None` (also for `d = 0`).
pub(crate) fn divide_exactly(c: &BigUint, d: &BigUint) -> Option<BigUint> {
    let tz = d.trailing_zeros()?;
    let Some(ctz) = c.trailing_zeros() else {
        return Some(BigUint::zero());
    };
    if ctz < tz {
        return None;
    }
    let (c, d) = if tz == 0 {
        (
            c.iter_u64_digits().collect::<Vec<_>>(),
            d.iter_u64_digits().collect::<Vec<_>>(),
        )
    } else {
        (
            (c >> tz).iter_u64_digits().collect(),
            (d >> tz).iter_u64_digits().collect(),
        )
    };
    let mut c = c;
    if c.len() < d.len() {
        return None;
    }
    // d is odd now, so invertible modulo 2^64: each step makes c's lowest word zero.
    let inv = inverse(d[0]);
    let n = c.len() - d.len() + 1;
    let mut q = Vec::with_capacity(n);
    for i in 0..n {
        let qi = c[i].wrapping_mul(inv);
        q.push(qi);
        if qi == 0 {
            continue;
        }
        let mut borrow = 0u64;
        for (j, &dj) in d.iter().enumerate() {
            let p = qi as u128 * dj as u128 + borrow as u128;
            let (r, b) = c[i + j].overflowing_sub(p as u64);
            c[i + j] = r;
            // The high word is below 2^64 - 1 unless the low one is 0: no overflow.
            borrow = (p >> 64) as u64 + b as u64;
        }
        let mut k = i + d.len();
        while borrow != 0 {
            // Past the top: q d exceeds c, so d does not divide it.
            let word = c.get_mut(k)?;
            let (r, b) = word.overflowing_sub(borrow);
            *word = r;
            borrow = b as u64;
            k += 1;
        }
    }
    // q d = c exactly when nothing is left; otherwise d does not divide c.
    c.iter().all(|&w| w == 0).then(|| from_limbs(q))
}

/// The inverse of an odd word modulo 2^64, by Newton's iteration (each doubles the
/// correct low bits; `d * d = 1 mod 8` gives the first three).
pub(super) fn inverse(d: u64) -> u64 {
    let mut x = d;
    for _ in 0..5 {
        x = x.wrapping_mul(2u64.wrapping_sub(d.wrapping_mul(x)));
    }
    x
}

/// The matrix `[p, q, r, s]` of the Euclid steps on the leading digits `x >= y` whose
/// quotients are certain (both bounds of the true quotient agree); `q == 0` when none is.
pub(super) fn cosequence(mut x: i64, mut y: i64) -> [i64; 4] {
    let (mut a, mut b, mut c, mut d) = (1i64, 0i64, 0i64, 1i64);
    loop {
        let (den1, den2) = (y + c, y + d);
        if den1 <= 0 || den2 <= 0 {
            break;
        }
        let q = (x + a) / den1;
        if q != (x + b) / den2 {
            break;
        }
        let (Some(qc), Some(qd), Some(qy)) = (q.checked_mul(c), q.checked_mul(d), q.checked_mul(y))
        else {
            break;
        };
        (a, c) = (c, a - qc);
        (b, d) = (d, b - qd);
        (x, y) = (y, x - qy);
    }
    [a, b, c, d]
}

/// `u a + v b` for cofactors of opposite signs, or `None` when it is negative.
fn combine(a: &[u64], b: &[u64], u: i64, v: i64) -> Option<Vec<u64>> {
    let mut out = Vec::with_capacity(a.len());
    let mut carry: i128 = 0;
    for (i, &ai) in a.iter().enumerate() {
        let ai = ai as i128;
        let bi = b.get(i).copied().unwrap_or(0) as i128;
        // |u|, |v| < 2^63 and the limbs < 2^64: each product is below 2^127 in size, and
        // with opposite signs their sum and the carry stay inside i128.
        let t = carry + (u as i128) * ai + (v as i128) * bi;
        out.push(t as u64);
        carry = t >> 64;
    }
    (carry == 0).then_some(out)
}

/// Bits `shift..shift + 62` of a little-endian number, as a non-negative `i64`.
pub(super) fn top(limbs: &[u64], shift: u32) -> i64 {
    let (word, bit) = ((shift / 64) as usize, shift % 64);
    let lo = limbs.get(word).copied().unwrap_or(0) as u128;
    let hi = limbs.get(word + 1).copied().unwrap_or(0) as u128;
    (((hi << 64 | lo) >> bit) & ((1 << 62) - 1)) as i64
}

fn trim(limbs: &mut Vec<u64>) {
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
}

fn cmp_limbs(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn to_u128(limbs: &[u64]) -> u128 {
    limbs
        .iter()
        .rev()
        .fold(0u128, |acc, &l| acc << 64 | l as u128)
}

fn from_limbs(limbs: Vec<u64>) -> BigUint {
    let mut words = Vec::with_capacity(limbs.len() * 2);
    for l in limbs {
        words.push(l as u32);
        words.push((l >> 32) as u32);
    }
    BigUint::new(words)
}

/// Stein's binary gcd in 128 bits: shifts and subtractions, no 128-bit division (which
/// is a library call, several times slower).
pub(super) fn binary_gcd(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
        if (a | b) >> 64 == 0 {
            // Both fit a word now: word operations from here.
            return (binary_gcd_64(a as u64, b as u64) as u128) << shift;
        }
    }
}

/// Stein's algorithm in 64 bits, for odd `a` and any `b > 0`.
fn binary_gcd_64(mut a: u64, mut b: u64) -> u64 {
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(limbs: &[u64]) -> BigUint {
        from_limbs(limbs.to_vec())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn equals_the_binary_gcd(
            a in proptest::collection::vec(any::<u64>(), 0..6),
            b in proptest::collection::vec(any::<u64>(), 0..6),
            common in proptest::collection::vec(any::<u64>(), 0..3),
        ) {
            let (a, b, c) = (big(&a), big(&b), big(&common));
            // With a common factor, so that gcds other than 1 are tried as well.
            let (a, b) = (&a * &c, &b * &c);
            prop_assert_eq!(big_gcd(&a, &b), a.gcd(&b));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn divides_exactly_as_division_does(
            q in proptest::collection::vec(any::<u64>(), 0..5),
            d in proptest::collection::vec(any::<u64>(), 0..4),
            r in proptest::collection::vec(any::<u64>(), 0..4),
            shift in 0u32..130,
        ) {
            let d = big(&d) << shift;
            // Multiples of d, and numbers near them.
            for c in [big(&q) * &d, big(&q) * &d + big(&r), big(&r)] {
                let want = (!d.is_zero() && (&c % &d).is_zero()).then(|| &c / &d);
                prop_assert_eq!(divide_exactly(&c, &d), want, "{} / {}", c, d);
            }
        }
    }

    #[test]
    fn hard_cases() {
        let six = BigUint::from(6u32);
        let mut fib = (BigUint::from(1u32), BigUint::from(1u32));
        for _ in 0..400 {
            fib = (fib.1.clone(), &fib.0 + &fib.1);
        }
        let cases = [
            (BigUint::zero(), BigUint::zero()),
            (BigUint::zero(), six.pow(90)),
            (six.pow(90), six.pow(90)),
            (six.pow(90) - 1u32, six.pow(89)),
            (six.pow(90) * 7u32, six.pow(91)),
            (BigUint::from(u128::MAX) * 3u32, BigUint::from(u128::MAX)),
            fib.clone(),
            (fib.1 * 1000u32, fib.0 * 10u32),
        ];
        for (a, b) in cases {
            assert_eq!(big_gcd(&a, &b), a.gcd(&b), "gcd({a}, {b})");
            assert_eq!(big_gcd(&b, &a), a.gcd(&b), "gcd({b}, {a})");
            for (c, d) in [(&a, &b), (&b, &a)] {
                let want = (!d.is_zero() && (c % d).is_zero()).then(|| c / d);
                assert_eq!(divide_exactly(c, d), want, "{c} / {d}");
            }
        }
    }
}
