//! Unsigned integers of up to 512 bits on the stack, for the two operations of exact
//! expectations that run once a state: a chance state's equally weighted sum (a die) and
//! the comparison of two big values at a decision state.
//!
//! A die's values have denominators `6^k`, a few hundred bits; through `num-bigint` each
//! term, product, shift and gcd step is a heap allocation, and allocation was half the
//! cost of chance. Here the same arithmetic runs in fixed arrays of 64-bit limbs:
//! exact quotients that fit a word (by the inverse of the low word, as in `big`),
//! multiply-accumulate by a word, Lehmer's gcd (`big`'s cosequence, with the
//! combinations written in place) and a cross-multiplied comparison. Anything wider
//! returns `None`, and the caller takes the general path through `num-bigint`.
//!
//! The reduction of a sum usually needs no gcd at all: a denominator made of primes
//! below 64 (a die's 2 and 3) is reduced by dividing out those primes where both parts
//! are multiples ([`Wide::strip_common`], [`strip_common_u128`]); `support_u64` finds
//! which of them divide a word.

use std::cmp::Ordering;

use num_bigint::BigUint;

use super::big::{binary_gcd, cosequence, inverse, top};

/// Limbs of a [`Wide`]: 512 bits.
const W: usize = 8;

/// The primes below 64. Dice, coins and cards have denominators made of them, and so do
/// their expectations: a fraction whose denominator is known to be made of these (its
/// *support*, a bit a prime) is reduced by dividing out the few common factors, by
/// multiplications, instead of a gcd.
const PRIMES: [u64; 18] = [
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
];

/// The bit of a support that stands for every prime beyond [`PRIMES`]: set, the support
/// says nothing about them, and a reduction takes the gcd.
pub(crate) const BEYOND: u64 = 1 << 63;

/// The support of a denominator not looked at: any prime.
pub(crate) const ANY: u64 = u64::MAX;

/// The inverses of [`PRIMES`] modulo `2^64` (the first, 2's, unused).
const INVERSES: [u64; 18] = {
    let mut out = [0u64; 18];
    let mut i = 1;
    while i < 18 {
        let d = PRIMES[i];
        let mut x = d;
        let mut k = 0;
        while k < 5 {
            x = x.wrapping_mul(2u64.wrapping_sub(d.wrapping_mul(x)));
            k += 1;
        }
        out[i] = x;
        i += 1;
    }
    out
};

/// `n / g` and `d / g` for `g` the common factor of `n` and `d > 0` among the primes of
/// `support` (a set of [`PRIMES`] without [`BEYOND`] that holds every prime of `d`):
/// the reduced fraction, in 128 bits, by exact divisions.
pub(crate) fn strip_common_u128(mut n: u128, mut d: u128, support: u64) -> (u128, u128) {
    debug_assert!(support & BEYOND == 0 && d != 0);
    if n == 0 {
        return (0, 1);
    }
    if support & 1 != 0 {
        let z = n.trailing_zeros().min(d.trailing_zeros());
        (n, d) = (n >> z, d >> z);
    }
    let mut rest = support & !1;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        // The inverse modulo 2^128, from the one modulo 2^64 by one Newton step.
        let (p, inv) = (PRIMES[i] as u128, INVERSES[i] as u128);
        let inv = inv.wrapping_mul(2u128.wrapping_sub(p.wrapping_mul(inv)));
        let limit = u128::MAX / p;
        while n.wrapping_mul(inv) <= limit && d.wrapping_mul(inv) <= limit {
            (n, d) = (n.wrapping_mul(inv), d.wrapping_mul(inv));
        }
    }
    (n, d)
}

/// Which of [`PRIMES`] divide `d > 0`, with [`BEYOND`] when another prime does. By
/// exact division (a multiplication by the inverse) while a prime divides.
pub(crate) fn support_u64(mut d: u64) -> u64 {
    debug_assert!(d != 0);
    let mut support = 0;
    if d & 1 == 0 {
        support |= 1;
        d >>= d.trailing_zeros();
    }
    let mut i = 1;
    while d > 1 && i < PRIMES.len() {
        // d is a multiple of the odd p exactly when d / p (mod 2^64) is at most MAX / p.
        let (p, inv) = (PRIMES[i], INVERSES[i]);
        let limit = u64::MAX / p;
        if d.wrapping_mul(inv) <= limit {
            support |= 1 << i;
            while d.wrapping_mul(inv) <= limit {
                d = d.wrapping_mul(inv);
            }
        }
        i += 1;
    }
    if d > 1 {
        support |= BEYOND;
    }
    support
}

/// An unsigned integer below `2^512`, little-endian limbs, trimmed (`len` limbs used;
/// the others zero, so the derived equality and hash are the value's).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Wide {
    limbs: [u64; W],
    len: usize,
}

impl Wide {
    pub(crate) const ZERO: Wide = Wide {
        limbs: [0; W],
        len: 0,
    };

    pub(crate) fn from_u64(x: u64) -> Wide {
        let mut w = Wide::ZERO;
        w.limbs[0] = x;
        w.len = (x != 0) as usize;
        w
    }

    pub(crate) fn from_u128(x: u128) -> Wide {
        let mut w = Wide::ZERO;
        w.limbs[0] = x as u64;
        w.limbs[1] = (x >> 64) as u64;
        w.len = 2;
        w.trim();
        w
    }

    /// The value when it fits a `u128`.
    pub(crate) fn to_u128(self) -> Option<u128> {
        (self.len <= 2).then(|| self.limbs[0] as u128 | (self.limbs[1] as u128) << 64)
    }

    /// `x`, when it fits.
    pub(crate) fn from_biguint(x: &BigUint) -> Option<Wide> {
        let mut w = Wide::ZERO;
        for (i, l) in x.iter_u64_digits().enumerate() {
            *w.limbs.get_mut(i)? = l;
            w.len = i + 1;
        }
        w.trim();
        Some(w)
    }

    pub(crate) fn to_biguint(self) -> BigUint {
        let mut words = Vec::with_capacity(self.len * 2);
        for &l in self.used() {
            words.push(l as u32);
            words.push((l >> 32) as u32);
        }
        BigUint::new(words)
    }

    /// The value when it fits a `u64`.
    pub(crate) fn to_u64(self) -> Option<u64> {
        match self.len {
            0 => Some(0),
            1 => Some(self.limbs[0]),
            _ => None,
        }
    }

    fn used(&self) -> &[u64] {
        &self.limbs[..self.len]
    }

    fn trim(&mut self) {
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn bits(&self) -> u32 {
        match self.len {
            0 => 0,
            n => n as u32 * 64 - self.limbs[n - 1].leading_zeros(),
        }
    }

    /// `self * q`, when it fits.
    pub(crate) fn mul_u64(&self, q: u64) -> Option<Wide> {
        let mut out = Wide::ZERO;
        let mut carry = 0u128;
        for (i, &l) in self.used().iter().enumerate() {
            let t = l as u128 * q as u128 + carry;
            out.limbs[i] = t as u64;
            carry = t >> 64;
        }
        out.len = self.len;
        if carry != 0 {
            *out.limbs.get_mut(self.len)? = carry as u64;
            out.len += 1;
        }
        out.trim();
        Some(out)
    }

    /// `self += x * q`, when the sum fits (one pass, no product held: a die's terms).
    pub(crate) fn add_mul_assign(&mut self, x: &Wide, q: u64) -> Option<()> {
        let mut carry = 0u128;
        for i in 0..x.len {
            // At most (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1: fits.
            let t = x.limbs[i] as u128 * q as u128 + self.limbs[i] as u128 + carry;
            self.limbs[i] = t as u64;
            carry = t >> 64;
        }
        let mut i = x.len;
        while carry != 0 {
            let t = *self.limbs.get(i)? as u128 + carry;
            self.limbs[i] = t as u64;
            carry = t >> 64;
            i += 1;
        }
        self.len = self.len.max(i);
        self.trim();
        Some(())
    }

    /// `self += x`, when the sum fits.
    pub(crate) fn add_assign(&mut self, x: &Wide) -> Option<()> {
        let n = self.len.max(x.len);
        let mut carry = false;
        for i in 0..n {
            let (s, c1) = self.limbs[i].overflowing_add(x.limbs[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            self.limbs[i] = s;
            carry = c1 || c2;
        }
        self.len = n;
        if carry {
            *self.limbs.get_mut(n)? = 1;
            self.len += 1;
        }
        Some(())
    }

    /// `self - x` for `x <= self`.
    pub(crate) fn sub(&self, x: &Wide) -> Wide {
        debug_assert!(x.cmp(self).is_le());
        let mut out = *self;
        let mut borrow = false;
        for i in 0..self.len {
            let (s, b1) = out.limbs[i].overflowing_sub(x.limbs[i]);
            let (s, b2) = s.overflowing_sub(borrow as u64);
            out.limbs[i] = s;
            borrow = b1 || b2;
        }
        out.trim();
        out
    }

    /// `self / d` when `d` divides `self` with a quotient below `2^64`, else `None`.
    pub(crate) fn exact_quotient(&self, d: &Wide) -> Option<u64> {
        if d.is_zero() || self.bits() > d.bits() + 64 {
            return None;
        }
        // With d = 2^z d' (d' odd), q = (self >> z) / d' modulo 2^64 from the low words.
        let z = d.trailing_zeros();
        let q = self.word_at(z).wrapping_mul(inverse(d.word_at(z)));
        d.times_is(q, self).then_some(q)
    }

    /// Whether `self * q == x`, limb by limb (no product held).
    fn times_is(&self, q: u64, x: &Wide) -> bool {
        if q == 0 || self.is_zero() {
            return x.is_zero();
        }
        let mut carry = 0u128;
        for i in 0..self.len {
            let t = self.limbs[i] as u128 * q as u128 + carry;
            if t as u64 != x.limbs[i] {
                return false;
            }
            carry = t >> 64;
        }
        match carry {
            0 => x.len == self.len,
            c => x.len == self.len + 1 && x.limbs.get(self.len) == Some(&(c as u64)),
        }
    }

    fn trailing_zeros(&self) -> u32 {
        let i = self.limbs.iter().position(|&l| l != 0).unwrap_or(0);
        i as u32 * 64 + self.limbs[i].trailing_zeros()
    }

    /// Bits `shift..shift + 64`.
    fn word_at(&self, shift: u32) -> u64 {
        let (i, b) = ((shift / 64) as usize, shift % 64);
        let lo = self.limbs.get(i).copied().unwrap_or(0) as u128;
        let hi = self.limbs.get(i + 1).copied().unwrap_or(0) as u128;
        ((hi << 64 | lo) >> b) as u64
    }

    /// `self / g` for a word `g` that divides it: exact division by the inverse of `g`'s
    /// odd part, a multiplication a limb (no division; GMP's `divexact_1`).
    pub(crate) fn div_u64(&self, g: u64) -> Wide {
        debug_assert!(g != 0);
        let z = g.trailing_zeros();
        let odd = g >> z;
        let inv = inverse(odd);
        let mut out = Wide::ZERO;
        let mut borrow = 0u64;
        for i in 0..self.len {
            let (t, b) = self.word_at(i as u32 * 64 + z).overflowing_sub(borrow);
            let q = t.wrapping_mul(inv);
            out.limbs[i] = q;
            borrow = ((q as u128 * odd as u128) >> 64) as u64 + b as u64;
        }
        out.len = self.len;
        out.trim();
        out
    }

    /// `gcd(self, other)`, by Lehmer's algorithm as in `big::big_gcd`.
    pub(crate) fn gcd(&self, other: &Wide) -> Wide {
        let (mut a, mut b) = if self.cmp(other).is_ge() {
            (*self, *other)
        } else {
            (*other, *self)
        };
        loop {
            if b.is_zero() {
                return a;
            }
            if a.len <= 2 {
                let low = |w: Wide| w.limbs[0] as u128 | (w.limbs[1] as u128) << 64;
                return Wide::from_u128(binary_gcd(low(a), low(b)));
            }
            let shift = a.bits() - 62;
            let (x, y) = (top(a.used(), shift), top(&b.limbs[..a.len], shift));
            let [p, q, r, s] = cosequence(x, y);
            let next = match q {
                0 => None,
                _ => combine(&a, &b, p, q).zip(combine(&a, &b, r, s)),
            };
            (a, b) = match next {
                Some(pair) => pair,
                // No sure quotient: one full-precision step (rare).
                None => {
                    let (x, y) = (a.to_biguint(), b.to_biguint());
                    let rem = Wide::from_biguint(&(x % &y)).expect("a remainder is smaller");
                    (b, rem)
                }
            };
            if a.cmp(&b).is_lt() {
                std::mem::swap(&mut a, &mut b);
            }
        }
    }

    /// Divides `n` and `d` (`d > 0`) by their common factors among the primes of `support`
    /// (a set of [`PRIMES`] without [`BEYOND`] that holds every prime of `d`), which
    /// leaves them coprime: a gcd for denominators of small primes, without the gcd.
    pub(crate) fn strip_common(n: &mut Wide, d: &mut Wide, support: u64) {
        debug_assert!(support & BEYOND == 0 && !d.is_zero());
        if n.is_zero() {
            *d = Wide::from_u64(1);
            return;
        }
        if support & 1 != 0 {
            let z = n.trailing_zeros().min(d.trailing_zeros());
            if z > 0 {
                *n = n.shr(z);
                *d = d.shr(z);
            }
        }
        let mut rest = support & !1;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (p, inv) = (PRIMES[i], INVERSES[i]);
            // The numerator first: it is rarely a multiple.
            while let Some(nq) = n.div_exact_odd(p, inv) {
                match d.div_exact_odd(p, inv) {
                    Some(dq) => (*n, *d) = (nq, dq),
                    None => break,
                }
            }
        }
    }

    /// `self / p` for an odd `p` with inverse `inv`, when `p` divides `self`: exact
    /// division a limb, and the last borrow is zero exactly when the division is exact
    /// (`p q = self + borrow 2^(64 len)`, GMP's `modexact`).
    fn div_exact_odd(&self, p: u64, inv: u64) -> Option<Wide> {
        let mut out = Wide::ZERO;
        let mut borrow = 0u64;
        for i in 0..self.len {
            let (t, b) = self.limbs[i].overflowing_sub(borrow);
            let q = t.wrapping_mul(inv);
            out.limbs[i] = q;
            borrow = ((q as u128 * p as u128) >> 64) as u64 + b as u64;
        }
        if borrow != 0 {
            return None;
        }
        out.len = self.len;
        out.trim();
        Some(out)
    }

    /// `self >> k` for `0 < k < 64 * len`.
    fn shr(&self, k: u32) -> Wide {
        let mut out = Wide::ZERO;
        let words = (k / 64) as usize;
        for i in 0..self.len - words {
            out.limbs[i] = self.word_at(k + 64 * i as u32);
        }
        out.len = self.len - words;
        out.trim();
        out
    }

    /// `self * x` compared with `y * z`, when both products fit 1024 bits (always).
    pub(crate) fn cmp_products(&self, x: &Wide, y: &Wide, z: &Wide) -> Ordering {
        let (zero_l, zero_r) = (self.is_zero() || x.is_zero(), y.is_zero() || z.is_zero());
        if zero_l || zero_r {
            return zero_r.cmp(&zero_l);
        }
        let (l, r) = (self.bits() + x.bits(), y.bits() + z.bits());
        // A product of numbers of a and b bits has a + b - 1 or a + b bits.
        if l > r + 1 {
            return Ordering::Greater;
        }
        if r > l + 1 {
            return Ordering::Less;
        }
        let (p, q) = (product(self, x), product(y, z));
        p.iter().rev().cmp(q.iter().rev())
    }

    pub(crate) fn cmp(&self, other: &Wide) -> Ordering {
        self.len
            .cmp(&other.len)
            .then_with(|| self.used().iter().rev().cmp(other.used().iter().rev()))
    }
}

/// `u a + v b` for cofactors of opposite signs, or `None` when it is negative.
fn combine(a: &Wide, b: &Wide, u: i64, v: i64) -> Option<Wide> {
    let mut out = Wide::ZERO;
    let mut carry: i128 = 0;
    for i in 0..a.len {
        // As in `big::combine`: the sum of the products and the carry stays inside i128.
        let t = carry + (u as i128) * (a.limbs[i] as i128) + (v as i128) * (b.limbs[i] as i128);
        out.limbs[i] = t as u64;
        carry = t >> 64;
    }
    out.len = a.len;
    out.trim();
    (carry == 0).then_some(out)
}

/// The full product, little-endian in `2 W` limbs.
fn product(a: &Wide, b: &Wide) -> [u64; 2 * W] {
    let mut out = [0u64; 2 * W];
    for i in 0..a.len {
        let mut carry = 0u128;
        for j in 0..b.len {
            let t = a.limbs[i] as u128 * b.limbs[j] as u128 + out[i + j] as u128 + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + b.len] = carry as u64;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Integer;
    use proptest::prelude::*;

    fn wide(limbs: &[u64]) -> (Wide, BigUint) {
        let mut words = Vec::new();
        for l in limbs {
            words.push(*l as u32);
            words.push((*l >> 32) as u32);
        }
        let b = BigUint::new(words);
        (Wide::from_biguint(&b).unwrap(), b)
    }

    fn limbs(max: usize) -> impl Strategy<Value = Vec<u64>> {
        // Small limbs too, so that equal values, zeros and exact divisions come up.
        proptest::collection::vec(prop_oneof![any::<u64>(), 0u64..4], 0..max)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn agrees_with_num_bigint(a in limbs(5), b in limbs(4), c in limbs(3), q in any::<u64>()) {
            let ((wa, ba), (wb, bb), (wc, bc)) = (wide(&a), wide(&b), wide(&c));
            // gcd, with a common factor so that gcds other than 1 come up.
            let (x, y) = (&ba * &bc, &bb * &bc);
            let g = Wide::from_biguint(&x).unwrap().gcd(&Wide::from_biguint(&y).unwrap());
            prop_assert_eq!(g.to_biguint(), x.gcd(&y));
            prop_assert_eq!(wa.cmp(&wb), ba.cmp(&bb));
            prop_assert_eq!(wa.mul_u64(q).map(Wide::to_biguint), Some(&ba * q));
            let mut s = wa;
            s.add_assign(&wb).unwrap();
            prop_assert_eq!(s.to_biguint(), &ba + &bb);
            let mut s = wb;
            s.add_mul_assign(&wa, q).unwrap();
            prop_assert_eq!(s.to_biguint(), &bb + &ba * q);
            let mut s = wa;
            s.add_mul_assign(&wc, q).unwrap();
            prop_assert_eq!(s.to_biguint(), &ba + &bc * q);
            if bb <= ba {
                prop_assert_eq!(wa.sub(&wb).to_biguint(), &ba - &bb);
            }
            prop_assert_eq!(wa.cmp_products(&wb, &wc, &wa), (&ba * &bb).cmp(&(&bc * &ba)));
            prop_assert_eq!(wa.cmp_products(&wb, &wb, &wa), Ordering::Equal);
            // Exact quotients: of a multiple (found) and of a near miss (refused).
            let m = &bb * q;
            let wm = Wide::from_biguint(&m).unwrap();
            let want = (bb.bits() > 0).then_some(q);
            prop_assert_eq!(wm.exact_quotient(&wb), want);
            prop_assert_eq!(Wide::ZERO.exact_quotient(&wb), (bb.bits() > 0).then_some(0));
            let off = &m + 1u32;
            if bb > BigUint::from(1u32) {
                prop_assert_eq!(Wide::from_biguint(&off).unwrap().exact_quotient(&wb), None);
            }
            if q != 0 {
                prop_assert_eq!(wm.div_u64(q).to_biguint(), bb.clone());
            }
        }
    }

    /// A product of powers of the primes below 64 (and of 67 and 101 when `beyond`),
    /// as a big integer, with the primes used.
    fn smooth(exponents: &[u8], beyond: bool) -> (BigUint, u64) {
        let mut x = BigUint::from(1u32);
        let mut support = 0;
        for (i, &e) in exponents.iter().enumerate().take(PRIMES.len()) {
            if e > 0 {
                x *= BigUint::from(PRIMES[i]).pow(e as u32);
                support |= 1 << i;
            }
        }
        if beyond {
            x *= 67u32 * 101u32;
            support |= BEYOND;
        }
        (x, support)
    }

    /// Mostly absent primes, some small powers, a few large ones (past a word, past
    /// 128 bits with the others).
    fn exponent() -> impl Strategy<Value = u8> {
        prop_oneof![6 => Just(0u8), 3 => 1u8..4, 1 => 4u8..70]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Reduction by the small primes of the denominator against the gcd, in fixed
        /// width and in 128 bits; the support of a word against trial division.
        #[test]
        fn small_primes_reduce_as_the_gcd(
            d_exp in proptest::collection::vec(exponent(), 1..18),
            n_exp in proptest::collection::vec(exponent(), 0..18),
            cofactor in limbs(2),
            word in 1u64..,
            beyond in any::<bool>(),
        ) {
            let (d, support) = smooth(&d_exp, false);
            let (n, _) = smooth(&n_exp, beyond);
            let n = n * (wide(&cofactor).1 + 1u32);
            let g = n.gcd(&d);
            let want = (&n / &g, &d / &g);
            if let (Some(mut wn), Some(mut wd)) = (Wide::from_biguint(&n), Wide::from_biguint(&d)) {
                Wide::strip_common(&mut wn, &mut wd, support);
                prop_assert_eq!((wn.to_biguint(), wd.to_biguint()), want.clone());
            }
            let (n128, d128) = (u128::try_from(&n), u128::try_from(&d));
            if let (Ok(n128), Ok(d128)) = (n128, d128) {
                let got = strip_common_u128(n128, d128, support);
                prop_assert_eq!((BigUint::from(got.0), BigUint::from(got.1)), want);
            }
            // Trial division of a word: which primes below 64 divide it, and the rest.
            let mut rest = word;
            let mut want = 0u64;
            for (i, &p) in PRIMES.iter().enumerate() {
                if rest % p == 0 {
                    want |= 1 << i;
                    while rest % p == 0 {
                        rest /= p;
                    }
                }
            }
            if rest > 1 {
                want |= BEYOND;
            }
            prop_assert_eq!(support_u64(word), want);
            if let Ok(d) = u64::try_from(&d) {
                prop_assert_eq!(support_u64(d), support);
            }
        }
    }

    #[test]
    fn refuses_what_does_not_fit() {
        let big = BigUint::from(1u32) << 512;
        assert!(Wide::from_biguint(&big).is_none());
        let top = Wide::from_biguint(&(big - 1u32)).unwrap();
        assert!(top.mul_u64(2).is_none());
        assert!(top.clone().add_assign(&Wide::from_u64(1)).is_none());
        let six = BigUint::from(6u32);
        let (a, b) = (six.pow(90), six.pow(80));
        let (wa, wb) = (
            Wide::from_biguint(&a).unwrap(),
            Wide::from_biguint(&b).unwrap(),
        );
        assert_eq!(wa.exact_quotient(&wb), Some(6u64.pow(10)));
        let c = Wide::from_biguint(&six.pow(30)).unwrap();
        assert_eq!(wa.exact_quotient(&c), None, "6^60 does not fit a word");
    }
}
