//! Library half of `cargo xtask`: code generators and suites that tests
//! also call (for example the check that the generated magic file is fresh).

#![forbid(unsafe_code)]

pub mod chess960;
pub mod compare;
pub mod judge;
pub mod magics;
pub mod perft;
pub mod regress;
pub mod sets;
pub mod stats;
pub mod tidy;
pub mod verdicts960;
