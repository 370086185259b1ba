//! Numbers, in one place: [`exact::Exact`] (rationals in 128 bits, for inputs, outputs
//! and the solvers' integer payoffs: arithmetic that does not fit is an error, never a
//! wrapped value) and [`rational::Rational`] (rationals of any size, for expectations over
//! chance nodes: they promote to big integers instead of failing), over one [`gcd`] for
//! machine integers and one for big ones (Lehmer's, in `big`),
//! one integer serialiser (shared with [`Count`], counts of any size) and one `f64`
//! approximation ([`exact::Exact::to_f64`]).
//!
//! What a user can type is parsed here into these types with a one-line error; nothing
//! a user can give makes them panic.

mod big;
pub(crate) mod decimal;
pub mod exact;
mod json;
pub mod rational;
mod wide;

pub use json::Count;

/// The greatest common divisor (`gcd(0, 0) = 0`), with 64-bit divisions while both
/// values fit them: the common case, and several times faster than 128-bit ones.
///
/// ```
/// use lastbite::number::gcd;
/// assert_eq!(gcd(12, 18), 6);
/// assert_eq!(gcd(0, 7), 7);
/// assert_eq!(gcd(u128::MAX, 3), 3);
/// ```
#[inline]
pub fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
            let (mut x, mut y) = (a as u64, b as u64);
            while y != 0 {
                (x, y) = (y, x % y);
            }
            return x as u128;
        }
        (a, b) = (b, a % b);
    }
    a
}
