//! The cookie game to play move by move ([`crate::api::playable`]): an action is the
//! days left of the cookie eaten; whoever eats the last edible cookie wins (+1, the
//! other -1).

use super::{position_of, Components};
use crate::api::input::request;
use crate::api::playable::{Family, GameInfo, Playable, Utility};
use crate::api::Error;
use crate::exact::Exact;
use crate::games::cookie::{CookieMatch, Position};

request! {
    @plain
    /// The cookie game to play move by move.
    GameRequest {
        /// The components (days of edibility).
        components: Option<Components> = None,
    }
}

struct Cookie(Position);

impl Family for Cookie {
    type State = (Position, u8);
    type Move = u64;
    type Payoff = i64;
    type G<'a> = CookieMatch;

    fn game(&self) -> CookieMatch {
        CookieMatch::new(&self.0)
    }
    fn action(&self, mv: &u64) -> u64 {
        *mv
    }
    fn real(&self, _game: &CookieMatch, payoff: &i64) -> Exact {
        Exact::integer(*payoff as i128)
    }
}

/// The cookie game of `req` to play move by move.
pub fn game(req: &GameRequest) -> Result<Playable, Error> {
    let start = position_of(&req.components, &None)?.canonical();
    let info = GameInfo {
        family: "cookie",
        title: format!("the cookie game from {start}"),
        players: 2,
        actions: start.components().last().map_or(1, |&a| a + 1),
        max_length: start.len() as u64,
        min_return: Exact::integer(-1),
        max_return: Exact::integer(1),
        utility: Utility::ZeroSum,
        utility_sum: Some(Exact::ZERO),
        rewards_along_the_way: false,
    };
    Ok(Playable::new(info, Cookie(start)))
}
