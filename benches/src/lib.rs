//! Shared helpers for the benchmarks (test data loading).
