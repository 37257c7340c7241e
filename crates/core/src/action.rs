//! Decisions and the actions that answer them.

use crate::geometry::{Pos, Rotation};

/// An answer to a decision. Small and `Copy`: legal-action lists allocate nothing per move.
///
/// `repr(u8)` with its fields ordered by alignment: 12 bytes, and a fixed layout (tag byte,
/// then each variant's fields as a `repr(C)` struct), so that the run-time plugin boundary
/// hands a list of tile placements across without converting it (checked at compile time
/// in `carcassonne-dynamic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Action {
    /// Place the drawn tile: its first part at `pos`, turned by `rot`, face `face`.
    PlaceTile {
        /// Clockwise rotation.
        rot: Rotation,
        /// Face of a double-sided tile (0: the first).
        face: u8,
        /// Cell of the tile's first part.
        pos: Pos,
    },
    /// Place a figure of `kind` from supply on feature `feature` of placed part `part`
    /// (`feature == NO_FEATURE`: on the tile, not on a feature).
    PlaceFigure {
        /// Figure kind (index into [`crate::Rules::figure_kinds`]).
        kind: u8,
        /// Feature of the part (or [`NO_FEATURE`]).
        feature: u8,
        /// Placed part (index into the board's parts).
        part: u32,
    },
    /// Decline (no figure, no optional action).
    Pass,
    /// A plugin's own action: `plugin` is its index, the rest its own encoding.
    Plugin {
        /// Index of the plugin in [`crate::Rules::plugins`].
        plugin: u8,
        /// The plugin's action code.
        code: u16,
        /// The plugin's first operand.
        a: i32,
        /// The plugin's second operand.
        b: i32,
    },
    /// Place the drawn tile as [`Action::PlaceTile`] does, with placement variant `variant`
    /// (never 0) of the plugin that reserved it
    /// ([`crate::rules::Registry::placement_variants`]), e.g. with a bridge that turns a
    /// field side into a road (BRIDGE-3). Last, so that the other tags stay as they were;
    /// the plain placements keep their own variant, so that generating them is unchanged.
    PlaceTileVariant {
        /// Clockwise rotation.
        rot: Rotation,
        /// Face of a double-sided tile (0: the first).
        face: u8,
        /// The plugin's placement variant (never 0).
        variant: u8,
        /// Cell of the tile's first part.
        pos: Pos,
    },
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
    Plugin {
        /// Index of the plugin in [`crate::Rules::plugins`].
        plugin: u8,
        /// The plugin's decision code.
        code: u16,
        /// The plugin's data.
        data: i32,
    },
}

/// A decision of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The seat that answers it.
    pub player: u8,
    /// What is to be decided.
    pub kind: DecisionKind,
}
