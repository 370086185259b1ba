//! The CLI contract: JSON fields scripts depend on, file formats, and bad input (one line
//! on stderr, non-zero exit, never a panic).

#[path = "../common/mod.rs"]
mod common;

mod cookie;
mod dinner;
mod help;
mod subtraction;
mod surfaces;
mod tokens;
