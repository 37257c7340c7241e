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

use crate::conditions::{Conditions, Subject};
use crate::host_view::{action_view, as_placements, figure_view, HostView, Reported};

use abi_stable::std_types::{RErr, ROk, RSlice, RSliceMut, RStr, RVec};
use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::FilePlugin;
use carcassonne_core::plugin::{
    DrawVerdict, FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey, TilePlacement,
};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{Figure, FigureId, LogEntry, RemoveReason, ScoreEvent, State, MAX_PLAYERS};
use carcassonne_core::{NodeId, TileCandidates, TileTypeId, TileVetoes};
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
    /// Which declared sources are extra (indices of `sources`).
    extra: Vec<u32>,
    stats: Vec<String>,
    source_ids: Vec<u8>,
    stat_ids: Vec<usize>,
    /// Declared figure kinds and their indices in the rule set.
    figures: Vec<api::FigureKindDecl>,
    pub(crate) figure_ids: Vec<u8>,
    /// Declared question names and their keys in the rule set ([`api::GameView::ask_about`]).
    queries: Vec<String>,
    pub(crate) query_keys: Vec<QueryKey>,
    /// Declared markers and modifiers and their bits in the catalog.
    markers: Vec<String>,
    modifiers: Vec<String>,
    pub(crate) marker_bits: Vec<u32>,
    pub(crate) modifier_bits: Vec<u32>,
    /// Declared hook conditions, and resolved (bit tables checked before a call).
    conditions: Vec<api::HookCondition>,
    conds: Conditions,
    /// Declared land tiles (set, marker, first edition) and the markers' bits.
    land_tiles: Vec<(String, String, bool)>,
    land_markers: Vec<u32>,
    /// Declared figure looks (since 4.2), checked.
    looks: Vec<api::FigureLookDecl>,
    /// Whether the file has `draw` (built against 4.2 or later).
    draws: bool,
    /// Whether the file has `judge_tiles` (built against 4.3 or later).
    judges: bool,
    /// Whether the file has `judge_figure_actions` and `judge_figures` (built against 4.4 or
    /// later): the figure decision's views made on demand.
    views_on_demand: bool,
}

/// A plugin file's per-game state in the engine's slot: the plugin's box and the address
/// of its value (asked once per box, so that a hook call costs no extra call).
#[derive(Debug)]
pub struct FileState {
    obj: Option<api::StateBox>,
    ptr: *mut (),
    /// Why there is no state (`init_state` failed, or the clone panicked).
    error: Option<String>,
}

// SAFETY: `ptr` points into `obj`, which is `Send + Sync` (the interface requires it); it
// is only dereferenced by the plugin, during a hook call on the thread that owns the game.
unsafe impl Send for FileState {}
unsafe impl Sync for FileState {}

impl FileState {
    fn new(obj: api::StateBox) -> FileState {
        let mut obj = obj;
        let ptr = obj.state_ptr();
        let error = ptr.is_null().then(|| "its state is unusable (its clone panicked)".to_string());
        FileState { obj: Some(obj), ptr, error }
    }
    fn failed(error: String) -> FileState {
        FileState { obj: None, ptr: std::ptr::null_mut(), error: Some(error) }
    }
}

impl Clone for FileState {
    fn clone(&self) -> Self {
        match &self.obj {
            Some(o) if self.error.is_none() => FileState::new(o.clone()),
            _ => FileState { obj: None, ptr: std::ptr::null_mut(), error: self.error.clone() },
        }
    }
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
    pub const FIGURE_MOVED: usize = 18;
    pub const SCORING_STEP: usize = 19;
    pub const MAJORITY: usize = 20;
    /// Not hooks: the calls about the plugin's own actions and state, named in errors.
    pub const INIT_STATE: usize = 21;
    pub const DECISION_ACTIONS: usize = 22;
    pub const APPLY_ACTION: usize = 23;
    pub const DESCRIBE_ACTION: usize = 24;
    /// Names of the calls above.
    pub const CALLS: [&str; 4] = ["init_state", "decision_actions", "apply_action", "describe_action"];
}

/// The name of hook or call `i` in errors.
fn hook_name(i: usize) -> &'static str {
    api::Hooks::NAMES.get(i).copied().unwrap_or_else(|| bit::CALLS.get(i - bit::INIT_STATE).copied().unwrap_or("?"))
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
        if inst.hooks.contains(api::Hooks::MAJORITY) && inst.built_with.minor < 1 {
            // A 4.0 file has no `adjust_strengths`/`break_tie` to call.
            return Err(format!(
                "{who} subscribes to the majority hook, which plugin interface {} does not have (it came in 4.1)",
                inst.built_with
            ));
        }
        // `figure_looks` and `draw` came in 4.2: an older file has neither to call.
        let draws = inst.built_with.minor >= 2;
        let looks: Vec<api::FigureLookDecl> =
            if draws { inst.rule.figure_looks().into_iter().collect() } else { Vec::new() };
        for l in &looks {
            if l.figure as usize >= inst.figures.len() {
                return Err(format!("{who} gives a look to figure kind {}, which it does not declare", l.figure));
            }
            crate::drawing::check_svg(l.svg.as_str())
                .map_err(|e| format!("{who}, look of figure kind '{}': {e}", inst.figures[l.figure as usize].name))?;
        }
        let options: serde_json::Value = serde_json::from_str(inst.options.as_str())
            .map_err(|e| format!("{who} returned resolved options that are not JSON: {e}"))?;
        let strings = |v: &RVec<abi_stable::std_types::RString>| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let sources = strings(&inst.sources);
        let stats = strings(&inst.stats);
        let requires = strings(&inst.requires);
        let conflicts = strings(&inst.conflicts);
        let tile_files = strings(&inst.tile_files);
        let plugin = DynamicPlugin {
            name: name.clone(),
            file: file.to_string(),
            hooks: Hooks(inst.hooks.0),
            rule: inst.rule,
            sources,
            extra: inst.extra_sources.iter().copied().collect(),
            stats,
            source_ids: Vec::new(),
            stat_ids: Vec::new(),
            figures: inst.figures.iter().cloned().collect(),
            figure_ids: Vec::new(),
            queries: strings(&inst.queries),
            query_keys: Vec::new(),
            markers: strings(&inst.markers),
            modifiers: strings(&inst.modifiers),
            marker_bits: Vec::new(),
            modifier_bits: Vec::new(),
            conditions: inst.conditions.iter().cloned().collect(),
            conds: Conditions::default(),
            land_tiles: inst
                .land_tiles
                .iter()
                .map(|l| (l.set.to_string(), l.marker.to_string(), l.first_edition))
                .collect(),
            land_markers: Vec::new(),
            looks,
            draws,
            judges: inst.built_with.minor >= 3,
            views_on_demand: inst.built_with.minor >= 4,
        };
        Ok(FilePlugin { name, requires, conflicts, options, tile_files, plugin: Box::new(plugin) })
    }

    /// The file the plugin was loaded from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Records a failure in `hook`, stopping the game.
    #[cold]
    fn fail(&self, st: &State, hook: usize, what: std::fmt::Arguments<'_>) {
        let name = hook_name(hook);
        st.fail(format!("turn {}: plugin '{}' (file '{}'), hook {name}: {what}", st.turn, self.name, self.file));
    }

    /// Checks and applies the effects a hook that may change the game handed back; returns
    /// the verdict (PASS after a failure).
    #[cold]
    fn apply(&self, rules: &Rules, st: &mut State, me: usize, hook: usize, out: Reported) -> Verdict {
        let fx = match out {
            Reported::Effects(fx) => fx,
            Reported::Error(e) => {
                self.fail(st, hook, format_args!("{e}"));
                return Verdict::PASS;
            }
            Reported::Nothing => return Verdict::PASS,
        };
        if let Err(e) = self.check(rules, st, hook, &fx) {
            self.fail(st, hook, format_args!("invalid effect: {e}"));
            return Verdict::PASS;
        }
        for sc in fx.scores.iter() {
            let source = self.source_ids[sc.source as usize];
            if sc.majority {
                st.score_feature(rules, sc.node, sc.points, source, sc.final_scoring);
            } else {
                let reason = if sc.reason.is_empty() { self.name.as_str() } else { sc.reason.as_str() };
                st.score_players(rules, Some(sc.node), sc.winners, sc.points, source, sc.final_scoring, reason);
            }
        }
        for p in fx.points.iter() {
            let source = self.source_ids[p.source as usize];
            let reason = if p.reason.is_empty() { self.name.as_str() } else { p.reason.as_str() };
            st.score_other(p.player, p.points, source, reason);
        }
        for s in fx.stats.iter() {
            st.bump_stat(self.stat_ids[s.stat as usize], s.by);
        }
        for op in fx.figures.iter() {
            // Checked again: an earlier operation (and the hooks it fired) may have changed
            // the board.
            if let Err(e) = self.check_figure(rules, st, op) {
                self.fail(st, hook, format_args!("invalid effect: {e}"));
                return Verdict::PASS;
            }
            let node = op.node.into_option();
            match op.op {
                api::FigureOp::PLACE => {
                    st.add_figure(rules, op.owner, self.figure_ids[op.figure as usize], op.part, node);
                }
                api::FigureOp::MOVE => st.move_figure(rules, op.figure, op.part, node),
                _ => {
                    // As the built-in plugins remove a figure: its owner's builder or pig
                    // leaves with a last follower (PD-DRAGON-7).
                    let fig = st.figures[op.figure as usize];
                    let why = RemoveReason::Plugin(me as u8);
                    st.remove_figure(rules, op.figure, why);
                    st.release_dependents(rules, &fig, why);
                }
            }
        }
        for d in fx.decisions.iter() {
            let kind = DecisionKind::Plugin { plugin: me as u8, code: d.code, data: d.data };
            st.push_decision(Decision { player: d.player, kind });
        }
        let verdict = fx.verdict;
        crate::host_view::recycle(fx);
        verdict
    }

    fn check(&self, rules: &Rules, st: &State, hook: usize, fx: &RawEffects) -> Result<(), String> {
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
        if let Some(op) = fx.figures.first() {
            self.check_figure(rules, st, op)?;
        }
        for sc in fx.scores.iter() {
            if sc.node as usize >= st.graph.len() {
                return Err(format!("scoring node #{}, which is not on the board", sc.node));
            }
            if sc.source as usize >= self.sources.len() {
                return Err(format!(
                    "scoring under score source #{}, but the plugin declared {}",
                    sc.source,
                    self.sources.len()
                ));
            }
            if !sc.majority && (sc.winners as u32) >> st.players != 0 {
                return Err(format!("scoring seats {:#b}, but the game has {} seats", sc.winners, st.players));
            }
        }
        for d in fx.decisions.iter() {
            if d.player as usize >= st.players {
                return Err(format!("a decision for seat {}, but the game has {} seats", d.player, st.players));
            }
            if d.code == api::DecisionView::FIGURE {
                return Err("a decision with code 0 (the figure decision's)".into());
            }
        }
        Ok(())
    }

    /// Whether a figure operation names a declared kind, a seat with one in supply, a
    /// figure on the board, a placed part and a node of that part.
    fn check_figure(&self, rules: &Rules, st: &State, op: &api::FigureOp) -> Result<(), String> {
        let part_ok = (op.part as usize) < st.board.parts.len();
        let node_ok = |node: Option<u32>| match node {
            None => true,
            Some(n) => {
                part_ok && {
                    let base = st.board.parts[op.part as usize].node_base;
                    let count = st.rotated(rules, op.part).features.len() as u32;
                    (base..base + count).contains(&n)
                }
            }
        };
        match op.op {
            api::FigureOp::PLACE => {
                let Some(&kind) = self.figure_ids.get(op.figure as usize) else {
                    return Err(format!(
                        "placing figure kind #{}, but the plugin declared {}",
                        op.figure,
                        self.figures.len()
                    ));
                };
                let name = &rules.figure_kinds[kind as usize].name;
                if op.owner as usize >= st.players {
                    return Err(format!(
                        "placing a {name} of seat {}, but the game has {} seats",
                        op.owner, st.players
                    ));
                }
                if st.supply[op.owner as usize][kind as usize] == 0 {
                    return Err(format!("placing a {name} of seat {}, who has none in supply", op.owner));
                }
            }
            api::FigureOp::MOVE | api::FigureOp::REMOVE => {
                if !st.figures.get(op.figure as usize).is_some_and(|f| f.alive) {
                    return Err(format!("figure #{} is not on the board", op.figure));
                }
                if op.op == api::FigureOp::REMOVE {
                    return Ok(());
                }
            }
            other => return Err(format!("unknown figure operation {other}")),
        }
        if !part_ok {
            return Err(format!("part #{} is not on the board", op.part));
        }
        if !node_ok(op.node.into_option()) {
            return Err(format!("node #{} is not a feature of part #{}", op.node.unwrap_or(0), op.part));
        }
        Ok(())
    }

    /// The tile veto once the plugin is to be asked: `judge_tiles` (4.3), which lists the
    /// candidates only if the plugin asks for them, or `allow_tiles` with the whole list.
    #[allow(clippy::too_many_arguments)]
    fn judge_placements(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        state: api::StatePtr,
        tile: TileTypeId,
        candidates: &TileCandidates<'_>,
        vetoes: &mut TileVetoes,
    ) {
        let id = RStr::from(rules.catalog.tiles[tile as usize].id.as_str());
        if !self.judges {
            return self.allow_listed(rules, st, me, state, id, candidates, vetoes);
        }
        let mut forbidden = RVec::new();
        let out = {
            let hv = HostView::new(rules, st, me, self).judging(candidates);
            self.rule.judge_tiles(view(&hv), state, id, &mut forbidden);
            hv.out.into_inner()
        };
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::ALLOW_TILE, out);
            return;
        }
        if !forbidden.is_empty() {
            self.forbid(st, candidates, &forbidden, vetoes);
        }
    }

    /// `allow_tiles` of a file older than 4.3: the whole list, an answer per candidate
    /// (on the stack for up to [`TileVetoes::INLINE`] candidates).
    #[allow(clippy::too_many_arguments)]
    fn allow_listed(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        state: api::StatePtr,
        id: RStr<'_>,
        candidates: &TileCandidates<'_>,
        vetoes: &mut TileVetoes,
    ) {
        let placed = as_placements(candidates);
        let (mut stack, mut heap) = ([true; TileVetoes::INLINE], Vec::new());
        let allowed: &mut [bool] = if placed.len() <= stack.len() {
            &mut stack[..placed.len()]
        } else {
            heap.resize(placed.len(), true);
            &mut heap
        };
        for (i, ok) in allowed.iter_mut().enumerate() {
            *ok = !vetoes.is_forbidden(i);
        }
        let hv = HostView::new(rules, st, me, self);
        self.rule.allow_tiles(view(&hv), state, id, RSlice::from_slice(placed), RSliceMut::from_mut_slice(allowed));
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::ALLOW_TILE, out);
            return;
        }
        for (i, _) in allowed.iter().enumerate().filter(|(_, ok)| !**ok) {
            vetoes.forbid(i);
        }
    }

    /// Applies the candidates `judge_tiles` forbade (indices into the candidate list); an
    /// index beyond the list stops the game and forbids nothing.
    #[cold]
    fn forbid(&self, st: &State, candidates: &TileCandidates<'_>, forbidden: &[u32], vetoes: &mut TileVetoes) {
        let n = candidates.list().len();
        if let Some(&bad) = forbidden.iter().find(|&&i| i as usize >= n) {
            let what = format_args!("invalid answer: it forbids candidate #{bad} of a list of {n}");
            self.fail(st, bit::ALLOW_TILE, what);
            return;
        }
        for &i in forbidden {
            vetoes.forbid(i as usize);
        }
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

    /// The plugin's state pointer in this game, or why there is none (the game then fails).
    #[inline]
    fn state_ptr(&self, st: &State, me: usize, hook: usize) -> Option<api::StatePtr> {
        let fs = st.plugin::<FileState>(me);
        if fs.ptr.is_null() {
            self.no_state(st, hook, fs);
            return None;
        }
        Some(api::StatePtr(fs.ptr))
    }

    #[cold]
    fn no_state(&self, st: &State, hook: usize, fs: &FileState) {
        let why = fs.error.as_deref().unwrap_or("it has no state");
        self.fail(st, hook, format_args!("{why}"));
    }

    /// Whether hook `hook` is worth calling for `subject`: it has no conditions, or one of
    /// them holds (checked here, without a call across the boundary).
    #[inline(always)]
    fn wanted(&self, hook: usize, st: &State, subject: Subject) -> bool {
        self.conds.wanted(hook, st, subject)
    }

    /// Resolves the declared hook conditions (names to tables and ids).
    fn resolve_conditions(&mut self, reg: &Registry) -> Result<(), String> {
        self.conds = Conditions::resolve(&self.conditions, self.hooks.0, reg)?;
        Ok(())
    }

    /// Runs a hook that may change the game, unless the game already failed or none of the
    /// hook's conditions holds for `subject`.
    #[inline(always)]
    fn run(
        &self,
        rules: &Rules,
        st: &mut State,
        me: usize,
        hook: usize,
        subject: Subject,
        call: impl FnOnce(&HouseRuleBox, View<'_>, api::StatePtr),
    ) -> Verdict {
        if self.skip(hook, st, subject) {
            return Verdict::PASS;
        }
        self.run_now(rules, st, me, hook, call)
    }

    /// Whether a hook is not to be called: the game was stopped, or none of the hook's
    /// conditions holds. Checked before a hook's view is built.
    #[inline]
    fn skip(&self, hook: usize, st: &State, subject: Subject) -> bool {
        st.failure().is_some() || !self.wanted(hook, st, subject)
    }

    /// [`DynamicPlugin::run`] once the hook is to be called.
    #[inline(always)]
    fn run_now(
        &self,
        rules: &Rules,
        st: &mut State,
        me: usize,
        hook: usize,
        call: impl FnOnce(&HouseRuleBox, View<'_>, api::StatePtr),
    ) -> Verdict {
        let Some(state) = self.state_ptr(st, me, hook) else { return Verdict::PASS };
        let out = {
            let hv = HostView::new(rules, st, me, self);
            call(&self.rule, view(&hv), state);
            hv.out.into_inner()
        };
        match out {
            Reported::Nothing => Verdict::PASS,
            out => self.apply(rules, st, me, hook, out),
        }
    }

    /// Runs a hook that only judges, unless the game already failed; `allowed` are the
    /// verdicts besides PASS it may give.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn judge(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        hook: usize,
        subject: Subject,
        allowed: &[Verdict],
        call: impl FnOnce(&HouseRuleBox, View<'_>, api::StatePtr) -> Verdict,
    ) -> Verdict {
        if st.failure().is_some() || !self.wanted(hook, st, subject) {
            return Verdict::PASS;
        }
        let Some(state) = self.state_ptr(st, me, hook) else { return Verdict::PASS };
        let hv = HostView::new(rules, st, me, self);
        let v = call(&self.rule, view(&hv), state);
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

    /// Runs a `majority` call (it only judges: no effects), unless the game already failed
    /// or none of its conditions holds for the feature of `root`; `None` then.
    #[inline]
    fn consult<T>(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        root: NodeId,
        call: impl FnOnce(&HouseRuleBox, View<'_>, api::StatePtr) -> T,
    ) -> Option<T> {
        if st.failure().is_some() || !self.wanted(bit::MAJORITY, st, Subject::Feature(root)) {
            return None;
        }
        let state = self.state_ptr(st, me, bit::MAJORITY)?;
        let hv = HostView::new(rules, st, me, self);
        let v = call(&self.rule, view(&hv), state);
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::MAJORITY, out);
            return None;
        }
        Some(v)
    }

    /// Runs a call that lists the plugin's actions into `list`; false after a failure.
    fn actions(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        hook: usize,
        list: &mut RVec<api::PluginAction>,
        call: impl FnOnce(&HouseRuleBox, View<'_>, api::StatePtr, &mut RVec<api::PluginAction>),
    ) -> bool {
        if st.failure().is_some() {
            return false;
        }
        let Some(state) = self.state_ptr(st, me, hook) else { return false };
        let hv = HostView::new(rules, st, me, self);
        call(&self.rule, view(&hv), state, list);
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, hook, out);
            return false;
        }
        true
    }
}

thread_local! {
    /// The buffers plugin files fill with their offers and decision actions (reused).
    static OFFERS: std::cell::Cell<RVec<api::OfferedAction>> = const { std::cell::Cell::new(RVec::new()) };
    static CHOICES: std::cell::Cell<RVec<api::PluginAction>> = const { std::cell::Cell::new(RVec::new()) };
}

impl DynamicPlugin {
    /// [`Plugin::figure_actions`] once the hook is to be called.
    #[inline(never)]
    fn figure_actions_now(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let Some(state) = self.state_ptr(st, me, bit::FIGURE_ACTIONS) else { return };
        // The thread's buffer (taken out, so that a nested call finds its own): no
        // allocation per call once it has grown.
        let mut list = OFFERS.take();
        list.clear();
        let hv = HostView::new(rules, st, me, self);
        self.rule.figure_actions(view(&hv), state, &mut list);
        let reported = hv.out.into_inner();
        if !matches!(reported, Reported::Nothing) {
            self.judged_badly(st, bit::FIGURE_ACTIONS, reported);
            OFFERS.set(list);
            return;
        }
        self.offer(rules, st, me, &list, out);
        OFFERS.set(list);
    }

    /// Checks the plugin's offers of the figure decision and adds them to `out`.
    fn offer(&self, rules: &Rules, st: &State, me: usize, list: &[api::OfferedAction], out: &mut Vec<Action>) {
        let plugin = me as u8;
        for o in list {
            if !o.place {
                let a = o.action;
                out.push(Action::Plugin { plugin, code: a.code, a: a.a, b: a.b });
                continue;
            }
            let op = api::FigureOp {
                op: api::FigureOp::PLACE,
                figure: o.figure,
                owner: st.current,
                part: o.part,
                node: o.node,
            };
            if let Err(e) = self.check_figure(rules, st, &op) {
                self.fail(st, bit::FIGURE_ACTIONS, format_args!("invalid figure placement: {e}"));
                return;
            }
            let feature = match o.node.into_option() {
                Some(n) => (n - st.board.parts[o.part as usize].node_base) as u8,
                None => carcassonne_core::NO_FEATURE,
            };
            out.push(Action::PlaceFigure { kind: self.figure_ids[o.figure as usize], part: o.part, feature });
        }
    }

    /// The interface's view of a candidate figure placement.
    #[inline]
    pub(crate) fn placement_view<'a>(
        &self,
        rules: &'a Rules,
        st: &State,
        p: &FigurePlacement,
    ) -> FigurePlacementView<'a> {
        let pos = st.board.parts[p.part as usize].pos;
        FigurePlacementView {
            player: p.player,
            figure: RStr::from(rules.figure_kinds[p.kind as usize].name.as_str()),
            own_kind: crate::host_view::own_kind(&self.figure_ids, p.kind),
            part: p.part,
            x: pos.x,
            y: pos.y,
            node: p.node.into(),
            feature: RStr::from(p.node.map_or("", |n| st.graph.node(n).kind.name())),
        }
    }

    /// `judge_figures` (4.4): the plugin asks for the candidates' views it needs.
    fn judge_figures(&self, rules: &Rules, st: &State, me: usize, cands: &[FigurePlacement], allowed: &mut [bool]) {
        let n = cands.len().min(allowed.len());
        self.figure_vetoes(st, me, &mut allowed[..n], |state, oks| {
            let hv = HostView::new(rules, st, me, self).vetting(&cands[..n]);
            self.rule.judge_figures(view(&hv), state, RSliceMut::from_mut_slice(oks));
            hv.out.into_inner()
        });
    }

    /// `allow_figures` (before 4.4): the plugin is handed every candidate's view.
    fn allow_figures_listed(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        views: &[FigurePlacementView<'_>],
        allowed: &mut [bool],
    ) {
        let n = views.len().min(allowed.len());
        self.figure_vetoes(st, me, &mut allowed[..n], |state, oks| {
            let hv = HostView::new(rules, st, me, self);
            self.rule.allow_figures(view(&hv), state, RSlice::from_slice(&views[..n]), RSliceMut::from_mut_slice(oks));
            hv.out.into_inner()
        });
    }

    /// Runs a figure-veto call on a copy of `allowed` (the plugin may veto, never allow what
    /// another plugin vetoed) and keeps its vetoes; `call` returns what the hook reported.
    #[inline(always)]
    fn figure_vetoes(
        &self,
        st: &State,
        me: usize,
        allowed: &mut [bool],
        call: impl FnOnce(api::StatePtr, &mut [bool]) -> Reported,
    ) {
        let Some(state) = self.state_ptr(st, me, bit::ALLOW_FIGURE) else { return };
        let n = allowed.len();
        let mut stack = [true; 32];
        let mut heap = Vec::new();
        let oks: &mut [bool] = if n <= stack.len() {
            &mut stack[..n]
        } else {
            heap.resize(n, true);
            &mut heap
        };
        oks.copy_from_slice(allowed);
        let out = call(state, oks);
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::ALLOW_FIGURE, out);
            return;
        }
        for (a, &m) in allowed.iter_mut().zip(oks.iter()) {
            *a &= m;
        }
    }

    /// [`Plugin::restrict_figure_actions`] for a long action list (views on the heap).
    #[cold]
    #[inline(never)]
    fn restrict_many(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let views: Vec<ActionView<'_>> = out.iter().map(|a| action_view(rules, st, a, me, &self.figure_ids)).collect();
        let mut keep = vec![true; out.len()];
        self.filter_listed(rules, st, me, &views, &mut keep, out);
    }

    /// `filter_figure_actions` (before 4.4): the plugin is handed every action's view.
    #[inline]
    fn filter_listed(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        views: &[ActionView<'_>],
        keep: &mut [bool],
        out: &mut Vec<Action>,
    ) {
        self.narrow(st, me, keep, out, |state, keep, _| {
            let hv = HostView::new(rules, st, me, self);
            self.rule.filter_figure_actions(
                view(&hv),
                state,
                RSlice::from_slice(views),
                RSliceMut::from_mut_slice(keep),
            );
            hv.out.into_inner()
        });
    }

    /// `judge_figure_actions` (4.4): the plugin asks for the actions' views it needs.
    fn filter(&self, rules: &Rules, st: &State, me: usize, keep: &mut [bool], out: &mut Vec<Action>) {
        self.narrow(st, me, keep, out, |state, keep, actions| {
            let hv = HostView::new(rules, st, me, self).filtering(actions);
            self.rule.judge_figure_actions(view(&hv), state, RSliceMut::from_mut_slice(keep));
            hv.out.into_inner()
        });
    }

    /// Runs a figure-decision filter call (`call` gets the state, `keep` and the actions,
    /// and returns what the hook reported), then drops from `out` the actions it did not
    /// keep; removing every one stops the game.
    #[inline(always)]
    fn narrow(
        &self,
        st: &State,
        me: usize,
        keep: &mut [bool],
        out: &mut Vec<Action>,
        call: impl FnOnce(api::StatePtr, &mut [bool], &[Action]) -> Reported,
    ) {
        let Some(state) = self.state_ptr(st, me, bit::FIGURE_FILTER) else { return };
        let reported = call(state, keep, out);
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

    /// The interface's form of a decision.
    fn decision_view(d: &Decision) -> api::DecisionView {
        match d.kind {
            DecisionKind::Plugin { code, data, .. } => api::DecisionView { player: d.player, code, data },
            _ => api::DecisionView { player: d.player, code: api::DecisionView::FIGURE, data: 0 },
        }
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
        // Figure kinds first, then sources and statistics: the order a built-in plugin
        // registers them in, so that a port plays the same games.
        let mut ids = Vec::with_capacity(self.figures.len());
        for f in &self.figures {
            let name = f.name.as_str();
            if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(format!("declares an invalid figure kind name '{}'", name.escape_debug()));
            }
            if reg.has_figure_kind(name) {
                return Err(format!("declares figure kind '{name}', which another plugin already declares"));
            }
            ids.push(reg.figure_kind(name, f.follower, f.strength, f.per_player)?);
        }
        for l in &self.looks {
            let look = carcassonne_core::FigureLook { svg: l.svg.to_string(), stays_at_end: l.stays_at_end };
            reg.figure_look(ids[l.figure as usize], look);
        }
        self.figure_ids = ids;
        self.source_ids = Vec::with_capacity(self.sources.len());
        for (i, s) in self.sources.iter().enumerate() {
            let id = if self.extra.contains(&(i as u32)) { reg.extra_source(s)? } else { reg.source(s)? };
            self.source_ids.push(id);
        }
        for s in &self.stats {
            carcassonne_core::error::check_printable("statistic", s)?;
        }
        self.stat_ids = self.stats.iter().map(|s| reg.stat(s)).collect();
        self.query_keys = self.queries.iter().map(|q| reg.query(q)).collect();
        let cat = reg.catalog();
        let bit_of = |what: &str, name: &str, bit: u32| {
            if bit == 0 {
                Err(format!("declares {what} '{}', which no tile of this rule set carries", name.escape_debug()))
            } else {
                Ok(bit)
            }
        };
        self.marker_bits = self.markers.iter().map(|m| bit_of("marker", m, cat.marker(m))).collect::<Result<_, _>>()?;
        self.modifier_bits =
            self.modifiers.iter().map(|m| bit_of("modifier", m, cat.modifier(m))).collect::<Result<_, _>>()?;
        self.resolve_conditions(reg)?;
        self.land_markers =
            self.land_tiles.iter().map(|(set, marker, _)| reg.require_marker(set, marker)).collect::<Result<_, _>>()?;
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        for ((set, _, first), &bits) in self.land_tiles.iter().zip(&self.land_markers) {
            setup.add_marked_land_tiles(rules, set, bits, *first)?;
        }
        Ok(())
    }

    fn init_state(&self, rules: &Rules, players: usize) -> Option<Box<dyn PluginState>> {
        let _ = rules;
        let fs = match self.rule.init_state(players as u8) {
            ROk(obj) => FileState::new(obj),
            RErr(e) => FileState::failed(format!("init_state: {e}")),
        };
        Some(Box::new(fs))
    }

    fn on_game_start(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::GAME_START, Subject::Game, |r, v, s| r.on_game_start(v, s));
    }

    fn on_turn_start(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::TURN_START, Subject::Game, |r, v, s| r.on_turn_start(v, s));
    }

    fn on_tile_drawn(&self, rules: &Rules, st: &mut State, me: usize, tile: TileTypeId) -> DrawVerdict {
        let id = rules.catalog.tiles[tile as usize].id.as_str();
        let v = self
            .run(rules, st, me, bit::TILE_DRAWN, Subject::Tile(tile), |r, v, s| r.on_tile_drawn(v, s, RStr::from(id)));
        if v == Verdict::VETO {
            st.log_entry(LogEntry::Note { plugin: self.name.clone(), text: format!("took tile {id} out of the game") });
            DrawVerdict::Taken
        } else {
            DrawVerdict::Keep
        }
    }

    /// A tile that no condition of `allow_tile` can hold for is never judged by the plugin
    /// (the engine's fast path for tiles nobody vetoes).
    fn may_veto_tile(&self, _rules: &Rules, tile: TileTypeId) -> bool {
        self.conds.may_judge_tile(tile)
    }

    /// A tile hook none of whose conditions can hold for a tile is not called for it.
    fn tile_hooks(&self, _rules: &Rules, tile: TileTypeId) -> Hooks {
        let mut hooks = Hooks::NONE;
        if self.conds.may_want_tile(api::Hooks::TILE_DRAWN, tile) {
            hooks = hooks | Hooks::TILE_DRAWN;
        }
        if self.conds.may_want_placed(tile) {
            hooks = hooks | Hooks::TILE_PLACED;
        }
        hooks
    }

    fn allow_tile(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> bool {
        if st.failure().is_some() || !self.wanted(bit::ALLOW_TILE, st, Subject::Tile(p.tile)) {
            return true;
        }
        let Some(state) = self.state_ptr(st, me, bit::ALLOW_TILE) else { return true };
        if self.judges {
            // The batched hook with a list of one (`judge_tiles` is what a 4.3 file answers).
            let one = [Action::PlaceTile { pos: p.pos, rot: p.rot, face: p.face }];
            let Some(one) = TileCandidates::new(&one) else { return true };
            let mut vetoes = TileVetoes::new();
            self.judge_placements(rules, st, me, state, p.tile, &one, &mut vetoes);
            return !vetoes.any();
        }
        let one = [Placement::new(p.pos.x, p.pos.y, p.rot.quarters(), p.face)];
        let mut allowed = [true];
        let id = RStr::from(rules.catalog.tiles[p.tile as usize].id.as_str());
        let hv = HostView::new(rules, st, me, self);
        self.rule.allow_tiles(view(&hv), state, id, RSlice::from_slice(&one), RSliceMut::from_mut_slice(&mut allowed));
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::ALLOW_TILE, out);
            return true;
        }
        allowed[0]
    }

    /// A 4.3 file's `judge_tiles` lists the candidates only when it asks for them.
    fn judges_tiles_at_once(&self) -> bool {
        self.judges
    }

    /// One call across the boundary per decision: `judge_tiles` (4.3), which lists the
    /// candidates only if the plugin asks for them, or `allow_tiles` (older files) with the
    /// engine's candidate list itself (laid out as [`Placement`]s: see `as_placements`).
    fn allow_tiles(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        tile: TileTypeId,
        candidates: &TileCandidates<'_>,
        vetoes: &mut TileVetoes,
    ) {
        if st.failure().is_some() || !self.wanted(bit::ALLOW_TILE, st, Subject::Tile(tile)) {
            return;
        }
        let Some(state) = self.state_ptr(st, me, bit::ALLOW_TILE) else { return };
        self.judge_placements(rules, st, me, state, tile, candidates, vetoes);
    }

    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::TILE_PLACED, Subject::Game, |r, v, s| r.on_tile_placed(v, s));
    }

    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        if st.failure().is_some() || !self.wanted(bit::FIGURE_ACTIONS, st, Subject::Game) {
            return;
        }
        self.figure_actions_now(rules, st, me, out);
    }

    fn allow_figure(&self, rules: &Rules, st: &State, me: usize, p: &FigurePlacement) -> bool {
        let mut allowed = [true];
        self.allow_figures(rules, st, me, std::slice::from_ref(p), &mut allowed);
        allowed[0]
    }

    /// One call across the boundary per decision (views on the stack for up to 32).
    fn allow_figures(&self, rules: &Rules, st: &State, me: usize, cands: &[FigurePlacement], allowed: &mut [bool]) {
        if st.failure().is_some() || cands.is_empty() {
            return;
        }
        if self.conds.mask & (1 << bit::ALLOW_FIGURE) != 0
            && !cands.iter().any(|p| self.conds.wanted(bit::ALLOW_FIGURE, st, Subject::Candidate(p.kind, p.node)))
        {
            return;
        }
        const STACK: usize = 32;
        if self.views_on_demand {
            return self.judge_figures(rules, st, me, cands, allowed);
        }
        if cands.len() > STACK {
            let views: Vec<FigurePlacementView<'_>> = cands.iter().map(|p| self.placement_view(rules, st, p)).collect();
            return self.allow_figures_listed(rules, st, me, &views, allowed);
        }
        let mut views = [std::mem::MaybeUninit::<FigurePlacementView<'_>>::uninit(); STACK];
        for (slot, p) in views.iter_mut().zip(cands) {
            slot.write(self.placement_view(rules, st, p));
        }
        // SAFETY: the first `cands.len()` slots were just written.
        let views =
            unsafe { std::slice::from_raw_parts(views.as_ptr().cast::<FigurePlacementView<'_>>(), cands.len()) };
        self.allow_figures_listed(rules, st, me, views, allowed);
    }

    fn on_figure_placed(&self, rules: &Rules, st: &mut State, me: usize, fig: FigureId) {
        let kind = st.figures.get(fig as usize).map_or(u8::MAX, |f| f.kind);
        self.run(rules, st, me, bit::FIGURE_PLACED, Subject::Figure(kind), |r, v, s| r.on_figure_placed(v, s, fig));
    }

    fn on_figure_action_done(&self, rules: &Rules, st: &mut State, me: usize, action: &Action) {
        if self.skip(bit::FIGURE_ACTION_DONE, st, Subject::Game) {
            return;
        }
        let av = action_view(rules, st, action, me, &self.figure_ids);
        self.run_now(rules, st, me, bit::FIGURE_ACTION_DONE, |r, v, s| r.on_figure_action_done(v, s, &av));
    }

    fn restrict_figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        if st.failure().is_some() || out.is_empty() || !self.wanted(bit::FIGURE_FILTER, st, Subject::Game) {
            return;
        }
        // On the stack for the usual few actions (no allocation per decision).
        const STACK: usize = 16;
        if self.views_on_demand {
            if out.len() > STACK {
                let mut keep = vec![true; out.len()];
                return self.filter(rules, st, me, &mut keep, out);
            }
            let mut keep = [true; STACK];
            let n = out.len();
            return self.filter(rules, st, me, &mut keep[..n], out);
        }
        if out.len() > STACK {
            return self.restrict_many(rules, st, me, out);
        }
        let mut views = [std::mem::MaybeUninit::<ActionView<'_>>::uninit(); STACK];
        for (slot, a) in views.iter_mut().zip(out.iter()) {
            slot.write(action_view(rules, st, a, me, &self.figure_ids));
        }
        // SAFETY: the first `out.len()` slots were just written.
        let views = unsafe { std::slice::from_raw_parts(views.as_ptr().cast::<ActionView<'_>>(), out.len()) };
        let mut keep = [true; STACK];
        self.filter_listed(rules, st, me, views, &mut keep[..out.len()], out);
    }

    fn on_feature_completed(&self, rules: &Rules, st: &mut State, me: usize, root: NodeId) {
        self.run(rules, st, me, bit::FEATURE_COMPLETED, Subject::Feature(root), |r, v, s| {
            r.on_feature_completed(v, s, root)
        });
    }

    fn on_feature_scored(&self, rules: &Rules, st: &mut State, me: usize, ev: &ScoreEvent) {
        // Conditions first: the view is built only for a call that is made.
        if self.skip(bit::FEATURE_SCORED, st, ev.root.map_or(Subject::Game, Subject::Feature)) {
            return;
        }
        let sv = ScoreView {
            root: ev.root.into(),
            feature: RStr::from(ev.root.map_or("", |n| st.graph.node(n).kind.name())),
            winners: ev.winners,
            points: ev.points,
            source: RStr::from(rules.sources.get(ev.source as usize).map_or("", String::as_str)),
            final_scoring: ev.final_scoring,
            per_city: ev.per_city.into(),
        };
        self.run_now(rules, st, me, bit::FEATURE_SCORED, |r, v, s| r.on_feature_scored(v, s, &sv));
    }

    fn on_figure_removed(
        &self,
        rules: &Rules,
        st: &mut State,
        me: usize,
        id: FigureId,
        fig: &Figure,
        why: RemoveReason,
    ) {
        if self.skip(bit::FIGURE_REMOVED, st, Subject::Figure(fig.kind)) {
            return;
        }
        let reason = match why {
            RemoveReason::Scored => "scored",
            RemoveReason::Plugin(p) => rules.plugins.get(p as usize).map_or("", |p| p.name.as_str()),
        };
        let rv = RemovedView { figure: figure_view(rules, st, id, fig, &self.figure_ids), reason: reason.into() };
        self.run_now(rules, st, me, bit::FIGURE_REMOVED, |r, v, s| r.on_figure_removed(v, s, &rv));
    }

    fn on_figure_moved(&self, rules: &Rules, st: &mut State, me: usize, id: FigureId, from: &Figure) {
        if self.skip(bit::FIGURE_MOVED, st, Subject::Figure(from.kind)) {
            return;
        }
        let fv = figure_view(rules, st, id, from, &self.figure_ids);
        self.run_now(rules, st, me, bit::FIGURE_MOVED, |r, v, s| r.on_figure_moved(v, s, id, &fv));
    }

    fn is_protected(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        let kind = Subject::Figure(st.figures.get(id as usize).map_or(u8::MAX, |f| f.kind));
        self.judge(rules, st, me, bit::PROTECTED, kind, &[Verdict::PROTECT], |r, v, s| r.is_protected(v, s, id))
            == Verdict::PROTECT
    }

    fn adjust_strengths(&self, rules: &Rules, st: &State, me: usize, root: NodeId, s: &mut [u32; MAX_PLAYERS]) {
        let n = st.players.min(MAX_PLAYERS);
        self.consult(rules, st, me, root, |r, v, p| r.adjust_strengths(v, p, root, RSliceMut::from(&mut s[..n])));
    }

    fn break_tie(&self, rules: &Rules, st: &State, me: usize, root: NodeId, s: &[u32; MAX_PLAYERS], winners: u8) -> u8 {
        let n = st.players.min(MAX_PLAYERS);
        self.consult(rules, st, me, root, |r, v, p| r.break_tie(v, p, root, RSlice::from(&s[..n]), winners))
            .unwrap_or(winners)
    }

    fn on_scoring_step(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::SCORING_STEP, Subject::Game, |r, v, s| r.on_scoring_step(v, s));
    }

    fn on_scoring_done(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::SCORING_DONE, Subject::Game, |r, v, s| r.on_scoring_done(v, s));
    }

    fn on_turn_end(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::TURN_END, Subject::Game, |r, v, s| r.on_turn_end(v, s));
    }

    fn on_final_scoring(&self, rules: &Rules, st: &mut State, me: usize) {
        self.run(rules, st, me, bit::FINAL_SCORING, Subject::Game, |r, v, s| r.on_final_scoring(v, s));
    }

    fn answer(&self, rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        let qv = QueryView {
            name: rules.query_name(q.key).into(),
            figure: q.figure.into(),
            part: q.part.into(),
            node: q.node.into(),
            by: RStr::from(rules.plugins.get(q.by as usize).map_or("", |p| p.name.as_str())),
        };
        match self.judge(rules, st, me, bit::QUERY, Subject::Game, &[Verdict::YES, Verdict::NO], |r, v, s| {
            r.answer(v, s, &qv)
        }) {
            Verdict::YES => Some(true),
            Verdict::NO => Some(false),
            _ => None,
        }
    }

    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        let dv = Self::decision_view(d);
        let call = |r: &HouseRuleBox, v: View<'_>, s: api::StatePtr, l: &mut RVec<api::PluginAction>| {
            r.decision_actions(v, s, dv, l)
        };
        let mut list = CHOICES.take();
        list.clear();
        if self.actions(rules, st, me, bit::DECISION_ACTIONS, &mut list, call) {
            if list.is_empty() {
                self.fail(
                    st,
                    bit::DECISION_ACTIONS,
                    format_args!("its decision (code {}) has no legal action", dv.code),
                );
            } else {
                let plugin = me as u8;
                out.extend(list.iter().map(|a| Action::Plugin { plugin, code: a.code, a: a.a, b: a.b }));
            }
        }
        CHOICES.set(list);
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let Action::Plugin { code, a, b, .. } = *a else { return };
        let (dv, pa) = (Self::decision_view(d), api::PluginAction { code, a, b });
        self.run(rules, st, me, bit::APPLY_ACTION, Subject::Game, |r, v, s| r.apply_action(v, s, dv, pa));
    }

    fn draw(&self, rules: &Rules, st: &State, me: usize, canvas: &mut dyn carcassonne_core::Canvas) {
        if !self.draws {
            return;
        }
        let who = format!("plugin '{}' (file '{}')", self.name, self.file);
        let fs = st.plugin::<FileState>(me);
        if fs.ptr.is_null() {
            tracing::warn!("{who}, hook draw: {}", fs.error.as_deref().unwrap_or("it has no state"));
            return;
        }
        let hv = HostView::new(rules, st, me, self);
        let mut ops = RVec::new();
        self.rule.draw(view(&hv), api::StatePtr(fs.ptr), &mut ops);
        match hv.out.into_inner() {
            Reported::Nothing => crate::drawing::hand_over(st, &who, &ops, canvas),
            Reported::Error(e) => tracing::warn!("{who}, hook draw: {e}; nothing of it is drawn"),
            Reported::Effects(_) => tracing::warn!("{who}, hook draw: a drawing may not change the game"),
        }
    }

    fn describe_action(&self, rules: &Rules, st: &State, me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code, a, b, .. } = *a else { return serde_json::Value::Null };
        if st.failure().is_some() {
            return serde_json::Value::Null;
        }
        let Some(state) = self.state_ptr(st, me, bit::DESCRIBE_ACTION) else { return serde_json::Value::Null };
        let hv = HostView::new(rules, st, me, self);
        let text = self.rule.describe_action(view(&hv), state, api::PluginAction { code, a, b });
        let out = hv.out.into_inner();
        if !matches!(out, Reported::Nothing) {
            self.judged_badly(st, bit::DESCRIBE_ACTION, out);
            return serde_json::Value::Null;
        }
        match serde_json::from_str::<serde_json::Value>(text.as_str()) {
            Ok(v @ serde_json::Value::Object(_)) => v,
            _ => {
                self.fail(
                    st,
                    bit::DESCRIBE_ACTION,
                    format_args!("invalid effect: the description is not a JSON object"),
                );
                serde_json::Value::Null
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Engine hooks a plugin file cannot subscribe to (after the interface's bits).
    const BUILT_IN_ONLY: &[&str] = &["PLACEMENT_VARIANTS"];

    /// The interface's hooks are the engine's first ones, bit for bit (`MAJORITY` included,
    /// since 4.1); the engine's later hooks are built-in only, beyond every bit a plugin
    /// file may set.
    #[test]
    fn hook_bits_match_the_engine() {
        let core: Vec<(&str, u32)> = Hooks::NAMES.iter().map(|(n, h)| (*n, h.0)).collect();
        assert_eq!(core.len(), api::Hooks::NAMES.len() + BUILT_IN_ONLY.len());
        for (name, bits) in &core[api::Hooks::NAMES.len()..] {
            assert!(BUILT_IN_ONLY.contains(name), "{name}");
            assert_eq!(bits & api::Hooks::ALL.0, 0, "{name} is beyond the interface's bits");
        }
        let core = &core[..api::Hooks::NAMES.len()];
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
            "SCORING_STEP",
            "MAJORITY",
        ];
        assert_eq!(core.len(), engine_names.len());
        for (b, (name, bits)) in core.iter().enumerate() {
            assert_eq!(*name, engine_names[b]);
            assert_eq!(*bits, 1 << b, "{name}");
        }
        assert_eq!(api::Hooks::ALL.0, (1 << api::Hooks::NAMES.len()) - 1);
    }
}
