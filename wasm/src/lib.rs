//! lastbite in a browser tab: the library's [`lastbite::api::call`] compiled to
//! WebAssembly for the static explorer (`scripts/site`). The page's worker
//! (`web/assets/worker.js`) calls it through three plain exports, with no generated glue:
//! it allocates two buffers ([`lastbite_alloc`]), writes a command name and a request's
//! JSON into them, and calls [`lastbite_call`], which takes both buffers and answers one
//! buffer: a 4-byte status (0: the report, 1: a bad request, 2: over the page's budget),
//! a 4-byte length, then that many bytes of UTF-8 (the report's JSON or a one-line
//! message). The worker frees it with [`lastbite_free`]. The command `schema` answers the
//! same endpoint list as the server's `GET /api/schema`; `estimate:<command>` answers the
//! request's cost as the server's `?estimate` does.
//!
//! Requests are admitted as the server admits them ([`lastbite::api::serving`]): no
//! files, budgets capped by [`CAPS`], sized for a browser tab.

use lastbite::api::{self, serving, Control};
use std::sync::OnceLock;

/// The page's budgets: a tab has one 32-bit address space (4 GiB at most).
pub const CAPS: serving::Caps = serving::Caps {
    max_states: 10_000_000,
    max_memory_gib: 1,
    max_seconds: 30,
};

/// Runs `command` on a request's JSON as the page's worker does: the status (0 the
/// report, 1 a bad request, 2 over the page's budget) and the text.
pub fn run(command: &str, request: &[u8]) -> (u32, String) {
    static FIELDS: OnceLock<Vec<(&'static str, serving::RequestFields)>> = OnceLock::new();
    static SCHEMA: OnceLock<String> = OnceLock::new();
    if command == "schema" {
        return (0, SCHEMA.get_or_init(serving::schema_document).clone());
    }
    // `estimate:<command>`: the cost of the request under the page's budgets, not run.
    let (command, estimate) = match command.strip_prefix("estimate:") {
        Some(c) => (c, true),
        None => (command, false),
    };
    let fields = FIELDS.get_or_init(serving::request_fields);
    let Some((name, fields)) = fields.iter().find(|(c, _)| *c == command) else {
        return (1, format!("no such command: {}", api::escape(command)));
    };
    let body = match serving::admit(fields, request, &CAPS, "this page") {
        Ok(b) => b,
        Err(serving::Refusal::BadRequest(m)) => return (1, m),
        Err(serving::Refusal::OverBudget(m)) => return (2, m),
    };
    let answer = match estimate {
        true => api::estimate(name, &body)
            .map(|e| serde_json::to_string(&e).expect("an estimate is JSON")),
        false => api::call(name, &body, &Control::silent()),
    };
    match answer {
        Ok(report) => (0, report),
        Err(e) => {
            let status = if e.kind() == api::ErrorKind::OverBudget {
                2
            } else {
                1
            };
            let text = serving::message(&e, &body, fields, &CAPS, "this page");
            (status, text.replace(['\n', '\r'], " "))
        }
    }
}

/// A buffer of `len` bytes for the caller to fill (freed by [`lastbite_call`] or
/// [`lastbite_free`]).
#[no_mangle]
pub extern "C" fn lastbite_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Frees a buffer of `len` bytes from [`lastbite_alloc`] or [`lastbite_call`].
///
/// # Safety
/// `ptr` and `len` must be a buffer this module handed out, not freed before.
#[no_mangle]
pub unsafe extern "C" fn lastbite_free(ptr: *mut u8, len: usize) {
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)));
}

/// Runs a command: takes (and frees) the name's and the request's buffers; answers a
/// buffer of 8 + n bytes (status, n, the text), freed by the caller.
///
/// # Safety
/// Both buffers must come from [`lastbite_alloc`] with these lengths.
#[no_mangle]
pub unsafe extern "C" fn lastbite_call(
    name: *mut u8,
    name_len: usize,
    request: *mut u8,
    request_len: usize,
) -> *mut u8 {
    let name = Box::from_raw(std::ptr::slice_from_raw_parts_mut(name, name_len));
    let request = Box::from_raw(std::ptr::slice_from_raw_parts_mut(request, request_len));
    let (status, text) = run(&String::from_utf8_lossy(&name), &request);
    let mut out = Vec::with_capacity(8 + text.len());
    out.extend_from_slice(&status.to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    Box::into_raw(out.into_boxed_slice()).cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module answers what the library answers, admits as the server does, and
    /// lists the same endpoints.
    #[test]
    fn answers_the_librarys_report() {
        let req = br#"{"morsels": "1,2 2,3 3,1", "order": "ABA"}"#;
        let (status, text) = run("dinner-solve", req);
        let want = api::call(
            "dinner-solve",
            std::str::from_utf8(req).unwrap(),
            &Control::silent(),
        )
        .unwrap();
        assert_eq!((status, text), (0, want));
        let (status, text) = run("subtraction-period", br#"{"set": "<img src=x>"}"#);
        assert_eq!(status, 1);
        assert!(
            text.contains("not a positive integer") && !text.contains('\n'),
            "{text}"
        );
        assert_eq!(run("dinner-solve", br#"{"file": "/etc/passwd"}"#).0, 1);
        assert_eq!(
            run(
                "dinner-solve",
                br#"{"morsels": "1,2", "max_states": 99999999999}"#
            )
            .0,
            2
        );
        assert_eq!(run("nope", b"{}").0, 1);
        assert_eq!(run("schema", b"").1, serving::schema_document());
    }

    /// The raw exports round-trip through buffers as the worker uses them.
    #[test]
    fn the_exports_round_trip() {
        let put = |s: &[u8]| {
            let p = lastbite_alloc(s.len());
            unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len()) };
            p
        };
        let (name, req) = (
            b"subtraction-outcome".as_slice(),
            br#"{"set":"1,2","heap":"5"}"#.as_slice(),
        );
        let out = unsafe { lastbite_call(put(name), name.len(), put(req), req.len()) };
        let head = unsafe { std::slice::from_raw_parts(out, 8) };
        let status = u32::from_le_bytes(head[..4].try_into().unwrap());
        let len = u32::from_le_bytes(head[4..].try_into().unwrap()) as usize;
        let text = unsafe {
            std::str::from_utf8(std::slice::from_raw_parts(out.add(8), len))
                .unwrap()
                .to_string()
        };
        unsafe { lastbite_free(out, 8 + len) };
        assert_eq!(status, 0, "{text}");
        assert!(text.contains("\"heap\""), "{text}");
    }
}
