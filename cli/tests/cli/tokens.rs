//! The Token Dollars commands through the CLI: the JSON contract, tie rules, bad input.

use crate::common::{fails, json};

#[test]
fn tokens_json_contract() {
    let v = json(&["tokens", "--stacks", "10", "--players", "3"]);
    assert_eq!(v["moves"], serde_json::json!([5, 9, 8]));
    assert_eq!(v["payoffs"], serde_json::json!([21, 19, 15]));
    let five = json(&["tokens", "--players", "5"]);
    assert_eq!(five["payoffs"][0], "25/2");
    let all = json(&["tokens", "--players", "4", "--ties", "all"]);
    let firsts: Vec<serde_json::Value> = all["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o[0].clone())
        .collect();
    assert_eq!(
        firsts,
        vec![
            serde_json::json!(15),
            serde_json::json!(17),
            serde_json::json!(18)
        ]
    );
    assert_eq!(all["moves"][0], 7);
    let clock = json(&["tokens", "--stacks", "12", "--players", "3", "--clock"]);
    assert_eq!(
        (clock["moves"][0].clone(), clock["payoffs"][0].clone()),
        (serde_json::json!(7), serde_json::json!("63/2"))
    );
    let seats = json(&["tokens", "seats", "--stacks", "10", "--max-players", "7"]);
    assert_eq!(seats["rows"].as_array().unwrap().len(), 7);
    assert_eq!(seats["rows"][6]["moves"][0], 10);
}

#[test]
fn tokens_bad_input() {
    fails(
        &["tokens", "--stacks", "3", "--players", "4"],
        "4 players cannot place tokens on 3 distinct stacks",
    );
    fails(&["tokens", "--stacks", "0"], "no stacks");
    fails(&["tokens", "--values", "1,x,3"], "stack value 2 ('x')");
    fails(
        &["tokens", "--values", "1,-2,3", "--players", "2"],
        "must not be negative",
    );
    fails(&["tokens", "--ties", "random"], "--ties random");
    fails(
        &["tokens", "seats", "--stacks", "5", "--max-players", "6"],
        "--max-players 6",
    );
}

#[test]
fn tokens_ties_and_grids() {
    let v = json(&["tokens", "--players", "7"]);
    // The reference program reports ties at these prefixes of the optimal game.
    assert_eq!(
        v["indifferent_after"],
        serde_json::json!([[10, 9], [10, 9, 3, 8]])
    );
    assert_eq!(v["ties"], "lowest");
    assert!(v.get("tie_rule").is_none());
    let c = json(&["tokens", "--on-grids", "--grid", "8"]);
    assert_eq!(c["on_grids"], true);
    assert!(c["see_also"].as_str().unwrap().contains("tokens anywhere"));
    // The older spelling names the same field.
    assert_eq!(json(&["tokens", "--continuous", "--grid", "8"]), c);
    assert_eq!(c["moves"][0], 5);
    assert_eq!(c["moves"][1], 9);
    assert_eq!(
        c["best_response_intervals"][2],
        serde_json::json!(["(7, 9)"])
    );
    assert_eq!(c["grids"].as_array().unwrap().len(), 4);
    assert_eq!(
        c["grids"][1]["best_responses"][2],
        serde_json::json!([["15/2", "17/2"]])
    );
    fails(&["tokens", "--on-grids", "--grid", "3"], "power of two");
}

/// `lastbite tokens solve` is the plain `lastbite tokens`, by the name the API, Python and
/// HTTP use.
#[test]
fn tokens_solve_is_the_plain_tokens_command() {
    let args = ["--values", "1,5,3,7", "--players", "2"];
    let plain = json(&[&["tokens"][..], &args[..]].concat());
    let named = json(&[&["tokens", "solve"][..], &args[..]].concat());
    assert_eq!(plain, named);
}
