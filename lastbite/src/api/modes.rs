//! Fields read only in a mode: a field whose schema declares `x-requires` (another field,
//! or `field=value`, the mode that reads it) and that a request sets (its value not the
//! default) without that mode is refused, naming the mode, before any work and on every
//! surface, so no flag is silently ignored. The declarations are the request types'; the
//! command line also enforces the plain form as clap's `requires`.

use std::any::TypeId;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Mutex, OnceLock};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::error::Error;

/// A request type's schema, made once per type.
fn schema<R: JsonSchema + 'static>() -> &'static Value {
    static SCHEMAS: OnceLock<Mutex<HashMap<TypeId, &'static Value>>> = OnceLock::new();
    let mut schemas = SCHEMAS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    schemas.entry(TypeId::of::<R>()).or_insert_with(|| {
        // Bounded: one schema per request type.
        Box::leak(Box::new(
            serde_json::to_value(schemars::schema_for!(R)).unwrap_or(Value::Null),
        ))
    })
}

/// A field's name as the `'static` text errors carry (the schemas' names, kept once).
fn interned(field: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    match names.get(field) {
        Some(&n) => n,
        None => {
            // Bounded: only the names of the schemas' properties reach here.
            let n: &'static str = Box::leak(field.to_string().into_boxed_str());
            names.insert(n);
            n
        }
    }
}

/// The declared requirement texts of a property (`x-requires`: one or a list).
fn requirements(prop: &Value) -> Vec<&str> {
    match &prop["x-requires"] {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Refuses a request that sets a field outside the mode that reads it.
pub(crate) fn check<R: Serialize + Default + JsonSchema + 'static>(req: &R) -> Result<(), Error> {
    let Some(props) = schema::<R>()["properties"].as_object() else {
        return Ok(());
    };
    if !props.values().any(|p| !requirements(p).is_empty()) {
        return Ok(());
    }
    let (given, default) = (
        serde_json::to_value(req).unwrap_or(Value::Null),
        serde_json::to_value(R::default()).unwrap_or(Value::Null),
    );
    for (field, prop) in props {
        if given[field] == default[field] {
            continue;
        }
        for need in requirements(prop) {
            let problem = match need.split_once('=') {
                Some((other, value)) => {
                    let now = given[other].as_str().unwrap_or("");
                    (!now.eq_ignore_ascii_case(value))
                        .then(|| format!("is read only with {other} {value} (not {now})"))
                }
                None => (given[need] == default[need] || given[need] == Value::Bool(false))
                    .then(|| format!("is read only with {need}: give {need} too")),
            };
            if let Some(problem) = problem {
                return Err(Error::combination(interned(field), problem));
            }
        }
    }
    Ok(())
}
