//! User text inside messages: every error is one line, so text a user typed (which may
//! hold newlines, tabs or NULs) is shown escaped.

/// `text` in single quotes with control characters, quotes and backslashes escaped.
///
/// ```
/// assert_eq!(lastbite::text::quote("a\nb"), "'a\\nb'");
/// ```
pub fn quote(text: &str) -> String {
    format!("'{}'", text.escape_debug())
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
