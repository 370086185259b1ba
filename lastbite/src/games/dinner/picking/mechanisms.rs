//! The fairness of the mechanisms' allocations: sincere play, the equilibrium of `dinner
//! solve` (crossout for two agents, else the exact solver under the index tie rule) and
//! every subgame perfect equilibrium allocation, for one dinner; and how often each fails
//! a property over random dinners (impartial culture: each agent's utilities a random
//! permutation of `1..=size`). The measures themselves are [`fairness`](super::fairness)'s.

use crate::engine::{Budget, EngineError, Progress};
use crate::exact::Exact;
use crate::games::dinner::model::{Bite, Dinner, DinnerError, Setup, TurnOrder};
use crate::rng::Rng;

use super::equilibria::spe_allocations;
use super::fairness::{fairness, AgentFairness};
use super::profiles::spe_play;
use super::sincere::{bundles, sincere};

/// One mechanism's allocation and its fairness, agent by agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// `sincere` or `spe`.
    pub mechanism: &'static str,
    /// Each agent's bundle (morsels, increasing).
    pub bundles: Vec<Vec<usize>>,
    /// Each agent's score, in the dinner's units.
    pub scores: Vec<Exact>,
    /// Each agent's fairness.
    pub agents: Vec<AgentFairness>,
}

impl Allocation {
    fn of(
        setup: &Setup,
        mechanism: &'static str,
        eating: &[Bite],
        budget: Budget,
    ) -> Result<Allocation, DinnerError> {
        let d = setup.dinner();
        let bundles = bundles(d.players(), eating);
        let scores = setup.scoring().score(d, eating.iter().copied())?;
        let agents = fairness(d, &bundles, budget);
        Ok(Allocation {
            mechanism,
            bundles,
            scores,
            agents,
        })
    }

    /// Every agent envy-free.
    pub fn envy_free(&self) -> bool {
        self.agents.iter().all(|a| a.envies.is_empty())
    }

    /// Every agent EF1.
    pub fn ef1(&self) -> bool {
        self.agents.iter().all(|a| a.ef1)
    }

    /// Every agent proportional.
    pub fn proportional(&self) -> bool {
        self.agents.iter().all(|a| a.proportional)
    }

    /// Every agent at least its maximin share; `None` when a share is past the budget.
    pub fn mms(&self) -> Option<bool> {
        self.agents
            .iter()
            .map(|a| a.mms)
            .collect::<Option<Vec<bool>>>()
            .map(|v| v.into_iter().all(|x| x))
    }

    /// Which of envy-freeness, EF1, proportionality and the maximin share fail (a share
    /// past the budget is no failure).
    pub fn failures(&self) -> [bool; 4] {
        [
            !self.envy_free(),
            !self.ef1(),
            !self.proportional(),
            self.mms() == Some(false),
        ]
    }
}

/// The sincere allocation and the equilibrium one, in that order.
///
/// ```
/// use lastbite::engine::{Budget, Silent};
/// use lastbite::games::dinner::{picking::mechanisms::mechanisms, Dinner, Setup};
/// let s = Setup::plain(Dinner::from_morsels("3,1 2,2 1,3").unwrap()).unwrap();
/// let m = mechanisms(&s, Budget::default(), &Silent).unwrap();
/// assert_eq!((m[0].mechanism, m[1].mechanism), ("sincere", "spe"));
/// assert!(m[0].envy_free()); // A takes 3, B his 3, A the 2: 5 against 3
/// ```
pub fn mechanisms(
    setup: &Setup,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<Allocation>, DinnerError> {
    let sincere = sincere(setup)?;
    let spe = spe_play(setup, budget, progress)?;
    Ok(vec![
        Allocation::of(setup, "sincere", &sincere, budget)?,
        Allocation::of(setup, "spe", &spe, budget)?,
    ])
}

/// Every subgame perfect equilibrium allocation (distinct ones), each as mechanism `spe`.
pub fn every_spe(
    setup: &Setup,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<Allocation>, DinnerError> {
    if progress.cancelled() {
        return Err(EngineError::Cancelled.into());
    }
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
            Allocation::of(setup, "spe", &eating, budget)
        })
        .collect()
}

/// The random dinners of a fairness experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trials<'a> {
    /// Agents.
    pub players: usize,
    /// Morsels of each dinner.
    pub size: usize,
    /// The turn order's text ([`TurnOrder::parse`]); `None` for the default.
    pub order: Option<&'a str>,
    /// Dinners.
    pub trials: u64,
    /// The seed of the dinners (trial `t` draws from `Rng::for_trial(seed, t)`).
    pub seed: u64,
    /// Also count a dinner when some equilibrium allocation fails (mechanism
    /// `every_spe`).
    pub every_spe: bool,
}

/// How many dinners' allocations fail each property under one mechanism.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failures {
    /// `sincere`, `spe` or `every_spe`.
    pub mechanism: &'static str,
    /// Dinners failing envy-freeness, EF1, proportionality, the maximin share.
    pub counts: [u64; 4],
}

/// The mechanisms a fairness experiment counts, in the order of its counts: `sincere`,
/// `spe` and with `every_spe` that too.
pub fn mechanism_names(t: &Trials) -> Vec<&'static str> {
    let mut names = vec!["sincere", "spe"];
    if t.every_spe {
        names.push("every_spe");
    }
    names
}

/// Trial `trial`'s random dinner in the experiment's turn order.
fn trial_setup(t: &Trials, trial: u64) -> Result<Setup, DinnerError> {
    let mut rng = Rng::for_trial(t.seed, trial);
    let cols: Vec<Vec<i64>> = (0..t.players).map(|_| rng.permutation(t.size)).collect();
    let flat = (0..t.size)
        .flat_map(|i| cols.iter().map(move |c| c[i]))
        .collect();
    let d = Dinner::from_integers(t.players, flat)?;
    let order = match t.order {
        Some(spec) => TurnOrder::parse(spec, &d)?,
        None => TurnOrder::default_for(&d),
    };
    Setup::ordered(d, order)
}

/// The turn order of the experiment's dinners (all of one size).
pub fn turn_order(t: &Trials) -> Result<String, DinnerError> {
    Ok(trial_setup(t, 0)?.order().to_string())
}

/// Which properties trial `trial`'s dinner fails under each mechanism
/// ([`mechanism_names`]): envy-freeness, EF1, proportionality, the maximin share.
pub fn trial_failures(
    t: &Trials,
    trial: u64,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<[bool; 4]>, DinnerError> {
    if progress.cancelled() {
        return Err(EngineError::Cancelled.into());
    }
    let setup = trial_setup(t, trial)?;
    let mut out: Vec<[bool; 4]> = mechanisms(&setup, budget, progress)?
        .iter()
        .map(Allocation::failures)
        .collect();
    if t.every_spe {
        // A dinner fails a property when some equilibrium allocation does.
        let mut any = [false; 4];
        for a in every_spe(&setup, budget, progress)? {
            for (x, f) in any.iter_mut().zip(a.failures()) {
                *x |= f;
            }
        }
        out.push(any);
    }
    Ok(out)
}
