//! The API's errors: typed, carrying the offending values, naming request fields.

use std::fmt;

use crate::engine::EngineError;
use crate::games::cookie::CookieError;
use crate::games::dinner::{DinnerError, PrecedenceError};
use crate::games::efg::EfgError;
use crate::games::subtraction::SubtractionError;
use crate::games::tokens::TokensError;

pub use crate::text::escape;

/// A value as it appears in a message: plain when it is a simple token (a number, a
/// word, a list of them), else quoted and escaped.
fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && value.len() <= 80
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/-+,=<".contains(&b));
    if plain {
        value.to_string()
    } else {
        escape(value)
    }
}

/// Why a request was refused or a computation failed.
///
/// Messages are one line and name request fields (`max_states`), never a front end's
/// spelling of them; [`Error::field`] tells a front end which field to translate.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A field's value is not acceptable.
    Invalid {
        /// The request field.
        field: &'static str,
        /// The value given (user text, shown escaped).
        value: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Two fields that exclude each other were both given, or a field needs another.
    Combination {
        /// The field at fault.
        field: &'static str,
        /// What is wrong with the combination.
        problem: String,
    },
    /// A size over the budget field that bounds it (its `x-budget`), refused before the
    /// work; the field named is the budget, the flag that raises it.
    OverBudget {
        /// The budget field.
        field: &'static str,
        /// The size asked for and the budget, in words.
        problem: String,
    },
    /// A required input is missing.
    Missing {
        /// The field (or one of several).
        field: &'static str,
        /// What is missing, in words.
        what: &'static str,
        /// What to give.
        hint: String,
    },
    /// A request document is not valid JSON or not of the request's shape.
    Request {
        /// The parser's message, control characters escaped.
        message: String,
    },
    /// A file could not be read or written.
    Io {
        /// read, write, ...
        action: &'static str,
        /// The path.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// A dinner error (Ethiopian Dinner).
    Dinner(DinnerError),
    /// A precedence error (inaccessible morsels).
    Precedence(PrecedenceError),
    /// A subtraction-game error.
    Subtraction(SubtractionError),
    /// A cookie-game error.
    Cookie(CookieError),
    /// A Token Dollars error.
    Tokens(TokensError),
    /// An engine error (budget, memory, ...).
    Engine(EngineError),
    /// A problem with an `.efg` game (its file, when the game came from one).
    Efg {
        /// The file's path.
        file: Option<String>,
        /// The problem.
        error: EfgError,
    },
    /// The caller cancelled the call.
    Cancelled,
    /// The request's work is estimated over its budget (`max_seconds`), refused before
    /// the work.
    OverCost {
        /// The estimate in words: `about 2.1 hours (1.7e10 sequence steps)`.
        estimate: String,
        /// The budget, in seconds of one core.
        max_seconds: u64,
        /// The budget that would admit it (`None`: past any, 2^64 seconds).
        needed: Option<u64>,
    },
    /// The call stopped where it stated its cost, as a control made to estimate asks
    /// ([`crate::api::estimate`] answers it; no front end sees it).
    Estimated,
}

/// What kind of failure an [`Error`] is: what a front end needs to choose an exit code,
/// an HTTP status or an exception, with one match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The request is wrong: a bad value, a bad combination, a missing field, a malformed
    /// document, a game or file that does not make sense.
    BadRequest,
    /// The request is well formed but over a budget or a limit (states, memory, nodes,
    /// what the methods reach), refused before the work, with its size.
    OverBudget,
    /// The caller cancelled the call.
    Cancelled,
    /// A file could not be read or written, or a stored file is not what was written.
    Io,
    /// The library failed in a way that is its own fault (a built-in game broke the
    /// engine's rules): a bug to report.
    Internal,
}

impl From<crate::files::FileError> for Error {
    fn from(e: crate::files::FileError) -> Error {
        Error::Io {
            action: e.action,
            path: e.path.to_string_lossy().into_owned(),
            message: e.message,
        }
    }
}

impl Error {
    /// The kind of failure.
    ///
    /// ```
    /// use lastbite::api::{call, Control, ErrorKind};
    /// let e = call("dinner-solve", r#"{"morsels": "1,x"}"#, &Control::silent()).unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::BadRequest);
    /// let e = call("dinner-solve", r#"{"morsels": "1,2 2,1 3,3", "method": "exact", "max_states": 2}"#, &Control::silent()).unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::OverBudget);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        use ErrorKind::*;
        match self {
            Error::Invalid { .. }
            | Error::Combination { .. }
            | Error::Missing { .. }
            | Error::Request { .. }
            | Error::Dinner(_)
            | Error::Precedence(_)
            | Error::Tokens(_) => BadRequest,
            // A family too large to sweep or a table too large to hold: refused with its
            // size before the work.
            Error::Subtraction(SubtractionError::Budget(_)) => OverBudget,
            Error::Subtraction(_) => BadRequest,
            Error::OverBudget { .. } => OverBudget,
            Error::Io { .. } => Io,
            Error::Cookie(e) => match e {
                CookieError::Component { .. } => BadRequest,
                CookieError::Cancelled => Cancelled,
                CookieError::OverBudget { .. }
                | CookieError::ValueTooWide { .. }
                | CookieError::BeyondMethods { .. }
                | CookieError::OutOfMemory { .. } => OverBudget,
                CookieError::Io { .. } | CookieError::CorruptStore { .. } => Io,
            },
            Error::Engine(e) => match e {
                EngineError::TooManyStates { .. }
                | EngineError::TooManyHeld { .. }
                | EngineError::OverMemory { .. }
                | EngineError::SetsTooLarge { .. }
                | EngineError::OutOfMemory(_) => OverBudget,
                EngineError::Cancelled => Cancelled,
                EngineError::Io(_) => Io,
                // The API's games are built in: a cycle or a broken layer order is ours.
                EngineError::Cycle(_)
                | EngineError::LayerOrder { .. }
                | EngineError::IllegalMove { .. } => Internal,
                _ => BadRequest,
            },
            Error::Efg { error, .. } => match error {
                EfgError::TooManyNodes { .. } | EfgError::TooManyOutcomes { .. } => OverBudget,
                EfgError::Cancelled => Cancelled,
                _ => BadRequest,
            },
            Error::Cancelled | Error::Estimated => Cancelled,
            Error::OverCost { .. } => OverBudget,
        }
    }

    /// An invalid field value.
    pub fn invalid(
        field: &'static str,
        value: impl fmt::Display,
        problem: impl fmt::Display,
    ) -> Error {
        Error::Invalid {
            field,
            value: value.to_string(),
            problem: problem.to_string(),
        }
    }

    /// A bad combination of fields.
    pub fn combination(field: &'static str, problem: impl fmt::Display) -> Error {
        Error::Combination {
            field,
            problem: problem.to_string(),
        }
    }

    /// A size over the budget field `field` that bounds it.
    pub fn over_budget(field: &'static str, problem: impl fmt::Display) -> Error {
        Error::OverBudget {
            field,
            problem: problem.to_string(),
        }
    }

    /// Refuses, naming `memory_gib`, a report estimated at `need` bytes over its budget of
    /// `memory_gib` GiB: "{what} about N GiB, over this budget of M GiB: raise it, or
    /// {fewer}" (`what` ends with its verb, `takes` or `take`). The one check of every
    /// command whose request declares a memory budget before its work.
    pub fn check_memory(
        need: u128,
        memory_gib: u64,
        what: impl fmt::Display,
        fewer: &str,
    ) -> Result<(), Error> {
        if need <= (memory_gib as u128) << 30 {
            return Ok(());
        }
        Err(Error::over_budget(
            "memory_gib",
            format!(
                "{what} about {:.1} GiB, over this budget of {memory_gib} GiB: raise it, or {fewer}",
                need as f64 / (1u64 << 30) as f64
            ),
        ))
    }

    /// The request field the error is about, if one.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Error::Invalid { field, .. }
            | Error::Combination { field, .. }
            | Error::OverBudget { field, .. }
            | Error::Missing { field, .. } => Some(field),
            Error::Engine(EngineError::TooManyStates { .. } | EngineError::TooManyHeld { .. }) => {
                Some("max_states")
            }
            Error::Engine(EngineError::OverMemory { .. }) => Some("memory_gib"),
            Error::OverCost { .. } => Some("max_seconds"),
            Error::Subtraction(SubtractionError::NoPeriod(_)) => Some("limit"),
            Error::Tokens(TokensError::TooManyPlayers { .. }) => Some("players"),
            Error::Tokens(TokensError::Layout { field, .. }) => Some(field),
            Error::Precedence(_) => Some("before"),
            Error::Efg { error, .. } => match error {
                EfgError::TooManyNodes { .. } => Some("max_nodes"),
                EfgError::TooManyOutcomes { .. } => Some("max_outcomes"),
                EfgError::NoSuchNode { .. } => Some("at"),
                EfgError::Profile(_) => Some("profile"),
                _ => None,
            },
            _ => None,
        }
    }

    /// The message with the field written by `name` (the CLI passes `--max-states` for
    /// `max_states`). Always one line.
    pub fn message_with(&self, name: impl Fn(&str) -> String) -> String {
        let text = match self {
            Error::Invalid {
                field,
                value,
                problem,
            } => format!("{} {}: {problem}", name(field), quote(value)),
            Error::Combination { field, problem } | Error::OverBudget { field, problem } => {
                format!("{}: {problem}", name(field))
            }
            Error::Missing { field, what, hint } => {
                format!("no {what} given ({}): {hint}", name(field))
            }
            Error::Request { message } => match message.split_once(": ") {
                // A value of the wrong shape in one field: the field as the front end
                // spells it.
                Some((path, rest))
                    if !path.is_empty()
                        && path.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') =>
                {
                    format!("{}: {rest}", name(path))
                }
                _ => format!("invalid request: {message}"),
            },
            Error::Io {
                action,
                path,
                message,
            } => format!("cannot {action} {}: {message}", quote(path)),
            Error::Dinner(e) => e.to_string(),
            Error::Precedence(e) => format!("{}: {e}", name("before")),
            Error::Subtraction(e @ SubtractionError::NoPeriod(_)) => {
                format!("{e} ({})", name("limit"))
            }
            Error::Subtraction(e) => e.to_string(),
            Error::Cookie(e) => e.to_string(),
            Error::Tokens(e @ TokensError::Layout { field, .. }) => format!("{}: {e}", name(field)),
            Error::Tokens(e) => e.to_string(),
            Error::Engine(
                e @ (EngineError::TooManyStates { .. } | EngineError::TooManyHeld { .. }),
            ) => {
                format!("{e} (raise {} to allow it)", name("max_states"))
            }
            Error::Engine(e @ EngineError::OverMemory { .. }) => {
                format!("{e} (raise {} to allow it)", name("memory_gib"))
            }
            Error::Engine(e) => e.to_string(),
            Error::Efg { file, error } => {
                let place = file
                    .as_ref()
                    .map(|f| format!("{}, ", quote(f)))
                    .unwrap_or_default();
                match error {
                    EfgError::TooManyNodes { .. } => {
                        format!("{place}{error} (raise {} to allow it)", name("max_nodes"))
                    }
                    EfgError::TooManyOutcomes { .. } => {
                        format!(
                            "{place}{error} (raise {} to allow it)",
                            name("max_outcomes")
                        )
                    }
                    EfgError::NoSuchNode { .. } => format!("{}: {error}", name("at")),
                    _ => format!("{place}{error}"),
                }
            }
            Error::Cancelled => "cancelled".into(),
            Error::OverCost {
                estimate,
                max_seconds,
                needed,
            } => match needed {
                Some(n) => format!(
                    "{estimate} is over {} {max_seconds} (raise it to {n} to run it)",
                    name("max_seconds")
                ),
                None => format!(
                    "{estimate} is over {} {max_seconds}, past any budget: ask for a smaller request",
                    name("max_seconds")
                ),
            },
            Error::Estimated => "stopped at the estimate".into(),
        };
        // One line whatever a nested message held.
        text.replace(['\n', '\r'], " ")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_with(str::to_string))
    }
}

impl std::error::Error for Error {}

impl From<DinnerError> for Error {
    fn from(e: DinnerError) -> Error {
        match e {
            DinnerError::Engine(EngineError::Cancelled) => Error::Cancelled,
            DinnerError::Engine(e) => Error::Engine(e),
            e => Error::Dinner(e),
        }
    }
}

impl From<PrecedenceError> for Error {
    fn from(e: PrecedenceError) -> Error {
        Error::Precedence(e)
    }
}

impl From<SubtractionError> for Error {
    fn from(e: SubtractionError) -> Error {
        match e {
            SubtractionError::Cancelled => Error::Cancelled,
            e => Error::Subtraction(e),
        }
    }
}

impl From<CookieError> for Error {
    fn from(e: CookieError) -> Error {
        match e {
            CookieError::Cancelled => Error::Cancelled,
            e => Error::Cookie(e),
        }
    }
}

impl From<TokensError> for Error {
    fn from(e: TokensError) -> Error {
        match e {
            TokensError::Cancelled => Error::Cancelled,
            e => Error::Tokens(e),
        }
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Error {
        match e {
            EngineError::Cancelled => Error::Cancelled,
            e => Error::Engine(e),
        }
    }
}
