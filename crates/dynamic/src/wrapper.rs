//! [`DynamicPlugin`]: a plugin file's rule as a [`carcassonne_core::Plugin`]. Each hook
//! builds a view of the game (two pointers: nothing is copied), calls across the library
//! boundary, checks what comes back and applies it.
//!
//! A hook failure (the plugin's hook returned an error or panicked: the plugin side turns a
//! panic into an error before it reaches the boundary) or an invalid effect (points to a
//! seat not in the game, an undeclared score source or statistic, a verdict the hook may
//! not give) applies nothing and stops the game through [`State::fail`], naming the plugin
//! and the hook; the driver reports it. After a failure the plugin is not called again in
//! that game.

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::sabi_types::RRef;

use crate::host_view::{action_view, figure_view, HostView, Reported};

use abi_stable::std_types::{RSlice, RSliceMut, RStr, RVec};
use carcassonne_core::action::Action;
use carcassonne_core::config::FilePlugin;
use carcassonne_core::plugin::{DrawVerdict, FigurePlacement, Hooks, Plugin, Query, TilePlacement};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{Figure, FigureId, LogEntry, RemoveReason, ScoreEvent, State};
use carcassonne_core::{NodeId, Pos, TileCandidates, TileTypeId};
use carcassonne_plugin_api as api;
use carcassonne_plugin_api::{
    ActionView, FigurePlacementView, GameView_TO, HouseRuleBox, Placement, QueryView, RawEffects, RemovedView,
    ScoreView, Verdict, View,
};

/// A run-time plugin, as the engine runs it.
pub struct DynamicPlugin {
    name: String,
    /// The file it came from, for messages.
    file: String,
    hooks: Hooks,
    rule: HouseRuleBox,
    /// Declared score sources and statistics, and their indices in the rule set.
    sources: Vec<String>,
    stats: Vec<String>,
    source_ids: Vec<u8>,
    stat_ids: Vec<usize>,
}

impl std::fmt::Debug for DynamicPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynamicPlugin").field("name", &self.name).field("file", &self.file).finish()
    }
}

/// Hook indices (bit numbers), as in [`api::Hooks::NAMES`].
mod bit {
    pub const GAME_START: usize = 0;
    pub const TURN_START: usize = 1;
    pub const TILE_DRAWN: usize = 2;
    pub const ALLOW_TILE: usize = 3;
    pub const TILE_PLACED: usize = 4;
    pub const FIGURE_ACTIONS: usize = 5;
    pub const ALLOW_FIGURE: usize = 6;
    pub const FIGURE_PLACED: usize = 7;
    pub const FIGURE_ACTION_DONE: usize = 8;
    pub const FEATURE_COMPLETED: usize = 9;
    pub const FEATURE_SCORED: usize = 10;
    pub const FIGURE_REMOVED: usize = 11;
    pub const PROTECTED: usize = 12;
    pub const SCORING_DONE: usize = 13;
    pub const TURN_END: usize = 14;
    pub const FINAL_SCORING: usize = 15;
    pub const QUERY: usize = 16;
    pub const FIGURE_FILTER: usize = 17;
}

impl DynamicPlugin {
    /// Checks what a plugin file's constructor returned and wraps it.
    pub fn from_instance(inst: api::Instance, file: &str) -> Result<FilePlugin, String> {
        let name = inst.name.to_string();
        let who = format!("plugin '{name}' (file '{file}')");
        if name.is_empty() || name.chars().any(char::is_whitespace) {
            return Err(format!("plugin file '{file}' declares an invalid name '{name}'"));
        }
        if inst.hooks.0 & !api::Hooks::ALL.0 != 0 {
            return Err(format!(
                "{who} subscribes to hooks this engine does not know (bits {:#x}): it was built against \
                 plugin interface {}, newer than this engine's {}",
                inst.hooks.0 & !api::Hooks::ALL.0,
                inst.built_with,
                crate::api_version()
            ));
        }
        let options: serde_json::Value = serde_json::from_str(inst.options.as_str())
            .map_err(|e| format!("{who} returned resolved options that are not JSON: {e}"))?;
        let strings = |v: &RVec<abi_stable::std_types::RString>| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let sources = strings(&inst.sources);
        let stats = strings(&inst.stats);
        let requires = strings(&inst.requires);
        let conflicts = strings(&inst.conflicts);
        let plugin = DynamicPlugin {
            name: name.clone(),
            file: file.to_string(),
            hooks: Hooks(inst.hooks.0),
            rule: inst.rule,
            sources,
            stats,
            source_ids: Vec::new(),
            stat_ids: Vec::new(),
        };
        Ok(FilePlugin { name, requires, conflicts, options, plugin: Box::new(plugin) })
    }

    /// The file the plugin was loaded from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Records a failure in `hook`, stopping the game.
    #[cold]
    fn fail(&self, st: &State, hook: usize, what: std::fmt::Arguments<'_>) {
        let name = api::Hooks::NAMES[hook];
        st.fail(format!("turn {}: plugin '{}' (file '{}'), hook {name}: {what}", st.turn, self.name, self.file));
    }

    /// Checks and applies the effects a hook that may change the game handed back; returns
    /// the verdict (PASS after a failure).
    #[cold]
    fn apply(&self, st: &mut State, hook: usize, out: Reported) -> Verdict {
        let fx = match out {
            Reported::Effects(fx) => fx,
            Reported::Error(e) => {
                self.fail(st, hook, format_args!("{e}"));
                return Verdict::PASS;
            }
            Reported::Nothing => return Verdict::PASS,
        };
        if let Err(e) = self.check(st, hook, &fx) {
            self.fail(st, hook, format_args!("invalid effect: {e}"));
            return Verdict::PASS;
        }
        for p in fx.points.iter() {
            let source = self.source_ids[p.source as usize];
            let reason = if p.reason.is_empty() { self.name.as_str() } else { p.reason.as_str() };
            st.score_other(p.player, p.points, source, reason);
        }
        for s in fx.stats.iter() {
            st.bump_stat(self.stat_ids[s.stat as usize], s.by);
        }
        fx.verdict
    }

    fn check(&self, st: &State, hook: usize, fx: &RawEffects) -> Result<(), String> {
        let verdict_ok = fx.verdict == Verdict::PASS || (hook == bit::TILE_DRAWN && fx.verdict == Verdict::VETO);
        if !verdict_ok {
            return Err(format!("verdict '{}' ({}) is not one this hook may give", fx.verdict.name(), fx.verdict.0));
        }
        for p in fx.points.iter() {
            if p.player as usize >= st.players {
                return Err(format!("points to seat {}, but the game has {} seats", p.player, st.players));
            }
            if p.source as usize >= self.sources.len() {
                return Err(format!(
                    "points under score source #{}, but the plugin declared {} ({})",
                    p.source,
                    self.sources.len(),
                    self.sources.join(", ")
                ));
            }
        }
        for s in fx.stats.iter() {
            if s.stat as usize >= self.stats.len() {
                return Err(format!(
                    "statistic #{}, but the plugin declared {} ({})",
                    s.stat,
                    self.stats.len(),
                    self.stats.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// What a judging hook handed back besides its verdict: an error, or effects it may not
    /// have. Either stops the game; the verdict then counts as PASS.
    #[cold]
    fn judged_badly(&self, st: &State, hook: usize, out: Reported) -> Verdict {
        match out {
            Reported::Error(e) => self.fail(st, hook, format_args!("{e}")),
            Reported::Effects(_) => {
                self.fail(st, hook, format_args!("invalid effect: this hook may not change the game"))
            }
            Reported::Nothing => {}
        }
        Verdict::PASS
    }

    /// Runs a hook that may change the game, unless the game already failed.
    #[inline]
    fn run(&self, rules: &Rules, st: &mut State, hook: usize, call: impl FnOnce(&HouseRuleBox, View<'_>)) -> Verdict {
        if st.failure().is_some() {
            return Verdict::PASS;
        }
        let out = {
            let hv = HostView::new(rules, st);
            call(&self.rule, view(&hv));
            hv.out.into_inner()
        };
        match out {
            Reported::Nothing => Verdict::PASS,
            out => self.apply(st, hook, out),
        }
    }

    /// Runs a hook that only judges, unless the game already failed; `allowed` are the
    /// verdicts besides PASS it may give.
    #[inline]
    fn judge(
        &self,
        rules: &Rules,
        st: &State,
        hook: usize,
        allowed: &[Verdict],
        call: impl FnOnce(&HouseRuleBox, View<'_>) -> Verdict,
    ) -> Verdict {
        if st.failure().is_some() {
            return Verdict::PASS;
        }
        let hv = HostView::new(rules, st);
        let v = call(&self.rule, view(&hv));
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            return self.judged_badly(st, hook, out);
        }
        if v != Verdict::PASS && !allowed.contains(&v) {
            self.fail(
                st,
                hook,
                format_args!("invalid effect: verdict '{}' ({}) is not one this hook may give", v.name(), v.0),
            );
            return Verdict::PASS;
        }
        v
    }
}

impl DynamicPlugin {
    /// [`Plugin::restrict_figure_actions`] for a long action list (views on the heap).
    #[cold]
    #[inline(never)]
    fn restrict_many(&self, rules: &Rules, st: &State, out: &mut Vec<Action>) {
        let views: Vec<ActionView<'_>> = out.iter().map(|a| action_view(rules, st, a)).collect();
        let mut keep = vec![true; out.len()];
        self.filter(rules, st, &views, &mut keep, out);
    }

    /// Asks the plugin which `views` (of `out`) to keep, then drops the others from `out`.
    #[inline]
    fn filter(&self, rules: &Rules, st: &State, views: &[ActionView<'_>], keep: &mut [bool], out: &mut Vec<Action>) {
        let hv = HostView::new(rules, st);
        self.rule.filter_figure_actions(view(&hv), RSlice::from_slice(views), RSliceMut::from_mut_slice(keep));
        let reported = hv.out.into_inner();
        if !matches!(reported, Reported::Nothing) {
            self.judged_badly(st, bit::FIGURE_FILTER, reported);
            return;
        }
        if keep.iter().fold(true, |all, &k| all & k) {
            return;
        }
        if !keep.contains(&true) {
            self.fail(
                st,
                bit::FIGURE_FILTER,
                format_args!("invalid effect: it removed every action of the figure decision"),
            );
            return;
        }
        let mut k = keep.iter();
        out.retain(|_| *k.next().unwrap_or(&true));
    }
}

#[inline]
fn view<'a>(hv: &'a HostView<'a>) -> View<'a> {
    GameView_TO::from_ptr(RRef::new(hv), TD_Opaque)
}

impl Plugin for DynamicPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    fn hooks(&self) -> Hooks {
        self.hooks
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.source_ids = self.sources.iter().map(|s| reg.source(s)).collect::<Result<_, _>>()?;
        for s in &self.stats {
            carcassonne_core::error::check_printable("statistic", s)?;
        }
        self.stat_ids = self.stats.iter().map(|s| reg.stat(s)).collect();
        Ok(())
    }

    fn on_game_start(&self, rules: &Rules, st: &mut State, _me: usize) {
        self.run(rules, st, bit::GAME_START, |r, v| r.on_game_start(v));
    }

    fn on_turn_start(&self, rules: &Rules, st: &mut State, _me: usize) {
        self.run(rules, st, bit::TURN_START, |r, v| r.on_turn_start(v));
    }

    fn on_tile_drawn(&self, rules: &Rules, st: &mut State, _me: usize, tile: TileTypeId) -> DrawVerdict {
        let id = rules.catalog.tiles[tile as usize].id.as_str();
        let v = self.run(rules, st, bit::TILE_DRAWN, |r, v| r.on_tile_drawn(v, RStr::from(id)));
        if v == Verdict::VETO {
            st.log_entry(LogEntry::Note { plugin: self.name.clone(), text: format!("took tile {id} out of the game") });
            DrawVerdict::Taken
        } else {
            DrawVerdict::Keep
        }
    }

    fn allow_tile(&self, rules: &Rules, st: &State, _me: usize, p: &TilePlacement) -> bool {
        if st.failure().is_some() {
            return true;
        }
        let one = [Placement::new(p.pos.x, p.pos.y, p.rot.quarters(), p.face)];
        let mut allowed = [true];
        let id = RStr::from(rules.catalog.tiles[p.tile as usize].id.as_str());
        let hv = HostView::new(rules, st);
        self.rule.allow_tiles(view(&hv), id, RSlice::from_slice(&one), RSliceMut::from_mut_slice(&mut allowed));
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::ALLOW_TILE, out);
            return true;
        }
        allowed[0]
    }

    /// One call across the boundary per decision: the engine's candidate list itself
    /// (laid out as [`Placement`]s: see `as_placements`).
    fn allow_tiles(
        &self,
        rules: &Rules,
        st: &State,
        _me: usize,
        tile: TileTypeId,
        candidates: TileCandidates<'_>,
        allowed: &mut [bool],
    ) {
        if st.failure().is_some() {
            return;
        }
        let id = RStr::from(rules.catalog.tiles[tile as usize].id.as_str());
        let hv = HostView::new(rules, st);
        let placed = as_placements(candidates);
        let n = placed.len().min(allowed.len());
        let (placed, oks) = (&placed[..n], &mut allowed[..n]);
        self.rule.allow_tiles(view(&hv), id, RSlice::from_slice(placed), RSliceMut::from_mut_slice(oks));
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::ALLOW_TILE, out);
            allowed.fill(true);
        }
    }

    fn on_tile_placed(&self, rules: &Rules, st: &mut State, _me: usize) {
        self.run(rules, st, bit::TILE_PLACED, |r, v| r.on_tile_placed(v));
    }

    fn figure_actions(&self, rules: &Rules, st: &State, _me: usize, _out: &mut Vec<Action>) {
        self.judge(rules, st, bit::FIGURE_ACTIONS, &[], |r, v| r.figure_actions(v));
    }

    fn allow_figure(&self, rules: &Rules, st: &State, _me: usize, p: &FigurePlacement) -> bool {
        let pos = st.board.parts[p.part as usize].pos;
        let fv = FigurePlacementView {
            player: p.player,
            figure: RStr::from(rules.figure_kinds[p.kind as usize].name.as_str()),
            part: p.part,
            x: pos.x,
            y: pos.y,
            node: p.node.into(),
            feature: RStr::from(p.node.map_or("", |n| st.graph.node(n).kind.name())),
        };
        self.judge(rules, st, bit::ALLOW_FIGURE, &[Verdict::VETO], |r, v| r.allow_figure(v, &fv)) != Verdict::VETO
    }

    fn on_figure_placed(&self, rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        self.run(rules, st, bit::FIGURE_PLACED, |r, v| r.on_figure_placed(v, fig));
    }

    fn on_figure_action_done(&self, rules: &Rules, st: &mut State, _me: usize, action: &Action) {
        let av = action_view(rules, st, action);
        self.run(rules, st, bit::FIGURE_ACTION_DONE, |r, v| r.on_figure_action_done(v, &av));
    }

    fn restrict_figure_actions(&self, rules: &Rules, st: &State, _me: usize, out: &mut Vec<Action>) {
        if st.failure().is_some() || out.is_empty() {
            return;
        }
        // On the stack for the usual few actions (no allocation per decision).
        const STACK: usize = 16;
        if out.len() > STACK {
            return self.restrict_many(rules, st, out);
        }
        let mut views = [std::mem::MaybeUninit::<ActionView<'_>>::uninit(); STACK];
        for (slot, a) in views.iter_mut().zip(out.iter()) {
            slot.write(action_view(rules, st, a));
        }
        // SAFETY: the first `out.len()` slots were just written.
        let views = unsafe { std::slice::from_raw_parts(views.as_ptr().cast::<ActionView<'_>>(), out.len()) };
        let mut keep = [true; STACK];
        self.filter(rules, st, views, &mut keep[..out.len()], out);
    }

    fn on_feature_completed(&self, rules: &Rules, st: &mut State, _me: usize, root: NodeId) {
        self.run(rules, st, bit::FEATURE_COMPLETED, |r, v| r.on_feature_completed(v, root));
    }

    fn on_feature_scored(&self, rules: &Rules, st: &mut State, _me: usize, ev: &ScoreEvent) {
        let sv = ScoreView {
            root: ev.root.into(),
            feature: RStr::from(ev.root.map_or("", |n| st.graph.node(n).kind.name())),
            winners: ev.winners,
            points: ev.points,
            source: RStr::from(rules.sources.get(ev.source as usize).map_or("", String::as_str)),
            final_scoring: ev.final_scoring,
        };
        self.run(rules, st, bit::FEATURE_SCORED, |r, v| r.on_feature_scored(v, &sv));
    }

    fn on_figure_removed(
        &self,
        rules: &Rules,
        st: &mut State,
        _me: usize,
        id: FigureId,
        fig: &Figure,
        why: RemoveReason,
    ) {
        let reason = match why {
            RemoveReason::Scored => "scored",
            RemoveReason::Plugin(p) => rules.plugins.get(p as usize).map_or("", |p| p.name.as_str()),
        };
        let rv = RemovedView { figure: figure_view(rules, st, id, fig), reason: reason.into() };
        self.run(rules, st, bit::FIGURE_REMOVED, |r, v| r.on_figure_removed(v, &rv));
    }

    fn is_protected(&self, rules: &Rules, st: &State, _me: usize, id: FigureId) -> bool {
        self.judge(rules, st, bit::PROTECTED, &[Verdict::PROTECT], |r, v| r.is_protected(v, id)) == Verdict::PROTECT
    }

    fn on_scoring_done(&self, rules: &Rules, st: &mut State, _me: usize) {
        self.run(rules, st, bit::SCORING_DONE, |r, v| r.on_scoring_done(v));
    }

    fn on_turn_end(&self, rules: &Rules, st: &mut State, _me: usize) {
        self.run(rules, st, bit::TURN_END, |r, v| r.on_turn_end(v));
    }

    fn on_final_scoring(&self, rules: &Rules, st: &mut State, _me: usize) {
        self.run(rules, st, bit::FINAL_SCORING, |r, v| r.on_final_scoring(v));
    }

    fn answer(&self, rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let qv = QueryView {
            name: rules.query_name(q.key).into(),
            figure: q.figure.into(),
            part: q.part.into(),
            node: q.node.into(),
            by: RStr::from(rules.plugins.get(q.by as usize).map_or("", |p| p.name.as_str())),
        };
        match self.judge(rules, st, bit::QUERY, &[Verdict::YES, Verdict::NO], |r, v| r.answer(v, &qv)) {
            Verdict::YES => Some(true),
            Verdict::NO => Some(false),
            _ => None,
        }
    }
}

/// The engine's list of tile placements as the interface's [`Placement`]s, without a copy.
fn as_placements(candidates: TileCandidates<'_>) -> &[Placement] {
    let list = candidates.as_slice();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The interface's hooks are the engine's first ones, bit for bit; the engine may know
    /// more (FIGURE_MOVED), which plugin files cannot subscribe to.
    #[test]
    fn hook_bits_match_the_engine() {
        let core: Vec<(&str, u32)> = Hooks::NAMES.iter().map(|(n, h)| (*n, h.0)).collect();
        assert!(core.len() >= api::Hooks::NAMES.len());
        let engine_names = [
            "GAME_START",
            "TURN_START",
            "TILE_DRAWN",
            "ALLOW_TILE",
            "TILE_PLACED",
            "FIGURE_ACTIONS",
            "ALLOW_FIGURE",
            "FIGURE_PLACED",
            "FIGURE_ACTION_DONE",
            "FEATURE_COMPLETED",
            "FEATURE_SCORED",
            "FIGURE_REMOVED",
            "PROTECTED",
            "SCORING_DONE",
            "TURN_END",
            "FINAL_SCORING",
            "QUERY",
            "FIGURE_FILTER",
            "FIGURE_MOVED",
        ];
        assert_eq!(core.len(), engine_names.len());
        for (b, (name, bits)) in core.iter().enumerate() {
            assert_eq!(*name, engine_names[b]);
            assert_eq!(*bits, 1 << b, "{name}");
        }
        assert_eq!(api::Hooks::ALL.0, (1 << api::Hooks::NAMES.len()) - 1);
    }
}
