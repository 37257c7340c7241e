//! The interface of run-time house-rule plugins: shared libraries named by a rule set's
//! `[[plugins]] path = "..."`, loaded by the engine and run among the built-in plugins in
//! priority order. See `docs/writing-plugins.md` for a step-by-step guide.
//!
//! A plugin crate (`crate-type = ["cdylib"]`) implements [`Rule`] on a struct whose fields
//! are its options and exports it:
//!
//! ```ignore
//! use carcassonne_plugin_api::{export_plugin, Effects, Hooks, Outcome, Rule, ScoreView, View};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Default, Serialize, Deserialize)]
//! #[serde(default, deny_unknown_fields)]
//! pub struct Tax { pub points: i32 }
//!
//! impl Rule for Tax {
//!     const NAME: &'static str = "tax";
//!     type State = ();
//!     fn hooks(&self) -> Hooks { Hooks::TURN_END }
//!     /* ... */
//! }
//!
//! export_plugin!(Tax);
//! ```
//!
//! The types crossing the boundary ([`ffi`]) are `StableAbi`: the engine checks their
//! layout and this crate's major version when it loads a file, and refuses a mismatch with
//! a message instead of undefined behaviour.

pub mod author;
pub mod ffi;

pub use abi_stable;
/// The buffers of `figure_actions` and `decision_actions` (the engine's, reused).
pub use abi_stable::std_types::RVec;
pub use author::Effects;
pub use author::{
    allow_each, filter_all, guard, guard_ffi, instance, judge_each, module, parse_options, Adapter, Declare, Drawing,
    FigureKind, Marker, Modifier, Outcome, Question, Rule, Source, Stat, StateCell, When,
};
/// The range check of numeric options: `#[serde(deserialize_with = "carcassonne_plugin_api::range::<0, 100, _, _>")]`.
pub use carcassonne_options::range;
pub use ffi::{
    ActionView, ApiVersion, DecisionView, DrawOp, FeatureView, FigureKindDecl, FigureLookDecl, FigureOp,
    FigurePlacementView, FigureView, GameView, GameView_TO, HookCondition, Hooks, HouseRule, HouseRuleBox,
    HouseRule_TO, IdRange, Instance, LandTilesDecl, OfferedAction, Placement, PluginAction, PluginMod, PluginModRef,
    PluginStateObj, PluginStateObj_TO, Points, QueryView, RawEffects, RemovedView, ScoreOp, ScoreView, StatBump,
    StateBox, StatePtr, TileView, Verdict, View, NOT_MINE,
};

/// Exports a [`Rule`] as the plugin of this library (once per `cdylib` crate).
#[macro_export]
macro_rules! export_plugin {
    ($rule:ty) => {
        #[$crate::abi_stable::export_root_module]
        pub fn carcassonne_plugin_root_module() -> $crate::PluginModRef {
            $crate::module::<$rule>()
        }
    };
}
