//! `lastbite cookie play`: a game against the favoured player, read move by move from
//! stdin. The cookie family's analysis commands are built from their declarations
//! ([`crate::declared`]).

use std::io::{BufRead, Write};

use anyhow::bail;
use clap::Args;
use lastbite::api::cookie::{Components, Match};

use crate::out::{self, call};

/// The help line of `cookie play`.
pub const PLAY_ABOUT: &str = "Play a position against the favoured player (lastbite), who explains each move by D-values; read your moves (sizes of cookies to eat) from stdin.";

/// Arguments of `cookie play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The components (days of edibility) of the starting position.
    #[arg(required = true, allow_negative_numbers = true)]
    components: Vec<String>,
}

/// Plays `cookie play`.
pub fn play(a: PlayArgs) -> anyhow::Result<()> {
    let mut game = call(Match::new(&Components::Text(a.components.join(" "))))?;
    let mut w = out::stdout();
    let mut lines = std::io::stdin().lock().lines();
    writeln!(w, "{}", game.opening())?;
    loop {
        if let Some(end) = game.finished() {
            writeln!(w, "{end}")?;
            w.flush()?;
            return Ok(());
        }
        if game.lastbite_to_move() {
            writeln!(w, "{}", game.favoured_move())?;
        } else {
            write!(w, "{}", game.prompt())?;
            w.flush()?;
            let Some(line) = lines.next() else {
                bail!("input ended before the game did");
            };
            match game.answer(&line?) {
                Ok(text) | Err(text) => writeln!(w, "{text}")?,
            }
        }
    }
}
