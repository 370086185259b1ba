//! Validated boards and placements (the Riddler's "Token Dollars").
//!
//! Stacks of money at positions `1..=M` on a line or a clock; each player places one
//! token on a distinct stack; every stack goes to the nearest token(s), split equally
//! when several are equally near. Payoffs are exact: values are scaled by `lcm(1..=P)` so
//! every split is an integer.

use std::fmt;

use crate::exact::{lcm, Exact};

/// What is wrong with a board or a request on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokensError {
    /// No stacks.
    #[error("there are no stacks (--stacks must be at least 1)")]
    NoStacks,
    /// More players than stacks.
    #[error("{players} players cannot place tokens on {stacks} distinct stacks")]
    TooManyPlayers {
        /// Players.
        players: usize,
        /// Stacks.
        stacks: usize,
    },
    /// No players.
    #[error("there must be at least one player")]
    NoPlayers,
    /// A value that is not a non-negative exact number.
    #[error("stack value {index} ('{text}'): {why}")]
    Value {
        /// 1-based stack position.
        index: usize,
        /// The text given.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// Too many stacks for bitmask states.
    #[error("{0} stacks: at most 64 are supported")]
    TooManyStacks(usize),
    /// Arithmetic beyond 64 bits.
    #[error("the stack values are too large for exact 64-bit arithmetic after scaling")]
    Overflow,
    /// An engine error.
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
}

/// Stacks on a line or a clock, for a number of players.
///
/// ```
/// use lastbite::games::tokens::Board;
/// let b = Board::dollars(10, 3, false).unwrap();
/// // Ariel 5, Beatrice 9, Cassandra 8: Cassandra gets 7 and 8, Beatrice 9 and 10.
/// let pay = b.payoffs(&[5, 9, 8]);
/// assert_eq!(b.real(pay[2]).to_string(), "15");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Scaled values, index 0 = position 1.
    values: Vec<i64>,
    players: usize,
    clock: bool,
    /// The common scale: lcm of value denominators times lcm(1..=players).
    scale: i64,
}

impl Board {
    /// Stacks worth $1..$M at positions 1..M.
    pub fn dollars(stacks: usize, players: usize, clock: bool) -> Result<Board, TokensError> {
        Board::new(
            (1..=stacks as i128).map(Exact::integer).collect(),
            players,
            clock,
        )
    }

    /// Stacks with the given exact values (non-negative) at positions 1..M.
    pub fn new(values: Vec<Exact>, players: usize, clock: bool) -> Result<Board, TokensError> {
        let m = values.len();
        if m == 0 {
            return Err(TokensError::NoStacks);
        }
        if m > 64 {
            return Err(TokensError::TooManyStacks(m));
        }
        if players == 0 {
            return Err(TokensError::NoPlayers);
        }
        if players > m {
            return Err(TokensError::TooManyPlayers { players, stacks: m });
        }
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| **v < Exact::ZERO) {
            return Err(TokensError::Value {
                index: i + 1,
                text: v.to_string(),
                why: "values must not be negative".into(),
            });
        }
        let mut scale: i128 = (1..=players as i128)
            .try_fold(1, lcm)
            .ok_or(TokensError::Overflow)?;
        for v in &values {
            scale = lcm(scale, v.denom()).ok_or(TokensError::Overflow)?;
        }
        let scaled: Vec<i64> = values
            .iter()
            .map(|v| {
                v.scaled_to(scale)
                    .and_then(|x| i64::try_from(x).ok())
                    .ok_or(TokensError::Overflow)
            })
            .collect::<Result<_, _>>()?;
        let total: i128 = scaled.iter().map(|&v| v as i128).sum();
        if total > i64::MAX as i128 / 2 || scale > i64::MAX as i128 {
            return Err(TokensError::Overflow);
        }
        Ok(Board {
            values: scaled,
            players,
            clock,
            scale: scale as i64,
        })
    }

    /// Parses comma-separated exact values, naming the bad one.
    pub fn parse_values(text: &str, players: usize, clock: bool) -> Result<Board, TokensError> {
        let values = text
            .split(',')
            .enumerate()
            .map(|(i, t)| {
                t.trim().parse::<Exact>().map_err(|e| TokensError::Value {
                    index: i + 1,
                    text: t.trim().into(),
                    why: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Board::new(values, players, clock)
    }

    /// Number of stacks.
    pub fn stacks(&self) -> usize {
        self.values.len()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Whether the stacks are on a clock.
    pub fn clock(&self) -> bool {
        self.clock
    }

    /// A scaled payoff in real units.
    pub fn real(&self, scaled: i64) -> Exact {
        Exact::new(scaled as i128, self.scale as i128).expect("positive scale")
    }

    /// The sum of all values (scaled).
    pub fn total(&self) -> i64 {
        self.values.iter().sum()
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let d = a.abs_diff(b);
        if self.clock {
            d.min(self.stacks() - d)
        } else {
            d
        }
    }

    /// Each token's share (scaled), for tokens at 1-based `positions` (distinct; fewer
    /// than all players is allowed: only the placed tokens share the stacks).
    pub fn payoffs(&self, positions: &[usize]) -> Vec<i64> {
        let mut pay = vec![0i64; positions.len()];
        let mut nearest = Vec::with_capacity(positions.len());
        for stack in 1..=self.stacks() {
            nearest.clear();
            let mut best = usize::MAX;
            for (p, &pos) in positions.iter().enumerate() {
                let d = self.distance(stack, pos);
                if d < best {
                    best = d;
                    nearest.clear();
                }
                if d == best {
                    nearest.push(p);
                }
            }
            let share = self.values[stack - 1] / nearest.len() as i64;
            for &p in &nearest {
                pay[p] += share;
            }
        }
        pay
    }

    /// The share (scaled) of the token at `own` when the tokens occupy `taken` (a bitmask
    /// of positions, bit `i` for position `i + 1`, including `own`).
    pub fn share(&self, own: usize, taken: u64) -> i64 {
        let mut total = 0;
        for stack in 1..=self.stacks() {
            let mine = self.distance(stack, own);
            let mut ties = 0i64;
            let mut closer = false;
            let mut rest = taken;
            while rest != 0 {
                let pos = rest.trailing_zeros() as usize + 1;
                rest &= rest - 1;
                let d = self.distance(stack, pos);
                if d < mine {
                    closer = true;
                    break;
                }
                if d == mine {
                    ties += 1;
                }
            }
            if !closer {
                total += self.values[stack - 1] / ties;
            }
        }
        total
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} stacks on a {}, {} players",
            self.stacks(),
            if self.clock { "clock" } else { "line" },
            self.players
        )
    }
}
