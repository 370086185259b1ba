//! The game families, one module each. Adding a family touches no engine file: implement
//! [`crate::engine::Game`] (and [`crate::engine::IndexedGame`] where states index
//! densely) in a new module here.
//!
//! A family owns its model, its theory, its cross-checks and its analyses. It must not
//! depend on another family or on [`crate::api`] (requests, reports and their text are
//! the API's); `scripts/check_layers.py` checks both.

pub mod cookie;
pub mod dinner;
pub mod efg;
pub mod subtraction;
pub mod tokens;
