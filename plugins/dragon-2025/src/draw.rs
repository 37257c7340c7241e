//! How the 2025 dragon is drawn: its figure with an arrow of its facing, lairs, dragon
//! symbols.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, FigureLook, Rules, Side, State};

use crate::{Dragon2025, DragonState};

/// The dragon's look.
const DRAGON: &str = r##"<path d="M-13,4 q4,-12 13,-12 q9,0 13,12 l-6,-3 l-3,5 l-4,-4 l-4,4 l-3,-5 z" stroke-width="1.3"/><circle cx="5" cy="-4" r="1.6" fill="#ffeb3b" stroke="none"/>"##;
/// A lair icon: a cave.
const LAIR: &str = r##"<path d="M-9,7 q0,-14 9,-14 q9,0 9,14 z" fill="#5d4037" stroke="#3e2723" stroke-width="1"/><path d="M-4,7 q0,-7 4,-7 q4,0 4,7 z" fill="#1b1b1b"/>"##;
/// The dragon symbol of a tile.
const SYMBOL: &str = r##"<circle r="7" fill="#ede7f6" stroke="#4a148c" stroke-width="1"/><path d="M-5,2 q2,-6 5,-6 q3,0 5,6 l-3,-1 l-2,2 l-2,-2 l-2,2 l-2,-2 z" fill="#4a148c"/>"##;

/// The dragon's look.
pub fn look() -> FigureLook {
    FigureLook::new(DRAGON).staying()
}

/// An arrow pointing to `side` (north up), as a badge.
pub fn facing_svg(side: Side) -> String {
    let deg = side as u32 * 90;
    format!(
        r##"<g class="facing" data-facing="{deg}" transform="rotate({deg})"><circle r="6.5" fill="#fff" stroke="#4a148c" stroke-width="1"/><path d="M0,-5 L4,1 H1.3 V5 H-1.3 V1 H-4 Z" fill="#4a148c" stroke="none"/></g>"##
    )
}

pub fn draw(d: &Dragon2025, _rules: &Rules, st: &State, me: usize, c: &mut dyn Canvas) {
    for p in parts_marked(st, d.ids.lair) {
        c.tile_icon(p, "lair", LAIR, "dragon's lair");
    }
    for p in parts_marked(st, d.ids.symbol) {
        c.tile_icon(p, "dragon symbol", SYMBOL, "dragon symbol: the dragon moves");
    }
    let s = st.plugin::<DragonState>(me);
    if let (Some(id), Some(side)) = (s.figure, s.facing) {
        c.figure_badge(id, &facing_svg(side), &format!("the dragon faces {side:?}"));
    }
    c.legend("dragon", DRAGON, "dragon (arrow: its facing)");
}
