//! The text renderer of every report, pinned by insta snapshots (`tests/snapshots/`).
//! The CLI prints exactly these texts; they equal the first release's tables.

use lastbite::api::{cookie, dinner, reproduce, subtraction, tokens, Control, Render};
use serde::de::DeserializeOwned;

const F8: &str = "1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7";

fn req<T: DeserializeOwned>(json: &str) -> T {
    serde_json::from_str(json).expect("a valid request")
}

fn text<R: Render>(r: Result<R, lastbite::api::Error>) -> String {
    r.expect("the request succeeds").to_text()
}

macro_rules! snap {
    ($name:ident, $f:path, $json:expr) => {
        #[test]
        fn $name() {
            let ctl = Control::silent();
            insta::assert_snapshot!(text($f(&req(&$json), &ctl)));
        }
    };
}

snap!(
    dinner_solve,
    dinner::solve,
    r#"{"morsels": "1,2 2,3 3,1", "order": "ABA", "method": "exact", "explain": true}"#
);
snap!(
    dinner_solve_all,
    dinner::solve,
    format!(
        r#"{{"morsels": "{F8}", "method": "exact", "ties": "A=friendly,B=antagonistic", "all": true}}"#
    )
);
snap!(
    dinner_solve_crossout,
    dinner::solve,
    format!(r#"{{"morsels": "{F8}", "altruism": ["1", "1/2", "1/2", "1"]}}"#)
);
snap!(
    dinner_play,
    dinner::play,
    r#"{"morsels": "1,2 2,3 3,1", "order": "ABA", "strategies": "greedy,crossout"}"#
);
snap!(
    dinner_verify,
    dinner::verify_profile,
    r#"{"morsels": "1,2 2,3 3,1", "order": "ABA", "strategies": "greedy"}"#
);
snap!(
    dinner_efg,
    dinner::efg,
    r#"{"morsels": "1,2 2,3", "order": "AB"}"#
);
snap!(
    dinner_discount,
    dinner::discount,
    format!(r#"{{"morsels": "{F8}", "discount": "9/10"}}"#)
);
snap!(
    dinner_discount_search,
    dinner::discount,
    r#"{"discount": "9/10", "search": true}"#
);
snap!(
    dinner_pareto,
    dinner::pareto,
    r#"{"morsels": "1,5 2,1 3,2 4,3 5,4 6,6"}"#
);
snap!(dinner_pareto_size, dinner::pareto, r#"{"size": 6}"#);
snap!(
    dinner_experiment,
    dinner::experiment,
    r#"{"size": 8, "trials": 100}"#
);
snap!(dinner_attainable, dinner::attainable_sets, r#"{"size": 8}"#);
snap!(
    dinner_plot,
    dinner::plot,
    r#"{"morsels": "1,6 2,4 3,5 4,3"}"#
);
snap!(
    dinner_board,
    dinner::board,
    format!(r#"{{"morsels": "{F8}"}}"#)
);
snap!(
    dinner_balance,
    dinner::balance,
    r#"{"max_size": 6, "trials": 20}"#
);
snap!(
    subtraction_table,
    subtraction::table,
    r#"{"set": "4,5,9", "max_heap": 12}"#
);
snap!(
    subtraction_outcome,
    subtraction::outcome,
    r#"{"set": "4,5,9", "heap": "1000000000000000000000", "convention": "FvA"}"#
);
snap!(subtraction_period, subtraction::period, r#"{"set": "3,5"}"#);
snap!(subtraction_scan, subtraction::scan, r#"{"pairs": 4}"#);
snap!(
    subtraction_conjecture,
    subtraction::conjecture,
    r#"{"statement": "4", "sizes": [4], "max": 12}"#
);
snap!(
    subtraction_plot,
    subtraction::plot,
    r#"{"figure": "heatmap", "set": "3,5", "max_heap": 20}"#
);
snap!(
    tokens_solve,
    tokens::solve,
    r#"{"players": 4, "ties": "all"}"#
);
snap!(
    tokens_continuous,
    tokens::solve,
    r#"{"continuous": true, "grid": 2}"#
);
snap!(
    tokens_seats,
    tokens::seats,
    r#"{"stacks": 8, "max_players": 4}"#
);
snap!(
    cookie_analyze,
    cookie::analyze,
    r#"{"components": "0 1 1 3 4 5 8 8"}"#
);
snap!(cookie_critical, cookie::critical, r#"{"max_n": 5}"#);
snap!(cookie_table, cookie::table, r#"{"max_n": 9}"#);
snap!(cookie_nim, cookie::nim, r#"{"max_n": 9}"#);

#[test]
fn reproduce_summary_line() {
    // The whole table is long and pinned by the CLI's golden JSON; its last line here.
    let r = reproduce::reproduce(&reproduce::ReproduceRequest {}, &Control::silent()).unwrap();
    let text = r.to_text();
    insta::assert_snapshot!(text.lines().last().unwrap());
}
