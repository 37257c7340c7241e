//! The board: a growable grid of cells holding placed tile parts, and the frontier
//! of empty cells next to them.

use crate::geometry::{Pos, Rotation, Side};
use crate::tile::TileTypeId;

/// A tile part lying on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedPart {
    pub pos: Pos,
    pub tile: TileTypeId,
    pub face: u8,
    /// Index of the part within its face (0 for single tiles).
    pub part: u8,
    pub rot: Rotation,
    /// Side kinds of the rotated part (see [`crate::tile::RotatedPart::signature`]).
    pub signature: u32,
    /// Node id of the part's first feature in the feature graph.
    pub node_base: u32,
    /// Index of the first part of the same tile (itself for single tiles).
    pub first: u32,
    /// Holds a cloister-like feature (monastery, garden).
    pub cloister: bool,
    /// Index of its rotated layout in [`crate::catalog::Catalog::flat`].
    pub rp: u32,
    /// Marker bits of the part (volcano, lair, portal, ...).
    pub markers: u32,
}

const EMPTY: u16 = 0;

/// Powers of 5 for [`need_code`] digits, by side.
const NEED_POW: [u16; 4] = [1, 5, 25, 125];
/// The [`need_code`] digit of each side kind (field, city, road, river, closed): a closed
/// side demands nothing (TILES-MORE.md rule 21).
const NEED_DIGIT: [u16; 8] = [1, 2, 3, 4, 0, 0, 0, 0];
/// What a part's side `s` showing side kind `k` adds to the [`need_code`] of the empty
/// cell beyond: the digit of `k` on that cell's side facing back ([`Side::opposite`]).
const NEED_ADD: [[u16; 8]; 4] = {
    let mut t = [[0u16; 8]; 4];
    let mut s = 0;
    while s < 4 {
        let back = (s + 2) % 4;
        let mut k = 0;
        while k < 8 {
            t[s][k] = NEED_DIGIT[k] * NEED_POW[back];
            k += 1;
        }
        s += 1;
    }
    t
};
/// Number of distinct need codes.
pub const NEED_CODES: usize = 625;

/// Encodes what an empty cell's neighbours demand: one base-5 digit per side
/// (0 = no neighbour, 1 + side kind otherwise).
pub fn need_code(sides: [Option<u32>; 4]) -> u16 {
    sides.iter().enumerate().map(|(s, k)| k.map_or(0, |k| (k as u16 + 1) * NEED_POW[s])).sum()
}

/// Whether a part with packed `signature` fits need code `code`.
pub fn fits(signature: u32, code: u16) -> bool {
    let mut c = code;
    for s in 0..4 {
        let d = (c % 5) as u32;
        c /= 5;
        let mine = (signature >> (8 * s)) & 0xFF;
        // A closed side fits anything (TILES-MORE.md rule 21).
        if d != 0 && mine != d - 1 && mine != crate::tile::SideKind::Closed as u32 {
            return false;
        }
    }
    true
}
const FRONTIER: u16 = 0x8000;

/// The offsets of the eight cells around a cell.
const RING: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];

/// Most tiles one game may have: cells hold 15-bit part and frontier indices, and a board
/// of n single-cell parts has at most 2n + 2 frontier cells (double tiles take two parts).
pub const MAX_TILES: usize = 8_000;

/// Farthest coordinate (|x| or |y|) any cell of a game can have: the start tile is at
/// (0,0), every later tile touches the board, and a tile's parts lie at most one cell from
/// its first part (at most 3 cells across), so `MAX_TILES` tiles reach no farther than
/// `3 * MAX_TILES`. Replay refuses cells beyond it (near `i32::MAX` they overflow
/// `Pos::step` and the grid index).
pub const MAX_COORD: i32 = 3 * MAX_TILES as i32;

/// Cells, placed parts and the frontier.
#[derive(Debug)]
pub struct Board {
    /// Grid index of cell (0,0) is (`ox`, `oy`); the grid is `w` x `w`.
    ox: i32,
    oy: i32,
    w: i32,
    /// 0 empty; `FRONTIER | i` frontier index i; otherwise placed-part index + 1.
    cells: Vec<u16>,
    pub parts: Vec<PlacedPart>,
    frontier: Vec<Pos>,
    /// Required side kinds of each frontier cell, as a [`need_code`].
    needs: Vec<u16>,
    /// Bounding box of placed cells (min x, min y, max x, max y).
    pub bounds: (i32, i32, i32, i32),
    /// Placed parts holding a cloister-like feature whose 8 neighbours are not all placed,
    /// with their cells (a `Vec`: inline storage, one heap block less per copy, measured
    /// 0.5 % slower games).
    open_cloisters: Vec<(u32, Pos)>,
}

/// Written out for `clone_from` (no allocation when copying into a scratch board).
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            ox: self.ox,
            oy: self.oy,
            w: self.w,
            cells: self.cells.clone(),
            parts: self.parts.clone(),
            frontier: self.frontier.clone(),
            needs: self.needs.clone(),
            bounds: self.bounds,
            open_cloisters: self.open_cloisters.clone(),
        }
    }

    fn clone_from(&mut self, source: &Board) {
        let Board { ox, oy, w, cells, parts, frontier, needs, bounds, open_cloisters } = source;
        (self.ox, self.oy, self.w, self.bounds) = (*ox, *oy, *w, *bounds);
        self.cells.clone_from(cells);
        self.parts.clone_from(parts);
        self.frontier.clone_from(frontier);
        self.needs.clone_from(needs);
        self.open_cloisters.clone_from(open_cloisters);
    }
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

impl Board {
    pub fn new() -> Self {
        let w = 32;
        Board {
            ox: w / 2,
            oy: w / 2,
            w,
            cells: vec![EMPTY; (w * w) as usize],
            parts: Vec::new(),
            frontier: Vec::new(),
            needs: Vec::new(),
            bounds: (0, 0, 0, 0),
            open_cloisters: Vec::new(),
        }
    }

    /// Makes room for `parts` placed parts (and a frontier to match).
    pub fn reserve(&mut self, parts: usize) {
        self.parts.reserve(parts);
        self.frontier.reserve(parts);
        self.needs.reserve(parts);
    }

    #[inline]
    fn index(&self, p: Pos) -> Option<usize> {
        // Wrapping, then one unsigned compare per axis: a negative or far cell (even at
        // ±2^31, e.g. asked by a plugin file) is outside, never an overflow.
        let gx = p.x.wrapping_add(self.ox) as u32;
        let gy = p.y.wrapping_add(self.oy) as u32;
        if gx >= self.w as u32 || gy >= self.w as u32 {
            None
        } else {
            Some(gy as usize * self.w as usize + gx as usize)
        }
    }

    /// The placed part at `p`.
    #[inline]
    pub fn part_at(&self, p: Pos) -> Option<u32> {
        let c = self.cells[self.index(p)?];
        if c == EMPTY || c & FRONTIER != 0 {
            None
        } else {
            Some(c as u32 - 1)
        }
    }

    /// What cell `p` demands of a part placed on it: its [`need_code`] (0 for an empty cell
    /// that touches no placed part: it demands nothing), or None when it holds a part.
    #[inline]
    pub fn need_at(&self, p: Pos) -> Option<u16> {
        let Some(ci) = self.index(p) else { return Some(0) };
        match self.cells[ci] {
            EMPTY => Some(0),
            c if c & FRONTIER != 0 => Some(self.needs[(c & !FRONTIER) as usize]),
            _ => None,
        }
    }

    #[inline]
    pub fn is_placed(&self, p: Pos) -> bool {
        self.part_at(p).is_some()
    }

    /// Calls `f` with each empty cell beside placed cell `p` whose four neighbours all hold
    /// parts (a hole: a cell becomes one only when a part is placed beside it).
    pub fn holes_beside(&self, p: Pos, mut f: impl FnMut(Pos)) {
        let Some(ci) = self.index(p).filter(|&ci| Self::holds(self.cells[ci])) else { return };
        // A placed cell has its neighbours' neighbours on the grid (`room_index`).
        let w = self.w as isize;
        let steps = [-w, 1, w, -1];
        for s in Side::ALL {
            let qi = (ci as isize + steps[s as usize]) as usize;
            if !Self::holds(self.cells[qi])
                && steps.iter().all(|&d| Self::holds(self.cells[(qi as isize + d) as usize]))
            {
                f(p.step(s));
            }
        }
    }

    /// Whether a cell's grid value holds a placed part.
    #[inline]
    fn holds(c: u16) -> bool {
        c != EMPTY && c & FRONTIER == 0
    }

    /// Empty cells that touch a placed part, in a deterministic order.
    pub fn frontier(&self) -> &[Pos] {
        &self.frontier
    }

    /// Frontier cells with the [`need_code`] of their placed neighbours.
    #[inline]
    pub fn frontier_needs(&self) -> impl Iterator<Item = (Pos, u16)> + '_ {
        self.frontier.iter().copied().zip(self.needs.iter().copied())
    }

    /// Removes and returns (through `f`) the parts with a cloister-like feature that the
    /// part just placed at `p` surrounded (itself included).
    pub fn take_surrounded(&mut self, p: Pos, mut f: impl FnMut(u32)) {
        // Within one cell of `p` on both axes (one unsigned compare each).
        let near = |q: Pos| (q.x - p.x + 1) as u32 <= 2 && (q.y - p.y + 1) as u32 <= 2;
        // Mostly no open cloister is near: one pass over the slice, then nothing.
        if !self.open_cloisters.iter().any(|&(_, q)| near(q)) {
            return;
        }
        let mut i = 0;
        while i < self.open_cloisters.len() {
            let (c, q) = self.open_cloisters[i];
            if near(q) && self.ring_count(q) == 8 {
                self.open_cloisters.swap_remove(i);
                f(c);
            } else {
                i += 1;
            }
        }
    }

    /// The [`need_code`] of each frontier cell, in frontier order.
    #[inline]
    pub fn frontier_codes(&self) -> &[u16] {
        &self.needs
    }

    /// Number of placed parts.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Puts a part on an empty cell; returns its index and the placed part on each side
    /// (by [`Side`] index; `u32::MAX` for none), read as the frontier is updated.
    pub fn place(&mut self, part: PlacedPart) -> (u32, [u32; 4]) {
        let mut around = [u32::MAX; 4];
        let p = part.pos;
        let ci = self.room_index(p);
        let idx = self.parts.len() as u32;
        let c = self.cells[ci];
        debug_assert!(c == EMPTY || c & FRONTIER != 0, "cell {p} already holds a tile");
        if c & FRONTIER != 0 {
            self.remove_frontier((c & !FRONTIER) as usize);
        }
        self.cells[ci] = (idx + 1) as u16;
        if part.cloister {
            self.open_cloisters.push((idx, p));
        }
        self.parts.push(part);
        // The neighbours' grid indices from this cell's, by side (room ensured: on the grid).
        let w = self.w as isize;
        let steps = [-w, 1, w, -1];
        for s in Side::ALL {
            let qi = (ci as isize + steps[s as usize]) as usize;
            debug_assert_eq!(Some(qi), self.index(p.step(s)));
            // The neighbour's side facing p must show what p shows on side s: digit 1 + kind
            // on that side; a closed side demands nothing of its neighbour (digit 0).
            let kind = (part.signature >> (8 * s as u32)) & 7;
            let add = NEED_ADD[s as usize][kind as usize];
            let c = self.cells[qi];
            if c == EMPTY {
                self.cells[qi] = FRONTIER | self.frontier.len() as u16;
                self.frontier.push(p.step(s));
                self.needs.push(add);
            } else if c & FRONTIER != 0 {
                self.needs[(c & !FRONTIER) as usize] += add;
            } else {
                around[s as usize] = c as u32 - 1;
            }
        }
        if self.parts.len() == 1 {
            self.bounds = (p.x, p.y, p.x, p.y);
        } else {
            let b = &mut self.bounds;
            *b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
        }
        (idx, around)
    }

    /// Changes what side `s` of placed part `part` shows to `kind` (a side kind as in
    /// signatures, e.g. a field side that a bridge turns into a road): its signature and
    /// the need code of the empty cell beyond follow.
    pub fn set_side(&mut self, part: u32, s: Side, kind: u32) {
        let p = &mut self.parts[part as usize];
        let shift = 8 * s as u32;
        let old = (p.signature >> shift) & 0xFF;
        p.signature = (p.signature & !(0xFF << shift)) | ((kind & 0xFF) << shift);
        let q = p.pos.step(s);
        let Some(qi) = self.index(q) else { return };
        let c = self.cells[qi];
        if c & FRONTIER != 0 {
            let back = NEED_POW[s.opposite() as usize];
            let need = &mut self.needs[(c & !FRONTIER) as usize];
            *need = *need - NEED_DIGIT[(old & 7) as usize] * back + NEED_DIGIT[(kind & 7) as usize] * back;
        }
    }

    fn remove_frontier(&mut self, i: usize) {
        self.frontier.swap_remove(i);
        self.needs.swap_remove(i);
        if i < self.frontier.len() {
            let moved = self.frontier[i];
            let mi = self.index(moved).expect("frontier cell on grid");
            self.cells[mi] = FRONTIER | i as u16;
        }
    }

    /// The grid index of `p`, the grid grown first if `p` or its neighbours' neighbours
    /// would not fit.
    #[inline]
    fn room_index(&mut self, p: Pos) -> usize {
        let (gx, gy) = (p.x + self.ox, p.y + self.oy);
        // 2 <= gx, gy < w - 2, one unsigned compare each.
        let room = (self.w - 4) as u32;
        if (gx - 2) as u32 >= room || (gy - 2) as u32 >= room {
            self.grow(p);
            return self.index(p).expect("grown to hold it");
        }
        (gy * self.w + gx) as usize
    }

    /// Doubles the grid until `p` and its neighbours' neighbours fit.
    #[cold]
    fn grow(&mut self, p: Pos) {
        loop {
            let gx = p.x + self.ox;
            let gy = p.y + self.oy;
            if gx >= 2 && gy >= 2 && gx < self.w - 2 && gy < self.w - 2 {
                return;
            }
            let nw = self.w * 2;
            let shift = self.w / 2;
            let mut cells = vec![EMPTY; (nw * nw) as usize];
            for y in 0..self.w {
                for x in 0..self.w {
                    cells[((y + shift) * nw + x + shift) as usize] = self.cells[(y * self.w + x) as usize];
                }
            }
            self.cells = cells;
            self.w = nw;
            self.ox += shift;
            self.oy += shift;
        }
    }

    /// Number of placed cells among the 8 around `p`.
    pub fn ring_count(&self, p: Pos) -> u32 {
        // Inside the grid with a cell to spare on each side: the eight cells at fixed
        // offsets from p's index (a held cell is neither empty nor a frontier mark).
        let (gx, gy) = (p.x.wrapping_add(self.ox) as u32, p.y.wrapping_add(self.oy) as u32);
        let w = self.w as u32;
        if gx.wrapping_sub(1) >= w - 2 || gy.wrapping_sub(1) >= w - 2 {
            // At the grid's edge or beyond (a plugin file may ask about any cell): each
            // neighbour looked up, wrapping rather than overflowing near ±2^31.
            let near = |(dx, dy): (i32, i32)| Pos::new(p.x.wrapping_add(dx), p.y.wrapping_add(dy));
            return RING.iter().filter(|&&d| self.is_placed(near(d))).count() as u32;
        }
        let (ci, w) = ((gy * w + gx) as usize, w as usize);
        let held = |i: usize| u32::from(self.cells[i].wrapping_sub(1) < FRONTIER - 1);
        let (above, below) = (ci - w, ci + w);
        held(above - 1)
            + held(above)
            + held(above + 1)
            + held(ci - 1)
            + held(ci + 1)
            + held(below - 1)
            + held(below)
            + held(below + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(x: i32, y: i32) -> PlacedPart {
        PlacedPart {
            pos: Pos::new(x, y),
            tile: 0,
            face: 0,
            part: 0,
            rot: Rotation::default(),
            signature: 0,
            node_base: 0,
            first: 0,
            cloister: false,
            rp: 0,
            markers: 0,
        }
    }

    #[test]
    fn frontier_follows_placements_and_growth() {
        let mut b = Board::new();
        b.place(part(0, 0));
        assert_eq!(b.frontier().len(), 4);
        // The new part's placed neighbours come back by side: only (0,0), to its west.
        let (idx, around) = b.place(part(1, 0));
        assert_eq!(idx, 1);
        for s in Side::ALL {
            assert_eq!(around[s as usize], if s == Side::W { 0 } else { u32::MAX }, "{s:?}");
        }
        assert_eq!(b.frontier().len(), 6);
        // What a cell demands: a placed cell none; a frontier cell its need code (here one
        // field neighbour to its west: digit 1 on the west side); a far cell nothing.
        assert_eq!(b.need_at(Pos::new(1, 0)), None);
        assert_eq!(b.need_at(Pos::new(2, 0)), Some(NEED_POW[Side::W as usize]));
        assert_eq!(b.need_at(Pos::new(9, 9)), Some(0));
        assert_eq!(b.need_at(Pos::new(i32::MAX, 0)), Some(0));
        for x in 2..40 {
            b.place(part(x, 0));
        }
        assert_eq!(b.frontier().len(), 2 * 40 + 2);
        assert_eq!(b.part_at(Pos::new(39, 0)), Some(39));
        assert!(b.frontier().iter().all(|&p| !b.is_placed(p)));
        assert_eq!(b.bounds, (0, 0, 39, 0));
    }

    #[test]
    fn holes_beside_a_placed_cell_are_empty_cells_with_four_placed_neighbours() {
        // A U of tiles around (0,0), open to the south: no hole until (0,1) is placed; then
        // (0,0) is one, beside (0,1) (and beside each of its other three neighbours).
        let mut b = Board::new();
        for (x, y) in [(-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0)] {
            b.place(part(x, y));
        }
        let holes = |b: &Board, p: Pos| {
            let mut v = Vec::new();
            b.holes_beside(p, |q| v.push(q));
            v
        };
        assert!(holes(&b, Pos::new(1, 0)).is_empty());
        b.place(part(0, 1));
        for p in [(0, 1), (0, -1), (-1, 0), (1, 0)] {
            assert_eq!(holes(&b, Pos::new(p.0, p.1)), vec![Pos::new(0, 0)], "beside {p:?}");
        }
        assert!(holes(&b, Pos::new(-1, -1)).is_empty(), "not beside a corner");
        // Not a placed cell: nothing.
        assert!(holes(&b, Pos::new(0, 0)).is_empty());
        b.place(part(0, 0));
        assert!(holes(&b, Pos::new(0, 1)).is_empty(), "filled");
    }

    #[test]
    fn ring_counts_the_placed_cells_around_any_cell() {
        // A cross of five tiles and one tile in a far corner (the grid grows to 64 x 64).
        let mut b = Board::new();
        for (x, y) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (20, 20)] {
            b.place(part(x, y));
        }
        assert_eq!(b.ring_count(Pos::new(0, 0)), 4);
        assert_eq!(b.ring_count(Pos::new(1, 1)), 3);
        assert_eq!(b.ring_count(Pos::new(-1, -1)), 3);
        assert_eq!(b.ring_count(Pos::new(2, 0)), 1);
        assert_eq!(b.ring_count(Pos::new(21, 21)), 1);
        assert_eq!(b.ring_count(Pos::new(5, 5)), 0);
        // Every cell, to the grid's edges and beyond, as the eight neighbours say.
        for y in -40..=40 {
            for x in -40..=40 {
                let p = Pos::new(x, y);
                let each = p.ring().iter().filter(|q| b.is_placed(**q)).count() as u32;
                assert_eq!(b.ring_count(p), each, "{p}");
            }
        }
        // Far cells, their neighbours wrapping instead of overflowing: none placed.
        for (x, y) in [(i32::MAX, i32::MIN), (i32::MIN, 0), (0, i32::MAX), (i32::MAX, i32::MAX)] {
            assert_eq!(b.ring_count(Pos::new(x, y)), 0, "({x}, {y})");
        }
    }

    #[test]
    fn far_cells_are_empty_not_an_overflow() {
        // A plugin file may ask `tile_at` of any i32 cell: it panicked in debug builds.
        let mut b = Board::new();
        b.place(part(0, 0));
        for (x, y) in [(i32::MAX, 0), (0, i32::MAX), (i32::MIN, 0), (0, i32::MIN), (i32::MAX, i32::MIN)] {
            assert_eq!(b.part_at(Pos::new(x, y)), None, "({x}, {y})");
        }
        assert_eq!(b.part_at(Pos::new(0, 0)), Some(0));
    }
}
