//! The subtraction game as an engine game: the brute-force route that checks the DP.
//! Each player carries her own tie-breaking rule (the papers' README: equivalent to
//! Definition 2's duals).

use crate::engine::{Game, Player};

use super::model::Ruleset;

/// A heap, the player to move, and the ruleset. With `zero_sum`, the mover's removal
/// also costs the other player as much (Section 5's scoring play).
pub struct SubtractionGame<'a> {
    set: &'a Ruleset,
    heap: u64,
    zero_sum: bool,
}

impl<'a> SubtractionGame<'a> {
    /// Self-interest play from `heap`, Alice first.
    pub fn new(set: &'a Ruleset, heap: u64) -> Self {
        SubtractionGame {
            set,
            heap,
            zero_sum: false,
        }
    }

    /// Zero-sum scoring play from `heap`.
    pub fn zero_sum(set: &'a Ruleset, heap: u64) -> Self {
        SubtractionGame {
            set,
            heap,
            zero_sum: true,
        }
    }
}

impl Game for SubtractionGame<'_> {
    /// (heap, player to move)
    type State = (u64, u8);
    type Move = u64;
    type Payoff = i64;

    fn players(&self) -> usize {
        2
    }
    fn root(&self) -> (u64, u8) {
        (self.heap, 0)
    }
    fn to_move(&self, s: &(u64, u8)) -> Option<Player> {
        (s.0 >= self.set.min()).then_some(s.1 as Player)
    }
    fn moves(&self, s: &(u64, u8), out: &mut Vec<u64>) {
        out.extend(
            self.set
                .elements()
                .iter()
                .copied()
                .take_while(|&e| e <= s.0),
        );
    }
    fn play(&self, s: &(u64, u8), m: &u64) -> (u64, u8) {
        (s.0 - m, 1 - s.1)
    }
    fn add_move_payoffs(&self, s: &(u64, u8), m: &u64, acc: &mut [i64]) {
        let p = s.1 as usize;
        acc[p] += *m as i64;
        if self.zero_sum {
            acc[1 - p] -= *m as i64;
        }
    }
    fn move_label(&self, _s: &(u64, u8), m: &u64) -> String {
        format!("take {m}")
    }
    fn state_text(&self, s: &(u64, u8)) -> String {
        format!("heap {}", s.0)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::{solve, Budget, Ties};
    use crate::games::subtraction::{find_period, outcome_at, Convention, Table};

    /// The DP against the engine for every convention and the zero-sum score.
    fn assert_agree(set: &Ruleset, max_heap: u64) {
        let t = Table::compute(set, max_heap).unwrap();
        for h in 0..=max_heap {
            let game = SubtractionGame::new(set, h);
            for x in Convention::ALL {
                let sol = solve(
                    &game,
                    &Ties::per_player(x.rules().to_vec()),
                    Budget::default(),
                )
                .unwrap();
                let v = sol.root_value();
                let (a, b) = t.outcome(x, h);
                assert_eq!((v[0] as u64, v[1] as u64), (a, b), "{set} heap {h} {x}");
                let engine_moves = sol
                    .choice(&game.root())
                    .map(|c| c.optimal)
                    .unwrap_or_default();
                assert_eq!(engine_moves, t.moves(x, h), "{set} heap {h} {x} moves");
            }
            let zs = SubtractionGame::zero_sum(set, h);
            let sol = solve(
                &zs,
                &Ties::uniform(crate::engine::TieBreak::First, 2),
                Budget::default(),
            )
            .unwrap();
            assert_eq!(
                sol.root_value()[0],
                t.zero_sum(h),
                "{set} heap {h} zero-sum"
            );
        }
    }

    #[test]
    fn every_small_ruleset() {
        for mask in 1u32..1 << 7 {
            if mask.count_ones() > 3 {
                continue;
            }
            let set = Ruleset::new((1..=7).filter(|i| mask >> (i - 1) & 1 == 1).collect()).unwrap();
            assert_agree(&set, 45);
        }
    }

    fn engine_outcome(set: &str, heap: u64, x: Convention) -> (i64, i64) {
        let set: Ruleset = set.parse().unwrap();
        let game = SubtractionGame::new(&set, heap);
        let sol = solve(
            &game,
            &Ties::per_player(x.rules().to_vec()),
            Budget::default(),
        )
        .unwrap();
        (sol.root_value()[0], sol.root_value()[1])
    }

    /// Found by `lastbite subtraction conjecture 4 --sizes 4 --max 40`: Conjecture 4 fails
    /// for |S| = 4. The engine (no DP) confirms Bob is better off in AvA than in FvF.
    #[test]
    fn conjecture_4_counterexample_by_the_engine() {
        assert_eq!(
            engine_outcome("4,6,21,31", 454, Convention::FvF),
            (230, 224)
        );
        assert_eq!(
            engine_outcome("4,6,21,31", 454, Convention::AvA),
            (229, 225)
        );
    }

    /// Found by `lastbite subtraction conjecture p6 --sizes 4 --max 30`: going from FvA to
    /// AvA pays Alice (Problem 6 answered in the negative for |S| = 4).
    #[test]
    fn problem_6_counterexample_by_the_engine() {
        assert_eq!(engine_outcome("3,5,17,25", 191, Convention::FvA), (105, 85));
        assert_eq!(engine_outcome("3,5,17,25", 191, Convention::AvA), (106, 85));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn random_rulesets(elements in prop::collection::vec(1u64..16, 1..=5)) {
            assert_agree(&Ruleset::new(elements).unwrap(), 70);
        }

        /// The periodic formula (the certificate) against the direct DP far beyond the
        /// heaps it was certified from.
        #[test]
        fn periodic_formula_equals_direct(elements in prop::collection::vec(1u64..12, 1..=4), extra in 0u64..500) {
            let set = Ruleset::new(elements).unwrap();
            let (p, small) = find_period(&set, 1 << 22).unwrap();
            // Beyond the table the period was found in, so the formula is what answers.
            let h = small.len().max(p.preperiod + 7 * p.period) + extra;
            let big = Table::compute(&set, h + 3 * set.max()).unwrap();
            for heap in [h, h + 1, h + set.max()] {
                for x in Convention::ALL {
                    let direct = big.outcome(x, heap);
                    let periodic = outcome_at(&small, Some(&p), x, heap as u128).unwrap();
                    prop_assert_eq!((direct.0 as u128, direct.1 as u128), periodic.outcome);
                    prop_assert_eq!(big.moves(x, heap), periodic.moves);
                }
            }
        }
    }
}

#[cfg(test)]
mod reference_tests {
    use super::*;
    use crate::engine::reference::game_outcomes;
    use crate::engine::{all_outcomes, Budget};
    use crate::games::subtraction::{Convention, Table};

    /// Every convention's outcome of the family's table is a subgame perfect outcome of
    /// the reference solver (every pure profile of the unfolded tree), and the engine's
    /// set of all of them is the reference's, for every set within {1, 2, 3} and heaps up
    /// to 6, self-interest and zero-sum.
    #[test]
    fn table_outcomes_are_reference_outcomes() {
        let mut checked = 0;
        for mask in 1u64..8 {
            let set = Ruleset::new((1..=3).filter(|m| mask >> (m - 1) & 1 == 1).collect()).unwrap();
            let t = Table::compute(&set, 6).unwrap();
            for h in 0..=6 {
                for game in [
                    SubtractionGame::new(&set, h),
                    SubtractionGame::zero_sum(&set, h),
                ] {
                    let Some(reference) = game_outcomes(&game, 100_000) else {
                        assert!(h > 4, "{set} heap {h} is within the reference's reach");
                        continue;
                    };
                    checked += 1;
                    assert_eq!(
                        all_outcomes(&game, Budget::default()).unwrap(),
                        reference,
                        "{set} heap {h}"
                    );
                    if !game.zero_sum {
                        for x in Convention::ALL {
                            let (a, b) = t.outcome(x, h);
                            assert!(
                                reference.contains(&vec![a as i64, b as i64]),
                                "{set} heap {h} {x}"
                            );
                        }
                    }
                }
            }
        }
        assert!(checked >= 70, "{checked} games checked");
    }
}
