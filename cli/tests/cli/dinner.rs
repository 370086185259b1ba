//! The dinner commands through the CLI: the JSON fields scripts depend on, file formats,
//! the analyses, and their bad input.

use crate::common::{fails, json, lastbite};

#[test]
fn solve_json_contract_on_the_introduction() {
    let v = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,2 2,3 3,1",
        "--first",
        "alice",
    ]);
    assert_eq!(v["scores"], serde_json::json!([5, 2]));
    assert_eq!(v["method"], "crossout");
    assert_eq!(v["turn_order"], "ABA");
    let eating = v["eating_order"].as_array().unwrap();
    assert_eq!(eating.len(), 3);
    assert_eq!(eating[0]["turn"], 1);
    assert_eq!(eating[0]["player"], "A");
    assert_eq!(eating[0]["morsel"], 1);
}

#[test]
fn exact_and_crossout_agree_through_the_cli() {
    let args = [
        "dinner",
        "solve",
        "--morsels",
        "1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7",
    ];
    let c = json(&args);
    let mut with_exact = args.to_vec();
    with_exact.extend(["--method", "exact"]);
    let e = json(&with_exact);
    assert_eq!(c["scores"], serde_json::json!([23, 22]));
    assert_eq!(c["scores"], e["scores"]);
    assert_eq!(e["method"], "exact");
    assert_eq!(e["states"], 256);
}

#[test]
fn exact_decimals_are_reported_as_fractions() {
    let v = json(&[
        "dinner",
        "solve",
        "--morsels",
        "2.5,1 1,0.1",
        "--first",
        "alice",
    ]);
    assert_eq!(v["scores"], serde_json::json!(["5/2", "1/10"]));
}

#[test]
fn file_formats() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.csv");
    std::fs::write(&csv, "alice,bob\n1,2\n2,3\n3,1\n").unwrap();
    let js = dir.path().join("d.json");
    std::fs::write(
        &js,
        r#"{"morsels": [[1, 2], [2, 3], [3, 1]], "order": "ABA"}"#,
    )
    .unwrap();
    let tm = dir.path().join("d.toml");
    std::fs::write(
        &tm,
        "order = \"ABA\"\nmorsels = [[1, 2], [2, 3], [3, \"1\"]]\n",
    )
    .unwrap();
    let a = json(&["dinner", "solve", csv.to_str().unwrap(), "--order", "ABA"]);
    let b = json(&["dinner", "solve", js.to_str().unwrap()]);
    let c = json(&["dinner", "solve", tm.to_str().unwrap()]);
    assert_eq!(a["scores"], serde_json::json!([5, 2]));
    assert_eq!(a, b);
    assert_eq!(b, c);
}

#[test]
fn three_player_snake_draft_is_solved_exactly() {
    let v = json(&[
        "dinner",
        "solve",
        "--morsels",
        "6,1,2 5,6,1 4,2,6 3,5,3 2,4,5 1,3,4",
        "--order",
        "ABCCBA",
    ]);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["scores"].as_array().unwrap().len(), 3);
    assert_eq!(v["eating_order"].as_array().unwrap().len(), 6);
}

#[test]
fn all_outcomes_and_explanation() {
    let v = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,5 1,3",
        "--first",
        "alice",
        "--method",
        "exact",
        "--all",
        "--explain",
    ]);
    assert_eq!(v["outcomes"], serde_json::json!([[1, 3], [1, 5]]));
    let moves = v["explanation"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["chosen"], true);
    assert_eq!(moves[1]["best_for_mover"], true);
    let friendly = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,5 1,3",
        "--first",
        "alice",
        "--ties",
        "friendly",
    ]);
    assert_eq!(friendly["scores"], serde_json::json!([1, 5]));
}

#[test]
fn verify_reports_a_counterexample() {
    let v = crate::common::json_exit(
        &[
            "dinner",
            "verify",
            "--morsels",
            "1,2 2,3 3,1",
            "--order",
            "ABA",
            "--strategies",
            "greedy",
        ],
        3,
    );
    assert_eq!(v["subgame_perfect"], false);
    assert_eq!(v["counterexample"]["better"], 1);
    assert_eq!(v["counterexample"]["gain"], 1);
    let ok = json(&[
        "dinner",
        "verify",
        "--morsels",
        "1,2 2,3 3,1",
        "--order",
        "ABA",
    ]);
    assert_eq!(ok["subgame_perfect"], true);
}

#[test]
fn play_evaluates_a_strategy_pair() {
    let v = json(&[
        "dinner",
        "play",
        "--morsels",
        "1,2 2,3 3,1",
        "--order",
        "ABA",
        "--strategies",
        "greedy,crossout",
    ]);
    assert_eq!(v["scores"], serde_json::json!([4, 3]));
}

#[test]
fn efg_export() {
    let out = lastbite()
        .args([
            "dinner",
            "efg",
            "--morsels",
            "1,2 2,3 3,1",
            "--order",
            "ABA",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("EFG 2 R "));
    assert_eq!(text.lines().filter(|l| l.starts_with("t ")).count(), 6);
    fails(
        &[
            "dinner",
            "efg",
            "--morsels",
            "1,1 2,2 3,3 4,4 5,5 6,6 7,7 8,8 9,9 10,10",
            "--max-nodes",
            "1000",
        ],
        "nodes",
    );
}

#[test]
fn bad_input_is_one_line_and_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let bad_number = write("n.csv", "1,2\n3,x\n");
    fails(
        &["dinner", "solve", &bad_number],
        "n.csv:2: column 2: 'x' is not a number",
    );
    let nan = write("nan.csv", "1,2\nNaN,4\n");
    fails(&["dinner", "solve", &nan], "'NaN' is not a number");
    let cols = write("c.csv", "1,2\n3,4,5\n");
    fails(&["dinner", "solve", &cols], "c.csv:2: 3 utilities");
    let empty = write("e.csv", "");
    fails(&["dinner", "solve", &empty], "no morsels");
    let bad_json = write("b.json", "{\"morsels\": [[1, 2], [3]]}");
    fails(&["dinner", "solve", &bad_json], "morsel 1: 1 utility,");
    let bad_toml = write("b.toml", "morsels = [[1, 2], [3, nan]]");
    fails(&["dinner", "solve", &bad_toml], "not a number");
    fails(
        &["dinner", "solve", "--morsels", "1,2 3,4", "--order", "ABX"],
        "'X' at position 3",
    );
    fails(
        &["dinner", "solve", "--morsels", "1,2 3,4", "--order", "ABA"],
        "has 3 turns",
    );
    // The dinner's own default is among the rules the error lists.
    fails(
        &["dinner", "solve", "--morsels", "1,2 3,4", "--ties", "fair"],
        "unknown tie-breaking rule 'fair' (expected index, friendly, antagonistic, first or last)",
    );
    // A first row holding a number in a form lastbite does not read is a row with an
    // error, not a header silently dropped; a word is a header.
    for (first, shown) in [
        ("1e5,1", "'1e5'"),
        ("1.5e3,2", "'1.5e3'"),
        ("0x10,1", "'0x10'"),
    ] {
        let f = write("h.csv", &format!("{first}\n2,3\n"));
        fails(
            &["dinner", "solve", &f],
            &format!("h.csv:1: column 1: {shown} is not a number"),
        );
    }
    let header = write("w.csv", "alice,bob\n1,2\n3,4\n");
    let v = json(&["dinner", "solve", &header]);
    assert_eq!(v["morsels"], 2, "{v}");
    // A huge value is quoted by its start and its length, not whole.
    let huge = write("huge.csv", &format!("1,2\n{},4\n", "7x".repeat(500_000)));
    let out = crate::common::lastbite()
        .args(["dinner", "solve", &huge])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.len() < 400,
        "{} bytes: {}",
        err.len(),
        &err[..400.min(err.len())]
    );
    assert!(err.contains("(1000000 characters)"), "{err}");
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2,3",
            "--method",
            "crossout",
        ],
        "two players",
    );
    fails(&["dinner", "solve", "--morsels", "inf,2"], "not a number");
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 3,4",
            "--method",
            "nope",
        ],
        "invalid value",
    );
    fails(&["dinner", "solve"], "no dinner given");
    fails(&["dinner", "solve", "/no/such/file.csv"], "cannot read");
}

#[test]
fn too_large_state_space_is_refused_with_its_size() {
    let morsels: Vec<String> = (1..=40).map(|i| format!("{i},{}", 41 - i)).collect();
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            &morsels.join(" "),
            "--method",
            "exact",
            // A work budget that admits it: the state budget refuses, with its size.
            "--max-seconds",
            "1000000000",
        ],
        "2^40 = 1099511627776 states",
    );
    let small: Vec<String> = (1..=12).map(|i| format!("{i},{i}")).collect();
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            &small.join(" "),
            "--method",
            "exact",
            "--max-states",
            "100",
        ],
        "2^12 = 4096 states",
    );
}

#[test]
fn pareto_sweep_finds_the_papers_two_dinners() {
    let v = json(&["dinner", "pareto", "--size", "6"]);
    let list = v["inefficient"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert!(list.contains(&serde_json::json!([
        [1, 5],
        [2, 1],
        [3, 2],
        [4, 3],
        [5, 4],
        [6, 6]
    ])));
    assert_eq!(v["weakly_inefficient"], serde_json::json!([]));
    let one = json(&["dinner", "pareto", "--morsels", "1,5 2,1 3,2 4,3 5,4 6,6"]);
    assert_eq!(one["pareto_efficient"], false);
    assert_eq!(one["weakly_pareto_efficient"], true);
}

#[test]
fn experiment_is_seeded_and_reproducible() {
    let args = [
        "dinner",
        "experiment",
        "--size",
        "10",
        "--trials",
        "300",
        "--seed",
        "4",
    ];
    let a = json(&args);
    let b = json(&args);
    assert_eq!(a, b);
    for key in [
        "inefficient",
        "weakly_inefficient",
        "max_improvement_percent",
    ] {
        assert!(a.get(key).is_some(), "missing {key}");
    }
    let c = json(&[
        "dinner",
        "experiment",
        "--size",
        "10",
        "--trials",
        "300",
        "--seed",
        "5",
    ]);
    assert_ne!(a["max_improvement_trial"], c["max_improvement_trial"]);
}

#[test]
fn attainable_counts() {
    let v = json(&["dinner", "attainable", "--size", "12"]);
    assert_eq!(
        (v["alice"].as_u64(), v["bob"].as_u64()),
        (Some(132), Some(429))
    );
    fails(&["dinner", "attainable", "--size", "7"], "even sizes");
}

#[test]
fn pictures_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("f1.svg");
    let png = dir.path().join("f1.png");
    let d = "1,6 2,14 3,10 4,3 5,7 6,5 7,9 8,8 9,4 10,13 11,12 12,11 13,2 14,1";
    let v = json(&[
        "dinner",
        "plot",
        "--morsels",
        d,
        "--svg",
        svg.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(v["crossout"].as_array().unwrap().len(), 2);
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("crossout (c, c)"));
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    let board = dir.path().join("b.svg");
    let b = json(&[
        "dinner",
        "board",
        "--morsels",
        "1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7",
        "--remove",
        "5",
        "--svg",
        board.to_str().unwrap(),
    ]);
    assert_eq!(
        b["crossout_sequence"],
        serde_json::json!([0, 4, 1, 5, 2, 3, 6, 7])
    );
    assert!(std::fs::read_to_string(&board).unwrap().contains("D - m"));
    fails(&["dinner", "plot", "--morsels", d], "--svg");
    let bal = json(&["dinner", "balance", "--max-size", "6", "--trials", "50"]);
    assert_eq!(bal["rows"].as_array().unwrap().len(), 6);
}

#[test]
fn variants_through_solve() {
    let v = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,2 2,3 3,1 4,4",
        "--before",
        "0<3,1<3",
    ]);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["eating_order"][3]["morsel"], 3);
    assert_eq!(v["rules"]["before"], serde_json::json!([[0, 3], [1, 3]]));
    let d = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,2 2,3 3,1 4,4",
        "--discount",
        "1/2",
    ]);
    assert_eq!(d["scores"], serde_json::json!(["19/8", "7/8"]));
    let args = [
        "dinner",
        "solve",
        "--morsels",
        "1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7",
        "--altruism",
        "1,1/2,1/2,1",
    ];
    let c = json(&args);
    let mut exact = args.to_vec();
    exact.extend(["--method", "exact"]);
    assert_eq!(c["scores"], json(&exact)["scores"]);
    assert_eq!(c["transformed"].as_array().unwrap().len(), 8);
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3",
            "--before",
            "0<1,1<0",
        ],
        "cycle",
    );
    fails(
        &["dinner", "solve", "--morsels", "1,2 2,3", "--before", "0<7"],
        "morsel 7 does not exist",
    );
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3",
            "--discount",
            "abc",
        ],
        "--discount",
    );
    fails(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3",
            "--discount",
            "1/2",
            "--method",
            "crossout",
        ],
        "crossout does not cover",
    );
}

#[test]
fn discount_check_and_search() {
    let v = json(&[
        "dinner",
        "discount",
        "--discount",
        "9/10",
        "--search",
        "--max-size",
        "5",
    ]);
    assert_eq!(v["found"], true);
    assert_eq!(v["dinner"].as_array().unwrap().len(), 3);
    assert_eq!(v["deviation"]["gain"], "171/1000");
    let c = json(&[
        "dinner",
        "discount",
        "--discount",
        "1",
        "--morsels",
        "1,8 2,3 3,6 4,4",
    ]);
    assert_eq!(c["crossout_is_spe"], true);
    assert_eq!(c["crossout_scores"], c["spe_scores"]);
}

#[test]
fn snake_and_repeated_orders() {
    let v = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,1,1 2,2,2 3,3,3 4,4,4 5,5,5 6,6,6 7,7,7",
        "--order",
        "snake",
    ]);
    assert_eq!(v["turn_order"], "ABCCBAA");
    let r = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,1 2,2 3,3 4,4 5,5",
        "--order",
        "ABB...",
    ]);
    assert_eq!(r["turn_order"], "ABBAB");
}

#[test]
fn dinner_multiplicity_sizes() {
    let v = json(&["dinner", "multiplicity", "--size", "6", "--trials", "30"]);
    let counted: u64 = v["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["dinners"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 30);
    fails(&["dinner", "multiplicity", "--size", "25"], "--size 25");
    fails(&["dinner", "multiplicity", "--players", "7"], "--players 7");
}
