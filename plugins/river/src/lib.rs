//! The River (RULES.md RIVER-1..3): river tiles first, the spring as start tile, the
//! lake last, every river tile extending the open end, no two curves the same way.

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, TilePlacement};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::tile::NONE;
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

/// The river sides of a placed candidate: (side joined to the placed river, turn taken).
fn river_course(rules: &Rules, st: &State, p: &TilePlacement) -> Option<(bool, Turn)> {
    let tile = &rules.catalog.tiles[p.tile as usize];
    let face = &tile.faces[p.face as usize];
    if face.parts.len() != 1 {
        return None;
    }
    let rp = &face.parts[0].rotated[p.rot.quarters() as usize];
    let river = rp.features.iter().position(|f| f.kind == FeatureKind::River)?;
    let sides = rp.features[river].sides;
    let mut entry = None;
    let mut exits = Vec::new();
    for s in Side::ALL {
        if sides & (1 << s as u8) == 0 {
            continue;
        }
        match st.board.part_at(p.pos.step(s)) {
            Some(n) if st.rotated(rules, n).side_feature[s.opposite() as usize] != NONE => entry = Some(s),
            Some(_) => return Some((false, Turn::None)),
            None => exits.push(s),
        }
    }
    let Some(entry) = entry else {
        return Some((false, Turn::None));
    };
    let turn = match exits.as_slice() {
        [out] => {
            // Moving away from the entry side: heading = opposite(entry).
            let heading = entry.opposite() as u8;
            let out = *out as u8;
            if out == (heading + 1) % 4 {
                Turn::Right
            } else if out == (heading + 3) % 4 {
                Turn::Left
            } else {
                Turn::None
            }
        }
        _ => Turn::None,
    };
    Some((true, turn))
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

    /// RIVER-2: a river tile extends the open end, never turning the same way twice.
    fn allow_tile(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> bool {
        match river_course(rules, st, p) {
            None => true,
            Some((false, _)) => false,
            Some((true, Turn::None)) => true,
            Some((true, t)) => st.plugin::<RiverState>(me).last_curve != t,
        }
    }

    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(first) = st.placed_parts().next() else {
            return;
        };
        let p = st.board.parts[first as usize];
        let tp = TilePlacement { tile: p.tile, face: p.face, pos: p.pos, rot: p.rot };
        // The tile is on the board now: judge its course as it was before placement.
        if let Some((true, turn)) = course_after(rules, st, &tp) {
            if turn != Turn::None {
                st.plugin_mut::<RiverState>(me).last_curve = turn;
            }
        }
    }
}

/// Like [`river_course`] for a tile already on the board: the entry is the river side
/// whose neighbour was placed earlier.
fn course_after(rules: &Rules, st: &State, p: &TilePlacement) -> Option<(bool, Turn)> {
    let me = st.board.part_at(p.pos)?;
    let rp = st.rotated(rules, me);
    let river = rp.features.iter().position(|f| f.kind == FeatureKind::River)?;
    let sides = rp.features[river].sides;
    let mut entry = None;
    let mut exits = Vec::new();
    for s in Side::ALL {
        if sides & (1 << s as u8) == 0 {
            continue;
        }
        match st.board.part_at(p.pos.step(s)) {
            Some(n) if n < me => entry = Some(s),
            _ => exits.push(s),
        }
    }
    let entry = entry?;
    let heading = entry.opposite() as u8;
    let turn = match exits.as_slice() {
        [out] if *out as u8 == (heading + 1) % 4 => Turn::Right,
        [out] if *out as u8 == (heading + 3) % 4 => Turn::Left,
        _ => Turn::None,
    };
    Some((true, turn))
}
