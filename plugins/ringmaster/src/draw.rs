//! How the ringmaster is drawn: a meeple with a red top hat.

use carcassonne_core::FigureLook;

/// The ringmaster's look.
pub fn look() -> FigureLook {
    FigureLook::new(
        r##"<use xlink:href="#meeple"/><rect x="-4" y="-20" width="8" height="7" fill="#c62828" stroke="#111" stroke-width="0.8"/><rect x="-6.5" y="-14" width="13" height="2" fill="#c62828"/>"##,
    )
}
