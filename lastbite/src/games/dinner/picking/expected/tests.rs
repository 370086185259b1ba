//! The programs against every profile of rankings, and the reversal against the exact
//! solver.

use super::*;
use crate::games::dinner::picking::sincere;
use crate::games::dinner::{Dinner, Rules, Setup, TurnOrder};

fn permutations(m: usize) -> Vec<Vec<usize>> {
    if m == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(m - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, m - 1);
            out.push(q);
        }
    }
    out
}

/// The walk against the program run on every sequence (best, ties, runner-up), and
/// the best of Borda's equal split is an alternation (Kalinowski, Narodytska and
/// Walsh 2013).
#[test]
fn the_walk_finds_the_best_sequences() {
    for m in 1..=8usize {
        let borda: Vec<BigRational> = (0..m)
            .map(|r| BigRational::from_integer(BigInt::from(m - r)))
            .collect();
        let mut all = Vec::new();
        for code in 0..(1u32 << m) {
            // In A < B order: the first turn is the most significant.
            let turns: Vec<u8> = (0..m).map(|t| (code >> (m - 1 - t) & 1) as u8).collect();
            let [x, y] = sincere_expected_two(&turns, &borda);
            all.push((turns, x + y));
        }
        for a in 0..=m {
            let mine: Vec<&(Vec<u8>, BigRational)> = all
                .iter()
                .filter(|(t, _)| t.iter().filter(|&&p| p == 0).count() == a)
                .collect();
            let top = mine.iter().map(|r| r.1.clone()).max().unwrap();
            let tied: Vec<Vec<u8>> = mine
                .iter()
                .filter(|r| r.1 == top)
                .map(|r| r.0.clone())
                .collect();
            let runner = mine.iter().filter(|r| r.1 < top).map(|r| r.1.clone()).max();
            let got = best_sequences([a, m - a], &borda, Play::Sincere);
            assert_eq!(
                (got.welfare.clone(), got.tied.clone()),
                (top, tied),
                "m {m} a {a}"
            );
            assert_eq!(got.runner_up.map(|r| r.1), runner);
            assert_eq!(got.seen as usize, mine.len());
            if a == m / 2 && m > 1 {
                let t = &got.tied[0];
                assert!(t.windows(2).all(|p| p[0] != p[1]), "m {m}: {t:?}");
            }
        }
    }
}

/// Every pair of rankings, played sincerely by the dinner's own route.
#[test]
fn the_program_is_the_average_over_every_profile() {
    for m in 1..=5usize {
        let perms = permutations(m);
        for code in 0..(1u32 << m) {
            let turns: Vec<u8> = (0..m).map(|t| (code >> t & 1) as u8).collect();
            // Borda, m..1, as integers: the dinner gives item i the score of its rank.
            let scores: Vec<BigRational> = (0..m)
                .map(|r| BigRational::from_integer(BigInt::from(m - r)))
                .collect();
            let mut sum = [0i128; 2];
            for a in &perms {
                for b in &perms {
                    // a[i]: agent 0's rank of item i (0 best); utility m - rank.
                    let flat = (0..m)
                        .flat_map(|i| [(m - a[i]) as i64, (m - b[i]) as i64])
                        .collect();
                    let d = Dinner::from_integers(2, flat).unwrap();
                    let spec: String = turns.iter().map(|&p| char::from(b'A' + p)).collect();
                    let order = TurnOrder::parse(&spec, &d).unwrap();
                    let eating =
                        sincere(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap();
                    let setup = Setup::new(d, order, Rules::default()).unwrap();
                    let s = setup.scoring().score(setup.dinner(), eating).unwrap();
                    sum[0] += s[0].numer();
                    sum[1] += s[1].numer();
                }
            }
            let count = BigInt::from(perms.len() * perms.len());
            let want = sum.map(|x| BigRational::new(BigInt::from(x), count.clone()));
            assert_eq!(
                sincere_expected_two(&turns, &scores),
                want,
                "m {m} turns {turns:?}"
            );
        }
    }
}

fn spe_scores(d: Dinner, turns: &[u8]) -> (Vec<BigRational>, Vec<Vec<usize>>) {
    use crate::engine::{Budget, Silent};
    use crate::games::dinner::picking::bundles;
    use crate::games::dinner::solver::game::DinnerTies;
    use crate::games::dinner::solver::solve::{solve_exact, DEFAULT_DINNER_MEMORY};
    use crate::rational::Rational;
    let spec: String = turns.iter().map(|&p| char::from(b'A' + p)).collect();
    let order = TurnOrder::parse(&spec, &d).unwrap();
    let setup = Setup::new(d, order, Rules::default()).unwrap();
    let play = solve_exact(
        &setup,
        &DinnerTies::Index,
        Budget::default(),
        DEFAULT_DINNER_MEMORY,
        &Silent,
        None,
    )
    .unwrap();
    (
        play.scores
            .iter()
            .map(|x| Rational::from_exact(*x).to_big())
            .collect(),
        bundles(2, &play.eating),
    )
}

/// The reduction on the expectations: the exact solver (not crossout) averaged over
/// every profile of rankings, every sequence, Borda and a lopsided strict vector.
#[test]
fn the_strategic_expectation_is_the_solvers_average() {
    for m in 1..=4usize {
        let perms = permutations(m);
        let vectors: [Vec<i64>; 3] = [
            (0..m as i64).map(|r| m as i64 - r).collect(),
            (0..m as u32).map(|r| 10i64.pow(m as u32 - r) + 3).collect(),
            // Ties: the equilibrium where each agent breaks them by its ranking.
            (0..m as i64).map(|r| (m as i64 - r) / 2).collect(),
        ];
        for values in &vectors {
            let scores: Vec<BigRational> = values
                .iter()
                .map(|&v| BigRational::from_integer(BigInt::from(v)))
                .collect();
            // The solver plays values that break ties by rank.
            let spread = (m * m + 1) as i64;
            let ranked = |r: usize| values[r] * spread + (m - r) as i64;
            for code in 0..(1u32 << m) {
                let turns: Vec<u8> = (0..m).map(|t| (code >> t & 1) as u8).collect();
                let mut sum = [BigRational::zero(), BigRational::zero()];
                for a in &perms {
                    for b in &perms {
                        let flat = (0..m).flat_map(|i| [ranked(a[i]), ranked(b[i])]).collect();
                        let (_, bundles) =
                            spe_scores(Dinner::from_integers(2, flat).unwrap(), &turns);
                        for (p, rank) in [a, b].into_iter().enumerate() {
                            let v: i64 = bundles[p].iter().map(|&i| values[rank[i]]).sum();
                            sum[p] += BigRational::from_integer(BigInt::from(v));
                        }
                    }
                }
                let count = BigRational::from_integer(BigInt::from(perms.len().pow(2)));
                let want = sum.map(|x| x / &count);
                assert_eq!(
                    strategic_expected_two(&turns, &scores),
                    want,
                    "m {m} turns {turns:?} values {values:?}"
                );
            }
        }
    }
}

/// The reduction itself, instance by instance: the solver's equilibrium bundles are
/// sincere play's on the reversed sequence with the rankings reversed and swapped.
#[test]
fn the_equilibrium_is_sincere_play_reversed() {
    use crate::games::dinner::picking::bundles;
    use crate::rng::Rng;
    for trial in 0..300u64 {
        let mut rng = Rng::for_trial(29, trial);
        let m = 1 + rng.below(9) as usize;
        // Strict preferences: distinct utilities per agent, any magnitudes.
        let ranks: Vec<Vec<i64>> = (0..2).map(|_| rng.permutation(m)).collect();
        let steps: Vec<Vec<i64>> = (0..2)
            .map(|_| (0..m).map(|_| 1 + rng.below(20) as i64).collect())
            .collect();
        // Agent p's utility of item i: the sum of its steps up to the item's rank.
        let util = |p: usize, i: usize| -> i64 { steps[p][..ranks[p][i] as usize].iter().sum() };
        let turns: Vec<u8> = (0..m).map(|_| rng.below(2) as u8).collect();
        let flat = (0..m).flat_map(|i| [util(0, i), util(1, i)]).collect();
        let (_, spe) = spe_scores(Dinner::from_integers(2, flat).unwrap(), &turns);
        // Reversed: agent 0 likes best what agent 1 likes least, and the other way.
        let flat = (0..m).flat_map(|i| [-util(1, i), -util(0, i)]).collect();
        let d = Dinner::from_integers(2, flat).unwrap();
        let back: String = turns.iter().rev().map(|&p| char::from(b'A' + p)).collect();
        let order = TurnOrder::parse(&back, &d).unwrap();
        let mut reversed = bundles(
            2,
            &sincere(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap(),
        );
        for b in &mut reversed {
            b.sort();
        }
        let mut spe = spe;
        for b in &mut spe {
            b.sort();
        }
        assert_eq!(spe, reversed, "trial {trial} turns {turns:?}");
    }
}

/// Strategic best sequences against every sequence valued one by one.
#[test]
fn the_strategic_walk_finds_the_best_sequences() {
    for m in 1..=8usize {
        let lex: Vec<BigRational> = (1..=m)
            .map(|r| BigRational::new(BigInt::one(), BigInt::from(2).pow(r as u32)))
            .collect();
        for a in 0..=m {
            let mut all = Vec::new();
            for code in 0..(1u32 << m) {
                let turns: Vec<u8> = (0..m).map(|t| (code >> (m - 1 - t) & 1) as u8).collect();
                if turns.iter().filter(|&&p| p == 0).count() == a {
                    let [x, y] = strategic_expected_two(&turns, &lex);
                    all.push((turns, x + y));
                }
            }
            let top = all.iter().map(|r| r.1.clone()).max().unwrap();
            let tied: Vec<Vec<u8>> = all
                .iter()
                .filter(|r| r.1 == top)
                .map(|r| r.0.clone())
                .collect();
            let runner = all
                .iter()
                .filter(|r| r.1 < top)
                .max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0)))
                .cloned();
            let got = best_sequences([a, m - a], &lex, Play::Strategic);
            assert_eq!((got.welfare, got.tied), (top, tied), "m {m} a {a}");
            assert_eq!(got.runner_up, runner, "m {m} a {a}");
        }
    }
}

/// The joint programs against every profile: both scores, their product and their
/// minimum, sincere and (by the reversal) strategic, Borda, lexicographic and tied.
#[test]
fn the_moments_are_the_average_over_every_profile() {
    for m in 1..=4usize {
        let perms = permutations(m);
        let models: [Vec<BigRational>; 3] = [
            (0..m)
                .map(|r| BigRational::from_integer(BigInt::from(m - r)))
                .collect(),
            (1..=m)
                .map(|r| BigRational::new(BigInt::one(), BigInt::from(2).pow(r as u32)))
                .collect(),
            // Tied values (play breaks them by rank).
            (0..m)
                .map(|r| BigRational::from_integer(BigInt::from((m - r) / 2)))
                .collect(),
        ];
        for scores in &models {
            for code in 0..(1u32 << m) {
                let turns: Vec<u8> = (0..m).map(|t| (code >> t & 1) as u8).collect();
                let spec: String = turns.iter().map(|&p| char::from(b'A' + p)).collect();
                // Sums of s_A, s_B, s_A s_B and min(s_A, s_B).
                let zero = || -> [BigRational; 4] { std::array::from_fn(|_| BigRational::zero()) };
                let (mut sin, mut spe) = (zero(), zero());
                for a in &perms {
                    for b in &perms {
                        // Utilities as integers: the scores times a common denominator.
                        let den = BigInt::from(2).pow(m as u32);
                        let int = |r: usize| -> i64 {
                            (&scores[r] * BigRational::from_integer(den.clone()))
                                .to_integer()
                                .try_into()
                                .unwrap()
                        };
                        let flat: Vec<i64> = (0..m).flat_map(|i| [int(a[i]), int(b[i])]).collect();
                        // Play breaks ties by rank (the model's agents rank strictly).
                        let spread = (m * m + 1) as i64;
                        let tie = |r: usize| int(r) * spread + (m - r) as i64;
                        let ranked: Vec<i64> =
                            (0..m).flat_map(|i| [tie(a[i]), tie(b[i])]).collect();
                        let d = Dinner::from_integers(2, ranked).unwrap();
                        let order = TurnOrder::parse(&spec, &d).unwrap();
                        let sb = bundles_of(
                            &sincere(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap(),
                        );
                        let eb = spe_scores(d, &turns).1;
                        for (acc, bs) in [(&mut sin, sb), (&mut spe, eb)] {
                            let v: Vec<BigRational> = (0..2)
                                .map(|p| {
                                    let x: i64 = bs[p].iter().map(|&i| flat[i * 2 + p]).sum();
                                    BigRational::new(BigInt::from(x), den.clone())
                                })
                                .collect();
                            acc[0] += &v[0];
                            acc[1] += &v[1];
                            acc[2] += &v[0] * &v[1];
                            acc[3] += (&v[0]).min(&v[1]);
                        }
                    }
                }
                let n = BigRational::from_integer(BigInt::from(perms.len().pow(2)));
                for (acc, got, play) in [
                    (&sin, sincere_moments_two(&turns, scores), Play::Sincere),
                    (&spe, strategic_moments_two(&turns, scores), Play::Strategic),
                ] {
                    let want = Moments {
                        scores: [&acc[0] / &n, &acc[1] / &n],
                        product: &acc[2] / &n,
                    };
                    assert_eq!(got, want, "m {m} turns {turns:?}");
                    let (expected, min) = egalitarian_two(&turns, scores, play, 1 << 20).unwrap();
                    assert_eq!(expected, want.scores, "m {m} turns {turns:?}");
                    assert_eq!(min, &acc[3] / &n, "m {m} turns {turns:?} {play:?}");
                }
            }
        }
    }
}

/// The equilibrium that breaks ties by rank is an equilibrium of the game with ties:
/// its scores are among the engine's equilibrium outcomes of the dinner as given.
#[test]
fn breaking_ties_by_rank_keeps_an_equilibrium() {
    use crate::engine::{Budget, Silent};
    use crate::exact::Exact;
    use crate::games::dinner::all_spe_scores;
    use crate::rng::Rng;
    for trial in 0..300u64 {
        let mut rng = Rng::for_trial(31, trial);
        let m = 1 + rng.below(7) as usize;
        // ranks[p][i] in 1..=m, 1 best.
        let ranks: Vec<Vec<i64>> = (0..2).map(|_| rng.permutation(m)).collect();
        // Values by rank with ties: a non-increasing vector per agent.
        let mut steps: Vec<Vec<i64>> = (0..2)
            .map(|_| (0..m).map(|_| rng.below(3) as i64).collect())
            .collect();
        for s in &mut steps {
            s.sort_unstable_by(|x, y| y.cmp(x));
        }
        let value = |p: usize, i: usize| steps[p][ranks[p][i] as usize - 1];
        let spread = (m * m + 1) as i64;
        let ranked = |p: usize, i: usize| value(p, i) * spread + m as i64 - ranks[p][i];
        let turns: Vec<u8> = (0..m).map(|_| rng.below(2) as u8).collect();
        let plain: Vec<i64> = (0..m).flat_map(|i| [value(0, i), value(1, i)]).collect();
        let d = Dinner::from_integers(2, plain).unwrap();
        let spec: String = turns.iter().map(|&p| char::from(b'A' + p)).collect();
        let order = TurnOrder::parse(&spec, &d).unwrap();
        let setup = Setup::new(d, order, Rules::default()).unwrap();
        let all = all_spe_scores(&setup, Budget::default(), &Silent).unwrap();
        // The values with ties broken by rank; and the rankings alone (the reversal's
        // outcome is an equilibrium for every utility consistent with the rankings:
        // Aziz, Goldberg and Walsh 2017, for Nash equilibria).
        let by_rank = |p: usize, i: usize| m as i64 - ranks[p][i];
        for play in [&ranked as &dyn Fn(usize, usize) -> i64, &by_rank] {
            let flat = (0..m).flat_map(|i| [play(0, i), play(1, i)]).collect();
            let (_, bundles) = spe_scores(Dinner::from_integers(2, flat).unwrap(), &turns);
            let got: Vec<Exact> = (0..2)
                .map(|p| Exact::integer(bundles[p].iter().map(|&i| value(p, i) as i128).sum()))
                .collect();
            assert!(all.contains(&got), "trial {trial}: {got:?} not in {all:?}");
        }
    }
}

fn bundles_of(eating: &[crate::games::dinner::Bite]) -> Vec<Vec<usize>> {
    crate::games::dinner::picking::bundles(2, eating)
}

/// The walk cut into pieces (every prefix of 0 to 9 turns of every split, or of a given
/// split) and merged in a shuffled order gives the whole walk's best, ties, runner-up and
/// count, under both plays, Borda and lexicographic scores.
#[test]
fn the_walk_in_pieces_merges_to_the_whole() {
    let mut rng = crate::rng::Rng::for_trial(31, 1);
    for m in 1..=10usize {
        for lexicographic in [false, true] {
            let scores: Vec<BigRational> = (0..m)
                .map(|r| match lexicographic {
                    true => BigRational::from_integer(BigInt::from(1u64 << (m - 1 - r))),
                    false => BigRational::from_integer(BigInt::from(m - r)),
                })
                .collect();
            for play in [Play::Sincere, Play::Strategic] {
                for counts in [None, Some([m / 2, m - m / 2])] {
                    let whole = best_over_splits(counts, &scores, play);
                    for depth in [0, 1, 3, 9] {
                        let mut pieces = best_pieces(m, counts, depth);
                        for i in (1..pieces.len()).rev() {
                            pieces.swap(i, rng.below(i as u64 + 1) as usize);
                        }
                        let merged = pieces.iter().fold(Best::default(), |acc, (split, p)| {
                            acc.merge(best_below(*split, p, &scores, play, &Silent).unwrap())
                        });
                        assert_eq!(merged, whole, "{m} items, depth {depth}, {counts:?}");
                    }
                }
            }
        }
    }
}
