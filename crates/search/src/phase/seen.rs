//! The best-first phase's set of the positions it has stored, by Zobrist
//! hash: one flat array of hashes with linear probing (and, beside it, the
//! index of each position in the phase's store), so a lookup costs one
//! cache miss where a general hash set (control bytes and keys in two
//! arrays) costs two, and a batch of lookups can be started together
//! ([`SeenSet::prefetch`]) so that their misses overlap.
//!
//! Profiled on a best-first run that fills its store (`perf`, the dev
//! set's `k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -` for White), the
//! lookups of the general set were a third of the query's time, nearly
//! all of it waiting for memory.
//!
//! **Memory.** The set knows how many hashes it will hold at most (the
//! phase's store cap), so it never grows past what that many need at
//! three quarters full, and its last growth goes to exactly that size
//! (slots are found by multiplying, not masking, so a size need not be a
//! power of two): it takes at most [`BYTES_PER_POSITION`] bytes per
//! position of the cap at every moment, its growth included
//! (`SeenSet::worst_bytes`, a function of the tests).
//!
//! A hash finds the index of the stored position it was inserted with;
//! whether that position is the one looked up is the caller's to check
//! ([`super::best_first`] compares the packed positions, so that a run can
//! be a proof). The hash 0 marks an empty slot, so it is stored as 1.

/// The most a slot array is filled before it grows: three quarters
/// (linear probing stays short).
const MAX_LOAD_NUMERATOR: usize = 3;
const MAX_LOAD_DENOMINATOR: usize = 4;

/// The bytes of one slot: a hash and an index.
#[cfg(test)]
const SLOT_BYTES: usize = 12;
/// The slots of a new set (or all of them, for a smaller cap).
const FIRST_SLOTS: usize = 1024;

/// The bytes the set takes per position of its cap, at most, the moment
/// it grows included: see `SeenSet::worst_bytes` (in the tests).
pub(crate) const BYTES_PER_POSITION: usize = 33;

/// A set of 64-bit hashes, each with the index of its position (see the
/// module docs).
pub(crate) struct SeenSet {
    slots: Vec<u64>,
    index: Vec<u32>,
    len: usize,
    /// The most slots it will ever have: enough for its cap at the
    /// largest load.
    final_slots: usize,
}

impl SeenSet {
    /// An empty set for at most `cap` hashes.
    pub fn new(cap: usize) -> SeenSet {
        let final_slots = (cap * MAX_LOAD_DENOMINATOR).div_ceil(MAX_LOAD_NUMERATOR) + 1;
        SeenSet {
            slots: vec![0; FIRST_SLOTS.min(final_slots)],
            index: vec![0; FIRST_SLOTS.min(final_slots)],
            len: 0,
            final_slots,
        }
    }

    /// The number of hashes held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn key(hash: u64) -> u64 {
        hash.max(1)
    }

    /// The slot a probe for `key` starts at: the key scaled to the array's
    /// length (Zobrist hashes are uniformly random; the high bits decide).
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    #[inline(always)]
    fn next(&self, at: usize) -> usize {
        if at + 1 == self.slots.len() { 0 } else { at + 1 }
    }

    /// Starts loading the home slot of `hash` without waiting for it
    /// ([`movegen::prefetch`]): the misses of a batch overlap, and the
    /// lookups that follow find the slots in the cache. A hint only; it
    /// changes nothing.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        movegen::prefetch(&self.slots[self.home(Self::key(hash))]);
    }

    /// The index inserted with `hash`, if it is held (the first one
    /// inserted with it).
    #[inline]
    pub fn find(&self, hash: u64) -> Option<u32> {
        let key = Self::key(hash);
        let mut at = self.home(key);
        loop {
            match self.slots[at] {
                0 => return None,
                k if k == key => return Some(self.index[at]),
                _ => at = self.next(at),
            }
        }
    }

    /// Adds `hash` with the `index` of its position.
    #[inline]
    pub fn insert(&mut self, hash: u64, index: u32) {
        if (self.len + 1) * MAX_LOAD_DENOMINATOR > self.slots.len() * MAX_LOAD_NUMERATOR {
            self.grow();
        }
        self.place(Self::key(hash), index);
        self.len += 1;
    }

    #[inline(always)]
    fn place(&mut self, key: u64, index: u32) {
        let mut at = self.home(key);
        while self.slots[at] != 0 {
            at = self.next(at);
        }
        self.slots[at] = key;
        self.index[at] = index;
    }

    /// Doubles the slot array, or grows it to its final size if that is
    /// less, and places every hash again. (More hashes than the cap make it
    /// double past the final size: never in [`super::best_first`], which
    /// stores at most its cap; the set stays right either way.)
    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len();
        let new_size = if size < self.final_slots { (2 * size).min(self.final_slots) } else { 2 * size };
        let old = std::mem::replace(&mut self.slots, vec![0; new_size]);
        let old_index = std::mem::replace(&mut self.index, vec![0; new_size]);
        for (key, index) in old.into_iter().zip(old_index).filter(|&(key, _)| key != 0) {
            self.place(key, index);
        }
    }

    /// The most bytes the set takes for a cap of `cap` hashes, at any
    /// moment, with the slot arrays it grows through: the largest sum of
    /// an old and a new array. The bound: a growth happens with `3/4 S < cap`
    /// hashes in `S` slots, so `S < 4/3 cap`, and the new array has at most
    /// `final = 4/3 cap + 2` slots; the two together less than `8/3 cap +
    /// 2` slots of 12 bytes (a hash and an index), 32 bytes per position of
    /// the cap and 24 more (33 counted per position; the first array,
    /// 1,024 slots, is no more than `final`).
    #[cfg(test)]
    fn worst_bytes(cap: usize) -> usize {
        let set = SeenSet::new(cap);
        let mut worst = set.slots.len() * SLOT_BYTES;
        let mut size = set.slots.len();
        while size < set.final_slots {
            let new_size = (2 * size).min(set.final_slots);
            worst = worst.max((size + new_size) * SLOT_BYTES);
            size = new_size;
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set agrees with the standard library's map on a random sequence
    /// of lookups and insertions, through many growths (past its cap too),
    /// with the hashes 0 and 1 (the same key) and hashes that share their
    /// home slot: the same hashes, each with its index.
    #[test]
    fn agrees_with_a_standard_set() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for cap in [1, 1_000, 30_000, 1_000_000] {
            let mut ours = SeenSet::new(cap);
            let mut theirs = std::collections::HashMap::new();
            for round in 0..100_000u64 {
                // Small values and values with equal high bits share home
                // slots; 0 and 1 are one key.
                let hash = match round % 4 {
                    0 => next() % 5_000,
                    1 => ((next() % 64) << 58) | (next() % 4),
                    _ => next(),
                };
                let key = hash.max(1);
                assert_eq!(ours.find(hash), theirs.get(&key).copied(), "{hash}");
                if let std::collections::hash_map::Entry::Vacant(entry) = theirs.entry(key) {
                    ours.insert(hash, round as u32);
                    entry.insert(round as u32);
                }
                assert_eq!(ours.len(), theirs.len());
                assert!(ours.len() * MAX_LOAD_DENOMINATOR <= ours.slots.len() * MAX_LOAD_NUMERATOR);
            }
            for hash in [0, 1, u64::MAX] {
                ours.prefetch(hash);
            }
            assert!(ours.find(0).is_some() && ours.find(0) == ours.find(1));
        }
    }

    /// The memory the phase counts per position of its cap covers the
    /// set's worst moment, for caps small and large; filled to its cap, the
    /// set has reached its final size and no more.
    #[test]
    fn the_counted_bytes_cover_every_growth() {
        for cap in [1, 2, 100, 767, 768, 769, 1_000, 4_096, 100_000, 123_457, 3_000_000, 10_000_019] {
            assert!(SeenSet::worst_bytes(cap) <= BYTES_PER_POSITION * cap.max(FIRST_SLOTS / 2), "{cap}");
        }
        for cap in [1, 767, 100_000, 123_457] {
            let mut set = SeenSet::new(cap);
            for hash in 1..=cap as u64 {
                set.insert(hash.wrapping_mul(0x9e37_79b9_7f4a_7c15), hash as u32);
            }
            assert!(set.slots.len() <= set.final_slots, "{cap}");
            assert!(set.slots.len() * SLOT_BYTES <= BYTES_PER_POSITION * cap.max(FIRST_SLOTS / 2));
        }
    }
}
