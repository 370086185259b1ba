//! Token Dollars with tokens anywhere on the line or the clock, solved exactly: the
//! Riddler's last extra credit (the argument in full is in
//! `docs/results/tokens.md`, "Tokens anywhere, exactly").
//!
//! Scale lengths so that every stack sits at an integer (and, on a clock, the
//! circumference is even). Whether stack `s` is nearer to a token at `x` or at `y` changes
//! only on the hyperplanes `x = y` and `x + y = 2s` (mod the circumference): all of the
//! family `x_i - x_j` in `2Z`, `x_i + x_j` in `2Z`, `x_i` in `Z`. That family is closed
//! under backward induction: the places where a later player's best reply can change, as
//! an earlier token moves, are where two of her breakpoints (`±x_j + 2c` or `c`) meet, and
//! those equations are again of the family. So each player's payoff, given the earlier
//! tokens and equilibrium play after her, is constant on every *piece* of her line: a
//! breakpoint `c` or `±x_j + 2c`, or an open interval between two neighbouring ones. The
//! solver tries one placement per piece (the breakpoint, or the interval's midpoint); the
//! earlier tokens lie on the grid of step `2^-(t-1)` at depth `t`, so every breakpoint and
//! midpoint stays a dyadic multiple of the lattice step and all arithmetic is in integers.
//!
//! The same argument says the outcome after some tokens depends only on their face of
//! the arrangement, so the search keeps one outcome a face (each token's cell among the
//! lattice points, each pair's difference and sum among the multiples of two steps): the
//! same tokens placed in any of their `t!` orders, at whatever points of their pieces,
//! are solved once, which takes five players on $1..$10 from 49 million placements to
//! 2.6 million, and six players within a minute.
//!
//! [`Candidates::Refined`] tries every point of a finer grid instead (a different route
//! to the same answer, used by the tests to show that refining changes nothing), and
//! [`Candidates::Stacks`] only the stacks (the discrete game, checked against
//! [`super::theory::solve`]). The module owns the exact layout ([`Arena`]), the search and
//! the report of each player's choice as a union of points and intervals.

use crate::engine::Progress;
use std::collections::HashMap;
use std::fmt;

use super::model::TokensError;
use super::theory::TokenTies;
use crate::exact::{lcm, Exact};

/// Stacks at exact positions with exact values, on a line or a clock, for tokens placed
/// anywhere: on a line within the stacks' span, on a clock anywhere round it.
///
/// ```
/// use lastbite::engine::Silent;
/// use lastbite::exact::Exact;
/// use lastbite::games::tokens::{anywhere, Arena, TokenTies};
/// let dollars: Vec<(Exact, Exact)> = (1..=10).map(|i| (Exact::integer(i), Exact::integer(i))).collect();
/// let riddle = Arena::new(dollars, 3, None).unwrap();
/// let play = anywhere(&riddle, TokenTies::Lowest, &Silent).unwrap();
/// assert_eq!(play.moves[..2], [Exact::integer(5), Exact::integer(9)]);
/// // Cassandra earns 15 anywhere strictly between 7 and 9 (the Riddler says (7, 8]).
/// assert_eq!(play.choices[2].best.to_string(), "(7, 9)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arena {
    players: usize,
    clock: bool,
    /// Stacks holding money: (scaled position, scaled value).
    stacks: Vec<(i64, i64)>,
    /// Every stack as given: (position, value), for reports.
    given: Vec<(Exact, Exact)>,
    /// Tokens go in `[lo, hi]` on a line, in `[lo, hi)` on a clock (`hi - lo` is the
    /// circumference), scaled.
    lo: i64,
    hi: i64,
    /// Scaled units per lattice step (the length in which stacks are integers).
    grain: i64,
    /// Scaled units per unit of length.
    unit: i128,
    /// Payoffs are integers in units of `1 / value_scale`.
    value_scale: i64,
}

/// The largest span, in lattice steps, that the exact search takes: its breakpoints are
/// every lattice point, so the span sizes the work whatever the budget (and keeps scaled
/// positions far inside 64 bits).
pub const MAX_LATTICE_SPAN: i64 = 1 << 16;

/// Extra halvings of the grid the scaled units allow beyond what the search needs
/// ([`Candidates::Refined`] uses up to this many).
const EXTRA: usize = 2;

impl Arena {
    /// Stacks as `(position, value)` (positions strictly increasing, values non-negative,
    /// exact), for `players` players; `circumference` puts them on a clock of that length
    /// (greater than the stacks' span), else they are on a line.
    pub fn new(
        stacks: Vec<(Exact, Exact)>,
        players: usize,
        circumference: Option<Exact>,
    ) -> Result<Arena, TokensError> {
        let layout = |field: &'static str, why: String| TokensError::Layout { field, why };
        if stacks.is_empty() {
            return Err(TokensError::NoStacks);
        }
        if players == 0 {
            return Err(TokensError::NoPlayers);
        }
        if players > 16 {
            return Err(layout("players", format!("{players} players: at most 16")));
        }
        for (i, w) in stacks.windows(2).enumerate() {
            if w[1].0 <= w[0].0 {
                return Err(layout(
                    "positions",
                    format!(
                        "stack {} at {} is not after stack {} at {}: positions must increase",
                        i + 2,
                        w[1].0,
                        i + 1,
                        w[0].0
                    ),
                ));
            }
        }
        if let Some((i, (_, v))) = stacks.iter().enumerate().find(|(_, s)| s.1 < Exact::ZERO) {
            return Err(layout(
                "values",
                format!("stack {} is worth {v}: values must not be negative", i + 1),
            ));
        }
        let first = stacks[0].0;
        let last = stacks[stacks.len() - 1].0;
        if let Some(c) = circumference {
            if c <= last - first {
                return Err(layout(
                    "circumference",
                    format!(
                        "{c} is not longer than the stacks' span {}: the clock must hold them apart",
                        last - first
                    ),
                ));
            }
        }
        // The clock's length, when given, is what spans the arena: a span too wide is its
        // fault, not the positions'.
        let span_field = if circumference.is_some() {
            "circumference"
        } else {
            "positions"
        };
        let too_wide_in = |field: &'static str| {
            move || {
                let what = match field {
                    "circumference" => "the circumference is too long or too fine",
                    _ => "the positions' common denominator is too large",
                };
                layout(field, format!("{what} for exact 64-bit arithmetic"))
            }
        };
        let too_wide = too_wide_in("positions");
        // Lattice: the lcm of the positions' (and circumference's) denominators, doubled
        // on a clock whose circumference would be odd.
        let mut lattice: i128 = 1;
        for (p, _) in &stacks {
            lattice = lcm(lattice, p.denom()).ok_or_else(too_wide)?;
        }
        if let Some(c) = circumference {
            lattice = lcm(lattice, c.denom()).ok_or_else(too_wide_in("circumference"))?;
            let steps = c
                .scaled_to(lattice)
                .ok_or_else(too_wide_in("circumference"))?;
            if steps % 2 != 0 {
                lattice *= 2;
            }
        }
        let span = circumference.unwrap_or(last - first);
        let span_steps = span
            .scaled_to(lattice)
            .ok_or_else(too_wide_in(span_field))?;
        if span_steps > MAX_LATTICE_SPAN as i128 {
            return Err(layout(
                span_field,
                format!(
                    "the stacks span {span_steps} steps of 1/{lattice}: at most {MAX_LATTICE_SPAN} (every step is a breakpoint)"
                ),
            ));
        }
        let grain: i64 = 1 << (players + EXTRA);
        let unit = lattice * grain as i128;
        let scaled = |x: Exact| -> Result<i64, TokensError> {
            x.scaled_to(unit)
                .and_then(|v| i64::try_from(v).ok())
                .filter(|v| v.abs() < 1 << 60)
                .ok_or_else(too_wide)
        };
        let splits: i128 = (1..=players as i128)
            .try_fold(1, lcm)
            .ok_or(TokensError::Overflow)?;
        let mut scale: i128 = 1;
        for (_, v) in &stacks {
            scale = lcm(scale, v.denom()).ok_or(TokensError::Overflow)?;
        }
        let value_scale = scale.checked_mul(splits).ok_or(TokensError::Overflow)?;
        let mut money = Vec::new();
        let mut total: i128 = 0;
        for &(p, v) in &stacks {
            let value = v
                .scaled_to(value_scale)
                .and_then(|x| i64::try_from(x).ok())
                .ok_or(TokensError::Overflow)?;
            total += value as i128;
            if value > 0 {
                money.push((scaled(p)?, value));
            }
        }
        if total > (i64::MAX / 2) as i128 || value_scale > i64::MAX as i128 {
            return Err(TokensError::Overflow);
        }
        let lo = scaled(first)?;
        let hi = lo + scaled(span).map_err(|_| too_wide_in(span_field)())?;
        Ok(Arena {
            players,
            clock: circumference.is_some(),
            stacks: money,
            given: stacks,
            lo,
            hi,
            grain,
            unit,
            value_scale: value_scale as i64,
        })
    }

    /// Stacks worth `values` at positions 1, 2, ...: on a clock of circumference `M` when
    /// `clock` (as the discrete game's clock).
    pub fn unit_spaced(
        values: Vec<Exact>,
        players: usize,
        clock: bool,
    ) -> Result<Arena, TokensError> {
        let m = values.len() as i128;
        let stacks = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| (Exact::integer(i as i128 + 1), v))
            .collect();
        Arena::new(stacks, players, clock.then(|| Exact::integer(m)))
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Whether the stacks are on a clock.
    pub fn clock(&self) -> bool {
        self.clock
    }

    /// The stacks as given: (position, value).
    pub fn stacks(&self) -> &[(Exact, Exact)] {
        &self.given
    }

    /// The stacks' total value in the units of money the search counts in: what every
    /// placement's payoffs add up to ([`first::FirstPiece::pays`]).
    pub fn money_units(&self) -> i64 {
        self.stacks.iter().map(|s| s.1).sum()
    }

    /// Every token's share (scaled) of the tokens at `taken`, in their order.
    fn shares(&self, taken: &[i64]) -> Vec<i64> {
        taken.iter().map(|&x| self.share(x, taken)).collect()
    }

    /// A scaled position as an exact number.
    fn real(&self, x: i64) -> Exact {
        Exact::new(x as i128, self.unit).expect("positive unit")
    }

    /// A scaled payoff as an exact number.
    fn money(&self, v: i64) -> Exact {
        Exact::new(v as i128, self.value_scale as i128).expect("positive scale")
    }

    fn distance(&self, a: i64, b: i64) -> i64 {
        let d = (a - b).abs();
        if self.clock {
            d.min(self.hi - self.lo - d)
        } else {
            d
        }
    }

    /// The share (scaled) of the token at `own` among the tokens at `taken` (own
    /// included).
    fn share(&self, own: i64, taken: &[i64]) -> i64 {
        super::model::share(&self.stacks, own, taken, |a, b| self.distance(a, b))
    }

    /// The number of lattice points in the domain.
    fn lattice_points(&self) -> u128 {
        ((self.hi - self.lo) / self.grain) as u128 + 1
    }

    /// An upper bound on the placements the exact search tries, counted before any work
    /// ([`placements_bound`]).
    pub fn placements_bound(&self) -> u128 {
        placements_bound(self.lattice_points(), self.players)
    }
}

/// An upper bound on the placements the exact search tries for `players` players on a
/// domain of `lattice_points` lattice points (a line's span in lattice steps plus one).
/// Each depth's pieces are at most the lattice points, two reflections of each earlier
/// token per two lattice steps, and an interval after each breakpoint; the search keeps
/// each face of the tokens placed so far once, and every order of placing the same
/// tokens reaches the same face, so the depth after `t` tokens tries at most the
/// product of the pieces so far over `t!`. Cheap for any size: callers refuse a game
/// with it before building anything.
pub fn placements_bound(lattice_points: u128, players: usize) -> u128 {
    let l = lattice_points;
    let mut total: u128 = 0;
    let mut product: u128 = 1;
    let mut orders: u128 = 1;
    for t in 0..players as u128 {
        let breakpoints = l.saturating_add(t.saturating_mul(l.saturating_add(2)));
        product = product.saturating_mul(breakpoints.saturating_mul(2));
        if product == u128::MAX {
            // Each depth has at least 6t pieces, so past 2^128 paths the bound is past
            // 10^14 placements (years) whatever the orders divide: stop counting, as
            // for a player count no game holds.
            return u128::MAX;
        }
        total = total.saturating_add(product / orders);
        orders = orders.saturating_mul(t + 1);
    }
    total
}

impl fmt::Display for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = (self.real(self.lo), self.real(self.hi));
        write!(
            f,
            "{} stacks on a {}, tokens anywhere in {}, {} players",
            self.given.len(),
            if self.clock { "clock" } else { "line" },
            if self.clock {
                format!("[{a}, {b})")
            } else {
                format!("[{a}, {b}]")
            },
            self.players
        )
    }
}

/// Which placements a search tries at each depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Candidates {
    /// One per piece of the arrangement: every breakpoint and a midpoint between each two
    /// (the exact search).
    Pieces,
    /// Every point of the grid of step `2^-(t + e)` lattice steps at depth `t` (`e` from
    /// 1 to 2): finer than any piece, so it must agree with [`Candidates::Pieces`].
    Refined(usize),
    /// Only the stacks' own positions: the discrete game.
    Stacks,
}

/// One piece of a player's line: a breakpoint, or the open interval between two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Point(i64),
    /// (left end, right end), exclusive.
    Open(i64, i64),
}

impl Piece {
    fn at(self) -> i64 {
        match self {
            Piece::Point(x) => x,
            Piece::Open(a, b) => a + (b - a) / 2,
        }
    }
}

/// A union of points and intervals of placements, with open or closed ends.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placements(pub Vec<Interval>);

/// An interval of placements (a point when both ends are equal and closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// The left end.
    pub from: Exact,
    /// Whether the left end belongs to it.
    pub from_closed: bool,
    /// The right end.
    pub to: Exact,
    /// Whether the right end belongs to it.
    pub to_closed: bool,
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from == self.to {
            return write!(f, "{}", self.from);
        }
        let l = if self.from_closed { '[' } else { '(' };
        let r = if self.to_closed { ']' } else { ')' };
        write!(f, "{l}{}, {}{r}", self.from, self.to)
    }
}

impl fmt::Display for Placements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|i| i.to_string()).collect();
        write!(f, "{}", parts.join(" U "))
    }
}

impl Placements {
    /// Whether `x` is one of the placements.
    pub fn contains(&self, x: Exact) -> bool {
        self.0.iter().any(|i| {
            (i.from < x || (i.from_closed && i.from == x))
                && (x < i.to || (i.to_closed && i.to == x))
        })
    }
}

/// One player's choice on the equilibrium path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Where she places (a breakpoint, or the midpoint of the interval chosen).
    pub at: Exact,
    /// Her payoff.
    pub payoff: Exact,
    /// Every placement as good for her, given the earlier tokens and equilibrium play
    /// after her.
    pub best: Placements,
    /// Every placement that leads to the same payoffs for all (a part of `best`).
    pub same_outcome: Placements,
    /// Whether `best` holds placements with different outcomes for the others (the tie
    /// rule chose among them).
    pub tie: bool,
}

/// The exact equilibrium of the game with tokens anywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnywherePlay {
    /// The placements, in turn order (see [`Choice::at`]).
    pub moves: Vec<Exact>,
    /// The payoffs, in turn order.
    pub payoffs: Vec<Exact>,
    /// Each player's choice, in turn order.
    pub choices: Vec<Choice>,
    /// Placements tried (within [`Arena::placements_bound`]).
    pub placements: u64,
    /// Sets of earlier tokens solved and kept.
    pub states: usize,
}

struct Search<'a> {
    arena: &'a Arena,
    ties: TokenTies,
    candidates: Candidates,
    /// Whether the memo keys by face (the exact search) or by position.
    by_face: bool,
    /// The placements so far (their face of the arrangement for the exact search, the
    /// sorted positions themselves for the other routes) -> the piece the next player
    /// takes (its place among her pieces) and the final payoffs of the tokens so far,
    /// in order of position.
    memo: HashMap<Box<[i64]>, Outcome>,
    stop: &'a dyn Progress,
    tried: u64,
    stopped: bool,
}

/// What the search keeps of the placements so far: the next player's piece (its place
/// among her pieces) and the final payoffs of the tokens so far, in order of position.
type Outcome = (u32, Box<[i64]>);

/// Placements tried between two questions to the search's `stop`.
const TRIES_PER_CHECK: u64 = 1 << 14;

/// Which cell of the lines `v = k * step` (k an integer) `v` is in: `2k` on the line
/// `k * step`, `2k + 1` strictly between it and the next.
fn cell(v: i64, step: i64) -> i64 {
    2 * v.div_euclid(step) + i64::from(v.rem_euclid(step) != 0)
}

impl Search<'_> {
    /// The memo's key for the placements `taken` (sorted). The exact search keys by the
    /// face of the arrangement (step 3 of the module's argument: the outcome, the
    /// pieces' order and the tie rule's choice are the same all over a face), so the
    /// same tokens placed in another order, or at other points of their pieces, are
    /// solved once: each token's cell among the lattice points, and each pair's
    /// difference and sum among the multiples of two lattice steps. The other routes
    /// key by the positions themselves, so that they stay independent of that argument.
    fn key(&self, taken: &[i64]) -> Box<[i64]> {
        if !self.by_face {
            return taken.into();
        }
        let (lo, g) = (self.arena.lo, self.arena.grain);
        let mut key = Vec::with_capacity(taken.len() * (taken.len() + 1));
        for (i, &x) in taken.iter().enumerate() {
            key.push(cell(x - lo, g));
            for &y in &taken[i + 1..] {
                key.push(cell(y - x, 2 * g));
                key.push(cell((x - lo) + (y - lo), 2 * g));
            }
        }
        key.into()
    }

    /// Whether the outcome after `taken` is kept: at every depth by face (a face is
    /// reached once for each order of its tokens); by position, all but the last two
    /// depths (the last is a scan, the one before it rarely repeats and would dominate
    /// the memory).
    fn keeps(&self, taken: &[i64]) -> bool {
        self.by_face || taken.len() + 2 < self.arena.players
    }

    /// The pieces of the next player's line after `taken` (sorted), in order.
    fn pieces(&self, taken: &[i64]) -> Vec<Piece> {
        let a = self.arena;
        let (lo, hi, grain) = (a.lo, a.hi, a.grain);
        let depth = taken.len() + 1;
        let mut points: Vec<i64> = Vec::new();
        match self.candidates {
            Candidates::Stacks => {
                // The discrete game: every stack, worthless or not.
                return a
                    .given
                    .iter()
                    .map(|&(p, _)| p.scaled_to(a.unit).expect("checked in Arena::new") as i64)
                    .filter(|x| taken.binary_search(x).is_err())
                    .map(Piece::Point)
                    .collect();
            }
            Candidates::Refined(e) => {
                let step = grain >> (depth + e.min(EXTRA));
                let end = if a.clock { hi - 1 } else { hi };
                let mut x = lo;
                while x <= end {
                    if taken.binary_search(&x).is_err() {
                        points.push(x);
                    }
                    x += step;
                }
                return points.into_iter().map(Piece::Point).collect();
            }
            Candidates::Pieces => {}
        }
        let mut x = lo;
        while x <= hi {
            points.push(x);
            x += grain;
        }
        // Every point congruent to r modulo two lattice steps, in [lo, hi].
        let period = 2 * grain;
        for &t in taken {
            for r in [t, -t] {
                let mut x = lo + (r - lo).rem_euclid(period);
                while x <= hi {
                    points.push(x);
                    x += period;
                }
            }
        }
        points.sort_unstable();
        points.dedup();
        if a.clock {
            // `hi` is `lo` again.
            if points.last() == Some(&hi) {
                points.pop();
            }
        }
        let mut out = Vec::with_capacity(2 * points.len());
        for (i, &p) in points.iter().enumerate() {
            if taken.binary_search(&p).is_err() {
                out.push(Piece::Point(p));
            }
            match points.get(i + 1) {
                Some(&q) => out.push(Piece::Open(p, q)),
                None if a.clock => out.push(Piece::Open(p, hi)),
                None => {}
            }
        }
        out
    }

    fn tick(&mut self) -> bool {
        self.tried += 1;
        if self.tried.is_multiple_of(TRIES_PER_CHECK) && !self.stopped {
            self.stopped = self.stop.cancelled();
        }
        self.stopped
    }

    /// The next player's equilibrium piece after `taken` (sorted; its place among her
    /// pieces) and the final payoffs of the tokens of `taken`, in order of position.
    fn reply(&mut self, taken: &[i64]) -> Outcome {
        let players = self.arena.players;
        let key = self.keeps(taken).then(|| self.key(taken));
        if let Some(r) = key.as_ref().and_then(|k| self.memo.get(k)) {
            return r.clone();
        }
        // (payoff, piece, the final payoffs of the tokens after it, the new token's rank)
        let mut best: Option<(i64, u32, Box<[i64]>, usize)> = None;
        for (i, piece) in self.pieces(taken).into_iter().enumerate() {
            if self.tick() {
                return (0, Box::default());
            }
            let x = piece.at();
            let next = with(taken, x);
            let rank = next.partition_point(|&y| y < x);
            let (pay, pays) = if next.len() == players {
                // The last player: her own share decides; everyone's is counted for the
                // best alone.
                (self.arena.share(x, &next), None)
            } else {
                let (_, pays) = self.reply(&next);
                if self.stopped {
                    return (0, Box::default());
                }
                (pays[rank], Some(pays))
            };
            if prefers(self.ties, pay, best.as_ref().map(|b| b.0)) {
                let pays = pays.unwrap_or_else(|| self.arena.shares(&next).into());
                best = Some((pay, i as u32, pays, rank));
            }
        }
        let (_, piece, pays, rank) = best.expect("a free placement: more points than players");
        let mut own = pays.into_vec();
        own.remove(rank);
        let out = (piece, own.into_boxed_slice());
        if let Some(k) = key {
            self.memo.insert(k, out.clone());
        }
        out
    }

    /// The whole placement, in turn order, after `moves`.
    fn complete(&mut self, moves: &[i64]) -> Vec<i64> {
        let mut moves = moves.to_vec();
        while moves.len() < self.arena.players && !self.stopped {
            let mut taken = moves.clone();
            taken.sort_unstable();
            let (piece, _) = self.reply(&taken);
            if self.stopped {
                break;
            }
            moves.push(self.pieces(&taken)[piece as usize].at());
        }
        moves
    }
}

/// Whether a placement paying `pay` replaces the best so far (paying `best`) under the
/// tie rule: the first of the equally good pieces, or with `highest` the last.
fn prefers(ties: TokenTies, pay: i64, best: Option<i64>) -> bool {
    match (best, ties) {
        (None, _) => true,
        (Some(b), TokenTies::Highest) => pay >= b,
        (Some(b), _) => pay > b,
    }
}

fn with(taken: &[i64], x: i64) -> Vec<i64> {
    let mut t = taken.to_vec();
    let at = t.binary_search(&x).unwrap_or_else(|i| i);
    t.insert(at, x);
    t
}

/// Solves the game with tokens anywhere exactly, by one placement per piece of the
/// arrangement (see the module docs); `stop` is asked now and then whether to give up.
pub fn anywhere(
    arena: &Arena,
    ties: TokenTies,
    stop: &dyn Progress,
) -> Result<AnywherePlay, TokensError> {
    anywhere_with(arena, ties, Candidates::Pieces, stop)
}

/// [`anywhere`] with the placements tried chosen: the tests' second routes.
pub fn anywhere_with(
    arena: &Arena,
    ties: TokenTies,
    candidates: Candidates,
    stop: &dyn Progress,
) -> Result<AnywherePlay, TokensError> {
    search(
        arena,
        ties,
        candidates,
        candidates == Candidates::Pieces,
        stop,
    )
}

fn search(
    arena: &Arena,
    ties: TokenTies,
    candidates: Candidates,
    by_face: bool,
    stop: &dyn Progress,
) -> Result<AnywherePlay, TokensError> {
    let mut s = Search::new(arena, ties, candidates, by_face, stop)?;
    let moves = s.complete(&[]);
    let choices = s.choices(&moves, 0);
    s.play(moves, choices)
}

impl<'a> Search<'a> {
    /// A search with an empty memo; refused when the players outnumber the placements.
    fn new(
        arena: &'a Arena,
        ties: TokenTies,
        candidates: Candidates,
        by_face: bool,
        stop: &'a dyn Progress,
    ) -> Result<Search<'a>, TokensError> {
        let positions = match candidates {
            Candidates::Stacks => arena.given.len(),
            _ => usize::MAX,
        };
        if arena.players > positions {
            return Err(TokensError::TooManyPlayers {
                players: arena.players,
                stacks: positions,
            });
        }
        Ok(Search {
            arena,
            ties,
            candidates,
            by_face,
            memo: HashMap::new(),
            stop,
            tried: 0,
            stopped: false,
        })
    }

    /// The choices of the players from `from` on along the equilibrium path `moves`:
    /// each of her pieces played out, and the sets as good and with the same outcome.
    fn choices(&mut self, moves: &[i64], from: usize) -> Vec<Choice> {
        let arena = self.arena;
        let mut choices = Vec::new();
        for t in from..arena.players {
            if self.stopped {
                break;
            }
            let mut taken = moves[..t].to_vec();
            taken.sort_unstable();
            let mut lines = Vec::new();
            for piece in self.pieces(&taken) {
                let mut m = moves[..t].to_vec();
                m.push(piece.at());
                let all = self.complete(&m);
                if self.stopped {
                    break;
                }
                lines.push((piece, arena.shares(&all)));
            }
            if self.stopped {
                break;
            }
            choices.push(choice(arena, t, moves[t], &lines));
        }
        choices
    }

    /// The play of `moves` with its players' `choices`, unless the search was stopped.
    fn play(&self, moves: Vec<i64>, choices: Vec<Choice>) -> Result<AnywherePlay, TokensError> {
        if self.stopped {
            return Err(TokensError::Cancelled);
        }
        let arena = self.arena;
        let payoffs = arena
            .shares(&moves)
            .into_iter()
            .map(|v| arena.money(v))
            .collect();
        Ok(AnywherePlay {
            moves: moves.iter().map(|&x| arena.real(x)).collect(),
            payoffs,
            choices,
            placements: self.tried,
            states: self.memo.len(),
        })
    }
}

/// Player `t`'s choice, placing at `at` on the equilibrium path, from the final payoffs
/// (in turn order) of each of her pieces played out.
fn choice(arena: &Arena, t: usize, at: i64, lines: &[(Piece, Vec<i64>)]) -> Choice {
    let own = |p: &[i64]| p[t];
    let top = lines.iter().map(|(_, p)| own(p)).max().expect("a piece");
    let chosen = lines
        .iter()
        .find(|(piece, _)| piece.at() == at)
        .map(|(_, p)| p.clone())
        .expect("the equilibrium's piece");
    Choice {
        at: arena.real(at),
        payoff: arena.money(chosen[t]),
        best: union(arena, lines, |p| own(p) == top),
        same_outcome: union(arena, lines, |p| *p == chosen[..]),
        tie: lines.iter().any(|(_, p)| own(p) == top && *p != chosen[..]),
    }
}

/// The pieces whose payoffs pass `keep`, merged where they touch.
fn union(arena: &Arena, lines: &[(Piece, Vec<i64>)], keep: impl Fn(&[i64]) -> bool) -> Placements {
    let mut out: Vec<Interval> = Vec::new();
    for (piece, pays) in lines {
        if !keep(pays) {
            continue;
        }
        let (from, from_closed, to, to_closed) = match *piece {
            Piece::Point(x) => (arena.real(x), true, arena.real(x), true),
            Piece::Open(a, b) => (arena.real(a), false, arena.real(b), false),
        };
        // Pieces come in order: a kept piece touches the last kept one when they share
        // an end that one of them holds (a skipped piece between them shares none).
        match out.last_mut() {
            Some(last) if last.to == from && (last.to_closed || from_closed) => {
                last.to = to;
                last.to_closed = to_closed;
            }
            _ => out.push(Interval {
                from,
                from_closed,
                to,
                to_closed,
            }),
        }
    }
    Placements(out)
}

#[path = "anywhere_first.rs"]
pub mod first;
#[cfg(test)]
#[path = "anywhere_tests.rs"]
mod tests;
