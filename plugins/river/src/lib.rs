//! The River (RULES.md RIVER-1..3): river tiles first, the spring as start tile, the
//! lake last, every river tile extending the open end, no two curves the same way.

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, TilePlacement};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, Side};
use serde::{Deserialize, Serialize};

/// Options of the River.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct River {
    /// Tile set holding the river tiles.
    pub tile_set: String,
    /// The spring: start tile instead of the base game's (RIVER-1).
    pub spring: String,
    /// The lake: always the last river tile (RIVER-1).
    pub lake: String,
}

impl Default for River {
    fn default() -> Self {
        River { tile_set: "river".into(), spring: "RV1".into(), lake: "RV12".into() }
    }
}

/// The factory a rule set names as `river`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "river",
        summary: "the River: river tiles first, spring start, lake last, no U-turns (RIVER-1..3)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<River>,
    }
}

/// Which way the river turned on the last curve tile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Turn {
    #[default]
    None,
    Left,
    Right,
}

/// River state: the last curve's direction.
#[derive(Clone, Debug, Default)]
pub struct RiverState {
    pub last_curve: Turn,
}

/// The course of a river part whose river covers `sides`: `None` when no river side
/// joins the river already placed (`joined(side)`), else the turn it takes from the side
/// it joins to its single other side (straight, or a spring/lake end: `Turn::None`).
fn course(sides: u8, joined: impl Fn(Side) -> bool) -> Option<Turn> {
    let mut entry = None;
    let mut exits = [Side::N; 4];
    let mut n = 0;
    for s in Side::ALL.into_iter().filter(|s| sides & (1 << *s as u8) != 0) {
        if entry.is_none() && joined(s) {
            entry = Some(s);
        } else {
            exits[n] = s;
            n += 1;
        }
    }
    // Heading away from the entry side.
    let heading = entry?.opposite() as u8;
    Some(match &exits[..n] {
        [out] if *out as u8 == (heading + 1) % 4 => Turn::Right,
        [out] if *out as u8 == (heading + 3) % 4 => Turn::Left,
        _ => Turn::None,
    })
}

/// River sides of a rotated part, if it has a river.
fn river_sides(rp: &carcassonne_core::tile::RotatedPart) -> Option<u8> {
    rp.features.iter().find(|f| f.kind == FeatureKind::River).map(|f| f.sides)
}

impl Plugin for River {
    fn name(&self) -> &str {
        "river"
    }

    fn hooks(&self) -> Hooks {
        Hooks::ALLOW_TILE | Hooks::TILE_PLACED
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        let cat = reg.catalog();
        if cat.set(&self.tile_set).is_none() {
            return Err(format!("tile set '{}' is not loaded: add it to the rule set's [tiles]", self.tile_set));
        }
        for id in [&self.spring, &self.lake] {
            if cat.id(id).is_none() {
                return Err(format!("tile '{id}' is not in any loaded tile set"));
            }
        }
        Ok(())
    }

    /// RIVER-1: the river stack is drawn first, the lake last; the spring starts.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        let cat = &rules.catalog;
        let ids = cat.set(&self.tile_set).ok_or("river tile set not loaded")?;
        let spring = cat.id(&self.spring).ok_or("spring not loaded")?;
        let lake = cat.id(&self.lake).ok_or("lake not loaded")?;
        let group = setup.group("river", -10);
        for &t in ids {
            if t == spring || t == lake {
                continue;
            }
            for _ in 0..cat.tile(t).count {
                group.tiles.push(t);
            }
        }
        group.last.push(lake);
        if let Some(old) = setup.start.replace(spring) {
            setup.group("land", 0).tiles.push(old);
        }
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn carcassonne_core::PluginState>> {
        Some(Box::new(RiverState::default()))
    }

    fn may_veto_tile(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> bool {
        let t = rules.catalog.tile(tile);
        t.faces.iter().flat_map(|f| &f.parts).any(|p| p.features.iter().any(|f| f.kind == FeatureKind::River))
    }

    /// RIVER-2: a river tile extends the open end, never turning the same way twice.
    fn allow_tile(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> bool {
        let face = &rules.catalog.tiles[p.tile as usize].faces[p.face as usize];
        if face.parts.len() != 1 {
            return true;
        }
        let Some(sides) = river_sides(&face.parts[0].rotated[p.rot.quarters() as usize]) else {
            return true;
        };
        // Edge matching already makes a river side meet a river side.
        match course(sides, |s| st.board.is_placed(p.pos.step(s))) {
            None => false,
            Some(Turn::None) => true,
            Some(t) => st.plugin::<RiverState>(me).last_curve != t,
        }
    }

    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(part) = st.placed_parts().next() else { return };
        let Some(sides) = river_sides(st.rotated(rules, part)) else { return };
        let pos = st.board.parts[part as usize].pos;
        // The entry is the river side whose neighbour was placed before this tile.
        let earlier = |s: Side| st.board.part_at(pos.step(s)).is_some_and(|n| n < part);
        if let Some(t @ (Turn::Left | Turn::Right)) = course(sides, earlier) {
            st.plugin_mut::<RiverState>(me).last_curve = t;
        }
    }
}
