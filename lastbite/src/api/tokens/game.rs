//! Token Dollars to play move by move ([`crate::api::playable`]): an action is the
//! position (from 1) where the player to move places her token; once every player has
//! placed hers, each is paid the stacks nearest it (shared where tokens tie).

use crate::api::input::request;
use crate::api::playable::{Family, GameInfo, Playable, Utility};
use crate::api::Error;
use crate::exact::Exact;
use crate::games::tokens::{Board, TokensGame};

request! {
    @plain
    /// Token Dollars to play move by move.
    GameRequest {
        /// Stacks worth $1..$M at positions 1..M (unless `values`).
        stacks: usize = 10,
        /// Stack values at positions 1, 2, ... (exact, non-negative), e.g. `"1,2,3.5"`
        /// (or `"1 2 3.5"`).
        #[serde(deserialize_with = "crate::api::forms::optional_list")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        values: Option<String> = None,
        /// Number of players (placing in turn).
        players: usize = 3,
        /// Stacks on a clock (circular distance) instead of a line.
        clock: bool = false,
    }
}

struct Tokens(Board);

impl Family for Tokens {
    type State = Vec<u16>;
    type Move = u16;
    type Payoff = i64;
    type G<'a> = TokensGame<'a>;

    fn game(&self) -> TokensGame<'_> {
        TokensGame::new(&self.0)
    }
    fn action(&self, mv: &u16) -> u64 {
        u64::from(*mv)
    }
    fn real(&self, _game: &TokensGame<'_>, payoff: &i64) -> Exact {
        self.0.real(*payoff)
    }
}

/// The Token Dollars game of `req` to play move by move.
pub fn game(req: &GameRequest) -> Result<Playable, Error> {
    super::check_stacks(&req.values, req.stacks)?;
    let board = super::board_of(&req.values, req.stacks, req.players, req.clock)?;
    if board.positions() > u16::MAX as usize {
        return Err(Error::invalid(
            "stacks",
            board.positions(),
            format!(
                "is more than the {} positions a token's move names",
                u16::MAX
            ),
        ));
    }
    let total = board.real(board.total());
    let info = GameInfo {
        family: "tokens",
        title: format!(
            "Token Dollars, {} stacks on a {}, {} players",
            board.stacks(),
            if board.clock() { "clock" } else { "line" },
            board.players()
        ),
        players: board.players(),
        actions: board.positions() as u64 + 1,
        max_length: board.players() as u64,
        min_return: Exact::ZERO,
        max_return: total,
        // Every stack goes to the nearest tokens, shared where they tie.
        utility: Utility::ConstantSum,
        utility_sum: Some(total),
        rewards_along_the_way: false,
    };
    Ok(Playable::new(info, Tokens(board)))
}
