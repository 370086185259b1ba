//! The families' games played move by move (`api::game`, the interface the OpenSpiel
//! front end plays): random plays keep the game's promises (actions below `actions`,
//! lengths within `max_length`, returns within bounds and summing as declared, illegal
//! actions refused), and a plain recursive solver written here over the erased interface
//! reaches each family's own answer (dinner's exact solver, the subtraction DP under all
//! four conventions, the tokens solver, the cookie analysis).

use lastbite::api::{self, Control, Playable, Position, Utility};
use lastbite::exact::Exact;
use lastbite::rng::Rng;
use serde_json::{json, Value};

#[derive(Clone, Copy)]
enum Rule {
    First,
    Friendly,
    Antagonistic,
}

/// Backward induction over the erased interface: the mover keeps her best child; among
/// several, `rules[mover]` picks (for two players: the other's payoff highest or lowest,
/// then the first action).
fn value(game: &Playable, p: &Position, rules: &[Rule]) -> Vec<Exact> {
    let Some(mover) = p.to_move() else {
        return p.returns().to_vec();
    };
    let mut best: Option<Vec<Exact>> = None;
    for a in game.actions(p) {
        let v = value(game, &game.apply(p, a).unwrap(), rules);
        let better = match &best {
            None => true,
            Some(b) if v[mover] != b[mover] => v[mover] > b[mover],
            Some(b) => match rules[mover] {
                Rule::First => false,
                Rule::Friendly => v[1 - mover] > b[1 - mover],
                Rule::Antagonistic => v[1 - mover] < b[1 - mover],
            },
        };
        if better {
            best = Some(v);
        }
    }
    best.expect("a position with a mover has a move")
}

fn exact(v: &Value) -> Exact {
    match v {
        Value::String(s) => s.parse().unwrap(),
        other => other.to_string().parse().unwrap(),
    }
}

fn exacts(v: &Value) -> Vec<Exact> {
    v.as_array().unwrap().iter().map(exact).collect()
}

/// Random plays: every promise of the game's description, and the history.
fn check_plays(game: &Playable, rng: &mut Rng, plays: usize) {
    let info = game.info();
    for _ in 0..plays {
        let mut p = game.start();
        let mut history = Vec::new();
        while !p.is_terminal() {
            let actions = game.actions(&p);
            assert!(
                !actions.is_empty(),
                "{}: a mover without actions",
                info.title
            );
            assert!(actions.windows(2).all(|w| w[0] < w[1]));
            assert!(actions.iter().all(|&a| a < info.actions), "{}", info.title);
            let illegal = (0..=info.actions).find(|a| !actions.contains(a)).unwrap();
            let err = game.apply(&p, illegal).unwrap_err().to_string();
            assert!(err.contains("not a legal action"), "{err}");
            assert!(game.action_text(&p, illegal).is_none());
            let a = actions[rng.below(actions.len() as u64) as usize];
            assert!(game.action_text(&p, a).is_some());
            let next = game.apply(&p, a).unwrap();
            // Each move's rewards are what the returns gained.
            for j in 0..info.players {
                assert_eq!(next.returns()[j], p.returns()[j] + next.rewards()[j]);
            }
            if !info.rewards_along_the_way && !next.is_terminal() {
                assert!(next.returns().iter().all(|r| *r == Exact::ZERO));
            }
            history.push(a);
            p = next;
        }
        assert_eq!(p.history(), &history[..]);
        assert!(history.len() as u64 <= info.max_length, "{}", info.title);
        assert!(game.actions(&p).is_empty());
        for r in p.returns() {
            assert!(
                info.min_return <= *r && *r <= info.max_return,
                "{}: {r}",
                info.title
            );
        }
        let sum = p.returns().iter().fold(Exact::ZERO, |a, b| a + *b);
        match info.utility {
            Utility::ZeroSum => assert_eq!(sum, Exact::ZERO),
            Utility::ConstantSum => assert_eq!(Some(sum), info.utility_sum, "{}", info.title),
            Utility::GeneralSum => {}
        }
    }
}

#[test]
fn dinners_play_as_the_exact_solver_says() {
    let mut rng = Rng::for_trial(27, 1);
    for trial in 0..60 {
        let players = 2 + rng.below(2) as usize;
        let n = 1 + rng.below(7) as usize;
        let rows: Vec<Vec<String>> = (0..n)
            .map(|_| {
                (0..players)
                    .map(|_| format!("{}/{}", rng.below(13) as i64 - 4, 1 + rng.below(3)))
                    .collect()
            })
            .collect();
        let text: Vec<String> = rows.iter().map(|r| r.join(":")).collect();
        let order: String = (0..n)
            .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
            .collect();
        let mut req = json!({"morsels": text.join(" "), "order": order});
        if trial % 3 == 0 {
            req["discount"] = json!(["1/2", "2", "3/4"][trial % 9 / 3]);
        }
        let game = api::game("dinner", &req.to_string()).unwrap();
        check_plays(&game, &mut rng, 20);
        let mut solve = req.clone();
        solve["ties"] = json!("first");
        solve["method"] = json!("exact");
        let report = api::call("dinner-solve", &solve.to_string(), &Control::silent()).unwrap();
        let report: Value = serde_json::from_str(&report).unwrap();
        let ours = value(&game, &game.start(), &vec![Rule::First; players]);
        assert_eq!(ours, exacts(&report["scores"]), "{req}");
    }
}

#[test]
fn subtraction_games_play_as_the_dp_says() {
    let mut rng = Rng::for_trial(27, 2);
    for _ in 0..40 {
        let mut set: Vec<u64> = (0..1 + rng.below(3)).map(|_| 1 + rng.below(6)).collect();
        set.sort_unstable();
        set.dedup();
        let set: Vec<String> = set.iter().map(u64::to_string).collect();
        let heap = rng.below(16);
        let req = json!({"set": set.join(" "), "heap": heap});
        let game = api::game("subtraction", &req.to_string()).unwrap();
        check_plays(&game, &mut rng, 10);
        for (name, rules) in [
            ("FvF", [Rule::Friendly, Rule::Friendly]),
            ("FvA", [Rule::Friendly, Rule::Antagonistic]),
            ("AvF", [Rule::Antagonistic, Rule::Friendly]),
            ("AvA", [Rule::Antagonistic, Rule::Antagonistic]),
        ] {
            let q = json!({"set": set.join(","), "heap": heap.to_string(), "convention": name});
            let report =
                api::call("subtraction-outcome", &q.to_string(), &Control::silent()).unwrap();
            let report: Value = serde_json::from_str(&report).unwrap();
            assert_eq!(
                value(&game, &game.start(), &rules),
                exacts(&report["outcome"]),
                "{q}"
            );
        }
        let zero = json!({"set": set.join(" "), "heap": heap, "zero_sum": true});
        let game = api::game("subtraction", &zero.to_string()).unwrap();
        check_plays(&game, &mut rng, 10);
    }
}

#[test]
fn token_dollars_play_as_the_solver_says() {
    let mut rng = Rng::for_trial(27, 3);
    for trial in 0..30 {
        let players = 1 + rng.below(3) as usize;
        let stacks = players + rng.below(5) as usize;
        let clock = trial % 2 == 1;
        let mut req = json!({"players": players, "clock": clock});
        if trial % 3 == 0 {
            let values: Vec<String> = (0..stacks).map(|_| format!("{}/2", rng.below(9))).collect();
            req["values"] = json!(values.join(" "));
        } else {
            req["stacks"] = json!(stacks);
        }
        let game = api::game("tokens", &req.to_string()).unwrap();
        check_plays(&game, &mut rng, 20);
        let mut solve = req.clone();
        if let Some(v) = solve.get("values").cloned() {
            solve["values"] = json!(v.as_str().unwrap().replace(' ', ","));
        }
        let report = api::call("tokens-solve", &solve.to_string(), &Control::silent()).unwrap();
        let report: Value = serde_json::from_str(&report).unwrap();
        let ours = value(&game, &game.start(), &vec![Rule::First; players]);
        assert_eq!(ours, exacts(&report["payoffs"]), "{req}");
    }
}

#[test]
fn cookie_games_play_as_the_analysis_says() {
    let mut rng = Rng::for_trial(27, 4);
    for _ in 0..60 {
        let comps: Vec<u64> = (0..rng.below(7)).map(|_| rng.below(7)).collect();
        let text: Vec<String> = comps.iter().map(u64::to_string).collect();
        let req = json!({"components": text.join(" ")});
        let game = api::game("cookie", &req.to_string()).unwrap();
        check_plays(&game, &mut rng, 10);
        let ours = value(&game, &game.start(), &[Rule::First, Rule::First]);
        if comps.iter().all(|&c| c == 0) {
            assert_eq!(ours, vec![Exact::integer(-1), Exact::integer(1)]);
            continue;
        }
        let q = json!({"components": text.join(" ")});
        let report = api::call("cookie-analyze", &q.to_string(), &Control::silent()).unwrap();
        let report: Value = serde_json::from_str(&report).unwrap();
        let n = report["type"] == "N";
        assert_eq!(ours[0], Exact::integer(if n { 1 } else { -1 }), "{q}");
    }
}

#[test]
fn bad_games_are_refused_naming_the_field() {
    for (family, req, field) in [
        ("dinner", r#"{"morsels": "1,2 x,3"}"#, "morsel"),
        (
            "dinner",
            r#"{"morsels": "1,2 2,3", "discount": "-1"}"#,
            "discount",
        ),
        ("subtraction", r#"{"set": "0", "heap": 3}"#, "set"),
        ("subtraction", r#"{"set": "1", "heap": -3}"#, "heap"),
        ("tokens", r#"{"players": 0}"#, "player"),
        ("tokens", r#"{"values": "1 2", "stacks": 4}"#, "values"),
        ("cookie", r#"{"components": "1 x"}"#, "component"),
        ("cookie", r#"{"components": "1", "heap": 2}"#, "heap"),
        ("chess", "{}", "family"),
    ] {
        let err = api::game(family, req)
            .err()
            .unwrap_or_else(|| panic!("{family} {req} accepted"))
            .to_string();
        assert!(err.contains(field), "{family} {req}: {err}");
        assert!(!err.contains('\n'));
    }
    assert_eq!(api::game_fields("tokens").unwrap()["stacks"], 10);
    assert!(api::game_fields("chess").is_err());
}
