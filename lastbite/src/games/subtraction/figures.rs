//! The paper's figures: rulesets with discrepancies (Figures 1, 2, 3) and a heat map of
//! an outcome table's discrepancies.

use crate::engine::Progress;
use crate::par::prelude::*;

use crate::svg::{Chart, Heatmap, Mark, Series};

use super::analysis::{Analysis, Family};
use super::model::{Convention, Ruleset, SubtractionError};
use super::theory::Table;

const PALETTE: [&str; 5] = ["#2ca02c", "#9467bd", "#ff7f0e", "#1f77b4", "#d62728"];

/// The rulesets figures 1 (`size` 2) and 2 and 3 (`size` 3) test: every set of `size`
/// elements up to `max`, in the family's order.
pub fn figure_rulesets(size: usize, max: u64) -> Result<Vec<Ruleset>, SubtractionError> {
    Family::All { size, max }.rulesets()
}

/// Whether ruleset `s` is a point of its figure: it has an FvF/AvA discrepancy (`zero_sum`
/// false: figures 1 and 2) or an AvA/zero-sum one (figure 3), decided exactly.
pub fn figure_hit(
    s: &Ruleset,
    zero_sum: bool,
    limit: u64,
    stop: &dyn Progress,
) -> Result<bool, SubtractionError> {
    if stop.cancelled() {
        return Err(SubtractionError::Cancelled);
    }
    let a = Analysis::new_until(s, limit, stop)?;
    Ok(match zero_sum {
        true => a.first_zero_sum_discrepancy().is_some(),
        false => a
            .first_discrepancy(Convention::FvF, Convention::AvA)
            .is_some(),
    })
}

/// The points of a figure over [`figure_rulesets`]: each ruleset's elements where
/// [`figure_hit`], in order.
fn figure_points(
    size: usize,
    max: u64,
    zero_sum: bool,
    limit: u64,
    stop: &dyn Progress,
) -> Result<Vec<Vec<u64>>, SubtractionError> {
    let sets = figure_rulesets(size, max)?;
    let hits = sets
        .par_iter()
        .map(|s| Ok(figure_hit(s, zero_sum, limit, stop)?.then(|| s.elements().to_vec())))
        .collect::<Result<Vec<_>, SubtractionError>>()?;
    Ok(hits.into_iter().flatten().collect())
}

/// Figure 1: the pairs `(s2, s1)`, `s2 < s1 <= max`, with an FvF/AvA discrepancy (decided
/// exactly), coloured by `n mod 5`, `n = floor(s2 / (s1 - s2))` of Conjecture 12.
pub fn figure1(
    max: u64,
    limit: u64,
    stop: &dyn Progress,
) -> Result<(Chart, Vec<(u64, u64)>), SubtractionError> {
    let hits: Vec<(u64, u64)> = figure_points(2, max, false, limit, stop)?
        .into_iter()
        .map(|e| (e[0], e[1]))
        .collect();
    Ok((figure1_chart(max, &hits), hits))
}

/// Figure 1's chart of its points `hits`.
pub fn figure1_chart(max: u64, hits: &[(u64, u64)]) -> Chart {
    let mut series: Vec<Series> = (0..5)
        .map(|k| Series {
            name: format!("n = floor(s2/(s1-s2)) = {k} mod 5"),
            color: PALETTE[k].into(),
            mark: Mark::Dots(2.0),
            points: Vec::new(),
        })
        .collect();
    for &(s2, s1) in hits {
        let n = s2 / (s1 - s2);
        series[(n % 5) as usize].points.push((s2 as f64, s1 as f64));
    }
    Chart {
        title: format!("Pairs {{s2, s1}}, s1 <= {max}, with an FvF/AvA discrepancy (Figure 1)"),
        x_label: "s2".into(),
        y_label: "s1".into(),
        series,
    }
}

/// Figures 2 and 3: triples `s3 < s2 < s1 <= max` with an FvF/AvA discrepancy (`zero_sum`
/// false) or an AvA/zero-sum discrepancy (true), projected to `(s3/s1, s2/s1)`, so that the
/// half-lines through the origin the paper sees become points and its planes lines.
pub fn figure_triples(
    max: u64,
    zero_sum: bool,
    limit: u64,
    stop: &dyn Progress,
) -> Result<(Chart, Vec<[u64; 3]>), SubtractionError> {
    let hits: Vec<[u64; 3]> = figure_points(3, max, zero_sum, limit, stop)?
        .into_iter()
        .map(|e| [e[0], e[1], e[2]])
        .collect();
    Ok((triples_chart(max, zero_sum, &hits), hits))
}

/// Figure 2's (or with `zero_sum` figure 3's) chart of its points `hits`.
pub fn triples_chart(max: u64, zero_sum: bool, hits: &[[u64; 3]]) -> Chart {
    let what = if zero_sum { "AvA/zero-sum" } else { "FvF/AvA" };
    Chart {
        title: format!(
            "Triples s3 < s2 < s1 <= {max} with an {what} discrepancy (Figure {})",
            if zero_sum { 3 } else { 2 }
        ),
        x_label: "s3 / s1".into(),
        y_label: "s2 / s1".into(),
        series: vec![Series {
            name: format!("triples with an {what} discrepancy"),
            color: if zero_sum { "#d62728" } else { "#1f77b4" }.into(),
            mark: Mark::Dots(1.6),
            points: hits
                .iter()
                .map(|t| (t[0] as f64 / t[2] as f64, t[1] as f64 / t[2] as f64))
                .collect(),
        }],
    }
}

/// A heat map of an outcome table: for each deviation from FvF (FvA, AvF, AvA) and player,
/// the change of utility at every heap.
pub fn heatmap(table: &Table) -> Heatmap {
    let mut rows = Vec::new();
    let mut cells = Vec::new();
    for x in [Convention::FvA, Convention::AvF, Convention::AvA] {
        for (p, name) in [(0usize, "Alice"), (1, "Bob")] {
            rows.push(format!("{x} - FvF, {name}"));
            cells.push(
                (0..table.len())
                    .map(|h| {
                        let (a, b) = (table.outcome(x, h), table.outcome(Convention::FvF, h));
                        if p == 0 {
                            a.0 as i64 - b.0 as i64
                        } else {
                            a.1 as i64 - b.1 as i64
                        }
                    })
                    .collect(),
            );
        }
    }
    rows.push("AvA vs zero-sum".into());
    cells.push(
        (0..table.len())
            .map(|h| {
                let (a, b) = table.outcome(Convention::AvA, h);
                (a as i64 - b as i64) - table.zero_sum(h)
            })
            .collect(),
    );
    Heatmap {
        title: format!("Discrepancies of S = {} by heap", table.set()),
        x_label: "heap".into(),
        x_start: 0,
        rows,
        cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Silent;

    #[test]
    fn figure1_has_the_papers_example_and_no_dominant_pairs() {
        let (_, hits) = figure1(30, 1 << 20, &Silent).unwrap();
        assert!(hits.contains(&(3, 5)));
        // Proposition 10 / observation (1): no discrepancy with s1 >= 2 s2.
        assert!(hits.iter().all(|&(s2, s1)| s1 < 2 * s2));
    }

    #[test]
    fn heatmap_shows_table3s_deviation() {
        let t = Table::compute(&"4,5,9".parse().unwrap(), 99).unwrap();
        let h = heatmap(&t);
        // FvA - FvF for Bob at heap 61 is +1 (the Appendix).
        assert_eq!(h.cells[1][61], 1);
        assert!(h.to_svg().contains("FvA - FvF, Bob"));
    }
}
