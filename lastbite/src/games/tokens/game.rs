//! Token Dollars as an engine game over full placement histories: the brute-force route
//! that checks the set-based solver (and what the reference Python program does).

use crate::engine::{Game, Player};

use super::model::Board;

/// The game: a state is the sequence of stacks taken so far (0-based), in turn order.
pub struct TokensGame<'b> {
    board: &'b Board,
}

impl<'b> TokensGame<'b> {
    /// The game on `board`.
    pub fn new(board: &'b Board) -> Self {
        TokensGame { board }
    }
}

impl Game for TokensGame<'_> {
    type State = Vec<u16>;
    type Move = u16;
    type Payoff = i64;

    fn players(&self) -> usize {
        self.board.players()
    }
    fn root(&self) -> Vec<u16> {
        Vec::new()
    }
    fn to_move(&self, s: &Vec<u16>) -> Option<Player> {
        (s.len() < self.board.players()).then_some(s.len())
    }
    fn moves(&self, s: &Vec<u16>, out: &mut Vec<u16>) {
        out.extend((1..=self.board.positions() as u16).filter(|x| !s.contains(x)));
    }
    fn play(&self, s: &Vec<u16>, m: &u16) -> Vec<u16> {
        let mut t = s.clone();
        t.push(*m);
        t
    }
    fn terminal_payoff(&self, s: &Vec<u16>, p: Player) -> i64 {
        let positions: Vec<usize> = s.iter().map(|&x| x as usize).collect();
        self.board.payoffs(&positions)[p]
    }
    fn move_label(&self, _s: &Vec<u16>, m: &u16) -> String {
        format!("position {}", self.board.location(*m as usize))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::{
        all_outcomes as engine_all, solve as engine_solve, Budget, TieBreak, Ties,
    };
    use crate::exact::Exact;
    use crate::games::tokens::{all_outcomes, solve, TokenTies};

    fn check(board: &Board) {
        let game = TokensGame::new(board);
        // Every move's continuation at every partial placement along the way: the
        // set-based explanation against the engine's own.
        {
            let sol = engine_solve(
                &game,
                &Ties::uniform(TieBreak::First, board.players()),
                Budget::default(),
            )
            .unwrap();
            let mut placed: Vec<usize> = Vec::new();
            while placed.len() < board.players() {
                let state: Vec<u16> = placed.iter().map(|&x| x as u16).collect();
                let ex = sol.explain(&state).expect("a non-terminal state");
                let at = crate::games::tokens::Placed::new(board, &placed).unwrap();
                let lines = crate::games::tokens::explain(board, TokenTies::Lowest, &at);
                assert_eq!(lines.len(), ex.lines.len(), "{board} {placed:?}");
                for (l, e) in lines.iter().zip(&ex.lines) {
                    assert_eq!(l.position, e.mv as usize);
                    assert_eq!(l.payoffs, e.value, "{board} {placed:?} at {}", l.position);
                    assert_eq!(l.chosen, e.selected);
                    assert_eq!(l.best, e.best_for_mover);
                }
                let next = lines.iter().find(|l| l.chosen).unwrap().position;
                // Walk a non-equilibrium branch too: the last free position.
                placed.push(if placed.len() == 1 {
                    lines.last().unwrap().position
                } else {
                    next
                });
            }
        }
        for (rule, engine_rule) in [
            (TokenTies::Lowest, TieBreak::First),
            (TokenTies::Highest, TieBreak::Last),
        ] {
            let fast = solve(board, rule);
            let sol = engine_solve(
                &game,
                &Ties::uniform(engine_rule, board.players()),
                Budget::default(),
            )
            .unwrap();
            let moves: Vec<usize> = sol.path().iter().map(|s| s.mv as usize).collect();
            assert_eq!(fast.moves, moves, "{board} {rule:?}");
            assert_eq!(fast.payoffs, sol.root_value().to_vec());
        }
        assert_eq!(
            all_outcomes(board),
            engine_all(&game, Budget::default()).unwrap()
        );
    }

    #[test]
    fn refined_grids_match_the_engine() {
        for k in 1..=3 {
            for (m, p) in [(4, 2), (5, 3), (4, 3)] {
                let values = (1..=m as i128).map(Exact::integer).collect();
                check(&Board::grid(values, p, false, k).unwrap());
            }
        }
    }

    #[test]
    fn every_small_dollar_board() {
        for m in 1..=7 {
            for p in 1..=m.min(4) {
                for clock in [false, true] {
                    check(&Board::dollars(m, p, clock).unwrap());
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        /// Random values (ties included) on lines and clocks.
        #[test]
        fn random_boards(values in prop::collection::vec(0i64..6, 2..=7), players in 1usize..=4, clock in any::<bool>()) {
            let p = players.min(values.len());
            let board = Board::new(values.into_iter().map(|v| Exact::integer(v as i128)).collect(), p, clock).unwrap();
            check(&board);
        }
    }
}

#[cfg(test)]
mod reference_tests {
    use super::*;
    use crate::engine::reference::game_outcomes;
    use crate::games::tokens::all_outcomes;

    /// The family's set-based search for every SPE outcome against the reference solver
    /// (every pure profile of the tree over histories), on every small board: lines and
    /// clocks of 1 to 5 stacks for two players, 3 stacks for three, dollars and values
    /// with worthless stacks.
    #[test]
    fn all_outcomes_equal_the_reference() {
        for (stacks, players) in [(1, 1), (2, 2), (3, 2), (4, 2), (5, 2), (3, 3)] {
            for clock in [false, true] {
                for values in [
                    (1..=stacks).map(|v| v.to_string()).collect::<Vec<_>>(),
                    (0..stacks).map(|v| (v % 2).to_string()).collect(),
                ] {
                    let b = Board::parse_values(&values.join(","), players, clock).unwrap();
                    let game = TokensGame::new(&b);
                    let reference = game_outcomes(&game, 100_000).expect("a small tree");
                    assert_eq!(all_outcomes(&b), reference, "{b}");
                }
            }
        }
    }
}
