//! A compiled rule set: the tile catalog, the plugins in resolved order, hook dispatch
//! tables, and what the plugins registered (figure kinds, score sources, statistics).

use crate::action::{Action, Decision};
use crate::candidates::{TileCandidates, TileVetoes};
use std::sync::Arc;

use crate::catalog::Catalog;
use crate::draw::FigureLook;
use crate::plugin::{Answers, DrawVerdict, FigurePlacement, Hooks, Plugin, Query, QueryKey, TilePlacement};
use crate::setup::Setup;
use crate::state::{
    Figure, FigureId, Phase, RemoveReason, ScoreEvent, State, MAX_FIGURE_KINDS, MAX_PLAYERS, MAX_SOURCES,
};
use crate::tile::TileTypeId;

/// Questions [`Rules::verdicts`] puts to a plugin in one [`Plugin::answer_many`] call (at
/// most: a longer list goes in parts of this size).
pub const VERDICT_BATCH: usize = 64;

/// A figure kind a plugin registered (follower, large meeple, dragon, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureKindDef {
    pub name: String,
    /// Counts for occupancy of a feature.
    pub follower: bool,
    /// Weight in majorities (1 for a follower, 2 for a large meeple, 0 for others).
    pub strength: u8,
    /// Copies each seat starts with (0 for neutral figures).
    pub per_player: u8,
    /// Plugin index that registered it.
    pub plugin: u8,
    /// How it is drawn ([`Registry::figure_look`]; default: the generic look).
    pub look: FigureLook,
}

/// What plugins declare at rule-set build time.
#[derive(Debug, Default)]
pub struct Registry {
    pub(crate) figure_kinds: Vec<FigureKindDef>,
    pub(crate) sources: Vec<String>,
    pub(crate) extra_sources: u32,
    pub(crate) stats: Vec<String>,
    pub(crate) queries: Vec<String>,
    pub(crate) min_players: Option<usize>,
    pub(crate) max_players: Option<usize>,
    pub(crate) current: u8,
    pub(crate) catalog: Catalog,
    /// Per placement-variant code (index 0 unused), the plugin that reserved it.
    pub(crate) variant_owner: Vec<u8>,
    pub(crate) edge_features: Vec<EdgeFeatureDef>,
    /// Per plugin (by index), the figure kinds it answers about ([`Registry::answers_only_about`],
    /// bit = kind; all bits, or no entry: any question).
    pub(crate) answer_kinds: Vec<u16>,
}

/// A feature a plugin may add onto a placed part ([`Registry::edge_feature`],
/// [`State::add_edge_feature`]), e.g. a bridge: a road across two field sides.
#[derive(Clone, Debug)]
pub struct EdgeFeatureDef {
    /// As tile data would hold it; its sides are board sides (the placed part's
    /// rotation does not turn them).
    pub def: crate::tile::FeatureDef,
    /// The same, as a placed feature.
    pub rotated: crate::tile::RotatedFeature,
}

impl Registry {
    /// Whether a figure kind of this name was declared (by any plugin so far).
    pub fn has_figure_kind(&self, name: &str) -> bool {
        self.figure_kinds.iter().any(|k| k.name == name)
    }

    /// A figure kind declared so far (by a plugin earlier in priority order, or this one):
    /// its index and definition.
    pub fn declared_figure_kind(&self, name: &str) -> Option<(u8, &FigureKindDef)> {
        self.figure_kinds.iter().enumerate().find(|(_, k)| k.name == name).map(|(i, k)| (i as u8, k))
    }

    /// Declares a figure kind (or finds it if already declared); returns its index.
    pub fn figure_kind(&mut self, name: &str, follower: bool, strength: u8, per_player: u8) -> Result<u8, String> {
        if let Some(i) = self.figure_kinds.iter().position(|k| k.name == name) {
            return Ok(i as u8);
        }
        if self.figure_kinds.len() >= MAX_FIGURE_KINDS {
            return Err(format!("too many figure kinds (at most {MAX_FIGURE_KINDS})"));
        }
        crate::error::check_printable("figure kind", name)?;
        self.figure_kinds.push(FigureKindDef {
            name: name.into(),
            follower,
            strength,
            per_player,
            plugin: self.current,
            look: FigureLook::default(),
        });
        Ok((self.figure_kinds.len() - 1) as u8)
    }

    /// Says how figures of kind `kind` (as returned by [`Registry::figure_kind`]) are drawn
    /// on the board picture ([`crate::draw`]).
    pub fn figure_look(&mut self, kind: u8, look: FigureLook) {
        if let Some(k) = self.figure_kinds.get_mut(kind as usize) {
            k.look = look;
        }
    }

    /// Declares a score source ("road", "fairy", ...) or finds it; returns its index.
    pub fn source(&mut self, name: &str) -> Result<u8, String> {
        if let Some(i) = self.sources.iter().position(|s| s == name) {
            return Ok(i as u8);
        }
        if self.sources.len() >= MAX_SOURCES {
            return Err(format!("too many score sources (at most {MAX_SOURCES})"));
        }
        crate::error::check_printable("score source", name)?;
        self.sources.push(name.into());
        Ok((self.sources.len() - 1) as u8)
    }

    /// Declares a score source (or finds it) whose scorings are extra, not a feature's own
    /// scoring (a barn, a castle, a tower, a pig...): its events carry
    /// [`ScoreEvent::extra`], and plugins rewarding a feature's scoring (the fairy:
    /// COMBO-TOWER, COMBO-BARN, COMBO-CASTLE) ignore them. Returns its index.
    pub fn extra_source(&mut self, name: &str) -> Result<u8, String> {
        let i = self.source(name)?;
        self.extra_sources |= 1 << i;
        Ok(i)
    }

    /// Declares a statistic reported by `simulate` (e.g. "dragon_eaten"); returns its index.
    pub fn stat(&mut self, name: &str) -> usize {
        if let Some(i) = self.stats.iter().position(|s| s == name) {
            return i;
        }
        self.stats.push(name.into());
        self.stats.len() - 1
    }

    /// Says that this plugin's [`Plugin::answer`] answers only questions about a figure of
    /// one of `kinds` (its own figures, say): the asked figure's kind ([`Query::figure`]),
    /// or for a figure not yet placed, [`Query::kind`]. It is then not asked the others (a
    /// question about another kind's figure, or about none), which it would answer with
    /// `None`: a question about a follower does not wait for the barn's or the shepherd's
    /// "not mine". Kinds as returned by [`Registry::figure_kind`].
    pub fn answers_only_about(&mut self, kinds: &[u8]) {
        let mask = kinds.iter().fold(0u16, |m, &k| m | 1u16.checked_shl(k as u32).unwrap_or(0));
        let me = self.current as usize;
        if self.answer_kinds.len() <= me {
            self.answer_kinds.resize(me + 1, u16::MAX);
        }
        // The first call narrows from "any question"; later ones add kinds.
        let m = &mut self.answer_kinds[me];
        *m = if *m == u16::MAX { mask } else { *m | mask };
    }

    /// Interns a query name ([`Query`]) this plugin asks or answers; returns its key.
    pub fn query(&mut self, name: &str) -> QueryKey {
        if let Some(i) = self.queries.iter().position(|q| q == name) {
            return QueryKey(i as u16);
        }
        self.queries.push(name.into());
        QueryKey((self.queries.len() - 1) as u16)
    }

    /// Reserves `count` placement-variant codes for this plugin (its
    /// [`Plugin::placement_variants`], [`Action::PlaceTileVariant`]); returns the
    /// first. At most 255 codes in a rule set.
    pub fn placement_variants(&mut self, count: u8) -> Result<u8, String> {
        if self.variant_owner.is_empty() {
            self.variant_owner.push(u8::MAX);
        }
        let first = self.variant_owner.len();
        if first + count as usize > 256 {
            return Err("too many placement variants (at most 255 in a rule set)".into());
        }
        self.variant_owner.extend(std::iter::repeat_n(self.current, count as usize));
        Ok(first as u8)
    }

    /// Declares a feature this plugin may add onto placed parts ([`State::add_edge_feature`]):
    /// of `kind` (city, road or river) on the board sides `sides` (bit = side), with
    /// modifier bits `modifiers`. Returns its template index.
    pub fn edge_feature(&mut self, kind: crate::tile::FeatureKind, sides: u8, modifiers: u32) -> Result<u8, String> {
        if !kind.is_edge_feature() || sides == 0 || sides > 15 {
            return Err(format!("an edge feature is a city, road or river on 1 to 4 sides (got {kind:?}, {sides:#b})"));
        }
        if self.edge_features.len() >= 64 {
            return Err("too many edge features (at most 64)".into());
        }
        let def = crate::tile::FeatureDef {
            kind,
            sides,
            halves: 0,
            pennants: 0,
            also: 0,
            modifiers,
            adj_cities: Vec::new(),
            ends_at: Vec::new(),
        };
        let rotated = crate::tile::RotatedFeature { kind, sides, halves: 0 };
        self.edge_features.push(EdgeFeatureDef { def, rotated });
        Ok((self.edge_features.len() - 1) as u8)
    }

    /// Declares the player counts the plugin supports: the rule set allows from the highest
    /// minimum to the highest maximum any plugin declares (an expansion that adds seats,
    /// such as the large meeple's sixth, widens what the base game allows).
    pub fn players(&mut self, min: usize, max: usize) {
        self.min_players = Some(self.min_players.map_or(min, |m| m.max(min)));
        self.max_players = Some(self.max_players.map_or(max, |m| m.max(max)));
    }

    /// The loaded tiles.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Checks that tile set `set` is loaded.
    pub fn require_set(&self, set: &str) -> Result<(), String> {
        match self.catalog.set(set) {
            Some(_) => Ok(()),
            None => Err(format!("tile set '{set}' is not loaded: add it to the rule set's [tiles]")),
        }
    }

    /// Checks that tile set `set` is loaded and some loaded tile carries `marker`; returns
    /// the marker's bit.
    pub fn require_marker(&self, set: &str, marker: &str) -> Result<u32, String> {
        self.require_set(set)?;
        match self.catalog.marker(marker) {
            0 => Err(format!("tile set '{set}' has no `{marker}` tiles")),
            bit => Ok(bit),
        }
    }
}

/// A plugin in the resolved order, with its resolved options.
pub struct LoadedPlugin {
    /// Plugin name.
    pub name: String,
    /// Priority (plugins run in ascending priority, ties by name).
    pub priority: i64,
    /// Options after defaults, as JSON (for records and summaries).
    pub options: serde_json::Value,
    /// The plugin.
    pub plugin: Box<dyn Plugin>,
}

/// A compiled rule set, shared by every game played with it.
pub struct Rules {
    /// Rule-set name.
    pub name: String,
    /// Tile types and their rotations.
    pub catalog: Catalog,
    /// Plugins in resolved order: ascending priority, ties by name.
    pub plugins: Vec<LoadedPlugin>,
    dispatch: [Vec<u8>; Hooks::COUNT],
    /// Per hook, a bit per plugin (the first 64) that takes it only on request
    /// ([`Plugin::hooks_on_request`]).
    on_request: [u64; Hooks::COUNT],
    /// Figure kinds (followers, ...) the plugins register.
    pub figure_kinds: Vec<FigureKindDef>,
    /// Score sources (`road`, `city`, ...), in registration order.
    pub sources: Vec<String>,
    /// Bit set of the extra score sources ([`Registry::extra_source`]).
    pub extra_sources: u32,
    /// Names of the statistics plugins report.
    pub stats: Vec<String>,
    /// Fewest seats the rule set allows.
    pub min_players: usize,
    /// Most seats the rule set allows.
    pub max_players: usize,
    /// Seats when none are asked for (the rule set's `players`).
    pub default_players: usize,
    /// Interned query names, by [`QueryKey`].
    query_names: Vec<String>,
    /// Per query key, the plugins that may answer it (priority order).
    query_lists: Vec<Vec<u8>>,
    /// When some plugin answers only about some figure kinds ([`Registry::answers_only_about`]):
    /// per query key and figure kind (`key * MAX_FIGURE_KINDS + kind`), the plugins that may
    /// answer about a figure of that kind, and at `query_lists.len() * MAX_FIGURE_KINDS +
    /// key`, those that may answer a question about no figure kind. Empty otherwise.
    kind_query_lists: Vec<Vec<u8>>,
    /// Per plugin, the figure kinds it answers about (a bit per kind; `u16::MAX`: any
    /// question, also beyond the end).
    answer_kinds: Vec<u16>,
    /// Per tile type, the plugins whose `allow_tile` may veto it.
    tile_vetoers: Vec<Vec<u8>>,
    /// Per tile type, the plugins whose `on_tile_drawn` is called for it
    /// ([`Plugin::tile_hooks`]).
    tile_drawn: Vec<Vec<u8>>,
    /// Per tile type, the plugins whose `on_tile_placed` is called for it.
    tile_placed: Vec<Vec<u8>>,
    /// Per tile type, whether it has vetoers and each judges at once
    /// ([`Plugin::judges_tiles_at_once`]).
    tile_judged_at_once: Vec<bool>,
    /// Per placement-variant code, the plugin that reserved it (index 0 unused).
    variant_owner: Vec<u8>,
    /// Features plugins may add onto placed parts, by template index.
    pub edge_features: Vec<EdgeFeatureDef>,
    /// Per phase, the phase the turn loop goes to instead ([`Rules::phase_from`]).
    phase_from: [Phase; Phase::ALL.len()],
    /// Setups built by the plugins, per player count (built once, then shared).
    setups: [std::sync::OnceLock<Result<Arc<Setup>, String>>; MAX_PLAYERS + 1],
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules").field("name", &self.name).field("plugins", &self.plugin_names()).finish()
    }
}

impl Rules {
    /// Builds a rule set from plugins (any order: they are sorted by priority, then name).
    pub fn build(
        name: &str,
        catalog: Catalog,
        mut plugins: Vec<LoadedPlugin>,
        default_players: Option<usize>,
    ) -> Result<Rules, String> {
        plugins.sort_by(|a, b| a.priority.cmp(&b.priority).then_with(|| a.name.cmp(&b.name)));
        if plugins.len() > u8::MAX as usize {
            return Err("too many plugins".into());
        }
        let mut reg = Registry { catalog, ..Default::default() };
        for name in QueryKey::CORE {
            reg.query(name);
        }
        for (i, p) in plugins.iter_mut().enumerate() {
            reg.current = i as u8;
            p.plugin.register(&mut reg).map_err(|e| format!("plugin '{}': {e}", p.name))?;
        }
        let mut dispatch: [Vec<u8>; Hooks::COUNT] = Default::default();
        for p in &plugins {
            for &name in p.plugin.query_names().unwrap_or_default() {
                reg.query(name);
            }
        }
        let mut on_request = [0u64; Hooks::COUNT];
        for (i, p) in plugins.iter().enumerate() {
            let (h, r) = (p.plugin.hooks(), p.plugin.hooks_on_request());
            if r.0 & !(h.0 & Hooks::ON_REQUEST.0) != 0 {
                return Err(format!(
                    "plugin '{}': hooks on request must be among its hooks and those the turn loop runs",
                    p.name
                ));
            }
            for (bit, (list, mask)) in dispatch.iter_mut().zip(&mut on_request).enumerate() {
                if h.0 & (1 << bit) != 0 {
                    list.push(i as u8);
                }
                if r.0 & (1 << bit) != 0 && i < 64 {
                    *mask |= 1 << i;
                }
            }
        }
        let min_players = reg.min_players.unwrap_or(1);
        let max_players = reg.max_players.unwrap_or(MAX_PLAYERS).min(MAX_PLAYERS);
        if min_players > max_players {
            return Err(format!("no player count fits every plugin ({min_players} to {max_players})"));
        }
        let default_players = default_players.unwrap_or(min_players.max(2).min(max_players));
        if default_players < min_players || default_players > max_players {
            return Err(format!("players = {default_players} is outside {min_players}..={max_players}"));
        }
        let answer_kinds = std::mem::take(&mut reg.answer_kinds);
        Ok(Rules {
            name: name.into(),
            catalog: reg.catalog,
            plugins,
            dispatch,
            on_request,
            figure_kinds: reg.figure_kinds,
            sources: reg.sources,
            extra_sources: reg.extra_sources,
            stats: reg.stats,
            min_players,
            max_players,
            default_players,
            setups: Default::default(),
            tile_vetoers: Vec::new(),
            tile_drawn: Vec::new(),
            tile_placed: Vec::new(),
            tile_judged_at_once: Vec::new(),
            query_names: reg.queries,
            query_lists: Vec::new(),
            kind_query_lists: Vec::new(),
            answer_kinds: Vec::new(),
            variant_owner: reg.variant_owner,
            edge_features: reg.edge_features,
            phase_from: Phase::ALL,
        }
        .with_tile_lists()
        .with_query_lists(&answer_kinds)
        .with_phase_skips())
    }

    /// Per query key, the plugins that declared its name or answer every query.
    /// `answer_kinds`: per plugin, the figure kinds it answers about
    /// ([`Registry::answers_only_about`]; a plugin beyond its end answers any question).
    fn with_query_lists(mut self, answer_kinds: &[u16]) -> Rules {
        let all = self.list(Hooks::QUERY).to_vec();
        self.query_lists = (self.query_names.iter())
            .map(|n| {
                let answers = |i: u8| self.p(i).query_names().is_none_or(|ns| ns.contains(&n.as_str()));
                all.iter().copied().filter(|&i| answers(i)).collect()
            })
            .collect();
        let kinds_of = |i: u8| answer_kinds.get(i as usize).copied().unwrap_or(u16::MAX);
        if answer_kinds.iter().any(|&m| m != u16::MAX) {
            let keys = self.query_lists.len();
            let mut lists = vec![Vec::new(); (keys + 1) * MAX_FIGURE_KINDS];
            for key in 0..keys {
                let list = &self.query_lists[key];
                for kind in 0..MAX_FIGURE_KINDS {
                    lists[key * MAX_FIGURE_KINDS + kind] =
                        list.iter().copied().filter(|&i| kinds_of(i) & (1 << kind) != 0).collect();
                }
                lists[keys * MAX_FIGURE_KINDS + key] =
                    list.iter().copied().filter(|&i| kinds_of(i) == u16::MAX).collect();
            }
            self.kind_query_lists = lists;
            self.answer_kinds = answer_kinds.to_vec();
        }
        self
    }

    /// The phases passed over: each phase that only runs a hook no plugin subscribes to
    /// leads on to the next (see [`Rules::phase_from`]).
    fn with_phase_skips(mut self) -> Rules {
        for p in Phase::ALL {
            let mut q = p;
            loop {
                let (hook, next) = match q {
                    Phase::AfterTile => (Hooks::TILE_PLACED, Phase::Figure),
                    Phase::AfterFigure => (Hooks::FIGURE_ACTION_DONE, Phase::ScoringStep),
                    Phase::ScoringStep => (Hooks::SCORING_STEP, Phase::Scoring),
                    Phase::ScoringDone => (Hooks::SCORING_DONE, Phase::TurnEnd),
                    _ => break,
                };
                if self.uses(hook) {
                    break;
                }
                q = next;
            }
            self.phase_from[p as usize] = q;
        }
        self
    }

    /// `phase`, or, when it only runs a hook that no plugin subscribes to (after the tile,
    /// after the figure action, the scoring step, scoring done), the first phase after it
    /// that does something: the turn loop passes the others over.
    #[inline]
    pub(crate) fn phase_from(&self, phase: Phase) -> Phase {
        self.phase_from[phase as usize]
    }

    /// Per tile type, the plugins that may veto it and those whose tile hooks it calls.
    fn with_tile_lists(mut self) -> Rules {
        let tiles = 0..self.catalog.tiles.len() as TileTypeId;
        let list = self.list(Hooks::ALLOW_TILE).to_vec();
        self.tile_vetoers = (tiles.clone())
            .map(|t| list.iter().copied().filter(|&i| self.p(i).may_veto_tile(&self, t)).collect())
            .collect();
        let hook_lists = |h: Hooks| -> Vec<Vec<u8>> {
            let list = self.list(h);
            let wants = |i: u8, t| self.p(i).tile_hooks(&self, t).0 & h.0 != 0;
            (tiles.clone()).map(|t| list.iter().copied().filter(|&i| wants(i, t)).collect()).collect()
        };
        (self.tile_drawn, self.tile_placed) = (hook_lists(Hooks::TILE_DRAWN), hook_lists(Hooks::TILE_PLACED));
        self.tile_judged_at_once = (self.tile_vetoers.iter())
            .map(|v| !v.is_empty() && v.iter().all(|&i| self.p(i).judges_tiles_at_once()))
            .collect();
        self
    }

    /// The setup the plugins build for `players` seats (tile groups sorted by order and
    /// name, start tile); plugins' `setup` runs once per player count.
    pub fn setup(&self, players: usize) -> Result<Arc<Setup>, String> {
        let slot = self.setups.get(players).ok_or_else(|| format!("at most {MAX_PLAYERS} players"))?;
        slot.get_or_init(|| {
            let mut setup = Setup { players, ..Default::default() };
            for p in &self.plugins {
                p.plugin.setup(self, &mut setup).map_err(|e| format!("plugin '{}': {e}", p.name))?;
            }
            setup.groups.sort_by(|a, b| a.order.cmp(&b.order).then_with(|| a.name.cmp(&b.name)));
            Ok(Arc::new(setup))
        })
        .clone()
    }

    /// Plugin names in resolved order.
    pub fn plugin_names(&self) -> Vec<&str> {
        self.plugins.iter().map(|p| p.name.as_str()).collect()
    }

    /// Index of plugin `name` in the resolved order.
    pub fn plugin_index(&self, name: &str) -> Option<usize> {
        self.plugins.iter().position(|p| p.name == name)
    }

    /// Index of a registered figure kind.
    pub fn figure_kind(&self, name: &str) -> Option<u8> {
        self.figure_kinds.iter().position(|k| k.name == name).map(|i| i as u8)
    }

    /// Index of a registered score source.
    pub fn source(&self, name: &str) -> Option<u8> {
        self.sources.iter().position(|k| k == name).map(|i| i as u8)
    }

    /// Whether score source `source` is extra ([`Registry::extra_source`]).
    #[inline]
    pub fn is_extra_source(&self, source: u8) -> bool {
        self.extra_sources & (1 << source) != 0
    }

    /// Index of a registered statistic.
    pub fn stat(&self, name: &str) -> Option<usize> {
        self.stats.iter().position(|k| k == name)
    }

    /// Whether any plugin uses hook `h`.
    pub fn uses(&self, h: Hooks) -> bool {
        !self.dispatch[h.0.trailing_zeros() as usize].is_empty()
    }

    #[inline]
    fn list(&self, h: Hooks) -> &[u8] {
        &self.dispatch[h.0.trailing_zeros() as usize]
    }

    #[inline]
    fn p(&self, i: u8) -> &dyn Plugin {
        &*self.plugins[i as usize].plugin
    }

    /// Runs hook `h` over its plugins from the state's cursor; stops when a plugin pushes
    /// a decision (returns false; the next call resumes after that plugin).
    pub(crate) fn run_hook(&self, st: &mut State, h: Hooks, f: impl FnMut(&dyn Plugin, &mut State, usize)) -> bool {
        self.run_list(st, self.list(h), h, f)
    }

    /// [`Rules::run_hook`] of [`Hooks::TILE_PLACED`]: the plugins whose `tile_hooks` take
    /// the placed tile's type.
    pub(crate) fn run_tile_placed(&self, st: &mut State, f: impl FnMut(&dyn Plugin, &mut State, usize)) -> bool {
        let all = self.list(Hooks::TILE_PLACED);
        let list = match st.placed {
            Some((first, _)) if !all.is_empty() => &self.tile_placed[st.board.parts[first as usize].tile as usize],
            _ => all,
        };
        self.run_list(st, list, Hooks::TILE_PLACED, f)
    }

    /// Runs `list`'s plugins (those of hook `h`) from the state's cursor (see
    /// [`Rules::run_hook`]); a plugin that takes `h` on request only if it requested it.
    fn run_list(
        &self,
        st: &mut State,
        list: &[u8],
        h: Hooks,
        mut f: impl FnMut(&dyn Plugin, &mut State, usize),
    ) -> bool {
        let hi = h.0.trailing_zeros() as usize;
        let on_request = self.on_request[hi];
        while (st.hook_cursor as usize) < list.len() {
            let i = list[st.hook_cursor as usize];
            st.hook_cursor += 1;
            if on_request != 0 && i < 64 && on_request & (1 << i) != 0 {
                let requested = &mut st.requested[Hooks::REQUEST_SLOT[hi] as usize];
                if *requested & (1 << i) == 0 {
                    continue;
                }
                *requested &= !(1 << i);
            }
            f(self.p(i), st, i as usize);
            if !st.pending.is_empty() {
                return false;
            }
        }
        st.hook_cursor = 0;
        true
    }

    /// Asks the plugins a question (first answer in priority order wins).
    pub fn ask(&self, st: &State, q: &Query) -> Option<bool> {
        self.answerers(st, q).iter().find_map(|&i| self.p(i).answer(self, st, i as usize, q))
    }

    /// Every plugin's answer but `except`'s (a plugin asking the others), combined as
    /// [`Rules::verdict`] does: `Some(false)` when any says no, else `Some(true)` when any
    /// says yes, else `None`.
    pub fn answers_except(&self, st: &State, q: &Query, except: usize) -> Option<bool> {
        let mut answer = None;
        for &i in self.answerers(st, q).iter().filter(|&&i| i as usize != except) {
            match self.p(i).answer(self, st, i as usize, q) {
                Some(false) => return Some(false),
                Some(true) => answer = Some(true),
                None => {}
            }
        }
        answer
    }

    /// Whether any plugin may answer query `key` (a question nobody answers needs no walk).
    #[inline]
    pub fn is_answered(&self, key: QueryKey) -> bool {
        !self.query_list(key).is_empty()
    }

    /// The plugins that may answer query `key`, in priority order.
    #[inline]
    fn query_list(&self, key: QueryKey) -> &[u8] {
        self.query_lists.get(key.0 as usize).map_or(&[], Vec::as_slice)
    }

    /// The plugins that may answer `q`, in priority order: those of its key, less those
    /// that answer only about other figure kinds ([`Registry::answers_only_about`]).
    #[inline]
    fn answerers(&self, st: &State, q: &Query) -> &[u8] {
        if self.kind_query_lists.is_empty() {
            self.query_list(q.key)
        } else {
            self.kind_answerers(st, q)
        }
    }

    /// [`Rules::answerers`] when some plugin answers only about some figure kinds.
    #[inline(never)]
    fn kind_answerers(&self, st: &State, q: &Query) -> &[u8] {
        let key = q.key.0 as usize;
        if key >= self.query_lists.len() {
            return &[];
        }
        let i = match Self::kind_asked(st, q) {
            Some(k) if (k as usize) < MAX_FIGURE_KINDS => key * MAX_FIGURE_KINDS + k as usize,
            _ => self.query_lists.len() * MAX_FIGURE_KINDS + key,
        };
        &self.kind_query_lists[i]
    }

    /// The figure kind `q` asks about; a question that names only a figure, its kind.
    #[inline]
    fn kind_asked(st: &State, q: &Query) -> Option<u8> {
        q.kind.or_else(|| q.figure.and_then(|id| st.figures.get(id as usize)).map(|f| f.kind))
    }

    /// The name of an interned query key ("" for a key of no name).
    pub fn query_name(&self, key: QueryKey) -> &str {
        self.query_names.get(key.0 as usize).map_or("", String::as_str)
    }

    /// The key of query `name`, if some plugin registered or declared it.
    pub fn query_key(&self, name: &str) -> Option<QueryKey> {
        self.query_names.iter().position(|n| n == name).map(|i| QueryKey(i as u16))
    }

    /// Asks every plugin and weighs the answers: false if any plugin answers `Some(false)`,
    /// else true if any answers `Some(true)`, else `default`. Order-independent, so that a
    /// plugin's restriction is never hidden by another plugin's permission.
    #[inline]
    pub fn verdict(&self, st: &State, q: &Query, default: bool) -> bool {
        let mut yes = false;
        for &i in self.answerers(st, q) {
            match self.p(i).answer(self, st, i as usize, q) {
                Some(false) => return false,
                Some(true) => yes = true,
                None => {}
            }
        }
        yes || default
    }

    /// [`Rules::verdict`] of several questions of one key at once (one per candidate of a
    /// decision: the fairy's figures, the portal's features), at most [`VERDICT_BATCH`]:
    /// bit `i` of `defaults` is the default of `qs[i]`, bit `i` of the result its verdict.
    /// Each plugin that may answer the key is asked once ([`Plugin::answer_many`]); one that
    /// answers only about some figure kinds is asked only about those, one by one.
    pub fn verdicts(&self, st: &State, qs: &[Query], defaults: u64) -> u64 {
        assert!(qs.len() <= VERDICT_BATCH, "at most {VERDICT_BATCH} questions at once");
        let Some(first) = qs.first() else { return defaults };
        debug_assert!(qs.iter().all(|q| q.key == first.key), "questions of one key");
        let list = self.query_list(first.key);
        let all = if self.kind_query_lists.is_empty() {
            self.weigh_answers(list, None, |p, i| p.answer_many(self, st, i, qs), |_, _, _| None)
        } else {
            self.answers_by_kind(st, qs, list)
        };
        (defaults | all.yes) & !all.no
    }

    /// [`Rules::verdicts`] of the questions of key `key`, asked by plugin `by`, about
    /// figures `ids` as they stand ([`Query::about_figure`]; at most [`VERDICT_BATCH`]),
    /// without writing the questions out: each plugin that may answer is asked
    /// [`Plugin::answer_figures`] once, or, answering only about some figure kinds, about
    /// those figures one by one. Bit `i` of `defaults` is the default about `ids[i]`, bit
    /// `i` of the result its verdict.
    pub fn figure_verdicts(&self, st: &State, key: QueryKey, by: u8, ids: &[FigureId], defaults: u64) -> u64 {
        assert!(ids.len() <= VERDICT_BATCH, "at most {VERDICT_BATCH} figures at once");
        if ids.is_empty() {
            return defaults;
        }
        let list = self.query_list(key);
        let many = |p: &dyn Plugin, i| p.answer_figures(self, st, i, key, by, ids);
        let one = |p: &dyn Plugin, i, j: usize| {
            let id = ids[j];
            p.answer(self, st, i, &Query::about_figure(key, id, &st.figures[id as usize], by))
        };
        let all = if self.kind_query_lists.is_empty() {
            self.weigh_answers(list, None, many, one)
        } else {
            // Per figure kind, the figures of that kind.
            let mut of_kind = [0u64; MAX_FIGURE_KINDS];
            for (j, &id) in ids.iter().enumerate() {
                if let Some(m) = of_kind.get_mut(st.figures[id as usize].kind as usize) {
                    *m |= 1 << j;
                }
            }
            self.weigh_answers(list, Some(&of_kind), many, one)
        };
        (defaults | all.yes) & !all.no
    }

    /// Calls `f`, in id order, with each figure of `seat` on the board but `skip` whose
    /// verdict is yes on the question of key `key` asked by plugin `by` about it
    /// ([`Rules::figure_verdicts`], some figures at a time), `default` giving the default
    /// of a figure (e.g. the fairies': a follower).
    pub fn for_each_allowed_figure(
        &self,
        st: &State,
        (seat, skip): (u8, Option<FigureId>),
        (key, by): (QueryKey, u8),
        default: impl Fn(&Figure) -> bool,
        mut f: impl FnMut(FigureId),
    ) {
        /// Figures asked about at once (at most [`VERDICT_BATCH`]).
        const CHUNK: usize = 32;
        let (mut ids, mut defaults, mut n) = ([0 as FigureId; CHUNK], 0u64, 0);
        let mut ask = |ids: &[FigureId], defaults: u64| {
            let ok = self.figure_verdicts(st, key, by, ids, defaults);
            ids.iter().enumerate().filter(|(i, _)| ok & (1 << i) != 0).for_each(|(_, &id)| f(id));
        };
        for id in st.own_figures(seat).filter(|&id| skip != Some(id)) {
            ids[n] = id;
            defaults |= u64::from(default(&st.figures[id as usize])) << n;
            n += 1;
            if n == CHUNK {
                ask(&ids, defaults);
                (n, defaults) = (0, 0);
            }
        }
        if n > 0 {
            ask(&ids[..n], defaults);
        }
    }

    /// The answers of the plugins of `list` to a list of questions of one key: each asked
    /// about the whole list (`many(plugin, index)`), or, one that answers only about some
    /// figure kinds, about the questions on those kinds one by one (`one(plugin, index,
    /// j)`; `of_kind`: per kind, the questions about a figure of that kind, `None` when no
    /// plugin of the rule set answers only about some kinds).
    #[inline(always)]
    fn weigh_answers(
        &self,
        list: &[u8],
        of_kind: Option<&[u64; MAX_FIGURE_KINDS]>,
        many: impl Fn(&dyn Plugin, usize) -> Answers,
        one: impl Fn(&dyn Plugin, usize, usize) -> Option<bool>,
    ) -> Answers {
        let mut all = Answers::default();
        for &i in list {
            let a = match of_kind {
                Some(of_kind) => {
                    let kinds = self.answer_kinds.get(i as usize).copied().unwrap_or(u16::MAX);
                    if kinds == u16::MAX {
                        many(self.p(i), i as usize)
                    } else {
                        let (mut asked, mut ks, mut a) = (0u64, kinds, Answers::default());
                        while ks != 0 {
                            asked |= of_kind[ks.trailing_zeros() as usize];
                            ks &= ks - 1;
                        }
                        while asked != 0 {
                            let j = asked.trailing_zeros() as usize;
                            asked &= asked - 1;
                            a.set(j, one(self.p(i), i as usize, j));
                        }
                        a
                    }
                }
                None => many(self.p(i), i as usize),
            };
            all.no |= a.no;
            all.yes |= a.yes;
        }
        all
    }

    /// The answers of the plugins of `list` to `qs` (one key) when some plugin answers only
    /// about some figure kinds: each of those is asked only the questions about them.
    #[inline(never)]
    fn answers_by_kind(&self, st: &State, qs: &[Query], list: &[u8]) -> Answers {
        // Per figure kind, the questions about a figure of that kind.
        let mut of_kind = [0u64; MAX_FIGURE_KINDS];
        for (j, q) in qs.iter().enumerate() {
            if let Some(m) = Self::kind_asked(st, q).and_then(|k| of_kind.get_mut(k as usize)) {
                *m |= 1 << j;
            }
        }
        let many = |p: &dyn Plugin, i| p.answer_many(self, st, i, qs);
        self.weigh_answers(list, Some(&of_kind), many, |p, i, j| p.answer(self, st, i, &qs[j]))
    }

    pub(crate) fn dispatch_game_start(&self, st: &mut State) {
        for &i in self.list(Hooks::GAME_START) {
            self.p(i).on_game_start(self, st, i as usize);
        }
    }
    pub(crate) fn dispatch_tile_drawn(&self, st: &mut State, t: TileTypeId) -> DrawVerdict {
        if self.list(Hooks::TILE_DRAWN).is_empty() {
            return DrawVerdict::Keep;
        }
        for &i in &self.tile_drawn[t as usize] {
            if self.p(i).on_tile_drawn(self, st, i as usize, t) == DrawVerdict::Taken {
                return DrawVerdict::Taken;
            }
        }
        DrawVerdict::Keep
    }
    /// Whether every plugin allows this tile placement.
    pub fn allow_tile(&self, st: &State, p: &TilePlacement) -> bool {
        self.tile_vetoers[p.tile as usize].iter().all(|&i| self.p(i).allow_tile(self, st, i as usize, p))
    }
    /// Whether any plugin may veto placements of tile type `t`.
    #[inline]
    pub fn tile_has_vetoers(&self, t: TileTypeId) -> bool {
        !self.tile_vetoers[t as usize].is_empty()
    }
    /// Whether tile `t` has vetoers and every one judges at once
    /// ([`Plugin::judges_tiles_at_once`]).
    #[inline]
    pub(crate) fn tile_judged_at_once(&self, t: TileTypeId) -> bool {
        self.tile_judged_at_once[t as usize]
    }
    /// Every plugin that may veto tile `tile` judges `candidates` (one call each).
    pub(crate) fn judge_tiles(
        &self,
        st: &State,
        tile: TileTypeId,
        candidates: &TileCandidates,
        vetoes: &mut TileVetoes,
    ) {
        for &i in &self.tile_vetoers[tile as usize] {
            self.p(i).allow_tiles(self, st, i as usize, tile, candidates, vetoes);
        }
    }
    /// Removes from `out[from..]` (placements of tile `tile`) those a plugin forbids, keeping
    /// the order; every plugin that may veto the tile answers the list at once.
    pub(crate) fn veto_tiles(&self, st: &State, tile: TileTypeId, out: &mut Vec<Action>, from: usize) {
        if self.tile_vetoers[tile as usize].is_empty() || out.len() == from {
            return;
        }
        let mut vetoes = TileVetoes::new();
        self.judge_tiles(st, tile, &TileCandidates::generated(&out[from..]), &mut vetoes);
        vetoes.retain(out, from);
    }
    /// The plugin that vetoes this tile placement, if any.
    pub fn tile_veto(&self, st: &State, p: &TilePlacement) -> Option<&str> {
        self.tile_veto_with_reason(st, p).map(|(name, _)| name)
    }
    /// The plugin that vetoes this tile placement, if any, with its reason if it gives one.
    pub fn tile_veto_with_reason(&self, st: &State, p: &TilePlacement) -> Option<(&str, Option<String>)> {
        let &i =
            self.tile_vetoers[p.tile as usize].iter().find(|&&i| !self.p(i).allow_tile(self, st, i as usize, p))?;
        let reason = self.p(i).tile_veto_reason(self, st, i as usize, p);
        Some((self.plugins[i as usize].name.as_str(), reason))
    }
    /// The plugin that reserved placement-variant code `variant` (None for 0 or unknown).
    #[inline]
    pub fn variant_owner(&self, variant: u8) -> Option<usize> {
        self.variant_owner.get(variant as usize).filter(|_| variant != 0).map(|&i| i as usize)
    }
    /// Appends every plugin's placement variants of `tile` to `out` ([`Hooks::PLACEMENT_VARIANTS`]).
    pub(crate) fn placement_variants(&self, st: &State, tile: TileTypeId, out: &mut Vec<Action>) {
        for &i in self.list(Hooks::PLACEMENT_VARIANTS) {
            self.p(i).placement_variants(self, st, i as usize, tile, out);
        }
    }
    /// Applies a placed variant ([`Plugin::place_variant`] of its owner).
    pub(crate) fn place_variant(&self, st: &mut State, p: &TilePlacement) {
        if let Some(i) = self.variant_owner(p.variant) {
            self.p(i as u8).place_variant(self, st, i, p);
        }
    }
    /// JSON form of a placement variant ([`Plugin::describe_variant`] of its owner).
    pub(crate) fn describe_variant(&self, st: &State, p: &TilePlacement) -> serde_json::Value {
        match self.variant_owner(p.variant) {
            Some(i) => self.p(i as u8).describe_variant(self, st, i, p),
            None => serde_json::Value::Null,
        }
    }
    /// Whether the owner of `variant` lets the player discard a tile placeable only with
    /// variants ([`Plugin::may_discard`]).
    pub(crate) fn may_discard(&self, st: &State, variant: u8, tile: TileTypeId) -> bool {
        self.variant_owner(variant).is_some_and(|i| self.p(i as u8).may_discard(self, st, i, tile))
    }
    pub(crate) fn collect_figure_actions(&self, st: &State, out: &mut Vec<Action>) {
        for &i in self.list(Hooks::FIGURE_ACTIONS) {
            self.p(i).figure_actions(self, st, i as usize, out);
        }
    }
    pub(crate) fn restrict_figure_actions(&self, st: &State, out: &mut Vec<Action>) {
        for &i in self.list(Hooks::FIGURE_FILTER) {
            self.p(i).restrict_figure_actions(self, st, i as usize, out);
        }
    }
    /// Whether every plugin allows this figure placement.
    pub fn allow_figure(&self, st: &State, p: &FigurePlacement) -> bool {
        self.list(Hooks::ALLOW_FIGURE).iter().all(|&i| self.p(i).allow_figure(self, st, i as usize, p))
    }
    /// [`Rules::allow_figure`] for several candidates at once (each plugin answers the
    /// list in one call): `allowed[i]` ends true when every plugin allows `candidates[i]`.
    pub fn allow_figures(&self, st: &State, candidates: &[FigurePlacement], allowed: &mut [bool]) {
        for &i in self.list(Hooks::ALLOW_FIGURE) {
            self.p(i).allow_figures(self, st, i as usize, candidates, allowed);
        }
    }
    /// [`Rules::allow_figure`] of every plugin but `except` (a plugin asking the others).
    pub fn allow_figure_except(&self, st: &State, p: &FigurePlacement, except: usize) -> bool {
        self.list(Hooks::ALLOW_FIGURE)
            .iter()
            .all(|&i| i as usize == except || self.p(i).allow_figure(self, st, i as usize, p))
    }
    pub(crate) fn dispatch_figure_placed(&self, st: &mut State, fig: FigureId) {
        for &i in self.list(Hooks::FIGURE_PLACED) {
            self.p(i).on_figure_placed(self, st, i as usize, fig);
        }
    }
    pub(crate) fn dispatch_feature_scored(&self, st: &mut State, ev: &ScoreEvent) {
        for &i in self.list(Hooks::FEATURE_SCORED) {
            self.p(i).on_feature_scored(self, st, i as usize, ev);
        }
    }
    pub(crate) fn dispatch_figure_removed(&self, st: &mut State, id: FigureId, f: &Figure, why: RemoveReason) {
        for &i in self.list(Hooks::FIGURE_REMOVED) {
            self.p(i).on_figure_removed(self, st, i as usize, id, f, why);
        }
    }
    pub(crate) fn dispatch_figure_moved(&self, st: &mut State, id: FigureId, from: &Figure) {
        for &i in self.list(Hooks::FIGURE_MOVED) {
            self.p(i).on_figure_moved(self, st, i as usize, id, from);
        }
    }
    /// [`Plugin::adjust_strengths`] of every plugin of [`Hooks::MAJORITY`], in order.
    #[inline]
    pub(crate) fn adjust_strengths(&self, st: &State, root: crate::graph::NodeId, s: &mut [u32; MAX_PLAYERS]) {
        for &i in self.list(Hooks::MAJORITY) {
            self.p(i).adjust_strengths(self, st, i as usize, root, s);
        }
    }
    /// [`Plugin::break_tie`] of every plugin of [`Hooks::MAJORITY`], in order; an answer
    /// that is empty or not a subset of the tie is ignored.
    #[inline]
    pub(crate) fn break_tie(
        &self,
        st: &State,
        root: crate::graph::NodeId,
        s: &[u32; MAX_PLAYERS],
        mut winners: u8,
    ) -> u8 {
        for &i in self.list(Hooks::MAJORITY) {
            let w = self.p(i).break_tie(self, st, i as usize, root, s, winners);
            if w != 0 && w & !winners == 0 {
                winners = w;
            }
        }
        winners
    }
    pub(crate) fn dispatch_protected(&self, st: &State, id: FigureId) -> bool {
        self.list(Hooks::PROTECTED).iter().any(|&i| self.p(i).is_protected(self, st, i as usize, id))
    }
    pub(crate) fn plugin_decision_actions(&self, st: &State, d: &Decision, plugin: u8, out: &mut Vec<Action>) {
        self.p(plugin).decision_actions(self, st, plugin as usize, d, out);
    }
    pub(crate) fn plugin_apply(&self, st: &mut State, d: &Decision, plugin: u8, a: &Action) {
        self.p(plugin).apply_action(self, st, plugin as usize, d, a);
    }
    pub(crate) fn plugin_describe(&self, st: &State, plugin: u8, a: &Action) -> serde_json::Value {
        self.p(plugin).describe_action(self, st, plugin as usize, a)
    }
}
