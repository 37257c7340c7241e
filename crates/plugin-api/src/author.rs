//! The side a plugin author writes against: [`Rule`], [`Declare`], the [`Effects`] helpers
//! and [`crate::export_plugin!`]. Everything here is compiled into the plugin, so panics are
//! caught before they reach the boundary.

use std::panic::{catch_unwind, AssertUnwindSafe};

use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RErr, ROk, RResult, RSlice, RSliceMut, RStr, RString, RVec};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::ffi::*;

/// A score source the plugin declared (see [`Declare::source`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Source(pub u32);

/// A statistic the plugin declared (see [`Declare::stat`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stat(pub u32);

/// A figure kind the plugin declared (see [`Declare::figure`]); compare it with
/// [`FigureView::own_kind`] and [`FigurePlacementView::own_kind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FigureKind(pub u32);

impl FigureKind {
    /// Whether a figure view's kind is this one.
    pub fn is(self, own_kind: u32) -> bool {
        self.0 == own_kind
    }
}

/// A tile marker the plugin tests (see [`Declare::marker`], [`GameView::part_has`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marker(pub u32);

/// A feature modifier the plugin tests (see [`Declare::modifier`], [`GameView::node_has`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifier(pub u32);

/// A question the plugin asks or answers (see [`Declare::query`], [`GameView::ask_about`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Question(pub u32);

/// When a hook is worth calling ([`Declare::only_when`]): the engine checks it without a
/// call across the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When<'a> {
    /// The tile placed this turn carries this marker (false before the placement).
    PlacedTileMarker(&'a str),
    /// The tile placed this turn has a feature of this kind (`"monastery"`, `"garden"`...).
    PlacedTileFeature(&'a str),
    /// The tile in question (`on_tile_drawn`, `allow_tile`) carries this marker.
    TileMarker(&'a str),
    /// The hook's feature (`on_feature_completed`, `on_feature_scored`, a candidate of
    /// `allow_figure`) is of this kind.
    FeatureKind(&'a str),
    /// The hook's figure (`on_figure_placed`, `on_figure_removed`, `on_figure_moved`,
    /// `is_protected`, a candidate of `allow_figure`) is of this kind.
    FigureKind(&'a str),
    /// The seat whose turn it is has a figure of this kind out of its supply.
    Deployed(&'a str),
}

impl OfferedAction {
    /// A figure placement to offer: a figure of `kind` (the plugin's) on placed part `part`,
    /// in the feature of `node` (a node of that part) or on the tile.
    pub fn placement(kind: FigureKind, part: u32, node: Option<u32>) -> Self {
        OfferedAction { place: true, action: PluginAction::default(), figure: kind.0, part, node: node.into() }
    }
}

/// What a plugin declares when it is built: score sources, statistics, requirements.
#[derive(Debug, Default)]
pub struct Declare {
    sources: Vec<String>,
    extra_sources: Vec<u32>,
    stats: Vec<String>,
    figures: Vec<FigureKindDecl>,
    queries: Vec<String>,
    markers: Vec<String>,
    modifiers: Vec<String>,
    conditions: Vec<HookCondition>,
    tile_files: Vec<String>,
    land_tiles: Vec<LandTilesDecl>,
    requires: Vec<String>,
    conflicts: Vec<String>,
    looks: Vec<FigureLookDecl>,
    host: Option<ApiVersion>,
}

impl Declare {
    /// A score source to award points under: an existing one (`"monastery"`, `"road"`, ...)
    /// or a new one, shown in `simulate`'s points by source.
    pub fn source(&mut self, name: &str) -> Source {
        Source(index_of(&mut self.sources, name))
    }
    /// A score source for scorings that are not a feature's own (e.g. a bonus or a
    /// take-back): plugins that reward a feature's scoring (the fairies) ignore them.
    pub fn extra_source(&mut self, name: &str) -> Source {
        let s = self.source(name);
        if !self.extra_sources.contains(&s.0) {
            self.extra_sources.push(s.0);
        }
        s
    }
    /// A statistic `simulate` reports (mean and total per game).
    pub fn stat(&mut self, name: &str) -> Stat {
        Stat(index_of(&mut self.stats, name))
    }
    /// A figure kind of the plugin's own (a name no other plugin uses): `follower` kinds
    /// take features and count `strength` in majorities; each seat has `per_player`.
    pub fn figure(&mut self, name: &str, follower: bool, strength: u8, per_player: u8) -> FigureKind {
        if let Some(i) = self.figures.iter().position(|f| f.name.as_str() == name) {
            return FigureKind(i as u32);
        }
        self.figures.push(FigureKindDecl { name: name.into(), follower, strength, per_player });
        FigureKind((self.figures.len() - 1) as u32)
    }
    /// How the figures of `kind` are drawn on the board picture (since 4.2): `svg`, an SVG
    /// fragment centred on (0, 0) about 24 px high, in the owner's colour where it sets no
    /// fill (or uses `currentColor`); `stays_at_end`: still drawn on the board after the
    /// final scoring. Without it the kind gets the generic look (a meeple for followers, a
    /// rounded square with the kind's initial for others).
    pub fn figure_look(&mut self, kind: FigureKind, svg: &str, stays_at_end: bool) {
        self.looks.retain(|l| l.figure != kind.0);
        self.looks.push(FigureLookDecl { figure: kind.0, svg: svg.into(), stays_at_end });
    }
    /// A question the plugin asks ([`GameView::ask_about`], [`GameView::ask`]) or answers
    /// ([`Rule::answer`]), a known one (`eatable`, `capturable`, ...) or a new one.
    pub fn query(&mut self, name: &str) -> Question {
        Question(index_of(&mut self.queries, name))
    }
    /// A tile marker the plugin tests with [`GameView::part_has`] (resolved once, when the
    /// rule set is loaded: no name lookup per call). A marker no tile set knows is an error
    /// at load time.
    pub fn marker(&mut self, name: &str) -> Marker {
        Marker(index_of(&mut self.markers, name))
    }
    /// A feature modifier the plugin tests with [`GameView::node_has`].
    pub fn modifier(&mut self, name: &str) -> Modifier {
        Modifier(index_of(&mut self.modifiers, name))
    }
    /// Calls the hooks of `hooks` only when `when` holds (or another condition given for
    /// the same hook: any one suffices). The engine checks it without a call across the
    /// boundary: the cheapest call is the one not made. It is a promise: the hook must do
    /// nothing when none of its conditions holds.
    pub fn only_when(&mut self, hooks: Hooks, when: When<'_>) {
        let (code, name) = match when {
            When::PlacedTileMarker(n) => (HookCondition::PLACED_TILE_MARKER, n),
            When::PlacedTileFeature(n) => (HookCondition::PLACED_TILE_FEATURE, n),
            When::TileMarker(n) => (HookCondition::TILE_MARKER, n),
            When::FeatureKind(n) => (HookCondition::FEATURE_KIND, n),
            When::FigureKind(n) => (HookCondition::FIGURE_KIND, n),
            When::Deployed(n) => (HookCondition::DEPLOYED, n),
        };
        for bit in 0..32 {
            if hooks.0 & (1 << bit) != 0 {
                self.conditions.push(HookCondition { hook: bit, when: code, name: name.into() });
            }
        }
    }
    /// A tile file the plugin brings (a path from its options, relative to the rule set's
    /// file); its tiles join the catalog under the set name the file declares, with the
    /// markers and modifiers it lists (`extra_markers`, `extra_modifiers`).
    pub fn tile_file(&mut self, path: &str) {
        index_of(&mut self.tile_files, path);
    }
    /// Puts the tiles of tile set `set` that carry `marker` into the land tiles
    /// (`first_edition`: their 1st-edition printings where a tile has one).
    pub fn land_tiles(&mut self, set: &str, marker: &str, first_edition: bool) {
        self.land_tiles.push(LandTilesDecl { set: set.into(), marker: marker.into(), first_edition });
    }
    /// A plugin that must be in the same rule set (e.g. `"base"`).
    pub fn requires(&mut self, plugin: &str) {
        self.requires.push(plugin.to_string());
    }
    /// A plugin that may not be in the same rule set.
    pub fn conflicts(&mut self, plugin: &str) {
        self.conflicts.push(plugin.to_string());
    }
    /// The engine's interface version (a plugin that needs a newer minor can refuse).
    pub fn host_version(&self) -> ApiVersion {
        self.host.unwrap_or_else(ApiVersion::current)
    }
}

fn index_of(list: &mut Vec<String>, name: &str) -> u32 {
    match list.iter().position(|s| s == name) {
        Some(i) => i as u32,
        None => {
            list.push(name.to_string());
            (list.len() - 1) as u32
        }
    }
}

/// What a hook does to the game: points given or taken, statistics, figures placed, moved
/// or removed, decisions pushed, and (in `on_tile_drawn`) taking the tile away. Empty
/// unless the hook fills it; applied by the engine in that order after the hook returns.
/// One pointer until the first effect: a hook that does nothing costs no allocation and
/// no check but one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    raw: Option<Box<RawEffects>>,
}

impl Effects {
    /// Whether the hook said nothing.
    pub fn is_empty(&self) -> bool {
        self.raw.as_ref().is_none_or(|r| r.is_empty())
    }

    /// What was said so far (the form that crosses the boundary).
    pub fn raw(&self) -> Option<&RawEffects> {
        self.raw.as_deref()
    }

    /// The lists, taken at the first effect from this thread's spare ones (whose buffers
    /// the engine handed back last time: no allocation once warm).
    #[inline]
    fn get(&mut self) -> &mut RawEffects {
        self.raw.get_or_insert_with(|| SPARE.take().unwrap_or_default())
    }

    /// The form that crosses the boundary.
    pub fn into_raw(self) -> RawEffects {
        self.raw.map(|b| *b).unwrap_or_default()
    }

    /// Says `verdict` (only `on_tile_drawn` may say [`Verdict::VETO`], through
    /// [`Effects::take_tile`]; the engine refuses any other verdict of a hook).
    pub fn set_verdict(&mut self, verdict: Verdict) {
        self.get().verdict = verdict;
    }

    /// Scores the feature of `node`: `points` to its majority, under `source`; during play
    /// (not `final_scoring`) the feature is then marked scored. Every plugin hears of it.
    pub fn score_feature(&mut self, node: u32, points: i32, source: Source, final_scoring: bool) {
        let reason = RString::new();
        self.get().scores.push(ScoreOp {
            node,
            majority: true,
            winners: 0,
            points,
            source: source.0,
            final_scoring,
            reason,
        });
    }
    /// Scores `points` to each seat of `winners` (a bit set) for the feature of `node`,
    /// without marking it scored (e.g. a bonus), shown in records with `reason`.
    pub fn score_seats(
        &mut self,
        node: u32,
        winners: u8,
        points: i32,
        source: Source,
        final_scoring: bool,
        reason: &str,
    ) {
        let reason = reason.into();
        self.get().scores.push(ScoreOp {
            node,
            majority: false,
            winners,
            points,
            source: source.0,
            final_scoring,
            reason,
        });
    }

    /// Places a figure of a kind the plugin declared from `owner`'s supply on placed part
    /// `part`, in the feature of `node` (a node of that part) or on no feature.
    pub fn place_figure(&mut self, kind: FigureKind, owner: u8, part: u32, node: Option<u32>) {
        self.get().figures.push(FigureOp { op: FigureOp::PLACE, figure: kind.0, owner, part, node: node.into() });
    }
    /// Moves figure `id` onto part `part`, into the feature of `node` or on no feature.
    pub fn move_figure(&mut self, id: u32, part: u32, node: Option<u32>) {
        self.get().figures.push(FigureOp { op: FigureOp::MOVE, figure: id, owner: 0, part, node: node.into() });
    }
    /// Takes figure `id` off the board, back to its owner's supply.
    pub fn remove_figure(&mut self, id: u32) {
        self.get().figures.push(FigureOp { op: FigureOp::REMOVE, figure: id, owner: 0, part: 0, node: None.into() });
    }
    /// Pushes a decision of this plugin for `player` (`code` not 0): the engine asks
    /// [`Rule::decision_actions`] for its legal actions, and the answer comes to
    /// [`Rule::apply_action`]. It is answered before the turn goes on.
    pub fn push_decision(&mut self, player: u8, code: u16, data: i32) {
        self.get().decisions.push(DecisionView { player, code, data });
    }

    /// Gives `points` (negative: takes them) to `player`, under `source`.
    pub fn award(&mut self, player: u8, points: i32, source: Source, reason: &str) {
        self.get().points.push(Points { player, source: source.0, points, reason: reason.into() });
    }
    /// Adds `by` to a statistic.
    pub fn bump(&mut self, stat: Stat, by: i64) {
        self.get().stats.push(StatBump { stat: stat.0, by });
    }
    /// In `on_tile_drawn`: takes the drawn tile out of the game (the player draws again).
    pub fn take_tile(&mut self) {
        self.get().verdict = Verdict::VETO;
    }
}

/// The result of a rule's hook: `Err` stops the game with the message, naming the plugin
/// and the hook.
pub type Outcome<T = ()> = Result<T, String>;

/// A house rule. The struct's fields are its options: the rule set's `[plugins.options]`
/// table is deserialized into it (use `#[serde(default, deny_unknown_fields)]`), and its
/// serialization is recorded as the resolved options.
///
/// Its per-game state is [`Rule::State`] (`()` when it keeps none): made by
/// [`Rule::init_state`] for each game, cloned with the game (so it must be a plain value:
/// no shared pointers, no randomness of its own), and handed to every hook (mutable to the
/// hooks that may change the game).
///
/// Every hook has a default that does nothing; [`Rule::hooks`] says which ones the engine
/// calls (only those are dispatched; decisions and actions need no bit). Hooks run in the
/// rule set's priority order among the built-in plugins. A hook that returns `Err` or
/// panics stops the game: the engine reports the plugin, the hook and the message.
#[allow(unused_variables)]
pub trait Rule: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The name a rule set knows the plugin by.
    const NAME: &'static str;
    /// Per-game state (`()` for none).
    type State: Clone + Send + Sync + std::fmt::Debug + Default + 'static;
    /// The hooks this rule uses.
    fn hooks(&self) -> Hooks;
    /// Declares score sources, statistics, figure kinds, questions and requirements;
    /// checks the options.
    fn declare(&mut self, d: &mut Declare) -> Outcome {
        Ok(())
    }
    /// A new game's state.
    fn init_state(&self, players: u8) -> Outcome<Self::State> {
        Ok(Self::State::default())
    }
    /// After the start tile is placed.
    fn on_game_start(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// Start of a player's turn.
    fn on_turn_start(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// A tile was drawn; [`Effects::take_tile`] takes it out of the game.
    fn on_tile_drawn(&self, view: &View<'_>, state: &mut Self::State, tile: &str, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// May the drawn tile go there? (Asked of every legal placement by the default
    /// [`Rule::judge_tiles`]: keep it cheap.)
    fn allow_tile(&self, view: &View<'_>, state: &Self::State, placement: &TileView<'_>) -> Outcome<bool> {
        Ok(true)
    }
    /// The tile veto, once per decision (since 4.3): pushes onto `forbidden` the index of
    /// each candidate placement of the drawn tile `tile` that it forbids, the candidates
    /// being `view.tile_candidates()`, listed only when asked for. The default asks
    /// [`Rule::allow_tile`] of each ([`judge_each`]); a rule that can tell from its state
    /// alone that it forbids nothing now returns at once, and the engine then lists nothing
    /// (it counts the placements instead).
    fn judge_tiles(&self, view: &View<'_>, state: &Self::State, tile: &str, forbidden: &mut RVec<u32>) -> Outcome {
        judge_each(self, view, state, tile, forbidden)
    }
    /// The drawn tile was placed.
    fn on_tile_placed(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// The plugin's own actions in the figure decision (instead of a figure placement), and
    /// placements of its own figure kinds ([`OfferedAction::placement`]); a plain
    /// [`PluginAction`] converts with `.into()`.
    fn figure_actions(&self, view: &View<'_>, state: &Self::State, out: &mut RVec<OfferedAction>) -> Outcome {
        Ok(())
    }
    /// May this figure go there? (Called for every candidate of a decision, all in one call
    /// across the boundary: keep it cheap; compare kinds with [`FigureKind::is`].)
    fn allow_figure(&self, view: &View<'_>, state: &Self::State, placement: &FigurePlacementView<'_>) -> Outcome<bool> {
        Ok(true)
    }
    /// The figure veto, once per decision (since 4.4): sets `allowed[i] = false` for each
    /// candidate `view.figure_candidate(i)` it forbids (`i` below `allowed.len()`; one
    /// already false was forbidden by another plugin). The default asks
    /// [`Rule::allow_figure`] of each still allowed ([`allow_each`]); a rule that can tell
    /// from its state alone that it forbids nothing now returns at once.
    fn judge_figures(&self, view: &View<'_>, state: &Self::State, allowed: &mut [bool]) -> Outcome {
        allow_each(self, view, state, allowed)
    }
    /// A figure was placed.
    fn on_figure_placed(&self, view: &View<'_>, state: &mut Self::State, figure: u32, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// The figure decision was answered.
    fn on_figure_action_done(
        &self,
        view: &View<'_>,
        state: &mut Self::State,
        action: &ActionView<'_>,
        fx: &mut Effects,
    ) -> Outcome {
        Ok(())
    }
    /// A feature was completed (before the core returns its figures).
    fn on_feature_completed(&self, view: &View<'_>, state: &mut Self::State, root: u32, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// A feature was scored (during play or final scoring).
    fn on_feature_scored(
        &self,
        view: &View<'_>,
        state: &mut Self::State,
        event: &ScoreView<'_>,
        fx: &mut Effects,
    ) -> Outcome {
        Ok(())
    }
    /// A figure left the board.
    fn on_figure_removed(
        &self,
        view: &View<'_>,
        state: &mut Self::State,
        removed: &RemovedView<'_>,
        fx: &mut Effects,
    ) -> Outcome {
        Ok(())
    }
    /// A figure on the board moved (`from`: where it stood before).
    fn on_figure_moved(
        &self,
        view: &View<'_>,
        state: &mut Self::State,
        figure: u32,
        from: &FigureView<'_>,
        fx: &mut Effects,
    ) -> Outcome {
        Ok(())
    }
    /// Is this figure protected from other plugins' effects?
    fn is_protected(&self, view: &View<'_>, state: &Self::State, figure: u32) -> Outcome<bool> {
        Ok(false)
    }
    /// A majority of the feature of `root` is weighed (`Hooks::MAJORITY`, in play and at
    /// the end, whoever asks): adjust the follower strength per seat (`strengths[seat]`);
    /// a seat left at 0 never wins. Keep it cheap: every scoring asks.
    fn adjust_strengths(&self, view: &View<'_>, state: &Self::State, root: u32, strengths: &mut [u32]) -> Outcome {
        Ok(())
    }
    /// Then, when two or more seats share the top strength (`winners`, a bit set), the
    /// seats that win: a non-empty subset of `winners` (anything else keeps the tie).
    fn break_tie(
        &self,
        view: &View<'_>,
        state: &Self::State,
        root: u32,
        strengths: &[u32],
        winners: u8,
    ) -> Outcome<u8> {
        Ok(winners)
    }
    /// The turn's scoring step begins (after the figure action, before the completed
    /// features are scored).
    fn on_scoring_step(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// After the turn's completed features were scored.
    fn on_scoring_done(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// End of a turn.
    fn on_turn_end(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// Final scoring, after the last turn.
    fn on_final_scoring(&self, view: &View<'_>, state: &mut Self::State, fx: &mut Effects) -> Outcome {
        Ok(())
    }
    /// Another plugin's question (`None`: no opinion).
    fn answer(&self, view: &View<'_>, state: &Self::State, query: &QueryView<'_>) -> Outcome<Option<bool>> {
        Ok(None)
    }
    /// Narrows the figure decision: `actions` are every plugin's actions and `pass`; set
    /// `keep[i] = false` for each one to remove (e.g. all but one's own, to make it
    /// compulsory). At least one action must stay.
    fn filter_figure_actions(
        &self,
        view: &View<'_>,
        state: &Self::State,
        actions: &[ActionView<'_>],
        keep: &mut [bool],
    ) -> Outcome {
        Ok(())
    }
    /// The figure decision's filter, its actions made only when asked for (since 4.4):
    /// `view.figure_action(i)` for `i` below `keep.len()`;
    /// set `keep[i] = false` for each one to remove. The default makes every action and
    /// hands them to [`Rule::filter_figure_actions`] ([`filter_all`]); a rule that can tell
    /// from its state alone that it removes nothing now returns at once.
    fn judge_figure_actions(&self, view: &View<'_>, state: &Self::State, keep: &mut [bool]) -> Outcome {
        filter_all(self, view, state, keep)
    }
    /// The legal actions of a decision this plugin pushed ([`Effects::push_decision`]):
    /// at least one (e.g. one meaning "no").
    fn decision_actions(
        &self,
        view: &View<'_>,
        state: &Self::State,
        decision: DecisionView,
        out: &mut RVec<PluginAction>,
    ) -> Outcome {
        Ok(())
    }
    /// Applies one of this plugin's actions, chosen in its decision or in the figure
    /// decision (`decision.code == DecisionView::FIGURE`).
    fn apply_action(
        &self,
        view: &View<'_>,
        state: &mut Self::State,
        decision: DecisionView,
        action: PluginAction,
        fx: &mut Effects,
    ) -> Outcome {
        Ok(())
    }
    /// The record form of one of its actions: keys added to `{"type": "plugin", "plugin":
    /// NAME}`, e.g. `json!({"action": "recall", "cell": [1, 0]})`. Each legal action of a
    /// decision must be described differently (records name actions by description).
    fn describe_action(
        &self,
        view: &View<'_>,
        state: &Self::State,
        action: PluginAction,
    ) -> Outcome<serde_json::Map<String, serde_json::Value>> {
        Ok(serde_json::Map::new())
    }
    /// Since 4.2: draws the plugin's pieces and markings on the board picture of the game
    /// as it stands (`carcassonne render`, the HTML viewer): pieces kept in its state,
    /// icons of its tile markers, badges on its figures, pieces in a supply. Asked by
    /// renderers only, never in the game loop.
    fn draw(&self, view: &View<'_>, state: &Self::State, canvas: &mut Drawing<'_>) -> Outcome {
        Ok(())
    }
}

/// Where [`Rule::draw`] puts its drawings (since 4.2). SVG fragments are checked by the
/// engine: well-formed, with no script, no event attribute, no link out of the page (an
/// `href` other than `#id`; `<use xlink:href="#meeple"/>` is the meeple) and no
/// `foreignObject`; a drawing that fails the check, or names a part, node, figure or seat
/// that does not exist, is left out of the picture with a warning naming the plugin.
/// `piece` names the thing drawn (the legend lists each piece drawn); `title` is the hover
/// text of one drawing (words go there, never on the tile).
pub struct Drawing<'a> {
    out: &'a mut RVec<DrawOp>,
}

impl Drawing<'_> {
    fn push(&mut self, what: u8, at: u32, count: u32, piece: &str, svg: &str, title: &str) {
        self.out.push(DrawOp { what, at, count, piece: piece.into(), svg: svg.into(), title: title.into() });
    }
    /// Markup over the whole 100 × 100 box of placed part `part` (north up), above the tile
    /// and its icons, under the figures (e.g. a tower with its pieces).
    pub fn on_tile(&mut self, part: u32, piece: &str, svg: &str, title: &str) {
        self.push(DrawOp::ON_TILE, part, 0, piece, svg, title);
    }
    /// A small icon (centred on (0, 0), at most 20 px) on the tile of placed part `part`.
    pub fn tile_icon(&mut self, part: u32, piece: &str, svg: &str, title: &str) {
        self.push(DrawOp::TILE_ICON, part, 0, piece, svg, title);
    }
    /// A small icon (centred on (0, 0), at most 16 px) on the feature of node `node` (on
    /// the part of that node), beside the feature's figures.
    pub fn feature_icon(&mut self, node: u32, piece: &str, svg: &str, title: &str) {
        self.push(DrawOp::FEATURE_ICON, node, 0, piece, svg, title);
    }
    /// A badge (centred on (0, 0), at most 12 px) at the upper right of figure `figure`.
    pub fn figure_badge(&mut self, figure: u32, svg: &str, title: &str) {
        self.push(DrawOp::FIGURE_BADGE, figure, 0, "", svg, title);
    }
    /// `count` pieces named `label` that are no figure in, or held by, `seat`'s supply.
    pub fn supply(&mut self, seat: u8, label: &str, count: u32) {
        self.push(DrawOp::SUPPLY, seat as u32, count, label, "", "");
    }
    /// The legend's entry for `piece`: `svg` (centred on (0, 0)) and `text`.
    pub fn legend(&mut self, piece: &str, svg: &str, text: &str) {
        self.push(DrawOp::LEGEND, 0, 0, piece, svg, text);
    }
}

/// The engine's box around a rule's state. Cloning it catches a panic of the state's own
/// `Clone` (it must not cross the boundary): the clone is then empty, its pointer null,
/// and the engine stops that game naming the plugin.
#[derive(Debug)]
pub struct StateCell<S>(pub Option<S>);

impl<S: Clone> Clone for StateCell<S> {
    fn clone(&self) -> Self {
        StateCell(catch_unwind(AssertUnwindSafe(|| self.0.clone())).unwrap_or(None))
    }
}

impl<S: Clone + Send + Sync + std::fmt::Debug + 'static> PluginStateObj for StateCell<S> {
    fn state_ptr(&mut self) -> *mut () {
        self.0.as_mut().map_or(std::ptr::null_mut(), |s| (s as *mut S).cast())
    }
}

thread_local! {
    /// Where the last panic on this thread happened (set by the plugin's panic hook).
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Replaces the panic hook of the plugin's own copy of std (a `cdylib` has its own): a
/// panic in a hook is reported once, by the engine, with its location, instead of also
/// being printed here.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let at = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_AT.with(|p| *p.borrow_mut() = at);
        }))
    });
}

/// Runs `f`, turning a panic into an error (`panicked at FILE:LINE:COL: message`).
#[inline]
pub fn guard<T>(f: impl FnOnce() -> Outcome<T>) -> Outcome<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(panic_message(payload)),
    }
}

#[cold]
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    let msg = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-text panic payload".to_string()
    };
    match PANIC_AT.with(|p| p.borrow_mut().take()) {
        Some(at) => format!("panicked at {at}: {msg}"),
        None => format!("panicked: {msg}"),
    }
}

/// [`guard`] for the boundary: an `Err` or a panic becomes an `RErr`.
pub fn guard_ffi<T>(f: impl FnOnce() -> Outcome<T>) -> RResult<T, RString> {
    match guard(f) {
        Ok(v) => ROk(v),
        Err(e) => RErr(e.into()),
    }
}

/// Adapts a [`Rule`] to the [`HouseRule`] the engine calls, with the figure looks it
/// declared.
pub struct Adapter<R>(pub R, pub Vec<FigureLookDecl>);

/// Runs a hook that may change the game and hands its effects (if any) or its error back.
/// The common call (no effect) allocates nothing, moves nothing and reports nothing.
#[inline(always)]
fn effects(view: &View<'_>, f: impl FnOnce(&mut Effects) -> Outcome) {
    let mut fx = Effects::default();
    let r = guard(|| f(&mut fx));
    if r.is_ok() && fx.raw.is_none() {
        // Nothing said, nothing allocated: no drop code.
        std::mem::forget(fx);
    } else {
        hand_back(view, r, fx);
    }
}

thread_local! {
    /// The lists of the last effects handed to the engine, empty (their capacity reused).
    static SPARE: std::cell::Cell<Option<Box<RawEffects>>> = const { std::cell::Cell::new(None) };
}

/// [`effects`]' rare path: the hook failed or said something.
#[cold]
#[inline(never)]
fn hand_back(view: &View<'_>, r: Outcome, fx: Effects) {
    let Some(mut raw) = fx.raw else {
        if let Err(e) = r {
            report(view, e);
        }
        return;
    };
    match r {
        Ok(()) if raw.is_empty() => {}
        Ok(()) => view.report_effects(&mut raw),
        Err(e) => report(view, e),
    }
    raw.clear();
    SPARE.set(Some(raw));
}

/// [`Rule::judge_figures`] by [`Rule::allow_figure`]: asks it of each candidate still
/// allowed and clears `allowed[i]` for each one it forbids.
pub fn allow_each<R: Rule>(rule: &R, view: &View<'_>, state: &R::State, allowed: &mut [bool]) -> Outcome {
    for (i, ok) in allowed.iter_mut().enumerate() {
        if *ok && !rule.allow_figure(view, state, &view.figure_candidate(i as u32))? {
            *ok = false;
        }
    }
    Ok(())
}

/// [`Rule::judge_figure_actions`] by [`Rule::filter_figure_actions`]: makes every action of
/// the figure decision (on the stack for up to 32) and hands them over at once.
pub fn filter_all<R: Rule>(rule: &R, view: &View<'_>, state: &R::State, keep: &mut [bool]) -> Outcome {
    const STACK: usize = 32;
    let n = keep.len();
    if n <= STACK {
        let mut views = [ActionView::pass(); STACK];
        for (i, v) in views[..n].iter_mut().enumerate() {
            *v = view.figure_action(i as u32);
        }
        return rule.filter_figure_actions(view, state, &views[..n], keep);
    }
    let views: Vec<ActionView<'_>> = (0..n as u32).map(|i| view.figure_action(i)).collect();
    rule.filter_figure_actions(view, state, &views, keep)
}

/// [`Rule::judge_tiles`] by [`Rule::allow_tile`]: asks it of each candidate in
/// `view.tile_candidates()` and pushes the index of each one it forbids onto `forbidden`.
pub fn judge_each<R: Rule>(
    rule: &R,
    view: &View<'_>,
    state: &R::State,
    tile: &str,
    forbidden: &mut RVec<u32>,
) -> Outcome {
    for (i, c) in view.tile_candidates().iter().enumerate() {
        let p = TileView { tile: RStr::from(tile), face: c.face, x: c.x, y: c.y, rotation: c.rotation() };
        if !rule.allow_tile(view, state, &p)? {
            forbidden.push(i as u32);
        }
    }
    Ok(())
}

/// Runs a hook that only judges; an error is handed back and counts as no opinion.
#[inline(always)]
fn judge<T: Default>(view: &View<'_>, f: impl FnOnce() -> Outcome<T>) -> T {
    match guard(f) {
        Ok(v) => v,
        Err(e) => {
            report(view, e);
            T::default()
        }
    }
}

#[cold]
fn report(view: &View<'_>, e: String) {
    view.report_error(e.into());
}

impl<R: Rule> Adapter<R> {
    /// The rule's state behind the engine's pointer (made by [`HouseRule::init_state`]).
    #[inline(always)]
    fn state<'s>(state: StatePtr) -> &'s mut R::State {
        // SAFETY: the engine hands each plugin only the pointer its own `init_state` box
        // gave ([`StateCell::state_ptr`]), alive for the call; hooks of one plugin never
        // run inside one another's call (effects apply after the hook returns).
        unsafe { &mut *state.0.cast::<R::State>() }
    }
}

impl<R: Rule> HouseRule for Adapter<R> {
    fn init_state(&self, players: u8) -> RResult<StateBox, RString> {
        guard_ffi(|| {
            let s = self.0.init_state(players)?;
            Ok(PluginStateObj_TO::from_value(StateCell(Some(s)), TD_Opaque))
        })
    }
    fn on_game_start(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_game_start(&view, Self::state(st), fx))
    }
    fn on_turn_start(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_turn_start(&view, Self::state(st), fx))
    }
    fn on_tile_drawn(&self, view: View<'_>, st: StatePtr, tile: RStr<'_>) {
        effects(&view, |fx| self.0.on_tile_drawn(&view, Self::state(st), tile.as_str(), fx))
    }
    fn allow_tiles(
        &self,
        view: View<'_>,
        st: StatePtr,
        tile: RStr<'_>,
        candidates: RSlice<'_, Placement>,
        mut allowed: RSliceMut<'_, bool>,
    ) {
        let state = Self::state(st);
        // Only a veto is written: a rule that allows (e.g. a no-op) leaves `allowed` alone.
        let r = guard(|| {
            for (c, ok) in candidates.iter().zip(allowed.iter_mut()) {
                if *ok {
                    let p = TileView { tile, face: c.face, x: c.x, y: c.y, rotation: c.rotation() };
                    if !self.0.allow_tile(&view, state, &p)? {
                        *ok = false;
                    }
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            report(&view, e);
        }
    }
    fn judge_tiles(&self, view: View<'_>, st: StatePtr, tile: RStr<'_>, forbidden: &mut RVec<u32>) {
        let from = forbidden.len();
        if let Err(e) = guard(|| self.0.judge_tiles(&view, Self::state(st), tile.as_str(), forbidden)) {
            forbidden.truncate(from);
            report(&view, e);
        }
    }
    fn on_tile_placed(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_tile_placed(&view, Self::state(st), fx))
    }
    fn figure_actions(&self, view: View<'_>, st: StatePtr, out: &mut RVec<OfferedAction>) {
        let from = out.len();
        if let Err(e) = guard(|| self.0.figure_actions(&view, Self::state(st), out)) {
            out.truncate(from);
            report(&view, e);
        }
    }
    fn allow_figures(
        &self,
        view: View<'_>,
        st: StatePtr,
        candidates: RSlice<'_, FigurePlacementView<'_>>,
        mut allowed: RSliceMut<'_, bool>,
    ) {
        let state = Self::state(st);
        // Only a veto is written: a rule that allows leaves `allowed` alone.
        let r = guard(|| {
            for (c, ok) in candidates.iter().zip(allowed.iter_mut()) {
                if *ok && !self.0.allow_figure(&view, state, c)? {
                    *ok = false;
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            report(&view, e);
        }
    }
    fn on_figure_placed(&self, view: View<'_>, st: StatePtr, figure: u32) {
        effects(&view, |fx| self.0.on_figure_placed(&view, Self::state(st), figure, fx))
    }
    fn on_figure_action_done(&self, view: View<'_>, st: StatePtr, action: &ActionView<'_>) {
        effects(&view, |fx| self.0.on_figure_action_done(&view, Self::state(st), action, fx))
    }
    fn on_feature_completed(&self, view: View<'_>, st: StatePtr, root: u32) {
        effects(&view, |fx| self.0.on_feature_completed(&view, Self::state(st), root, fx))
    }
    fn on_feature_scored(&self, view: View<'_>, st: StatePtr, event: &ScoreView<'_>) {
        effects(&view, |fx| self.0.on_feature_scored(&view, Self::state(st), event, fx))
    }
    fn on_figure_removed(&self, view: View<'_>, st: StatePtr, removed: &RemovedView<'_>) {
        effects(&view, |fx| self.0.on_figure_removed(&view, Self::state(st), removed, fx))
    }
    fn is_protected(&self, view: View<'_>, st: StatePtr, figure: u32) -> Verdict {
        judge(&view, || {
            self.0
                .is_protected(&view, Self::state(st), figure)
                .map(|p| if p { Verdict::PROTECT } else { Verdict::PASS })
        })
    }
    fn on_scoring_done(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_scoring_done(&view, Self::state(st), fx))
    }
    fn on_turn_end(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_turn_end(&view, Self::state(st), fx))
    }
    fn on_final_scoring(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_final_scoring(&view, Self::state(st), fx))
    }
    fn answer(&self, view: View<'_>, st: StatePtr, query: &QueryView<'_>) -> Verdict {
        judge(&view, || {
            self.0.answer(&view, Self::state(st), query).map(|a| match a {
                None => Verdict::PASS,
                Some(true) => Verdict::YES,
                Some(false) => Verdict::NO,
            })
        })
    }
    fn filter_figure_actions(
        &self,
        view: View<'_>,
        st: StatePtr,
        actions: RSlice<'_, ActionView<'_>>,
        mut keep: RSliceMut<'_, bool>,
    ) {
        let r = guard(|| self.0.filter_figure_actions(&view, Self::state(st), &actions, &mut keep));
        if let Err(e) = r {
            report(&view, e);
        }
    }
    fn judge_figures(&self, view: View<'_>, st: StatePtr, mut allowed: RSliceMut<'_, bool>) {
        if let Err(e) = guard(|| self.0.judge_figures(&view, Self::state(st), &mut allowed)) {
            report(&view, e);
        }
    }
    fn judge_figure_actions(&self, view: View<'_>, st: StatePtr, mut keep: RSliceMut<'_, bool>) {
        if let Err(e) = guard(|| self.0.judge_figure_actions(&view, Self::state(st), &mut keep)) {
            report(&view, e);
        }
    }
    fn on_figure_moved(&self, view: View<'_>, st: StatePtr, figure: u32, from: &FigureView<'_>) {
        effects(&view, |fx| self.0.on_figure_moved(&view, Self::state(st), figure, from, fx))
    }
    fn on_scoring_step(&self, view: View<'_>, st: StatePtr) {
        effects(&view, |fx| self.0.on_scoring_step(&view, Self::state(st), fx))
    }
    fn decision_actions(&self, view: View<'_>, st: StatePtr, decision: DecisionView, out: &mut RVec<PluginAction>) {
        let from = out.len();
        if let Err(e) = guard(|| self.0.decision_actions(&view, Self::state(st), decision, out)) {
            out.truncate(from);
            report(&view, e);
        }
    }
    fn apply_action(&self, view: View<'_>, st: StatePtr, decision: DecisionView, action: PluginAction) {
        effects(&view, |fx| self.0.apply_action(&view, Self::state(st), decision, action, fx))
    }
    fn describe_action(&self, view: View<'_>, st: StatePtr, action: PluginAction) -> RString {
        let map = judge(&view, || self.0.describe_action(&view, Self::state(st), action));
        serde_json::Value::Object(map).to_string().into()
    }
    fn adjust_strengths(&self, view: View<'_>, st: StatePtr, root: u32, mut strengths: RSliceMut<'_, u32>) {
        let before: [u32; 8] = std::array::from_fn(|i| strengths.get(i).copied().unwrap_or(0));
        if let Err(e) = guard(|| self.0.adjust_strengths(&view, Self::state(st), root, &mut strengths)) {
            // A failed hook changes nothing.
            for (s, b) in strengths.iter_mut().zip(before) {
                *s = b;
            }
            report(&view, e);
        }
    }
    fn break_tie(&self, view: View<'_>, st: StatePtr, root: u32, strengths: RSlice<'_, u32>, winners: u8) -> u8 {
        match guard(|| self.0.break_tie(&view, Self::state(st), root, &strengths, winners)) {
            Ok(w) => w,
            Err(e) => {
                report(&view, e);
                winners
            }
        }
    }
    fn figure_looks(&self) -> RVec<FigureLookDecl> {
        self.1.iter().cloned().collect()
    }
    fn draw(&self, view: View<'_>, st: StatePtr, out: &mut RVec<DrawOp>) {
        let start = out.len();
        let r = guard(|| self.0.draw(&view, Self::state(st), &mut Drawing { out: &mut *out }));
        if let Err(e) = r {
            // A failed drawing draws nothing.
            out.truncate(start);
            report(&view, e);
        }
    }
}

/// Parses options (a JSON object) into a rule; an error names the offending key.
pub fn parse_options<R: DeserializeOwned>(options: &str) -> Outcome<R> {
    // serde_json appends " at line L column C" of the JSON text, meaningless to the author
    // of the TOML rule set.
    let clean = |e: serde_json::Error| {
        let m = e.to_string();
        match m.find(" at line ") {
            Some(i) => m[..i].to_string(),
            None => m,
        }
    };
    let err = match serde_json::from_str(options) {
        Ok(r) => return Ok(r),
        Err(e) => clean(e),
    };
    // Name the key: the first option that fails on its own (not as "unknown field").
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(options) {
        for (k, v) in map {
            let one = serde_json::Value::Object([(k.clone(), v)].into_iter().collect());
            if let Err(e) = serde_json::from_value::<R>(one) {
                let m = clean(e);
                if !m.contains("unknown field") {
                    return Err(format!("`{k}`: {m}"));
                }
            }
        }
    }
    Err(err)
}

/// Builds an [`Instance`] of `R` (what the exported `new` does).
pub fn instance<R: Rule>(options: &str, host: ApiVersion) -> Outcome<Instance> {
    let mut rule: R = parse_options(options).map_err(|e| format!("options: {e}"))?;
    let mut d = Declare { host: Some(host), ..Default::default() };
    rule.declare(&mut d)?;
    let resolved = serde_json::to_string(&rule).map_err(|e| format!("cannot serialize the options: {e}"))?;
    let list = |v: Vec<String>| v.into_iter().map(RString::from).collect::<RVec<RString>>();
    let hooks = rule.hooks();
    Ok(Instance {
        name: R::NAME.into(),
        hooks,
        options: resolved.into(),
        sources: list(d.sources),
        extra_sources: d.extra_sources.into(),
        stats: list(d.stats),
        figures: d.figures.into(),
        queries: list(d.queries),
        markers: list(d.markers),
        modifiers: list(d.modifiers),
        conditions: d.conditions.into(),
        tile_files: list(d.tile_files),
        land_tiles: d.land_tiles.into(),
        requires: list(d.requires),
        conflicts: list(d.conflicts),
        built_with: ApiVersion::current(),
        rule: HouseRule_TO::from_value(Adapter(rule, d.looks), TD_Opaque),
    })
}

extern "C" fn new_instance<R: Rule>(options: RStr<'_>, host: ApiVersion) -> RResult<Instance, RString> {
    install_panic_hook();
    guard_ffi(|| instance::<R>(options.as_str(), host))
}

/// The root module of a plugin file exporting rule `R` (used by [`crate::export_plugin!`]).
pub fn module<R: Rule>() -> PluginModRef {
    PluginMod { new: new_instance::<R> }.leak_into_prefix()
}
