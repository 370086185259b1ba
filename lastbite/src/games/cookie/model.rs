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
    #[error("component {index} ({}) is not a non-negative integer", crate::text::quote(&.text.to_string()))]
    Component {
        /// 1-based position in the input.
        index: usize,
        /// The text.
        text: String,
    },
    /// The caller cancelled the computation.
    #[error("cancelled before the computation finished")]
    Cancelled,
    /// A table over its memory budget or past its size limit, refused before allocating.
    #[error("{}", crate::text::clean(&over_budget(*.table, *.max_n, *.positions, *.need, *.budget, *.limit)))]
    OverBudget {
        /// Which table.
        table: TableKind,
        /// The components asked for.
        max_n: u32,
        /// The positions it would cover (the nim table: its last layer's).
        positions: u128,
        /// The bytes it needs.
        need: u64,
        /// The memory budget, in bytes.
        budget: u64,
        /// The table's size limit in components.
        limit: u32,
    },
    /// A nim-value past what the table's packing holds.
    #[error("a strict position with {n} components has a nim-value above 15, more than 4 bits hold (2 bits a position keep larger values aside)")]
    ValueTooWide {
        /// The layer's components.
        n: u32,
    },
    /// A position neither the theory nor the brute force can decide.
    #[error("{components} components and a reduced form that is not strict: neither the theory nor the brute force (up to {brute_force} components) applies")]
    BeyondMethods {
        /// The position's components.
        components: usize,
        /// The most components the brute force takes.
        brute_force: usize,
    },
    /// A layer could not be allocated.
    #[error("cannot allocate layer {layer}")]
    OutOfMemory {
        /// The layer's components.
        layer: u32,
    },
    /// A stored file could not be read or written.
    #[error("{}", crate::text::clean(&format!("{}: {message}", .path.display())))]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// A stored file that is not what the table wrote.
    #[error("{}", crate::text::clean(&format!("{}: {problem}", .path.display())))]
    CorruptStore {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it, and what to do.
        problem: String,
    },
}

/// The tables a budget refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// The strict nim table, at this many bits a position.
    Nim {
        /// Bits a position.
        bits: u32,
    },
    /// The general table of reduced positions.
    General,
}

fn over_budget(
    table: TableKind,
    max_n: u32,
    positions: u128,
    need: u64,
    budget: u64,
    limit: u32,
) -> String {
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let past = if max_n > limit {
        format!(" (and the limit is {limit} components)")
    } else {
        String::new()
    };
    match table {
        TableKind::Nim { bits } => format!(
            "a nim table to {max_n} components holds {positions} strict positions in its last layer and needs {:.1} GiB at once in {bits} bits a position, over the budget of {:.1} GiB{past}",
            gib(need),
            gib(budget),
        ),
        TableKind::General => format!(
            "a general table to {max_n} components covers {positions} reduced positions and needs {:.1} GiB, over the budget of {:.1} GiB{past}",
            gib(need),
            gib(budget),
        ),
    }
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

/// The sizes of the components whose eating wins (sorted, no repeats), by the engine's
/// brute force: the route the theory's [`winning_sizes`](super::theory::winning_sizes)
/// is checked against.
pub fn brute_force_winning_sizes(
    an: &mut crate::engine::impartial::Analyser<'_, CookieGame>,
    p: &Position,
) -> Vec<u64> {
    let mut wins: Vec<u64> = (1..=p.len())
        .filter_map(|k| p.option(k).map(|o| (p.components()[k - 1], o)))
        .filter(|(_, o)| an.value(o).outcome == crate::engine::impartial::Outcome::P)
        .map(|(size, _)| size)
        .collect();
    wins.dedup();
    wins
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

/// A strict position by its subset code (Section 1): `n` components, and bit `v - 1` of
/// `mask` set when `v < n` is a component; the other components are all `n`. There are
/// `2^(n-1)` strict positions with `n` components, so codes index dense tables.
///
/// ```
/// use lastbite::games::cookie::{Position, StrictCode};
/// let a: Position = "1 3 4 5 6 6".parse().unwrap();
/// let code = StrictCode::of(&a).unwrap();
/// assert_eq!((code.n, code.mask), (6, 0b11101));
/// assert_eq!(code.position(), a);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrictCode {
    /// The number of components (at most 64).
    pub n: u32,
    /// The components below `n`, as bits `v - 1`.
    pub mask: u64,
}

impl StrictCode {
    /// The code of a strict position (`None` when it is not strict or has over 64
    /// components).
    pub fn of(p: &Position) -> Option<StrictCode> {
        if !(p.is_empty() || p.is_strict()) || p.len() > 64 {
            return None;
        }
        let n = p.len() as u64;
        let mask = p
            .components()
            .iter()
            .filter(|&&a| a < n)
            .fold(0u64, |m, &a| m | 1 << (a - 1));
        Some(StrictCode { n: n as u32, mask })
    }

    /// The position.
    pub fn position(self) -> Position {
        let n = u64::from(self.n);
        let mut c: Vec<u64> = (1..n).filter(|v| self.mask >> (v - 1) & 1 == 1).collect();
        c.resize(self.n as usize, n);
        Position { components: c }
    }

    /// Calls `f` with the reduced form of each option, one per distinct component (the
    /// smaller components first, a top component `n` last), in O(1) each.
    ///
    /// Eating `x` and counting a day down shifts the code right by one bit. The reduced
    /// form differs from that only when `1` is a component and is not the one eaten: it
    /// expires, it is the whole surplus of the option (every other component keeps
    /// `a_k >= k`), so deletion drops it and depletion caps the rest at `n - 2`.
    #[inline]
    pub fn for_each_option(self, mut f: impl FnMut(StrictCode)) {
        let StrictCode { n, mask } = self;
        let shrink = |m: u64| {
            if mask & 1 == 1 {
                let bits = n.saturating_sub(3);
                StrictCode {
                    n: n - 2,
                    mask: (m >> 1) & ((1u64 << bits) - 1),
                }
            } else {
                StrictCode {
                    n: n - 1,
                    mask: m >> 1,
                }
            }
        };
        let mut rest = mask;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            if bit == 1 {
                // Eating the 1 itself: nothing expires.
                f(StrictCode {
                    n: n - 1,
                    mask: (mask ^ 1) >> 1,
                });
            } else {
                f(shrink(mask ^ bit));
            }
        }
        if n > 0 {
            f(shrink(mask));
        }
    }
}
