//! `cookie analyze` with `explain`: the moves that win (their position left is a
//! P-position, each analysed on its own) are exactly the position's winning moves, and
//! each position left is the option the model gives.

use lastbite::api::cookie::{analyze, AnalyzeRequest, Components};
use lastbite::api::Control;
use lastbite::rng::Rng;

#[test]
fn explained_moves_agree_with_the_winning_moves() {
    let mut rng = Rng::for_trial(11, 0);
    let mut next = |m: u64| rng.below(m);
    for _ in 0..150 {
        let n = 1 + next(9);
        let comps: Vec<String> = (0..n).map(|_| next(10).to_string()).collect();
        let req = AnalyzeRequest {
            components: Some(Components::Text(comps.join(" "))),
            explain: true,
            ..AnalyzeRequest::default()
        };
        let r = analyze(&req, &Control::silent()).unwrap();
        let moves = r.moves.expect("explained");
        let wins: Vec<u64> = moves.iter().filter(|m| m.wins).map(|m| m.eat).collect();
        assert_eq!(Some(wins), r.winning_moves, "{comps:?}");
        assert_eq!(r.kind == "N", moves.iter().any(|m| m.wins), "{comps:?}");
        for m in &moves {
            // The position left: the others a day older, expired ones dropped.
            let mut rest: Vec<u64> = r.position.clone();
            let at = rest.iter().position(|&c| c == m.eat).unwrap();
            rest.remove(at);
            let mut left: Vec<u64> = rest.into_iter().filter(|&c| c > 1).map(|c| c - 1).collect();
            left.sort();
            assert_eq!(m.position, left, "{comps:?} eat {}", m.eat);
        }
    }
}
