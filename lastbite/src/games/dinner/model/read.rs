//! The dinner file readers: CSV (with a fast path for all-integer files), JSON and TOML,
//! sniffed by extension or content; every error names the file, row and field.

use crate::exact::Exact;

use super::{Dinner, DinnerError};

impl Dinner {
    /// Parses a dinner file's text, CSV, JSON or TOML: by the extension when given
    /// (`csv`, `json`, `toml`), else by the content (`[` or `{` opens JSON, a `morsels`
    /// key TOML, anything else is CSV). Returns the dinner and the order the file names.
    pub fn from_file_text(
        text: &str,
        name: &str,
        extension: Option<&str>,
    ) -> Result<(Dinner, Option<String>), DinnerError> {
        let trimmed = text.trim_start();
        let ext = extension.unwrap_or("");
        let unknown = !matches!(ext, "csv" | "json" | "toml");
        if ext == "json" || (unknown && (trimmed.starts_with('[') || trimmed.starts_with('{'))) {
            Dinner::from_json(text, name)
        } else if ext == "toml" || (unknown && trimmed.starts_with("morsels")) {
            Dinner::from_toml(text, name)
        } else {
            Ok((Dinner::from_csv(text, name)?, None))
        }
    }

    /// Parses CSV text: one morsel per line, one column per player, an optional header
    /// line (recognised by a first field that is a word: it starts with a letter and is
    /// not `nan` or `inf`; a number in a form lastbite does not read, `1e5` or `0x10`, is a
    /// row and its error), blank lines and lines starting with `#` ignored.
    pub fn from_csv(text: &str, name: &str) -> Result<Dinner, DinnerError> {
        if let Some(fast) = csv_integers(text, name) {
            return fast;
        }
        let mut lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if let Some((_, first)) = lines.first() {
            let field = first.split(',').next().unwrap_or("").trim();
            // A word, never a number: a value lastbite does not read is an error, not a
            // header silently dropped.
            let looks_textual = field.chars().next().is_some_and(char::is_alphabetic)
                && !matches!(
                    field.to_ascii_lowercase().as_str(),
                    "nan" | "inf" | "infinity"
                );
            if looks_textual {
                lines.remove(0);
            }
        }
        let rows = lines.iter().map(|(_, l)| l.split(','));
        Dinner::from_rows(
            rows,
            |i| format!("{name}:{}", lines[i].0),
            |i, p| format!("{name}:{}: column {}", lines[i].0, p + 1),
        )
    }

    /// Parses JSON: `[[1,2],[2,3]]` or `{"morsels": [[1,2],[2,3]], "order": "ABA"}`.
    /// Numbers keep their exact decimal text; strings like `"7/3"` are accepted too.
    /// Returns the dinner and the order named in the file, if any.
    pub fn from_json(text: &str, name: &str) -> Result<(Dinner, Option<String>), DinnerError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| DinnerError::File {
                at: name.to_string(),
                problem: format!("invalid JSON: {e}"),
            })?;
        let (morsels, order) = match &value {
            serde_json::Value::Array(_) => (&value, None),
            serde_json::Value::Object(map) => (
                map.get("morsels").ok_or_else(|| DinnerError::File {
                    at: name.to_string(),
                    problem: "JSON object has no \"morsels\" array".into(),
                })?,
                map.get("order").and_then(|o| o.as_str()).map(String::from),
            ),
            _ => {
                return Err(DinnerError::File {
                    at: name.to_string(),
                    problem: "expected a JSON array of morsels or an object with \"morsels\""
                        .into(),
                })
            }
        };
        let rows = json_rows(morsels, name)?;
        let dinner = Dinner::from_rows(
            rows.iter().map(|r| r.iter().map(String::as_str)),
            |i| format!("{name}: morsel {i}"),
            |i, p| {
                format!(
                    "{name}: morsel {i}, utility of {}",
                    crate::engine::player_letter(p)
                )
            },
        )?;
        Ok((dinner, order))
    }

    /// Parses TOML: `morsels = [[1, 2], [2, 3]]` and optionally `order = "ABA"`. Floats
    /// are read by their shortest decimal form; write `"2.5"` as a string to be explicit.
    pub fn from_toml(text: &str, name: &str) -> Result<(Dinner, Option<String>), DinnerError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            // Where, as line and column (from 1), like the CSV and JSON errors.
            let at = e.span().map_or(String::new(), |span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!(": line {line} column {column}")
            });
            DinnerError::File {
                at: format!("{name}{at}"),
                problem: format!("invalid TOML: {}", e.message().trim().replace('\n', "; ")),
            }
        })?;
        let morsels = table
            .get("morsels")
            .and_then(|m| m.as_array())
            .ok_or_else(|| DinnerError::File {
                at: name.to_string(),
                problem: "TOML has no 'morsels' array".into(),
            })?;
        let mut rows = Vec::new();
        for (i, m) in morsels.iter().enumerate() {
            let row = m.as_array().ok_or_else(|| DinnerError::File {
                at: format!("{name}: morsel {i}"),
                problem: "not an array of utilities".into(),
            })?;
            rows.push(
                row.iter()
                    .map(|v| match v {
                        toml::Value::Integer(n) => n.to_string(),
                        toml::Value::Float(f) => f.to_string(),
                        toml::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>(),
            );
        }
        let order = table
            .get("order")
            .and_then(|o| o.as_str())
            .map(String::from);
        let dinner = Dinner::from_rows(
            rows.iter().map(|r| r.iter().map(String::as_str)),
            |i| format!("{name}: morsel {i}"),
            |i, p| {
                format!(
                    "{name}: morsel {i}, utility of {}",
                    crate::engine::player_letter(p)
                )
            },
        )?;
        Ok((dinner, order))
    }

    pub(super) fn from_rows<'a, R, F>(
        rows: R,
        row_at: impl Fn(usize) -> String,
        locate: impl Fn(usize, usize) -> String,
    ) -> Result<Dinner, DinnerError>
    where
        R: IntoIterator<Item = F>,
        F: IntoIterator<Item = &'a str>,
    {
        let mut players = None;
        let mut flat = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            let before = flat.len();
            for (p, field) in row.into_iter().enumerate() {
                let v = field
                    .parse::<Exact>()
                    .map_err(|problem| DinnerError::Number {
                        at: locate(i, p),
                        problem,
                    })?;
                flat.push(v);
            }
            let found = flat.len() - before;
            match players {
                None if found == 0 => return Err(DinnerError::NoUtilities { at: locate(i, 0) }),
                None => players = Some(found),
                Some(k) if k != found => {
                    return Err(DinnerError::Columns {
                        at: row_at(i),
                        expected: k,
                        found,
                    })
                }
                _ => {}
            }
        }
        Dinner::from_flat(players.unwrap_or(0), flat, locate)
    }
}

/// An integer field, or `None` when it needs the general exact parser.
#[inline]
fn fast_integer(field: &[u8]) -> Option<i64> {
    let field = field.trim_ascii();
    let (negative, digits) = match field.first()? {
        b'-' => (true, &field[1..]),
        b'+' => (false, &field[1..]),
        _ => (false, field),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (c - b'0') as i64;
    }
    Some(if negative { -v } else { v })
}

/// The CSV fast path for all-integer files (the common large case): straight into the
/// scaled table, no intermediate rationals. `None` hands the file to the general parser
/// (decimals, fractions, headers, bad values), which also words the errors.
fn csv_integers(text: &str, name: &str) -> Option<Result<Dinner, DinnerError>> {
    let mut utilities = Vec::with_capacity(text.len() / 8);
    let mut players = 0;
    for (i, line) in text.as_bytes().split(|&c| c == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let before = utilities.len();
        for field in line.split(|&c| c == b',') {
            utilities.push(fast_integer(field)?);
        }
        let found = utilities.len() - before;
        if players == 0 {
            players = found;
        } else if found != players {
            return Some(Err(DinnerError::Columns {
                at: format!("{name}:{}", i + 1),
                expected: players,
                found,
            }));
        }
    }
    if utilities.is_empty() {
        return None;
    }
    Some(Dinner::from_integers(players, utilities))
}

fn json_rows(morsels: &serde_json::Value, name: &str) -> Result<Vec<Vec<String>>, DinnerError> {
    let list = morsels.as_array().ok_or_else(|| DinnerError::File {
        at: name.to_string(),
        problem: "\"morsels\" is not an array".into(),
    })?;
    list.iter()
        .enumerate()
        .map(|(i, m)| {
            let row = m.as_array().ok_or_else(|| DinnerError::File {
                at: format!("{name}: morsel {i}"),
                problem: "not an array of utilities".into(),
            })?;
            Ok(row
                .iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect())
        })
        .collect()
}
