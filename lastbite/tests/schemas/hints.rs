//! Every hint holds: an error that advises raising a budget is followed, on each
//! surface, and gets past that error. Over the command table, each command's sizing
//! fields are grown under a server's budgets (as the cancel test grows them) until the
//! library refuses a request over one of its budget fields, before any work (each call
//! made with its cancel already set, so that a request the budgets admit stops at its
//! first check instead of running). Then:
//! - on the command line and in Python (the library's message, budgets the caller's
//!   own): the request with that budget raised to the largest number the message names
//!   is no longer refused for it; a request past any budget says so and advises none;
//! - on the server and the static page (`serving::message`): where the request already
//!   asks the front end's most, the message advises no raise (it would be refused as over
//!   the server's budget) and says where the request can run; below the most, raising
//!   up to it is taken by the server's own check.

use lastbite::api::{call, serving, Control, Error};

/// The call of `request`, stopped at its first check after the budgets.
fn attempt(name: &str, request: &str) -> Result<(), Error> {
    let stop = std::sync::atomic::AtomicBool::new(true);
    match call(name, request, &Control::silent().with_cancel(&stop)) {
        Ok(_) | Err(Error::Cancelled) => Ok(()),
        Err(e) => Err(e),
    }
}

#[test]
fn every_budget_hint_holds_on_every_surface() {
    let caps = serving::Caps {
        max_states: 10_000_000,
        max_memory_gib: 2,
        max_seconds: 60,
    };
    let fields: std::collections::HashMap<_, _> = serving::request_fields().into_iter().collect();
    let (mut followed, mut problems) = (0, Vec::new());
    for g in crate::budgets::growths(&caps) {
        let name = g.name.as_str();
        let fields = &fields[name];
        for request in g.requests {
            let Err(e) = attempt(name, &request) else {
                continue;
            };
            let Some(budget) = e
                .field()
                .and_then(|f| fields.budgets.iter().find(|b| b.name == f))
            else {
                break;
            };
            let field = budget.name.as_str();
            let cap = budget.cap(&caps);
            followed += 1;
            eprintln!("{name}: {e}");
            if e.to_string().contains("past any budget") {
                if e.to_string().contains("raise") {
                    problems.push(format!("{name} {request}: {e}"));
                }
                break;
            }
            // The server: at its most, no advice to raise, and where it can run.
            let served = serving::message(&e, &request, fields, &caps, "this server");
            if served.contains("raise") || !served.contains("at this server's most") {
                problems.push(format!("{name} {request}: served as {served:?}"));
            }
            // The server: below its most, raising to it is admitted.
            let mut lower: serde_json::Value = serde_json::from_str(&request).unwrap();
            lower[field] = serde_json::json!(cap / 2);
            let at_most = serving::admit(fields, lower.to_string().as_bytes(), &caps, "t");
            lower[field] = serde_json::json!(cap);
            if at_most.is_err()
                || serving::admit(fields, lower.to_string().as_bytes(), &caps, "t").is_err()
            {
                problems.push(format!(
                    "{name}: {field} {cap} (this server's most) refused"
                ));
            }
            // The command line and Python: the budget raised gets past this refusal.
            let mut raised: serde_json::Value = serde_json::from_str(&request).unwrap();
            raised[field] = serde_json::json!(needed(&e.to_string()));
            match attempt(name, &raised.to_string()) {
                Err(again) if again.field() == Some(field) => problems.push(format!(
                    "{name} {request}: {e}; with {field} raised still {again}"
                )),
                _ => {}
            }
            break;
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Most commands have a budget a size can pass: a growth that finds few has broken.
    assert!(followed >= 10, "only {followed} budget refusals met");
}

/// What a reader of the message would raise the budget to: the largest number it names
/// (a count past 2^64 as 2^64 - 1, the most a budget field takes).
fn needed(message: &str) -> u64 {
    message
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<u64>().unwrap_or(u64::MAX))
        .max()
        .unwrap_or(u64::MAX)
}

/// The example a missing-input hint gives (`e.g. X`, `like "X"`), quotes taken off.
fn example(hint: &str) -> Option<String> {
    let at = ["e.g. ", "like "]
        .iter()
        .find_map(|m| hint.find(m).map(|i| i + m.len()))?;
    let rest = &hint[at..];
    match rest.strip_prefix('"') {
        Some(q) => q.split('"').next().map(str::to_string),
        None => rest
            .split([' ', ')', ';'])
            .next()
            .filter(|w| !w.is_empty())
            .map(str::to_string),
    }
}

/// A request that lacks its input is told what to give, with an example where the hint
/// has one: over the command table, each command's empty request is sent, and where it
/// is refused as missing a field whose hint gives an example, the example given in that
/// field gets past the refusal (the same text on every surface: the field spelt as each
/// spells it).
#[test]
fn every_missing_input_example_gets_past_it() {
    let mut followed = Vec::new();
    let mut problems = Vec::new();
    for &name in lastbite::api::COMMANDS {
        let Err(Error::Missing { field, hint, .. }) = attempt(name, "{}") else {
            continue;
        };
        let Some(value) = example(&hint) else {
            continue;
        };
        let mut given = serde_json::Map::new();
        given.insert(field.to_string(), value.into());
        let request = serde_json::Value::Object(given).to_string();
        match attempt(name, &request) {
            Err(Error::Missing { field: again, .. }) if again == field => {
                problems.push(format!("{name}: {request} is still missing {field}"));
            }
            _ => followed.push(format!("{name} {request}")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Dinners, cookies and heaps give examples: a parser that finds few has broken.
    assert!(followed.len() >= 3, "only {followed:?}");
}

#[test]
fn the_example_parser_takes_quoted_and_bare_examples() {
    assert_eq!(
        example("give x, e.g. \"0 1 1 3\"").as_deref(),
        Some("0 1 1 3")
    );
    assert_eq!(
        example("or morsels like \"1,2 2,3\"").as_deref(),
        Some("1,2 2,3")
    );
    assert_eq!(example("the heap, e.g. 100 (any)").as_deref(), Some("100"));
    assert_eq!(example("give an .efg file"), None);
}

/// A field's value for trying combinations: the example its description gives
/// (`e.g. \`X\``), else one of its type other than its default.
fn trial_value(prop: &serde_json::Value) -> serde_json::Value {
    let text = prop["description"].as_str().unwrap_or("");
    let given = text
        .split_once("e.g. `")
        .and_then(|(_, rest)| rest.split('`').next())
        .map(|e| e.trim_matches('"'));
    match given {
        Some(e) => serde_json::from_str(e).unwrap_or_else(|_| e.into()),
        None => crate::modes::other_value(prop),
    }
}

/// A refusal of two fields together names the one to leave out, and leaving it out gets
/// past the refusal: over the command table, each command's base requests are sent with
/// every pair of their other fields set (an example value, or one other than the
/// default), and each refusal of a combination (`give either stack values or a number of
/// stacks`, `give a dinner or trials, not both`) is followed by sending the request
/// again without the field it names.
#[test]
fn every_combination_hint_names_a_field_whose_removal_gets_past_it() {
    use lastbite::api::{command_info, COMMANDS};
    let (mut followed, mut problems) = (std::collections::BTreeSet::new(), Vec::new());
    for &name in COMMANDS {
        if name == "reproduce" {
            continue;
        }
        let schema = command_info(name).unwrap().request;
        let props = schema["properties"].as_object().unwrap();
        let fields: Vec<(&String, serde_json::Value)> = props
            .iter()
            .filter(|(_, p)| {
                let budget = p["x-budget"].as_str().unwrap_or("none");
                p.get("x-path").is_none()
                    && !matches!(budget, "states" | "memory" | "seconds" | "budget")
            })
            .map(|(f, p)| (f, trial_value(p)))
            .collect();
        for base in crate::base_requests(name, &schema) {
            for (i, a) in fields.iter().enumerate() {
                for b in &fields[i..] {
                    let mut r = base.as_object().unwrap().clone();
                    r.insert(a.0.clone(), a.1.clone());
                    r.insert(b.0.clone(), b.1.clone());
                    let request = serde_json::Value::Object(r.clone()).to_string();
                    let Err(Error::Combination { field, problem }) = attempt(name, &request) else {
                        continue;
                    };
                    r.remove(field);
                    let without = serde_json::Value::Object(r).to_string();
                    match attempt(name, &without) {
                        Err(Error::Combination {
                            field: f2,
                            problem: p2,
                        }) if f2 == field && p2 == problem => {
                            problems.push(format!(
                                "{name} {request}: \"{problem}\" names {field}, and without it \
                                 {without} is refused the same"
                            ));
                        }
                        _ => {
                            followed.insert(format!("{name}: {problem}"));
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Dinners, tokens and cookies refuse combinations: a search that finds few has broken.
    assert!(followed.len() >= 8, "only {followed:#?}");
    eprintln!("{followed:#?}");
}
