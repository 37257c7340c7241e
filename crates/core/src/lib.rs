//! Core of the Carcassonne engine: geometry, tiles, the feature graph, the turn loop,
//! decisions, scoring mechanics and the hook API that rule plugins implement.
//!
//! Rules live in plugins (`plugins/`): the core holds no Carcassonne rule a plugin
//! could own. Conventions follow `NOTATION.md`; tile data follows `TILES.md`.

pub mod action;
pub mod board;
pub mod candidates;
pub mod catalog;
pub mod config;
pub mod determinize;
pub mod draw;
pub mod engine;
pub mod error;
pub mod figure_batch;
pub mod files;
pub mod geometry;
pub mod graph;
/// Typed ranges of numeric plugin options (`docs/options.md`).
pub mod options {
    pub use carcassonne_options::*;
}
pub mod placement;
pub mod plugin;
pub mod rng;
pub mod rules;
pub mod setup;
pub mod state;
pub mod tile;

pub use action::{Action, Decision, DecisionKind, NO_FEATURE};
pub use board::{MAX_COORD, MAX_TILES};
pub use candidates::{TileCandidates, TileVetoes};
pub use catalog::Catalog;
pub use config::{build_from_options, load_rules, load_rules_with, FileLoader, FilePlugin, PluginFactory};
pub use determinize::DrawClasses;
pub use draw::{Canvas, FigureLook};
pub use engine::{Game, GameOptions, IllegalAction};
pub use error::InputError;
pub use figure_batch::FigureBatch;
pub use geometry::{Pos, Rotation, Side};
pub use graph::NodeId;
pub use plugin::{DrawVerdict, FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey, TilePlacement};
pub use rng::Rng;
pub use rules::{Registry, Rules};
pub use setup::{Setup, TileGroup};
pub use state::{Figure, FigureId, LogEntry, OnePerPlace, Phase, RemoveReason, ScoreEvent, State, TurnTile, NEUTRAL};
pub use tile::{FeatureKind, TileTypeId};
pub mod record;
pub mod replay;
