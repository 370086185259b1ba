//! Every command the README and the docs show runs: each line of a ```sh block that
//! starts with `lastbite` (or `for`, a loop over it, or pipes into it) is run by bash, as a
//! reader would
//! paste it, in a scratch folder that holds the repository's `examples/` and the files the
//! page's earlier commands wrote, with the built `lastbite` first on the PATH. It must
//! exit 0, or the code its comment documents (`# ... (exits 3)`). `lastbite serve`, which
//! runs until stopped, is started (it prints where it serves) and stopped instead of
//! waited for. A `curl` line is sent to a `lastbite serve` the page starts on its
//! default port for its first one, and must be answered without an error.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The commands of a Markdown page: (line number, command, expected exit code).
fn commands(text: &str) -> Vec<(usize, String, i32)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(lang) = t.strip_prefix("```") {
            in_sh = !in_sh && lang == "sh";
            continue;
        }
        let runs = t.starts_with("lastbite ")
            || t.starts_with("for ")
            || t.contains("| lastbite ")
            || t.starts_with("curl ");
        if !in_sh || !runs {
            continue;
        }
        let code = t
            .split_once("(exits ")
            .and_then(|(_, r)| r.split(')').next())
            .map_or(0, |c| c.parse().expect("an exit code"));
        out.push((i + 1, t.to_string(), code));
    }
    out
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md")];
    for dir in ["docs", "docs/results"] {
        let mut md: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        md.sort();
        pages.extend(md);
    }
    pages
}

/// `lastbite serve` binds a fixed port: one page's server at a time.
static SERVING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn run_page(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(repo().join("examples"), dir.path().join("examples")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_lastbite")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let name = page
        .strip_prefix(repo())
        .unwrap_or(page)
        .display()
        .to_string();
    // The server the page's `curl` lines talk to, started for the first one.
    let mut server: Option<(std::sync::MutexGuard<()>, std::process::Child)> = None;
    for (line, cmd, want) in commands(&text) {
        let serve = cmd.starts_with("lastbite serve");
        let curl = cmd.starts_with("curl ");
        if serve {
            if let Some((_, mut child)) = server.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        if curl && server.is_none() {
            server = Some(start_server(dir.path(), &path));
        }
        let _port = serve.then(|| SERVING.lock().unwrap_or_else(|e| e.into_inner()));
        let start = Instant::now();
        let mut child = Command::new("bash")
            .args(["-c", &cmd])
            .current_dir(dir.path())
            .env("PATH", &path)
            // `~` is the scratch folder: a command that writes to the home writes there.
            .env("HOME", dir.path())
            .stdin(Stdio::null())
            .stdout(if serve || curl {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A server has started when it says where it serves (read on a thread of its own,
        // so that the loop below polls without blocking).
        let serving = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let answer = curl.then(|| child.stdout.take()).flatten().map(|mut out| {
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = std::io::Read::read_to_string(&mut out, &mut text);
                text
            })
        });
        if let Some(out) = child.stdout.take() {
            let serving = serving.clone();
            std::thread::spawn(move || {
                use std::io::BufRead;
                for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                    if line.contains("serving on ") {
                        serving.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
            });
        }
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            let started = serving.load(std::sync::atomic::Ordering::SeqCst);
            if serve && (started || start.elapsed() > Duration::from_secs(60)) {
                // Serving: it started; stop it. (Not serving after a minute: a failure.)
                let _ = child.kill();
                let _ = child.wait();
                if !started {
                    failures.push(format!(
                        "{name}:{line}: `{cmd}` did not start serving within 60 s"
                    ));
                }
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        let answer = answer.map(|h| h.join().unwrap()).unwrap_or_default();
        if curl && (answer.trim().is_empty() || answer.starts_with("{\"error\"")) {
            failures.push(format!(
                "{name}:{line}: `{cmd}` was answered {:?}",
                answer.lines().next().unwrap_or("nothing")
            ));
        }
        match status {
            None => {}
            Some(s) if s.code() == Some(want) => {}
            Some(s) => failures.push(format!(
                "{name}:{line}: `{cmd}` exited {:?}, expected {want}: {}",
                s.code(),
                err.lines().last().unwrap_or("")
            )),
        }
        eprintln!(
            "{name}:{line}: {:.2} s  {cmd}",
            start.elapsed().as_secs_f64()
        );
    }
    if let Some((_, mut child)) = server {
        let _ = child.kill();
        let _ = child.wait();
    }
    failures
}

/// `lastbite serve` on its default port, once it says it serves.
fn start_server(
    dir: &Path,
    path: &str,
) -> (std::sync::MutexGuard<'static, ()>, std::process::Child) {
    use std::io::BufRead;
    let port = SERVING.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = Command::new(env!("CARGO_BIN_EXE_lastbite"))
        .arg("serve")
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(
        lines.any(|l| l.is_ok_and(|l| l.contains("serving on "))),
        "lastbite serve did not start"
    );
    // Keep reading what it prints, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (port, child)
}

#[test]
fn every_documented_command_runs() {
    let pages = pages();
    let total: usize = pages
        .iter()
        .map(|p| commands(&std::fs::read_to_string(p).unwrap()).len())
        .sum();
    // The pages show dozens of commands: a parser that finds few has broken.
    assert!(total >= 60, "only {total} commands found in {pages:?}");
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = pages.iter().map(|p| s.spawn(move || run_page(p))).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_parser_finds_commands_and_exit_codes() {
    let page = "text\n```sh\nlastbite a --json   # x\ncargo b\nlastbite v  # (exits 3)\n```\n```\nlastbite no\n```\n";
    let c = commands(page);
    assert_eq!(c.len(), 2);
    assert_eq!((c[0].0, c[0].2), (3, 0));
    assert_eq!((c[1].1.as_str(), c[1].2), ("lastbite v  # (exits 3)", 3));
}
