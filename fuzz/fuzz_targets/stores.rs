#![no_main]
#![deny(missing_docs)]
//! Fuzz target `stores`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run("stores", data));
