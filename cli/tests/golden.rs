//! Every `--json` report equals the golden document recorded from the first release (see
//! `golden/README.md`): the CLI on the library API prints what it printed before.

use serde_json::Value;

mod common;

#[test]
fn json_reports_match_the_golden_documents() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let golden: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let args: Vec<String> = golden["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        let mut cmd = common::lastbite_std();
        cmd.args(&args);
        if golden.get("lines").is_none() {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        // A verify that finds no equilibrium prints its report and exits 3.
        let expected = if golden["output"]["subgame_perfect"] == false {
            3
        } else {
            0
        };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        match golden.get("lines") {
            Some(lines) => {
                let got: Vec<Value> = text
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                assert_eq!(&Value::Array(got), lines, "{args:?}");
            }
            None => {
                let got: Value = serde_json::from_str(&text).expect("one JSON document");
                assert_eq!(got, golden["output"], "{}: {args:?}", path.display());
                // `reproduce` passes: no check fails, and there are checks to fail.
                if args == ["reproduce"] {
                    assert_eq!(got["failed"], 0);
                    assert!(got["total"].as_u64().unwrap() >= 12);
                }
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                common::validate(&args, &got);
            }
        }
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} golden documents");
}
