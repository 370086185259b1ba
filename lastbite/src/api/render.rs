//! What a report can be turned into, whatever its type: its text ([`Render`]), its
//! picture ([`Picture`]), or anything a front end makes of it ([`ReportVisitor`]). Pure
//! functions of reports; nothing here knows a command or a family.

use std::io;

/// The human-readable text of a report: the CLI's default output. One renderer per
/// report, a pure function of it.
pub trait Render {
    /// Whether every report of this type has tables ([`Render::as_tables`] gives them):
    /// a front end offers the table formats (the CLI's `--latex`) by this, before it runs.
    const TABLES: bool = false;

    /// Whether a report of this type can carry a picture ([`Render::as_svg`]): a front end
    /// offers the picture formats (the CLI's `--svg`, `--png`, `--tikz`) by this.
    const PICTURE: bool = false;

    /// Whether reports of this type have a CSV form ([`Render::write_csv`]).
    const CSV: bool = false;

    /// Writes the report as CSV, where it has that form ([`Render::CSV`]).
    fn write_csv(&self, w: &mut dyn io::Write) -> io::Result<()> {
        let _ = w;
        Err(io::Error::other("this report has no CSV form"))
    }

    /// Writes the text.
    fn write_text(&self, w: &mut dyn io::Write) -> io::Result<()>;

    /// The text as a string (for tests and notebooks).
    fn to_text(&self) -> String {
        let mut buf = Vec::new();
        self.write_text(&mut buf).expect("writing to memory");
        String::from_utf8(buf).expect("renderers write UTF-8")
    }

    /// The report's tables, when it is a table ([`crate::table::Tabulate`]): what the
    /// table formats of [`Format`] write. `None`, the default, for other reports.
    fn as_tables(&self) -> Option<Vec<crate::table::Table>> {
        None
    }

    /// The report's picture (an SVG document), when it drew one: what the picture
    /// formats of [`Format`] write. `None`, the default, for other reports.
    fn as_svg(&self) -> Option<&str> {
        None
    }
}

/// What a report can be exported as, by [`super::export`]: the front ends' one way to
/// the library's exporters (the CLI's `--latex` and `--tikz`, the web API's `?format=`,
/// Python's `format=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The JSON report (what [`super::call`] returns).
    Json,
    /// The human-readable text.
    Text,
    /// The tables as LaTeX floats, for `\input` ([`crate::latex::tables`]).
    Latex,
    /// The tables in a document pdflatex compiles.
    LatexStandalone,
    /// The picture as SVG.
    Svg,
    /// The picture as a TikZ picture, for `\input` ([`crate::tikz::from_svg`]).
    Tikz,
    /// The picture in a document pdflatex compiles.
    TikzStandalone,
}

impl Format {
    /// Every format, by name.
    pub const ALL: [(&'static str, Format); 7] = [
        ("json", Format::Json),
        ("text", Format::Text),
        ("latex", Format::Latex),
        ("latex-standalone", Format::LatexStandalone),
        ("svg", Format::Svg),
        ("tikz", Format::Tikz),
        ("tikz-standalone", Format::TikzStandalone),
    ];

    /// The format of a name (`latex`, `tikz-standalone`, ...).
    pub fn parse(name: &str) -> Result<Format, super::Error> {
        Format::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|&(_, f)| f)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|(n, _)| *n).collect();
                super::Error::invalid(
                    "format",
                    name,
                    format!("expected one of {}", names.join(", ")),
                )
            })
    }

    /// Whether the format writes the report's picture (the request must draw one).
    pub fn is_picture(self) -> bool {
        matches!(self, Format::Svg | Format::Tikz | Format::TikzStandalone)
    }
}

/// The report written in a [`Format`].
pub(crate) struct Export(pub(crate) Format);

impl ReportVisitor for Export {
    type Output = Result<String, super::Error>;
    fn visit<R: serde::Serialize + Render>(self, report: &R) -> Self::Output {
        let no = |what: &str| {
            super::Error::combination("format", format!("this command's report has no {what}"))
        };
        let svg = || {
            report
                .as_svg()
                .filter(|_| R::PICTURE)
                .ok_or_else(|| no("picture"))
        };
        let tables = || {
            report
                .as_tables()
                .filter(|_| R::TABLES)
                .ok_or_else(|| no("table"))
        };
        let tikz = |svg: &str| {
            crate::tikz::from_svg(svg)
                .map_err(|e| super::Error::combination("format", e.to_string()))
        };
        Ok(match self.0 {
            Format::Json => serde_json::to_string(report).expect("reports serialise"),
            Format::Text => report.to_text(),
            Format::Latex => crate::latex::tables(&tables()?),
            Format::LatexStandalone => crate::latex::standalone(&crate::latex::tables(&tables()?)),
            Format::Svg => svg()?.to_string(),
            Format::Tikz => tikz(svg()?)?,
            Format::TikzStandalone => crate::tikz::standalone(&tikz(svg()?)?),
        })
    }
}

/// A picture a report can be drawn as (SVG text).
pub trait Picture {
    /// The SVG document.
    fn svg(&self) -> &str;
}

/// What a front end makes of a command's report, whatever its type: [`super::call_with`] hands
/// the typed report to it (to be serialised some other way than JSON text, for example
/// into columns of numbers).
pub trait ReportVisitor {
    /// What the front end makes of it.
    type Output;
    /// Takes the report.
    fn visit<R: serde::Serialize + Render>(self, report: &R) -> Self::Output;
}

/// The report as a JSON document (what [`super::call`] returns).
pub(crate) struct ToJson;

impl ReportVisitor for ToJson {
    type Output = String;
    fn visit<R: serde::Serialize + Render>(self, report: &R) -> String {
        serde_json::to_string(report).expect("reports serialise")
    }
}
