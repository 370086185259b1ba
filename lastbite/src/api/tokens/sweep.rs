//! `tokens anywhere` as a sweep: each of the first player's pieces played out on its own
//! is an item ([`crate::games::tokens::anywhere::first`]); the report picks her piece by
//! the tie rule from their payoffs and replays the rest of the path from it.

use serde::{Deserialize, Serialize};

use super::{anywhere_cost, anywhere_game, AnywhereReport, AnywhereRequest};
use crate::api::cost::Estimate;
use crate::api::sweep::{self, Sweep};
use crate::api::{Control, Error};
use crate::engine::CancelOnly;
use crate::games::tokens::anywhere::first::{after_first, first_pieces_open, from_first_pieces};
use crate::games::tokens::{Arena, TokenTies};

/// `tokens anywhere` as a sweep: one item per piece of the first player's line.
pub struct AnywhereSweep;

/// The game of a `tokens anywhere` sweep, its tie rule and the first player's pieces
/// (whether each is an open interval).
pub struct AnywherePlan {
    arena: Arena,
    ties: TokenTies,
    pieces: u64,
    open: Vec<bool>,
}

/// Some first pieces played out: the piece, the final payoffs in turn order (in the
/// arena's units of money) and the placements tried.
#[derive(Default, Serialize, Deserialize)]
pub struct AnywherePartial(Vec<(u64, Vec<i64>, u64)>);

impl Sweep for AnywhereSweep {
    const COMMAND: &'static str = "tokens-anywhere";
    type Request = AnywhereRequest;
    type Plan = AnywherePlan;
    type Partial = AnywherePartial;
    type Report = AnywhereReport;

    fn plan(req: &AnywhereRequest) -> Result<AnywherePlan, Error> {
        let (arena, ties) = anywhere_game(req)?;
        let open = first_pieces_open(&arena);
        Ok(AnywherePlan {
            arena,
            ties,
            pieces: open.len() as u64,
            open,
        })
    }
    fn items(plan: &AnywherePlan) -> u64 {
        plan.pieces
    }
    fn cost(_req: &AnywhereRequest, plan: &AnywherePlan) -> Estimate {
        anywhere_cost(&plan.arena)
    }
    fn weight(_req: &AnywhereRequest, plan: &AnywherePlan, item: u64) -> f64 {
        // Measured on $1..$10: an interval's search tries about `players + 1/2` times a
        // point's placements (4.5 times with four players, 6.7 with six).
        if plan.open[item as usize] {
            plan.arena.players() as f64 + 0.5
        } else {
            1.0
        }
    }
    fn item(
        _req: &AnywhereRequest,
        plan: &AnywherePlan,
        item: u64,
        ctl: &Control,
    ) -> Result<AnywherePartial, Error> {
        let f = after_first(&plan.arena, plan.ties, item, &CancelOnly(ctl))?;
        Ok(AnywherePartial(vec![(item, f.pays, f.placements)]))
    }
    fn merge(into: &mut AnywherePartial, other: AnywherePartial) {
        sweep::append_ordered(&mut into.0, other.0, |p| p.0);
    }
    fn check(
        _req: &AnywhereRequest,
        plan: &AnywherePlan,
        all: &AnywherePartial,
    ) -> Result<(), String> {
        sweep::check_every_item(&all.0, plan.pieces, |p| p.0)?;
        let (players, total) = (plan.arena.players(), plan.arena.money_units());
        for (k, (_, pays, _)) in all.0.iter().enumerate() {
            let sum = pays.iter().try_fold(0i64, |a, &p| a.checked_add(p));
            if pays.len() != players || pays.iter().any(|&p| p < 0) || sum != Some(total) {
                return Err(format!(
                    "[{k}][1]: {pays:?} are not {players} payoffs sharing the stacks' {total}"
                ));
            }
        }
        Ok(())
    }
    fn report(
        req: &AnywhereRequest,
        plan: &AnywherePlan,
        all: AnywherePartial,
        ctl: &Control,
    ) -> Result<AnywhereReport, Error> {
        let tried = all.0.iter().fold(0u64, |a, p| a.saturating_add(p.2));
        let firsts: Vec<Vec<i64>> = all.0.into_iter().map(|p| p.1).collect();
        let mut play = from_first_pieces(&plan.arena, plan.ties, &firsts, ctl)?;
        play.placements = play.placements.saturating_add(tried);
        Ok(AnywhereReport::new(&plan.arena, &req.ties, play))
    }
}
