//! The kernel against the engine: every tie rule, 2 to 4 players, random dinners.

use super::*;
use crate::engine::{solve_lean, Silent};
use crate::games::dinner::{Dinner, Setup, TurnOrder};
use crate::rng::Rng;

/// A random two-player dinner of `n` morsels, utilities below `span`, alternating
/// or in a random order.
fn two_players(rng: &mut Rng, n: usize, span: u64, alternate: bool) -> (Dinner, TurnOrder) {
    let flat: Vec<i64> = (0..2 * n).map(|_| rng.below(span) as i64).collect();
    let d = Dinner::from_integers(2, flat).expect("dinner");
    let order = if alternate {
        TurnOrder::parse("alternate", &d)
    } else {
        let s: String = (0..n)
            .map(|_| (b'A' + rng.below(2) as u8) as char)
            .collect();
        TurnOrder::parse(&s, &d)
    }
    .expect("order");
    (d, order)
}

/// A random turn order of `d`'s players, a letter a morsel.
fn random_order(rng: &mut Rng, d: &Dinner) -> TurnOrder {
    let s: String = (0..d.len())
        .map(|_| (b'A' + rng.below(d.players() as u64) as u8) as char)
        .collect();
    TurnOrder::parse(&s, d).expect("order")
}

/// Every tie rule: one for everyone by `trial`, and every fifth trial a random rule per
/// player.
fn mixed_ties(rng: &mut Rng, trial: u64, k: usize) -> Ties {
    let rules = [
        TieBreak::First,
        TieBreak::Last,
        TieBreak::Friendly,
        TieBreak::Antagonistic,
    ];
    if trial % 5 == 4 {
        Ties::per_player((0..k).map(|_| rules[rng.below(4) as usize]).collect())
    } else {
        Ties::uniform(rules[(trial % 4) as usize], k)
    }
}

/// The packed words (two players, index rule) give the engine's value and path on
/// random dinners: utilities from 0 up to 2^26, so that the fields are filled to
/// their widths, ties of utility broken by the offsets alone, any turn order.
#[test]
fn packed_words_agree_with_the_engine() {
    let mut rng = Rng::for_trial(30, 2);
    let mut packed = 0;
    for trial in 0..300u64 {
        let n = 1 + rng.below(15) as usize;
        let span = [2, 4, 1000, 1_000_001, 1 << 26][(trial % 5) as usize];
        let (d, order) = two_players(&mut rng, n, span, trial % 3 == 0);
        let ties = Ties::uniform(TieBreak::First, 2);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, true).expect("game");
        let pay = game.plain_payoffs().expect("plain");
        packed += Packing::of(&game, &ties, pay, n).is_some() as usize;
        let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
        // A budget that holds the packed words but not two columns of payoffs.
        let sizes: Vec<u128> = (0..=n).map(|l| game.layer_size(l) as u128).collect();
        let widest = sizes.iter().copied().max().unwrap_or(1);
        let memory = 2 * widest * 8 + sizes.iter().sum::<u128>();
        let Some(got) = solve(&game, &ties, memory, &Silent) else {
            assert!(Packing::of(&game, &ties, pay, n).is_none(), "trial {trial}");
            continue;
        };
        let got = got.expect("kernel");
        assert_eq!(got.value, want.value, "trial {trial}");
        let steps = |s: &LeanSolution<DinnerGame<'_, i64>>| {
            s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
        };
        assert_eq!(steps(&got), steps(&want), "trial {trial}");
        // Every split of the blocks, from all morsels high to all low.
        let packing = Packing::of(&game, &ties, pay, n).expect("packed");
        for split in [0, 1, 2, 3, 5, 8, n] {
            let got =
                run_packed(&game, &ties, &packing, n, memory, split, &Silent).expect("blocks");
            assert_eq!(got.value, want.value, "trial {trial} split {split}");
            assert_eq!(steps(&got), steps(&want), "trial {trial} split {split}");
        }
    }
    // Only the widest utilities of the largest dinners overflow a word's 63 bits.
    assert!(packed > 270, "packed {packed} of 300");
}

/// At sizes where the default split makes full blocks of low morsels under several
/// high ones, the blocks give the engine's value and path: the packed words and the
/// columns (two players under the index rule), the columns alone (two or three
/// players, every rule for each player), on random dinners of 16 to 18 morsels under
/// alternation and random orders, utilities with ties and without.
#[test]
fn blocks_agree_with_the_engine_at_larger_sizes() {
    let mut rng = Rng::for_trial(30, 3);
    let steps = |s: &LeanSolution<DinnerGame<'_, i64>>| {
        s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
    };
    for trial in 0..8u64 {
        let n = 16 + rng.below(3) as usize;
        let span = [3, 1_000_001][(trial % 2) as usize];
        let (d, order) = two_players(&mut rng, n, span, trial < 4);
        let ties = Ties::uniform(TieBreak::First, 2);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, true).expect("game");
        let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
        let pay = game.plain_payoffs().expect("plain");
        let packing = Packing::of(&game, &ties, pay, n).expect("packed");
        let packed =
            run_packed(&game, &ties, &packing, n, u128::MAX, SPLIT, &Silent).expect("blocks");
        let columns = run(&game, &ties, pay, n, u128::MAX, SPLIT, &Silent).expect("columns");
        for got in [packed, columns] {
            assert_eq!(got.value, want.value, "trial {trial}");
            assert_eq!(steps(&got), steps(&want), "trial {trial}");
        }
        // Three players (or two), every rule (the friendly and antagonistic ones
        // through their keys, the payoffs being 32-bit), no index rule.
        let k = 2 + (trial % 2) as usize;
        let flat: Vec<i64> = (0..k * n).map(|_| rng.below(span) as i64).collect();
        let d = Dinner::from_integers(k, flat).expect("dinner");
        let order =
            TurnOrder::parse(if trial < 4 { "snake" } else { "alternate" }, &d).expect("order");
        let rules = [
            TieBreak::First,
            TieBreak::Last,
            TieBreak::Friendly,
            TieBreak::Antagonistic,
        ];
        let ties = Ties::per_player((0..k).map(|_| rules[rng.below(4) as usize]).collect());
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i32>::new(&setup, false).expect("game");
        let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
        let pay = game.plain_payoffs().expect("plain");
        let got = run(&game, &ties, pay, n, u128::MAX, SPLIT, &Silent).expect("columns");
        let steps = |s: &LeanSolution<DinnerGame<'_, i32>>| {
            s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
        };
        assert_eq!(got.value, want.value, "trial {trial}, {k} players");
        assert_eq!(steps(&got), steps(&want), "trial {trial}, {k} players");
    }
}

/// The kernel's value and path equal the engine's lean solve on random plain dinners:
/// 2 to 4 players, 1 to 13 morsels (past [`KEPT_LAYERS`], the path's last bites come
/// from a second solve below its state), utilities with many ties (so the rules matter),
/// every tie rule for everyone and mixed per player, with and without the index rule.
#[test]
fn kernel_agrees_with_the_engine() {
    let mut rng = Rng::for_trial(30, 1);
    for trial in 0..400u64 {
        let k = 2 + (trial % 3) as usize;
        let n = 1 + rng.below(13) as usize;
        let span = [3, 10, 1000][(trial / 3 % 3) as usize];
        let flat: Vec<i64> = (0..k * n).map(|_| rng.below(span) as i64 - 1).collect();
        let d = Dinner::from_integers(k, flat).expect("dinner");
        let order = match trial % 4 {
            0 => TurnOrder::parse("snake", &d).expect("order"),
            1 => TurnOrder::parse("alternate", &d).expect("order"),
            _ => random_order(&mut rng, &d),
        };
        let ties = mixed_ties(&mut rng, trial, k);
        for perturb in [false, true] {
            let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
            let game = DinnerGame::<i32>::new(&setup, perturb).expect("game");
            let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
            let got = solve(&game, &ties, u128::MAX, &Silent)
                .expect("a plain dinner")
                .expect("kernel");
            assert_eq!(got.value, want.value, "trial {trial} perturb {perturb}");
            let steps = |s: &LeanSolution<DinnerGame<'_, i32>>| {
                s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
            };
            assert_eq!(steps(&got), steps(&want), "trial {trial} perturb {perturb}");
            assert_eq!(got.states, want.states);
            // Below the kept layers the path's state was solved again.
            assert_eq!(got.resolved > 0, n > KEPT_LAYERS, "trial {trial}");
            // The columns (which two players under the index rule skip), with every
            // split of the blocks, from all morsels high to all low.
            let pay = game.plain_payoffs().expect("plain");
            for split in [0, 1, 2, 3, 5, 8, n] {
                let got = run(&game, &ties, pay, n, u128::MAX, split, &Silent).expect("run");
                let at = format!("trial {trial} perturb {perturb} split {split}");
                assert_eq!(got.value, want.value, "{at}");
                assert_eq!(steps(&got), steps(&want), "{at}");
            }
            // 64-bit payoffs: the friendly and antagonistic layers walked state by
            // state (their keys need 32-bit payoffs).
            let wide_setup = Setup::ordered(d.clone(), order.clone()).unwrap();
            let wide = DinnerGame::<i64>::new(&wide_setup, perturb).expect("game");
            let pay = wide.plain_payoffs().expect("plain");
            let got = run(&wide, &ties, pay, n, u128::MAX, SPLIT, &Silent).expect("run");
            let value: Vec<i64> = want.value.iter().map(|&v| v as i64).collect();
            assert_eq!(got.value, value, "trial {trial} perturb {perturb} wide");
            let wide_steps: Vec<_> = got.path.iter().map(|x| (x.mover, x.mv)).collect();
            assert_eq!(
                wide_steps,
                steps(&want),
                "trial {trial} perturb {perturb} wide"
            );
        }
    }
}

/// 16-bit columns give the 32-bit columns' value and path where a dinner's payoffs fit
/// them: random plain dinners of 2 to 4 players and up to 14 morsels whose utilities
/// reach the edge of what 16 bits admit (of either sign, every total within
/// `i16::MAX`), every rule for everyone and mixed per player, every split of the blocks.
#[test]
fn sixteen_bit_columns_agree_with_thirty_two_at_their_edge() {
    let mut rng = Rng::for_trial(30, 4);
    let mut narrow = 0;
    for trial in 0..300u64 {
        let k = 2 + (trial % 3) as usize;
        let n = 1 + rng.below(14) as usize;
        // The largest utility whose game surely fits 16 bits: every sum is at most n of
        // them.
        let top = i16::MAX as i64 / n as i64;
        let span = [top, 3, top / 7][(trial / 3 % 3) as usize].max(1);
        let flat: Vec<i64> = (0..k * n)
            .map(|_| rng.below(2 * span as u64 + 1) as i64 - span)
            .collect();
        let d = Dinner::from_integers(k, flat).expect("dinner");
        let order = if trial % 2 == 0 {
            TurnOrder::parse("snake", &d).expect("order")
        } else {
            random_order(&mut rng, &d)
        };
        let ties = mixed_ties(&mut rng, trial, k);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let wide = DinnerGame::<i32>::new(&setup, false).expect("game");
        let want = solve(&wide, &ties, u128::MAX, &Silent)
            .expect("a plain dinner")
            .expect("kernel");
        let Ok(game) = DinnerGame::<i16>::new(&setup, false) else {
            continue;
        };
        narrow += 1;
        let got = solve(&game, &ties, u128::MAX, &Silent)
            .expect("a plain dinner fitting 16 bits")
            .expect("kernel");
        let steps = |path: &[engine::LeanStep<u64, usize>]| {
            path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
        };
        let value: Vec<i32> = got.value.iter().map(|&v| v as i32).collect();
        assert_eq!(value, want.value, "trial {trial}");
        assert_eq!(steps(&got.path), steps(&want.path), "trial {trial}");
        let pay = game.plain_payoffs().expect("plain");
        for split in [0, 1, 3, 8, n] {
            let got = run(&game, &ties, pay, n, u128::MAX, split, &Silent).expect("run");
            let value: Vec<i32> = got.value.iter().map(|&v| v as i32).collect();
            assert_eq!(value, want.value, "trial {trial} split {split}");
            assert_eq!(
                steps(&got.path),
                steps(&want.path),
                "trial {trial} split {split}"
            );
        }
    }
    // The widest utilities were chosen to fit: every dinner ran in 16 bits.
    assert_eq!(narrow, 300);
}

/// A dinner is played in 16 bits exactly while the sum over its morsels of each
/// morsel's largest payoff to anyone (magnitudes, either sign) fits them, and then its
/// solution is the 64-bit one.
#[test]
fn sixteen_bits_hold_exactly_the_dinners_whose_sums_fit() {
    for extra in [0i64, 1] {
        // Seven morsels, each worth most to another player, of either sign.
        let big = [5000i64, -4000, 6000, 3000, -7000, 2000];
        let last = i16::MAX as i64 + extra - big.iter().map(|x| x.abs()).sum::<i64>();
        let flat: Vec<i64> = big
            .iter()
            .chain([last].iter())
            .enumerate()
            .flat_map(|(i, &u)| (0..3).map(move |p| if p == i % 3 { u } else { -(i as i64) }))
            .collect();
        let d = Dinner::from_integers(3, flat).expect("dinner");
        let setup = Setup::ordered(d.clone(), TurnOrder::parse("snake", &d).unwrap()).unwrap();
        let narrow = DinnerGame::<i16>::new(&setup, false);
        assert_eq!(narrow.is_ok(), extra == 0, "sum 32767 + {extra}");
        let Ok(narrow) = narrow else { continue };
        let wide = DinnerGame::<i64>::new(&setup, false).unwrap();
        let ties = Ties::uniform(TieBreak::Friendly, 3);
        let got = solve(&narrow, &ties, u128::MAX, &Silent).unwrap().unwrap();
        let want = solve_lean(&wide, &ties, u128::MAX, &Silent).unwrap();
        let value: Vec<i64> = got.value.iter().map(|&v| v as i64).collect();
        assert_eq!(value, want.value);
    }
}

/// Three and four players' packed words give the engine's value and path: random
/// dinners under the index rule (every player's rule first) of up to 14 morsels,
/// utilities small enough that the words hold them (some filling their fields to the
/// widths) and some too wide (the columns then), snake, alternation and random orders,
/// every split of the blocks.
#[test]
fn packed_words_of_more_players_agree_with_the_engine() {
    let mut rng = Rng::for_trial(30, 5);
    let mut packed = [0; 5];
    for trial in 0..240u64 {
        let k = 3 + (trial % 2) as usize;
        let n = 1 + rng.below(14) as usize;
        let span = [2, 30, 1000, 1 << 12, 1 << 16][(trial / 2 % 5) as usize];
        let flat: Vec<i64> = (0..k * n).map(|_| rng.below(span) as i64).collect();
        let d = Dinner::from_integers(k, flat).expect("dinner");
        let order = match trial % 3 {
            0 => TurnOrder::parse("snake", &d).expect("order"),
            1 => TurnOrder::parse("alternate", &d).expect("order"),
            _ => random_order(&mut rng, &d),
        };
        let ties = Ties::uniform(TieBreak::First, k);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, true).expect("game");
        let pay = game.plain_payoffs().expect("plain");
        let want = solve_lean(&game, &ties, u128::MAX, &Silent).expect("engine");
        let steps = |s: &LeanSolution<DinnerGame<'_, i64>>| {
            s.path.iter().map(|x| (x.mover, x.mv)).collect::<Vec<_>>()
        };
        let Some(packing) = Packing::of(&game, &ties, pay, n) else {
            continue;
        };
        packed[(trial / 2 % 5) as usize] += 1;
        for split in [0, 1, 3, 8, n] {
            let got =
                run_packed(&game, &ties, &packing, n, u128::MAX, split, &Silent).expect("blocks");
            assert_eq!(got.value, want.value, "trial {trial} split {split}");
            assert_eq!(steps(&got), steps(&want), "trial {trial} split {split}");
        }
        let got = solve(&game, &ties, u128::MAX, &Silent)
            .expect("plain")
            .expect("kernel");
        assert_eq!(got.value, want.value, "trial {trial}");
    }
    // Small utilities always pack; the widest never with four players.
    assert_eq!(packed[0], 48, "{packed:?}");
    assert!(packed[3] > 0 && packed[4] < 48, "{packed:?}");
}
