//! `reproduce`: every paper's published values, recomputed, with pass/fail marks, and the
//! open questions answered by computation.

use crate::api::cost::{Estimate, Work, RUNS};
use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use super::input::request;
use super::{Control, Error, Render};
use crate::reproduce::{failures, Answer, Check, Recorded};

request! {
    /// `reproduce`: recompute the papers' published results and mark each pass or fail.
    ReproduceRequest {}
}

/// One published value and the computed one, with its paper.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CheckReport {
    /// The paper (`ethiopian-dinner`, `subtraction-tie-breaking`, `token-dollars`,
    /// `cookie-game`, `picking-sequences`: the fair-division literature).
    pub paper: &'static str,
    /// The check.
    #[serde(flatten)]
    pub check: Check,
}

/// An open question and the computed answer, with the paper that asks it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnswerReport {
    /// The paper that asks it.
    pub paper: &'static str,
    /// The answer.
    #[serde(flatten)]
    pub answer: Answer,
    /// Results the answer cites that this run did not compute (long sweeps), each with
    /// the command that recomputes it.
    pub recorded: Vec<Recorded>,
}

/// The report of `reproduce`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReproduceReport {
    /// Every check.
    pub checks: Vec<CheckReport>,
    /// Number of checks.
    pub total: usize,
    /// Checks that fail.
    pub failed: usize,
    /// Passing checks that are documented differences.
    pub documented_differences: usize,
    /// The open questions answered.
    pub answers: Vec<AnswerReport>,
}

impl ReproduceReport {
    /// Whether every published value was reproduced (or is a documented difference).
    pub fn passed(&self) -> bool {
        self.failed == 0
    }
}

/// One family's list of checks or answers.
type Family<T> = fn() -> Vec<T>;

/// Recomputes every published value.
pub fn reproduce(_req: &ReproduceRequest, ctl: &Control) -> Result<ReproduceReport, Error> {
    use crate::games::{cookie, dinner, subtraction, tokens};
    // One fixed run: every check of the four papers and the picking results.
    ctl.admit(Estimate::new(Work::count(1.0), RUNS))?;
    let families: Vec<(&'static str, Family<Check>)> = vec![
        ("ethiopian-dinner", dinner::analysis::reproduce::checks),
        ("subtraction-tie-breaking", subtraction::reproduce::checks),
        ("token-dollars", tokens::reproduce::checks),
        ("cookie-game", cookie::reproduce::checks),
        ("picking-sequences", dinner::picking::reproduce::checks),
    ];
    let mut checks = Vec::new();
    let mut failed = 0;
    for (paper, run) in families {
        ctl.check()?;
        let cs = run();
        failed += failures(&cs);
        checks.extend(cs.into_iter().map(|check| CheckReport { paper, check }));
    }
    type Open = (&'static str, Family<Answer>, &'static [Recorded]);
    let open: Vec<Open> = vec![
        (
            "ethiopian-dinner",
            dinner::analysis::reproduce::answers,
            dinner::analysis::reproduce::RECORDED,
        ),
        (
            "subtraction-tie-breaking",
            subtraction::reproduce::answers,
            subtraction::reproduce::RECORDED,
        ),
        (
            "cookie-game",
            cookie::reproduce::answers,
            cookie::reproduce::RECORDED,
        ),
        (
            "picking-sequences",
            dinner::picking::reproduce::answers,
            dinner::picking::reproduce::RECORDED,
        ),
    ];
    let mut answers = Vec::new();
    for (paper, run, recorded) in open {
        ctl.check()?;
        answers.extend(run().into_iter().map(|answer| {
            AnswerReport {
                paper,
                recorded: recorded
                    .iter()
                    .filter(|r| r.answer == answer.id)
                    .copied()
                    .collect(),
                answer,
            }
        }));
    }
    Ok(ReproduceReport {
        total: checks.len(),
        failed,
        documented_differences: checks
            .iter()
            .filter(|c| c.check.differs && c.check.pass)
            .count(),
        checks,
        answers,
    })
}

impl Render for ReproduceReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut paper = "";
        for r in &self.checks {
            if r.paper != paper {
                paper = r.paper;
                writeln!(w, "== {paper} ==")?;
            }
            let c = &r.check;
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
        writeln!(w, "\n== open questions, answered by computation ==")?;
        for r in &self.answers {
            let a = &r.answer;
            writeln!(w, "[{}] {}\n       {}", a.id, a.question, a.answer)?;
            for rec in &r.recorded {
                writeln!(
                    w,
                    "       recorded, not recomputed here: {} (recompute: `{}`)",
                    rec.claim, rec.command
                )?;
            }
        }
        writeln!(
            w,
            "\n{} checks: {} passed ({} of them documented differences from the published value, marked DIFF), {} failed",
            self.total,
            self.total - self.failed,
            self.documented_differences,
            self.failed
        )
    }
}
