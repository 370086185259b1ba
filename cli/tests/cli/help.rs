//! Every example a `--help` text gives runs: the help of every command is read as a user
//! reads it (walking `lastbite --help` down the command tree), each flag's `e.g.` examples
//! are taken from it (the field's declaration, rendered), and the command is run with
//! the flag set to each one. A command that needs an input gets the smallest one its
//! usage asks for (a dinner where it takes `--morsels`, a game file where it takes a
//! required `<FILE>`, a required flag's own first example); any other flag an example needs is named in the help beside it
//! (`e.g. "0,1/3,2" with values "1,2,3"`).

use crate::common::lastbite;

/// The subcommands a help text lists (less `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Each long flag of a help text with its help (the indented lines under it).
fn flags(help: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut in_options = false;
    for line in help.lines() {
        if line.starts_with("Options:") {
            in_options = true;
            continue;
        }
        if !in_options {
            continue;
        }
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let flag = t
            .strip_prefix("--")
            .or_else(|| t.split_once(", --").map(|(_, r)| r));
        match flag {
            Some(rest) if indent <= 6 => {
                let name = rest.split([' ', '<']).next().unwrap_or("").to_string();
                out.push((name, String::new()));
            }
            _ => {
                if let Some((_, help)) = out.last_mut() {
                    help.push(' ');
                    help.push_str(t);
                }
            }
        }
    }
    out
}

/// The examples after `e.g.`: backticked values separated by `,` or `or` (shell quotes
/// taken off, as a shell would), each with the flags a trailing `with FIELD \`VALUE\``
/// names.
fn examples(help: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    for (i, _) in help.match_indices("e.g. ") {
        let mut rest = &help[i + 5..];
        let mut values = Vec::new();
        while let Some(r) = rest.strip_prefix('`') {
            let Some(end) = r.find('`') else { break };
            values.push(unquote(&r[..end]));
            rest = r[end + 1..].trim_start_matches([',', ' ']);
            rest = rest.strip_prefix("or ").unwrap_or(rest);
        }
        let mut with = Vec::new();
        if let Some(r) = rest.strip_prefix("with ") {
            if let Some((field, r)) = r.split_once(" `") {
                if let Some(end) = r.find('`') {
                    with.push((field.replace('_', "-"), unquote(&r[..end])));
                }
            }
        }
        out.extend(values.into_iter().map(|v| (v, with.clone())));
    }
    out
}

fn unquote(v: &str) -> String {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
        .to_string()
}

fn help_of(path: &[String]) -> String {
    let out = lastbite().args(path).arg("--help").output().unwrap();
    assert!(out.status.success(), "{path:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_help_example_runs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut todo: Vec<Vec<String>> = subcommands(&help_of(&[]))
        .into_iter()
        .map(|c| vec![c])
        .collect();
    let (mut ran, mut failures) = (0, Vec::new());
    while let Some(path) = todo.pop() {
        let help = help_of(&path);
        todo.extend(subcommands(&help).into_iter().map(|c| {
            let mut p = path.clone();
            p.push(c);
            p
        }));
        let flags = flags(&help);
        let usage = help.lines().find(|l| l.starts_with("Usage:")).unwrap_or("");
        for (flag, text) in &flags {
            for (value, with) in examples(text) {
                let mut args = path.clone();
                if usage.contains(" <FILE>") {
                    args.push("examples/efg/entry.efg".into());
                }
                if flag != "morsels" && flags.iter().any(|(f, _)| f == "morsels") {
                    args.extend(["--morsels".into(), "1,2 2,3 3,1 4,4".into()]);
                }
                // A flag the usage requires, with its own first example.
                for word in usage.split_whitespace() {
                    let Some(f) = word.strip_prefix("--") else {
                        continue;
                    };
                    let first = flags.iter().find(|(g, _)| g == f);
                    let example = first.and_then(|(_, t)| examples(t).into_iter().next());
                    if let Some((v, _)) = example.filter(|_| f != flag) {
                        args.extend([word.to_string(), v]);
                    }
                }
                for (f, v) in with {
                    args.extend([format!("--{f}"), v]);
                }
                args.extend([format!("--{flag}"), value, "--json".into()]);
                let out = lastbite().args(&args).current_dir(&root).output().unwrap();
                ran += 1;
                if !out.status.success() {
                    failures.push(format!(
                        "lastbite {}: {}",
                        args.join(" "),
                        String::from_utf8_lossy(&out.stderr).trim()
                    ));
                }
            }
        }
    }
    // The help texts give a dozen examples: a parser that finds few has broken.
    assert!(ran >= 12, "only {ran} help examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_help_parser_finds_flags_and_examples() {
    let help = "Usage: x\n\nOptions:\n      --set <SET>\n          The set, e.g. `\"4,5\"` or `[4, 5]`.\n\n  -o, --output <FILE>\n          Where, e.g. `\"0,1\"` with values `\"1,2\"`; more.\n";
    let f = flags(help);
    assert_eq!(f.len(), 2);
    assert_eq!(f[1].0, "output");
    let e = examples(&f[0].1);
    assert_eq!(e.len(), 2);
    assert_eq!((e[0].0.as_str(), e[1].0.as_str()), ("4,5", "[4, 5]"));
    let e = examples(&f[1].1);
    assert_eq!(
        e,
        [(
            "0,1".to_string(),
            vec![("values".to_string(), "1,2".to_string())]
        )]
    );
}
