//! The dinner as a picking sequence (fair division): `dinner sincere`, `dinner
//! manipulate` and `dinner fairness`. The work is [`crate::games::dinner::picking`]'s; here requests become its
//! validated inputs and its results reports. `dinner fairness` too.

use super::report::{
    bites, AgentFairnessReport, BiteReport, FairnessFailures, FairnessReport, ManipulateReport,
    MechanismFairness, SincereReport, WelfareRow,
};
use crate::api::input::{dinner_request, First, Letter, Morsels};
use crate::api::{Control, Error};
use crate::engine::{Budget, Player};
use crate::exact::Exact;
use crate::games::dinner::picking::welfare::{counts, ratio};
use crate::games::dinner::picking::{manipulate as best_response, optimum, sincere as play};
use crate::games::dinner::picking::{sincere_scores, Welfare};
use crate::games::dinner::{
    all_spe_scores, crossout, picking, solve_exact, Bite, Dinner, DinnerError, DinnerTies, Rules,
    Setup, TurnOrder, DEFAULT_DINNER_MEMORY,
};
use crate::rng::Rng;

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

dinner_request! {
    /// `dinner fairness`: envy-freeness, EF1, proportionality and maximin shares of the
    /// sincere and the equilibrium allocation, of one dinner or (`trials`) of random
    /// permutation dinners.
    FairnessRequest {
        /// Instead of one dinner: this many random permutation dinners (each agent ranks
        /// the morsels by an independent random permutation of 1..=size).
        trials: Option<u64> = None,
        /// Morsels of each random dinner.
        size: usize = 8,
        /// Agents of each random dinner.
        players: usize = 2,
        /// Seed of the random dinners.
        seed: u64 = 1,
        /// Refuse more states (the equilibrium) or maximin-share nodes (an agent) than
        /// this; a share past it is reported as null.
        max_states: u64 = Budget::DEFAULT_MAX_STATES,
    }
}

/// Fairness of the sincere and the equilibrium allocations.
pub fn fairness(req: &FairnessRequest, ctl: &Control) -> Result<FairnessReport, Error> {
    let budget = Budget {
        max_states: req.max_states,
    };
    let Some(trials) = req.trials else {
        let (d, order) = req.input().load()?;
        let setup = Setup::new(d, order, Rules::default())?;
        let mechanisms = allocations(&setup, budget, ctl)?
            .into_iter()
            .map(|(name, eating)| mechanism_fairness(setup.dinner(), name, &eating, budget))
            .collect();
        return Ok(FairnessReport {
            turn_order: setup.order().to_string(),
            mechanisms: Some(mechanisms),
            trials: None,
            failures: None,
        });
    };
    if req.input().given() {
        return Err(Error::combination(
            "trials",
            "draws its own random dinners; give a dinner or trials, not both",
        ));
    }
    if !(1..=24).contains(&req.size) || !(2..=6).contains(&req.players) {
        return Err(Error::invalid(
            "size",
            format!("{} morsels, {} players", req.size, req.players),
            "use 1..=24 morsels and 2..=6 players",
        ));
    }
    let mut failures = [("sincere", [0u64; 4]), ("spe", [0u64; 4])];
    let mut turn_order = String::new();
    for trial in 0..trials {
        ctl.check()?;
        let mut rng = Rng::for_trial(req.seed, trial);
        let cols: Vec<Vec<i64>> = (0..req.players)
            .map(|_| rng.permutation(req.size))
            .collect();
        let flat = (0..req.size)
            .flat_map(|i| cols.iter().map(move |c| c[i]))
            .collect();
        let d = Dinner::from_integers(req.players, flat)?;
        let order = match &req.order {
            Some(spec) => TurnOrder::parse(spec, &d)?,
            None => TurnOrder::default_for(&d),
        };
        turn_order = order.to_string();
        let setup = Setup::new(d, order, Rules::default())?;
        for (k, (name, eating)) in allocations(&setup, budget, ctl)?.into_iter().enumerate() {
            let m = mechanism_fairness(setup.dinner(), name, &eating, budget);
            let failed = [!m.envy_free, !m.ef1, !m.proportional, m.mms == Some(false)];
            for (count, f) in failures[k].1.iter_mut().zip(failed) {
                *count += u64::from(f);
            }
        }
    }
    Ok(FairnessReport {
        turn_order,
        mechanisms: None,
        trials: Some(trials),
        failures: Some(
            failures
                .into_iter()
                .map(|(mechanism, c)| FairnessFailures {
                    mechanism,
                    envy_free: c[0],
                    ef1: c[1],
                    proportional: c[2],
                    mms: c[3],
                })
                .collect(),
        ),
    })
}

/// The sincere and the equilibrium plays (crossout for two agents, else the exact
/// solver, the index tie rule: `dinner solve`'s default).
fn allocations(
    setup: &Setup,
    budget: Budget,
    ctl: &Control,
) -> Result<Vec<(&'static str, Vec<Bite>)>, Error> {
    let (d, order) = (setup.dinner(), setup.order());
    let spe: Vec<Bite> = if d.players() == 2 {
        crossout(d, order)?.eating().collect()
    } else {
        solve_exact(
            setup,
            &DinnerTies::Index,
            budget,
            DEFAULT_DINNER_MEMORY,
            ctl,
            None,
        )?
        .eating
    };
    Ok(vec![("sincere", play(d, order)?), ("spe", spe)])
}

fn mechanism_fairness(
    d: &Dinner,
    mechanism: &'static str,
    eating: &[Bite],
    budget: Budget,
) -> MechanismFairness {
    let bundles = picking::bundles(d.players(), eating);
    let scores = sincere_scores(d, eating);
    let agents: Vec<AgentFairnessReport> = picking::fairness::fairness(d, &bundles, budget)
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            let own: i128 = bundles[i].iter().map(|&m| d.utility(m, i) as i128).sum();
            AgentFairnessReport {
                agent: Letter(i),
                bundle: bundles[i].clone(),
                score: scores[i],
                envy_free: f.envies.is_empty(),
                envies: f.envies.into_iter().map(Letter).collect(),
                ef1: f.ef1,
                proportional: f.proportional,
                mms_share: f.mms_share.map(|s| d.unscale(s)),
                mms: f.mms_share.map(|s| own >= s),
            }
        })
        .collect();
    MechanismFairness {
        mechanism,
        envy_free: agents.iter().all(|a| a.envy_free),
        ef1: agents.iter().all(|a| a.ef1),
        proportional: agents.iter().all(|a| a.proportional),
        mms: agents
            .iter()
            .map(|a| a.mms)
            .collect::<Option<Vec<bool>>>()
            .map(|v| v.into_iter().all(|x| x)),
        agents,
    }
}
