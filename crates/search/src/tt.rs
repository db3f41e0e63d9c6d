//! The transposition table of the helpmate search: bounded memory, and
//! hits that can never be wrong.
//!
//! # Why a hit is never wrong
//!
//! An entry stores the **whole position** it describes (four bit-planes
//! that determine every square's content, plus side to move, castling
//! rights and en passant square), not just its hash; a probe compares all
//! of it. The 64-bit Zobrist hash only chooses the slot, so two positions
//! with the same hash simply compete for a slot: a collision costs a miss
//! (extra search), never a false hit. The move counters are not part of
//! the identity: the analysis ignores the 50/75-move rules (see the crate
//! docs), so positions that differ only in them have the same future.
//!
//! Entries carry the *stamp* of the iteration that stored them. A probe
//! reports whether a hit is *stale* (stored by an earlier iteration): the
//! search may prune on stale hits to find mates faster, but an iteration
//! that did so cannot serve as a proof of unwinnability (see
//! [`crate::phase::deepening`] for why). [`TranspositionTable::clear`]
//! forgets everything in O(1).
//!
//! Eviction (a full table overwrites old entries) is harmless for
//! soundness: a position whose entry was lost is searched again.

pub(crate) use movegen::PackedPosition;
#[cfg(test)]
use movegen::Position;

/// A packed position with its depth and stamp, in 40 bytes (the
/// position's padding holds the two counters).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    black: u64,
    planes: [u64; 3],
    state: u16,
    /// Remaining depth the position was (or is being) searched with; in a
    /// set ([`TranspositionTable::visit`]), the caller's number (the
    /// traversal's plies from the root).
    depth: i16,
    /// The stamp of the iteration that stored it; 0 = empty.
    stamp: u16,
    /// What the static analysis said of the position: [`STATIC_UNKNOWN`],
    /// [`STATIC_FAILED`] or [`STATIC_PROVED`]. A proof is a fact about the
    /// position, valid in every iteration.
    static_result: u8,
}

/// The static analysis was not run on the position.
pub const STATIC_UNKNOWN: u8 = 0;
/// The static analysis did not prove the position unwinnable.
pub const STATIC_FAILED: u8 = 1;
/// The static analysis proved the position unwinnable.
pub const STATIC_PROVED: u8 = 2;

impl Entry {
    #[inline(always)]
    fn holds(&self, position: &PackedPosition) -> bool {
        self.black == position.black && self.planes == position.planes && self.state == position.state
    }

    /// Whether the entry was stored with a stamp from `from` to `to` (the
    /// table's valid range; stamp 0 is an empty slot).
    #[inline(always)]
    fn stamped_within(&self, from: u16, to: u16) -> bool {
        self.stamp != 0 && from <= self.stamp && self.stamp <= to
    }

    /// An entry holding `position`, stored with `stamp`.
    #[inline(always)]
    fn holding(position: &PackedPosition, depth: i16, stamp: u16, static_result: u8) -> Entry {
        Entry { black: position.black, planes: position.planes, state: position.state, depth, stamp, static_result }
    }

    /// The position it holds.
    #[inline]
    fn position(&self) -> PackedPosition {
        PackedPosition { black: self.black, planes: self.planes, state: self.state }
    }
}

static_assertions::const_assert_eq!(core::mem::size_of::<Entry>(), 40);

/// A table of `(position, depth)` records with a fixed maximum size,
/// allocated as it is needed: it starts small and grows (when it is
/// cleared, so nothing is rehashed) up to its maximum, so an analysis that
/// needs a few thousand positions never pays for the whole budget.
#[derive(Debug)]
pub struct TranspositionTable {
    entries: Vec<Entry>,
    /// The most entries it may grow to (a power of two).
    max_entries: usize,
    /// `active - 1`: only the first `active` entries are used since the last
    /// [`TranspositionTable::clear`] (a small search keeps a small,
    /// cache-resident working set).
    mask: usize,
    /// The stamp of the current iteration.
    stamp: u16,
    /// Entries with an older stamp are forgotten.
    valid_from: u16,
    /// Positions added by [`TranspositionTable::visit`] since the last
    /// clear (the size of the set).
    set_len: usize,
}

/// Entries allocated by [`TranspositionTable::new`] (40 KiB); the table
/// grows beyond when it is cleared for a larger search.
pub const INITIAL_ENTRIES: usize = 1 << 10;

/// Slots tried by [`TranspositionTable::visit`] before giving up (a set
/// of positions can fill about nine tenths of the table before one of them
/// finds no room near its slot).
pub const VISIT_PROBES: usize = 256;

/// The answer of [`TranspositionTable::visit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// The position was not in the set; now it is.
    New,
    /// The position was already in the set.
    Seen,
    /// No room near its slot: the set cannot take it.
    Full,
}

/// A hit of [`TranspositionTable::probe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The depth stored.
    pub depth: i16,
    /// Stored by an earlier iteration than the current one.
    pub stale: bool,
    /// The cached static-analysis result (see [`STATIC_PROVED`]).
    pub static_result: u8,
}

/// Size in bytes of one entry.
pub const ENTRY_BYTES: usize = core::mem::size_of::<Entry>();

impl TranspositionTable {
    /// A table that may grow to `megabytes` MiB (rounded down to a power
    /// of two number of entries; at least 1,024 entries). It allocates
    /// [`INITIAL_ENTRIES`] at first (or fewer if that is the maximum).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let wanted = megabytes.max(1).saturating_mul(1 << 20) / ENTRY_BYTES;
        let max_entries = (wanted.next_power_of_two() >> usize::from(!wanted.is_power_of_two())).max(1024);
        let entries = max_entries.min(INITIAL_ENTRIES);
        TranspositionTable {
            entries: vec![Entry::default(); entries],
            max_entries,
            mask: entries - 1,
            stamp: 1,
            valid_from: 1,
            set_len: 0,
        }
    }

    /// The number of entries allocated now.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The number of entries it may grow to.
    #[cfg(test)]
    pub fn max_capacity(&self) -> usize {
        self.max_entries
    }

    /// Bytes allocated now.
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Forgets every entry (O(1) unless it grows: the stamp moves on) and
    /// uses enough of the table for about `expected` positions (at least
    /// 4,096 entries, at most the maximum), allocating more if needed.
    pub fn clear(&mut self, expected: u64) {
        self.set_len = 0;
        let wanted = usize::try_from(expected).unwrap_or(usize::MAX).max(4096).checked_next_power_of_two();
        let size = wanted.unwrap_or(usize::MAX).min(self.max_entries);
        if size > self.entries.len() {
            // Everything is forgotten anyway: a fresh allocation, all empty.
            self.entries = Vec::new();
            self.entries = vec![Entry::default(); size];
            self.stamp = 1;
            self.valid_from = 1;
            self.mask = size - 1;
            return;
        }
        self.mask = size - 1;
        self.next_stamp();
        self.valid_from = self.stamp;
    }

    /// Frees the entries allocated beyond the part in use: an earlier,
    /// larger search left them, and they hold nothing valid (every slot is
    /// taken modulo the part in use). Afterwards [`TranspositionTable::bytes`]
    /// is what the current search asked for, so the memory left to the
    /// other parts of the budget (the best-first phase's store, the room to
    /// grow the visited set) and every answer depend only on the query, not
    /// on the queries the analyzer answered before.
    pub fn release_unused(&mut self) {
        if self.entries.len() > self.mask + 1 {
            self.entries.truncate(self.mask + 1);
            self.entries.shrink_to_fit();
        }
    }

    /// Whether the part of the table in use holds about `expected` positions.
    pub fn fits(&self, expected: u64) -> bool {
        let wanted = usize::try_from(expected).unwrap_or(usize::MAX).max(4096);
        wanted <= self.mask + 1 || self.mask + 1 == self.max_entries
    }

    /// Starts a new iteration: entries stored so far stay valid but their
    /// hits are reported as stale.
    pub fn new_iteration(&mut self) {
        self.next_stamp();
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Wrapped: really clear, so that old stamps coming around again
            // cannot be mistaken for valid ones.
            self.entries.fill(Entry::default());
            self.stamp = 1;
            self.valid_from = 1;
        }
    }

    #[inline(always)]
    fn slot(&self, hash: u64) -> usize {
        (hash as usize) & self.mask
    }

    /// The record of exactly this position, if it is valid (stored since
    /// the last clear).
    #[inline]
    pub fn probe(&self, hash: u64, position: &PackedPosition) -> Option<Hit> {
        let entry = &self.entries[self.slot(hash)];
        (entry.stamped_within(self.valid_from, self.stamp) && entry.holds(position)).then_some(Hit {
            depth: entry.depth,
            stale: entry.stamp != self.stamp,
            static_result: entry.static_result,
        })
    }

    /// The positions of the valid entries (those a probe can hit), for
    /// tests of what the table may hold.
    #[cfg(test)]
    pub fn valid_positions(&self) -> Vec<PackedPosition> {
        self.entries[..=self.mask]
            .iter()
            .filter(|entry| entry.stamped_within(self.valid_from, self.stamp))
            .map(Entry::position)
            .collect()
    }

    /// Removes the record of this position, if present (used for positions
    /// whose search was abandoned by a node limit: their depth is no
    /// promise).
    #[inline]
    pub fn forget(&mut self, hash: u64, position: &PackedPosition) {
        let slot = self.slot(hash);
        if self.entries[slot].holds(position) {
            self.entries[slot].stamp = 0;
        }
    }

    /// Inserts `position` into the table used as an exact *set* (for the
    /// exhaustive traversal, which must never forget a visited position:
    /// a lossy visited set can make a traversal revisit positions forever),
    /// with `depth`, a number of the caller's (the traversal's: the plies
    /// from the root). Open addressing: the position goes in the first free
    /// slot among [`VISIT_PROBES`] consecutive ones; nothing is ever evicted.
    /// Returns whether it was new, or [`Visit::Full`] when no slot was free
    /// (the caller must treat that as a limit). A position already in the
    /// set keeps its depth.
    pub fn visit(&mut self, hash: u64, position: &PackedPosition, depth: i16) -> Visit {
        let Some(slot) = self.set_slot(hash, position) else { return Visit::Full };
        let to = self.stamp;
        let entry = &mut self.entries[slot];
        if entry.stamped_within(self.valid_from, to) {
            return Visit::Seen;
        }
        *entry = Entry::holding(position, depth, to, STATIC_UNKNOWN);
        self.set_len += 1;
        Visit::New
    }

    /// Used as a set: the slot of `position`, the first among the
    /// [`VISIT_PROBES`] of `hash` that holds it or is free (a position is
    /// never stored beyond a free slot, since nothing is evicted); `None`
    /// when all of them hold other positions.
    #[inline(always)]
    fn set_slot(&self, hash: u64, position: &PackedPosition) -> Option<usize> {
        let start = self.slot(hash);
        let (from, to) = (self.valid_from, self.stamp);
        for i in 0..VISIT_PROBES {
            let slot = (start + i) & self.mask;
            let entry = &self.entries[slot];
            if !entry.stamped_within(from, to) || entry.holds(position) {
                return Some(slot);
            }
        }
        None
    }

    /// Used as a set ([`TranspositionTable::visit`]): the entry of
    /// `position`, if it is in the set.
    fn member(&mut self, hash: u64, position: &PackedPosition) -> Option<&mut Entry> {
        let slot = self.set_slot(hash, position)?;
        let (from, to) = (self.valid_from, self.stamp);
        let entry = &mut self.entries[slot];
        entry.stamped_within(from, to).then_some(entry)
    }

    /// Used as a set: the depth `position` was visited with (or last set
    /// to), `None` when it is not in the set.
    pub fn depth_in_set(&mut self, hash: u64, position: &PackedPosition) -> Option<i16> {
        self.member(hash, position).map(|entry| entry.depth)
    }

    /// Used as a set: sets the depth of `position`, if it is in the set
    /// (it stays in the set whatever the depth).
    pub fn set_depth_in_set(&mut self, hash: u64, position: &PackedPosition, depth: i16) {
        if let Some(entry) = self.member(hash, position) {
            entry.depth = depth;
        }
    }

    /// Starts loading the slot of `hash` without waiting for it
    /// ([`movegen::prefetch`]), so that the misses of a batch overlap and
    /// the probes or visits that follow find them in the cache. A hint
    /// only; it changes nothing.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        movegen::prefetch(&self.entries[self.slot(hash)]);
    }

    /// Used as a set: whether it fills more than three quarters of the part
    /// in use (probes grow long beyond: time to [`TranspositionTable::grow_set`]).
    pub fn set_is_crowded(&self) -> bool {
        self.set_len * 4 > (self.mask + 1) * 3
    }

    /// Used as a set ([`TranspositionTable::visit`]): doubles the part of
    /// the table in use, as many times as needed, and moves every position
    /// of the set to its slot there (`hash` gives the slot hash of a
    /// position, the one its visits were made with). `false`, with nothing
    /// changed, when the set cannot fit in a larger part within `max_bytes`,
    /// or the positions crowd past [`VISIT_PROBES`] at every size.
    ///
    /// Nothing is forgotten, so a traversal goes on where it was instead of
    /// starting again in a larger table. The new part is filled before the
    /// old allocation is freed: for that moment the two together may take
    /// up to twice `max_bytes` (the caller lends the room; `max_bytes` may
    /// exceed the size given to [`TranspositionTable::new`], later
    /// [`TranspositionTable::clear`]s keep the allocation but use at most
    /// the original maximum).
    pub fn grow_set(&mut self, hash: impl Fn(&PackedPosition) -> u64, max_bytes: usize) -> bool {
        self.release_unused();
        let active = &self.entries[..=self.mask];
        let (from, to) = (self.valid_from, self.stamp);
        let mut size = active.len() * 2;
        while size * ENTRY_BYTES <= max_bytes && (size + self.entries.len()) * ENTRY_BYTES <= 2 * max_bytes {
            let mask = size - 1;
            let mut entries = vec![Entry::default(); size];
            let placed = active.iter().filter(|entry| entry.stamped_within(from, to)).all(|entry| {
                let start = hash(&entry.position()) as usize;
                let free = (0..VISIT_PROBES).map(|i| (start + i) & mask).find(|&slot| entries[slot].stamp == 0);
                free.map(|slot| entries[slot] = Entry { stamp: 1, ..*entry }).is_some()
            });
            if placed {
                self.entries = entries;
                self.mask = mask;
                self.stamp = 1;
                self.valid_from = 1;
                return true;
            }
            size *= 2;
        }
        false
    }

    /// Records `position` with `depth` in its slot, replacing what was there
    /// (with no static result).
    #[cfg(test)]
    pub fn store(&mut self, hash: u64, position: PackedPosition, depth: i16) {
        self.store_with(hash, position, depth, STATIC_UNKNOWN);
    }

    /// Records `position` with `depth` and a static-analysis result.
    #[inline]
    pub fn store_with(&mut self, hash: u64, position: PackedPosition, depth: i16, static_result: u8) {
        let slot = self.slot(hash);
        self.entries[slot] = Entry::holding(&position, depth, self.stamp, static_result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_identifies_positions() {
        let a: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
        let b: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse().unwrap();
        let c: Position = "4k3/8/8/8/8/8/8/4K2R w K - 7 30".parse().unwrap();
        let d: Position = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1".parse().unwrap();
        assert_ne!(a.pack(), b.pack());
        assert_eq!(a.pack(), c.pack());
        assert_ne!(b.pack(), d.pack());
        assert_eq!(a.pack().occupied(), a.board().occupied());
    }

    /// A deliberate hash collision: two different positions forced into the
    /// same slot with the same hash never see each other's entry.
    #[test]
    fn colliding_hashes_do_not_hit() {
        let mut table = TranspositionTable::new(1);
        let a: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse().unwrap();
        let b: Position = "4k3/8/8/8/8/8/8/4K1R1 w - - 0 1".parse().unwrap();
        table.store(42, a.pack(), 5);
        assert_eq!(table.probe(42, &a.pack()), Some(Hit { depth: 5, stale: false, static_result: 0 }));
        assert_eq!(table.probe(42, &b.pack()), None);
        table.new_iteration();
        assert_eq!(table.probe(42, &a.pack()), Some(Hit { depth: 5, stale: true, static_result: 0 }));
        table.clear(100);
        assert_eq!(table.probe(42, &a.pack()), None);
        table.store(42, a.pack(), 5);
        table.forget(42, &a.pack());
        assert_eq!(table.probe(42, &a.pack()), None);
    }

    /// Used as a set, the table never forgets: many positions forced into
    /// the same slot are all remembered (up to the probe limit).
    #[test]
    fn visit_set_is_exact() {
        let mut table = TranspositionTable::new(1);
        table.clear(4096);
        let a: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let b: Position = "4k3/8/8/8/8/8/8/3K4 w - - 0 1".parse().unwrap();
        assert_eq!(table.visit(7, &a.pack(), 0), Visit::New);
        assert_eq!(table.visit(7, &b.pack(), 0), Visit::New);
        assert_eq!(table.visit(7, &a.pack(), 0), Visit::Seen);
        assert_eq!(table.visit(7, &b.pack(), 0), Visit::Seen);
        table.clear(4096);
        assert_eq!(table.visit(7, &a.pack(), 0), Visit::New);
    }

    /// A position of the set keeps the depth of its first visit (a later
    /// visit changes nothing) until it is set again; a position outside the
    /// set has none, also one that shares its slot; growing the set keeps
    /// the depths.
    #[test]
    fn a_set_records_the_depth_of_each_position() {
        let mut table = TranspositionTable::new(1);
        table.clear(4096);
        let a: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let b: Position = "4k3/8/8/8/8/8/8/3K4 w - - 0 1".parse().unwrap();
        let c: Position = "4k3/8/8/8/8/8/8/2K5 w - - 0 1".parse().unwrap();
        assert_eq!(table.visit(7, &a.pack(), 3), Visit::New);
        assert_eq!(table.visit(7, &b.pack(), 4), Visit::New);
        assert_eq!(table.visit(7, &a.pack(), 9), Visit::Seen);
        assert_eq!((table.depth_in_set(7, &a.pack()), table.depth_in_set(7, &b.pack())), (Some(3), Some(4)));
        assert_eq!(table.depth_in_set(7, &c.pack()), None);
        table.set_depth_in_set(7, &a.pack(), -1);
        table.set_depth_in_set(7, &c.pack(), 5);
        assert_eq!(table.depth_in_set(7, &a.pack()), Some(-1));
        assert_eq!(table.depth_in_set(7, &c.pack()), None, "setting a depth adds nothing");
        assert_eq!(table.visit(7, &a.pack(), 2), Visit::Seen, "a dead end stays in the set");
        assert!(table.grow_set(|_| 7, 1 << 20));
        assert_eq!((table.depth_in_set(7, &a.pack()), table.depth_in_set(7, &b.pack())), (Some(-1), Some(4)));
        table.clear(4096);
        assert_eq!(table.depth_in_set(7, &b.pack()), None);
    }

    /// Growing the set keeps every position in it: a traversal's set that
    /// fills a small table goes on in a larger one, and every position
    /// visited before is still seen, every other one new.
    #[test]
    fn a_set_is_crowded_past_three_quarters_until_it_grows() {
        let mut table = TranspositionTable::new(1);
        table.clear(4096);
        assert_eq!(table.mask + 1, 4096);
        // Positions three plies from the start, all different (5,362).
        let mut positions = vec![Position::default()];
        let mut moves = movegen::MoveList::new();
        for _ in 0..3 {
            let mut next = Vec::new();
            for p in &positions {
                p.generate_legal_moves(&mut moves);
                next.extend(moves.iter().map(|&m| p.play(m)));
            }
            next.sort_by_key(|p| p.hash());
            next.dedup_by_key(|p| p.hash());
            positions = next;
        }
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(table.set_is_crowded(), i > 3 * 4096 / 4, "after {i} positions");
            if table.visit(p.hash(), &p.pack(), 0) == Visit::Full {
                break;
            }
            if i == 3 * 4096 / 4 + 8 {
                // Positions visited twice are not counted twice.
                assert_eq!(table.visit(p.hash(), &p.pack(), 0), Visit::Seen);
                break;
            }
        }
        assert!(table.set_is_crowded());
        let hash = |p: &PackedPosition| p.zobrist();
        assert!(table.grow_set(hash, 2 * table.max_capacity() * ENTRY_BYTES));
        assert!(!table.set_is_crowded(), "half as full after growing");
        table.clear(4096);
        assert!(!table.set_is_crowded(), "empty after a clear");
    }

    /// What a larger search left allocated is freed, and what the current
    /// search holds stays: its positions are still in the set.
    #[test]
    fn releasing_the_unused_part_keeps_the_part_in_use() {
        let mut table = TranspositionTable::new(4);
        table.clear(1 << 16);
        assert_eq!(table.bytes(), (1 << 16) * ENTRY_BYTES);
        table.clear(4096);
        assert_eq!(table.bytes(), (1 << 16) * ENTRY_BYTES, "a clear keeps the allocation");
        let mut moves = movegen::MoveList::new();
        let root = Position::default();
        root.generate_legal_moves(&mut moves);
        let children: Vec<Position> = moves.iter().map(|&m| root.play(m)).collect();
        for child in &children {
            assert_eq!(table.visit(child.hash(), &child.pack(), 0), Visit::New);
        }
        table.release_unused();
        assert_eq!(table.bytes(), 4096 * ENTRY_BYTES);
        for child in &children {
            assert_eq!(table.visit(child.hash(), &child.pack(), 0), Visit::Seen);
        }
        table.release_unused();
        assert_eq!(table.bytes(), 4096 * ENTRY_BYTES, "nothing more to free");
    }

    #[test]
    fn growing_the_set_keeps_it() {
        let mut table = TranspositionTable::new(1);
        table.clear(4096);
        let root: Position = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1".parse().unwrap();
        // Positions two plies deep, all different.
        let mut positions = Vec::new();
        let mut moves = movegen::MoveList::new();
        let mut replies = movegen::MoveList::new();
        root.generate_legal_moves(&mut moves);
        for &m in moves.iter() {
            let child = root.play(m);
            child.generate_legal_moves(&mut replies);
            positions.extend(replies.iter().map(|&r| child.play(r)));
        }
        positions.sort_by_key(|p| p.hash());
        positions.dedup_by_key(|p| p.pack());
        let hash = |p: &PackedPosition| p.zobrist();
        let (first, rest) = positions.split_at(positions.len() / 2);
        for p in first {
            assert_eq!(table.visit(p.hash(), &p.pack(), 0), Visit::New);
        }
        let before = table.mask + 1;
        let max_bytes = 2 * table.max_capacity() * ENTRY_BYTES;
        assert!(table.grow_set(hash, max_bytes));
        assert_eq!(table.mask + 1, 2 * before);
        for p in first {
            assert_eq!(table.visit(p.hash(), &p.pack(), 0), Visit::Seen, "{p:?} forgotten");
        }
        for p in rest {
            assert_eq!(table.visit(p.hash(), &p.pack(), 0), Visit::New);
        }
        // It grows as far as it is lent memory, and then nothing changes.
        while table.grow_set(hash, max_bytes) {}
        assert_eq!(table.mask + 1, 2 * table.max_capacity());
        assert!((table.mask + 1) * ENTRY_BYTES <= max_bytes);
        for p in &positions {
            assert_eq!(table.visit(p.hash(), &p.pack(), 0), Visit::Seen);
        }
    }

    #[test]
    fn size_is_bounded() {
        for mb in [1, 3, 16, 100] {
            let mut table = TranspositionTable::new(mb);
            let max = table.max_capacity() * ENTRY_BYTES;
            assert!(max <= (mb << 20).max(1024 * ENTRY_BYTES));
            assert!(max * 2 > mb << 20 || mb == 1);
            assert!(table.bytes() <= INITIAL_ENTRIES * ENTRY_BYTES, "allocated lazily");
            table.clear(u64::MAX);
            assert_eq!(table.bytes(), max, "grows to its maximum, no further");
        }
    }

    /// A huge maximum costs nothing until it is used.
    #[test]
    fn a_large_budget_is_not_allocated_up_front() {
        let table = TranspositionTable::new(1 << 20);
        assert_eq!(table.capacity(), INITIAL_ENTRIES);
        assert!(table.max_capacity() * ENTRY_BYTES <= 1 << 40);
    }

    /// Entries survive growth only as far as the contract says: growing
    /// happens in `clear`, which forgets everything anyway.
    #[test]
    fn growing_forgets_like_clear() {
        let mut table = TranspositionTable::new(64);
        let a: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse().unwrap();
        table.store(42, a.pack(), 5);
        table.clear(1 << 20);
        assert!(table.capacity() > INITIAL_ENTRIES);
        assert_eq!(table.probe(42, &a.pack()), None);
        table.store(42, a.pack(), 5);
        assert!(table.probe(42, &a.pack()).is_some());
    }
}
