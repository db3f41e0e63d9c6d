//! A memory hint for the searches' hash tables: [`prefetch`] starts
//! loading the cache lines of a value and returns at once, so that the
//! misses of a batch of lookups overlap with each other and with the work
//! done before the lookups themselves.
//!
//! The searches used to load one field of each slot and hide the sum from
//! the optimiser, which overlaps the misses among themselves but waits for
//! the last of them. With the hint nothing waits (docs/tuning.md#prefetch).
//!
//! It lives here because this crate is the one that may use `unsafe`
//! (the instruction is an intrinsic); it reads nothing and changes nothing.

/// Starts loading the cache lines that hold `value` (its first and, when
/// the value may straddle two lines, its last byte) into the cache, and
/// returns without waiting. A hint only: no result depends on it. A no-op
/// on targets other than x86-64.
///
/// ```
/// // Start the loads of a batch of lookups, then look up.
/// let slots = vec![0u64; 1 << 16];
/// let wanted = [7, 40_000, 65_535];
/// for &index in &wanted {
///     movegen::prefetch(&slots[index]);
/// }
/// let sum: u64 = wanted.iter().map(|&index| slots[index]).sum();
/// ```
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first = (value as *const T).cast::<i8>();
        let last = first.wrapping_add(core::mem::size_of::<T>().saturating_sub(1));
        // Safety: `prefetch` is a hint that never faults and has no
        // architectural effect; both addresses are bytes of the live value
        // `value` refers to anyway. SSE, the instruction's feature, is
        // part of the x86-64 baseline.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            // A value no larger than its alignment (a power of two, at
            // most a cache line for these tables' slots) lies within one
            // line: one hint is enough. Decided at compile time.
            if core::mem::size_of::<T>() > core::mem::align_of::<T>() {
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
