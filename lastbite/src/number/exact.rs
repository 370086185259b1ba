//! Exact rational numbers for inputs and reported payoffs.
//!
//! Ties decide equilibria, so no solver in lastbite compares floats. User input such as
//! `2.5`, `-3` or `7/3` is parsed into an [`Exact`] value (a reduced fraction of 128-bit
//! integers); games then scale their inputs to a common denominator and solve over
//! integers, converting back only to report.
//!
//! ```
//! use lastbite::exact::Exact;
//! let x: Exact = "2.5".parse().unwrap();
//! assert_eq!(x.to_string(), "5/2");
//! assert_eq!("0.1".parse::<Exact>().unwrap() + "0.2".parse().unwrap(), "0.3".parse().unwrap());
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};
use std::str::FromStr;

/// Why a string is not an exact number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseExactError {
    /// The text was empty.
    #[error("empty value where a number is expected")]
    Empty,
    /// The text is not an integer, decimal or fraction (NaN and infinities included).
    #[error("{} is not a number (use an integer, a decimal like 2.5 or a fraction like 7/3)", crate::text::quote(&.0.to_string()))]
    NotANumber(String),
    /// The fraction has a zero denominator.
    #[error("{} has a zero denominator", crate::text::quote(&.0.to_string()))]
    ZeroDenominator(String),
    /// The value does not fit the exact 128-bit representation.
    #[error("{} is too large or too precise for exact arithmetic", crate::text::quote(&.0.to_string()))]
    TooLarge(String),
}

/// An exact rational number `numer / denom` in lowest terms with `denom > 0`.
///
/// # Overflow
/// Numerator and denominator are `i128`. Parsing ([`str::parse`], serde) refuses a value
/// that does not fit with an error; [`Exact::checked_add`] and [`Exact::checked_mul`]
/// return `None`. The operators `+`, `-` and `*` **panic** on overflow: they are for
/// values bounded by construction (a dinner's utilities are checked to sum within 128
/// bits before any solver adds them); use the checked forms on anything else, or
/// [`crate::rational::Rational`], which never overflows.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Exact {
    numer: i128,
    denom: i128,
}

/// The gcd of two values' magnitudes (the one [`super::gcd`]).
fn gcd(a: i128, b: i128) -> i128 {
    super::gcd(a.unsigned_abs(), b.unsigned_abs()) as i128
}

/// Least common multiple, `None` on overflow.
pub fn lcm(a: i128, b: i128) -> Option<i128> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    (a / gcd(a, b)).checked_mul(b).map(i128::abs)
}

impl Exact {
    /// Zero.
    pub const ZERO: Exact = Exact { numer: 0, denom: 1 };

    /// The fraction `numer / denom`, reduced. `None` when `denom` is zero.
    pub fn new(numer: i128, denom: i128) -> Option<Exact> {
        if denom == 0 {
            return None;
        }
        let g = gcd(numer, denom).max(1);
        let (mut n, mut d) = (numer / g, denom / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Some(Exact { numer: n, denom: d })
    }

    /// The integer `n`.
    pub const fn integer(n: i128) -> Exact {
        Exact { numer: n, denom: 1 }
    }

    /// Numerator in lowest terms.
    pub fn numer(&self) -> i128 {
        self.numer
    }

    /// Denominator in lowest terms (always positive).
    pub fn denom(&self) -> i128 {
        self.denom
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        self.denom == 1
    }

    /// The nearest `f64`, roughly (numerator and denominator each rounded): for charts and
    /// percentages, never for a comparison.
    ///
    /// ```
    /// use lastbite::exact::Exact;
    /// assert_eq!("5/2".parse::<Exact>().unwrap().to_f64(), 2.5);
    /// ```
    pub fn to_f64(&self) -> f64 {
        self.numer as f64 / self.denom as f64
    }

    /// The value as a JSON value: an integer when it is one, else a string like `"25/2"`.
    pub fn to_json(&self) -> serde_json::Value {
        if self.is_integer() {
            serde_json::Value::from(
                serde_json::Number::from_str(&self.numer.to_string())
                    .expect("an integer is a JSON number"),
            )
        } else {
            serde_json::Value::String(self.to_string())
        }
    }

    /// `self * k / d` as an integer when `d` divides it (used to scale to a common denominator).
    pub fn scaled_to(&self, common_denom: i128) -> Option<i128> {
        if common_denom % self.denom != 0 {
            return None;
        }
        self.numer.checked_mul(common_denom / self.denom)
    }

    /// A checked sum.
    pub fn checked_add(&self, other: &Exact) -> Option<Exact> {
        if self.denom == 1 && other.denom == 1 {
            // Integers (most payoffs): no common denominator to find.
            return Some(Exact::integer(self.numer.checked_add(other.numer)?));
        }
        let d = lcm(self.denom, other.denom)?;
        let a = self.numer.checked_mul(d / self.denom)?;
        let b = other.numer.checked_mul(d / other.denom)?;
        Exact::new(a.checked_add(b)?, d)
    }

    /// A checked product.
    pub fn checked_mul(&self, other: &Exact) -> Option<Exact> {
        if self.denom == 1 && other.denom == 1 {
            return Some(Exact::integer(self.numer.checked_mul(other.numer)?));
        }
        let g1 = gcd(self.numer, other.denom).max(1);
        let g2 = gcd(other.numer, self.denom).max(1);
        let n = (self.numer / g1).checked_mul(other.numer / g2)?;
        let d = (self.denom / g2).checked_mul(other.denom / g1)?;
        Exact::new(n, d)
    }
}

impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

impl fmt::Debug for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Ord for Exact {
    fn cmp(&self, other: &Self) -> Ordering {
        // Cross-multiplication can overflow i128 for huge values; fall back to the
        // exact floor-and-remainder comparison of continued fractions.
        match (
            self.numer.checked_mul(other.denom),
            other.numer.checked_mul(self.denom),
        ) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => cmp_fractions(self.numer, self.denom, other.numer, other.denom),
        }
    }
}

fn cmp_fractions(mut a: i128, mut b: i128, mut c: i128, mut d: i128) -> Ordering {
    // Compare a/b with c/d (b, d > 0) by their continued fraction expansions.
    let mut flipped = false;
    loop {
        let (q1, r1) = (a.div_euclid(b), a.rem_euclid(b));
        let (q2, r2) = (c.div_euclid(d), c.rem_euclid(d));
        let ord = q1.cmp(&q2).then(Ordering::Equal);
        if ord != Ordering::Equal {
            return if flipped { ord.reverse() } else { ord };
        }
        match (r1 == 0, r2 == 0) {
            (true, true) => return Ordering::Equal,
            (true, false) => {
                return if flipped {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (false, true) => {
                return if flipped {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            _ => {}
        }
        // a/b = q + r1/b, compare b/r1 with d/r2 reversed.
        (a, b, c, d) = (b, r1, d, r2);
        flipped = !flipped;
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Exact {
    type Output = Exact;
    /// # Panics
    /// On 128-bit overflow; use [`Exact::checked_add`] where inputs are unbounded.
    fn add(self, rhs: Exact) -> Exact {
        self.checked_add(&rhs)
            .expect("exact sum overflows 128 bits")
    }
}

impl Sub for Exact {
    type Output = Exact;
    fn sub(self, rhs: Exact) -> Exact {
        self + (-rhs)
    }
}

impl Neg for Exact {
    type Output = Exact;
    fn neg(self) -> Exact {
        Exact {
            numer: -self.numer,
            denom: self.denom,
        }
    }
}

impl Mul for Exact {
    type Output = Exact;
    fn mul(self, rhs: Exact) -> Exact {
        self.checked_mul(&rhs)
            .expect("exact product overflows 128 bits")
    }
}

impl From<i64> for Exact {
    fn from(n: i64) -> Exact {
        Exact::integer(n as i128)
    }
}

fn parse_integer(s: &str, whole: &str) -> Result<i128, ParseExactError> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseExactError::NotANumber(whole.to_string()));
    }
    s.parse::<i128>()
        .map_err(|_| ParseExactError::TooLarge(whole.to_string()))
}

impl FromStr for Exact {
    type Err = ParseExactError;

    fn from_str(text: &str) -> Result<Exact, ParseExactError> {
        let s = text.trim();
        if s.is_empty() {
            return Err(ParseExactError::Empty);
        }
        if let Some((n, d)) = s.split_once('/') {
            let numer = parse_integer(n.trim(), s)?;
            let denom = parse_integer(d.trim(), s)?;
            return Exact::new(numer, denom).ok_or(ParseExactError::ZeroDenominator(s.into()));
        }
        // Integers and decimals: the one decimal parser, without exponents.
        let (numer, denom) = super::decimal::parse(
            s,
            super::decimal::Syntax {
                exponent: false,
                bare_point: false,
            },
        )
        .map_err(|e| match e {
            super::decimal::DecimalError::NotANumber => ParseExactError::NotANumber(s.into()),
            super::decimal::DecimalError::TooLarge => ParseExactError::TooLarge(s.into()),
        })?;
        if denom == 1 {
            // An integer: nothing to reduce (the common case, without a division).
            return Ok(Exact::integer(numer));
        }
        Exact::new(numer, denom).ok_or(ParseExactError::ZeroDenominator(s.into()))
    }
}

/// Serialised as the CLI writes exact values: a JSON integer when the value is one (of
/// any size), else a string like `"25/2"`.
impl serde::Serialize for Exact {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_integer() {
            super::json::serialize_i128(self.numer, s)
        } else {
            s.collect_str(self)
        }
    }
}

/// Read from an integer, a string (`"7/3"`, `"2.5"`, `"-3"`) or a JSON number with a
/// fraction part, which is taken by its decimal text (`0.1` is exactly 1/10); a binary
/// float from a non-JSON source is taken by its shortest decimal form.
impl<'de> serde::Deserialize<'de> for Exact {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Exact, D::Error> {
        d.deserialize_any(ExactVisitor)
    }
}

struct ExactVisitor;

/// The key serde_json's `arbitrary_precision` feature uses for a number's text.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl<'de> serde::de::Visitor<'de> for ExactVisitor {
    type Value = Exact;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an exact number: an integer, a decimal or a fraction like \"7/3\"")
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Exact, E> {
        Ok(Exact::integer(v as i128))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Exact, E> {
        Ok(Exact::integer(v as i128))
    }
    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Exact, E> {
        Ok(Exact::integer(v))
    }
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Exact, E> {
        i128::try_from(v)
            .map(Exact::integer)
            .map_err(|_| E::custom(ParseExactError::TooLarge(v.to_string())))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Exact, E> {
        if !v.is_finite() {
            return Err(E::custom(ParseExactError::NotANumber(v.to_string())));
        }
        // Display writes the shortest decimal that reads back as `v`, without exponent.
        format!("{v}").parse().map_err(E::custom)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Exact, E> {
        v.parse().map_err(E::custom)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Exact, A::Error> {
        match map.next_key::<String>()? {
            Some(k) if k == NUMBER_TOKEN => {
                let text: String = map.next_value()?;
                text.parse().map_err(serde::de::Error::custom)
            }
            _ => Err(serde::de::Error::custom(
                "expected an exact number, found an object",
            )),
        }
    }
}

impl schemars::JsonSchema for Exact {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Exact".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An exact rational number: a JSON integer, or a string holding an integer, a decimal or a fraction (reports write non-integers as \"a/b\"). Requests also accept JSON numbers with a fraction part, read by their decimal text.",
            "anyOf": [
                {"type": "integer"},
                {"type": "number"},
                {"type": "string"}
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(s: &str) -> Exact {
        s.parse().unwrap()
    }

    #[test]
    fn parses_integers_decimals_fractions() {
        assert_eq!(x("-3"), Exact::integer(-3));
        assert_eq!(x("2.50"), Exact::new(5, 2).unwrap());
        assert_eq!(x("-0.5"), Exact::new(-1, 2).unwrap());
        assert_eq!(x(".25"), Exact::new(1, 4).unwrap());
        assert_eq!(x("6/-4"), Exact::new(-3, 2).unwrap());
    }

    #[test]
    fn rejects_non_numbers() {
        for bad in ["NaN", "inf", "1e3", "abc", "1.", "1/0", "--1", "", "1.2.3"] {
            assert!(bad.parse::<Exact>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn compares_exactly() {
        assert!(x("1/3") < x("0.3334"));
        assert!(x("1/3") > x("0.3333"));
        let big = Exact::new(i128::MAX - 1, i128::MAX).unwrap();
        let big2 = Exact::new(i128::MAX - 2, i128::MAX - 1).unwrap();
        assert!(big > big2);
    }

    #[test]
    fn json_form() {
        assert_eq!(x("12").to_json().to_string(), "12");
        assert_eq!(x("12.5").to_json().to_string(), "\"25/2\"");
    }
}
