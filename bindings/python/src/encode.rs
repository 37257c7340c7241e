//! The observation encoding and the fixed action space for learning agents
//! (docs/python.md, "Observation and actions").
//!
//! The board is seen through a `w` x `w` window of cells centred on the middle of the placed
//! tiles' bounding box. Every legal action gets a slot in a fixed space of
//! [`Layout::actions`] slots: tile placements by window cell, rotation and face; figure
//! placements by figure kind, window cell and feature; pass; plugin answers by their place
//! among the legal plugin answers.

use std::collections::HashSet;

use carcassonne_core::tile::{RotatedPart, NONE};
use carcassonne_core::{Action, DecisionKind, Game, Pos, NEUTRAL, NO_FEATURE};

/// Feature codes of the encoding: 0 nothing, then [`carcassonne_core::FeatureKind`] + 1.
const CLOSED: u8 = 7;
const FIELD: u8 = 3;
/// Channels before the figure channels.
pub const FIXED_CHANNELS: usize = 17;
/// Codes per part layout: 4 sides, 8 half-edges, the centre.
pub const PART_CODES: usize = 13;
/// Slots for plugin answers (the first ones of a decision's list).
pub const PLUGIN_SLOTS: usize = 64;
/// Values in the meta vector.
pub const META: usize = 7;
/// Faces a tile-placement slot tells apart.
const FACES: usize = 2;

/// The sizes of one game's encoding with window `w`.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub w: usize,
    pub players: usize,
    /// Figure kinds of the rule set.
    pub kinds: usize,
    /// Feature slots per cell: the most features of any tile part, plus "on the tile".
    pub feats: usize,
}

impl Layout {
    pub fn new(game: &Game, w: usize) -> Layout {
        let most = game.rules.catalog.flat.iter().map(|p| p.features.len()).max().unwrap_or(0);
        Layout { w, players: game.st.players, kinds: game.rules.figure_kinds.len(), feats: most + 1 }
    }
    pub fn channels(&self) -> usize {
        FIXED_CHANNELS + self.players * self.kinds
    }
    pub fn tile_slots(&self) -> usize {
        self.w * self.w * 4 * FACES
    }
    pub fn figure_slots(&self) -> usize {
        self.kinds * self.w * self.w * self.feats
    }
    pub fn pass_slot(&self) -> usize {
        self.tile_slots() + self.figure_slots()
    }
    pub fn actions(&self) -> usize {
        self.pass_slot() + 1 + PLUGIN_SLOTS
    }
}

/// Cell (0,0) of the window: the middle of the bounding box minus half the window.
pub fn origin(game: &Game, w: usize) -> Pos {
    let (x0, y0, x1, y1) = game.st.board.bounds;
    let half = (w / 2) as i32;
    Pos::new((x0 + x1).div_euclid(2) - half, (y0 + y1).div_euclid(2) - half)
}

fn cell(o: Pos, w: usize, p: Pos) -> Option<usize> {
    let (x, y) = (p.x - o.x, p.y - o.y);
    let w = w as i32;
    (x >= 0 && y >= 0 && x < w && y < w).then(|| (y * w + x) as usize)
}

/// The 13 codes of a rotated part: sides N E S W, half-edges Nw..Wn, centre.
pub fn part_codes(rp: &RotatedPart) -> [u8; PART_CODES] {
    let mut c = [0u8; PART_CODES];
    for (s, code) in c.iter_mut().take(4).enumerate() {
        *code = match rp.side_feature[s] {
            NONE if rp.closed & (1 << s) != 0 => CLOSED,
            NONE => FIELD,
            f => rp.features[f as usize].kind as u8 + 1,
        };
    }
    for h in 0..8 {
        c[4 + h] = if rp.half_feature[h] != NONE { FIELD } else { c[h / 2] };
    }
    c[12] = (0..rp.features.len()).find(|&i| rp.cloisters & (1 << i) != 0).map_or(0, |i| rp.features[i].kind as u8 + 1);
    c
}

/// The observation: board `(channels, w, w)`, drawn tile `(4, 13)` (its first part in each
/// rotation), meta `[turn, tiles left, decision, player, origin x, origin y, tile]`, scores
/// `(players,)`, supply `(players, kinds)`.
pub struct Observation {
    pub board: Vec<u8>,
    pub tile: Vec<u8>,
    pub meta: [i32; META],
    pub scores: Vec<i32>,
    pub supply: Vec<i32>,
}

pub fn observe(game: &Game, l: &Layout) -> Observation {
    let (st, rules) = (&game.st, &*game.rules);
    let w = l.w;
    let plane = w * w;
    let o = origin(game, w);
    let mut board = vec![0u8; l.channels() * plane];
    let this_turn = st.placed_parts();
    for (i, p) in st.board.parts.iter().enumerate() {
        let Some(c) = cell(o, w, p.pos) else { continue };
        board[c] = 1;
        if this_turn.contains(&(i as u32)) {
            board[plane + c] = 1;
        }
        for (k, v) in part_codes(&rules.catalog.flat[p.rp as usize]).into_iter().enumerate() {
            board[(2 + k) * plane + c] = v;
        }
    }
    let kind_named = |name: &str| rules.figure_kinds.iter().position(|k| k.name == name);
    let (dragon, fairy) = (kind_named("dragon"), kind_named("fairy"));
    for f in st.figures.iter().filter(|f| f.alive) {
        let Some(c) = cell(o, w, st.board.parts[f.part as usize].pos) else { continue };
        let ch = if f.owner == NEUTRAL {
            match Some(f.kind as usize) {
                k if k == dragon => 15,
                k if k == fairy => 16,
                _ => continue,
            }
        } else {
            FIXED_CHANNELS + f.owner as usize * l.kinds + f.kind as usize
        };
        let v = &mut board[ch * plane + c];
        *v = v.saturating_add(1);
    }
    let mut tile = vec![0u8; 4 * PART_CODES];
    if let Some(t) = st.tile {
        let part = &rules.catalog.tiles[t as usize].faces[0].parts[0];
        for r in 0..4 {
            tile[r * PART_CODES..(r + 1) * PART_CODES].copy_from_slice(&part_codes(&part.rotated[r]));
        }
    }
    let d = game.decision();
    let decision = match d.map(|d| d.kind) {
        None => 0,
        Some(DecisionKind::PlaceTile) => 1,
        Some(DecisionKind::Figure) => 2,
        Some(DecisionKind::Plugin { .. }) => 3,
    };
    let meta = [
        st.turn as i32,
        st.stack.len() as i32,
        decision,
        d.map_or(-1, |d| d.player as i32),
        o.x,
        o.y,
        st.tile.map_or(-1, |t| t as i32),
    ];
    let supply = (0..l.players).flat_map(|s| (0..l.kinds).map(move |k| st.supply[s][k] as i32)).collect();
    Observation { board, tile, meta, scores: game.scores().to_vec(), supply }
}

/// The slot of each legal action (`-1`: none, outside the window or a repeated slot).
pub fn slots(game: &Game, l: &Layout, legal: &[Action]) -> Vec<i64> {
    let w = l.w;
    let plane = w * w;
    let o = origin(game, w);
    let mut seen = HashSet::with_capacity(legal.len());
    let mut plugin = 0usize;
    legal
        .iter()
        .map(|a| {
            let slot = match *a {
                Action::PlaceTile { pos, rot, face } => cell(o, w, pos)
                    .filter(|_| (face as usize) < FACES)
                    .map(|c| (c * 4 + rot.quarters() as usize) * FACES + face as usize),
                Action::PlaceFigure { kind, feature, part } => {
                    let f = if feature == NO_FEATURE { l.feats - 1 } else { feature as usize };
                    cell(o, w, game.st.board.parts[part as usize].pos)
                        .filter(|_| f < l.feats)
                        .map(|c| l.tile_slots() + (kind as usize * plane + c) * l.feats + f)
                }
                Action::Pass => Some(l.pass_slot()),
                // A placement with a bridge (BRIDGE-3) has no slot in the fixed space.
                Action::PlaceTileVariant { .. } => None,
                Action::Plugin { .. } => {
                    plugin += 1;
                    (plugin <= PLUGIN_SLOTS).then(|| l.pass_slot() + plugin)
                }
            };
            match slot {
                Some(s) if seen.insert(s) => s as i64,
                _ => -1,
            }
        })
        .collect()
}
