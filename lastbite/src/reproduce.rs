//! The shape of a reproduction: a published value next to the value lastbite computes,
//! and answers to the papers' open questions. Each game family's `reproduce` module
//! produces these; `lastbite reproduce` prints them all.

/// One published value and the value lastbite computes for it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Check {
    /// Short identifier, e.g. `figure2.alice_score`.
    pub id: String,
    /// Where in the paper.
    pub source: String,
    /// What is claimed.
    pub claim: String,
    /// The published value.
    pub published: String,
    /// The computed value.
    pub computed: String,
    /// Whether the check passes: the values agree, or, for a documented difference, the
    /// computation still gives the value recorded beside the published one.
    pub pass: bool,
    /// A documented difference: the published value disagrees with the computation, and
    /// the published-values file records why.
    pub differs: bool,
}

/// A check that passes when the published and computed texts are equal.
pub fn check(id: &str, source: &str, claim: &str, published: String, computed: String) -> Check {
    Check {
        id: id.to_string(),
        source: source.to_string(),
        claim: claim.to_string(),
        pass: published == computed,
        differs: false,
        published,
        computed,
    }
}

/// A check whose published value is known to disagree with the computation: it passes
/// while the computation gives `recorded` (the value the published-values file records
/// beside the published one), and is reported as a difference.
pub fn check_known(
    id: &str,
    source: &str,
    claim: &str,
    published: String,
    computed: String,
    recorded: &str,
) -> Check {
    let mut c = check(id, source, claim, published, computed);
    if !c.pass {
        c.pass = c.computed == recorded;
        c.differs = true;
    }
    c
}

/// Number of checks that fail.
pub fn failures(checks: &[Check]) -> usize {
    checks.iter().filter(|c| !c.pass).count()
}

/// An open question of a paper with the answer lastbite computes (no published value
/// to compare with).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Answer {
    /// Short identifier.
    pub id: String,
    /// The question, as the paper asks it.
    pub question: String,
    /// What the computation finds.
    pub answer: String,
}

/// A result an answer rests on that is too long to recompute in every run (a sweep of
/// minutes): recorded from an earlier run, with the command that recomputes it. Reports
/// list these apart from what the run computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Recorded {
    /// The id of the answer that cites it.
    #[serde(skip)]
    pub answer: &'static str,
    /// What was found.
    pub claim: &'static str,
    /// The command that recomputes it.
    pub command: &'static str,
}
