//! The `efg` reports' text: one [`Render`] per report, a pure function of it.

use super::report::{InfoReport, RandomReport, SolveReport, VerifyReport};
use crate::api::Render;
use crate::number::Count;
use crate::rational::Rational;
use std::io::{self, Write};

/// Text output lists profiles and node tables up to this many rows; JSON has them all.
const TEXT_ROWS: usize = 200;

/// A count for a table: in full up to 15 digits, else like `2.65e1234` (the JSON output
/// keeps every digit).
fn short_count(c: &Count) -> String {
    let digits = c.0.to_string();
    if digits.len() <= 15 {
        digits
    } else {
        format!("{}.{}e{}", &digits[..1], &digits[1..3], digits.len() - 1)
    }
}

fn vector(v: &[Rational]) -> String {
    format!(
        "({})",
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

impl Render for InfoReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "Game: {}", crate::text::quote(&self.title))?;
        if !self.comment.is_empty() {
            writeln!(w, "Comment: {}", crate::text::clean(&self.comment))?;
        }
        let names: Vec<String> = self.players.iter().map(|p| crate::text::quote(p)).collect();
        writeln!(w, "Players: {} ({})", self.players.len(), names.join(", "))?;
        writeln!(
            w,
            "Nodes: {} ({} decision, {} chance, {} terminal), depth {}",
            self.nodes, self.personal_nodes, self.chance_nodes, self.terminal_nodes, self.depth
        )?;
        writeln!(
            w,
            "Information sets: {}, outcomes: {}",
            self.infosets, self.outcomes
        )?;
        match &self.imperfect {
            None => writeln!(w, "Perfect information: yes")?,
            Some(why) => writeln!(w, "Perfect information: no ({why})")?,
        }
        writeln!(
            w,
            "\n  player            pure strategies   reduced strategies"
        )?;
        for (p, name) in self.players.iter().enumerate() {
            let reduced = match &self.reduced_strategies[p] {
                Some(c) => short_count(c),
                None => "- (1)".into(),
            };
            writeln!(
                w,
                "  {:<16}  {:>15}   {:>18}",
                crate::text::clean(name),
                short_count(&self.pure_strategies[p]),
                reduced
            )?;
        }
        if self.reduced_strategies.iter().any(Option::is_none) {
            writeln!(
                w,
                "  (1) imperfect recall: nodes of one information set follow different own moves, so plans (the reduced form) are not defined"
            )?;
        }
        Ok(())
    }
}

impl Render for SolveReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Game: {}, {} players, {} nodes, ties {}",
            crate::text::quote(&self.title),
            self.players.len(),
            self.nodes,
            self.ties
        )?;
        writeln!(w, "SPE payoffs:")?;
        for (name, v) in self.players.iter().zip(&self.value) {
            writeln!(w, "  {:<16}  {v}", crate::text::clean(name))?;
        }
        writeln!(w, "\nEquilibrium profile (action at each decision node):")?;
        writeln!(w, "  {:>8}  {:<16}  action", "node", "player")?;
        for e in self.profile.iter().take(TEXT_ROWS) {
            writeln!(
                w,
                "  {:>8}  {:<16}  {} {}",
                e.node,
                crate::text::clean(&e.player),
                e.action,
                crate::text::quote(&e.label)
            )?;
        }
        if self.profile.len() > TEXT_ROWS {
            writeln!(
                w,
                "  ... {} more (the JSON output has them all)",
                self.profile.len() - TEXT_ROWS
            )?;
        } else {
            writeln!(w, "Gambit behaviour profile: {}", self.behavior)?;
        }
        if let Some(outcomes) = &self.outcomes {
            writeln!(w, "\nAll pure SPE payoff vectors ({}):", outcomes.len())?;
            for v in outcomes {
                writeln!(w, "  {}", vector(v))?;
            }
        }
        if let Some(nodes) = &self.explanation {
            for e in nodes {
                let label = if e.label.is_empty() {
                    String::new()
                } else {
                    format!(" {}", crate::text::quote(&e.label))
                };
                match &e.player {
                    Some(p) => writeln!(
                        w,
                        "\nNode {}{label}: {} moves ({}), value {}",
                        e.node,
                        crate::text::clean(p),
                        e.rule.as_deref().unwrap_or(""),
                        vector(&e.value)
                    )?,
                    None => writeln!(
                        w,
                        "\nNode {}{label}: chance, value {}",
                        e.node,
                        vector(&e.value)
                    )?,
                }
                for a in &e.actions {
                    let mark = if a.chosen { "*" } else { " " };
                    let p = a
                        .probability
                        .map(|p| format!("p={p}  "))
                        .unwrap_or_default();
                    let best = if a.best_for_mover {
                        "  best for mover"
                    } else {
                        ""
                    };
                    writeln!(
                        w,
                        "  {mark} {} {:<16} {p}{}{best}",
                        a.action,
                        crate::text::quote(&a.label),
                        vector(&a.payoffs)
                    )?;
                }
                if let Some(r) = &e.reason {
                    writeln!(w, "    chosen: {r}")?;
                }
            }
        }
        Ok(())
    }
}

impl Render for VerifyReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "Game: {}", crate::text::quote(&self.title))?;
        match &self.deviation {
            None => writeln!(
                w,
                "The profile is a subgame perfect equilibrium ({} decision nodes checked).",
                self.nodes_checked
            ),
            Some(d) => {
                writeln!(w, "The profile is NOT subgame perfect.")?;
                let label = if d.label.is_empty() {
                    String::new()
                } else {
                    format!(" {}", crate::text::quote(&d.label))
                };
                writeln!(
                    w,
                    "At node {}{label}, {} gets {} by the profile but {} by action {} {} (gain {}).",
                    d.node,
                    crate::text::quote(&d.player),
                    d.profile_value,
                    d.better_value,
                    d.better_action,
                    crate::text::quote(&d.better_label),
                    d.gain
                )?;
                if d.reached {
                    writeln!(
                        w,
                        "The profile reaches this node, so it is not a Nash equilibrium either."
                    )
                } else {
                    writeln!(w, "The profile does not reach this node (a non-credible threat off the equilibrium play).")
                }
            }
        }
    }
}

impl Render for RandomReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        w.write_all(self.efg.as_bytes())
    }
}

impl crate::table::Tabulate for InfoReport {
    /// What the file holds as labelled lines, then each player's strategy counts.
    fn tables(&self) -> Vec<crate::table::Table> {
        use crate::table::{Align, Cell, Column, Table};
        let mut t = Table::new(
            format!(
                "The game {}.",
                if self.title.is_empty() {
                    "without a title"
                } else {
                    &self.title
                }
            ),
            vec![Column::new("", Align::Left), Column::new("", Align::Right)],
        );
        for (what, n) in [
            ("nodes", self.nodes),
            ("decision nodes", self.personal_nodes),
            ("chance nodes", self.chance_nodes),
            ("terminal nodes", self.terminal_nodes),
            ("depth", self.depth),
            ("information sets", self.infosets),
            ("outcomes", self.outcomes),
        ] {
            t.push(vec![Cell::Text(what.into()), Cell::number(n)]);
        }
        t.push(vec![
            Cell::Text("perfect information".into()),
            Cell::Text(
                if self.perfect_information {
                    "yes"
                } else {
                    "no"
                }
                .into(),
            ),
        ]);
        let mut s = Table::new(
            "Each player's pure strategies, and reduced ones (moves at unreachable sets left out).",
            vec![
                Column::new("player", Align::Left),
                Column::new("pure", Align::Right),
                Column::new("reduced", Align::Right),
            ],
        );
        for (i, name) in self.players.iter().enumerate() {
            s.push(vec![
                Cell::Text(name.clone()),
                self.pure_strategies
                    .get(i)
                    .map_or(Cell::Empty, |c| Cell::count(&c.0)),
                self.reduced_strategies
                    .get(i)
                    .and_then(Option::as_ref)
                    .map_or(Cell::Empty, |c| Cell::count(&c.0)),
            ]);
        }
        vec![t, s]
    }
}

impl crate::table::Tabulate for SolveReport {
    /// The SPE payoffs, the equilibrium profile (the action at each decision node) and,
    /// when asked for, every pure SPE payoff vector.
    fn tables(&self) -> Vec<crate::table::Table> {
        use crate::table::{Align, Cell, Column, Table};
        let title = crate::text::clean(&self.title);
        let mut payoffs = Table::new(
            format!("{title} (ties {}): the SPE payoffs.", self.ties),
            vec![
                Column::new("player", Align::Left),
                Column::new("payoff", Align::Right),
            ],
        );
        for (name, v) in self.players.iter().zip(&self.value) {
            payoffs.push(vec![
                Cell::Text(crate::text::clean(name)),
                Cell::Number(v.clone()),
            ]);
        }
        let mut profile = Table::new(
            format!("{title}: the equilibrium profile."),
            vec![
                Column::new("node", Align::Right),
                Column::new("player", Align::Left),
                Column::new("action", Align::Right),
                Column::new("label", Align::Left),
            ],
        );
        for e in &self.profile {
            profile.push(vec![
                Cell::number(e.node),
                Cell::Text(crate::text::clean(&e.player)),
                Cell::number(e.action),
                Cell::Text(crate::text::clean(&e.label)),
            ]);
        }
        let mut tables = vec![payoffs, profile];
        if let Some(outcomes) = &self.outcomes {
            let columns = self
                .players
                .iter()
                .map(|p| Column::new(crate::text::clean(p), Align::Right))
                .collect();
            let mut t = Table::new(format!("{title}: every pure SPE payoff vector."), columns);
            for v in outcomes {
                t.push(v.iter().map(|x| Cell::Number(x.clone())).collect());
            }
            tables.push(t);
        }
        tables
    }
}
