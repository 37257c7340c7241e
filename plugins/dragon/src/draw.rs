//! How the dragon (Princess & Dragon) is drawn: its figure, volcanoes and dragon symbols.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, FigureLook, Rules, State};

use crate::Dragon;

/// The dragon's look (shared in shape with the 2025 dragon).
pub const DRAGON: &str = r##"<path d="M-13,4 q4,-12 13,-12 q9,0 13,12 l-6,-3 l-3,5 l-4,-4 l-4,4 l-3,-5 z" stroke-width="1.3"/><circle cx="5" cy="-4" r="1.6" fill="#ffeb3b" stroke="none"/>"##;

/// A volcano icon.
pub const VOLCANO: &str = r##"<path d="M-9,7 L-3,-4 H3 L9,7 Z" fill="#6d4c41" stroke="#3e2723" stroke-width="1"/><path d="M-3,-4 q3,-6 6,0" fill="#ff5722" stroke="none"/>"##;

/// The dragon symbol of a tile (the dragon moves when it is placed).
pub const SYMBOL: &str = r##"<circle r="7" fill="#ede7f6" stroke="#4a148c" stroke-width="1"/><path d="M-5,2 q2,-6 5,-6 q3,0 5,6 l-3,-1 l-2,2 l-2,-2 l-2,2 l-2,-2 z" fill="#4a148c"/>"##;

/// The dragon's look.
pub fn look() -> FigureLook {
    FigureLook::new(DRAGON).staying()
}

pub fn draw(d: &Dragon, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for p in parts_marked(st, d.ids.volcano) {
        c.tile_icon(p, "volcano", VOLCANO, "volcano");
    }
    for p in parts_marked(st, d.ids.symbol) {
        c.tile_icon(p, "dragon symbol", SYMBOL, "dragon symbol: the dragon moves");
    }
}
