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
    #[error("there are no stacks (give at least one)")]
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
    #[error("stack value {index} ({}): {why}", crate::text::quote(&.text.to_string()))]
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
    /// The caller cancelled the computation.
    #[error("cancelled before the computation finished")]
    Cancelled,
    /// Placements that are no position of the game ([`Placed::new`]).
    #[error("{0}")]
    Placement(String),
    /// A finest grid of the continuous game that is not a power of two up to
    /// [`MAX_REFINEMENT`].
    #[error("{0} is not a power of two up to {MAX_REFINEMENT}")]
    Refinement(usize),
    /// A bad layout of stacks for tokens anywhere ([`super::Arena::new`]), naming the
    /// request field it is about.
    #[error("{why}")]
    Layout {
        /// The field: `positions`, `values`, `circumference` or `players`.
        field: &'static str,
        /// What is wrong.
        why: String,
    },
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
    /// Token positions are `1..=positions`.
    positions: usize,
    /// The stacks holding money: (position, scaled value).
    stacks: Vec<(usize, i64)>,
    /// Number of stacks (with or without money), the `M` of $1..$M.
    stack_count: usize,
    /// Grid refinement: stack `i` sits at position `k (i - 1) + 1`.
    k: usize,
    players: usize,
    clock: bool,
    /// The common scale: lcm of value denominators times lcm(1..=players).
    scale: i64,
}

/// The largest number of token positions (grid points).
pub const MAX_POSITIONS: usize = 4096;

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
        Board::grid(values, players, clock, 1)
    }

    /// The continuous game on the grid of step `1/k`: tokens may be placed at
    /// `1, 1 + 1/k, ..., M` (on a clock, all the way round), stacks stay at the integers.
    pub fn grid(
        values: Vec<Exact>,
        players: usize,
        clock: bool,
        k: usize,
    ) -> Result<Board, TokensError> {
        let m = values.len();
        if m == 0 {
            return Err(TokensError::NoStacks);
        }
        if players == 0 {
            return Err(TokensError::NoPlayers);
        }
        if k == 0 {
            return Err(TokensError::Value {
                index: 0,
                text: "0".into(),
                why: "the grid refinement must be at least 1".into(),
            });
        }
        let positions = if clock { k * m } else { k * (m - 1) + 1 };
        if positions > MAX_POSITIONS {
            return Err(TokensError::TooManyStacks(positions));
        }
        if players > positions {
            return Err(TokensError::TooManyPlayers { players, stacks: m });
        }
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| **v < Exact::ZERO) {
            return Err(TokensError::Value {
                index: i + 1,
                text: v.to_string(),
                why: "values must not be negative".into(),
            });
        }
        // The values' common denominator times lcm(1..=players): a stack's value split
        // among any number of tied tokens stays an integer. (The lcm of the two would
        // not do: 3/2 split two ways needs quarters.)
        let splits: i128 = (1..=players as i128)
            .try_fold(1, lcm)
            .ok_or(TokensError::Overflow)?;
        let mut scale: i128 = 1;
        for v in &values {
            scale = lcm(scale, v.denom()).ok_or(TokensError::Overflow)?;
        }
        let scale = scale.checked_mul(splits).ok_or(TokensError::Overflow)?;
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
        let stacks = scaled
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v > 0)
            .map(|(i, &v)| (k * i + 1, v))
            .collect();
        Ok(Board {
            positions,
            stacks,
            stack_count: m,
            k,
            players,
            clock,
            scale: scale as i64,
        })
    }

    /// Parses exact values separated by commas (or, in text without commas, by spaces:
    /// for callers whose parameters cannot hold commas), naming the bad one.
    pub fn parse_values(text: &str, players: usize, clock: bool) -> Result<Board, TokensError> {
        let parts: Vec<&str> = if text.contains(',') {
            text.split(',').collect()
        } else {
            text.split_whitespace().collect()
        };
        let values = parts
            .into_iter()
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
        self.stack_count
    }

    /// Number of token positions (`stacks()` unless on a refined grid).
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// The grid refinement `k` (1 for the discrete game).
    pub fn refinement(&self) -> usize {
        self.k
    }

    /// Where token position `pos` (1-based) is on the number line: `1 + (pos - 1) / k`.
    pub fn location(&self, pos: usize) -> Exact {
        Exact::new((pos - 1 + self.k) as i128, self.k as i128).expect("positive k")
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
        self.stacks.iter().map(|s| s.1).sum()
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let d = a.abs_diff(b);
        if self.clock {
            d.min(self.positions - d)
        } else {
            d
        }
    }

    /// Each token's share (scaled), for tokens at 1-based `positions` (distinct; fewer
    /// than all players is allowed: only the placed tokens share the stacks).
    pub fn payoffs(&self, positions: &[usize]) -> Vec<i64> {
        positions
            .iter()
            .map(|&p| self.share(p, positions))
            .collect()
    }

    /// Each stack's value in real units, worthless stacks included, in order.
    pub fn values(&self) -> Vec<Exact> {
        let mut values = vec![Exact::ZERO; self.stack_count];
        for &(pos, v) in &self.stacks {
            values[(pos - 1) / self.k] = self.real(v);
        }
        values
    }

    /// Each stack's territory: the tokens nearest to it (indices into `positions`, the
    /// tokens' 1-based positions in turn order; several when equally near, none before
    /// any token is placed), stack by stack.
    ///
    /// ```
    /// use lastbite::games::tokens::Board;
    /// let b = Board::dollars(5, 2, false).unwrap();
    /// assert_eq!(b.territory(&[2, 4]), vec![vec![0], vec![0], vec![0, 1], vec![1], vec![1]]);
    /// ```
    pub fn territory(&self, positions: &[usize]) -> Vec<Vec<usize>> {
        // Every stack, worthless ones too (they are not in `stacks`), so that the list
        // lines up with the stacks as given.
        (0..self.stack_count)
            .map(|i| {
                let stack = self.k * i + 1;
                let near = positions.iter().map(|&p| self.distance(stack, p)).min();
                positions
                    .iter()
                    .enumerate()
                    .filter(|&(_, &p)| Some(self.distance(stack, p)) == near)
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect()
    }

    /// The share (scaled) of the token at `own` when the tokens occupy `taken` (1-based
    /// positions, including `own`).
    pub fn share(&self, own: usize, taken: &[usize]) -> i64 {
        share(&self.stacks, own, taken, |a, b| self.distance(a, b))
    }
}

/// The share (scaled) of the token at `own` among the tokens at `taken` (own included):
/// each stack `(position, value)` goes to the nearest tokens by `distance`, split
/// equally. The one payoff rule of the discrete game ([`Board`]) and the game with
/// tokens anywhere ([`super::Arena`]).
pub(super) fn share<P: Copy, D: Ord>(
    stacks: &[(P, i64)],
    own: P,
    taken: &[P],
    distance: impl Fn(P, P) -> D,
) -> i64 {
    let mut total = 0;
    for &(stack, value) in stacks {
        let mine = distance(stack, own);
        let mut ties = 0i64;
        let mut closer = false;
        for &pos in taken {
            let d = distance(stack, pos);
            if d < mine {
                closer = true;
                break;
            }
            ties += (d == mine) as i64;
        }
        if !closer {
            total += value / ties;
        }
    }
    total
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

/// The finest grid the continuous game is solved on (step `1/64`).
pub const MAX_REFINEMENT: usize = 64;

/// Tokens placed so far, in turn order, on a board: a position of its game (at most one
/// token per player, each on a distinct stack of the board). Checked once, here; what
/// takes it never checks again.
///
/// ```
/// use lastbite::games::tokens::{Board, Placed};
/// let b = Board::dollars(10, 3, false).unwrap();
/// assert_eq!(Placed::new(&b, &[5, 9]).unwrap().as_slice(), &[5, 9]);
/// assert!(Placed::new(&b, &[5, 5]).is_err());
/// assert!(Placed::new(&b, &[11]).is_err());
/// assert!(Placed::new(&b, &[1, 2, 3, 4]).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed(Vec<usize>);

impl Placed {
    /// Checks `placed` (1-based stacks in turn order) against `board`.
    pub fn new(board: &Board, placed: &[usize]) -> Result<Placed, TokensError> {
        let bad = |why: String| Err(TokensError::Placement(why));
        if placed.len() > board.players() {
            return bad(format!(
                "has more placements than the {} players",
                board.players()
            ));
        }
        for (i, &x) in placed.iter().enumerate() {
            if x == 0 || x > board.positions() {
                return bad(format!("stack {x} is not one of 1..={}", board.positions()));
            }
            if placed[..i].contains(&x) {
                return bad(format!("stack {x} is taken twice"));
            }
        }
        Ok(Placed(placed.to_vec()))
    }

    /// The stacks, in turn order.
    pub fn as_slice(&self) -> &[usize] {
        &self.0
    }
}
