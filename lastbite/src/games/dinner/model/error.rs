//! What is wrong with a dinner, a turn order, its rules or a request on them: one error
//! type for the model, naming the place (file, row, field) of each problem.

use crate::exact::{Exact, ParseExactError};

/// The largest number of players a dinner may have (players are letters A..Z).
pub const MAX_PLAYERS: usize = 26;

/// What is wrong with a dinner, a turn order or a request on them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DinnerError {
    /// No morsels.
    #[error("the dinner has no morsels")]
    Empty,
    /// A morsel has no utilities.
    #[error("{}: a morsel needs at least one utility", crate::text::clean(&.at.to_string()))]
    NoUtilities {
        /// Where.
        at: String,
    },
    /// A value is not an exact number.
    #[error("{}: {problem}", crate::text::clean(&.at.to_string()))]
    Number {
        /// Where (line and column, or morsel and player).
        at: String,
        /// What is wrong with it.
        problem: ParseExactError,
    },
    /// A morsel has the wrong number of utilities.
    #[error("{}: {found} {}, but the first morsel has {expected} (one per player)", crate::text::clean(&.at.to_string()), if *.found == 1 { "utility" } else { "utilities" })]
    Columns {
        /// Where.
        at: String,
        /// Utilities on the first morsel.
        expected: usize,
        /// Utilities here.
        found: usize,
    },
    /// More players than letters.
    #[error("{0} players; at most {MAX_PLAYERS} are supported")]
    TooManyPlayers(usize),
    /// The utilities cannot share a denominator within 64 bits.
    #[error("{}: the utilities need a common denominator beyond 10^18; round them", crate::text::clean(&.at.to_string()))]
    Denominator {
        /// Where the denominator became too large.
        at: String,
    },
    /// A scaled utility exceeds 64 bits.
    #[error("{}: value too large (after scaling to a common denominator it exceeds 64 bits)", crate::text::clean(&.at.to_string()))]
    TooLarge {
        /// Where.
        at: String,
    },
    /// A dinner file is not valid JSON / TOML, or does not hold the morsels.
    #[error("{}: {}", crate::text::clean(.at), crate::text::clean(.problem))]
    File {
        /// The file (and where in it, when the parser says).
        at: String,
        /// What is wrong.
        problem: String,
    },
    /// A computation that enumerates every split or permutation was asked for at a size
    /// beyond its limit.
    #[error(
        "{what} at size {size}: it enumerates every {unit}; sizes {min}..={max} are supported"
    )]
    Size {
        /// What was asked for.
        what: &'static str,
        /// The size given.
        size: usize,
        /// What it enumerates.
        unit: &'static str,
        /// The smallest supported size.
        min: usize,
        /// The largest supported size.
        max: usize,
    },
    /// A morsel that is not on the plate (removed, or eaten before).
    #[error("morsel {0} is not on the plate")]
    NotOnPlate(usize),
    /// A turn order meets a dinner it was not made for.
    #[error("the turn order has {turns} turns for {order_players} players, but the dinner has {morsels} morsels and {players} players")]
    OrderMismatch {
        /// Turns of the order.
        turns: usize,
        /// Players of the order.
        order_players: usize,
        /// Morsels of the dinner.
        morsels: usize,
        /// Players of the dinner.
        players: usize,
    },
    /// A precedence over another number of morsels.
    #[error("the precedence is over {precedence} morsels, but the dinner has {morsels}")]
    PrecedenceMismatch {
        /// Morsels of the precedence.
        precedence: usize,
        /// Morsels of the dinner.
        morsels: usize,
    },
    /// A sweep needs at least one trial.
    #[error("at least one trial is needed")]
    NoTrials,
    /// The order has the wrong number of turns.
    #[error("turn order {} has {found} turns, but the dinner has {expected} morsels", crate::text::quote(&.order.to_string()))]
    OrderLength {
        /// The order given.
        order: String,
        /// Its length.
        found: usize,
        /// The number of morsels.
        expected: usize,
    },
    /// The order names a player the dinner does not have.
    #[error("turn order: {} at position {position} is not a player of this {players}-player dinner (use {})", crate::text::quote(&.letter.to_string()), letters(*.players))]
    OrderLetter {
        /// The offending character.
        letter: char,
        /// 1-based position in the order.
        position: usize,
        /// Number of players.
        players: usize,
    },
    /// The method needs exactly two players.
    #[error("{0} is defined for two players; this dinner has {1}")]
    NeedsTwoPlayers(&'static str, usize),
    /// The altruism matrix does not match the number of players.
    #[error("altruism needs {players} x {players} coefficients for a {players}-player dinner, not {rows} x {columns}")]
    AltruismShape {
        /// Players of the dinner.
        players: usize,
        /// Rows given.
        rows: usize,
        /// Columns given (the longest row).
        columns: usize,
    },
    /// Crossout was asked for under rules it does not cover.
    #[error("crossout does not cover discounts or partial orders; the exact solver does")]
    CrossoutRules,
    /// A route that plays the plain dinner (scores are the utilities eaten) was given
    /// rules that change the payoffs or the moves.
    #[error(
        "{0} plays the plain dinner; discounts, altruism and partial orders need the exact solver"
    )]
    PlainOnly(&'static str),
    /// The transformed dinner was asked for without altruism coefficients.
    #[error("no altruism coefficients given")]
    NoAltruism,
    /// The discount factor is not positive.
    #[error("the discount factor must be positive, not {0}")]
    Discount(Exact),
    /// The exact solver works over subsets of at most 63 morsels.
    #[error("the exact solver needs 2^{0} states; more than 2^63 cannot be indexed")]
    TooManyMorsels(usize),
    /// Payoffs do not fit exact 128-bit arithmetic.
    #[error("the utilities are too large for exact 128-bit arithmetic over {0} morsels")]
    Overflow(usize),
    /// An engine error.
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
}

fn letters(players: usize) -> String {
    let last = char::from(b'A' + players.clamp(1, 26) as u8 - 1);
    if players <= 1 {
        "A".to_string()
    } else {
        format!("letters A..{last}")
    }
}
