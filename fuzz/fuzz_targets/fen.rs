//! cargo-fuzz target `fen`: see [`unwinnable_fuzz::fen`] in `../src/lib.rs`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| unwinnable_fuzz::fen(data));
