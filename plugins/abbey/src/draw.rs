//! How an abbey is drawn: a golden cross on the abbey tile (its monastery is drawn as any).

use carcassonne_core::{Canvas, Rules, State};

use crate::Abbey;

/// The abbey icon.
const ABBEY: &str = r##"<circle r="8" fill="#fff8e1" stroke="#8d6e63" stroke-width="1"/><path d="M0,-6 V6 M-4,-2 H4" stroke="#f9a825" stroke-width="2.2"/>"##;

pub fn draw(a: &Abbey, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for (i, p) in st.board.parts.iter().enumerate() {
        if p.tile == a.ids.tile {
            c.tile_icon(i as u32, "abbey", ABBEY, "abbey");
        }
    }
}
