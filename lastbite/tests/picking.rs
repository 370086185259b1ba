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
