//! Expected scores and welfare of a picking sequence under impartial culture (every
//! agent's ranking an independent uniformly random permutation), by three routes: the
//! two-agent programs of [`expected`](super::expected) where one applies, else the
//! average over every profile of rankings (an odometer over the agents' rankings, each
//! profile played by the dinner's own routes), else, past a budget of profiles, an
//! estimate from sampled profiles with 95% confidence intervals.
//!
//! The module owns the preference models (what the item ranked r-th is worth), the
//! route choice and the two averaging routes; the programs are `expected.rs`'s, the
//! plays `sincere.rs`'s and [`spe_play`]'s. The routes check each other in the tests
//! (`enumerate` forces the average where a program applies).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use crate::engine::{Budget, EngineError, Progress};
use crate::exact::Exact;
use crate::games::dinner::{
    crossout, solve_exact, Bite, Dinner, DinnerError, DinnerTies, Setup, TurnOrder,
    DEFAULT_DINNER_MEMORY,
};
use crate::rational::Rational;
use crate::rng::Rng;

use super::expected::{
    egalitarian_two, sincere_expected_two_until, sincere_moments_two, strategic_expected_two_until,
    strategic_moments_two, Play,
};
use super::sincere::sincere;
use super::welfare::Welfare;

/// The most items for which the joint program for the expected Nash welfare of two
/// agents runs (`O(m^4)` exact operations; beyond, the profiles are enumerated or
/// sampled).
pub const NASH_PROGRAM_ITEMS: usize = 40;

/// The most values the joint program for the expected egalitarian welfare of two agents
/// holds (the laws of the score difference, over every state), and the most items it
/// takes (Borda's laws grow as m^4 and the program as m^6: 24 items in 3 s); past
/// either, the profiles are enumerated or sampled.
pub const EGALITARIAN_PROGRAM_VALUES: usize = 1 << 16;
/// See [`EGALITARIAN_PROGRAM_VALUES`].
pub const EGALITARIAN_PROGRAM_ITEMS: usize = 24;

/// Why an expectation cannot be computed as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfilesError {
    /// The preference model is not `borda`, `lexicographic` or a scoring vector.
    #[error("not borda, lexicographic or a scoring vector: {0}")]
    Model(String),
    /// A scoring vector of the wrong length.
    #[error("a scoring vector needs one value per item: {found} for {items} items")]
    ModelLength {
        /// Values given.
        found: usize,
        /// Items.
        items: usize,
    },
    /// A value of the model does not fit exact 128-bit arithmetic.
    #[error("a value does not fit exact 128-bit arithmetic")]
    ModelTooWide,
    /// The model's values are too far apart to play the profiles on integers.
    #[error("the values are too far apart to enumerate the profiles exactly")]
    ModelTooFarApart,
    /// More profiles than the budget and no sampling asked for.
    #[error("averaging over every profile of rankings takes {profiles} profiles here, over the budget of {max} (max_profiles); give samples to estimate")]
    TooManyProfiles {
        /// Profiles of rankings.
        profiles: u128,
        /// The budget.
        max: u64,
    },
    /// Sampling asked for with no sample.
    #[error("draw at least one profile")]
    NoSamples,
    /// A play failed (or was cancelled).
    #[error(transparent)]
    Dinner(#[from] DinnerError),
}

/// The value of the item ranked 1st, 2nd, ... of `m` under a preference model: `borda`
/// (m - r + 1), `lexicographic` (2^-r) or a scoring vector `"s1,s2,...,sm"` (exact, best
/// first), as big rationals (2^-100 does not fit 128 bits).
///
/// ```
/// use lastbite::games::dinner::picking::profiles::values;
/// let v = values("lexicographic", 3).unwrap();
/// assert_eq!(v[2].to_string(), "1/8");
/// assert!(values("1,2", 3).is_err());
/// ```
pub fn values(model: &str, m: usize) -> Result<Vec<BigRational>, ProfilesError> {
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
                .map_err(|e| ProfilesError::Model(e.to_string()))?;
            if v.len() != m {
                return Err(ProfilesError::ModelLength {
                    found: v.len(),
                    items: m,
                });
            }
            v.iter()
                .map(|x| Rational::from_exact(*x).to_big())
                .collect()
        }
    })
}

/// How [`expectation`] may compute: where no program applies (or `enumerate`), the
/// average over at most `max_profiles` profiles, else over `samples` random ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Routes {
    /// Average over the profiles even where a program applies (a second route).
    pub enumerate: bool,
    /// The most profiles averaged over.
    pub max_profiles: u64,
    /// Past `max_profiles`, estimate from this many random profiles.
    pub samples: Option<u64>,
    /// Seed of the sampled profiles.
    pub seed: u64,
}

/// What sampling adds to an estimate: each mean's normal 95% interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// Profiles drawn.
    pub samples: u64,
    /// Each agent's score's interval.
    pub scores: Vec<[f64; 2]>,
    /// The welfare's interval.
    pub welfare: [f64; 2],
}

/// Expected scores and welfare, and the route that computed them.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// Each agent's expected score.
    pub scores: Vec<BigRational>,
    /// The expected welfare.
    pub welfare: BigRational,
    /// The route: a program's name, `every profile` or `sampling`.
    pub method: &'static str,
    /// Profiles averaged over (every profile only).
    pub profiles: Option<u64>,
    /// The intervals (sampling only).
    pub sampled: Option<Sampled>,
}

/// Expected scores and welfare of `order` (its players are the agents, its length the
/// items) with item values `values` (best first), by the first route that applies.
///
/// ```
/// use lastbite::engine::Silent;
/// use lastbite::games::dinner::picking::profiles::{expectation, values, Routes};
/// use lastbite::games::dinner::picking::{expected::Play, Welfare};
/// use lastbite::games::dinner::{Dinner, TurnOrder};
/// let order = TurnOrder::parse("AB", &Dinner::from_integers(2, vec![0; 4]).unwrap()).unwrap();
/// let v = values("borda", 2).unwrap();
/// let mut routes = Routes { enumerate: false, max_profiles: 100, samples: None, seed: 1 };
/// let program = expectation(&order, &v, Welfare::Utilitarian, Play::Sincere, &routes, &Silent).unwrap();
/// routes.enumerate = true;
/// let every = expectation(&order, &v, Welfare::Utilitarian, Play::Sincere, &routes, &Silent).unwrap();
/// assert_eq!((program.scores, every.profiles), (every.scores, Some(4)));
/// ```
pub fn expectation(
    order: &TurnOrder,
    values: &[BigRational],
    welfare: Welfare,
    play: Play,
    routes: &Routes,
    progress: &dyn Progress,
) -> Result<Expectation, ProfilesError> {
    let (m, k) = (order.len(), order.players());
    let strategic = play == Play::Strategic;
    let found = |scores: Vec<BigRational>, welfare, method| Expectation {
        scores,
        welfare,
        method,
        profiles: None,
        sampled: None,
    };
    if k == 2 && !routes.enumerate {
        let turns = order.turns();
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
                    strategic_expected_two_until(turns, values, progress)
                } else {
                    sincere_expected_two_until(turns, values, progress)
                }
                .ok_or(DinnerError::Engine(EngineError::Cancelled))?;
                let w = &a + &b;
                return Ok(found(vec![a, b], w, program));
            }
            Welfare::Nash if m <= NASH_PROGRAM_ITEMS => {
                let moments = if strategic {
                    strategic_moments_two(turns, values)
                } else {
                    sincere_moments_two(turns, values)
                };
                let [a, b] = moments.scores;
                return Ok(found(vec![a, b], moments.product, joint));
            }
            Welfare::Egalitarian if m <= EGALITARIAN_PROGRAM_ITEMS => {
                if let Some(([a, b], w)) =
                    egalitarian_two(turns, values, play, EGALITARIAN_PROGRAM_VALUES)
                {
                    return Ok(found(vec![a, b], w, joint));
                }
            }
            Welfare::Nash | Welfare::Egalitarian => {}
        }
    }
    average(order, values, welfare, play, routes, progress)
}

/// The average over every profile of rankings, or over sampled ones past the budget.
fn average(
    order: &TurnOrder,
    values: &[BigRational],
    welfare: Welfare,
    play: Play,
    routes: &Routes,
    progress: &dyn Progress,
) -> Result<Expectation, ProfilesError> {
    let (m, k) = (order.len(), order.players());
    // Every profile: (m!)^k rankings, each played by the dinner's own routes.
    let per_agent: u128 = (1..=m as u128)
        .try_fold(1u128, |a, x| a.checked_mul(x))
        .unwrap_or(u128::MAX);
    let profiles = (0..k)
        .try_fold(1u128, |a, _| a.checked_mul(per_agent))
        .unwrap_or(u128::MAX);
    let exact: Vec<Exact> = values
        .iter()
        .map(|s| Rational::from_big(s.clone()).to_exact())
        .collect::<Option<_>>()
        .ok_or(ProfilesError::ModelTooWide)?;
    // Agents break ties between equal values by their rankings (the model's, and the
    // programs'): play runs on the values made integers, times m^2 + 1, plus m - rank, an
    // order that keeps every strict comparison of bundles and breaks the ties; the
    // scores are the exact values of what is eaten.
    let ranked = ranked_integers(values).ok_or(ProfilesError::ModelTooFarApart)?;
    let budget = Budget::default();
    let mut acc = Accumulator::new(k);
    let (exact, ranked) = (&exact, &ranked);
    let mut add = |ranks: &[&[usize]]| -> Result<(), ProfilesError> {
        if progress.cancelled() {
            return Err(DinnerError::Engine(EngineError::Cancelled).into());
        }
        let by_rank: Vec<i64> = (0..m)
            .flat_map(|i| ranks.iter().map(move |r| ranked[r[i]]))
            .collect();
        let chooser = Setup::ordered(Dinner::from_integers(k, by_rank)?, order.clone())?;
        let eating = if play == Play::Strategic {
            spe_play(&chooser, budget, progress)?
        } else {
            sincere(&chooser)?
        };
        let flat: Vec<Exact> = (0..m)
            .flat_map(|i| ranks.iter().map(move |r| exact[r[i]]))
            .collect();
        let d = Dinner::from_flat(k, flat, |i, p| format!("item {i}, agent {p}"))?;
        let setup = Setup::ordered(d, order.clone())?;
        let s = setup
            .scoring()
            .score(setup.dinner(), eating.iter().copied())?;
        let w = welfare.of(&s).ok_or(DinnerError::Overflow(m))?;
        acc.add(&s, w);
        Ok(())
    };
    let over = profiles > routes.max_profiles as u128;
    if let (true, Some(samples)) = (over, routes.samples) {
        if samples == 0 {
            return Err(ProfilesError::NoSamples);
        }
        for i in 0..samples {
            let mut rng = Rng::for_trial(routes.seed, i);
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
        let (scores, welfare, ci, wci) = acc.finish();
        return Ok(Expectation {
            scores,
            welfare,
            method: "sampling",
            profiles: None,
            sampled: Some(Sampled {
                samples,
                scores: ci,
                welfare: wci,
            }),
        });
    }
    if over {
        return Err(ProfilesError::TooManyProfiles {
            profiles,
            max: routes.max_profiles,
        });
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
    let (scores, welfare, _, _) = acc.finish();
    Ok(Expectation {
        scores,
        welfare,
        method: "every profile",
        profiles: Some(profiles as u64),
        sampled: None,
    })
}

/// The equilibrium play of `dinner solve`'s default: crossout for two agents, else the
/// exact solver with the index tie rule.
pub fn spe_play(
    setup: &Setup,
    budget: Budget,
    progress: &dyn Progress,
) -> Result<Vec<Bite>, DinnerError> {
    Ok(if setup.dinner().players() == 2 {
        crossout(setup)?.eating().collect()
    } else {
        solve_exact(
            setup,
            &DinnerTies::Index,
            budget,
            DEFAULT_DINNER_MEMORY,
            progress,
            None,
        )?
        .eating
    })
}

/// Sums of the scores and the welfare over profiles (exact), with their squares (floats,
/// for the sampling's confidence intervals only).
struct Accumulator {
    sums: Vec<BigRational>,
    wsum: BigRational,
    squares: Vec<(f64, f64)>,
    wsquares: (f64, f64),
    n: u64,
}

impl Accumulator {
    fn new(k: usize) -> Accumulator {
        Accumulator {
            sums: vec![BigRational::zero(); k],
            wsum: BigRational::zero(),
            squares: vec![(0.0, 0.0); k],
            wsquares: (0.0, 0.0),
            n: 0,
        }
    }

    fn add(&mut self, scores: &[Exact], w: Exact) {
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
    fn finish(self) -> (Vec<BigRational>, BigRational, Vec<[f64; 2]>, [f64; 2]) {
        let n = BigRational::from_integer(BigInt::from(self.n));
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

/// The item ranked r-th (from 0) as an integer utility that orders bundles as `scores`
/// do and breaks their ties by rank: the scores over their common denominator, times
/// m^2 + 1, plus m - r (the tie-breaks of a bundle add up to less than m^2 + 1). `None`
/// past 64 bits.
fn ranked_integers(scores: &[BigRational]) -> Option<Vec<i64>> {
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
