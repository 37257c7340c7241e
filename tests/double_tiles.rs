//! Multi-cell tiles (NOTATION.md "double tile"): a tile of two parts is placed as one
//! action covering two cells, each half counting as a tile (FD-RIVER-1 groundwork).

use std::sync::Arc;

use carcassonne_core::{Action, Game, GameOptions, Pos, Rotation, Rules};

mod common;

/// Base tiles plus a 2x1 "double road" (W half: road E-W... both halves straight roads)
/// and a two-faced 1x2 tile.
fn rules() -> Arc<Rules> {
    common::base_with_tile_set(
        "double",
        r#"set = "double"
[[tiles]]
id = "DR/W"
count = 1
features = "road[E,W]; field[Nw,Ne,En,Wn]; field[Es,Se,Sw,Ws]"
[[tiles]]
id = "DR/E"
offset = [1, 0]
features = "road[W]; monastery[]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]"
[[tiles]]
id = "DL/F/N"
count = 1
features = "city[N]; field[En,Es,Se,Sw,Ws,Wn](adj=city#1)"
[[tiles]]
id = "DL/F/S"
offset = [0, 1]
features = "field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]"
markers = ["lair"]
[[tiles]]
id = "DL/B/N"
features = "city[N,E]; field[Se,Sw,Ws,Wn](adj=city#1)"
[[tiles]]
id = "DL/B/S"
offset = [0, 1]
features = "field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]"
"#,
    )
}

#[test]
fn a_double_tile_loads_with_its_parts_and_faces() {
    let r = rules();
    let dr = r.catalog.tile(r.catalog.id("DR").unwrap());
    assert_eq!(dr.faces.len(), 1);
    assert_eq!(dr.faces[0].parts.len(), 2);
    assert_eq!(dr.faces[0].parts[1].offset, (1, 0));
    let dl = r.catalog.tile(r.catalog.id("DL").unwrap());
    assert_eq!(dl.faces.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), vec!["F", "B"]);
    assert_ne!(dl.markers & r.catalog.marker("lair"), 0);
}

#[test]
fn a_double_tile_is_one_action_on_two_cells_and_each_half_counts() {
    let r = rules();
    let dr = r.catalog.id("DR").unwrap();
    let mut g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(vec![dr]), record: true }).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    // Start tile D: road E-W at (0,0). The double road's W half continues it east of (0,0)
    // at rotation 0: first half (1,0), second half (2,0).
    let a = Action::PlaceTile { pos: Pos::new(1, 0), rot: Rotation::from_quarters(0), face: 0 };
    assert!(legal.contains(&a), "{legal:?}");
    // Rotated by 180 the second half lies west of the first: first half at (-1,0) continues
    // D's road westwards, the monastery half at (-2,0).
    assert!(legal.contains(&Action::PlaceTile { pos: Pos::new(-1, 0), rot: Rotation::from_quarters(2), face: 0 }));
    // First half at (2,0) at 180 would put the monastery half at (1,0), its field side
    // against D's road: not offered.
    assert!(!legal.contains(&Action::PlaceTile { pos: Pos::new(2, 0), rot: Rotation::from_quarters(2), face: 0 }));
    // Every listed placement is legal by the checker, and no two are the same.
    for x in &legal {
        g.check(x).unwrap();
    }
    let mut dedup = legal.clone();
    dedup.sort_by_key(|a| format!("{a:?}"));
    dedup.dedup();
    assert_eq!(dedup.len(), legal.len());
    g.try_play(a).unwrap();
    assert_eq!(g.st.board.len(), 3);
    assert!(g.st.board.is_placed(Pos::new(2, 0)));
    // A thief on the road of (1,0): the road D(0,0)-(1,0)-(2,0) ends at the monastery
    // half's centre, open only at D's west end.
    g.legal_actions(&mut legal);
    let thief = legal.iter().copied().find(|x| g.describe(x)["feature"] == "road:E+W").unwrap();
    let monk = legal.iter().copied().find(|x| g.describe(x)["feature"] == "monastery");
    assert!(monk.is_some(), "the second half's monastery takes a monk");
    g.try_play(thief).unwrap();
    assert!(g.is_over());
    // Final scoring: the road covers 3 tiles (each half counts): 3 points.
    assert_eq!(g.scores(), &[3, 0]);
}

#[test]
fn a_blocked_second_half_makes_the_placement_illegal() {
    let r = rules();
    let dr = r.catalog.id("DR").unwrap();
    let g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(vec![dr]), record: false }).unwrap();
    // At rotation 180 with the first half at (1,0), the second half would lie on (0,0).
    let e = g.check(&Action::PlaceTile { pos: Pos::new(1, 0), rot: Rotation::from_quarters(2), face: 0 }).unwrap_err();
    assert!(e.0.contains("(0,0) already holds a tile"), "{e}");
}

/// The listing of a double tile's placements (by the parts' fit tables) and the checker
/// (side by side, with reasons) agree: at every double-tile decision of seeded random
/// games, a placement near the board (any face, any distinct rotation) is listed exactly
/// when the checker accepts it.
#[test]
fn listed_double_tile_placements_are_exactly_those_the_checker_accepts() {
    let r = rules();
    let (dr, dl) = (r.catalog.id("DR").unwrap(), r.catalog.id("DL").unwrap());
    let base: Vec<_> = r.catalog.sets.iter().find(|(s, _)| s == "base").unwrap().1.clone();
    let (mut listed_seen, mut refused_seen, mut decisions) = (0usize, 0usize, 0usize);
    for seed in 0..12u64 {
        let mut order = Vec::new();
        for i in 0..24 {
            order.extend([base[(i * 7 + seed as usize) % base.len()], dr, dl]);
        }
        let mut g =
            Game::start(r.clone(), GameOptions { players: 2, seed, tile_order: Some(order), record: false }).unwrap();
        let (mut legal, mut pick) = (Vec::new(), seed);
        while let Some(d) = g.decision() {
            g.legal_actions(&mut legal);
            let t = g.st.tile;
            if d.kind == carcassonne_core::DecisionKind::PlaceTile && (t == Some(dr) || t == Some(dl)) {
                decisions += 1;
                let tile = r.catalog.tile(t.unwrap());
                let (x0, y0, x1, y1) = g.st.board.bounds;
                for (fi, face) in tile.faces.iter().enumerate() {
                    for &rot in &face.distinct_rotations {
                        for x in x0 - 2..=x1 + 2 {
                            for y in y0 - 2..=y1 + 2 {
                                let a = Action::PlaceTile { pos: Pos::new(x, y), rot, face: fi as u8 };
                                let ok = g.check(&a).is_ok();
                                assert_eq!(legal.contains(&a), ok, "seed {seed}, turn {}: {a:?}", g.st.turn);
                                if ok {
                                    listed_seen += 1;
                                } else if !g.st.board.is_placed(Pos::new(x, y)) {
                                    refused_seen += 1;
                                }
                            }
                        }
                    }
                }
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let a = legal[(pick >> 33) as usize % legal.len()];
            g.try_play(a).unwrap();
        }
    }
    // The comparison saw many double-tile decisions, and placements both ways.
    assert!(decisions >= 100, "{decisions} decisions");
    assert!(listed_seen >= 500 && refused_seen >= 5000, "{listed_seen} listed, {refused_seen} refused");
}

/// RIVER-2 / FD-RIVER-1 on a two-part tile with a river on one face only: the river face
/// must join the placed river with an outer river side (its west mouth beside the spring
/// is allowed, the same face far from any tile is not); the face without a river is not
/// the river's to refuse.
#[test]
fn a_double_tile_face_without_a_river_is_never_refused_by_the_river() {
    let r = common::with_tile_set(
        &["base", "river"],
        "dw",
        r#"set = "dw"
[[tiles]]
id = "DW/F/N"
count = 1
features = "river[S,W]; field[Nw,Ne,En,Es,Se,Wn]; field[Sw,Ws]"
[[tiles]]
id = "DW/F/S"
offset = [0, 1]
features = "river[N](lake); field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]"
[[tiles]]
id = "DW/B/N"
features = "field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]"
[[tiles]]
id = "DW/B/S"
offset = [0, 1]
features = "field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]"
"#,
        &["base", "river"],
    );
    let dw = r.catalog.id("DW").unwrap();
    let g = Game::start(r.clone(), GameOptions { players: 2, seed: 1, tile_order: None, record: false }).unwrap();
    assert!(g.st.board.is_placed(Pos::new(0, 0)), "the spring starts the river at (0,0)");
    let at = |face: u8, x: i32, y: i32| carcassonne_core::TilePlacement {
        tile: dw,
        face,
        pos: Pos::new(x, y),
        rot: Rotation::from_quarters(0),
        variant: 0,
    };
    assert!(r.allow_tile(&g.st, &at(0, 1, 0)), "the west mouth meets the spring");
    assert!(!r.allow_tile(&g.st, &at(0, 6, 6)), "a river face beside nothing is refused");
    assert!(r.allow_tile(&g.st, &at(1, 6, 6)), "a face without a river is the river's to let be");
    assert!(r.allow_tile(&g.st, &at(1, 1, 0)));
}
