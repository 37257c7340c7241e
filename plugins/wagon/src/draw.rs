//! How the wagon is drawn: a cart with two wheels.

use carcassonne_core::FigureLook;

/// The wagon's look.
pub fn look() -> FigureLook {
    FigureLook::new(
        r##"<path d="M-12,-6 H12 L9,4 H-9 Z"/><circle cx="-6" cy="7" r="4" fill="#5d4037"/><circle cx="6" cy="7" r="4" fill="#5d4037"/>"##,
    )
}
