//! How the abbot is drawn: a meeple in a pointed hood.

use carcassonne_core::FigureLook;

/// The abbot's look.
pub fn look() -> FigureLook {
    FigureLook::new(r##"<use xlink:href="#meeple"/><path d="M-5,-10 L0,-18 L5,-10 Z"/>"##)
}
