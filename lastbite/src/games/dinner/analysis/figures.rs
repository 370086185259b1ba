//! The paper's figures, recomputed: the outcome plot (Figure 1) and crossout boards
//! (Figures 2, 4 and 5). Pure functions from a dinner to SVG text.

use std::fmt::Write;

use crate::engine::{reachable_payoffs, Budget, Fixed};
use crate::svg::{escape, Chart, Mark, Series};

use crate::games::dinner::analysis::pareto::split_scores;
use crate::games::dinner::model::{Dinner, DinnerError, Setup, TurnOrder};
use crate::games::dinner::solver::game::DinnerGame;
use crate::games::dinner::theory::crossout::crossout;
use crate::games::dinner::theory::strategies::Strategy;

/// The three layers of Figure 1, as exact score pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcomes {
    /// Every split the turn order allows (all strategy pairs), scaled.
    pub all: Vec<(i128, i128)>,
    /// The outcomes Alice can reach against Bob's crossout, `(s, c)`, scaled.
    pub against_crossout: Vec<(i128, i128)>,
    /// The crossout outcome `(c, c)`, scaled.
    pub crossout: (i128, i128),
}

/// Computes Figure 1's layers: the splits by enumeration, the `(s, c)` outcomes by the
/// engine over the game in which Bob is fixed to crossout.
pub fn outcomes(setup: &Setup, budget: Budget) -> Result<Outcomes, DinnerError> {
    let (d, order) = setup.plain_dinner("the outcome plot")?;
    if d.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers(
            "the outcome plot",
            d.players(),
        ));
    }
    if d.len() > 24 {
        return Err(DinnerError::Size {
            what: "the outcome plot",
            size: d.len(),
            unit: "split",
            min: 1,
            max: 24,
        });
    }
    let mut all = split_scores(setup)?;
    all.sort_unstable();
    all.dedup();
    let game = DinnerGame::<i128>::new(setup, false)?;
    let bob_crossout = Fixed::new(&game, &[1], |s: &u64, _| {
        Strategy::Crossout
            .choose(d, order, *s)
            .expect("two players")
    });
    let against_crossout = reachable_payoffs(&bob_crossout, budget)?
        .into_iter()
        .map(|v| (v[0], v[1]))
        .collect();
    let c = crossout(setup)?;
    Ok(Outcomes {
        all,
        against_crossout,
        crossout: (c.scores[0], c.scores[1]),
    })
}

/// Figure 1 as a chart: dark dots for all outcomes, light dots for `(s, c)`, a large dot
/// for the crossout outcome.
pub fn outcome_chart(d: &Dinner, o: &Outcomes) -> Chart {
    let real = |&(a, b): &(i128, i128)| {
        let (x, y) = (d.unscale(a), d.unscale(b));
        (x.to_f64(), y.to_f64())
    };
    Chart {
        title: format!("Outcomes of a dinner of {} morsels (Figure 1)", d.len()),
        x_label: "Alice's score".into(),
        y_label: "Bob's score".into(),
        series: vec![
            Series {
                name: "all strategy pairs".into(),
                color: "#555555".into(),
                mark: Mark::Dots(2.5),
                points: o.all.iter().map(real).collect(),
            },
            Series {
                name: "Alice's strategies against Bob's crossout (s, c)".into(),
                color: "#7fb3ff".into(),
                mark: Mark::Dots(3.5),
                points: o.against_crossout.iter().map(real).collect(),
            },
            Series {
                name: "crossout (c, c)".into(),
                color: "#d62728".into(),
                mark: Mark::Dots(8.0),
                points: vec![real(&o.crossout)],
            },
        ],
    }
}

/// What a crossout board shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardOptions {
    /// The name of the dinner in the panel title (`D`, or `D'` for a transformed one).
    pub name: &'static str,
    /// Label the order of play (A_i under Alice's i-th bite, B_j beside Bob's j-th bite,
    /// Figure 4) instead of the crossout sequence.
    pub play_order: bool,
    /// Draw the board of D - m next to D (Figure 2, right), `m` eaten on the first turn.
    pub removed: Option<usize>,
}

impl Default for BoardOptions {
    fn default() -> Self {
        BoardOptions {
            name: "D",
            play_order: false,
            removed: None,
        }
    }
}

/// The crossout board of a two-player dinner as SVG (Figures 2, 4 and 5).
///
/// Morsel `(a, b)` is a dot at `(a, b)`. Crossout step `k` crosses out the least
/// favourite morsel of the player who does not eat it; its label `k` goes on that
/// player's axis (below for Alice, left for Bob). The unlabelled positions on a player's
/// axis are the morsels she eats, and sum to her crossout score.
pub fn board_svg(setup: &Setup, opts: BoardOptions) -> Result<String, DinnerError> {
    let (d, order) = setup.plain_dinner("the crossout board")?;
    if d.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers(
            "the crossout board",
            d.players(),
        ));
    }
    let mut panels = vec![(setup.clone(), opts.name.to_string())];
    if let Some(m) = opts.removed {
        if m >= d.len() || d.len() < 2 {
            return Err(DinnerError::NotOnPlate(m));
        }
        let keep: Vec<usize> = (0..d.len()).filter(|&i| i != m).collect();
        let sub = Dinner::from_flat(
            2,
            keep.iter()
                .flat_map(|&i| [d.value(i, 0), d.value(i, 1)])
                .collect(),
            |i, p| format!("morsel {i}, utility of {}", crate::engine::player_letter(p)),
        )?;
        let spec: String = order.to_string()[1..].to_string();
        let sub_order = TurnOrder::parse(&spec, &sub)?;
        panels.push((
            Setup::ordered(sub, sub_order)?,
            format!("{} - m, m = {}", opts.name, d.morsel_text(m)),
        ));
    }
    let size = 340.0;
    let width = size * panels.len() as f64 + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">"#,
        size + 10.0
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (i, (panel_setup, title)) in panels.iter().enumerate() {
        panel(
            &mut s,
            panel_setup,
            title,
            10.0 + i as f64 * size,
            opts.play_order,
            size,
        )?;
    }
    s.push_str("</svg>\n");
    Ok(s)
}

fn panel(
    s: &mut String,
    setup: &Setup,
    title: &str,
    x_off: f64,
    play_order: bool,
    size: f64,
) -> Result<(), DinnerError> {
    let (d, order) = (setup.dinner(), setup.order());
    let c = crossout(setup)?;
    let val = |i: usize, p: usize| {
        let x = d.value(i, p);
        x.to_f64()
    };
    let range = |p: usize| {
        (0..d.len())
            .map(|i| val(i, p))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            })
    };
    let ((a0, a1), (b0, b1)) = (range(0), range(1));
    let (left, top, plot) = (x_off + 80.0, 40.0, size - 120.0);
    // Keep dots off the frame.
    let inset = 0.08 * plot;
    let inner = plot - 2.0 * inset;
    let sx = |a: f64| {
        left + inset
            + if a1 > a0 {
                (a - a0) / (a1 - a0) * inner
            } else {
                inner / 2.0
            }
    };
    let sy = |b: f64| {
        top + plot
            - inset
            - if b1 > b0 {
                (b - b0) / (b1 - b0) * inner
            } else {
                inner / 2.0
            }
    };
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="20" text-anchor="middle" font-size="13">{} (A {}, B {})</text>"#,
        left + plot / 2.0,
        escape(title),
        d.unscale(c.scores[0]),
        d.unscale(c.scores[1])
    );
    let _ = writeln!(
        s,
        r#"<rect x="{left:.1}" y="{top}" width="{plot:.1}" height="{plot:.1}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">a (Alice)</text>"#,
        left + plot / 2.0,
        top + plot + 66.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" transform="rotate(-90 {:.1} {:.1})">b (Bob)</text>"#,
        left - 66.0,
        top + plot / 2.0,
        left - 66.0,
        top + plot / 2.0
    );
    // Each morsel: a dot, guide lines, and its values on both axes (grey).
    for i in 0..d.len() {
        let (x, y) = (sx(val(i, 0)), sy(val(i, 1)));
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/>"##,
            top + plot
        );
        let _ = writeln!(
            s,
            r##"<line x1="{left:.1}" y1="{y:.1}" x2="{x:.1}" y2="{y:.1}" stroke="#ddd"/>"##
        );
        let _ = writeln!(
            s,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="#222"/>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#888" font-size="9">{}</text>"##,
            top + plot + 12.0,
            d.value(i, 0)
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#888" font-size="9">{}</text>"##,
            left - 4.0,
            y + 3.0,
            d.value(i, 1)
        );
    }
    // Labels: crossout step k on the axis of the player whose least favourite it crosses
    // out (or, with `play_order`, A_i / B_j on the eater's axis); a dash marks a position
    // on a player's axis that is not labelled, as in the paper.
    let n = d.len();
    let mut labelled = [vec![false; n], vec![false; n]];
    // Morsels with equal utilities share a position on an axis: stack their labels.
    let mut used: std::collections::HashMap<(usize, i64), usize> = std::collections::HashMap::new();
    let mut slot = |axis: usize, pos: f64| -> f64 {
        let k = used.entry((axis, (pos * 10.0).round() as i64)).or_insert(0);
        *k += 1;
        (*k - 1) as f64
    };
    for (k, m) in c.sequence().enumerate() {
        let turn = n - 1 - k;
        let eater = order.player(turn);
        let (axis, text) = if play_order {
            let name = if eater == 0 { "A" } else { "B" };
            (eater, format!("{name}{}", turns_index(order, turn, eater)))
        } else {
            (1 - eater, (k + 1).to_string())
        };
        labelled[axis][m] = true;
        let (x, y) = (sx(val(m, 0)), sy(val(m, 1)));
        let k = slot(axis, if axis == 0 { x } else { y });
        label(s, axis, &text, x, y, left, top + plot, k);
    }
    for (axis, marks) in labelled.iter().enumerate() {
        for (m, &done) in marks.iter().enumerate() {
            if !done {
                let (x, y) = (sx(val(m, 0)), sy(val(m, 1)));
                let k = slot(axis, if axis == 0 { x } else { y });
                label(s, axis, "\u{2013}", x, y, left, top + plot, k);
            }
        }
    }
    Ok(())
}

/// A label on Alice's axis (0, below) or Bob's (1, left); `stack` counts the labels
/// already placed at this position, so labels of equal utilities do not overlap.
#[allow(clippy::too_many_arguments)]
fn label(
    s: &mut String,
    axis: usize,
    text: &str,
    x: f64,
    y: f64,
    left: f64,
    bottom: f64,
    stack: f64,
) {
    if axis == 0 {
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#1f4e99">{text}</text>"##,
            bottom + 27.0 + 12.0 * stack
        );
    } else {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#a33">{text}</text>"##,
            left - 30.0 - 16.0 * stack,
            y + 4.0
        );
    }
}

/// Which of `player`'s turns `turn` is (from 1).
fn turns_index(order: &TurnOrder, turn: usize, player: usize) -> usize {
    order.turns()[..=turn]
        .iter()
        .filter(|&&p| p as usize == player)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Theorem 1 in the picture: crossout is rightmost among the (s, c) outcomes, and
    /// every (s, c) outcome is an outcome of some strategy pair.
    #[test]
    fn figure1_layers_are_consistent() {
        let d = Dinner::from_morsels(
            "1,6 2,14 3,10 4,3 5,7 6,5 7,9 8,8 9,4 10,13 11,12 12,11 13,2 14,1",
        )
        .unwrap();
        let order = TurnOrder::default_for(&d);
        let o = outcomes(
            &Setup::ordered(d.clone(), order.clone()).unwrap(),
            Budget::default(),
        )
        .unwrap();
        assert!(o.against_crossout.contains(&o.crossout));
        assert!(o.against_crossout.iter().all(|p| o.all.contains(p)));
        assert!(o.against_crossout.iter().all(|&(a, _)| a <= o.crossout.0));
        assert!(o.all.len() <= 3432);
        let svg = outcome_chart(&d, &o).to_svg(640.0, 520.0);
        assert!(svg.contains("crossout (c, c) (1 point)"));
    }

    #[test]
    fn board_labels_every_step_once() {
        let d = Dinner::from_morsels("1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7").unwrap();
        let setup = Setup::plain(d).unwrap();
        let svg = board_svg(&setup, BoardOptions::default()).unwrap();
        for k in 1..=8 {
            assert!(svg.contains(&format!(">{k}</text>")), "label {k}");
        }
        assert!(svg.contains("(A 23, B 22)"));
        let two = board_svg(
            &setup,
            BoardOptions {
                play_order: true,
                removed: Some(5),
                ..BoardOptions::default()
            },
        )
        .unwrap();
        assert!(two.contains(">A1</text>") && two.contains(">B4</text>") && two.contains("D - m"));
    }
}
