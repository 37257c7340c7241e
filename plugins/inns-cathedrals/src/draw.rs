//! How Inns & Cathedrals is drawn: an inn by its road, a cathedral in its city.

use carcassonne_core::draw::features_modified;
use carcassonne_core::{Canvas, Rules, State};

use crate::InnsCathedrals;

/// An inn: a house by a lake.
const INN: &str = r##"<path d="M-7,6 V-1 L-2,-6 L3,-1 V6 Z" fill="#ffccbc" stroke="#5d4037" stroke-width="1"/><ellipse cx="5" cy="5" rx="4" ry="2.2" fill="#4fc3f7"/>"##;
/// A cathedral: a church with a spire.
const CATHEDRAL: &str = r##"<path d="M-7,7 V-1 H-2 V-5 L0,-9 L2,-5 V-1 H7 V7 Z" fill="#eeeeee" stroke="#455a64" stroke-width="1"/><path d="M0,0 v4" stroke="#455a64" stroke-width="1.5"/>"##;

pub fn draw(p: &InnsCathedrals, rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for (part, local, _) in features_modified(rules, st, p.ids.inn) {
        c.feature_icon(part, local, "inn", INN, "inn");
    }
    for (part, local, _) in features_modified(rules, st, p.ids.cathedral) {
        c.feature_icon(part, local, "cathedral", CATHEDRAL, "cathedral");
    }
}
