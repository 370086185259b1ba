//! Nothing to call: this crate exists for its `Cargo.toml`, which asks for one feature
//! set of the workspace's shared dependencies whichever package is built, so that the
//! library is compiled once for the tests, the CLI and the Python extension.
