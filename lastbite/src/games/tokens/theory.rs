//! Subgame perfect play by backward induction over *sets* of taken stacks.
//!
//! A later player's payoff depends only on her own stack and the final set of taken
//! stacks, so once a set `S` is taken, how the remaining players complete it does not
//! depend on who took what: the continuation is a function of `S` alone. Memoising on `S`
//! replaces the `M! / (M - P)!` histories of the reference program with at most
//! `sum_k C(M, k)` sets (1,024 for 10 players on 10 stacks). The engine, over full
//! histories, checks this in the tests.
//!
//! Since every stack is always paid out, the others' total is the constant total minus the
//! mover's own payoff: *friendly* and *antagonistic* tie-breaking cannot distinguish tied
//! moves and fall back to the lowest-numbered stack, like the reference program.

use crate::engine::{Progress, Silent};
use std::collections::HashMap;

use super::model::{Board, Placed, TokensError, MAX_REFINEMENT};

/// How a player chooses among stacks that are equally good for her.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenTies {
    /// The lowest-numbered stack (the reference program's rule).
    Lowest,
    /// The highest-numbered stack.
    Highest,
    /// Maximise the others' total (identical to `Lowest`, see the module docs).
    Friendly,
    /// Minimise the others' total (identical to `Lowest`, see the module docs).
    Antagonistic,
}

impl TokenTies {
    /// Parses `lowest`, `highest`, `friendly`, `antagonistic`.
    pub fn parse(s: &str) -> Option<TokenTies> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lowest" | "first" => Some(TokenTies::Lowest),
            "highest" | "last" => Some(TokenTies::Highest),
            "friendly" => Some(TokenTies::Friendly),
            "antagonistic" => Some(TokenTies::Antagonistic),
            _ => None,
        }
    }
}

/// The equilibrium play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play {
    /// The stacks chosen, 1-based, in turn order.
    pub moves: Vec<usize>,
    /// Each player's payoff (scaled; see [`Board::real`]), in turn order.
    pub payoffs: Vec<i64>,
    /// The move prefixes along the equilibrium path where the mover was indifferent
    /// between several best stacks.
    pub ties: Vec<Vec<usize>>,
    /// Sets of taken stacks solved.
    pub states: usize,
    /// For each player, every position as good for her as her equilibrium move, given the
    /// earlier players' equilibrium moves and equilibrium play after her (1-based).
    pub best_responses: Vec<Vec<usize>>,
}

/// A set of taken positions, sorted.
type Taken = Vec<u16>;

fn with(taken: &[u16], x: u16) -> Taken {
    let mut t = taken.to_vec();
    let at = t.binary_search(&x).unwrap_err();
    t.insert(at, x);
    t
}

fn as_positions(t: &[u16]) -> Vec<usize> {
    t.iter().map(|&x| x as usize).collect()
}

struct Solver<'b> {
    board: &'b Board,
    ties: TokenTies,
    /// set -> (final set, chosen position, tie?, every best position)
    memo: HashMap<Taken, (Taken, u16, bool, Vec<u16>)>,
    /// Asked every [`STEPS_PER_CHECK`] placements tried whether to give up: a search's
    /// work grows with the positions times its states (a fine grid of the continuous
    /// game), not with its states alone.
    stop: &'b dyn Progress,
    steps: usize,
    stopped: bool,
}

/// Placements tried between two questions to the solver's `stop`.
const STEPS_PER_CHECK: usize = 1 << 14;

impl Solver<'_> {
    fn final_set(&mut self, taken: &[u16]) -> Taken {
        if taken.len() == self.board.players() {
            return taken.to_vec();
        }
        if let Some((f, _, _, _)) = self.memo.get(taken) {
            return f.clone();
        }
        let mut best: Option<(i64, u16, Taken)> = None;
        let mut all_best = Vec::new();
        for x in 1..=self.board.positions() as u16 {
            if taken.binary_search(&x).is_ok() {
                continue;
            }
            self.steps += 1;
            if self.steps >= STEPS_PER_CHECK {
                self.steps = 0;
                self.stopped = self.stopped || self.stop.cancelled();
            }
            if self.stopped {
                // Unwound without memoizing: the caller discards the search.
                return Vec::new();
            }
            let f = self.final_set(&with(taken, x));
            if self.stopped {
                return Vec::new();
            }
            let pay = self.board.share(x as usize, &as_positions(&f));
            match &best {
                Some((b, _, _)) if pay < *b => {}
                Some((b, _, _)) if pay == *b => {
                    all_best.push(x);
                    if self.ties == TokenTies::Highest {
                        best = Some((pay, x, f));
                    }
                }
                _ => {
                    best = Some((pay, x, f));
                    all_best = vec![x];
                }
            }
        }
        let (_, x, f) = best.expect("a free position exists while players remain");
        let tie = all_best.len() > 1;
        self.memo
            .insert(taken.to_vec(), (f.clone(), x, tie, all_best));
        f
    }
}

/// Solves the game under a tie rule.
///
/// ```
/// use lastbite::games::tokens::{solve, Board, TokenTies};
/// let b = Board::dollars(10, 3, false).unwrap();
/// let play = solve(&b, TokenTies::Lowest);
/// assert_eq!(play.moves, vec![5, 9, 8]);
/// assert_eq!(b.real(play.payoffs[0]).to_string(), "21");
/// ```
pub fn solve(board: &Board, ties: TokenTies) -> Play {
    solve_until(board, ties, &Silent).expect("never stopped")
}

/// [`solve`], giving up with [`TokensError::Cancelled`] when `stop` says so.
pub fn solve_until(
    board: &Board,
    ties: TokenTies,
    stop: &dyn Progress,
) -> Result<Play, TokensError> {
    let mut s = Solver {
        board,
        ties,
        memo: HashMap::new(),
        stop,
        steps: 0,
        stopped: false,
    };
    s.final_set(&[]);
    if s.stopped {
        return Err(TokensError::Cancelled);
    }
    let mut taken: Taken = Vec::new();
    let mut moves = Vec::new();
    let mut tie_prefixes = Vec::new();
    let mut best_responses = Vec::new();
    while moves.len() < board.players() {
        let (_, x, tie, all) = &s.memo[&taken];
        if *tie {
            tie_prefixes.push(moves.clone());
        }
        best_responses.push(as_positions(all));
        moves.push(*x as usize);
        taken = with(&taken, *x);
    }
    Ok(Play {
        payoffs: board.payoffs(&moves),
        moves,
        ties: tie_prefixes,
        states: s.memo.len(),
        best_responses,
    })
}

/// One free position at a partial placement and what placing there leads to
/// ([`explain`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacementLine {
    /// The position (1-based, as in [`Play::moves`]).
    pub position: usize,
    /// Every player's payoff (scaled, in turn order) when the mover places here and the
    /// rest play the subgame perfect equilibrium of the tie rule.
    pub payoffs: Vec<i64>,
    /// The whole placement that results, in turn order.
    pub placement: Vec<usize>,
    /// Whether it maximises the mover's own payoff.
    pub best: bool,
    /// Whether it is the equilibrium's choice under the tie rule.
    pub chosen: bool,
}

/// Every free position for the next player after `placed` (positions in turn order),
/// each with the equilibrium continuation after it: the set-based solver's own choices.
/// Empty when every player has placed.
///
/// ```
/// use lastbite::games::tokens::{explain, solve, Board, Placed, TokenTies};
/// let b = Board::dollars(10, 3, false).unwrap();
/// let start = Placed::new(&b, &[]).unwrap();
/// let lines = explain(&b, TokenTies::Lowest, &start);
/// let chosen = lines.iter().find(|l| l.chosen).unwrap();
/// assert_eq!(chosen.placement, solve(&b, TokenTies::Lowest).moves);
/// ```
pub fn explain(board: &Board, ties: TokenTies, placed: &Placed) -> Vec<PlacementLine> {
    let placed = placed.as_slice();
    if placed.len() >= board.players() {
        return Vec::new();
    }
    let mut s = Solver {
        board,
        ties,
        memo: HashMap::new(),
        stop: &Silent,
        steps: 0,
        stopped: false,
    };
    let mut taken: Taken = Vec::new();
    for &p in placed {
        taken = with(&taken, p as u16);
    }
    s.final_set(&taken);
    let chosen = s.memo[&taken].1;
    let mut lines = Vec::new();
    for x in (1..=board.positions() as u16).filter(|x| taken.binary_search(x).is_err()) {
        let mut moves = placed.to_vec();
        moves.push(x as usize);
        let mut t = with(&taken, x);
        s.final_set(&t);
        while moves.len() < board.players() {
            let y = s.memo[&t].1;
            moves.push(y as usize);
            t = with(&t, y);
        }
        lines.push(PlacementLine {
            position: x as usize,
            payoffs: board.payoffs(&moves),
            placement: moves,
            best: false,
            chosen: x == chosen,
        });
    }
    let mover = placed.len();
    let top = lines.iter().map(|l| l.payoffs[mover]).max();
    for l in &mut lines {
        l.best = Some(l.payoffs[mover]) == top;
    }
    lines
}

/// The distinct payoff vectors (scaled, in turn order) of all pure subgame perfect
/// equilibria, sorted, computed over sets: the SPE continuations from a set of taken
/// stacks depend on the set alone, and a deviation is deterred by the worst SPE
/// continuation after it.
pub fn all_outcomes(board: &Board) -> Vec<Vec<i64>> {
    fn conts(
        board: &Board,
        taken: &[u16],
        memo: &mut HashMap<Taken, Vec<Vec<u16>>>,
    ) -> Vec<Vec<u16>> {
        if taken.len() == board.players() {
            return vec![Vec::new()];
        }
        if let Some(c) = memo.get(taken) {
            return c.clone();
        }
        let final_of = |x: u16, c: &[u16]| {
            let mut f: Vec<usize> = as_positions(taken);
            f.push(x as usize);
            f.extend(c.iter().map(|&y| y as usize));
            f
        };
        let mut per_move = Vec::new();
        for x in (1..=board.positions() as u16).filter(|x| taken.binary_search(x).is_err()) {
            let next = conts(board, &with(taken, x), memo);
            let pays: Vec<i64> = next
                .iter()
                .map(|c| board.share(x as usize, &final_of(x, c)))
                .collect();
            per_move.push((x, next, pays));
        }
        let threats: Vec<i64> = per_move
            .iter()
            .map(|(_, _, p)| *p.iter().min().expect("non-empty"))
            .collect();
        let mut out = Vec::new();
        for (i, (x, next, pays)) in per_move.iter().enumerate() {
            let bound = threats
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, t)| *t)
                .max();
            for (c, &p) in next.iter().zip(pays) {
                if bound.is_none_or(|b| p >= b) {
                    let mut seq = vec![*x];
                    seq.extend_from_slice(c);
                    out.push(seq);
                }
            }
        }
        out.sort();
        out.dedup();
        memo.insert(taken.to_vec(), out.clone());
        out
    }
    let mut memo = HashMap::new();
    let mut vectors: Vec<Vec<i64>> = conts(board, &[], &mut memo)
        .into_iter()
        .map(|seq| board.payoffs(&as_positions(&seq)))
        .collect();
    vectors.sort();
    vectors.dedup();
    vectors
}

/// Maximal runs of consecutive grid positions, as (first, last) 1-based positions.
pub fn runs(positions: &[usize]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &p in positions {
        match out.last_mut() {
            Some(r) if r.1 + 1 == p => r.1 = p,
            _ => out.push((p, p)),
        }
    }
    out
}

/// The equilibrium of the game on one grid, in real coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridPlay {
    /// The grid refinement `k` (step `1/k`).
    pub k: usize,
    /// The equilibrium locations, in turn order.
    pub moves: Vec<crate::exact::Exact>,
    /// The payoffs, in turn order.
    pub payoffs: Vec<crate::exact::Exact>,
    /// For each player, her best responses as closed intervals of grid locations.
    pub best: Vec<Vec<(crate::exact::Exact, crate::exact::Exact)>>,
}

/// The grids the continuous game is solved on, `1, 2, 4, ..., finest` (a power of two
/// up to [`MAX_REFINEMENT`]).
///
/// ```
/// use lastbite::games::tokens::refinements;
/// assert_eq!(refinements(8).unwrap(), [1, 2, 4, 8]);
/// assert!(refinements(6).is_err() && refinements(128).is_err());
/// ```
pub fn refinements(finest: usize) -> Result<Vec<usize>, TokensError> {
    if !finest.is_power_of_two() || finest > MAX_REFINEMENT {
        return Err(TokensError::Refinement(finest));
    }
    Ok((0..=finest.trailing_zeros()).map(|e| 1usize << e).collect())
}

/// Solves the continuous game (tokens anywhere on the line or clock) on the grids of step
/// `1/k` for each `k` in `ks`, with the lowest-location tie rule. Tokens outside
/// `[1, M]` are never better than at the nearest end, so the grid covers `[1, M]`.
pub fn continuous(
    values: &[crate::exact::Exact],
    players: usize,
    clock: bool,
    ks: &[usize],
    stop: &dyn Progress,
) -> Result<Vec<GridPlay>, TokensError> {
    ks.iter()
        .map(|&k| {
            let b = Board::grid(values.to_vec(), players, clock, k)?;
            let play = solve_until(&b, TokenTies::Lowest, stop)?;
            Ok(GridPlay {
                k,
                moves: play.moves.iter().map(|&p| b.location(p)).collect(),
                payoffs: play.payoffs.iter().map(|&v| b.real(v)).collect(),
                best: play
                    .best_responses
                    .iter()
                    .map(|r| {
                        runs(r)
                            .into_iter()
                            .map(|(a, z)| (b.location(a), b.location(z)))
                            .collect()
                    })
                    .collect(),
            })
        })
        .collect()
}

/// The best-response intervals as the grid refines, read off the two finest grids: an
/// endpoint that stays put is closed; one whose excluded neighbour (one step outside)
/// stays put is open, at that neighbour; otherwise the finest grid's endpoint is shown
/// with `~`. Runs are matched by order; if the two grids have different numbers of runs,
/// the finest grid's closed intervals are returned.
pub fn limit_intervals(plays: &[GridPlay]) -> Vec<Vec<String>> {
    use crate::exact::Exact;
    let (Some(fine), Some(coarse)) = (plays.last(), plays.len().checked_sub(2).map(|i| &plays[i]))
    else {
        return plays
            .last()
            .map(|p| {
                p.best
                    .iter()
                    .map(|r| r.iter().map(|(a, z)| format!("[{a}, {z}]")).collect())
                    .collect()
            })
            .unwrap_or_default();
    };
    let step = |p: &GridPlay| Exact::new(1, p.k as i128).expect("k > 0");
    fine.best
        .iter()
        .zip(&coarse.best)
        .map(|(f, c)| {
            if f.len() != c.len() {
                return f.iter().map(|(a, z)| format!("[{a}, {z}]")).collect();
            }
            f.iter()
                .zip(c)
                .map(|(&(fa, fz), &(ca, cz))| {
                    let left = if fa == ca {
                        format!("[{fa}")
                    } else if fa - step(fine) == ca - step(coarse) {
                        format!("({}", fa - step(fine))
                    } else {
                        format!("[~{fa}")
                    };
                    let right = if fz == cz {
                        format!("{fz}]")
                    } else if fz + step(fine) == cz + step(coarse) {
                        format!("{})", fz + step(fine))
                    } else {
                        format!("~{fz}]")
                    };
                    format!("{left}, {right}")
                })
                .collect()
        })
        .collect()
}
