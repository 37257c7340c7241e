//! The hills of Hills & Sheep (EXPANSIONS.md HILLS-1..3).
//!
//! - Tiles: the tiles of its tile set (`tile_set`, HS1-HS8) that carry the marker `hill`
//!   go into the land tiles (`edition = 1`: HS5c1, the 1st-edition printing without a
//!   garden, replaces HS5).
//! - HILLS-1: when a hill tile is placed (`on_tile_placed`), the top tile of the supply
//!   goes under it unseen: it leaves the stack without being drawn, shown, placed or
//!   logged (statistic `hill_tiles_buried`). An empty supply gives nothing; a hill tile
//!   discarded as unplaceable (BASE-4) is never placed, so it takes nothing. With a forced
//!   draw order (scenarios), the tile taken is the next one of that order.
//! - HILLS-2: the tie-break goes through the core's majority hook ([`Hooks::MAJORITY`],
//!   `break_tie`), which every majority asks (`State::majority`: base's roads, cities,
//!   monasteries and fields, during the game and at the end, the barn's farmers, any
//!   plugin's): when two or more seats share the top strength, only those with a follower
//!   (any figure kind that is a follower) standing on a hill tile in that feature win,
//!   unless none or all of them have one (`hill_tiebreaker = presence`, the default); with
//!   `count`, the tied seats with the most such followers win (all of them when none has
//!   one). Barns, pigs, shepherds and other non-followers never count.
//! - HILLS-3: otherwise a hill tile is an ordinary land tile.

mod draw;

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{State, MAX_PLAYERS};
use carcassonne_core::NodeId;
use serde::{Deserialize, Serialize};

/// How a tie is broken by followers on hills (HILLS-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HillTiebreaker {
    /// The tied seats with at least one follower on a hill (all, when none or all have one).
    #[default]
    Presence,
    /// The tied seats with the most followers on hills (all, when none has one).
    Count,
}

/// Options of the hills.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Hills {
    /// Tile set holding the hill tiles (marker `hill`).
    pub tile_set: String,
    /// 2 (C2: HS5 with a garden) or 1 (C1: HS5c1 without).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    /// HILLS-2: `presence` or `count`.
    pub hill_tiebreaker: HillTiebreaker,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    hill: u32,
    buried: usize,
}

impl Default for Hills {
    fn default() -> Self {
        Hills {
            tile_set: "hills-sheep".into(),
            edition: 2,
            hill_tiebreaker: HillTiebreaker::Presence,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `hills`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "hills",
        summary: "Hills & Sheep hills: a tile buried under each hill, followers on hills break ties (HILLS-1..3)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Hills>,
    }
}

impl Hills {
    /// Followers per seat standing on a hill tile in the feature of `root`.
    fn on_hills(&self, rules: &Rules, st: &State, root: NodeId) -> [u32; MAX_PLAYERS] {
        let mut n = [0u32; MAX_PLAYERS];
        for f in st.figures.iter().filter(|f| f.alive && (f.owner as usize) < MAX_PLAYERS) {
            let Some(node) = f.node else { continue };
            if rules.figure_kinds[f.kind as usize].follower
                && st.part_markers(rules, f.part) & self.ids.hill != 0
                && st.graph.find(node) == root
            {
                n[f.owner as usize] += 1;
            }
        }
        n
    }
}

impl Plugin for Hills {
    fn draw(
        &self,
        rules: &carcassonne_core::Rules,
        st: &carcassonne_core::State,
        me: usize,
        canvas: &mut dyn carcassonne_core::Canvas,
    ) {
        draw::draw(self, rules, st, me, canvas)
    }

    fn name(&self) -> &str {
        "hills"
    }

    fn hooks(&self) -> Hooks {
        Hooks::TILE_PLACED | Hooks::MAJORITY
    }

    /// Only a hill tile buries one.
    fn tile_hooks(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> Hooks {
        carcassonne_core::plugin::marked(rules, tile, self.ids.hill, Hooks::TILE_PLACED)
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        self.ids.hill = reg.require_marker(&self.tile_set, "hill")?;
        self.ids.buried = reg.stat("hill_tiles_buried");
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.hill, self.edition == 1)
    }

    /// HILLS-1: the top tile of the supply goes under a placed hill tile, unseen.
    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        if !st.placed_parts().any(|p| st.part_markers(rules, p) & self.ids.hill != 0) {
            return;
        }
        if st.stack.pop().is_some() {
            st.bump_stat(self.ids.buried, 1);
            st.note(rules, me, format_args!("a tile goes under the hill unseen"));
        }
    }

    /// HILLS-2: followers on hills break a tie for the top strength.
    fn break_tie(
        &self,
        rules: &Rules,
        st: &State,
        _me: usize,
        root: NodeId,
        _strengths: &[u32; MAX_PLAYERS],
        winners: u8,
    ) -> u8 {
        let n = self.on_hills(rules, st, root);
        let tied = |p: usize| winners & (1 << p) != 0;
        let best = match self.hill_tiebreaker {
            HillTiebreaker::Presence => 1,
            HillTiebreaker::Count => (0..MAX_PLAYERS).filter(|&p| tied(p)).map(|p| n[p]).max().unwrap_or(0),
        };
        if best == 0 {
            return winners;
        }
        // `presence`: all tied seats with a follower on a hill, unless all have one (the
        // same set); `count`: those with the most.
        match (0..MAX_PLAYERS).filter(|&p| tied(p) && n[p] >= best).fold(0u8, |m, p| m | (1 << p)) {
            0 => winners,
            narrowed => narrowed,
        }
    }
}
