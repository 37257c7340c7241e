//! Determinization for search: the game as a player sees it, with the unseen draw order
//! replaced by a sample of the orders consistent with what is known.
//!
//! What a player knows of the stack is its content (every tile not yet seen) and its
//! structure: the tile groups of the setup are drawn one after the other (the River before
//! the land tiles) and a group's `last` tiles come at fixed places (the lake). A
//! determinization keeps that structure and shuffles every group's unseen tiles among the
//! places its tiles hold now; it also reseeds the game's random generator, so that later
//! random draws (a shepherd's token, a dragon's reshuffle) are sampled too.

use crate::engine::Game;
use crate::rng::Rng;

/// Class of a tile type that keeps its place in the stack (a group's `last` tile).
pub const FIXED_CLASS: u8 = u8::MAX;
/// Class of the tile types in no setup group (e.g. a forced draw order's extra tiles).
pub const OTHER_CLASS: u8 = u8::MAX - 1;

/// Per tile type (index by `TileTypeId`), the class whose tiles trade places when a game is
/// determinized: the index of its setup group, [`FIXED_CLASS`] or [`OTHER_CLASS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawClasses {
    class_of: Vec<u8>,
    classes: Vec<u8>,
}

impl DrawClasses {
    /// The class of tile type `t`.
    pub fn class(&self, t: crate::tile::TileTypeId) -> u8 {
        self.class_of.get(t as usize).copied().unwrap_or(OTHER_CLASS)
    }
}

impl Game {
    /// The draw classes of this game's setup (compute once, determinize many times).
    pub fn draw_classes(&self) -> DrawClasses {
        let mut class_of = vec![OTHER_CLASS; self.rules.catalog.tiles.len()];
        let mut classes = vec![OTHER_CLASS];
        if let Ok(setup) = self.rules.setup(self.st.players) {
            for (g, group) in setup.groups.iter().enumerate() {
                let c = g.min(OTHER_CLASS as usize - 1) as u8;
                if !classes.contains(&c) {
                    classes.push(c);
                }
                for &t in &group.tiles {
                    if class_of[t as usize] == OTHER_CLASS {
                        class_of[t as usize] = c;
                    }
                }
                for &t in &group.last {
                    class_of[t as usize] = FIXED_CLASS;
                }
            }
        }
        DrawClasses { class_of, classes }
    }

    /// Replaces the hidden draw order by a sample drawn with `rng`: within each draw class,
    /// the stack's tiles are shuffled among the places that class holds (the content and
    /// the group structure of the stack stay as they are); the game's own random generator
    /// is reseeded from `rng`. Nothing of the old order is kept, so a search that plays on
    /// a determinized copy cannot read the real order.
    pub fn determinize(&mut self, classes: &DrawClasses, rng: &mut Rng) {
        let stack = &mut self.st.stack;
        let mut places: Vec<usize> = Vec::with_capacity(stack.len());
        let mut tiles = Vec::with_capacity(stack.len());
        for &c in &classes.classes {
            places.clear();
            tiles.clear();
            for (i, &t) in stack.iter().enumerate() {
                if classes.class(t) == c {
                    places.push(i);
                    tiles.push(t);
                }
            }
            rng.shuffle(&mut tiles);
            for (&i, &t) in places.iter().zip(&tiles) {
                stack[i] = t;
            }
        }
        self.st.rng = Rng::new(rng.next_u64());
        // A veto may read the stack: the drawn tile is judged again.
        self.st.tile_judged = crate::state::TileJudged::No;
    }
}

impl Game {
    /// For search (an evaluation of the position as it stands): when the current decision
    /// is a drawn tile's placement and no plugin decision is pending, the tile is put
    /// aside, the stack emptied and the turn ended, so that the game goes on to its final
    /// scoring (or to whatever a plugin still asks); returns false and changes nothing at
    /// any other decision.
    pub fn end_before_placement(&mut self) -> bool {
        let st = &mut self.st;
        if st.phase != crate::state::Phase::PlaceTile || !st.pending.is_empty() || st.failure().is_some() {
            return false;
        }
        st.tile = None;
        st.stack.clear();
        st.phase = crate::state::Phase::TurnEnd;
        self.advance();
        true
    }
}
