//! Library half of `cargo xtask`: code generators and suites that tests
//! also call (for example the check that the generated magic file is fresh).

#![forbid(unsafe_code)]

pub mod magics;
pub mod perft;
pub mod regress;
