//! How the fairy is drawn: a small winged figure (neutral, drawn above the follower it
//! stands by).

use carcassonne_core::FigureLook;

/// The fairy's look.
pub fn look() -> FigureLook {
    FigureLook::new(
        r##"<ellipse cx="-6" cy="-3" rx="6" ry="4" fill="#f8bbd0" stroke="#ad1457" stroke-width="0.8"/><ellipse cx="6" cy="-3" rx="6" ry="4" fill="#f8bbd0" stroke="#ad1457" stroke-width="0.8"/><path d="M0,-9 L4,8 H-4 Z" stroke-width="1"/><circle cy="-10" r="3" fill="#ffe0b2" stroke-width="0.8"/>"##,
    )
    .staying()
}
