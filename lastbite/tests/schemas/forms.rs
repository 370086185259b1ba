//! Every field that takes a number or a list in more than one JSON form (`x-forms` in its
//! schema) gives the same report in each form, for every command of the table: the sample
//! requests (`examples/requests.json`) and the cases below, which give each such field a
//! value where no sample does.

use lastbite::api::{call, command_info, Control, COMMANDS};
use serde_json::{json, Value};

/// Requests for the fields with forms that no sample request gives.
fn extra_cases() -> Vec<(&'static str, Value)> {
    vec![
        (
            "subtraction-outcome",
            json!({"set": "3,5", "heap": 100, "takes": "3,5"}),
        ),
        (
            "subtraction-outcome",
            json!({"set": [3, 5], "heap": "12", "takes": [3]}),
        ),
        ("subtraction-problems", json!({"sizes": "2", "max": 6})),
        ("dinner-board", json!({"morsels": "1,2 2,3 3,1", "at": "0"})),
        (
            "dinner-board",
            json!({"morsels": "1,2 2,3 3,1", "altruism": "1,1/2,1/2,1"}),
        ),
        (
            "dinner-plot",
            json!({"morsels": "1,6 2,4 3,5 4,3", "at": [1, 2]}),
        ),
        (
            "dinner-solve",
            json!({"morsels": "1,2 2,3 3,1", "at": "[0]"}),
        ),
        (
            "dinner-expected",
            json!({"order": "ABBA", "items": 4, "model": "3,2,1,0"}),
        ),
        (
            "dinner-best-order",
            json!({"items": 4, "counts": "2,2", "model": [3, 2, 1, 0]}),
        ),
        ("tokens-solve", json!({"at": "5,9"})),
        (
            "tokens-anywhere",
            json!({"values": [1, 5, 2], "positions": [0, 0.5, 2], "players": 2, "clock": true, "circumference": 3.5}),
        ),
    ]
}

/// The `x-forms` of a request property (`number` or `list`), through a `$ref` or an
/// optional's `anyOf`.
fn forms_of<'a>(prop: &'a Value, defs: &'a Value) -> Option<&'a str> {
    if let Some(f) = prop["x-forms"].as_str() {
        return Some(f);
    }
    if let Some(r) = prop["$ref"].as_str() {
        return forms_of(&defs[r.rsplit('/').next()?], defs);
    }
    prop["anyOf"]
        .as_array()?
        .iter()
        .find_map(|b| forms_of(b, defs))
}

/// A JSON number for `text` when it is one, else the text.
fn item(text: &str) -> Value {
    serde_json::from_str::<serde_json::Number>(text.trim())
        .map(Value::Number)
        .unwrap_or_else(|_| Value::String(text.trim().to_string()))
}

/// The other forms of `v`, a value of a field with forms `forms`.
fn other_forms(forms: &str, v: &Value) -> Vec<Value> {
    match (forms, v) {
        ("number", Value::String(s)) => match item(s) {
            n @ Value::Number(_) => vec![n],
            _ => Vec::new(),
        },
        ("number", Value::Number(n)) => vec![Value::String(n.to_string())],
        ("list", Value::String(s)) => {
            let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
            let items: Vec<Value> = inner.split(',').map(item).collect();
            vec![Value::Array(items), Value::String(format!("[{inner}]"))]
        }
        ("list", Value::Array(a)) => {
            let text: Vec<String> = a
                .iter()
                .map(|x| match x {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect();
            vec![Value::String(text.join(","))]
        }
        _ => Vec::new(),
    }
}

#[test]
fn every_field_with_forms_gives_one_report_in_each() {
    let samples: Value =
        serde_json::from_str(include_str!("../../../examples/requests.json")).unwrap();
    let mut cases: Vec<(String, Value)> = samples["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["command"].as_str().unwrap().to_string(),
                r["request"].clone(),
            )
        })
        .collect();
    cases.extend(extra_cases().into_iter().map(|(c, r)| (c.to_string(), r)));
    let mut covered = std::collections::BTreeSet::new();
    let mut checked = 0;
    for (command, request) in &cases {
        let info = command_info(command).expect("a command of the table");
        let defs = &info.request["$defs"];
        let fields = request.as_object().unwrap();
        for (field, value) in fields {
            let Some(forms) = forms_of(&info.request["properties"][field], defs) else {
                continue;
            };
            covered.insert((command.clone(), field.clone()));
            let run = |r: &Value| call(command, &r.to_string(), &Control::silent());
            let want = run(request).unwrap_or_else(|e| panic!("{command} {request}: {e}"));
            for alt in other_forms(forms, value) {
                let mut other = request.clone();
                other[field] = alt.clone();
                let got = run(&other).unwrap_or_else(|e| panic!("{command} {other}: {e}"));
                assert_eq!(got, want, "{command}: {field} as {alt} against {value}");
                checked += 1;
            }
        }
    }
    // Every field with forms of every command is tried.
    let mut missing = Vec::new();
    for &name in COMMANDS {
        let info = command_info(name).unwrap();
        let defs = &info.request["$defs"];
        for (field, prop) in info.request["properties"].as_object().unwrap() {
            if forms_of(prop, defs).is_some()
                && !covered.contains(&(name.to_string(), field.clone()))
            {
                missing.push(format!("{name}.{field}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fields with forms that no case gives: {missing:?}"
    );
    assert!(checked > 30, "{checked} forms checked");
}

/// A wrong form names the field and the forms it takes.
#[test]
fn a_wrong_form_names_the_field_and_its_forms() {
    let ctl = Control::silent();
    for (command, request, field, says) in [
        (
            "subtraction-outcome",
            r#"{"set": "3,5", "heap": true}"#,
            "heap",
            "expected a number",
        ),
        (
            "subtraction-table",
            r#"{"set": {"a": 1}}"#,
            "set",
            "a JSON array like [3, 5]",
        ),
        ("tokens-solve", r#"{"at": "5,x"}"#, "at", "item 1 ('x')"),
        (
            "subtraction-conjecture",
            r#"{"statement": "4", "sizes": 2}"#,
            "sizes",
            "found a number",
        ),
    ] {
        let e = call(command, request, &ctl).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains(field) && text.contains(says),
            "{command}: {text}"
        );
        assert!(!text.contains('\n'), "{text}");
    }
}
