//! What a report can be turned into, whatever its type: its text ([`Render`]), its
//! picture ([`Picture`]), or anything a front end makes of it ([`ReportVisitor`]). Pure
//! functions of reports; nothing here knows a command or a family.

use std::io;

/// The human-readable text of a report: the CLI's default output. One renderer per
/// report, a pure function of it.
pub trait Render {
    /// Writes the text.
    fn write_text(&self, w: &mut dyn io::Write) -> io::Result<()>;

    /// The text as a string (for tests and notebooks).
    fn to_text(&self) -> String {
        let mut buf = Vec::new();
        self.write_text(&mut buf).expect("writing to memory");
        String::from_utf8(buf).expect("renderers write UTF-8")
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
