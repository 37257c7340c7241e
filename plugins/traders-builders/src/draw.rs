//! How Traders & Builders is drawn: the builder, the pig, and goods icons on the cities.

use carcassonne_core::draw::features_modified;
use carcassonne_core::{Canvas, FigureLook, Rules, State};

use crate::{TradersBuilders, GOODS};

/// The builder's look: a tall, narrow meeple.
pub fn builder_look() -> FigureLook {
    FigureLook::new(r##"<use xlink:href="#meeple" transform="scale(0.75,1.2)"/>"##)
}

/// The pig's look.
pub fn pig_look() -> FigureLook {
    FigureLook::new(
        r##"<ellipse rx="11" ry="7"/><circle cx="11" cy="-1" r="3.5"/><path d="M-6,6 v4 M5,6 v4" stroke-width="2"/>"##,
    )
}

/// Icons of the goods: wine, grain, cloth.
const ICONS: [&str; 3] = [
    r##"<path d="M-2,-7 h4 v3 q3,2 3,6 v6 h-10 v-6 q0,-4 3,-6 z" fill="#7b1fa2" stroke="#311b92" stroke-width="0.8"/>"##,
    r##"<path d="M0,8 V-6 M0,-6 l-3,-3 M0,-6 l3,-3 M0,-1 l-3,-3 M0,-1 l3,-3 M0,4 l-3,-3 M0,4 l3,-3" stroke="#f9a825" stroke-width="2" fill="none"/>"##,
    r##"<path d="M-7,-6 h14 v12 h-14 z M-7,-2 h14 M-7,2 h14" fill="#1e88e5" stroke="#0d47a1" stroke-width="0.8"/>"##,
];

pub fn draw(t: &TradersBuilders, rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for (g, name) in GOODS.iter().enumerate() {
        for (part, local, _) in features_modified(rules, st, t.ids.goods[g]) {
            c.feature_icon(part, local, name, ICONS[g], name);
        }
    }
}
