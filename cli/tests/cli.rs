//! The CLI contract: JSON fields scripts depend on, file formats, and bad input (one line
//! on stderr, non-zero exit, never a panic).

mod common;

use common::{fails, json, lastbite};

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
    let v = common::json_exit(
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
    let out = common::lastbite()
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
fn subtraction_table_json_contract() {
    let v = json(&["subtraction", "table", "--set", "4,5,9", "--max-heap", "99"]);
    assert_eq!(v["set"], serde_json::json!([4, 5, 9]));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 100);
    // Table 3, heap 61: FvF (33,28) by 5 or 9; FvA (32,29) by 4.
    assert_eq!(
        rows[61]["FvF"],
        serde_json::json!({"outcome": [33, 28], "moves": [5, 9]})
    );
    assert_eq!(
        rows[61]["FvA"],
        serde_json::json!({"outcome": [32, 29], "moves": [4]})
    );
    assert!(rows[61]["zero_sum"].is_i64());
    let out = lastbite()
        .args([
            "subtraction",
            "table",
            "--set",
            "3,5",
            "--max-heap",
            "15",
            "--csv",
        ])
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.lines().nth(15).unwrap().starts_with("14,8,6,"));
}

#[test]
fn subtraction_outcome_beyond_64_bits() {
    let v = json(&[
        "subtraction",
        "outcome",
        "--set",
        "3,5",
        "--heap",
        "14",
        "--convention",
        "AvA",
    ]);
    assert_eq!(v["outcome"], serde_json::json!([8, 5]));
    assert_eq!(v["derivation"]["method"], "direct");
    let big = json(&[
        "subtraction",
        "outcome",
        "--set",
        "4,5,9",
        "--heap",
        "100000000000000000000000",
        "--convention",
        "FvA",
    ]);
    assert_eq!(big["derivation"]["method"], "periodic");
    let total: u128 = big["outcome"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.to_string().parse::<u128>().unwrap())
        .sum();
    assert!(total <= 100_000_000_000_000_000_000_000 && total > 99_999_999_999_999_999_999_900);
}

#[test]
fn subtraction_period_and_discrepancies() {
    let v = json(&["subtraction", "period", "--set", "3,5"]);
    assert_eq!(
        (v["period"].as_u64(), v["increment"].as_u64()),
        (Some(10), Some(5))
    );
    assert_eq!(v["first_discrepancy"]["FvF_AvA"], 14);
    assert_eq!(
        v["first_discrepancy"]["AvA_zero_sum"],
        serde_json::Value::Null
    );
}

#[test]
fn subtraction_bad_input() {
    fails(
        &["subtraction", "table", "--set", "3,0"],
        "'0' is not a positive integer",
    );
    fails(
        &["subtraction", "table", "--set", "3,-1"],
        "'-1' is not a positive integer",
    );
    fails(
        &["subtraction", "table", "--set", "2.5"],
        "'2.5' is not a positive integer",
    );
    fails(&["subtraction", "table", "--set", ""], "empty");
    // The docs say the elements are distinct: a set that repeats one is refused, not merged.
    fails(
        &["subtraction", "outcome", "--set", "3,5,3", "--heap", "10"],
        "subtraction set element 3 is written twice",
    );
    fails(
        &["subtraction", "outcome", "--set", "3,5", "--heap=-4"],
        "heap '-4'",
    );
    fails(
        &[
            "subtraction",
            "outcome",
            "--set",
            "3,5",
            "--heap",
            "1",
            "--convention",
            "XvY",
        ],
        "possible values: FvF, FvA, AvF, AvA",
    );
    fails(
        &[
            "subtraction",
            "table",
            "--set",
            "3,5",
            "--max-heap",
            "900000000000",
        ],
        "--memory-gib",
    );
}

#[test]
fn subtraction_scan_resumes_without_losing_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pairs.jsonl");
    // A torn last line, as a killed run could leave.
    let sealed = lastbite::files::seal_json("{\"set\":[1,2],\"preperiod\":0}".into());
    std::fs::write(&out, format!("{sealed}\n{{\"set\":[1,")).unwrap();
    let run = lastbite()
        .args([
            "subtraction",
            "scan",
            "--pairs",
            "12",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 66); // C(12, 2), {1,2} kept from before
    for l in &lines {
        let _: serde_json::Value = serde_json::from_str(l).expect("every line is JSON");
    }
    let again = lastbite()
        .args([
            "subtraction",
            "scan",
            "--pairs",
            "12",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 rulesets analysed, 66 already done"));
    let record = lines
        .iter()
        .find(|l| l.starts_with("{\"set\":[3,5]"))
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(record).unwrap();
    assert_eq!(v["first_FvF_AvA"], 14);
    assert_eq!(v["period"], 10);
    assert!(v["checksum"].as_str().unwrap().starts_with("crc32:"));
    // A record edited since (its period) is refused naming its line, never taken as done.
    let text = std::fs::read_to_string(&out).unwrap();
    let line = lines.iter().position(|l| l == record).unwrap() + 1;
    std::fs::write(
        &out,
        text.replace(record, &record.replace("\"period\":10", "\"period\":11")),
    )
    .unwrap();
    let edited = lastbite()
        .args(["subtraction", "scan", "--pairs", "12", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&edited.stderr);
    assert_eq!(edited.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "line {line} fails its check: its content does not match its checksum"
        )),
        "{err}"
    );
}

#[test]
fn subtraction_conjectures_have_verdicts() {
    let v = json(&["subtraction", "conjecture", "12", "--max", "20"]);
    assert_eq!(v["verdict"], "holds");
    assert_eq!(v["counterexample"], serde_json::Value::Null);
    assert_eq!(v["rulesets"], 190);
    let t = json(&[
        "subtraction",
        "conjecture",
        "16",
        "--sizes",
        "3",
        "--max",
        "12",
    ]);
    assert_eq!(t["verdict"], "holds");
    fails(&["subtraction", "conjecture", "99"], "unknown statement");
}

/// `subtraction problems` is the library's report, and its Problem 4 list on pairs is
/// exactly the paper's picture (dominant regime and Conjecture 11's half-lines).
#[test]
fn subtraction_problems_reports_the_library_answer() {
    use lastbite::api::{subtraction, Control};
    let v = json(&["subtraction", "problems", "--sizes", "2,3", "--max", "14"]);
    let req: subtraction::ProblemsRequest =
        serde_json::from_str(r#"{"sizes": [2, 3], "max": 14}"#).unwrap();
    let lib = subtraction::problems(&req, &Control::silent()).unwrap();
    assert_eq!(v, serde_json::to_value(&lib).unwrap());
    let pairs = &v["zero_shape"][0];
    assert_eq!(pairs["size"], 2);
    assert_eq!(pairs["other"], 0);
    assert_eq!(
        v["by_max"][3]["largest_at"]["set"],
        serde_json::json!([3, 5])
    );
    assert_eq!(v["by_max"][3]["largest_at"]["heap"], 14);
    fails(&["subtraction", "problems", "--sizes", "2,2"], "each once");
}

#[test]
fn subtraction_plots() {
    let dir = tempfile::tempdir().unwrap();
    let f1 = dir.path().join("f1.svg");
    let v = json(&[
        "subtraction",
        "plot",
        "figure1",
        "--max",
        "20",
        "--svg",
        f1.to_str().unwrap(),
    ]);
    assert!(v["pairs"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!([3, 5])));
    assert!(std::fs::read_to_string(&f1).unwrap().contains("Figure 1"));
    let h = json(&[
        "subtraction",
        "plot",
        "heatmap",
        "--set",
        "4,5,9",
        "--max-heap",
        "70",
    ]);
    assert_eq!(h["rows"][1]["values"][61], 1);
    fails(&["subtraction", "plot", "heatmap"], "--set");
}

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
fn tokens_ties_and_continuous() {
    let v = json(&["tokens", "--players", "7"]);
    // The reference program reports ties at these prefixes of the optimal game.
    assert_eq!(v["ties"], serde_json::json!([[10, 9], [10, 9, 3, 8]]));
    assert_eq!(v["tie_rule"], "lowest");
    let c = json(&["tokens", "--continuous", "--grid", "8"]);
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
    fails(&["tokens", "--continuous", "--grid", "3"], "power of two");
}

#[test]
fn cookie_analyze_and_critical() {
    let v = json(&["cookie", "analyze", "0", "1", "1", "3", "4", "5", "8", "8"]);
    assert_eq!(v["reduced"], serde_json::json!([1, 3, 4, 5, 6, 6]));
    assert_eq!(
        (v["d_value"].as_u64(), v["type"].as_str()),
        (Some(5), Some("N"))
    );
    assert_eq!(v["strict"], true);
    assert_eq!(v["remoteness"], 5);
    assert_eq!(v["suspense"], 5);
    let nim = json(&["cookie", "analyze", "2", "3", "4", "4"]);
    assert_eq!(nim["grundy"], 3);
    let big: Vec<String> = (1..=60).map(|i| i.to_string()).collect();
    let mut args = vec!["cookie", "analyze"];
    args.extend(big.iter().map(String::as_str));
    let t = json(&args);
    assert_eq!(t["d_value"], 40); // ceil((2*60 - 1)/3)
    assert_eq!(t["grundy"], serde_json::Value::Null);
    assert_eq!(t["computed_by"], "theory");
    assert_eq!(
        (t["remoteness"].as_u64(), t["suspense"].as_u64()),
        (Some(40), Some(40))
    );
    assert!(t["absent_because"].as_str().unwrap().contains("24"));
    assert_eq!(v["winning_moves"], serde_json::json!([1, 3, 4]));
    assert_eq!(v["winning_interval"], serde_json::json!([1, 3]));
    assert_eq!(v["rule"]["rule"], 1);
    // 10^5 components from a file: the theory answers, winning moves included.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stair.txt");
    let stair: Vec<String> = (1..=100_000).map(|i| i.to_string()).collect();
    std::fs::write(&file, stair.join("\n")).unwrap();
    let s = json(&["cookie", "analyze", "--from", file.to_str().unwrap()]);
    assert_eq!(s["d_value"], 66_667);
    assert_eq!(s["type"], "N");
    assert_eq!(s["winning_interval"], serde_json::json!([1, 66_666]));
    assert_eq!(s["winning_moves"].as_array().unwrap().len(), 66_666);
    std::fs::write(&file, "3 x 4").unwrap();
    fails(
        &["cookie", "analyze", "--from", file.to_str().unwrap()],
        "component 2 ('x')",
    );
    let missing = dir.path().join("missing.txt");
    fails(
        &["cookie", "analyze", "--from", missing.to_str().unwrap()],
        "missing.txt",
    );
    let mut huge: Vec<String> = vec!["2".into(), "2".into()];
    huge.extend((0..30).map(|_| "40".to_string()));
    let mut args = vec!["cookie", "analyze"];
    args.extend(huge.iter().map(String::as_str));
    fails(&args, "neither the theory nor the brute force");
    let c = json(&["cookie", "critical", "--max-size", "9"]);
    assert_eq!(c["critical"].as_array().unwrap().len(), 24);
    fails(&["cookie", "analyze", "1", "-2", "3"], "component 2 ('-2')");
    fails(&["cookie", "analyze", "1.5"], "not a non-negative integer");
}

#[test]
fn cookie_count_table() {
    let v = json(&["cookie", "table", "--max-size", "16"]);
    let counts = v["counts"].as_array().unwrap();
    let at = |n: u64, d: u64| {
        counts
            .iter()
            .find(|c| c["n"] == n && c["d"] == d)
            .map(|c| c["count"].as_u64().unwrap())
    };
    assert_eq!(at(16, 15), Some(16445));
    assert_eq!(at(16, 16), Some(6435)); // the entry the paper's extraction lost
    let row16: u64 = counts
        .iter()
        .filter(|c| c["n"] == 16)
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(row16, 1 << 15);
    fails(
        &["cookie", "table", "--max-size", "1001"],
        "--max-size 1001",
    );
    fails(
        &["cookie", "table", "--max-size", "40", "--enumerate"],
        "enumeration",
    );
    // Lattice paths to n = 200: exact integers beyond 64 bits, rows summing to 2^(n-1).
    let out = lastbite()
        .args(["cookie", "table", "--max-size", "200", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // T(200, 200) = C(199, 100), written out digit for digit.
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cell = doc["counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["n"] == 200 && c["d"] == 200)
        .unwrap();
    assert_eq!(
        cell["count"].to_string(),
        "45274257328051640582702088538742081937252294837706668420660"
    );
    let e = json(&["cookie", "table", "--max-size", "12", "--enumerate"]);
    let p = json(&["cookie", "table", "--max-size", "12"]);
    assert_eq!(e, p);
}

#[test]
fn cookie_play_against_the_favoured_player() {
    let out = lastbite()
        .args(["cookie", "play", "1", "2", "3"])
        .write_stdin("x\n9\n3\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("'x' is not a size"), "{text}");
    assert!(text.contains("no edible cookie of size 9"), "{text}");
    assert!(text.contains("I eat 1: (0), D = 0"), "{text}");
    assert!(text.contains("I win."), "{text}");
    let out = lastbite()
        .args(["cookie", "play", "1", "2", "3"])
        .write_stdin("")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("input ended"));
}

#[test]
fn cookie_nim_distribution() {
    let v = json(&["cookie", "nim", "--max-size", "10"]);
    assert_eq!(v["largest_nim_value"], 3);
    let row4: Vec<(u64, u64)> = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["n"] == 4)
        .map(|c| (c["nim"].as_u64().unwrap(), c["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(row4.iter().map(|r| r.1).sum::<u64>(), 8);
    assert!(row4.iter().any(|&(g, _)| g == 3)); // (2, 3, 4, 4)
    fails(
        &["cookie", "nim", "--max-size", "21", "--engine"],
        "--max-size 21",
    );
    fails(
        &[
            "cookie",
            "nim",
            "--max-size",
            "36",
            "--max-seconds",
            "100000",
        ],
        "over the budget",
    );
    let e = json(&["cookie", "nim", "--max-size", "12", "--engine"]);
    let t = json(&["cookie", "nim", "--max-size", "12"]);
    assert_eq!(e, t);
}

#[test]
fn cookie_general_table() {
    let v = json(&["cookie", "general", "--max-size", "11"]);
    // The front end prints the library's own report.
    let req = lastbite::api::cookie::GeneralRequest {
        max_size: 11,
        ..Default::default()
    };
    let lib = lastbite::api::cookie::general(&req, &lastbite::api::Control::silent()).unwrap();
    assert_eq!(v, serde_json::to_value(&lib).unwrap());
    let rows = v["rows"].as_array().unwrap();
    let catalan = [1u64, 2, 5, 14, 42, 132, 429, 1430, 4862, 16796, 58786];
    for (row, want) in rows.iter().zip(catalan) {
        assert_eq!(row["positions"], want);
        let by_nim: u64 = row["nim"]
            .as_object()
            .unwrap()
            .values()
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert_eq!(by_nim, want);
        assert_eq!(row["nim"]["0"].as_u64().unwrap_or(0), row["p_positions"]);
    }
    // Stored layers resume to the same report.
    let dir = std::env::temp_dir().join(format!("lastbite-cli-general-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    json(&["cookie", "general", "--max-size", "9", "--store", d]);
    assert_eq!(
        json(&["cookie", "general", "--max-size", "11", "--store", d]),
        v
    );
    std::fs::remove_dir_all(&dir).unwrap();
    fails(&["cookie", "general", "--max-size", "0"], "--max-size 0");
    fails(&["cookie", "general", "--max-size", "21"], "--max-size 21");
    fails(
        &["cookie", "general", "--max-size", "20", "--memory-gib", "1"],
        "over the budget",
    );
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

/// Usage errors stay on one line with their useful part: the missing argument, the valid
/// values, the similar flag, the companion flag.
#[test]
fn usage_errors_name_what_is_missing_or_wrong() {
    for (args, needles) in [
        (
            &["subtraction", "outcome", "--set", "4,5,9"][..],
            &["--heap"][..],
        ),
        (&["efg", "verify", "x.efg"], &["--profile"]),
        (&["cookie", "analyze"], &["<COMPONENTS>"]),
        (&["tokens", "--grid", "16"], &["--continuous"]),
        (
            &["dinner", "solve", "--method", "exactt", "--morsels", "1,2"],
            &["possible values: auto, crossout, exact", "'exact'"],
        ),
        (
            &["dinner", "solve", "--morsel", "1,2"],
            &["tip: a similar argument exists: '--morsels'"],
        ),
    ] {
        let out = lastbite().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.ends_with("(see --help)\n"), "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
        }
    }
}

/// One vocabulary, old spellings kept: each alias gives the same report as the spelling
/// the docs use.
#[test]
fn vocabulary_aliases_give_the_same_reports() {
    let same = |old: &[&str], new: &[&str]| assert_eq!(json(old), json(new), "{old:?} vs {new:?}");
    // Sizes: --max-size everywhere a command goes up to a size (cookie's older --max-n).
    same(
        &["cookie", "critical", "--max-n", "5"],
        &["cookie", "critical", "--max-size", "5"],
    );
    same(
        &["cookie", "table", "--max-n", "12"],
        &["cookie", "table", "--max-size", "12"],
    );
    // All outcomes: --all everywhere (tokens' older --ties all), with the lowest rule.
    let new = json(&["tokens", "--players", "4", "--all"]);
    let old = json(&["tokens", "--players", "4", "--ties", "all"]);
    assert_eq!(new["outcomes"], old["outcomes"]);
    assert_eq!(new["moves"], old["moves"]);
    assert_eq!(new["outcomes"].as_array().unwrap().len(), 3);
    // Tie rules by move order: tokens' lowest/highest are first/last, as in efg and Python.
    let mut first = json(&["tokens", "--ties", "first"]);
    first["tie_rule"] = "lowest".into();
    assert_eq!(first, json(&["tokens", "--ties", "lowest"]));
    let mut last = json(&["tokens", "--ties", "last", "--stacks", "8"]);
    last["tie_rule"] = "highest".into();
    assert_eq!(
        last,
        json(&["tokens", "--ties", "highest", "--stacks", "8"])
    );
    // A state to explain implies the explanation, in every family.
    let d = [
        "dinner",
        "solve",
        "--morsels",
        "1,2 2,3 3,1",
        "--order",
        "ABA",
    ];
    same(
        &[&d[..], &["--at", "0"]].concat(),
        &[&d[..], &["--explain", "--at", "0"]].concat(),
    );
    let entry = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/efg/entry.efg");
    same(
        &["efg", "solve", entry, "--at", "2"],
        &["efg", "solve", entry, "--explain", "--at", "2"],
    );
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

/// Off loopback the server makes a token and prints it in the page's URL; on loopback it
/// needs none.
#[test]
fn serve_off_loopback_prints_a_token() {
    use std::io::{BufRead, BufReader};
    for (host, token) in [("0.0.0.0", true), ("127.0.0.1", false)] {
        let mut child = common::lastbite_std()
            .args(["serve", "--host", host, "--port", "0"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        let url = line.split_whitespace().nth(3).unwrap_or_default();
        match url.split_once("/?token=") {
            Some((_, t)) => {
                assert!(token, "{line}");
                assert!(
                    t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()),
                    "{line}"
                );
            }
            None => assert!(!token && url.ends_with('/'), "{line}"),
        }
    }
    fails(
        &["serve", "--token", "a b"],
        "--token must be printable ASCII",
    );
}

/// `--json` read through a pipe is one compact line; `--pretty` breaks it over lines; the
/// document is the same either way.
#[test]
fn json_is_compact_through_a_pipe_and_pretty_on_request() {
    let args = ["dinner", "solve", "--morsels", "1,2 2,3 3,1 4,4", "--json"];
    let compact = lastbite().args(args).output().unwrap();
    let pretty = lastbite().args(args).arg("--pretty").output().unwrap();
    assert!(compact.status.success() && pretty.status.success());
    let (c, p) = (
        String::from_utf8(compact.stdout).unwrap(),
        String::from_utf8(pretty.stdout).unwrap(),
    );
    assert_eq!(c.lines().count(), 1, "{c}");
    assert!(p.lines().count() > 5, "{p}");
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&c).unwrap(),
        serde_json::from_str(&p).unwrap(),
    );
    assert_eq!(a, b);
}

/// A reader that stops early (`| head`) ends the command quietly with exit 0, in JSON
/// (compact and pretty) and in text, whether the pipe closes inside a chunk of the
/// document or between chunks.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.csv");
    let mut f = std::fs::File::create(&path).unwrap();
    for i in 0..200_000u64 {
        writeln!(f, "{},{}", i * 7919 % 100_003, i * 104_729 % 99_991).unwrap();
    }
    drop(f);
    let file = path.to_str().unwrap();
    for extra in [&["--json"][..], &["--json", "--pretty"], &[]] {
        let mut child = common::lastbite_std()
            .args(["dinner", "solve", file])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The reader is gone: the rest of the document meets a closed pipe.
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{extra:?}: {:?}", out.status);
        assert!(
            out.stderr.is_empty(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A small sweep, up to its `--shard` flag.
const SMALL_SWEEP: [&str; 7] = [
    "dinner",
    "experiment",
    "--size",
    "4",
    "--trials",
    "4",
    "--shard",
];

/// A full stdout is an error naming stdout, exit 1, whatever writes there: a report, a
/// shard document, a picture, a merged sweep, a completion script.
#[test]
fn a_full_stdout_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let shard = dir.path().join("1.json");
    let sweep = SMALL_SWEEP;
    let out = common::lastbite_std()
        .args(sweep)
        .args(["1/1", "--shard-out"])
        .arg(&shard)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shard = shard.to_str().unwrap();
    for args in [
        &["dinner", "solve", "--morsels", "1,2 2,3 3,1"][..],
        &["dinner", "solve", "--morsels", "1,2 2,3 3,1", "--json"],
        &[&sweep[..], &["1/2"]].concat(),
        &["dinner", "board", "--morsels", "1,2 2,3", "--svg", "-"],
        &["merge", shard],
        &["completions", "bash"],
        &["man"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = common::lastbite_std()
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("cannot write to stdout"), "{args:?}: {err}");
    }
}

/// Seams a new user met (issue "every command on every surface"), through the CLI: each
/// checked against what the library computes.
#[test]
fn every_table_prints_as_latex_and_pictures_go_to_files_or_stdout() {
    // --latex where a paper writer wants it first: dinner solve, efg solve, picking.
    for args in [
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3 3,1",
            "--order",
            "ABA",
        ][..],
        &["efg", "solve", "../examples/efg/ultimatum.efg"],
        &[
            "dinner",
            "sincere",
            "--morsels",
            "3,1 2,2 0,3 1,0",
            "--order",
            "ABAB",
            "--compare",
        ],
        &[
            "dinner",
            "manipulate",
            "--morsels",
            "3,1 2,2 0,3 1,0",
            "--order",
            "ABAB",
            "--agent",
            "B",
        ],
        &[
            "dinner",
            "fairness",
            "--morsels",
            "3,1 2,2 0,3 1,0",
            "--order",
            "ABAB",
        ],
        &["dinner", "expected", "--size", "6"],
        &["dinner", "best-order", "--size", "6"],
    ] {
        let out = lastbite().args(args).arg("--latex").output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let tex = String::from_utf8(out.stdout).unwrap();
        assert!(tex.contains("\\begin{tabular}"), "{args:?}: {tex}");
        let out = lastbite()
            .args(args)
            .args(["--latex", "--standalone"])
            .output()
            .unwrap();
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .contains("\\documentclass"));
    }
    // The scores in the table are the report's.
    let doc = json(&[
        "dinner",
        "solve",
        "--morsels",
        "1,2 2,3 3,1",
        "--order",
        "ABA",
    ]);
    let tex = lastbite()
        .args([
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3 3,1",
            "--order",
            "ABA",
            "--latex",
        ])
        .output()
        .unwrap()
        .stdout;
    let tex = String::from_utf8(tex).unwrap();
    for (p, s) in ["A", "B"].iter().zip(doc["scores"].as_array().unwrap()) {
        assert!(tex.contains(&format!("{p} & ${s}$")), "{tex}");
    }
    // -o writes what stdout would have shown; a picture goes to a file or, with -, stdout.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solve.json");
    let args = [
        "dinner",
        "solve",
        "--morsels",
        "1,2 2,3 3,1",
        "--json",
        "-o",
    ];
    let out = lastbite().args(args).arg(&file).output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty());
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        written,
        json(&["dinner", "solve", "--morsels", "1,2 2,3 3,1"])
    );
    let out = lastbite()
        .args(["dinner", "board", "--morsels", "1,2 2,3 3,1", "--svg", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("<svg"));
    // --tikz FILE --standalone is the complete document --tikz-standalone FILE writes.
    let (a, b) = (dir.path().join("a.tex"), dir.path().join("b.tex"));
    let board = ["dinner", "board", "--morsels", "1,2 2,3 3,1"];
    assert!(lastbite()
        .args(board)
        .arg("--tikz")
        .arg(&a)
        .arg("--standalone")
        .output()
        .unwrap()
        .status
        .success());
    assert!(lastbite()
        .args(board)
        .arg("--tikz-standalone")
        .arg(&b)
        .output()
        .unwrap()
        .status
        .success());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// One vocabulary and the library's errors: players as letters, negative utilities
/// inline, budgets on the sizes that grow the work, malformed values named by field.
#[test]
fn the_vocabulary_and_the_errors_are_the_librarys() {
    let same = |a: &[&str], b: &[&str]| assert_eq!(json(a), json(b), "{a:?} vs {b:?}");
    same(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3 3,1",
            "--first",
            "A",
        ],
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3 3,1",
            "--first",
            "alice",
        ],
    );
    same(
        &[
            "dinner",
            "solve",
            "--morsels",
            "1,2 2,3 3,1",
            "--first",
            "B",
        ],
        &["dinner", "solve", "--morsels", "1,2 2,3 3,1"],
    );
    // A negative utility first is a value, not a flag.
    let doc = json(&["dinner", "solve", "--morsels", "-1,2 2,3 3,1"]);
    assert_eq!(doc["morsels"], 3);
    // dinner expected refuses a size over its budget before any work, naming the flag.
    fails(&["dinner", "expected", "--items", "300"], "--max-items");
    let t = std::time::Instant::now();
    let out = lastbite()
        .args(["dinner", "expected", "--items", "300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(t.elapsed().as_secs() < 5, "refused before the work");
    // A value of the wrong shape in a field: the field as a flag, the value, the forms.
    fails(
        &["dinner", "solve", "--morsels", "1,2", "--discount", "abc"],
        "--discount: 'abc' is not a number",
    );
}

/// Every file the CLI writes goes through one writer: a device is
/// written through and never replaced (a full one is an error naming it, exit 1), a
/// symbolic link stays a link, and a new or regular file is replaced whole with no
/// temporary left behind.
#[test]
fn every_output_file_is_written_through_one_writer() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let shard = [&SMALL_SWEEP[..], &["1/2", "--shard-out"]].concat();
    let writers: [&[&str]; 6] = [
        &["dinner", "solve", "--morsels", "1,2 2,3 3,1", "-o"],
        &["dinner", "efg", "--morsels", "1,2 2,3", "-o"],
        &["dinner", "board", "--morsels", "1,2 2,3", "--svg"],
        &["dinner", "board", "--morsels", "1,2 2,3", "--tikz"],
        &shard,
        &["subtraction", "scan", "--pairs", "5", "--out"],
    ];
    for (i, args) in writers.iter().enumerate() {
        let out = common::lastbite_std()
            .args(*args)
            .arg("/dev/full")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("/dev/full"), "{args:?}: {err}");
        assert!(
            std::fs::metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device(),
            "{args:?} replaced /dev/full"
        );
        // Through a link: the link stays, the file it names gets the output.
        let target = dir.path().join(format!("target-{i}.out"));
        std::fs::write(&target, "old\n").unwrap();
        let link = dir.path().join(format!("link-{i}.out"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = common::lastbite_std()
            .args(*args)
            .arg(&link)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if args[1] == "scan" {
            // A scan appends to its file and checks what is there: "old" is no record.
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.contains("line 1"), "{err}");
        } else {
            assert!(out.status.success(), "{args:?}: {err}");
            assert_ne!(
                std::fs::read_to_string(&target).unwrap(),
                "old\n",
                "{args:?}"
            );
        }
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The manual page (`lastbite man`) is roff built from the same command tree as
/// `--help`: every family and the other commands are in it, and groff reads it without
/// a warning when it is installed.
#[test]
fn the_manual_page_lists_every_command() {
    let out = lastbite().arg("man").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.contains(".TH lastbite 1"),
        "{}",
        &page[..page.len().min(300)]
    );
    for command in [
        "reproduce",
        "dinner",
        "subtraction",
        "tokens",
        "cookie",
        "efg",
        "serve",
        "merge",
        "completions",
    ] {
        assert!(
            page.contains(command),
            "{command} is not in the manual page"
        );
    }
    if let Ok(groff) = std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        let mut groff = groff;
        groff
            .stdin
            .take()
            .unwrap()
            .write_all(page.as_bytes())
            .unwrap();
        let done = groff.wait_with_output().unwrap();
        assert!(done.status.success());
        assert_eq!(
            String::from_utf8_lossy(&done.stderr),
            "",
            "groff's warnings"
        );
    }
}

/// `--estimate` prints the cost model's estimate without running (the library's own),
/// and a request over `--max-seconds` is refused at once with the estimate, naming the
/// flag, exit 2; raising the flag as the message says admits it.
#[test]
fn estimates_and_the_work_budget() {
    let e = json(&["dinner", "best-order", "--size", "24", "--estimate"]);
    let want = lastbite::api::estimate("dinner-best-order", r#"{"size": 24}"#).unwrap();
    assert_eq!(e, serde_json::to_value(&want).unwrap());
    assert_eq!(e["admitted"], false);
    let text = lastbite()
        .args(["dinner", "best-order", "--size", "14", "--estimate"])
        .output()
        .unwrap();
    let line = String::from_utf8(text.stdout).unwrap();
    assert!(
        line.starts_with("dinner best-order: about ") && line.contains("within"),
        "{line}"
    );
    let started = std::time::Instant::now();
    let out = lastbite()
        .args(["dinner", "best-order", "--size", "24"])
        .output()
        .unwrap();
    assert!(started.elapsed().as_secs() < 5, "refused before the work");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("sequence steps) is over --max-seconds 60"),
        "{err}"
    );
    // Following the advice: a budget past the estimate admits it (estimated only here).
    let secs = (want.seconds.unwrap().ceil() as u64 + 1).to_string();
    let e = json(&[
        "dinner",
        "best-order",
        "--size",
        "24",
        "--max-seconds",
        &secs,
        "--estimate",
    ]);
    assert_eq!(e["admitted"], true);
}
