//! The Riddler solution's published answers, recomputed (the reference program's
//! lowest-stack tie rule). The published values live in
//! `data/published/token-dollars.toml`.

use crate::engine::Silent;
use serde::Deserialize;

use crate::exact::Exact;
use crate::reproduce::{check, check_known, Check};

use super::anywhere::{anywhere, Arena};
use super::model::Board;
use super::theory::{all_outcomes, solve, TokenTies};

/// The published values file.
pub const PUBLISHED: &str = include_str!("../../../data/published/token-dollars.toml");

#[derive(Deserialize)]
struct Published {
    discrete: Discrete,
    clock: Clock,
    continuous: Continuous,
    issue: Issue,
}

#[derive(Deserialize)]
struct Discrete {
    #[serde(rename = "where")]
    source: String,
    players: Vec<usize>,
    first_moves: Vec<usize>,
    first_payoffs: Vec<String>,
    three_player_game: Vec<usize>,
}

#[derive(Deserialize)]
struct Clock {
    #[serde(rename = "where")]
    source: String,
    first_move: usize,
    first_payoff: String,
}

#[derive(Deserialize)]
struct Continuous {
    #[serde(rename = "where")]
    source: String,
    ariel: String,
    beatrice: String,
    cassandra: String,
    cassandra_computed: String,
}

#[derive(Deserialize)]
struct Issue {
    #[serde(rename = "where")]
    source: String,
    four_player_first_payoffs: Vec<String>,
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Recomputes every published Token Dollars value.
pub fn checks() -> Vec<Check> {
    let p: Published =
        toml::from_str(PUBLISHED).expect("the embedded published-values file is valid");
    let mut out = Vec::new();
    let d = &p.discrete;
    let plays: Vec<(Board, super::theory::Play)> = d
        .players
        .iter()
        .map(|&n| {
            let b = Board::dollars(10, n, false).expect("valid board");
            let play = solve(&b, TokenTies::Lowest);
            (b, play)
        })
        .collect();
    let firsts: Vec<usize> = plays.iter().map(|(_, pl)| pl.moves[0]).collect();
    let pays: Vec<String> = plays
        .iter()
        .map(|(b, pl)| b.real(pl.payoffs[0]).to_string())
        .collect();
    let who = format!("for {} players", join(&d.players));
    out.push(check(
        "tokens.first_moves",
        &d.source,
        &format!("optimal first moves {who}"),
        join(&d.first_moves),
        join(&firsts),
    ));
    out.push(check(
        "tokens.first_payoffs",
        &d.source,
        &format!("the first player's payoff {who}"),
        d.first_payoffs.join(", "),
        pays.join(", "),
    ));
    let three = solve(
        &Board::dollars(10, 3, false).expect("valid"),
        TokenTies::Lowest,
    );
    out.push(check(
        "tokens.three_players",
        &d.source,
        "the optimally played 3-player game",
        join(&d.three_player_game),
        join(&three.moves),
    ));
    let c = &p.clock;
    let cb = Board::dollars(12, 3, true).expect("valid board");
    let cp = solve(&cb, TokenTies::Lowest);
    out.push(check(
        "tokens.clock",
        &c.source,
        "first move and its payoff",
        format!("{}, {}", c.first_move, c.first_payoff),
        format!("{}, {}", cp.moves[0], cb.real(cp.payoffs[0])),
    ));
    let k = &p.continuous;
    let values: Vec<Exact> = (1..=10).map(Exact::integer).collect();
    let riddle = Arena::unit_spaced(values, 3, false).expect("valid board");
    let exact = anywhere(&riddle, TokenTies::Lowest, &Silent).expect("small game");
    out.push(check(
        "tokens.continuous.ariel_beatrice",
        &k.source,
        "Ariel and Beatrice's locations (exact: one placement per piece of the arrangement)",
        format!("{}, {}", k.ariel, k.beatrice),
        format!("{}, {}", exact.moves[0], exact.moves[1]),
    ));
    out.push(check_known(
        "tokens.continuous.cassandra",
        &k.source,
        "the locations Cassandra is indifferent between (exact)",
        k.cassandra.clone(),
        exact.choices[2].best.to_string(),
        &k.cassandra_computed,
    ));
    let i = &p.issue;
    let four = Board::dollars(10, 4, false).expect("valid board");
    let mut firsts: Vec<String> = all_outcomes(&four)
        .iter()
        .map(|v| four.real(v[0]).to_string())
        .collect();
    firsts.sort_by(|a, b| {
        a.parse::<Exact>()
            .expect("exact")
            .cmp(&b.parse::<Exact>().expect("exact"))
    });
    firsts.dedup();
    out.push(check(
        "tokens.four_players_all",
        &i.source,
        "the first player's payoffs over all pure SPE outcomes (the reference's 17 is one)",
        i.four_player_first_payoffs.join(", "),
        firsts.join(", "),
    ));
    out
}

#[cfg(test)]
mod tests {
    /// The Riddler's answers reproduce; the one documented difference stays as recorded.
    #[test]
    fn riddler_answers_reproduce() {
        let checks = super::checks();
        for c in &checks {
            assert!(
                c.pass,
                "{}: published {} but computed {}",
                c.id, c.published, c.computed
            );
        }
        assert_eq!(checks.iter().filter(|c| c.differs).count(), 1);
    }
}
