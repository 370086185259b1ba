//! The searches against the generic engine's every-equilibrium rule and the dinner's own
//! fairness measures, and the stochastic-dominance test against utilities.

use super::*;
use crate::engine::Budget;
use crate::engine::Silent;
use crate::games::dinner::model::{Dinner, Setup, TurnOrder};
use crate::games::dinner::picking::equilibria::spe_allocations;
use crate::games::dinner::picking::fairness::fairness;
use crate::rng::Rng;

const LIMIT: usize = 1 << 24;

fn dinner_of(u: &[[u64; MAX_ITEMS]], m: usize) -> Dinner {
    let flat = (0..m)
        .flat_map(|i| u.iter().map(move |row| row[i] as i64))
        .collect();
    Dinner::from_integers(u.len(), flat).unwrap()
}

/// Every equilibrium allocation by the engine, as masks.
fn engine_allocations(u: &[[u64; MAX_ITEMS]], turns: &[u8]) -> Vec<Vec<u16>> {
    let d = dinner_of(u, turns.len());
    let order = TurnOrder::parse(&sequence_text(turns), &d).unwrap();
    let setup = Setup::ordered(d, order).unwrap();
    let mut out: Vec<Vec<u16>> = spe_allocations(&setup, Budget::default())
        .unwrap()
        .into_iter()
        .map(|b| {
            b.iter()
                .map(|items| items.iter().map(|&i| 1u16 << i).sum())
                .collect()
        })
        .collect();
    out.sort();
    out
}

fn dp_allocations(u: &[[u64; MAX_ITEMS]], turns: &[u8]) -> Vec<Vec<u16>> {
    let mut out: Vec<Vec<u16>> = Spe::default()
        .solve(u, turns, LIMIT)
        .unwrap()
        .iter()
        .map(|o| o[..u.len()].to_vec())
        .collect();
    out.sort();
    out
}

/// The dinner's own EF1 (fairness.rs) of an allocation given as masks.
fn plain_ef1(u: &[[u64; MAX_ITEMS]], m: usize, alloc: &[u16]) -> bool {
    let d = dinner_of(u, m);
    let bundles: Vec<Vec<usize>> = alloc
        .iter()
        .map(|&b| (0..m).filter(|&i| b >> i & 1 == 1).collect())
        .collect();
    fairness(&d, &bundles, Budget { max_states: 1 })
        .iter()
        .all(|f| f.ef1)
}

#[test]
fn equilibria_are_the_engines() {
    let mut rng = Rng::for_trial(57, 1);
    for _ in 0..300 {
        let k = 2 + rng.below(2) as usize;
        let m = 1 + rng.below(6) as usize;
        let mut u = vec![[0u64; MAX_ITEMS]; k];
        let top = 1 + rng.below(4);
        for row in &mut u {
            for x in &mut row[..m] {
                *x = rng.below(top);
            }
        }
        let turns: Vec<u8> = (0..m).map(|_| rng.below(k as u64) as u8).collect();
        assert_eq!(
            dp_allocations(&u, &turns),
            engine_allocations(&u, &turns),
            "{u:?} {turns:?}"
        );
    }
}

fn random_rankings(rng: &mut Rng, k: usize, m: usize) -> Rankings {
    let orders: Vec<Vec<u8>> = (0..k)
        .map(|_| rng.permutation(m).iter().map(|&x| (x - 1) as u8).collect())
        .collect();
    Rankings::new(&orders)
}

#[test]
fn the_ordinal_equilibrium_is_the_lexicographic_one_and_a_borda_one() {
    let mut rng = Rng::for_trial(57, 2);
    for _ in 0..400 {
        let m = 1 + rng.below(10) as usize;
        let p = random_rankings(&mut rng, 2, m);
        let turns: Vec<u8> = (0..m).map(|_| rng.below(2) as u8).collect();
        let ordinal = ordinal_equilibrium(&turns, &p).to_vec();
        let lex = [0, 1].map(|i| p.utilities(i, Scores::Lexicographic));
        assert_eq!(
            dp_allocations(&lex, &turns),
            std::slice::from_ref(&ordinal),
            "{p:?} {turns:?}"
        );
        let borda = [0, 1].map(|i| p.utilities(i, Scores::Borda));
        assert!(
            dp_allocations(&borda, &turns).contains(&ordinal),
            "{p:?} {turns:?}"
        );
    }
}

#[test]
fn sincere_play_is_the_dinners() {
    use crate::games::dinner::picking::{bundles, sincere};
    let mut rng = Rng::for_trial(57, 3);
    for _ in 0..200 {
        let m = 1 + rng.below(10) as usize;
        let p = random_rankings(&mut rng, 2, m);
        let turns: Vec<u8> = (0..m).map(|_| rng.below(2) as u8).collect();
        let u = [0, 1].map(|i| p.utilities(i, Scores::Borda));
        let d = dinner_of(&u, m);
        let order = TurnOrder::parse(&sequence_text(&turns), &d).unwrap();
        let b = bundles(2, &sincere(&Setup::ordered(d, order).unwrap()).unwrap());
        let masks: Vec<u16> = b
            .iter()
            .map(|x| x.iter().map(|&i| 1u16 << i).sum())
            .collect();
        assert_eq!(sincere_two(&turns, &p).to_vec(), masks);
    }
}

/// EF1 under every consistent utility: when the test says yes, random consistent
/// utilities agree; when it says no, a utility that values the top k items far above the
/// rest (for some k) shows the envy.
#[test]
fn every_utility_is_stochastic_dominance() {
    let mut rng = Rng::for_trial(57, 4);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..2000 {
        let m = 1 + rng.below(9) as usize;
        let p = random_rankings(&mut rng, 2, m);
        let own: u16 = rng.below(1 << m) as u16;
        let other = !own & ((1u32 << m) - 1) as u16;
        let utility = |vals: &[u64]| {
            let mut u = [0u64; MAX_ITEMS];
            for item in 0..m {
                u[item] = vals[p.rank[0][item] as usize];
            }
            u
        };
        if ef1_every_utility(&p, 0, own, other) {
            yes += 1;
            for _ in 0..20 {
                let mut vals: Vec<u64> = (0..m).map(|_| 1 + rng.below(1000)).collect();
                vals.sort_unstable_by(|a, b| b.cmp(a));
                assert!(ef1(&utility(&vals), own, other), "{p:?} {own:b}");
            }
        } else {
            no += 1;
            let shown = (1..=m).any(|k| {
                let vals: Vec<u64> = (0..m)
                    .map(|r| if r < k { 10_000 } else { 0 } + (m - r) as u64)
                    .collect();
                !ef1(&utility(&vals), own, other)
            });
            assert!(shown, "{p:?} {own:b}");
        }
    }
    assert!(yes > 100 && no > 100, "both answers occur: {yes} {no}");
}

#[test]
fn balanced_sequences_are_every_balanced_sequence() {
    for m in 1..=10 {
        let all = balanced_two(m);
        let by_filter: Vec<Vec<u8>> = (0..1u32 << m)
            .map(|code| (0..m).map(|t| (code >> t & 1) as u8).collect::<Vec<u8>>())
            .filter(|t| t[0] == 0 && t.chunks(2).all(|r| r.len() == 1 || r[0] != r[1]))
            .collect();
        let mut sorted = all.clone();
        sorted.sort();
        let mut by_filter = by_filter;
        by_filter.sort();
        assert_eq!(sorted, by_filter, "{m}");
        assert_eq!(all[0], (0..m).map(|t| (t % 2) as u8).collect::<Vec<_>>());
    }
}

/// Every permutation of 0..m.
fn permutations(m: usize) -> Vec<Vec<u8>> {
    if m == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(m - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, (m - 1) as u8);
            out.push(q);
        }
    }
    out
}

/// The two-agent verdicts by plain enumeration: every ranking of B, every balanced
/// sequence, the engine's equilibria and the dinner's EF1.
#[test]
fn two_agent_verdicts_by_plain_enumeration() {
    for m in 1..=5 {
        let got = two_agents(m, true, LIMIT, &Silent).unwrap();
        let mut fails = [0u64; 3];
        let identity: Vec<u8> = (0..m as u8).collect();
        for b in permutations(m) {
            let p = Rankings::new(&[identity.clone(), b]);
            for turns in balanced_two(m) {
                let borda = [0, 1].map(|i| p.utilities(i, Scores::Borda));
                let lex = [0, 1].map(|i| p.utilities(i, Scores::Lexicographic));
                let all = engine_allocations(&borda, &turns);
                fails[0] += u64::from(all.iter().any(|a| !plain_ef1(&borda, m, a)));
                let lex_all = engine_allocations(&lex, &turns);
                assert_eq!(lex_all.len(), 1);
                fails[1] += u64::from(!plain_ef1(&lex, m, &lex_all[0]));
                // Every utility: the extreme utilities of the top k items.
                let extreme = (1..=m).any(|k| {
                    let u = [0, 1].map(|i| {
                        let mut u = [0u64; MAX_ITEMS];
                        for (x, &r) in u.iter_mut().zip(&p.rank[i][..m]) {
                            let r = r as usize;
                            *x = if r < k { 10_000 } else { 0 } + (m - r) as u64;
                        }
                        u
                    });
                    !plain_ef1(&u, m, &lex_all[0])
                });
                fails[2] += u64::from(extreme);
            }
        }
        let counted: Vec<u64> = got.verdicts[1].iter().map(|v| v.failures).collect();
        assert_eq!(counted, fails, "{m} items");
        assert_eq!(
            got.verdicts[1][0].instances,
            (got.profiles) * got.sequences as u64
        );
    }
}

/// The three-agent tied verdicts by plain enumeration: every utility assignment (not
/// only one per multiset), the engine's equilibria and the dinner's EF1; the failing
/// assignments, sorted item by item, are the failing multisets.
#[test]
fn three_agent_verdicts_by_plain_enumeration() {
    for (m, discerning) in (1..=4).flat_map(|m| [(m, false), (m, true)]) {
        let got = three_agents(m, 0..=1, discerning, m <= 3, LIMIT, &Silent).unwrap();
        let turns: Vec<u8> = (0..m).map(|t| (t % 3) as u8).collect();
        let mut failing = std::collections::BTreeSet::new();
        let mut all = std::collections::BTreeSet::new();
        for code in 0..1u32 << (3 * m) {
            let mut u = [[0u64; MAX_ITEMS]; 3];
            let mut items = Vec::new();
            for i in 0..m {
                let t = code >> (3 * i) & 7;
                for (a, row) in u.iter_mut().enumerate() {
                    row[i] = u64::from(t >> (2 - a) & 1);
                }
                items.push(t);
            }
            items.sort();
            if discerning && u.iter().any(|row| row[..m].iter().all(|&x| x == row[0])) {
                continue;
            }
            all.insert(items.clone());
            if engine_allocations(&u, &turns)
                .iter()
                .any(|a| !plain_ef1(&u, m, a))
            {
                failing.insert(items);
            }
        }
        assert_eq!(got.tied.instances, all.len() as u64, "{m}");
        assert_eq!(got.tied.failures, failing.len() as u64, "{m}");
        if m <= 3 {
            assert_eq!(got.borda.instances, (1..=m as u64).product::<u64>().pow(2));
        }
    }
}

/// A random ranking of `0..m`.
fn random_ranking(rng: &mut Rng, m: usize) -> Vec<u8> {
    let mut order: Vec<u8> = (0..m as u8).collect();
    for i in (1..m).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    order
}

/// The lemma behind the uniqueness of the two-agent equilibrium allocation under any
/// strictly decreasing scores (Borda among them): in every subgame, whatever item the
/// mover takes, her bundle after it (with the ordinal equilibrium of what is left) is
/// dominated stochastically by her ordinal equilibrium bundle, and the ordinal
/// equilibrium is one of those choices. Checked in every subgame of random rankings and
/// arbitrary sequences (not only balanced ones) of up to 8 items; and the backward
/// induction that keeps every equilibrium finds that one allocation alone under Borda.
#[test]
fn two_agent_equilibrium_bundles_dominate_every_other_choice() {
    let mut rng = Rng::for_trial(72, 3);
    for _ in 0..200 {
        let m = 1 + rng.below(8) as usize;
        let p = Rankings::new(&[random_ranking(&mut rng, m), random_ranking(&mut rng, m)]);
        let turns: Vec<u8> = (0..m).map(|_| rng.below(2) as u8).collect();
        for left in 1u16..1 << m {
            let k = left.count_ones() as usize;
            let rest = &turns[m - k..];
            let a = rest[0] as usize;
            let best = ordinal_subgame(rest, &p, left)[a];
            let mut reached = false;
            for x in (0..m).filter(|&x| left >> x & 1 == 1) {
                let bundle = ordinal_subgame(&rest[1..], &p, left & !(1 << x))[a] | 1 << x;
                reached |= bundle == best;
                // For every prefix of the mover's ranking, the equilibrium bundle holds
                // at least as many of its items.
                let mut counts = (0, 0);
                for &item in &p.order[a][..m] {
                    counts.0 += (best >> item & 1) as i32;
                    counts.1 += (bundle >> item & 1) as i32;
                    assert!(
                        counts.0 >= counts.1,
                        "{turns:?} left {left:b}: taking {x} beats the equilibrium on a prefix"
                    );
                }
            }
            assert!(
                reached,
                "{turns:?} left {left:b}: no choice reaches the equilibrium"
            );
        }
        let borda = [p.utilities(0, Scores::Borda), p.utilities(1, Scores::Borda)];
        let all = dp_allocations(&borda, &turns);
        let ordinal = ordinal_equilibrium(&turns, &p);
        assert_eq!(all, vec![ordinal.to_vec()], "{turns:?}");
    }
}

/// The shared induction over C's rankings gives the plain enumeration's verdicts, counts
/// and first witnesses, run by run, at every size to 6 items; the runs cover every
/// profile once.
#[test]
fn shared_induction_gives_the_plain_verdicts() {
    for m in 1..=6 {
        let mut profiles = 0;
        for run in 0..shared::strict_runs(m) {
            let fast = shared::strict_run(m, run, LIMIT, true, &Silent).unwrap();
            let plain = shared::strict_run(m, run, LIMIT, false, &Silent).unwrap();
            assert_eq!(fast, plain, "{m} items, run {run}");
            profiles += fast[0].instances;
        }
        let fact: u64 = (1..=m as u64).product();
        assert_eq!(profiles, fact * fact, "{m} items");
    }
}

/// The shared induction's equilibrium allocations are the plain induction's, in the same
/// order, on random profiles (every ranking random, A's too) of 3 to 8 items.
#[test]
fn shared_induction_equals_the_plain_one_on_random_profiles() {
    let mut rng = Rng::for_trial(72, 0);
    let mut spe = Spe::default();
    for m in 3..=8 {
        let mut solver = shared::Shared::new(m);
        let turns: Vec<u8> = (0..m).map(|t| (t % 3) as u8).collect();
        for _ in 0..60 {
            let orders: Vec<Vec<u8>> = (0..3).map(|_| random_ranking(&mut rng, m)).collect();
            let mut p = Rankings::new(&orders);
            for scores in Scores::ALL {
                solver
                    .prepare([p.utilities(0, scores), p.utilities(1, scores)], LIMIT)
                    .unwrap();
                for _ in 0..5 {
                    p.set(2, &random_ranking(&mut rng, m));
                    let u = [0, 1, 2].map(|a| p.utilities(a, scores));
                    let mut code = Vec::new();
                    solver.codes(&p.rank[2], &mut code);
                    let fast = solver.solve(&u[2], &code, LIMIT).unwrap().to_vec();
                    let plain = spe.solve(&u, &turns, LIMIT).unwrap();
                    assert_eq!(fast, plain, "{m} items, {scores:?}, {orders:?}");
                }
            }
        }
    }
}
