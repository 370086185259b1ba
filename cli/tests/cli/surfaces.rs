//! What holds for every command: usage errors, one vocabulary, JSON through pipes, output
//! files through one writer, the manual page, LaTeX and pictures, estimates and budgets.

use crate::common::{fails, json, lastbite};

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
        (&["tokens", "--grid", "16"], &["--on-grids"]),
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
    first["ties"] = "lowest".into();
    assert_eq!(first, json(&["tokens", "--ties", "lowest"]));
    let mut last = json(&["tokens", "--ties", "last", "--stacks", "8"]);
    last["ties"] = "highest".into();
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

/// Off loopback the server makes a token and prints it in the page's URL; on loopback it
/// needs none.
#[test]
fn serve_off_loopback_prints_a_token() {
    for (host, token) in [("0.0.0.0", true), ("127.0.0.1", false)] {
        let (mut child, line) = serve(&["--host", host]);
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

/// `lastbite serve` on any free port with `args`: the process and the line it prints.
fn serve(args: &[&str]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = crate::common::lastbite_std()
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

/// SIGTERM to a server with a computation of minutes running: the computation is
/// cancelled and the process exits, cleanly, within two seconds.
#[test]
fn serve_exits_within_two_seconds_of_sigterm_with_work_running() {
    use std::io::Write;
    let (mut child, line) = serve(&["--jobs", "1", "--max-seconds", "3600"]);
    let url = line.split_whitespace().nth(3).unwrap_or_default();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    // Every allocation of 24 morsels: about half a minute of one core.
    let body = r#"{"size": 24}"#;
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST /api/dinner/attainable HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    // SAFETY: kill(2) on the child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if t.elapsed() > std::time::Duration::from_secs(5) {
            let _ = child.kill();
            panic!("still running 5 s after SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    assert!(
        t.elapsed() < std::time::Duration::from_secs(2),
        "exited {:?} after SIGTERM",
        t.elapsed()
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
        let mut child = crate::common::lastbite_std()
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
    let out = crate::common::lastbite_std()
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
        let out = crate::common::lastbite_std()
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("cannot write to stdout"), "{args:?}: {err}");
    }
}

/// Seams a new user met on every surface, through the CLI: each
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
    // Every export takes an optional FILE: `--latex FILE` writes what `--latex -o FILE`
    // did, beside the text report on stdout; two forms on stdout are refused.
    let table = ["subtraction", "table", "--set", "3,5", "--max-heap", "8"];
    let (c, d) = (dir.path().join("c.tex"), dir.path().join("d.tex"));
    let out = lastbite()
        .args(table)
        .arg("--latex")
        .arg(&c)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("S = {3,5}"));
    let out = lastbite()
        .args(table)
        .args(["--latex", "-o"])
        .arg(&d)
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.is_empty());
    assert_eq!(std::fs::read(&c).unwrap(), std::fs::read(&d).unwrap());
    let latex = lastbite().args(table).arg("--latex").output().unwrap();
    assert_eq!(latex.stdout, std::fs::read(&c).unwrap());
    let csv = dir.path().join("t.csv");
    let out = lastbite()
        .args(table)
        .arg("--csv")
        .arg(&csv)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        lastbite().args(table).arg("--csv").output().unwrap().stdout,
        std::fs::read(&csv).unwrap()
    );
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON on stdout");
    let pic = lastbite().args(board).arg("--tikz").output().unwrap();
    assert!(String::from_utf8(pic.stdout)
        .unwrap()
        .contains("tikzpicture"));
    let both = lastbite()
        .args(board)
        .args(["--svg", "--tikz"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(1));
    assert!(String::from_utf8(both.stderr)
        .unwrap()
        .contains("more than one form"));
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
        let out = crate::common::lastbite_std()
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
        let out = crate::common::lastbite_std()
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
