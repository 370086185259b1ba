//! The `dinner` reports' text: one [`Render`] per report, a pure function of it.

use std::io::{self, Write};

use super::report::{
    AttainableReport, BalanceReport, BoardReport, DeviationReport, DiscountReport, EfgReport,
    ExperimentReport, MultiplicityReport, ParetoReport, PlayReport, PlotReport, RulesReport,
    SolveReport, VerifyReport,
};
use crate::api::input::Letter;
use crate::api::Render;
use crate::exact::Exact;
use crate::games::dinner::Dinner;
use crate::table::{Align, Cell, Column, Table, Tabulate};

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

impl Render for SolveReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

fn set_text(v: &[usize]) -> String {
    let parts: Vec<String> = v.iter().map(|m| m.to_string()).collect();
    format!("{{{}}}", parts.join(","))
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

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

impl Render for BalanceReport {
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

impl Render for super::report::SincereReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

impl Render for super::report::ManipulateReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

impl Render for super::report::FairnessReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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
            let count = |f: fn(&super::report::MechanismFairness) -> bool| {
                all.iter().filter(|m| f(m)).count()
            };
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

impl Render for super::report::ExpectedReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

impl Render for super::report::BestOrderReport {
    const TABLES: bool = true;

    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        Some(crate::table::Tabulate::tables(self))
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

impl Tabulate for super::report::SincereReport {
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

impl Tabulate for super::report::ManipulateReport {
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

impl Tabulate for super::report::FairnessReport {
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

impl Tabulate for super::report::ExpectedReport {
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

impl Tabulate for super::report::BestOrderReport {
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
