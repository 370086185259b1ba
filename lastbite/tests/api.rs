//! The API against the families' own routes: what a front end gets through
//! `lastbite::api` equals what the fast theory and the brute force compute.

use lastbite::api::dinner::{solve, Method, Morsels, SolveRequest};
use lastbite::api::Control;
use lastbite::exact::Exact;
use lastbite::games::dinner::{crossout, Dinner, Setup, TurnOrder};
use num_rational::BigRational;
use proptest::prelude::*;

/// A two-player dinner of `n` morsels with utilities in `0..range` (small ranges give
/// many duplicate utilities) and a random turn order from `bits`.
fn dinner(n: usize, range: i64, seed: u64) -> (Vec<Vec<Exact>>, String) {
    let mut rng = lastbite::rng::Rng::for_trial(seed, 0);
    let rows: Vec<Vec<Exact>> = (0..n)
        .map(|_| {
            (0..2)
                .map(|_| Exact::integer((rng.next_u64() % range as u64) as i128))
                .collect()
        })
        .collect();
    let order: String = (0..n)
        .map(|_| if rng.next_u64() & 1 == 0 { 'A' } else { 'B' })
        .collect();
    (rows, order)
}

fn via_api(rows: &[Vec<Exact>], order: &str, method: Method) -> (Vec<Exact>, Vec<usize>) {
    let req = SolveRequest {
        morsels: Some(Morsels::Rows(rows.to_vec())),
        order: Some(order.to_string()),
        method,
        ..Default::default()
    };
    let r = solve(&req, &Control::silent()).unwrap();
    (r.scores, r.eating_order.iter().map(|b| b.morsel).collect())
}

fn via_crossout(rows: &[Vec<Exact>], order: &str) -> (Vec<Exact>, Vec<usize>) {
    let flat = rows.iter().flatten().copied().collect();
    let d = Dinner::from_flat(2, flat, |i, p| format!("{i},{p}")).unwrap();
    let o = TurnOrder::parse(order, &d).unwrap();
    let c = crossout(&Setup::ordered(d.clone(), o.clone()).unwrap()).unwrap();
    (
        vec![d.unscale(c.scores[0]), d.unscale(c.scores[1])],
        c.eating().map(|b| b.morsel).collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The API's crossout path (what `dinner solve` runs) equals `crossout` at every
    /// size, across the old 63-morsel wall, with duplicate utilities and any order.
    #[test]
    fn api_crossout_equals_crossout(n in 1usize..5000, range in prop::sample::select(vec![3i64, 50, 1_000_000]), seed in any::<u64>()) {
        let (rows, order) = dinner(n, range, seed);
        prop_assert_eq!(via_api(&rows, &order, Method::Auto), via_crossout(&rows, &order));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    /// The dense solver's parallel branch (tables over 4,096 states) gives crossout's
    /// scores (index tie rule on both routes). The eating orders may differ: distinct
    /// sets of tie-rule offsets can sum alike, so equilibrium paths with equal perturbed
    /// payoffs exist (seen at n = 13 with utilities below 4).
    #[test]
    fn dense_parallel_branch_equals_crossout(n in 13usize..=18, range in prop::sample::select(vec![4i64, 1000]), seed in any::<u64>()) {
        let (rows, order) = dinner(n, range, seed);
        prop_assert_eq!(via_api(&rows, &order, Method::Exact).0, via_crossout(&rows, &order).0);
    }
}

fn big(x: &Exact) -> BigRational {
    BigRational::new(x.numer().into(), x.denom().into())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `Exact` arithmetic and ordering agree with num-rational's `BigRational`.
    #[test]
    fn exact_agrees_with_big_rational(a in -1_000_000_000i128..1_000_000_000, b in 1i128..1_000_000_000, c in -1_000_000_000i128..1_000_000_000, d in 1i128..1_000_000_000) {
        let (x, y) = (Exact::new(a, b).unwrap(), Exact::new(c, d).unwrap());
        let (bx, by) = (BigRational::new(a.into(), b.into()), BigRational::new(c.into(), d.into()));
        prop_assert_eq!(big(&x), bx.clone());
        prop_assert_eq!(x.cmp(&y), bx.cmp(&by));
        prop_assert_eq!(big(&x.checked_add(&y).unwrap()), &bx + &by);
        prop_assert_eq!(big(&x.checked_mul(&y).unwrap()), &bx * &by);
        prop_assert_eq!(big(&(x - y)), &bx - &by);
        let text: Exact = x.to_string().parse().unwrap();
        prop_assert_eq!(text, x);
    }
}

/// A set cancellation flag stops long calls with `Error::Cancelled`, and a cancelled
/// nim table keeps its finished layers for the next run.
#[test]
fn cancelled_calls_stop_with_cancelled() {
    use lastbite::api::{cookie, dinner as d, subtraction, Error};
    use std::sync::atomic::AtomicBool;
    let flag = AtomicBool::new(true);
    let ctl = Control::new(&lastbite::engine::Silent).with_cancel(&flag);
    let exact: SolveRequest = serde_json::from_str(
        r#"{"morsels": "1,2 2,3 3,1 4,4 5,5 6,1 7,2 8,3 9,9 1,1 2,2 3,3 4,1", "method": "exact"}"#,
    )
    .unwrap();
    assert_eq!(solve(&exact, &ctl).unwrap_err(), Error::Cancelled);
    let sweep: d::ParetoRequest = serde_json::from_str(r#"{"size": 7}"#).unwrap();
    assert_eq!(d::pareto(&sweep, &ctl).unwrap_err(), Error::Cancelled);
    let exp: d::ExperimentRequest = serde_json::from_str(r#"{"trials": 100}"#).unwrap();
    assert_eq!(d::experiment(&exp, &ctl).unwrap_err(), Error::Cancelled);
    let bal: d::BalanceRequest = serde_json::from_str(r#"{"max_size": 5, "trials": 10}"#).unwrap();
    assert_eq!(d::balance(&bal, &ctl).unwrap_err(), Error::Cancelled);
    let conj: subtraction::ConjectureRequest =
        serde_json::from_str(r#"{"statement": "12", "max": 20}"#).unwrap();
    assert_eq!(
        subtraction::conjecture(&conj, &ctl).unwrap_err(),
        Error::Cancelled
    );
    let scan: subtraction::ScanRequest = serde_json::from_str(r#"{"pairs": 10}"#).unwrap();
    assert_eq!(
        subtraction::scan(&scan, &ctl).unwrap_err(),
        Error::Cancelled
    );
    let nim: cookie::NimRequest = serde_json::from_str(r#"{"max_n": 10}"#).unwrap();
    assert_eq!(cookie::nim(&nim, &ctl).unwrap_err(), Error::Cancelled);
    let table: cookie::TableRequest = serde_json::from_str(r#"{"max_n": 10}"#).unwrap();
    assert_eq!(cookie::table(&table, &ctl).unwrap_err(), Error::Cancelled);
    // Not cancelled, the same calls succeed.
    let free = Control::silent();
    assert!(d::experiment(&exp, &free).is_ok());
}
