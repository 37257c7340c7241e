//! The tower, barn and castle plugins (EXPANSIONS.md TOWER-*, BARN-*, CASTLE-*; RULES.md
//! COMBO-TOWER, COMBO-BARN, COMBO-CASTLE) beyond the scenarios in tests/scenarios/
//! (tower-*, barn-*, castle-*, combo-*): rule-ID coverage, tile data and editions, pieces
//! per player count, the portal with watchmen, barns and castles, `castle-base=false`,
//! extra score sources, and `simulate`'s statistics.

mod common;
use common::{pass, place, play};

mod simulate_util;

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::{Game, GameOptions, Rules};
use carcassonne_plugin_castle::CastleState;
use carcassonne_plugin_tower::TowerState;
use serde_json::{json, Value};

/// Every rule ID of the three expansions and of their combination rules.
fn rule_ids() -> Vec<String> {
    let mut v: Vec<String> = (1..=5).map(|i| format!("TOWER-{i}")).collect();
    v.extend((1..=5).map(|i| format!("BARN-{i}")));
    v.extend((1..=4).map(|i| format!("CASTLE-{i}")));
    v.extend(["COMBO-TOWER", "COMBO-BARN", "COMBO-CASTLE"].map(String::from));
    v
}

/// Rule IDs checked by the Rust tests of this file (the scenarios name their own).
const COVERED_HERE: &[&str] = &["TOWER-1", "CASTLE-1", "CASTLE-2", "COMBO-TOWER", "COMBO-BARN", "COMBO-CASTLE"];

#[test]
fn every_tower_barn_castle_and_combo_rule_id_has_a_test() {
    let mut covered = common::scenario_rule_ids();
    covered.extend(COVERED_HERE.iter().map(|s| s.to_string()));
    let missing: Vec<String> = rule_ids().into_iter().filter(|id| !covered.contains(id)).collect();
    assert!(missing.is_empty(), "rule IDs without a test: {missing:?}");
}

/// A rule set of the base game and `plugins` (name, priority) with the tile sets they need.
fn rules(plugins: &[(&str, i64)]) -> Arc<Rules> {
    let mut text = String::from(
        "name = \"combo-test\"\n[tiles]\nbase = \"tiles/base.toml\"\nprincess-dragon = \"tiles/princess-dragon.toml\"\n\
         tower = \"tiles/tower.toml\"\n[[plugins]]\nname = \"base\"\n",
    );
    for (name, priority) in plugins {
        text.push_str(&format!("[[plugins]]\nname = \"{name}\"\npriority = {priority}\n"));
    }
    load_rules_text("config/combo-test.toml", &text).unwrap()
}

fn start(rules: &Arc<Rules>, players: usize, order: &[&str]) -> Game {
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules.clone(), GameOptions { players, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

fn legal(g: &Game) -> Vec<Value> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| g.describe(a)).collect()
}

fn stat(g: &Game, name: &str) -> i64 {
    g.st.stats[g.rules.stat(name).unwrap()]
}

#[test]
fn tower_tile_data_has_18_tiles_and_edition_1_swaps_the_garden_tiles() {
    let r = rules(&[("tower", 60)]);
    let cat = &r.catalog;
    let set = cat.set("tower").unwrap();
    assert_eq!(set.iter().map(|&t| cat.tile(t).count).sum::<u32>(), 18);
    assert!(set.iter().all(|&t| cat.tile(t).markers & cat.marker("tower") != 0));
    // TO1: the road crosses the city on a bridge; the city is one feature, four fields.
    let to1 = &cat.tile(cat.id("TO1").unwrap()).faces[0].parts[0].features;
    assert_eq!(to1.len(), 6);
    let setup = |text: &str| {
        let r = load_rules_text("config/tower.toml", text).unwrap();
        let s = r.setup(2).unwrap();
        s.groups.iter().flat_map(|g| g.tiles.clone()).map(|t| r.catalog.tile(t).id.clone()).collect::<Vec<_>>()
    };
    let text = std::fs::read_to_string("config/tower.toml").unwrap();
    let c2 = setup(&text);
    assert_eq!(c2.len(), 71 + 18);
    assert!(c2.contains(&"TO5".into()) && c2.contains(&"TO9".into()) && !c2.contains(&"TO9c1".into()));
    let c1 = setup(&text.replace("edition = 2", "edition = 1"));
    assert!(c1.contains(&"TO5c1".into()) && c1.contains(&"TO9c1".into()) && !c1.contains(&"TO5".into()));
}

/// TOWER-1: 10, 9, 7, 6 pieces for 2..5 players (5 for 6); a seat without pieces builds
/// nothing. CASTLE-1: 3 castles with 2-4 players, 2 with 5 (and 6).
#[test]
fn pieces_and_castle_tokens_per_player_count() {
    let r = rules(&[("tower", 60), ("castle", -10)]);
    let (t, c) = (r.plugin_index("tower").unwrap(), r.plugin_index("castle").unwrap());
    for (players, pieces, tokens) in [(2, 10, 3), (3, 9, 3), (4, 7, 3), (5, 6, 2)] {
        let g = Game::new(r.clone(), players, 1).unwrap();
        let s = g.st.plugin::<TowerState>(t);
        assert!(s.pieces[..players].iter().all(|&p| p == pieces), "{players} players");
        assert!(g.st.plugin::<CastleState>(c).tokens[..players].iter().all(|&x| x == tokens));
    }
    assert_eq!(carcassonne_plugin_tower::PIECES[6], 5);
    assert_eq!(carcassonne_plugin_castle::TOKENS[6], 2);

    let mut g = start(&r, 2, &["TO9", "U"]);
    play(&mut g, place("TO9", 0, 1, 0));
    assert!(legal(&g).iter().any(|a| a["action"] == "build_tower"));
    g.st.plugin_mut::<TowerState>(t).pieces[0] = 0;
    assert!(!legal(&g).iter().any(|a| a["action"] == "build_tower"), "no piece left: no building");
}

/// CASTLE-1: without a castle token, the completed small city is scored as usual.
#[test]
fn no_castle_without_a_token() {
    let r = rules(&[("castle", -10)]);
    let c = r.plugin_index("castle").unwrap();
    let mut g = start(&r, 2, &["E"]);
    g.st.plugin_mut::<CastleState>(c).tokens[0] = 0;
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, json!({"type": "figure", "figure": "follower", "cell": [0, -1], "feature": "city:S"}));
    assert!(g.is_over());
    assert_eq!(g.scores(), &[4, 0]);
}

/// CASTLE-2: a city part marked `castle-base=false` (PDP2's princess cap) is no castle base.
#[test]
fn castle_base_false_gives_no_castle() {
    let r = rules(&[("castle", -10), ("princess", 50)]);
    let mut g = start(&r, 2, &["PDP2"]);
    play(&mut g, place("PDP2", 0, -1, 180));
    play(&mut g, json!({"type": "figure", "figure": "follower", "cell": [0, -1], "feature": "city:S"}));
    assert!(g.is_over(), "no castle decision");
    assert_eq!(g.scores(), &[4, 0]);
    assert_eq!(stat(&g, "castles_built"), 0);
}

/// COMBO-TOWER: no watchman through the portal. On a portal turn the only placements on no
/// feature are the tower's own (on the open tower, as on any turn), and they are not
/// counted as portal placements.
#[test]
fn no_watchman_through_the_portal() {
    let r = rules(&[("portal", 40), ("tower", 60)]);
    let mut g = start(&r, 2, &["TO9", "U", "PDG2"]);
    play(&mut g, place("TO9", 0, 1, 0));
    play(&mut g, json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("PDG2", 2, 0, 0));
    let acts = legal(&g);
    let portal =
        acts.iter().filter(|a| a["type"] == "figure" && a["cell"] != json!([2, 0]) && a.get("feature").is_some());
    assert!(portal.count() > 3, "the portal reaches other tiles");
    let watchmen: Vec<&Value> = acts.iter().filter(|a| a["type"] == "figure" && a.get("feature").is_none()).collect();
    assert_eq!(watchmen, vec![&json!({"type": "figure", "figure": "follower", "cell": [0, 1]})]);
    play(&mut g, json!({"type": "figure", "figure": "follower", "cell": [0, 1]}));
    assert_eq!(stat(&g, "portal_placements"), 0);
    assert_eq!(stat(&g, "tower_watchmen"), 1);
}

/// COMBO-BARN: no barn through the portal: on a portal turn the barn goes only on the
/// corners of the portal tile, even when an older tile offers a free four-field corner.
#[test]
fn no_barn_through_the_portal() {
    let r = rules(&[("portal", 40), ("barn", 70)]);
    let mut g = start(&r, 2, &["U", "B", "B", "PDG2"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("B", 0, 1, 0));
    play(&mut g, pass());
    play(&mut g, place("B", 1, 1, 0));
    assert!(legal(&g).iter().any(|a| a["action"] == "place_barn"), "(1,1)'s north-west corner takes a barn");
    play(&mut g, pass());
    play(&mut g, place("PDG2", 2, 0, 0));
    let acts = legal(&g);
    assert!(acts.iter().any(|a| a["type"] == "figure" && a["cell"] == json!([1, 1])), "the portal reaches (1,1)");
    assert!(!acts.iter().any(|a| a["action"] == "place_barn"), "{acts:?}");
}

/// COMBO-CASTLE: nothing goes into a castle through the portal (its city is taken over),
/// and the knight in it is neither captured nor joined by the fairy.
#[test]
fn nothing_into_a_castle_through_the_portal() {
    let r = rules(&[("castle", -10), ("fairy", 30), ("portal", 40), ("tower", 60)]);
    let mut g = start(&r, 2, &["E", "TO9", "PDG2", "U"]);
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, json!({"type": "figure", "figure": "follower", "cell": [0, -1], "feature": "city:S"}));
    play(&mut g, json!({"type": "plugin", "plugin": "castle", "action": "build_castle", "city": "(0,0) city:N"}));
    play(&mut g, place("TO9", 0, 1, 0));
    // Seat 1 builds next to the castle: the knight two cells north is out of range, and at
    // any height a knight in a castle is not capturable.
    play(&mut g, json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}));
    let t = r.plugin_index("tower").unwrap();
    g.st.plugin_mut::<TowerState>(t).towers[0].height = 5;
    play(&mut g, place("PDG2", 1, 0, 90));
    let acts = legal(&g);
    assert!(acts.iter().any(|a| a["type"] == "figure" && a["cell"] == json!([0, 0])), "the portal reaches D");
    assert!(!acts.iter().any(|a| a["feature"].as_str().is_some_and(|f| f.starts_with("city"))), "{acts:?}");
    assert!(!acts.iter().any(|a| a["action"] == "move_fairy"), "no fairy for the knight in the castle");
    play(&mut g, json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}));
    assert_eq!(g.decision().map(|d| d.kind), Some(carcassonne_core::DecisionKind::PlaceTile), "no capture offered");
}

/// Scorings of barns, castles and ransoms are extra: the fairy ignores them.
#[test]
fn barn_castle_and_ransom_sources_are_extra() {
    let r = load_rules_file("config/classic-everything.toml").unwrap().0;
    for s in ["barn", "castle", "ransom"] {
        assert!(r.is_extra_source(r.source(s).unwrap()), "{s}");
    }
    for s in ["road", "city", "monastery", "field", "fairy"] {
        assert!(!r.is_extra_source(r.source(s).unwrap()), "{s}");
    }
}

#[test]
fn the_rule_sets_load_embedded() {
    for (file, plugins) in [
        ("config/tower.toml", vec!["base", "tower"]),
        ("config/barn.toml", vec!["base", "barn"]),
        ("config/castle.toml", vec!["castle", "base"]),
        (
            "config/classic-everything.toml",
            vec![
                "castle",
                "inns-cathedrals",
                "vineyards",
                "base",
                "large-meeple",
                "river",
                "acrobats",
                "traders-builders",
                "hills",
                "shepherd",
                "wagon",
                "mayor",
                "ringmaster",
                "circus",
                "dragon",
                "fairy",
                "portal",
                "princess",
                "tower",
                "barn",
                "bazaar",
                "abbey",
                "bridge",
            ],
        ),
        (
            "config/2025-everything.toml",
            vec![
                "castle",
                "inns-cathedrals",
                "vineyards",
                "base",
                "large-meeple",
                "river",
                "acrobats",
                "traders-builders",
                "hills",
                "shepherd",
                "wagon",
                "mayor",
                "ringmaster",
                "circus",
                "dragon-2025",
                "fairy-2025",
                "portal",
                "tower",
                "barn",
                "bazaar",
                "abbey",
                "bridge",
            ],
        ),
    ] {
        let (r, _) = load_rules_file(&format!("embedded:{file}")).unwrap();
        assert_eq!(r.plugin_names(), plugins, "{file}");
    }
}

/// `simulate` reports tower captures and ransoms, barn and castle points.
#[test]
fn simulate_reports_the_combo_statistics() {
    let e = "config/classic-everything.toml";
    let v = simulate_util::json(&["simulate", "--rules", e, "--games", "20", "--threads", "1", "--json"]);
    let s = simulate_util::summary(&v);
    let stats: Vec<&str> = s["stats"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap()).collect();
    for name in [
        "tower_pieces_built",
        "tower_watchmen",
        "tower_captures",
        "tower_exchanges",
        "tower_ransoms",
        "barns_placed",
        "barn_farmers_scored",
        "castles_built",
        "castles_scored",
    ] {
        assert!(stats.contains(&name), "{name} missing from {stats:?}");
    }
    let total =
        |n: &str| s["stats"].as_array().unwrap().iter().find(|x| x["name"] == n).unwrap()["total"].as_i64().unwrap();
    assert!(total("tower_pieces_built") > 0 && total("tower_captures") > 0 && total("barns_placed") > 0);
    let sources: Vec<&str> =
        s["points_by_source"].as_array().unwrap().iter().map(|x| x["source"].as_str().unwrap()).collect();
    for src in ["ransom", "barn", "castle"] {
        assert!(sources.contains(&src), "{src} missing from {sources:?}");
    }
}
