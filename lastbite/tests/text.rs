//! The text renderer of every report, pinned by insta snapshots (`tests/snapshots/`).
//! The CLI prints exactly these texts; they equal the first release's tables.

use lastbite::api::{call_with, reproduce, Control, Render, ReportVisitor};

/// The text of a command's report on a request, through the API's dispatch by name.
fn text(command: &str, request: &str) -> String {
    struct Text;
    impl ReportVisitor for Text {
        type Output = String;
        fn visit<R: serde::Serialize + Render>(self, report: &R) -> String {
            report.to_text()
        }
    }
    call_with(command, request, &Control::silent(), Text)
        .unwrap_or_else(|e| panic!("{command} {request}: {e}"))
}

/// Every sample request marked `snapshot` in `examples/requests.json` (the one set of
/// sample requests the tests share), its text pinned under its name.
#[test]
fn every_sample_report_text() {
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../../examples/requests.json")).unwrap();
    let mut pinned = 0;
    for e in doc["requests"].as_array().unwrap() {
        if !e["uses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u == "snapshot")
        {
            continue;
        }
        let name = e["name"].as_str().unwrap();
        let text = text(e["command"].as_str().unwrap(), &e["request"].to_string());
        insta::assert_snapshot!(name, text);
        pinned += 1;
    }
    assert!(pinned >= 28, "only {pinned} snapshots");
}

/// `reproduce` runs once here (it recomputes every paper: half a minute): its summary
/// line, and every recorded long sweep cited by one of the answers it gives.
#[test]
fn reproduce_summary_line() {
    // The whole table is long and pinned by the CLI's golden JSON; its last line here.
    let r =
        reproduce::reproduce(&reproduce::ReproduceRequest::default(), &Control::silent()).unwrap();
    let text = r.to_text();
    insta::assert_snapshot!(text.lines().last().unwrap());
    // Every recorded result belongs to one of the answers this run gave.
    use lastbite::games::{cookie, dinner, subtraction};
    let ids: Vec<&str> = r.answers.iter().map(|a| a.answer.id.as_str()).collect();
    for rec in dinner::analysis::reproduce::RECORDED
        .iter()
        .chain(subtraction::reproduce::RECORDED)
        .chain(cookie::reproduce::RECORDED)
        .chain(dinner::picking::reproduce::RECORDED)
    {
        assert!(ids.contains(&rec.answer), "orphan: {}", rec.answer);
        assert!(rec.command.starts_with("lastbite "), "{}", rec.command);
    }
}
