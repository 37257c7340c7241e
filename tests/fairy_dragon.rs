//! Fairy & Dragon (2025): tile data, setup (FD-SETUP-1), the double tiles as start and
//! last river tile, plugin conflicts, and the dragon meeting the fairy on a tile that holds
//! other figures (FD-DRAGON-3), which a base game cannot build without the portal.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carcassonne_cli::builtin::{factories, load_rules_file};
use carcassonne_core::config::{disk_resolver, load_rules, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin};
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::{parse_action, replay};
use carcassonne_core::{Game, GameOptions, Pos, Rules, NEUTRAL};
use carcassonne_plugin_dragon_2025::DragonState;
use carcassonne_plugin_fairy_2025::FairyState;

fn rules(file: &str) -> Arc<Rules> {
    load_rules_file(file).unwrap().0
}

fn count(rules: &Rules, tiles: &[u16]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for &t in tiles {
        *m.entry(rules.catalog.tiles[t as usize].id.clone()).or_insert(0) += 1;
    }
    m
}

#[test]
fn the_tile_data_has_26_land_tiles_and_two_double_tiles() {
    let r = rules("config/fairy-dragon-river.toml");
    let cat = &r.catalog;
    let set = cat.set("fairy-dragon").unwrap();
    let singles: u32 = set.iter().map(|&t| cat.tile(t)).filter(|t| t.is_single()).map(|t| t.count).sum();
    assert_eq!(singles, 26);
    let marked =
        |m: &str| set.iter().map(|&t| cat.tile(t)).filter(|t| t.is_single() && t.markers & cat.marker(m) != 0).count();
    assert_eq!((marked("lair"), marked("dragon"), marked("portal")), (6, 10, 6));
    let spring = cat.tile(cat.id("FDSPRING").unwrap());
    assert_eq!(spring.faces.len(), 1);
    assert_eq!(spring.faces[0].parts.iter().map(|p| p.offset).collect::<Vec<_>>(), vec![(0, 0), (1, 0)]);
    let lake = cat.tile(cat.id("FDLAKE").unwrap());
    assert_eq!(lake.faces.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), vec!["F", "B"]);
    for face in &lake.faces {
        assert_eq!(face.parts.iter().map(|p| p.offset).collect::<Vec<_>>(), vec![(0, 0), (0, 1)]);
        // The lair is on the south half only (FD-LAIR-1 applies to that half).
        assert_eq!(face.parts[0].markers & cat.marker("lair"), 0);
        assert_ne!(face.parts[1].markers & cat.marker("lair"), 0);
    }
}

/// The Fairy & Dragon land tiles in play: 26, or 20 without the `portal` plugin (which
/// brings the 6 portal tiles).
fn fd_land(r: &Rules) -> usize {
    if r.plugin_index("portal").is_some() {
        26
    } else {
        20
    }
}

/// FD-SETUP-1 without the River: the lair, symbol and plain tiles (and the portal tiles of
/// the `portal` plugin) join the 71 base land tiles, 5 random ones leave unseen, and
/// neither double tile is used.
#[test]
fn five_random_land_tiles_leave_the_game_unseen() {
    let r = rules("config/fairy-dragon.toml");
    let setup = r.setup(2).unwrap();
    let all: Vec<u16> = setup.groups.iter().flat_map(|g| g.tiles.iter().chain(&g.last).copied()).collect();
    assert_eq!(all.len(), 71 + fd_land(&r));
    let full = count(&r, &all);
    assert!(!full.contains_key("FDSPRING") && !full.contains_key("FDLAKE"));
    assert_eq!(full.keys().filter(|k| k.starts_with("FDL")).count(), 6);
    assert_eq!(full.keys().filter(|k| k.starts_with("FDD")).count(), 10);
    assert_eq!(full.keys().filter(|k| k.starts_with("FDN")).count(), 4);
    assert_eq!(full.keys().filter(|k| k.starts_with("FDG")).count(), fd_land(&r) - 20);
    let mut removed_sets = Vec::new();
    for seed in 0..20 {
        let g = Game::new(r.clone(), 2, seed).unwrap();
        // The first tile is drawn already.
        let mut tiles = g.st.stack.clone();
        tiles.extend(g.st.tile);
        assert_eq!(tiles.len(), 71 + fd_land(&r) - 5, "seed {seed}");
        let left = count(&r, &tiles);
        let mut removed = Vec::new();
        for (id, n) in &full {
            for _ in 0..n - left.get(id).copied().unwrap_or(0) {
                removed.push(id.clone());
            }
        }
        assert_eq!(removed.len(), 5, "seed {seed}: {removed:?}");
        removed_sets.push(removed);
    }
    removed_sets.sort();
    removed_sets.dedup();
    assert!(removed_sets.len() > 15, "the removed tiles vary with the seed");
    // A forced draw order is played as given.
    let b = r.catalog.id("B").unwrap();
    let g = Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(vec![b; 7]), record: false })
        .unwrap();
    assert_eq!(g.st.stack.len() + 1, 7, "one drawn, none removed");
}

/// FD-SETUP-1 / FD-RIVER-1 with the River: the double spring is the start tile (two
/// cells), the River's tiles and its own lake are shuffled, the double lake comes last of
/// the river tiles, then the land tiles (D included) less 5.
#[test]
fn with_the_river_the_double_spring_starts_and_the_double_lake_ends_the_river() {
    let r = rules("config/fairy-dragon-river.toml");
    let id = |t: u16| r.catalog.tiles[t as usize].id.clone();
    let mut rv12_first = 0;
    for seed in 0..40 {
        let g = Game::new(r.clone(), 2, seed).unwrap();
        let b = &g.st.board;
        assert_eq!(b.len(), 2);
        assert_eq!(id(b.parts[0].tile), "FDSPRING");
        assert_eq!((b.parts[0].pos, b.parts[1].pos), (Pos::new(0, 0), Pos::new(1, 0)));
        // Draw order: the next tile is the last element; one tile is drawn already.
        let mut order: Vec<String> = g.st.tile.into_iter().map(id).collect();
        order.extend(g.st.stack.iter().rev().map(|&t| id(t)));
        assert_eq!(order.len(), 11 + 1 + 72 + fd_land(&r) - 5, "seed {seed}");
        let river: Vec<&String> = order[..12].iter().collect();
        assert!(river[..11].iter().all(|t| t.starts_with("RV")), "seed {seed}: {river:?}");
        assert_eq!(river[11], "FDLAKE");
        assert!(river.iter().any(|t| *t == "RV12") && !order.iter().any(|t| t == "RV1"));
        assert!(order[12..].iter().all(|t| !t.starts_with("RV") && !t.starts_with("FDLAKE")));
        assert!(order[12..].iter().any(|t| t == "D"), "the base start tile is a land tile");
        rv12_first += usize::from(river[0] == "RV12");
    }
    assert!(rv12_first > 0, "the River's lake is shuffled with the river tiles");
}

fn dummy(name: &'static str) -> PluginFactory {
    struct Nop;
    impl Plugin for Nop {
        fn name(&self) -> &str {
            "nop"
        }
        fn hooks(&self) -> Hooks {
            Hooks::NONE
        }
    }
    PluginFactory {
        name,
        summary: "test",
        requires: &[],
        conflicts: &[],
        build: |_| Ok((Box::new(Nop), serde_json::Value::Null)),
    }
}

/// The classic and the 2025 dragon (or fairy) in one rule set is a configuration error,
/// whichever factory declares the conflict.
#[test]
fn classic_and_2025_plugins_conflict() {
    let mut f = factories();
    // Stand-ins for the classic plugins when they are not built in (ignored when they are).
    f.push(dummy("dragon"));
    f.push(dummy("fairy"));
    let file = "config/test-fd-conflict.toml";
    let head = "[tiles]\nbase = \"tiles/base.toml\"\nfairy-dragon = \"tiles/fairy-dragon.toml\"\n\
                [[plugins]]\nname = \"base\"\n";
    for (classic, new) in [("dragon", "dragon-2025"), ("fairy", "fairy-2025")] {
        for order in [[classic, new], [new, classic]] {
            let text = format!("{head}[[plugins]]\nname = \"{}\"\n[[plugins]]\nname = \"{}\"\n", order[0], order[1]);
            let e = load_rules(file, &text, &disk_resolver(file), &f).unwrap_err().to_string();
            assert!(e.contains("conflicts with plugin"), "{e}");
            assert!(e.contains(&format!("'{classic}'")) && e.contains(&format!("'{new}'")), "{e}");
        }
    }
}

/// FD-DRAGON-3 on a tile with other figures: they are eaten, the fairy's follower and the
/// fairy stay, the dragon goes to that follower's owner, no second move.
#[test]
fn the_dragon_meeting_the_fairy_eats_the_other_figures_of_its_tile() {
    let text = std::fs::read_to_string("tests/scenarios/fd-dragon-meets-fairy.json").unwrap();
    let mut rec: GameRecord = serde_json::from_str(&text).unwrap();
    rec.expect = None;
    // Turns 1..5, and turn 6's tile placement (the pass would draw the symbol of turn 7).
    rec.turns.retain(|t| t.turn <= 6 && !t.actions.is_empty());
    let last = rec.turns.last_mut().unwrap();
    let pass = last.actions.pop().unwrap();
    for t in &mut rec.turns {
        t.expect = None;
    }
    let r = rules("config/fairy-dragon.toml");
    let mut g = replay(&rec, r.clone(), |_, _| Ok(())).unwrap();
    // Seat 1's farmer and a second figure of seat 0 join seat 0's monk and the fairy on
    // (1,0) (a portal could put them there).
    let follower = r.figure_kind("follower").unwrap();
    let part = g.st.part_at(Pos::new(1, 0)).unwrap();
    let field = (0..g.st.rotated(&r, part).features.len() as u8)
        .find(|&l| g.st.graph.node(g.st.node_of(part, l)).kind == carcassonne_core::FeatureKind::Field)
        .unwrap();
    let node = g.st.node_of(part, field);
    g.st.add_figure(&r, 1, follower, part, Some(node));
    g.st.add_figure(&r, 0, follower, part, None);
    let a = parse_action(&g, &pass).unwrap();
    g.try_play(a).unwrap();
    // Turn 7: the symbol FDD3 was drawn, the dragon moved W from (3,0) and met the fairy.
    assert_eq!(g.st.turn, 7);
    assert_eq!(g.decision().unwrap().kind, carcassonne_core::DecisionKind::PlaceTile);
    let on: Vec<(u8, String)> =
        g.st.figures_on(part)
            .map(|id| {
                let f = &g.st.figures[id as usize];
                (f.owner, r.figure_kinds[f.kind as usize].name.clone())
            })
            .collect();
    assert_eq!(on, vec![(0, "follower".to_string()), (NEUTRAL, "fairy".to_string())]);
    assert_eq!(g.st.supply[0][follower as usize], 6, "seat 0's extra figure went back");
    assert_eq!(g.st.supply[1][follower as usize], 7, "seat 1's monk on (2,0) and farmer went back");
    let di = r.plugin_index("dragon-2025").unwrap();
    let ds: &DragonState = g.st.plugin(di);
    assert_eq!((ds.figure, ds.holder, ds.moves_left), (None, Some(0), 0));
    let fi = r.plugin_index("fairy-2025").unwrap();
    let fs: &FairyState = g.st.plugin(fi);
    let (fairy, monk) = fs.fairy.unwrap();
    assert_eq!((g.st.figures[fairy as usize].part, g.st.figures[monk as usize].part), (part, part));
    assert_eq!(g.st.stats[r.stat("dragon_repelled_by_fairy").unwrap()], 1);
    assert_eq!(g.st.stats[r.stat("dragon_eaten").unwrap()], 3);
}

/// Seat 0's thief on U (1,0) and builder on D's part of that road (plus, optionally, a
/// second follower of seat 0 there); seat 1's farmer on U (2,0); the lair FDL1 at (1,1),
/// the dragon facing N; seat 1 draws the symbol FDD3: move 1 eats the thief on (1,0) and
/// stops there ((1,-1) is empty).
fn builder_game(second_follower: bool, builder_on_u: bool) -> Game {
    let file = "config/fairy-dragon.toml";
    let f = common::factories_with("builder", carcassonne_core::build_from_options::<common::TestBuilder>);
    let text = std::fs::read_to_string(file).unwrap() + "\n[[plugins]]\nname = \"builder\"\npriority = 60\n";
    let r = load_rules(file, &text, &disk_resolver(file), &f).unwrap();
    let order = ["U", "U", "FDL1", "FDD3"].map(|t| r.catalog.id(t).unwrap()).to_vec();
    let mut g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: false }).unwrap();
    let act = |g: &Game, v: serde_json::Value| parse_action(g, &v).unwrap();
    let a = act(&g, serde_json::json!({"type": "place_tile", "tile": "U", "cell": [1, 0], "rotation": 0}));
    g.try_play(a).unwrap();
    let a = act(&g, serde_json::json!({"type": "figure", "figure": "follower", "cell": [1, 0], "feature": "road:E+W"}));
    g.try_play(a).unwrap();
    let road = g.st.node_of(0, 1); // D: city, road, fields
    let (bpart, bnode) = if builder_on_u { (1, g.st.node_of(1, 0)) } else { (0, road) };
    g.st.add_figure(&r, 0, r.figure_kind("builder").unwrap(), bpart, Some(bnode));
    if second_follower {
        g.st.add_figure(&r, 0, r.figure_kind("follower").unwrap(), 0, Some(road));
    }
    let a = act(&g, serde_json::json!({"type": "place_tile", "tile": "U", "cell": [2, 0], "rotation": 0}));
    g.try_play(a).unwrap();
    let farmer =
        serde_json::json!({"type": "figure", "figure": "follower", "cell": [2, 0], "feature": "field:Nw+Ne+En+Wn"});
    let a = act(&g, farmer);
    g.try_play(a).unwrap();
    let a = act(&g, serde_json::json!({"type": "place_tile", "tile": "FDL1", "cell": [1, 1], "rotation": 0}));
    g.try_play(a).unwrap();
    g.try_play(carcassonne_core::Action::Pass).unwrap();
    g
}

fn alive(g: &Game, kind: &str) -> usize {
    let k = g.rules.figure_kind(kind).unwrap();
    g.st.figures.iter().filter(|f| f.alive && f.kind == k).count()
}

/// FD-DRAGON-2 (as PD-DRAGON-7): the 2025 dragon eats seat 0's last follower in the road;
/// its builder there, on a tile the dragon did not enter, returns too. (Then the dragon
/// sees only seat 1's farmer on (2,0), goes there and eats it.) With a second follower of
/// seat 0 on D the builder stays, and the dragon, seeing followers E and W, waits for seat
/// 1's choice.
#[test]
fn the_builder_leaves_with_the_last_follower_eaten() {
    let g = builder_game(false, false);
    assert_eq!(g.st.turn, 4);
    assert_eq!(g.decision().unwrap().kind, carcassonne_core::DecisionKind::PlaceTile);
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (0, 0));
    assert_eq!(g.st.supply[0][g.rules.figure_kind("builder").unwrap() as usize], 1);
    let g = builder_game(true, false);
    assert!(matches!(g.decision().unwrap().kind, carcassonne_core::DecisionKind::Plugin { .. }));
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (2, 1), "a second follower keeps the builder");
}

/// FD-DRAGON-2 as seed 001 says: the dragon removes followers; a builder on a tile it enters
/// stays while its owner keeps a follower in its feature (here on D, not entered), and
/// leaves with the owner's last follower otherwise.
#[test]
fn the_dragon_eats_followers_not_builders() {
    let g = builder_game(true, true);
    assert!(matches!(g.decision().unwrap().kind, carcassonne_core::DecisionKind::Plugin { .. }));
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (2, 1));
    let g = builder_game(false, true);
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (0, 0));
}
