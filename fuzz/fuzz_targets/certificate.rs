//! cargo-fuzz target `certificate`: see [`unwinnable_fuzz::certificate`] in
//! `../src/lib.rs`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| unwinnable_fuzz::certificate(data));
