//! [`HostView`]: the game as a plugin file's hook reads it (the engine's side of
//! [`GameView`]), and the views of figures and actions handed to hooks.

use std::cell::Cell;

use abi_stable::std_types::{RNone, ROption, RSlice, RSome, RStr, RString, RVec};
use carcassonne_core::action::Action;
use carcassonne_core::plugin::{FigurePlacement, Query, QueryKey};

use crate::wrapper::DynamicPlugin;
use carcassonne_core::rules::Rules;
use carcassonne_core::state::{Figure, FigureId, State};
use carcassonne_core::{Pos, TileCandidates};
use carcassonne_plugin_api::{
    ActionView, FeatureView, FigurePlacementView, FigureView, GameView, IdRange, Placement, PluginAction, QueryView,
    RawEffects, TileView, Verdict, NOT_MINE,
};

/// The index of engine figure kind `kind` among a plugin's declared kinds (`own`: their
/// engine ids), or [`NOT_MINE`].
#[inline]
pub(crate) fn own_kind(own: &[u8], kind: u8) -> u32 {
    own.iter().position(|&k| k == kind).map_or(NOT_MINE, |i| i as u32)
}

/// An action of the figure decision as plugin `me` (declared kinds `own`) sees it.
#[inline]
pub(crate) fn action_view<'a>(rules: &'a Rules, st: &State, action: &Action, me: usize, own: &[u8]) -> ActionView<'a> {
    let view = |kind: &'static str| ActionView {
        kind: RStr::from_str(kind),
        figure: RStr::from_str(""),
        part: 0,
        feature: RStr::from_str(""),
        plugin: RStr::from_str(""),
        action: PluginAction::default(),
        mine: false,
    };
    match *action {
        Action::PlaceFigure { kind, part, feature } => {
            let feature = if feature == carcassonne_core::NO_FEATURE || part as usize >= st.board.parts.len() {
                ""
            } else {
                st.graph.node(st.node_of(part, feature)).kind.name()
            };
            ActionView {
                figure: RStr::from_str(rules.figure_kinds.get(kind as usize).map_or("", |k| k.name.as_str())),
                part,
                feature: RStr::from_str(feature),
                mine: own.contains(&kind),
                ..view("figure")
            }
        }
        Action::Pass => view("pass"),
        Action::Plugin { plugin, code, a, b } => ActionView {
            plugin: RStr::from_str(rules.plugins.get(plugin as usize).map_or("", |p| p.name.as_str())),
            action: PluginAction { code, a, b },
            mine: plugin as usize == me,
            ..view("plugin")
        },
        Action::PlaceTile { .. } | Action::PlaceTileVariant { .. } => view("place_tile"),
    }
}

/// A figure as a plugin (declared kinds `own`) sees it.
pub(crate) fn figure_view<'a>(rules: &'a Rules, st: &State, id: FigureId, f: &Figure, own: &[u8]) -> FigureView<'a> {
    let pos = st.board.parts.get(f.part as usize).map_or(Pos::new(0, 0), |p| p.pos);
    FigureView {
        id,
        owner: f.owner,
        figure: RStr::from(rules.figure_kinds.get(f.kind as usize).map_or("", |k| k.name.as_str())),
        own_kind: own_kind(own, f.kind),
        follower: rules.figure_kinds.get(f.kind as usize).is_some_and(|k| k.follower),
        part: f.part,
        x: pos.x,
        y: pos.y,
        node: f.node.into(),
        feature: RStr::from(
            f.node.filter(|&n| (n as usize) < st.graph.len()).map_or("", |n| st.graph.node(n).kind.name()),
        ),
    }
}

/// The game as the plugin reads it. Called from the plugin through its vtable: must not
/// panic (a panic here cannot unwind into the plugin), so every index is checked.
pub struct HostView<'a> {
    rules: &'a Rules,
    st: &'a State,
    /// The plugin's index (it is not asked its own questions) and the plugin (its
    /// declared names resolved to ids).
    me: usize,
    plugin: &'a DynamicPlugin,
    /// What the hook handed back.
    pub(crate) out: Cell<Reported>,
    /// The drawn tile's candidate placements (`judge_tiles` only).
    candidates: Option<&'a TileCandidates<'a>>,
    /// The figure decision's actions (`judge_figure_actions` only).
    actions: &'a [Action],
    /// A decision's candidate figure placements (`judge_figures` only).
    placements: &'a [FigurePlacement],
}

thread_local! {
    /// Empty effect lists (buffers kept) for the next hook that reports effects.
    static SPARE: std::cell::Cell<Option<Box<RawEffects>>> = const { std::cell::Cell::new(None) };
}

/// Gives the lists of applied effects back for reuse.
pub(crate) fn recycle(mut fx: Box<RawEffects>) {
    fx.clear();
    SPARE.set(Some(fx));
}

/// What a hook handed back through the view (boxed: the common `Nothing` stays two words).
#[derive(Default)]
pub(crate) enum Reported {
    #[default]
    Nothing,
    Effects(Box<RawEffects>),
    Error(Box<RString>),
}

impl<'a> HostView<'a> {
    #[inline]
    pub(crate) fn new(rules: &'a Rules, st: &'a State, me: usize, plugin: &'a DynamicPlugin) -> Self {
        HostView {
            rules,
            st,
            me,
            plugin,
            out: Cell::new(Reported::Nothing),
            candidates: None,
            actions: &[],
            placements: &[],
        }
    }

    /// The view of `judge_tiles`: [`GameView::tile_candidates`] lists `candidates`.
    #[inline]
    pub(crate) fn judging(mut self, candidates: &'a TileCandidates<'a>) -> Self {
        self.candidates = Some(candidates);
        self
    }

    /// The view of `judge_figure_actions`: [`GameView::figure_action`] makes the views of
    /// `actions` on demand.
    #[inline]
    pub(crate) fn filtering(mut self, actions: &'a [Action]) -> Self {
        self.actions = actions;
        self
    }

    /// The view of `judge_figures`: [`GameView::figure_candidate`] makes the views of
    /// `placements` on demand.
    #[inline]
    pub(crate) fn vetting(mut self, placements: &'a [FigurePlacement]) -> Self {
        self.placements = placements;
        self
    }
}

impl HostView<'_> {
    /// The other plugins' answer to question `key` (ids that are not on the board count as
    /// none).
    fn ask_key(&self, key: QueryKey, figure: Option<u32>, part: Option<u32>, node: Option<u32>) -> ROption<bool> {
        let figure = figure.filter(|&f| self.st.figures.get(f as usize).is_some_and(|f| f.alive));
        let query = Query {
            key,
            figure,
            kind: figure.map(|f| self.st.figures[f as usize].kind),
            part: part.filter(|&p| self.part_ok(p)),
            node: node.filter(|&n| self.node_ok(n)),
            by: self.me as u8,
        };
        self.rules.answers_except(self.st, &query, self.me).into()
    }

    fn tile_view(&self, part: u32) -> ROption<TileView<'_>> {
        let Some(p) = self.st.board.parts.get(part as usize) else { return RNone };
        let first = self.st.board.parts.get(p.first as usize).unwrap_or(p);
        RSome(TileView {
            tile: RStr::from(self.rules.catalog.tiles[p.tile as usize].id.as_str()),
            face: p.face,
            x: first.pos.x,
            y: first.pos.y,
            rotation: p.rot.degrees(),
        })
    }

    fn node_ok(&self, node: u32) -> bool {
        (node as usize) < self.st.graph.len()
    }

    fn part_ok(&self, part: u32) -> bool {
        (part as usize) < self.st.board.parts.len()
    }
}

impl GameView for HostView<'_> {
    fn players(&self) -> u8 {
        self.st.players as u8
    }
    fn current(&self) -> u8 {
        self.st.current
    }
    fn turn(&self) -> u32 {
        self.st.turn
    }
    fn tiles_left(&self) -> u32 {
        self.st.stack.len() as u32
    }
    fn score(&self, player: u8) -> i32 {
        self.st.scores().get(player as usize).copied().unwrap_or(0)
    }
    fn points_from(&self, player: u8, source: RStr<'_>) -> i32 {
        match self.rules.source(source.as_str()) {
            Some(s) if (player as usize) < self.st.players => self.st.points_by_source[player as usize][s as usize],
            _ => 0,
        }
    }
    fn supply(&self, player: u8, figure: RStr<'_>) -> u32 {
        match self.rules.figure_kind(figure.as_str()) {
            Some(k) if (player as usize) < self.st.players => self.st.supply[player as usize][k as usize] as u32,
            _ => 0,
        }
    }
    fn drawn_tile(&self) -> ROption<RStr<'_>> {
        self.st.tile.map(|t| RStr::from(self.rules.catalog.tiles[t as usize].id.as_str())).into()
    }
    fn placed_tile(&self) -> ROption<TileView<'_>> {
        match self.st.placed {
            Some((first, _)) => self.tile_view(first),
            None => RNone,
        }
    }
    fn tile_at(&self, x: i32, y: i32) -> ROption<TileView<'_>> {
        match self.st.part_at(Pos::new(x, y)) {
            Some(p) => self.tile_view(p),
            None => RNone,
        }
    }
    fn feature(&self, node: u32) -> ROption<FeatureView<'_>> {
        if !self.node_ok(node) {
            return RNone;
        }
        let g = &self.st.graph;
        let root = g.find(node);
        RSome(FeatureView {
            root,
            kind: RStr::from(g.node(root).kind.name()),
            pennants: g.pennants(root),
            open_edges: g.open(root),
            scored: g.is_scored(root),
            followers: g.followers(root),
        })
    }
    fn figure(&self, id: u32) -> ROption<FigureView<'_>> {
        match self.st.figures.get(id as usize) {
            Some(f) if f.alive => RSome(figure_view(self.rules, self.st, id, f, &self.plugin.figure_ids)),
            _ => RNone,
        }
    }
    fn figures_in(&self, node: u32) -> RVec<u32> {
        if !self.node_ok(node) {
            return RVec::new();
        }
        self.st.figures_in(node).collect()
    }
    fn figures(&self) -> RVec<u32> {
        self.st.figures.iter().enumerate().filter(|(_, f)| f.alive).map(|(i, _)| i as u32).collect()
    }
    fn placed_parts(&self) -> IdRange {
        let r = self.st.placed_parts();
        IdRange { first: r.start, end: r.end }
    }
    fn part_features(&self, part: u32) -> IdRange {
        if !self.part_ok(part) {
            return IdRange::default();
        }
        let first = self.st.node_of(part, 0);
        IdRange { first, end: first + self.st.rotated(self.rules, part).features.len() as u32 }
    }
    fn is_complete(&self, node: u32) -> bool {
        self.node_ok(node) && self.st.is_complete(self.st.graph.find(node))
    }
    fn tiles_around(&self, x: i32, y: i32) -> u32 {
        self.st.board.ring_count(Pos::new(x, y))
    }
    fn feature_tiles(&self, node: u32) -> u32 {
        if !self.node_ok(node) {
            return 0;
        }
        self.st.feature_tiles(node)
    }
    fn majority(&self, node: u32) -> u8 {
        if !self.node_ok(node) {
            return 0;
        }
        self.st.majority(self.rules, node)
    }
    fn feature_name(&self, node: u32) -> RString {
        if !self.node_ok(node) {
            return RString::new();
        }
        let n = self.st.graph.node(node);
        let pos = self.st.board.parts[n.part as usize].pos;
        format!("{pos} {}", self.st.local_feature_name(self.rules, n.part, n.local)).into()
    }
    fn part_has_marker(&self, part: u32, marker: RStr<'_>) -> bool {
        let bit = self.rules.catalog.marker(marker.as_str());
        self.part_ok(part) && bit != 0 && self.st.part_markers(self.rules, part) & bit != 0
    }
    fn node_has_modifier(&self, node: u32, modifier: RStr<'_>) -> bool {
        let bit = self.rules.catalog.modifier(modifier.as_str());
        self.node_ok(node) && bit != 0 && self.st.node_modifiers(self.rules, node) & bit != 0
    }
    fn is_follower(&self, figure: RStr<'_>) -> bool {
        self.rules.figure_kind(figure.as_str()).is_some_and(|k| self.rules.figure_kinds[k as usize].follower)
    }
    fn ask(&self, q: &QueryView<'_>) -> ROption<bool> {
        let Some(key) = self.rules.query_key(q.name.as_str()) else { return RNone };
        self.ask_key(key, q.figure.into_option(), q.part.into_option(), q.node.into_option())
    }
    fn is_protected(&self, figure: u32) -> bool {
        self.st.figures.get(figure as usize).is_some_and(|f| f.alive) && self.st.is_protected(self.rules, figure)
    }
    fn allow_figure(&self, p: &FigurePlacementView<'_>) -> bool {
        let own = self.plugin.figure_ids.get(p.own_kind as usize).copied();
        let Some(kind) = own.or_else(|| self.rules.figure_kind(p.figure.as_str())) else { return false };
        let node = p.node.into_option();
        if !self.part_ok(p.part) || node.is_some_and(|n| !self.node_ok(n)) || p.player as usize >= self.st.players {
            return false;
        }
        let fp = FigurePlacement { player: p.player, kind, part: p.part, node };
        self.rules.allow_figure_except(self.st, &fp, self.me)
    }
    fn part_has(&self, part: u32, marker: u32) -> bool {
        let bit = self.plugin.marker_bits.get(marker as usize).copied().unwrap_or(0);
        self.part_ok(part) && self.st.part_markers(self.rules, part) & bit != 0
    }
    fn node_has(&self, node: u32, modifier: u32) -> bool {
        let bit = self.plugin.modifier_bits.get(modifier as usize).copied().unwrap_or(0);
        self.node_ok(node) && self.st.node_modifiers(self.rules, node) & bit != 0
    }
    fn ask_about(&self, question: u32, figure: ROption<u32>, part: ROption<u32>, node: ROption<u32>) -> ROption<bool> {
        let Some(&key) = self.plugin.query_keys.get(question as usize) else { return RNone };
        self.ask_key(key, figure.into_option(), part.into_option(), node.into_option())
    }
    fn own_supply(&self, player: u8, kind: u32) -> u32 {
        match self.plugin.figure_ids.get(kind as usize) {
            Some(&k) if (player as usize) < self.st.players => self.st.supply[player as usize][k as usize] as u32,
            _ => 0,
        }
    }
    fn report_effects(&self, effects: &mut RawEffects) {
        // The first error wins; effects reported twice add up. The lists are swapped with
        // this thread's spare ones (the plugin keeps those buffers: no allocation).
        let merged = match self.out.take() {
            Reported::Nothing => {
                let mut mine = SPARE.take().unwrap_or_default();
                std::mem::swap(&mut *mine, effects);
                Reported::Effects(mine)
            }
            Reported::Effects(mut prev) => {
                prev.points.extend(effects.points.iter().cloned());
                prev.stats.extend(effects.stats.iter().copied());
                prev.figures.extend(effects.figures.iter().copied());
                prev.decisions.extend(effects.decisions.iter().copied());
                prev.scores.extend(effects.scores.iter().cloned());
                if prev.verdict == Verdict::PASS {
                    prev.verdict = effects.verdict;
                }
                Reported::Effects(prev)
            }
            e @ Reported::Error(_) => e,
        };
        self.out.set(merged);
    }
    fn report_error(&self, message: RString) {
        let kept = match self.out.take() {
            e @ Reported::Error(_) => e,
            _ => Reported::Error(Box::new(message)),
        };
        self.out.set(kept);
    }
    fn tile_candidates(&self) -> RSlice<'_, Placement> {
        RSlice::from_slice(self.candidates.map_or(&[], |c| as_placements(c)))
    }
    fn figure_candidate(&self, i: u32) -> FigurePlacementView<'_> {
        match self.placements.get(i as usize) {
            Some(p) => self.plugin.placement_view(self.rules, self.st, p),
            None => FigurePlacementView::NONE,
        }
    }
    fn figure_action(&self, i: u32) -> ActionView<'_> {
        match self.actions.get(i as usize) {
            Some(a) => action_view(self.rules, self.st, a, self.me, &self.plugin.figure_ids),
            None => ActionView::pass(),
        }
    }
}

/// The engine's list of tile placements as the interface's [`Placement`]s, without a copy
/// (listed now if they were not yet).
pub(crate) fn as_placements<'c>(candidates: &'c TileCandidates<'_>) -> &'c [Placement] {
    let list = candidates.list();
    // SAFETY: `Action` is `repr(u8)`, so `Action::PlaceTile` is laid out as a `repr(C)`
    // struct of its tag (0) and fields in order (`Rotation` is one byte, `Pos` two i32):
    // exactly `Placement` (checked below, at compile time); `TileCandidates` holds only
    // that variant.
    unsafe { std::slice::from_raw_parts(list.as_ptr().cast::<Placement>(), list.len()) }
}

/// `Action::PlaceTile` and `Placement` agree on size, alignment and every field.
const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<Action>() == size_of::<Placement>() && align_of::<Action>() == align_of::<Placement>());
    let a = Action::PlaceTile { rot: carcassonne_core::Rotation::from_quarters(3), face: 7, pos: Pos::new(-70_000, 9) };
    // SAFETY: reads only bytes that are fields of both (no padding).
    let p = unsafe { &*(&a as *const Action).cast::<Placement>() };
    assert!(p.tag == Placement::TAG && p.quarters == 3 && p.face == 7 && p.x == -70_000 && p.y == 9);
};
