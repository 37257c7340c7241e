//! How the tower is drawn: each tower with its pieces and height on its tile, the
//! watchman's badge, tower pieces and prisoners in the supply.

use carcassonne_core::{Canvas, Rules, State};

use crate::{Tower, TowerState};

/// A tower `height` pieces high (a bare foundation at 0), in the tile's 100 × 100 box.
pub fn tower_svg(height: u8) -> String {
    let mut s = format!(r##"<g class="tower" data-height="{height}">"##);
    s.push_str(r##"<rect x="70" y="58" width="22" height="6" fill="#9e9e9e" stroke="#424242" stroke-width="1"/>"##);
    for i in 0..height.min(8) {
        let y = 52 - 6 * i as i32;
        s.push_str(&format!(
            r##"<rect x="72" y="{y}" width="18" height="6" fill="#d7ccc8" stroke="#4e342e" stroke-width="1"/>"##
        ));
    }
    if height > 0 {
        let top = 52 - 6 * (height.min(8) as i32 - 1);
        s.push_str(&format!(
            r##"<path d="M72,{t} v-4 h4 v2 h3 v-2 h4 v2 h3 v-2 h4 v4 z" fill="#d7ccc8" stroke="#4e342e" stroke-width="1"/><text x="81" y="{n}" font-size="10" font-weight="bold" fill="#3e2723" stroke="#fff" stroke-width="2.5" paint-order="stroke" text-anchor="middle">{height}</text>"##,
            t = top,
            n = top - 6
        ));
    }
    s.push_str("</g>");
    s
}

/// The watchman's badge: a small turret.
const WATCHMAN: &str =
    r##"<path d="M-5,5 v-8 h2 v2 h2 v-2 h2 v2 h2 v-2 h2 v8 z" fill="#d7ccc8" stroke="#4e342e" stroke-width="1"/>"##;

pub fn draw(t: &Tower, _rules: &Rules, st: &State, me: usize, c: &mut dyn Canvas) {
    let s = st.plugin::<TowerState>(me);
    for tw in &s.towers {
        let title =
            if tw.height == 0 { "tower foundation".to_string() } else { format!("tower of height {}", tw.height) };
        c.on_tile(tw.part, "tower", &tower_svg(tw.height), &title);
        if let Some(w) = tw.watchman {
            c.figure_badge(w, WATCHMAN, &format!("watchman of the tower of height {}", tw.height));
        }
    }
    c.legend("tower", r##"<rect x="-7" y="2" width="14" height="6" fill="#d7ccc8" stroke="#4e342e"/><rect x="-7" y="-4" width="14" height="6" fill="#d7ccc8" stroke="#4e342e"/><path d="M-7,-4 v-4 h3 v2 h3 v-2 h2 v2 h3 v-2 h3 v4 z" fill="#d7ccc8" stroke="#4e342e"/>"##, "tower (number: its height)");
    let _ = t;
    for seat in 0..st.players {
        c.supply(seat, "tower pieces", s.pieces[seat] as u32);
        let held: Vec<_> = s.prisoners.iter().filter(|p| p.holder as usize == seat).collect();
        for owner in 0..st.players {
            let n = held.iter().filter(|p| p.owner as usize == owner).count() as u32;
            if n > 0 {
                c.supply(seat, &format!("prisoner{} of seat {owner}", if n == 1 { "" } else { "s" }), n);
            }
        }
    }
}
