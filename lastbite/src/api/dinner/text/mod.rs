//! The `dinner` reports' text: one [`Render`](crate::api::Render) (and, where a report
//! is a table, one [`Tabulate`]) per report, a pure function of it. The game's own
//! reports (a solve, a play, its checks and pictures) in `game.rs`, the paper's analyses
//! (discounts, Pareto, the experiments, balance) in `analyses.rs`, picking sequences in
//! `picking.rs`; here the pieces they share.

mod analyses;
mod game;
mod picking;

use std::io::{self, Write};

use crate::api::dinner::report::{DeviationReport, RulesReport};
use crate::api::input::Letter;
use crate::exact::Exact;
use crate::games::dinner::Dinner;
use crate::table::{Align, Cell, Column, Table};

fn abbreviate(s: &str) -> String {
    if s.len() > 60 {
        format!("{}...({} turns)", &s[..40], s.len())
    } else {
        s.to_string()
    }
}

fn join(v: &[Exact]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn score_line(scores: &[Exact]) -> String {
    let parts: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} = {}", Letter(p), s))
        .collect();
    format!("Scores: {}", parts.join(", "))
}

/// A morsel's utilities as `(a, b, ...)`, integers without allocating per value.
fn write_morsel(w: &mut impl Write, d: &Dinner, i: usize) -> io::Result<()> {
    w.write_all(b"(")?;
    for p in 0..d.players() {
        if p > 0 {
            w.write_all(b", ")?;
        }
        if d.scale() == 1 {
            write!(w, "{}", d.utility(i, p))?;
        } else {
            write!(w, "{}", d.value(i, p))?;
        }
    }
    w.write_all(b")")
}

fn set_text(v: &[usize]) -> String {
    let parts: Vec<String> = v.iter().map(|m| m.to_string()).collect();
    format!("{{{}}}", parts.join(","))
}

fn deviation_text(dev: &DeviationReport) -> String {
    format!(
        "with morsels {} left, {} gains {} by eating {} instead of {}",
        set_text(&dev.remaining),
        dev.player,
        dev.gain,
        dev.better,
        dev.prescribed
    )
}

/// The rules that changed the result, for a header: `, discount 1/2, altruism
/// 1,1/2,1/2,1, before 0<2 1<2` (empty for the plain dinner).
fn rules_text(rules: Option<&RulesReport>) -> String {
    let mut out = String::new();
    let Some(rules) = rules else {
        return out;
    };
    if let Some(d) = &rules.discount {
        out.push_str(&format!(", discount {d}"));
    }
    if let Some(a) = &rules.altruism {
        out.push_str(&format!(
            ", altruism {},{},{},{}",
            a.alpha_A, a.beta_A, a.alpha_B, a.beta_B
        ));
    }
    if let Some(b) = &rules.before {
        let pairs: Vec<String> = b.iter().map(|[i, j]| format!("{i}<{j}")).collect();
        out.push_str(&format!(", before {}", pairs.join(" ")));
    }
    out
}

fn eating_lines(
    w: &mut dyn Write,
    eating: &[super::report::BiteReport],
    dinner: Option<&Dinner>,
) -> io::Result<()> {
    if eating.len() > 60 {
        return writeln!(w, "  ({} bites; --json lists them)", eating.len());
    }
    for b in eating {
        let text = dinner.map_or(String::new(), |d| d.morsel_text(b.morsel));
        let line = format!(
            "{:>6}  {:<3} eats morsel {:>4} {}",
            b.turn,
            b.player.to_string(),
            b.morsel,
            text
        );
        writeln!(w, "{}", line.trim_end())?;
    }
    Ok(())
}

fn or_dash(x: &Option<Exact>) -> String {
    x.map_or("-".into(), |v| v.to_string())
}

/// A table of each player's score.
fn scores_table(caption: String, scores: &[Exact]) -> Table {
    let mut t = Table::new(
        caption,
        vec![
            Column::new("player", Align::Left),
            Column::new("score", Align::Right),
        ],
    );
    for (i, s) in scores.iter().enumerate() {
        t.push(vec![Cell::Text(Letter(i).to_string()), Cell::exact(*s)]);
    }
    t
}

/// A table of the bites, in eating order.
fn bites_table(caption: String, bites: &[super::report::BiteReport]) -> Table {
    let mut t = Table::new(
        caption,
        vec![
            Column::new("turn", Align::Right),
            Column::new("player", Align::Left),
            Column::new("morsel", Align::Right),
            Column::new("utility", Align::Right),
        ],
    );
    for b in bites {
        t.push(vec![
            Cell::number(b.turn as u64),
            Cell::Text(b.player.to_string()),
            Cell::number(b.morsel as u64),
            Cell::exact(b.utility),
        ]);
    }
    t
}

/// A table of score vectors (every pure SPE outcome).
fn outcomes_table(caption: String, players: usize, outcomes: &[Vec<Exact>]) -> Table {
    let columns = (0..players)
        .map(|i| Column::new(Letter(i).to_string(), Align::Right))
        .collect();
    let mut t = Table::new(caption, columns);
    for v in outcomes {
        t.push(v.iter().map(|x| Cell::exact(*x)).collect());
    }
    t
}
