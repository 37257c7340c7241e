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
    /// Every hook of this interface version.
    pub const ALL: Hooks = Hooks((1 << 18) - 1);
    /// Hook names by bit, as the engine names them in errors.
    pub const NAMES: [&'static str; 18] = [
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

/// What a hook that may change the game hands back through
/// [`GameView::report_effects`] (only when it has any effect: the common no-effect case
/// costs nothing).
#[repr(C)]
#[derive(StableAbi, Clone, Debug, Default, PartialEq, Eq)]
pub struct RawEffects {
    /// Only `on_tile_drawn` may say [`Verdict::VETO`]; everything else must pass.
    pub verdict: Verdict,
    pub points: RVec<Points>,
    pub stats: RVec<StatBump>,
}

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
    pub part: u32,
    pub x: i32,
    pub y: i32,
    pub node: ROption<u32>,
    /// Kind of the feature it would join (`"field"` for a farmer), or `""`.
    pub feature: RStr<'a>,
}

/// A feature (the whole connected feature of a node).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureView<'a> {
    /// Root node (the same for every node of the feature).
    pub root: u32,
    /// `"city"`, `"road"`, `"field"`, `"monastery"`, `"garden"`, `"river"`.
    pub kind: RStr<'a>,
    /// Distinct tiles it spans.
    pub tiles: u32,
    pub pennants: u32,
    /// Open edges (0 for a closed road or city).
    pub open_edges: u32,
    pub complete: bool,
    pub scored: bool,
    /// Follower strength per seat is not here: see `majority`.
    pub followers: u32,
    /// Seats with the most follower strength (bit set; 0 if none).
    pub majority: u8,
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
    /// How a hook hands its effects back (at most once per call; only hooks that may
    /// change the game). [`crate::Rule`]'s adapter calls it: plugin code does not.
    fn report_effects(&self, effects: RawEffects);
    /// How a hook reports that it failed (it returned an error or panicked): the engine
    /// stops the game with this message, naming the plugin and the hook.
    #[sabi(last_prefix_field)]
    fn report_error(&self, message: RString);
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
    fn on_game_start(&self, view: View<'_>);
    fn on_turn_start(&self, view: View<'_>);
    fn on_tile_drawn(&self, view: View<'_>, tile: RStr<'_>);
    /// Judges every candidate placement of the drawn tile `tile` at once (one call per
    /// decision, not per placement): sets `allowed[i] = false` for each one it forbids.
    fn allow_tiles(
        &self,
        view: View<'_>,
        tile: RStr<'_>,
        candidates: RSlice<'_, Placement>,
        allowed: RSliceMut<'_, bool>,
    );
    fn on_tile_placed(&self, view: View<'_>);
    fn figure_actions(&self, view: View<'_>) -> Verdict;
    fn allow_figure(&self, view: View<'_>, placement: &FigurePlacementView<'_>) -> Verdict;
    fn on_figure_placed(&self, view: View<'_>, figure: u32);
    fn on_figure_action_done(&self, view: View<'_>, action: &ActionView<'_>);
    fn on_feature_completed(&self, view: View<'_>, root: u32);
    fn on_feature_scored(&self, view: View<'_>, event: &ScoreView<'_>);
    fn on_figure_removed(&self, view: View<'_>, removed: &RemovedView<'_>);
    fn is_protected(&self, view: View<'_>, figure: u32) -> Verdict;
    fn on_scoring_done(&self, view: View<'_>);
    fn on_turn_end(&self, view: View<'_>);
    fn on_final_scoring(&self, view: View<'_>);
    fn answer(&self, view: View<'_>, query: &QueryView<'_>) -> Verdict;
    /// Narrows the figure decision (every plugin's actions and `pass`): sets `keep[i] =
    /// false` for each action it removes (e.g. `pass`, to make an action compulsory).
    #[sabi(last_prefix_field)]
    fn filter_figure_actions(&self, view: View<'_>, actions: RSlice<'_, ActionView<'_>>, keep: RSliceMut<'_, bool>);
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
    /// Statistics it reports (indices of [`StatBump::stat`]).
    pub stats: RVec<RString>,
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
