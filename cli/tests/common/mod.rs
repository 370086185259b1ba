//! What the CLI's integration tests share: the binary under test, running it for one JSON
//! document or for a one-line refusal, and checking a report against its committed
//! schema. Each test file takes what it needs (`mod common;`).
#![allow(dead_code)] // each test crate uses a different part

use serde_json::Value;

/// The `lastbite` binary built for these tests, as `assert_cmd` drives it (stdin, asserts).
pub fn lastbite() -> assert_cmd::Command {
    assert_cmd::Command::from_std(lastbite_std())
}

/// The same binary as a plain process (to spawn, time and kill it).
pub fn lastbite_std() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_lastbite"))
}

/// Runs `args --json`, which must succeed with exactly one JSON document on stdout.
pub fn json(args: &[&str]) -> Value {
    json_exit(args, 0)
}

/// Runs `args --json`, which must exit with `code` and exactly one JSON document on
/// stdout (a `verify` that finds no equilibrium exits 3 with its report).
pub fn json_exit(args: &[&str], code: i32) -> Value {
    let out = lastbite().args(args).arg("--json").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("exactly one JSON document on stdout")
}

/// Runs `args`, which must fail with one line on stderr containing `needle`, no panic.
pub fn fails(args: &[&str], needle: &str) {
    let out = lastbite().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
}

/// The committed report schema (`docs/schema/<stem>.report.json`) of a command line.
pub fn report_schema(args: &[&str]) -> Value {
    let stem = match args[0] {
        "reproduce" => "reproduce".to_string(),
        "tokens" if args.get(1) == Some(&"seats") => "tokens-seats".into(),
        "tokens" if args.get(1) == Some(&"anywhere") => "tokens-anywhere".into(),
        "tokens" => "tokens-solve".into(),
        family => format!("{family}-{}", args[1]),
    };
    let path = format!(
        "{}/../docs/schema/{stem}.report.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).expect("a committed schema")).unwrap()
}

/// A command's real output validates against its committed schema.
pub fn validate(args: &[&str], doc: &Value) {
    let schema = report_schema(args);
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(
        errors.is_empty(),
        "{args:?} does not match its schema: {errors:?}"
    );
}
