//! Export of small games as Gambit `.efg` files (extensive form, format version 2), so
//! that users can cross-check a result with Gambit's own solvers.
//!
//! The export writes the game *tree*: a state reached along several paths appears once
//! per path, so the file grows with the number of plays, not of states. [`tree_size`]
//! counts the nodes first and the export refuses trees over the caller's limit. Each
//! decision node is its own information set (perfect information), as is each chance
//! node (written with its probabilities, as Gambit writes them); payoffs accrued along a
//! play are summed into its terminal outcome.

use std::collections::HashMap;
use std::io::Write;

use super::evaluate::terminal_value;
use super::{EngineError, Game, Payoff, CHANCE};

/// The number of nodes of the game tree (saturating at `u128::MAX`), counted over states.
pub fn tree_size<G: Game>(game: &G) -> u128 {
    fn count<G: Game>(game: &G, s: &G::State, memo: &mut HashMap<G::State, u128>) -> u128 {
        if let Some(&c) = memo.get(s) {
            return c;
        }
        let mut total: u128 = 1;
        if game.to_move(s).is_some() {
            let mut moves = Vec::new();
            game.moves(s, &mut moves);
            for mv in &moves {
                let child = game.play(s, mv);
                total = total.saturating_add(count(game, &child, memo));
            }
        }
        memo.insert(s.clone(), total);
        total
    }
    count(game, &game.root(), &mut HashMap::new())
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes the game as a Gambit `.efg` file; refuses trees with more than `limit` nodes.
pub fn write_efg<G: Game>(
    game: &G,
    title: &str,
    limit: u128,
    out: &mut dyn Write,
) -> Result<(), EngineError> {
    let nodes = tree_size(game);
    if nodes > limit {
        return Err(EngineError::TreeTooLarge { nodes, limit });
    }
    let io = |e: std::io::Error| EngineError::Io(e.to_string());
    let players: Vec<String> = (0..game.players())
        .map(|p| quote(&game.player_name(p)))
        .collect();
    writeln!(out, "EFG 2 R {} {{ {} }}", quote(title), players.join(" ")).map_err(io)?;
    writeln!(out, "\"\"\n").map_err(io)?;
    // One counter per player, then chance's.
    let mut infosets = vec![0usize; game.players() + 1];
    let mut outcomes = 0usize;
    let mut acc: Vec<G::Payoff> = vec![G::Payoff::zero(); game.players()];
    write_node(
        game,
        &game.root(),
        &mut acc,
        &mut infosets,
        &mut outcomes,
        out,
    )
}

fn write_node<G: Game>(
    game: &G,
    state: &G::State,
    acc: &mut Vec<G::Payoff>,
    infosets: &mut [usize],
    outcomes: &mut usize,
    out: &mut dyn Write,
) -> Result<(), EngineError> {
    let io = |e: std::io::Error| EngineError::Io(e.to_string());
    let mut moves = Vec::new();
    if let Some(mover) = game.to_move(state) {
        game.moves(state, &mut moves);
        if !moves.is_empty() && mover == CHANCE {
            let mut probs = Vec::new();
            super::chance::weights(game, state, &moves, &mut probs)?;
            let chance = infosets.len() - 1;
            infosets[chance] += 1;
            let actions: Vec<String> = moves
                .iter()
                .zip(&probs)
                .map(|(m, p)| format!("{} {}", quote(&game.move_label(state, m)), p))
                .collect();
            writeln!(
                out,
                "c {} {} \"\" {{ {} }} 0",
                quote(&game.state_text(state)),
                infosets[chance],
                actions.join(" ")
            )
            .map_err(io)?;
        } else if !moves.is_empty() {
            infosets[mover] += 1;
            let labels: Vec<String> = moves
                .iter()
                .map(|m| quote(&game.move_label(state, m)))
                .collect();
            writeln!(
                out,
                "p {} {} {} \"\" {{ {} }} 0",
                quote(&game.state_text(state)),
                mover + 1,
                infosets[mover],
                labels.join(" ")
            )
            .map_err(io)?;
        }
        if !moves.is_empty() {
            for mv in &moves {
                let before = acc.clone();
                game.add_move_payoffs(state, mv, acc);
                let child = game.play(state, mv);
                write_node(game, &child, acc, infosets, outcomes, out)?;
                *acc = before;
            }
            return Ok(());
        }
    }
    let mut term = Vec::new();
    terminal_value(game, state, &mut term);
    *outcomes += 1;
    let payoffs: Vec<String> = acc
        .iter()
        .zip(&term)
        .map(|(a, t)| game.payoff_text(&a.plus(t)))
        .collect();
    writeln!(
        out,
        "t {} {} \"\" {{ {} }}",
        quote(&game.state_text(state)),
        outcomes,
        payoffs.join(", ")
    )
    .map_err(io)
}
