//! `cookie general` as a sweep: its last layer, the largest by far (3.3 times the one
//! below it), counted in parts ([`last_parts`]), each an item; every shard first builds
//! (or loads from the store) the layers below, which its items read.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::{costs, GeneralReport, GeneralRequest};
use crate::api::cost::Estimate;
use crate::api::sweep::{self, Sweep};
use crate::api::{Control, Error};
use crate::engine::CancelOnly;
use crate::games::cookie::general::{
    last_parts, part_range, reduced_count, refuse_last_layer, GeneralRow, LastLayer, MAX_GENERAL,
};

/// `cookie general` as a sweep: one item per part of the last layer.
pub struct GeneralSweep;

/// What a `cookie general` sweep counts, and the layers below once a shard built them.
pub struct GeneralPlan {
    max_n: u32,
    memory: u64,
    last: Mutex<Option<Arc<LastLayer>>>,
}

/// The counts of some parts of the last layer, by part; part 0 also carries the rows of
/// the layers below (from n = 1), which every shard computes alike.
#[derive(Default, Serialize, Deserialize)]
pub struct GeneralPartial {
    parts: Vec<(u64, Vec<GeneralRow>, GeneralRow)>,
    /// The GPU that computed layers, when one did.
    gpu: Option<String>,
}

impl GeneralPlan {
    fn last(&self) -> Arc<LastLayer> {
        self.last
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .expect("a shard's setup builds the layers below before its items run")
    }
}

impl Sweep for GeneralSweep {
    const COMMAND: &'static str = "cookie-general";
    type Request = GeneralRequest;
    type Plan = GeneralPlan;
    type Partial = GeneralPartial;
    type Report = GeneralReport;

    fn plan(req: &GeneralRequest) -> Result<GeneralPlan, Error> {
        if req.max_size == 0 || req.max_size > u64::from(MAX_GENERAL) {
            return Err(Error::invalid(
                "max_size",
                req.max_size,
                format!("the general table covers 1..={MAX_GENERAL} components"),
            ));
        }
        let (max_n, memory) = (req.max_size as u32, req.memory_gib.saturating_mul(1 << 30));
        refuse_last_layer(max_n, memory)?;
        Ok(GeneralPlan {
            max_n,
            memory,
            last: Mutex::new(None),
        })
    }
    fn items(plan: &GeneralPlan) -> u64 {
        last_parts(plan.max_n)
    }
    fn cost(req: &GeneralRequest, _plan: &GeneralPlan) -> Estimate {
        costs::general_last(req.max_size)
    }
    fn setup_cost(req: &GeneralRequest, _plan: &GeneralPlan) -> Option<Estimate> {
        Some(costs::general_below(req.max_size))
    }
    fn weight(_req: &GeneralRequest, plan: &GeneralPlan, item: u64) -> f64 {
        part_range(plan.max_n, item).1 as f64
    }
    fn setup(req: &GeneralRequest, plan: &GeneralPlan, ctl: &Control) -> Result<(), Error> {
        let mut last = plan.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_none() {
            // On the GPU the solvers share, when built with one and it is there.
            let store = req.store.as_deref().map(std::path::Path::new);
            let built = LastLayer::build(plan.max_n, store, plan.memory, ctl)?;
            *last = Some(Arc::new(built));
        }
        Ok(())
    }
    fn item(
        _req: &GeneralRequest,
        plan: &GeneralPlan,
        item: u64,
        ctl: &Control,
    ) -> Result<GeneralPartial, Error> {
        let last = plan.last();
        let row = last.count_part(item, &CancelOnly(ctl))?;
        let below = if item == 0 {
            last.rows_below().into_iter().skip(1).collect()
        } else {
            Vec::new()
        };
        Ok(GeneralPartial {
            parts: vec![(item, below, row)],
            gpu: last.gpu().map(str::to_string),
        })
    }
    fn merge(into: &mut GeneralPartial, other: GeneralPartial) {
        sweep::append_ordered(&mut into.parts, other.parts, |p| p.0);
        // The first name in order: the same whichever shard is merged first.
        into.gpu = match (into.gpu.take(), other.gpu) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    fn check(
        _req: &GeneralRequest,
        plan: &GeneralPlan,
        all: &GeneralPartial,
    ) -> Result<(), String> {
        let n = plan.max_n;
        sweep::check_every_item(&all.parts, last_parts(n), |p| p.0).map_err(|e| {
            match e.starts_with('[') {
                true => format!("parts{e}"),
                false => format!("parts.{e}"),
            }
        })?;
        for (k, (part, below, row)) in all.parts.iter().enumerate() {
            row.fits(n, part_range(n, *part).1)
                .map_err(|e| format!("parts[{k}][2]: {e}"))?;
            let want = if *part == 0 { n as usize - 1 } else { 0 };
            sweep::check_count(
                &format!("parts[{k}][1].length"),
                below.len() as u64,
                want as u64,
            )?;
            for (i, r) in below.iter().enumerate() {
                let m = i as u32 + 1;
                r.fits(m, reduced_count(m as usize))
                    .map_err(|e| format!("parts[{k}][1][{i}]: {e}"))?;
            }
        }
        Ok(())
    }
    fn report(
        _req: &GeneralRequest,
        plan: &GeneralPlan,
        all: GeneralPartial,
        _ctl: &Control,
    ) -> Result<GeneralReport, Error> {
        let mut rows = Vec::new();
        let mut last = GeneralRow::empty(plan.max_n);
        for (_, below, row) in all.parts {
            rows.extend(below);
            last = GeneralRow::merge(last, row);
        }
        rows.push(last);
        Ok(GeneralReport { rows, gpu: all.gpu })
    }
}
