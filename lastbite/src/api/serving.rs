//! What a front end that serves others does to a request before it calls: the HTTP server
//! (`lastbite serve`) and the static page's WebAssembly worker. A request naming a file
//! or a directory is refused (such a front end reads and writes none of its caller's
//! files); a budget field the command has is capped by the front end's budget, and filled
//! in with it when the request gives none. Done once here so both front ends refuse and
//! cap alike.
//!
//! Which fields name files is not a list kept here: each such field is declared where the
//! request is, with `x-path` in its schema (`#[schemars(extend("x-path" = "file"))]`:
//! `"file"`, `"directory"`, or `"@file"` for a value that names a file when it starts
//! with `@`; `x-instead` names the field that takes the content itself), and
//! [`request_fields`] reads the declarations from the schemas. A field added with its
//! declaration is refused by both front ends with no change here.

use serde_json::{Map, Value};

use super::input::BudgetUnit;

/// A serving front end's budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// The most states (and `.efg` nodes and outcomes) one request may ask for.
    pub max_states: u64,
    /// The most memory, in GiB, one request's tables may take.
    pub max_memory_gib: u64,
    /// The most seconds of one core one request's work may be estimated at
    /// (`max_seconds`).
    pub max_seconds: u64,
}

/// Why a request was refused before the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a request this front end takes (not a JSON object, a file path).
    BadRequest(String),
    /// A budget over the front end's.
    OverBudget(String),
}

/// How a request field names a file or folder, as its schema declares it (`x-path`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    /// The value is the path of a file the command reads or writes (`"file"`).
    File,
    /// The value is the path of a directory the command reads and writes (`"directory"`).
    Directory,
    /// A value starting with `@` names a file holding the value (`"@file"`); any other
    /// value is the content itself.
    AtFile,
}

/// A request field declared to name a file or folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathField {
    /// The field's name.
    pub name: String,
    /// How its value names a path.
    pub kind: PathKind,
    /// The field that takes the content instead, where there is one (`x-instead`).
    pub instead: Option<String>,
}

/// What a serving front end needs to know of one command's request: its fields, and
/// which of them name files.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestFields {
    /// Every field of the request.
    pub props: Vec<String>,
    /// The fields declared to name a file or folder.
    pub paths: Vec<PathField>,
    /// The fields declared to be budgets (`x-budget`: `states`, `memory`, `seconds` or
    /// `budget`),
    /// with their defaults.
    pub budgets: Vec<BudgetField>,
}

/// A request field declared to be a budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetField {
    /// The field's name.
    pub name: String,
    /// What it bounds: which of a serving front end's budgets caps it.
    pub unit: BudgetUnit,
    /// Its default: the cap of a [`BudgetUnit::Declared`] budget.
    pub default: u64,
}

impl RequestFields {
    /// The fields of the request whose JSON Schema is `schema`, with the path
    /// declarations (`x-path`, `x-instead`) its properties carry.
    ///
    /// ```
    /// use lastbite::api::serving::{PathKind, RequestFields};
    /// let schema = serde_json::json!({"properties": {
    ///     "data": {"type": "string"},
    ///     "file": {"type": "string", "x-path": "file", "x-instead": "data"},
    /// }});
    /// let f = RequestFields::of(&schema);
    /// assert_eq!(f.props, ["data", "file"]);
    /// assert_eq!(f.paths[0].kind, PathKind::File);
    /// assert_eq!(f.paths[0].instead.as_deref(), Some("data"));
    /// ```
    ///
    /// # Panics
    /// On an `x-path` that is not one of `"file"`, `"directory"`, `"@file"`: a mistake in
    /// a request's declaration, which the tests over every command meet first.
    pub fn of(schema: &Value) -> RequestFields {
        let Some(props) = schema["properties"].as_object() else {
            return RequestFields::default();
        };
        let paths = props
            .iter()
            .filter_map(|(name, p)| {
                let kind = match p.get("x-path")?.as_str() {
                    Some("file") => PathKind::File,
                    Some("directory") => PathKind::Directory,
                    Some("@file") => PathKind::AtFile,
                    other => panic!("{name}: x-path {other:?} is not file, directory or @file"),
                };
                let instead = p.get("x-instead").and_then(Value::as_str).map(String::from);
                Some(PathField {
                    name: name.clone(),
                    kind,
                    instead,
                })
            })
            .collect();
        let budgets = props
            .iter()
            .filter_map(|(name, p)| {
                let unit = match p.get("x-budget")?.as_str()? {
                    "states" => BudgetUnit::Count,
                    "memory" => BudgetUnit::Gib,
                    "seconds" => BudgetUnit::Seconds,
                    "budget" => BudgetUnit::Declared,
                    _ => return None,
                };
                Some(BudgetField {
                    name: name.clone(),
                    unit,
                    default: p.get("default").and_then(Value::as_u64).unwrap_or(0),
                })
            })
            .collect();
        RequestFields {
            props: props.keys().cloned().collect(),
            paths,
            budgets,
        }
    }
}

/// The request fields of every command, from its schema: what [`admit`] needs to know
/// which fields name files and which budget fields a command has.
pub fn request_fields() -> Vec<(&'static str, RequestFields)> {
    let schemas: std::collections::HashMap<String, Value> = super::schemas().into_iter().collect();
    super::COMMANDS
        .iter()
        .map(|c| (*c, RequestFields::of(&schemas[&format!("{c}.request")])))
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

/// The request `body` of a command with request fields `fields`, admitted: every field
/// declared to name a file or folder refused (whatever its value: an empty string too),
/// budgets capped by `caps` (filled in where absent). `who` names the front end in
/// messages ("this server", "this page").
///
/// ```
/// use lastbite::api::serving::{admit, request_fields, Caps, Refusal};
/// let caps = Caps { max_states: 1000, max_memory_gib: 1, max_seconds: 10 };
/// let all = request_fields();
/// let (_, fields) = all.iter().find(|(c, _)| *c == "dinner-verify").unwrap();
/// let body = admit(fields, br#"{"morsels": "1,2"}"#, &caps, "this page").unwrap();
/// let v: serde_json::Value = serde_json::from_str(&body).unwrap();
/// assert_eq!(v, serde_json::json!({"morsels": "1,2", "max_states": 1000, "max_seconds": 10}));
/// let over = admit(fields, br#"{"max_states": 5000}"#, &caps, "this page");
/// assert_eq!(over, Err(Refusal::OverBudget("refused: max_states 5000 is over this page's budget of 1000".into())));
/// let file = admit(fields, br#"{"file": "/etc/passwd"}"#, &caps, "this page");
/// assert!(matches!(file, Err(Refusal::BadRequest(m)) if m.contains("send the content in data")));
/// ```
pub fn admit(
    fields: &RequestFields,
    body: &[u8],
    caps: &Caps,
    who: &str,
) -> Result<String, Refusal> {
    let bad = |m: String| Refusal::BadRequest(m);
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| bad(format!("invalid request: the body is not JSON: {e}")))?;
    let Value::Object(mut values) = value else {
        return Err(bad(
            "invalid request: the body must be a JSON object of the request's fields".into(),
        ));
    };
    for path in &fields.paths {
        let key = path.name.as_str();
        let names_file = match (path.kind, values.get(key)) {
            (_, None | Some(Value::Null)) => false,
            (PathKind::AtFile, Some(v)) => v.as_str().is_some_and(|p| p.starts_with('@')),
            (PathKind::File | PathKind::Directory, Some(_)) => true,
        };
        if names_file {
            let instead = match (&path.instead, path.kind) {
                (Some(f), _) => format!(" (send the content in {f})"),
                (None, PathKind::AtFile) => format!(" (send the {key} itself)"),
                (None, _) => String::new(),
            };
            return Err(bad(format!(
                "{key}: {who} reads and writes no files{instead}"
            )));
        }
    }
    cap(&fields.budgets, &mut values, caps, who)?;
    Ok(Value::Object(values).to_string())
}

impl BudgetField {
    /// The most a front end with budgets `caps` lets a request ask for.
    pub fn cap(&self, caps: &Caps) -> u64 {
        match self.unit {
            BudgetUnit::Count => caps.max_states,
            BudgetUnit::Gib => caps.max_memory_gib,
            BudgetUnit::Seconds => caps.max_seconds,
            BudgetUnit::Declared => self.default,
        }
    }
}

/// The message of `error`, returned by the call of `request` (as [`admit`] gave it) on a
/// front end with budgets `caps`: the library's, except that where the error is over a
/// budget the request already asks at `who`'s most for, its advice to raise that budget
/// would only be refused, so the message says where it can run instead.
///
/// ```
/// use lastbite::api::{call, serving, Control};
/// let caps = serving::Caps { max_states: 1000, max_memory_gib: 1, max_seconds: 60 };
/// let fields = &serving::request_fields().into_iter().find(|(c, _)| *c == "tokens-solve").unwrap().1;
/// let request = serving::admit(fields, br#"{"stacks": 20}"#, &caps, "this server").unwrap();
/// let e = call("tokens-solve", &request, &Control::silent()).unwrap_err();
/// assert!(e.to_string().contains("raise max_states"));
/// let m = serving::message(&e, &request, fields, &caps, "this server");
/// assert!(!m.contains("raise"), "{m}");
/// assert!(m.ends_with("max_states is at this server's most (1000): run it with the lastbite command or Python, where the budgets are yours"), "{m}");
/// ```
pub fn message(
    error: &super::Error,
    request: &str,
    fields: &RequestFields,
    caps: &Caps,
    who: &str,
) -> String {
    let text = error.to_string();
    let Some(field) = error.field() else {
        return text;
    };
    let Some(budget) = fields.budgets.iter().find(|b| b.name == field) else {
        return text;
    };
    let cap = budget.cap(caps);
    let asked = serde_json::from_str::<Value>(request)
        .ok()
        .and_then(|v| {
            let v = v.get(field)?.clone();
            v.as_u64().or_else(|| v.as_str()?.parse().ok())
        })
        .unwrap_or(cap);
    if asked < cap {
        return text;
    }
    // The library's advice, in each of the forms its messages give it: `(raise ...)`,
    // `; raise it to run them`, `: raise it, or ...`.
    let mut text = text
        .replace("; raise it to run them", "")
        .replace(": raise it, or ", ": ");
    if let Some(at) = text.find(" (raise ") {
        let end = text[at..].find(')').map_or(text.len(), |e| at + e + 1);
        text.replace_range(at..end, "");
    }
    format!(
        "{text}; {field} is at {who}'s most ({cap}): run it with the lastbite command or Python, where the budgets are yours"
    )
}

fn cap(
    budgets: &[BudgetField],
    fields: &mut Map<String, Value>,
    caps: &Caps,
    who: &str,
) -> Result<(), Refusal> {
    for budget in budgets {
        let key = budget.name.as_str();
        let cap = budget.cap(caps);
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
