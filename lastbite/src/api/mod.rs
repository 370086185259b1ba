//! One API behind every front end: a request type and a report type per command, and one
//! function from request to report.
//!
//! A key design decision is that *the API is the product's contract*: the CLI, the
//! Python package, the web server and anything later parse their input into a request,
//! call one function here and render the report; none of them holds game logic. So:
//!
//! * requests are plain serde documents whose field names are the CLI's long flag names
//!   in snake_case, with the CLI's defaults (a missing field takes its default); they
//!   hold *unparsed* user text and numbers, and each API function turns them into the
//!   families' validated types (parse, don't validate) before any work starts;
//! * reports serialise (serde) to exactly the `--json` documents of the CLI, exact
//!   numbers as JSON integers or `"a/b"` strings; [`write_json`] writes them, and
//!   [`Render::write_text`] writes the human table of each;
//! * errors are [`Error`]s that name the request *field* (never a CLI flag: the CLI maps
//!   fields to its flags) and quote user input escaped, so a message is always one line;
//! * long calls take a [`Control`]: a progress sink and a cancellation flag.
//!
//! JSON Schemas of every request and report come from the types ([`schemas`]).
//!
//! ```
//! use lastbite::api::{self, dinner::SolveRequest, Control};
//! let req: SolveRequest = serde_json::from_str(r#"{"morsels": "1,2 2,3 3,1", "order": "ABA"}"#).unwrap();
//! let report = api::dinner::solve(&req, &Control::silent()).unwrap();
//! assert_eq!(serde_json::to_value(&report).unwrap()["scores"], serde_json::json!([5, 2]));
//! ```

pub mod cookie;
pub mod dinner;
pub mod efg;
mod error;
mod json;
pub mod reproduce;
pub mod subtraction;
pub mod sweep;
pub mod tokens;

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

pub use error::{escape, Error};
pub use json::write_json;

use crate::engine::{Progress, Silent};

/// Progress and cancellation for one API call.
///
/// The progress sink receives the phases of long computations; the flag, when set by
/// another thread (a Ctrl-C handler, a web request that went away), stops them at the
/// next chunk of work with [`Error::Cancelled`].
pub struct Control<'a> {
    progress: &'a dyn Progress,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Control<'a> {
    /// Reports to `progress`; never cancelled.
    pub fn new(progress: &'a dyn Progress) -> Control<'a> {
        Control {
            progress,
            cancel: None,
        }
    }

    /// Also stops when `flag` becomes true.
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Control<'a> {
        self.cancel = Some(flag);
        self
    }

    /// No progress, no cancellation.
    pub fn silent() -> Control<'static> {
        Control {
            progress: &Silent,
            cancel: None,
        }
    }

    /// `Err(Cancelled)` when the flag is set.
    pub fn check(&self) -> Result<(), Error> {
        if self.cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

impl Progress for Control<'_> {
    fn start(&self, total: u64, what: &str) {
        self.progress.start(total, what)
    }
    fn advance(&self, done: u64) {
        self.progress.advance(done)
    }
    fn finish(&self) {
        self.progress.finish()
    }
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || self.progress.cancelled()
    }
}

/// Reads a request from a JSON document (for front ends that receive JSON: the web API,
/// files of requests); errors are one line.
///
/// ```
/// use lastbite::api::{parse_request, dinner::SolveRequest};
/// let req: SolveRequest = parse_request(r#"{"morsels": "1,2 2,3"}"#).unwrap();
/// assert!(parse_request::<SolveRequest>("{\"max_state\": 1}").is_err());
/// ```
pub fn parse_request<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, Error> {
    serde_json::from_str(json).map_err(|e| Error::Request {
        message: crate::text::clean(&e.to_string()),
    })
}

/// The human-readable text of a report: the CLI's default output. One renderer per
/// report, a pure function of it.
pub trait Render {
    /// Writes the text.
    fn write_text(&self, w: &mut dyn io::Write) -> io::Result<()>;

    /// The text as a string (for tests and notebooks).
    fn to_text(&self) -> String {
        let mut buf = Vec::new();
        self.write_text(&mut buf).expect("writing to memory");
        String::from_utf8(buf).expect("renderers write UTF-8")
    }
}

/// A picture a report can be drawn as (SVG text).
pub trait Picture {
    /// The SVG document.
    fn svg(&self) -> &str;
}

/// Every analysis command, once: its name (`family-command`, the stem of its schema
/// files), request type, report type and function. [`schemas`], [`call`] and
/// [`COMMANDS`] are generated from this one table, so a command added here reaches every
/// front end that dispatches by name (the Python package, the web API).
macro_rules! command_table {
    ($callback:ident) => {
        $callback![
            "dinner-solve": dinner::SolveRequest => dinner::SolveReport = dinner::solve,
            "dinner-play": dinner::PlayRequest => dinner::PlayReport = dinner::play,
            "dinner-verify": dinner::VerifyRequest => dinner::VerifyReport = dinner::verify_profile,
            "dinner-efg": dinner::EfgRequest => dinner::EfgReport = dinner::efg,
            "dinner-discount": dinner::DiscountRequest => dinner::DiscountReport = dinner::discount,
            "dinner-pareto": dinner::ParetoRequest => dinner::ParetoReport = dinner::pareto,
            "dinner-experiment": dinner::ExperimentRequest => dinner::ExperimentReport = dinner::experiment,
            "dinner-attainable": dinner::AttainableRequest => dinner::AttainableReport = dinner::attainable_sets,
            "dinner-plot": dinner::PlotRequest => dinner::PlotReport = dinner::plot,
            "dinner-board": dinner::BoardRequest => dinner::BoardReport = dinner::board,
            "dinner-balance": dinner::BalanceRequest => dinner::BalanceReport = dinner::balance,
            "dinner-multiplicity": dinner::MultiplicityRequest => dinner::MultiplicityReport = dinner::multiplicity,
            "subtraction-table": subtraction::TableRequest => subtraction::TableReport = subtraction::table,
            "subtraction-outcome": subtraction::OutcomeRequest => subtraction::OutcomeReport = subtraction::outcome,
            "subtraction-period": subtraction::PeriodRequest => subtraction::PeriodReport = subtraction::period,
            "subtraction-scan": subtraction::ScanRequest => subtraction::ScanReport = subtraction::scan,
            "subtraction-conjecture": subtraction::ConjectureRequest => subtraction::ConjectureReport = subtraction::conjecture,
            "subtraction-problems": subtraction::ProblemsRequest => subtraction::ProblemsReport = subtraction::problems,
            "subtraction-plot": subtraction::PlotRequest => subtraction::PlotReport = subtraction::plot,
            "tokens-solve": tokens::SolveRequest => tokens::SolveReport = tokens::solve,
            "tokens-seats": tokens::SeatsRequest => tokens::SeatsReport = tokens::seats,
            "cookie-analyze": cookie::AnalyzeRequest => cookie::AnalyzeReport = cookie::analyze,
            "cookie-critical": cookie::CriticalRequest => cookie::CriticalReport = cookie::critical,
            "cookie-table": cookie::TableRequest => cookie::TableReport = cookie::table,
            "cookie-nim": cookie::NimRequest => cookie::NimReport = cookie::nim,
            "cookie-general": cookie::GeneralRequest => cookie::GeneralReport = cookie::general,
            "efg-info": efg::InfoRequest => efg::InfoReport = efg::info,
            "efg-solve": efg::SolveRequest => efg::SolveReport = efg::solve,
            "efg-verify": efg::VerifyRequest => efg::VerifyReport = efg::verify,
            "efg-random": efg::RandomRequest => efg::RandomReport = efg::random,
            "reproduce": reproduce::ReproduceRequest => reproduce::ReproduceReport = reproduce::reproduce,
        ]
    };
}

macro_rules! names {
    ($($name:literal: $req:ty => $rep:ty = $f:path),* $(,)?) => {
        &[$($name),*]
    };
}

/// The names of every analysis command (`dinner-solve`, ..., `reproduce`).
pub const COMMANDS: &[&str] = command_table!(names);

/// The JSON Schemas of every request and report, as `(file stem, schema)`: the stem is
/// `<family>-<command>.request` or `.report` (the plain `tokens` command is
/// `tokens-solve`).
pub fn schemas() -> Vec<(String, serde_json::Value)> {
    fn pair<Q: schemars::JsonSchema, R: schemars::JsonSchema>(
        name: &str,
    ) -> [(String, serde_json::Value); 2] {
        [
            (
                format!("{name}.request"),
                serde_json::to_value(schemars::schema_for!(Q)).expect("schema is JSON"),
            ),
            (
                format!("{name}.report"),
                serde_json::to_value(schemars::schema_for!(R)).expect("schema is JSON"),
            ),
        ]
    }
    macro_rules! pairs {
        ($($name:literal: $req:ty => $rep:ty = $f:path),* $(,)?) => {
            vec![$(pair::<$req, $rep>($name)),*].into_iter().flatten().collect()
        };
    }
    command_table!(pairs)
}

/// Runs command `name` (one of [`COMMANDS`]) on a request given as a JSON document and
/// returns its report as a JSON document: the dispatch front ends that speak JSON share.
///
/// ```
/// use lastbite::api::{call, Control};
/// let report = call("subtraction-outcome", r#"{"set": "1,2", "heap": "10"}"#, &Control::silent()).unwrap();
/// assert!(report.contains("\"outcome\""));
/// assert!(call("dinner-cook", "{}", &Control::silent()).is_err());
/// ```
pub fn call(name: &str, request: &str, ctl: &Control) -> Result<String, Error> {
    call_with(name, request, ctl, ToJson)
}

/// What a front end makes of a command's report, whatever its type: [`call_with`] hands
/// the typed report to it (to be serialised some other way than JSON text, for example
/// into columns of numbers).
pub trait ReportVisitor {
    /// What the front end makes of it.
    type Output;
    /// Takes the report.
    fn visit<R: serde::Serialize + Render>(self, report: &R) -> Self::Output;
}

/// The report as a JSON document ([`call`]).
struct ToJson;

impl ReportVisitor for ToJson {
    type Output = String;
    fn visit<R: serde::Serialize + Render>(self, report: &R) -> String {
        serde_json::to_string(report).expect("reports serialise")
    }
}

/// [`call`] with the report handed to `visitor` instead of written as JSON.
///
/// ```
/// use lastbite::api::{call_with, Control, ReportVisitor, Render};
/// struct Fields;
/// impl ReportVisitor for Fields {
///     type Output = usize;
///     fn visit<R: serde::Serialize + Render>(self, report: &R) -> usize {
///         serde_json::to_value(report).unwrap().as_object().unwrap().len()
///     }
/// }
/// let n = call_with("subtraction-outcome", r#"{"set": "1,2", "heap": "10"}"#, &Control::silent(), Fields);
/// assert!(n.unwrap() > 0);
/// ```
pub fn call_with<V: ReportVisitor>(
    name: &str,
    request: &str,
    ctl: &Control,
    visitor: V,
) -> Result<V::Output, Error> {
    macro_rules! dispatch {
        ($($cmd:literal: $req:ty => $rep:ty = $f:path),* $(,)?) => {
            match name {
                $($cmd => {
                    let req: $req = parse_request(request)?;
                    let report: $rep = $f(&req, ctl)?;
                    Ok(visitor.visit(&report))
                })*
                other => Err(Error::invalid(
                    "command",
                    other,
                    format!("is not a command (one of {})", COMMANDS.join(", ")),
                )),
            }
        };
    }
    command_table!(dispatch)
}
