//! A subtraction game to play move by move ([`crate::api::playable`]): an action is the
//! number taken; each take pays the taker (and, in zero-sum scoring play, costs the
//! other as much).

use crate::api::input::request;
use crate::api::playable::{Family, GameInfo, Playable, Utility};
use crate::api::Error;
use crate::exact::Exact;
use crate::games::subtraction::{Ruleset, SubtractionGame};

request! {
    @plain
    /// A subtraction game to play move by move.
    GameRequest {
        /// The subtraction set, e.g. `"4,5,9"` (or `"4 5 9"`).
        #[serde(deserialize_with = "crate::api::forms::list")]
        #[schemars(with = "crate::api::forms::ListForms<u64>")]
        set: String = String::new(),
        /// The heap.
        heap: u64 = 0,
        /// Zero-sum scoring play (Section 5): each take also costs the other player.
        zero_sum: bool = false,
    }
}

struct Subtraction {
    set: Ruleset,
    heap: u64,
    zero_sum: bool,
}

impl Family for Subtraction {
    type State = (u64, u8);
    type Move = u64;
    type Payoff = i64;
    type G<'a> = SubtractionGame<'a>;

    fn game(&self) -> SubtractionGame<'_> {
        if self.zero_sum {
            SubtractionGame::zero_sum(&self.set, self.heap)
        } else {
            SubtractionGame::new(&self.set, self.heap)
        }
    }
    fn action(&self, mv: &u64) -> u64 {
        *mv
    }
    fn real(&self, _game: &SubtractionGame<'_>, payoff: &i64) -> Exact {
        Exact::integer(*payoff as i128)
    }
}

/// The subtraction game of `req` to play move by move.
pub fn game(req: &GameRequest) -> Result<Playable, Error> {
    let set = super::ruleset(&req.set)?;
    // Payoffs are i64 in the engine game: a heap beyond cannot be scored.
    if req.heap > i64::MAX as u64 {
        return Err(Error::invalid(
            "heap",
            req.heap,
            format!("is above {}, the largest heap the game scores", i64::MAX),
        ));
    }
    let heap = Exact::integer(req.heap as i128);
    let largest = set.elements().last().copied().unwrap_or(0).min(req.heap);
    let info = GameInfo {
        family: "subtraction",
        title: format!(
            "{} subtraction game {{{set}}} from a heap of {}",
            if req.zero_sum {
                "zero-sum"
            } else {
                "self-interest"
            },
            req.heap
        ),
        players: 2,
        actions: largest + 1,
        max_length: req.heap / set.min(),
        min_return: if req.zero_sum { -heap } else { Exact::ZERO },
        max_return: heap,
        utility: if req.zero_sum {
            Utility::ZeroSum
        } else {
            Utility::GeneralSum
        },
        utility_sum: req.zero_sum.then_some(Exact::ZERO),
        rewards_along_the_way: true,
    };
    Ok(Playable::new(
        info,
        Subtraction {
            set,
            heap: req.heap,
            zero_sum: req.zero_sum,
        },
    ))
}
