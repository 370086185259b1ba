//! The exact search cut at the first player's pieces: each piece of her line played out
//! on its own, with a memo of its own, so that the pieces are independent items that
//! shards and machines can share out; the equilibrium is assembled from their payoffs by
//! her tie rule, and the rest of its path replayed from her piece. It finds the same
//! equilibrium as the one search of [`super::anywhere`] (tested), which shares one memo
//! across her pieces and so tries fewer placements (a quarter as many with six players on
//! $1..$10: a set of tokens is reached from each of its tokens placed first).

use super::super::model::TokensError;
use super::super::theory::TokenTies;
use super::{choice, prefers, AnywherePlay, Arena, Candidates, Piece, Search};
use crate::engine::{Progress, Silent};

/// How many pieces the first player's line has: the items of the search cut there.
///
/// ```
/// use lastbite::exact::Exact;
/// use lastbite::games::tokens::anywhere::first::first_pieces;
/// use lastbite::games::tokens::Arena;
/// let dollars = (1..=10).map(Exact::integer).collect();
/// let riddle = Arena::unit_spaced(dollars, 3, false).unwrap();
/// // The ten stacks and the nine open intervals between them.
/// assert_eq!(first_pieces(&riddle), 19);
/// ```
pub fn first_pieces(arena: &Arena) -> u64 {
    search(arena, TokenTies::Lowest, &Silent).pieces(&[]).len() as u64
}

/// Whether each of the first player's pieces (in order) is an open interval rather than
/// a point: a token inside an interval gives every later player the reflections of a
/// point off the lattice as breakpoints too, so its search is the longer (4.5 times a
/// point's placements with four players, 6.7 times with six, on $1..$10).
pub fn first_pieces_open(arena: &Arena) -> Vec<bool> {
    let pieces = search(arena, TokenTies::Lowest, &Silent).pieces(&[]);
    pieces
        .iter()
        .map(|p| matches!(p, Piece::Open(..)))
        .collect()
}

/// The exact search, keyed by face, with an empty memo.
fn search<'a>(arena: &'a Arena, ties: TokenTies, stop: &'a dyn Progress) -> Search<'a> {
    Search::new(arena, ties, Candidates::Pieces, true, stop)
        .expect("any number of players finds pieces enough")
}

/// What the first player's token on one of her pieces leads to, searched on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstPiece {
    /// The final payoffs, in turn order, in the arena's units of money
    /// ([`Arena::money_units`]).
    pub pays: Vec<i64>,
    /// Placements tried.
    pub placements: u64,
}

/// Plays out the first player's token on her piece `piece` (below [`first_pieces`]) by
/// equilibrium play after it; `stop` is asked now and then whether to give up.
pub fn after_first(
    arena: &Arena,
    ties: TokenTies,
    piece: u64,
    stop: &dyn Progress,
) -> Result<FirstPiece, TokensError> {
    let mut s = search(arena, ties, stop);
    let pieces = s.pieces(&[]);
    let at = pieces
        .get(piece as usize)
        .ok_or_else(|| {
            TokensError::Placement(format!(
                "the first player has {} pieces, not a piece {piece}",
                pieces.len()
            ))
        })?
        .at();
    let moves = s.complete(&[at]);
    if s.stopped {
        return Err(TokensError::Cancelled);
    }
    Ok(FirstPiece {
        pays: arena.shares(&moves),
        placements: s.tried,
    })
}

/// The exact equilibrium from what each of the first player's pieces leads to
/// (`firsts[i]`, the final payoffs of piece `i`, for every piece in order): her piece by
/// the tie rule as the one search picks it, her choice's sets from all of them, and the
/// rest of the path replayed from her piece with its players' choices (its payoffs
/// checked against those given). Its `placements` and `states` are the replay's alone.
pub fn from_first_pieces(
    arena: &Arena,
    ties: TokenTies,
    firsts: &[Vec<i64>],
    stop: &dyn Progress,
) -> Result<AnywherePlay, TokensError> {
    let mut s = search(arena, ties, stop);
    let pieces = s.pieces(&[]);
    if firsts.len() != pieces.len() || firsts.iter().any(|p| p.len() != arena.players) {
        return Err(TokensError::Placement(format!(
            "the payoffs of {} first pieces, of {} players each, are needed",
            pieces.len(),
            arena.players
        )));
    }
    let mut best: Option<(i64, usize)> = None;
    for (i, pays) in firsts.iter().enumerate() {
        if prefers(ties, pays[0], best.map(|b| b.0)) {
            best = Some((pays[0], i));
        }
    }
    let (_, first) = best.expect("a piece");
    let moves = s.complete(&[pieces[first].at()]);
    if !s.stopped && arena.shares(&moves) != firsts[first] {
        return Err(TokensError::Placement(format!(
            "the payoffs given for the first player's piece {first} are not what it leads to"
        )));
    }
    let lines: Vec<_> = pieces.into_iter().zip(firsts.iter().cloned()).collect();
    let mut choices = vec![choice(arena, 0, moves[0], &lines)];
    choices.extend(s.choices(&moves, 1));
    s.play(moves, choices)
}
