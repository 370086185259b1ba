//! The families of rulesets a sweep covers: every set of a size up to a largest element,
//! or random sets, in the order that makes the first failure the smallest counterexample.

use crate::games::subtraction::model::{Ruleset, SubtractionError, MAX_ELEMENT};
use crate::rng::Rng;

/// Which rulesets a sweep covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Family {
    /// Every set of `size` elements with largest element at most `max` (pairs are size 2).
    All {
        /// Number of elements.
        size: usize,
        /// Largest element.
        max: u64,
    },
    /// `count` random sets of `size` elements at most `max`, from `seed`.
    Random {
        /// Number of elements.
        size: usize,
        /// Largest element.
        max: u64,
        /// How many.
        count: u64,
        /// Seed.
        seed: u64,
    },
}

impl Family {
    /// How many rulesets the family holds (`u64::MAX` past it).
    pub fn count(&self) -> u64 {
        match *self {
            Family::All { size, max } if size == 0 || max < size as u64 => 0,
            Family::All { size, max } => binomial(max, size as u64),
            Family::Random { count, .. } => count,
        }
    }

    /// The memory the family's list of rulesets takes, in bytes (see [`ruleset_bytes`]).
    pub fn bytes(&self) -> u128 {
        let (Family::All { size, .. } | Family::Random { size, .. }) = *self;
        u128::from(self.count()) * u128::from(ruleset_bytes(size))
    }

    /// The rulesets, ordered by largest element, then lexicographically (descending
    /// element lists compared from the largest), so the first failure is the smallest
    /// counterexample.
    pub fn rulesets(&self) -> Result<Vec<Ruleset>, SubtractionError> {
        match *self {
            Family::All { size, max } => {
                if size == 0 || max < size as u64 {
                    return Err(SubtractionError::Budget(format!(
                        "no set of {size} elements has largest element <= {max}"
                    )));
                }
                let count = binomial(max, size as u64);
                if count > MAX_RULESETS {
                    let over = if count == u64::MAX { "more than " } else { "" };
                    return Err(SubtractionError::Budget(format!(
                        "{over}{count} rulesets of {size} elements up to {max}: too many to sweep (at most {MAX_RULESETS})"
                    )));
                }
                let mut out = Vec::with_capacity(count as usize);
                // Largest element first, then the rest in lexicographic order.
                for top in size as u64..=max {
                    let mut rest: Vec<u64> = (1..size as u64).collect();
                    loop {
                        // Exactly `size` long: a list grown by a push would hold twice.
                        let mut e = Vec::with_capacity(size);
                        e.extend_from_slice(&rest);
                        e.push(top);
                        out.push(Ruleset::new(e)?);
                        // Next combination of size-1 elements below `top`.
                        let k = rest.len();
                        let mut i = k;
                        while i > 0 && rest[i - 1] == top - 1 - (k - i) as u64 {
                            i -= 1;
                        }
                        if i == 0 {
                            break;
                        }
                        rest[i - 1] += 1;
                        for j in i..k {
                            rest[j] = rest[j - 1] + 1;
                        }
                    }
                }
                Ok(out)
            }
            Family::Random {
                size,
                max,
                count,
                seed,
            } => {
                if size == 0 || max < size as u64 {
                    return Err(SubtractionError::Budget(format!(
                        "no set of {size} elements has largest element <= {max}"
                    )));
                }
                if max > MAX_ELEMENT {
                    return Err(SubtractionError::Budget(format!(
                        "random sets with elements up to {max}: the largest element is {MAX_ELEMENT}"
                    )));
                }
                if count > MAX_RULESETS {
                    return Err(SubtractionError::Budget(format!(
                        "{count} random rulesets: too many to sweep (at most {MAX_RULESETS})"
                    )));
                }
                (0..count)
                    .map(|t| {
                        let mut rng = Rng::for_trial(seed, t);
                        let mut e: Vec<u64> = Vec::with_capacity(size);
                        while e.len() < size {
                            let x = 1 + rng.below(max);
                            if !e.contains(&x) {
                                e.push(x);
                            }
                        }
                        // Positive and distinct; an element past the games' range is refused.
                        Ruleset::new(e)
                    })
                    .collect()
            }
        }
    }
}

/// The most rulesets one sweep lists: every set of size 5 up to 80 (24,040,016) fits; the
/// memory the list takes is budgeted apart (`memory_gib`, before any is listed).
pub const MAX_RULESETS: u64 = 30_000_000;

/// The bytes one listed ruleset of `size` elements takes: the list's 24 and its
/// elements' allocation (the allocator's 16-byte chunks, 8 bytes of them its header).
pub fn ruleset_bytes(size: usize) -> u64 {
    24 + (8 * size as u64 + 8).next_multiple_of(16).max(32)
}

/// The rulesets of several families, one list after another, made at once: refused
/// before any is made when they are more than [`MAX_RULESETS`] together.
pub fn rulesets_of(families: &[Family]) -> Result<Vec<Ruleset>, SubtractionError> {
    let total = families
        .iter()
        .fold(0u64, |n, f| n.saturating_add(f.count()));
    if total > MAX_RULESETS && families.len() > 1 {
        let over = if total == u64::MAX { "more than " } else { "" };
        return Err(SubtractionError::Budget(format!(
            "{over}{total} rulesets together: too many to sweep (at most {MAX_RULESETS})"
        )));
    }
    if let [one] = families {
        return one.rulesets();
    }
    let mut out = Vec::with_capacity(total.min(MAX_RULESETS) as usize);
    for f in families {
        out.extend(f.rulesets()?);
    }
    Ok(out)
}

/// C(n, k), saturating at `u64::MAX` (a family too large to sweep either way).
fn binomial(n: u64, k: u64) -> u64 {
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc.saturating_mul((n - i) as u128) / (i + 1) as u128;
        if acc >= u64::MAX as u128 {
            return u64::MAX;
        }
    }
    acc as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_ordered_and_complete() {
        let pairs = Family::All { size: 2, max: 5 }.rulesets().unwrap();
        let text: Vec<String> = pairs.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            text,
            [
                "{1,2}", "{1,3}", "{2,3}", "{1,4}", "{2,4}", "{3,4}", "{1,5}", "{2,5}", "{3,5}",
                "{4,5}"
            ]
        );
        assert_eq!(
            Family::All { size: 3, max: 10 }.rulesets().unwrap().len(),
            120
        );
        let r = Family::Random {
            size: 3,
            max: 25,
            count: 20,
            seed: 1,
        }
        .rulesets()
        .unwrap();
        assert!(r.iter().all(|s| s.elements().len() == 3 && s.max() <= 25));
    }
}
