//! Positions reported by the library, so that a front end (the explorer) keeps no
//! arithmetic of its own: a dinner's scores so far and the moves' morsels, the pictures of
//! the dinner left, and the cookie game's computer move. Each is checked against a second
//! route computed here from the inputs.

use lastbite::api::cookie::{analyze, AnalyzeRequest, Components, Match};
use lastbite::api::dinner::{board, plot, solve, BoardRequest, Morsels, PlotRequest, SolveRequest};
use lastbite::api::Control;
use lastbite::exact::Exact;
use lastbite::rng::Rng;

/// A random dinner: 2 or 3 players, 1 to 7 morsels, utilities k/2 or k/3, a random order.
fn random_dinner(rng: &mut Rng) -> (Vec<Vec<Exact>>, String) {
    let players = 2 + rng.below(2) as usize;
    let n = 1 + rng.below(7) as usize;
    let denom = 2 + rng.below(2) as i128;
    let rows = (0..n)
        .map(|_| {
            (0..players)
                .map(|_| Exact::new(rng.below(9) as i128, denom).unwrap())
                .collect()
        })
        .collect();
    let order = (0..n)
        .map(|_| char::from(b'A' + rng.below(players as u64) as u8))
        .collect();
    (rows, order)
}

fn solve_at(rows: &[Vec<Exact>], order: &str, at: &[usize]) -> lastbite::api::dinner::SolveReport {
    let req = SolveRequest {
        morsels: Some(Morsels::Rows(rows.to_vec())),
        order: Some(order.to_string()),
        at: Some(at.to_vec()),
        ..Default::default()
    };
    solve(&req, &Control::silent()).unwrap()
}

/// Along the equilibrium path and after random prefixes: the scores so far are the eaten
/// morsels' utilities to their eaters (summed here), the morsels left and the next mover
/// follow the order, and so far plus what the chosen move leads to is the final score.
#[test]
fn dinner_positions_add_up() {
    let mut rng = Rng::for_trial(29, 0);
    for _ in 0..200 {
        let (rows, order) = random_dinner(&mut rng);
        let n = rows.len();
        let players = rows[0].len();
        let whole = solve_at(&rows, &order, &[]);
        // A random prefix of distinct morsels, and the equilibrium path's prefixes.
        let mut shuffled: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            shuffled.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let cut = rng.below(n as u64 + 1) as usize;
        let path: Vec<usize> = whole.eating_order.iter().map(|b| b.morsel).collect();
        let mut prefixes: Vec<Vec<usize>> = (0..=n).map(|t| path[..t].to_vec()).collect();
        prefixes.push(shuffled[..cut].to_vec());
        for (k, at) in prefixes.iter().enumerate() {
            let r = solve_at(&rows, &order, at);
            let p = r.position.as_ref().expect("a position with at");
            let mut so_far = vec![Exact::ZERO; players];
            for (t, &m) in at.iter().enumerate() {
                let eater = (order.as_bytes()[t] - b'A') as usize;
                so_far[eater] = so_far[eater] + rows[m][eater];
                assert_eq!(p.eaten[t].morsel, m);
                assert_eq!(p.eaten[t].utility, rows[m][eater]);
            }
            assert_eq!(p.so_far, so_far, "{rows:?} {order} at {at:?}");
            let left: Vec<usize> = (0..n).filter(|i| !at.contains(i)).collect();
            assert_eq!(p.left, left);
            assert_eq!(
                p.to_move.map(|l| l.to_string()),
                order.chars().nth(at.len()).map(String::from)
            );
            match &r.explanation {
                None => assert!(left.is_empty()),
                Some(e) => {
                    for mv in &e.moves {
                        assert_eq!(mv.utilities, rows[mv.morsel]);
                    }
                    if k <= n {
                        // On the equilibrium path: so far + the rest = the final scores.
                        let chosen = e.moves.iter().find(|m| m.chosen).unwrap();
                        let total: Vec<Exact> = so_far
                            .iter()
                            .zip(&chosen.value)
                            .map(|(a, b)| *a + *b)
                            .collect();
                        assert_eq!(total, whole.scores, "{rows:?} {order} at {at:?}");
                    }
                }
            }
            if left.is_empty() && k <= n {
                assert_eq!(p.so_far, whole.scores);
            }
        }
    }
}

#[test]
fn dinner_positions_refuse_bad_bites() {
    let rows: Vec<Vec<Exact>> = (1..=3)
        .map(|i| vec![Exact::integer(i), Exact::integer(4 - i)])
        .collect();
    for (at, says) in [(vec![3], "not a morsel index"), (vec![1, 1], "eaten twice")] {
        let req = SolveRequest {
            morsels: Some(Morsels::Rows(rows.clone())),
            at: Some(at),
            ..Default::default()
        };
        let e = solve(&req, &Control::silent()).unwrap_err().to_string();
        assert!(e.contains("at") && e.contains(says), "{e}");
    }
}

/// The board and the outcome cloud of a position are those of the dinner left, written
/// out here with the turns left.
#[test]
fn pictures_of_a_position_are_the_dinner_left() {
    let mut rng = Rng::for_trial(29, 1);
    let mut checked = 0;
    while checked < 60 {
        let (rows, order) = random_dinner(&mut rng);
        if rows[0].len() != 2 || rows.len() < 2 {
            continue;
        }
        checked += 1;
        let n = rows.len();
        let at: Vec<usize> = (0..rng.below(n as u64 - 1) as usize + 1).rev().collect();
        let left: Vec<usize> = (0..n).filter(|i| !at.contains(i)).collect();
        let rest: Vec<Vec<Exact>> = left.iter().map(|&i| rows[i].clone()).collect();
        let rest_order: String = order[at.len()..].to_string();
        let b = |m: Vec<Vec<Exact>>, o: String, at: Option<Vec<usize>>| {
            board(
                &BoardRequest {
                    morsels: Some(Morsels::Rows(m)),
                    order: Some(o),
                    at,
                    picture: true,
                    ..Default::default()
                },
                &Control::silent(),
            )
            .unwrap()
        };
        let mine = b(rows.clone(), order.clone(), Some(at.clone()));
        let theirs = b(rest.clone(), rest_order.clone(), None);
        assert_eq!(mine.left.as_deref(), Some(&left[..]));
        assert_eq!(
            (mine.svg, mine.scores, mine.turn_order),
            (theirs.svg, theirs.scores, theirs.turn_order)
        );
        let p = |m: Vec<Vec<Exact>>, o: String, at: Option<Vec<usize>>| {
            plot(
                &PlotRequest {
                    morsels: Some(Morsels::Rows(m)),
                    order: Some(o),
                    at,
                    picture: true,
                    ..Default::default()
                },
                &Control::silent(),
            )
            .unwrap()
        };
        let mine = p(rows.clone(), order.clone(), Some(at.clone()));
        let theirs = p(rest, rest_order, None);
        assert_eq!(mine.left.as_deref(), Some(&left[..]));
        assert_eq!((mine.svg, mine.all), (theirs.svg, theirs.all));
    }
    let all_eaten = BoardRequest {
        morsels: Some(Morsels::Text("1,2 2,1".into())),
        at: Some(vec![0, 1]),
        ..Default::default()
    };
    let e = board(&all_eaten, &Control::silent())
        .unwrap_err()
        .to_string();
    assert!(e.contains("at") && e.contains("nothing is left"), "{e}");
}

/// The computer's cookie: exactly one move chosen; a winning one whenever one wins; and
/// the one `cookie play` makes as the favoured player.
#[test]
fn the_computer_cookie_is_cookie_plays() {
    let mut rng = Rng::for_trial(29, 2);
    for _ in 0..300 {
        let n = 1 + rng.below(9);
        let comps: Vec<String> = (0..n).map(|_| rng.below(10).to_string()).collect();
        let text = comps.join(" ");
        let req = AnalyzeRequest {
            components: Some(Components::Text(text.clone())),
            explain: true,
            ..AnalyzeRequest::default()
        };
        let moves = analyze(&req, &Control::silent()).unwrap().moves.unwrap();
        if moves.is_empty() {
            continue;
        }
        let chosen: Vec<_> = moves.iter().filter(|m| m.chosen).collect();
        assert_eq!(chosen.len(), 1, "{text}");
        assert_eq!(chosen[0].wins, moves.iter().any(|m| m.wins), "{text}");
        let mut game = Match::new(&Components::Text(text.clone())).unwrap();
        if game.lastbite_to_move() {
            let line = game.favoured_move();
            assert!(
                line.starts_with(&format!("I eat {}:", chosen[0].eat)),
                "{text}: {line}"
            );
        } else {
            assert_eq!(chosen[0].eat, moves[0].eat, "{text}");
        }
    }
}

/// Subtraction games after some takes: the totals so far are the takes summed; along the
/// PSPE the whole game's totals stay the start's outcome; the PSPE option's totals are
/// the position's; and a take off the set or past the heap is refused.
#[test]
fn subtraction_positions_add_up() {
    use lastbite::api::subtraction::{outcome, OutcomeRequest};
    let mut rng = Rng::for_trial(29, 3);
    for _ in 0..120 {
        let mut set: Vec<u64> = (0..1 + rng.below(3)).map(|_| 1 + rng.below(6)).collect();
        set.sort();
        set.dedup();
        let set_text = set.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let heap = rng.below(40);
        let conv = ["FvF", "FvA", "AvF", "AvA"][rng.below(4) as usize];
        let ask = |takes: Option<Vec<u64>>| {
            outcome(
                &OutcomeRequest {
                    set: set_text.clone(),
                    heap: heap.to_string(),
                    convention: conv.parse().unwrap(),
                    explain: true,
                    takes,
                    ..Default::default()
                },
                &Control::silent(),
            )
            .unwrap()
        };
        let start = ask(None).outcome;
        let (mut takes, wander, mut on_path) = (Vec::new(), rng.below(2) == 0, true);
        loop {
            let r = ask(Some(takes.clone()));
            let p = r.position.clone().unwrap();
            let mut so_far = [0u128; 2];
            for (i, &t) in takes.iter().enumerate() {
                so_far[i % 2] += t as u128;
            }
            assert_eq!(p.so_far, so_far);
            assert_eq!(
                p.to_move.to_string(),
                if takes.len() % 2 == 0 { "A" } else { "B" }
            );
            assert_eq!(r.heap, heap as u128 - so_far[0] - so_far[1]);
            let options = r.options.unwrap();
            if on_path {
                assert_eq!(p.totals, start, "{set_text} {heap} {conv} {takes:?}");
            }
            let Some(pspe) = options.iter().find(|o| o.pspe) else {
                assert!(options.is_empty());
                assert_eq!(p.totals, p.so_far);
                break;
            };
            assert_eq!(pspe.totals, Some(p.totals));
            // Now and then a random move: the totals follow the new position.
            let pick = if wander && rng.below(2) == 0 {
                &options[rng.below(options.len() as u64) as usize]
            } else {
                pspe
            };
            on_path = on_path && pick.pspe;
            takes.push(pick.take);
        }
    }
    let bad = OutcomeRequest {
        set: "2,3".into(),
        heap: "4".into(),
        takes: Some(vec![3, 2]),
        ..Default::default()
    };
    let e = outcome(&bad, &Control::silent()).unwrap_err().to_string();
    assert!(e.contains("takes") && e.contains("take 2"), "{e}");
}

/// Token Dollars after some placements: the values as given (worthless stacks too), a
/// territory per stack, and each token's share computed here from the distances.
#[test]
fn token_positions_share_the_stacks() {
    use lastbite::api::tokens::{solve, SolveReport, SolveRequest};
    let mut rng = Rng::for_trial(29, 4);
    for _ in 0..150 {
        let n = 2 + rng.below(7) as usize;
        let values: Vec<Exact> = (0..n)
            .map(|_| Exact::new(rng.below(4) as i128, 2).unwrap())
            .collect();
        let players = 1 + rng.below(n.min(4) as u64) as usize;
        let clock = rng.below(2) == 0;
        let mut free: Vec<usize> = (1..=n).collect();
        let placed: Vec<usize> = (0..rng.below(players as u64 + 1))
            .map(|_| free.remove(rng.below(free.len() as u64) as usize))
            .collect();
        let req = SolveRequest {
            values: Some(
                values
                    .iter()
                    .map(Exact::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            players,
            clock,
            at: Some(placed.clone()),
            ..Default::default()
        };
        let SolveReport::Discrete(r) = solve(&req, &Control::silent()).unwrap() else {
            panic!("a discrete game")
        };
        assert_eq!(r.values.as_deref(), Some(&values[..]));
        let territory = r.territory.unwrap();
        assert_eq!(territory.len(), n);
        let dist = |a: usize, b: usize| {
            let d = a.abs_diff(b);
            if clock {
                d.min(n - d)
            } else {
                d
            }
        };
        let mut shares = vec![Exact::ZERO; placed.len()];
        for s in 1..=n {
            let Some(near) = placed.iter().map(|&p| dist(s, p)).min() else {
                continue;
            };
            let owners: Vec<usize> = (0..placed.len())
                .filter(|&i| dist(s, placed[i]) == near)
                .collect();
            let letters: Vec<String> = owners
                .iter()
                .map(|&i| char::from(b'A' + i as u8).to_string())
                .collect();
            assert_eq!(
                territory[s - 1]
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>(),
                letters
            );
            let part = values[s - 1] * Exact::new(1, owners.len() as i128).unwrap();
            for i in owners {
                shares[i] = shares[i] + part;
            }
        }
        assert_eq!(
            r.shares.unwrap(),
            shares,
            "{values:?} {placed:?} clock {clock}"
        );
        if placed.len() == players {
            assert!(r.explanation.unwrap().is_empty());
        }
    }
}
