//! Validated dinners and turn orders (paper: "Dinners and strategies").
//!
//! A [`Dinner`] is a non-empty list of morsels, each with one exact utility per player.
//! Utilities are scaled to a common denominator once, here, so every solver compares
//! integers. A [`TurnOrder`] is the sequence of players of the turns, one per morsel.

mod scoring;
mod setup;

pub use scoring::Scoring;
pub use setup::{Position, Setup};

use std::fmt;

use crate::engine::Player;
use crate::exact::{lcm, Exact, ParseExactError};

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

/// A dinner: morsels with one exact utility per player.
///
/// Utilities are stored scaled by a common denominator ([`Dinner::scale`]) as `i64`, so
/// that all comparisons are integer comparisons.
///
/// ```
/// use lastbite::games::dinner::Dinner;
/// let d = Dinner::from_morsels("1,2 2.5,3 3,1").unwrap();
/// assert_eq!((d.len(), d.players(), d.scale()), (3, 2, 2));
/// assert_eq!(d.value(1, 0).to_string(), "5/2");
/// assert!(Dinner::from_morsels("1,2 3").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dinner {
    players: usize,
    utilities: Vec<i64>,
    scale: i128,
}

impl Dinner {
    /// A dinner from exact utilities given morsel by morsel, `players` per morsel.
    /// `locate(i)` names morsel `i` in error messages.
    pub fn from_flat(
        players: usize,
        values: Vec<Exact>,
        locate: impl Fn(usize, usize) -> String,
    ) -> Result<Dinner, DinnerError> {
        if values.is_empty() {
            return Err(DinnerError::Empty);
        }
        if players == 0 {
            return Err(DinnerError::NoUtilities { at: locate(0, 0) });
        }
        if players > MAX_PLAYERS {
            return Err(DinnerError::TooManyPlayers(players));
        }
        debug_assert_eq!(values.len() % players, 0);
        let mut scale: i128 = 1;
        for (i, v) in values.iter().enumerate() {
            if v.denom() != 1 {
                scale = lcm(scale, v.denom())
                    .filter(|&d| d <= 1_000_000_000_000_000_000)
                    .ok_or_else(|| DinnerError::Denominator {
                        at: locate(i / players, i % players),
                    })?;
            }
        }
        let utilities = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.scaled_to(scale)
                    .and_then(|x| i64::try_from(x).ok())
                    .ok_or_else(|| DinnerError::TooLarge {
                        at: locate(i / players, i % players),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Dinner {
            players,
            utilities,
            scale,
        })
    }

    /// A dinner with integer utilities, `players` per morsel (the fast path for large
    /// generated dinners).
    pub fn from_integers(players: usize, utilities: Vec<i64>) -> Result<Dinner, DinnerError> {
        if utilities.is_empty() {
            return Err(DinnerError::Empty);
        }
        if players == 0 || !utilities.len().is_multiple_of(players) {
            return Err(DinnerError::Columns {
                at: "input".into(),
                expected: players,
                found: utilities.len() % players.max(1),
            });
        }
        if players > MAX_PLAYERS {
            return Err(DinnerError::TooManyPlayers(players));
        }
        Ok(Dinner {
            players,
            utilities,
            scale: 1,
        })
    }

    /// The permutation dinner `{(1, b_1), ..., (n, b_n)}`.
    pub fn permutation(b: &[i64]) -> Result<Dinner, DinnerError> {
        let flat = b
            .iter()
            .enumerate()
            .flat_map(|(i, &bi)| [i as i64 + 1, bi])
            .collect();
        Dinner::from_integers(2, flat)
    }

    /// Parses morsels written as `"1,2 2,3 3,1"`: morsels separated by spaces or
    /// semicolons, utilities by commas or colons (`"1:2 2:3 3:1"`, for callers whose
    /// parameters cannot hold commas).
    pub fn from_morsels(text: &str) -> Result<Dinner, DinnerError> {
        let morsels: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|s| !s.is_empty())
            .collect();
        let rows = morsels
            .iter()
            .map(|m| m.split([',', ':']).collect::<Vec<_>>());
        Dinner::from_rows(
            rows,
            // Morsels are numbered from 0 everywhere, errors included; utilities by player.
            |i| format!("morsel {i} ({})", morsels[i]),
            |i, p| {
                let who = crate::engine::player_letter(p);
                format!("morsel {i} ({}), utility of {who}", morsels[i])
            },
        )
    }

    /// Parses a dinner file's text, CSV, JSON or TOML: by the extension when given
    /// (`csv`, `json`, `toml`), else by the content (`[` or `{` opens JSON, a `morsels`
    /// key TOML, anything else is CSV). Returns the dinner and the order the file names.
    pub fn from_file_text(
        text: &str,
        name: &str,
        extension: Option<&str>,
    ) -> Result<(Dinner, Option<String>), DinnerError> {
        let trimmed = text.trim_start();
        let ext = extension.unwrap_or("");
        let unknown = !matches!(ext, "csv" | "json" | "toml");
        if ext == "json" || (unknown && (trimmed.starts_with('[') || trimmed.starts_with('{'))) {
            Dinner::from_json(text, name)
        } else if ext == "toml" || (unknown && trimmed.starts_with("morsels")) {
            Dinner::from_toml(text, name)
        } else {
            Ok((Dinner::from_csv(text, name)?, None))
        }
    }

    /// Parses CSV text: one morsel per line, one column per player, an optional header
    /// line (recognised by a first field that is not a number), blank lines and lines
    /// starting with `#` ignored.
    pub fn from_csv(text: &str, name: &str) -> Result<Dinner, DinnerError> {
        if let Some(fast) = csv_integers(text, name) {
            return fast;
        }
        let mut lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if let Some((_, first)) = lines.first() {
            let field = first.split(',').next().unwrap_or("").trim();
            let looks_textual = field.bytes().any(|b| b.is_ascii_alphabetic())
                && field.parse::<Exact>().is_err()
                && !matches!(
                    field.to_ascii_lowercase().as_str(),
                    "nan" | "inf" | "infinity"
                );
            if looks_textual {
                lines.remove(0);
            }
        }
        let rows = lines.iter().map(|(_, l)| l.split(','));
        Dinner::from_rows(
            rows,
            |i| format!("{name}:{}", lines[i].0),
            |i, p| format!("{name}:{}: column {}", lines[i].0, p + 1),
        )
    }

    /// Parses JSON: `[[1,2],[2,3]]` or `{"morsels": [[1,2],[2,3]], "order": "ABA"}`.
    /// Numbers keep their exact decimal text; strings like `"7/3"` are accepted too.
    /// Returns the dinner and the order named in the file, if any.
    pub fn from_json(text: &str, name: &str) -> Result<(Dinner, Option<String>), DinnerError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| DinnerError::File {
                at: name.to_string(),
                problem: format!("invalid JSON: {e}"),
            })?;
        let (morsels, order) = match &value {
            serde_json::Value::Array(_) => (&value, None),
            serde_json::Value::Object(map) => (
                map.get("morsels").ok_or_else(|| DinnerError::File {
                    at: name.to_string(),
                    problem: "JSON object has no \"morsels\" array".into(),
                })?,
                map.get("order").and_then(|o| o.as_str()).map(String::from),
            ),
            _ => {
                return Err(DinnerError::File {
                    at: name.to_string(),
                    problem: "expected a JSON array of morsels or an object with \"morsels\""
                        .into(),
                })
            }
        };
        let rows = json_rows(morsels, name)?;
        let dinner = Dinner::from_rows(
            rows.iter().map(|r| r.iter().map(String::as_str)),
            |i| format!("{name}: morsel {i}"),
            |i, p| {
                format!(
                    "{name}: morsel {i}, utility of {}",
                    crate::engine::player_letter(p)
                )
            },
        )?;
        Ok((dinner, order))
    }

    /// Parses TOML: `morsels = [[1, 2], [2, 3]]` and optionally `order = "ABA"`. Floats
    /// are read by their shortest decimal form; write `"2.5"` as a string to be explicit.
    pub fn from_toml(text: &str, name: &str) -> Result<(Dinner, Option<String>), DinnerError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            // Where, as line and column (from 1), like the CSV and JSON errors.
            let at = e.span().map_or(String::new(), |span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!(": line {line} column {column}")
            });
            DinnerError::File {
                at: format!("{name}{at}"),
                problem: format!("invalid TOML: {}", e.message().trim().replace('\n', "; ")),
            }
        })?;
        let morsels = table
            .get("morsels")
            .and_then(|m| m.as_array())
            .ok_or_else(|| DinnerError::File {
                at: name.to_string(),
                problem: "TOML has no 'morsels' array".into(),
            })?;
        let mut rows = Vec::new();
        for (i, m) in morsels.iter().enumerate() {
            let row = m.as_array().ok_or_else(|| DinnerError::File {
                at: format!("{name}: morsel {i}"),
                problem: "not an array of utilities".into(),
            })?;
            rows.push(
                row.iter()
                    .map(|v| match v {
                        toml::Value::Integer(n) => n.to_string(),
                        toml::Value::Float(f) => f.to_string(),
                        toml::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>(),
            );
        }
        let order = table
            .get("order")
            .and_then(|o| o.as_str())
            .map(String::from);
        let dinner = Dinner::from_rows(
            rows.iter().map(|r| r.iter().map(String::as_str)),
            |i| format!("{name}: morsel {i}"),
            |i, p| {
                format!(
                    "{name}: morsel {i}, utility of {}",
                    crate::engine::player_letter(p)
                )
            },
        )?;
        Ok((dinner, order))
    }

    fn from_rows<'a, R, F>(
        rows: R,
        row_at: impl Fn(usize) -> String,
        locate: impl Fn(usize, usize) -> String,
    ) -> Result<Dinner, DinnerError>
    where
        R: IntoIterator<Item = F>,
        F: IntoIterator<Item = &'a str>,
    {
        let mut players = None;
        let mut flat = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            let before = flat.len();
            for (p, field) in row.into_iter().enumerate() {
                let v = field
                    .parse::<Exact>()
                    .map_err(|problem| DinnerError::Number {
                        at: locate(i, p),
                        problem,
                    })?;
                flat.push(v);
            }
            let found = flat.len() - before;
            match players {
                None if found == 0 => return Err(DinnerError::NoUtilities { at: locate(i, 0) }),
                None => players = Some(found),
                Some(k) if k != found => {
                    return Err(DinnerError::Columns {
                        at: row_at(i),
                        expected: k,
                        found,
                    })
                }
                _ => {}
            }
        }
        Dinner::from_flat(players.unwrap_or(0), flat, locate)
    }

    /// Number of morsels.
    pub fn len(&self) -> usize {
        self.utilities.len() / self.players
    }

    /// Always false: a dinner has at least one morsel.
    pub fn is_empty(&self) -> bool {
        self.utilities.is_empty()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The common denominator the utilities are scaled by.
    pub fn scale(&self) -> i128 {
        self.scale
    }

    /// The scaled utility of morsel `i` to player `p`.
    #[inline]
    pub fn utility(&self, i: usize, p: Player) -> i64 {
        self.utilities[i * self.players + p]
    }

    /// The exact utility of morsel `i` to player `p`.
    pub fn value(&self, i: usize, p: Player) -> Exact {
        if self.scale == 1 {
            // Integer dinners (the large ones) skip the reduction.
            return Exact::integer(self.utility(i, p) as i128);
        }
        self.unscale(self.utility(i, p) as i128)
    }

    /// A scaled amount as an exact value.
    pub fn unscale(&self, scaled: i128) -> Exact {
        Exact::new(scaled, self.scale).expect("scale is positive")
    }

    /// The largest absolute scaled utility.
    pub fn max_abs(&self) -> i128 {
        self.utilities
            .iter()
            .map(|u| (*u as i128).abs())
            .max()
            .unwrap_or(0)
    }

    /// The dinner of morsels `keep` only (indices from 0; morsel `j` of the result is
    /// `keep[j]`). `keep` must be non-empty and in range.
    pub fn sub_dinner(&self, keep: &[usize]) -> Dinner {
        assert!(!keep.is_empty(), "a dinner has at least one morsel");
        let k = self.players;
        Dinner {
            players: k,
            utilities: keep
                .iter()
                .flat_map(|&i| self.utilities[i * k..(i + 1) * k].iter().copied())
                .collect(),
            scale: self.scale,
        }
    }

    /// Morsel `i` written as `(a, b, ...)`.
    pub fn morsel_text(&self, i: usize) -> String {
        let parts: Vec<String> = (0..self.players)
            .map(|p| self.value(i, p).to_string())
            .collect();
        format!("({})", parts.join(", "))
    }
}

/// An integer field, or `None` when it needs the general exact parser.
#[inline]
fn fast_integer(field: &[u8]) -> Option<i64> {
    let field = field.trim_ascii();
    let (negative, digits) = match field.first()? {
        b'-' => (true, &field[1..]),
        b'+' => (false, &field[1..]),
        _ => (false, field),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (c - b'0') as i64;
    }
    Some(if negative { -v } else { v })
}

/// The CSV fast path for all-integer files (the common large case): straight into the
/// scaled table, no intermediate rationals. `None` hands the file to the general parser
/// (decimals, fractions, headers, bad values), which also words the errors.
fn csv_integers(text: &str, name: &str) -> Option<Result<Dinner, DinnerError>> {
    let mut utilities = Vec::with_capacity(text.len() / 8);
    let mut players = 0;
    for (i, line) in text.as_bytes().split(|&c| c == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let before = utilities.len();
        for field in line.split(|&c| c == b',') {
            utilities.push(fast_integer(field)?);
        }
        let found = utilities.len() - before;
        if players == 0 {
            players = found;
        } else if found != players {
            return Some(Err(DinnerError::Columns {
                at: format!("{name}:{}", i + 1),
                expected: players,
                found,
            }));
        }
    }
    if utilities.is_empty() {
        return None;
    }
    Some(Dinner::from_integers(players, utilities))
}

fn json_rows(morsels: &serde_json::Value, name: &str) -> Result<Vec<Vec<String>>, DinnerError> {
    let list = morsels.as_array().ok_or_else(|| DinnerError::File {
        at: name.to_string(),
        problem: "\"morsels\" is not an array".into(),
    })?;
    list.iter()
        .enumerate()
        .map(|(i, m)| {
            let row = m.as_array().ok_or_else(|| DinnerError::File {
                at: format!("{name}: morsel {i}"),
                problem: "not an array of utilities".into(),
            })?;
            Ok(row
                .iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect())
        })
        .collect()
}

/// The sequence of players of the turns of a dinner, one turn per morsel.
///
/// ```
/// use lastbite::games::dinner::{Dinner, TurnOrder};
/// let d = Dinner::from_morsels("1,1 2,2 3,3 4,4 5,5").unwrap();
/// assert_eq!(TurnOrder::default_for(&d).to_string(), "BABAB"); // Bob moves last
/// assert_eq!(TurnOrder::parse("thue-morse", &d).unwrap().to_string(), "ABBAB");
/// assert!(TurnOrder::parse("ABAB", &d).is_err());
/// assert_eq!(TurnOrder::parse("AAB...", &d).unwrap().to_string(), "AABAA");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TurnOrder {
    turns: Vec<u8>,
    players: usize,
}

impl TurnOrder {
    /// The paper's convention for two players (Bob moves last, so Alice moves first
    /// exactly when the number of morsels is even); round robin from A for more players.
    pub fn default_for(dinner: &Dinner) -> TurnOrder {
        if dinner.players() == 2 {
            let first = if dinner.len().is_multiple_of(2) { 0 } else { 1 };
            TurnOrder::alternating(dinner, first)
        } else {
            TurnOrder::alternating(dinner, 0)
        }
    }

    /// Round robin starting with player `first`.
    pub fn alternating(dinner: &Dinner, first: Player) -> TurnOrder {
        let k = dinner.players();
        TurnOrder {
            turns: (0..dinner.len()).map(|t| ((first + t) % k) as u8).collect(),
            players: k,
        }
    }

    /// The Thue-Morse order (balanced alternation, Brams and Taylor): turn `t` (from 0)
    /// goes to the player given by the digit sum of `t` in base `players`, mod `players`.
    pub fn thue_morse(dinner: &Dinner) -> TurnOrder {
        let k = dinner.players();
        let turns = (0..dinner.len())
            .map(|mut t| {
                let mut sum = 0;
                while t > 0 {
                    sum += t % k.max(2);
                    t /= k.max(2);
                }
                (sum % k) as u8
            })
            .collect();
        TurnOrder { turns, players: k }
    }

    /// Parses `thue-morse`, `alternate` (round robin from A), `snake` (A B C C B A A B C
    /// ..., the draft order), an explicit sequence of player letters such as `ABBA`
    /// (case-insensitive; spaces and commas ignored), or a pattern repeated to the dinner's
    /// length, written with a trailing `...` (`ABCCBA...`).
    pub fn parse(spec: &str, dinner: &Dinner) -> Result<TurnOrder, DinnerError> {
        let k = dinner.players();
        match spec.trim().to_ascii_lowercase().as_str() {
            "thue-morse" | "thuemorse" | "tm" => return Ok(TurnOrder::thue_morse(dinner)),
            "alternate" | "alternating" | "round-robin" => {
                return Ok(TurnOrder::alternating(dinner, 0))
            }
            "snake" => {
                let turns = (0..dinner.len())
                    .map(|t| {
                        let (round, pos) = (t / k, t % k);
                        (if round % 2 == 0 { pos } else { k - 1 - pos }) as u8
                    })
                    .collect();
                return Ok(TurnOrder { turns, players: k });
            }
            _ => {}
        }
        let (body, repeat) = match spec.trim().strip_suffix("...") {
            Some(b) => (b, true),
            None => (spec, false),
        };
        let mut turns = Vec::new();
        for (i, c) in body
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .enumerate()
        {
            let up = c.to_ascii_uppercase();
            let p = if up.is_ascii_uppercase() {
                (up as u8 - b'A') as usize
            } else {
                usize::MAX
            };
            if p >= k {
                return Err(DinnerError::OrderLetter {
                    letter: c,
                    position: i + 1,
                    players: k,
                });
            }
            turns.push(p as u8);
        }
        if repeat && !turns.is_empty() {
            turns = turns.iter().copied().cycle().take(dinner.len()).collect();
        }
        if turns.len() != dinner.len() {
            return Err(DinnerError::OrderLength {
                order: spec.trim().to_string(),
                found: turns.len(),
                expected: dinner.len(),
            });
        }
        Ok(TurnOrder { turns, players: k })
    }

    /// The player of turn `t` (from 0).
    #[inline]
    pub fn player(&self, t: usize) -> Player {
        self.turns[t] as Player
    }

    /// The turns from turn `t` (from 0) on: the order of the dinner left after `t` bites.
    pub fn from_turn(&self, t: usize) -> TurnOrder {
        TurnOrder {
            turns: self.turns[t.min(self.turns.len())..].to_vec(),
            players: self.players,
        }
    }

    /// The players of the turns.
    pub fn turns(&self) -> &[u8] {
        &self.turns
    }

    /// Number of turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether there are no turns (never, for a validated dinner).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }
}

impl fmt::Display for TurnOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &p in &self.turns {
            write!(f, "{}", char::from(b'A' + p))?;
        }
        Ok(())
    }
}

/// Inaccessible morsels (paper: Open questions, "Inaccessible morsels"): a partial order
/// in which morsel `j` may be eaten only after every morsel listed before it.
///
/// ```
/// use lastbite::games::dinner::{Dinner, Precedence};
/// let d = Dinner::from_morsels("1,1 2,2 3,3 4,4").unwrap();
/// let p = Precedence::parse("0<3,1<3", &d).unwrap();
/// assert_eq!(p.before(3), 0b0011);
/// assert!(Precedence::parse("0<1,1<0", &d).is_err()); // a cycle
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Precedence {
    /// `before[j]`: the morsels (bitmask) that must be eaten before `j`, transitively closed.
    before: Vec<u64>,
}

/// What is wrong with a precedence specification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrecedenceError {
    /// Not of the form `i<j`.
    #[error("{} is not of the form i<j (morsel indices from 0)", crate::text::quote(&.0.to_string()))]
    Malformed(String),
    /// An index out of range.
    #[error("morsel {index} does not exist (the dinner has morsels 0..{})", .len - 1)]
    Index {
        /// The index given.
        index: usize,
        /// Number of morsels.
        len: usize,
    },
    /// The order has a cycle.
    #[error("the order has a cycle through morsel {0}, so no morsel of it can ever be eaten")]
    Cycle(usize),
    /// Too many morsels for bitmask states.
    #[error("partial orders are supported for dinners of at most 63 morsels")]
    TooLarge,
}

impl Precedence {
    /// Parses `0<3,1<3` (chains like `0<1<2` allowed), morsel indices from 0.
    pub fn parse(spec: &str, dinner: &Dinner) -> Result<Precedence, PrecedenceError> {
        let n = dinner.len();
        if n > 63 {
            return Err(PrecedenceError::TooLarge);
        }
        let mut before = vec![0u64; n];
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let parts: Vec<&str> = item.split('<').map(str::trim).collect();
            if parts.len() < 2 {
                return Err(PrecedenceError::Malformed(item.into()));
            }
            let mut ids = Vec::new();
            for p in parts {
                let i: usize = p
                    .parse()
                    .map_err(|_| PrecedenceError::Malformed(item.into()))?;
                if i >= n {
                    return Err(PrecedenceError::Index { index: i, len: n });
                }
                ids.push(i);
            }
            for w in ids.windows(2) {
                before[w[1]] |= 1 << w[0];
            }
        }
        // Transitive closure (n <= 63 rounds of propagation suffice).
        loop {
            let mut changed = false;
            for j in 0..n {
                let mut closed = before[j];
                let mut rest = before[j];
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    closed |= before[i];
                }
                if closed != before[j] {
                    before[j] = closed;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if let Some(j) = (0..n).find(|&j| before[j] >> j & 1 == 1) {
            return Err(PrecedenceError::Cycle(j));
        }
        Ok(Precedence { before })
    }

    /// The morsels that must be eaten before `j` (bitmask).
    pub fn before(&self, j: usize) -> u64 {
        self.before[j]
    }

    /// Whether `j` may be eaten when the morsels in `remaining` are still on the plate.
    #[inline]
    pub fn accessible(&self, j: usize, remaining: u64) -> bool {
        self.before[j] & remaining == 0
    }

    /// Whether `remaining` can occur: every eaten morsel's predecessors are eaten.
    pub fn reachable(&self, remaining: u64) -> bool {
        let n = self.before.len();
        (0..n).all(|j| remaining >> j & 1 == 1 || self.before[j] & remaining == 0)
    }

    /// Number of morsels the order is over.
    pub fn morsels(&self) -> usize {
        self.before.len()
    }

    /// Whether no morsel has a predecessor (the plain dinner).
    pub fn is_trivial(&self) -> bool {
        self.before.iter().all(|&b| b == 0)
    }
}

/// Variations of the payoffs and rules of a dinner (paper: "Generalized payoffs" and
/// "Open questions"). The default is the plain game; each rule is added by a method that
/// checks it on its own (a positive discount, a square altruism matrix), and [`Setup`]
/// checks the rules against a dinner (the matrix's size, the precedence's morsels).
///
/// ```
/// use lastbite::games::dinner::Rules;
/// let r = Rules::default().with_discount("1/2".parse().unwrap()).unwrap();
/// assert_eq!(r.discount().unwrap().to_string(), "1/2");
/// assert!(Rules::default().with_discount("0".parse().unwrap()).is_err());
/// assert!(Rules::default().with_altruism(vec![vec!["1".parse().unwrap()]; 2]).is_err());
/// ```
///
/// [`Setup`]: super::Setup
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    altruism: Option<Vec<Vec<Exact>>>,
    discount: Option<Exact>,
    before: Option<Precedence>,
}

impl Rules {
    /// Adds delayed gratification: a morsel eaten on turn `t` (from 1) is worth
    /// `discount^t` times its value. The discount must be positive.
    pub fn with_discount(mut self, discount: Exact) -> Result<Rules, DinnerError> {
        if discount <= Exact::ZERO {
            return Err(DinnerError::Discount(discount));
        }
        self.discount = Some(discount);
        Ok(self)
    }

    /// Adds inaccessible morsels: the partial order eating must respect.
    pub fn with_before(mut self, before: Precedence) -> Rules {
        self.before = Some(before);
        self
    }

    /// Adds altruism payoffs: `matrix[e][r]` is what player `r` receives, per unit of the
    /// eater's utility, when player `e` eats a morsel. The matrix must be square (`k x k`
    /// for `k` players; [`Setup`] checks `k`).
    pub fn with_altruism(mut self, matrix: Vec<Vec<Exact>>) -> Result<Rules, DinnerError> {
        let k = matrix.len();
        if k == 0 || matrix.iter().any(|row| row.len() != k) {
            return Err(DinnerError::AltruismShape {
                players: k,
                rows: k,
                columns: matrix.iter().map(Vec::len).max().unwrap_or(0),
            });
        }
        self.altruism = Some(matrix);
        Ok(self)
    }

    /// The altruism matrix, `None` for the plain game (the identity).
    pub fn altruism_matrix(&self) -> Option<&[Vec<Exact>]> {
        self.altruism.as_deref()
    }

    /// The discount factor, if any (always positive).
    pub fn discount(&self) -> Option<Exact> {
        self.discount
    }

    /// The precedence of inaccessible morsels, if any.
    pub fn before(&self) -> Option<&Precedence> {
        self.before.as_ref()
    }

    /// The paper's altruism payoffs for two players: `p_A = alpha_A * (Alice's utility of
    /// what she eats) + beta_A * (Bob's utility of what he eats)`, and `p_B = alpha_B *
    /// (Alice's utility of what she eats) + beta_B * (Bob's utility of what he eats)`.
    pub fn altruism(alpha_a: Exact, beta_a: Exact, alpha_b: Exact, beta_b: Exact) -> Rules {
        Rules {
            altruism: Some(vec![vec![alpha_a, alpha_b], vec![beta_a, beta_b]]),
            ..Rules::default()
        }
    }

    /// Whether these are the rules of the plain dinner.
    pub fn is_plain(&self) -> bool {
        self.altruism.is_none()
            && self.discount.is_none()
            && self.before.as_ref().is_none_or(Precedence::is_trivial)
    }
}

/// The order has one turn per morsel and names only the dinner's players (orders are
/// built against a dinner, so this fails only when a dinner's order meets another).
pub fn check_order(dinner: &Dinner, order: &TurnOrder) -> Result<(), DinnerError> {
    if order.len() != dinner.len() || order.players() != dinner.players() {
        return Err(DinnerError::OrderMismatch {
            turns: order.len(),
            order_players: order.players(),
            morsels: dinner.len(),
            players: dinner.players(),
        });
    }
    Ok(())
}

/// One bite of the eating order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bite {
    /// The turn, from 0.
    pub turn: usize,
    /// Who eats.
    pub player: Player,
    /// The morsel eaten (index in input order, from 0).
    pub morsel: usize,
}
