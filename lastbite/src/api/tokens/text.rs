//! The `tokens` reports' text: one [`Render`] per report, a pure function of it.

use super::report::{SeatsReport, SolveReport};
use crate::api::input::Letter;
use crate::api::Render;
use std::io::{self, Write};

impl Render for SolveReport {
    fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            SolveReport::Discrete(r) => {
                writeln!(w, "{}, ties {}", r.title, r.tie_rule)?;
                for (i, (m, p)) in r.moves.iter().zip(&r.payoffs).enumerate() {
                    writeln!(w, "  {} places on stack {m:>3}  payoff {p}", Letter(i))?;
                }
                for t in &r.ties {
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
                    "{} stacks on a {}, {} players, tokens anywhere (grids of step 1 to 1/{})",
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
                Ok(())
            }
        }
    }
}

impl Render for SeatsReport {
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
