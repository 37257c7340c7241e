//! The tile veto's view of a decision: the candidate placements of the drawn tile, listed
//! only when a plugin asks for them ([`TileCandidates`]), and the placements forbidden so
//! far ([`TileVetoes`]).
//!
//! A plugin that vetoes tiles is called once per decision ([`crate::Plugin::allow_tiles`]).
//! When none of them asks for the list and none forbids anything, the engine never lists
//! the placements: the random player's choice is then counted, as for a tile nobody vetoes
//! (`Game::pick_action`), and the game is the same as with the list.

use std::cell::{Cell, OnceCell};

use crate::action::Action;
use crate::rules::Rules;
use crate::state::State;
use crate::tile::TileTypeId;

/// Candidate placements of one tile, as [`crate::Plugin::allow_tiles`] receives them: every
/// element of [`TileCandidates::list`] is an [`Action::PlaceTile`] (the type guarantees it;
/// code may rely on it), in the order of the legal-action list.
pub struct TileCandidates<'a> {
    /// The list, when the engine had it already.
    given: &'a [Action],
    /// How to list them on demand (None: `given` is the list).
    source: Option<(&'a Rules, &'a State, TileTypeId)>,
    /// The list made on demand.
    made: OnceCell<Vec<Action>>,
    /// The buffer the list is made in (the engine's, reused).
    spare: Cell<Vec<Action>>,
}

impl<'a> TileCandidates<'a> {
    /// The list, if every action in it is a tile placement.
    pub fn new(list: &'a [Action]) -> Option<Self> {
        list.iter().all(|a| matches!(a, Action::PlaceTile { .. })).then(|| Self::generated(list))
    }

    /// A list the engine generated (tile placements only), unchecked.
    pub(crate) fn generated(list: &'a [Action]) -> Self {
        debug_assert!(list.iter().all(|a| matches!(a, Action::PlaceTile { .. })));
        TileCandidates { given: list, source: None, made: OnceCell::new(), spare: Cell::new(Vec::new()) }
    }

    /// The plain placements of tile `t` (one-part faces), listed into `spare` when first
    /// asked for.
    pub(crate) fn on_demand(rules: &'a Rules, st: &'a State, t: TileTypeId, spare: Vec<Action>) -> Self {
        TileCandidates { given: &[], source: Some((rules, st, t)), made: OnceCell::new(), spare: Cell::new(spare) }
    }

    /// The tile placements (listed now if they were not yet).
    pub fn list(&self) -> &[Action] {
        let Some((rules, st, t)) = self.source else { return self.given };
        self.made.get_or_init(|| {
            let mut v = self.spare.take();
            v.clear();
            crate::placement::plain_placements(rules, st, t, &mut v);
            v
        })
    }

    /// Whether the list exists (given, or asked for): a plugin that forbade nothing without
    /// asking for it lets the engine count the placements instead of listing them.
    pub fn is_listed(&self) -> bool {
        self.source.is_none() || self.made.get().is_some()
    }

    /// The buffer back: the list if it was made, else the unused spare.
    pub(crate) fn into_buffer(self) -> Vec<Action> {
        self.made.into_inner().unwrap_or_else(|| self.spare.into_inner())
    }
}

impl std::fmt::Debug for TileCandidates<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.source, self.made.get()) {
            (Some(_), None) => f.write_str("TileCandidates(not listed)"),
            _ => f.debug_tuple("TileCandidates").field(&self.list()).finish(),
        }
    }
}

/// The candidates of a [`TileCandidates`] forbidden so far, by index into its list.
#[derive(Debug, Default)]
pub struct TileVetoes {
    /// Bit i of word i / 64: candidate i is forbidden (the first [`TileVetoes::INLINE`]).
    small: [u64; Self::INLINE_WORDS],
    /// The same beyond them (rare: a long frontier of a tile with many fitting rotations).
    more: Vec<u64>,
    /// Whether anything is forbidden.
    any: bool,
}

impl TileVetoes {
    const INLINE_WORDS: usize = 4;
    /// Candidates tracked without allocating.
    pub const INLINE: usize = 64 * Self::INLINE_WORDS;

    /// Nothing forbidden.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forbids candidate `i`.
    pub fn forbid(&mut self, i: usize) {
        let (w, b) = (i / 64, i % 64);
        if w < Self::INLINE_WORDS {
            self.small[w] |= 1 << b;
        } else {
            let w = w - Self::INLINE_WORDS;
            if self.more.len() <= w {
                self.more.resize(w + 1, 0);
            }
            self.more[w] |= 1 << b;
        }
        self.any = true;
    }

    /// Whether candidate `i` is forbidden.
    #[inline]
    pub fn is_forbidden(&self, i: usize) -> bool {
        let (w, b) = (i / 64, i % 64);
        let word = if w < Self::INLINE_WORDS {
            self.small[w]
        } else {
            self.more.get(w - Self::INLINE_WORDS).copied().unwrap_or(0)
        };
        word & (1 << b) != 0
    }

    /// Whether any candidate is forbidden.
    #[inline]
    pub fn any(&self) -> bool {
        self.any
    }

    /// Drops the forbidden candidates from `list[from..]` (the candidates' list), keeping
    /// the order.
    pub(crate) fn retain(&self, list: &mut Vec<Action>, from: usize) {
        if !self.any {
            return;
        }
        let mut k = from;
        for j in from..list.len() {
            if !self.is_forbidden(j - from) {
                list[k] = list[j];
                k += 1;
            }
        }
        list.truncate(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Pos, Rotation};

    #[test]
    fn tile_candidates_hold_only_tile_placements() {
        let tile = Action::PlaceTile { rot: Rotation::from_quarters(1), face: 0, pos: Pos::new(1, 0) };
        assert_eq!(TileCandidates::new(&[tile, tile]).map(|c| c.list().len()), Some(2));
        assert!(TileCandidates::new(&[tile, Action::Pass]).is_none());
        assert!(TileCandidates::new(&[Action::PlaceFigure { kind: 0, feature: 0, part: 0 }]).is_none());
        assert!(TileCandidates::new(&[tile]).is_some_and(|c| c.is_listed()));
    }

    #[test]
    fn vetoes_keep_the_order_of_the_allowed() {
        let at = |x| Action::PlaceTile { rot: Rotation::from_quarters(0), face: 0, pos: Pos::new(x, 0) };
        let mut list: Vec<Action> = (0..300).map(at).collect();
        let mut v = TileVetoes::new();
        assert!(!v.any());
        for i in [0, 63, 64, 255, 256, 299] {
            v.forbid(i);
        }
        assert!(v.any() && v.is_forbidden(256) && v.is_forbidden(299) && !v.is_forbidden(298) && !v.is_forbidden(9999));
        v.retain(&mut list, 0);
        assert_eq!(list.len(), 294);
        assert_eq!((list[0], list[62], list[63]), (at(1), at(65), at(66)));
        assert_eq!(*list.last().unwrap(), at(298));
    }
}
