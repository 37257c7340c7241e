//! How the barn is drawn: a barn in its owner's colour; it stays on the board after the
//! final scoring (BARN-1: a barn never leaves the board).

use carcassonne_core::FigureLook;

/// The barn's look.
pub fn look() -> FigureLook {
    FigureLook::new(
        r##"<path d="M-11,9 V-3 L0,-11 L11,-3 V9 Z"/><path d="M-4,9 V1 H4 V9" fill="#fff" fill-opacity="0.6"/>"##,
    )
    .staying()
}
