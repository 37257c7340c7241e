//! How the princess is drawn: a crown on her city.

use carcassonne_core::draw::features_modified;
use carcassonne_core::{Canvas, Rules, State};

use crate::Princess;

/// The princess's crown.
const CROWN: &str = r##"<path d="M-7,5 L-8,-5 L-3.5,-1 L0,-7 L3.5,-1 L8,-5 L7,5 Z" fill="#ffd54f" stroke="#e65100" stroke-width="1"/>"##;

pub fn draw(p: &Princess, rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
    for (part, local, _) in features_modified(rules, st, p.ids.modifier) {
        c.feature_icon(part, local, "princess", CROWN, "princess");
    }
}
