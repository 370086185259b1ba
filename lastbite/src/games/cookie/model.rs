//! Positions of the cookie game and the structural operations of Section 1 (Propp and
//! Ullman, "On the Cookie Game"): options, surplus, deletion, depletion, reduced and
//! strict positions, and the dominance order.

use std::fmt;
use std::str::FromStr;

use crate::engine::impartial::Impartial;

/// What is wrong with a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CookieError {
    /// A component that is not a non-negative integer.
    #[error("component {index} ('{text}') is not a non-negative integer")]
    Component {
        /// 1-based position in the input.
        index: usize,
        /// The text.
        text: String,
    },
    /// A request outside what the brute force can hold.
    #[error("{0}")]
    TooLarge(String),
}

/// A position: a multiset of non-negative integers (days of edibility), kept sorted.
///
/// ```
/// use lastbite::games::cookie::Position;
/// let a: Position = "0 1 1 3 4 5 8 8".parse().unwrap();
/// assert_eq!(a.surplus(), 2);
/// assert_eq!(a.deletion().to_string(), "(1, 3, 4, 5, 8, 8)");
/// assert_eq!(a.reduced().to_string(), "(1, 3, 4, 5, 6, 6)");
/// assert!(a.reduced().is_strict());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    components: Vec<u64>,
}

impl Position {
    /// A position from its components (any order).
    pub fn new(mut components: Vec<u64>) -> Position {
        components.sort_unstable();
        Position { components }
    }

    /// The components, increasing.
    pub fn components(&self) -> &[u64] {
        &self.components
    }

    /// The components, taking the position apart (to reuse the allocation).
    pub fn into_components(self) -> Vec<u64> {
        self.components
    }

    /// Number of components `n`.
    pub fn len(&self) -> usize {
        self.components.len()
    }

    /// Whether there are no components.
    pub fn is_empty(&self) -> bool {
        self.components.is_empty()
    }

    /// The option `A_k` (k from 1): remove `a_k`, every other component loses a day.
    /// `None` when `a_k` has expired.
    pub fn option(&self, k: usize) -> Option<Position> {
        if self.components[k - 1] == 0 {
            return None;
        }
        let rest = self
            .components
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k - 1)
            .map(|(_, &a)| a.saturating_sub(1))
            .collect();
        Some(Position { components: rest })
    }

    /// The options, one per distinct unexpired component size.
    pub fn options(&self) -> Vec<Position> {
        let mut out = Vec::new();
        for k in 1..=self.len() {
            if k > 1 && self.components[k - 1] == self.components[k - 2] {
                continue;
            }
            if let Some(o) = self.option(k) {
                out.push(o);
            }
        }
        out
    }

    /// The canonical form: expired components dropped (they can never be eaten).
    pub fn canonical(&self) -> Position {
        Position {
            components: self.components.iter().copied().filter(|&a| a > 0).collect(),
        }
    }

    /// The surplus `s(A) = max_{0 <= k <= n} (k - a_k)`, `a_0 = 0`.
    pub fn surplus(&self) -> usize {
        self.components
            .iter()
            .enumerate()
            .map(|(i, &a)| (i as i128 + 1 - a as i128).max(0) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The deletion: the components after the first `s(A)`.
    pub fn deletion(&self) -> Position {
        Position {
            components: self.components[self.surplus()..].to_vec(),
        }
    }

    /// The depletion: every component capped at `n`.
    pub fn depletion(&self) -> Position {
        let n = self.len() as u64;
        Position {
            components: self.components.iter().map(|&a| a.min(n)).collect(),
        }
    }

    /// The reduced form: deletion, then depletion (tantamount to the position).
    pub fn reduced(&self) -> Position {
        self.deletion().depletion()
    }

    /// Whether the position is reduced and no component below `n` repeats.
    pub fn is_strict(&self) -> bool {
        let n = self.len() as u64;
        self.surplus() == 0
            && self.components.iter().all(|&a| (1..=n).contains(&a))
            && self.components.last() == Some(&n)
            && self.components.windows(2).all(|w| w[0] < w[1] || w[0] == n)
    }

    /// Whether `self` dominates `other`: with `other`'s components matched to the largest
    /// ones of `self`, each is at least as large.
    pub fn dominates(&self, other: &Position) -> bool {
        let (m, n) = (self.len(), other.len());
        m >= n && (0..n).all(|j| self.components[m - n + j] >= other.components[j])
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.components.iter().map(|a| a.to_string()).collect();
        write!(f, "({})", parts.join(", "))
    }
}

impl FromStr for Position {
    type Err = CookieError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let comps = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.trim_matches(|c| c == '(' || c == ')'))
            .enumerate()
            .map(|(i, t)| {
                t.parse::<u64>().map_err(|_| CookieError::Component {
                    index: i + 1,
                    text: t.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Position::new(comps))
    }
}

/// The cookie game as an impartial game for the engine.
pub struct CookieGame;

impl Impartial for CookieGame {
    type Position = Position;
    fn options(&self, p: &Position) -> Vec<Position> {
        p.options()
    }
    fn canonical(&self, p: &Position) -> Position {
        p.canonical()
    }
}
