//! cargo-fuzz target `analyze`: see [`unwinnable_fuzz::analyze`] in `../src/lib.rs`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| unwinnable_fuzz::analyze(data));
