//! Requests every endpoint answers, shared by the router tests and the load test.

#![allow(dead_code)]

pub mod http;

/// A cheap valid request for each command (`family-command`), as JSON: the entries of the
/// shared sample requests (`examples/requests.json`) used by the server's tests.
pub fn samples() -> Vec<(&'static str, String)> {
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../../../examples/requests.json")).unwrap();
    doc["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["uses"].as_array().unwrap().iter().any(|u| u == "server"))
        .map(|e| {
            let command = e["command"].as_str().unwrap();
            let name = lastbite::api::COMMANDS
                .iter()
                .find(|c| **c == command)
                .unwrap_or_else(|| panic!("{command} is not a command"));
            (*name, e["request"].to_string())
        })
        .collect()
}
