//! The feature graph's open count of a field (`Graph::open` of a field root) is the number
//! of the field's half-edges that face no placed tile: the count SHEPHERD-5's closed
//! field is read from. Checked against a walk of every field at every decision of random
//! games, on rule sets with closed sides (the abbey's, TILES-MORE.md rule 21), double
//! tiles, bridges that change a side, the river and the hills.

use std::cell::Cell;
use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::geometry::Side;
use carcassonne_core::rules::Rules;
use carcassonne_core::tile::TileTypeId;
use carcassonne_core::{FeatureKind, GameOptions, State};

mod common;

/// Half-edges of the field of `root` that face an empty cell, counted member by member.
fn open_halves(rules: &Rules, st: &State, root: u32) -> u32 {
    let mut open = 0;
    for m in st.graph.members(root) {
        let node = st.graph.node(m);
        let pos = st.board.parts[node.part as usize].pos;
        let halves = st.rotated(rules, node.part).features[node.local as usize].halves;
        for h in (0..8).filter(|h| halves & (1 << h) != 0) {
            open += u32::from(st.part_at(pos.step(Side::ALL[h / 2])).is_none());
        }
    }
    open
}

/// Compares the two for every field at every decision of `games` random games; returns
/// how many fields were closed when compared (at least some must be).
fn compare(file: &str, games: u64) -> usize {
    compare_rules(&load_rules_file(file).unwrap().0, file, games, |_| None)
}

/// [`compare`] with rule set `rules` (named `file` in messages), `order(seed)` the draw
/// order of a game (None: shuffled stacks).
fn compare_rules(rules: &Arc<Rules>, file: &str, games: u64, order: impl Fn(u64) -> Option<Vec<TileTypeId>>) -> usize {
    let closed = Cell::new(0);
    for seed in 1..=games {
        let opts = GameOptions { players: 2, seed, tile_order: order(seed), record: false };
        common::play_checked_with(rules, opts, None, |g| {
            let st = &g.st;
            for root in st.graph.roots().filter(|&r| st.graph.node(r).kind == FeatureKind::Field) {
                let want = open_halves(rules, st, root);
                assert_eq!(st.graph.open(root), want, "{file} seed {seed} turn {} field {root}", st.turn);
                closed.set(closed.get() + usize::from(want == 0));
            }
        });
    }
    closed.get()
}

#[test]
fn a_fields_open_count_is_its_half_edges_facing_no_tile() {
    for file in ["config/base.toml", "config/classic-everything.toml", "config/2025-everything.toml"] {
        let closed = compare(file, 6);
        assert!(closed > 100, "{file}: only {closed} closed fields seen");
    }
}

/// Land tiles with a closed side (TILES-MORE.md rule 21) among the base tiles: a field
/// half-edge placed against a closed side faces a tile, and so does a field half-edge of
/// such a tile when a tile comes beside it; neither meets a field to join.
#[test]
fn a_field_half_edge_against_a_closed_side_is_not_open() {
    let rules = common::base_with_tile_set(
        "closed",
        r#"set = "closed"
[[tiles]]
id = "CN"
count = 12
features = "field[En,Es,Se,Sw,Ws,Wn]"
closed_sides = ["N"]
[[tiles]]
id = "CE"
count = 12
features = "road[S,W]; field[Nw,Ne,Se,Wn]; field[Sw,Ws]"
closed_sides = ["E"]
"#,
    );
    // The base tiles with a closed-side tile after every second one (the base plugin puts
    // only its own set in the stack: the order is given).
    let set = |name: &str| rules.catalog.sets.iter().find(|(s, _)| s == name).unwrap().1.clone();
    let (base, closed_tiles) = (set("base"), set("closed"));
    let order = |seed: u64| {
        let mut order = Vec::new();
        for i in 0..40 {
            order.push(base[(i * 7 + seed as usize) % base.len()]);
            if i % 2 == 1 {
                order.push(closed_tiles[(i / 2 + seed as usize) % closed_tiles.len()]);
            }
        }
        Some(order)
    };
    let closed = compare_rules(&rules, "closed sides", 12, order);
    assert!(closed > 100, "only {closed} closed fields seen");
}
