//! The `subtraction` reports' text: one [`Render`] per report, a pure function of it,
//! and the layout of those that are tables ([`Tabulate`]), which every other format
//! writes.

use std::io::{self, Write};

use super::report::{
    moves_text, Cell, ConjectureReport, DerivationReport, OutcomeReport, PeriodReport, PlotData,
    PlotReport, ProblemsReport, ScanReport, TableReport,
};
use crate::api::Render;
use crate::table::{Align, Column, Table, Tabulate};

/// A set as text, `{4,5,9}`.
fn set_text(set: &[u64]) -> String {
    format!("{{{}}}", moves_text(set, ","))
}

impl Render for TableReport {
    const TABLES: bool = true;
    const CSV: bool = true;

    fn write_csv(&self, w: &mut dyn Write) -> io::Result<()> {
        TableReport::write_csv(self, w)
    }

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    /// The paper's layout: outcome and moves per convention, deviations from FvF.
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "S = {{{}}}", moves_text(&self.set, ","))?;
        writeln!(
            w,
            "{:>6}  {:<18} {:<18} {:>3} {:>3}  {:<18} {:>3} {:>3}  {:<18} {:>3} {:>3}  {:>5}",
            "heap", "FvF", "FvA", "da", "db", "AvF", "da", "db", "AvA", "da", "db", "zs"
        )?;
        for r in &self.rows {
            let text = |c: &Cell| {
                let [p, q] = c.outcome;
                if c.moves.is_empty() {
                    format!("({p},{q})")
                } else {
                    format!("({p},{q}), {}", moves_text(&c.moves, ","))
                }
            };
            let base = r.FvF.outcome;
            let delta = |c: &Cell| {
                (
                    c.outcome[0] as i64 - base[0] as i64,
                    c.outcome[1] as i64 - base[1] as i64,
                )
            };
            let (fa, fb) = delta(&r.FvA);
            let (aa, ab) = delta(&r.AvF);
            let (va, vb) = delta(&r.AvA);
            writeln!(
                w,
                "{:>6}  {:<18} {:<18} {fa:>3} {fb:>3}  {:<18} {aa:>3} {ab:>3}  {:<18} {va:>3} {vb:>3}  {:>5}",
                r.heap,
                text(&r.FvF),
                text(&r.FvA),
                text(&r.AvF),
                text(&r.AvA),
                r.zero_sum
            )?;
        }
        writeln!(
            w,
            "(x,y): the outcome, the first and the second player's totals, then the PSPE moves; da, db: its change from FvF for each player; zs: the zero-sum score"
        )?;
        Ok(())
    }
}

impl Tabulate for TableReport {
    /// The paper's Table 3: per heap the outcome and PSPE moves under each convention,
    /// each convention's deviations from FvF, and the zero-sum score.
    fn tables(&self) -> Vec<Table> {
        use crate::table::Cell as C;
        let mut columns = vec![
            Column::new("Heap", Align::Right),
            Column::new("FvF", Align::Left),
        ];
        for name in ["FvA", "AvF", "AvA"] {
            columns.push(Column::new(name, Align::Left));
            columns.push(Column::symbol("da", r"\delta_\alpha", Align::Right));
            columns.push(Column::symbol("db", r"\delta_\beta", Align::Right));
        }
        columns.push(Column::new("zero-sum", Align::Right));
        let mut t = Table::new(
            format!(
                "The initial outcomes, together with PSPE moves for the ruleset S = {}.",
                set_text(&self.set)
            ),
            columns,
        );
        t.note = Some(
            "(x, y): the outcome, the first and the second player's totals, then the PSPE moves; after each convention, its outcome's change from FvF for each player; zero-sum: the zero-sum score.".into(),
        );
        let outcome = |c: &Cell| {
            let pair = C::tuple(&c.outcome);
            if c.moves.is_empty() {
                pair
            } else {
                C::Joined(vec![pair, C::list(&c.moves)])
            }
        };
        for r in &self.rows {
            let base = r.FvF.outcome;
            let mut row = vec![C::number(r.heap), outcome(&r.FvF)];
            for c in [&r.FvA, &r.AvF, &r.AvA] {
                row.push(outcome(c));
                row.push(C::number(c.outcome[0] as i128 - base[0] as i128));
                row.push(C::number(c.outcome[1] as i128 - base[1] as i128));
            }
            row.push(C::number(r.zero_sum));
            t.push(row);
        }
        vec![t]
    }
}

impl Render for OutcomeReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        if let Some(p) = &self.position {
            writeln!(
                w,
                "after takes {{{}}} from heap {} ({}): Alice {}, Bob {} so far; {} to move, first of the heap left; the game ends at (Alice {}, Bob {})",
                moves_text(&p.takes, ","),
                p.heap,
                p.convention,
                p.so_far[0],
                p.so_far[1],
                if p.to_move.0 == 0 { "Alice" } else { "Bob" },
                p.totals[0],
                p.totals[1],
            )?;
        }
        writeln!(
            w,
            "S = {{{}}}, heap {}, {}: outcome ({}, {}), PSPE moves {{{}}}",
            moves_text(&self.set, ","),
            self.heap,
            self.convention,
            self.outcome[0],
            self.outcome[1],
            moves_text(&self.moves, ",")
        )?;
        if let DerivationReport::Periodic {
            reduced_heap,
            periods,
            period,
            increment,
            ..
        } = &self.derivation
        {
            writeln!(
                w,
                "  by periodicity: heap {reduced_heap} + {periods} x {period} (each period adds {increment} to both players)"
            )?;
        }
        for o in self.options.iter().flatten() {
            writeln!(
                w,
                "  take {:>3} -> heap {}: outcome ({}, {}){}",
                o.take,
                o.heap_after,
                o.outcome[0],
                o.outcome[1],
                if o.pspe {
                    "  PSPE"
                } else if o.best_for_mover {
                    "  best for the mover, not her convention's pick"
                } else {
                    ""
                }
            )?;
        }
        Ok(())
    }
}

impl Render for PeriodReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let set = moves_text(&self.set, ",");
        writeln!(
            w,
            "S = {{{set}}}: pre-period h0 = {}, period p = {}, increment c = {}",
            self.preperiod, self.period, self.increment
        )?;
        writeln!(
            w,
            "certificate: o_X(h + {p}) = o_X(h) + ({c}, {c}) for every convention and o_zs(h + {p}) = o_zs(h) on [{}, {}), hence for all h >= {}",
            self.certificate_window[0],
            self.certificate_window[1],
            self.preperiod,
            p = self.period,
            c = self.increment
        )?;
        let d = &self.first_discrepancy;
        let show = |v: Option<u64>| v.map_or("never".to_string(), |h| format!("heap {h}"));
        for (name, v) in [
            ("FvF vs AvA", d.FvF_AvA),
            ("FvF vs FvA", d.FvF_FvA),
            ("FvF vs AvF", d.FvF_AvF),
            ("AvA vs FvA", d.AvA_FvA),
            ("AvA vs AvF", d.AvA_AvF),
        ] {
            writeln!(w, "first {name} discrepancy: {}", show(v))?;
        }
        writeln!(
            w,
            "first AvA vs zero-sum discrepancy: {}",
            show(d.AvA_zero_sum)
        )
    }
}

impl Render for ScanReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        self.write_lines(w)
    }
}

impl Render for ConjectureReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let what = if self.statement.starts_with('p') {
            "Problem"
        } else {
            "Conjecture"
        };
        let number = self.statement.trim_start_matches('p');
        if self.verdict == "fails" {
            // It fails on the counterexamples, not on the whole range.
            let k = self.counterexamples.len();
            writeln!(
                w,
                "{what} {number}: fails on {k} ruleset{} of {} ({}; {} covered by the hypothesis)",
                if k == 1 { "" } else { "s" },
                self.rulesets,
                self.range,
                self.applicable
            )?;
        } else {
            writeln!(
                w,
                "{what} {number}: {} on {} ({} rulesets, {} covered by the hypothesis)",
                self.verdict, self.range, self.rulesets, self.applicable
            )?;
        }
        if let Some(c) = &self.counterexample {
            writeln!(
                w,
                "smallest counterexample: S = {{{}}}{}: {}",
                moves_text(&c.set, ","),
                c.heap.map_or(String::new(), |h| format!(", heap {h}")),
                c.detail
            )?;
        }
        if let Some(l) = &self.largest_preperiod {
            writeln!(
                w,
                "largest pre-period: {} for S = {{{}}} (max S = {})",
                l.preperiod,
                moves_text(&l.set, ","),
                l.set.last().copied().unwrap_or(0)
            )?;
        }
        Ok(())
    }
}

impl Render for ProblemsReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Problems 1, 4 and 5 on {} ({} rulesets)",
            self.range, self.rulesets
        )?;
        writeln!(
            w,
            "{:>4} {:>6} {:>9} {:>8}  {:<28} {:>9} {:>9} {:>9}",
            "size", "max S", "rulesets", "largest", "first at", "zero", "+AvF", "+FvA"
        )?;
        for r in &self.by_max {
            let at = r.largest_at.as_ref().map_or(String::from("-"), |a| {
                format!("{{{}}} h={} p{}", moves_text(&a.set, ","), a.heap, a.player)
            });
            writeln!(
                w,
                "{:>4} {:>6} {:>9} {:>8}  {:<28} {:>9} {:>9} {:>9}",
                r.size,
                r.max_s,
                r.rulesets,
                r.largest,
                at,
                r.zero_discrepancy,
                r.positive_FvF_to_AvF,
                r.positive_FvF_to_FvA
            )?;
        }
        for z in &self.zero_shape {
            writeln!(
                w,
                "Problem 4, size {}: {} of {} rulesets have no discrepancy: {} dominant, {} on half-lines, {} other{} ({} primitive)",
                z.size,
                z.zero_discrepancy,
                z.rulesets,
                z.dominant,
                z.half_line,
                z.other,
                z.smallest_other
                    .as_ref()
                    .map_or(String::new(), |s| format!(", smallest {{{}}}", moves_text(s, ","))),
                z.primitive
            )?;
        }
        for p in &self.positive_shape {
            writeln!(
                w,
                "Problem 5, size {}, {}: {} rulesets with a positive discrepancy ({} first for the deviator; the deviator's gain is the other's loss on {}; largest gain {}){}",
                p.size,
                p.deviation,
                p.rulesets,
                p.deviator_first,
                p.mirrored,
                p.largest_gain,
                p.smallest.as_ref().map_or(String::new(), |s| format!(
                    ", smallest {{{}}} heap {} player {}",
                    moves_text(&s.set, ","),
                    s.heap,
                    s.player
                ))
            )?;
        }
        Ok(())
    }
}

impl Render for PlotReport {
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        self.svg.as_deref()
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match &self.data {
            PlotData::Pairs { pairs } => {
                writeln!(w, "{} pairs with an FvF/AvA discrepancy", pairs.len())
            }
            PlotData::Triples { triples } => {
                writeln!(w, "{} triples with a discrepancy", triples.len())
            }
            PlotData::Heatmap { set, rows } => writeln!(
                w,
                "heat map of S = {{{}}}: {} rows of {} heaps",
                moves_text(set, ","),
                rows.len(),
                rows.first().map_or(0, |r| r.values.len())
            ),
        }
    }
}

impl Tabulate for ConjectureReport {
    /// What was checked and the verdict, then every counterexample with its first failing
    /// heap.
    fn tables(&self) -> Vec<Table> {
        use crate::table::Cell as C;
        let mut summary = Table::new(
            format!("Statement {} checked on {}.", self.statement, self.range),
            vec![Column::new("", Align::Left), Column::new("", Align::Wrap)],
        );
        let mut line = |what: &str, cell: C| summary.push(vec![C::Text(what.into()), cell]);
        line("verdict", C::Text(self.verdict.into()));
        line("rulesets", C::number(self.rulesets));
        line("covered by the hypothesis", C::number(self.applicable));
        line(
            "counterexamples",
            C::number(self.counterexamples.len() as u64),
        );
        if let Some(c) = &self.counterexample {
            let heap = c.heap.map_or(String::new(), |h| format!(", heap {h}"));
            line(
                "smallest counterexample",
                C::Text(format!("S = {}{heap}: {}", set_text(&c.set), c.detail)),
            );
        }
        if let Some(l) = &self.largest_preperiod {
            line("largest pre-period", C::number(l.preperiod));
            line("the set with it", C::Text(set_text(&l.set)));
        }
        let mut tables = vec![summary];
        if !self.counterexamples.is_empty() {
            let mut t = Table::new(
                format!(
                    "The counterexamples to statement {} on {}, smallest first, with the first heap where it fails.",
                    self.statement, self.range
                ),
                vec![Column::new("S", Align::Left), Column::new("heap", Align::Right)],
            );
            for c in &self.counterexamples {
                t.push(vec![
                    C::Text(set_text(&c.set)),
                    c.heap.map_or(C::Empty, C::number),
                ]);
            }
            tables.push(t);
        }
        tables
    }
}

impl Tabulate for ProblemsReport {
    /// Problem 1 (with the counts of Problems 4 and 5) by size and largest element, then
    /// Problem 4's and Problem 5's shapes by size.
    fn tables(&self) -> Vec<Table> {
        use crate::table::Cell as C;
        let mut by_max = Table::new(
            format!(
                "Problems 1, 4 and 5 on {} ({} rulesets): the largest FvF/AvA discrepancy, where it first occurs (set, heap, player), and the rulesets with none (Problem 4) and with a positive one towards AvF and FvA (Problem 5).",
                self.range, self.rulesets
            ),
            vec![
                Column::new("size", Align::Right),
                Column::new("max S", Align::Right),
                Column::new("rulesets", Align::Right),
                Column::new("largest", Align::Right),
                Column::new("first at", Align::Left),
                Column::new("none", Align::Right),
                Column::new("+AvF", Align::Right),
                Column::new("+FvA", Align::Right),
            ],
        );
        for r in &self.by_max {
            let at = r.largest_at.as_ref().map_or(C::Empty, |a| {
                C::Text(format!(
                    "{}, heap {}, player {}",
                    set_text(&a.set),
                    a.heap,
                    a.player
                ))
            });
            by_max.push(vec![
                C::number(r.size as u64),
                C::number(r.max_s),
                C::number(r.rulesets),
                C::number(r.largest),
                at,
                C::number(r.zero_discrepancy),
                C::number(r.positive_FvF_to_AvF),
                C::number(r.positive_FvF_to_FvA),
            ]);
        }
        let mut zero = Table::new(
            format!(
                "Problem 4 on {}: the rulesets without discrepancy, by class.",
                self.range
            ),
            vec![
                Column::new("size", Align::Right),
                Column::new("rulesets", Align::Right),
                Column::new("none", Align::Right),
                Column::new("dominant", Align::Right),
                Column::new("half-line", Align::Right),
                Column::new("other", Align::Right),
                Column::new("primitive", Align::Right),
                Column::new("smallest other", Align::Left),
            ],
        );
        for z in &self.zero_shape {
            zero.push(vec![
                C::number(z.size as u64),
                C::number(z.rulesets),
                C::number(z.zero_discrepancy),
                C::number(z.dominant),
                C::number(z.half_line),
                C::number(z.other),
                C::number(z.primitive),
                z.smallest_other
                    .as_ref()
                    .map_or(C::Empty, |s| C::Text(set_text(s))),
            ]);
        }
        let mut positive = Table::new(
            format!(
                "Problem 5 on {}: the rulesets with a positive discrepancy, by deviation from FvF.",
                self.range
            ),
            vec![
                Column::new("size", Align::Right),
                Column::new("deviation", Align::Left),
                Column::new("rulesets", Align::Right),
                Column::new("deviator first", Align::Right),
                Column::new("mirrored", Align::Right),
                Column::new("largest gain", Align::Right),
                Column::new("smallest", Align::Left),
            ],
        );
        for p in &self.positive_shape {
            positive.push(vec![
                C::number(p.size as u64),
                C::Text(p.deviation.replace("_to_", " to ")),
                C::number(p.rulesets),
                C::number(p.deviator_first),
                C::number(p.mirrored),
                C::number(p.largest_gain),
                p.smallest.as_ref().map_or(C::Empty, |s| {
                    C::Text(format!(
                        "{}, heap {}, player {}",
                        set_text(&s.set),
                        s.heap,
                        s.player
                    ))
                }),
            ]);
        }
        vec![by_max, zero, positive]
    }
}
