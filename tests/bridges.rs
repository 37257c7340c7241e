//! The bridges of Bridges, Castles & Bazaars (EXPANSIONS.md BRIDGE-1..4) and their
//! combination rules with the dragons, the portal and the fairies (seed 001): a scenario
//! per rule ID with exact legal moves and scores, worked out by hand; 3,000 random games
//! of `config/bridge.toml` checked after every action (followers and bridges conserved,
//! every bridge a road of its own tile joined only at its ends, every tile placed or
//! discarded, records replay).
//!
//! Tiles (TILES.md): D = city N, road E-W (the start tile at (0,0)); A = monastery with a
//! road S; B = monastery; U = road E-W; X = crossroads. Rotations turn clockwise: side s
//! of a tile turned by r lies at s + r.

mod common;

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::{Action, FeatureKind, Game, GameOptions, Pos, Rules, Side};
use carcassonne_plugin_bridge::BridgeState;
use common::{pass, place, play};
use serde_json::{json, Value};

fn rules() -> Arc<Rules> {
    load_rules_file("config/bridge.toml").unwrap().0
}

fn start(rules: &Arc<Rules>, players: usize, order: &[&str]) -> Game {
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules.clone(), GameOptions { players, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

fn legal(g: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out
}

/// The legal actions in record form, sorted (for exact comparisons).
fn described(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = legal(g).iter().map(|a| g.describe(a).to_string()).collect();
    v.sort();
    v
}

fn sorted(v: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|a| a.to_string()).collect();
    v.sort();
    v
}

/// A `place_tile` with a bridge (BRIDGE-3) on `bridge`, along `axis`.
fn place_with(tile: &str, x: i32, y: i32, rot: i32, bridge: (i32, i32), axis: &str) -> Value {
    let mut v = place(tile, x, y, rot);
    v["variant"] = json!({"plugin": "bridge", "bridge": [bridge.0, bridge.1], "axis": axis});
    v
}

fn bridge(x: i32, y: i32, axis: &str) -> Value {
    json!({"type": "plugin", "plugin": "bridge", "action": "place_bridge", "cell": [x, y], "axis": axis})
}

fn fig(x: i32, y: i32, feature: &str) -> Value {
    json!({"type": "figure", "figure": "follower", "cell": [x, y], "feature": feature})
}

fn me(g: &Game) -> usize {
    g.rules.plugin_index("bridge").unwrap()
}

fn bridges(g: &Game) -> &BridgeState {
    g.st.plugin::<BridgeState>(me(g))
}

fn part(g: &Game, x: i32, y: i32) -> u32 {
    g.st.part_at(Pos::new(x, y)).unwrap()
}

/// The road node on side `s` of the tile at (x, y).
fn road(g: &Game, x: i32, y: i32, s: Side) -> u32 {
    let n = g.st.side_node(&g.rules, part(g, x, y), s).unwrap();
    assert_eq!(g.st.graph.node(n).kind, FeatureKind::Road);
    g.st.graph.find(n)
}

fn followers_left(g: &Game, seat: usize) -> u8 {
    g.st.supply[seat][g.rules.figure_kind("follower").unwrap() as usize]
}

/// BRIDGE-1: 3 bridges per seat with 2-4 players, 2 with 5 (the base game seats at most
/// 5); the options change it and have ranges.
#[test]
fn bridge_1_pieces_per_seat() {
    let r = rules();
    for (players, n) in [(2, 3), (4, 3), (5, 2)] {
        let g = start(&r, players, &["B"]);
        assert_eq!(&bridges(&g).left[..players], &vec![n; players][..], "{players} players");
    }
    let (r, _) = common::rules_with("config/bridge.toml", &[("bridges", "1"), ("bridges_5_6", "4")]);
    assert_eq!(bridges(&start(&r, 3, &["B"])).left[..3], [1, 1, 1]);
    assert_eq!(bridges(&start(&r, 5, &["B"])).left[..5], [4; 5]);
    let bad = std::fs::read_to_string("config/bridge.toml").unwrap().replace("bridges = 3", "bridges = 21");
    let e = load_rules_text("config/bridge.toml", &bad).unwrap_err().to_string();
    assert!(e.contains("bridges") && e.contains("21"), "{e}");
}

/// BRIDGE-3: with only the start tile D, B (all fields) fits south of D plainly, and east
/// and west of D only with a W-E bridge on itself (its W or E side becomes the road end
/// that meets D's road): exactly three placements, and no discard (a plain one exists).
/// BRIDGE-4: the bridge joins D's road; a follower may go on it as a thief; B's field
/// joins both of D's fields under the bridge. The road closed by two A tiles counts each
/// of its 4 tiles once: 4 points to the thief.
#[test]
fn bridge_3_a_tile_placed_only_thanks_to_a_bridge() {
    let r = rules();
    let mut g = start(&r, 2, &["B", "A", "A"]);
    assert_eq!(
        described(&g),
        sorted(&[
            place("B", 0, 1, 0),
            place_with("B", 1, 0, 0, (1, 0), "W-E"),
            place_with("B", -1, 0, 0, (-1, 0), "W-E"),
        ])
    );
    play(&mut g, place_with("B", 1, 0, 0, (1, 0), "W-E"));
    assert_eq!(bridges(&g).left[..2], [2, 3], "the variant's bridge is seat 0's");
    // One bridge per turn: no BRIDGE-2 decision; the figure decision offers the bridge.
    assert_eq!(
        described(&g),
        sorted(&[fig(1, 0, "monastery"), fig(1, 0, "field:Nw+Ne+En+Es+Se+Sw+Ws+Wn"), fig(1, 0, "road:E+W"), pass()])
    );
    assert_eq!(road(&g, 1, 0, Side::W), road(&g, 0, 0, Side::E), "BRIDGE-4: the bridge joins D's road");
    let field = |g: &Game, x, y, local| g.st.graph.find(g.st.node_of(part(g, x, y), local));
    assert_eq!(field(&g, 0, 0, 2), field(&g, 0, 0, 3), "D's two fields meet B's field under the bridge");
    assert_eq!(field(&g, 1, 0, 1), field(&g, 0, 0, 2));
    play(&mut g, fig(1, 0, "road:E+W"));
    // Seat 1: A turned 90 (road W) east of B meets the bridge's end (B's E side shows a
    // road now: the frontier's need follows). BRIDGE-2: only a N-S bridge on A itself.
    play(&mut g, place("A", 2, 0, 90));
    assert_eq!(described(&g), sorted(&[bridge(2, 0, "N-S"), pass()]));
    play(&mut g, pass());
    play(&mut g, pass());
    // Seat 0 closes the road's west end with A turned 270 (road E): 4 tiles, 4 points.
    play(&mut g, place("A", -1, 0, 270));
    assert_eq!(described(&g), sorted(&[bridge(-1, 0, "N-S"), pass()]));
    play(&mut g, pass());
    play(&mut g, pass());
    assert_eq!(g.scores(), &[4, 0]);
    assert_eq!(followers_left(&g, 0), 7, "the thief returned");
    assert!(g.is_over());
}

/// BRIDGE-3 on the neighbour: A's road facing B's field side fits only with a W-E bridge
/// on B (its far end facing an empty cell). BRIDGE-4: that bridge joins the roads of the
/// two A tiles across B's field, which stays one field (D's south field, B's and both
/// A's); the road counts 3 tiles. The bridge is not on the tile just placed: no thief.
#[test]
fn bridge_4_a_bridge_joins_two_roads_across_a_field_without_splitting_it() {
    let r = rules();
    let mut g = start(&r, 2, &["B", "A", "A"]);
    play(&mut g, place("B", 0, 1, 0));
    // BRIDGE-2: on B only W-E (its N end would meet D's field); D has no two field sides
    // opposite each other.
    assert_eq!(described(&g), sorted(&[bridge(0, 1, "W-E"), pass()]));
    play(&mut g, pass());
    play(&mut g, pass());
    let variants: Vec<Value> =
        legal(&g).iter().filter(|a| matches!(a, Action::PlaceTileVariant { .. })).map(|a| g.describe(a)).collect();
    assert!(variants.contains(&place_with("A", 1, 1, 90, (0, 1), "W-E")), "{variants:?}");
    assert!(variants.contains(&place_with("A", -1, 1, 270, (0, 1), "W-E")), "{variants:?}");
    // Below B, A's road N would meet B's S side: a N-S bridge on B would end at D's field.
    assert!(!variants.iter().any(|v| v["cell"] == json!([0, 2]) && v["rotation"] == json!(180)), "{variants:?}");
    play(&mut g, place_with("A", 1, 1, 90, (0, 1), "W-E"));
    assert_eq!(
        described(&g),
        sorted(&[fig(1, 1, "monastery"), fig(1, 1, "road:W"), fig(1, 1, "field:Nw+Ne+En+Es+Se+Sw+Ws+Wn"), pass()])
    );
    play(&mut g, fig(1, 1, "road:W"));
    assert_eq!(road(&g, 0, 1, Side::E), road(&g, 1, 1, Side::W));
    assert_ne!(road(&g, 0, 1, Side::E), road(&g, 0, 0, Side::E), "the bridge joins nothing it crosses");
    play(&mut g, place("A", -1, 1, 270));
    assert_eq!(described(&g), sorted(&[bridge(-1, 1, "N-S"), pass()]));
    play(&mut g, pass());
    play(&mut g, pass());
    let field = |g: &Game, x, y, local| g.st.graph.find(g.st.node_of(part(g, x, y), local));
    assert_eq!(field(&g, 0, 1, 1), field(&g, 0, 0, 3), "B's field joins D's south field");
    assert_eq!(field(&g, 1, 1, 2), field(&g, -1, 1, 2), "one field on both sides of the bridge");
    assert_eq!(field(&g, 1, 1, 2), field(&g, 0, 1, 1));
    assert_eq!(g.scores(), &[0, 3], "3 tiles: A, B (with the bridge), A");
    assert!(g.is_over());
}

/// The board of the discard scenarios: D, A turned 90 east of it and A turned 270 west:
/// X (four roads) fits nowhere, but above or below each A with a N-S bridge on that A.
fn x_board(r: &Arc<Rules>, order: &[&str]) -> Game {
    let mut g = start(r, 2, order);
    play(&mut g, place("A", 1, 0, 90));
    if g.st.pending.is_empty() {
        play(&mut g, pass());
    } else {
        play(&mut g, pass());
        play(&mut g, pass());
    }
    play(&mut g, place("A", -1, 0, 270));
    while g.st.tile.is_none() && g.decision().is_some() && g.st.turn == 2 {
        play(&mut g, pass());
    }
    g
}

/// BRIDGE-3: X has no plain placement, four with a bridge: the player may place it so or
/// discard it (then draws again); BASE-4 discards it at once when no bridge is left.
#[test]
fn bridge_3_a_tile_placeable_only_with_a_bridge_may_be_discarded() {
    let r = rules();
    let mut g = x_board(&r, &["A", "A", "X", "X", "B"]);
    assert_eq!(g.st.turn, 3);
    let want = [
        place_with("X", 1, -1, 0, (1, 0), "N-S"),
        place_with("X", 1, 1, 0, (1, 0), "N-S"),
        place_with("X", -1, -1, 0, (-1, 0), "N-S"),
        place_with("X", -1, 1, 0, (-1, 0), "N-S"),
        pass(),
    ];
    assert_eq!(described(&g), sorted(&want));
    play(&mut g, pass());
    assert_eq!(g.st.discarded, 1, "discarded by choice");
    assert_eq!((g.st.turn, g.st.current), (3, 0), "the same player draws again");
    assert_eq!(described(&g), sorted(&want));
    play(&mut g, place_with("X", 1, 1, 0, (1, 0), "N-S"));
    assert_eq!(bridges(&g).left[..2], [2, 3]);
    // The bridge on A (1,0) joins X's N road; X's three other roads end at its centre.
    assert_eq!(road(&g, 1, 0, Side::S), road(&g, 1, 1, Side::N));
    // Record and replay: the variant and the discard are written and read back.
    while g.decision().is_some() {
        let a = legal(&g).into_iter().find(|a| matches!(a, Action::Pass)).unwrap_or_else(|| legal(&g)[0]);
        g.play_unchecked(a);
    }
    let mut rec = carcassonne_core::record::GameRecord::from_game(&g, "config/bridge.toml", None, 0);
    rec.tile_order = Some(["A", "A", "X", "X", "B"].iter().map(|s| s.to_string()).collect());
    let text = serde_json::to_string(&rec).unwrap();
    assert!(text.contains(r#""variant":{"axis":"N-S","bridge":[1,0],"plugin":"bridge"}"#), "{text}");
    assert!(text.contains(r#""discarded":["X"]"#), "{text}");
    let back: carcassonne_core::record::GameRecord = serde_json::from_str(&text).unwrap();
    let g2 = carcassonne_core::replay::replay_full(&back, r.clone()).unwrap();
    assert_eq!(g2.scores(), g.scores());
    assert_eq!(g2.st.discarded, 1);

    // Without bridges, BASE-4: X is discarded unseen by any decision, twice.
    let (r0, _) = common::rules_with("config/bridge.toml", &[("bridges", "0")]);
    let g = x_board(&r0, &["A", "A", "X", "X", "B"]);
    assert_eq!(g.st.discarded, 2);
    assert_eq!(g.rules.catalog.tile(g.st.tile.unwrap()).id, "B");
    // With `discard = false`, the tile must be placed.
    let (r1, _) = common::rules_with("config/bridge.toml", &[("discard", "false")]);
    let g = x_board(&r1, &["A", "A", "X", "X", "B"]);
    assert_eq!(described(&g), sorted(&want[..4]));
}

/// BRIDGE-2: a bridge in addition to the figure action, once per turn, on the tile just
/// placed or an orthogonal neighbour, along field sides, every end meeting a road or an
/// empty cell; at most one per tile; bridges run out.
#[test]
fn bridge_2_one_bridge_per_turn_beside_the_figure() {
    let (r, _) = common::rules_with("config/bridge.toml", &[("bridges", "1")]);
    let mut g = start(&r, 2, &["B", "B", "U"]);
    play(&mut g, place("B", 0, 1, 0));
    play(&mut g, bridge(0, 1, "W-E"));
    // Still the figure action, with the thief on the new bridge.
    assert_eq!(
        described(&g),
        sorted(&[fig(0, 1, "monastery"), fig(0, 1, "field:Nw+Ne+En+Es+Se+Sw+Ws+Wn"), fig(0, 1, "road:E+W"), pass()])
    );
    play(&mut g, fig(0, 1, "monastery"));
    assert_eq!(bridges(&g).left[..2], [0, 1]);
    // Seat 1: B east of B(0,1). Its W side faces the bridge's road: only with a bridge of
    // its own (W-E: the W end meets that road).
    assert_eq!(
        legal(&g).iter().filter(|a| matches!(a, Action::PlaceTile { pos, .. } | Action::PlaceTileVariant { pos, .. } if *pos == Pos::new(1, 1))).count(),
        1
    );
    play(&mut g, place_with("B", 1, 1, 0, (1, 1), "W-E"));
    assert!(g.st.pending.is_empty(), "one bridge per turn");
    play(&mut g, pass());
    assert_eq!(road(&g, 0, 1, Side::E), road(&g, 1, 1, Side::W));
    // Seat 0 has no bridge left: no bridge decision, straight to the figure step; a tile
    // U that needs no bridge fits west of B(0,1)'s road end (U is W-E).
    play(&mut g, place("U", -1, 1, 0));
    assert!(g.st.pending.is_empty(), "seat 0 has no bridge left");
    play(&mut g, pass());
    // The road U - bridge - bridge is open at both ends: incomplete, 3 tiles at the end,
    // nobody on it. Seat 0's monastery at (0,1): itself + D, B, U, B(1,1)... 5 tiles
    // around it at the end (D (0,0), U (-1,1), B (1,1) and its own, with (1,0), (-1,0),
    // (0,2), (1,2), (-1,2) empty): 1 + 3 = 4 points.
    assert!(g.is_over());
    assert_eq!(g.scores(), &[4, 0]);
}

/// After every action of a random game: followers and bridges conserved (BRIDGE-1), at
/// most one bridge per tile, each a road of its own tile on field sides turned road
/// (BRIDGE-2/4) and joined with the road of every placed tile at its ends, every road
/// counting each of its tiles once.
fn check_state(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    let turn = st.turn;
    let follower = r.figure_kind("follower").unwrap();
    for seat in 0..st.players {
        let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == follower).count();
        assert_eq!(on + st.supply[seat][follower as usize] as usize, 7, "followers of seat {seat}, turn {turn}");
    }
    let b = bridges(g);
    let per_seat = if st.players >= 5 { 2 } else { 3 };
    for seat in 0..st.players {
        let placed = b.bridges.iter().filter(|x| x.owner == seat as u8).count();
        assert_eq!(placed + b.left[seat] as usize, per_seat, "bridges of seat {seat}, turn {turn}");
    }
    assert_eq!(st.extra_features.len(), b.bridges.len());
    for (i, x) in b.bridges.iter().enumerate() {
        assert!(!b.bridges[..i].iter().any(|y| y.part == x.part), "two bridges on one tile, turn {turn}");
        let node = st.graph.node(x.node);
        assert_eq!((node.kind, node.part), (FeatureKind::Road, x.part));
        let pos = st.board.parts[x.part as usize].pos;
        let ends = if x.axis == 0 { [Side::N, Side::S] } else { [Side::E, Side::W] };
        for s in ends {
            assert_eq!(carcassonne_core::tile::signature_side(st.board.parts[x.part as usize].signature, s), 2);
            if let Some(n) = st.part_at(pos.step(s)) {
                let theirs = st.side_node(r, n, s.opposite()).expect("a road meets every bridge end");
                assert_eq!(st.graph.find(theirs), st.graph.find(x.node), "bridge end {s:?} at {pos}, turn {turn}");
            }
        }
    }
    for root in st.graph.roots().filter(|&n| st.graph.node(n).kind == FeatureKind::Road) {
        let mut parts: Vec<u32> = st.graph.members(root).map(|m| st.graph.node(m).part).collect();
        parts.sort_unstable();
        parts.dedup();
        assert_eq!(st.feature_tiles(root), parts.len() as u32, "a road counts each tile once");
    }
}

/// 3,000 random games of `config/bridge.toml` at 2 to 5 players, checked after every
/// action; every tenth replayed from its record.
#[test]
fn three_thousand_checked_games() {
    let (r, text) = load_rules_file("config/bridge.toml").unwrap();
    common::run_checked_games("config/bridge.toml", &r, &text, 3000, Some(72), 0, check_state);
    // Bridges are used: the variants and the decisions both happen in these games.
    let g = common::play_checked(&r, 2, 5, false, Some(72), check_state);
    assert!(g.st.stats[r.stat("bridges_placed").unwrap()] > 0);
}

/// A rule set file with the bridge plugin added.
fn with_bridges(file: &str) -> Arc<Rules> {
    let text = std::fs::read_to_string(file).unwrap() + "\n[[plugins]]\nname = \"bridge\"\npriority = 80\n";
    load_rules_text(file, &text).unwrap()
}

/// Seed 001 with Fairy & Dragon (2025): a bridge may lie on a lair tile (FD-LAIR-1 still
/// keeps every figure off it: no thief there); the portal takes a follower onto a bridge,
/// not onto the lair's; the dragon passes the bridge, eats the follower on it and leaves
/// the bridge.
#[test]
fn seed_001_the_2025_dragon_crosses_a_bridge_and_eats_its_follower_the_portal_and_the_lair() {
    let r = with_bridges("config/fairy-dragon.toml");
    let mut g = start(&r, 2, &["B", "FDL2", "FDG1", "FDD3", "B"]);
    play(&mut g, place_with("B", 1, 0, 0, (1, 0), "W-E"));
    play(&mut g, pass());
    // Seat 1: the lair FDL2 turned 90 (road W-E) east of B's bridge; a N-S bridge on it.
    play(&mut g, place("FDL2", 2, 0, 90));
    assert_eq!(described(&g), sorted(&[bridge(2, 0, "N-S"), pass()]));
    play(&mut g, bridge(2, 0, "N-S"));
    assert_eq!(described(&g), sorted(&[pass()]), "FD-LAIR-1: no thief on a lair's bridge");
    play(&mut g, pass());
    // The dragon is on the lair, facing its only neighbour (W). Seat 0: the portal tile
    // FDG1 south of D; through the portal onto B's bridge, not onto the lair's.
    play(&mut g, place("FDG1", 0, 1, 0));
    let figs = described(&g);
    assert!(figs.contains(&fig(1, 0, "road:E+W").to_string()), "{figs:?}");
    assert!(!figs.iter().any(|f| f.contains("[2,0]")), "{figs:?}");
    assert_eq!(figs.len(), 14, "D: 4 features, FDG1: 6, B: 3, and pass: {figs:?}");
    play(&mut g, fig(1, 0, "road:E+W"));
    // Seat 1 draws the dragon symbol FDD3: the dragon moves W to the end of the line,
    // (1,0) then (0,0), and eats the follower on B's bridge; the bridges stay.
    assert_eq!(followers_left(&g, 0), 7, "FD-DRAGON-2: eaten on the bridge");
    assert_eq!(bridges(&g).bridges.len(), 2);
    assert_eq!(g.st.extra_features.len(), 2);
    assert_eq!(road(&g, 1, 0, Side::W), road(&g, 0, 0, Side::E), "the bridge's road stays joined");
    assert_eq!(g.st.graph.followers(road(&g, 1, 0, Side::E)), 0);
    let orient = |face: &str| json!({"type": "plugin", "plugin": "dragon-2025", "action": "orient", "face": face});
    assert_eq!(described(&g), sorted(&[orient("E"), orient("S")]));
    play(&mut g, orient("S"));
    assert_eq!(g.scores(), &[0, 0]);
    assert_eq!(g.st.tile.map(|t| g.rules.catalog.tile(t).id.as_str()), Some("FDD3"));
}

/// Seed 001 with the classic fairy (PD-FAIRY-1/3): the fairy may join a follower on a
/// bridge, and pays 3 when that road scores. The road A - D - B (bridge) - A: 4 points
/// to the thief, 3 fairy points.
#[test]
fn seed_001_the_classic_fairy_joins_a_follower_on_a_bridge() {
    let base = std::fs::read_to_string("config/base.toml").unwrap();
    let text =
        base + "\n[[plugins]]\nname = \"fairy\"\npriority = 30\n\n[[plugins]]\nname = \"bridge\"\npriority = 80\n";
    let r = load_rules_text("config/base.toml", &text).unwrap();
    let mut g = start(&r, 2, &["B", "B", "A", "A"]);
    play(&mut g, place_with("B", 1, 0, 0, (1, 0), "W-E"));
    play(&mut g, fig(1, 0, "road:E+W"));
    play(&mut g, place("B", 0, 1, 0));
    play(&mut g, pass());
    play(&mut g, pass());
    // Seat 0: A turned 90 meets the bridge's E end; the fairy goes to the thief.
    play(&mut g, place("A", 2, 0, 90));
    play(&mut g, pass());
    let fairy = json!({"type": "plugin", "plugin": "fairy", "action": "move_fairy", "at": "(1,0) road:E+W", "next_to": "follower"});
    assert_eq!(
        described(&g),
        sorted(&[fairy.clone(), fig(2, 0, "field:Nw+Ne+En+Es+Se+Sw+Ws+Wn"), fig(2, 0, "monastery"), pass()])
    );
    play(&mut g, fairy);
    // Seat 1 closes the road's west end: 4 tiles, and the fairy's 3.
    play(&mut g, place("A", -1, 0, 270));
    play(&mut g, pass());
    play(&mut g, pass());
    assert!(g.is_over());
    assert_eq!(g.scores(), &[7, 0]);
    let fairy = r.source("fairy").unwrap() as usize;
    assert_eq!(g.st.points_by_source[0][fairy], 3);
}

/// Random games of the classic Princess & Dragon and of Fairy & Dragon (2025) with bridges,
/// checked as above: the dragons, fairies and portals meet bridges without breaking a
/// count, and records replay.
#[test]
fn checked_games_with_the_dragons_fairies_and_portals() {
    // P&D: 102 tiles (a dragon tile set aside before the first draw is not in the stack);
    // F&D: those in the stack after 5 left unseen, the start tile and the first draw.
    for (file, tiles) in [("config/princess-dragon.toml", Some(102)), ("config/fairy-dragon.toml", None)] {
        let r = with_bridges(file);
        let text = std::fs::read_to_string(file).unwrap() + "\n[[plugins]]\nname = \"bridge\"\npriority = 80\n";
        common::run_checked_games(file, &r, &text, 300, tiles, 100, check_state);
    }
}

fn step(x: i32, y: i32) -> Value {
    json!({"type": "plugin", "plugin": "dragon", "action": "step", "cell": [x, y]})
}

/// Seed 001 with the classic dragon (PD-DRAGON-5/6): a bridge may lie on a volcano tile
/// (no figure on it); the dragon steps onto a bridge's tile, eats the thief on the bridge
/// and leaves the bridge and its road.
#[test]
fn seed_001_the_classic_dragon_eats_a_follower_on_a_bridge() {
    let base = std::fs::read_to_string("config/base.toml").unwrap();
    let text = base
        + "\n[[plugins]]\nname = \"dragon\"\npriority = 20\n[plugins.options]\ntile_set = \"princess-dragon\"\n\n\
           [[plugins]]\nname = \"bridge\"\npriority = 80\n";
    let text = text.replace("[tiles]\n", "[tiles]\nprincess-dragon = \"tiles/princess-dragon.toml\"\n");
    let r = load_rules_text("config/base.toml", &text).unwrap();
    let mut g = start(&r, 2, &["B", "PDV5", "PDD7", "B"]);
    play(&mut g, place_with("B", 1, 0, 0, (1, 0), "W-E"));
    play(&mut g, fig(1, 0, "road:E+W"));
    // Seat 1: the volcano PDV5 (road W-E) east of the bridge; the dragon goes onto it. A
    // N-S bridge on the volcano would be allowed; no figure may go there.
    play(&mut g, place("PDV5", 2, 0, 0));
    assert_eq!(described(&g), sorted(&[bridge(2, 0, "N-S"), pass()]));
    play(&mut g, pass());
    assert_eq!(described(&g), sorted(&[pass()]));
    play(&mut g, pass());
    // Seat 0: the dragon tile PDD7 east of the volcano, a farmer on it; then the dragon.
    play(&mut g, place("PDD7", 3, 0, 0));
    play(&mut g, pass());
    play(&mut g, fig(3, 0, "field:Nw+Ne+En+Wn"));
    assert_eq!(followers_left(&g, 0), 5);
    assert_eq!(described(&g), sorted(&[step(1, 0), step(3, 0)]));
    play(&mut g, step(1, 0));
    assert_eq!(followers_left(&g, 0), 6, "PD-DRAGON-6: the thief on the bridge is eaten");
    assert_eq!(bridges(&g).bridges.len(), 1, "the bridge stays");
    assert_eq!(road(&g, 1, 0, Side::W), road(&g, 0, 0, Side::E));
    assert_eq!(road(&g, 1, 0, Side::E), road(&g, 2, 0, Side::W));
    assert_eq!(g.st.graph.followers(road(&g, 1, 0, Side::E)), 0);
    // Seat 1's step: only D is left unvisited beside the dragon; then it has no step.
    assert_eq!(described(&g), sorted(&[step(0, 0)]));
    play(&mut g, step(0, 0));
    assert_eq!(g.st.turn, 4);
    assert_eq!(g.scores(), &[0, 0]);
}

/// Seed 001 with the 2025 fairy (FD-FAIRY-1, `fairy_may_join`): seat 0 completes D's city
/// with nobody in it (no points) and may assign the fairy to its thief on a bridge.
#[test]
fn seed_001_the_2025_fairy_joins_a_follower_on_a_bridge() {
    let r = with_bridges("config/fairy-dragon.toml");
    let mut g = start(&r, 2, &["B", "B", "E", "B"]);
    play(&mut g, place_with("B", 1, 0, 0, (1, 0), "W-E"));
    play(&mut g, fig(1, 0, "road:E+W"));
    play(&mut g, place("B", 0, 1, 0));
    play(&mut g, pass());
    play(&mut g, pass());
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, pass());
    play(&mut g, pass());
    let assign = json!({"type": "plugin", "plugin": "fairy-2025", "action": "assign_fairy", "at": "(1,0) road:E+W"});
    assert_eq!(described(&g), sorted(&[assign.clone(), pass()]));
    play(&mut g, assign);
    let fairy = r.figure_kind("fairy").unwrap();
    let f = g.st.figures.iter().find(|f| f.alive && f.kind == fairy);
    assert!(f.is_some_and(|f| f.part == part(&g, 1, 0)), "the fairy stands with the thief");
    assert_eq!(g.scores(), &[0, 0]);
}
