//! Validated rulesets and the four tie-breaking conventions (paper: Definition 2).

use std::fmt;
use std::str::FromStr;

use crate::engine::TieBreak;

/// What is wrong with a ruleset or a request on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubtractionError {
    /// No elements.
    #[error("the subtraction set is empty")]
    Empty,
    /// An element that is not a positive integer.
    #[error("subtraction set element {} is not a positive integer", crate::text::quote(&.0.to_string()))]
    Element(String),
    /// An element too large for this tool.
    #[error("subtraction set element {0} is larger than {MAX_ELEMENT}")]
    TooLarge(String),
    /// An element written twice (a set's elements are distinct).
    #[error("subtraction set element {0} is written twice (the elements of a subtraction set are distinct)")]
    Repeated(u64),
    /// A heap that is not a non-negative integer.
    #[error("heap {} is not a non-negative integer below 2^128", crate::text::quote(&.0.to_string()))]
    Heap(String),
    /// An unknown convention.
    #[error("unknown convention {} (expected FvF, FvA, AvF or AvA)", crate::text::quote(&.0.to_string()))]
    Convention(String),
    /// A table or search over the memory budget.
    #[error("{}", crate::text::clean(&.0.to_string()))]
    Budget(String),
    /// The caller cancelled the computation.
    #[error("cancelled before the computation finished")]
    Cancelled,
    /// No period was found within the search limit.
    #[error("no period with a certificate up to heap {0}; raise the period-search limit")]
    NoPeriod(u64),
    /// Arithmetic beyond 128 bits.
    #[error("the outcome at heap {0} exceeds 128-bit arithmetic")]
    Overflow(String),
    /// A take that is not a move of the position it is played from.
    #[error(
        "take {index} is not an element of S = {{{}}} at most the heap left, {heap}",
        .set.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
    )]
    Take {
        /// Which take, from 1.
        index: usize,
        /// The amount taken.
        take: u64,
        /// The set's elements.
        set: Vec<u64>,
        /// The heap left before it.
        heap: u128,
    },
}

/// The largest element accepted (tables are indexed by heap).
pub const MAX_ELEMENT: u64 = 1 << 24;

/// A subtraction set `S`: distinct positive integers, kept sorted.
///
/// ```
/// use lastbite::games::subtraction::Ruleset;
/// let s: Ruleset = "9,4,5".parse().unwrap();
/// assert_eq!(s.elements(), &[4, 5, 9]);
/// assert!("3,0".parse::<Ruleset>().is_err());
/// assert!("".parse::<Ruleset>().is_err());
/// assert!("3,3".parse::<Ruleset>().is_err()); // text names each element once
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ruleset {
    elements: Vec<u64>,
}

impl Ruleset {
    /// A ruleset from its elements (duplicates are merged; text that repeats one is
    /// refused when parsed).
    pub fn new(mut elements: Vec<u64>) -> Result<Ruleset, SubtractionError> {
        if elements.is_empty() {
            return Err(SubtractionError::Empty);
        }
        if let Some(&z) = elements.iter().find(|&&e| e == 0) {
            return Err(SubtractionError::Element(z.to_string()));
        }
        if let Some(&big) = elements.iter().find(|&&e| e > MAX_ELEMENT) {
            return Err(SubtractionError::TooLarge(big.to_string()));
        }
        elements.sort_unstable();
        elements.dedup();
        Ok(Ruleset { elements })
    }

    /// The elements in increasing order.
    pub fn elements(&self) -> &[u64] {
        &self.elements
    }

    /// `max S`.
    pub fn max(&self) -> u64 {
        *self.elements.last().expect("non-empty")
    }

    /// `min S`.
    pub fn min(&self) -> u64 {
        self.elements[0]
    }
}

impl FromStr for Ruleset {
    type Err = SubtractionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim().trim_start_matches('{').trim_end_matches('}');
        if trimmed.trim().is_empty() {
            return Err(SubtractionError::Empty);
        }
        let elements = trimmed
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| {
                let t = t.trim();
                if !t.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(SubtractionError::Element(t.to_string()));
                }
                t.parse::<u64>()
                    .map_err(|_| SubtractionError::TooLarge(t.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let set = Ruleset::new(elements.clone())?;
        if set.elements.len() < elements.len() {
            let mut seen = std::collections::HashSet::new();
            let twice = elements.into_iter().find(|e| !seen.insert(*e));
            return Err(SubtractionError::Repeated(
                twice.expect("a repeated element"),
            ));
        }
        Ok(set)
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.elements.iter().map(|e| e.to_string()).collect();
        write!(f, "{{{}}}", parts.join(","))
    }
}

/// A heap size, parsed from text: any non-negative integer below 2^128.
pub fn parse_heap(s: &str) -> Result<u128, SubtractionError> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SubtractionError::Heap(t.to_string()));
    }
    t.parse::<u128>()
        .map_err(|_| SubtractionError::Heap(t.to_string()))
}

/// A pair of tie-breaking conventions: the first letter is Alice's (the player who
/// starts), the second Bob's (paper, Section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Convention {
    /// Both friendly.
    FvF,
    /// Alice friendly, Bob antagonistic.
    FvA,
    /// Alice antagonistic, Bob friendly.
    AvF,
    /// Both antagonistic.
    AvA,
}

impl Convention {
    /// All four, in the paper's column order.
    pub const ALL: [Convention; 4] = [
        Convention::FvF,
        Convention::FvA,
        Convention::AvF,
        Convention::AvA,
    ];

    /// The dual `d(X)`: the same players with roles swapped (after a move the other
    /// player is to move).
    pub fn dual(self) -> Convention {
        match self {
            Convention::FvA => Convention::AvF,
            Convention::AvF => Convention::FvA,
            other => other,
        }
    }

    /// Whether the player to move is antagonistic.
    pub fn mover_antagonistic(self) -> bool {
        matches!(self, Convention::AvF | Convention::AvA)
    }

    /// The engine's per-player rules (Alice, Bob).
    pub fn rules(self) -> [TieBreak; 2] {
        let r = |antagonistic: bool| {
            if antagonistic {
                TieBreak::Antagonistic
            } else {
                TieBreak::Friendly
            }
        };
        [
            r(self.mover_antagonistic()),
            r(matches!(self, Convention::FvA | Convention::AvA)),
        ]
    }

    /// Index in [`Convention::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name, e.g. `FvA`.
    pub fn name(self) -> &'static str {
        ["FvF", "FvA", "AvF", "AvA"][self.index()]
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Convention {
    type Err = SubtractionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Convention::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| SubtractionError::Convention(s.trim().to_string()))
    }
}
