//! How the shepherd is drawn: a meeple with a crook, and its flock's size as a badge.

use carcassonne_core::{Canvas, FigureLook, Rules, State};

use crate::{Shepherd, ShepherdState};

/// The shepherd's look.
pub fn look() -> FigureLook {
    FigureLook::new(
        r##"<use xlink:href="#meeple" transform="scale(0.85)"/><path d="M11,11 V-9 q0,-4 -4,-4" fill="none" stroke="#5d4037" stroke-width="2"/>"##,
    )
}

pub fn draw(_s: &Shepherd, _rules: &Rules, st: &State, me: usize, c: &mut dyn Canvas) {
    let s = st.plugin::<ShepherdState>(me);
    for seat in 0..st.players {
        let Some(id) = s.shepherds[seat] else { continue };
        let sheep: u32 = s.flocks[seat].iter().map(|&t| t as u32).sum();
        c.figure_badge(
            id,
            &format!(
                r##"<circle r="6.5" fill="#fff" stroke="#616161" stroke-width="1"/><text y="3.5" font-size="9" font-weight="bold" fill="#212121" stroke="none" text-anchor="middle">{sheep}</text>"##
            ),
            &format!("flock of {sheep} sheep"),
        );
    }
}
