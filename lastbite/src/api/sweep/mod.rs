//! Sweeps in shards: every sweep command is a deterministic list of independent items
//! whose results fold into its report, so that the list can be cut into shards run
//! anywhere (other processes, other machines, a Dask cluster) and merged back into a
//! report byte-identical to the unsharded run's, whatever the shard count and the order
//! in which the shards finish.
//!
//! A key design decision is that *the unsharded command is the one-shard case*: each sweep
//! command of the API runs [`run`], which computes shard 1 of 1 and builds the report
//! from it, so the sharded and unsharded runs share every line of the computation. A
//! sweep's partial result is a commutative monoid: [`Sweep::merge`] combines two partials
//! the same way in whatever order (sums; lists kept sorted by item number; maxima with
//! ties broken by the item number), so any split gives the same merged partial.
//!
//! Shards carry equal estimated cost, not equal counts: a sweep whose items differ in
//! cost weighs each by its cost model ([`Sweep::weight`]) and deals the heaviest first to
//! the lightest shard so far; items alike (trials) are dealt round-robin, item `i` (from
//! 0) to shard `i mod N` (shards are numbered from 1 in documents and messages). The
//! slowest of N workers then finishes close to the mean.
//!
//! ```
//! use lastbite::api::{sweep, Control};
//! let req = r#"{"statement": "11", "sizes": [2], "max": 12}"#;
//! let whole = lastbite::api::call("subtraction-conjecture", req, &Control::silent()).unwrap();
//! let shards: Vec<String> = (1..=3)
//!     .map(|i| sweep::shard("subtraction-conjecture", req, sweep::Shard::new(i, 3).unwrap(), &Control::silent()).unwrap())
//!     .collect();
//! let merged = sweep::merge(&shards, &Control::silent()).unwrap();
//! assert_eq!(merged.json, whole);
//! ```

use serde::Serialize;

pub use shards::{
    append_ordered, check_count, check_every_item, check_item, max_first, run, run_shard, Shard,
    Sweep,
};

use crate::api::{command_table, parse_request, Control, Error, Render, ReportVisitor};
use shards::{check_docs, merge_of, plan_of, shard_of, shard_share};

mod shards;

macro_rules! sweep_names {
    ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
        &[$($(<$crate::api::$sf::$s as Sweep>::COMMAND,)?)*]
    };
}

/// Every sweep command, from the command table: the commands that run as sweeps (and so
/// take shards), in the table's order.
pub const SWEEPS: &[&str] = command_table!(sweep_names);

fn unknown(name: &str) -> Error {
    Error::invalid(
        "command",
        name,
        format!("is not a sweep (one of {})", SWEEPS.join(", ")),
    )
}

/// Runs shard `shard` of sweep command `name` on a request given as JSON; returns the
/// shard document (JSON) that [`merge`] reads.
pub fn shard(name: &str, request: &str, shard: Shard, ctl: &Control) -> Result<String, Error> {
    macro_rules! dispatch {
        ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            match name {
                $($(n if n == <$crate::api::$sf::$s as Sweep>::COMMAND => shard_of::<$crate::api::$sf::$s>(request, shard, ctl),)?)*
                other => Err(unknown(other)),
            }
        };
    }
    command_table!(dispatch)
}

/// The number of items of sweep `name` on a request given as JSON (validating it), for
/// front ends choosing a shard count.
pub fn items(name: &str, request: &str) -> Result<u64, Error> {
    macro_rules! dispatch {
        ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            match name {
                $($(n if n == <$crate::api::$sf::$s as Sweep>::COMMAND => {
                    let req: <$crate::api::$sf::$s as Sweep>::Request = parse_request(request)?;
                    Ok(<$crate::api::$sf::$s as Sweep>::items(&*plan_of::<$crate::api::$sf::$s>(&req)?))
                })?)*
                other => Err(unknown(other)),
            }
        };
    }
    command_table!(dispatch)
}

/// The share of the estimated cost of sweep `name` on a JSON request that each of
/// `count` shards carries (shard 1 first), for front ends that plan a run.
pub fn shard_shares(name: &str, request: &str, count: u64) -> Result<Vec<f64>, Error> {
    macro_rules! dispatch {
        ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            match name {
                $($(n if n == <$crate::api::$sf::$s as Sweep>::COMMAND => {
                    let req: <$crate::api::$sf::$s as Sweep>::Request = parse_request(request)?;
                    let plan = plan_of::<$crate::api::$sf::$s>(&req)?;
                    (1..=count)
                        .map(|i| Ok(shard_share::<$crate::api::$sf::$s>(&req, &plan, Shard::new(i, count)?)))
                        .collect()
                })?)*
                other => Err(unknown(other)),
            }
        };
    }
    command_table!(dispatch)
}

/// The largest shard document `merge` reads from a file: 4 GiB, more than the records of
/// the largest sweep the budgets admit (30 million rulesets) and far less than
/// `/dev/zero` would give.
pub const MAX_DOCUMENT_BYTES: u64 = 4 << 30;

/// A merged sweep: the command and its report, as the unsharded command gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The sweep command.
    pub command: String,
    /// The report as compact JSON ([`crate::api::call`]'s document).
    pub json: String,
    /// The report as the CLI's `--json` prints it ([`crate::api::write_json`]).
    pub document: String,
    /// The report's text ([`Render`]).
    pub text: String,
}

/// Merges the shard documents of one sweep: all from the same command and request, each
/// shard exactly once. The report equals the unsharded command's.
pub fn merge(docs: &[String], ctl: &Control) -> Result<Merged, Error> {
    let (command, _) = check_docs(docs)?;
    let (json, document, text) = merge_checked(&command, docs, ctl, Every)?;
    Ok(Merged {
        command,
        json,
        document,
        text,
    })
}

/// The report in every form [`Merged`] holds.
struct Every;

impl ReportVisitor for Every {
    type Output = (String, String, String);
    fn visit<R: Serialize + Render>(self, report: &R) -> Self::Output {
        let mut doc = Vec::new();
        crate::api::write_json(report, &mut doc).expect("writing to memory");
        (
            crate::api::render::ToJson.visit(report),
            String::from_utf8(doc).expect("JSON is UTF-8"),
            report.to_text(),
        )
    }
}

/// [`merge`] with the report handed to `visitor`.
pub fn merge_with<V: ReportVisitor>(
    docs: &[String],
    ctl: &Control,
    visitor: V,
) -> Result<V::Output, Error> {
    let (name, _) = check_docs(docs)?;
    merge_checked(&name, docs, ctl, visitor)
}

/// [`merge_with`] on documents [`check_docs`] accepted as the shards of sweep `name`.
fn merge_checked<V: ReportVisitor>(
    name: &str,
    docs: &[String],
    ctl: &Control,
    visitor: V,
) -> Result<V::Output, Error> {
    macro_rules! dispatch {
        ($($name:literal: $fam:ident::$req:ident => $rep:ident = $f:ident $(; sweep $sf:ident::$s:ident)?),* $(,)?) => {
            match name {
                $($(n if n == <$crate::api::$sf::$s as Sweep>::COMMAND => merge_of::<$crate::api::$sf::$s, V>(docs, ctl, visitor),)?)*
                other => Err(unknown(other)),
            }
        };
    }
    command_table!(dispatch)
}
