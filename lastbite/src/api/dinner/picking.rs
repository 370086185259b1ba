//! The dinner as a picking sequence (fair division): `dinner sincere` and `dinner
//! manipulate`. The work is [`crate::games::dinner::picking`]'s; here requests become its
//! validated inputs and its results reports.

use super::report::{bites, BiteReport, ManipulateReport, SincereReport, WelfareRow};
use crate::api::input::{dinner_request, First, Letter, Morsels};
use crate::api::{Control, Error};
use crate::engine::{Budget, Player};
use crate::exact::Exact;
use crate::games::dinner::picking::welfare::{counts, ratio};
use crate::games::dinner::picking::{manipulate as best_response, optimum, sincere as play};
use crate::games::dinner::picking::{sincere_scores, Welfare};
use crate::games::dinner::{all_spe_scores, Dinner, DinnerError, Rules, Setup};

dinner_request! {
    /// `dinner sincere`: every agent takes its favourite morsel left (the earlier one
    /// among equal utilities).
    SincereRequest {
        /// Also compare with every pure SPE outcome and the welfare optimum
        /// (utilitarian, egalitarian, Nash): the prices of anarchy and stability. The
        /// SPE outcomes need the exact solver (small dinners).
        compare: bool = false,
        /// Refuse more states (the SPE solver's) or allocations (the optimum's
        /// enumeration) than this.
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// Sincere play, and with `compare` its welfare against strategic play and the optimum.
pub fn sincere(req: &SincereRequest, ctl: &Control) -> Result<SincereReport, Error> {
    let (d, order) = req.input().load()?;
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let eating = play(d, order)?;
    let scores = sincere_scores(d, &eating);
    let budget = Budget {
        max_states: req.max_states,
    };
    let (spe_outcomes, welfare) = if req.compare {
        let outcomes = all_spe_scores(&setup, budget, ctl)?;
        let rows = welfare_rows(d, &counts(order), &scores, &outcomes, budget)?;
        (Some(outcomes), Some(rows))
    } else {
        (None, None)
    };
    Ok(SincereReport {
        players: d.players(),
        morsels: d.len(),
        turn_order: order.to_string(),
        scores,
        eating_order: bites(d, &eating),
        spe_outcomes,
        welfare,
        dinner: (d.len() <= 60).then(|| d.clone()),
    })
}

fn welfare_rows(
    d: &Dinner,
    counts: &[usize],
    sincere: &[Exact],
    outcomes: &[Vec<Exact>],
    budget: Budget,
) -> Result<Vec<WelfareRow>, Error> {
    let overflow = || Error::from(DinnerError::Overflow(d.len()));
    Welfare::ALL
        .into_iter()
        .map(|w| {
            let of = |s: &[Exact]| w.of(s).ok_or_else(overflow);
            let spe: Vec<Exact> = outcomes.iter().map(|o| of(o)).collect::<Result<_, _>>()?;
            let worst = *spe.iter().min().expect("a game has an SPE");
            let best = *spe.iter().max().expect("a game has an SPE");
            let sincere = of(sincere)?;
            // Past the budget the optimum is left out, not the whole comparison.
            let optimum = match optimum(d, counts, w, budget) {
                Ok((value, _)) => Some(value),
                Err(DinnerError::Engine(_)) => None,
                Err(e) => return Err(e.into()),
            };
            Ok(WelfareRow {
                measure: w.name(),
                sincere,
                spe_worst: worst,
                spe_best: best,
                optimum,
                price_of_anarchy: optimum.and_then(|o| ratio(o, worst)),
                price_of_stability: optimum.and_then(|o| ratio(o, best)),
                sincere_over_worst: ratio(sincere, worst),
                sincere_over_best: ratio(sincere, best),
            })
        })
        .collect()
}

dinner_request! {
    /// `dinner manipulate`: one agent's best play against sincere others.
    ManipulateRequest {
        /// The manipulator, a player's letter (`A`, `B`, ...).
        agent: String = "A".into(),
        /// Refuse to memoise more sets of morsels left than this (the search, three or
        /// more agents).
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// The manipulator's best play, its gain over sincere play, and its picks.
pub fn manipulate(req: &ManipulateRequest, _ctl: &Control) -> Result<ManipulateReport, Error> {
    let (d, order) = req.input().load()?;
    let setup = Setup::new(d, order, Rules::default())?;
    let (d, order) = (setup.dinner(), setup.order());
    let agent = agent_of(&req.agent, d.players())?;
    let budget = Budget {
        max_states: req.max_states,
    };
    let m = best_response(d, order, agent, budget)?;
    let sincere_play = play(d, order)?;
    let sincere = sincere_scores(d, &sincere_play)[agent];
    let score = d.unscale(m.score);
    // With nothing to gain, sincere play is a best play: report it, not another of the
    // same score.
    let played = if score == sincere {
        &sincere_play
    } else {
        &m.eating
    };
    let eating: Vec<BiteReport> = bites(d, played);
    Ok(ManipulateReport {
        turn_order: order.to_string(),
        agent: Letter(agent),
        score,
        sincere_score: sincere,
        gain: score - sincere,
        picks: played
            .iter()
            .filter(|b| b.player == agent)
            .map(|b| b.morsel)
            .collect(),
        eating_order: eating,
        method: if d.players() == 2 { "greedy" } else { "search" },
        states: (d.players() > 2).then_some(m.states),
    })
}

fn agent_of(text: &str, players: usize) -> Result<Player, Error> {
    let t = text.trim();
    let last = char::from(b'A' + players.min(26) as u8 - 1);
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            let p = (c.to_ascii_uppercase() as u8 - b'A') as usize;
            if p < players {
                return Ok(p);
            }
        }
        _ => {}
    }
    Err(Error::invalid(
        "agent",
        t,
        format!("not a player of this dinner (A..{last})"),
    ))
}
