//! How a bazaar is drawn: a market stall on its tile.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, Rules, State};

use crate::Bazaar;

/// The bazaar icon.
pub const STALL: &str = r##"<path d="M-8,-2 L-6,-7 H6 L8,-2 Z" fill="#ff7043" stroke="#6d2c0e" stroke-width="0.8"/><rect x="-6" y="-2" width="12" height="8" fill="#ffe0b2" stroke="#6d2c0e" stroke-width="0.8"/>"##;

pub fn draw(b: &Bazaar, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for p in parts_marked(st, b.ids.marker) {
        c.tile_icon(p, "bazaar", STALL, "bazaar: an auction follows its turn");
    }
}
