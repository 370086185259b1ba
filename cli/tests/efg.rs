//! `lastbite efg`: Gambit files in, through the CLI as users run it: the JSON contract
//! (checked against the committed schemas and the library's own answer), tie rules,
//! profiles, and bad input (one line on stderr, non-zero exit, never a panic).

mod common;

use common::{fails, lastbite, validate};
use serde_json::{json, Value};

fn example(name: &str) -> String {
    format!("{}/../examples/efg/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The `--json` document, checked against its committed schema.
fn json(args: &[&str]) -> Value {
    json_exit(args, 0)
}

/// The same for a run that exits with `code` (3: a verify found no SPE).
fn json_exit(args: &[&str], code: i32) -> Value {
    let doc = common::json_exit(args, code);
    validate(args, &doc);
    doc
}

/// The document matches the committed schema of its command.

#[test]
fn solve_json_contract() {
    let entry = example("entry.efg");
    let r = json(&["efg", "solve", &entry]);
    assert_eq!(r["value"], json!([1, 1]));
    assert_eq!(r["players"], json!(["Entrant", "Incumbent"]));
    assert_eq!(r["behavior"], "NE,0,1,0,1");
    assert_eq!(r["profile"][1]["label"], "Accommodate");
    assert_eq!(r["node_values"].as_array().unwrap().len(), 5);
    assert_eq!(r["node_values"][2]["value"], json!([1, 1]));
    assert_eq!(r["node_values"][3]["value"], json!([-1, -1]));
    assert!(json(&["efg", "solve", &entry, "--root-only"])
        .get("node_values")
        .is_none());
}

#[test]
fn chance_values_are_exact_fractions() {
    let r = json(&["efg", "solve", &example("centipede.efg"), "--explain"]);
    assert_eq!(r["value"], json!([5, "17/10"]));
    let chance = &r["explanation"][0];
    assert_eq!(chance["kind"], "chance");
    assert_eq!(chance["actions"][0]["probability"], "9/10");
}

#[test]
fn tie_rules_decide_the_ultimatum_game() {
    let file = example("ultimatum.efg");
    // The responder is indifferent at an offer of 0.
    let by = |ties: &str| json(&["efg", "solve", &file, "--ties", ties])["value"].clone();
    assert_eq!(by("friendly"), json!([4, 0]));
    assert_eq!(by("antagonistic"), json!([3, 1]));
    assert_eq!(by("Responder=last"), json!([3, 1]));
    assert_eq!(by("2=first"), json!([4, 0]));
    let all = json(&["efg", "solve", &file, "--all"]);
    assert_eq!(all["outcomes"], json!([[3, 1], [4, 0]]));
    let e = json(&[
        "efg",
        "solve",
        &file,
        "--explain",
        "--at",
        "1",
        "--ties",
        "B=antagonistic",
    ]);
    assert_eq!(
        e["explanation"][0]["reason"],
        "own payoff tied; tie broken by 'antagonistic'"
    );
    assert_eq!(e["explanation"][0]["actions"][1]["chosen"], true);
}

#[test]
fn verify_finds_the_non_credible_threat() {
    let entry = example("entry.efg");
    let r = json_exit(&["efg", "verify", &entry, "--profile", "NE,1,0,1,0"], 3);
    assert_eq!(r["subgame_perfect"], false);
    assert_eq!(r["deviation"]["node"], 2);
    assert_eq!(r["deviation"]["better_label"], "Accommodate");
    assert_eq!(r["deviation"]["gain"], 2);
    assert_eq!(r["deviation"]["reached"], false);
    let ok = json(&["efg", "verify", &entry, "--profile", "0,1,0,1"]);
    assert_eq!(ok["subgame_perfect"], true);
    // Mixed profiles and profiles from a file (as Gambit's solvers print them).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("profile.txt");
    std::fs::write(&path, "NE,0,1,0,1\n").unwrap();
    let at = format!("@{}", path.display());
    assert_eq!(
        json(&["efg", "verify", &entry, "--profile", &at])["subgame_perfect"],
        true
    );
    let mixed = json_exit(&["efg", "verify", &entry, "--profile", "1/2,1/2,0,1"], 3);
    assert_eq!(mixed["subgame_perfect"], false);
    assert_eq!(mixed["deviation"]["gain"], "1/2");
}

#[test]
fn info_summarises() {
    let r = json(&["efg", "info", &example("centipede.efg")]);
    assert_eq!(r["nodes"], 17);
    assert_eq!(r["chance_nodes"], 1);
    assert_eq!(r["depth"], 5);
    assert_eq!(r["perfect_information"], true);
    // Alice: 2 x 2 on the selfish side and 2 x 2 on the altruist side; reduced: 3 x 3.
    assert_eq!(r["pure_strategies"], json!([16, 4]));
    assert_eq!(r["reduced_strategies"], json!([9, 3]));
}

#[test]
fn cli_equals_the_library_on_random_games() {
    use lastbite::api::{efg, Control};
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=12u64 {
        let path = dir.path().join(format!("g{seed}.efg"));
        let p = path.to_str().unwrap();
        let players = (1 + seed % 3).to_string();
        lastbite()
            .args(["efg", "random", "--nodes", "300", "--players", &players])
            .args(["--seed", &seed.to_string(), "-o", p])
            .assert()
            .success();
        let ties = ["friendly", "antagonistic", "first", "last"][seed as usize % 4];
        let cli = json(&["efg", "solve", p, "--ties", ties, "--all"]);
        let req = efg::SolveRequest {
            file: Some(p.into()),
            ties: ties.into(),
            all: true,
            ..Default::default()
        };
        let lib = serde_json::to_value(efg::solve(&req, &Control::silent()).unwrap()).unwrap();
        assert_eq!(cli, lib, "seed {seed}");
        // The equilibrium verifies, and is one of all SPE outcomes.
        let behavior = cli["behavior"].as_str().unwrap();
        assert_eq!(
            json(&["efg", "verify", p, "--profile", behavior])["subgame_perfect"],
            true
        );
        assert!(cli["outcomes"].as_array().unwrap().contains(&cli["value"]));
    }
}

#[test]
fn dinner_exports_solve_to_the_dinners_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.efg");
    let p = path.to_str().unwrap();
    let morsels = "1,8,2 2,3,3 3,6,1 4,4,5 5,1,4";
    lastbite()
        .args([
            "dinner",
            "efg",
            "--morsels",
            morsels,
            "--order",
            "ABCAB",
            "-o",
            p,
        ])
        .assert()
        .success();
    for ties in ["friendly", "antagonistic"] {
        let dinner = json_plain(&[
            "dinner",
            "solve",
            "--morsels",
            morsels,
            "--order",
            "ABCAB",
            "--method",
            "exact",
            "--ties",
            ties,
        ]);
        let efg = json(&["efg", "solve", p, "--ties", ties, "--root-only"]);
        assert_eq!(efg["value"], dinner["scores"], "{ties}");
    }
}

fn json_plain(args: &[&str]) -> Value {
    let out = lastbite().args(args).arg("--json").output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn bad_input_is_one_line_and_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let bad = write(
        "bad.efg",
        "EFG 2 R \"\" { \"A\" \"B\" }\np \"\" 1 1 \"\" { \"x\" } 1 \"\" { 1 }\nt \"\" 0\n",
    );
    fails(
        &["efg", "solve", &bad],
        "bad.efg, line 2, column 26: outcome 1 has 1 payoff but the game has 2 players",
    );
    let pennies = write(
        "pennies.efg",
        "EFG 2 R \"\" { \"A\" \"B\" }\np \"\" 1 1 \"\" { \"H\" \"T\" } 0\np \"\" 2 1 \"\" { \"h\" \"t\" } 0\nt \"\" 1 \"\" { 1, -1 }\nt \"\" 2 \"\" { -1, 1 }\np \"\" 2 1 \"\" { \"h\" \"t\" } 0\nt \"\" 2 \"\" { -1, 1 }\nt \"\" 1 \"\" { 1, -1 }\n",
    );
    fails(
        &["efg", "solve", &pennies],
        "information set 1 of player 'B' has 2 nodes (nodes 1, 4)",
    );
    assert_eq!(
        json(&["efg", "info", &pennies])["perfect_information"],
        false
    );
    let entry = example("entry.efg");
    fails(
        &["efg", "solve", &entry, "--max-nodes", "3"],
        "more than 3 nodes (the budget); the file was not read further (raise --max-nodes",
    );
    fails(
        &["efg", "solve", &entry, "--explain", "--at", "9"],
        "--at: node 9 is not in this game",
    );
    fails(&["efg", "solve", &entry, "--ties", "C=friendly"], "--ties");
    fails(
        &["efg", "solve", &entry, "--ties", "kind"],
        "unknown tie-breaking rule",
    );
    fails(
        &["efg", "verify", &entry, "--profile", "1,0,1"],
        "the profile has 3 entries but the game's players have 4 actions",
    );
    fails(
        &["efg", "verify", &entry, "--profile", "1,0,1/2,1/3"],
        "sum to 5/6, not 1",
    );
    fails(
        &["efg", "verify", &entry, "--profile", "1,0,x,1"],
        "profile entry 3",
    );
    fails(&["efg", "solve", "/nonexistent/game.efg"], "cannot read");
    let nfg = write(
        "g.nfg",
        "NFG 1 R \"\" { \"A\" \"B\" } { 2 2 }\n1 1 0 0 0 0 1 1\n",
    );
    fails(&["efg", "info", &nfg], "strategic-form (NFG)");
    let binary = write("bin.efg", "\u{0}\u{1}EFG");
    fails(&["efg", "solve", &binary], "line 1, column 1");
}
