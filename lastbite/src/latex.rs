//! LaTeX, the one exporter of [`Table`]s to papers: a `booktabs` `tabular` in a `table`
//! float (a `longtable` past [`LONG_TABLE_ROWS`] rows), to `\input` into a document
//! ([`table`]), or a whole compilable document ([`standalone`]).
//!
//! Numbers are exact and in math mode: integers with thin spaces between groups of three
//! digits from five digits on (`$12\,345$`, as the papers typeset them), fractions as
//! `\frac`, a real minus sign. Text is escaped character by character ([`escape`]), so a
//! caption or a label from a user cannot inject a command.

use std::fmt::Write;

use crate::rational::Rational;
use crate::table::{Align, Cell, Table};

/// Text with every LaTeX special character written as itself, control characters and
/// line breaks as spaces.
///
/// ```
/// use lastbite::latex::escape;
/// assert_eq!(escape(r"50% of $x_1 & {y}"), r"50\% of \$x\_1 \& \{y\}");
/// assert_eq!(escape(r"\input{/etc/passwd}"), r"\textbackslash{}input\{/etc/passwd\}");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str(r"\textasciicircum{}"),
            '~' => out.push_str(r"\textasciitilde{}"),
            '<' => out.push_str(r"\textless{}"),
            '>' => out.push_str(r"\textgreater{}"),
            '|' => out.push_str(r"\textbar{}"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A number in math mode: `$-12\,345$`, `$\frac{25}{2}$`.
///
/// ```
/// use lastbite::latex::number;
/// use lastbite::rational::Rational;
/// let r = |s: &str| Rational::from_exact(s.parse().unwrap());
/// assert_eq!(number(&r("1234")), "$1234$");
/// assert_eq!(number(&r("-1234567")), r"$-1\,234\,567$");
/// assert_eq!(number(&r("-25/2")), r"$-\frac{25}{2}$");
/// ```
pub fn number(x: &Rational) -> String {
    format!("${}$", math(x))
}

/// A number's math-mode body (no dollars).
fn math(x: &Rational) -> String {
    let text = x.to_string();
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    match body.split_once('/') {
        Some((n, d)) => format!(r"{sign}\frac{{{}}}{{{}}}", group(n), group(d)),
        None => format!("{sign}{}", group(body)),
    }
}

/// Digits grouped by threes with thin spaces, from five digits on.
fn group(digits: &str) -> String {
    if digits.len() < 5 {
        return digits.to_string();
    }
    let mut out = String::with_capacity(digits.len() * 2);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(r"\,");
        }
        out.push(c);
    }
    out
}

/// A cell's LaTeX.
fn cell(c: &Cell) -> String {
    match c {
        Cell::Empty => String::new(),
        Cell::Text(t) => escape(t),
        Cell::Number(x) => number(x),
        Cell::Tuple(xs) => format!("$({})$", xs.iter().map(math).collect::<Vec<_>>().join(", ")),
        Cell::List(xs) => format!("${}$", xs.iter().map(math).collect::<Vec<_>>().join(", ")),
        Cell::Joined(cs) => cs.iter().map(cell).collect::<Vec<_>>().join(", "),
    }
}

/// Tables longer than this many rows are written as a `longtable`, which breaks across
/// pages (a float cannot), repeating its header on each.
pub const LONG_TABLE_ROWS: usize = 50;

/// The table as a `table` float holding a `booktabs` `tabular`, ready for `\input` (the
/// document needs `\usepackage{booktabs}`); past [`LONG_TABLE_ROWS`] rows, a
/// `longtable` (it needs `\usepackage{longtable}` too).
///
/// ```
/// use lastbite::latex;
/// use lastbite::table::{Align, Cell, Column, Table};
/// let mut t = Table::new("Squares", vec![Column::new("n", Align::Right), Column::new("n^2", Align::Right)]);
/// t.push(vec![Cell::number(300), Cell::number(90_000)]);
/// let tex = latex::table(&t);
/// assert!(tex.contains(r"$300$ & $90\,000$ \\"));
/// assert!(tex.contains(r"\caption{Squares}"));
/// ```
pub fn table(t: &Table) -> String {
    let mut s = String::with_capacity(64 * (t.rows.len() + 8) * t.columns.len().max(1));
    let spec: String = t
        .columns
        .iter()
        .map(|c| match c.align {
            Align::Left => "l",
            Align::Right => "r",
            Align::Center => "c",
            Align::Wrap => r"p{0.6\linewidth}",
        })
        .collect();
    let long = t.rows.len() > LONG_TABLE_ROWS;
    let head = header(t);
    let mid = if head.is_empty() {
        ""
    } else {
        "    \\midrule\n"
    };
    // Writing to a String cannot fail.
    if long {
        let _ = writeln!(s, "\\begin{{longtable}}{{{spec}}}");
        let _ = writeln!(s, "  \\caption{{{}}} \\\\", escape(&t.caption));
        let _ = write!(s, "    \\toprule\n{head}{mid}    \\endfirsthead\n");
        let _ = write!(s, "    \\toprule\n{head}{mid}    \\endhead\n");
        let _ = writeln!(s, "    \\bottomrule\n    \\endfoot");
    } else {
        let _ = writeln!(s, "\\begin{{table}}[htbp]\n  \\centering");
        let _ = writeln!(s, "  \\caption{{{}}}", escape(&t.caption));
        let _ = write!(
            s,
            "  \\begin{{tabular}}{{{spec}}}\n    \\toprule\n{head}{mid}"
        );
    }
    for row in &t.rows {
        s.push_str("    ");
        for (i, c) in row.iter().enumerate() {
            if i > 0 {
                s.push_str(" & ");
            }
            s.push_str(&cell(c));
        }
        s.push_str(" \\\\\n");
    }
    if long {
        let _ = writeln!(s, "\\end{{longtable}}");
        if let Some(note) = &t.note {
            let _ = writeln!(s, "{{\\footnotesize {}\\par}}", escape(note));
        }
        return s;
    }
    let _ = writeln!(s, "    \\bottomrule\n  \\end{{tabular}}");
    if let Some(note) = &t.note {
        let _ = writeln!(s, "  \\par\\smallskip\\footnotesize {}", escape(note));
    }
    let _ = writeln!(s, "\\end{{table}}");
    s
}

/// The header rows: the groups (with their rules) and the column headers.
fn header(t: &Table) -> String {
    let mut s = String::new();
    if !t.groups.is_empty() {
        let mut heads = Vec::new();
        let mut rules = Vec::new();
        let mut at = 1;
        for g in &t.groups {
            if g.title.is_empty() || g.span == 0 {
                heads.extend(std::iter::repeat_n(String::new(), g.span));
            } else {
                heads.push(format!(
                    "\\multicolumn{{{}}}{{c}}{{{}}}",
                    g.span,
                    escape(&g.title)
                ));
                rules.push(format!("\\cmidrule(lr){{{}-{}}}", at, at + g.span - 1));
            }
            at += g.span;
        }
        let _ = writeln!(s, "    {} \\\\", heads.join(" & "));
        if !rules.is_empty() {
            let _ = writeln!(s, "    {}", rules.join(" "));
        }
    }
    let headers: Vec<String> = t
        .columns
        .iter()
        .map(|c| match c.symbol {
            Some(sym) => format!("${sym}$"),
            None => escape(&c.header),
        })
        .collect();
    // A table of labelled lines has no header row.
    if t.groups.is_empty() && headers.iter().all(String::is_empty) {
        return s;
    }
    let _ = writeln!(s, "    {} \\\\", headers.join(" & "));
    s
}

/// Tables or pictures in a document that `pdflatex` compiles on its own.
///
/// ```
/// let doc = lastbite::latex::standalone("Hello");
/// assert!(doc.starts_with(r"\documentclass"));
/// assert!(doc.trim_end().ends_with(r"\end{document}"));
/// ```
pub fn standalone(body: &str) -> String {
    format!(
        "\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage[utf8]{{inputenc}}\n\\usepackage{{booktabs}}\n\\usepackage{{longtable}}\n\\usepackage[margin=1.5cm]{{geometry}}\n\\begin{{document}}\n{body}\\end{{document}}\n"
    )
}

/// All of a report's tables, one after another, as [`table`] writes each.
pub fn tables(ts: &[Table]) -> String {
    ts.iter().map(table).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Column, Group};

    #[test]
    fn groups_span_their_columns_and_rules_sit_under_titled_ones() {
        let mut t = Table::new(
            "t",
            vec![
                Column::new("heap", Align::Right),
                Column::new("A", Align::Left),
                Column::symbol("da", r"\delta_\alpha", Align::Right),
            ],
        );
        t.groups = vec![
            Group {
                title: String::new(),
                span: 1,
            },
            Group {
                title: "FvA".into(),
                span: 2,
            },
        ];
        t.push(vec![
            Cell::number(7),
            Cell::Joined(vec![Cell::tuple(&[14u64, 3]), Cell::list(&[3u64, 11])]),
            Cell::number(-1),
        ]);
        let tex = table(&t);
        assert!(tex.contains(r" & \multicolumn{2}{c}{FvA} \\"), "{tex}");
        assert!(tex.contains(r"\cmidrule(lr){2-3}"), "{tex}");
        assert!(tex.contains(r"heap & A & $\delta_\alpha$ \\"), "{tex}");
        assert!(tex.contains(r"$7$ & $(14, 3)$, $3, 11$ & $-1$ \\"), "{tex}");
    }

    #[test]
    fn hostile_text_stays_text() {
        let mut t = Table::new(
            r"}\end{table}\input{x}",
            vec![Column::new("$\\evil", Align::Left)],
        );
        t.push(vec![Cell::Text("a\nb\\c{d}%e".into())]);
        let tex = table(&t);
        // No backslash of the input survives as one: each is \textbackslash{}.
        assert!(!tex.contains(r"\end{table}\input"), "{tex}");
        assert!(tex.contains(r"\caption{\}\textbackslash{}end\{table\}\textbackslash{}input\{x\}}"));
        assert!(tex.contains(r"\$\textbackslash{}evil \\"));
        assert!(tex.contains(r"a b\textbackslash{}c\{d\}\%e \\"));
    }

    #[test]
    fn long_tables_break_across_pages_with_their_header_on_each() {
        let mut t = Table::new("long", vec![Column::new("n", Align::Right)]);
        for n in 0..=LONG_TABLE_ROWS as u64 {
            t.push(vec![Cell::number(n)]);
        }
        let tex = table(&t);
        assert!(tex.starts_with(r"\begin{longtable}{r}"), "{tex}");
        assert_eq!(tex.matches("n \\\\\n").count(), 2, "{tex}");
        assert!(tex.contains(r"\endfirsthead") && tex.contains(r"\endhead"));
        assert_eq!(tex.matches(" \\\\\n").count(), 2 + LONG_TABLE_ROWS + 1 + 1);
        t.rows.pop();
        assert!(table(&t).starts_with(r"\begin{table}"));
    }

    #[test]
    fn big_numbers_are_grouped_and_exact() {
        let r = |s: &str| Rational::from_exact(s.parse().unwrap());
        assert_eq!(number(&r("12345")), r"$12\,345$");
        assert_eq!(number(&r("123456")), r"$123\,456$");
        assert_eq!(number(&r("0")), "$0$");
        assert_eq!(number(&r("10000/3")), r"$\frac{10\,000}{3}$");
        let big = Rational::from_big(num_rational::BigRational::from_integer(
            num_bigint::BigInt::from(10).pow(40),
        ));
        assert_eq!(number(&big).matches(r"\,").count(), 13);
    }
}
