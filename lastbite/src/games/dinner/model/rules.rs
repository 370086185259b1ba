//! The rules of a dinner beyond the plain game (paper: "Generalized payoffs" and "Open
//! questions"): a discount, altruism coefficients, and the precedence of inaccessible
//! morsels.

use crate::exact::Exact;

use super::{Dinner, DinnerError};

/// Inaccessible morsels (paper: Open questions, "Inaccessible morsels"): a partial order
/// in which morsel `j` may be eaten only after every morsel listed before it.
///
/// ```
/// use lastbite::games::dinner::{Dinner, Precedence};
/// let d = Dinner::from_morsels("1,1 2,2 3,3 4,4").unwrap();
/// let p = Precedence::parse("0<3,1<3", &d).unwrap();
/// assert_eq!(p.before(3), 0b0011);
/// assert!(Precedence::parse("0<1,1<0", &d).is_err()); // a cycle
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Precedence {
    /// `before[j]`: the morsels (bitmask) that must be eaten before `j`, transitively closed.
    before: Vec<u64>,
}

/// What is wrong with a precedence specification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrecedenceError {
    /// Not of the form `i<j`.
    #[error("{} is not of the form i<j (morsel indices from 0)", crate::text::quote(&.0.to_string()))]
    Malformed(String),
    /// An index out of range.
    #[error("morsel {index} does not exist (the dinner has morsels 0..{})", .len - 1)]
    Index {
        /// The index given.
        index: usize,
        /// Number of morsels.
        len: usize,
    },
    /// The order has a cycle.
    #[error("the order has a cycle through morsel {0}, so no morsel of it can ever be eaten")]
    Cycle(usize),
    /// Too many morsels for bitmask states.
    #[error("partial orders are supported for dinners of at most 63 morsels")]
    TooLarge,
}

impl Precedence {
    /// Parses `0<3,1<3` (chains like `0<1<2` allowed), morsel indices from 0.
    pub fn parse(spec: &str, dinner: &Dinner) -> Result<Precedence, PrecedenceError> {
        let n = dinner.len();
        if n > 63 {
            return Err(PrecedenceError::TooLarge);
        }
        let mut before = vec![0u64; n];
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let parts: Vec<&str> = item.split('<').map(str::trim).collect();
            if parts.len() < 2 {
                return Err(PrecedenceError::Malformed(item.into()));
            }
            let mut ids = Vec::new();
            for p in parts {
                let i: usize = p
                    .parse()
                    .map_err(|_| PrecedenceError::Malformed(item.into()))?;
                if i >= n {
                    return Err(PrecedenceError::Index { index: i, len: n });
                }
                ids.push(i);
            }
            for w in ids.windows(2) {
                before[w[1]] |= 1 << w[0];
            }
        }
        // Transitive closure (n <= 63 rounds of propagation suffice).
        loop {
            let mut changed = false;
            for j in 0..n {
                let mut closed = before[j];
                let mut rest = before[j];
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    closed |= before[i];
                }
                if closed != before[j] {
                    before[j] = closed;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if let Some(j) = (0..n).find(|&j| before[j] >> j & 1 == 1) {
            return Err(PrecedenceError::Cycle(j));
        }
        Ok(Precedence { before })
    }

    /// The morsels that must be eaten before `j` (bitmask).
    pub fn before(&self, j: usize) -> u64 {
        self.before[j]
    }

    /// Whether `j` may be eaten when the morsels in `remaining` are still on the plate.
    #[inline]
    pub fn accessible(&self, j: usize, remaining: u64) -> bool {
        self.before[j] & remaining == 0
    }

    /// Whether `remaining` can occur: every eaten morsel's predecessors are eaten.
    pub fn reachable(&self, remaining: u64) -> bool {
        let n = self.before.len();
        (0..n).all(|j| remaining >> j & 1 == 1 || self.before[j] & remaining == 0)
    }

    /// Number of morsels the order is over.
    pub fn morsels(&self) -> usize {
        self.before.len()
    }

    /// Whether no morsel has a predecessor (the plain dinner).
    pub fn is_trivial(&self) -> bool {
        self.before.iter().all(|&b| b == 0)
    }
}

/// Variations of the payoffs and rules of a dinner (paper: "Generalized payoffs" and
/// "Open questions"). The default is the plain game; each rule is added by a method that
/// checks it on its own (a positive discount, a square altruism matrix), and [`Setup`]
/// checks the rules against a dinner (the matrix's size, the precedence's morsels).
///
/// ```
/// use lastbite::games::dinner::Rules;
/// let r = Rules::default().with_discount("1/2".parse().unwrap()).unwrap();
/// assert_eq!(r.discount().unwrap().to_string(), "1/2");
/// assert!(Rules::default().with_discount("0".parse().unwrap()).is_err());
/// assert!(Rules::default().with_altruism(vec![vec!["1".parse().unwrap()]; 2]).is_err());
/// ```
///
/// [`Setup`]: super::Setup
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    altruism: Option<Vec<Vec<Exact>>>,
    discount: Option<Exact>,
    before: Option<Precedence>,
}

impl Rules {
    /// Adds delayed gratification: a morsel eaten on turn `t` (from 1) is worth
    /// `discount^t` times its value. The discount must be positive.
    pub fn with_discount(mut self, discount: Exact) -> Result<Rules, DinnerError> {
        if discount <= Exact::ZERO {
            return Err(DinnerError::Discount(discount));
        }
        self.discount = Some(discount);
        Ok(self)
    }

    /// Adds inaccessible morsels: the partial order eating must respect.
    pub fn with_before(mut self, before: Precedence) -> Rules {
        self.before = Some(before);
        self
    }

    /// Adds altruism payoffs: `matrix[e][r]` is what player `r` receives, per unit of the
    /// eater's utility, when player `e` eats a morsel. The matrix must be square (`k x k`
    /// for `k` players; [`Setup`](super::Setup) checks `k`).
    pub fn with_altruism(mut self, matrix: Vec<Vec<Exact>>) -> Result<Rules, DinnerError> {
        let k = matrix.len();
        if k == 0 || matrix.iter().any(|row| row.len() != k) {
            return Err(DinnerError::AltruismShape {
                players: k,
                rows: k,
                columns: matrix.iter().map(Vec::len).max().unwrap_or(0),
            });
        }
        self.altruism = Some(matrix);
        Ok(self)
    }

    /// The altruism matrix, `None` for the plain game (the identity).
    pub fn altruism_matrix(&self) -> Option<&[Vec<Exact>]> {
        self.altruism.as_deref()
    }

    /// The discount factor, if any (always positive).
    pub fn discount(&self) -> Option<Exact> {
        self.discount
    }

    /// The precedence of inaccessible morsels, if any.
    pub fn before(&self) -> Option<&Precedence> {
        self.before.as_ref()
    }

    /// The paper's altruism payoffs for two players: `p_A = alpha_A * (Alice's utility of
    /// what she eats) + beta_A * (Bob's utility of what he eats)`, and `p_B = alpha_B *
    /// (Alice's utility of what she eats) + beta_B * (Bob's utility of what he eats)`.
    pub fn altruism(alpha_a: Exact, beta_a: Exact, alpha_b: Exact, beta_b: Exact) -> Rules {
        Rules {
            altruism: Some(vec![vec![alpha_a, alpha_b], vec![beta_a, beta_b]]),
            ..Rules::default()
        }
    }

    /// Whether these are the rules of the plain dinner.
    pub fn is_plain(&self) -> bool {
        self.altruism.is_none()
            && self.discount.is_none()
            && self.before.as_ref().is_none_or(Precedence::is_trivial)
    }
}
