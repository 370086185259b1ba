//! The cookie commands through the CLI: analyses, tables, play, and their bad input.

use crate::common::{fails, json, lastbite};

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
        &[
            "cookie",
            "general",
            "--max-size",
            "20",
            "--memory-gib",
            "1",
            "--max-seconds",
            "100000",
        ],
        "over the budget",
    );
}
