//! The strategies of the paper's introduction and their evaluation `v_P(s, t)`
//! (paper: "Strategies and equilibria", equation (1)).
//!
//! A strategy maps the remaining dinner to a morsel. Ties in a strategy's criterion go to
//! the earlier morsel, matching the index tie rule of [`super::crossout`](mod@crate::games::dinner::theory::crossout).

use std::fmt;
use std::str::FromStr;

use crate::engine::Player;

use crate::games::dinner::model::Bite;
use crate::games::dinner::model::{Dinner, DinnerError, Setup, TurnOrder};
use crate::games::dinner::theory::crossout::crossout_on;
use crate::games::dinner::theory::plan::Plan;

/// A strategy of the paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Eat your own favourite morsel.
    Greedy,
    /// "Competitive": maximise the sum of all players' utilities (a + b).
    Competitive,
    /// "Cooperative": maximise your utility minus the others' (a - b).
    Cooperative,
    /// "Masochistic": eat your least favourite morsel.
    Masochistic,
    /// The crossout strategy c(D) (two players).
    Crossout,
}

impl Strategy {
    /// All strategies.
    pub const ALL: [Strategy; 5] = [
        Strategy::Greedy,
        Strategy::Competitive,
        Strategy::Cooperative,
        Strategy::Masochistic,
        Strategy::Crossout,
    ];

    /// The strategy's name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Greedy => "greedy",
            Strategy::Competitive => "competitive",
            Strategy::Cooperative => "cooperative",
            Strategy::Masochistic => "masochistic",
            Strategy::Crossout => "crossout",
        }
    }

    /// The morsel `player` eats on turn `turn` when `remaining` (morsel indices, in
    /// increasing order) are left.
    pub fn choose_in(
        self,
        dinner: &Dinner,
        order: &TurnOrder,
        turn: usize,
        remaining: &[u32],
    ) -> Result<usize, DinnerError> {
        let p = order.player(turn);
        let k = dinner.players();
        let score = |i: u32| self.score(dinner, p, i as usize);
        if self == Strategy::Crossout {
            if k != 2 {
                return Err(DinnerError::NeedsTwoPlayers("the crossout strategy", k));
            }
            return Ok(
                crossout_on(dinner, &order.turns()[turn..], remaining.iter().copied())[0] as usize,
            );
        }
        // Masochists keep the index rule too: among equally bad morsels, the later one.
        // (max_by_key keeps the last maximum, so iterate to make it the intended one.)
        let best = if self == Strategy::Masochistic {
            remaining.iter().max_by_key(|&&i| score(i))
        } else {
            remaining.iter().rev().max_by_key(|&&i| score(i))
        };
        Ok(*best.expect("a strategy is asked only when morsels remain") as usize)
    }

    /// The strategy's move at a bitmask state of the engine game.
    pub fn choose(
        self,
        dinner: &Dinner,
        order: &TurnOrder,
        remaining: u64,
    ) -> Result<usize, DinnerError> {
        let list: Vec<u32> = (0..64).filter(|i| remaining >> i & 1 == 1).collect();
        self.choose_in(dinner, order, dinner.len() - list.len(), &list)
    }
}

impl Strategy {
    /// What `player` maximises when eating morsel `i` (crossout has no such score).
    fn score(self, dinner: &Dinner, player: Player, i: usize) -> i128 {
        let own = dinner.utility(i, player) as i128;
        let all = || -> i128 {
            (0..dinner.players())
                .map(|q| dinner.utility(i, q) as i128)
                .sum()
        };
        match self {
            Strategy::Greedy => own,
            Strategy::Competitive => all(),
            Strategy::Cooperative => own - (all() - own),
            Strategy::Masochistic => -own,
            Strategy::Crossout => 0,
        }
    }

    /// Every morsel in the order `player` playing this strategy eats them when they are
    /// left (not crossout): the first one left is [`Strategy::choose_in`]'s choice, since
    /// the score of a morsel does not change while the dinner is eaten.
    fn preference(self, dinner: &Dinner, player: Player) -> Vec<u32> {
        let mut keyed: Vec<(i128, u32)> = (0..dinner.len() as u32)
            .map(|i| {
                // Highest score first; among equals the earlier morsel, except for the
                // masochist (the later one), as in `choose_in`.
                let tie = if self == Strategy::Masochistic {
                    u32::MAX - i
                } else {
                    i
                };
                (-self.score(dinner, player, i as usize), tie)
            })
            .collect();
        keyed.sort_unstable();
        keyed
            .into_iter()
            .map(|(_, tie)| {
                if self == Strategy::Masochistic {
                    u32::MAX - tie
                } else {
                    tie
                }
            })
            .collect()
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                format!("unknown strategy '{s}' (expected greedy, competitive, cooperative, masochistic or crossout)")
            })
    }
}

/// The play of a strategy profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playout {
    /// The eating order.
    pub eating: Vec<Bite>,
    /// Each player's score `v_P(s, t)`, scaled by [`Dinner::scale`].
    pub scores: Vec<i128>,
}

/// Plays `strategies[p]` for each player `p` and returns the eating order and scores.
///
/// Each strategy but crossout eats down one sorted list (`O(n log n)`), and crossout's
/// plan is kept along the play (`plan::Plan`) instead of being recomputed on every turn,
/// or its bite read from the top of both rankings where they nearly agree (`coupling`;
/// the play is the same as recomputing it, checked in the cross-checks): about
/// `O(n log n)` on random and on nearly alike rankings under any turn order, never much
/// more than recomputing (see docs/performance.md for the rankings in between).
///
/// ```
/// use lastbite::games::dinner::{evaluate, Dinner, Setup, Strategy, TurnOrder};
/// let d = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let order = TurnOrder::parse("ABA", &d).unwrap();
/// let s = Setup::ordered(d, order).unwrap();
/// let greedy = evaluate(&s, &[Strategy::Greedy, Strategy::Greedy]).unwrap();
/// assert_eq!(greedy.scores, vec![4, 3]);
/// let crossout = evaluate(&s, &[Strategy::Crossout, Strategy::Crossout]).unwrap();
/// assert_eq!(crossout.scores, vec![5, 2]);
/// ```
pub fn evaluate(setup: &Setup, strategies: &[Strategy]) -> Result<Playout, DinnerError> {
    let (dinner, order) = setup.plain_dinner("a strategy profile's play")?;
    let (n, k) = (dinner.len(), dinner.players());
    let strategy = |p: Player| strategies.get(p).copied().unwrap_or(Strategy::Greedy);
    let mut moves = vec![false; k];
    for &p in order.turns() {
        moves[p as usize] = true;
    }
    let crossout_moves = (0..k).any(|p| moves[p] && strategy(p) == Strategy::Crossout);
    if crossout_moves && k != 2 {
        return Err(DinnerError::NeedsTwoPlayers("the crossout strategy", k));
    }
    // Crossout's plan follows every bite; the other strategies eat down a fixed list.
    let mut plan = crossout_moves.then(|| Plan::new(dinner, order));
    let lists: Vec<Vec<u32>> = (0..k)
        .map(|p| match strategy(p) {
            s if moves[p] && s != Strategy::Crossout => s.preference(dinner, p),
            _ => Vec::new(),
        })
        .collect();
    let mut next = vec![0usize; k];
    let mut eaten = vec![false; n];
    play(dinner, order, |player| {
        let m = match plan.as_mut() {
            Some(plan) if strategy(player) == Strategy::Crossout => plan.next(),
            _ => {
                let list = &lists[player];
                let mut j = next[player];
                while eaten[list[j] as usize] {
                    j += 1;
                }
                next[player] = j + 1;
                list[j] as usize
            }
        };
        eaten[m] = true;
        if let Some(plan) = plan.as_mut() {
            plan.eat(m);
        }
        Ok(m)
    })
}

/// Plays the dinner turn by turn, `choose(player)` giving the morsel eaten (one that is
/// left), and scores the play.
fn play(
    dinner: &Dinner,
    order: &TurnOrder,
    mut choose: impl FnMut(Player) -> Result<usize, DinnerError>,
) -> Result<Playout, DinnerError> {
    let mut scores = vec![0i128; dinner.players()];
    let mut eating = Vec::with_capacity(dinner.len());
    for turn in 0..dinner.len() {
        let player: Player = order.player(turn);
        let morsel = choose(player)?;
        scores[player] += dinner.utility(morsel, player) as i128;
        eating.push(Bite {
            turn,
            player,
            morsel,
        });
    }
    Ok(Playout { eating, scores })
}

/// The play of a profile computed the first way: every strategy asked on every turn over
/// the morsels left, crossout recomputed from scratch each time (`O(n^2 log n)`). The
/// reference route [`evaluate`] is checked against, kept for the tests and benchmarks.
#[doc(hidden)]
pub fn evaluate_by_recomputation(
    setup: &Setup,
    strategies: &[Strategy],
) -> Result<Playout, DinnerError> {
    let (dinner, order) = setup.plain_dinner("a strategy profile's play")?;
    let mut remaining: Vec<u32> = (0..dinner.len() as u32).collect();
    play(dinner, order, |player| {
        let turn = dinner.len() - remaining.len();
        let strategy = strategies.get(player).copied().unwrap_or(Strategy::Greedy);
        let m = strategy.choose_in(dinner, order, turn, &remaining)?;
        let pos = remaining
            .binary_search(&(m as u32))
            .expect("chosen morsel remains");
        remaining.remove(pos);
        Ok(m)
    })
}
