#![no_main]
#![deny(missing_docs)]
//! Fuzz target `morsels`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run("morsels", data));
