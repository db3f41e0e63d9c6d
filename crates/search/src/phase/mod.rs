//! The phases of the algorithms, one per file, each with its soundness
//! argument; [`crate::engine`] drives them.

pub(crate) mod best_first;
pub(crate) mod deepening;
pub(crate) mod exhaustive;
pub(crate) mod forced;
pub(crate) mod quick;
pub(crate) mod seen;
