//! The text of the game's own reports: a solve, a play, a verification, the tree, the
//! board and the plot.

use std::io::{self, Write};

use super::{
    abbreviate, bites_table, join, outcomes_table, rules_text, score_line, scores_table, set_text,
    write_morsel,
};
use crate::api::dinner::report::{
    BoardReport, EfgReport, PlayReport, PlotReport, SolveReport, VerifyReport,
};
use crate::api::input::Letter;
use crate::api::Render;
use crate::table::{Table, Tabulate};

impl Render for SolveReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        // A concrete buffer: a million rows of small writes, each a dynamic call else.
        let mut buf = io::BufWriter::with_capacity(1 << 16, w);
        let w = &mut buf;
        writeln!(
            w,
            "Dinner: {} morsels, {} players, turn order {}, method {}, ties {}{}{}",
            self.morsels,
            self.players,
            abbreviate(&self.turn_order),
            self.method,
            self.ties,
            rules_text(self.rules.as_ref()),
            // The crossout strategy's order is its own: the exact solver may eat the same
            // bundles in another order under the same rule name.
            if self.eating_order_rule == "crossout" {
                " (eating order: crossout's)"
            } else {
                ""
            }
        )?;
        if let Some(s) = self.states {
            writeln!(w, "States solved: {s}")?;
        }
        if let Some(g) = &self.gpu {
            writeln!(w, "Layers solved on the GPU: {g}")?;
        }
        if let Some(g) = &self.gpu_declined {
            writeln!(w, "Solved on the CPU; the GPU declined ({g})")?;
        }
        if let (Some("re-solving"), Some(r)) = (self.path_recovery, self.resolved_states) {
            writeln!(
                w,
                "Path recovered by re-solving ({r} states again; the choice bytes did not fit the memory budget)"
            )?;
        }
        writeln!(
            w,
            "\n{:>6}  {:<6}  {:>6}  utilities",
            "turn", "player", "index"
        )?;
        for b in &self.eating_order {
            write!(
                w,
                "{:>6}  {:<6}  {:>6}  ",
                b.turn,
                b.player.to_string(),
                b.morsel
            )?;
            match &self.dinner {
                Some(d) => write_morsel(w, d, b.morsel)?,
                None => write!(w, "{}", b.utility)?,
            }
            w.write_all(b"\n")?;
        }
        writeln!(w)?;
        writeln!(w, "{}", score_line(&self.scores))?;
        if let Some(o) = &self.outcomes {
            writeln!(w, "\nAll pure SPE outcomes ({}):", o.len())?;
            for v in o {
                writeln!(w, "  ({})", join(v))?;
            }
        }
        if let Some(e) = &self.explanation {
            let rem: Vec<String> = e.remaining.iter().map(|m| m.to_string()).collect();
            writeln!(
                w,
                "\nExplanation: morsels {{{}}} left, {} to move",
                rem.join(","),
                Letter(e.mover)
            )?;
            writeln!(
                w,
                "{:>8}  {:<20}  {:<24}  note",
                "index", "utilities", "payoffs after"
            )?;
            for m in &e.moves {
                let note = match (m.chosen, m.optimal, m.best_for_mover) {
                    (true, _, _) => "<- chosen",
                    (false, true, _) => "optimal (same payoffs)",
                    (false, false, true) => "best for mover, lost the tie-break",
                    _ => "",
                };
                let text = self
                    .dinner
                    .as_ref()
                    .map_or(String::new(), |d| d.morsel_text(m.morsel));
                writeln!(
                    w,
                    "{:>8}  {:<20}  {:<24}  {}",
                    m.morsel,
                    text,
                    format!("({})", join(&m.value)),
                    note
                )?;
            }
            writeln!(w, "Rule: {}", e.reason)?;
        }
        w.flush()
    }
}

impl Render for PlayReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Strategies {} under turn order {}",
            self.strategies.join(" vs "),
            abbreviate(&self.turn_order)
        )?;
        for b in &self.eating_order {
            let text = self
                .dinner
                .as_ref()
                .map_or(String::new(), |d| d.morsel_text(b.morsel));
            writeln!(
                w,
                "{:>6}  {:<3} eats morsel {:>4} {}",
                b.turn,
                b.player.to_string(),
                b.morsel,
                text
            )?;
        }
        writeln!(w, "{}", score_line(&self.scores))
    }
}

impl Render for VerifyReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let names = self.strategies.join(", ");
        match (&self.checked, &self.counterexample) {
            (Some(c), _) => writeln!(
                w,
                "({names}) is a subgame perfect equilibrium: no profitable one-shot deviation in {} states",
                c.states
            ),
            (_, Some(dev)) => writeln!(
                w,
                "({names}) is NOT subgame perfect: with morsels {} left, {} should eat morsel {} instead of {} and gain {}",
                set_text(&dev.remaining),
                dev.player,
                dev.better,
                dev.prescribed,
                dev.gain
            ),
            _ => Ok(()),
        }
    }
}

impl Render for EfgReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        w.write_all(self.efg.as_bytes())
    }
}

impl Render for PlotReport {
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        self.svg.as_deref()
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} outcomes of all strategy pairs, {} reachable by Alice against Bob's crossout; crossout at ({}, {})",
            self.all.len(),
            self.against_crossout.len(),
            self.crossout[0],
            self.crossout[1]
        )
    }
}

impl Render for BoardReport {
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        self.svg.as_deref()
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Crossout board of {} morsels, turn order {}: scores ({})",
            self.dinner.len(),
            abbreviate(&self.turn_order),
            join(&self.scores)
        )
    }
}

impl Tabulate for SolveReport {
    /// The scores, the eating order and, when asked for, every pure SPE outcome.
    fn tables(&self) -> Vec<Table> {
        let what = format!(
            "A dinner of {} morsels, turn order {}, method {}, ties {}",
            self.morsels,
            abbreviate(&self.turn_order),
            self.method,
            self.ties
        );
        let mut tables = vec![
            scores_table(format!("{what}: the scores."), &self.scores),
            bites_table(format!("{what}: the eating order."), &self.eating_order),
        ];
        if let Some(all) = &self.outcomes {
            tables.push(outcomes_table(
                format!("{what}: every pure SPE outcome."),
                self.players,
                all,
            ));
        }
        tables
    }
}
