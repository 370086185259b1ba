//! Requests every endpoint answers, shared by the router tests and the load test.

#![allow(dead_code)]

pub mod http;

/// A cheap valid request for each command (`family-command`), as JSON.
pub fn samples() -> Vec<(&'static str, String)> {
    let efg = include_str!("../../../examples/efg/entry.efg");
    let efg = serde_json::to_string(efg).unwrap();
    vec![
        (
            "dinner-solve",
            r#"{"morsels":"1,2 2,3 3,1","order":"ABA"}"#.into(),
        ),
        (
            "dinner-play",
            r#"{"morsels":"1,2 2,3 3,1","strategies":"greedy"}"#.into(),
        ),
        (
            "dinner-verify",
            r#"{"morsels":"1,2 2,3 3,1","strategies":"crossout"}"#.into(),
        ),
        ("dinner-efg", r#"{"morsels":"1,2 2,3"}"#.into()),
        (
            "dinner-discount",
            r#"{"morsels":"1,2 2,3 3,1","discount":"1/2"}"#.into(),
        ),
        ("dinner-pareto", r#"{"size":4}"#.into()),
        (
            "dinner-experiment",
            r#"{"size":6,"trials":20,"seed":1}"#.into(),
        ),
        ("dinner-attainable", r#"{"size":6}"#.into()),
        ("dinner-plot", r#"{"morsels":"1,6 2,14 3,10 4,3"}"#.into()),
        ("dinner-board", r#"{"morsels":"1,6 2,14 3,10 4,3"}"#.into()),
        (
            "dinner-balance",
            r#"{"max_size":4,"trials":10,"seed":1}"#.into(),
        ),
        ("dinner-multiplicity", r#"{"size":5,"trials":10}"#.into()),
        (
            "subtraction-table",
            r#"{"set":"4,5,9","max_heap":30}"#.into(),
        ),
        (
            "subtraction-outcome",
            r#"{"set":"4,5,9","heap":"1000000000000000000"}"#.into(),
        ),
        ("subtraction-period", r#"{"set":"4,5,9"}"#.into()),
        ("subtraction-scan", r#"{"size":2,"max":8}"#.into()),
        (
            "subtraction-conjecture",
            r#"{"statement":"4","sizes":[2],"max":8}"#.into(),
        ),
        ("subtraction-problems", r#"{"sizes":[2,3],"max":9}"#.into()),
        (
            "subtraction-plot",
            r#"{"set":"4,5,9","max_heap":50}"#.into(),
        ),
        ("tokens-solve", r#"{"values":"1,5,3,7","players":2}"#.into()),
        ("tokens-seats", r#"{"stacks":5,"max_players":3}"#.into()),
        ("cookie-analyze", r#"{"components":"3,1,4"}"#.into()),
        ("cookie-critical", r#"{"max_n":5}"#.into()),
        ("cookie-table", r#"{"max_n":8}"#.into()),
        ("cookie-nim", r#"{"max_n":8}"#.into()),
        ("cookie-general", r#"{"max_n":8}"#.into()),
        ("efg-info", format!(r#"{{"data":{efg}}}"#)),
        ("efg-solve", format!(r#"{{"data":{efg},"all":true}}"#)),
        (
            "efg-verify",
            format!(r#"{{"data":{efg},"profile":"NE,1,0,1,0"}}"#),
        ),
        ("efg-random", r#"{"nodes":20,"seed":1}"#.into()),
        ("reproduce", "{}".into()),
    ]
}
