//! What the requests of every family share: the `request!` macro (serde defaults,
//! unknown fields refused, a JSON Schema derived), the budget fields a serving front end
//! caps, and a player's [`Letter`] in reports. It declares fields; it runs no command.
//! The dinner's own input fields are `api/dinner/input.rs`'s.

use crate::engine::player_letter;
use schemars::JsonSchema;
use serde::Serialize;

/// Declares a command's request struct: serde defaults from the listed expressions,
/// unknown fields refused, a JSON Schema derived, and the work budget every command takes
/// (`max_seconds`, last). `request!(@plain Name { ... })` declares one without the budget
/// (a game to play move by move is no command).
macro_rules! request {
    (@plain $(#[$m:meta])* $name:ident { $( $(#[$fm:meta])* $f:ident : $t:ty = $d:expr ),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name { $( $(#[$fm])* pub $f: $t, )* }
        impl Default for $name {
            fn default() -> Self { $name { $( $f: $d, )* } }
        }
    };
    ($(#[$m:meta])* $name:ident { $( $(#[$fm:meta])* $f:ident : $t:ty = $d:expr ),* $(,)? }) => {
        $crate::api::input::request! {
            @plain $(#[$m])* $name {
                $( $(#[$fm])* $f: $t = $d, )*
                /// Refuse, before any work, a request whose cost model estimates more than
                /// this many seconds of one core (`estimate` shows the estimate).
                #[schemars(extend("x-budget" = "seconds"))]
                max_seconds: u64 = $crate::api::cost::DEFAULT_MAX_SECONDS,
            }
        }
        impl $crate::api::input::Budgeted for $name {
            fn max_seconds(&self) -> u64 {
                self.max_seconds
            }
        }
    };
}
pub(crate) use request;

/// A request with a work budget: every command's (the `request!` macro adds the field).
pub trait Budgeted {
    /// The budget, in seconds of one core.
    fn max_seconds(&self) -> u64;
}

/// A type with a closed set of values written as text, as a request field: serialised as
/// its name, read by its `FromStr` (so case and the family's aliases stay accepted, and a
/// value outside the set is refused listing every value), and in the schema as an `enum`
/// of the names, so front ends (the CLI's possible values, Python's `Literal`) show the set.
macro_rules! closed_set {
    ($ty:ty, $schema:literal, [$($value:literal $(| $alias:literal)*),+ $(,)?]) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                use serde::de::Error as _;
                let text = String::deserialize(d)?;
                text.parse::<$ty>().map_err(|_| {
                    D::Error::custom(format!(
                        "{} is not one of {}",
                        $crate::api::escape(&text),
                        [$($value),+].join(", ")
                    ))
                })
            }
        }
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $schema.into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "oneOf": [$({"const": $value, "x-aliases": [$($alias),*]}),+]
                })
            }
        }
    };
}
pub(crate) use closed_set;

/// What a budget field of a request bounds, as its `x-budget` declaration says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetUnit {
    /// A count of states, nodes or outcomes (`"x-budget": "states"`).
    Count,
    /// Memory, in GiB (`"x-budget": "memory"`).
    Gib,
    /// Seconds of one core, the work budget every command has (`"x-budget": "seconds"`).
    Seconds,
    /// Anything else (`"x-budget": "budget"`: items, profiles, heaps searched): a front
    /// end that serves others allows at most the field's default.
    Declared,
}

/// The `x-budget` declarations a request field can carry (`#[schemars(extend("x-budget"
/// = "range"))]`). Every integer field of every request carries one (the contract test
/// over the command table checks it, and that each size is refused over its budget
/// before any work):
/// - `"states"`, `"memory"`, `"seconds"`, `"budget"`: the field is a budget ([`BudgetUnit`]); a front
///   end that serves others caps it ([`crate::api::serving::admit`]).
/// - the name of another field of the request, a budget: the field sizes the work and is
///   refused over that budget, whose name the refusal gives (the flag that raises it).
///   `"max_seconds"` (the work budget every request has) for a field whose real limit is
///   the time its work takes, by the command's cost model; a `range` maximum it also
///   declares only guards its type.
/// - `"range"`: the field sizes the work within a fixed range, the schema's `maximum`.
/// - `"estimate"`: the work is estimated from the field (with others) and refused over a
///   fixed limit that the refusal states.
/// - `"none"`: the field sizes no work (a seed, an index into the instance).
pub const BUDGET_KINDS: [&str; 7] = [
    "states", "memory", "seconds", "budget", "range", "estimate", "none",
];

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
