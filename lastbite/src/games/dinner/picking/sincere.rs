//! Sincere play (Bouveret and Lang, IJCAI 2011): on each turn the agent takes its
//! favourite morsel left; among equal utilities the earlier morsel, as the index tie rule
//! counts it tastier. Each agent's ranking is one sort of its utility column (crossout's
//! `Ranking`, sorted on all cores for large dinners), then one pass over the turns: an
//! agent's pointer into its ranking only moves down, so the pass is `O(players x n)`.

use crate::engine::Player;
use crate::games::dinner::model::{Bite, DinnerError, Setup, TurnOrder};
use crate::games::dinner::theory::crossout::Ranking;
use crate::par::prelude::*;

/// The sincere play of a setup's plain dinner under its order, bite by bite.
///
/// ```
/// use lastbite::games::dinner::{picking::sincere, Dinner, Setup, TurnOrder};
/// let d = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let order = TurnOrder::parse("ABA", &d).unwrap();
/// let s = Setup::ordered(d, order).unwrap();
/// let eaten: Vec<usize> = sincere(&s).unwrap().iter().map(|b| b.morsel).collect();
/// assert_eq!(eaten, [2, 1, 0]); // A takes her 3, B his 3, A what is left
/// ```
pub fn sincere(setup: &Setup) -> Result<Vec<Bite>, DinnerError> {
    let (dinner, order) = setup.plain_dinner("sincere play")?;
    let n = dinner.len();
    let all = 0..n as u32;
    let rankings: Vec<Ranking> = if n > 1 << 16 {
        (0..dinner.players())
            .into_par_iter()
            .map(|p| Ranking::new(dinner, p, all.clone()))
            .collect()
    } else {
        (0..dinner.players())
            .map(|p| Ranking::new(dinner, p, all.clone()))
            .collect()
    };
    Ok(play(n, order, &rankings))
}

/// The pass: rankings are least favourite first, so each agent reads its own from the
/// top down, skipping what others took.
fn play(n: usize, order: &TurnOrder, rankings: &[Ranking]) -> Vec<Bite> {
    let mut taken = vec![false; n];
    let mut next = vec![n; rankings.len()];
    let mut bites = Vec::with_capacity(n);
    for (turn, &p) in order.turns().iter().enumerate() {
        let player = p as Player;
        let ranking = &rankings[player];
        let mut j = next[player];
        let morsel = loop {
            j -= 1;
            let m = ranking.morsel(j);
            if !taken[m] {
                break m;
            }
        };
        taken[morsel] = true;
        next[player] = j;
        bites.push(Bite {
            turn,
            player,
            morsel,
        });
    }
    bites
}

/// Each agent's bundle (its morsels, increasing) from `bites`.
pub fn bundles(players: usize, bites: &[Bite]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); players];
    for b in bites {
        out[b.player].push(b.morsel);
    }
    for bundle in &mut out {
        bundle.sort_unstable();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dinner::model::Dinner;
    use crate::rng::Rng;

    /// The definition, step by step: the best utility left, the earliest among equals.
    fn by_definition(d: &Dinner, order: &TurnOrder) -> Vec<usize> {
        let mut left: Vec<usize> = (0..d.len()).collect();
        order
            .turns()
            .iter()
            .map(|&p| {
                let p = p as usize;
                let best = left
                    .iter()
                    .copied()
                    .max_by_key(|&m| (d.utility(m, p), std::cmp::Reverse(m)))
                    .unwrap();
                left.retain(|&m| m != best);
                best
            })
            .collect()
    }

    #[test]
    fn sincere_is_the_definition() {
        let mut rng = Rng::for_trial(29, 10);
        for _ in 0..400 {
            let players = 1 + rng.below(4) as usize;
            let n = 1 + rng.below(30) as usize;
            let range = [3, 1000][rng.below(2) as usize];
            let flat = (0..n * players)
                .map(|_| rng.below(range) as i64 - 1)
                .collect();
            let d = Dinner::from_integers(players, flat).unwrap();
            let turns: String = (0..n)
                .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
                .collect();
            let order = TurnOrder::parse(&turns, &d).unwrap();
            let fast: Vec<usize> = sincere(&Setup::ordered(d.clone(), order.clone()).unwrap())
                .unwrap()
                .iter()
                .map(|b| b.morsel)
                .collect();
            assert_eq!(fast, by_definition(&d, &order), "{d:?} {turns}");
        }
    }
}
