//! Fairness of an allocation under additive utilities, agent by agent: envy-freeness (no
//! agent values another's bundle above its own), EF1 (envy-free up to one item, in the
//! form for goods and chores of Aziz, Caragiannis, Igarashi and Walsh, IJCAI 2019: some
//! item of the envied bundle, or a chore of one's own, removes the envy),
//! proportionality (at least a 1/k share of the agent's value of everything) and the
//! maximin share (Budish 2011: the best, over every partition of all the items into k
//! bundles, of the agent's least valued bundle; computed exactly by a branch and bound,
//! refused past a budget of nodes).

use crate::engine::{Budget, EngineError, Player};
use crate::games::dinner::model::{Dinner, DinnerError};

/// One agent's fairness in an allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentFairness {
    /// The agents it envies.
    pub envies: Vec<Player>,
    /// Whether its envy of every other agent goes with one item.
    pub ef1: bool,
    /// Whether it gets at least a 1/k share of its value of every morsel.
    pub proportional: bool,
    /// Its maximin share, scaled by [`Dinner::scale`] (`None` past the budget).
    pub mms_share: Option<i128>,
    /// Whether its bundle is worth at least its maximin share (`None` with the share).
    pub mms: Option<bool>,
}

/// Fairness of `bundles` (one per agent, morsel indices) for every agent; the maximin
/// share's search holds at most `budget.max_states` nodes an agent.
///
/// ```
/// use lastbite::engine::Budget;
/// use lastbite::games::dinner::{picking::fairness::fairness, Dinner};
/// let d = Dinner::from_morsels("3,3 2,2 1,1").unwrap();
/// let f = fairness(&d, &[vec![0], vec![1, 2]], Budget::default());
/// assert!(f[0].envies.is_empty() && f[1].envies.is_empty()); // 3 against 2 + 1
/// assert_eq!(f[0].mms_share, Some(3)); // {3} and {2, 1}
/// ```
pub fn fairness(dinner: &Dinner, bundles: &[Vec<usize>], budget: Budget) -> Vec<AgentFairness> {
    let k = dinner.players();
    (0..k)
        .map(|i| {
            let value = |b: &[usize]| {
                b.iter()
                    .map(|&m| dinner.utility(m, i) as i128)
                    .sum::<i128>()
            };
            let own = value(&bundles[i]);
            let mut envies = Vec::new();
            let mut ef1 = true;
            for (j, other) in bundles.iter().enumerate() {
                if j == i {
                    continue;
                }
                let diff = own - value(other);
                if diff >= 0 {
                    continue;
                }
                envies.push(j);
                // The best single removal: a good of theirs, or a chore of its own.
                let theirs = other.iter().map(|&m| dinner.utility(m, i) as i128).max();
                let mine = bundles[i]
                    .iter()
                    .map(|&m| -(dinner.utility(m, i) as i128))
                    .max();
                let best = theirs.into_iter().chain(mine).max();
                if best.is_none_or(|b| diff + b < 0) {
                    ef1 = false;
                }
            }
            let all: Vec<i64> = (0..dinner.len()).map(|m| dinner.utility(m, i)).collect();
            let total: i128 = all.iter().map(|&u| u as i128).sum();
            let mms_share = maximin_share(&all, k, budget).ok();
            AgentFairness {
                envies,
                ef1,
                proportional: own * k as i128 >= total,
                mms_share,
                mms: mms_share.map(|s| own >= s),
            }
        })
        .collect()
}

/// The maximin share of an agent with these (scaled) utilities among `k` agents: the best,
/// over every partition of all the items into `k` bundles, of the least bundle's value.
/// Branch and bound over the items from the most valued, never opening a second empty
/// bundle for the same item; refused past `budget.max_states` nodes.
pub fn maximin_share(utilities: &[i64], k: usize, budget: Budget) -> Result<i128, DinnerError> {
    let mut items: Vec<i128> = utilities.iter().map(|&u| u as i128).collect();
    items.sort_unstable_by(|a, b| b.cmp(a));
    // What the items after position i can still add to one bundle.
    let mut room = vec![0i128; items.len() + 1];
    for i in (0..items.len()).rev() {
        room[i] = room[i + 1] + items[i].max(0);
    }
    let total: i128 = items.iter().sum();
    let mut s = Share {
        items,
        room,
        bins: vec![0; k],
        sizes: vec![0; k],
        best: i128::MIN,
        // No partition beats the average (floor).
        cap: total.div_euclid(k as i128),
        nodes: 0,
        budget: budget.max_states,
    };
    s.go(0)?;
    Ok(s.best)
}

struct Share {
    items: Vec<i128>,
    room: Vec<i128>,
    bins: Vec<i128>,
    sizes: Vec<usize>,
    best: i128,
    cap: i128,
    nodes: u64,
    budget: u64,
}

impl Share {
    fn go(&mut self, i: usize) -> Result<(), DinnerError> {
        if self.best >= self.cap {
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(EngineError::TooManyStates {
                states: self.nodes as u128,
                budget: self.budget,
                bytes: 0,
            }
            .into());
        }
        let least = *self.bins.iter().min().expect("k >= 1");
        if i == self.items.len() {
            self.best = self.best.max(least);
            return Ok(());
        }
        // Even given everything left, the least bundle cannot pass the best found.
        if least + self.room[i] <= self.best {
            return Ok(());
        }
        let mut opened = false;
        for b in 0..self.bins.len() {
            if self.sizes[b] == 0 {
                // Empty bundles are interchangeable: try one.
                if opened {
                    continue;
                }
                opened = true;
            }
            self.bins[b] += self.items[i];
            self.sizes[b] += 1;
            self.go(i + 1)?;
            self.sizes[b] -= 1;
            self.bins[b] -= self.items[i];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dinner::model::Setup;
    use crate::rng::Rng;

    /// The maximin share by every assignment of items to bundles.
    fn by_definition(u: &[i64], k: usize) -> i128 {
        let n = u.len();
        let mut best = i128::MIN;
        for code in 0..k.pow(n as u32) {
            let mut bins = vec![0i128; k];
            let mut c = code;
            for &x in u {
                bins[c % k] += x as i128;
                c /= k;
            }
            best = best.max(*bins.iter().min().unwrap());
        }
        best
    }

    #[test]
    fn maximin_share_is_the_definition() {
        let mut rng = Rng::for_trial(29, 30);
        for _ in 0..400 {
            let k = 1 + rng.below(3) as usize;
            let n = rng.below(8) as usize;
            let u: Vec<i64> = (0..n).map(|_| rng.below(12) as i64 - 3).collect();
            let want = by_definition(&u, k);
            assert_eq!(
                maximin_share(&u, k, Budget::default()).unwrap(),
                want,
                "{u:?} k {k}"
            );
        }
    }

    /// Sincere round robin is EF1 for goods (Caragiannis et al., EC 2016): a known theorem
    /// the checks must confirm.
    #[test]
    fn sincere_round_robin_is_ef1() {
        use crate::games::dinner::picking::{bundles, sincere};
        use crate::games::dinner::TurnOrder;
        let mut rng = Rng::for_trial(29, 31);
        for _ in 0..300 {
            let k = 2 + rng.below(3) as usize;
            let n = 1 + rng.below(12) as usize;
            let flat = (0..n * k).map(|_| rng.below(10) as i64).collect();
            let d = Dinner::from_integers(k, flat).unwrap();
            let order = TurnOrder::parse("alternate", &d).unwrap();
            let b = bundles(
                k,
                &sincere(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap(),
            );
            for (i, a) in fairness(&d, &b, Budget::default()).iter().enumerate() {
                assert!(a.ef1, "agent {i}: {d:?} {b:?}");
            }
        }
    }

    /// And a non-EF1 allocation is caught.
    #[test]
    fn envy_beyond_one_item_is_caught() {
        let d = Dinner::from_morsels("5,5 5,5 1,1").unwrap();
        let f = fairness(&d, &[vec![2], vec![0, 1]], Budget::default());
        assert_eq!(f[0].envies, [1]);
        assert!(!f[0].ef1 && !f[0].proportional);
        assert!(f[1].ef1 && f[1].envies.is_empty());
    }
}
