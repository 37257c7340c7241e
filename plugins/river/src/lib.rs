//! The River (RULES.md RIVER-1..3): river tiles first, the spring as start tile, the
//! lake last, every river tile extending the open end, no two curves the same way.
//!
//! With the 2025 double tiles (FD-RIVER-1, options `double_spring` / `double_lake`): the
//! double spring is the start tile instead of the spring, the River's own lake is shuffled
//! with the other river tiles, and the double lake is the last river tile. The double
//! spring has two mouths; a river tile attaches to either, and the curve memory of
//! RIVER-2 is kept per branch (the bends drawn on double tiles are not curves).

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, TilePlacement};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, Pos, Side, TileTypeId};
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
    /// FD-SETUP-1/FD-RIVER-1: a double spring (e.g. `FDSPRING`) that replaces the spring
    /// as the start tile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_spring: Option<String>,
    /// FD-SETUP-1/FD-RIVER-1: a double lake (e.g. `FDLAKE`), always the last river tile;
    /// the lake is then shuffled with the other river tiles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_lake: Option<String>,
    /// The garden printing (TILES.md): each river tile printed with a garden (`RV11g`)
    /// replaces one copy of the tile it is a variant of, as the base game's option does.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub garden_printing: bool,
    /// What RIVER-2 and FD-RIVER-1 read of the tile data, worked out once at registration.
    #[serde(skip)]
    layout: Layout,
}

/// The river's sides of every rotated part, and the mouths of the double tiles.
#[derive(Clone, Debug, Default)]
struct Layout {
    /// River sides (bit = side) and [`HAS_RIVER`] (0: no river) by
    /// [`carcassonne_core::tile::TilePart::flat`] index plus quarter turns.
    sides: Vec<u8>,
    /// The tiles of more than one part that show a river, with the cells (relative to the
    /// first part's) that their outer river sides face, by face and quarter turns (a river
    /// side facing the tile's own other part is not a mouth); `None` for a face that shows
    /// no river (RIVER-2 has nothing to say of it).
    mouths: Vec<(TileTypeId, Vec<Option<Mouths>>)>,
}

/// The cells (relative to a double tile's first part) that its outer river sides face, by
/// quarter turns.
type Mouths = [Vec<(i32, i32)>; 4];

/// The bit of a [`Layout::sides`] entry that says the part shows a river (its sides may
/// still be none).
const HAS_RIVER: u8 = 1 << 4;

impl Layout {
    fn new(cat: &carcassonne_core::catalog::Catalog) -> Layout {
        let mut layout = Layout::default();
        for (t, tile) in cat.tiles.iter().enumerate() {
            let mut mouths = Vec::new();
            for face in &tile.faces {
                let mut by_rot: Mouths = Default::default();
                let mut face_river = false;
                for (q, out) in by_rot.iter_mut().enumerate() {
                    let cells: Vec<(i32, i32)> = face.parts.iter().map(|p| p.rotated[q].offset).collect();
                    for part in &face.parts {
                        let rp = &part.rotated[q];
                        let sides = river_sides(rp).map_or(0, |s| s | HAS_RIVER);
                        face_river |= sides != 0;
                        let at = part.flat as usize + q;
                        if layout.sides.len() <= at {
                            layout.sides.resize(at + 1, 0);
                        }
                        layout.sides[at] = sides;
                        for s in Side::ALL.into_iter().filter(|s| sides & (1 << *s as u8) != 0) {
                            let n = Pos::new(rp.offset.0, rp.offset.1).step(s);
                            if !cells.contains(&(n.x, n.y)) {
                                out.push((n.x, n.y));
                            }
                        }
                    }
                }
                mouths.push(face_river.then_some(by_rot));
            }
            if !tile.is_single() && mouths.iter().any(Option::is_some) {
                layout.mouths.push((t as TileTypeId, mouths));
            }
        }
        layout
    }
}

impl Default for River {
    fn default() -> Self {
        River {
            tile_set: "river".into(),
            spring: "RV1".into(),
            lake: "RV12".into(),
            double_spring: None,
            double_lake: None,
            garden_printing: false,
            layout: Layout::default(),
        }
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
#[derive(Debug, Default)]
pub struct RiverState {
    pub last_curve: Turn,
    /// Per single river tile placed: its cell and the last curve of its branch up to it
    /// (RIVER-2 per branch of a double spring; cells not listed have none).
    pub branch_curve: Vec<(Pos, Turn)>,
}

carcassonne_core::clone_fields!(RiverState { last_curve, branch_curve });

impl RiverState {
    /// The last curve of the branch that ends at `pos`.
    fn curve_at(&self, pos: Pos) -> Turn {
        self.branch_curve.iter().find(|(p, _)| *p == pos).map_or(Turn::None, |&(_, t)| t)
    }
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

/// The side by which a river part whose river covers `sides` joins the river already
/// placed (the entry side of [`course`]).
fn entry(sides: u8, joined: impl Fn(Side) -> bool) -> Option<Side> {
    Side::ALL.into_iter().find(|s| sides & (1 << *s as u8) != 0 && joined(*s))
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
        reg.require_set(&self.tile_set)?;
        for id in [&self.spring, &self.lake].into_iter().chain(&self.double_spring).chain(&self.double_lake) {
            if cat.id(id).is_none() {
                return Err(format!("tile '{id}' is not in any loaded tile set"));
            }
        }
        // Each named tile must show a river; the spring and the lake are of the river set.
        let shows_river =
            |id: &str| cat.id(id).is_some_and(|t| cat.tile(t).features().any(|f| f.kind == FeatureKind::River));
        let in_set = |id: &str| cat.id(id).is_some_and(|t| cat.set(&self.tile_set).is_some_and(|ids| ids.contains(&t)));
        for (key, id) in [("spring", &self.spring), ("lake", &self.lake)] {
            if !in_set(id) || !shows_river(id) {
                return Err(format!("`{key}`: tile '{id}' is not a river tile of set '{}'", self.tile_set));
            }
        }
        if self.spring == self.lake {
            return Err(format!("`lake`: tile '{}' is also the spring", self.lake));
        }
        for (key, id) in [("double_spring", &self.double_spring), ("double_lake", &self.double_lake)] {
            if let Some(id) =
                id.as_deref().filter(|id| !shows_river(id) || cat.tile(cat.id(id).unwrap_or(0)).is_single())
            {
                return Err(format!("`{key}`: tile '{id}' is not a double river tile"));
            }
        }
        // Which end is which: a lake ends its river (modifier `lake`), the spring starts it
        // (`spring`); the double spring has two mouths and no lake (TILES.md).
        let ends = |id: &str, end: &str| {
            let bit = cat.modifier(end);
            bit != 0
                && cat.id(id).is_some_and(|t| {
                    cat.tile(t).features().any(|f| f.kind == FeatureKind::River && f.modifiers & bit != 0)
                })
        };
        let lakes = [("lake", Some(&self.lake)), ("double_lake", self.double_lake.as_ref())];
        for (key, id) in lakes.into_iter().filter_map(|(k, id)| Some((k, id?))) {
            if !ends(id, "lake") {
                return Err(format!("`{key}`: tile '{id}' has no lake (a river with the `lake` modifier)"));
            }
        }
        if !ends(&self.spring, "spring") {
            return Err(format!("`spring`: tile '{}' has no spring (a river with the `spring` modifier)", self.spring));
        }
        if let Some(id) = self.double_spring.as_ref().filter(|id| ends(id, "lake")) {
            return Err(format!("`double_spring`: tile '{id}' is a lake (its river has the `lake` modifier)"));
        }
        self.layout = Layout::new(cat);
        Ok(())
    }

    /// RIVER-1: the river stack is drawn first, the lake last; the spring starts.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        let cat = &rules.catalog;
        let ids = cat.set(&self.tile_set).ok_or("river tile set not loaded")?;
        let spring = cat.id(&self.spring).ok_or("spring not loaded")?;
        let lake = cat.id(&self.lake).ok_or("lake not loaded")?;
        let double_spring = self.double_spring.as_deref().map(|d| cat.id(d).ok_or("double spring not loaded"));
        let double_lake = self.double_lake.as_deref().map(|d| cat.id(d).ok_or("double lake not loaded"));
        let group = setup.group("river", -10);
        for &t in ids {
            // With a double lake, the lake is shuffled in (FD-SETUP-1); the spring never is.
            if t == spring || (t == lake && double_lake.is_none()) {
                continue;
            }
            for _ in 0..cat.tile(t).count {
                group.tiles.push(t);
            }
        }
        if self.garden_printing {
            let has_garden = |t| cat.tile(t).features().any(|f| f.kind == FeatureKind::Garden);
            for &t in ids.iter().filter(|&&t| has_garden(t)) {
                if let Some(orig) = cat.tile(t).variant_of.as_deref().and_then(|o| cat.id(o)) {
                    if let Some(i) = group.tiles.iter().position(|&x| x == orig) {
                        group.tiles[i] = t;
                    }
                }
            }
        }
        group.last.push(double_lake.transpose()?.unwrap_or(lake));
        let start = double_spring.transpose()?.unwrap_or(spring);
        if let Some(old) = setup.start.replace(start) {
            setup.group("land", 0).tiles.push(old);
        }
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn carcassonne_core::PluginState>> {
        Some(Box::new(RiverState::default()))
    }

    /// Only a tile with a river may be refused (RIVER-2).
    fn may_veto_tile(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> bool {
        let t = rules.catalog.tile(tile);
        t.features().any(|f| f.kind == FeatureKind::River)
    }

    /// The curve memory follows single river tiles only.
    fn tile_hooks(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> Hooks {
        if rules.catalog.tile(tile).is_single() && self.may_veto_tile(rules, tile) {
            Hooks::TILE_PLACED
        } else {
            Hooks::NONE
        }
    }

    /// RIVER-2: a river tile extends the open end, never turning the same way twice.
    fn allow_tile(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> bool {
        let face = &rules.catalog.tiles[p.tile as usize].faces[p.face as usize];
        let q = p.rot.quarters() as usize;
        if face.parts.len() != 1 {
            // FD-RIVER-1: a double tile with a river (the double lake) must join the open
            // river with one of its outer river sides; its drawn bends are not curves.
            let Some((_, faces)) = self.layout.mouths.iter().find(|(t, _)| *t == p.tile) else {
                return true;
            };
            let Some(mouths) = &faces[p.face as usize] else { return true };
            return mouths[q].iter().any(|&(dx, dy)| st.board.is_placed(Pos::new(p.pos.x + dx, p.pos.y + dy)));
        }
        let sides = self.layout.sides[face.parts[0].flat as usize + q];
        if sides == 0 {
            return true;
        }
        let sides = sides & !HAS_RIVER;
        // Edge matching already makes a river side meet a river side: the sides that face a
        // placed tile join the river (none: the tile does not extend it).
        let joined = Side::ALL
            .into_iter()
            .filter(|&s| sides & (1 << s as u8) != 0 && st.board.is_placed(p.pos.step(s)))
            .fold(0u8, |m, s| m | 1 << s as u8);
        if joined == 0 {
            return false;
        }
        let joined = |s: Side| joined & (1 << s as u8) != 0;
        match course(sides, joined) {
            None => false,
            Some(Turn::None) => true,
            // The last curve of the branch this tile extends (the branch ends at the tile
            // across the entry side).
            Some(t) => {
                let rs = st.plugin::<RiverState>(me);
                let last = if self.double_spring.is_some() {
                    entry(sides, joined).map_or(Turn::None, |s| rs.curve_at(p.pos.step(s)))
                } else {
                    rs.last_curve
                };
                last != t
            }
        }
    }

    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        // FD-RIVER-1: the bends drawn on a double tile are not curves.
        if st.placed_parts().len() != 1 {
            return;
        }
        let Some(part) = st.placed_parts().next() else { return };
        let Some(sides) = river_sides(st.rotated(rules, part)) else { return };
        let pos = st.board.parts[part as usize].pos;
        // The entry is the river side whose neighbour was placed before this tile.
        let earlier = |s: Side| st.board.part_at(pos.step(s)).is_some_and(|n| n < part);
        let turn = course(sides, earlier);
        let from = entry(sides, earlier);
        let rs = st.plugin_mut::<RiverState>(me);
        let inherited = from.map_or(Turn::None, |s| rs.curve_at(pos.step(s)));
        match turn {
            Some(t @ (Turn::Left | Turn::Right)) => {
                rs.last_curve = t;
                rs.branch_curve.push((pos, t));
            }
            Some(Turn::None) => rs.branch_curve.push((pos, inherited)),
            None => {}
        }
    }
}
