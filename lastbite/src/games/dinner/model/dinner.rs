//! The dinner itself: morsels with one exact utility per player, scaled to a common
//! denominator once so every solver compares integers; and a [`Bite`] of a play.

use crate::engine::Player;
use crate::exact::{lcm, Exact};

use super::{DinnerError, MAX_PLAYERS};

/// A dinner: morsels with one exact utility per player.
///
/// Utilities are stored scaled by a common denominator ([`Dinner::scale`]) as `i64`, so
/// that all comparisons are integer comparisons.
///
/// ```
/// use lastbite::games::dinner::Dinner;
/// let d = Dinner::from_morsels("1,2 2.5,3 3,1").unwrap();
/// assert_eq!((d.len(), d.players(), d.scale()), (3, 2, 2));
/// assert_eq!(d.value(1, 0).to_string(), "5/2");
/// assert!(Dinner::from_morsels("1,2 3").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dinner {
    players: usize,
    utilities: Vec<i64>,
    scale: i128,
}

impl Dinner {
    /// A dinner from exact utilities given morsel by morsel, `players` per morsel.
    /// `locate(i)` names morsel `i` in error messages.
    pub fn from_flat(
        players: usize,
        values: Vec<Exact>,
        locate: impl Fn(usize, usize) -> String,
    ) -> Result<Dinner, DinnerError> {
        if values.is_empty() {
            return Err(DinnerError::Empty);
        }
        if players == 0 {
            return Err(DinnerError::NoUtilities { at: locate(0, 0) });
        }
        if players > MAX_PLAYERS {
            return Err(DinnerError::TooManyPlayers(players));
        }
        debug_assert_eq!(values.len() % players, 0);
        let mut scale: i128 = 1;
        for (i, v) in values.iter().enumerate() {
            if v.denom() != 1 {
                scale = lcm(scale, v.denom())
                    .filter(|&d| d <= 1_000_000_000_000_000_000)
                    .ok_or_else(|| DinnerError::Denominator {
                        at: locate(i / players, i % players),
                    })?;
            }
        }
        let utilities = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.scaled_to(scale)
                    .and_then(|x| i64::try_from(x).ok())
                    .ok_or_else(|| DinnerError::TooLarge {
                        at: locate(i / players, i % players),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Dinner {
            players,
            utilities,
            scale,
        })
    }

    /// A dinner with integer utilities, `players` per morsel (the fast path for large
    /// generated dinners).
    pub fn from_integers(players: usize, utilities: Vec<i64>) -> Result<Dinner, DinnerError> {
        if utilities.is_empty() {
            return Err(DinnerError::Empty);
        }
        if players == 0 || !utilities.len().is_multiple_of(players) {
            return Err(DinnerError::Columns {
                at: "input".into(),
                expected: players,
                found: utilities.len() % players.max(1),
            });
        }
        if players > MAX_PLAYERS {
            return Err(DinnerError::TooManyPlayers(players));
        }
        Ok(Dinner {
            players,
            utilities,
            scale: 1,
        })
    }

    /// The permutation dinner `{(1, b_1), ..., (n, b_n)}`.
    pub fn permutation(b: &[i64]) -> Result<Dinner, DinnerError> {
        let flat = b
            .iter()
            .enumerate()
            .flat_map(|(i, &bi)| [i as i64 + 1, bi])
            .collect();
        Dinner::from_integers(2, flat)
    }

    /// Parses morsels written as `"1,2 2,3 3,1"`: morsels separated by spaces or
    /// semicolons, utilities by commas or colons (`"1:2 2:3 3:1"`, for callers whose
    /// parameters cannot hold commas).
    pub fn from_morsels(text: &str) -> Result<Dinner, DinnerError> {
        let morsels: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|s| !s.is_empty())
            .collect();
        let rows = morsels
            .iter()
            .map(|m| m.split([',', ':']).collect::<Vec<_>>());
        Dinner::from_rows(
            rows,
            // Morsels are numbered from 0 everywhere, errors included; utilities by player.
            |i| format!("morsel {i} ({})", morsels[i]),
            |i, p| {
                let who = crate::engine::player_letter(p);
                format!("morsel {i} ({}), utility of {who}", morsels[i])
            },
        )
    }

    /// Number of morsels.
    pub fn len(&self) -> usize {
        self.utilities.len() / self.players
    }

    /// Always false: a dinner has at least one morsel.
    pub fn is_empty(&self) -> bool {
        self.utilities.is_empty()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The common denominator the utilities are scaled by.
    pub fn scale(&self) -> i128 {
        self.scale
    }

    /// The scaled utility of morsel `i` to player `p`.
    #[inline]
    pub fn utility(&self, i: usize, p: Player) -> i64 {
        self.utilities[i * self.players + p]
    }

    /// The exact utility of morsel `i` to player `p`.
    pub fn value(&self, i: usize, p: Player) -> Exact {
        if self.scale == 1 {
            // Integer dinners (the large ones) skip the reduction.
            return Exact::integer(self.utility(i, p) as i128);
        }
        self.unscale(self.utility(i, p) as i128)
    }

    /// A scaled amount as an exact value.
    pub fn unscale(&self, scaled: i128) -> Exact {
        Exact::new(scaled, self.scale).expect("scale is positive")
    }

    /// The largest absolute scaled utility.
    pub fn max_abs(&self) -> i128 {
        self.utilities
            .iter()
            .map(|u| (*u as i128).abs())
            .max()
            .unwrap_or(0)
    }

    /// The dinner of morsels `keep` only (indices from 0; morsel `j` of the result is
    /// `keep[j]`). `keep` must be non-empty and in range.
    pub fn sub_dinner(&self, keep: &[usize]) -> Dinner {
        assert!(!keep.is_empty(), "a dinner has at least one morsel");
        let k = self.players;
        Dinner {
            players: k,
            utilities: keep
                .iter()
                .flat_map(|&i| self.utilities[i * k..(i + 1) * k].iter().copied())
                .collect(),
            scale: self.scale,
        }
    }

    /// Morsel `i` written as `(a, b, ...)`.
    pub fn morsel_text(&self, i: usize) -> String {
        let parts: Vec<String> = (0..self.players)
            .map(|p| self.value(i, p).to_string())
            .collect();
        format!("({})", parts.join(", "))
    }
}

/// One bite of the eating order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bite {
    /// The turn, from 0.
    pub turn: usize,
    /// Who eats.
    pub player: Player,
    /// The morsel eaten (index in input order, from 0).
    pub morsel: usize,
}
