//! The `tokens` reports' text: one [`Render`] per report, a pure function of it, and their
//! layout as tables ([`Tabulate`]), which every other format writes.

use super::report::{AnywhereReport, SeatsReport, SolveReport};
use crate::api::input::Letter;
use crate::api::Render;
use crate::table::{Align, Cell, Column, Table, Tabulate};
use std::io::{self, Write};

impl Render for SolveReport {
    const TABLES: bool = true;
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        match self {
            SolveReport::Discrete(d) => d.svg.as_deref(),
            SolveReport::Continuous(_) => None,
        }
    }

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            SolveReport::Discrete(r) => {
                writeln!(w, "{}, ties {}", r.title, r.ties)?;
                for (i, (m, p)) in r.moves.iter().zip(&r.payoffs).enumerate() {
                    writeln!(w, "  {} places on stack {m:>3}  payoff {p}", Letter(i))?;
                }
                for t in &r.indifferent_after {
                    writeln!(w, "  tie: the mover was indifferent after {t:?}")?;
                }
                for l in r.explanation.iter().flatten() {
                    let pays: Vec<String> = l.payoffs.iter().map(|x| x.to_string()).collect();
                    writeln!(
                        w,
                        "  stack {:>3} -> payoffs ({}){}",
                        l.stack,
                        pays.join(", "),
                        if l.chosen {
                            "  equilibrium"
                        } else if l.best_for_mover {
                            "  best for the mover too"
                        } else {
                            ""
                        }
                    )?;
                }
                if let Some(o) = &r.outcomes {
                    writeln!(w, "all pure SPE outcomes ({}):", o.len())?;
                    for v in o {
                        let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                        writeln!(w, "  ({})", parts.join(", "))?;
                    }
                }
                Ok(())
            }
            SolveReport::Continuous(r) => {
                let finest = r.grids.last().map_or(1, |g| g.k);
                writeln!(
                    w,
                    "{} stacks on a {}, {} players, tokens on grids of step 1 to 1/{}",
                    r.stacks,
                    if r.clock { "clock" } else { "line" },
                    r.players,
                    finest
                )?;
                for p in &r.grids {
                    let moves: Vec<String> = p.moves.iter().map(|x| x.to_string()).collect();
                    let pays: Vec<String> = p.payoffs.iter().map(|x| x.to_string()).collect();
                    writeln!(
                        w,
                        "  step 1/{:<3} locations {:<28} payoffs {}",
                        p.k,
                        moves.join(", "),
                        pays.join(", ")
                    )?;
                }
                for (i, l) in r.best_response_intervals.iter().enumerate() {
                    writeln!(w, "  {} is indifferent on {}", Letter(i), l.join(" U "))?;
                }
                writeln!(w, "  ({})", r.see_also)
            }
        }
    }
}

impl Render for SeatsReport {
    const TABLES: bool = true;
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        self.svg.as_deref()
    }

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Equilibrium payoff of each seat, $1..${} on a {} (lowest-stack ties)",
            self.stacks,
            if self.clock { "clock" } else { "line" }
        )?;
        for r in &self.rows {
            let parts: Vec<String> = r.payoffs.iter().map(|x| x.to_string()).collect();
            let noun = if r.players == 1 {
                "player: "
            } else {
                "players:"
            };
            writeln!(w, "{:>3} {noun} {}", r.players, parts.join("  "))?;
        }
        Ok(())
    }
}

impl Tabulate for SolveReport {
    /// The equilibrium (each player's stack or location and payoff); with `at`, the next
    /// player's choices; with every outcome asked for, the outcomes; for the continuous
    /// game, one row per grid.
    fn tables(&self) -> Vec<Table> {
        match self {
            SolveReport::Discrete(r) => {
                let mut tables = Vec::new();
                let mut t = Table::new(
                    format!("{}, ties {}: the equilibrium.", r.title, r.ties),
                    vec![
                        Column::new("player", Align::Left),
                        Column::new("stack", Align::Right),
                        Column::new("payoff", Align::Right),
                    ],
                );
                for (i, (m, p)) in r.moves.iter().zip(&r.payoffs).enumerate() {
                    t.push(vec![
                        Cell::Text(Letter(i).to_string()),
                        Cell::number(*m as u64),
                        Cell::exact(*p),
                    ]);
                }
                tables.push(t);
                if let Some(lines) = &r.explanation {
                    let mut t = Table::new(
                        format!("{}: the next player's choices.", r.title),
                        vec![
                            Column::new("stack", Align::Right),
                            Column::new("payoffs", Align::Left),
                            Column::new("", Align::Left),
                        ],
                    );
                    for l in lines {
                        let note = if l.chosen {
                            "equilibrium"
                        } else if l.best_for_mover {
                            "best for the mover too"
                        } else {
                            ""
                        };
                        t.push(vec![
                            Cell::number(l.stack as u64),
                            Cell::exact_tuple(&l.payoffs),
                            Cell::Text(note.into()),
                        ]);
                    }
                    tables.push(t);
                }
                if let Some(outcomes) = &r.outcomes {
                    let columns = (0..r.players)
                        .map(|i| Column::new(Letter(i).to_string(), Align::Right))
                        .collect();
                    let mut t = Table::new(format!("{}: all pure SPE outcomes.", r.title), columns);
                    for v in outcomes {
                        t.push(v.iter().map(|x| Cell::exact(*x)).collect());
                    }
                    tables.push(t);
                }
                tables
            }
            SolveReport::Continuous(r) => {
                let mut t = Table::new(
                    format!(
                        "{} stacks on a {}, {} players: the equilibrium on grids of step 1/k (each grid its own game).",
                        r.stacks,
                        if r.clock { "clock" } else { "line" },
                        r.players
                    ),
                    vec![
                        Column::new("k", Align::Right),
                        Column::new("locations", Align::Left),
                        Column::new("payoffs", Align::Left),
                    ],
                );
                for g in &r.grids {
                    t.push(vec![
                        Cell::number(g.k as u64),
                        Cell::exact_tuple(&g.moves),
                        Cell::exact_tuple(&g.payoffs),
                    ]);
                }
                vec![t]
            }
        }
    }
}

impl Tabulate for SeatsReport {
    /// Each seat's equilibrium payoff (columns) for each number of players (rows).
    fn tables(&self) -> Vec<Table> {
        let seats = self.rows.iter().map(|r| r.players).max().unwrap_or(0);
        let mut columns = vec![Column::new("players", Align::Right)];
        columns.extend((1..=seats).map(|s| Column::new(format!("seat {s}"), Align::Right)));
        let mut t = Table::new(
            format!(
                "Equilibrium payoff of each seat, stacks worth $1 to ${} on a {} (lowest-stack ties).",
                self.stacks,
                if self.clock { "clock" } else { "line" }
            ),
            columns,
        );
        for r in &self.rows {
            let mut cells = vec![Cell::number(r.players as u64)];
            cells.extend(
                (0..seats).map(|s| r.payoffs.get(s).map_or(Cell::Empty, |x| Cell::exact(*x))),
            );
            t.push(cells);
        }
        vec![t]
    }
}

impl Render for AnywhereReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{}, ties {} (exact)", self.title, self.ties)?;
        for (i, c) in self.choices.iter().enumerate() {
            writeln!(
                w,
                "  {} places at {:<8} payoff {:<8} as good anywhere in {}{}",
                Letter(i),
                c.at.to_string(),
                c.payoff.to_string(),
                c.best_text,
                if c.tie {
                    format!("; same outcome in {}", c.same_outcome_text)
                } else {
                    String::new()
                }
            )?;
        }
        writeln!(w, "  ({} placements tried)", self.placements)
    }
}

impl Tabulate for AnywhereReport {
    /// Each player's placement, payoff, and the placements as good for her.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!("{}, ties {}: the exact equilibrium.", self.title, self.ties),
            vec![
                Column::new("player", Align::Left),
                Column::new("places at", Align::Right),
                Column::new("payoff", Align::Right),
                Column::new("as good anywhere in", Align::Left),
                Column::new("same outcome in", Align::Left),
            ],
        );
        for (i, c) in self.choices.iter().enumerate() {
            t.push(vec![
                Cell::Text(Letter(i).to_string()),
                Cell::exact(c.at),
                Cell::exact(c.payoff),
                Cell::Text(c.best_text.clone()),
                Cell::Text(c.same_outcome_text.clone()),
            ]);
        }
        vec![t]
    }
}
