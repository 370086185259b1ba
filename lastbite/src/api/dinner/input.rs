//! The dinner input fields every dinner request has, and the one road from them to a
//! checked [`Setup`]: `file` (a CSV, JSON or TOML file, sniffed by extension and
//! content), `data` (the same text, for callers without files), or `morsels` (inline text
//! `"1,2 2,3 3,1"` or rows of numbers), with `first` or `order` for the turn order. A
//! dinner, its order and its rules are checked together once, in [`Setup::new`], before
//! any solver runs: [`Input::setup`] and [`Input::setup_with`] are how a command gets
//! its dinner.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::api::Error;
use crate::exact::Exact;
use crate::games::dinner::{Dinner, Rules, Setup, TurnOrder};

/// A request with the dinner input fields first (see the module documentation).
macro_rules! dinner_request {
    ($(@$mode:ident)? $(#[$m:meta])* $name:ident { $($rest:tt)* }) => {
        $crate::api::input::request! {
            $(@$mode)? $(#[$m])* $name {
                /// A dinner file: CSV (one morsel per line, one column per player, optional
                /// header), JSON or TOML.
                #[schemars(extend("x-path" = "file", "x-instead" = "data", "x-positional" = true))]
                file: Option<String> = None,
                /// The contents of a dinner file, for callers without files (format sniffed).
                data: Option<String> = None,
                /// The morsels inline: `"1,2 2,3 3,1"`, or rows of exact numbers.
                #[schemars(extend("x-conflicts" = ["file"]))]
                morsels: Option<Morsels> = None,
                /// Alternate turns starting with this player (default: Bob moves last).
                #[schemars(extend("x-conflicts" = ["order"]))]
                first: Option<First> = None,
                /// Explicit turn order (letters, e.g. `ABBA`; `ABC...` repeats), `thue-morse`,
                /// `alternate` or `snake`.
                #[schemars(extend("x-open" = true))]
                order: Option<String> = None,
                $($rest)*
            }
        }
        impl $name {
            fn input(&self) -> $crate::api::dinner::input::Input<'_> {
                $crate::api::dinner::input::Input { file: &self.file, data: &self.data, morsels: &self.morsels, first: self.first, order: &self.order }
            }
        }
    };
}
pub(crate) use dinner_request;

/// Morsels given inline.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Morsels {
    /// Text like `"1,2 2,3 3,1"`: morsels separated by spaces or semicolons, utilities by
    /// commas.
    Text(String),
    /// One row of exact utilities per morsel, one per player.
    Rows(Vec<Vec<Exact>>),
}

impl<'de> Deserialize<'de> for Morsels {
    /// Text, or rows of exact numbers; anything else is refused with the forms accepted
    /// and, in a row, the place of the value that is not a number.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Morsels, D::Error> {
        use serde::de::Error as _;
        const FORMS: &str =
            "give text like \"1,2 2,3 3,1\" or rows of exact numbers like [[1, 2], [2, 3]]";
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(text) => Ok(Morsels::Text(text)),
            serde_json::Value::Array(rows) => rows
                .into_iter()
                .enumerate()
                .map(|(i, row)| match row {
                    serde_json::Value::Array(cells) => cells
                        .into_iter()
                        .enumerate()
                        .map(|(j, cell)| {
                            Exact::deserialize(cell).map_err(|e| {
                                D::Error::custom(format!("morsel {i}, player {j}: {e}"))
                            })
                        })
                        .collect(),
                    other => Err(D::Error::custom(format!(
                        "morsel {i} is {}, not a row of numbers; {FORMS}",
                        kind(&other)
                    ))),
                })
                .collect::<Result<Vec<Vec<Exact>>, D::Error>>()
                .map(Morsels::Rows),
            other => Err(D::Error::custom(format!(
                "{} is not morsels; {FORMS}",
                kind(&other)
            ))),
        }
    }
}

/// What a JSON value is, for a message.
fn kind(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Number(n) => format!("the number {n}"),
        serde_json::Value::String(s) => crate::api::escape(s),
        serde_json::Value::Array(_) => "a list".into(),
        serde_json::Value::Object(_) => "an object".into(),
    }
}

/// Who moves first under alternation: a name or, as players are written everywhere else,
/// a letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum First {
    /// Alice (player A).
    #[serde(alias = "A")]
    #[schemars(extend("x-aliases" = ["A"]))]
    Alice,
    /// Bob (player B).
    #[serde(alias = "B")]
    #[schemars(extend("x-aliases" = ["B"]))]
    Bob,
}

/// The dinner input fields of a request.
pub struct Input<'a> {
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

    /// The dinner with its turn order and the plain rules, checked together.
    pub(crate) fn setup(&self) -> Result<Setup, Error> {
        self.setup_with(|_| Ok(Rules::default()))
    }

    /// The dinner with its turn order and the rules `rules` makes from the dinner (an
    /// altruism matrix or a precedence names its players and morsels), checked together.
    pub(crate) fn setup_with(
        &self,
        rules: impl FnOnce(&Dinner) -> Result<Rules, Error>,
    ) -> Result<Setup, Error> {
        let (dinner, order) = self.load()?;
        let rules = rules(&dinner)?;
        Ok(Setup::new(dinner, order, rules)?)
    }

    /// The dinner and its turn order, validated together.
    fn load(&self) -> Result<(Dinner, TurnOrder), Error> {
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
                let text = crate::files::read_input_text(std::path::Path::new(path))?;
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
