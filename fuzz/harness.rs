//! What each fuzz target does with its input, shared by the cargo-fuzz targets
//! (`fuzz/fuzz_targets/`, nightly) and the corpus replay test that every normal test run
//! includes (`lastbite/tests/fuzz_corpus.rs`, stable). Each parser must return a value
//! or a one-line error, never panic; parsed values must round-trip where they print.

use lastbite::api;
use lastbite::engine::Ties;
use lastbite::exact::Exact;
use lastbite::games::cookie::Position;
use lastbite::games::dinner::{Dinner, Precedence, TurnOrder};
use lastbite::games::subtraction::{parse_heap, Convention, Ruleset};
use lastbite::games::tokens::Board;

/// The fuzz targets, by name (one corpus folder each).
#[allow(dead_code)] // the replay test reads it; the fuzz targets do not
pub const TARGETS: [&str; 11] = [
    "morsels",
    "dinner_file",
    "turn_order",
    "ties",
    "exact",
    "subtraction",
    "cookie",
    "tokens",
    "request",
    "efg",
    "stores",
];

fn one_line(e: impl std::fmt::Display) {
    let text = e.to_string();
    assert!(
        !text.contains('\n') && !text.contains('\r'),
        "message over several lines: {text:?}"
    );
}

fn small_dinner() -> Dinner {
    Dinner::from_morsels("1,2 2,3 3,1 4,4 5,0").unwrap()
}

/// Runs target `name` on `data`; panics (the fuzzer's finding) on a broken property.
pub fn run(name: &str, data: &[u8]) {
    if name == "stores" {
        return stores(data);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match name {
        "morsels" => match Dinner::from_morsels(text) {
            Ok(d) => {
                assert!(!d.is_empty() && d.players() > 0);
                let _ = TurnOrder::default_for(&d);
            }
            Err(e) => one_line(e),
        },
        "dinner_file" => {
            for ext in [None, Some("csv"), Some("json"), Some("toml")] {
                match Dinner::from_file_text(text, "fuzz", ext) {
                    Ok((d, order)) => {
                        if let Some(o) = order {
                            if let Err(e) = TurnOrder::parse(&o, &d) {
                                one_line(e);
                            }
                        }
                    }
                    Err(e) => one_line(e),
                }
            }
        }
        "turn_order" => {
            let d = small_dinner();
            match TurnOrder::parse(text, &d) {
                Ok(o) => assert_eq!(o.len(), d.len()),
                Err(e) => one_line(e),
            }
            if let Err(e) = Precedence::parse(text, &d) {
                one_line(e);
            }
        }
        "ties" => {
            for players in 1..=3 {
                if let Err(e) = Ties::parse(text, players) {
                    one_line(e);
                }
            }
        }
        "exact" => match text.parse::<Exact>() {
            Ok(x) => assert_eq!(x.to_string().parse::<Exact>().unwrap(), x),
            Err(e) => one_line(e),
        },
        "subtraction" => {
            match text.parse::<Ruleset>() {
                Ok(s) => assert_eq!(
                    s.to_string()
                        .trim_matches(|c| c == '{' || c == '}')
                        .parse::<Ruleset>()
                        .unwrap(),
                    s
                ),
                Err(e) => one_line(e),
            }
            match parse_heap(text) {
                Ok(h) => assert_eq!(parse_heap(&h.to_string()).unwrap(), h),
                Err(e) => one_line(e),
            }
            if let Err(e) = text.parse::<Convention>() {
                one_line(e);
            }
        }
        "cookie" => match text.parse::<Position>() {
            Ok(p) => {
                let again: Position = p
                    .components()
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .parse()
                    .unwrap();
                assert_eq!(again, p);
            }
            Err(e) => one_line(e),
        },
        "tokens" => {
            for clock in [false, true] {
                if let Err(e) = Board::parse_values(text, 2, clock) {
                    one_line(e);
                }
            }
        }
        "request" => request(text),
        "efg" => efg(text),
        other => panic!("unknown fuzz target {other}"),
    }
}

/// Files lastbite reads back to resume or merge: the first byte picks a
/// cookie layer file, the general table's checkpoint or a shard document, the rest is the
/// file. Each is refused in one line naming it, or used only when it is what lastbite
/// wrote: a run resumed from it reports what a run without it does.
fn stores(data: &[u8]) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static RUN: AtomicU64 = AtomicU64::new(0);
    let Some((&which, file)) = data.split_first() else {
        return;
    };
    let ctl = api::Control::silent();
    if which % 3 == 2 {
        let text = String::from_utf8_lossy(file).into_owned();
        if let Err(e) = api::sweep::merge(&[text], &ctl) {
            one_line(e);
        }
        return;
    }
    let dir = std::env::temp_dir().join(format!(
        "lastbite-fuzz-store-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    // Layer 1 stored (a table to 2 reads it), or the checkpoint of the streamed layer 3.
    let (name, max) = match which % 3 {
        0 => ("general-layer-01.bin", 2),
        _ => ("general-last-03-000.json", 3),
    };
    std::fs::write(dir.join(name), file).expect("a temporary file");
    let request = |store: bool| {
        let mut r = serde_json::json!({ "max_size": max });
        if store {
            r["store"] = dir.to_string_lossy().into_owned().into();
        }
        api::call("cookie-general", &r.to_string(), &ctl)
    };
    match request(true) {
        Ok(report) => assert_eq!(
            Some(report),
            request(false).ok(),
            "a stored file changed the answer"
        ),
        Err(e) => {
            one_line(&e);
            assert!(
                e.to_string().contains(name),
                "the error names the file: {e}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Gambit file: read it or refuse it in one line; a game that reads writes back to an
/// equal game, and a small perfect-information one is solved under every tie rule with an
/// equilibrium that the independent profile check accepts, and all its SPE outcomes are
/// collected (or refused over a small budget, in one line).
fn efg(text: &str) {
    use lastbite::engine::{Silent, TieBreak};
    use lastbite::games::efg::{all_outcomes, solve, verify, Efg, Verdict};
    let game = match Efg::parse(text, 5_000) {
        Ok(g) => g,
        Err(e) => return one_line(e),
    };
    let _ = game.info();
    assert_eq!(
        Efg::parse(&game.to_text(), 5_000).as_ref(),
        Ok(&game),
        "round trip"
    );
    if let Err(e) = game.check_perfect_information() {
        return one_line(e);
    }
    for rule in TieBreak::ALL {
        let sol = solve(&game, &Ties::uniform(rule, game.players().len()), &Silent).unwrap();
        assert!(matches!(
            verify(&game, &sol.behavior(&game), &Silent).unwrap(),
            Verdict::SubgamePerfect { .. }
        ));
    }
    if let Err(e) = all_outcomes(&game, 1_000, &Silent) {
        one_line(e);
    }
}

/// Every request type reads the document or refuses it; a dinner request that parses is
/// also loaded and validated (no solving: that is not the parser's time).
fn request(text: &str) {
    macro_rules! each {
        ($($t:ty),*) => { $( if let Err(e) = api::parse_request::<$t>(text) { one_line(e); } )* };
    }
    use api::{cookie, dinner, efg, reproduce, subtraction, tokens};
    each!(
        dinner::SolveRequest,
        efg::SolveRequest,
        efg::VerifyRequest,
        efg::InfoRequest,
        efg::RandomRequest,
        dinner::PlayRequest,
        dinner::EfgRequest,
        dinner::DiscountRequest,
        dinner::ParetoRequest,
        dinner::ExperimentRequest,
        dinner::AttainableRequest,
        dinner::PlotRequest,
        dinner::BoardRequest,
        dinner::BalanceRequest,
        dinner::MultiplicityRequest,
        subtraction::TableRequest,
        subtraction::OutcomeRequest,
        subtraction::PeriodRequest,
        subtraction::ScanRequest,
        subtraction::ConjectureRequest,
        subtraction::ProblemsRequest,
        subtraction::PlotRequest,
        tokens::SolveRequest,
        tokens::SeatsRequest,
        cookie::AnalyzeRequest,
        cookie::CriticalRequest,
        cookie::TableRequest,
        cookie::NimRequest,
        reproduce::ReproduceRequest
    );
    // A small dinner request runs: crossout is O(n log n), and the exact solver gets a
    // budget that keeps it within milliseconds.
    if let Ok(mut req) = serde_json::from_str::<dinner::SolveRequest>(text) {
        if req.file.is_some() {
            return;
        }
        req.max_states = req.max_states.min(1 << 12);
        req.all = false;
        match dinner::solve(&req, &api::Control::silent()) {
            Ok(r) => assert_eq!(r.scores.len(), r.players),
            Err(e) => one_line(e),
        }
    }
}
