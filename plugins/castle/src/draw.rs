//! How the castle is drawn: each castle over its two tiles in its owner's colour, its
//! knight's badge, castle tokens in the supply.

use carcassonne_core::draw::seat_colour;
use carcassonne_core::{Canvas, Rules, State};

use crate::{Castle, CastleState};

/// A castle, in the 100 × 100 box of one of its tiles, coloured `colour`.
pub fn castle_svg(colour: &str) -> String {
    format!(
        r##"<g class="castle"><path d="M38,62 v-16 h5 v4 h5 v-4 h4 v4 h5 v-4 h5 v16 z" fill="{colour}" stroke="#3e2723" stroke-width="1.5" opacity="0.85"/><rect x="46" y="54" width="8" height="8" fill="#3e2723"/></g>"##
    )
}

/// The knight's badge: a shield.
const KNIGHT: &str =
    r##"<path d="M-5,-5 h10 v4 q0,5 -5,7 q-5,-2 -5,-7 z" fill="#eceff1" stroke="#37474f" stroke-width="1"/>"##;

pub fn draw(_c: &Castle, _rules: &Rules, st: &State, me: usize, c: &mut dyn Canvas) {
    let s = st.plugin::<CastleState>(me);
    for k in &s.castles {
        let svg = castle_svg(seat_colour(k.owner as usize));
        let title = match k.scored {
            Some(p) => format!("seat {}'s castle (scored {p})", k.owner),
            None => format!("seat {}'s castle", k.owner),
        };
        for &part in &k.parts {
            c.on_tile(part, "castle", &svg, &title);
        }
        if let Some(kn) = k.knight {
            c.figure_badge(kn, KNIGHT, "knight of the castle");
        }
    }
    c.legend(
        "castle",
        r##"<path d="M-9,7 v-12 h4 v3 h3 v-3 h4 v3 h3 v-3 h4 v12 z" stroke="#3e2723"/>"##,
        "castle (owner's colour)",
    );
    for seat in 0..st.players {
        c.supply(seat, "castle tokens", s.tokens[seat] as u32);
    }
}
