//! What a front end that serves others does to a request before it calls: the HTTP server
//! (`lastbite serve`) and the static page's WebAssembly worker. A request naming a file
//! or a directory is refused (such a front end reads and writes none of its caller's
//! files); a budget field the command has is capped by the front end's budget, and filled
//! in with it when the request gives none. Declared once here so both front ends refuse
//! and cap alike.

use serde_json::{Map, Value};

use super::input::{BudgetUnit, AT_FILE_FIELDS, BUDGET_FIELDS, PATH_FIELDS};

/// A serving front end's budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// The most states (and `.efg` nodes and outcomes) one request may ask for.
    pub max_states: u64,
    /// The most memory, in GiB, one request's tables may take.
    pub max_memory_gib: u64,
}

/// Why a request was refused before the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a request this front end takes (not a JSON object, a file path).
    BadRequest(String),
    /// A budget over the front end's.
    OverBudget(String),
}

/// The request fields of every command, from its schema: what [`admit`] needs to know
/// which budget fields a command has.
pub fn request_fields() -> Vec<(&'static str, Vec<String>)> {
    let schemas: std::collections::HashMap<String, Value> = super::schemas().into_iter().collect();
    super::COMMANDS
        .iter()
        .map(|c| {
            let props = schemas[&format!("{c}.request")]["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            (*c, props)
        })
        .collect()
}

/// The path of a command's endpoint: `dinner-solve` is `/api/dinner/solve`,
/// `reproduce` is `/api/reproduce`.
pub fn endpoint(command: &str) -> String {
    format!("/api/{}", command.replacen('-', "/", 1))
}

/// Every command's endpoint with its request and report schemas, as one JSON document
/// (`{"endpoints": [{"path", "method", "command", "request", "report"}, ...]}`): what
/// `GET /api/schema` answers and the page lists.
pub fn schema_document() -> String {
    let schemas: std::collections::HashMap<String, Value> = super::schemas().into_iter().collect();
    let endpoints: Vec<Value> = super::COMMANDS
        .iter()
        .map(|c| {
            serde_json::json!({
                "path": endpoint(c),
                "method": "POST",
                "command": c,
                "request": schemas[&format!("{c}.request")],
                "report": schemas[&format!("{c}.report")],
            })
        })
        .collect();
    serde_json::json!({ "endpoints": endpoints }).to_string()
}

/// The request `body` of a command with fields `props`, admitted: files refused, budgets
/// capped by `caps` (filled in where absent). `who` names the front end in messages
/// ("this server", "this page").
///
/// ```
/// use lastbite::api::serving::{admit, Caps, Refusal};
/// let caps = Caps { max_states: 1000, max_memory_gib: 1 };
/// let props = vec!["morsels".to_string(), "max_states".to_string()];
/// let body = admit(&props, br#"{"morsels": "1,2"}"#, &caps, "this page").unwrap();
/// let v: serde_json::Value = serde_json::from_str(&body).unwrap();
/// assert_eq!(v, serde_json::json!({"morsels": "1,2", "max_states": 1000}));
/// let over = admit(&props, br#"{"max_states": 5000}"#, &caps, "this page");
/// assert_eq!(over, Err(Refusal::OverBudget("refused: max_states 5000 is over this page's budget of 1000".into())));
/// ```
pub fn admit(props: &[String], body: &[u8], caps: &Caps, who: &str) -> Result<String, Refusal> {
    let bad = |m: String| Refusal::BadRequest(m);
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| bad(format!("invalid request: the body is not JSON: {e}")))?;
    let Value::Object(mut fields) = value else {
        return Err(bad(
            "invalid request: the body must be a JSON object of the request's fields".into(),
        ));
    };
    for (key, instead) in PATH_FIELDS {
        if fields.get(key).is_some_and(|v| !v.is_null()) {
            return Err(bad(format!(
                "{key}: {who} reads and writes no files{}",
                instead
                    .map(|f| format!(" (send the content in {f})"))
                    .unwrap_or_default()
            )));
        }
    }
    for key in AT_FILE_FIELDS {
        if fields
            .get(key)
            .and_then(Value::as_str)
            .is_some_and(|p| p.starts_with('@'))
        {
            return Err(bad(format!(
                "{key}: {who} reads no files (send the {key} itself)"
            )));
        }
    }
    cap(props, &mut fields, caps, who)?;
    Ok(Value::Object(fields).to_string())
}

fn cap(
    props: &[String],
    fields: &mut Map<String, Value>,
    caps: &Caps,
    who: &str,
) -> Result<(), Refusal> {
    for (key, unit) in BUDGET_FIELDS {
        if !props.iter().any(|p| p == key) {
            continue;
        }
        let cap = match unit {
            BudgetUnit::Count => caps.max_states,
            BudgetUnit::Gib => caps.max_memory_gib,
        };
        match fields.get(key) {
            None | Some(Value::Null) => {
                fields.insert(key.to_string(), Value::from(cap));
            }
            Some(v) => {
                // A budget the library would refuse anyway (not a count) is its to report.
                let asked = v
                    .as_u64()
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()));
                if let Some(n) = asked {
                    if n > cap {
                        return Err(Refusal::OverBudget(format!(
                            "refused: {key} {n} is over {who}'s budget of {cap}"
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}
