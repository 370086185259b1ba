//! What a request will cost before it runs: the work of one call in the units its loops
//! count ([`Work`] of a [`Unit`]), converted to seconds of one core by the unit's
//! calibration constant, all of them in one table ([`UNITS`]).
//!
//! A key design decision is that *every command states its cost once, where its validated
//! input first exists*: each API function builds its [`Estimate`] from its checked request
//! (a family's `cost` functions beside its requests) and hands it to
//! [`Control::admit`](crate::api::Control::admit) before any work. One check there refuses
//! a request over its work budget (`max_seconds`, a field of every request), feeds the
//! progress bar its expected time, and, for a control made by
//! [`estimate`](crate::api::estimate), stops the call right there: so the refusal, the `--estimate` answer and the progress estimate are one
//! number, and a command that never admits its cost is found by the test over the command
//! table (its estimate is missing).
//!
//! Work is held as a base-10 logarithm, so an astronomical request (2^(10^15) sequences)
//! is refused as "10^301029995663981" of its units, never a wrapped or infinite number.
//! Estimates are arithmetic on the request: no command is slower for its check.

use serde::Serialize;

use super::error::Error;
use super::render::Render;

/// The default work budget of every request (`max_seconds`): a minute of one core.
pub const DEFAULT_MAX_SECONDS: u64 = 60;

/// The estimate from which a front end shows progress at once: a quarter of the second
/// a user waits before expecting some, so that a call running four times slower than its
/// estimate (a loaded machine) still shows progress within that second.
pub const PROGRESS_FROM_SECONDS: f64 = 0.25;

/// An amount of work, in some unit, held as its base-10 logarithm (never overflows).
///
/// ```
/// use lastbite::api::cost::Work;
/// let w = Work::count(1000.0).times(Work::pow2(10.0));
/// assert_eq!(w.to_string(), "1.0e6");
/// assert_eq!(Work::pow2(1e15).to_string(), "10^301029995663981");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Work {
    log10: f64,
}

impl Work {
    /// No work.
    pub const ZERO: Work = Work {
        log10: f64::NEG_INFINITY,
    };

    /// `n` units (a count; negative or not-a-number counts as none).
    pub fn count(n: f64) -> Work {
        if n > 0.0 {
            Work { log10: n.log10() }
        } else {
            Work::ZERO
        }
    }

    /// `2^e` units.
    pub fn pow2(e: f64) -> Work {
        Work {
            log10: e * std::f64::consts::LOG10_2,
        }
    }

    /// `base^e` units (`base` at least 1).
    pub fn pow(base: f64, e: f64) -> Work {
        Work {
            log10: e * base.max(1.0).log10(),
        }
    }

    /// `n!` units (Stirling's series past 20).
    pub fn factorial(n: f64) -> Work {
        if n < 21.0 {
            let mut f = 1.0;
            let mut k = 2.0;
            while k <= n {
                f *= k;
                k += 1.0;
            }
            return Work::count(f);
        }
        let ln = n * n.ln() - n + 0.5 * (2.0 * std::f64::consts::PI * n).ln() + 1.0 / (12.0 * n);
        Work {
            log10: ln / std::f64::consts::LN_10,
        }
    }

    /// `n choose k` units.
    pub fn binomial(n: f64, k: f64) -> Work {
        if k < 0.0 || k > n {
            return Work::ZERO;
        }
        let k = k.min(n - k);
        if k < 30.0 {
            let mut w = Work::count(1.0);
            let mut i = 0.0;
            while i < k {
                w = w.times(Work::count((n - i) / (i + 1.0)));
                i += 1.0;
            }
            return w;
        }
        Work {
            log10: Work::factorial(n).log10
                - Work::factorial(k).log10
                - Work::factorial(n - k).log10,
        }
    }

    /// The product of two amounts (`self` of work, each unit of which costs `other`).
    pub fn times(self, other: Work) -> Work {
        Work {
            log10: self.log10 + other.log10,
        }
    }

    /// The amount raised to the power `a`.
    pub fn power(self, a: f64) -> Work {
        Work {
            log10: self.log10 * a,
        }
    }

    /// The sum of two amounts.
    pub fn plus(self, other: Work) -> Work {
        let (hi, lo) = if self.log10 >= other.log10 {
            (self.log10, other.log10)
        } else {
            (other.log10, self.log10)
        };
        if lo == f64::NEG_INFINITY {
            return Work { log10: hi };
        }
        Work {
            log10: hi + (1.0 + 10f64.powf(lo - hi)).log10(),
        }
    }

    /// The base-10 logarithm of the amount (`-inf` for none).
    pub fn log10(self) -> f64 {
        self.log10
    }

    /// The amount as a float (`inf` past `f64`'s range).
    pub fn value(self) -> f64 {
        10f64.powf(self.log10)
    }
}

impl std::fmt::Display for Work {
    /// Two significant digits (`1.7e10`, `350`), or a power of ten past 10^300.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.log10 == f64::NEG_INFINITY {
            return f.write_str("0");
        }
        if self.log10 > 300.0 {
            return write!(f, "10^{:.0}", self.log10.floor());
        }
        let v = self.value();
        if v < 1e4 {
            write!(f, "{}", v.round())
        } else {
            write!(f, "{v:.1e}")
        }
    }
}

/// A unit of work and what one costs: the time of one unit on one core of the reference
/// machine (2 cores, x86-64), measured by `lastbite/benches/cost.rs` and kept in [`UNITS`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Unit {
    /// What a unit is, in the plural (`sequence steps`).
    pub name: &'static str,
    /// Nanoseconds per unit on one core.
    pub nanoseconds: f64,
}

/// Declares the units and their table.
macro_rules! units {
    ($($(#[$m:meta])* $id:ident = $name:literal, $ns:expr;)*) => {
        $( $(#[$m])* pub const $id: Unit = Unit { name: $name, nanoseconds: $ns }; )*
        /// Every unit with its calibration constant: the one table the benchmark
        /// `lastbite/benches/cost.rs` measures and `docs/performance.md` lists.
        pub const UNITS: &[Unit] = &[$($id),*];
    };
}

units! {
    /// A request that does a fixed small amount of work: parsing, one pass over the input.
    INPUT = "input items", 200.0;
    /// A state of a dinner's exact solver (the subset lattice), per player.
    DINNER_STATES = "state-players", 30.0;
    /// A state of a plain dinner's layers from 22 morsels, per player: the kernel's
    /// blocks (3 x 30 about 3 ns, 16-bit columns and the friendly rule's keys about 4).
    LAYER_STATES = "layer state-players", 8.0;
    /// A morsel of crossout or sincere play (a sort and a pass).
    MORSELS = "morsels", 35.0;
    /// A node of a game tree built, drawn or checked.
    NODES = "nodes", 400.0;
    /// A step of the search over picking sequences (a sequence prefix times a profile).
    SEQUENCE_STEPS = "sequence steps", 100.0;
    /// A random dinner of a sweep or a trial, solved: morsels times players.
    TRIAL_MORSELS = "trial morsel-players", 120.0;
    /// A profile of rankings times an item, evaluated.
    PROFILE_ITEMS = "profile items", 60.0;
    /// A state of a subtraction game's tables (heap by last take).
    HEAP_STATES = "heap states", 1.1;
    /// A step of a subtraction sweep's ruleset (its period search and statements).
    RULESET_STEPS = "ruleset steps", 5.0;
    /// A state of Token Dollars' search (a set of placed tokens).
    TOKEN_STATES = "token states", 250.0;
    /// A placement tried by the exact search of Token Dollars anywhere.
    PLACEMENTS = "placements", 250.0;
    /// A position of a cookie game (a multiset of components) solved.
    COOKIE_POSITIONS = "positions", 300.0;
    /// A reproduction of the four papers: one run.
    RUNS = "runs", 15.0e9;
}

/// What a call will cost: its work in its unit, and that in seconds of one core.
///
/// ```
/// use lastbite::api::cost::{Estimate, Work, SEQUENCE_STEPS};
/// let e = Estimate::new(Work::count(1.7e10), SEQUENCE_STEPS);
/// assert_eq!(e.to_string(), "about 28 min (1.7e10 sequence steps)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The work, in `unit`s.
    pub work: Work,
    /// Its unit.
    pub unit: Unit,
}

impl Estimate {
    /// `work` units of `unit`.
    pub fn new(work: Work, unit: Unit) -> Estimate {
        Estimate { work, unit }
    }

    /// Seconds of one core.
    pub fn seconds(&self) -> Work {
        self.work.times(Work::count(self.unit.nanoseconds * 1e-9))
    }

    /// The sum of two estimates, in `self`'s unit (the other converted by time).
    pub fn plus(self, other: Estimate) -> Estimate {
        let ratio = other.unit.nanoseconds / self.unit.nanoseconds;
        Estimate {
            work: self.work.plus(other.work.times(Work::count(ratio))),
            unit: self.unit,
        }
    }

    /// This estimate `n` times over.
    pub fn times(self, n: Work) -> Estimate {
        Estimate {
            work: self.work.times(n),
            unit: self.unit,
        }
    }
}

/// A duration in words: `0.3 s`, `12 s`, `4.5 min`, `2.1 hours`, `3.0 days`, `4e9 years`,
/// `10^4515 years`.
pub fn duration(seconds: Work) -> String {
    let s = seconds.value();
    match s {
        _ if seconds.log10() > 300.0 => {
            format!("10^{:.0} years", (seconds.log10() - 7.4989).floor())
        }
        s if s < 10.0 => format!("{s:.1} s"),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 3.0 * 86400.0 => format!("{:.1} hours", s / 3600.0),
        s if s < 3.0 * 31_557_600.0 => format!("{:.0} days", s / 86400.0),
        s => format!("{} years", Work::count(s / 31_557_600.0)),
    }
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "about {} ({} {})",
            duration(self.seconds()),
            self.work,
            self.unit.name
        )
    }
}

/// What `--estimate` answers: a command's cost before it runs, and whether its work
/// budget admits it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct EstimateReport {
    /// The command (`dinner-best-order`).
    pub command: String,
    /// Seconds of one core (`null` past 10^300).
    pub seconds: Option<f64>,
    /// The base-10 logarithm of `seconds`.
    pub log10_seconds: f64,
    /// The work in the command's units, as text (`1.7e10`, `10^4515`).
    pub work: String,
    /// The unit of `work` (`sequence steps`).
    pub unit: String,
    /// The request's work budget, in seconds.
    pub max_seconds: u64,
    /// Whether the budget admits the request.
    pub admitted: bool,
    /// The estimate in words (`about 28 min (1.7e10 sequence steps)`).
    pub text: String,
}

impl EstimateReport {
    pub(super) fn new(command: &str, e: &Estimate, max_seconds: u64) -> EstimateReport {
        let s = e.seconds();
        EstimateReport {
            command: command.to_string(),
            seconds: (s.log10() <= 300.0).then(|| (s.value() * 1000.0).round() / 1000.0),
            log10_seconds: if s.log10().is_finite() {
                (s.log10() * 1000.0).round() / 1000.0
            } else {
                -99.0
            },
            work: e.work.to_string(),
            unit: e.unit.name.to_string(),
            max_seconds,
            admitted: within(e, max_seconds),
            text: e.to_string(),
        }
    }
}

impl Render for EstimateReport {
    fn write_text(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let verdict = if self.admitted { "within" } else { "over" };
        writeln!(
            w,
            "{}: {}, {verdict} the budget of {} s",
            self.command.replacen('-', " ", 1),
            self.text,
            self.max_seconds
        )
    }
}

/// Whether `max_seconds` admits `e`.
pub(super) fn within(e: &Estimate, max_seconds: u64) -> bool {
    e.seconds().log10() <= (max_seconds.max(1) as f64).log10() || max_seconds == u64::MAX
}

/// The refusal of a request estimated over its budget.
pub(super) fn over(e: &Estimate, max_seconds: u64) -> Error {
    // The budget that admits it, where one can: the seconds rounded up.
    let seconds = e.seconds();
    let needed = (seconds.log10() < 19.0).then(|| (seconds.value().ceil() as u64).max(1));
    Error::OverCost {
        estimate: e.to_string(),
        max_seconds,
        needed,
    }
}
