//! The machinery of sweeps: shards ([`Shard`]), the [`Sweep`] trait, running a shard,
//! shard documents and their merge. It names no command and no family: the registry of
//! sweep commands is the command table's (the module above).

use std::any::Any;
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::api::{parse_request, Control, Error, Render, ReportVisitor};
use crate::engine::Progress;

/// One shard of a sweep: number `index` (from 1) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// Shard `index` of `count`, numbered from 1.
    pub fn new(index: u64, count: u64) -> Result<Shard, Error> {
        if count == 0 || index == 0 || index > count {
            return Err(Error::invalid(
                "shard",
                format!("{index}/{count}"),
                "give I/N with 1 <= I <= N",
            ));
        }
        Ok(Shard { index, count })
    }

    /// The whole sweep as one shard.
    pub fn whole() -> Shard {
        Shard { index: 1, count: 1 }
    }

    /// Parses `I/N`.
    pub fn parse(text: &str) -> Result<Shard, Error> {
        let bad = || Error::invalid("shard", text, "give I/N, e.g. 3/8");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i = i.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n)
    }

    /// The shard's number, from 1.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// How many shards the sweep is cut into.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether item `item` (from 0) belongs to this shard.
    pub fn holds(&self, item: u64) -> bool {
        item % self.count == self.index - 1
    }

    /// The number of items of a sweep of `items` that belong to this shard.
    pub fn len(&self, items: u64) -> u64 {
        let k = self.index - 1;
        if items <= k {
            0
        } else {
            (items - k).div_ceil(self.count)
        }
    }

    /// Whether the shard holds no item of a sweep of `items`.
    pub fn is_empty(&self, items: u64) -> bool {
        self.len(items) == 0
    }
}

/// A sweep command: its items, each item's partial result, how partials merge, and the
/// report built from the merged partial.
pub trait Sweep {
    /// The command's name (as in [`crate::api::COMMANDS`]).
    const COMMAND: &'static str;
    /// The command's request.
    type Request: Serialize + DeserializeOwned + Sync;
    /// What the items are, computed from the request (validating it); a process keeps
    /// the last one it made, so the shards of one sweep run in one worker make it once.
    type Plan: Send + Sync + 'static;
    /// The folded results of some items.
    type Partial: Serialize + DeserializeOwned + Default + Send;
    /// The command's report.
    type Report: Serialize + Render;

    /// Validates the request and lists the items.
    fn plan(req: &Self::Request) -> Result<Self::Plan, Error>;
    /// How many items the plan has.
    fn items(plan: &Self::Plan) -> u64;
    /// Item `item`'s partial result; a long item asks `ctl` whether to stop.
    fn item(
        req: &Self::Request,
        plan: &Self::Plan,
        item: u64,
        ctl: &Control,
    ) -> Result<Self::Partial, Error>;
    /// Adds `other` into `into`; the result must not depend on the order of merging.
    fn merge(into: &mut Self::Partial, other: Self::Partial);
    /// The report of the whole sweep from all items' merged partial.
    fn report(
        req: &Self::Request,
        plan: &Self::Plan,
        all: Self::Partial,
        ctl: &Control,
    ) -> Result<Self::Report, Error>;
}

/// Items per parallel chunk: the cancellation flag is checked between chunks.
const CHUNK: usize = 256;

/// Computes one shard's merged partial, in parallel, with progress and cancellation.
pub fn run_shard<S: Sweep>(
    req: &S::Request,
    plan: &S::Plan,
    shard: Shard,
    ctl: &Control,
) -> Result<S::Partial, Error> {
    use crate::par::prelude::*;
    let items = S::items(plan);
    // This shard's items, a chunk at a time: a sweep of 10^9 trials holds none of them.
    let mut mine = (shard.index - 1..items).step_by(shard.count as usize);
    ctl.start(
        items.saturating_sub(shard.index - 1).div_ceil(shard.count),
        "items",
    );
    let mut acc = S::Partial::default();
    let mut chunk = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        chunk.extend(mine.by_ref().take(CHUNK));
        if chunk.is_empty() {
            break;
        }
        if ctl.cancelled() {
            ctl.finish();
            return Err(Error::Cancelled);
        }
        let parts: Vec<Result<S::Partial, Error>> = chunk
            .par_iter()
            .map(|&i| {
                let p = S::item(req, plan, i, ctl);
                ctl.advance(1);
                p
            })
            .collect();
        for p in parts {
            S::merge(&mut acc, p?);
        }
    }
    ctl.finish();
    Ok(acc)
}

/// Runs a whole sweep (the one-shard case): what the sweep commands of the API call.
pub fn run<S: Sweep>(req: &S::Request, ctl: &Control) -> Result<S::Report, Error> {
    let plan = S::plan(req)?;
    let all = run_shard::<S>(req, &plan, Shard::whole(), ctl)?;
    ctl.check()?;
    S::report(req, &plan, all, ctl)
}

/// The document one shard writes: the command, its whole request (defaults filled in),
/// the shard, the sweep's item count and the shard's partial result, then (as its last
/// member) the checksum of all of it ([`crate::files::seal_json`]).
#[derive(Serialize, Deserialize)]
struct ShardDoc<R, P> {
    lastbite_shard: u32,
    command: String,
    request: R,
    shard: u64,
    shards: u64,
    items: u64,
    partial: P,
}

/// The version of the shard document format (2: sealed with a checksum).
const FORMAT: u32 = 2;

/// The plan last made in this process, with the command and request it was made for.
type CachedPlan = (String, Arc<dyn Any + Send + Sync>);
static LAST_PLAN: Mutex<Option<CachedPlan>> = Mutex::new(None);

/// The plan of `req`, made once per process for consecutive shards of one sweep (a
/// plan can list a million rulesets: remaking it per shard would cost more than small
/// shards themselves).
pub(super) fn plan_of<S: Sweep>(req: &S::Request) -> Result<Arc<S::Plan>, Error> {
    let key = format!(
        "{} {}",
        S::COMMAND,
        serde_json::to_string(req).expect("requests serialise")
    );
    if let Some((k, plan)) = &*LAST_PLAN.lock().unwrap_or_else(|e| e.into_inner()) {
        if *k == key {
            if let Ok(plan) = plan.clone().downcast::<S::Plan>() {
                return Ok(plan);
            }
        }
    }
    let plan = Arc::new(S::plan(req)?);
    *LAST_PLAN.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, plan.clone()));
    Ok(plan)
}

pub(super) fn shard_of<S: Sweep>(
    request: &str,
    shard: Shard,
    ctl: &Control,
) -> Result<String, Error> {
    let req: S::Request = parse_request(request)?;
    let plan = plan_of::<S>(&req)?;
    let partial = run_shard::<S>(&req, &plan, shard, ctl)?;
    let doc = ShardDoc {
        lastbite_shard: FORMAT,
        command: S::COMMAND.into(),
        request: req,
        shard: shard.index,
        shards: shard.count,
        items: S::items(&plan),
        partial,
    };
    // Sealed: `merge` refuses a document changed since (a shard relabelled, a number
    // edited) by its checksum.
    Ok(crate::files::seal_json(
        serde_json::to_string(&doc).expect("shard documents serialise"),
    ))
}

/// What every shard document states of its sweep, read before the partials.
#[derive(Deserialize)]
struct Header {
    lastbite_shard: u32,
    command: String,
    request: serde_json::Value,
    shard: u64,
    shards: u64,
    items: u64,
}

pub(super) fn merge_of<S: Sweep, V: ReportVisitor>(
    docs: &[String],
    ctl: &Control,
    visitor: V,
) -> Result<V::Output, Error> {
    let mut all = S::Partial::default();
    let mut req = None;
    for (n, text) in docs.iter().enumerate() {
        let doc: ShardDoc<S::Request, S::Partial> =
            serde_json::from_str(text).map_err(|e| Error::Request {
                message: format!(
                    "shard document {}: {}",
                    n + 1,
                    crate::text::clean(&e.to_string())
                ),
            })?;
        S::merge(&mut all, doc.partial);
        req.get_or_insert(doc.request);
    }
    let req = req.expect("merge checks there is a document");
    let plan = plan_of::<S>(&req)?;
    let report = S::report(&req, &plan, all, ctl)?;
    Ok(visitor.visit(&report))
}

/// The larger of two `(key, item)` candidates, the first item among equal keys: the fold
/// that keeps a sweep's "largest, and where first" independent of how items were sharded.
pub fn max_first<K: PartialOrd>(a: Option<(K, u64)>, b: Option<(K, u64)>) -> Option<(K, u64)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
            b
        } else {
            a
        }),
        (a, b) => a.or(b),
    }
}

/// Checks that the documents are the shards of one sweep, each exactly once; returns the
/// command and the shard count.
pub(super) fn check_docs(docs: &[String]) -> Result<(String, u64), Error> {
    let bad = |message: String| Error::Request { message };
    if docs.is_empty() {
        return Err(bad("no shard documents to merge".into()));
    }
    let mut first: Option<Header> = None;
    let mut seen = Vec::new();
    for (n, text) in docs.iter().enumerate() {
        crate::files::unseal_json(text).map_err(|problem| {
            bad(format!(
                "shard document {} cannot be used: {problem}",
                n + 1
            ))
        })?;
        let h: Header = serde_json::from_str(text).map_err(|e| {
            bad(format!(
                "shard document {} is not a lastbite shard: {}",
                n + 1,
                crate::text::clean(&e.to_string())
            ))
        })?;
        if h.lastbite_shard != FORMAT {
            return Err(bad(format!(
                "shard document {} has format {}, this lastbite reads format {FORMAT}",
                n + 1,
                h.lastbite_shard
            )));
        }
        if h.shards == 0 || h.shard == 0 || h.shard > h.shards {
            return Err(bad(format!(
                "shard document {} names shard {}/{}",
                n + 1,
                h.shard,
                h.shards
            )));
        }
        if let Some(f) = &first {
            if (f.command.as_str(), &f.request, f.shards, f.items)
                != (h.command.as_str(), &h.request, h.shards, h.items)
            {
                return Err(bad(format!(
                    "shard document {} is from another sweep than document 1 (command, request or shard count differ)",
                    n + 1
                )));
            }
        } else {
            seen = vec![false; h.shards.min(1 << 24) as usize];
        }
        let Some(slot) = seen.get_mut((h.shard - 1) as usize) else {
            return Err(bad(format!(
                "shard document {} names shard {}/{}: too many shards",
                n + 1,
                h.shard,
                h.shards
            )));
        };
        if *slot {
            return Err(bad(format!(
                "shard {}/{} is given twice",
                h.shard, h.shards
            )));
        }
        *slot = true;
        first.get_or_insert(h);
    }
    let f = first.expect("at least one document");
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| !**s)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(20).cloned().collect();
        return Err(bad(format!(
            "{} of {} shards missing: {}{}",
            missing.len(),
            f.shards,
            shown.join(", "),
            if missing.len() > 20 { ", ..." } else { "" }
        )));
    }
    Ok((f.command, f.shards))
}
