//! A dinner to play move by move ([`crate::api::playable`]): an action is the index of
//! the morsel eaten; each bite pays its utilities as the rules score them.

use super::input::{dinner_request, First, Morsels};
use crate::api::playable::{Family, GameInfo, Playable, Utility};
use crate::api::Error;
use crate::exact::Exact;
use crate::games::dinner::{DinnerGame, Setup};

dinner_request! {
    @plain
    /// A dinner to play move by move: the morsels and turn order, and the rules' fields
    /// that change the payoffs or the moves.
    GameRequest {
        /// Delayed gratification: a morsel eaten on turn t is worth L^t times its value.
        discount: Option<Exact> = None,
        /// Inaccessible morsels, e.g. `"0<3,1<3"`: morsel 3 only after 0 and 1.
        before: Option<String> = None,
    }
}

struct Dinner(Setup);

impl Family for Dinner {
    type State = u64;
    type Move = usize;
    type Payoff = i128;
    type G<'a> = DinnerGame<'a, i128>;

    fn game(&self) -> DinnerGame<'_, i128> {
        let s = &self.0;
        DinnerGame::new(s, false).expect("the game was made once when the request was checked")
    }
    fn action(&self, mv: &usize) -> u64 {
        *mv as u64
    }
    fn real(&self, game: &DinnerGame<'_, i128>, payoff: &i128) -> Exact {
        game.real(*payoff)
    }
}

/// The dinner of `req` to play move by move.
pub fn game(req: &GameRequest) -> Result<Playable, Error> {
    let setup = req
        .input()
        .setup_with(|d| super::rules_of(d, req.discount, req.before.as_deref(), None))?;
    let (d, order) = (setup.dinner(), setup.order());
    // Refuses what the engine game cannot hold (over 63 morsels, sums past 128 bits).
    let engine = DinnerGame::<i128>::new(&setup, false)?;
    let n = d.len();
    // Without a discount above 1, a player's return lies between the sums of her negative
    // and of her positive utilities; a larger discount only scales within the engine's
    // bound on any play's payoff.
    let (min_return, max_return) = match setup.rules().discount() {
        Some(l) if l > Exact::integer(1) => {
            let b = engine.real(engine.scoring().bound(d).saturating_mul(n as i128));
            (-b, b)
        }
        _ => {
            let sums = |keep: fn(Exact) -> bool| {
                (0..d.players()).map(move |p| {
                    (0..n)
                        .map(|i| d.value(i, p))
                        .filter(|v| keep(*v))
                        .fold(Exact::ZERO, |a, v| a + v)
                })
            };
            (
                sums(|v| v < Exact::ZERO).min().unwrap_or(Exact::ZERO),
                sums(|v| v > Exact::ZERO).max().unwrap_or(Exact::ZERO),
            )
        }
    };
    let info = GameInfo {
        family: "dinner",
        title: format!("Ethiopian Dinner, {n} morsels, turn order {order}"),
        players: d.players(),
        actions: n as u64,
        max_length: n as u64,
        min_return,
        max_return,
        utility: Utility::GeneralSum,
        utility_sum: None,
        rewards_along_the_way: true,
    };
    drop(engine);
    Ok(Playable::new(info, Dinner(setup)))
}
