//! The types that cross the library boundary: all `#[repr(C)]` + `StableAbi`, checked by
//! abi_stable when a plugin file is loaded.
//!
//! Evolution rules (interface version = this crate's version): a minor version may only
//! add methods at the end of [`HouseRule`] and [`GameView`] (after their
//! `#[sabi(last_prefix_field)]` method, with a default body) and fields at the end of
//! [`PluginMod`]; anything else is a major version. The engine refuses a plugin of another
//! major version with a message naming both versions.

// abi_stable's `#[sabi_trait]` expands to impls inside a const block.
#![allow(non_local_definitions)]

use abi_stable::library::RootModule;
use abi_stable::sabi_types::{RRef, VersionStrings};
use std::fmt::Debug;

use abi_stable::std_types::{RBox, ROption, RResult, RSlice, RSliceMut, RStr, RString, RVec};
use abi_stable::{declare_root_module_statics, package_version_strings, sabi_trait, StableAbi};

/// A version of the plugin interface.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl ApiVersion {
    /// The version this crate implements.
    pub fn current() -> ApiVersion {
        let n = |s: &str| s.parse().unwrap_or(0);
        ApiVersion {
            major: n(env!("CARGO_PKG_VERSION_MAJOR")),
            minor: n(env!("CARGO_PKG_VERSION_MINOR")),
            patch: n(env!("CARGO_PKG_VERSION_PATCH")),
        }
    }
}

impl std::fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The hooks a plugin subscribes to (bit set). The bit numbers are part of the interface
/// and equal the engine's `carcassonne_core::Hooks`.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks(pub u32);

impl Hooks {
    pub const NONE: Hooks = Hooks(0);
    pub const GAME_START: Hooks = Hooks(1 << 0);
    pub const TURN_START: Hooks = Hooks(1 << 1);
    pub const TILE_DRAWN: Hooks = Hooks(1 << 2);
    pub const ALLOW_TILE: Hooks = Hooks(1 << 3);
    pub const TILE_PLACED: Hooks = Hooks(1 << 4);
    pub const FIGURE_ACTIONS: Hooks = Hooks(1 << 5);
    pub const ALLOW_FIGURE: Hooks = Hooks(1 << 6);
    pub const FIGURE_PLACED: Hooks = Hooks(1 << 7);
    pub const FIGURE_ACTION_DONE: Hooks = Hooks(1 << 8);
    pub const FEATURE_COMPLETED: Hooks = Hooks(1 << 9);
    pub const FEATURE_SCORED: Hooks = Hooks(1 << 10);
    pub const FIGURE_REMOVED: Hooks = Hooks(1 << 11);
    pub const PROTECTED: Hooks = Hooks(1 << 12);
    pub const SCORING_DONE: Hooks = Hooks(1 << 13);
    pub const TURN_END: Hooks = Hooks(1 << 14);
    pub const FINAL_SCORING: Hooks = Hooks(1 << 15);
    pub const QUERY: Hooks = Hooks(1 << 16);
    pub const FIGURE_FILTER: Hooks = Hooks(1 << 17);
    pub const FIGURE_MOVED: Hooks = Hooks(1 << 18);
    pub const SCORING_STEP: Hooks = Hooks(1 << 19);
    /// A majority is weighed: `adjust_strengths`, then `break_tie` (since 4.1).
    pub const MAJORITY: Hooks = Hooks(1 << 20);
    /// Every hook of this interface version.
    pub const ALL: Hooks = Hooks((1 << 21) - 1);
    /// Hook names by bit, as the engine names them in errors.
    pub const NAMES: [&'static str; 21] = [
        "on_game_start",
        "on_turn_start",
        "on_tile_drawn",
        "allow_tile",
        "on_tile_placed",
        "figure_actions",
        "allow_figure",
        "on_figure_placed",
        "on_figure_action_done",
        "on_feature_completed",
        "on_feature_scored",
        "on_figure_removed",
        "is_protected",
        "on_scoring_done",
        "on_turn_end",
        "on_final_scoring",
        "answer",
        "filter_figure_actions",
        "on_figure_moved",
        "on_scoring_step",
        "majority",
    ];

    pub fn contains(self, h: Hooks) -> bool {
        self.0 & h.0 == h.0
    }
}

impl std::ops::BitOr for Hooks {
    type Output = Hooks;
    fn bitor(self, o: Hooks) -> Hooks {
        Hooks(self.0 | o.0)
    }
}

/// What a hook says besides points and stats. A plain byte, so that the engine can refuse
/// a value it does not know (an invalid effect) instead of trusting an enum tag.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict(pub u8);

impl Verdict {
    /// No opinion (every hook may say it).
    pub const PASS: Verdict = Verdict(0);
    /// `allow_tile` / `allow_figure`: forbid the placement; `on_tile_drawn`: take the tile
    /// away (it leaves the game, the player draws again).
    pub const VETO: Verdict = Verdict(1);
    /// `is_protected`: the figure is protected from other plugins' effects.
    pub const PROTECT: Verdict = Verdict(2);
    /// `answer`: yes.
    pub const YES: Verdict = Verdict(3);
    /// `answer`: no.
    pub const NO: Verdict = Verdict(4);

    pub fn name(self) -> &'static str {
        ["pass", "veto", "protect", "yes", "no"].get(self.0 as usize).copied().unwrap_or("unknown")
    }
}

/// Points to one player (negative: taken away), under a score source the plugin declared.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct Points {
    pub player: u8,
    /// Index into the plugin's declared sources.
    pub source: u32,
    pub points: i32,
    /// Shown in game records.
    pub reason: RString,
}

/// An addition to a statistic the plugin declared (reported by `simulate`).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatBump {
    /// Index into the plugin's declared stats.
    pub stat: u32,
    pub by: i64,
}

/// A plugin's own action, in its own encoding: offered in the figure decision
/// (`figure_actions`) or in a decision it pushed (`decision_actions`), answered through
/// `apply_action`, written in records as `describe_action` says.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PluginAction {
    pub code: u16,
    pub a: i32,
    pub b: i32,
}

/// What a plugin offers in the figure decision: one of its own actions, or a figure
/// placement of a kind it declared (an ordinary figure placement for the engine: the
/// other plugins' `allow_figure` and `on_figure_placed` see it, records write it as a
/// `figure` action).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferedAction {
    /// A figure placement (`figure`, `part`, `node`) rather than `action`.
    pub place: bool,
    pub action: PluginAction,
    /// The index of a figure kind the plugin declared.
    pub figure: u32,
    pub part: u32,
    /// The feature node (a node of `part`), or none: on the tile.
    pub node: ROption<u32>,
}

impl From<PluginAction> for OfferedAction {
    fn from(action: PluginAction) -> Self {
        OfferedAction { place: false, action, figure: 0, part: 0, node: ROption::RNone }
    }
}

/// A scoring of a feature (effects): `points` under a declared source, to the feature's
/// majority (`majority`; the feature is then marked scored unless `final_scoring`) or to the
/// seats of `winners`; the engine logs it and tells every plugin (`on_feature_scored`).
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct ScoreOp {
    pub node: u32,
    pub majority: bool,
    /// Bit set of seats (when not `majority`).
    pub winners: u8,
    pub points: i32,
    /// Index into the plugin's declared sources.
    pub source: u32,
    pub final_scoring: bool,
    /// Shown in records (not `majority`; there the engine writes "SOURCE completed/final").
    pub reason: RString,
}

/// A decision: the figure decision ([`DecisionView::FIGURE`]) or one a plugin pushed
/// ([`RawEffects::decisions`]), answered by `player`.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecisionView {
    pub player: u8,
    /// The plugin's code (not 0), or [`DecisionView::FIGURE`].
    pub code: u16,
    pub data: i32,
}

impl DecisionView {
    /// The code of the figure decision (a plugin's action offered in `figure_actions`).
    pub const FIGURE: u16 = 0;
}

/// A figure kind a plugin declares: its name, whether it is a follower (takes features,
/// counts in majorities with `strength`), and how many each seat has.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct FigureKindDecl {
    pub name: RString,
    pub follower: bool,
    pub strength: u8,
    pub per_player: u8,
}

/// How the figures of a kind the plugin declared are drawn on the board picture (since
/// 4.2): `svg`, an SVG fragment centred on (0, 0) about 24 px high (no fill, or
/// `currentColor`, takes the owner's colour); `stays_at_end`: drawn on the board after the
/// final scoring (else back in the supply).
#[repr(C)]
#[derive(StableAbi, Clone, Debug, Default, PartialEq, Eq)]
pub struct FigureLookDecl {
    /// The index of a figure kind the plugin declared.
    pub figure: u32,
    pub svg: RString,
    pub stays_at_end: bool,
}

/// One drawing a plugin puts on the board picture (since 4.2, [`HouseRule::draw`]); `what`
/// says where, and which fields count:
/// - [`DrawOp::ON_TILE`]: `svg` over the whole 100 × 100 box of placed part `at`;
/// - [`DrawOp::TILE_ICON`]: a small icon (centred on (0, 0), at most 20 px) on part `at`;
/// - [`DrawOp::FEATURE_ICON`]: a small icon (at most 16 px) on the feature of node `at`,
///   beside its figures;
/// - [`DrawOp::FIGURE_BADGE`]: a badge (at most 12 px) at the upper right of figure `at`;
/// - [`DrawOp::SUPPLY`]: `count` pieces named `piece` (no figure) in seat `at`'s supply;
/// - [`DrawOp::LEGEND`]: the legend's entry of `piece`: `svg` and `title` as its text.
///
/// `piece` names the thing drawn (listed in the legend); `title` is its hover text.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawOp {
    pub what: u8,
    pub at: u32,
    pub count: u32,
    pub piece: RString,
    pub svg: RString,
    pub title: RString,
}

impl DrawOp {
    pub const ON_TILE: u8 = 0;
    pub const TILE_ICON: u8 = 1;
    pub const FEATURE_ICON: u8 = 2;
    pub const FIGURE_BADGE: u8 = 3;
    pub const SUPPLY: u8 = 4;
    pub const LEGEND: u8 = 5;
}

/// Tiles a plugin puts into the land tiles: those of tile set `set` with marker `marker`
/// (`first_edition`: the 1st-edition printings where a tile has one).
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct LandTilesDecl {
    pub set: RString,
    pub marker: RString,
    pub first_edition: bool,
}

/// A change to the figures on the board, applied after the hook returns through the
/// engine's own calls (so every plugin's hooks fire, as for a built-in plugin).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigureOp {
    /// [`FigureOp::PLACE`], [`FigureOp::MOVE`] or [`FigureOp::REMOVE`].
    pub op: u8,
    /// PLACE: the index of a figure kind the plugin declared; MOVE, REMOVE: a figure id.
    pub figure: u32,
    /// PLACE: the seat whose supply gives the figure.
    pub owner: u8,
    /// PLACE, MOVE: the placed part it goes on.
    pub part: u32,
    /// PLACE, MOVE: the feature node it joins, if any (a node of `part`).
    pub node: ROption<u32>,
}

impl FigureOp {
    pub const PLACE: u8 = 0;
    pub const MOVE: u8 = 1;
    pub const REMOVE: u8 = 2;
}

impl RawEffects {
    /// Empties every list, keeping its capacity.
    pub fn clear(&mut self) {
        self.verdict = Verdict::PASS;
        self.points.clear();
        self.stats.clear();
        self.figures.clear();
        self.decisions.clear();
        self.scores.clear();
    }
    /// Whether nothing is said.
    pub fn is_empty(&self) -> bool {
        self.verdict == Verdict::PASS
            && self.points.is_empty()
            && self.stats.is_empty()
            && self.figures.is_empty()
            && self.decisions.is_empty()
            && self.scores.is_empty()
    }
}

/// What a hook that may change the game hands back through
/// [`GameView::report_effects`] (only when it has any effect: the common no-effect case
/// costs nothing). Applied in this order: scores, points, stats, figures, decisions.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, Default, PartialEq, Eq)]
pub struct RawEffects {
    /// Only `on_tile_drawn` may say [`Verdict::VETO`]; everything else must pass.
    pub verdict: Verdict,
    pub points: RVec<Points>,
    pub stats: RVec<StatBump>,
    pub figures: RVec<FigureOp>,
    /// Decisions to push (the engine asks `decision_actions` for their legal actions).
    pub decisions: RVec<DecisionView>,
    /// Feature scorings (applied first).
    pub scores: RVec<ScoreOp>,
}

/// A plugin's per-game state, owned by the engine: created by `init_state`, cloned with
/// the game (a bot's search clones games by the million), read and written only by its
/// plugin (through [`PluginStateObj::state_ptr`]).
#[sabi_trait]
pub trait PluginStateObj: Clone + Send + Sync + Debug {
    /// Where the state value is (its type is the plugin's own: only the plugin reads it).
    #[sabi(last_prefix_field)]
    fn state_ptr(&mut self) -> *mut ();
}

/// A plugin's state, boxed.
pub type StateBox = PluginStateObj_TO<'static, RBox<()>>;

/// The address of a plugin's state in one game ([`PluginStateObj::state_ptr`]), handed to
/// each of its hooks; only the plugin that made the state dereferences it.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatePtr(pub *mut ());

/// A candidate placement of the drawn tile (`allow_tiles`): the cell `(x, y)` of its first
/// part, `quarters` clockwise quarter turns, face. Laid out as the engine's own candidate
/// list (a tag byte first), so that the list crosses the boundary without a copy.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The engine's; [`Placement::TAG`] in every candidate.
    pub tag: u8,
    pub quarters: u8,
    pub face: u8,
    pub x: i32,
    pub y: i32,
}

impl Placement {
    /// The tag of a tile placement in the engine's list.
    pub const TAG: u8 = 0;
    /// A candidate at `(x, y)`, turned `quarters` (0..=3) clockwise, face `face`.
    pub const fn new(x: i32, y: i32, quarters: u8, face: u8) -> Self {
        Placement { tag: Self::TAG, quarters, face, x, y }
    }
    /// Clockwise degrees: 0, 90, 180 or 270.
    pub const fn rotation(&self) -> u16 {
        self.quarters as u16 * 90
    }
}

/// A tile: drawn, placed, or a candidate placement (`allow_tile`). `(x, y)` is the cell of
/// its first part, `rotation` clockwise degrees (NOTATION.md).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileView<'a> {
    /// Tile ID (`TILES.md`), e.g. `"D"`.
    pub tile: RStr<'a>,
    pub face: u8,
    pub x: i32,
    pub y: i32,
    pub rotation: u16,
}

/// A figure on the board.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigureView<'a> {
    pub id: u32,
    /// Seat, or 255 for a neutral figure.
    pub owner: u8,
    /// Figure kind, e.g. `"follower"`.
    pub figure: RStr<'a>,
    /// The index of that kind among the plugin's declared kinds ([`crate::FigureKind`]), or
    /// [`NOT_MINE`] for another plugin's kind.
    pub own_kind: u32,
    /// Whether that kind is a follower (takes features, counts in majorities).
    pub follower: bool,
    /// Placed part it stands on.
    pub part: u32,
    pub x: i32,
    pub y: i32,
    /// Feature node it stands in, if any.
    pub node: ROption<u32>,
    /// Kind of that feature (`"city"`, `"road"`, `"field"`, `"monastery"`, ...), or `""`.
    pub feature: RStr<'a>,
}

/// A candidate figure placement (`allow_figure`).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigurePlacementView<'a> {
    pub player: u8,
    /// Figure kind, e.g. `"follower"`.
    pub figure: RStr<'a>,
    /// The index of that kind among the plugin's declared kinds, or [`NOT_MINE`].
    pub own_kind: u32,
    pub part: u32,
    pub x: i32,
    pub y: i32,
    pub node: ROption<u32>,
    /// Kind of the feature it would join (`"field"` for a farmer), or `""`.
    pub feature: RStr<'a>,
}

impl FigurePlacementView<'_> {
    /// No placement (what [`GameView::figure_candidate`] gives beyond the candidates).
    pub const NONE: Self = FigurePlacementView {
        player: 0,
        figure: RStr::from_str(""),
        own_kind: NOT_MINE,
        part: 0,
        x: 0,
        y: 0,
        node: ROption::RNone,
        feature: RStr::from_str(""),
    };
}

/// A feature (the whole connected feature of a node).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureView<'a> {
    /// Root node (the same for every node of the feature).
    pub root: u32,
    /// `"city"`, `"road"`, `"field"`, `"monastery"`, `"garden"`, `"river"`.
    pub kind: RStr<'a>,
    pub pennants: u32,
    /// Open edges (0 for a closed road or city); for a field, its half-edges that face no
    /// tile (0 once it is enclosed). Whether a monastery or garden is complete is
    /// [`GameView::is_complete`], which counts its neighbours.
    pub open_edges: u32,
    pub scored: bool,
    /// The tiles it spans and the follower strength per seat are not here (they take a
    /// walk over the feature): see [`GameView::feature_tiles`] and [`GameView::majority`].
    pub followers: u32,
}

/// [`FigureView::own_kind`] of a kind the plugin did not declare.
pub const NOT_MINE: u32 = u32::MAX;

/// When a hook is worth calling (`Instance::conditions`): the engine calls a hook that has
/// conditions only when at least one of them holds, and checks them itself, without a call
/// across the boundary. A condition is the plugin's promise that the hook does nothing
/// otherwise; a hook without conditions is called every time.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct HookCondition {
    /// The hook's bit number (as in [`Hooks::NAMES`]).
    pub hook: u32,
    /// What must hold: one of the constants below.
    pub when: u8,
    /// The marker, feature kind or figure kind the condition names.
    pub name: RString,
}

impl HookCondition {
    /// The tile placed this turn carries marker `name` (false before the placement).
    pub const PLACED_TILE_MARKER: u8 = 0;
    /// The tile placed this turn has a feature of kind `name` (`"monastery"`, ...).
    pub const PLACED_TILE_FEATURE: u8 = 1;
    /// The tile in question (`on_tile_drawn`, `allow_tile`) carries marker `name`.
    pub const TILE_MARKER: u8 = 2;
    /// The hook's feature (`on_feature_completed`, `on_feature_scored`, a candidate of
    /// `allow_figures`) is of kind `name`.
    pub const FEATURE_KIND: u8 = 3;
    /// The hook's figure (`on_figure_placed`, `on_figure_removed`, `on_figure_moved`,
    /// `is_protected`, a candidate of `allow_figures`) is of kind `name`.
    pub const FIGURE_KIND: u8 = 4;
    /// The seat whose turn it is has a figure of kind `name` out of its supply.
    pub const DEPLOYED: u8 = 5;
    /// Names of the conditions, as errors and docs write them.
    pub const NAMES: [&'static str; 6] =
        ["placed_tile_marker", "placed_tile_feature", "tile_marker", "feature_kind", "figure_kind", "deployed"];
}

/// Consecutive ids `first..end` (placed parts, feature nodes): iterate with `.iter()`.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdRange {
    pub first: u32,
    pub end: u32,
}

impl IdRange {
    pub fn iter(self) -> std::ops::Range<u32> {
        self.first..self.end
    }
    pub fn len(self) -> usize {
        self.end.saturating_sub(self.first) as usize
    }
    pub fn is_empty(self) -> bool {
        self.end <= self.first
    }
    /// The `i`-th id, if in range.
    pub fn get(self, i: usize) -> Option<u32> {
        (i < self.len()).then(|| self.first + i as u32)
    }
}

/// One scoring (`on_feature_scored`).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreView<'a> {
    pub root: ROption<u32>,
    /// Kind of the scored feature, or `""`.
    pub feature: RStr<'a>,
    /// Bit set of the seats who scored.
    pub winners: u8,
    /// Points to each winner.
    pub points: i32,
    /// Score source, e.g. `"monastery"`.
    pub source: RStr<'a>,
    pub final_scoring: bool,
    /// For a field scored by its completed cities (farmers, barns): points per city.
    pub per_city: ROption<i32>,
}

/// An action of the figure decision: one offered (`filter_figure_actions`) or the answer
/// (`on_figure_action_done`).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionView<'a> {
    /// `"figure"` (a figure placement), `"pass"`, or `"plugin"` (another plugin's action).
    pub kind: RStr<'a>,
    /// Figure kind placed, or `""`.
    pub figure: RStr<'a>,
    /// Part it goes on (for `"figure"`).
    pub part: u32,
    /// Kind of the feature it joins (for `"figure"`: `"field"` for a farmer), or `""`.
    pub feature: RStr<'a>,
    /// The plugin whose action it is (for `"plugin"`), or `""`.
    pub plugin: RStr<'a>,
    /// The plugin's own encoding (for `"plugin"`).
    pub action: PluginAction,
    /// Whether it is this plugin's: its own action, or a placement of a kind it declared.
    pub mine: bool,
}

impl ActionView<'_> {
    /// The `pass` action.
    pub const fn pass() -> Self {
        ActionView {
            kind: RStr::from_str("pass"),
            figure: RStr::from_str(""),
            part: 0,
            feature: RStr::from_str(""),
            plugin: RStr::from_str(""),
            action: PluginAction { code: 0, a: 0, b: 0 },
            mine: false,
        }
    }
}

/// A figure that left the board (`on_figure_removed`).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemovedView<'a> {
    pub figure: FigureView<'a>,
    /// `"scored"`, or the name of the plugin that removed it.
    pub reason: RStr<'a>,
}

/// A question between plugins (`answer`), e.g. `"eatable"`.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryView<'a> {
    pub name: RStr<'a>,
    pub figure: ROption<u32>,
    pub part: ROption<u32>,
    pub node: ROption<u32>,
    /// The asking plugin.
    pub by: RStr<'a>,
}

/// What a hook may read of the game, implemented by the engine. Every call reads the live
/// game: nothing is copied up front.
#[sabi_trait]
pub trait GameView {
    /// Seats in the game.
    fn players(&self) -> u8;
    /// Seat whose turn it is.
    fn current(&self) -> u8;
    /// Turn number, from 1 (0 before the first turn).
    fn turn(&self) -> u32;
    /// Tiles left in the draw pile.
    fn tiles_left(&self) -> u32;
    /// A seat's score (0 for a seat not in the game).
    fn score(&self, player: u8) -> i32;
    /// A seat's points from one score source (`"road"`, `"monastery"`, ...).
    fn points_from(&self, player: u8, source: RStr<'_>) -> i32;
    /// Figures of a kind in a seat's supply.
    fn supply(&self, player: u8, figure: RStr<'_>) -> u32;
    /// The tile drawn this turn, until it is placed.
    fn drawn_tile(&self) -> ROption<RStr<'_>>;
    /// The tile placed this turn.
    fn placed_tile(&self) -> ROption<TileView<'_>>;
    /// The tile at a cell.
    fn tile_at(&self, x: i32, y: i32) -> ROption<TileView<'_>>;
    /// The feature of a node (None for a node not on the board).
    fn feature(&self, node: u32) -> ROption<FeatureView<'_>>;
    /// A figure on the board (None for a free slot).
    fn figure(&self, id: u32) -> ROption<FigureView<'_>>;
    /// Figures standing in the feature of a node.
    fn figures_in(&self, node: u32) -> RVec<u32>;
    /// Every figure on the board (ids).
    fn figures(&self) -> RVec<u32>;
    /// The placed parts of the tile placed this turn (one, or two for a double tile).
    fn placed_parts(&self) -> IdRange;
    /// The feature nodes of a placed part (its features in the tile's order).
    fn part_features(&self, part: u32) -> IdRange;
    /// Whether the feature of a node is complete (a road or city: closed; a monastery or
    /// garden: surrounded; a field: never).
    fn is_complete(&self, node: u32) -> bool;
    /// Placed tiles among the 8 cells around `(x, y)` (a monastery's count).
    fn tiles_around(&self, x: i32, y: i32) -> u32;
    /// Distinct tiles the feature of a node spans (0 for a node not on the board).
    fn feature_tiles(&self, node: u32) -> u32;
    /// Seats with the most follower strength in the feature of a node (bit set; 0 if none).
    fn majority(&self, node: u32) -> u8;
    /// The name of a feature node on its own tile, as records write it, e.g.
    /// `"(1,0) road:E+W"` (a node of the tile at (1,0), whatever the whole road spans).
    fn feature_name(&self, node: u32) -> RString;
    /// Whether the tile of a placed part has a marker (`"princess"`, `"garden"`, ...).
    fn part_has_marker(&self, part: u32, marker: RStr<'_>) -> bool;
    /// Whether a feature node has a modifier (e.g. `"princess"` on a city).
    fn node_has_modifier(&self, node: u32, modifier: RStr<'_>) -> bool;
    /// Whether a figure kind is a follower (`"follower"`, `"large"`, ...).
    fn is_follower(&self, figure: RStr<'_>) -> bool;
    /// The other plugins' answer to a question (`"eatable"`, `"princess_removable"`, a
    /// declared name, ...): `None` when nobody has an opinion, `Some(false)` when any says
    /// no (a restriction outweighs any yes), else `Some(true)`. This plugin is not asked.
    fn ask(&self, query: &QueryView<'_>) -> ROption<bool>;
    /// Whether a plugin protects a figure from other plugins' effects (`is_protected`).
    fn is_protected(&self, figure: u32) -> bool;
    /// Whether every plugin allows a figure placement (their `allow_figure` vetoes).
    fn allow_figure(&self, placement: &FigurePlacementView<'_>) -> bool;
    /// Whether the tile of a placed part has marker `marker` (an index of the plugin's
    /// declared markers: [`crate::Declare::marker`]; no name lookup).
    fn part_has(&self, part: u32, marker: u32) -> bool;
    /// Whether a feature node has modifier `modifier` (an index of the plugin's declared
    /// modifiers: [`crate::Declare::modifier`]).
    fn node_has(&self, node: u32, modifier: u32) -> bool;
    /// [`GameView::ask`] by the index of a question the plugin declared
    /// ([`crate::Declare::query`]).
    fn ask_about(&self, question: u32, figure: ROption<u32>, part: ROption<u32>, node: ROption<u32>) -> ROption<bool>;
    /// Figures of a kind the plugin declared ([`crate::FigureKind`]) in a seat's supply.
    fn own_supply(&self, player: u8, kind: u32) -> u32;
    /// How a hook hands its effects back (only hooks that may change the game): the engine
    /// takes them and leaves `effects` empty, with buffers whose capacity the plugin reuses
    /// (no allocation per call once warm). [`crate::Rule`]'s adapter calls it: plugin code
    /// does not.
    fn report_effects(&self, effects: &mut RawEffects);
    /// How a hook reports that it failed (it returned an error or panicked): the engine
    /// stops the game with this message, naming the plugin and the hook.
    #[sabi(last_prefix_field)]
    fn report_error(&self, message: RString);
    /// Since 4.3, in [`HouseRule::judge_tiles`]: the candidate placements of the drawn tile
    /// (every placement that fits, before any plugin's veto), listed on the first call;
    /// empty in other hooks.
    fn tile_candidates(&self) -> RSlice<'_, Placement> {
        RSlice::from_slice(&[])
    }
    /// Since 4.4, in [`HouseRule::judge_figure_actions`]: action `i` of the figure decision
    /// (every plugin's actions and `pass`; `i` below `keep.len()`), made when asked for; a
    /// `"pass"` view for an index beyond them.
    fn figure_action(&self, i: u32) -> ActionView<'_> {
        let _ = i;
        ActionView::pass()
    }
    /// Since 4.4, in [`HouseRule::judge_figures`]: candidate figure placement `i` of the
    /// decision (`i` below `allowed.len()`), made when asked for; an empty view (no figure
    /// kind, part 0) for an index beyond them.
    fn figure_candidate(&self, i: u32) -> FigurePlacementView<'_> {
        let _ = i;
        FigurePlacementView::NONE
    }
}

/// The game as a hook sees it.
pub type View<'a> = GameView_TO<'a, RRef<'a, ()>>;

/// A house rule as the engine calls it. Plugin authors do not implement this directly: they
/// implement [`crate::Rule`] and export it with [`crate::export_plugin!`], which catches
/// panics at the boundary and turns them into errors (a panic crossing it would abort).
///
/// Hooks that may change the game return nothing: their effects and errors go back through
/// the view ([`GameView::report_effects`], [`GameView::report_error`]), so that the common
/// call (no effect) returns nothing at all. Hooks that only judge return a [`Verdict`].
#[sabi_trait]
pub trait HouseRule: Send + Sync {
    /// A new game's state for this plugin.
    fn init_state(&self, players: u8) -> RResult<StateBox, RString>;
    fn on_game_start(&self, view: View<'_>, state: StatePtr);
    fn on_turn_start(&self, view: View<'_>, state: StatePtr);
    fn on_tile_drawn(&self, view: View<'_>, state: StatePtr, tile: RStr<'_>);
    /// Judges every candidate placement of the drawn tile `tile` at once (one call per
    /// decision, not per placement): sets `allowed[i] = false` for each one it forbids.
    fn allow_tiles(
        &self,
        view: View<'_>,
        state: StatePtr,
        tile: RStr<'_>,
        candidates: RSlice<'_, Placement>,
        allowed: RSliceMut<'_, bool>,
    );
    fn on_tile_placed(&self, view: View<'_>, state: StatePtr);
    /// The plugin's actions and figure placements in the figure decision, pushed onto
    /// `out` (the engine's buffer, reused: no allocation per call).
    fn figure_actions(&self, view: View<'_>, state: StatePtr, out: &mut RVec<OfferedAction>);
    /// Judges every candidate figure placement of a decision at once (one call per
    /// decision, not per placement): sets `allowed[i] = false` for each one it forbids.
    fn allow_figures(
        &self,
        view: View<'_>,
        state: StatePtr,
        candidates: RSlice<'_, FigurePlacementView<'_>>,
        allowed: RSliceMut<'_, bool>,
    );
    fn on_figure_placed(&self, view: View<'_>, state: StatePtr, figure: u32);
    fn on_figure_action_done(&self, view: View<'_>, state: StatePtr, action: &ActionView<'_>);
    fn on_feature_completed(&self, view: View<'_>, state: StatePtr, root: u32);
    fn on_feature_scored(&self, view: View<'_>, state: StatePtr, event: &ScoreView<'_>);
    fn on_figure_removed(&self, view: View<'_>, state: StatePtr, removed: &RemovedView<'_>);
    fn is_protected(&self, view: View<'_>, state: StatePtr, figure: u32) -> Verdict;
    fn on_scoring_done(&self, view: View<'_>, state: StatePtr);
    fn on_turn_end(&self, view: View<'_>, state: StatePtr);
    fn on_final_scoring(&self, view: View<'_>, state: StatePtr);
    fn answer(&self, view: View<'_>, state: StatePtr, query: &QueryView<'_>) -> Verdict;
    /// Narrows the figure decision (every plugin's actions and `pass`): sets `keep[i] =
    /// false` for each action it removes (e.g. `pass`, to make an action compulsory).
    fn filter_figure_actions(
        &self,
        view: View<'_>,
        state: StatePtr,
        actions: RSlice<'_, ActionView<'_>>,
        keep: RSliceMut<'_, bool>,
    );
    /// A figure on the board moved (`from`: where it stood).
    fn on_figure_moved(&self, view: View<'_>, state: StatePtr, figure: u32, from: &FigureView<'_>);
    /// The turn's scoring step begins (before the completed features are scored).
    fn on_scoring_step(&self, view: View<'_>, state: StatePtr);
    /// The legal actions of a decision the plugin pushed (at least one), pushed onto `out`
    /// (the engine's buffer).
    fn decision_actions(&self, view: View<'_>, state: StatePtr, decision: DecisionView, out: &mut RVec<PluginAction>);
    /// Applies one of the plugin's actions (from its decision or the figure decision).
    fn apply_action(&self, view: View<'_>, state: StatePtr, decision: DecisionView, action: PluginAction);
    /// The record form of one of its actions: a JSON object whose keys are added to
    /// `{"type": "plugin", "plugin": NAME}` (e.g. `{"action": "recall", "cell": [1, 0]}`).
    #[sabi(last_prefix_field)]
    fn describe_action(&self, view: View<'_>, state: StatePtr, action: PluginAction) -> RString;
    /// `majority` (since 4.1): the follower strength per seat in the feature of `root`
    /// (`strengths[seat]`, one entry per seat) is weighed; adjust it in place (e.g. a
    /// figure counting its city's pennants). A seat left at 0 never wins.
    fn adjust_strengths(&self, view: View<'_>, state: StatePtr, root: u32, strengths: RSliceMut<'_, u32>);
    /// `majority` (since 4.1): two or more seats share the top strength (`winners`, a bit
    /// set); return the seats that win (a non-empty subset of `winners`; anything else
    /// keeps the tie).
    fn break_tie(&self, view: View<'_>, state: StatePtr, root: u32, strengths: RSlice<'_, u32>, winners: u8) -> u8;
    /// Since 4.2: how the plugin's figure kinds are drawn (asked once, when the rule set is
    /// loaded; kinds it leaves out get the generic look).
    fn figure_looks(&self) -> RVec<FigureLookDecl>;
    /// Since 4.2: the plugin's pieces and markings on the board picture of the game as it
    /// stands, pushed onto `out` (asked by renderers only, not in the game loop).
    fn draw(&self, view: View<'_>, state: StatePtr, out: &mut RVec<DrawOp>);
    /// Since 4.3, in place of `allow_tiles`: judges the placements of the drawn tile `tile`
    /// (one call per decision), the candidates listed only when asked for
    /// ([`GameView::tile_candidates`]); pushes the index of each one it forbids onto
    /// `forbidden` (the engine's buffer, empty). A plugin that forbids nothing now need not
    /// ask for the list: the engine then never makes it.
    fn judge_tiles(&self, view: View<'_>, state: StatePtr, tile: RStr<'_>, forbidden: &mut RVec<u32>);
    /// Since 4.4, in place of `filter_figure_actions`: narrows the figure decision, its
    /// actions made only when asked for ([`GameView::figure_action`]); sets `keep[i] = false`
    /// for each one it removes. A plugin that removes nothing now need not look at them.
    fn judge_figure_actions(&self, view: View<'_>, state: StatePtr, keep: RSliceMut<'_, bool>);
    /// Since 4.4, in place of `allow_figures`: judges the candidate figure placements of a
    /// decision, each made only when asked for ([`GameView::figure_candidate`]); sets
    /// `allowed[i] = false` for each one it forbids (`allowed[i]` is already false for one
    /// another plugin forbade). A plugin that forbids nothing now need not look at them.
    fn judge_figures(&self, view: View<'_>, state: StatePtr, allowed: RSliceMut<'_, bool>);
}

/// A plugin instance, owned by the engine.
pub type HouseRuleBox = HouseRule_TO<'static, RBox<()>>;

/// A plugin built from its options: what it declares, and the rule itself.
#[repr(C)]
#[derive(StableAbi)]
pub struct Instance {
    /// The name a rule set knows it by.
    pub name: RString,
    /// Hooks it subscribes to.
    pub hooks: Hooks,
    /// Its options after defaults (a JSON object), for records and summaries.
    pub options: RString,
    /// Score sources it awards points under (indices of [`Points::source`]).
    pub sources: RVec<RString>,
    /// Which of its sources are extra: scorings that are not a feature's own (a fairy
    /// ignores them), as indices of `sources`.
    pub extra_sources: RVec<u32>,
    /// Statistics it reports (indices of [`StatBump::stat`]).
    pub stats: RVec<RString>,
    /// Figure kinds it brings (indices of [`FigureOp::figure`] for PLACE).
    pub figures: RVec<FigureKindDecl>,
    /// Question names it asks or answers (besides the known ones); indices are the
    /// questions of [`GameView::ask_about`].
    pub queries: RVec<RString>,
    /// Marker names it tests ([`GameView::part_has`] indices).
    pub markers: RVec<RString>,
    /// Modifier names it tests ([`GameView::node_has`] indices).
    pub modifiers: RVec<RString>,
    /// When its hooks are worth calling (none: every time).
    pub conditions: RVec<HookCondition>,
    /// Tile files it brings (paths as its options give them, relative to the rule set's
    /// file), loaded into the rule set's catalog under the set name each file declares.
    pub tile_files: RVec<RString>,
    /// Tiles it puts into the land tiles.
    pub land_tiles: RVec<LandTilesDecl>,
    /// Plugins that must be in the same rule set.
    pub requires: RVec<RString>,
    /// Plugins that may not be in the same rule set.
    pub conflicts: RVec<RString>,
    /// The interface version the plugin was built against.
    pub built_with: ApiVersion,
    pub rule: HouseRuleBox,
}

/// The root module every plugin file exports.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModRef)))]
#[sabi(missing_field(panic))]
pub struct PluginMod {
    /// Builds a plugin from its options (a JSON object); `host` is the engine's interface
    /// version.
    #[sabi(last_prefix_field)]
    pub new: extern "C" fn(options: RStr<'_>, host: ApiVersion) -> RResult<Instance, RString>,
}

impl RootModule for PluginModRef {
    declare_root_module_statics! {PluginModRef}
    const BASE_NAME: &'static str = "carcassonne_plugin";
    const NAME: &'static str = "carcassonne plugin interface";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}
