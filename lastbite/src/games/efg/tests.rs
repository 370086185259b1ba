//! Cross-checks of the `.efg` solver against independent routes: a plain recursive
//! backward induction with its own tie-breaking, the generic engine (on chance-free
//! games), brute-force enumeration of pure profiles for all SPE outcomes, and parse/write
//! round trips.

use std::collections::BTreeSet;

use super::*;
use crate::engine::{self, Budget, Silent, TieBreak, Ties};

fn spec(seed: u64, nodes: u64, chance: u32) -> RandomSpec {
    RandomSpec {
        nodes,
        players: 1 + (seed % 3) as u32,
        max_actions: 3,
        chance,
        outcomes: 30,
        payoff_range: 2,
        seed,
    }
}

/// Plain backward induction, written from the definitions without the solver's code.
fn plain(efg: &Efg, n: u32, rules: &[TieBreak]) -> Vec<Rational> {
    let k = efg.players().len();
    let mut v = match efg.nodes()[n as usize].kind {
        NodeKind::Terminal => vec![Rational::zero(); k],
        NodeKind::Chance { infoset } => {
            let mut acc = vec![Rational::zero(); k];
            for (&c, p) in efg.children(n).iter().zip(efg.probabilities(infoset)) {
                let child = plain(efg, c, rules);
                for j in 0..k {
                    acc[j] = acc[j].add(&Rational::from_exact(*p).mul(&child[j]));
                }
            }
            acc
        }
        NodeKind::Personal { player, .. } => {
            let p = player as usize;
            let options: Vec<Vec<Rational>> = efg
                .children(n)
                .iter()
                .map(|&c| plain(efg, c, rules))
                .collect();
            let top = options.iter().map(|o| o[p].clone()).max().unwrap();
            let best: Vec<&Vec<Rational>> = options.iter().filter(|o| o[p] == top).collect();
            let others = |o: &Vec<Rational>| {
                o.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != p)
                    .fold(Rational::zero(), |a, (_, x)| a.add(x))
            };
            let pick = match rules[p] {
                TieBreak::First => best[0],
                TieBreak::Last => best[best.len() - 1],
                // The first of those maximising (minimising) the others' total.
                TieBreak::Friendly => {
                    let m = best.iter().map(|o| others(o)).max().unwrap();
                    best.into_iter().find(|o| others(o) == m).unwrap()
                }
                TieBreak::Antagonistic => {
                    let m = best.iter().map(|o| others(o)).min().unwrap();
                    best.into_iter().find(|o| others(o) == m).unwrap()
                }
            };
            pick.clone()
        }
    };
    if let Some(o) = efg.outcome_of(n) {
        for (x, y) in v.iter_mut().zip(efg.payoffs(o)) {
            *x = x.add(&Rational::from_exact(*y));
        }
    }
    v
}

fn rules_for(seed: u64, k: usize) -> Vec<TieBreak> {
    (0..k)
        .map(|p| TieBreak::ALL[((seed as usize) / 7 + p * 3) % 4])
        .collect()
}

#[test]
fn solver_equals_plain_backward_induction_on_random_trees() {
    for seed in 0..3000u64 {
        let g = random_tree(&spec(seed, 1 + seed % 60, 25));
        let k = g.players().len();
        for rules in [rules_for(seed, k)]
            .into_iter()
            .chain(TieBreak::ALL.iter().map(|&r| vec![r; k]))
        {
            let sol = solve(&g, &Ties::per_player(rules.clone()), &Silent).unwrap();
            assert_eq!(
                sol.value(0),
                plain(&g, 0, &rules).as_slice(),
                "seed {seed} {rules:?}"
            );
            // Every node's value is its subgame's.
            let probe = (seed % g.nodes().len() as u64) as u32;
            assert_eq!(sol.value(probe), plain(&g, probe, &rules).as_slice());
            // The solution is subgame perfect by the independent check.
            assert!(matches!(
                verify(&g, &sol.behavior(&g), &Silent).unwrap(),
                Verdict::SubgamePerfect { .. }
            ));
        }
    }
}

use super::EfgGame as AsGame;

/// The `.efg` solver and the generic engine, two implementations of backward induction
/// with chance, agree on every random tree: values, all SPE outcomes, and the engine's
/// Gambit export solved again by the `.efg` solver.
#[test]
fn solver_equals_generic_engine() {
    for seed in 0..1500u64 {
        let g = random_tree(&spec(
            seed,
            1 + seed % 80,
            if seed % 3 == 0 { 0 } else { 30 },
        ));
        let k = g.players().len();
        let ties = Ties::per_player(rules_for(seed, k));
        let ours = solve(&g, &ties, &Silent).unwrap();
        let game = AsGame(&g);
        let engine = engine::solve(&game, &ties, Budget::default()).unwrap();
        assert_eq!(ours.value(0), engine.root_value(), "seed {seed}");
        let all = engine::all_outcomes(&game, Budget::default()).unwrap();
        assert_eq!(
            all_outcomes(&g, 1 << 20, &Silent).unwrap(),
            all,
            "seed {seed}"
        );
        let mut buf = Vec::new();
        engine::write_efg(&game, "again", 1 << 20, &mut buf).unwrap();
        let again = Efg::parse(std::str::from_utf8(&buf).unwrap(), 1 << 20).unwrap();
        assert_eq!(
            solve(&again, &ties, &Silent).unwrap().value(0),
            ours.value(0),
            "seed {seed}"
        );
    }
}

/// Every pure profile, checked by `verify`: the root values of those that pass, through
/// the reference solver.
fn brute_force_spe(g: &Efg) -> Vec<Vec<Rational>> {
    let decisions: Vec<u32> = (0..g.nodes().len() as u32)
        .filter(|&n| g.mover(n).is_some())
        .collect();
    let actions: Vec<usize> = decisions.iter().map(|&d| g.children(d).len()).collect();
    crate::engine::reference::subgame_perfect_outcomes(&actions, |choice| {
        let mut text = vec![];
        for &i in &Behavior::gambit_order(g) {
            let node = g.infosets()[i as usize].first_node;
            let at = decisions.iter().position(|&d| d == node).unwrap();
            for a in 0..g.infosets()[i as usize].actions {
                text.push(if a == choice[at] as u32 { "1" } else { "0" });
            }
        }
        let beh = Behavior::parse(g, &text.join(",")).unwrap();
        match verify(g, &beh, &Silent).unwrap() {
            // The profile's root value: play it with a one-action tie rule.
            Verdict::SubgamePerfect { .. } => Some(profile_value(g, &beh, 0)),
            _ => None,
        }
    })
}

fn profile_value(g: &Efg, beh: &Behavior, n: u32) -> Vec<Rational> {
    let mut v = outcome_vector(g, n);
    for (&c, w) in g.children(n).iter().zip(beh.weights(g, n)) {
        let child = profile_value(g, beh, c);
        for (x, y) in v.iter_mut().zip(child) {
            *x = x.add(&w.mul(&y));
        }
    }
    v
}

#[test]
fn all_outcomes_equal_brute_force_enumeration() {
    let mut checked = 0;
    for seed in 0..2000u64 {
        let g = random_tree(&spec(seed, 2 + seed % 14, 20));
        let profiles: f64 = (0..g.nodes().len() as u32)
            .filter(|&n| g.mover(n).is_some())
            .map(|n| g.children(n).len() as f64)
            .product();
        if profiles > 3000.0 {
            continue;
        }
        checked += 1;
        assert_eq!(
            all_outcomes(&g, 1 << 20, &Silent).unwrap(),
            brute_force_spe(&g),
            "seed {seed}\n{}",
            g.to_text()
        );
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn writes_read_back_equal() {
    for seed in 0..300u64 {
        let g = random_tree(&spec(seed, 1 + seed * 7 % 200, 30));
        assert_eq!(Efg::parse(&g.to_text(), 10_000).unwrap(), g, "seed {seed}");
    }
}

#[test]
fn engine_exports_read_back_with_the_same_values() {
    use crate::games::dinner::{Dinner, DinnerGame, Setup, TurnOrder};
    for (morsels, order) in [
        ("1,2 2,3 3,1", "ABA"),
        ("1,8 2,3 3,6 4,4 5,1", "ABABA"),
        ("3,1,2 1,2,3 2,3,1 4,4,4", "ABCA"),
    ] {
        let dinner = Dinner::from_morsels(morsels).unwrap();
        let order = TurnOrder::parse(order, &dinner).unwrap();
        let setup = Setup::ordered(dinner.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i128>::new(&setup, false).unwrap();
        let mut buf = Vec::new();
        engine::write_efg(&game, "dinner", 1 << 20, &mut buf).unwrap();
        let g = Efg::parse(std::str::from_utf8(&buf).unwrap(), 1 << 20).unwrap();
        for rule in TieBreak::ALL {
            let ties = Ties::uniform(rule, dinner.players());
            let family = engine::solve(&game, &ties, Budget::default()).unwrap();
            let ours = solve(&g, &ties, &Silent).unwrap();
            let want: Vec<String> = family.root_value().iter().map(|x| x.to_string()).collect();
            let got: Vec<String> = ours.value(0).iter().map(|x| x.to_string()).collect();
            assert_eq!(got, want, "{morsels} {rule}");
        }
    }
}

#[test]
fn imperfect_information_is_refused_by_name() {
    let text = r#"EFG 2 R "matching pennies" { "A" "B" }
p "" 1 1 "" { "H" "T" } 0
p "" 2 1 "guess" { "h" "t" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 2 1 "guess" { "h" "t" } 0
t "" 2 "" { -1, 1 }
t "" 1 "" { 1, -1 }
"#;
    let g = Efg::parse(text, 100).unwrap();
    let e = solve(&g, &Ties::uniform(TieBreak::First, 2), &Silent).unwrap_err();
    assert_eq!(
        e.to_string(),
        "information set 1 'guess' of player 'B' has 2 nodes (nodes 1, 4): the game has imperfect information, and backward induction needs every decision node in an information set of its own"
    );
    assert!(!g.info().perfect_information);
}

#[test]
fn bad_files_are_one_line_errors_with_positions() {
    let head = "EFG 2 R \"\" { \"A\" \"B\" }\n";
    let cases = [
        ("p \"\" 1 1 \"\" { \"x\" } 1 \"\" { 1 }\nt \"\" 0\n", "line 2, column 26: outcome 1 has 1 payoff but the game has 2 players"),
        ("c \"\" 1 \"\" { \"x\" 1/2 \"y\" 1/3 } 0\nt \"\" 0\nt \"\" 0\n", "line 2, column 6: the probabilities of chance information set 1 sum to 5/6, not 1"),
        ("c \"\" 1 \"\" { \"x\" 3/2 \"y\" -1/2 } 0\n", "line 2, column 17: probability 3/2 is outside [0, 1]"),
        ("p \"\" 3 1 \"\" { \"x\" } 0\n", "line 2, column 6: player 3 is not declared: the players are numbered 1 to 2"),
        ("p \"\" 1 1 \"\" { \"x\" \"y\" } 0\np \"\" 1 1 \"\" { \"x\" } 0\nt \"\" 0\nt \"\" 0\n", "line 3, column 8: information set 1 of player 1 has 1 actions here but 2 at node 0"),
        ("p \"\" 1 1 \"\" { \"x\" } 0\nt \"\" 0\nt \"\" 0\n", "line 4, column 1: 't' after the end of the game tree (every node's children are complete)"),
        ("p \"\" 1 1 \"\" { \"x\" } 0\n", "line 3, column 1: the file ends before the game tree is complete (a node is missing)"),
        ("t \"\" 2\n", "line 2, column 6: outcome 2 is used before its payoffs are given (give its label and payoffs the first time)"),
        ("t \"\" 1 \"\" { 1, x }\n", "line 2, column 16: expected a payoff or '}', found 'x'"),
        ("t \"\" 1 \"\" { 1/0, 1 }\n", "line 2, column 13: '1/0' has a zero denominator"),
        ("t \"abc\n", "line 2, column 3: a string that is never closed (a '\"' is missing)"),
    ];
    for (body, want) in cases {
        let e = Efg::parse(&format!("{head}{body}"), 100)
            .unwrap_err()
            .to_string();
        assert_eq!(e, want, "{body}");
        assert!(!e.contains('\n'));
    }
    assert_eq!(
        Efg::parse(
            "EFG 2 R \"\" { \"A\" }\np \"\" 1 1 \"\" { \"x\" \"y\" } 0\nt \"\" 0\nt \"\" 0\n",
            2
        )
        .unwrap_err()
        .to_string(),
        "the game tree has more than 2 nodes (the budget); the file was not read further"
    );
}

#[test]
fn gambit_sample_files_read_as_gambit_reads_them() {
    // Gambit's centipede sample: decimals without a leading digit, outcomes on terminal
    // nodes only, chance at the root, one-action information sets.
    let text = r#"EFG 2 R "Centipede game. Three inning with probability of altruism.  " { "Player 1" "Player 2" }
""

c "" 1 "(0,1)" { "1=rational" 99/100 "1=altruist" 1/100 } 0
p "" 1 1 "(1,1)" { "t" "p" } 0
t "" 1 "Outcome 1" { .80, .20 }
p "" 2 1 "(2,1)" { "t" "p" } 0
t "" 2 "Outcome 2" { .40, 1.60 }
t "" 3 "Outcome 3" { 3.20, .80 }
p "" 1 2 "(1,2)" { "p" } 0
p "" 2 2 "(2,2)" { "t" "p" } 0
t "" 2 "Outcome 2" { .40, 1.60 }
t "" 4 "Outcome 4" { 1.60, 6.40 }
"#;
    let g = Efg::parse(text, 100).unwrap();
    assert_eq!(g.nodes().len(), 10);
    let sol = solve(&g, &Ties::uniform(TieBreak::First, 2), &Silent).unwrap();
    // Rational: 1 takes (0.8, 0.2). Altruist: 2 passes (6.4 > 1.6): 99/100 * 4/5 + 1/100 * 8/5.
    assert_eq!(sol.value(0)[0].to_string(), "101/125");
    assert_eq!(sol.value(0)[1].to_string(), "131/500");
}

/// Player `p`'s reduced strategies by brute force from the definition: every pure
/// strategy (an action per information set), cut down to the information sets it does
/// not itself rule out (some node of the set lies on a play where `p` follows the
/// strategy and everyone else does anything); distinct cut-down strategies are the plans.
fn brute_force_plans(g: &Efg, p: u32) -> usize {
    let sets: Vec<usize> = (0..g.infosets().len())
        .filter(|&i| g.infosets()[i].player == Some(p))
        .collect();
    let mut pure: Vec<Vec<u32>> = vec![vec![]];
    for &i in &sets {
        pure = pure
            .into_iter()
            .flat_map(|s| {
                (0..g.infosets()[i].actions).map(move |a| {
                    let mut t = s.clone();
                    t.push(a);
                    t
                })
            })
            .collect();
    }
    let mut plans = BTreeSet::new();
    for s in &pure {
        let mut reached = vec![false; g.infosets().len()];
        let mut stack = vec![0u32];
        while let Some(v) = stack.pop() {
            let ch = g.children(v);
            match g.nodes()[v as usize].kind {
                NodeKind::Personal { player, infoset } if player == p => {
                    reached[infoset as usize] = true;
                    let k = sets.iter().position(|&i| i == infoset as usize).unwrap();
                    stack.push(ch[s[k] as usize]);
                }
                _ => stack.extend_from_slice(ch),
            }
        }
        let plan: Vec<Option<u32>> = sets
            .iter()
            .enumerate()
            .map(|(k, &i)| reached[i].then_some(s[k]))
            .collect();
        plans.insert(plan);
    }
    plans.len()
}

/// The reduced-strategy count (on sequences) equals the plans counted from the
/// definition: on random perfect-information trees, and on games with information
/// sets of several nodes, with perfect recall (counted) and without (refused).
#[test]
fn reduced_strategies_equal_brute_force_plans() {
    for seed in 0..400u64 {
        let g = random_tree(&spec(seed, 1 + seed % 25, 25));
        let info = g.info();
        for p in 0..g.players().len() as u32 {
            let want = BigUint::from(brute_force_plans(&g, p));
            assert_eq!(
                info.reduced_strategies[p as usize],
                Some(want),
                "seed {seed} player {p}"
            );
        }
    }
    // Matching pennies: B's one information set of two nodes. 2 pure, 2 plans (the count
    // per node gave 4).
    let pennies = r#"EFG 2 R "matching pennies" { "A" "B" }
p "" 1 1 "" { "H" "T" } 0
p "" 2 1 "guess" { "h" "t" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 2 1 "guess" { "h" "t" } 0
t "" 2 "" { -1, 1 }
t "" 1 "" { 1, -1 }
"#;
    // A moves L or R; B, not knowing which, moves a or b; after L, A (remembering L but
    // not B's move) moves x or y. A: 4 pure strategies, 3 plans (L.x, L.y, R).
    let recall = r#"EFG 2 R "perfect recall" { "A" "B" }
p "" 1 1 "" { "L" "R" } 0
p "" 2 1 "" { "a" "b" } 0
p "" 1 2 "" { "x" "y" } 0
t "" 1 "" { 1, 0 }
t "" 2 "" { 0, 1 }
p "" 1 2 "" { "x" "y" } 0
t "" 3 "" { 2, 0 }
t "" 4 "" { 0, 2 }
p "" 2 1 "" { "a" "b" } 0
t "" 5 "" { 3, 0 }
t "" 6 "" { 0, 3 }
"#;
    // A moves L or R, then forgets it: imperfect recall, no plans.
    let forgets = r#"EFG 2 R "absent" { "A" "B" }
p "" 1 1 "" { "L" "R" } 0
p "" 1 2 "" { "x" "y" } 0
t "" 1 "" { 1, 0 }
t "" 2 "" { 0, 1 }
p "" 1 2 "" { "x" "y" } 0
t "" 3 "" { 2, 0 }
t "" 4 "" { 0, 2 }
"#;
    let counts = |text: &str| {
        let g = Efg::parse(text, 100).unwrap();
        let i = g.info();
        let pure: Vec<u64> = i
            .pure_strategies
            .iter()
            .map(|c| c.try_into().unwrap())
            .collect();
        let reduced: Vec<Option<u64>> = i
            .reduced_strategies
            .iter()
            .map(|c| c.as_ref().map(|c| c.try_into().unwrap()))
            .collect();
        (g, pure, reduced)
    };
    let (g, pure, reduced) = counts(pennies);
    assert_eq!((pure, reduced), (vec![2, 2], vec![Some(2), Some(2)]));
    assert_eq!(brute_force_plans(&g, 1), 2);
    let (g, pure, reduced) = counts(recall);
    assert_eq!((pure, reduced), (vec![4, 2], vec![Some(3), Some(2)]));
    assert_eq!((brute_force_plans(&g, 0), brute_force_plans(&g, 1)), (3, 2));
    let (_, pure, reduced) = counts(forgets);
    assert_eq!((pure, reduced), (vec![4, 1], vec![None, Some(1)]));
}

/// Drawn game trees on random games of 1 to 500 nodes, with chance and ties, unfolded
/// whole and under small budgets, laid out both ways: every leaf drawn or counted in a
/// folded triangle, no two node boxes overlap, the highlighted play is the `.efg`
/// solver's equilibrium play, and leaves marked as SPE outcomes are the root's SPE
/// outcomes.
#[test]
fn drawn_trees_account_for_every_leaf_without_overlaps() {
    use crate::engine::{unfold, NodeRole, UnfoldOptions};
    use crate::tree::{layout, Style};
    for seed in 0..160u64 {
        let nodes = 1 + (seed * 37) % 500;
        let g = random_tree(&spec(seed, nodes, if seed % 2 == 0 { 0 } else { 30 }));
        let k = g.players().len();
        let ties = Ties::per_player(rules_for(seed, k));
        let game = AsGame(&g);
        let sol = engine::solve(&game, &ties, Budget::default()).unwrap();
        let terminal = g
            .nodes()
            .iter()
            .filter(|n| n.kind == NodeKind::Terminal)
            .count() as u128;
        for max_nodes in [10_000usize, 1 + (seed as usize % 40)] {
            let opts = UnfoldOptions {
                max_nodes,
                spe: true,
                budget: Budget::default(),
            };
            let tree = unfold(&sol, &opts).unwrap();
            assert!(tree.nodes.len() <= max_nodes, "seed {seed}");
            assert_eq!(tree.total_nodes, g.nodes().len() as u128, "seed {seed}");
            assert_eq!(tree.total_leaves, terminal, "seed {seed}");
            let (mut drawn, mut folded, mut hidden) = (0u128, 0u128, 0u128);
            for n in &tree.nodes {
                match n.role {
                    NodeRole::Terminal => drawn += 1,
                    NodeRole::Folded { nodes, leaves, .. } => {
                        folded += leaves;
                        hidden += nodes;
                    }
                    _ => {}
                }
            }
            assert_eq!(drawn + folded, terminal, "seed {seed} budget {max_nodes}");
            let folds = tree
                .nodes
                .iter()
                .filter(|n| matches!(n.role, NodeRole::Folded { .. }))
                .count() as u128;
            assert_eq!(
                tree.nodes.len() as u128 - folds + hidden,
                tree.total_nodes,
                "seed {seed}"
            );
            for horizontal in [false, true] {
                let style = Style {
                    horizontal,
                    values: seed % 3 == 0,
                };
                let l = layout(&tree, &style);
                for i in 0..l.boxes.len() {
                    for j in i + 1..l.boxes.len() {
                        assert!(
                            !l.boxes[i].overlaps(&l.boxes[j]),
                            "seed {seed}: nodes {i} and {j} overlap: {:?} {:?}",
                            l.boxes[i],
                            l.boxes[j]
                        );
                    }
                    let b = l.boxes[i];
                    assert!(b.x - b.width / 2.0 >= 0.0 && b.x + b.width / 2.0 <= l.width);
                    assert!(b.y - b.height / 2.0 >= 0.0 && b.y + b.height / 2.0 <= l.height);
                }
            }
            if max_nodes < g.nodes().len() {
                continue;
            }
            // Whole: tree nodes match file nodes by walking both in move order.
            let mut file_node = vec![0u32; tree.nodes.len()];
            let mut stack = vec![0usize];
            while let Some(i) = stack.pop() {
                for (a, &c) in tree.nodes[i].children.iter().enumerate() {
                    file_node[c] = g.children(file_node[i])[a];
                    stack.push(c);
                }
            }
            let ours = solve(&g, &ties, &Silent).unwrap();
            let mut on_path: Vec<u32> = (0..tree.nodes.len())
                .filter(|&i| tree.nodes[i].on_path)
                .map(|i| file_node[i])
                .collect();
            on_path.sort();
            let mut expected = equilibrium_nodes(&g, &ours.behavior(&g), 0);
            expected.sort();
            assert_eq!(on_path, expected, "seed {seed}");
            let root: Vec<String> = ours.value(0).iter().map(|r| r.to_string()).collect();
            assert_eq!(tree.nodes[0].value, root, "seed {seed}");
            let all: Vec<Vec<String>> = all_outcomes(&g, 1 << 20, &Silent)
                .unwrap()
                .iter()
                .map(|v| v.iter().map(|r| r.to_string()).collect())
                .collect();
            assert_eq!(tree.spe_outcomes.as_ref(), Some(&all), "seed {seed}");
            if !tree.has_chance {
                let marked: BTreeSet<&Vec<String>> = tree
                    .nodes
                    .iter()
                    .filter(|n| n.spe)
                    .map(|n| &n.value)
                    .collect();
                let all: BTreeSet<&Vec<String>> = all.iter().collect();
                assert_eq!(marked, all, "seed {seed}");
                // The equilibrium's own leaf is marked.
                assert!(tree
                    .nodes
                    .iter()
                    .any(|n| n.on_path && n.spe && n.role == NodeRole::Terminal));
            }
        }
    }
}
