//! Picking sequences: the Ethiopian Dinner as fair division studies it (sequential
//! allocation of indivisible items under additive utilities).
//!
//! The dinner's turn order is a picking sequence; its players are agents. Fair-division
//! research asks what *sincere* play gives (each agent takes its favourite item left:
//! Bouveret and Lang, "A general elicitation-free protocol for allocating indivisible
//! goods", IJCAI 2011), what one agent gains by strategy against sincere others (Bouveret
//! and Lang 2014 for two agents; NP-complete in general: Aziz, Bouveret, Lang and
//! Mackenzie, "Complexity of Manipulating Sequential Allocation", AAAI 2017; polynomial
//! for a fixed number of agents and never more than twice the sincere score: Xiao and
//! Ling, AAAI 2020), and what strategic play costs in welfare.
//!
//! * [`sincere`](mod@sincere): sincere play, fast at any size (two sorts and a pass for two agents);
//! * [`welfare`]: utilitarian, egalitarian and Nash welfare, the optimum over the
//!   allocations a sequence's counts allow, and the prices of anarchy and stability;
//! * [`fairness`]: envy-freeness, EF1, proportionality and the maximin share of an
//!   allocation, agent by agent;
//! * [`equilibria`]: every subgame-perfect equilibrium allocation (not only the scores);
//! * [`mechanisms`]: the fairness of the sincere and equilibrium allocations of a dinner,
//!   and how often each fails a property over random dinners;
//! * [`expected`]: expected scores under impartial culture, sincere and strategic, by
//!   the two-agent programs, and the best sequences;
//! * [`profiles`]: the preference models, and the expectation by the first route that
//!   applies (a program, every profile of rankings, or sampled profiles);
//! * [`reproduce`]: the literature's claims against computations, and open questions;
//! * [`strategic`]: the fairness of strategic play settled at small sizes: every
//!   equilibrium allocation of every profile of rankings, EF1, maximin shares;
//! * [`manipulate`](mod@manipulate): one agent's best play against sincere others: a greedy over a
//!   laminar matroid for two agents, an exact memoised search for more.
//!
//! The module owns these mechanisms and measures; the strategic side (crossout, the exact
//! solver, all SPE outcomes) stays in the dinner family's other modules.

pub mod equilibria;
pub mod expected;
pub mod fairness;
pub mod manipulate;
pub mod mechanisms;
pub mod profiles;
pub mod reproduce;
pub mod sincere;
pub mod strategic;
pub mod welfare;

pub use manipulate::{manipulate, manipulate_by_search, Manipulation};
pub use sincere::{bundles, sincere};
pub use welfare::{optimum, Welfare};
