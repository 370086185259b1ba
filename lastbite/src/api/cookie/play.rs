//! A game of `cookie play` against lastbite: the favoured player's moves explained by
//! D-values (Theorem 12) or brute force. The front end only relays lines.

use super::{position_of, Components, BRUTE_FORCE_COMPONENTS};
use crate::api::Error;
use crate::engine::impartial::{Analyser, Outcome};
use crate::games::cookie::model::brute_force_winning_sizes;
use crate::games::cookie::theory::favoured_size;
use crate::games::cookie::{d_value, CookieGame, Position};

/// A game of `cookie play`: lastbite is the favoured player and explains each move by
/// D-values (Theorem 12) or, where no D-value exists, by brute force. The front end
/// only relays lines: [`Match::opening`], then [`Match::favoured_move`] on lastbite's
/// turns and [`Match::answer`] with the user's input on theirs.
pub struct Match {
    position: Position,
    lastbite_to_move: bool,
    analyser: Analyser<'static, CookieGame>,
}

static COOKIE: CookieGame = CookieGame;

/// What lastbite knows of a position: its type, and D when the theory applies.
struct Judged {
    n_position: bool,
    d: Option<u64>,
}

impl Match {
    /// Starts a game; refuses positions whose moves lastbite cannot find.
    pub fn new(components: &Components) -> Result<Match, Error> {
        let position = position_of(&Some(components.clone()), &None)?;
        if d_value(&position).is_none() && position.canonical().len() > BRUTE_FORCE_COMPONENTS {
            return Err(Error::invalid(
                "components",
                format!("{} unexpired components", position.canonical().len()),
                format!("the reduced form is not strict and the brute force stops at {BRUTE_FORCE_COMPONENTS}, so lastbite cannot find its moves"),
            ));
        }
        let mut m = Match {
            position,
            lastbite_to_move: false,
            analyser: Analyser::new(&COOKIE),
        };
        m.lastbite_to_move = m.judge(&m.position.clone()).n_position;
        Ok(m)
    }

    fn judge(&mut self, p: &Position) -> Judged {
        match d_value(p) {
            Some(d) => Judged {
                n_position: d % 2 == 1,
                d: Some(d),
            },
            None => Judged {
                n_position: self.analyser.value(p).outcome == Outcome::N,
                d: None,
            },
        }
    }

    fn describe(j: &Judged) -> String {
        match j.d {
            Some(d) => format!(
                "D = {d} ({}, {})",
                if d % 2 == 1 { "odd" } else { "even" },
                if j.n_position { "N" } else { "P" }
            ),
            None => format!(
                "no D-value (reduced form not strict); {} by brute force",
                if j.n_position { "N" } else { "P" }
            ),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether lastbite moves next.
    pub fn lastbite_to_move(&self) -> bool {
        self.lastbite_to_move
    }

    /// The first line: the position's value and who is favoured.
    pub fn opening(&mut self) -> String {
        let p = self.position.clone();
        let j = self.judge(&p);
        format!(
            "start {p}: {}. {}",
            Self::describe(&j),
            if self.lastbite_to_move {
                "I am the favoured player and move first."
            } else {
                "You move first, but every move you have leads to an N-position: I am the favoured player."
            }
        )
    }

    /// The closing line when no edible cookie is left, else `None`.
    pub fn finished(&self) -> Option<String> {
        self.position.canonical().is_empty().then(|| {
            format!(
                "{} no edible cookie left: {}",
                self.position,
                if self.lastbite_to_move {
                    "you ate the last one. You win."
                } else {
                    "I ate the last one. I win."
                }
            )
        })
    }

    /// The prompt for the user's move.
    pub fn prompt(&mut self) -> String {
        let p = self.position.clone();
        let j = self.judge(&p);
        format!(
            "{p} {}. Your move (size of a cookie to eat): ",
            Self::describe(&j)
        )
    }

    fn eat(p: &Position, size: u64) -> Option<Position> {
        let k = p.components().iter().position(|&c| c == size && c > 0)?;
        p.option(k + 1)
    }

    /// lastbite's move, played and explained.
    pub fn favoured_move(&mut self) -> String {
        let p = self.position.clone();
        let size = favoured_size(&p, || brute_force_winning_sizes(&mut self.analyser, &p))
            .expect("the favoured player has a winning move");
        let next = Self::eat(&p, size).expect("a legal move");
        let after = self.judge(&next);
        let why = match after.d {
            Some(0) => "no options are left for you".to_string(),
            Some(d) => format!(
                "D = {d} is even, so every option you have has D = {} (odd): Theorem 12(b)",
                d - 1
            ),
            None => "a P-position (brute force): every option you have is N".into(),
        };
        let line = format!("I eat {size}: {next}, {}; {why}.", Self::describe(&after));
        self.position = next;
        self.lastbite_to_move = false;
        line
    }

    /// Plays the user's move from their input line; `Err` with a line to show (and the
    /// same turn again) when the input is not a legal move.
    pub fn answer(&mut self, input: &str) -> Result<String, String> {
        let size: u64 = input.trim().parse().map_err(|_| {
            format!(
                "{} is not a size; eat one of {}",
                crate::api::escape(input.trim()),
                self.position
            )
        })?;
        let next = Self::eat(&self.position, size)
            .ok_or_else(|| format!("no edible cookie of size {size} in {}", self.position))?;
        let after = self.judge(&next);
        let verdict = if after.n_position {
            match after.d {
                Some(d) => format!(
                    "D = {d} is odd, so I have an option with D = {} (even)",
                    d - 1
                ),
                None => "an N-position (brute force): I have a move to a P-position".into(),
            }
        } else {
            "a P-position: that move wins for you".into()
        };
        let line = format!(
            "You eat {size}: {next}, {}; {verdict}.",
            Self::describe(&after)
        );
        self.position = next;
        self.lastbite_to_move = true;
        Ok(line)
    }
}
