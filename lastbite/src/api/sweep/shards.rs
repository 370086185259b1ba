//! The machinery of sweeps: shards ([`Shard`]), the [`Sweep`] trait, running a shard,
//! shard documents and their merge. It names no command and no family: the registry of
//! sweep commands is the command table's (the module above).

use std::any::Any;
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::api::cost::{Estimate, Work};
use crate::api::input::Budgeted;
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
}

/// A sweep command: its items, each item's partial result, how partials merge, and the
/// report built from the merged partial.
pub trait Sweep {
    /// The command's name (as in [`crate::api::COMMANDS`]).
    const COMMAND: &'static str;
    /// The command's request.
    type Request: Serialize + DeserializeOwned + Sync + Budgeted;
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
    /// What the whole sweep will cost (its cost model): admitted against the request's
    /// work budget before any item runs.
    fn cost(req: &Self::Request, plan: &Self::Plan) -> Estimate;
    /// What each shard pays before its items, from the same model: work the items share
    /// (a table they all read), done once by [`Sweep::setup`] and admitted whole beside the
    /// shard's share of [`Sweep::cost`]. Nothing by default.
    fn setup_cost(_req: &Self::Request, _plan: &Self::Plan) -> Option<Estimate> {
        None
    }
    /// The work the items share, done before the first item of a shard (with its own
    /// progress phase) and kept in the plan for the items to read: never inside an item,
    /// where a parallel build would wait on the items it steals. Nothing by default.
    fn setup(_req: &Self::Request, _plan: &Self::Plan, _ctl: &Control) -> Result<(), Error> {
        Ok(())
    }
    /// What item `item` costs relative to the others, from the same model: shards are
    /// cut to equal total weight. Every item alike by default.
    fn weight(_req: &Self::Request, _plan: &Self::Plan, _item: u64) -> f64 {
        1.0
    }
    /// Item `item`'s partial result; a long item asks `ctl` whether to stop.
    fn item(
        req: &Self::Request,
        plan: &Self::Plan,
        item: u64,
        ctl: &Control,
    ) -> Result<Self::Partial, Error>;
    /// Adds `other` into `into`; the result must not depend on the order of merging.
    fn merge(into: &mut Self::Partial, other: Self::Partial);
    /// Checks that the merged partial of shard documents fits the plan (items among the
    /// plan's, each counted once, values in their ranges) before a report is built from
    /// it: a document edited and sealed again is refused, naming the field
    /// (`zero[0]: item 10^12 is not one of the sweep's 45 items`), never trusted.
    fn check(req: &Self::Request, plan: &Self::Plan, all: &Self::Partial) -> Result<(), String>;
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

/// Sweeps of more items than this are dealt round-robin (item `i` to shard `i mod N`)
/// whatever their weights: their items are many and alike (trials), and a table of
/// their shards would cost more than it saves.
const WEIGHED: u64 = 1 << 20;

/// Which shard (from 0) each item of a sweep belongs to, when its items' weights differ:
/// the heaviest item first to the lightest shard so far (ties to the lower item and the
/// lower shard), so that every shard carries about the same estimated cost. `None` for
/// a sweep dealt round-robin.
fn assignment<S: Sweep>(req: &S::Request, plan: &S::Plan, count: u64) -> Option<Arc<Vec<u32>>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    type Cached = (String, u64, Arc<Vec<u32>>);
    static LAST: Mutex<Option<Cached>> = Mutex::new(None);
    let items = S::items(plan);
    if count == 1 || items > WEIGHED || count > u32::MAX as u64 {
        return None;
    }
    let key = format!(
        "{} {}",
        S::COMMAND,
        serde_json::to_string(req).expect("requests serialise")
    );
    if let Some((k, c, a)) = &*LAST.lock().unwrap_or_else(|e| e.into_inner()) {
        if *k == key && *c == count {
            return Some(a.clone());
        }
    }
    let weights: Vec<f64> = (0..items).map(|i| S::weight(req, plan, i)).collect();
    if weights.iter().all(|w| *w == weights[0]) {
        return None;
    }
    let mut order: Vec<u64> = (0..items).collect();
    order.sort_by(|&a, &b| {
        weights[b as usize]
            .total_cmp(&weights[a as usize])
            .then(a.cmp(&b))
    });
    // Loads as integers (weights scaled): the heap's order is then exact and total.
    let top = weights
        .iter()
        .cloned()
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let mut shards: BinaryHeap<Reverse<(u64, u32)>> =
        (0..count as u32).map(|s| Reverse((0, s))).collect();
    let mut owner = vec![0u32; items as usize];
    for i in order {
        let Reverse((load, s)) = shards.pop().expect("at least one shard");
        owner[i as usize] = s;
        let w = (weights[i as usize] / top * 1e9).ceil().max(1.0) as u64;
        shards.push(Reverse((load.saturating_add(w), s)));
    }
    let owner = Arc::new(owner);
    *LAST.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, count, owner.clone()));
    Some(owner)
}

/// The items of shard `shard`, in order.
fn shard_items<S: Sweep>(
    req: &S::Request,
    plan: &S::Plan,
    shard: Shard,
) -> Box<dyn Iterator<Item = u64> + Send> {
    let items = S::items(plan);
    match assignment::<S>(req, plan, shard.count) {
        Some(owner) => {
            let mine = (shard.index - 1) as u32;
            Box::new((0..items).filter(move |&i| owner[i as usize] == mine))
        }
        None => Box::new((shard.index - 1..items).step_by(shard.count as usize)),
    }
}

/// The share of the sweep's estimated cost that shard `shard` carries.
pub(super) fn shard_share<S: Sweep>(req: &S::Request, plan: &S::Plan, shard: Shard) -> f64 {
    let items = S::items(plan);
    if shard.count == 1 || items == 0 {
        return 1.0;
    }
    match assignment::<S>(req, plan, shard.count) {
        Some(owner) => {
            let mine = (shard.index - 1) as u32;
            let (mut part, mut all) = (0.0, 0.0);
            for i in 0..items {
                let w = S::weight(req, plan, i);
                all += w;
                if owner[i as usize] == mine {
                    part += w;
                }
            }
            if all > 0.0 {
                part / all
            } else {
                0.0
            }
        }
        None => items.saturating_sub(shard.index - 1).div_ceil(shard.count) as f64 / items as f64,
    }
}

/// Computes one shard's merged partial, in parallel, with progress and cancellation.
pub fn run_shard<S: Sweep>(
    req: &S::Request,
    plan: &S::Plan,
    shard: Shard,
    ctl: &Control,
) -> Result<S::Partial, Error> {
    use crate::par::prelude::*;
    // This shard's items, a chunk at a time: a sweep of 10^9 trials holds none of them.
    let mut mine = shard_items::<S>(req, plan, shard);
    let len = match assignment::<S>(req, plan, shard.count) {
        Some(owner) => owner
            .iter()
            .filter(|&&s| s as u64 == shard.index - 1)
            .count() as u64,
        None => S::items(plan)
            .saturating_sub(shard.index - 1)
            .div_ceil(shard.count),
    };
    if len > 0 {
        S::setup(req, plan, ctl)?;
    }
    ctl.start(len, "items");
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
                // Asked before each item too: a chunk of long items (a second each) would
                // otherwise run on whole after a cancel.
                if ctl.cancelled() {
                    return Err(Error::Cancelled);
                }
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
    ctl.admit(whole_cost::<S>(req, &plan, 1.0))?;
    let all = run_shard::<S>(req, &plan, Shard::whole(), ctl)?;
    ctl.check()?;
    S::report(req, &plan, all, ctl)
}

/// What a shard carrying `share` of a sweep's items costs: its share of the items' cost
/// and the whole of the setup they share.
fn whole_cost<S: Sweep>(req: &S::Request, plan: &S::Plan, share: f64) -> Estimate {
    let items = S::cost(req, plan);
    let items = if share == 1.0 {
        items
    } else {
        items.times(Work::count(share))
    };
    match S::setup_cost(req, plan) {
        Some(setup) => setup.plus(items),
        None => items,
    }
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
    let ctl = &ctl.budgeted(req.max_seconds());
    let plan = plan_of::<S>(&req)?;
    // A shard's own share of the sweep's cost is what its budget must admit.
    let share = shard_share::<S>(&req, &plan, shard);
    ctl.admit(whole_cost::<S>(&req, &plan, share))?;
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
    S::check(&req, &plan, &all).map_err(|problem| Error::Request {
        message: format!(
            "the shard documents' results do not fit their request: partial.{} (a document edited and sealed again?)",
            crate::text::clean(&problem)
        ),
    })?;
    let report = S::report(&req, &plan, all, ctl)?;
    Ok(visitor.visit(&report))
}

/// Appends `other` to `into`, both ordered by `key`, keeping the order. A sweep merges
/// each item's partial into its growing one, so the usual case (the new ones all come
/// after) is an append in the length of `other`: re-sorting the whole on every merge made
/// a sweep of 10^5 rulesets quadratic. Shards merged out of order take a stable sort,
/// which merges the two runs in linear time.
pub fn append_ordered<T, K: Ord>(into: &mut Vec<T>, other: Vec<T>, key: impl Fn(&T) -> K) {
    let after = match (into.last(), other.first()) {
        (Some(last), Some(first)) => key(last) <= key(first),
        _ => true,
    };
    let sorted = other.windows(2).all(|w| key(&w[0]) <= key(&w[1]));
    into.extend(other);
    if !(after && sorted) {
        into.sort_by_key(key);
    }
}

/// Checks that `item`, read from the partial's `field`, is one of a plan's `items`.
pub fn check_item(field: &str, item: u64, items: u64) -> Result<(), String> {
    if item < items {
        Ok(())
    } else {
        Err(format!(
            "{field}: item {item} is not one of the sweep's {items} items"
        ))
    }
}

/// Checks that a partial's `field` counts `got` where the plan has `want`.
pub fn check_count(field: &str, got: u64, want: u64) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{field}: {got} counted where the sweep has {want}"))
    }
}

/// Checks that a merged partial's list holds each of a plan's `items` once, in order
/// (`item` reads an entry's item number, at field `[k][0]`).
pub fn check_every_item<T>(list: &[T], items: u64, item: impl Fn(&T) -> u64) -> Result<(), String> {
    check_count("length", list.len() as u64, items)?;
    for (k, entry) in list.iter().enumerate() {
        let i = item(entry);
        check_item(&format!("[{k}][0]"), i, items)?;
        if k > 0 && item(&list[k - 1]) >= i {
            return Err(format!("[{k}][0]: item {i} counted twice"));
        }
    }
    Ok(())
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
