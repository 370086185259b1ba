//! The dinner as a picking sequence (fair division): `dinner sincere`, `dinner
//! manipulate` and `dinner fairness`. The work is [`crate::games::dinner::picking`]'s; here requests become its
//! validated inputs and its results reports. `dinner fairness` too.

use super::report::{
    bites, AgentFairnessReport, BestOrderReport, BiteReport, ExpectedReport, FairnessFailures,
    FairnessReport, ManipulateReport, MechanismFairness, RankedOrder, SincereReport, WelfareRow,
};
use crate::api::input::{dinner_request, request, First, Letter, Morsels};
use crate::api::{Control, Error};
use crate::engine::{Budget, Player};
use crate::exact::Exact;
use crate::games::dinner::picking::equilibria::spe_allocations;
use crate::games::dinner::picking::expected::Play;
use crate::games::dinner::picking::welfare::{counts, ratio};
use crate::games::dinner::picking::Welfare;
use crate::games::dinner::picking::{manipulate as best_response, optimum, sincere as play};
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
    let scores = setup.scoring().score(d, eating.iter().copied())?;
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
    let sincere = setup.scoring().score(d, sincere_play.iter().copied())?[agent];
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
        /// Also every subgame-perfect equilibrium allocation, not only the one `dinner
        /// solve` plays (the engine's all-outcomes rule: small dinners).
        every_spe: bool = false,
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
            .map(|(name, eating)| mechanism_fairness(&setup, name, &eating, budget))
            .collect::<Result<_, _>>()?;
        let every_spe = if req.every_spe {
            Some(every_spe_fairness(&setup, budget, ctl)?)
        } else {
            None
        };
        return Ok(FairnessReport {
            turn_order: setup.order().to_string(),
            mechanisms: Some(mechanisms),
            every_spe,
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
    let mut failures = vec![("sincere", [0u64; 4]), ("spe", [0u64; 4])];
    if req.every_spe {
        failures.push(("every_spe", [0u64; 4]));
    }
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
        let failed =
            |m: &MechanismFairness| [!m.envy_free, !m.ef1, !m.proportional, m.mms == Some(false)];
        for (k, (name, eating)) in allocations(&setup, budget, ctl)?.into_iter().enumerate() {
            let m = mechanism_fairness(&setup, name, &eating, budget)?;
            for (count, f) in failures[k].1.iter_mut().zip(failed(&m)) {
                *count += u64::from(f);
            }
        }
        if req.every_spe {
            // A dinner fails a property when some equilibrium allocation does.
            let mut any = [false; 4];
            for m in every_spe_fairness(&setup, budget, ctl)? {
                for (a, f) in any.iter_mut().zip(failed(&m)) {
                    *a |= f;
                }
            }
            for (count, f) in failures[2].1.iter_mut().zip(any) {
                *count += u64::from(f);
            }
        }
    }
    Ok(FairnessReport {
        turn_order,
        mechanisms: None,
        every_spe: None,
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

/// The sincere and the equilibrium plays.
fn allocations(
    setup: &Setup,
    budget: Budget,
    ctl: &Control,
) -> Result<Vec<(&'static str, Vec<Bite>)>, Error> {
    let sincere = play(setup.dinner(), setup.order())?;
    Ok(vec![
        ("sincere", sincere),
        ("spe", spe_play(setup, budget, ctl)?),
    ])
}

/// The equilibrium play of `dinner solve`'s default: crossout for two agents, else the
/// exact solver with the index tie rule.
fn spe_play(setup: &Setup, budget: Budget, ctl: &Control) -> Result<Vec<Bite>, Error> {
    let (d, order) = (setup.dinner(), setup.order());
    Ok(if d.players() == 2 {
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
    })
}

/// The fairness of every equilibrium allocation.
fn every_spe_fairness(
    setup: &Setup,
    budget: Budget,
    ctl: &Control,
) -> Result<Vec<MechanismFairness>, Error> {
    ctl.check()?;
    spe_allocations(setup, budget)?
        .into_iter()
        .map(|bundles| {
            // Each bundle eaten in increasing order: fairness reads only the bundles.
            let eating: Vec<Bite> = bundles
                .iter()
                .enumerate()
                .flat_map(|(player, b)| b.iter().map(move |&morsel| (player, morsel)))
                .enumerate()
                .map(|(turn, (player, morsel))| Bite {
                    turn,
                    player,
                    morsel,
                })
                .collect();
            mechanism_fairness(setup, "spe", &eating, budget)
        })
        .collect()
}

fn mechanism_fairness(
    setup: &Setup,
    mechanism: &'static str,
    eating: &[Bite],
    budget: Budget,
) -> Result<MechanismFairness, Error> {
    let d = setup.dinner();
    let bundles = picking::bundles(d.players(), eating);
    let scores = setup.scoring().score(d, eating.iter().copied())?;
    let agents: Vec<AgentFairnessReport> = picking::fairness::fairness(d, &bundles, budget)
        .into_iter()
        .enumerate()
        .map(|(i, f)| AgentFairnessReport {
            agent: Letter(i),
            bundle: bundles[i].clone(),
            score: scores[i],
            envy_free: f.envies.is_empty(),
            envies: f.envies.into_iter().map(Letter).collect(),
            ef1: f.ef1,
            proportional: f.proportional,
            mms_share: f.mms_share.map(|s| d.unscale(s)),
            mms: f.mms,
        })
        .collect();
    Ok(MechanismFairness {
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
    })
}

request! {
    /// `dinner expected`: each agent's expected score and the expected welfare of a
    /// picking sequence under impartial culture (independent uniformly random rankings).
    ExpectedRequest {
        /// The picking sequence: letters (`ABBA`, `AB...` repeats), `alternate`,
        /// `snake` or `thue-morse`.
        order: String = "alternate".into(),
        /// Number of items.
        items: usize = 10,
        /// Number of agents.
        players: usize = 2,
        /// What the item ranked r-th is worth: `borda` (m - r + 1), `lexicographic`
        /// (2^-r), or a scoring vector `"s1,s2,...,sm"` (exact, best first).
        model: String = "borda".into(),
        /// `utilitarian`, `egalitarian` or `nash`.
        welfare: String = "utilitarian".into(),
        /// `sincere` or `strategic` (the subgame-perfect equilibrium; ties between equal
        /// values broken by the agent's ranking; two agents: exact by the reversal at any
        /// size).
        play: String = "sincere".into(),
        /// Refuse to average over more profiles of rankings than this (every route but
        /// the two-agent utilitarian one enumerates them).
        max_profiles: u64 = 1_000_000,
        /// Beyond `max_profiles` (where no exact route applies), estimate from this many
        /// random profiles, with 95% confidence intervals.
        samples: Option<u64> = None,
        /// Seed of the sampled profiles.
        seed: u64 = 1,
        /// Average over the profiles (every one, or `samples`) even where a program
        /// applies: a second route to the same number.
        enumerate: bool = false,
    }
}

/// The most items for which `dinner expected` runs the joint program for the expected
/// Nash welfare of two agents (`O(m^4)` exact operations; beyond, the profiles are
/// enumerated or sampled).
pub const NASH_PROGRAM_ITEMS: usize = 40;

/// The most values the joint program for the expected egalitarian welfare of two agents
/// holds (the laws of the score difference, over every state), and the most items it
/// takes (Borda's laws grow as m^4 and the program as m^6: 24 items in 3 s); past
/// either, the profiles are enumerated or sampled.
pub const EGALITARIAN_PROGRAM_VALUES: usize = 1 << 16;
/// See [`EGALITARIAN_PROGRAM_VALUES`].
pub const EGALITARIAN_PROGRAM_ITEMS: usize = 24;

/// Expected scores and welfare of a picking sequence.
pub fn expected(req: &ExpectedRequest, ctl: &Control) -> Result<ExpectedReport, Error> {
    use crate::games::dinner::picking::expected::{
        egalitarian_two, sincere_expected_two, sincere_moments_two, strategic_expected_two,
        strategic_moments_two,
    };
    use crate::rational::Rational;
    use num_rational::BigRational;
    let (m, k) = (req.items, req.players);
    if m == 0 || m > 1000 {
        return Err(Error::invalid("items", m, "use 1..=1000"));
    }
    if !(1..=6).contains(&k) {
        return Err(Error::invalid("players", k, "use 1..=6"));
    }
    let blank = Dinner::from_integers(k, vec![0; m * k])?;
    let order = TurnOrder::parse(&req.order, &blank)?;
    let welfare: Welfare = req
        .welfare
        .parse()
        .map_err(|e| Error::invalid("welfare", &req.welfare, e))?;
    let how: Play = req
        .play
        .parse()
        .map_err(|e| Error::invalid("play", &req.play, e))?;
    let strategic = how == Play::Strategic;
    let scores = scoring(&req.model, m)?;
    let report =
        |expected_scores: Vec<BigRational>, w: BigRational, method, profiles| ExpectedReport {
            turn_order: order.to_string(),
            model: req.model.trim().to_string(),
            play: how.name(),
            welfare: welfare.name(),
            expected_scores: expected_scores
                .into_iter()
                .map(Rational::from_big)
                .collect(),
            expected_welfare: Rational::from_big(w),
            method,
            profiles,
            samples: None,
            confidence_95: None,
            welfare_confidence_95: None,
        };
    if k == 2 && !req.enumerate {
        let turns = order.turns();
        let how_play = if strategic {
            Play::Strategic
        } else {
            Play::Sincere
        };
        let (program, joint) = if strategic {
            (
                "dynamic program on the reversed sequence",
                "joint dynamic program on the reversed sequence",
            )
        } else {
            ("dynamic program", "joint dynamic program")
        };
        match welfare {
            Welfare::Utilitarian => {
                let [a, b] = if strategic {
                    strategic_expected_two(turns, &scores)
                } else {
                    sincere_expected_two(turns, &scores)
                };
                let w = &a + &b;
                return Ok(report(vec![a, b], w, program, None));
            }
            Welfare::Nash if m <= NASH_PROGRAM_ITEMS => {
                let moments = if strategic {
                    strategic_moments_two(turns, &scores)
                } else {
                    sincere_moments_two(turns, &scores)
                };
                let [a, b] = moments.scores;
                return Ok(report(vec![a, b], moments.product, joint, None));
            }
            Welfare::Egalitarian if m <= EGALITARIAN_PROGRAM_ITEMS => {
                if let Some(([a, b], w)) =
                    egalitarian_two(turns, &scores, how_play, EGALITARIAN_PROGRAM_VALUES)
                {
                    return Ok(report(vec![a, b], w, joint, None));
                }
            }
            Welfare::Nash | Welfare::Egalitarian => {}
        }
    }
    // Every profile: (m!)^k rankings, each played by the dinner's own routes.
    let per_agent: u128 = (1..=m as u128)
        .try_fold(1u128, |a, x| a.checked_mul(x))
        .unwrap_or(u128::MAX);
    let profiles = (0..k)
        .try_fold(1u128, |a, _| a.checked_mul(per_agent))
        .unwrap_or(u128::MAX);
    let exact: Vec<Exact> = scores
        .iter()
        .map(|s| Rational::from_big(s.clone()).to_exact())
        .collect::<Option<_>>()
        .ok_or_else(|| {
            Error::invalid(
                "model",
                &req.model,
                "a value does not fit exact 128-bit arithmetic",
            )
        })?;
    // Agents break ties between equal values by their rankings (the model's, and the
    // programs'): play runs on the values made integers, times m^2 + 1, plus m - rank, an
    // order that keeps every strict comparison of bundles and breaks the ties; the
    // scores are the exact values of what is eaten.
    let ranked = ranked_integers(&scores).ok_or_else(|| {
        Error::invalid(
            "model",
            &req.model,
            "the values are too far apart to enumerate the profiles exactly",
        )
    })?;
    let budget = Budget::default();
    let mut acc = Accumulator::new(k);
    let (exact, ranked) = (&exact, &ranked);
    let mut add = |ranks: &[&[usize]]| -> Result<(), Error> {
        ctl.check()?;
        let by_rank: Vec<i64> = (0..m)
            .flat_map(|i| ranks.iter().map(move |r| ranked[r[i]]))
            .collect();
        let chooser = Setup::new(
            Dinner::from_integers(k, by_rank)?,
            order.clone(),
            Rules::default(),
        )?;
        let eating = if strategic {
            spe_play(&chooser, budget, ctl)?
        } else {
            play(chooser.dinner(), chooser.order())?
        };
        let flat: Vec<Exact> = (0..m)
            .flat_map(|i| ranks.iter().map(move |r| exact[r[i]]))
            .collect();
        let d = Dinner::from_flat(k, flat, |i, p| format!("item {i}, agent {p}"))?;
        let setup = Setup::new(d, order.clone(), Rules::default())?;
        let s = setup
            .scoring()
            .score(setup.dinner(), eating.iter().copied())?;
        let w = welfare
            .of(&s)
            .ok_or_else(|| Error::from(DinnerError::Overflow(m)))?;
        acc.add(&s, w);
        Ok(())
    };
    let over = profiles > req.max_profiles as u128;
    if let (true, Some(samples)) = (over, req.samples) {
        if samples == 0 {
            return Err(Error::invalid("samples", 0, "draw at least one profile"));
        }
        for i in 0..samples {
            let mut rng = Rng::for_trial(req.seed, i);
            let ranks: Vec<Vec<usize>> = (0..k)
                .map(|_| {
                    rng.permutation(m)
                        .into_iter()
                        .map(|r| r as usize - 1)
                        .collect()
                })
                .collect();
            let refs: Vec<&[usize]> = ranks.iter().map(Vec::as_slice).collect();
            add(&refs)?;
        }
        let (scores, w, ci, wci) = acc.finish();
        let mut r = report(scores, w, "sampling", None);
        r.samples = Some(samples);
        r.confidence_95 = Some(ci);
        r.welfare_confidence_95 = Some(wci);
        return Ok(r);
    }
    if over {
        return Err(Error::invalid(
            "items",
            m,
            format!(
                "averaging over every profile of rankings takes {profiles} profiles here, over the budget of {} (max_profiles); give samples to estimate",
                req.max_profiles
            ),
        ));
    }
    let perms = permutations(m);
    let mut code = vec![0usize; k];
    loop {
        let refs: Vec<&[usize]> = code.iter().map(|&c| perms[c].as_slice()).collect();
        add(&refs)?;
        // The next profile (odometer over the agents' rankings).
        let mut a = 0;
        while a < k {
            code[a] += 1;
            if code[a] < perms.len() {
                break;
            }
            code[a] = 0;
            a += 1;
        }
        if a == k {
            break;
        }
    }
    let (scores, w, _, _) = acc.finish();
    Ok(report(scores, w, "every profile", Some(profiles as u64)))
}

/// Sums of the scores and the welfare over profiles (exact), with their squares (floats,
/// for the sampling's confidence intervals only).
struct Accumulator {
    sums: Vec<num_rational::BigRational>,
    wsum: num_rational::BigRational,
    squares: Vec<(f64, f64)>,
    wsquares: (f64, f64),
    n: u64,
}

impl Accumulator {
    fn new(k: usize) -> Accumulator {
        use num_traits::Zero;
        Accumulator {
            sums: vec![num_rational::BigRational::zero(); k],
            wsum: num_rational::BigRational::zero(),
            squares: vec![(0.0, 0.0); k],
            wsquares: (0.0, 0.0),
            n: 0,
        }
    }

    fn add(&mut self, scores: &[Exact], w: Exact) {
        use crate::rational::Rational;
        for ((sum, sq), x) in self.sums.iter_mut().zip(&mut self.squares).zip(scores) {
            *sum += Rational::from_exact(*x).to_big();
            let f = x.to_f64();
            *sq = (sq.0 + f, sq.1 + f * f);
        }
        self.wsum += Rational::from_exact(w).to_big();
        let f = w.to_f64();
        self.wsquares = (self.wsquares.0 + f, self.wsquares.1 + f * f);
        self.n += 1;
    }

    /// The means (exact), and each mean's normal 95% interval (1.96 standard errors).
    #[allow(clippy::type_complexity)]
    fn finish(
        self,
    ) -> (
        Vec<num_rational::BigRational>,
        num_rational::BigRational,
        Vec<[f64; 2]>,
        [f64; 2],
    ) {
        use num_bigint::BigInt;
        let n = num_rational::BigRational::from_integer(BigInt::from(self.n));
        let count = self.n as f64;
        let interval = |(s, s2): (f64, f64)| {
            let mean = s / count;
            let var = if self.n > 1 {
                ((s2 - s * mean) / (count - 1.0)).max(0.0)
            } else {
                0.0
            };
            let half = 1.96 * (var / count).sqrt();
            [mean - half, mean + half]
        };
        (
            self.sums.iter().map(|x| x / &n).collect(),
            &self.wsum / &n,
            self.squares.iter().map(|&q| interval(q)).collect(),
            interval(self.wsquares),
        )
    }
}

/// The value of the item ranked 1st, 2nd, ... of `m` under a preference model: `borda`
/// (m - r + 1), `lexicographic` (2^-r) or a scoring vector, as big rationals (2^-100 does
/// not fit 128 bits).
fn scoring(model: &str, m: usize) -> Result<Vec<num_rational::BigRational>, Error> {
    use crate::rational::Rational;
    use num_bigint::BigInt;
    use num_rational::BigRational;
    Ok(match model.trim().to_ascii_lowercase().as_str() {
        "borda" => (0..m)
            .map(|r| BigRational::from_integer(BigInt::from(m - r)))
            .collect(),
        "lexicographic" | "lex" => (1..=m)
            .map(|r| BigRational::new(BigInt::from(1), BigInt::from(2).pow(r as u32)))
            .collect(),
        _ => {
            let v: Vec<Exact> = model
                .split(',')
                .map(|t| t.trim().parse::<Exact>())
                .collect::<Result<_, _>>()
                .map_err(|e| {
                    Error::invalid(
                        "model",
                        model,
                        format!("not borda, lexicographic or a scoring vector: {e}"),
                    )
                })?;
            if v.len() != m {
                return Err(Error::invalid(
                    "model",
                    model,
                    format!(
                        "a scoring vector needs one value per item: {} for {m} items",
                        v.len()
                    ),
                ));
            }
            v.iter()
                .map(|x| Rational::from_exact(*x).to_big())
                .collect()
        }
    })
}

/// The item ranked r-th (from 0) as an integer utility that orders bundles as `scores`
/// do and breaks their ties by rank: the scores over their common denominator, times
/// m^2 + 1, plus m - r (the tie-breaks of a bundle add up to less than m^2 + 1). `None`
/// past 64 bits.
fn ranked_integers(scores: &[num_rational::BigRational]) -> Option<Vec<i64>> {
    use num_bigint::BigInt;
    use num_traits::{ToPrimitive, Zero};
    let gcd = |mut a: BigInt, mut b: BigInt| {
        while !b.is_zero() {
            let r = &a % &b;
            a = std::mem::replace(&mut b, r);
        }
        a
    };
    let m = scores.len();
    let den = scores.iter().fold(BigInt::from(1), |l, s| {
        let g = gcd(l.clone(), s.denom().clone());
        l / g * s.denom()
    });
    let spread = BigInt::from(m * m + 1);
    scores
        .iter()
        .enumerate()
        .map(|(r, s)| (s.numer() * (&den / s.denom()) * &spread + (m - r)).to_i64())
        .collect()
}

/// Every ranking of `m` items, as `rank[i]` (0 best) per item.
fn permutations(m: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for item in 0..m {
        let mut next = Vec::with_capacity(out.len() * (item + 1));
        for p in &out {
            for i in 0..=p.len() {
                let mut q: Vec<usize> = p.clone();
                q.insert(i, item);
                next.push(q);
            }
        }
        out = next;
    }
    // out[c] lists the items best first; turn it into each item's rank.
    out.into_iter()
        .map(|order| {
            let mut rank = vec![0; m];
            for (r, &i) in order.iter().enumerate() {
                rank[i] = r;
            }
            rank
        })
        .collect()
}

request! {
    /// `dinner best-order`: the picking sequence with the greatest expected welfare
    /// under impartial culture (two agents, utilitarian welfare, sincere or strategic
    /// play: exact).
    BestOrderRequest {
        /// Number of items.
        items: usize = 8,
        /// Number of agents (two).
        players: usize = 2,
        /// Each agent's number of turns, e.g. `[4, 4]`; absent: every sequence of
        /// `items` turns.
        counts: Option<Vec<usize>> = None,
        /// `borda`, `lexicographic` or a scoring vector (as `dinner expected`).
        model: String = "borda".into(),
        /// `utilitarian` (the measure the program computes).
        welfare: String = "utilitarian".into(),
        /// `sincere` or `strategic`.
        play: String = "sincere".into(),
    }
}

/// The best sequence, every sequence tied with it, and the runner-up.
pub fn best_order(req: &BestOrderRequest, _ctl: &Control) -> Result<BestOrderReport, Error> {
    use crate::games::dinner::picking::expected::{best_sequences, Best};
    use crate::rational::Rational;
    let m = req.items;
    if m == 0 || m > 24 {
        return Err(Error::invalid(
            "items",
            m,
            "use 1..=24 (every sequence is compared)",
        ));
    }
    if req.players != 2 {
        return Err(Error::invalid(
            "players",
            req.players,
            "the expected welfare of every sequence is computed for two agents",
        ));
    }
    if !req.welfare.trim().eq_ignore_ascii_case("utilitarian") {
        return Err(Error::invalid(
            "welfare",
            &req.welfare,
            "the search over sequences ranks by utilitarian welfare (dinner expected gives the others for one sequence)",
        ));
    }
    let how: Play = req
        .play
        .parse()
        .map_err(|e| Error::invalid("play", &req.play, e))?;
    let scores = scoring(&req.model, m)?;
    let splits: Vec<[usize; 2]> = match &req.counts {
        Some(c) if c.len() == 2 && c[0] + c[1] == m => vec![[c[0], c[1]]],
        Some(c) => {
            return Err(Error::invalid(
                "counts",
                format!("{c:?}"),
                format!("two counts that add up to the {m} items"),
            ))
        }
        None => (0..=m).map(|a| [a, m - a]).collect(),
    };
    let mut found: Option<Best> = None;
    for split in splits {
        let b = best_sequences(split, &scores, how);
        found = Some(match found {
            None => b,
            Some(f) => f.merge(b),
        });
    }
    let found = found.expect("at least one split");
    let text = |t: &[u8]| t.iter().map(|&p| char::from(b'A' + p)).collect::<String>();
    let tied: Vec<String> = found.tied.iter().map(|t| text(t)).collect();
    let runner_up = found.runner_up.as_ref().map(|(t, w)| RankedOrder {
        order: text(t),
        expected_welfare: Rational::from_big(w.clone()),
    });
    Ok(BestOrderReport {
        items: m,
        counts: req.counts.clone(),
        model: req.model.trim().to_string(),
        play: how.name(),
        welfare: "utilitarian",
        order: tied[0].clone(),
        expected_welfare: Rational::from_big(found.welfare),
        tied,
        tied_count: found.tied_count,
        runner_up,
        sequences: found.seen,
    })
}
