//! cargo-fuzz target `pgn`: see [`unwinnable_fuzz::pgn`] in `../src/lib.rs`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| unwinnable_fuzz::pgn(data));
