//! The game families, one module each. Adding a family touches no engine file: implement
//! [`crate::engine::Game`] (and [`crate::engine::IndexedGame`] where states index
//! densely) in a new module here.

pub mod cookie;
pub mod dinner;
pub mod efg;
pub mod subtraction;
pub mod tokens;
