//! The shape of a reproduction: a published value next to the value lastbite computes,
//! and answers to the papers' open questions. Each game family's `reproduce` module
//! produces these; `lastbite reproduce` prints them all.

/// One published value and the value lastbite computes for it.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Whether they agree.
    pub pass: bool,
}

/// A check that passes when the published and computed texts are equal.
pub fn check(id: &str, source: &str, claim: &str, published: String, computed: String) -> Check {
    Check {
        id: id.to_string(),
        source: source.to_string(),
        claim: claim.to_string(),
        pass: published == computed,
        published,
        computed,
    }
}

/// Number of checks that fail.
pub fn failures(checks: &[Check]) -> usize {
    checks.iter().filter(|c| !c.pass).count()
}

/// An open question of a paper with the answer lastbite computes (no published value
/// to compare with).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Short identifier.
    pub id: String,
    /// The question, as the paper asks it.
    pub question: String,
    /// What the computation finds.
    pub answer: String,
}
