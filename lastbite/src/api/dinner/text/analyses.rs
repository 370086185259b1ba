//! The text of the paper's analyses: discounts, the Pareto frontier, the experiments,
//! multiplicity, attainable scores and balance.

use std::io::{self, Write};

use super::{deviation_text, join};
use crate::api::dinner::report::{
    AttainableReport, BalanceReport, DiscountReport, ExperimentReport, MultiplicityReport,
    ParetoReport,
};
use crate::api::Render;
use crate::table::{Align, Cell, Column, Table, Tabulate};

impl Render for DiscountReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            DiscountReport::Search(s) => match &s.dinner {
                None => writeln!(
                    w,
                    "Crossout is an equilibrium of every permutation dinner up to size {} discounted by {}.",
                    s.max_size, s.discount
                ),
                Some(rows) => {
                    let morsels: Vec<String> = rows.iter().map(|r| format!("({})", join(r))).collect();
                    writeln!(
                        w,
                        "Smallest permutation dinner where crossout is not an equilibrium with discount {}:",
                        s.discount
                    )?;
                    writeln!(
                        w,
                        "  {} (turn order {})",
                        morsels.join(" "),
                        s.turn_order.as_deref().unwrap_or("")
                    )?;
                    if let Some(Some(dev)) = &s.deviation {
                        writeln!(w, "  {}", deviation_text(dev))?;
                    }
                    Ok(())
                }
            },
            DiscountReport::Check(c) => {
                let verdict = if c.crossout_is_spe { "still" } else { "NOT" };
                writeln!(
                    w,
                    "With discount {}, crossout is {verdict} a subgame perfect equilibrium.",
                    c.discount
                )?;
                if let Some(dev) = &c.deviation {
                    writeln!(w, "  {}", deviation_text(dev))?;
                }
                writeln!(w, "Crossout play, discounted scores: ({})", join(&c.crossout_scores))?;
                writeln!(w, "Exact SPE scores:                 ({})", join(&c.spe_scores))
            }
        }
    }
}

impl Render for ParetoReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            ParetoReport::Sweep(s) => {
                writeln!(
                    w,
                    "{} permutation dinners of size {} (Bob moves last)",
                    s.dinners, s.size
                )?;
                writeln!(
                    w,
                    "crossout Pareto inefficient in {}, weakly inefficient in {}",
                    s.inefficient.len(),
                    s.weakly_inefficient.len()
                )?;
                for (name, list) in [
                    ("inefficient", &s.inefficient),
                    ("weakly inefficient", &s.weakly_inefficient),
                ] {
                    for b in list.iter().take(20) {
                        let m: Vec<String> =
                            b.iter().map(|[i, bi]| format!("({i},{bi})")).collect();
                        writeln!(w, "  {name}: {}", m.join(" "))?;
                    }
                    if list.len() > 20 {
                        writeln!(
                            w,
                            "  ... and {} more (see the JSON report)",
                            list.len() - 20
                        )?;
                    }
                }
                Ok(())
            }
            ParetoReport::One(o) => {
                writeln!(w, "Crossout scores: ({}, {})", o.crossout[0], o.crossout[1])?;
                writeln!(
                    w,
                    "Pareto efficient: {}; weakly Pareto efficient: {}",
                    o.pareto_efficient, o.weakly_pareto_efficient
                )?;
                for [x, y] in &o.improving {
                    writeln!(w, "  improving outcome: ({x}, {y})")?;
                }
                Ok(())
            }
        }
    }
}

impl Render for ExperimentReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} random permutation dinners of size {} (seed {}):",
            self.trials, self.size, self.seed
        )?;
        writeln!(
            w,
            "  crossout Pareto inefficient:        {}",
            self.inefficient
        )?;
        writeln!(
            w,
            "  crossout weakly Pareto inefficient: {}",
            self.weakly_inefficient
        )?;
        match (
            &self.max_improvement_percent_exact,
            self.max_improvement_percent,
        ) {
            (Some(x), Some(f)) => writeln!(
                w,
                "  largest improvement for a player:   {f}% (exactly {x}%)"
            ),
            _ => writeln!(w, "  no improving outcome"),
        }
    }
}

impl Render for MultiplicityReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} random dinners of {} morsels, {} players with distinct utilities, order {} (seed {}):",
            self.trials, self.size, self.players, self.order, self.seed
        )?;
        writeln!(
            w,
            "  more than one pure SPE outcome: {} of {}",
            self.multiple, self.trials
        )?;
        for h in &self.histogram {
            writeln!(w, "  {} outcome(s): {} dinners", h.outcomes, h.dinners)?;
        }
        if self.trials > 0 {
            writeln!(
                w,
                "  most outcomes: {} (trial {})",
                self.most_outcomes, self.most_trial
            )?;
        }
        Ok(())
    }
}

impl Render for AttainableReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "Permutation dinners of size {} (k = {}), crossout play:",
            self.size,
            self.size / 2
        )?;
        writeln!(
            w,
            "  distinct sets Alice can eat: {} (Catalan C_k = {})",
            self.alice, self.catalan_k
        )?;
        writeln!(
            w,
            "  distinct sets Bob can eat:   {} (Catalan C_k+1 = {})",
            self.bob, self.catalan_k_plus_1
        )
    }
}

impl Render for BalanceReport {
    const TABLES: bool = true;
    const PICTURE: bool = true;

    fn as_svg(&self) -> Option<&str> {
        self.svg.as_deref()
    }

    fn as_tables(&self) -> Option<Vec<Table>> {
        Some(Tabulate::tables(self))
    }

    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{:>6}  {:>12}  {:>12}   (mean Alice - Bob, % of n(n+1)/2)",
            "size", "alternation", "thue-morse"
        )?;
        for r in &self.rows {
            writeln!(
                w,
                "{:>6}  {:>11.3}%  {:>11.3}%",
                r.size,
                r.alternation.to_f64(),
                r.thue_morse.to_f64()
            )?;
        }
        Ok(())
    }
}

impl Tabulate for ExperimentReport {
    /// The experiment's counts as labelled lines.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!(
                "Crossout on {} random permutation dinners of size {} (seed {}).",
                self.trials, self.size, self.seed
            ),
            vec![Column::new("", Align::Left), Column::new("", Align::Right)],
        );
        t.push(vec![
            Cell::Text("Pareto inefficient".into()),
            Cell::number(self.inefficient),
        ]);
        t.push(vec![
            Cell::Text("weakly Pareto inefficient".into()),
            Cell::number(self.weakly_inefficient),
        ]);
        t.push(vec![
            Cell::Text("largest improvement for a player (%)".into()),
            self.max_improvement_percent_exact
                .map_or(Cell::Text("none".into()), Cell::exact),
        ]);
        vec![t]
    }
}

impl Tabulate for ParetoReport {
    /// One dinner: crossout's scores and every outcome that improves on them; a sweep:
    /// its counts and every inefficient dinner.
    fn tables(&self) -> Vec<Table> {
        match self {
            ParetoReport::One(o) => {
                let mut t = Table::new(
                    format!(
                        "Crossout scores ({}, {}), turn order {}: Pareto efficient {}, weakly {}; the outcomes that improve on them.",
                        o.crossout[0],
                        o.crossout[1],
                        o.turn_order,
                        if o.pareto_efficient { "yes" } else { "no" },
                        if o.weakly_pareto_efficient { "yes" } else { "no" }
                    ),
                    vec![Column::new("Alice", Align::Right), Column::new("Bob", Align::Right)],
                );
                for [a, b] in &o.improving {
                    t.push(vec![Cell::exact(*a), Cell::exact(*b)]);
                }
                vec![t]
            }
            ParetoReport::Sweep(s) => {
                let mut t = Table::new(
                    format!(
                        "The {} permutation dinners of size {} (Bob moves last) on which crossout is (weakly) Pareto inefficient: {} and {}.",
                        s.dinners,
                        s.size,
                        s.inefficient.len(),
                        s.weakly_inefficient.len()
                    ),
                    vec![Column::new("", Align::Left), Column::new("dinner (a, b)", Align::Wrap)],
                );
                for (name, list) in [
                    ("inefficient", &s.inefficient),
                    ("weakly", &s.weakly_inefficient),
                ] {
                    for d in list {
                        let m: Vec<String> = d.iter().map(|[a, b]| format!("({a},{b})")).collect();
                        t.push(vec![Cell::Text(name.into()), Cell::Text(m.join(" "))]);
                    }
                }
                vec![t]
            }
        }
    }
}

impl Tabulate for MultiplicityReport {
    /// How many dinners have how many pure SPE outcomes.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!(
                "Pure SPE outcomes of {} random dinners of {} morsels, {} players with distinct utilities, order {} (seed {}): {} with more than one.",
                self.trials, self.size, self.players, self.order, self.seed, self.multiple
            ),
            vec![
                Column::new("outcomes", Align::Right),
                Column::new("dinners", Align::Right),
            ],
        );
        for h in &self.histogram {
            t.push(vec![Cell::number(h.outcomes), Cell::number(h.dinners)]);
        }
        vec![t]
    }
}

impl Tabulate for BalanceReport {
    /// The first mover's mean advantage by size, under both orders, exact.
    fn tables(&self) -> Vec<Table> {
        let mut t = Table::new(
            format!(
                "Mean advantage of the first mover, Alice - Bob as a percentage of n(n+1)/2, over {} random dinners a size (seed {}).",
                self.trials, self.seed
            ),
            vec![
                Column::new("size", Align::Right),
                Column::new("alternation", Align::Right),
                Column::new("Thue-Morse", Align::Right),
            ],
        );
        for r in &self.rows {
            t.push(vec![
                Cell::number(r.size as u64),
                Cell::exact(r.alternation),
                Cell::exact(r.thue_morse),
            ]);
        }
        vec![t]
    }
}
