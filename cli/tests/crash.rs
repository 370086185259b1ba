//! Crash safety of the resumable jobs: each is killed with SIGKILL at several moments,
//! rerun until it finishes, and must end with exactly the records of an uninterrupted
//! run, none lost, doubled or torn.

use std::path::Path;
use std::time::{Duration, Instant};

mod common;
use common::lastbite_std;

/// The two jobs each use both cores; run one at a time so timings stay comparable.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts `args`, kills it (SIGKILL) after `after`, and reports whether it was still
/// running, i.e. really interrupted.
fn kill_after(args: &[&str], after: Duration) -> bool {
    let mut child = lastbite_std()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < after {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    running
}

fn run(args: &[&str]) -> Vec<u8> {
    let out = lastbite_std().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Kills at seven pseudo-random moments (a fixed seed, so a failure reproduces), one in
/// each eighth of `span`, resuming each time.
fn interrupt(args: &[&str], span: Duration) -> usize {
    let mut rng = lastbite::rng::Rng::for_trial(10, 0);
    let mut interrupted = 0;
    for k in 0..7u32 {
        let r = rng.below(1000) as f64 / 1000.0;
        let at = span
            .mul_f64((f64::from(k) + r) / 8.0)
            .max(Duration::from_millis(20));
        interrupted += kill_after(args, at) as usize;
    }
    interrupted
}

#[test]
fn killed_scan_resumes_to_exactly_the_uninterrupted_records() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    for ext in ["jsonl", "csv"] {
        let clean = dir.path().join(format!("clean.{ext}"));
        let start = Instant::now();
        run(&[
            "subtraction",
            "scan",
            "--pairs",
            "150",
            "--out",
            clean.to_str().unwrap(),
        ]);
        let full = start.elapsed();
        let killed = dir.path().join(format!("killed.{ext}"));
        let args = [
            "subtraction",
            "scan",
            "--pairs",
            "150",
            "--out",
            killed.to_str().unwrap(),
        ];
        // Kills add up to about half an uninterrupted run: every run is cut short.
        let interrupted = interrupt(&args, full / 5);
        assert!(interrupted >= 5, "only {interrupted} runs were interrupted");
        run(&args);
        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        let (a, b) = (read(&clean), read(&killed));
        let mut a_lines: Vec<&str> = a.lines().collect();
        let mut b_lines: Vec<&str> = b.lines().collect();
        assert!(b.ends_with('\n'), "no torn last record");
        assert_eq!(
            a_lines.len(),
            b_lines.len(),
            "{ext}: records lost or doubled"
        );
        a_lines.sort_unstable();
        b_lines.sort_unstable();
        assert_eq!(a_lines, b_lines, "{ext}");
    }
}

#[test]
fn killed_nim_table_resumes_to_the_same_layers_and_distribution() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean");
    let args_for = |store: &Path| {
        vec![
            "cookie".to_string(),
            "nim".into(),
            "--max-n".into(),
            "25".into(),
            "--store".into(),
            store.to_str().unwrap().into(),
            "--json".into(),
        ]
    };
    let clean_args = args_for(&clean);
    let clean_args: Vec<&str> = clean_args.iter().map(String::as_str).collect();
    let start = Instant::now();
    let expected = run(&clean_args);
    let full = start.elapsed();
    let killed = dir.path().join("killed");
    let args = args_for(&killed);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // The last layer is about half the work and a killed run loses the layer in flight:
    // kills within the first half of a run's time interrupt it at every stage.
    let interrupted = interrupt(&args, full / 2);
    assert!(interrupted >= 5, "only {interrupted} runs were interrupted");
    assert_eq!(run(&args), expected);
    for n in 1..=25 {
        let name = format!("nim2-layer-{n:02}.bin");
        assert_eq!(
            std::fs::read(clean.join(&name)).unwrap(),
            std::fs::read(killed.join(&name)).unwrap(),
            "{name}"
        );
    }
}
