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

use std::collections::HashMap;

use super::model::Board;

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
}

struct Solver<'b> {
    board: &'b Board,
    ties: TokenTies,
    /// set -> (final set, chosen stack (0-based), tie?)
    memo: HashMap<u64, (u64, u8, bool)>,
}

impl Solver<'_> {
    fn final_set(&mut self, taken: u64) -> u64 {
        if taken.count_ones() as usize == self.board.players() {
            return taken;
        }
        if let Some(&(f, _, _)) = self.memo.get(&taken) {
            return f;
        }
        let mut best: Option<(i64, u8, u64)> = None;
        let mut tie = false;
        for x in 0..self.board.stacks() {
            if taken >> x & 1 == 1 {
                continue;
            }
            let f = self.final_set(taken | 1 << x);
            let pay = self.board.share(x + 1, f);
            match best {
                None => best = Some((pay, x as u8, f)),
                Some((b, _, _)) if pay > b => {
                    best = Some((pay, x as u8, f));
                    tie = false;
                }
                Some((b, _, _)) if pay == b => {
                    tie = true;
                    if self.ties == TokenTies::Highest {
                        best = Some((pay, x as u8, f));
                    }
                }
                _ => {}
            }
        }
        let (_, x, f) = best.expect("a free stack exists while players remain");
        self.memo.insert(taken, (f, x, tie));
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
    let mut s = Solver {
        board,
        ties,
        memo: HashMap::new(),
    };
    s.final_set(0);
    let mut taken = 0u64;
    let mut moves = Vec::new();
    let mut tie_prefixes = Vec::new();
    while moves.len() < board.players() {
        let (_, x, tie) = s.memo[&taken];
        if tie {
            tie_prefixes.push(moves.clone());
        }
        moves.push(x as usize + 1);
        taken |= 1 << x;
    }
    Play {
        payoffs: board.payoffs(&moves),
        moves,
        ties: tie_prefixes,
        states: s.memo.len(),
    }
}

/// The distinct payoff vectors (scaled, in turn order) of all pure subgame perfect
/// equilibria, sorted, computed over sets: the SPE continuations from a set of taken
/// stacks depend on the set alone, and a deviation is deterred by the worst SPE
/// continuation after it.
pub fn all_outcomes(board: &Board) -> Vec<Vec<i64>> {
    fn conts(board: &Board, taken: u64, memo: &mut HashMap<u64, Vec<Vec<u8>>>) -> Vec<Vec<u8>> {
        if taken.count_ones() as usize == board.players() {
            return vec![Vec::new()];
        }
        if let Some(c) = memo.get(&taken) {
            return c.clone();
        }
        let finals = |x: usize, c: &Vec<u8>| c.iter().fold(taken | 1 << x, |m, &y| m | 1 << y);
        let mut per_move = Vec::new();
        for x in (0..board.stacks()).filter(|x| taken >> x & 1 == 0) {
            let next = conts(board, taken | 1 << x, memo);
            let pays: Vec<i64> = next
                .iter()
                .map(|c| board.share(x + 1, finals(x, c)))
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
                    let mut seq = vec![*x as u8];
                    seq.extend_from_slice(c);
                    out.push(seq);
                }
            }
        }
        out.sort();
        out.dedup();
        memo.insert(taken, out.clone());
        out
    }
    let mut memo = HashMap::new();
    let mut vectors: Vec<Vec<i64>> = conts(board, 0, &mut memo)
        .into_iter()
        .map(|seq| board.payoffs(&seq.iter().map(|&x| x as usize + 1).collect::<Vec<_>>()))
        .collect();
    vectors.sort();
    vectors.dedup();
    vectors
}
