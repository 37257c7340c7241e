//! How the mayor is drawn: a meeple with a top hat.

use carcassonne_core::FigureLook;

/// The mayor's look.
pub fn look() -> FigureLook {
    FigureLook::new(
        r##"<use xlink:href="#meeple"/><rect x="-4" y="-19" width="8" height="6"/><rect x="-6.5" y="-13.5" width="13" height="2"/>"##,
    )
}
