//! User text inside messages: every error is one line, so text a user typed (which may
//! hold newlines, tabs or NULs) is shown escaped.

/// At most this many characters of a value are quoted in a message: a 10 MB number gives
/// a line, not 10 MB (the length is told instead of the rest).
pub const QUOTED_CHARS: usize = 80;

/// `text` in single quotes with control characters, quotes and backslashes escaped; past
/// [`QUOTED_CHARS`] characters, its start and its length.
///
/// ```
/// assert_eq!(lastbite::text::quote("a\nb"), "'a\\nb'");
/// let long = "9".repeat(1000);
/// assert_eq!(lastbite::text::quote(&long), format!("'{}...' (1000 characters)", &long[..80]));
/// ```
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("'{}'", text.escape_debug()),
        Some((cut, _)) => format!(
            "'{}...' ({} characters)",
            text[..cut].escape_debug(),
            text.chars().count()
        ),
    }
}

/// User text quoted for a one-line message: control characters (newlines included) and
/// quotes escaped, long text shortened in the middle.
///
/// ```
/// assert_eq!(lastbite::api::escape("a\nb"), "'a\\nb'");
/// ```
pub fn escape(text: &str) -> String {
    let esc = quote(text);
    let esc = &esc[1..esc.len() - 1];
    if esc.chars().count() > 80 {
        let head: String = esc.chars().take(60).collect();
        let tail: String = esc
            .chars()
            .rev()
            .take(12)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("'{head}...{tail}' ({} characters)", text.chars().count())
    } else {
        format!("'{esc}'")
    }
}

/// `text` with control characters escaped (`\n`, `\u{0}`) and everything else as is:
/// for locations and messages that embed user text.
///
/// ```
/// assert_eq!(lastbite::text::clean("line 1\nline 2"), "line 1\\nline 2");
/// assert_eq!(lastbite::text::clean("café 'x'"), "café 'x'");
/// ```
pub fn clean(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `n` and the noun, singular for one: "1 payoff", "2 payoffs" (the noun's plural takes
/// an `s`).
///
/// ```
/// assert_eq!(lastbite::text::count(1, "payoff"), "1 payoff");
/// assert_eq!(lastbite::text::count(3, "player"), "3 players");
/// ```
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
