//! cargo-fuzz target `uci_san`: see [`unwinnable_fuzz::uci_san`] in `../src/lib.rs`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| unwinnable_fuzz::uci_san(data));
