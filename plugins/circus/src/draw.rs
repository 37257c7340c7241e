//! How the big top is drawn: a striped tent, and a ring on every circus tile.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, FigureLook, Rules, State};

use crate::Circus;

/// The big top (neutral: it stays on the board at the end).
pub const BIG_TOP: &str = r##"<path d="M-12,8 L0,-12 L12,8 Z" fill="#e53935" stroke="#7f0000" stroke-width="1.2"/><path d="M-4,8 L0,-12 L4,8 Z" fill="#fff"/><path d="M0,-12 v-4 l5,2 l-5,2" fill="#ffeb3b" stroke="#7f0000" stroke-width="0.8"/>"##;

/// A circus space (a ring).
pub const RING: &str = r##"<circle r="6.5" fill="#fff3e0" stroke="#e53935" stroke-width="2"/>"##;

/// The big top's look.
pub fn look() -> FigureLook {
    FigureLook::new(BIG_TOP).staying()
}

pub fn draw(c: &Circus, _rules: &Rules, st: &State, _me: usize, canvas: &mut dyn Canvas) {
    for p in parts_marked(st, c.ids.marker) {
        canvas.tile_icon(p, "circus", RING, "circus space");
    }
}
