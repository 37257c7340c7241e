//! Figures of [`State`]: placing, moving and removing them (with the hooks that follow),
//! protection and the dragon's meal, and which figures stand where.

use super::*;
use crate::plugin::{Query, QueryKey};

impl State {
    /// Puts a figure from `owner`'s supply (or a neutral one) on the board.
    pub fn add_figure(&mut self, rules: &Rules, owner: u8, kind: u8, part: u32, node: Option<NodeId>) -> FigureId {
        if owner != NEUTRAL {
            let s = &mut self.supply[owner as usize][kind as usize];
            *s = s.saturating_sub(1);
        }
        if let Some(n) = node {
            if rules.figure_kinds[kind as usize].follower {
                self.graph.add_followers(n, 1);
            }
        }
        let fig = Figure { owner, kind, part, node, data: 0, alive: true };
        let id = match self.figures.iter().position(|f| !f.alive) {
            Some(i) => {
                self.figures[i] = fig;
                i
            }
            None => {
                self.figures.push(fig);
                self.figures.len() - 1
            }
        };
        if owner != NEUTRAL && id < OWN_BITS {
            self.own[owner as usize] |= 1 << id;
        }
        id as FigureId
    }

    /// The live figures of `seat` (or, with [`NEUTRAL`], the neutral ones) on the board, by
    /// id (the order of [`State::figures`]).
    #[inline]
    pub fn own_figures(&self, seat: u8) -> OwnFigures<'_> {
        match self.own.get(seat as usize) {
            Some(&bits) if self.figures.len() <= OWN_BITS => OwnFigures { bits, st: self, seat, scan: usize::MAX },
            // The neutral figures, or a list longer than the bit sets: a scan.
            _ => OwnFigures { bits: 0, st: self, seat, scan: 0 },
        }
    }

    /// Moves a figure to another part/feature (occupancy follows), and tells the plugins
    /// that subscribe to [`crate::plugin::Hooks::FIGURE_MOVED`] (also when it stays where
    /// it is: a plugin may "move" a figure to mark a change, e.g. a knight into a castle).
    pub fn move_figure(&mut self, rules: &Rules, id: FigureId, part: u32, node: Option<NodeId>) {
        let f = self.figures[id as usize];
        let follower = rules.figure_kinds[f.kind as usize].follower;
        if follower {
            if let Some(n) = f.node {
                self.graph.add_followers(n, -1);
            }
            if let Some(n) = node {
                self.graph.add_followers(n, 1);
            }
        }
        let fm = &mut self.figures[id as usize];
        fm.part = part;
        fm.node = node;
        rules.dispatch_figure_moved(self, id, &f);
    }

    /// Takes a figure off the board back to its owner's supply, and tells the plugins.
    pub fn remove_figure(&mut self, rules: &Rules, id: FigureId, why: RemoveReason) {
        let f = self.figures[id as usize];
        if !f.alive {
            return;
        }
        self.figures[id as usize].alive = false;
        if f.owner != NEUTRAL && (id as usize) < OWN_BITS {
            self.own[f.owner as usize] &= !(1 << id);
        }
        if f.owner != NEUTRAL {
            self.supply[f.owner as usize][f.kind as usize] += 1;
        }
        if let Some(n) = f.node {
            if rules.figure_kinds[f.kind as usize].follower {
                self.graph.add_followers(n, -1);
            }
        }
        tracing::debug!(
            turn = self.turn,
            figure = rules.figure_kinds[f.kind as usize].name.as_str(),
            owner = f.owner,
            at = self.figure_place_name(rules, &f).as_str(),
            by = match why {
                RemoveReason::Scored => "scored",
                RemoveReason::Plugin(p) => rules.plugins[p as usize].name.as_str(),
            },
            "figure removed"
        );
        if self.log.is_some() {
            let at = self.figure_place_name(rules, &f);
            let reason = match why {
                RemoveReason::Scored => "scored".to_string(),
                RemoveReason::Plugin(p) => rules.plugins[p as usize].name.clone(),
            };
            self.log_entry(LogEntry::Removed {
                figure: rules.figure_kinds[f.kind as usize].name.clone(),
                owner: f.owner,
                at,
                reason,
            });
        }
        rules.dispatch_figure_removed(self, id, &f, why);
    }

    /// PD-DRAGON-7: after figure `f` (a follower) left the feature it stood in, when its
    /// owner has no follower left in that feature, the owner's figures there that need one
    /// (a plugin answers the [`crate::plugin::Query`] `needs_follower` with true: builder,
    /// pig...) leave too, for the same reason. Does nothing for figures that are not
    /// followers or stood in no feature.
    pub fn release_dependents(&mut self, rules: &Rules, f: &Figure, why: RemoveReason) {
        let Some(node) = f.node else { return };
        if !rules.is_answered(QueryKey::NEEDS_FOLLOWER) {
            return;
        }
        if f.owner == NEUTRAL || !rules.figure_kinds[f.kind as usize].follower {
            return;
        }
        let root = self.graph.find(node);
        let mut deps: [FigureId; 8] = [0; 8];
        let mut n = 0;
        for (i, g) in self.figures.iter().enumerate() {
            if !g.alive || g.owner != f.owner || g.node.is_none_or(|m| self.graph.find(m) != root) {
                continue;
            }
            if rules.figure_kinds[g.kind as usize].follower {
                return;
            }
            if n < deps.len() {
                deps[n] = i as FigureId;
                n += 1;
            }
        }
        for &id in &deps[..n] {
            let by = match why {
                RemoveReason::Plugin(p) => p,
                RemoveReason::Scored => u8::MAX,
            };
            let q = Query::about_figure(QueryKey::NEEDS_FOLLOWER, id, &self.figures[id as usize], by);
            if rules.verdict(self, &q, false) {
                self.remove_figure(rules, id, why);
            }
        }
    }

    /// `(x,y) feature` or `(x,y)` of where a figure stands.
    pub fn figure_place_name(&self, rules: &Rules, f: &Figure) -> String {
        let pos = self.board.parts[f.part as usize].pos;
        match f.node {
            Some(n) => {
                let node = self.graph.node(n);
                format!("{} {}", pos, self.local_feature_name(rules, node.part, node.local))
            }
            None => pos.to_string(),
        }
    }

    /// Whether any plugin protects this figure.
    pub fn is_protected(&self, rules: &Rules, id: FigureId) -> bool {
        rules.dispatch_protected(self, id)
    }

    /// Whether `id` may be removed by plugin `by`'s effect on its tile (e.g. eaten by a
    /// dragon, PD-DRAGON-6): not when any plugin protects it or answers the `eatable`
    /// query with false ([`Rules::verdict`]); by default every player's figure may,
    /// neutral figures not.
    pub fn is_eatable(&self, rules: &Rules, id: FigureId, by: u8) -> bool {
        let f = &self.figures[id as usize];
        if !f.alive {
            return false;
        }
        let q = Query::about_figure(QueryKey::EATABLE, id, f, by);
        rules.verdict(self, &q, f.owner != NEUTRAL) && !self.is_protected(rules, id)
    }

    /// Removes every eatable figure on part `part` for plugin `by` (see
    /// [`State::is_eatable`]); returns how many left the board.
    pub fn eat_figures_on(&mut self, rules: &Rules, part: u32, by: u8) -> u32 {
        let ids: FigureList = self.figures_on(part).collect();
        let mut eaten = 0;
        for &id in ids.iter() {
            // Each removal may release others (PD-DRAGON-7): check again before eating.
            if self.is_eatable(rules, id, by) {
                self.remove_figure(rules, id, RemoveReason::Plugin(by));
                eaten += 1;
            }
        }
        eaten
    }

    /// Whether figures `a` and `b` are alike where they stand: same kind and owner on the
    /// same part and feature node. Actions that pick one of two such figures are told alike in
    /// records, so a plugin offers one of them (the first) and replays pick the same
    /// ([`OnePerPlace`]).
    pub fn same_place(&self, a: FigureId, b: FigureId) -> bool {
        let (f, g) = (&self.figures[a as usize], &self.figures[b as usize]);
        f.kind == g.kind && f.owner == g.owner && f.part == g.part && f.node == g.node
    }

    /// Figures standing in the feature of `n`.
    pub fn figures_in(&self, n: NodeId) -> impl Iterator<Item = FigureId> + '_ {
        let root = self.graph.find(n);
        self.figures
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.alive && f.node.is_some_and(|fnode| self.graph.find(fnode) == root))
            .map(|(i, _)| i as FigureId)
    }

    /// Roots of the features that followers occupy and that were not scored yet, each once,
    /// in node order: the features of [`crate::graph::Graph::roots`] with followers, found
    /// from the figures on the board instead of a walk over every node (final scoring).
    pub fn occupied_roots(&self, rules: &Rules) -> Vec<NodeId> {
        self.occupied_features(rules).into_iter().map(|o| o.root).collect()
    }

    /// The features of [`State::occupied_roots`], in the same order, each with the strength
    /// its figures give each seat by figure kind (as [`State::strengths`] counts them before
    /// the plugins adjust them): one walk over the figures for all of them (final scoring
    /// scores each one's majority with [`State::majority_of`]).
    pub fn occupied_features(&self, rules: &Rules) -> Vec<OccupiedFeature> {
        let mut out: Vec<OccupiedFeature> = Vec::new();
        for f in self.figures.iter().filter(|f| f.alive) {
            let Some(n) = f.node else { continue };
            let kind = &rules.figure_kinds[f.kind as usize];
            let root = self.graph.find(n);
            if self.graph.is_scored(root) {
                continue;
            }
            let i = match out.iter().position(|o| o.root == root) {
                Some(i) => i,
                None => {
                    out.push(OccupiedFeature { root, strengths: [0; MAX_PLAYERS], followers: false });
                    out.len() - 1
                }
            };
            out[i].followers |= kind.follower;
            if f.owner != NEUTRAL {
                out[i].strengths[f.owner as usize] += kind.strength as u32;
            }
        }
        out.retain(|o| o.followers);
        out.sort_unstable_by_key(|o| o.root);
        out
    }

    /// Figures standing on part `part` (on any of its features or on the tile).
    pub fn figures_on(&self, part: u32) -> impl Iterator<Item = FigureId> + '_ {
        self.figures.iter().enumerate().filter(move |(_, f)| f.alive && f.part == part).map(|(i, _)| i as FigureId)
    }
}

/// The live figures of a seat ([`State::own_figures`]).
pub struct OwnFigures<'a> {
    bits: u64,
    st: &'a State,
    seat: u8,
    /// The next id to scan (`usize::MAX`: the bits are the answer).
    scan: usize,
}

impl Iterator for OwnFigures<'_> {
    type Item = FigureId;

    #[inline]
    fn next(&mut self) -> Option<FigureId> {
        if self.bits != 0 {
            let id = self.bits.trailing_zeros();
            self.bits &= self.bits - 1;
            return Some(id as FigureId);
        }
        while self.scan < self.st.figures.len() {
            let (id, f) = (self.scan, &self.st.figures[self.scan]);
            self.scan += 1;
            if f.alive && f.owner == self.seat {
                return Some(id as FigureId);
            }
        }
        None
    }
}

/// A feature that followers occupy and that was not scored yet: its root, and the strength
/// its figures give each seat by figure kind ([`State::occupied_features`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OccupiedFeature {
    /// The feature's root node.
    pub root: NodeId,
    /// Strength per seat by figure kind alone.
    pub strengths: [u32; MAX_PLAYERS],
    followers: bool,
}

/// Figure ids copied out of the state: a list to go through while figures leave or move,
/// without an allocation for up to [`FigureList::INLINE`] of them (more spill to the heap).
/// Collect it from an iterator of ids; it reads as a slice.
#[derive(Clone, Debug, Default)]
pub struct FigureList(smallvec::SmallVec<[FigureId; FigureList::INLINE]>);

impl FigureList {
    /// Ids kept without an allocation.
    pub const INLINE: usize = 32;
}

impl FromIterator<FigureId> for FigureList {
    fn from_iter<I: IntoIterator<Item = FigureId>>(iter: I) -> FigureList {
        FigureList(iter.into_iter().collect())
    }
}

impl std::ops::Deref for FigureList {
    type Target = [FigureId];
    fn deref(&self) -> &[FigureId] {
        &self.0
    }
}

/// Keeps one choice per place among a plugin's actions that each pick a figure (operand `a`
/// of [`Action::Plugin`] is the figure id): two alike figures at one place (two followers of
/// a seat in an acrobat pyramid, [`State::same_place`]) would be described alike in a record,
/// and a replay would pick the first. Made before the plugin pushes its first such action;
/// a 64-bit filter of the parts offered so far spares the look back on other parts.
pub struct OnePerPlace {
    start: usize,
    parts: u64,
}

impl OnePerPlace {
    /// For the actions pushed onto `out` from now on.
    pub fn new(out: &[Action]) -> OnePerPlace {
        OnePerPlace { start: out.len(), parts: 0 }
    }

    /// Whether figure `id` is the first of its place among the actions pushed since
    /// [`OnePerPlace::new`]; call it only for a figure about to be offered.
    #[inline]
    pub fn first(&mut self, st: &State, out: &[Action], id: FigureId) -> bool {
        let bit = 1u64 << (st.figures[id as usize].part % 64);
        let twin = self.parts & bit != 0
            && out[self.start..].iter().any(|a| match *a {
                Action::Plugin { a: other, .. } => st.same_place(other as FigureId, id),
                _ => false,
            });
        self.parts |= bit;
        !twin
    }
}
