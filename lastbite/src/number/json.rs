//! Integers of any size into JSON, one way: a JSON integer with every digit (machine
//! integers as serde's own, beyond 128 bits serde_json's arbitrary-precision number).
//! [`super::exact::Exact`], [`super::rational::Rational`] and [`Count`] serialise through
//! it, so a number prints the same whichever type carried it.

use num_bigint::{BigInt, BigUint};
use serde::{Serialize, Serializer};

/// An integer that fits 128 bits.
#[inline]
pub(crate) fn serialize_i128<S: Serializer>(v: i128, s: S) -> Result<S::Ok, S::Error> {
    match i64::try_from(v) {
        Ok(v) => s.serialize_i64(v),
        Err(_) => s.serialize_i128(v),
    }
}

/// Digits past 128 bits: serde_json's arbitrary precision keeps them all.
fn serialize_digits<S: Serializer>(digits: String, s: S) -> Result<S::Ok, S::Error> {
    let n: serde_json::Number = digits.parse().expect("integer digits are a JSON number");
    n.serialize(s)
}

/// A signed integer of any size.
pub(crate) fn serialize_bigint<S: Serializer>(v: &BigInt, s: S) -> Result<S::Ok, S::Error> {
    match i128::try_from(v) {
        Ok(v) => serialize_i128(v, s),
        Err(_) => serialize_digits(v.to_string(), s),
    }
}

/// A count of exact size: a JSON integer with every digit.
///
/// ```
/// use lastbite::number::Count;
/// use num_bigint::BigUint;
/// let c = Count(BigUint::from(2u32).pow(130));
/// assert_eq!(serde_json::to_string(&c).unwrap(), "1361129467683753853853498429727072845824");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count(pub BigUint);

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(&self.0) {
            Ok(v) => s.serialize_u64(v),
            Err(_) => match u128::try_from(&self.0) {
                Ok(v) => s.serialize_u128(v),
                Err(_) => serialize_digits(self.0.to_string(), s),
            },
        }
    }
}

impl schemars::JsonSchema for Count {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Count".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "integer", "minimum": 0, "description": "A non-negative integer of any size, every digit kept."})
    }
}
