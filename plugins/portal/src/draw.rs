//! How the magic portal is drawn: a golden arch on its tile.

use carcassonne_core::draw::parts_marked;
use carcassonne_core::{Canvas, Rules, State};

use crate::Portal;

/// The portal icon.
pub const PORTAL: &str = r##"<path d="M-7,8 V-1 a7,7 0 0 1 14,0 V8" fill="none" stroke="#ffb300" stroke-width="3"/><path d="M-4,8 V0 a4,4 0 0 1 8,0 V8 z" fill="#7e57c2"/>"##;

pub fn draw(p: &Portal, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for part in parts_marked(st, p.ids.marker) {
        c.tile_icon(part, "portal", PORTAL, "magic portal");
    }
}
