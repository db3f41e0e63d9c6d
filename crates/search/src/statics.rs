//! The static analysis inside the search: proofs that a position is
//! unwinnable without searching it ([`static_check`]), run at the root and
//! at nodes reached by an irreversible move, where the structure it reasons
//! about may have changed.
//!
//! **Soundness.** A node the static check proves unwinnable has no mate
//! reachable from it (the proof is in `static_check`), so a search may
//! treat it as a dead end: whatever it concludes about its other nodes
//! stays true. The policy of *when* to ask ([`Oracle`]) only changes speed.

use movegen::{Color, Position};

use crate::Proof;

/// The static check's proof for `pos`, if it gives one.
pub(crate) fn static_proof(pos: &Position, winner: Color) -> Option<Proof> {
    proof_of(static_check::analyze(pos, winner))
}

/// The light static check's proof for `pos`, if it gives one: the same
/// proof as [`static_proof`]'s whenever the light check proves
/// ([`static_check::analyze_light`]), without computing it twice.
pub(crate) fn light_static_proof(pos: &Position, winner: Color) -> Option<Proof> {
    proof_of(static_check::analyze_light(pos, winner))
}

fn proof_of(explanation: static_check::Explanation) -> Option<Proof> {
    explanation.is_unwinnable().then(|| match explanation.material {
        Some(reason) => Proof::Material(reason),
        None => Proof::Static(Box::new(explanation)),
    })
}

/// Nodes this close to the root get the full static check (with the case
/// split on pieces that never move), deeper ones the light check.
pub(crate) const THOROUGH_PLIES: usize = 2;

/// Calls before the success rate of the static check is judged.
pub(crate) const TRIAL: u64 = 200;
/// The static check keeps being asked while at least one call in this
/// many proves something. (A failing call costs about as much as a hundred
/// nodes: on the slowest unwinnable dev and hard queries, one in twenty
/// made the search three times slower than one in five, with the same
/// answers.)
pub(crate) const MIN_RATE: u64 = 5;

/// Asks the static check about search nodes while it pays (its light form,
/// without the case split on pieces that never move, beyond the first
/// plies: the split costs more than it saves at most nodes): after a trial of
/// [`TRIAL`] calls it goes on only if at least one call in [`MIN_RATE`]
/// succeeded (see there for what a failing call costs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Oracle {
    calls: u64,
    proofs: u64,
}

impl Oracle {
    /// Whether asking is worth it now.
    #[inline]
    pub fn pays(&self) -> bool {
        self.calls < TRIAL || self.proofs * MIN_RATE >= self.calls
    }

    /// Asks whether `pos`, `plies` moves from the root, is proved
    /// unwinnable for `winner`, counting the call and its outcome. Within
    /// [`THOROUGH_PLIES`] of the root (few positions, where a proof ends
    /// the whole search) the full check is asked, beyond it the light one.
    pub fn proves(&mut self, pos: &Position, winner: Color, plies: usize) -> bool {
        self.calls += 1;
        let proved = if plies <= THOROUGH_PLIES {
            static_check::is_unwinnable(pos, winner)
        } else {
            static_check::is_unwinnable_light(pos, winner)
        };
        self.proofs += u64::from(proved);
        proved
    }
}
