//! No silent field: for every command of the table, every field declared `x-requires` (a
//! field or a mode, `field=value`, that reads it) is refused when set without it, naming
//! the field and the mode, before any work.

use lastbite::api::{call, command_info, Control, COMMANDS};
use serde_json::{json, Value};

/// A value of `prop`'s type other than its default.
pub(crate) fn other_value(prop: &Value) -> Value {
    let types: Vec<&str> = match &prop["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.contains(&"boolean") {
        json!(true)
    } else if types.contains(&"integer") {
        json!(prop["default"].as_u64().unwrap_or(1) + 1)
    } else {
        json!("12")
    }
}

#[test]
fn every_field_outside_its_mode_is_refused_naming_it() {
    let mut checked = 0;
    for &name in COMMANDS {
        let info = command_info(name).unwrap();
        for (field, prop) in info.request["properties"].as_object().unwrap() {
            let needs: Vec<&str> = match &prop["x-requires"] {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => continue,
            };
            let request = json!({ field.as_str(): other_value(prop) }).to_string();
            let e = call(name, &request, &Control::silent())
                .expect_err(&format!("{name} {request}: not refused"));
            assert_eq!(e.field(), Some(field.as_str()), "{name} {request}: {e}");
            let text = e.to_string();
            assert!(text.contains("is read only with"), "{name}: {text}");
            for need in needs {
                let mode = need.split('=').next().unwrap();
                assert!(
                    text.contains(mode),
                    "{name} {request}: {text} names no {mode}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} fields checked");
    // The two that ran silently before: random dinners' size without trials, and a
    // three-agent utility with the two-agent question.
    for (name, request) in [
        ("dinner-fairness", r#"{"morsels": "1,2 2,1", "size": 6}"#),
        (
            "dinner-strategic-fairness",
            r#"{"question": "two-agents", "max_value": 2}"#,
        ),
    ] {
        let e = call(name, request, &Control::silent()).unwrap_err();
        assert!(e.to_string().contains("is read only with"), "{e}");
    }
}
