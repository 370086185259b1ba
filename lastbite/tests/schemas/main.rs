//! The JSON Schemas in `docs/schema/` are generated from the API's request and report
//! types; this test fails when a committed schema is stale. `LASTBITE_BLESS=1 cargo test
//! -p lastbite --test schemas` rewrites them.

use std::path::Path;

use edges::base_requests;

mod budgets;
mod costs;
mod edges;
mod forms;
mod hints;
mod modes;
mod progress;

/// A value with every object's keys in order, so that a blessed file's text does not
/// depend on serde_json's `preserve_order` (which the workspace's build turns on).
fn sorted(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            serde_json::Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&m[k])))
                    .collect(),
            )
        }
        serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[test]
fn committed_schemas_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/schema");
    let bless = std::env::var_os("LASTBITE_BLESS").is_some();
    let mut stale = Vec::new();
    let schemas = lastbite::api::schemas();
    assert_eq!(schemas.len(), 2 * 40, "a request and a report per command");
    for (stem, schema) in schemas {
        let path = dir.join(format!("{stem}.json"));
        let text = serde_json::to_string_pretty(&sorted(&schema)).unwrap() + "\n";
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else {
            // Compared as JSON values: key order depends on serde_json's `preserve_order`,
            // which a workspace build turns on for the CLI.
            let committed: Option<serde_json::Value> = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            if committed.as_ref() != Some(&schema) {
                stale.push(stem);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing schemas in docs/schema (rerun with LASTBITE_BLESS=1): {stale:?}"
    );
}

#[test]
fn requests_take_the_cli_defaults_and_refuse_unknown_fields() {
    use lastbite::api::dinner::SolveRequest;
    let req: SolveRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(req, SolveRequest::default());
    assert_eq!(req.ties, "index");
    assert!(serde_json::from_str::<SolveRequest>(r#"{"max_state": 3}"#).is_err());
    // Exact numbers from JSON numbers are read by their decimal text.
    let req: SolveRequest = serde_json::from_str(r#"{"discount": 0.1}"#).unwrap();
    assert_eq!(req.discount.unwrap().to_string(), "1/10");
}

/// Runs command `name` on `request` with a deadline: `None` when it ran on past it (and
/// was then cancelled).
fn answered(name: &str, request: String) -> Option<Result<(), lastbite::api::Error>> {
    use lastbite::api::{call, Control};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let (flag, name) = (stop.clone(), name.to_string());
    std::thread::spawn(move || {
        let ctl = Control::silent().with_cancel(&flag);
        let _ = tx.send(call(&name, &request, &ctl).map(|_| ()));
    });
    let wait = std::time::Duration::from_secs(5);
    match rx.recv_timeout(wait) {
        Ok(answer) => Some(answer),
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            let _ = rx.recv_timeout(wait);
            None
        }
    }
}

/// Every field that sizes the work has a budget, declared: each integer
/// field of each request carries an `x-budget` (the kinds of
/// `lastbite::api::input::BUDGET_KINDS`, or the name of the budget field that bounds it),
/// and behaves as declared. Set to the largest value of its type on the command's
/// smallest requests, a field is answered before any long work (refused, or run where it
/// sizes nothing), never cancelled for time and never an abort; a sized field is refused
/// in at least one of them, naming the field (a range, an estimate) or the budget field
/// that raises it; one past a declared range is refused naming the field.
/// `LASTBITE_ONLY=dinner-expected` checks one command.
#[test]
fn every_size_is_refused_over_its_budget_before_work() {
    use lastbite::api::input::BUDGET_KINDS;
    let only = std::env::var("LASTBITE_ONLY").ok();
    let mut problems = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let Some(props) = schema["properties"].as_object() else {
            continue;
        };
        let bases = base_requests(name, &schema);
        if name != "reproduce" {
            for base in &bases {
                if let Err(e) =
                    lastbite::api::call(name, &base.to_string(), &lastbite::api::Control::silent())
                {
                    problems.push(format!("{name}: the base request {base} fails: {e}"));
                }
            }
        }
        for (field, prop) in props {
            let text = prop.to_string();
            if !text.contains("\"integer\"") {
                continue;
            }
            let Some(kind) = prop["x-budget"].as_str() else {
                problems.push(format!(
                    "{name}: integer field {field} declares no x-budget"
                ));
                continue;
            };
            let budget_field = !BUDGET_KINDS.contains(&kind);
            if budget_field
                && !props.get(kind).is_some_and(|b| {
                    matches!(
                        b["x-budget"].as_str(),
                        Some("states" | "memory" | "seconds" | "budget")
                    )
                })
            {
                problems.push(format!(
                    "{name}: {field}'s x-budget {kind} is not a budget field of the request"
                ));
                continue;
            }
            if matches!(kind, "states" | "memory" | "seconds" | "budget") || name == "reproduce" {
                continue;
            }
            let list = prop["type"] == "array";
            let value = |n: u64| match list {
                true => serde_json::json!([n]),
                false => serde_json::json!(n),
            };
            let huge = match text {
                _ if text.contains("\"uint8\"") => u8::MAX as u64,
                _ if text.contains("\"uint32\"") => u32::MAX as u64,
                _ => 1_000_000_000_000_000,
            };
            let mut tries = vec![huge];
            if kind == "range" {
                match prop["maximum"].as_u64() {
                    Some(max) if max < huge => tries.push(max + 1),
                    Some(_) => {}
                    None => {
                        problems.push(format!("{name}: {field} declares a range and no maximum"))
                    }
                }
            }
            // The bases where the field takes part: a small value is answered.
            let with = |base: &serde_json::Value, n: u64| {
                let mut req = base.as_object().unwrap().clone();
                req.insert(field.clone(), value(n));
                serde_json::Value::Object(req)
            };
            // A small value: the base's own, else the default, else 1.
            let small = |base: &serde_json::Value| {
                base[field.as_str()]
                    .as_u64()
                    .or(prop["default"].as_u64().filter(|d| (1..=100).contains(d)))
                    .unwrap_or(1)
            };
            let taking: Vec<&serde_json::Value> = bases
                .iter()
                .filter(|b| matches!(answered(name, with(b, small(b)).to_string()), Some(Ok(()))))
                .collect();
            for n in tries {
                let mut refused = false;
                for base in &taking {
                    let req = with(base, n);
                    match answered(name, req.to_string()) {
                        None => problems.push(format!("{name}: {req} ran on past the deadline")),
                        Some(Ok(())) => {}
                        Some(Err(e)) => {
                            // The field itself, or the budget it is declared under; an
                            // estimate may name none, being over a fixed limit.
                            // Or the work budget every request has: the cost model's.
                            let named = e.field() == Some(field.as_str())
                                || (budget_field && e.field() == Some(kind))
                                || e.field() == Some("max_seconds")
                                || (kind == "estimate"
                                    && e.kind() == lastbite::api::ErrorKind::OverBudget);
                            if named {
                                refused = true;
                            } else {
                                problems.push(format!("{name}: {field} = {n} is refused without naming it or its budget: {e}"));
                            }
                        }
                    }
                }
                if !refused && kind != "none" {
                    problems.push(format!(
                        "{name}: {field} = {n} is not refused in any of {taking:?}"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Closed sets are enums: a text field whose help names two or more
/// values (`snake`, `alternate`) either lists them in its schema (`oneOf` constants, so the
/// CLI's possible values and Python's `Literal` show them) or declares that it takes other
/// forms too (`x-open`: turn orders as letters, scoring vectors, per-player tie rules).
#[test]
fn closed_sets_are_enums() {
    let mut problems = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        let Some(props) = schema["properties"].as_object() else {
            continue;
        };
        for (field, prop) in props {
            let text = prop.to_string();
            let closed =
                text.contains("oneOf") || text.contains("\"enum\"") || text.contains("$ref");
            if !prop["type"].to_string().contains("string")
                || closed
                || prop.get("x-path").is_some()
            {
                continue;
            }
            let help = prop["description"].as_str().unwrap_or("");
            let named = help
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
                .count();
            if named >= 2 && prop["x-open"] != true {
                problems.push(format!(
                    "{name}: {field} names its values in its help but is not an enum (or x-open)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `cookie critical` lists about n^3/9 components for sizes up to n: 10,000 sizes would be
/// terabytes. The budget-edge test found 8,192 sizes admitted and passing 3 GB; now the
/// list is estimated before work and refused over `memory_gib`, naming it and the size.
#[test]
fn cookie_critical_is_refused_over_its_memory_budget() {
    use lastbite::api::{call, Control};
    let t = std::time::Instant::now();
    let e = call(
        "cookie-critical",
        r#"{"max_size": 8192, "memory_gib": 8}"#,
        &Control::silent(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("memory_gib") && e.contains("8192"), "{e}");
    assert!(t.elapsed().as_millis() < 100, "refused before the work");
    let fits = call(
        "cookie-critical",
        r#"{"max_size": 60, "memory_gib": 1}"#,
        &Control::silent(),
    )
    .unwrap();
    assert!(fits.contains("\"critical\""));
}
