//! How a hill is drawn: a mound on its tile.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, Rules, State};

use crate::Hills;

/// A hill icon.
const HILL: &str = r##"<path d="M-9,6 Q0,-12 9,6 Z" fill="#558b2f" stroke="#33691e" stroke-width="1"/>"##;

pub fn draw(h: &Hills, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for part in parts_marked(st, h.ids.hill) {
        c.tile_icon(part, "hill", HILL, "hill");
    }
}
