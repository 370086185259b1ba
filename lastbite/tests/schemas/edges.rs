//! Each command's requests at the edge of a budget, over the command table: its smallest
//! requests (one per way of running it) and, for each sizing field, the largest value a
//! budget admits. Shared by the library's tests at the edge and the server's (which
//! include this file by its path).

/// The smallest requests each command answers: the fields it cannot do without, and one
/// request per way of running it where a field sizes the work of one way only.
pub fn base_requests(name: &str, schema: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::json;
    let props = &schema["properties"];
    let mut m = serde_json::Map::new();
    let mut give = |k: &str, v: serde_json::Value| {
        if props.get(k).is_some() {
            m.insert(k.into(), v);
        }
    };
    give("morsels", json!("1,2 2,3 3,1"));
    give("set", json!("1,2"));
    give("heap", json!("10"));
    give("components", json!("1 2"));
    give("statement", json!("4"));
    give("profile", json!("NE,1,0"));
    if name.starts_with("efg-") && name != "efg-random" {
        give("data", json!("EFG 2 R \"g\" { \"A\" \"B\" }\np \"\" 1 1 \"\" { \"l\" \"r\" } 0\nt \"\" 1 \"o\" { 1, 2 }\nt \"\" 2 \"p\" { 2, 1 }\n"));
    }
    let with = |extra: serde_json::Value| {
        let mut r = m.clone();
        if name.starts_with("dinner-") && extra.get("morsels").is_none() {
            // A sweep over sizes draws its own dinners.
            if extra.as_object().is_some_and(|e| {
                e.contains_key("size") || e.contains_key("trials") || e.contains_key("search")
            }) {
                r.remove("morsels");
            }
        }
        r.extend(extra.as_object().unwrap().clone());
        serde_json::Value::Object(r)
    };
    match name {
        "dinner-pareto" | "dinner-attainable" => vec![with(json!({"size": 4}))],
        "dinner-fairness" => vec![with(json!({})), with(json!({"trials": 2, "size": 4}))],
        "dinner-discount" => vec![
            with(json!({"discount": "1/2"})),
            with(json!({"discount": "1/2", "search": true, "max_size": 3})),
        ],
        "dinner-experiment" | "dinner-multiplicity" => vec![with(json!({"size": 4, "trials": 2}))],
        "dinner-balance" => vec![with(json!({"max_size": 4, "trials": 2}))],
        "subtraction-scan" => vec![
            with(json!({"pairs": 4})),
            with(json!({"triples": 5})),
            with(json!({"size": 2, "max": 5})),
            with(json!({"size": 2, "max": 5, "random": 3})),
        ],
        "subtraction-plot" => vec![
            with(json!({"figure": "figure1", "max": 8})),
            with(json!({"figure": "heatmap", "max_heap": 20})),
        ],
        "subtraction-problems" | "subtraction-conjecture" => vec![with(json!({"max": 8}))],
        "dinner-strategic-fairness" => vec![
            with(json!({"items": 5})),
            with(json!({"question": "three-agents", "items": 4, "strict_items": 3})),
            with(json!({"question": "guarantees", "items": 5})),
        ],
        "tokens-solve" => vec![
            with(json!({})),
            with(json!({"on_grids": true, "stacks": 3, "players": 2, "grid": 2})),
        ],
        _ => vec![with(json!({}))],
    }
}

/// A command's request at the edge of a budget: for one sizing field of one of its base
/// requests, the largest value the budget admits.
pub struct Edge {
    pub name: String,
    pub field: String,
    pub value: u64,
    pub request: String,
}

/// One sizing field of one of a command's base requests.
pub struct Sizing {
    pub name: String,
    pub field: String,
    /// The base request's value of the field (`None`: not given).
    pub from: Option<u64>,
    base: serde_json::Map<String, serde_json::Value>,
    list: bool,
}

impl Sizing {
    /// The base request with the field at `n`.
    pub fn at(&self, n: u64) -> serde_json::Map<String, serde_json::Value> {
        let mut r = self.base.clone();
        let v = if self.list {
            serde_json::json!([n])
        } else {
            serde_json::json!(n)
        };
        r.insert(self.field.clone(), v);
        r
    }
}

/// Every command's sizing fields (but reproduce's, whose sweeps are commands of their
/// own, or those of the commands `LASTBITE_ONLY` names): each integer field whose
/// `x-budget` is not `none`, `budget` or one in `skip`, on each base request.
pub fn sizing_fields(skip: &[&str]) -> Vec<Sizing> {
    let only = std::env::var("LASTBITE_ONLY").ok();
    let mut all = Vec::new();
    for (stem, schema) in lastbite::api::schemas() {
        let Some(name) = stem.strip_suffix(".request") else {
            continue;
        };
        if name == "reproduce"
            || only
                .as_deref()
                .is_some_and(|o| !o.split(',').any(|o| o == name))
        {
            continue;
        }
        let props = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for base in base_requests(name, &schema) {
            for (field, prop) in &props {
                let sizing = prop["x-budget"]
                    .as_str()
                    .is_some_and(|k| !matches!(k, "none" | "budget") && !skip.contains(&k));
                if !sizing || !prop.to_string().contains("\"integer\"") {
                    continue;
                }
                all.push(Sizing {
                    name: name.to_string(),
                    field: field.clone(),
                    from: base[field.as_str()].as_u64(),
                    base: base.as_object().unwrap().clone(),
                    list: prop["type"] == "array",
                });
            }
        }
    }
    all
}

/// Every command's edges: for each of its [`sizing_fields`], the largest value whose
/// request `admit` takes (it returns the request as the call will read it), found by
/// doubling, then halving.
pub fn edges(
    skip: &[&str],
    admit: impl Fn(&str, serde_json::Map<String, serde_json::Value>) -> Option<String>,
) -> Vec<Edge> {
    let mut all = Vec::new();
    for s in sizing_fields(skip) {
        let at = |n: u64| admit(&s.name, s.at(n));
        let mut lo = s.from.unwrap_or(1).max(1);
        if at(lo).is_none() {
            continue;
        }
        let mut hi = lo;
        while hi < 1 << 40 && at(hi.saturating_mul(2)).is_some() {
            hi *= 2;
        }
        lo = hi;
        let mut top = hi.saturating_mul(2);
        while top - lo > 1 {
            let mid = lo + (top - lo) / 2;
            if at(mid).is_some() {
                lo = mid;
            } else {
                top = mid;
            }
        }
        all.push(Edge {
            request: at(lo).expect("admitted"),
            name: s.name,
            field: s.field,
            value: lo,
        });
    }
    all
}
