//! The abbot plugin (EXPANSIONS.md ABBOT-1..2, RULES.md COMBO-ABBOT) beyond the scenarios in
//! tests/scenarios/ (abbot-*, combo-abbot-*): rule-ID coverage, the garden printing, the
//! portal, the tower, the 2025 dragon and both fairies with the abbot, and games without
//! the abbot plugin keeping their gardens empty.

mod common;
use common::{pass, place, play};

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::action::{Decision, DecisionKind};
use carcassonne_core::{Game, GameOptions, Rules};
use carcassonne_plugin_tower::{Prisoner, TowerState};
use serde_json::{json, Value};

#[test]
fn every_abbot_rule_id_has_a_scenario() {
    let scenarios = common::scenario_rule_ids();
    for id in ["ABBOT-1", "ABBOT-2", "COMBO-ABBOT"] {
        assert!(scenarios.contains(id), "{id} has no scenario");
    }
}

/// The base game in its garden printing with `plugins` (name, priority, options TOML).
fn rules(plugins: &[(&str, i64, &str)]) -> Arc<Rules> {
    let mut text = String::from(
        "name = \"abbot-test\"\n[tiles]\nbase = \"tiles/base.toml\"\nprincess-dragon = \"tiles/princess-dragon.toml\"\n\
         tower = \"tiles/tower.toml\"\nfairy-dragon = \"tiles/fairy-dragon.toml\"\n\
         [[plugins]]\nname = \"base\"\n[plugins.options]\ngarden_printing = true\n",
    );
    for (name, priority, options) in plugins {
        text.push_str(&format!("[[plugins]]\nname = \"{name}\"\npriority = {priority}\n"));
        if !options.is_empty() {
            text.push_str(&format!("[plugins.options]\n{options}\n"));
        }
    }
    load_rules_text("config/abbot-test.toml", &text).unwrap()
}

fn start(rules: &Arc<Rules>, order: &[&str]) -> Game {
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

fn figure(kind: &str, x: i32, y: i32, feature: &str) -> Value {
    json!({"type": "figure", "figure": kind, "cell": [x, y], "feature": feature})
}

fn take_back(at: &str) -> Value {
    json!({"type": "plugin", "plugin": "abbot", "action": "take_back_abbot", "at": at})
}

fn legal(g: &Game) -> Vec<Value> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| g.describe(a)).collect()
}

/// The legal actions as a sorted list (to compare with an exact set).
fn legal_set(g: &Game) -> Vec<Value> {
    sorted(legal(g))
}

fn sorted(mut v: Vec<Value>) -> Vec<Value> {
    v.sort_by_key(|a| a.to_string());
    v
}

fn stat(g: &Game, name: &str) -> i64 {
    g.st.stats[g.rules.stat(name).unwrap()]
}

fn source(g: &Game, name: &str) -> Vec<i32> {
    let s = g.rules.source(name).unwrap() as usize;
    (0..g.st.players).map(|p| g.st.points_by_source[p][s]).collect()
}

fn supply(g: &Game, kind: &str) -> Vec<u8> {
    let k = g.rules.figure_kind(kind).unwrap() as usize;
    (0..g.st.players).map(|p| g.st.supply[p][k]).collect()
}

/// Where the figures of `kind` stand, as `(x,y) feature`.
fn on_board(g: &Game, kind: &str) -> Vec<String> {
    let k = g.rules.figure_kind(kind).unwrap();
    g.st.figures.iter().filter(|f| f.alive && f.kind == k).map(|f| g.st.figure_place_name(&g.rules, f)).collect()
}

/// ABBOT-1: the abbot is a follower of strength 1, one per seat; config/abbot.toml plays
/// the garden printing: 72 tiles, 8 of them with a garden (BASE-1 + TILES.md `…g`).
#[test]
fn the_abbot_rule_set_has_one_abbot_per_seat_and_eight_garden_tiles() {
    let (r, _) = load_rules_file("config/abbot.toml").unwrap();
    let k = r.figure_kind("abbot").unwrap();
    let def = &r.figure_kinds[k as usize];
    assert!(def.follower && def.strength == 1 && def.per_player == 1, "{def:?}");
    assert!(r.is_extra_source(r.source("abbot").unwrap()), "ABBOT-2 scoring is extra (COMBO-ABBOT)");
    assert!(!r.is_extra_source(r.source("garden").unwrap()), "a garden's own scoring is not");
    let setup = r.setup(2).unwrap();
    let tiles: Vec<&str> =
        setup.groups.iter().flat_map(|g| g.tiles.iter()).map(|&t| r.catalog.tile(t).id.as_str()).collect();
    assert_eq!(tiles.len(), 71, "72 with the start tile");
    let mut gardens: Vec<&str> = tiles.iter().copied().filter(|t| t.ends_with('g')).collect();
    gardens.sort();
    assert_eq!(gardens, ["Eg", "Hg", "Ig", "Mg", "Ng", "Rg", "Ug", "Vg"]);
    // The embedded copy is the same rule set.
    let (e, _) = load_rules_file("embedded:config/abbot.toml").unwrap();
    assert_eq!(e.plugin_names(), ["base", "abbot"]);
}

/// The garden printing with `copies = 4`: every copy of the set is printed with gardens
/// (32 garden tiles in 288; only 8 were swapped in before).
#[test]
fn the_garden_printing_holds_for_every_copy_of_the_set() {
    let text = "name = \"g4\"\n[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n\
                [plugins.options]\ngarden_printing = true\ncopies = 4\n";
    let r = load_rules_text("config/g4.toml", text).unwrap();
    let setup = r.setup(2).unwrap();
    let tiles: Vec<&str> =
        setup.groups.iter().flat_map(|g| g.tiles.iter()).map(|&t| r.catalog.tile(t).id.as_str()).collect();
    assert_eq!(tiles.len(), 287, "288 with the start tile");
    for (garden, plain, copies) in [("Eg", "E", 5 * 4 - 4), ("Vg", "V", 9 * 4 - 4), ("Ug", "U", 8 * 4 - 4)] {
        assert_eq!(tiles.iter().filter(|&&t| t == garden).count(), 4, "{garden}");
        assert_eq!(tiles.iter().filter(|&&t| t == plain).count(), copies, "{plain}");
    }
    assert_eq!(tiles.iter().filter(|t| t.ends_with('g')).count(), 32);
}

/// The River's garden printing (`garden_printing` of `river`): RV11g replaces one RV10-11
/// (TILES.md), so a river game has its garden too.
#[test]
fn the_river_garden_printing_swaps_in_rv11g() {
    let count = |opts: &str, id: &str| {
        let text = format!(
            "name = \"rg\"\n[tiles]\nbase = \"tiles/base.toml\"\nriver = \"tiles/river.toml\"\n\
             [[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"river\"\n[plugins.options]\n{opts}\n"
        );
        let r = load_rules_text("config/rg.toml", &text).unwrap();
        let setup = r.setup(2).unwrap();
        let tile = r.catalog.id(id).unwrap();
        setup.groups.iter().flat_map(|g| g.tiles.iter().chain(&g.last)).filter(|&&t| t == tile).count()
    };
    assert_eq!((count("", "RV10-11"), count("", "RV11g")), (2, 0));
    assert_eq!((count("garden_printing = true", "RV10-11"), count("garden_printing = true", "RV11g")), (1, 1));
}

/// ABBOT-1: without the abbot plugin nobody stands on a garden: no placement offered on
/// Ug's garden, and through the portal (PD-PORTAL-1) none on an older garden either.
#[test]
fn without_the_abbot_gardens_take_no_figure() {
    let r = rules(&[("portal", 40, "")]);
    let mut g = start(&r, &["Ug", "PDG2"]);
    play(&mut g, place("Ug", 1, 0, 0));
    let here = legal(&g);
    assert_eq!(here.len(), 4, "road, two fields, pass: {here:?}");
    assert!(!here.iter().any(|a| a["feature"] == "garden"));
    play(&mut g, pass());
    play(&mut g, place("PDG2", 2, 0, 0));
    let portal = legal(&g);
    assert!(portal.iter().any(|a| a["cell"] == json!([1, 0]) && a["feature"] == "road:E+W"), "the portal reaches Ug");
    assert!(!portal.iter().any(|a| a["feature"] == "garden"), "{portal:?}");
}

/// ABBOT-1 with the portal (PD-PORTAL-1/2): the abbot is a follower, so it travels, onto
/// an unoccupied, incomplete monastery or garden of another tile only; no follower goes
/// onto a garden through the portal.
#[test]
fn the_abbot_travels_through_the_portal_to_monasteries_and_gardens() {
    let r = rules(&[("portal", 40, ""), ("abbot", 80, "")]);
    let mut g = start(&r, &["Ug", "B", "B", "U", "PDG2"]);
    play(&mut g, place("Ug", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("B", 0, 1, 0));
    play(&mut g, figure("follower", 0, 1, "monastery"));
    play(&mut g, place("B", -1, 1, 0));
    play(&mut g, pass());
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, pass());
    // Seat 0's portal turn: PDG2 (roads E, S, W end at a junction) east of Ug.
    play(&mut g, place("PDG2", 2, 0, 0));
    let acts = legal(&g);
    let abbot: Vec<&Value> = acts.iter().filter(|a| a["figure"] == "abbot").collect();
    // Ug's garden (1,0) and the empty monastery (-1,1); not (0,1)'s, seat 1's monk is in it.
    assert_eq!(abbot, [&figure("abbot", 1, 0, "garden"), &figure("abbot", -1, 1, "monastery")]);
    assert!(!acts.iter().any(|a| a["figure"] == "follower" && a["feature"] == "garden"), "{acts:?}");
    assert!(acts.contains(&figure("follower", -1, 1, "monastery")), "a follower may take the monastery");
    play(&mut g, figure("abbot", 1, 0, "garden"));
    assert_eq!(on_board(&g, "abbot"), ["(1,0) garden"]);
    assert_eq!(stat(&g, "portal_placements"), 1);
    assert_eq!(supply(&g, "abbot"), [0, 1]);
}

/// TOWER-3/4 with the abbot: it is a follower, so a tower captures it (a prisoner, ransomed
/// for 3); ABBOT-1: it is never a watchman (only monasteries and gardens take it).
#[test]
fn a_tower_captures_the_abbot_which_is_never_a_watchman() {
    let r = rules(&[("tower", 60, ""), ("abbot", 80, "")]);
    let t = r.plugin_index("tower").unwrap();
    let abbot = r.figure_kind("abbot").unwrap();
    let mut g = start(&r, &["TO9", "Ug", "U", "V"]);
    // TO9 (garden, foundation, all field) under D: a follower on the field, the abbot on
    // the garden, a piece on the foundation (no watchman on a bare foundation), or pass.
    play(&mut g, place("TO9", 0, 1, 0));
    assert_eq!(
        legal_set(&g),
        sorted(vec![
            figure("follower", 0, 1, "field:Nw+Ne+En+Es+Se+Sw+Ws+Wn"),
            json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}),
            figure("abbot", 0, 1, "garden"),
            pass(),
        ])
    );
    play(&mut g, json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}));
    // Seat 1: Ug east of the tower (road N+S); the open tower takes a follower as watchman,
    // not the abbot.
    play(&mut g, place("Ug", 1, 1, 90));
    assert_eq!(
        legal_set(&g),
        sorted(vec![
            figure("follower", 1, 1, "road:N+S"),
            figure("follower", 1, 1, "field:Nw+Sw+Ws+Wn"),
            figure("follower", 1, 1, "field:Ne+En+Es+Se"),
            json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}),
            json!({"type": "figure", "figure": "follower", "cell": [0, 1]}),
            figure("abbot", 1, 1, "garden"),
            pass(),
        ])
    );
    play(&mut g, figure("abbot", 1, 1, "garden"));
    // Seat 0 raises the tower to 2: (1,1) is in its row at distance 1.
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, json!({"type": "plugin", "plugin": "tower", "action": "build_tower", "cell": [0, 1]}));
    let capture = json!({"type": "plugin", "plugin": "tower", "action": "capture", "figure": "abbot", "owner": 1, "at": "(1,1) garden"});
    assert_eq!(legal(&g), [capture.clone(), pass()]);
    play(&mut g, capture);
    assert_eq!(g.st.plugin::<TowerState>(t).prisoners, [Prisoner { holder: 0, owner: 1, kind: abbot }]);
    assert_eq!(supply(&g, "abbot"), [1, 0]);
    assert!(on_board(&g, "abbot").is_empty());
    // Seat 1's turn: with 0 points it cannot pay the ransom (TOWER-4), so its turn starts
    // with the tile; the abbot stays a prisoner.
    assert_eq!(g.scores(), &[0, 0]);
    assert_eq!(g.decision(), Some(Decision { player: 1, kind: DecisionKind::PlaceTile }));
    assert_eq!(g.st.plugin::<TowerState>(t).prisoners, [Prisoner { holder: 0, owner: 1, kind: abbot }]);
}

/// COMBO-ABBOT with the 2025 dragon (FD-ORIENT-1, FD-DRAGON-2): the abbot is a follower, so
/// it is in the dragon's line of sight and the dragon eats it.
#[test]
fn the_2025_dragon_sees_and_eats_the_abbot() {
    let r = rules(&[("dragon-2025", 20, "tile_set = \"fairy-dragon\""), ("abbot", 80, "")]);
    let mut g = start(&r, &["Ug", "B", "FDL1", "FDD3", "U"]);
    play(&mut g, place("Ug", 1, 0, 0));
    play(&mut g, figure("abbot", 1, 0, "garden"));
    play(&mut g, place("B", 0, 1, 0));
    play(&mut g, pass());
    // The lair at (1,1) has placed tiles north (Ug, with the abbot) and west (B, empty):
    // only north shows a follower, so the dragon faces north without a decision.
    play(&mut g, place("FDL1", 1, 1, 0));
    // No figure on a lair (FD-LAIR-1); taking the abbot back places none (ABBOT-2).
    assert_eq!(legal(&g), [take_back("(1,0) garden"), pass()]);
    play(&mut g, pass());
    let ds = g.st.plugin::<carcassonne_plugin_dragon_2025::DragonState>(r.plugin_index("dragon-2025").unwrap());
    assert_eq!(ds.facing, Some(carcassonne_core::Side::N));
    // Seat 1 draws the dragon symbol FDD3: before it is placed, the first move goes north
    // to Ug, the last tile of the line, and eats the abbot; then nothing is in sight:
    // seat 1 chooses among west (D) and south (the lair).
    let d = g.decision().unwrap();
    assert_eq!(d.player, 1);
    let orient = |face: &str| json!({"type": "plugin", "plugin": "dragon-2025", "action": "orient", "face": face});
    assert_eq!(legal_set(&g), [orient("S"), orient("W")]);
    assert_eq!(on_board(&g, "dragon"), ["(1,0)"]);
    assert!(on_board(&g, "abbot").is_empty());
    assert_eq!(supply(&g, "abbot"), [1, 1]);
    assert_eq!(stat(&g, "dragon_eaten"), 1);
    assert_eq!(g.scores(), &[0, 0]);
}

/// COMBO-ABBOT with the classic fairy (PD-FAIRY-1..3): beside the abbot it gives its turn
/// point; a garden's scoring (here in final scoring: 1 + 4 neighbours) pays its 3, taking
/// the abbot back (1 + 4 at once) does not.
#[test]
fn the_classic_fairy_pays_for_the_garden_not_for_the_abbot_taken_back() {
    let r = rules(&[("fairy", 30, ""), ("abbot", 80, "")]);
    let game = || {
        let mut g = start(&r, &["Ug", "U", "B", "U", "B"]);
        play(&mut g, place("Ug", 1, 0, 0));
        play(&mut g, figure("abbot", 1, 0, "garden"));
        play(&mut g, place("U", 2, 0, 0));
        play(&mut g, pass());
        play(&mut g, place("B", 1, 1, 0));
        play(
            &mut g,
            json!({"type": "plugin", "plugin": "fairy", "action": "move_fairy", "next_to": "abbot", "at": "(1,0) garden"}),
        );
        play(&mut g, place("U", -1, 0, 0));
        play(&mut g, pass());
        // Seat 0's turn start: 1 point for the fairy (PD-FAIRY-2). The last tile, B at (0,1),
        // gives the garden (1,0) its 4th placed neighbour: (0,0), (2,0), (1,1), (0,1).
        play(&mut g, place("B", 0, 1, 0));
        assert_eq!(g.scores(), &[1, 0]);
        g
    };
    let mut kept = game();
    play(&mut kept, pass());
    assert!(kept.is_over());
    assert_eq!(source(&kept, "garden"), [5, 0], "ABBOT-1: 1 + 4 at the end");
    assert_eq!(source(&kept, "fairy"), [4, 0], "1 at the turn start + 3 for the garden (PD-FAIRY-3)");
    assert_eq!(kept.scores(), &[9, 0]);

    let mut back = game();
    play(&mut back, take_back("(1,0) garden"));
    assert!(back.is_over());
    assert_eq!(source(&back, "abbot"), [5, 0], "ABBOT-2: 1 + 4 at once");
    assert_eq!(source(&back, "garden"), [0, 0]);
    assert_eq!(source(&back, "fairy"), [1, 0], "the turn point only (COMBO-ABBOT)");
    assert_eq!(back.scores(), &[6, 0]);
    assert_eq!(stat(&back, "fairy_scoring_points"), 0);
}

/// COMBO-ABBOT with the 2025 fairy (FD-FAIRY-1..3): a road completed for no points lets
/// seat 0 assign the fairy to its abbot; the garden scored at the end pays the fairy's 3,
/// taking the abbot back does not, and the fairy returns to the supply with the abbot.
#[test]
fn the_2025_fairy_pays_for_the_garden_not_for_the_abbot_taken_back() {
    let r = rules(&[("fairy-2025", 30, ""), ("abbot", 80, "")]);
    let f = r.plugin_index("fairy-2025").unwrap();
    let game = || {
        let mut g = start(&r, &["Ug", "A", "A", "B", "B"]);
        play(&mut g, place("Ug", 1, 0, 0));
        play(&mut g, figure("abbot", 1, 0, "garden"));
        play(&mut g, place("A", 2, 0, 90));
        play(&mut g, pass());
        // A (road E, into its monastery) closes the road (-1,0)..(2,0): nobody scores it.
        play(&mut g, place("A", -1, 0, 270));
        play(&mut g, pass());
        let assign = json!({"type": "plugin", "plugin": "fairy-2025", "action": "assign_fairy", "at": "(1,0) garden"});
        assert_eq!(legal(&g), [assign.clone(), pass()], "FD-FAIRY-1: the abbot is seat 0's only follower");
        play(&mut g, assign);
        play(&mut g, place("B", 1, 1, 0));
        play(&mut g, pass());
        // The last tile: the garden (1,0) has 4 placed neighbours, (0,0), (2,0), (1,1), (0,1).
        play(&mut g, place("B", 0, 1, 0));
        assert!(g.st.plugin::<carcassonne_plugin_fairy_2025::FairyState>(f).fairy.is_some());
        g
    };
    let mut kept = game();
    play(&mut kept, pass());
    assert!(kept.is_over());
    assert_eq!(source(&kept, "garden"), [5, 0], "ABBOT-1: 1 + 4 at the end");
    assert_eq!(source(&kept, "fairy"), [3, 0], "FD-FAIRY-2");
    assert_eq!(kept.scores(), &[8, 0]);

    let mut back = game();
    play(&mut back, take_back("(1,0) garden"));
    assert!(back.is_over());
    assert!(back.st.plugin::<carcassonne_plugin_fairy_2025::FairyState>(f).fairy.is_none(), "FD-FAIRY-3");
    assert!(on_board(&back, "fairy").is_empty());
    assert_eq!(source(&back, "abbot"), [5, 0], "ABBOT-2: 1 + 4 at once");
    assert_eq!(source(&back, "fairy"), [0, 0], "COMBO-ABBOT: no fairy points");
    assert_eq!(back.scores(), &[5, 0]);
}

/// FD-LAIR-1 with the abbot: the double lake's river half takes an abbot on its garden (seed
/// 001: "opata nebo sedláka"), its lair half nothing. The river as in
/// tests/scenarios/fd-river-double-tiles.json; the double lake, face B at 180, has its
/// garden half at (2,-1) and its lair half at (2,-2).
#[test]
fn the_double_lake_garden_takes_the_abbot_not_its_lair_half() {
    let text = std::fs::read_to_string("config/fairy-dragon-river.toml").unwrap()
        + "\n[[plugins]]\nname = \"abbot\"\npriority = 80\n";
    let r = load_rules_text("config/fairy-dragon-river.toml", &text).unwrap();
    let mut g = start(&r, &["RV10-11", "RV10-11", "RV12", "FDLAKE"]);
    play(&mut g, place("RV10-11", 0, 1, 90));
    play(&mut g, pass());
    play(&mut g, place("RV10-11", 1, -1, 270));
    play(&mut g, pass());
    play(&mut g, place("RV12", -1, 1, 180));
    play(&mut g, pass());
    play(&mut g, json!({"type": "place_tile", "tile": "FDLAKE", "cell": [2, -1], "rotation": 180, "face": "B"}));
    assert_eq!(
        legal_set(&g),
        sorted(vec![
            figure("follower", 2, -1, "field:Ne+En+Es+Se+Sw+Ws"),
            figure("follower", 2, -1, "field:Nw+Wn"),
            figure("abbot", 2, -1, "garden"),
            pass(),
        ])
    );
    play(&mut g, figure("abbot", 2, -1, "garden"));
    assert_eq!(on_board(&g, "abbot"), ["(2,-1) garden"]);
    assert_eq!(on_board(&g, "dragon"), ["(2,-2)"], "FD-LAIR-2: the dragon on the lair half");
    assert!(g.is_over());
    // The last tile: 1 + its 3 placed neighbours, the curve (1,-1), the spring's E half (1,0)
    // and the lair half (2,-2) (each half counts as a tile, FD-RIVER-1).
    assert_eq!(source(&g, "garden"), [0, 4]);
}
