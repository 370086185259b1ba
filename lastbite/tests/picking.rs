//! Picking sequences through the API: the manipulator's best play against the bound the
//! literature proves (never more than twice the sincere score, for goods: Xiao and Ling,
//! AAAI 2020), sincere play's comparison against `dinner solve --all` and the optimum, and
//! bad input refused in one line.

use lastbite::api::dinner::{
    manipulate, sincere, solve, ManipulateRequest, Method, Morsels, SincereRequest, SolveRequest,
};
use lastbite::api::Control;
use lastbite::exact::Exact;
use lastbite::rng::Rng;

fn random(rng: &mut Rng, players: usize, n: usize) -> (Morsels, String) {
    let rows = (0..n)
        .map(|_| {
            (0..players)
                .map(|_| Exact::integer(rng.below(10) as i128))
                .collect()
        })
        .collect();
    let order = (0..n)
        .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
        .collect();
    (Morsels::Rows(rows), order)
}

#[test]
fn manipulation_gains_at_most_the_sincere_score() {
    let mut rng = Rng::for_trial(29, 20);
    for trial in 0..300 {
        let players = 2 + trial % 2;
        let n = 1 + rng.below(12) as usize;
        let (morsels, order) = random(&mut rng, players, n);
        let agent = char::from(b'A' + rng.below(players as u64) as u8).to_string();
        let r = manipulate(
            &ManipulateRequest {
                morsels: Some(morsels),
                order: Some(order.clone()),
                agent,
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        assert!(r.gain >= Exact::ZERO);
        assert_eq!(r.score - r.sincere_score, r.gain);
        assert!(
            r.score <= r.sincere_score + r.sincere_score,
            "{order}: {r:?}"
        );
        assert_eq!(r.method, if players == 2 { "greedy" } else { "search" });
    }
}

#[test]
fn sincere_compares_with_every_spe_outcome_and_the_optimum() {
    let mut rng = Rng::for_trial(29, 21);
    for trial in 0..60 {
        let players = 2 + trial % 2;
        let n = 1 + rng.below(8) as usize;
        let (morsels, order) = random(&mut rng, players, n);
        let r = sincere(
            &SincereRequest {
                morsels: Some(morsels.clone()),
                order: Some(order.clone()),
                compare: true,
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        let all = solve(
            &SolveRequest {
                morsels: Some(morsels),
                order: Some(order.clone()),
                method: Method::Exact,
                all: true,
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        assert_eq!(r.spe_outcomes, all.outcomes, "{order}");
        for row in r.welfare.unwrap() {
            let opt = row.optimum.unwrap();
            assert!(
                opt >= row.sincere && opt >= row.spe_best,
                "{order}: {row:?}"
            );
            assert!(row.spe_best >= row.spe_worst);
            if let Some(poa) = row.price_of_anarchy {
                assert!(poa >= Exact::integer(1));
                assert!(row.price_of_stability.unwrap() <= poa);
            }
        }
    }
}

#[test]
fn bad_agents_are_refused() {
    for agent in ["C", "", "AB", "<b>"] {
        let e = manipulate(
            &ManipulateRequest {
                morsels: Some(Morsels::Text("1,2 2,1".into())),
                agent: agent.into(),
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("agent") && !e.contains('\n'), "{e}");
    }
}

/// `dinner fairness` judges the allocations `dinner sincere` and `dinner solve` make, and
/// envy-freeness implies EF1 and (for these goods) proportionality.
#[test]
fn fairness_judges_the_sincere_and_the_equilibrium_allocations() {
    use lastbite::api::dinner::{fairness, FairnessRequest};
    let mut rng = Rng::for_trial(29, 22);
    for trial in 0..60 {
        let players = 2 + trial % 2;
        let n = 1 + rng.below(8) as usize;
        let (morsels, order) = random(&mut rng, players, n);
        let r = fairness(
            &FairnessRequest {
                morsels: Some(morsels.clone()),
                order: Some(order.clone()),
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        let s = sincere(
            &SincereRequest {
                morsels: Some(morsels.clone()),
                order: Some(order.clone()),
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        let e = solve(
            &SolveRequest {
                morsels: Some(morsels),
                order: Some(order.clone()),
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        let mechanisms = r.mechanisms.unwrap();
        for (m, eating) in mechanisms.iter().zip([&s.eating_order, &e.eating_order]) {
            for a in &m.agents {
                let mut mine: Vec<usize> = eating
                    .iter()
                    .filter(|b| b.player == a.agent)
                    .map(|b| b.morsel)
                    .collect();
                mine.sort();
                assert_eq!(a.bundle, mine, "{order} {}", m.mechanism);
                if a.envy_free {
                    assert!(a.ef1 && a.proportional, "{order}: {a:?}");
                }
            }
        }
    }
}

/// Two routes to every expectation of two agents: the programs (the dynamic program of
/// the scores, the joint programs of Nash and egalitarian welfare, sincere and, by the
/// reversal, strategic), and the average over every profile of rankings played by the
/// dinner's own routes (`enumerate`); tied values too.
#[test]
fn expectations_by_the_programs_and_by_every_profile() {
    use lastbite::api::dinner::{expected, ExpectedRequest};
    for (order, items, model) in [
        ("alternate", 5, "borda"),
        ("ABBAB", 5, "lexicographic"),
        ("snake", 4, "3,3,1/2,0"),
        ("BA...", 5, "borda"),
        ("AABB", 4, "10,3,2,1"),
        ("ABBAB", 5, "2,1,1,1,0"),
    ] {
        for play in ["sincere", "strategic"] {
            for welfare in ["utilitarian", "egalitarian", "nash"] {
                let ask = |enumerate| {
                    expected(
                        &ExpectedRequest {
                            order: order.into(),
                            size: items,
                            model: model.into(),
                            welfare: welfare.parse().unwrap(),
                            play: play.parse().unwrap(),
                            enumerate,
                            ..Default::default()
                        },
                        &Control::silent(),
                    )
                    .unwrap()
                };
                let (program, all) = (ask(false), ask(true));
                assert!(
                    program.method.contains("dynamic program"),
                    "{}",
                    program.method
                );
                assert_eq!(all.method, "every profile");
                let what = format!("{order} {model} {play} {welfare}");
                assert_eq!(program.expected_scores, all.expected_scores, "{what}");
                assert_eq!(program.expected_welfare, all.expected_welfare, "{what}");
            }
        }
    }
    let e = expected(
        &ExpectedRequest {
            size: 9,
            enumerate: true,
            ..Default::default()
        },
        &Control::silent(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("profiles") && e.contains("max_profiles"), "{e}");
}

/// `dinner best-order` over every sequence of a length against `dinner expected` asked for
/// each sequence in turn: the best welfare, its ties and the runner-up.
#[test]
fn best_order_is_the_best_of_every_sequence() {
    use lastbite::api::dinner::{best_order, expected, BestOrderRequest, ExpectedRequest};
    for (m, model) in [(4, "borda"), (5, "lexicographic"), (5, "2,1,1,0,0")] {
        let r = best_order(
            &BestOrderRequest {
                size: m,
                model: model.into(),
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        let mut all: Vec<(String, lastbite::rational::Rational)> = (0..1u32 << m)
            .map(|code| {
                let order: String = (0..m)
                    .map(|t| {
                        if code >> (m - 1 - t) & 1 == 0 {
                            'A'
                        } else {
                            'B'
                        }
                    })
                    .collect();
                let e = expected(
                    &ExpectedRequest {
                        order: order.clone(),
                        size: m,
                        model: model.into(),
                        ..Default::default()
                    },
                    &Control::silent(),
                )
                .unwrap();
                (order, e.expected_welfare)
            })
            .collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let best = all[0].1.clone();
        let tied: Vec<String> = all
            .iter()
            .filter(|x| x.1 == best)
            .map(|x| x.0.clone())
            .collect();
        assert_eq!(r.sequences, 1 << m);
        assert_eq!(
            (r.order.clone(), r.expected_welfare.clone()),
            all[0].clone(),
            "{m} {model}"
        );
        assert_eq!(r.tied, tied, "{m} {model}");
        let runner = all.iter().find(|x| x.1 < best).cloned();
        assert_eq!(
            r.runner_up.map(|x| (x.order, x.expected_welfare)),
            runner,
            "{m} {model}"
        );
    }
}

/// Sampling beyond the budget: seeded (so the test is deterministic), and the exact value
/// of the same question lies in its 95% interval.
#[test]
fn sampled_expectations_cover_the_exact_value() {
    use lastbite::api::dinner::{expected, ExpectedRequest};
    let ask = |max_profiles, samples| {
        expected(
            &ExpectedRequest {
                order: "ABBA".into(),
                size: 4,
                play: "strategic".parse().unwrap(),
                // The programs would answer exactly; average over profiles.
                enumerate: true,
                max_profiles,
                samples,
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap()
    };
    let exact = ask(1_000_000, None);
    let sampled = ask(10, Some(3000));
    assert_eq!(
        (exact.method, sampled.method),
        ("every profile", "sampling")
    );
    for (x, ci) in exact
        .expected_scores
        .iter()
        .zip(sampled.confidence_95.unwrap())
    {
        let x = x.to_exact().unwrap().to_f64();
        assert!(ci[0] <= x && x <= ci[1], "{x} in {ci:?}");
    }
}

/// Strategic best sequences against `dinner expected --play strategic` for every
/// sequence, tied scores too.
#[test]
fn strategic_best_order_is_the_best_of_every_sequence() {
    use lastbite::api::dinner::{best_order, expected, BestOrderRequest, ExpectedRequest};
    for (m, model, counts) in [
        (6, "borda", Some(vec![3, 3])),
        (7, "lexicographic", None),
        (6, "3,3,2,1,1,0", None),
    ] {
        let r = best_order(
            &BestOrderRequest {
                size: m,
                model: model.into(),
                play: "strategic".parse().unwrap(),
                counts: counts.clone(),
                ..Default::default()
            },
            &Control::silent(),
        )
        .unwrap();
        assert_eq!(r.play, "strategic");
        let mut all: Vec<(String, lastbite::rational::Rational)> = (0..1u32 << m)
            .map(|code| {
                (0..m)
                    .map(|t| {
                        if code >> (m - 1 - t) & 1 == 0 {
                            'A'
                        } else {
                            'B'
                        }
                    })
                    .collect::<String>()
            })
            .filter(|o| {
                counts
                    .as_ref()
                    .is_none_or(|c| o.matches('A').count() == c[0])
            })
            .map(|order| {
                let e = expected(
                    &ExpectedRequest {
                        order: order.clone(),
                        size: m,
                        model: model.into(),
                        play: "strategic".parse().unwrap(),
                        ..Default::default()
                    },
                    &Control::silent(),
                )
                .unwrap();
                (order, e.expected_welfare)
            })
            .collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let tied: Vec<String> = all
            .iter()
            .filter(|x| x.1 == all[0].1)
            .map(|x| x.0.clone())
            .collect();
        assert_eq!(r.sequences as usize, all.len());
        assert_eq!(
            (r.order.clone(), r.expected_welfare.clone()),
            all[0].clone()
        );
        assert_eq!(r.tied, tied, "{m} {model}");
        let runner = all.iter().find(|x| x.1 < all[0].1).cloned();
        assert_eq!(r.runner_up.map(|x| (x.order, x.expected_welfare)), runner);
    }
}

/// Every equilibrium allocation: its scores are exactly the engine's equilibrium score
/// vectors; each is a partition with the turn order's counts; with strict preferences
/// and two agents it is crossout's one allocation; and a dinner fails a property under
/// `every_spe` when, and only when, some listed allocation fails it.
#[test]
fn every_equilibrium_allocation() {
    use lastbite::api::dinner::{fairness, FairnessRequest};
    use lastbite::engine::Budget;
    use lastbite::games::dinner::picking::equilibria::spe_allocations;
    use lastbite::games::dinner::{all_spe_scores, crossout, Dinner, Rules, Setup, TurnOrder};
    use std::collections::BTreeSet;
    let mut rng = Rng::for_trial(29, 77);
    for trial in 0..200 {
        let players = 2 + trial % 2;
        let n = 1 + rng.below(7) as usize;
        // Small values: ties, hence several equilibria.
        let flat: Vec<i64> = (0..n * players).map(|_| rng.below(4) as i64).collect();
        let order: String = (0..n)
            .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
            .collect();
        let d = Dinner::from_integers(players, flat.clone()).unwrap();
        let o = TurnOrder::parse(&order, &d).unwrap();
        let setup = Setup::new(d.clone(), o.clone(), Rules::default()).unwrap();
        let all = spe_allocations(&setup, Budget::default()).unwrap();
        let mut scores = BTreeSet::new();
        for bundles in &all {
            let mut seen: Vec<usize> = bundles.iter().flatten().copied().collect();
            seen.sort();
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "trial {trial}");
            for (p, b) in bundles.iter().enumerate() {
                assert_eq!(b.len(), order.matches(char::from(b'A' + p as u8)).count());
            }
            let s: Vec<i64> = (0..players)
                .map(|p| bundles[p].iter().map(|&i| flat[i * players + p]).sum())
                .collect();
            scores.insert(s);
        }
        let engine: BTreeSet<Vec<i64>> =
            all_spe_scores(&setup, Budget::default(), &lastbite::engine::Silent)
                .unwrap()
                .into_iter()
                .map(|v| v.iter().map(|x| x.numer() as i64).collect())
                .collect();
        assert_eq!(scores, engine, "trial {trial} {flat:?} {order}");
        let distinct = all.iter().collect::<BTreeSet<_>>().len();
        assert_eq!(distinct, all.len());
    }
    // Strict preferences, two agents: one allocation, crossout's.
    for trial in 0..100 {
        let n = 1 + rng.below(8) as usize;
        let (a, b) = (rng.permutation(n), rng.permutation(n));
        let flat = (0..n).flat_map(|i| [a[i], b[i]]).collect();
        let d = Dinner::from_integers(2, flat).unwrap();
        let order: String = (0..n)
            .map(|_| if rng.below(2) == 0 { 'A' } else { 'B' })
            .collect();
        let o = TurnOrder::parse(&order, &d).unwrap();
        let mut want = vec![Vec::new(), Vec::new()];
        for bite in crossout(&Setup::ordered(d.clone(), o.clone()).unwrap())
            .unwrap()
            .eating()
        {
            want[bite.player].push(bite.morsel);
        }
        for w in &mut want {
            w.sort();
        }
        let setup = Setup::new(d, o, Rules::default()).unwrap();
        assert_eq!(
            spe_allocations(&setup, Budget::default()).unwrap(),
            vec![want],
            "trial {trial}"
        );
    }
    // The report's every_spe failures against its listed allocations.
    let r = fairness(
        &FairnessRequest {
            morsels: Some(Morsels::Rows(
                [[1, 2], [1, 1]]
                    .iter()
                    .map(|r| r.iter().map(|&x| Exact::integer(x)).collect())
                    .collect(),
            )),
            order: Some("AB".into()),
            every_spe: true,
            ..Default::default()
        },
        &Control::silent(),
    )
    .unwrap();
    // Alice is indifferent; Bob envies her only when she takes the morsel he prefers.
    let listed = r.every_spe.unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed.iter().filter(|m| m.envy_free).count(), 1);
    assert!(listed.iter().all(|m| m.mechanism == "spe" && m.ef1));
}

/// One numbering: a counterexample of `strategic-fairness` (items from 0, utilities a row
/// an item) pasted into `dinner fairness` as it is gives the same non-EF1 allocation.
#[test]
fn a_strategic_counterexample_is_a_dinner_as_printed() {
    use lastbite::api::{call, Control};
    let ctl = Control::silent();
    let report: serde_json::Value = serde_json::from_str(
        &call(
            "dinner-strategic-fairness",
            r#"{"question": "three-agents", "items": 7, "strict_items": 1}"#,
            &ctl,
        )
        .unwrap(),
    )
    .unwrap();
    let first = report["three_agents"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|row| row["tied"]["first"].as_object().cloned())
        .expect("a counterexample at 7 items");
    assert_replays(&first, 7);
}

/// The recorded run of three agents with strict rankings to 8 items
/// (`data/frontier/strategic-three-agents-8.json`, made by the command in
/// `docs/results/picking.md`): its first Borda counterexample, replayed through the engine's
/// every-equilibrium rule, is a non-EF1 equilibrium allocation; every profile was counted.
#[test]
fn the_recorded_eight_item_counterexample_replays() {
    let path = format!(
        "{}/../data/frontier/strategic-three-agents-8.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let row = &report["three_agents"][7];
    assert_eq!(row["items"], 8);
    let profiles = 40320u64 * 40320;
    for scores in ["borda", "lexicographic"] {
        assert_eq!(
            row[scores]["instances"].as_u64(),
            Some(profiles),
            "{scores}"
        );
    }
    assert_eq!(row["lexicographic"]["failures"], 0);
    assert!(row["borda"]["failures"].as_u64().unwrap() > 0);
    let first = row["borda"]["first"].as_object().unwrap().clone();
    assert_replays(&first, 8);
}

/// `first`, a counterexample of `strategic-fairness` (items from 0, utilities a row an
/// item), pasted into `dinner fairness` as it is, gives the same non-EF1 allocation.
fn assert_replays(first: &serde_json::Map<String, serde_json::Value>, items: usize) {
    let ctl = lastbite::api::Control::silent();
    let request = serde_json::json!({
        "morsels": first["morsels"], "order": first["sequence"], "every_spe": true,
    });
    let fairness: serde_json::Value = serde_json::from_str(
        &lastbite::api::call("dinner-fairness", &request.to_string(), &ctl).unwrap(),
    )
    .unwrap();
    let bundles: Vec<serde_json::Value> = first["bundles"].as_array().unwrap().clone();
    let found = fairness["every_spe"].as_array().unwrap().iter().any(|m| {
        let agents = m["agents"].as_array().unwrap();
        m["ef1"] == false && agents.iter().zip(&bundles).all(|(a, b)| &a["bundle"] == b)
    });
    assert!(
        found,
        "{first:?} is not a non-EF1 equilibrium of the dinner as printed"
    );
    // The rows are items: as many rows as items, a utility per agent.
    let rows = first["utilities"].as_array().unwrap();
    assert_eq!(rows.len(), items);
    assert!(rows.iter().all(|r| r.as_array().unwrap().len() == 3));
}
