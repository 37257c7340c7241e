//! Tile placement: the legal placements of a drawn tile (geometry, edge matching and the
//! plugins' vetoes), checking one placement with a reason, and placing a tile's parts on
//! the board and in the feature graph.

use crate::action::Action;
use crate::board::PlacedPart;
use crate::geometry::{half_mirror, Pos, Rotation, Side};
use crate::plugin::{Hooks, TilePlacement};
use crate::rules::Rules;
use crate::state::State;
use crate::tile::{sides_fit, signature_side, SideKind, TileFace, TileTypeId, FIT_CODES, NONE};

/// Cells of a tile's parts when its first part is at `pos` turned by `rot`.
fn part_cells(
    rules: &Rules,
    t: TileTypeId,
    face: u8,
    pos: Pos,
    rot: Rotation,
) -> impl Iterator<Item = (usize, Pos)> + '_ {
    let parts = &rules.catalog.tiles[t as usize].faces[face as usize].parts;
    parts.iter().enumerate().map(move |(i, p)| {
        let (dx, dy) = p.rotated[rot.quarters() as usize].offset;
        (i, Pos::new(pos.x + dx, pos.y + dy))
    })
}

/// Places every part of a tile and joins its features with the neighbours; records the
/// features it completed in `st.completed`.
pub(crate) fn place_parts(rules: &Rules, st: &mut State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) {
    let catalog = &rules.catalog;
    let tile = &catalog.tiles[t as usize];
    let first = st.board.len() as u32;
    let q = rot.quarters() as usize;
    // Roots of neighbouring features closed by this tile's closed sides (they may complete).
    let mut closed_around: Vec<u32> = Vec::new();
    for (i, part) in tile.faces[face as usize].parts.iter().enumerate() {
        let rp = &part.rotated[q];
        let cell = Pos::new(pos.x + rp.offset.0, pos.y + rp.offset.1);
        let node_base = st.graph.len() as u32;
        let seeds = catalog.part_seeds[part.flat as usize / 4];
        let (idx, around) = st.board.place(PlacedPart {
            pos: cell,
            tile: t,
            face,
            part: i as u8,
            rot,
            signature: rp.signature,
            node_base,
            first,
            cloister: rp.cloisters != 0,
            rp: part.flat + q as u32,
            markers: part.markers,
        });
        st.graph.add_seeds(idx, &catalog.node_seeds[seeds.start as usize..][..seeds.len as usize]);
        for s in Side::ALL {
            let n = around[s as usize];
            if n == u32::MAX {
                continue;
            }
            let other = &st.board.parts[n as usize];
            let (other_base, other_signature) = (other.node_base, other.signature);
            let orp = &catalog.flat[other.rp as usize];
            let os = s.opposite() as usize;
            let mine = rp.side_feature[s as usize];
            let theirs = orp.side_feature[os];
            if mine != NONE && theirs != NONE {
                st.graph.join(node_base + mine as u32, other_base + theirs as u32, 2);
                // A part that also opens onto this side (`also=X`) joins the city beyond
                // it too, closing its own opening there.
                let (my_also, their_also) = (rp.side_also[s as usize], orp.side_also[os]);
                if my_also != NONE {
                    st.graph.join(node_base + my_also as u32, other_base + theirs as u32, 1);
                }
                if their_also != NONE {
                    st.graph.join(node_base + mine as u32, other_base + their_also as u32, 1);
                }
            } else if mine != NONE && other_signature != orp.signature {
                // A neighbour whose sides a plugin changed (an added feature, e.g. a
                // bridge's end: `State::add_edge_feature`).
                if let Some(theirs) = st.side_node(rules, n, s.opposite()) {
                    if st.graph.node(theirs).kind == rp.features[mine as usize].kind {
                        st.graph.join(node_base + mine as u32, theirs, 2);
                    }
                }
            }
            // A closed side closes what meets it (TILES-MORE.md rule 21).
            if (rp.closed | orp.closed) != 0 {
                close_at_closed_side(&mut st.graph, s, (node_base, rp), (other_base, orp), &mut closed_around);
            }
            // The fields across the two half-edges (one join when both halves join the
            // same two fields, as on a side that is all field): each joined field half-edge
            // faces a tile now and is no longer open.
            let h = 2 * s as usize;
            let a = (rp.half_feature[h], orp.half_feature[half_mirror(h as u8) as usize]);
            let b = (rp.half_feature[h + 1], orp.half_feature[half_mirror(h as u8 + 1) as usize]);
            if a.0 != NONE && a.1 != NONE {
                st.graph.join(node_base + a.0 as u32, other_base + a.1 as u32, 2 << u32::from(b == a));
            }
            if b != a && b.0 != NONE && b.1 != NONE {
                st.graph.join(node_base + b.0 as u32, other_base + b.1 as u32, 2);
            }
        }
    }
    let end = st.board.len() as u32;
    st.placed = Some((first, end));
    st.completed.clear();
    for n in closed_around {
        let root = st.graph.find(n);
        if st.graph.open(root) == 0 && !st.completed.contains(&root) {
            st.completed.push(root);
        }
    }
    for idx in first..end {
        let p = st.board.parts[idx as usize];
        let mut edges = catalog.part_seeds[p.rp as usize / 4].edges;
        while edges != 0 {
            let local = edges.trailing_zeros();
            edges &= edges - 1;
            let root = st.graph.find(p.node_base + local);
            if st.graph.open(root) == 0 && !st.completed.contains(&root) {
                st.completed.push(root);
            }
        }
        // Cloisters on this cell or around it that are now surrounded.
        let mut done = [0u32; 9];
        let mut n = 0;
        st.board.take_surrounded(p.pos, |c| {
            done[n] = c;
            n += 1;
        });
        for &c in &done[..n] {
            let crp = st.rotated(rules, c);
            let base = st.board.parts[c as usize].node_base;
            let mut cloisters = crp.cloisters;
            while cloisters != 0 {
                let local = cloisters.trailing_zeros();
                cloisters &= cloisters - 1;
                let root = st.graph.find(base + local);
                if !st.completed.contains(&root) {
                    st.completed.push(root);
                }
            }
        }
    }
}

/// The closing of side `s` of a part (first node `mine.0`, layout `mine.1`) against its
/// neighbour's (`theirs`) when either side is closed (TILES-MORE.md rule 21): the road, city
/// or river that meets a closed side is closed, on either tile, whichever was placed first
/// (a neighbour's feature closed so is pushed onto `closed_around`: it may complete); the
/// field half-edges that face the closed side face a tile now (tile data gives a field to
/// every other half-edge off a city side: these are the only ones that meet no field).
#[cold]
#[inline(never)]
fn close_at_closed_side(
    graph: &mut crate::graph::Graph,
    s: Side,
    mine: (u32, &crate::tile::RotatedPart),
    theirs: (u32, &crate::tile::RotatedPart),
    closed_around: &mut Vec<u32>,
) {
    let ((my_base, rp), (their_base, orp)) = (mine, theirs);
    let os = s.opposite() as usize;
    let (my_side_closed, their_side_closed) = (rp.closed & (1 << s as u8) != 0, orp.closed & (1 << os) != 0);
    let (my_feature, their_feature) = (rp.side_feature[s as usize], orp.side_feature[os]);
    if my_feature != NONE && their_side_closed {
        graph.close(my_base + my_feature as u32, 1);
    }
    if their_feature != NONE && my_side_closed {
        closed_around.push(graph.close(their_base + their_feature as u32, 1));
    }
    let h = 2 * s as usize;
    let halves = if my_side_closed {
        let mirror = |h: usize| orp.half_feature[half_mirror(h as u8) as usize];
        [(their_base, mirror(h)), (their_base, mirror(h + 1))]
    } else if their_side_closed {
        [(my_base, rp.half_feature[h]), (my_base, rp.half_feature[h + 1])]
    } else {
        return;
    };
    for (base, local) in halves.into_iter().filter(|&(_, l)| l != NONE) {
        graph.close(base + local as u32, 1);
    }
}

/// Whether tile `t` has a legal placement now (geometry, edges and every plugin's veto):
/// for a plugin that hands out a tile itself and must know first whether it can be
/// placed (e.g. a tile won at a bazaar, BAZAAR-3, discarded when it fits nowhere).
pub fn has_placement(rules: &Rules, st: &State, t: TileTypeId) -> bool {
    tile_placements(rules, st, t, &mut Vec::new(), true)
}

/// Whether one-part tile `t` fits somewhere on the board (geometry and edges only, no veto:
/// the draw-time check of a tile whose vetoes forbade nothing).
pub(crate) fn fits_plain(rules: &Rules, st: &State, t: TileTypeId) -> bool {
    let tile = &rules.catalog.tiles[t as usize];
    debug_assert!(tile.is_single());
    let codes = st.board.frontier_codes();
    tile.faces.iter().any(|face| {
        // The count table of the face's rotations (no bound check: codes masked to its size).
        let fit_count = &rules.catalog.fit_counts[face.parts[0].flat as usize / 4];
        codes.iter().any(|&c| fit_count[c as usize & (FIT_CODES - 1)] != 0)
    })
}

/// Whether one-part tile `t`, with no veto to ask, has a placement: a plain one (by the
/// fit-count tables), else a plugin's variant (BASE-4's draw-time check, [`has_placement`]).
#[inline]
pub(crate) fn fits_unjudged(rules: &Rules, st: &State, t: TileTypeId) -> bool {
    fits_plain(rules, st, t) || (rules.uses(Hooks::PLACEMENT_VARIANTS) && widen(rules, st, t, &mut Vec::new(), 0))
}

/// Generates the legal placements of tile `t` into `out`; with `any`, stops at the first
/// and returns whether one exists.
pub(crate) fn tile_placements(rules: &Rules, st: &State, t: TileTypeId, out: &mut Vec<Action>, any: bool) -> bool {
    let tile = &rules.catalog.tiles[t as usize];
    let mut found = false;
    if tile.is_single() {
        let vetoes = rules.tile_has_vetoers(t) && !st.judged_at_draw(t);
        if !any {
            let from = out.len();
            found = plain_placements(rules, st, t, out);
            if vetoes {
                // The same order as generated: vetoed placements are dropped in place.
                rules.veto_tiles(st, t, out, from);
                found = out.len() > from;
            }
            if rules.uses(Hooks::PLACEMENT_VARIANTS) {
                return widen(rules, st, t, out, from);
            }
            return found;
        }
        if !vetoes {
            return fits_unjudged(rules, st, t);
        }
        // `any`: the first placement that fits and that every plugin allows.
        for (fi, face) in tile.faces.iter().enumerate() {
            for (pos, code) in st.board.frontier_needs() {
                let mut rots = face.parts[0].fit[code as usize];
                while rots != 0 {
                    let rot = Rotation::from_quarters(rots.trailing_zeros() as u8);
                    rots &= rots - 1;
                    if rules.allow_tile(st, &TilePlacement { tile: t, face: fi as u8, pos, rot, variant: 0 }) {
                        return true;
                    }
                }
            }
        }
        return rules.uses(Hooks::PLACEMENT_VARIANTS) && widen(rules, st, t, &mut Vec::new(), 0);
    }
    // Multi-part tiles: any part may land on a frontier cell, if it fits the cell's placed
    // neighbours (the part's rotations that fit the frontier's need code, from a table: a
    // quick test before the whole tile's).
    let mut local: Vec<Action> = Vec::new();
    for (fi, face) in tile.faces.iter().enumerate() {
        for (cell, code) in st.board.frontier_needs() {
            if face.parts.iter().fold(0, |m, p| m | p.fit[code as usize]) == 0 {
                continue;
            }
            for &rot in &face.distinct_rotations {
                for (pi, p) in face.parts.iter().enumerate() {
                    if p.fit[code as usize] & (1 << rot.quarters()) == 0 {
                        continue;
                    }
                    let (dx, dy) = p.rotated[rot.quarters() as usize].offset;
                    let anchor = Pos::new(cell.x - dx, cell.y - dy);
                    let a = Action::PlaceTile { pos: anchor, rot, face: fi as u8 };
                    if local.contains(&a) {
                        continue;
                    }
                    if parts_fit(st, face, pi, anchor, rot)
                        && rules
                            .allow_tile(st, &TilePlacement { tile: t, face: fi as u8, pos: anchor, rot, variant: 0 })
                    {
                        if any {
                            return true;
                        }
                        local.push(a);
                    }
                }
            }
        }
    }
    found |= !local.is_empty();
    let from = out.len();
    out.extend(local);
    // (With `any`, only reached when no plain placement exists.)
    if rules.uses(Hooks::PLACEMENT_VARIANTS) {
        return widen(rules, st, t, out, from);
    }
    found
}

/// Appends the plain placements of one-part tile `t` (every face, frontier cell and fitting
/// rotation, before any veto) to `out`; returns whether there is one.
pub(crate) fn plain_placements(rules: &Rules, st: &State, t: TileTypeId, out: &mut Vec<Action>) -> bool {
    let tile = &rules.catalog.tiles[t as usize];
    debug_assert!(tile.is_single());
    let mut found = false;
    for (fi, face) in tile.faces.iter().enumerate() {
        found |= push_fitting(st, face, fi as u8, out);
    }
    found
}

/// Appends the plugins' placement variants of tile `t` ([`Hooks::PLACEMENT_VARIANTS`],
/// [`Action::PlaceTileVariant`]) to `out`, whose plain placements start at `from`, and
/// runs the tile vetoes over them (one by one, through [`Rules::allow_tile`]);
/// returns whether `out[from..]` holds any placement. Reached only when a plugin widens
/// placements: the plain generation above is untouched otherwise.
#[cold]
#[inline(never)]
pub(crate) fn widen(rules: &Rules, st: &State, t: TileTypeId, out: &mut Vec<Action>, from: usize) -> bool {
    let start = out.len();
    rules.placement_variants(st, t, out);
    if out.len() > start && rules.tile_has_vetoers(t) {
        // Few candidates: every veto judges each one, the variant in view.
        let mut k = start;
        for j in start..out.len() {
            let a = out[j];
            if let Action::PlaceTileVariant { rot, face, variant, pos } = a {
                if rules.allow_tile(st, &TilePlacement { tile: t, face, pos, rot, variant }) {
                    out[k] = a;
                    k += 1;
                }
            }
        }
        out.truncate(k);
    }
    out.len() > from
}

/// Rotations in each fit mask, in ascending order, padded with zeros: four 16-bit slots
/// in one word (slot k in bits 16k..16k+16), written with one store per cell.
const ROT_LISTS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut m = 0;
    while m < 16 {
        let (mut n, mut r) = (0, 0);
        while r < 4 {
            if m & (1 << r) != 0 {
                t[m] |= (r as u64) << (16 * n);
                n += 1;
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// Set bits of each 4-bit fit mask (a table: `count_ones` is no single instruction on the
/// baseline x86-64 target).
const FIT_COUNT: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Appends every fitting placement of a single-part face. Whether a tile fits a cell is
/// unpredictable, so the first pass is branch-free: each cell writes four candidate slots
/// (cell index << 2 | rotation, one 64-bit store) to a small buffer and the write position
/// advances by the number of rotations that fit; the second pass turns the kept slots into
/// actions.
fn push_fitting(st: &State, face: &crate::tile::TileFace, fi: u8, out: &mut Vec<Action>) -> bool {
    const CHUNK: usize = 64;
    let frontier = st.board.frontier();
    let fit = &face.parts[0].fit;
    let start = out.len();
    // At most four placements per cell: room for all of them, so that the second pass
    // writes without a capacity check per action.
    out.reserve(4 * frontier.len());
    let mut len = start;
    // Slots are read only below the write position, after being written: not cleared.
    let mut buf = [std::mem::MaybeUninit::<u16>::uninit(); 4 * CHUNK + 4];
    for (ci, chunk) in frontier.chunks(CHUNK).enumerate() {
        let needs = &st.board.frontier_codes()[ci * CHUNK..ci * CHUNK + chunk.len()];
        let mut n = 0usize;
        for (i, &code) in needs.iter().enumerate() {
            let m = fit[code as usize] as usize & 15;
            // The cell index (<< 2) in each of the four slots.
            let slots = ROT_LISTS[m] | (i as u64 * 0x0004_0004_0004_0004);
            let w: &mut [std::mem::MaybeUninit<u16>; 4] = (&mut buf[n..n + 4]).try_into().expect("four slots");
            for (k, slot) in w.iter_mut().enumerate() {
                slot.write((slots >> (16 * k)) as u16);
            }
            n += FIT_COUNT[m] as usize;
        }
        let spare = &mut out.spare_capacity_mut()[..n];
        for (slot, e) in spare.iter_mut().zip(&buf[..n]) {
            // SAFETY: slots before the write position `n` were written in the pass above.
            let e = unsafe { e.assume_init() };
            slot.write(Action::PlaceTile {
                pos: chunk[(e >> 2) as usize],
                rot: Rotation::from_quarters((e & 3) as u8),
                face: fi,
            });
        }
        len += n;
        // SAFETY: the `n` spare slots after the old length were written just above (at most
        // four per cell: within the capacity reserved).
        unsafe { out.set_len(len) };
    }
    len > start
}

/// One legal placement of a one-part tile `t` chosen by index, the plain placements
/// counted, not listed (when no plugin forbids any of them): `pick(n)` gets the number of
/// choices (at least one) and returns an index below it. The choices are, in the order of
/// the legal-action list, the plain placements (faces, frontier cells, rotations:
/// [`tile_placements`]), then `tail` (the placement variants), then a pass if
/// `pass(plain count)` says so. `None` when there is no choice (or the index is out of
/// range).
pub(crate) fn counted_pick(
    rules: &Rules,
    st: &State,
    t: TileTypeId,
    tail: &[Action],
    pass: impl FnOnce(usize) -> bool,
    pick: impl FnOnce(usize) -> usize,
) -> Option<Action> {
    /// Cells per counted block, and most blocks counted (beyond them, a plain scan).
    const BLOCK: usize = 16;
    const MAX_BLOCKS: usize = 32;
    let tile = &rules.catalog.tiles[t as usize];
    let (frontier, codes) = (st.board.frontier(), st.board.frontier_codes());
    let blocks = codes.len().div_ceil(BLOCK);
    let keep = blocks * tile.faces.len() <= MAX_BLOCKS;
    let mut sums = [0u16; MAX_BLOCKS];
    let mut n = 0usize;
    for (fi, face) in tile.faces.iter().enumerate() {
        let fit_count = &rules.catalog.fit_counts[face.parts[0].flat as usize / 4];
        for (b, block) in codes.chunks(BLOCK).enumerate() {
            let s: usize = block.iter().map(|&c| fit_count[c as usize & (FIT_CODES - 1)] as usize).sum();
            if keep {
                sums[fi * blocks + b] = s as u16;
            }
            n += s;
        }
    }
    let pass = pass(n);
    let total = n + tail.len() + pass as usize;
    if total == 0 {
        return None;
    }
    let mut k = pick(total);
    if k >= n {
        k -= n;
        return match tail.get(k) {
            Some(a) => Some(*a),
            None => (pass && k == tail.len()).then_some(Action::Pass),
        };
    }
    for (fi, face) in tile.faces.iter().enumerate() {
        let fit_count = &rules.catalog.fit_counts[face.parts[0].flat as usize / 4];
        for b in 0..blocks {
            if keep {
                let s = sums[fi * blocks + b] as usize;
                if k >= s {
                    k -= s;
                    continue;
                }
            }
            let from = b * BLOCK;
            for (i, &c) in codes.iter().enumerate().skip(from).take(BLOCK) {
                // The count from the count table; the rotations only for the chosen cell.
                let here = fit_count[c as usize & (FIT_CODES - 1)] as usize;
                if k >= here {
                    k -= here;
                    continue;
                }
                let mut m = face.parts[0].fit[c as usize] & 15;
                for _ in 0..k {
                    m &= m - 1;
                }
                let rot = Rotation::from_quarters(m.trailing_zeros() as u8);
                return Some(Action::PlaceTile { pos: frontier[i], rot, face: fi as u8 });
            }
        }
    }
    None
}

/// Whether the parts of `face`, anchored at `anchor` and turned by `rot` (one of the face's
/// distinct rotations), fit the board by their fit tables: every part's cell is free and
/// fits what its placed neighbours show (a cell off the frontier demands nothing). For the
/// listing of multi-part placements, whose generating part (index `on_frontier`, not
/// tested again) lies on a frontier cell it fits (the tile touches the board); the
/// plugins' vetoes come after.
fn parts_fit(st: &State, face: &TileFace, on_frontier: usize, anchor: Pos, rot: Rotation) -> bool {
    let q = rot.quarters() as usize;
    face.parts.iter().enumerate().filter(|&(i, _)| i != on_frontier).all(|(_, p)| {
        let (dx, dy) = p.rotated[q].offset;
        let code = st.board.need_at(Pos::new(anchor.x + dx, anchor.y + dy));
        code.is_some_and(|code| p.fit[code as usize] & (1 << q) != 0)
    })
}

/// Most parts of a tile that [`tile_fits`] checks without allocating.
const FAST_PARTS: usize = 4;

/// Whether one tile placement is legal: the fast form of [`check_tile`] (no allocation,
/// no message). The listing of multi-part placements tests the same by the parts' fit
/// tables ([`parts_fit`]; `tests/double_tiles.rs` checks that the two agree).
fn tile_fits(rules: &Rules, st: &State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) -> bool {
    let Some(f) = rules.catalog.tiles[t as usize].faces.get(face as usize) else {
        return false;
    };
    let n = f.parts.len();
    if n > FAST_PARTS {
        return check_tile_slow(rules, st, t, face, pos, rot).is_ok();
    }
    let q = rot.quarters() as usize;
    let mut cells = [Pos::default(); FAST_PARTS];
    for (c, p) in cells.iter_mut().zip(&f.parts) {
        let (dx, dy) = p.rotated[q].offset;
        *c = Pos::new(pos.x + dx, pos.y + dy);
    }
    let cells = &cells[..n];
    let mut touches = false;
    for (i, &cell) in cells.iter().enumerate() {
        if st.board.is_placed(cell) {
            return false;
        }
        let sig = f.parts[i].rotated[q].signature;
        for s in Side::ALL {
            let nb = cell.step(s);
            if cells.contains(&nb) {
                continue;
            }
            let Some(o) = st.board.part_at(nb) else {
                continue;
            };
            touches = true;
            if !sides_fit(signature_side(sig, s), signature_side(st.board.parts[o as usize].signature, s.opposite())) {
                return false;
            }
        }
    }
    touches && rules.allow_tile(st, &TilePlacement { tile: t, face, pos, rot, variant: 0 })
}

/// Checks one tile placement and says why it is illegal.
pub fn check_tile(rules: &Rules, st: &State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) -> Result<(), String> {
    if tile_fits(rules, st, t, face, pos, rot) {
        return Ok(());
    }
    check_tile_slow(rules, st, t, face, pos, rot)
}

/// [`check_tile`] with the reason of an illegal placement.
fn check_tile_slow(rules: &Rules, st: &State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) -> Result<(), String> {
    let tile = &rules.catalog.tiles[t as usize];
    let Some(f) = tile.faces.get(face as usize) else {
        return Err(format!("tile {} has no face {face}", tile.id));
    };
    let cells: Vec<(usize, Pos)> = part_cells(rules, t, face, pos, rot).collect();
    let mut touches = false;
    for &(i, cell) in &cells {
        if st.board.is_placed(cell) {
            return Err(format!("cell {cell} already holds a tile"));
        }
        let sig = f.parts[i].rotated[rot.quarters() as usize].signature;
        for s in Side::ALL {
            let q = cell.step(s);
            if cells.iter().any(|&(_, c)| c == q) {
                continue;
            }
            let Some(n) = st.board.part_at(q) else {
                continue;
            };
            touches = true;
            let theirs = signature_side(st.board.parts[n as usize].signature, s.opposite());
            let mine = signature_side(sig, s);
            if !sides_fit(mine, theirs) {
                return Err(format!(
                    "tile {} at {cell} rotation {}: side {} shows {} but the tile at {q} shows {}",
                    tile.id,
                    rot.degrees(),
                    s.name(),
                    side_kind_name(mine),
                    side_kind_name(theirs)
                ));
            }
        }
    }
    if !touches {
        return Err(format!("tile {} at {pos} touches no placed tile", tile.id));
    }
    if let Some((p, reason)) = rules.tile_veto_with_reason(st, &TilePlacement { tile: t, face, pos, rot, variant: 0 }) {
        let why = reason.map_or_else(String::new, |r| format!(": {r}"));
        return Err(format!("tile {} at {pos} rotation {} is forbidden by plugin '{p}'{why}", tile.id, rot.degrees()));
    }
    Ok(())
}

fn side_kind_name(k: u32) -> &'static str {
    [SideKind::Field, SideKind::City, SideKind::Road, SideKind::River, SideKind::Closed]
        .get(k as usize)
        .map_or("?", |s| s.name())
}
