//! The JSON Schemas in `docs/schema/` are generated from the API's request and report
//! types; this test fails when a committed schema is stale. `LASTBITE_BLESS=1 cargo test
//! -p lastbite --test schemas` rewrites them.

use std::path::Path;

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
    assert_eq!(schemas.len(), 2 * 38, "a request and a report per command");
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
