//! What many requests share: the request macros (`request!`, `dinner_request!`), the
//! dinner input fields ([`Morsels`], [`First`], and `Input`, which loads them into a
//! validated dinner and turn order), and a player's [`Letter`] in reports. It declares
//! fields and turns them into the families' validated types; it runs no command.
//!
//! Every request that takes a dinner has the same input fields: `file` (a CSV, JSON or
//! TOML file, sniffed by extension and content), `data` (the same text, for callers
//! without files), or `morsels` (inline text `"1,2 2,3 3,1"` or rows of numbers), with
//! `first` or `order` for the turn order. A dinner, its order and its rules are checked
//! together once, in [`crate::games::dinner::Setup::new`], before any solver runs.

use crate::api::Error;
use crate::engine::player_letter;
use crate::exact::Exact;
use crate::games::dinner::{Dinner, TurnOrder};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares a request struct: serde defaults from the listed expressions, unknown fields
/// refused, a JSON Schema derived.
macro_rules! request {
    ($(#[$m:meta])* $name:ident { $( $(#[$fm:meta])* $f:ident : $t:ty = $d:expr ),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name { $( $(#[$fm])* pub $f: $t, )* }
        impl Default for $name {
            fn default() -> Self { $name { $( $f: $d, )* } }
        }
    };
}
pub(crate) use request;

/// A request with the dinner input fields first (see the module documentation).
macro_rules! dinner_request {
    ($(#[$m:meta])* $name:ident { $($rest:tt)* }) => {
        $crate::api::input::request! {
            $(#[$m])* $name {
                /// A dinner file: CSV (one morsel per line, one column per player, optional
                /// header), JSON or TOML.
                #[schemars(extend("x-path" = "file", "x-instead" = "data"))]
                file: Option<String> = None,
                /// The contents of a dinner file, for callers without files (format sniffed).
                data: Option<String> = None,
                /// The morsels inline: `"1,2 2,3 3,1"`, or rows of exact numbers.
                morsels: Option<Morsels> = None,
                /// Alternate turns starting with this player (default: Bob moves last).
                first: Option<First> = None,
                /// Explicit turn order (letters, e.g. `ABBA`; `ABC...` repeats), `thue-morse`,
                /// `alternate` or `snake`.
                order: Option<String> = None,
                $($rest)*
            }
        }
        impl $name {
            fn input(&self) -> $crate::api::input::Input<'_> {
                $crate::api::input::Input { file: &self.file, data: &self.data, morsels: &self.morsels, first: self.first, order: &self.order }
            }
        }
    };
}
pub(crate) use dinner_request;

/// What a budget field of a request bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetUnit {
    /// A count of states, nodes or outcomes.
    Count,
    /// Memory, in GiB.
    Gib,
}

/// The request fields that bound a computation's size, whichever commands have them: a
/// front end that serves others (the web server) caps each with its own budget and fills
/// it in where a request gives none.
pub const BUDGET_FIELDS: [(&str, BudgetUnit); 4] = [
    ("max_states", BudgetUnit::Count),
    ("max_nodes", BudgetUnit::Count),
    ("max_outcomes", BudgetUnit::Count),
    ("memory_gib", BudgetUnit::Gib),
];

/// Morsels given inline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Morsels {
    /// Text like `"1,2 2,3 3,1"`: morsels separated by spaces or semicolons, utilities by
    /// commas.
    Text(String),
    /// One row of exact utilities per morsel, one per player.
    Rows(Vec<Vec<Exact>>),
}

/// Who moves first under alternation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum First {
    /// Alice (player A).
    Alice,
    /// Bob (player B).
    Bob,
}

/// The dinner input fields of a request.
pub(crate) struct Input<'a> {
    pub(crate) file: &'a Option<String>,
    pub(crate) data: &'a Option<String>,
    pub(crate) morsels: &'a Option<Morsels>,
    pub(crate) first: Option<First>,
    pub(crate) order: &'a Option<String>,
}

impl Input<'_> {
    pub(crate) fn given(&self) -> bool {
        self.file.is_some() || self.data.is_some() || self.morsels.is_some()
    }

    /// The dinner and its turn order, validated together.
    pub(crate) fn load(&self) -> Result<(Dinner, TurnOrder), Error> {
        let given = [
            self.file.is_some(),
            self.data.is_some(),
            self.morsels.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(Error::combination(
                "morsels",
                "give the dinner once: a file, its data or the morsels",
            ));
        }
        let (dinner, file_order) = match (self.file, self.data, self.morsels) {
            (Some(path), _, _) => {
                let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
                    action: "read",
                    path: path.clone(),
                    message: e.to_string(),
                })?;
                let ext = std::path::Path::new(path)
                    .extension()
                    .and_then(|e| e.to_str())
                    .map(str::to_ascii_lowercase);
                Dinner::from_file_text(&text, path, ext.as_deref())?
            }
            (_, Some(text), _) => Dinner::from_file_text(text, "data", None)?,
            (_, _, Some(Morsels::Text(t))) => (Dinner::from_morsels(t)?, None),
            (_, _, Some(Morsels::Rows(rows))) => {
                let k = rows.first().map_or(0, Vec::len);
                if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != k) {
                    return Err(Error::invalid(
                        "morsels",
                        format!("morsel {i}"),
                        format!(
                            "{} {}, but the first morsel has {k}",
                            r.len(),
                            if r.len() == 1 { "utility" } else { "utilities" }
                        ),
                    ));
                }
                let flat = rows.iter().flatten().copied().collect();
                (
                    Dinner::from_flat(k, flat, |i, p| {
                        format!("morsel {i}, utility of {}", crate::engine::player_letter(p))
                    })?,
                    None,
                )
            }
            (None, None, None) => {
                return Err(Error::Missing {
                    field: "morsels",
                    what: "dinner",
                    hint: "give a dinner file, its data, or morsels like \"1,2 2,3 3,1\"".into(),
                })
            }
        };
        if self.first.is_some() && self.order.is_some() {
            return Err(Error::combination(
                "first",
                "give either a first player or an order",
            ));
        }
        let order = match (self.order, self.first, file_order) {
            (Some(o), _, _) => TurnOrder::parse(o, &dinner)?,
            (None, Some(First::Alice), _) => TurnOrder::alternating(&dinner, 0),
            (None, Some(First::Bob), _) => {
                if dinner.players() < 2 {
                    return Err(Error::invalid(
                        "first",
                        "bob",
                        "this dinner has only one player",
                    ));
                }
                TurnOrder::alternating(&dinner, 1)
            }
            (None, None, Some(o)) => TurnOrder::parse(&o, &dinner)?,
            (None, None, None) => TurnOrder::default_for(&dinner),
        };
        Ok((dinner, order))
    }
}

/// A player in reports: the engine's letter ([`player_letter`]: `A` for Alice, `B` for Bob, ...),
/// serialised as a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Letter(pub usize);

impl Serialize for Letter {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // One character for the first 26 (no allocation: a dinner's bites are millions).
        match u8::try_from(self.0) {
            Ok(p) if p < 26 => s.serialize_char(char::from(b'A' + p)),
            _ => s.serialize_str(&player_letter(self.0)),
        }
    }
}

impl JsonSchema for Letter {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Player".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "pattern": "^[A-Z]$", "description": "A player's letter (A is Alice, B is Bob)."})
    }
}

impl std::fmt::Display for Letter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&player_letter(self.0))
    }
}
