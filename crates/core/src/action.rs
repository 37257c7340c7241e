//! Decisions and the actions that answer them.

use crate::geometry::{Pos, Rotation};

/// An answer to a decision. Small and `Copy`: legal-action lists allocate nothing per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place the drawn tile: its first part at `pos`, turned by `rot`, face `face`.
    PlaceTile { pos: Pos, rot: Rotation, face: u8 },
    /// Place a figure of `kind` from supply on feature `feature` of placed part `part`
    /// (`feature == NO_FEATURE`: on the tile, not on a feature).
    PlaceFigure { kind: u8, part: u32, feature: u8 },
    /// Decline (no figure, no optional action).
    Pass,
    /// A plugin's own action: `plugin` is its index, the rest its own encoding.
    Plugin { plugin: u8, code: u16, a: i32, b: i32 },
}

/// `PlaceFigure::feature` for a figure placed on a tile rather than on a feature.
pub const NO_FEATURE: u8 = u8::MAX;

/// What kind of decision is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// Place the drawn tile.
    PlaceTile,
    /// Place a figure, do a plugin's figure action, or pass.
    Figure,
    /// A decision pushed by plugin `plugin`; `code` and `data` are the plugin's.
    Plugin { plugin: u8, code: u16, data: i32 },
}

/// A decision of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub player: u8,
    pub kind: DecisionKind,
}
