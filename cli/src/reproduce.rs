//! `lastbite reproduce`: the papers' published values, recomputed, with pass/fail marks.

use std::io::Write;
use std::process::ExitCode;

use lastbite::games::dinner::reproduce::{answers, checks};
use lastbite::games::subtraction;
use lastbite::reproduce::{failures, Check};
use serde_json::json;

use crate::out;

/// Arguments of `lastbite reproduce`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs the command; exits 1 when any published value is not reproduced.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let families: Vec<(&str, Vec<Check>)> = vec![
        ("ethiopian-dinner", checks()),
        ("subtraction-tie-breaking", subtraction::reproduce::checks()),
        (
            "token-dollars",
            lastbite::games::tokens::reproduce::checks(),
        ),
        ("cookie-game", lastbite::games::cookie::reproduce::checks()),
    ];
    let total: usize = families.iter().map(|(_, c)| c.len()).sum();
    let failed: usize = families.iter().map(|(_, c)| failures(c)).sum();
    let differing: usize = families
        .iter()
        .map(|(_, c)| c.iter().filter(|x| x.differs && x.pass).count())
        .sum();
    let mut open = answers();
    open.extend(subtraction::reproduce::answers());
    open.extend(lastbite::games::cookie::reproduce::answers());
    if args.json {
        let list: Vec<_> = families
            .iter()
            .flat_map(|(paper, cs)| {
                cs.iter().map(move |c| {
                    json!({
                        "paper": paper, "id": c.id, "source": c.source, "claim": c.claim,
                        "published": c.published, "computed": c.computed, "pass": c.pass,
                        "differs": c.differs,
                    })
                })
            })
            .collect();
        let answers: Vec<_> = open
            .iter()
            .map(|a| {
                let paper = if a.id.starts_with("subtraction") {
                    "subtraction-tie-breaking"
                } else {
                    "ethiopian-dinner"
                };
                json!({"paper": paper, "id": a.id, "question": a.question, "answer": a.answer})
            })
            .collect();
        out::print_json(
            &json!({"checks": list, "total": total, "failed": failed, "documented_differences": differing, "answers": answers}),
        )?;
    } else {
        let mut w = out::stdout();
        for (paper, cs) in &families {
            writeln!(w, "== {paper} ==")?;
            for c in cs {
                let mark = match (c.pass, c.differs) {
                    (true, false) => "PASS",
                    (true, true) => "DIFF",
                    (false, _) => "FAIL",
                };
                writeln!(w, "[{mark}] {:<36} {}", c.id, c.claim)?;
                writeln!(
                    w,
                    "       published: {:<24} computed: {}",
                    c.published, c.computed
                )?;
            }
        }
        writeln!(w, "\n== open questions, answered by computation ==")?;
        for a in &open {
            writeln!(w, "[{}] {}\n       {}", a.id, a.question, a.answer)?;
        }
        writeln!(
            w,
            "\n{} checks: {} passed ({} of them documented differences from the published value, marked DIFF), {} failed",
            total,
            total - failed,
            differing,
            failed
        )?;
        w.flush()?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
