//! The bridges of Bridges, Castles & Bazaars (EXPANSIONS.md BRIDGE-1..4) and how the
//! dragons, the portal and the fairies treat them (seed 001).
//!
//! A bridge is a wooden piece, not printed on a tile (TILES-MORE.md rule 22): a road
//! segment added onto a placed part with [`State::add_edge_feature`] (template `N-S` or
//! `W-E`, board sides), kept in the plugin state with its owner.
//! - BRIDGE-1: `bridges` pieces per seat with 2-4 players, `bridges_5_6` with 5-6, in the
//!   plugin state.
//! - BRIDGE-2: after the tile is placed (hook `TILE_PLACED`, before the figure decision,
//!   so that a follower may go onto the new bridge), a player with a bridge who placed
//!   none this turn decides (`place_bridge` or `pass`) on a bridge on the tile just
//!   placed or an orthogonal neighbour, N-S or W-E: both sides it lands on field sides
//!   of that tile, no bridge there yet, and every end that faces a placed tile meeting a
//!   road there. The decision is asked only when such a bridge exists.
//! - BRIDGE-3: a placement variant of the core ([`Hooks::PLACEMENT_VARIANTS`], six codes:
//!   a bridge N-S or W-E on the new tile, or on the neighbour across each side): a drawn
//!   tile that does not fit a cell may be placed there when one bridge makes it fit, on
//!   the tile (its field sides N-S or W-E become roads that meet the neighbours' roads
//!   or face empty cells) or on the neighbour whose field side faces the tile's road (its
//!   far side a field side facing an empty cell or a road). Every tile veto judges the
//!   variants as any placement (`Action::PlaceTileVariant`, `TilePlacement::variant`); the bridge is the turn's
//!   bridge. Which cells and rotations can fit with a bridge comes from tables per tile
//!   face and frontier need code built at registration, so that a turn costs two table
//!   reads per frontier cell. A tile whose only placements need a bridge may be
//!   discarded instead (`Action::Pass` in the tile decision, [`Plugin::may_discard`],
//!   option `discard`); BASE-4 discards only a tile with no placement either way.
//!   Double tiles (two parts) get no bridge variant.
//! - BRIDGE-4: the added road joins the roads at its ends and nothing it crosses; the
//!   fields stay as they were (not split); a road counts each tile once
//!   (`State::feature_tiles` counts parts). In the figure step, a follower of any kind
//!   from supply (every figure-placement veto judges it, e.g. the abbot's and the
//!   mayor's) may go onto an unoccupied bridge of the tile just placed, as a thief
//!   (`PlaceFigure` on the bridge's feature index). Bridges never leave the board.
//! - Seed 001 (Fairy & Dragon): both dragons pass bridges and eat the followers on them
//!   (they stand on the tile), never a bridge (a bridge is no figure); a bridge may lie
//!   on a lair tile; the portal takes followers onto bridges (`portal` offers added
//!   features) but not onto one on a lair tile (`dragon-2025` vetoes any figure there);
//!   either fairy may join a follower on a bridge (a follower as any other).
//! - Statistics: `bridges_placed`, `tiles_placed_by_bridge` (BRIDGE-3 variants); a tile
//!   discarded by choice counts in the game's discarded tiles.

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::board::NEED_CODES;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, PluginState, TilePlacement};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{State, MAX_PLAYERS};
use carcassonne_core::tile::{sides_fit, signature_side, SideKind, TileTypeId};
use carcassonne_core::{FeatureKind, NodeId, Pos, Rotation, Side};
use serde::{Deserialize, Serialize};

/// Options of the bridges.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bridge {
    /// BRIDGE-1: bridges per seat with 2 to 4 players.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 20, _, _>")]
    pub bridges: u8,
    /// BRIDGE-1: bridges per seat with 5 or 6 players.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 20, _, _>")]
    pub bridges_5_6: u8,
    /// BRIDGE-3: a tile whose only placements need a bridge may be discarded (JCZ).
    pub discard: bool,
    #[serde(skip)]
    ids: Ids,
}

impl Default for Bridge {
    fn default() -> Self {
        Bridge { bridges: 3, bridges_5_6: 2, discard: true, ids: Ids::default() }
    }
}

/// Per tile face (single-part tiles), per frontier need code: the rotations that fit
/// with a bridge (BRIDGE-3).
#[derive(Clone, Debug, Default)]
struct FaceTable {
    /// Bits 0-3: rotations that fit with a N-S bridge on the tile; bits 4-7: with W-E.
    own: Vec<u8>,
    /// Per rotation q, bits 4q..4q+4: 8 | s when the rotation fits with a bridge on the
    /// neighbour across side s.
    neighbour: Vec<u16>,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    first_variant: u8,
    /// Edge-feature templates: N-S, W-E.
    templates: [u8; 2],
    placed: usize,
    by_bridge: usize,
    /// Per tile type, per face (empty for double tiles).
    tables: Vec<Vec<FaceTable>>,
}

/// The decision code of BRIDGE-2 (and of its `place_bridge` action).
const PLACE: u16 = 1;
/// Axes: 0 = N-S, 1 = W-E.
const AXES: [[Side; 2]; 2] = [[Side::N, Side::S], [Side::E, Side::W]];
const AXIS_NAMES: [&str; 2] = ["N-S", "W-E"];

/// One bridge on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedBridge {
    /// The placed part it lies on.
    pub part: u32,
    /// 0 = N-S, 1 = W-E.
    pub axis: u8,
    pub owner: u8,
    /// Its road node.
    pub node: NodeId,
    /// Turn it was placed.
    pub turn: u32,
}

/// The bridges' game state.
#[derive(Debug, Default)]
pub struct BridgeState {
    /// Bridges in each seat's supply (BRIDGE-1).
    pub left: [u8; MAX_PLAYERS],
    /// Every bridge placed, in order.
    pub bridges: Vec<PlacedBridge>,
}

carcassonne_core::clone_fields!(BridgeState { left, bridges });

impl BridgeState {
    fn on(&self, part: u32) -> bool {
        self.bridges.iter().any(|b| b.part == part)
    }
    fn placed_in(&self, turn: u32) -> bool {
        self.bridges.last().is_some_and(|b| b.turn == turn)
    }
}

/// The factory a rule set names as `bridge`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "bridge",
        summary: "bridges: a road across two field sides, a tile placed thanks to one (BRIDGE-1..4)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Bridge>,
    }
}

/// The side kind on side `s` of a placed part.
fn side_of(st: &State, part: u32, s: Side) -> u32 {
    signature_side(st.board.parts[part as usize].signature, s)
}

const FIELD: u32 = SideKind::Field as u32;
const ROAD: u32 = SideKind::Road as u32;

/// Whether an end of a bridge at `pos`, toward `s`, faces an empty cell or a road there.
fn end_ok(st: &State, pos: Pos, s: Side) -> bool {
    st.board.part_at(pos.step(s)).is_none_or(|n| side_of(st, n, s.opposite()) == ROAD)
}

/// Builds the BRIDGE-3 tables of one single-part face.
fn face_table(face: &carcassonne_core::tile::TileFace) -> FaceTable {
    let part = &face.parts[0];
    let mut t = FaceTable { own: vec![0; NEED_CODES], neighbour: vec![0; NEED_CODES] };
    for code in 0..NEED_CODES {
        // Digit per side: 0 no demand, 1 + side kind.
        let d: [u32; 4] = std::array::from_fn(|s| (code as u32 / 5u32.pow(s as u32)) % 5);
        for rot in &face.distinct_rotations {
            let q = rot.quarters() as usize;
            let sig = part.rotated[q].signature;
            let side = |s: usize| signature_side(sig, Side::from_index(s));
            let mismatch = (0..4).filter(|&s| d[s] != 0 && !sides_fit(side(s), d[s] - 1)).fold(0u8, |m, s| m | 1 << s);
            if mismatch == 0 {
                continue;
            }
            for (axis, sides) in AXES.iter().enumerate() {
                let mask = sides.iter().fold(0u8, |m, &s| m | 1 << s as u8);
                let ends_ok = sides.iter().all(|&s| {
                    let d = d[s as usize];
                    side(s as usize) == FIELD && (d == 0 || d == ROAD + 1)
                });
                if mismatch & !mask == 0 && ends_ok {
                    t.own[code] |= 1 << (q + 4 * axis);
                }
            }
            if mismatch.count_ones() == 1 {
                let s = mismatch.trailing_zeros() as usize;
                if side(s) == ROAD && d[s] == FIELD + 1 {
                    t.neighbour[code] |= ((8 | s) as u16) << (4 * q);
                }
            }
        }
    }
    t
}

impl Bridge {
    /// BRIDGE-2's conditions for a bridge on `part` along `axis` (no bridge there yet,
    /// field sides, every end meeting a road or an empty cell).
    fn bridge_fits(&self, st: &State, s: &BridgeState, part: u32, axis: usize) -> bool {
        let pos = st.board.parts[part as usize].pos;
        !s.on(part) && AXES[axis].iter().all(|&e| side_of(st, part, e) == FIELD && end_ok(st, pos, e))
    }

    /// Whether the current player may place a bridge now (one in supply, none this turn).
    fn may_place(&self, st: &State, me: usize) -> bool {
        let s = st.plugin::<BridgeState>(me);
        s.left[st.current as usize] > 0 && !s.placed_in(st.turn)
    }

    /// BRIDGE-2: the bridges the current player may place after the tile: on the tile
    /// just placed or an orthogonal neighbour, each axis.
    fn bridge_options(&self, st: &State, me: usize, mut f: impl FnMut(u32, usize)) {
        let s = st.plugin::<BridgeState>(me);
        let mut seen: [u32; 12] = [u32::MAX; 12];
        let mut n = 0;
        for placed in st.placed_parts() {
            let pos = st.board.parts[placed as usize].pos;
            let cells = [pos, pos.step(Side::N), pos.step(Side::E), pos.step(Side::S), pos.step(Side::W)];
            for part in cells.into_iter().filter_map(|c| st.board.part_at(c)) {
                if seen[..n].contains(&part) || n == seen.len() {
                    continue;
                }
                seen[n] = part;
                n += 1;
                for axis in 0..2 {
                    if self.bridge_fits(st, s, part, axis) {
                        f(part, axis);
                    }
                }
            }
        }
    }

    /// Places a bridge of the current player on `part` along `axis` (BRIDGE-2/3/4).
    fn place_bridge(&self, rules: &Rules, st: &mut State, me: usize, part: u32, axis: usize) {
        let node = st.add_edge_feature(rules, part, self.ids.templates[axis]);
        let (owner, turn) = (st.current, st.turn);
        let s = st.plugin_mut::<BridgeState>(me);
        s.left[owner as usize] = s.left[owner as usize].saturating_sub(1);
        s.bridges.push(PlacedBridge { part, axis: axis as u8, owner, node, turn });
        st.bump_stat(self.ids.placed, 1);
        let pos = st.board.parts[part as usize].pos;
        st.note(rules, me, format_args!("bridge {} on {pos}", AXIS_NAMES[axis]));
    }

    /// The cell and axis of variant `k` (0..6) of a placement at `pos`.
    fn variant_target(k: u8, pos: Pos) -> (Pos, usize) {
        match k {
            0 | 1 => (pos, k as usize),
            _ => {
                let s = Side::from_index(k as usize - 2);
                (pos.step(s), if matches!(s, Side::N | Side::S) { 0 } else { 1 })
            }
        }
    }
}

impl Plugin for Bridge {
    fn draw(
        &self,
        rules: &carcassonne_core::Rules,
        st: &carcassonne_core::State,
        me: usize,
        canvas: &mut dyn carcassonne_core::Canvas,
    ) {
        draw::draw(rules, st, me, canvas)
    }

    fn name(&self) -> &str {
        "bridge"
    }

    fn hooks(&self) -> Hooks {
        Hooks::PLACEMENT_VARIANTS | Hooks::TILE_PLACED | Hooks::FIGURE_ACTIONS
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.first_variant = reg.placement_variants(6)?;
        self.ids.templates = [
            reg.edge_feature(FeatureKind::Road, 1 << Side::N as u8 | 1 << Side::S as u8, 0)?,
            reg.edge_feature(FeatureKind::Road, 1 << Side::E as u8 | 1 << Side::W as u8, 0)?,
        ];
        self.ids.placed = reg.stat("bridges_placed");
        self.ids.by_bridge = reg.stat("tiles_placed_by_bridge");
        let cat = reg.catalog();
        self.ids.tables = cat
            .tiles
            .iter()
            .map(|t| if t.is_single() { t.faces.iter().map(face_table).collect() } else { Vec::new() })
            .collect();
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, players: usize) -> Option<Box<dyn PluginState>> {
        let mut s = BridgeState::default();
        let n = if players >= 5 { self.bridges_5_6 } else { self.bridges };
        s.left[..players.min(MAX_PLAYERS)].fill(n);
        Some(Box::new(s))
    }

    /// BRIDGE-3: placements that fit only with a bridge.
    fn placement_variants(&self, _rules: &Rules, st: &State, me: usize, tile: TileTypeId, out: &mut Vec<Action>) {
        if !self.may_place(st, me) {
            return;
        }
        let Some(faces) = self.ids.tables.get(tile as usize) else { return };
        let s = st.plugin::<BridgeState>(me);
        let first = self.ids.first_variant;
        for (fi, t) in faces.iter().enumerate() {
            let face = fi as u8;
            for (pos, code) in st.board.frontier_needs() {
                let (own, nb) = (t.own[code as usize], t.neighbour[code as usize]);
                if own as u16 | nb == 0 {
                    continue;
                }
                for (axis, sides) in AXES.iter().enumerate() {
                    let mut rots = (own >> (4 * axis)) & 15;
                    // The table read the ends' need digits; a closed side there is no road.
                    if rots != 0 && !sides.iter().all(|&e| end_ok(st, pos, e)) {
                        continue;
                    }
                    while rots != 0 {
                        let rot = Rotation::from_quarters(rots.trailing_zeros() as u8);
                        rots &= rots - 1;
                        out.push(Action::PlaceTileVariant { rot, face, variant: first + axis as u8, pos });
                    }
                }
                for q in 0..4u8 {
                    let e = (nb >> (4 * q)) & 15;
                    if e & 8 == 0 {
                        continue;
                    }
                    let side = Side::from_index((e & 3) as usize);
                    let Some(n) = st.board.part_at(pos.step(side)) else { continue };
                    let axis = if matches!(side, Side::N | Side::S) { 0 } else { 1 };
                    if self.bridge_fits(st, s, n, axis) {
                        let rot = Rotation::from_quarters(q);
                        out.push(Action::PlaceTileVariant { rot, face, variant: first + 2 + side as u8, pos });
                    }
                }
            }
        }
    }

    fn place_variant(&self, rules: &Rules, st: &mut State, me: usize, p: &TilePlacement) {
        let (cell, axis) = Self::variant_target(p.variant - self.ids.first_variant, p.pos);
        let Some(part) = st.board.part_at(cell) else { return };
        self.place_bridge(rules, st, me, part, axis);
        st.bump_stat(self.ids.by_bridge, 1);
    }

    fn describe_variant(&self, _rules: &Rules, _st: &State, _me: usize, p: &TilePlacement) -> serde_json::Value {
        let (cell, axis) = Self::variant_target(p.variant - self.ids.first_variant, p.pos);
        serde_json::json!({"plugin": "bridge", "bridge": [cell.x, cell.y], "axis": AXIS_NAMES[axis]})
    }

    fn may_discard(&self, _rules: &Rules, _st: &State, _me: usize, _tile: TileTypeId) -> bool {
        self.discard
    }

    /// BRIDGE-2: the bridge decision, before the figure decision.
    fn on_tile_placed(&self, _rules: &Rules, st: &mut State, me: usize) {
        if !self.may_place(st, me) {
            return;
        }
        let mut any = false;
        self.bridge_options(st, me, |_, _| any = true);
        if any {
            let d =
                Decision { player: st.current, kind: DecisionKind::Plugin { plugin: me as u8, code: PLACE, data: 0 } };
            st.push_decision(d);
        }
    }

    /// BRIDGE-4: a thief on a bridge of the tile just placed.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let s = st.plugin::<BridgeState>(me);
        if !s.placed_in(st.turn) {
            return;
        }
        let player = st.current;
        let placed = st.placed_parts();
        for b in s.bridges.iter().rev().take_while(|b| b.turn == st.turn) {
            if !placed.contains(&b.part) || st.graph.followers(b.node) > 0 {
                continue;
            }
            let local = st.graph.node(b.node).local;
            for (kind, def) in rules.figure_kinds.iter().enumerate() {
                let kind = kind as u8;
                if !def.follower || def.strength == 0 || st.supply[player as usize][kind as usize] == 0 {
                    continue;
                }
                let cand = [FigurePlacement { player, kind, part: b.part, node: Some(b.node) }];
                let mut ok = [true];
                rules.allow_figures(st, &cand, &mut ok);
                if ok[0] {
                    out.push(Action::PlaceFigure { kind, part: b.part, feature: local });
                }
            }
        }
    }

    fn decision_actions(&self, _rules: &Rules, st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        let DecisionKind::Plugin { code: PLACE, .. } = d.kind else { return };
        self.bridge_options(st, me, |part, axis| {
            out.push(Action::Plugin { plugin: me as u8, code: PLACE, a: part as i32, b: axis as i32 });
        });
        out.push(Action::Pass);
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        if let Action::Plugin { code: PLACE, a: part, b: axis, .. } = *a {
            self.place_bridge(rules, st, me, part as u32, axis as usize);
        }
    }

    fn describe_action(&self, _rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: PLACE, a: part, b: axis, .. } = *a else { return serde_json::Value::Null };
        let pos = st.board.parts[part as usize].pos;
        serde_json::json!({"action": "place_bridge", "cell": [pos.x, pos.y], "axis": AXIS_NAMES[axis as usize & 1]})
    }
}
