//! The forms a request field takes in JSON, the same on every surface: an exact number as a
//! JSON number (integer, decimal or exponent, read by its literal text, so `0.1` is exactly
//! 1/10) or as text (for values past 2^53 and fractions like `"7/3"`); a list as a JSON
//! array or as the command line's text (`"3,5"`, also `"[3, 5]"`). Fields declare their
//! form with `deserialize_with` and the matching schema (`#[schemars(with = ...)]`), whose
//! `oneOf` lists the forms and whose `x-forms` names them for the contract test. It owns
//! no field: the requests' declarations say which fields take which form.

use std::marker::PhantomData;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A JSON number's literal text with any exponent written out (`1.5e3` is `1500`,
/// `2E-2` is `0.02`), so that every reader of plain decimals takes it exactly.
fn plain_number(text: &str) -> String {
    let Some(at) = text.find(['e', 'E']) else {
        return text.to_string();
    };
    let (mantissa, exp) = (&text[..at], &text[at + 1..]);
    let Ok(exp) = exp.parse::<i64>() else {
        return text.to_string();
    };
    let (sign, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all = format!("{int}{frac}");
    // Past a few thousand digits the text is refused by its reader anyway: keep it short.
    let point = (int.len() as i64 + exp).clamp(-4096, 4096);
    let text = if point <= 0 {
        format!("0.{}{all}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= all.len() {
        format!("{all}{}", "0".repeat(point as usize - all.len()))
    } else {
        format!("{}.{}", &all[..point as usize], &all[point as usize..])
    };
    format!("{sign}{text}")
}

/// The text of one number given as a JSON number or a string.
fn number_text(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(plain_number(&n.to_string())),
        other => Err(format!(
            "expected a number (a JSON number, or text for fractions like \"7/3\"), found {}",
            kind(other)
        )),
    }
}

/// What a JSON value is, for a message.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Text less the brackets around it (`"[3, 9]"`, as a list is written in JSON).
fn unbracketed(s: &str) -> &str {
    let t = s.trim();
    t.strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .map_or(s, str::trim)
}

/// The comma-separated text of a list given as a JSON array (of numbers or texts) or text
/// (brackets around it dropped).
fn list_text(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(unbracketed(s).to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, x)| number_text(x).map_err(|e| format!("item {i}: {e}")))
            .collect::<Result<Vec<_>, _>>()
            .map(|parts| parts.join(",")),
        other => Err(format!(
            "expected a list (a JSON array like [3, 5], or text like \"3,5\"), found {}",
            kind(other)
        )),
    }
}

/// The items of a list given as a JSON array or as text (`"3,9"`, `"[3, 9]"`), each read
/// by `T`'s parser.
fn list_items<T: FromStr>(v: &Value) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    let parts: Vec<String> = match v {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, x)| number_text(x).map_err(|e| format!("item {i}: {e}")))
            .collect::<Result<_, _>>()?,
        Value::String(s) => {
            let t = unbracketed(s);
            if t.trim().is_empty() {
                Vec::new()
            } else {
                t.split(',').map(|p| p.trim().to_string()).collect()
            }
        }
        other => {
            return Err(format!(
                "expected a list (a JSON array like [3, 9], or text like \"3,9\"), found {}",
                kind(other)
            ))
        }
    };
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.parse::<T>()
                .map_err(|e| format!("item {i} ({}): {e}", crate::api::escape(p)))
        })
        .collect()
}

/// Reads a number field (text kept for the field's own parser): a JSON number or text.
pub(crate) fn number<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    number_text(&Value::deserialize(d)?).map_err(D::Error::custom)
}

/// [`number`], for an optional field (`null`: absent).
pub(crate) fn optional_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => number_text(&v).map(Some).map_err(D::Error::custom),
    }
}

/// Reads a list field kept as its comma-separated text: a JSON array or text.
pub(crate) fn list<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    list_text(&Value::deserialize(d)?).map_err(D::Error::custom)
}

/// [`list`], for an optional field (`null`: absent).
pub(crate) fn optional_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => list_text(&v).map(Some).map_err(D::Error::custom),
    }
}

/// Reads a list of values: a JSON array or the command line's text (`"3,9"`, `"[3, 9]"`).
pub(crate) fn items<'de, D: Deserializer<'de>, T: FromStr>(d: D) -> Result<Vec<T>, D::Error>
where
    T::Err: std::fmt::Display,
{
    list_items(&Value::deserialize(d)?).map_err(D::Error::custom)
}

/// [`items`], for an optional field (`null`: absent).
pub(crate) fn optional_items<'de, D: Deserializer<'de>, T: FromStr>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error>
where
    T::Err: std::fmt::Display,
{
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => list_items(&v).map(Some).map_err(D::Error::custom),
    }
}

/// The schema of a number field read by `forms::number`: a JSON number or text.
pub struct NumberForms;

impl JsonSchema for NumberForms {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NumberOrText".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A number: a JSON number (read by its decimal text, exactly) or text (an integer of any size, a decimal, or a fraction like \"7/3\").",
            "oneOf": [{"type": "number"}, {"type": "string"}],
            "x-forms": "number"
        })
    }
}

/// The schema of a list field read by `forms::list` or `forms::items`: a JSON array of `T`
/// or text.
pub struct ListForms<T>(PhantomData<T>);

impl<T: JsonSchema> JsonSchema for ListForms<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("ListOrText_{}", T::schema_name()).into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let item = g.subschema_for::<T>();
        schemars::json_schema!({
            "description": "A list: a JSON array, or text with the items separated by commas (\"3,5\", also \"[3, 5]\").",
            "oneOf": [{"type": "array", "items": item}, {"type": "string"}],
            "x-forms": "list"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_keep_their_literal_text() {
        let v: Value =
            serde_json::from_str("[100, 0.1, 1e29, 2.5E-2, -3e0, 18446744073709551617]").unwrap();
        let texts: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| number_text(x).unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "100",
                "0.1",
                "100000000000000000000000000000",
                "0.025",
                "-3",
                "18446744073709551617"
            ]
        );
        assert!(number_text(&json!(true))
            .unwrap_err()
            .contains("found a boolean"));
    }

    #[test]
    fn lists_as_arrays_or_text() {
        assert_eq!(list_text(&json!([3, 5])).unwrap(), "3,5");
        assert_eq!(list_text(&json!(["1/3", 2])).unwrap(), "1/3,2");
        assert_eq!(list_text(&json!("3,5")).unwrap(), "3,5");
        assert_eq!(list_text(&json!(" [3,5] ")).unwrap(), "3,5");
        assert!(list_text(&json!([[1]])).unwrap_err().starts_with("item 0"));
        for v in [
            json!([3, 9]),
            json!("3,9"),
            json!("[3, 9]"),
            json!(" [ 3 ,9 ] "),
        ] {
            assert_eq!(list_items::<usize>(&v).unwrap(), [3, 9], "{v}");
        }
        assert_eq!(
            list_items::<usize>(&json!("")).unwrap(),
            Vec::<usize>::new()
        );
        assert_eq!(
            list_items::<usize>(&json!("[]")).unwrap(),
            Vec::<usize>::new()
        );
        let e = list_items::<usize>(&json!("3,x")).unwrap_err();
        assert!(e.starts_with("item 1 ('x')"), "{e}");
        assert!(list_items::<usize>(&json!(3))
            .unwrap_err()
            .contains("found a number"));
    }
}
