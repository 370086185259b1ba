//! Two independent routes: crossout (the paper's theory) against brute force by the
//! generic engine, on every small dinner and on thousands of random ones, for any
//! two-player turn order; and crossout checked as subgame perfect by the verifier.

use proptest::prelude::*;

use crate::engine::{solve, verify, Budget, Silent, TieBreak, Ties, Verdict};

use crate::games::dinner::model::Setup;
use crate::games::dinner::{
    all_spe_scores, crossout, solve_exact, Bite, Dinner, DinnerGame, DinnerTies, Rules,
    Strategy as Play, TurnOrder, DEFAULT_DINNER_MEMORY,
};

/// A two-player dinner from (a, b) pairs.
pub(crate) fn dinner_of(values: &[(i64, i64)]) -> Dinner {
    Dinner::from_integers(2, values.iter().flat_map(|&(a, b)| [a, b]).collect()).unwrap()
}

/// A two-player turn order from bits (0 = A).
pub(crate) fn order_of(d: &Dinner, bits: u64) -> TurnOrder {
    let spec: String = (0..d.len())
        .map(|t| if bits >> t & 1 == 0 { 'A' } else { 'B' })
        .collect();
    TurnOrder::parse(&spec, d).unwrap()
}

/// Crossout and the exact solver (index tie rule) give the same split and scores.
fn assert_agree(d: &Dinner, order: &TurnOrder) {
    let co = crossout(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap();
    let ex = solve_exact(
        &Setup::new(d.clone(), order.clone(), Rules::default()).expect("a valid setup"),
        &DinnerTies::Index,
        Budget::default(),
        DEFAULT_DINNER_MEMORY,
        &Silent,
        None,
    )
    .unwrap();
    let co_scores: Vec<_> = co.scores.iter().map(|&s| d.unscale(s)).collect();
    assert_eq!(
        co_scores, ex.scores,
        "scores differ for {d:?} order {order}"
    );
    let split = |bites: &[Bite]| {
        let mut v: Vec<(usize, usize)> = bites.iter().map(|b| (b.morsel, b.player)).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(
        split(&co.eating().collect::<Vec<_>>()),
        split(&ex.eating),
        "split differs for {d:?} order {order}"
    );
    // With the index rule every player's utilities are distinct, so the equilibrium play
    // is unique up to the order of bites that do not matter; the first bite is the
    // crossout strategy c(D) whenever the mover's choice is strict.
}

#[test]
fn every_permutation_dinner_and_order_up_to_6() {
    fn permutations(n: usize) -> Vec<Vec<i64>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for pos in 0..=p.len() {
                let mut q = p.clone();
                q.insert(pos, n as i64);
                out.push(q);
            }
        }
        out
    }
    for n in 1..=6 {
        for perm in permutations(n) {
            let d = Dinner::permutation(&perm).unwrap();
            for bits in 0..1u64 << n {
                assert_agree(&d, &order_of(&d, bits));
            }
        }
    }
}

#[test]
fn every_dinner_with_ties_up_to_4() {
    // Utilities in {0, 1, 2}: ties everywhere, to pin the documented tie rule.
    for n in 1..=4usize {
        for code in 0..3u64.pow(2 * n as u32) {
            let mut c = code;
            let values: Vec<(i64, i64)> = (0..n)
                .map(|_| {
                    let a = (c % 3) as i64;
                    c /= 3;
                    let b = (c % 3) as i64;
                    c /= 3;
                    (a, b)
                })
                .collect();
            let d = dinner_of(&values);
            for bits in 0..1u64 << n {
                assert_agree(&d, &order_of(&d, bits));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random dinners (with ties) and random turn orders: crossout equals the exact SPE.
    #[test]
    fn crossout_equals_exact_spe(
        values in prop::collection::vec((-20i64..20, -20i64..20), 1..=11),
        bits in any::<u64>(),
    ) {
        let d = dinner_of(&values);
        assert_agree(&d, &order_of(&d, bits));
    }

    /// Utilities spanning nearly all of i64 take crossout's wide-key ranking path; the
    /// exact solver then needs 128-bit payoffs. Both routes still agree.
    #[test]
    fn crossout_equals_exact_spe_on_huge_utilities(
        values in prop::collection::vec((-3i64..=3, -3i64..=3), 1..=8),
        bits in any::<u64>(),
    ) {
        const BIG: i64 = 3_000_000_000_000_000_000;
        let wide: Vec<(i64, i64)> = values.iter().map(|&(a, b)| (a * BIG, b * BIG)).collect();
        let d = dinner_of(&wide);
        assert_agree(&d, &order_of(&d, bits));
    }

    /// Crossout's scores are the scores of every SPE when utilities are distinct: all
    /// tie-breaking rules of the engine give them (the SPE outcome is unique).
    #[test]
    fn distinct_utilities_make_the_outcome_unique(
        perm in Just((1..=8i64).collect::<Vec<_>>()).prop_shuffle(),
        bits in any::<u64>(),
    ) {
        let d = Dinner::permutation(&perm).unwrap();
        let order = order_of(&d, bits);
        let co = crossout(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap();
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, false).unwrap();
        for rule in TieBreak::ALL {
            let sol = solve(&game, &Ties::uniform(rule, 2), Budget::default()).unwrap();
            prop_assert_eq!(sol.root_value(), &[co.scores[0] as i64, co.scores[1] as i64][..]);
        }
        let all = all_spe_scores(&Setup::new(d.clone(), order.clone(), Rules::default()).expect("a valid setup"), Budget::default(), &Silent).unwrap();
        prop_assert_eq!(all.len(), 1);
    }

    /// The verifier finds no profitable one-shot deviation from (crossout, crossout),
    /// on the real utilities, ties included.
    #[test]
    fn crossout_is_subgame_perfect(
        values in prop::collection::vec((0i64..6, 0i64..6), 1..=8),
        bits in any::<u64>(),
    ) {
        let d = dinner_of(&values);
        let order = order_of(&d, bits);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, false).unwrap();
        let verdict = verify(&game, Budget::default(), |s, _| Play::Crossout.choose(&d, &order, *s).unwrap()).unwrap();
        prop_assert!(matches!(verdict, Verdict::SubgamePerfect { .. }), "{:?}", verdict);
    }

    /// Exercise (paper, after Figure 4): under crossout the first player eventually eats
    /// her favourite morsel.
    #[test]
    fn first_player_eats_her_favourite(
        perm in Just((1..=12i64).collect::<Vec<_>>()).prop_shuffle(),
        len in 1usize..=12,
    ) {
        let b: Vec<i64> = perm.into_iter().filter(|&x| x <= len as i64).collect();
        let d = Dinner::permutation(&b).unwrap();
        let order = TurnOrder::default_for(&d);
        let co = crossout(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap();
        let first = order.player(0);
        let favourite = (0..d.len()).max_by_key(|&i| d.utility(i, first)).unwrap();
        prop_assert!(co.eating().any(|bite| bite.player == first && bite.morsel == favourite));
    }

    /// Three players: the dense parallel solver and the sparse solver agree.
    #[test]
    fn dense_equals_sparse_for_three_players(
        values in prop::collection::vec((0i64..5, 0i64..5, 0i64..5), 1..=9),
        rule in prop::sample::select(TieBreak::ALL.to_vec()),
    ) {
        let d = Dinner::from_integers(3, values.iter().flat_map(|&(a, b, c)| [a, b, c]).collect()).unwrap();
        let order = TurnOrder::default_for(&d);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, false).unwrap();
        let ties = Ties::uniform(rule, 3);
        let sparse = solve(&game, &ties, Budget::default()).unwrap();
        let dense = crate::engine::solve_dense(&game, &ties, Budget::default(), &Silent).unwrap();
        prop_assert_eq!(sparse.root_value(), dense.root_value());
        prop_assert_eq!(sparse.path(), dense.path());
    }
}

#[test]
fn greedy_is_not_an_equilibrium_of_the_introduction() {
    let d = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
    let order = TurnOrder::parse("ABA", &d).unwrap();
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<i64>::new(&setup, false).unwrap();
    let v = verify(&game, Budget::default(), |s, _| {
        Play::Greedy.choose(&d, &order, *s).unwrap()
    })
    .unwrap();
    match v {
        Verdict::Deviation(dev) => {
            assert_eq!(dev.state, 0b111);
            assert_eq!(
                (dev.player, dev.prescribed, dev.better, dev.gain),
                (0, 2, 1, 1)
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn budget_refuses_with_the_size() {
    let d = Dinner::from_integers(2, (0..60).collect()).unwrap();
    let order = TurnOrder::default_for(&d);
    let err = solve_exact(
        &Setup::new(d.clone(), order.clone(), Rules::default()).expect("a valid setup"),
        &DinnerTies::Index,
        Budget { max_states: 1000 },
        DEFAULT_DINNER_MEMORY,
        &Silent,
        None,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("2^30 = 1073741824 states"),
        "{err}"
    );
}

/// Dinners past [`super::LEAN_FROM`] morsels, solved with the default memory (a choice
/// byte per state) and with just enough for two layers (the path re-solved, or the
/// kernel's layers where they are smaller still): the same eating order and
/// scores, for two players also crossout's; one byte less is refused with the sizes.
#[test]
fn lean_dinners_recover_the_path_by_resolving() {
    let mut routes = [0; 2];
    for (players, n, seed) in [(2usize, 22usize, 1u64), (3, 22, 2), (2, 23, 3), (4, 22, 4)] {
        let mut rng = crate::rng::Rng::for_trial(seed, 7);
        let values: Vec<i64> = (0..n * players).map(|_| rng.below(5) as i64).collect();
        let d = Dinner::from_integers(players, values).unwrap();
        let order = TurnOrder::default_for(&d);
        let setup = Setup::new(d.clone(), order.clone(), Rules::default()).unwrap();
        let solve = |memory: u128| {
            solve_exact(
                &setup,
                &DinnerTies::Index,
                Budget::default(),
                memory,
                &Silent,
                None,
            )
        };
        let roomy = solve(DEFAULT_DINNER_MEMORY).unwrap();
        assert_eq!(
            roomy.recovery,
            Some(crate::engine::PathRecovery::ChoiceBytes)
        );
        // The least memory the solver takes, at the width it picks (the narrowest that
        // holds the payoffs): the engine's for re-solving, or the kernel's where its
        // layout is more compact.
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let ties = DinnerTies::Index.for_engine(players);
        let (engine, kernel) = match DinnerGame::<i16>::new(&setup, true) {
            Ok(game) => (
                crate::engine::lean_bytes_resolving(&game),
                super::kernel::bytes(&game, &ties),
            ),
            Err(_) => {
                let game = DinnerGame::<i32>::new(&setup, true).unwrap();
                (
                    crate::engine::lean_bytes_resolving(&game),
                    super::kernel::bytes(&game, &ties),
                )
            }
        };
        let by_kernel = kernel.is_some_and(|k| k <= engine);
        routes[by_kernel as usize] += 1;
        let tight = kernel.filter(|_| by_kernel).unwrap_or(engine);
        let lean = solve(tight).unwrap();
        assert_eq!(lean.eating, roomy.eating, "{players} x {n}");
        assert_eq!(lean.scores, roomy.scores);
        if by_kernel {
            assert_eq!(
                lean.recovery,
                Some(crate::engine::PathRecovery::ChoiceBytes)
            );
        } else {
            assert_eq!(lean.recovery, Some(crate::engine::PathRecovery::Resolving));
            assert!(lean.resolved > 1 << (n - 2), "{}", lean.resolved);
        }
        if players == 2 {
            assert_agree(&d, &order);
            let co = crossout(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap();
            let co_scores: Vec<_> = co.scores.iter().map(|&s| d.unscale(s)).collect();
            assert_eq!(co_scores, lean.scores);
        }
        let err = solve(tight - 1).unwrap_err().to_string();
        assert!(err.contains("over the memory budget"), "{err}");
    }
    // The engine re-solved at least one of them.
    assert!(routes[0] > 0, "{routes:?}");
}

/// Alice's payoff is f_A(her utilities) = sum of squares, Bob's is f_B = product: both
/// symmetric and strictly increasing in each (positive) coordinate, so by the paper's
/// "Generalized payoffs" crossout is still an equilibrium. The state must remember who
/// ate what, so this is its own small engine game.
struct OrderOnly<'d> {
    d: &'d Dinner,
    order: &'d TurnOrder,
}

impl crate::engine::Game for OrderOnly<'_> {
    /// (remaining, eaten by Alice)
    type State = (u64, u64);
    type Move = usize;
    type Payoff = i128;
    fn players(&self) -> usize {
        2
    }
    fn root(&self) -> (u64, u64) {
        ((1 << self.d.len()) - 1, 0)
    }
    fn to_move(&self, s: &(u64, u64)) -> Option<usize> {
        let left = s.0.count_ones() as usize;
        (left > 0).then(|| self.order.player(self.d.len() - left))
    }
    fn moves(&self, s: &(u64, u64), out: &mut Vec<usize>) {
        out.extend((0..self.d.len()).filter(|i| s.0 >> i & 1 == 1));
    }
    fn play(&self, s: &(u64, u64), m: &usize) -> (u64, u64) {
        let alice = if self.to_move(s) == Some(0) {
            s.1 | 1 << m
        } else {
            s.1
        };
        (s.0 & !(1 << m), alice)
    }
    fn terminal_payoff(&self, s: &(u64, u64), p: usize) -> i128 {
        let n = self.d.len();
        let mine = (0..n).filter(|i| (s.1 >> i & 1 == 1) == (p == 0));
        let utilities = mine.map(|i| self.d.utility(i, p) as i128);
        if p == 0 {
            utilities.map(|u| u * u).sum()
        } else {
            utilities.product()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Crossout depends only on each player's ranking of the morsels: a strictly
    /// increasing change of utilities (ties kept) leaves the eating order unchanged.
    #[test]
    fn crossout_sees_only_the_order_of_utilities(
        values in prop::collection::vec((-9i64..10, -9i64..10), 1..=12),
        bits in any::<u64>(),
    ) {
        let d = dinner_of(&values);
        let order = order_of(&d, bits);
        let warped: Vec<(i64, i64)> = values.iter().map(|&(a, b)| (a * a * a + 7 * a + 1000, 3 * b - 40)).collect();
        let w = dinner_of(&warped);
        let c1: Vec<Bite> = crossout(&Setup::ordered(d.clone(), order.clone()).unwrap()).unwrap().eating().collect();
        let c2: Vec<Bite> = crossout(&Setup::ordered(w.clone(), order.clone()).unwrap()).unwrap().eating().collect();
        prop_assert_eq!(c1, c2);
    }

    /// With the non-additive, order-only payoffs above, (crossout, crossout) is still
    /// subgame perfect (verifier over every history-dependent state).
    #[test]
    fn crossout_is_an_equilibrium_for_order_only_payoffs(
        perm in Just((1..=7i64).collect::<Vec<_>>()).prop_shuffle(),
        len in 1usize..=7,
        bits in any::<u64>(),
    ) {
        let b: Vec<i64> = perm.into_iter().filter(|&x| x <= len as i64).collect();
        let d = Dinner::permutation(&b).unwrap();
        let order = order_of(&d, bits);
        let game = OrderOnly { d: &d, order: &order };
        let verdict = verify(&game, Budget::default(), |s, _| Play::Crossout.choose(&d, &order, s.0).unwrap()).unwrap();
        prop_assert!(matches!(verdict, Verdict::SubgamePerfect { .. }), "{:?}", verdict);
    }

    /// Inaccessible morsels: the engine over down-sets equals a plain recursion over the
    /// legal eating orders (no memo, no engine), index tie rule on both sides.
    #[test]
    fn partial_orders_match_a_plain_recursion(
        values in prop::collection::vec((0i64..6, 0i64..6), 1..=7),
        edges in prop::collection::vec((0usize..7, 0usize..7), 0..8),
        bits in any::<u64>(),
    ) {
        let d = dinner_of(&values);
        let n = d.len();
        let order = order_of(&d, bits);
        let spec: Vec<String> = edges.iter().filter(|(i, j)| i < j && *j < n).map(|(i, j)| format!("{i}<{j}")).collect();
        let before = crate::games::dinner::Precedence::parse(&spec.join(","), &d).unwrap();
        let rules = Rules::default().with_before(before.clone());
        let fast = solve_exact(
&Setup::new(d.clone(), order.clone(), rules.clone()).expect("a valid setup"), &DinnerTies::Index, Budget::default(), DEFAULT_DINNER_MEMORY, &Silent, None).unwrap();
        // Perturbed utilities as in the index rule: u * n^2 + (n - 1 - i).
        let m = (n * n) as i64;
        fn best(d: &Dinner, order: &TurnOrder, before: &crate::games::dinner::Precedence, left: u64, m: i64) -> (i64, i64) {
            let n = d.len();
            let k = left.count_ones() as usize;
            if k == 0 {
                return (0, 0);
            }
            let p = order.player(n - k);
            let mut top: Option<(i64, i64)> = None;
            for i in (0..n).filter(|&i| left >> i & 1 == 1 && before.accessible(i, left)) {
                let (a, b) = best(d, order, before, left & !(1 << i), m);
                let gain = d.utility(i, p) * m + (n - 1 - i) as i64;
                let v = if p == 0 { (a + gain, b) } else { (a, b + gain) };
                let own = |x: (i64, i64)| if p == 0 { x.0 } else { x.1 };
                if top.is_none_or(|t| own(v) > own(t)) {
                    top = Some(v);
                }
            }
            top.expect("a legal move exists")
        }
        let (a, b) = best(&d, &order, &before, (1 << n) - 1, m);
        prop_assert_eq!(fast.scores, vec![d.unscale((a.div_euclid(m)) as i128), d.unscale((b.div_euclid(m)) as i128)]);
        // The eating order respects the partial order.
        let mut eaten = 0u64;
        for bite in &fast.eating {
            prop_assert_eq!(before.before(bite.morsel) & !eaten, 0);
            eaten |= 1 << bite.morsel;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The memory-lean solver (two layers, ranks, choice bytes) against the full table:
    /// the same root values and the same equilibrium path, for 2 to 4 players, up to 20
    /// morsels, every tie rule (also one per player) and the index rule's perturbation.
    #[test]
    fn lean_equals_the_full_table(
        players in 2usize..=4,
        len in prop_oneof![1usize..=12, 13usize..=20],
        seed in any::<u64>(),
        rules in prop::collection::vec(prop::sample::select(TieBreak::ALL.to_vec()), 4),
        perturb in any::<bool>(),
    ) {
        let mut rng = crate::rng::Rng::for_trial(seed, 0);
        let values: Vec<i64> = (0..len * players).map(|_| rng.below(6) as i64).collect();
        let d = Dinner::from_integers(players, values).unwrap();
        let order = TurnOrder::default_for(&d);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, perturb).unwrap();
        let ties = Ties::per_player(rules[..players].to_vec());
        let dense = crate::engine::solve_dense(&game, &ties, Budget::default(), &Silent).unwrap();
        let lean = crate::engine::solve_lean(&game, &ties, u128::MAX, &Silent).unwrap();
        prop_assert_eq!(&lean.value[..], dense.root_value());
        let full: Vec<(u64, usize, usize)> =
            dense.path().into_iter().map(|s| (s.state, s.mover, s.mv)).collect();
        let mine: Vec<(u64, usize, usize)> =
            lean.path.into_iter().map(|s| (s.state, s.mover, s.mv)).collect();
        prop_assert_eq!(&mine, &full);
        prop_assert_eq!(lean.states, 1u64 << len);
        // Narrower payoffs (the solver's first choice when they hold every sum) change
        // nothing.
        let narrow_setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let narrow = DinnerGame::<i32>::new(&narrow_setup, perturb).unwrap();
        let lean32 = crate::engine::solve_lean(&narrow, &ties, u128::MAX, &Silent).unwrap();
        let wide: Vec<i64> = lean32.value.iter().map(|&v| i64::from(v)).collect();
        prop_assert_eq!(&wide[..], dense.root_value());
        let path32: Vec<(u64, usize, usize)> =
            lean32.path.into_iter().map(|s| (s.state, s.mover, s.mv)).collect();
        prop_assert_eq!(path32, full.clone());
        // With memory for two layers but not for the choice bytes, the path is recovered
        // by re-solving below each of its states: the same values and path; one byte
        // less and the solve is refused before it starts.
        let tight = crate::engine::lean_bytes_resolving(&game);
        prop_assert!(tight < crate::engine::lean_bytes(&game));
        let re = crate::engine::solve_lean(&game, &ties, tight, &Silent).unwrap();
        prop_assert_eq!(re.recovery, crate::engine::PathRecovery::Resolving);
        prop_assert_eq!(&re.value[..], dense.root_value());
        let resolved: Vec<(u64, usize, usize)> =
            re.path.into_iter().map(|s| (s.state, s.mover, s.mv)).collect();
        prop_assert_eq!(&resolved, &full);
        // Below the path's second state, 2^(n-1) + 2^(n-2) + ... states.
        let expect: u64 = full.iter().skip(1).map(|s| 1u64 << s.0.count_ones()).sum();
        prop_assert_eq!(re.resolved, expect);
        let refused = crate::engine::solve_lean(&game, &ties, tight - 1, &Silent);
        let is_refusal = matches!(refused, Err(crate::engine::EngineError::OverMemory { .. }));
        prop_assert!(is_refusal);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// All SPE outcomes layer by layer (two layers of flat sets, narrow payoffs) equal the
    /// engine's hash-map route over `i128` payoffs, for 2 to 4 players, with many ties
    /// (utilities 0 to 3), plain or discounted.
    #[test]
    fn lean_outcomes_equal_the_hash_map_route(
        players in 2usize..=4,
        len in 1usize..=11,
        seed in any::<u64>(),
        discount in any::<bool>(),
    ) {
        let mut rng = crate::rng::Rng::for_trial(seed, 1);
        let values: Vec<i64> = (0..len * players).map(|_| rng.below(4) as i64).collect();
        let d = Dinner::from_integers(players, values).unwrap();
        let order = TurnOrder::default_for(&d);
        let rules = if discount {
            Rules::default().with_discount("1/2".parse().unwrap()).unwrap()
        } else {
            Rules::default()
        };
        let setup = Setup::new(d.clone(), order.clone(), rules.clone()).unwrap();
        let game = DinnerGame::<i128>::new(&setup, false).unwrap();
        let want: Vec<Vec<_>> = crate::engine::all_outcomes(&game, Budget::default())
            .unwrap()
            .into_iter()
            .map(|v| v.into_iter().map(|x| game.real(x)).collect())
            .collect();
        let setup = Setup::new(d.clone(), order.clone(), rules.clone()).unwrap();
        let got = all_spe_scores(&setup, Budget::default(), &Silent).unwrap();
        prop_assert_eq!(got, want);
        let lean = crate::engine::all_outcomes_lean(&game, u128::MAX, &Silent).unwrap();
        prop_assert_eq!(lean, crate::engine::all_outcomes(&game, Budget::default()).unwrap());
    }
}

/// The sets' memory budget stops a run with a one-line error naming the layer.
#[test]
fn lean_outcomes_refuse_past_their_memory() {
    let d = Dinner::from_integers(3, vec![1; 3 * 12]).unwrap();
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<i64>::new(&setup, false).unwrap();
    let e = crate::engine::all_outcomes_lean(&game, 10_000, &Silent).unwrap_err();
    assert!(
        e.to_string().contains("outgrew the memory budget at layer"),
        "{e}"
    );
}

/// Colexicographic ranks: a bijection onto `0..C(n, l)` in each layer, in increasing
/// order of the masks, walked by `next_in_layer`; the table route equals the plain sum
/// above 32 morsels' worth of bits.
#[test]
fn colex_ranks_number_each_layer() {
    use crate::engine::{IndexedGame, RankedGame};
    for n in [1usize, 5, 11, 14, 20] {
        let d = Dinner::from_integers(2, vec![1; 2 * n]).unwrap();
        let order = TurnOrder::default_for(&d);
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i64>::new(&setup, false).unwrap();
        let mut seen = vec![0usize; n + 1];
        for mask in 0..1usize << n {
            let l = game.layer(mask).unwrap();
            assert_eq!(game.rank(mask), seen[l], "n {n} mask {mask:b}");
            assert_eq!(game.unrank(l, seen[l]), mask);
            if seen[l] > 0 {
                assert_eq!(game.next_in_layer(l, game.unrank(l, seen[l] - 1)), mask);
            }
            seen[l] += 1;
        }
        for (l, &count) in seen.iter().enumerate() {
            assert_eq!(count, game.layer_size(l), "n {n} layer {l}");
        }
    }
    let d = Dinner::from_integers(2, vec![1; 2 * 40]).unwrap();
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<i64>::new(&setup, false).unwrap();
    let mut rng = crate::rng::Rng::for_trial(3, 0);
    for _ in 0..2000 {
        let high = if rng.below(2) == 1 {
            rng.below(256) as usize
        } else {
            0
        };
        let mask = rng.below(1 << 32) as usize | high << 32;
        let l = mask.count_ones() as usize;
        assert_eq!(game.unrank(l, game.rank(mask)), mask, "{mask:b}");
    }
}

/// A dinner of `k` players from a flat list of utilities (drawn from a small range, so
/// that ties are common) and a turn order from `turns` (player indices).
fn profile_case(k: usize, utilities: &[i64], turns: &[usize]) -> (Dinner, TurnOrder) {
    let n = utilities.len() / k;
    let d = Dinner::from_integers(k, utilities[..n * k].to_vec()).unwrap();
    let spec: String = turns[..n]
        .iter()
        .map(|&p| (b'A' + (p % k) as u8) as char)
        .collect();
    (d.clone(), TurnOrder::parse(&spec, &d).unwrap())
}

fn assert_profile_plays_alike(d: &Dinner, order: &TurnOrder, profile: &[Play]) {
    let fast =
        crate::games::dinner::evaluate(&Setup::ordered(d.clone(), order.clone()).unwrap(), profile);
    let slow = crate::games::dinner::theory::strategies::evaluate_by_recomputation(
        &Setup::ordered(d.clone(), order.clone()).unwrap(),
        profile,
    );
    match (fast, slow) {
        (Ok(fast), Ok(slow)) => assert_eq!(fast, slow, "{profile:?} on {d:?} under {order}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("{profile:?}: {a:?} against {b:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Mixed profiles: the plan kept along the play eats what crossout
    /// recomputed on every turn eats, against every strategy, on dinners of every size
    /// class up to 300 morsels, with many ties and any turn order.
    #[test]
    fn mixed_profiles_play_as_recomputed(
        size in prop_oneof![1usize..12, 12usize..60, 60usize..300],
        range in prop_oneof![Just(3i64), Just(50), Just(1_000_000_000)],
        seed in any::<u64>(),
        a in 0usize..5,
        b in 0usize..5,
        alike in 0usize..3,
    ) {
        let mut rng = crate::rng::Rng::for_trial(seed, 0);
        // B's utilities independent of A's, equal to them, or nearly (the next bite
        // then comes by coupling, with the plan's bites put off).
        let utilities: Vec<i64> = (0..size)
            .flat_map(|_| {
                let u = rng.below(range as u64) as i64 - range / 3;
                let v = match alike {
                    0 => rng.below(range as u64) as i64 - range / 3,
                    1 => u,
                    _ => 8 * u + rng.below(24) as i64,
                };
                [u, v]
            })
            .collect();
        // Half the orders alternate (the default), half are drawn.
        let drawn = rng.below(2) == 1;
        let turns: Vec<usize> = (0..size)
            .map(|i| if drawn { rng.below(2) as usize } else { (size - i) % 2 })
            .collect();
        let (d, order) = profile_case(2, &utilities, &turns);
        assert_profile_plays_alike(&d, &order, &[Play::ALL[a], Play::ALL[b]]);
    }

    /// Three players: the fixed lists against the per-turn choice (crossout refused alike).
    #[test]
    fn three_player_profiles_play_as_recomputed(
        size in 1usize..80,
        seed in any::<u64>(),
        a in 0usize..5,
        b in 0usize..5,
        c in 0usize..4,
    ) {
        let mut rng = crate::rng::Rng::for_trial(seed, 0);
        let utilities: Vec<i64> = (0..3 * size).map(|_| rng.below(7) as i64 - 2).collect();
        let turns: Vec<usize> = (0..size).map(|_| rng.below(3) as usize).collect();
        let (d, order) = profile_case(3, &utilities, &turns);
        assert_profile_plays_alike(&d, &order, &[Play::ALL[a], Play::ALL[b], Play::ALL[c]]);
    }
}

/// Every profile of two strategies on every two-player dinner of up to 4 morsels with
/// utilities 0, 1, 2 (ties everywhere), under every turn order.
#[test]
fn every_small_profile_plays_as_recomputed() {
    for n in 1..=4usize {
        for code in 0..3u64.pow(2 * n as u32) {
            let utilities: Vec<i64> = (0..2 * n)
                .map(|i| (code / 3u64.pow(i as u32) % 3) as i64)
                .collect();
            for bits in 0..1u64 << n {
                let d = Dinner::from_integers(2, utilities.clone()).unwrap();
                let order = order_of(&d, bits);
                for a in Play::ALL {
                    for b in Play::ALL {
                        assert_profile_plays_alike(&d, &order, &[a, b]);
                    }
                }
            }
        }
    }
}

/// Mixed profiles at a size the proptests do not reach: 1,500 morsels with
/// independent, tied, correlated, identical and nearly identical rankings (on the last
/// two, most planned morsels change sides on each of a masochist's bites, and the
/// coupling answers), crossout in either seat against
/// every other strategy, under alternation and a random order, against the per-turn
/// recomputation.
#[test]
fn mixed_profiles_play_as_recomputed_at_1500_morsels() {
    let n = 1500;
    let mut rng = crate::rng::Rng::for_trial(30, 5);
    for (kind, bits) in [(0, false), (1, true), (2, true), (3, false), (4, true)] {
        let mut utilities = Vec::with_capacity(2 * n);
        for _ in 0..n {
            let a = rng.below(1_000_000_000) as i64;
            let b = match kind {
                0 => rng.below(1_000_000_000) as i64,
                1 => rng.below(40) as i64,
                2 => a + rng.below(100_000_000) as i64,
                3 => a,
                _ => a + rng.below(5_000_000) as i64,
            };
            utilities.extend([if kind == 1 { a % 40 } else { a }, b]);
        }
        let turns: Vec<usize> = (0..n)
            .map(|i| {
                if bits {
                    rng.below(2) as usize
                } else {
                    (i + 1) % 2
                }
            })
            .collect();
        let (d, order) = profile_case(2, &utilities, &turns);
        for other in Play::ALL.into_iter().filter(|&s| s != Play::Crossout) {
            assert_profile_plays_alike(&d, &order, &[Play::Crossout, other]);
            assert_profile_plays_alike(&d, &order, &[other, Play::Crossout]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every subgame perfect outcome of the family's solver (all SPE scores over
    /// subsets) is the reference solver's (every pure profile of the unfolded tree), on
    /// dinners of up to three morsels and two or three players, with ties, any order and
    /// under a discount or a precedence.
    #[test]
    fn all_spe_scores_equal_the_reference(
        players in 2usize..=3,
        values in prop::collection::vec(-2i64..3, 9),
        n in 1usize..=3,
        turns in prop::collection::vec(0u8..3, 3),
        rule in 0u8..3,
    ) {
        let d = Dinner::from_integers(players, values[..n * players].to_vec()).unwrap();
        let spec: String = turns[..n].iter().map(|&t| char::from(b'A' + t % players as u8)).collect();
        let order = TurnOrder::parse(&spec, &d).unwrap();
        let rules = match rule {
            0 => Rules::default(),
            1 => Rules::default().with_discount(crate::exact::Exact::new(1, 2).unwrap()).unwrap(),
            // Morsel 0 before the last (no precedence on a single morsel).
            _ if n > 1 => Rules::default().with_before(
                crate::games::dinner::Precedence::parse(&format!("0<{}", n - 1), &d).unwrap(),
            ),
            _ => Rules::default(),
        };
        let setup = Setup::new(d, order, rules).unwrap();
        let game = DinnerGame::<i128>::new(&setup, false).unwrap();
        let reference: Vec<Vec<crate::exact::Exact>> = crate::engine::reference::game_outcomes(&game, 10_000)
            .expect("a small tree")
            .iter()
            .map(|v| v.iter().map(|&x| game.real(x)).collect())
            .collect();
        let fast = all_spe_scores(&setup, Budget::default(), &Silent).unwrap();
        prop_assert_eq!(fast, reference);
    }
}
