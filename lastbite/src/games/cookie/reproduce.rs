//! The paper's worked examples and its table of critical positions, recomputed.

use crate::engine::impartial::{Analyser, Outcome};
use crate::reproduce::{check, Check};

use super::model::{CookieGame, Position};
use super::theory::{critical, d_value};

/// The table of critical positions for n <= 9 (Section 1).
pub const CRITICAL: &str = include_str!("../../../data/published/cookie-critical.csv");

/// The count table of Section 5 (columns re-aligned, see the file's header).
pub const COUNTS: &str = include_str!("../../../data/published/cookie-counts.csv");

/// Recomputes the published cookie-game values.
pub fn checks() -> Vec<Check> {
    let mut out = Vec::new();
    let published: Vec<(usize, usize, u64)> = COUNTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('n'))
        .map(|l| {
            let f: Vec<u64> = l.split(',').map(|x| x.parse().expect("integer")).collect();
            (f[0] as usize, f[1] as usize, f[2])
        })
        .collect();
    let max_n = published.iter().map(|r| r.0).max().unwrap_or(0) as u64;
    let table = super::tables::count_table(max_n, &crate::engine::Silent);
    let wrong: Vec<String> = published
        .iter()
        .filter(|&&(n, d, c)| table[n].get(d).copied() != Some(c))
        .map(|&(n, d, c)| {
            format!(
                "n {n}, d {d}: published {c}, computed {:?}",
                table[n].get(d)
            )
        })
        .collect();
    out.push(check(
        "cookie.count_table",
        "Section 5, the number of strict n-component positions with D-value d (n <= 16)",
        "every printed entry (enumeration of all strict positions, D by critical positions)",
        format!("all {} entries agree", published.len()),
        wrong
            .first()
            .map_or(format!("all {} entries agree", published.len()), |w| {
                format!("{} differ, first: {w}", wrong.len())
            }),
    ));
    let rows: Vec<(u64, u64, String)> = CRITICAL
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('n'))
        .map(|l| {
            let mut f = l.split(',');
            let n = f.next().and_then(|x| x.parse().ok()).expect("n");
            let d = f.next().and_then(|x| x.parse().ok()).expect("d");
            (n, d, f.next().expect("critical").to_string())
        })
        .collect();
    let differing: Vec<String> = rows
        .iter()
        .filter_map(|(n, d, published)| {
            let computed = critical(*n, *d).map(|c| {
                c.components()
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            (computed.as_deref() != Some(published.as_str()))
                .then(|| format!("C^{{{n},{d}}}: published {published}, computed {computed:?}"))
        })
        .collect();
    let src = "Section 1, the table of critical positions, n <= 9";
    out.push(check(
        "cookie.critical_table",
        src,
        "every critical position C^{n,d} with n <= 9",
        format!("all {} rows agree", rows.len()),
        differing
            .first()
            .cloned()
            .map_or(format!("all {} rows agree", rows.len()), |f| {
                format!("{} differ, first: {f}", differing.len())
            }),
    ));
    let ex = "Section 1, the worked example A = (0,1,1,3,4,5,8,8)";
    let a: Position = "0 1 1 3 4 5 8 8".parse().expect("valid");
    out.push(check(
        "cookie.example.deletion",
        ex,
        "the deletion of A",
        "(1, 3, 4, 5, 8, 8)".into(),
        a.deletion().to_string(),
    ));
    out.push(check(
        "cookie.example.reduced",
        ex,
        "its depletion, a strict position",
        "(1, 3, 4, 5, 6, 6) strict".into(),
        format!(
            "{} {}",
            a.reduced(),
            if a.reduced().is_strict() {
                "strict"
            } else {
                "not strict"
            }
        ),
    ));
    let game = CookieGame;
    let mut an = Analyser::new(&game);
    let v = an.value(&a);
    out.push(check(
        "cookie.example.d",
        ex,
        "D(A) and the type (theory); the engine's brute force agrees",
        "D = 5, N".into(),
        format!(
            "D = {}, {}",
            d_value(&a).map_or("undefined".into(), |d| d.to_string()),
            if v.outcome == Outcome::N { "N" } else { "P" }
        ),
    ));
    let conc = "Section 5 (concluding remarks)";
    let v = an.value(&"2 3 4 4".parse().expect("valid"));
    out.push(check(
        "cookie.nim_2344",
        conc,
        "the nim-value of the strict position (2, 3, 4, 4)",
        "3".into(),
        v.grundy.to_string(),
    ));
    let v = an.value(&"2 2 4 4".parse().expect("valid"));
    out.push(check(
        "cookie.no_duration_2244",
        conc,
        "(2, 2, 4, 4) has no strategic duration: Lucy can force it to last 2 or 4 moves (remoteness, suspense)",
        "no duration; 2 or 4".into(),
        format!(
            "{}; {} or {}",
            v.duration.map_or("no duration".into(), |d| format!("duration {d}")),
            v.remoteness.min(v.suspense),
            v.remoteness.max(v.suspense)
        ),
    ));
    let pattern: Vec<String> = (1..=15u64)
        .map(|n| {
            let p = Position::new((1..=n).collect());
            let v = an.value(&p);
            if v.outcome == Outcome::P { "P" } else { "N" }.to_string()
        })
        .collect();
    let expected: Vec<String> = (1..=15u64)
        .map(|n| if n % 3 == 0 { "P" } else { "N" }.to_string())
        .collect();
    out.push(check(
        "cookie.staircase",
        "Concluding remarks: '(1, 2, ..., n) is a P-position precisely when n is a multiple of 3' (observed in [2])",
        "types of (1, 2, ..., n) for n = 1..15 (engine brute force)",
        expected.join(""),
        pattern.join(""),
    ));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn cookie_examples_reproduce() {
        for c in super::checks() {
            assert!(
                c.pass,
                "{}: published {} but computed {}",
                c.id, c.published, c.computed
            );
        }
    }
}
