//! The cookie game between two players as an engine game (Propp and Ullman, Section 1):
//! the player to move eats an unspoiled cookie, every other cookie comes a day closer to
//! spoiling, and whoever eats the last edible cookie wins (normal play, +1 and -1). This
//! is the game played move by move ([`crate::api::playable`]); the family's analyses use
//! the impartial engine ([`super::CookieGame`]), and the tests check the two agree.

use crate::engine::{Game, Player};

use super::Position;

/// The cookie game from a start position, A moving first. A state is the position
/// (expired cookies dropped: they can never be eaten) and the player to move; a move is
/// the days left of the cookie eaten (cookies with equal days are alike).
pub struct CookieMatch {
    start: Position,
}

impl CookieMatch {
    /// The game from `start`.
    pub fn new(start: &Position) -> CookieMatch {
        CookieMatch {
            start: start.canonical(),
        }
    }
}

impl Game for CookieMatch {
    type State = (Position, u8);
    type Move = u64;
    type Payoff = i64;

    fn players(&self) -> usize {
        2
    }
    fn root(&self) -> (Position, u8) {
        (self.start.clone(), 0)
    }
    fn to_move(&self, s: &(Position, u8)) -> Option<Player> {
        (!s.0.is_empty()).then_some(s.1 as Player)
    }
    fn moves(&self, s: &(Position, u8), out: &mut Vec<u64>) {
        // Components are sorted and unexpired: each distinct size once, ascending.
        for &a in s.0.components() {
            if out.last() != Some(&a) {
                out.push(a);
            }
        }
    }
    fn play(&self, s: &(Position, u8), m: &u64) -> (Position, u8) {
        let k =
            s.0.components()
                .iter()
                .position(|a| a == m)
                .expect("a move is a component's size");
        let next = s.0.option(k + 1).expect("unexpired components only");
        (next.canonical(), 1 - s.1)
    }
    fn terminal_payoff(&self, s: &(Position, u8), p: Player) -> i64 {
        // The player to move at the end has nothing to eat: she lost.
        if p == s.1 as Player {
            -1
        } else {
            1
        }
    }
    fn move_label(&self, _s: &(Position, u8), m: &u64) -> String {
        format!(
            "eat a cookie with {m} day{} left",
            if *m == 1 { "" } else { "s" }
        )
    }
    fn state_text(&self, s: &(Position, u8)) -> String {
        format!(
            "{}, {} to move",
            s.0,
            crate::engine::player_letter(s.1 as Player)
        )
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::impartial::{Analyser, Outcome};
    use crate::engine::{solve, Budget, TieBreak, Ties};
    use crate::games::cookie::model::brute_force_winning_sizes;
    use crate::games::cookie::CookieGame;

    proptest! {
        /// The two-player game's value and winning moves are the impartial analysis's.
        #[test]
        fn agrees_with_the_impartial_engine(components in proptest::collection::vec(0u64..7, 0..7)) {
            let p = Position::new(components);
            let game = CookieMatch::new(&p);
            let sol = solve(&game, &Ties::uniform(TieBreak::First, 2), Budget::default()).unwrap();
            let mut an = Analyser::new(&CookieGame);
            let n = an.value(&p).outcome == Outcome::N;
            prop_assert_eq!(sol.root_value().to_vec(), if n { vec![1, -1] } else { vec![-1, 1] });
            if n {
                let wins = brute_force_winning_sizes(&mut an, &p);
                let optimal = sol.choice(&game.root()).map(|c| c.optimal).unwrap_or_default();
                prop_assert_eq!(optimal, wins);
            }
        }
    }
}

#[cfg(test)]
mod reference_tests {
    use super::*;
    use crate::engine::impartial::{Analyser, Outcome};
    use crate::engine::reference::game_outcomes;
    use crate::games::cookie::CookieGame;

    /// The impartial analysis's outcome (N: the mover wins) is the reference solver's
    /// only subgame perfect outcome (every pure profile of the unfolded tree), on every
    /// position of up to three cookies with up to three days left.
    #[test]
    fn impartial_outcome_is_the_reference_outcome() {
        let mut an = Analyser::new(&CookieGame);
        for count in 0..=3u32 {
            for code in 0..4u64.pow(count) {
                let days: Vec<u64> = (0..count).map(|i| code / 4u64.pow(i) % 4).collect();
                let p = Position::new(days.clone());
                let game = CookieMatch::new(&p);
                let reference = game_outcomes(&game, 100_000).expect("a small tree");
                let n = an.value(&p).outcome == Outcome::N;
                let expected = if n { vec![1, -1] } else { vec![-1, 1] };
                assert_eq!(reference, vec![expected], "{days:?}");
            }
        }
    }
}
