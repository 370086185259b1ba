//! The subtraction commands through the CLI: tables, periods, scans that resume, the
//! conjectures' verdicts, plots, and their bad input.

use crate::common::{fails, json, lastbite};

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
    // A repeated record (two runs' copies joined) is kept once; a file of another scan
    // (triples) is refused, not resumed into a mix of both.
    let twice = std::fs::read_to_string(&out).unwrap() + &lines[5] + "\n";
    std::fs::write(&out, twice).unwrap();
    let scan = |family: &[&str]| {
        lastbite()
            .args(["subtraction", "scan"])
            .args(family)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    let again = scan(&["--pairs", "12"]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 66);
    let foreign = scan(&["--triples", "6"]);
    let err = String::from_utf8_lossy(&foreign.stderr);
    assert!(!foreign.status.success(), "{err}");
    assert!(err.contains("another scan's file"), "{err}");
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
    let edited = scan(&["--pairs", "12"]);
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
