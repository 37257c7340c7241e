//! Hills & Sheep (EXPANSIONS.md SHEPHERD-1..6, HILLS-1..3, VINEYARD-1..2, RULES.md
//! COMBO-SHEPHERD) and the mayor of Abbey & Mayor (MAYOR-1..2): every rule ID has a
//! scenario; the tile file (TILES-MORE.md section "hills", with `also=X`); the majority
//! hook; 3,000 random games of `config/hills-sheep.toml` at 2 to 5 players, checked after
//! every action, every tenth replayed from its record: followers and shepherds conserved,
//! the 18 tokens in the bag and the flocks, a flock only beside its shepherd, every tile
//! placed, discarded or buried under a hill; random games with the mayor.

mod common;

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::tile::TileType;
use carcassonne_core::{FeatureKind, Game, GameOptions, Rules};
use carcassonne_plugin_shepherd::ShepherdState;

const IDS: &[&str] = &[
    "SHEPHERD-1",
    "SHEPHERD-2",
    "SHEPHERD-3",
    "SHEPHERD-4",
    "SHEPHERD-5",
    "SHEPHERD-6",
    "HILLS-1",
    "HILLS-2",
    "HILLS-3",
    "VINEYARD-1",
    "VINEYARD-2",
    "MAYOR-1",
    "MAYOR-2",
    "COMBO-SHEPHERD",
];

#[test]
fn every_hills_sheep_and_mayor_rule_id_has_a_scenario() {
    let covered = common::scenario_rule_ids();
    let missing: Vec<&&str> = IDS.iter().filter(|id| !covered.contains(**id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}

fn hills_rules() -> (Arc<Rules>, String) {
    load_rules_file("config/hills-sheep.toml").unwrap()
}

fn tiles(r: &Rules) -> Vec<&TileType> {
    r.catalog.set("hills-sheep").unwrap().iter().map(|&t| r.catalog.tile(t)).collect()
}

/// TILES-MORE.md "hills": 18 tiles, 8 hills (HS1-HS8), 8 vineyards (HS11-HS18), 1 garden
/// (HS5; HS5c1 is the printing without), 2 monasteries, no pennant, `also=N` on HS13-14 only.
#[test]
fn the_hills_and_sheep_tile_file_holds_the_box() {
    let (r, _) = hills_rules();
    let cat = &r.catalog;
    let set = tiles(&r);
    let copies = |marker: &str| {
        let bit = cat.marker(marker);
        set.iter().filter(|t| t.markers & bit != 0).map(|t| t.count).sum::<u32>()
    };
    assert_eq!(set.iter().map(|t| t.count).sum::<u32>(), 18);
    assert_eq!((copies("hill"), copies("vineyard"), copies("garden")), (8, 8, 1));
    let ids = |marker: &str| -> Vec<&str> {
        let bit = cat.marker(marker);
        set.iter().filter(|t| t.markers & bit != 0 && t.count > 0).map(|t| t.id.as_str()).collect()
    };
    assert_eq!(ids("hill"), ["HS1", "HS2", "HS3", "HS4", "HS5", "HS6", "HS7", "HS8"]);
    assert_eq!(ids("vineyard"), ["HS11-12", "HS13-14", "HS15", "HS16", "HS17", "HS18"]);
    let features = |t: &TileType| t.faces[0].parts[0].features.clone();
    let monasteries: u32 = set
        .iter()
        .map(|t| t.count * features(t).iter().filter(|f| f.kind == FeatureKind::Monastery).count() as u32)
        .sum();
    assert_eq!(monasteries, 2);
    assert!(set.iter().all(|t| features(t).iter().all(|f| f.pennants == 0)));
    let also: Vec<&str> =
        set.iter().filter(|t| features(t).iter().any(|f| f.also != 0)).map(|t| t.id.as_str()).collect();
    assert_eq!(also, ["HS13-14"]);
    let hs13 = features(cat.tile(cat.id("HS13-14").unwrap()));
    assert_eq!((hs13[0].sides, hs13[1].sides, hs13[1].also), (0b1001, 0b0010, 0b0001), "city[N,W]; city[E](also=N)");
    assert_eq!(cat.tile(cat.id("HS5c1").unwrap()).variant_of.as_deref(), Some("HS5"));
}

/// `also=X` (TILES-MORE.md rule 20) is refused on a side the part has, on a side no other
/// city part covers, and off a city.
#[test]
fn also_names_a_city_side_of_another_part() {
    let load = |features: &str| {
        let text = format!("set = \"t\"\n[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"{features}\"\n");
        carcassonne_core::Catalog::new().load_str("t.toml", &text).map(|_| ()).map_err(|e| e.to_string())
    };
    load("city[N,W]; city[E](also=N); field[Se,Sw](adj=city#1+city#2)").unwrap();
    let e = load("city[N,W]; city[E](also=E); field[Se,Sw](adj=city#1+city#2)").unwrap_err();
    assert!(e.ends_with("also=E names a side this part already has, in 'city[E](also=E)'"), "{e}");
    let e = load("city[N,W]; city[E](also=S); field[Se,Sw](adj=city#1+city#2)").unwrap_err();
    assert!(e.ends_with("also=S names a side that no other city part of the tile covers"), "{e}");
    let e = load("city[N]; road[E](also=N); field[Es,Se,Sw,Ws,Wn](adj=city#1); field[En](adj=city#1)").unwrap_err();
    assert!(e.ends_with("only city parts have also=, in 'road[E](also=N)'"), "{e}");
}

/// The base game with the hills-sheep tile file and no other plugin (tile order forced).
fn plain_game(order: &[&str]) -> Game {
    let text = "name = \"hs-tiles\"\n[tiles]\nbase = \"tiles/base.toml\"\nhills-sheep = \"tiles/hills-sheep.toml\"\n\
                [[plugins]]\nname = \"base\"\n";
    let rules = load_rules_text("config/hs-tiles-test.toml", text).unwrap();
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules, GameOptions { players: 2, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

/// HS13-14: the two city parts are separate on the tile, each open on the `also` side; a
/// city placed beyond it joins both, closing each one's opening there.
#[test]
fn a_city_beyond_an_also_side_joins_both_parts() {
    // Turned 180: city S+E and city W (also S). Beside D (N side field) at (0,1): S is open.
    let mut g = plain_game(&["HS13-14", "E"]);
    common::play(&mut g, common::place("HS13-14", 0, 1, 180));
    let node = |g: &Game, x, y, local| g.st.node_of(g.st.part_at(carcassonne_core::Pos::new(x, y)).unwrap(), local);
    let (a, b) = (node(&g, 0, 1, 0), node(&g, 0, 1, 1));
    assert_ne!(g.st.graph.find(a), g.st.graph.find(b));
    assert_eq!((g.st.graph.open(a), g.st.graph.open(b)), (2, 2), "S+E open; W and the also side S open");
    common::play(&mut g, common::pass());
    // E (city N) at (0,2): its city joins both parts; each part's S opening closes.
    common::play(&mut g, common::place("E", 0, 2, 0));
    let c = node(&g, 0, 2, 0);
    assert_eq!(g.st.graph.find(a), g.st.graph.find(b));
    assert_eq!(g.st.graph.find(a), g.st.graph.find(c));
    assert_eq!(g.st.graph.open(a), 2, "E and W are left open");
    assert_eq!(g.st.feature_tiles(a), 2);
}

/// A city through an `also` side completes when both parts are closed, counting the tile
/// once: HS13-14 (knight on its S+E part), E beyond S, E against each part's other side.
#[test]
fn a_city_through_an_also_side_completes_and_counts_the_tile_once() {
    let mut g = plain_game(&["HS13-14", "E", "E", "E"]);
    common::play(&mut g, common::place("HS13-14", 0, 1, 180));
    common::play(
        &mut g,
        serde_json::json!({"type": "figure", "figure": "follower", "cell": [0, 1], "feature": "city:E+S"}),
    );
    for (x, y, rot) in [(0, 2, 0), (1, 1, 270)] {
        common::play(&mut g, common::place("E", x, y, rot));
        common::play(&mut g, common::pass());
        assert_eq!(g.scores(), [0, 0], "open until the W part is closed");
    }
    // E (city E) against the W part closes the last side: 4 tiles, 8 points.
    common::play(&mut g, common::place("E", -1, 1, 90));
    common::play(&mut g, common::pass());
    assert!(g.is_over());
    assert_eq!(g.scores(), [8, 0]);
}

/// The same from the other side: the tile with `also` placed against an existing city.
#[test]
fn an_also_side_placed_against_a_city_joins_both_parts() {
    // D's city N at (0,0): HS13-14 turned 180 at (0,-1) has city S+E and city W (also S).
    let mut g = plain_game(&["HS13-14", "U"]);
    common::play(&mut g, common::place("HS13-14", 0, -1, 180));
    let part = g.st.part_at(carcassonne_core::Pos::new(0, -1)).unwrap();
    let (a, b, d) = (g.st.node_of(part, 0), g.st.node_of(part, 1), g.st.node_of(0, 0));
    assert_eq!(g.st.graph.find(a), g.st.graph.find(b));
    assert_eq!(g.st.graph.find(a), g.st.graph.find(d));
    assert_eq!(g.st.graph.open(a), 2, "E of the S+E part and W of the other are open");
}

/// Figures of every seat's kinds conserved (board + supply), the 18 tokens in the bag and
/// the flocks, each flock only beside its standing shepherd, shepherds only in fields.
fn check(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    for kind in ["follower", "shepherd", "mayor"] {
        let Some(k) = r.figure_kind(kind) else { continue };
        let per = r.figure_kinds[k as usize].per_player as usize;
        for seat in 0..st.players {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
            assert_eq!(on + st.supply[seat][k as usize] as usize, per, "{kind}s of seat {seat}, turn {}", st.turn);
        }
    }
    let Some(me) = r.plugin_index("shepherd") else { return };
    let s = st.plugin::<ShepherdState>(me);
    assert_eq!(s.tokens(), 18, "tokens in bag and flocks, turn {}", st.turn);
    assert_eq!(s.bag.iter().filter(|&&t| t == 0).count(), 2, "both wolves in the bag, turn {}", st.turn);
    let kind = r.figure_kind("shepherd").unwrap();
    for seat in 0..st.players {
        let standing = s.shepherds[seat].filter(|&id| {
            let f = &st.figures[id as usize];
            f.alive && f.kind == kind && f.owner == seat as u8
        });
        assert_eq!(standing.is_some(), s.shepherds[seat].is_some(), "seat {seat}'s shepherd, turn {}", st.turn);
        let on_board = st.figures.iter().any(|f| f.alive && f.kind == kind && f.owner == seat as u8);
        assert_eq!(on_board, standing.is_some(), "seat {seat}'s shepherd is known, turn {}", st.turn);
        if let Some(id) = standing {
            let node = st.figures[id as usize].node.expect("in a field");
            assert_eq!(st.graph.node(node).kind, FeatureKind::Field);
            // At a decision a standing shepherd has his flock (a wolf sends him home).
            if st.pending.is_empty() {
                assert!(!s.flocks[seat].is_empty(), "seat {seat}'s shepherd without sheep, turn {}", st.turn);
            }
        } else {
            assert!(s.flocks[seat].is_empty(), "seat {seat}'s flock without shepherd, turn {}", st.turn);
        }
    }
}

#[test]
fn three_thousand_random_hills_and_sheep_games() {
    let (r, text) = hills_rules();
    let games = std::env::var("CARC_HILLS_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000);
    common::run_checked_games("config/hills-sheep.toml", &r, &text, games, None, 1, check);
    // 72 + 18 tiles, every one placed, discarded or under a hill.
    let g = common::play_checked(&r, 2, 9, false, Some(90), |_| {});
    assert!(g.is_over());
    let buried = g.st.stats[r.stat("hill_tiles_buried").unwrap()];
    assert!((1..=8).contains(&buried), "{buried} tiles under hills");
}

/// The same seed gives the same game: the bag's draws come from the game's generator.
#[test]
fn the_same_seed_draws_the_same_tokens() {
    let (r, _) = hills_rules();
    common::assert_same_seed_same_game(&r, 3, 90, check);
}

/// Hills, vineyards, shepherd and mayor together (an Abbey & Mayor figure with Hills &
/// Sheep), with `hill_tiebreaker = count`: 500 random games; a mayor stands only in a city.
#[test]
fn random_games_with_the_mayor_and_the_hills() {
    let file = "config/hills-sheep.toml";
    let (_, text) = common::rules_with(file, &[("hill_tiebreaker", "\"count\"")]);
    let text = text + "\n[[plugins]]\nname = \"mayor\"\npriority = 18\n";
    let r = load_rules_text(file, &text).unwrap();
    let mayor = r.figure_kind("mayor").unwrap();
    let in_city = |g: &Game| {
        check(g);
        for f in g.st.figures.iter().filter(|f| f.alive && f.kind == mayor) {
            assert_eq!(g.st.graph.node(f.node.expect("in a city")).kind, FeatureKind::City);
        }
    };
    common::run_checked_games(file, &r, &text, 500, None, 7, in_city);
}

/// A grow or gather in a record when none is due: a one-line error naming the turn and
/// the reason (`replay`, exit code 2), and the reason for each case.
#[test]
fn a_grow_or_gather_when_none_is_due_is_refused_with_the_reason() {
    let (r, _) = hills_rules();
    let order = ["U", "U", "E", "U"].iter().map(|id| r.catalog.id(id).unwrap()).collect();
    let mut g = Game::start(r, GameOptions { players: 2, seed: 4, tile_order: Some(order), record: true }).unwrap();
    let gather = serde_json::json!({"type": "plugin", "plugin": "shepherd", "action": "gather"});
    let grow = serde_json::json!({"type": "plugin", "plugin": "shepherd", "action": "grow"});
    let refused = |g: &Game, a: &serde_json::Value| carcassonne_core::replay::parse_action(g, a).unwrap_err();
    common::play(&mut g, common::place("U", 1, 0, 0));
    common::play(
        &mut g,
        serde_json::json!({"type": "figure", "figure": "shepherd", "cell": [1, 0], "feature": "field:Es+Se+Sw+Ws"}),
    );
    // Turn 2: seat 1 has no shepherd.
    assert_eq!(
        refused(&g, &gather),
        r#"{"action":"gather","plugin":"shepherd","type":"plugin"} is not legal here: no grow or gather is due: seat 1 has no shepherd on the board"#
    );
    common::play(&mut g, common::place("U", -1, 0, 0));
    common::play(&mut g, common::pass());
    // Turn 3: seat 0's tile closes D's city, away from its shepherd's field.
    common::play(&mut g, common::place("E", 0, -1, 180));
    assert!(refused(&g, &grow)
        .ends_with("no grow or gather is due: this turn's tile does not extend the field of seat 0's shepherd"));
    common::play(&mut g, common::pass());
    // The same in a record, through `replay`: the record's turn and the reason.
    let rec = carcassonne_core::record::GameRecord::from_game(&g, "config/hills-sheep.toml", None, 4);
    let mut v = serde_json::to_value(&rec).unwrap();
    v["tile_order"] = serde_json::json!(["U", "U", "E", "U"]);
    v["turns"][2]["actions"].as_array_mut().unwrap().insert(1, grow.clone());
    let dir = std::env::temp_dir().join(format!("carc-hs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad-grow.json");
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne")).arg("replay").arg(&file).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let want = "turn 3: {\"action\":\"grow\",\"plugin\":\"shepherd\",\"type\":\"plugin\"} is not legal here: \
                no grow or gather is due: this turn's tile does not extend the field of seat 0's shepherd\n";
    assert!(err.starts_with("error: ") && err.ends_with(want), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The mayor with the portal, the tower, the classic dragon, fairy and princess (MAYOR-1:
/// only in a city, so never a watchman and through the portal only into a city): 300
/// random games; at every figure decision each mayor placement offered is on a city, and
/// some game offers one through the portal (on another tile than the placed one).
#[test]
fn the_mayor_goes_only_into_cities_with_portal_and_tower() {
    let text = "name = \"mayor-combo\"\nplayers = 2\n[tiles]\nbase = \"tiles/base.toml\"\n\
                princess-dragon = \"tiles/princess-dragon.toml\"\ntower = \"tiles/tower.toml\"\n\
                [[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"dragon\"\npriority = 20\n\
                [[plugins]]\nname = \"fairy\"\npriority = 30\n[[plugins]]\nname = \"portal\"\npriority = 40\n\
                [[plugins]]\nname = \"princess\"\npriority = 50\n[[plugins]]\nname = \"tower\"\npriority = 60\n\
                [[plugins]]\nname = \"mayor\"\npriority = 18\n";
    let file = "config/mayor-combo-test.toml";
    let r = load_rules_text(file, text).unwrap();
    let mayor = r.figure_kind("mayor").unwrap();
    let through_portal = std::cell::Cell::new(0u32);
    let offers = |g: &Game| {
        let mut buf = Vec::new();
        g.legal_actions(&mut buf);
        for a in buf {
            if let carcassonne_core::Action::PlaceFigure { kind, part, feature } = a {
                if kind != mayor {
                    continue;
                }
                assert_ne!(
                    feature,
                    carcassonne_core::NO_FEATURE,
                    "a mayor on no feature (a watchman), turn {}",
                    g.st.turn
                );
                assert_eq!(g.st.graph.node(g.st.node_of(part, feature)).kind, FeatureKind::City);
                if !g.st.placed_parts().contains(&part) {
                    through_portal.set(through_portal.get() + 1);
                }
            }
        }
        for f in g.st.figures.iter().filter(|f| f.alive && f.kind == mayor) {
            assert_eq!(g.st.graph.node(f.node.expect("in a city")).kind, FeatureKind::City);
        }
    };
    for seed in 0..300 {
        // 72 base + 30 Princess & Dragon + 18 Tower tiles.
        common::play_checked(&r, 2 + (seed % 3) as usize, seed, false, Some(120), offers);
    }
    assert!(through_portal.get() > 0, "no mayor offered through the portal");
}

/// SHEPHERD-6: a shepherd removed by another effect takes only his own flock back into
/// the bag; another flock in the same field stays. Seed 4 draws 2 for seat 0, then 3.
#[test]
fn a_removed_shepherd_takes_only_his_own_flock_back() {
    let (r, _) = hills_rules();
    let order = ["U", "U", "A", "U"].iter().map(|id| r.catalog.id(id).unwrap()).collect();
    let mut g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 4, tile_order: Some(order), record: false }).unwrap();
    let shepherd = |x, feature: &str| serde_json::json!({"type": "figure", "figure": "shepherd", "cell": [x, 0], "feature": feature});
    common::play(&mut g, common::place("U", 1, 0, 0));
    common::play(&mut g, shepherd(1, "field:Es+Se+Sw+Ws"));
    common::play(&mut g, common::place("U", -1, 0, 0));
    common::play(&mut g, shepherd(-1, "field:Nw+Ne+En+Wn"));
    // A at (2,0) joins both fields; seat 0 now tends (a pending decision).
    common::play(&mut g, common::place("A", 2, 0, 90));
    common::play(&mut g, common::pass());
    let me = r.plugin_index("shepherd").unwrap();
    let s = g.st.plugin::<ShepherdState>(me).clone();
    assert_eq!((s.flocks[0].clone(), s.flocks[1].clone(), s.bag.len()), (vec![2], vec![3], 16));
    let id = s.shepherds[1].unwrap();
    let by = r.plugin_index("base").unwrap() as u8;
    g.st.remove_figure(&r, id, carcassonne_core::RemoveReason::Plugin(by));
    let s = g.st.plugin::<ShepherdState>(me);
    assert_eq!((s.flocks[0].clone(), s.flocks[1].clone(), s.bag.len()), (vec![2], vec![], 17));
    assert!(s.bag.contains(&3) && s.shepherds[1].is_none() && s.shepherds[0].is_some());
    // Seat 0 gathers its own flock alone now: 2.
    common::play(&mut g, serde_json::json!({"type": "plugin", "plugin": "shepherd", "action": "gather"}));
    assert_eq!(g.scores(), [2, 0]);
}
