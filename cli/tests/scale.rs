//! The product at the sizes users give it, through the command line: dinners across the
//! old 63-morsel wall and of 10^5 morsels, huge heaps, huge cookie positions, the largest
//! token boards; and outputs that do not depend on the number of threads.

use std::io::Write;

use lastbite::games::dinner::{crossout, Dinner, Setup, TurnOrder};
use serde_json::Value;

mod common;
use common::lastbite_std;

fn run_json(cmd: &mut std::process::Command) -> Value {
    let out = cmd.arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

/// A CSV dinner with duplicate utilities and a random turn order, written to a file.
fn dinner_file(
    dir: &std::path::Path,
    n: usize,
    range: u64,
    seed: u64,
) -> (std::path::PathBuf, String) {
    let mut rng = lastbite::rng::Rng::for_trial(seed, n as u64);
    let path = dir.join(format!("d{n}.csv"));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for _ in 0..n {
        writeln!(f, "{},{}", rng.below(range), rng.below(range)).unwrap();
    }
    f.flush().unwrap();
    let order = (0..n)
        .map(|_| if rng.below(2) == 0 { 'A' } else { 'B' })
        .collect();
    (path, order)
}

/// `dinner solve`, `play`, `board` on the file equal `crossout` in the library.
fn check_dinner(n: usize, range: u64) {
    let dir = tempfile::tempdir().unwrap();
    let (path, order) = dinner_file(dir.path(), n, range, 7);
    let d = Dinner::from_csv(&std::fs::read_to_string(&path).unwrap(), "d").unwrap();
    let o = TurnOrder::parse(&order, &d).unwrap();
    let c = crossout(&Setup::ordered(d.clone(), o.clone()).unwrap()).unwrap();
    let expect_scores = serde_json::json!([c.scores[0] as i64, c.scores[1] as i64]);
    let expect_eating: Vec<usize> = c.eating().map(|b| b.morsel).collect();
    let p = path.to_str().unwrap();
    let solved = run_json(lastbite_std().args(["dinner", "solve", p, "--order", &order]));
    assert_eq!(solved["scores"], expect_scores, "solve, {n} morsels");
    assert_eq!(solved["method"], "crossout");
    let eating: Vec<usize> = solved["eating_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["morsel"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(eating, expect_eating, "solve, {n} morsels");
    let played = run_json(lastbite_std().args(["dinner", "play", p, "--order", &order]));
    assert_eq!(played["scores"], expect_scores, "play, {n} morsels");
    let board = run_json(lastbite_std().args(["dinner", "board", p, "--order", &order]));
    assert_eq!(board["scores"], expect_scores, "board, {n} morsels");
    // Altruism at any size: zero-sum payoffs sum to zero.
    let zs = run_json(lastbite_std().args([
        "dinner",
        "solve",
        p,
        "--order",
        &order,
        "--altruism",
        "1,-1,-1,1",
    ]));
    let (a, b) = (zs["scores"][0].clone(), zs["scores"][1].clone());
    assert_eq!(
        a.to_string().trim_start_matches('-'),
        b.to_string().trim_start_matches('-'),
        "zero-sum scores {a} and {b}"
    );
}

#[test]
fn dinners_across_the_63_morsel_wall() {
    for n in [63, 64, 65] {
        check_dinner(n, 5);
        check_dinner(n, 1_000_000);
    }
}

#[test]
fn dinner_of_100_000_morsels() {
    check_dinner(100_000, 50);
}

#[test]
fn exact_solver_refuses_64_morsels_with_the_size() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = dinner_file(dir.path(), 64, 5, 1);
    let solve = |extra: &[&str]| {
        let file = path.to_str().unwrap();
        lastbite_std()
            .args(["dinner", "solve", file, "--method", "exact"])
            .args(extra)
            .output()
            .unwrap()
    };
    // Under the default work budget the cost model refuses it first, at once.
    let out = solve(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("is over --max-seconds 60"), "{err}");
    assert_eq!(err.lines().count(), 1);
    // With any work budget, the state budget refuses it naming the size.
    let out = solve(&["--max-seconds", "18446744073709551615"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("2^64"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn heaps_beyond_two_to_the_64() {
    let v = run_json(lastbite_std().args([
        "subtraction",
        "outcome",
        "--set",
        "3,5",
        "--heap",
        "340282366920938463463374607431768211455",
    ]));
    assert_eq!(v["derivation"]["method"], "periodic");
    let (a, b) = (v["outcome"][0].to_string(), v["outcome"][1].to_string());
    // Alice and Bob split the whole heap.
    let sum = a.parse::<u128>().unwrap() + b.parse::<u128>().unwrap();
    assert_eq!(sum, u128::MAX);
}

#[test]
fn cookie_position_of_a_million_components() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let comps: Vec<String> = (1..=1_000_000u64).map(|i| i.to_string()).collect();
    std::fs::write(&path, comps.join("\n")).unwrap();
    let v = run_json(lastbite_std().args(["cookie", "analyze", "--from", path.to_str().unwrap()]));
    let p: lastbite::games::cookie::Position = comps.join(" ").parse().unwrap();
    assert_eq!(
        v["d_value"],
        serde_json::json!(lastbite::games::cookie::d_value(&p))
    );
    assert_eq!(v["computed_by"], "theory");
    // (1..n) is a P-position exactly when 3 divides n (the paper's example).
    assert_eq!(v["type"], if 1_000_000 % 3 == 0 { "P" } else { "N" });
}

#[test]
fn token_boards_up_to_the_budget() {
    let v = run_json(lastbite_std().args(["tokens", "--stacks", "60", "--players", "4"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    let out = lastbite_std()
        .args(["tokens", "--stacks", "200", "--players", "12"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("over the budget") && err.contains("--max-states"),
        "{err}"
    );
}

#[test]
fn outputs_do_not_depend_on_the_thread_count() {
    let cmds: [&[&str]; 5] = [
        &[
            "dinner",
            "solve",
            "--morsels",
            "3,1 4,1 5,9 2,6 5,3 5,8 9,7 9,3 2,3 8,4 6,2 6,4 3,3 8,3",
            "--method",
            "exact",
        ],
        &["dinner", "experiment", "--size", "10", "--trials", "300"],
        &["subtraction", "conjecture", "12", "--max", "40"],
        &["cookie", "nim", "--max-n", "14"],
        &["dinner", "pareto", "--size", "7"],
    ];
    for args in cmds {
        let run = |threads: &str| {
            let out = lastbite_std()
                .env("RAYON_NUM_THREADS", threads)
                .args(args)
                .arg("--json")
                .output()
                .unwrap();
            assert!(out.status.success());
            out.stdout
        };
        assert_eq!(run("1"), run("2"), "{args:?}");
    }
}

#[test]
fn truncated_files_name_the_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, needle) in [
        ("t.toml", "morsels = [[1, 2],\n  [2, 3\n", "line 3 column 1"),
        ("t.json", "[[1,2],\n[2,", "line 2 column 3"),
        ("t.csv", "1,2\n2,\n", "t.csv:2: column 2"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = lastbite_std()
            .args(["dinner", "solve", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// A Gambit file of 10^6 nodes (chance at a fifth of the inner nodes) through the CLI:
/// solved, its equilibrium checked by the independent profile check, and its value equal
/// to the library's on the same file.
#[test]
fn efg_of_a_million_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.efg");
    let p = path.to_str().unwrap();
    let out = lastbite_std()
        .args([
            "efg", "random", "--nodes", "1000000", "--seed", "7", "-o", p,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let solved = run_json(lastbite_std().args(["efg", "solve", p, "--root-only"]));
    let behavior = solved["behavior"].as_str().unwrap();
    // Too long for an argument list: from a file, as Gambit's solvers write profiles.
    let profile = dir.path().join("profile.txt");
    std::fs::write(&profile, behavior).unwrap();
    let at = format!("@{}", profile.display());
    let verified = run_json(lastbite_std().args(["efg", "verify", p, "--profile", &at]));
    assert_eq!(verified["subgame_perfect"], true);
    let text = std::fs::read_to_string(&path).unwrap();
    let game = lastbite::games::efg::Efg::parse(&text, 2_000_000).unwrap();
    assert_eq!(game.nodes().len(), 1_000_000);
    let actions: u32 = game
        .infosets()
        .iter()
        .filter(|s| s.player.is_some())
        .map(|s| s.actions)
        .sum();
    assert_eq!(behavior.split(',').count(), 1 + actions as usize);
    let ties = lastbite::engine::Ties::uniform(lastbite::engine::TieBreak::First, 2);
    let lib = lastbite::games::efg::solve(&game, &ties, &lastbite::engine::Silent).unwrap();
    assert_eq!(solved["value"], serde_json::to_value(lib.value(0)).unwrap());
}
