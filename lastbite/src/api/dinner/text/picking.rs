//! The text of picking sequences: sincere and manipulated picks, fairness, expected
//! welfare and the best order.

use std::io::{self, Write};

use super::{
    abbreviate, bites_table, eating_lines, or_dash, outcomes_table, score_line, scores_table,
    set_text,
};
use crate::api::dinner::report::{
    BestOrderReport, ExpectedReport, FairnessReport, ManipulateReport, MechanismFairness,
    SincereReport,
};
use crate::api::input::Letter;
use crate::api::Render;
use crate::exact::Exact;
use crate::table::{Align, Cell, Column, Table, Tabulate};

impl Render for SincereReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Sincere play under turn order {} (each takes her favourite morsel left)",
            abbreviate(&self.turn_order)
        )?;
        eating_lines(w, &self.eating_order, self.dinner.as_ref())?;
        writeln!(w, "{}", score_line(&self.scores))?;
        if let Some(outcomes) = &self.spe_outcomes {
            let list: Vec<String> = outcomes
                .iter()
                .map(|o| {
                    let v: Vec<String> = o.iter().map(Exact::to_string).collect();
                    format!("({})", v.join(", "))
                })
                .collect();
            writeln!(w, "SPE outcomes: {}", list.join(" "))?;
        }
        if let Some(rows) = &self.welfare {
            writeln!(
                w,
                "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
                "welfare",
                "sincere",
                "SPE worst",
                "SPE best",
                "optimum",
                "PoA",
                "PoS",
                "sinc/worst",
                "sinc/best"
            )?;
            for r in rows {
                writeln!(
                    w,
                    "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
                    r.measure,
                    r.sincere.to_string(),
                    r.spe_worst.to_string(),
                    r.spe_best.to_string(),
                    or_dash(&r.optimum),
                    or_dash(&r.price_of_anarchy),
                    or_dash(&r.price_of_stability),
                    or_dash(&r.sincere_over_worst),
                    or_dash(&r.sincere_over_best),
                )?;
            }
        }
        Ok(())
    }
}

impl Render for ManipulateReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} against sincere others under turn order {} ({}): score {} (sincere {}, gain {})",
            self.agent,
            abbreviate(&self.turn_order),
            self.method,
            self.score,
            self.sincere_score,
            self.gain
        )?;
        let picks: Vec<String> = self.picks.iter().map(usize::to_string).collect();
        if picks.len() <= 60 {
            writeln!(
                w,
                "{}'s picks, in turn order: {}",
                self.agent,
                picks.join(", ")
            )?;
        }
        eating_lines(w, &self.eating_order, None)
    }
}

impl Render for FairnessReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let yes = |b: bool| if b { "yes" } else { "no" };
        if let (Some(trials), Some(failures)) = (self.trials, &self.failures) {
            writeln!(
                w,
                "{trials} random permutation dinners, turn order {}: allocations failing each property",
                abbreviate(&self.turn_order)
            )?;
            writeln!(
                w,
                "{:<10} {:>10} {:>10} {:>13} {:>10}",
                "mechanism", "envy-free", "EF1", "proportional", "MMS"
            )?;
            for f in failures {
                writeln!(
                    w,
                    "{:<10} {:>10} {:>10} {:>13} {:>10}",
                    f.mechanism, f.envy_free, f.ef1, f.proportional, f.mms
                )?;
            }
            return Ok(());
        }
        writeln!(
            w,
            "Fairness under turn order {}",
            abbreviate(&self.turn_order)
        )?;
        if let Some(all) = &self.every_spe {
            let count = |f: fn(&MechanismFairness) -> bool| all.iter().filter(|m| f(m)).count();
            writeln!(
                w,
                "every equilibrium allocation ({}): envy-free {}, EF1 {}, proportional {}, maximin shares {} (of {})",
                all.len(),
                count(|m| m.envy_free),
                count(|m| m.ef1),
                count(|m| m.proportional),
                count(|m| m.mms == Some(true)),
                all.len()
            )?;
        }
        let listed = self
            .mechanisms
            .iter()
            .flatten()
            .map(|m| (m.mechanism.to_string(), m));
        let equilibria = self.every_spe.iter().flatten().enumerate();
        let equilibria = equilibria.map(|(i, m)| (format!("equilibrium allocation {}", i + 1), m));
        for (name, m) in listed.chain(equilibria) {
            writeln!(
                w,
                "{}: envy-free {}, EF1 {}, proportional {}, maximin shares {}",
                name,
                yes(m.envy_free),
                yes(m.ef1),
                yes(m.proportional),
                m.mms.map_or("unknown (past the budget)", yes)
            )?;
            for a in &m.agents {
                let envies: Vec<String> = a.envies.iter().map(|l| l.to_string()).collect();
                writeln!(
                    w,
                    "  {} score {} bundle {}{}; EF1 {}, proportional {}, maximin share {}",
                    a.agent,
                    a.score,
                    set_text(&a.bundle),
                    if envies.is_empty() {
                        String::new()
                    } else {
                        format!(", envies {}", envies.join(" "))
                    },
                    yes(a.ef1),
                    yes(a.proportional),
                    a.mms_share.map_or("-".into(), |s| format!(
                        "{s} ({})",
                        if a.mms == Some(true) {
                            "met"
                        } else {
                            "not met"
                        }
                    )),
                )?;
            }
        }
        Ok(())
    }
}

impl Render for ExpectedReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let scores: Vec<String> = self
            .expected_scores
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} = {s}", Letter(i)))
            .collect();
        writeln!(
            w,
            "{} play of {} under impartial culture, {} scores ({}{}):",
            if self.play == "sincere" {
                "Sincere"
            } else {
                "Strategic"
            },
            abbreviate(&self.turn_order),
            self.model,
            self.method,
            self.profiles
                .map_or(String::new(), |p| format!(", {p} profiles")),
        )?;
        writeln!(w, "expected scores: {}", scores.join(", "))?;
        writeln!(
            w,
            "expected {} welfare: {}",
            self.welfare, self.expected_welfare
        )?;
        if let (Some(n), Some(ci), Some(wci)) = (
            self.samples,
            &self.confidence_95,
            &self.welfare_confidence_95,
        ) {
            let parts: Vec<String> = ci
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{} [{:.4}, {:.4}]", Letter(i), c[0], c[1]))
                .collect();
            writeln!(
                w,
                "sample means of {n} random profiles; 95% intervals: {}; welfare [{:.4}, {:.4}]",
                parts.join(", "),
                wci[0],
                wci[1]
            )?;
        }
        Ok(())
    }
}

impl Render for BestOrderReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Best picking sequence of {} items ({}), {} play, {} scores, by expected utilitarian welfare ({} sequences compared):",
            self.size,
            self.counts.as_ref().map_or("any counts".into(), |c| format!("counts {c:?}")),
            self.play,
            self.model,
            self.sequences
        )?;
        writeln!(w, "best: {} with {}", self.order, self.expected_welfare)?;
        if self.tied_count > 1 {
            writeln!(w, "tied ({}): {}", self.tied_count, self.tied.join(" "))?;
        }
        match &self.runner_up {
            Some(r) => writeln!(w, "runner-up: {} with {}", r.order, r.expected_welfare),
            None => writeln!(w, "no runner-up: every sequence ties"),
        }
    }
}

impl Tabulate for SincereReport {
    /// The sincere scores and eating order; with the comparison, every SPE outcome and the
    /// welfare measures.
    fn tables(&self) -> Vec<Table> {
        let what = format!(
            "Sincere picking, turn order {}",
            abbreviate(&self.turn_order)
        );
        let mut tables = vec![
            scores_table(format!("{what}: the scores."), &self.scores),
            bites_table(format!("{what}: the eating order."), &self.eating_order),
        ];
        if let Some(outcomes) = &self.spe_outcomes {
            tables.push(outcomes_table(
                format!("{what}: every pure SPE outcome."),
                self.players,
                outcomes,
            ));
        }
        if let Some(rows) = &self.welfare {
            let opt = |x: Option<Exact>| x.map_or(Cell::Empty, Cell::exact);
            let mut t = Table::new(
                format!("{what}: welfare, sincere against the equilibria and the optimum."),
                vec![
                    Column::new("measure", Align::Left),
                    Column::new("sincere", Align::Right),
                    Column::new("SPE worst", Align::Right),
                    Column::new("SPE best", Align::Right),
                    Column::new("optimum", Align::Right),
                    Column::new("price of anarchy", Align::Right),
                    Column::new("price of stability", Align::Right),
                ],
            );
            for r in rows {
                t.push(vec![
                    Cell::Text(r.measure.into()),
                    Cell::exact(r.sincere),
                    Cell::exact(r.spe_worst),
                    Cell::exact(r.spe_best),
                    opt(r.optimum),
                    opt(r.price_of_anarchy),
                    opt(r.price_of_stability),
                ]);
            }
            tables.push(t);
        }
        tables
    }
}

impl Tabulate for ManipulateReport {
    /// The manipulator's sincere and best score, and its picks.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!(
                "Manipulation by {}, turn order {} (method {}).",
                self.agent,
                abbreviate(&self.turn_order),
                self.method
            ),
            vec![
                Column::new("agent", Align::Left),
                Column::new("sincere score", Align::Right),
                Column::new("best score", Align::Right),
                Column::new("gain", Align::Right),
                Column::new("picks", Align::Left),
            ],
        );
        let picks: Vec<u64> = self.picks.iter().map(|&p| p as u64).collect();
        t.push(vec![
            Cell::Text(self.agent.to_string()),
            Cell::exact(self.sincere_score),
            Cell::exact(self.score),
            Cell::exact(self.gain),
            Cell::list(&picks),
        ]);
        vec![t]
    }
}

impl Tabulate for FairnessReport {
    /// One dinner: each mechanism's allocation, agent by agent, with the properties; random
    /// dinners: how many allocations fail each property.
    fn tables(&self) -> Vec<Table> {
        let yes = |b: bool| Cell::Text(if b { "yes" } else { "no" }.into());
        let mut tables = Vec::new();
        let mechanisms = self.mechanisms.iter().flatten();
        for m in mechanisms.chain(self.every_spe.iter().flatten()) {
            let mut t = Table::new(
                format!(
                    "The {} allocation, turn order {}.",
                    m.mechanism,
                    abbreviate(&self.turn_order)
                ),
                vec![
                    Column::new("agent", Align::Left),
                    Column::new("bundle", Align::Left),
                    Column::new("score", Align::Right),
                    Column::new("envies", Align::Left),
                    Column::new("envy-free", Align::Center),
                    Column::new("EF1", Align::Center),
                    Column::new("proportional", Align::Center),
                    Column::new("MMS", Align::Center),
                ],
            );
            for a in &m.agents {
                let bundle: Vec<u64> = a.bundle.iter().map(|&x| x as u64).collect();
                let envies: Vec<String> = a.envies.iter().map(|l| l.to_string()).collect();
                t.push(vec![
                    Cell::Text(a.agent.to_string()),
                    Cell::list(&bundle),
                    Cell::exact(a.score),
                    Cell::Text(envies.join(" ")),
                    yes(a.envy_free),
                    yes(a.ef1),
                    yes(a.proportional),
                    a.mms.map_or(Cell::Empty, yes),
                ]);
            }
            tables.push(t);
        }
        if let (Some(trials), Some(failures)) = (self.trials, &self.failures) {
            let mut t = Table::new(
                format!(
                    "{trials} random permutation dinners, turn order {}: allocations failing each property.",
                    abbreviate(&self.turn_order)
                ),
                vec![
                    Column::new("mechanism", Align::Left),
                    Column::new("envy-free", Align::Right),
                    Column::new("EF1", Align::Right),
                    Column::new("proportional", Align::Right),
                    Column::new("MMS", Align::Right),
                ],
            );
            for f in failures {
                t.push(vec![
                    Cell::Text(f.mechanism.into()),
                    Cell::number(f.envy_free),
                    Cell::number(f.ef1),
                    Cell::number(f.proportional),
                    Cell::number(f.mms),
                ]);
            }
            tables.push(t);
        }
        tables
    }
}

impl Tabulate for ExpectedReport {
    /// Each agent's expected score and the expected welfare.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!(
                "Picking sequence {} under impartial culture ({} scores, {} play, method {}).",
                abbreviate(&self.turn_order),
                self.model,
                self.play,
                self.method
            ),
            vec![
                Column::new("", Align::Left),
                Column::new("expected", Align::Right),
            ],
        );
        for (i, s) in self.expected_scores.iter().enumerate() {
            t.push(vec![
                Cell::Text(format!("score of {}", Letter(i))),
                Cell::Number(s.clone()),
            ]);
        }
        t.push(vec![
            Cell::Text(format!("{} welfare", self.welfare)),
            Cell::Number(self.expected_welfare.clone()),
        ]);
        vec![t]
    }
}

impl Tabulate for BestOrderReport {
    /// The best sequence, the sequences tied with it and the runner-up.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!(
                "The picking sequences of {} items with the greatest expected {} welfare ({} scores, {} play; {} sequences).",
                self.size, self.welfare, self.model, self.play, self.sequences
            ),
            vec![
                Column::new("", Align::Left),
                Column::new("sequence", Align::Left),
                Column::new("expected welfare", Align::Right),
            ],
        );
        for order in &self.tied {
            t.push(vec![
                Cell::Text("best".into()),
                Cell::Text(order.clone()),
                Cell::Number(self.expected_welfare.clone()),
            ]);
        }
        if let Some(r) = &self.runner_up {
            t.push(vec![
                Cell::Text("runner-up".into()),
                Cell::Text(r.order.clone()),
                Cell::Number(r.expected_welfare.clone()),
            ]);
        }
        vec![t]
    }
}
