//! The `cookie` reports' text: one [`Render`] per report, a pure function of it, and the
//! layout of those that are tables ([`Tabulate`]), which every other format writes.

use super::report::absent;
use super::report::{AnalyzeReport, CriticalReport, GeneralReport, NimReport, TableReport};
use crate::api::Render;
use crate::table::{Align, Cell, Column, Table, Tabulate};
use num_bigint::BigUint;
use std::io::{self, Write};

impl Render for AnalyzeReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let t = &self.text;
        writeln!(w, "position  {}", t.position)?;
        writeln!(w, "surplus   {}  -> deletion {}", self.surplus, t.deletion)?;
        writeln!(
            w,
            "depletion -> reduced form {} ({})",
            t.reduced,
            if self.strict { "strict" } else { "not strict" }
        )?;
        writeln!(
            w,
            "D(A)      {}",
            self.d_value
                .map_or("undefined (reduced form not strict)".into(), |d| d
                    .to_string())
        )?;
        writeln!(w, "type      {}", self.kind)?;
        match self.grundy {
            Some(g) => writeln!(
                w,
                "grundy {g}, remoteness {}, suspense {} (brute force)",
                self.remoteness.unwrap_or(0),
                self.suspense.unwrap_or(0)
            )?,
            None => writeln!(
                w,
                "remoteness = suspense = D = {} (theory); grundy absent: {}",
                self.d_value.unwrap_or(0),
                absent()
            )?,
        }
        if let Some([a, b]) = self.winning_interval {
            writeln!(
                w,
                "winning interval of the reduced form: options {a} to {b}"
            )?;
        }
        if let (Some(m), Some(size)) = (&self.rule, t.rule_size) {
            writeln!(
                w,
                "Section 3: rule {} applies (j = {}); it takes option {}, eating a component of size {size} of the reduced form",
                m.rule, m.j, m.k
            )?;
        }
        match &self.winning_moves {
            Some(m) if m.is_empty() => writeln!(w, "winning moves: none (P-position)"),
            Some(m) if t.big && m.len() > 20 => writeln!(
                w,
                "winning moves: eat a component of size {} .. {} ({} sizes)",
                m[0],
                m[m.len() - 1],
                m.len()
            ),
            Some(m) => {
                let m: Vec<String> = m.iter().map(|x| x.to_string()).collect();
                writeln!(
                    w,
                    "winning moves: eat a component of size {}",
                    m.join(" or ")
                )
            }
            None => writeln!(w, "winning moves: absent ({})", absent()),
        }?;
        for m in self.moves.iter().flatten() {
            writeln!(
                w,
                "eat {:>3}: leaves {} ({}{}){}",
                m.eat,
                if m.position.len() > 40 {
                    format!("{} components", m.position.len())
                } else {
                    format!("{:?}", m.position)
                },
                m.kind,
                m.d_value.map(|d| format!(", D = {d}")).unwrap_or_default(),
                if m.wins { "  wins" } else { "" }
            )?;
        }
        Ok(())
    }
}

impl Render for CriticalReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{:>4} {:>4}  C^(n,d)", "n", "d")?;
        for r in &self.critical {
            let parts: Vec<String> = r.position.iter().map(|x| x.to_string()).collect();
            writeln!(w, "{:>4} {:>4}  {}", r.n, r.d, parts.join(" "))?;
        }
        Ok(())
    }
}

impl Render for TableReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "number of strict n-component positions with D-value d")?;
        for (n, row) in self.rows.iter().enumerate() {
            let first = row.iter().position(|c| *c > BigUint::ZERO).unwrap_or(0);
            let cells: Vec<String> = row[first..].iter().map(|c| c.to_string()).collect();
            writeln!(w, "n = {n:>2}, d from {first:>2}: {}", cells.join(" "))?;
        }
        Ok(())
    }
}

impl Render for NimReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "nim-values of strict positions (count per value 0, 1, 2, ...)"
        )?;
        for (n, row) in self.rows.iter().enumerate().skip(1) {
            let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
            writeln!(w, "n = {n:>2}: {}", cells.join(" "))?;
        }
        writeln!(w, "largest nim-value: {}", self.largest_nim_value)?;
        if let Some(g) = &self.gpu {
            writeln!(w, "layers computed on the GPU: {g}")?;
        }
        Ok(())
    }
}

impl Render for GeneralReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "reduced positions of the cookie game by number of components n"
        )?;
        writeln!(
            w,
            "{:>3} {:>13} {:>13} {:>13} {:>8} {:>13} {:>8}  positions by nim-value 0, 1, 2, ...",
            "n", "positions", "P-positions", "no duration", "max nim", "rem != susp", "max rem"
        )?;
        for r in &self.rows {
            let cells: Vec<String> = (0..=r.max_nim)
                .map(|k| r.nim.get(&k).copied().unwrap_or(0).to_string())
                .collect();
            writeln!(
                w,
                "{:>3} {:>13} {:>13} {:>13} {:>8} {:>13} {:>8}  {}",
                r.n,
                r.positions,
                r.p_positions,
                r.no_duration,
                r.max_nim,
                r.remoteness_not_suspense,
                r.max_remoteness,
                cells.join(" ")
            )?;
        }
        if let Some(g) = &self.gpu {
            writeln!(w, "layers computed on the GPU: {g}")?;
        }
        Ok(())
    }
}

impl Tabulate for CriticalReport {
    /// The critical positions `C^{n,d}`, one a row.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            "The critical positions C^{n,d} of the cookie game.",
            vec![
                Column::new("n", Align::Right),
                Column::new("d", Align::Right),
                Column::symbol("C^(n,d)", "C^{n,d}", Align::Left),
            ],
        );
        for r in &self.critical {
            t.push(vec![
                Cell::number(r.n),
                Cell::number(r.d),
                Cell::tuple(&r.position),
            ]);
        }
        vec![t]
    }
}

impl Tabulate for TableReport {
    /// Strict positions by components `n` (rows) and D-value `d` (columns); a blank is 0.
    fn tables(&self) -> Vec<Table> {
        let width = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut columns = vec![Column::new("n", Align::Right)];
        columns.extend((0..width).map(|d| Column::new(format!("d = {d}"), Align::Right)));
        let mut t = Table::new(
            "The number of strict n-component positions of the cookie game with D-value d.",
            columns,
        );
        for (n, row) in self.rows.iter().enumerate() {
            let mut cells = vec![Cell::number(n as u64)];
            cells.extend((0..width).map(|d| match row.get(d) {
                Some(c) if *c > BigUint::ZERO => Cell::count(c),
                _ => Cell::Empty,
            }));
            t.push(cells);
        }
        vec![t]
    }
}

impl Tabulate for NimReport {
    /// Strict positions by components `n` (rows) and nim-value (columns); a blank is 0.
    fn tables(&self) -> Vec<Table> {
        let width = self.largest_nim_value + 1;
        let mut columns = vec![Column::new("n", Align::Right)];
        columns.extend((0..width).map(|k| Column::new(k.to_string(), Align::Right)));
        let mut t = Table::new(
            "The number of strict n-component positions of the cookie game by nim-value.",
            columns,
        );
        for (n, row) in self.rows.iter().enumerate().skip(1) {
            let mut cells = vec![Cell::number(n as u64)];
            cells.extend((0..width).map(|k| match row.get(k) {
                Some(&c) if c > 0 => Cell::number(c),
                _ => Cell::Empty,
            }));
            t.push(cells);
        }
        vec![t]
    }
}

impl Tabulate for GeneralReport {
    /// The general cookie game's reduced positions by components (rows): counts,
    /// P-positions, the extremes, then positions by nim-value.
    fn tables(&self) -> Vec<Table> {
        let nims = self.rows.iter().map(|r| r.max_nim + 1).max().unwrap_or(0);
        let mut columns = vec![
            Column::new("n", Align::Right),
            Column::new("positions", Align::Right),
            Column::new("P-positions", Align::Right),
            Column::new("no duration", Align::Right),
            Column::new("max nim", Align::Right),
            Column::new("rem. != susp.", Align::Right),
            Column::new("max rem.", Align::Right),
        ];
        columns.extend((0..nims).map(|k| Column::new(format!("nim {k}"), Align::Right)));
        let mut t = Table::new(
            "Reduced positions of the cookie game by number of components n.",
            columns,
        );
        for r in &self.rows {
            let mut cells = vec![
                Cell::number(r.n),
                Cell::number(r.positions),
                Cell::number(r.p_positions),
                Cell::number(r.no_duration),
                Cell::number(r.max_nim),
                Cell::number(r.remoteness_not_suspense),
                Cell::number(r.max_remoteness),
            ];
            cells.extend((0..nims).map(|k| match r.nim.get(&k) {
                Some(&c) if c > 0 => Cell::number(c),
                _ => Cell::Empty,
            }));
            t.push(cells);
        }
        vec![t]
    }
}
