//! The exact search against two other routes: the discrete game's own solver when only
//! stacks may be taken, and searches over ever finer grids, which must change nothing.

use super::*;
use crate::engine::Silent;
use crate::games::tokens::{solve, Board};
use proptest::prelude::*;

/// The exact search with its memo keyed by the positions themselves: the tests' route
/// to the same answer without the faces.
fn anywhere_by_position(arena: &Arena, ties: TokenTies) -> Result<AnywherePlay, TokensError> {
    search(arena, ties, Candidates::Pieces, false, &Silent)
}

fn int(i: i128) -> Exact {
    Exact::integer(i)
}

fn dollars(m: i128) -> Vec<Exact> {
    (1..=m).map(int).collect()
}

/// The Riddler's continuous game: Ariel 5, Beatrice 9, Cassandra anywhere in (7, 9).
#[test]
fn the_riddle() {
    let arena = Arena::unit_spaced(dollars(10), 3, false).unwrap();
    let play = anywhere(&arena, TokenTies::Lowest, &Silent).unwrap();
    assert_eq!(play.moves[..2], [int(5), int(9)]);
    assert_eq!(play.choices[0].best.to_string(), "5");
    assert_eq!(play.choices[1].best.to_string(), "9");
    assert_eq!(play.choices[2].best.to_string(), "(7, 9)");
    assert_eq!(play.payoffs, [int(21), int(19), int(15)]);
}

/// A taken point splits a set; touching pieces merge with the right ends.
#[test]
fn unions_show_their_ends() {
    let arena = Arena::unit_spaced(dollars(4), 1, false).unwrap();
    let play = anywhere(&arena, TokenTies::Lowest, &Silent).unwrap();
    // Alone, a token takes everything anywhere.
    assert_eq!(play.choices[0].best.to_string(), "[1, 4]");
    assert!(play.choices[0].best.contains(int(4)));
    assert!(!play.choices[0].best.contains(Exact::new(9, 2).unwrap()));
}

fn check_discrete(values: Vec<Exact>, players: usize, clock: bool, ties: TokenTies) {
    let arena = Arena::unit_spaced(values.clone(), players, clock).unwrap();
    let board = Board::new(values, players, clock).unwrap();
    let exact = anywhere_with(&arena, ties, Candidates::Stacks, &Silent).unwrap();
    let discrete = solve(&board, ties);
    let moves: Vec<Exact> = discrete.moves.iter().map(|&m| int(m as i128)).collect();
    assert_eq!(exact.moves, moves, "{board}");
    let pays: Vec<Exact> = discrete.payoffs.iter().map(|&v| board.real(v)).collect();
    assert_eq!(exact.payoffs, pays, "{board}");
}

/// Every placement tried on the finer grid of each depth lies in the exact search's
/// sets exactly when it is as good (or has the same outcome), and the equilibrium's
/// payoffs agree: refining changes nothing.
fn check_refined(arena: &Arena, ties: TokenTies) {
    // The finer grids try every point of each depth's grid: kept to the refinements
    // that take a second or so.
    let extra: Vec<usize> = [1, 2]
        .into_iter()
        .filter(|&e| refined_cost(arena, e) < 6_000_000)
        .collect();
    assert!(!extra.is_empty(), "{arena}: too large to refine in a test");
    check_refined_by(arena, ties, &extra);
}

/// The placements the search on the grids refined by `e` tries, about.
fn refined_cost(arena: &Arena, e: usize) -> u128 {
    let steps = ((arena.hi - arena.lo) / arena.grain) as u128;
    (1..=arena.players)
        .map(|t| steps * (1u128 << (t + e)) + 1)
        .product()
}

fn check_refined_by(arena: &Arena, ties: TokenTies, extra: &[usize]) {
    let exact = anywhere(arena, ties, &Silent).unwrap();
    for &e in extra {
        let fine = anywhere_with(arena, ties, Candidates::Refined(e), &Silent).unwrap();
        assert_eq!(exact.payoffs, fine.payoffs, "{arena}, refined by {e}");
        // The finer search's sets are its best grid points; replay the exact search's
        // history on the finer grid to compare its sets point by point.
        for (t, c) in exact.choices.iter().enumerate() {
            let mut s = Search {
                arena,
                ties,
                candidates: Candidates::Refined(e),
                by_face: false,
                memo: HashMap::new(),
                stop: &Silent,
                tried: 0,
                stopped: false,
            };
            let prefix: Vec<i64> = exact.moves[..t]
                .iter()
                .map(|m| m.scaled_to(arena.unit).unwrap() as i64)
                .collect();
            let mut taken = prefix.clone();
            taken.sort_unstable();
            let mut lines = Vec::new();
            for piece in s.pieces(&taken) {
                let mut m = prefix.clone();
                m.push(piece.at());
                let all = s.complete(&m);
                let pays: Vec<i64> = all.iter().map(|&x| arena.share(x, &all)).collect();
                lines.push((piece.at(), pays));
            }
            let top = lines.iter().map(|(_, p)| p[t]).max().unwrap();
            let chosen_pay = c.payoff.scaled_to(arena.value_scale as i128).unwrap() as i64;
            assert_eq!(
                top, chosen_pay,
                "{arena}: player {t}'s best, refined by {e}"
            );
            for (x, pays) in &lines {
                let at = arena.real(*x);
                assert_eq!(
                    c.best.contains(at),
                    pays[t] == top,
                    "{arena}: player {t} at {at} (refined by {e}) against {}",
                    c.best
                );
            }
        }
    }
}

#[test]
fn small_games_refine_to_nothing_new() {
    for clock in [false, true] {
        for players in 1..=4 {
            for m in players.max(2)..=(if players == 4 { 4 } else { 5 }) {
                let arena = Arena::unit_spaced(dollars(m as i128), players, clock).unwrap();
                check_refined(&arena, TokenTies::Lowest);
                check_refined(&arena, TokenTies::Highest);
            }
        }
    }
}

/// The search keyed by faces against the same search keyed by positions, and against it
/// cut at the first player's pieces: the same moves, payoffs and sets, and the
/// placements tried within the bound.
fn check_faces(arena: &Arena, ties: TokenTies) {
    let faces = anywhere(arena, ties, &Silent).unwrap();
    let positions = anywhere_by_position(arena, ties).unwrap();
    assert_eq!(faces.moves, positions.moves, "{arena}");
    assert_eq!(faces.payoffs, positions.payoffs, "{arena}");
    assert_eq!(faces.choices, positions.choices, "{arena}");
    assert!(faces.placements <= positions.placements, "{arena}");
    check_cut(arena, ties, &faces);
}

/// The search cut at the first player's pieces, each with a memo of its own, against the
/// one search's play `faces`.
fn check_cut(arena: &Arena, ties: TokenTies, faces: &AnywherePlay) {
    let firsts: Vec<first::FirstPiece> = (0..first::first_pieces(arena))
        .map(|i| first::after_first(arena, ties, i, &Silent).unwrap())
        .collect();
    let pays: Vec<Vec<i64>> = firsts.iter().map(|f| f.pays.clone()).collect();
    assert!(pays
        .iter()
        .all(|p| p.iter().sum::<i64>() == arena.money_units()));
    let cut = first::from_first_pieces(arena, ties, &pays, &Silent).unwrap();
    assert_eq!(cut.moves, faces.moves, "{arena}");
    assert_eq!(cut.payoffs, faces.payoffs, "{arena}");
    assert_eq!(cut.choices, faces.choices, "{arena}");
    // What the sweep reports: its items' placements and the replay's.
    let tried = firsts.iter().map(|f| f.placements).sum::<u64>() + cut.placements;
    for placements in [faces.placements, tried] {
        assert!(
            u128::from(placements) <= arena.placements_bound(),
            "{arena}: {placements} placements over the bound {}",
            arena.placements_bound()
        );
    }
}

/// Every game of $1..$M, M up to 6, one to four players, lines and clocks, and five
/// players on the line of $1..$5, both tie rules: keeping each face once changes
/// nothing. (Five round the clock of $1..$5, of odd circumference and so twice the
/// lattice points, take the positions' memo 13 s.)
#[test]
fn faces_solve_as_positions_do() {
    for clock in [false, true] {
        for players in 1..=5 {
            for m in players.max(2)..=(if players == 5 { 5 } else { 6 }) {
                if clock && players == 5 {
                    continue;
                }
                let arena = Arena::unit_spaced(dollars(m as i128), players, clock).unwrap();
                check_faces(&arena, TokenTies::Lowest);
                check_faces(&arena, TokenTies::Highest);
            }
        }
    }
}

/// The cut search on the riddle's $1..$10, three to five players, lines and clocks,
/// both tie rules (the one search's memo keyed by positions would take minutes here).
#[test]
#[ignore = "seconds: five players on $1..$10"]
fn the_cut_search_solves_the_riddles_dollars() {
    for players in 3..=5 {
        for clock in [false, true] {
            let arena = Arena::unit_spaced(dollars(10), players, clock).unwrap();
            for ties in [TokenTies::Lowest, TokenTies::Highest] {
                check_cut(&arena, ties, &anywhere(&arena, ties, &Silent).unwrap());
            }
        }
    }
}

/// Stacks `(gap, value)` after one another, each `gap / denominator` past the one before
/// it (the first past 0), on a line, or on a clock whose circumference is the last
/// position plus `past`.
fn uneven(
    stacks: &[(i128, i128)],
    denominator: i128,
    players: usize,
    past: Option<Exact>,
) -> Arena {
    let mut at = Exact::ZERO;
    let layout: Vec<(Exact, Exact)> = stacks
        .iter()
        .map(|&(gap, v)| {
            at = at + Exact::new(gap, denominator).unwrap();
            (at, int(v))
        })
        .collect();
    Arena::new(layout, players, past.map(|p| at + p)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random values at uneven positions, two to five players, line or clock, either
    /// tie rule: the faces' memo gives what the positions' does.
    #[test]
    fn random_layouts_solve_by_faces_as_by_positions(
        stacks in prop::collection::vec((1i128..5, 0i128..9), 2..7),
        players in 2usize..6,
        clock: bool,
        highest: bool,
    ) {
        let arena = uneven(&stacks, 3, players, clock.then(|| Exact::new(1, 2).unwrap()));
        prop_assume!(arena.placements_bound() < 3_000_000);
        let ties = if highest { TokenTies::Highest } else { TokenTies::Lowest };
        check_faces(&arena, ties);
    }

    /// Only stacks allowed, the search is the discrete game's solver.
    #[test]
    fn stacks_only_is_the_discrete_game(
        values in prop::collection::vec(0i128..8, 2..7),
        players in 1usize..4,
        clock: bool,
        highest: bool,
    ) {
        prop_assume!(players <= values.len());
        let ties = if highest { TokenTies::Highest } else { TokenTies::Lowest };
        check_discrete(values.into_iter().map(int).collect(), players, clock, ties);
    }

    /// Random values and uneven positions, two to four players, line or clock: the
    /// finer grids agree with the pieces.
    #[test]
    fn random_layouts_refine_to_nothing_new(
        stacks in prop::collection::vec((1i128..4, 0i128..6), 2..5),
        players in 2usize..5,
        clock: bool,
    ) {
        let arena = uneven(&stacks, 2, players, clock.then(|| int(1)));
        prop_assume!(refined_cost(&arena, 1) < 4_000_000);
        check_refined(&arena, TokenTies::Lowest);
    }
}

#[test]
fn bad_layouts_name_their_field() {
    let field = |r: Result<Arena, TokensError>| match r {
        Err(TokensError::Layout { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    let s = |p: i128, v: i128| (int(p), int(v));
    assert_eq!(
        field(Arena::new(vec![s(2, 1), s(1, 1)], 1, None)),
        "positions"
    );
    assert_eq!(field(Arena::new(vec![s(1, -1)], 1, None)), "values");
    assert_eq!(
        field(Arena::new(vec![s(1, 1), s(3, 1)], 1, Some(int(2)))),
        "circumference"
    );
    // A clock too long to hold in exact arithmetic is the circumference's fault.
    let long = int(10i128.pow(29));
    assert_eq!(
        field(Arena::new(vec![s(1, 1), s(3, 1)], 1, Some(long))),
        "circumference"
    );
    assert_eq!(
        field(Arena::new(vec![s(1, 1), (long, int(1))], 1, None)),
        "positions"
    );
    assert!(Arena::new(vec![], 1, None).is_err());
}

/// The Riddler's line with three and four players, refined once (minutes: run by hand).
#[test]
#[ignore = "minutes: the finer grids of 10 stacks"]
fn riddle_sizes_refine_to_nothing_new() {
    for players in [3, 4] {
        let arena = Arena::unit_spaced(dollars(10), players, false).unwrap();
        let t = std::time::Instant::now();
        check_refined_by(&arena, TokenTies::Lowest, &[1]);
        eprintln!("{players} players: {:?}", t.elapsed());
    }
}
