//! The Riddler solution's published answers, recomputed (the reference program's
//! lowest-stack tie rule).

use crate::reproduce::{check, Check};

use super::model::Board;
use super::theory::{all_outcomes, solve, TokenTies};

/// Recomputes every published Token Dollars value.
pub fn checks() -> Vec<Check> {
    let src = "Token Dollars solution (FiveThirtyEight Riddler, 2018), $1..$10 on a line";
    let mut out = Vec::new();
    let mut firsts = Vec::new();
    let mut payoffs = Vec::new();
    for players in 3..=7 {
        let b = Board::dollars(10, players, false).expect("valid board");
        let play = solve(&b, TokenTies::Lowest);
        firsts.push(play.moves[0].to_string());
        payoffs.push(b.real(play.payoffs[0]).to_string());
    }
    out.push(check(
        "tokens.first_moves",
        src,
        "optimal first moves for 3, 4, 5, 6, 7 players",
        "5, 7, 4, 4, 10".into(),
        firsts.join(", "),
    ));
    out.push(check(
        "tokens.first_payoffs",
        src,
        "the first player's payoff for 3, 4, 5, 6, 7 players",
        "21, 17, 25/2, 25/2, 10".into(),
        payoffs.join(", "),
    ));
    let b = Board::dollars(10, 3, false).expect("valid board");
    let play = solve(&b, TokenTies::Lowest);
    let moves: Vec<String> = play.moves.iter().map(|m| m.to_string()).collect();
    out.push(check(
        "tokens.three_players",
        src,
        "the optimally played 3-player game",
        "5, 9, 8".into(),
        moves.join(", "),
    ));
    let c = Board::dollars(12, 3, true).expect("valid board");
    let play = solve(&c, TokenTies::Lowest);
    out.push(check(
        "tokens.clock",
        "Token Dollars solution, 3 players on a clock with $1..$12",
        "first move and its payoff",
        "7, 63/2".into(),
        format!("{}, {}", play.moves[0], c.real(play.payoffs[0])),
    ));
    let four = Board::dollars(10, 4, false).expect("valid board");
    let mut firsts: Vec<String> = all_outcomes(&four)
        .iter()
        .map(|v| four.real(v[0]).to_string())
        .collect();
    firsts.sort();
    firsts.dedup();
    out.push(check(
        "tokens.four_players_all",
        "lastbite issue on Token Dollars (not the Riddler): 4 players, every pure SPE",
        "the first player's payoffs over all pure SPE outcomes (the reference's 17 is one)",
        "15, 17, 18".into(),
        firsts.join(", "),
    ));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn riddler_answers_reproduce() {
        for c in super::checks() {
            assert!(
                c.pass,
                "{}: published {} but computed {}",
                c.id, c.published, c.computed
            );
        }
    }
}
