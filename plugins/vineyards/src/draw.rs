//! How a vineyard is drawn: grapes on its tile.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, Rules, State};

use crate::Vineyards;

/// A vineyard icon.
const VINEYARD: &str = r##"<g fill="#6a1b9a" stroke="#311b92" stroke-width="0.6"><circle cx="-3" cy="-3" r="3"/><circle cx="3" cy="-3" r="3"/><circle cy="2" r="3"/><circle cx="-3" cy="6" r="2.5"/><circle cx="3" cy="6" r="2.5"/></g><path d="M0,-6 v-3" stroke="#33691e" stroke-width="1.5"/>"##;

pub fn draw(v: &Vineyards, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for part in parts_marked(st, v.ids.vineyard) {
        c.tile_icon(part, "vineyard", VINEYARD, "vineyard");
    }
}
