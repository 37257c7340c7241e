//! How bridges are drawn: a plank across the tile in its owner's colour, and the bridges
//! left in each seat's supply.

use carcassonne_core::draw::seat_colour;
use carcassonne_core::{Canvas, Rules, State};

use crate::BridgeState;

pub fn draw(_rules: &Rules, st: &State, me: usize, c: &mut dyn Canvas) {
    let s = st.plugin::<BridgeState>(me);
    for b in &s.bridges {
        let (x1, y1, x2, y2) = if b.axis == 0 { (50, 4, 50, 96) } else { (4, 50, 96, 50) };
        let svg = format!(
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5d4037" stroke-width="12"/><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="6"/>"##,
            seat_colour(b.owner as usize)
        );
        c.on_tile(b.part, "bridge", &svg, &format!("seat {}'s bridge", b.owner));
    }
    for seat in 0..st.players {
        c.supply(seat, "bridges", u32::from(s.left[seat]));
    }
}
