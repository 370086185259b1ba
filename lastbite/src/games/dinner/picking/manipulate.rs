//! One agent's best play against sincere others (the others take their favourite morsel
//! left on every turn; the manipulator chooses each of its picks).
//!
//! Two agents: Bouveret and Lang (2014) showed the best response polynomial; lastbite's
//! route is a greedy over a matroid. Against a sincere opponent O, a set S of morsels is
//! one the manipulator M can end up with exactly when, listing S in O's order of
//! preference, the k-th of them has at least `b(k)` of O's own morsels ranked above it,
//! where `b(k)` is the number of O's turns before M's k-th turn (O takes its favourites
//! among the morsels outside S in order, so M must take each morsel of S before O reaches
//! it, and taking them in O's order is then always in time). These are upper bounds on
//! how many morsels of S lie in nested prefixes of O's ranking: a laminar matroid, whose
//! best basis the greedy finds (morsels by M's utility, each kept if every bound still
//! holds; a segment tree keeps the bounds' slack). `O(n log n)`.
//!
//! More agents: NP-complete in general (Aziz, Bouveret, Lang and Mackenzie, AAAI 2017).
//! lastbite searches exactly, memoising the best score from each set of morsels left at
//! the manipulator's turns (the others' replies are determined), refused over budget. The
//! search also checks the greedy on every small two-agent dinner.

use std::collections::HashMap;

use crate::engine::{Budget, EngineError, Player};
use crate::games::dinner::model::{Bite, Dinner, DinnerError, Setup, TurnOrder};
use crate::games::dinner::theory::crossout::Ranking;

/// The manipulator's best play against sincere others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manipulation {
    /// The whole play, turn by turn: the manipulator's picks and the others' sincere ones.
    pub eating: Vec<Bite>,
    /// The manipulator's score, scaled by [`Dinner::scale`].
    pub score: i128,
    /// Sets of morsels left memoised by the search (0 for the two-agent greedy).
    pub states: u64,
}

/// Each player's ranking, best first (the index tie rule among equal utilities).
fn best_first(dinner: &Dinner) -> Vec<Vec<usize>> {
    let n = dinner.len();
    (0..dinner.players())
        .map(|p| {
            let r = Ranking::new(dinner, p, 0..n as u32);
            (0..n).rev().map(|j| r.morsel(j)).collect()
        })
        .collect()
}

/// The best play of `agent` (a player of the dinner) against sincere others: the greedy
/// for two agents, else [`manipulate_by_search`].
///
/// ```
/// use lastbite::engine::Budget;
/// use lastbite::games::dinner::{picking::manipulate, Dinner, Setup, TurnOrder};
/// // Sincere, B takes his favourite (morsel 2) and then gets morsel 3: 3 + 0. A does not
/// // want morsel 2, so B takes morsel 1 first and still gets morsel 2 last: 2 + 3.
/// let d = Dinner::from_morsels("3,1 2,2 0,3 1,0").unwrap();
/// let order = TurnOrder::parse("ABAB", &d).unwrap();
/// let m = manipulate(&Setup::ordered(d, order).unwrap(), 1, Budget::default()).unwrap();
/// assert_eq!(m.score, 5);
/// ```
pub fn manipulate(
    setup: &Setup,
    agent: Player,
    budget: Budget,
) -> Result<Manipulation, DinnerError> {
    let (dinner, order) = setup.plain_dinner("manipulation against sincere play")?;
    assert!(agent < dinner.players(), "the manipulator is a player");
    if dinner.players() == 2 {
        Ok(greedy(dinner, order, agent))
    } else {
        manipulate_by_search(setup, agent, budget)
    }
}

/// A segment tree over the bounds `k = 1..=c`: range add and range minimum.
struct Slack {
    min: Vec<i64>,
    add: Vec<i64>,
    size: usize,
}

impl Slack {
    fn new(values: &[i64]) -> Slack {
        let size = values.len().next_power_of_two().max(1);
        let mut min = vec![i64::MAX; 2 * size];
        min[size..size + values.len()].copy_from_slice(values);
        for i in (1..size).rev() {
            min[i] = min[2 * i].min(min[2 * i + 1]);
        }
        Slack {
            min,
            add: vec![0; 2 * size],
            size,
        }
    }

    /// The minimum over `lo..hi` (0-based, half open).
    fn query(&self, lo: usize, hi: usize) -> i64 {
        self.query_at(1, 0, self.size, lo, hi)
    }

    fn query_at(&self, node: usize, l: usize, r: usize, lo: usize, hi: usize) -> i64 {
        if hi <= l || r <= lo {
            return i64::MAX;
        }
        if lo <= l && r <= hi {
            return self.min[node];
        }
        let mid = (l + r) / 2;
        let below = self.query_at(2 * node, l, mid, lo, hi).min(self.query_at(
            2 * node + 1,
            mid,
            r,
            lo,
            hi,
        ));
        below.saturating_add(self.add[node])
    }

    /// Adds `delta` over `lo..hi`.
    fn update(&mut self, lo: usize, hi: usize, delta: i64) {
        self.update_at(1, 0, self.size, lo, hi, delta);
    }

    fn update_at(&mut self, node: usize, l: usize, r: usize, lo: usize, hi: usize, delta: i64) {
        if hi <= l || r <= lo {
            return;
        }
        if lo <= l && r <= hi {
            self.min[node] = self.min[node].saturating_add(delta);
            self.add[node] += delta;
            return;
        }
        let mid = (l + r) / 2;
        self.update_at(2 * node, l, mid, lo, hi, delta);
        self.update_at(2 * node + 1, mid, r, lo, hi, delta);
        self.min[node] = self.min[2 * node]
            .min(self.min[2 * node + 1])
            .saturating_add(self.add[node]);
    }
}

/// The two-agent greedy over the laminar matroid (module docs).
fn greedy(dinner: &Dinner, order: &TurnOrder, m: Player) -> Manipulation {
    let n = dinner.len();
    let o = 1 - m;
    let ranking = Ranking::new(dinner, o, 0..n as u32);
    // O's ranking, best first: position 1..=n.
    let mut pos = vec![0usize; n];
    for i in 0..n {
        pos[ranking.morsel(n - 1 - i)] = i + 1;
    }
    // For each of O's turns, how many turns M has had before it.
    let mut m_before = Vec::new();
    let mut c_m = 0usize;
    for &p in order.turns() {
        if p as usize == m {
            c_m += 1;
        } else {
            m_before.push(c_m);
        }
    }
    // The k-th morsel of S (in O's order) lies at position >= first[k - 1].
    let mut first = Vec::with_capacity(c_m);
    let mut b = 0;
    for k in 1..=c_m {
        while b < m_before.len() && m_before[b] < k {
            b += 1;
        }
        first.push(k + b);
    }
    let mut slack = Slack::new(&(0..c_m as i64).collect::<Vec<_>>());
    let mut by_value: Vec<usize> = (0..n).collect();
    by_value.sort_by_key(|&x| (std::cmp::Reverse(dinner.utility(x, m)), x));
    let mut in_s = vec![false; n];
    let mut chosen = 0;
    for x in by_value {
        if chosen == c_m {
            break;
        }
        // The bounds whose prefix holds x: every k with first[k - 1] > pos(x).
        let k0 = first.partition_point(|&f| f <= pos[x]);
        if k0 < c_m && slack.query(k0, c_m) < 1 {
            continue;
        }
        slack.update(k0, c_m, -1);
        in_s[x] = true;
        chosen += 1;
    }
    // Play it: M takes S in O's order (the earliest threatened first), O sincerely.
    let mut s_in_order: Vec<usize> = (0..n).filter(|&x| in_s[x]).collect();
    s_in_order.sort_by_key(|&x| pos[x]);
    let mut taken = vec![false; n];
    let (mut next_s, mut next_o) = (0, n);
    let mut eating = Vec::with_capacity(n);
    let mut score = 0i128;
    for (turn, &p) in order.turns().iter().enumerate() {
        let player = p as Player;
        let morsel = if player == m {
            next_s += 1;
            s_in_order[next_s - 1]
        } else {
            loop {
                next_o -= 1;
                let x = ranking.morsel(next_o);
                if !taken[x] {
                    break x;
                }
            }
        };
        debug_assert!(
            player == m || !in_s[morsel],
            "O never reaches a morsel of S"
        );
        taken[morsel] = true;
        if player == m {
            score += dinner.utility(morsel, m) as i128;
        }
        eating.push(Bite {
            turn,
            player,
            morsel,
        });
    }
    Manipulation {
        eating,
        score,
        states: 0,
    }
}

/// The exact best play of `agent` against sincere others by a memoised search over the
/// sets of morsels left at its turns (at most 63 morsels; more than `budget.max_states`
/// sets is refused with the count reached).
pub fn manipulate_by_search(
    setup: &Setup,
    agent: Player,
    budget: Budget,
) -> Result<Manipulation, DinnerError> {
    let (dinner, order) = setup.plain_dinner("manipulation against sincere play")?;
    let n = dinner.len();
    if n > 63 {
        return Err(DinnerError::TooManyMorsels(n));
    }
    let search = Search {
        dinner,
        turns: order.turns(),
        agent,
        rankings: best_first(dinner),
        memo: HashMap::new(),
        budget,
    };
    search.run()
}

struct Search<'a> {
    dinner: &'a Dinner,
    turns: &'a [u8],
    agent: Player,
    rankings: Vec<Vec<usize>>,
    memo: HashMap<u64, (i128, u8)>,
    budget: Budget,
}

impl Search<'_> {
    /// The others' sincere picks from turn `t` up to the manipulator's next turn.
    fn advance(&self, mut left: u64, mut t: usize, picks: &mut Vec<Bite>) -> (u64, usize) {
        while t < self.turns.len() && self.turns[t] as Player != self.agent {
            let p = self.turns[t] as Player;
            let x = *self.rankings[p]
                .iter()
                .find(|&&x| left >> x & 1 == 1)
                .expect("a morsel is left for every turn");
            left &= !(1 << x);
            picks.push(Bite {
                turn: t,
                player: p,
                morsel: x,
            });
            t += 1;
        }
        (left, t)
    }

    /// The best score from the manipulator's turn `t` with `left` on the plate.
    fn best(&mut self, left: u64, t: usize) -> Result<i128, DinnerError> {
        if t == self.turns.len() {
            return Ok(0);
        }
        if let Some(&(v, _)) = self.memo.get(&left) {
            return Ok(v);
        }
        let mut best: Option<(i128, u8)> = None;
        let mut rest = left;
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (after, t2) = self.advance(left & !(1 << x), t + 1, &mut Vec::new());
            let v = self.dinner.utility(x, self.agent) as i128 + self.best(after, t2)?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, x as u8));
            }
        }
        let (v, x) = best.expect("a morsel is left");
        self.memo.insert(left, (v, x));
        if self.memo.len() as u64 > self.budget.max_states {
            return Err(EngineError::TooManyStates {
                states: self.memo.len() as u128,
                budget: self.budget.max_states,
                bytes: self.memo.len() as u128 * 32,
            }
            .into());
        }
        Ok(v)
    }

    fn run(mut self) -> Result<Manipulation, DinnerError> {
        let n = self.turns.len();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut eating = Vec::with_capacity(n);
        let (mut left, mut t) = self.advance(full, 0, &mut eating);
        let score = self.best(left, t)?;
        while t < n {
            let x = self.memo[&left].1 as usize;
            eating.push(Bite {
                turn: t,
                player: self.agent,
                morsel: x,
            });
            (left, t) = self.advance(left & !(1 << x), t + 1, &mut eating);
        }
        Ok(Manipulation {
            eating,
            score,
            states: self.memo.len() as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Every strategy of the manipulator, tried: the plain tree of its choices.
    fn brute_force(d: &Dinner, turns: &[u8], agent: Player, left: u64, t: usize) -> i128 {
        if t == turns.len() {
            return 0;
        }
        let p = turns[t] as Player;
        let items = (0..d.len()).filter(|&x| left >> x & 1 == 1);
        if p != agent {
            let x = items
                .max_by_key(|&x| (d.utility(x, p), std::cmp::Reverse(x)))
                .unwrap();
            return brute_force(d, turns, agent, left & !(1 << x), t + 1);
        }
        items
            .map(|x| {
                d.utility(x, agent) as i128 + brute_force(d, turns, agent, left & !(1 << x), t + 1)
            })
            .max()
            .unwrap()
    }

    fn random(rng: &mut Rng, players: usize, n: usize) -> (Dinner, TurnOrder) {
        let range = [3, 20][rng.below(2) as usize];
        let flat = (0..n * players).map(|_| rng.below(range) as i64).collect();
        let d = Dinner::from_integers(players, flat).unwrap();
        let turns: String = (0..n)
            .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
            .collect();
        let order = TurnOrder::parse(&turns, &d).unwrap();
        (d, order)
    }

    /// The search against every strategy, and the greedy against the search; each play
    /// is a legal sincere play of the others that gives the manipulator its score.
    #[test]
    fn greedy_and_search_are_the_best_response() {
        let mut rng = Rng::for_trial(29, 12);
        for trial in 0..1500 {
            let players = if trial % 3 == 0 { 3 } else { 2 };
            let n = 1 + rng.below(9) as usize;
            let (d, order) = random(&mut rng, players, n);
            let agent = rng.below(players as u64) as usize;
            let full = (1u64 << n) - 1;
            let truth = brute_force(&d, order.turns(), agent, full, 0);
            let s = manipulate_by_search(
                &Setup::ordered(d.clone(), order.clone()).unwrap(),
                agent,
                Budget::default(),
            )
            .unwrap();
            assert_eq!(s.score, truth, "{d:?} {order} agent {agent}");
            for m in [
                s,
                manipulate(
                    &Setup::ordered(d.clone(), order.clone()).unwrap(),
                    agent,
                    Budget::default(),
                )
                .unwrap(),
            ] {
                assert_eq!(m.score, truth, "{d:?} {order} agent {agent}");
                let mine: i128 = m
                    .eating
                    .iter()
                    .filter(|b| b.player == agent)
                    .map(|b| d.utility(b.morsel, agent) as i128)
                    .sum();
                assert_eq!(mine, truth);
                // The others' bites are sincere: the best left, the earliest among equals.
                let mut left = full;
                for b in &m.eating {
                    assert_eq!(b.player, order.player(b.turn));
                    assert!(left >> b.morsel & 1 == 1);
                    if b.player != agent {
                        let best = (0..n)
                            .filter(|&x| left >> x & 1 == 1)
                            .max_by_key(|&x| (d.utility(x, b.player), std::cmp::Reverse(x)))
                            .unwrap();
                        assert_eq!(b.morsel, best);
                    }
                    left &= !(1 << b.morsel);
                }
            }
        }
    }

    /// The picking game for the generic engine, the others' strategy fixed: at their
    /// turns the only move is their sincere pick; at the manipulator's, every morsel left.
    struct FixedOthers<'a> {
        dinner: &'a Dinner,
        turns: &'a [u8],
        agent: Player,
    }

    impl crate::engine::Game for FixedOthers<'_> {
        type State = (u64, usize);
        type Move = usize;
        type Payoff = i64;
        fn players(&self) -> usize {
            self.dinner.players()
        }
        fn root(&self) -> (u64, usize) {
            ((1u64 << self.turns.len()) - 1, 0)
        }
        fn to_move(&self, &(_, t): &(u64, usize)) -> Option<Player> {
            (t < self.turns.len()).then(|| self.turns[t] as Player)
        }
        fn moves(&self, &(left, t): &(u64, usize), out: &mut Vec<usize>) {
            let p = self.turns[t] as Player;
            let items = (0..self.dinner.len()).filter(|&x| left >> x & 1 == 1);
            if p == self.agent {
                out.extend(items);
            } else {
                out.push(
                    items
                        .max_by_key(|&x| (self.dinner.utility(x, p), std::cmp::Reverse(x)))
                        .unwrap(),
                );
            }
        }
        fn play(&self, &(left, t): &(u64, usize), &x: &usize) -> (u64, usize) {
            (left & !(1 << x), t + 1)
        }
        fn add_move_payoffs(&self, &(_, t): &(u64, usize), &x: &usize, acc: &mut [i64]) {
            let p = self.turns[t] as Player;
            acc[p] += self.dinner.utility(x, p);
        }
    }

    /// The generic engine on the game with the others' strategy fixed gives the
    /// manipulator the same best score.
    #[test]
    fn the_engine_with_the_others_fixed_agrees() {
        use crate::engine::{solve, TieBreak, Ties};
        let mut rng = Rng::for_trial(29, 14);
        for trial in 0..300 {
            let players = 2 + trial % 3;
            let n = 1 + rng.below(10) as usize;
            let (d, order) = random(&mut rng, players, n);
            let agent = rng.below(players as u64) as usize;
            let game = FixedOthers {
                dinner: &d,
                turns: order.turns(),
                agent,
            };
            let ties = Ties::uniform(TieBreak::First, players);
            let engine = solve(&game, &ties, Budget::default()).unwrap();
            let m = manipulate(
                &Setup::ordered(d.clone(), order.clone()).unwrap(),
                agent,
                Budget::default(),
            )
            .unwrap();
            assert_eq!(
                engine.root_value()[agent] as i128,
                m.score,
                "{d:?} {order} agent {agent}"
            );
        }
    }

    #[test]
    fn the_search_is_refused_over_budget() {
        let mut rng = Rng::for_trial(29, 13);
        let (d, order) = random(&mut rng, 3, 20);
        let e = manipulate_by_search(
            &Setup::ordered(d.clone(), order.clone()).unwrap(),
            0,
            Budget { max_states: 10 },
        )
        .unwrap_err();
        assert!(e.to_string().contains("10"), "{e}");
    }
}
