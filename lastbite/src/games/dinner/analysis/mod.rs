//! The paper's analyses of many dinners, recomputed: Pareto efficiency, attainable sets,
//! balanced alternation, the figures, the generalized payoffs and open questions, and the
//! published examples.
//!
//! * [`pareto`]: Pareto efficiency of crossout, the size sweep and the random experiment
//!   ("Pareto efficiency and inefficiency");
//! * [`attainable`]: the Hopkins-Jones count of attainable outcomes ("Combinatorics at
//!   the dinner table");
//! * [`balance`]: first-mover advantage under alternation and Thue-Morse order ("First
//!   move advantage");
//! * [`figures`]: Figure 1's outcome plot and the crossout boards of Figures 2, 4, 5;
//! * [`variants`]: generalized payoffs (altruism, zero-sum, cooperative) and the open
//!   questions (delayed gratification, inaccessible morsels);
//! * [`reproduce`]: the paper's published examples recomputed.
//!
//! A new figure or table of the paper goes here, built from `theory` and `solver`. It must
//! not solve a dinner its own way (it calls crossout or the exact solver), nor know of the
//! API's requests and reports.

pub mod attainable;
pub mod balance;
pub mod figures;
pub mod pareto;
pub mod reproduce;
pub mod variants;
