//! What the phases of one analysis share: the intended winner, the
//! configuration, the limits ([`Meter`]), the tables, the static-check
//! policy, the targeted move guide and the plan (the guide without targets
//! is shared by every query: [`Guide::plain`]).

use movegen::{Color, Position};

use crate::Config;
use crate::guide::{Guide, Targets};
use crate::meter::Meter;
use crate::plan::Plan;
use crate::statics::Oracle;
use crate::tt::TranspositionTable;

/// The state of one analysis, lent to each phase in turn.
#[derive(Debug)]
pub(crate) struct Shared<'a> {
    /// The intended winner.
    pub winner: Color,
    /// The analyzer's configuration.
    pub config: Config,
    /// The global limits.
    pub meter: Meter,
    /// The depth-first searches' table.
    pub tt: &'a mut TranspositionTable,
    /// The exhaustive traversal's visited set.
    pub visited: &'a mut TranspositionTable,
    /// When to ask the static check inside the search.
    pub oracle: Oracle,
    /// The depth-first searches' ply cap ([`crate::MAX_HELPMATE_PLIES`];
    /// tests lower it to force a helpmate beyond it).
    pub max_ply: usize,
    /// The move guide with mating-square targets, computed when first
    /// needed (most queries end before).
    targeted_guide: Option<Guide>,
    /// The distance plan, computed when first needed (`Some(None)`: none).
    plan: Option<Option<Plan>>,
}

impl<'a> Shared<'a> {
    /// The state of an analysis for `winner`.
    pub fn new(
        winner: Color,
        config: Config,
        meter: Meter,
        tt: &'a mut TranspositionTable,
        visited: &'a mut TranspositionTable,
    ) -> Shared<'a> {
        Shared {
            winner,
            config,
            meter,
            tt,
            visited,
            oracle: Oracle::default(),
            max_ply: crate::MAX_HELPMATE_PLIES,
            targeted_guide: None,
            plan: None,
        }
    }

    /// The guide steering to the mating squares the static analysis leaves
    /// possible from `root` (computed once).
    pub fn targeted_guide(&mut self, root: &Position) -> &Guide {
        let winner = self.winner;
        self.targeted_guide.get_or_insert_with(|| Guide::new(winner, Targets::of(root, winner)))
    }

    /// The distance plan from `root` (computed once), if the static
    /// analysis gives one.
    pub fn plan(&mut self, root: &Position) -> Option<Plan> {
        let winner = self.winner;
        self.plan.get_or_insert_with(|| Plan::of(root, winner)).clone()
    }

    /// The position hash as the tables see it (see [`Config::hash_mask`]).
    #[inline(always)]
    pub fn hash(&self, pos: &Position) -> u64 {
        pos.hash() & self.config.hash_mask()
    }
}
