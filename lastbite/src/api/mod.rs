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
//! * long calls take a [`Control`]: a progress sink, a cancellation flag and the
//!   request's work budget, against which every command admits its cost
//!   ([`Control::admit`], [`cost`]) before its work.
//!
//! The API owns requests, reports, their text and the command table; it must not hold
//! game logic (a family's analyses live in [`crate::games`]), and no front end may
//! reach past it into a family for a command's work.
//!
//! JSON Schemas of every request and report come from the types ([`schemas`]).
//!
//! ```
//! use lastbite::api::{self, dinner::SolveRequest, Control};
//! let req: SolveRequest = serde_json::from_str(r#"{"morsels": "1,2 2,3 3,1", "order": "ABA"}"#).unwrap();
//! let report = api::dinner::solve(&req, &Control::silent()).unwrap();
//! assert_eq!(serde_json::to_value(&report).unwrap()["scores"], serde_json::json!([5, 2]));
//! ```

mod control;
pub mod cookie;
pub mod cost;
pub mod dinner;
pub mod drawing;
pub mod efg;
mod error;
pub mod forms;
pub mod input;
mod json;
mod modes;
pub mod playable;
mod render;
pub mod reproduce;
pub mod serving;
pub mod subtraction;
pub mod sweep;
pub mod tokens;

pub use control::Control;
pub use cost::EstimateReport;
pub use error::{escape, Error, ErrorKind};
pub use json::{parse_request, write_json, write_json_compact};
pub use playable::{GameInfo, Playable, Position, Utility};
pub use render::{Format, Picture, Render, ReportVisitor};

use render::{Export, ToJson};

/// Every analysis command, once: its name (`family-command`, the stem of its schema
/// files), request type, report type and function. [`schemas`], [`call`] and
/// [`COMMANDS`] are generated from this one table, so a command added here reaches every
/// front end that dispatches by name (the Python package, the web API). A sweep command
/// names its [`sweep::Sweep`] after `sweep`: the sweep registry ([`sweep::SWEEPS`],
/// [`sweep::shard`], [`sweep::merge`]) is generated from the same lines.
macro_rules! command_table {
    ($callback:ident) => {
        $callback![
            "dinner-solve": dinner::SolveRequest => SolveReport = solve,
            "dinner-play": dinner::PlayRequest => PlayReport = play,
            "dinner-verify": dinner::VerifyRequest => VerifyReport = verify_profile,
            "dinner-efg": dinner::EfgRequest => EfgReport = efg,
            "dinner-discount": dinner::DiscountRequest => DiscountReport = discount; sweep dinner::DiscountSweep,
            "dinner-pareto": dinner::ParetoRequest => ParetoReport = pareto; sweep dinner::ParetoSweep,
            "dinner-experiment": dinner::ExperimentRequest => ExperimentReport = experiment; sweep dinner::ExperimentSweep,
            "dinner-attainable": dinner::AttainableRequest => AttainableReport = attainable_sets,
            "dinner-plot": dinner::PlotRequest => PlotReport = plot,
            "dinner-board": dinner::BoardRequest => BoardReport = board,
            "dinner-tree": dinner::TreeRequest => TreeReport = tree,
            "dinner-balance": dinner::BalanceRequest => BalanceReport = balance; sweep dinner::BalanceSweep,
            "dinner-multiplicity": dinner::MultiplicityRequest => MultiplicityReport = multiplicity; sweep dinner::MultiplicitySweep,
            "dinner-sincere": dinner::SincereRequest => SincereReport = sincere,
            "dinner-manipulate": dinner::ManipulateRequest => ManipulateReport = manipulate,
            "dinner-fairness": dinner::FairnessRequest => FairnessReport = fairness; sweep dinner::FairnessSweep,
            "dinner-expected": dinner::ExpectedRequest => ExpectedReport = expected,
            "dinner-best-order": dinner::BestOrderRequest => BestOrderReport = best_order; sweep dinner::BestOrderSweep,
            "dinner-strategic-fairness": dinner::StrategicFairnessRequest => StrategicFairnessReport = strategic_fairness; sweep dinner::StrategicSweep,
            "subtraction-table": subtraction::TableRequest => TableReport = table,
            "subtraction-outcome": subtraction::OutcomeRequest => OutcomeReport = outcome,
            "subtraction-period": subtraction::PeriodRequest => PeriodReport = period,
            "subtraction-scan": subtraction::ScanRequest => ScanReport = scan; sweep subtraction::ScanSweep,
            "subtraction-conjecture": subtraction::ConjectureRequest => ConjectureReport = conjecture; sweep subtraction::ConjectureSweep,
            "subtraction-problems": subtraction::ProblemsRequest => ProblemsReport = problems; sweep subtraction::ProblemsSweep,
            "subtraction-plot": subtraction::PlotRequest => PlotReport = plot; sweep subtraction::PlotSweep,
            "tokens-solve": tokens::SolveRequest => SolveReport = solve,
            "tokens-seats": tokens::SeatsRequest => SeatsReport = seats,
            "tokens-anywhere": tokens::AnywhereRequest => AnywhereReport = anywhere; sweep tokens::AnywhereSweep,
            "cookie-analyze": cookie::AnalyzeRequest => AnalyzeReport = analyze,
            "cookie-critical": cookie::CriticalRequest => CriticalReport = critical,
            "cookie-table": cookie::TableRequest => TableReport = table,
            "cookie-nim": cookie::NimRequest => NimReport = nim,
            "cookie-general": cookie::GeneralRequest => GeneralReport = general; sweep cookie::GeneralSweep,
            "efg-info": efg::InfoRequest => InfoReport = info,
            "efg-solve": efg::SolveRequest => SolveReport = solve,
            "efg-verify": efg::VerifyRequest => VerifyReport = verify,
            "efg-random": efg::RandomRequest => RandomReport = random,
            "efg-draw": efg::DrawRequest => TreeReport = draw,
            "reproduce": reproduce::ReproduceRequest => ReproduceReport = reproduce,
        ]
    };
}
pub(crate) use command_table;

macro_rules! names {
    ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
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
        ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            vec![$(pair::<$crate::api::$fam::$req, $crate::api::$fam::$rep>($name)),*].into_iter().flatten().collect()
        };
    }
    command_table!(pairs)
}

/// What a front end needs to know of a command before it runs it: its request's schema
/// (every field once: its type, default, help, closed set of values and how a command line
/// takes it), whether its report has tables or can carry a picture, and whether it runs
/// as a sharded sweep. The CLI builds each subcommand from this, so a flag cannot drift
/// from its field.
///
/// ```
/// let info = lastbite::api::command_info("cookie-critical").unwrap();
/// assert!(info.tables && !info.picture && !info.sweep);
/// assert!(info.request["properties"]["max_size"].is_object());
/// assert!(lastbite::api::command_info("dinner-cook").is_none());
/// ```
#[derive(Debug, Clone)]
pub struct CommandInfo {
    /// The command's name (`dinner-solve`).
    pub name: &'static str,
    /// The JSON Schema of its request.
    pub request: serde_json::Value,
    /// Whether its report has tables (the table formats apply).
    pub tables: bool,
    /// Whether its report can carry a picture (the picture formats apply).
    pub picture: bool,
    /// Whether its report has a CSV form ([`Render::write_csv`]).
    pub csv: bool,
    /// Whether it runs as a sharded sweep ([`sweep::shard`]).
    pub sweep: bool,
}

/// The [`CommandInfo`] of command `name`, `None` for a name not in [`COMMANDS`].
pub fn command_info(name: &str) -> Option<CommandInfo> {
    macro_rules! info {
        ($($cmd:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            match name {
                $($cmd => Some(CommandInfo {
                    name: $cmd,
                    request: serde_json::to_value(schemars::schema_for!($crate::api::$fam::$req))
                        .expect("schema is JSON"),
                    tables: <$crate::api::$fam::$rep as Render>::TABLES,
                    picture: <$crate::api::$fam::$rep as Render>::PICTURE,
                    csv: <$crate::api::$fam::$rep as Render>::CSV,
                    sweep: false $(|| { let _ = stringify!($s); true })?,
                }),)*
                _ => None,
            }
        };
    }
    command_table!(info)
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

/// Runs command `name` on a JSON request and writes its report in `format`: JSON, text,
/// its tables as LaTeX, or its picture as SVG or TikZ. A picture format asks the command
/// for its picture (`picture: true`) when the request has that field and leaves it out.
/// A report without tables (or without a picture) is refused for those formats.
///
/// ```
/// use lastbite::api::{export, Control, Format};
/// let tex = export("cookie-critical", r#"{"max_size": 5}"#, Format::Latex, &Control::silent()).unwrap();
/// assert!(tex.contains("\\begin{tabular}"));
/// let tikz = export("dinner-board", r#"{"morsels": "1,2 2,3 3,1"}"#, Format::Tikz, &Control::silent()).unwrap();
/// assert!(tikz.contains("\\begin{tikzpicture}"));
/// assert!(export("subtraction-outcome", r#"{"set": "1,2", "heap": "10"}"#, Format::Latex, &Control::silent()).is_err());
/// ```
pub fn export(name: &str, request: &str, format: Format, ctl: &Control) -> Result<String, Error> {
    let mut request = std::borrow::Cow::Borrowed(request);
    if format.is_picture() {
        // The commands whose request has a `picture` field, found once from the schemas.
        static DRAWING: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let drawing = DRAWING.get_or_init(|| {
            schemas()
                .into_iter()
                .filter(|(_, s)| s["properties"].get("picture").is_some())
                .filter_map(|(stem, _)| stem.strip_suffix(".request").map(String::from))
                .collect()
        });
        if drawing.iter().any(|c| c == name) {
            let mut value: serde_json::Value = parse_request(&request)?;
            if let Some(obj) = value.as_object_mut() {
                obj.entry("picture")
                    .or_insert(serde_json::Value::Bool(true));
            }
            request = std::borrow::Cow::Owned(value.to_string());
        }
    }
    call_with(name, &request, ctl, Export(format))?
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
        ($($cmd:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            match name {
                $($cmd => {
                    let req: $crate::api::$fam::$req = parse_request(request)?;
                    modes::check(&req)?;
                    // The request's work budget, checked where the command admits its cost.
                    let ctl = &ctl.budgeted(input::Budgeted::max_seconds(&req));
                    let report: $crate::api::$fam::$rep = $crate::api::$fam::$f(&req, ctl)?;
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

/// The families whose games can be played move by move ([`game`]).
pub const GAME_FAMILIES: &[&str] = &["dinner", "subtraction", "tokens", "cookie"];

macro_rules! game_requests {
    ($callback:ident, $family:expr, $request:expr) => {
        match $family {
            "dinner" => $callback!(dinner, $request),
            "subtraction" => $callback!(subtraction, $request),
            "tokens" => $callback!(tokens, $request),
            "cookie" => $callback!(cookie, $request),
            other => Err(Error::invalid(
                "family",
                other,
                format!("has no game to play (one of {})", GAME_FAMILIES.join(", ")),
            )),
        }
    };
}

/// The game of family `family` (one of [`GAME_FAMILIES`]) with the instance given as a
/// JSON document of its `GameRequest` (for example [`dinner::GameRequest`]), to play
/// move by move: see [`playable`].
///
/// ```
/// let game = lastbite::api::game("subtraction", r#"{"set": "1,2", "heap": 5}"#).unwrap();
/// assert_eq!(game.info().players, 2);
/// assert!(lastbite::api::game("chess", "{}").is_err());
/// ```
pub fn game(family: &str, request: &str) -> Result<Playable, Error> {
    macro_rules! load {
        ($fam:ident, $request:expr) => {
            $fam::game(&parse_request::<$fam::GameRequest>($request)?)
        };
    }
    game_requests!(load, family, request)
}

/// The fields of `family`'s game request with their defaults (absent ones as `null`),
/// for front ends that declare a game's parameters to another tool.
///
/// ```
/// let fields = lastbite::api::game_fields("subtraction").unwrap();
/// assert_eq!(fields["heap"], 0);
/// ```
pub fn game_fields(family: &str) -> Result<serde_json::Value, Error> {
    macro_rules! fields {
        ($fam:ident, $request:expr) => {
            Ok(serde_json::to_value($fam::GameRequest::default()).expect("a request is JSON"))
        };
    }
    game_requests!(fields, family, ())
}

/// The cost of command `name` on a request given as JSON, without running it: the
/// request is parsed and checked as the command would, and the call stops where the
/// command admits its cost.
///
/// ```
/// let e = lastbite::api::estimate("dinner-best-order", r#"{"size": 24}"#).unwrap();
/// assert!(!e.admitted && e.seconds.unwrap() > 3600.0);
/// let e = lastbite::api::estimate("dinner-solve", r#"{"morsels": "1,2 2,1"}"#).unwrap();
/// assert!(e.admitted && e.seconds.unwrap() < 1.0);
/// ```
pub fn estimate(name: &str, request: &str) -> Result<EstimateReport, Error> {
    let ctl = Control::estimating();
    match call_with(name, request, &ctl, ToJson) {
        Err(Error::Estimated) | Ok(_) => match ctl.admitted() {
            Some((e, max)) => Ok(EstimateReport::new(name, &e, max)),
            None => Err(Error::invalid(
                "command",
                name,
                "states no cost before its work (a bug: every command must)",
            )),
        },
        Err(e) => Err(e),
    }
}
