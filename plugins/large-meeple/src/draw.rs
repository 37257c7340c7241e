//! How the large meeple is drawn: a meeple half as large again.

use carcassonne_core::FigureLook;

/// The large meeple's look.
pub fn look() -> FigureLook {
    FigureLook::new(r##"<use xlink:href="#meeple" transform="scale(1.4)"/>"##)
}
