//! Turn orders: the sequence of players of the turns, one per morsel (alternation,
//! Thue-Morse, snake, or letters), and the check that an order fits a dinner.

use std::fmt;

use crate::engine::Player;

use super::{Dinner, DinnerError};

/// The sequence of players of the turns of a dinner, one turn per morsel.
///
/// ```
/// use lastbite::games::dinner::{Dinner, TurnOrder};
/// let d = Dinner::from_morsels("1,1 2,2 3,3 4,4 5,5").unwrap();
/// assert_eq!(TurnOrder::default_for(&d).to_string(), "BABAB"); // Bob moves last
/// assert_eq!(TurnOrder::parse("thue-morse", &d).unwrap().to_string(), "ABBAB");
/// assert!(TurnOrder::parse("ABAB", &d).is_err());
/// assert_eq!(TurnOrder::parse("AAB...", &d).unwrap().to_string(), "AABAA");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TurnOrder {
    turns: Vec<u8>,
    players: usize,
}

impl TurnOrder {
    /// The paper's convention for two players (Bob moves last, so Alice moves first
    /// exactly when the number of morsels is even); round robin from A for more players.
    pub fn default_for(dinner: &Dinner) -> TurnOrder {
        if dinner.players() == 2 {
            let first = if dinner.len().is_multiple_of(2) { 0 } else { 1 };
            TurnOrder::alternating(dinner, first)
        } else {
            TurnOrder::alternating(dinner, 0)
        }
    }

    /// Round robin starting with player `first`.
    pub fn alternating(dinner: &Dinner, first: Player) -> TurnOrder {
        let k = dinner.players();
        TurnOrder {
            turns: (0..dinner.len()).map(|t| ((first + t) % k) as u8).collect(),
            players: k,
        }
    }

    /// The Thue-Morse order (balanced alternation, Brams and Taylor): turn `t` (from 0)
    /// goes to the player given by the digit sum of `t` in base `players`, mod `players`.
    pub fn thue_morse(dinner: &Dinner) -> TurnOrder {
        let k = dinner.players();
        let turns = (0..dinner.len())
            .map(|mut t| {
                let mut sum = 0;
                while t > 0 {
                    sum += t % k.max(2);
                    t /= k.max(2);
                }
                (sum % k) as u8
            })
            .collect();
        TurnOrder { turns, players: k }
    }

    /// Parses `thue-morse`, `alternate` (round robin from A), `snake` (A B C C B A A B C
    /// ..., the draft order), an explicit sequence of player letters such as `ABBA`
    /// (case-insensitive; spaces and commas ignored), or a pattern repeated to the dinner's
    /// length, written with a trailing `...` (`ABCCBA...`).
    pub fn parse(spec: &str, dinner: &Dinner) -> Result<TurnOrder, DinnerError> {
        let k = dinner.players();
        match spec.trim().to_ascii_lowercase().as_str() {
            "thue-morse" | "thuemorse" | "tm" => return Ok(TurnOrder::thue_morse(dinner)),
            "alternate" | "alternating" | "round-robin" => {
                return Ok(TurnOrder::alternating(dinner, 0))
            }
            "snake" => {
                let turns = (0..dinner.len())
                    .map(|t| {
                        let (round, pos) = (t / k, t % k);
                        (if round % 2 == 0 { pos } else { k - 1 - pos }) as u8
                    })
                    .collect();
                return Ok(TurnOrder { turns, players: k });
            }
            _ => {}
        }
        let (body, repeat) = match spec.trim().strip_suffix("...") {
            Some(b) => (b, true),
            None => (spec, false),
        };
        let mut turns = Vec::new();
        for (i, c) in body
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .enumerate()
        {
            let up = c.to_ascii_uppercase();
            let p = if up.is_ascii_uppercase() {
                (up as u8 - b'A') as usize
            } else {
                usize::MAX
            };
            if p >= k {
                return Err(DinnerError::OrderLetter {
                    letter: c,
                    position: i + 1,
                    players: k,
                });
            }
            turns.push(p as u8);
        }
        if repeat && !turns.is_empty() {
            turns = turns.iter().copied().cycle().take(dinner.len()).collect();
        }
        if turns.len() != dinner.len() {
            return Err(DinnerError::OrderLength {
                order: spec.trim().to_string(),
                found: turns.len(),
                expected: dinner.len(),
            });
        }
        Ok(TurnOrder { turns, players: k })
    }

    /// The player of turn `t` (from 0).
    #[inline]
    pub fn player(&self, t: usize) -> Player {
        self.turns[t] as Player
    }

    /// The turns from turn `t` (from 0) on: the order of the dinner left after `t` bites.
    pub fn from_turn(&self, t: usize) -> TurnOrder {
        TurnOrder {
            turns: self.turns[t.min(self.turns.len())..].to_vec(),
            players: self.players,
        }
    }

    /// The players of the turns.
    pub fn turns(&self) -> &[u8] {
        &self.turns
    }

    /// Number of turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether there are no turns (never, for a validated dinner).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }
}

impl fmt::Display for TurnOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &p in &self.turns {
            write!(f, "{}", char::from(b'A' + p))?;
        }
        Ok(())
    }
}

/// The order has one turn per morsel and names only the dinner's players (orders are
/// built against a dinner, so this fails only when a dinner's order meets another).
/// Private to the model: [`Setup::new`](super::Setup::new) is the one place it runs.
pub(super) fn check_order(dinner: &Dinner, order: &TurnOrder) -> Result<(), DinnerError> {
    if order.len() != dinner.len() || order.players() != dinner.players() {
        return Err(DinnerError::OrderMismatch {
            turns: order.len(),
            order_players: order.players(),
            morsels: dinner.len(),
            players: dinner.players(),
        });
    }
    Ok(())
}
