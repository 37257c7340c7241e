//! The classic Princess & Dragon plugins (RULES.md PD-*), beyond the scenarios in
//! tests/scenarios/pd-*.json: rule-ID coverage, tile data and editions, each plugin on its
//! own, PD-DRAGON-7 with a test builder, the fairy's 3 points for an outvoted follower, the
//! cross-plugin questions a later plugin answers, and `simulate`'s P&D statistics.

mod common;
use common::{pass, place, play};

mod simulate_util;

use std::collections::BTreeSet;
use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_cli::driver::play_game;
use carcassonne_core::config::{disk_resolver, load_rules, PluginFactory};
use carcassonne_core::{Game, GameOptions, Hooks, Plugin, Query, Rules, State, NEUTRAL};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

const PD: &str = "config/princess-dragon.toml";

/// Every PD rule ID of RULES.md.
fn pd_rule_ids() -> Vec<String> {
    let mut v: Vec<String> = (1..=7).map(|i| format!("PD-DRAGON-{i}")).collect();
    v.extend((1..=4).map(|i| format!("PD-FAIRY-{i}")));
    v.extend((1..=2).map(|i| format!("PD-PORTAL-{i}")));
    v.push("PD-PRINCESS-1".into());
    v
}

/// Rule IDs checked by the Rust tests of this file (the scenarios name their own).
const COVERED_HERE: &[&str] =
    &["PD-DRAGON-1", "PD-DRAGON-6", "PD-DRAGON-7", "PD-FAIRY-3", "PD-PORTAL-1", "PD-PRINCESS-1"];

#[test]
fn every_pd_rule_id_has_a_test() {
    let mut covered = common::scenario_rule_ids();
    covered.extend(COVERED_HERE.iter().map(|s| s.to_string()));
    let missing: Vec<String> = pd_rule_ids().into_iter().filter(|id| !covered.contains(id)).collect();
    assert!(missing.is_empty(), "PD rule IDs without a test: {missing:?}");
}

/// The P&D rule set with some options changed (`key = "value"` lines of the shipped file).
fn pd_text(changes: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string(PD).unwrap();
    for (k, v) in changes {
        let start = text.find(&format!("\n{k} = ")).unwrap_or_else(|| panic!("no option {k}")) + 1;
        let end = start + text[start..].find('\n').unwrap();
        text.replace_range(start..end, &format!("{k} = {v}"));
    }
    text
}

fn pd_rules(changes: &[(&str, &str)]) -> Arc<Rules> {
    load_rules_text(PD, &pd_text(changes)).unwrap()
}

fn start(rules: &Arc<Rules>, players: usize, order: &[&str]) -> Game {
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules.clone(), GameOptions { players, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

fn fig(x: i32, y: i32, feature: &str) -> Value {
    json!({"type": "figure", "figure": "follower", "cell": [x, y], "feature": feature})
}

fn step(x: i32, y: i32) -> Value {
    json!({"type": "plugin", "plugin": "dragon", "action": "step", "cell": [x, y]})
}

/// Tiles in the stack by ID.
fn tile_ids(g: &Game) -> Vec<String> {
    g.st.stack.iter().map(|&t| g.rules.catalog.tiles[t as usize].id.clone()).collect()
}

/// The tiles the plugins put into the game (all groups, start tile apart), by ID.
fn setup_ids(rules: &Rules) -> Vec<String> {
    let mut setup = carcassonne_core::Setup { players: 2, ..Default::default() };
    for p in &rules.plugins {
        p.plugin.setup(rules, &mut setup).unwrap();
    }
    setup
        .groups
        .iter()
        .flat_map(|g| g.tiles.iter().chain(&g.last))
        .map(|&t| rules.catalog.tiles[t as usize].id.clone())
        .collect()
}

#[test]
fn tile_data_has_30_tiles_and_the_editions_swap_three_printings() {
    let rules = pd_rules(&[]);
    let cat = &rules.catalog;
    let set = cat.set("princess-dragon").unwrap();
    let count = |m: &str| {
        set.iter().map(|&t| cat.tile(t)).filter(|t| t.markers & cat.marker(m) != 0).map(|t| t.count).sum::<u32>()
    };
    assert_eq!(set.iter().map(|&t| cat.tile(t).count).sum::<u32>(), 30);
    assert_eq!((count("volcano"), count("dragon"), count("portal"), count("princess")), (6, 12, 6, 6));
    // 2nd edition (default): PDD1 and PDP5 with a garden, PDG3 without pennant.
    let ids = setup_ids(&rules);
    assert_eq!(ids.len() + 1, 102, "72 base tiles (start tile apart) + 30");
    for (new, old) in [("PDD1", "PDD1c1"), ("PDG3", "PDG3c1"), ("PDP5", "PDP5c1")] {
        assert!(ids.contains(&new.to_string()) && !ids.contains(&old.to_string()));
    }
    // `edition = 1` for the dragon only: its PDD1c1 (no garden) replaces PDD1.
    let ids = setup_ids(&pd_rules(&[("edition", "1")]));
    assert_eq!(ids.len() + 1, 102);
    assert!(ids.contains(&"PDD1c1".to_string()) && !ids.contains(&"PDD1".to_string()));
    assert!(ids.contains(&"PDG3".to_string()) && ids.contains(&"PDP5".to_string()));
}

#[test]
fn first_edition_for_every_plugin() {
    let mut text = std::fs::read_to_string(PD).unwrap();
    text = text.replace("edition = 2", "edition = 1");
    let rules = load_rules_text(PD, &text).unwrap();
    let ids = setup_ids(&rules);
    assert_eq!(ids.len() + 1, 102);
    for (old, new) in [("PDD1", "PDD1c1"), ("PDG3", "PDG3c1"), ("PDP5", "PDP5c1")] {
        assert!(ids.contains(&new.to_string()) && !ids.contains(&old.to_string()), "{new}");
    }
    assert!(load_rules_text(PD, &text.replacen("edition = 1", "edition = 3", 1)).is_err());
}

/// Each plugin alone with the base game (where RULES.md allows it): the right tiles, and
/// random games that end with every follower back or on the board.
#[test]
fn each_plugin_works_on_its_own() {
    for (plugin, tiles) in [("dragon", 72 + 18), ("fairy", 72), ("portal", 72 + 6), ("princess", 72 + 6)] {
        let text = format!(
            "name = \"{plugin}-only\"\n[tiles]\nbase = \"tiles/base.toml\"\nprincess-dragon = \"tiles/princess-dragon.toml\"\n\
             [[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"{plugin}\"\npriority = 20\n"
        );
        let rules = load_rules_text("config/x.toml", &text).unwrap();
        for seed in 0..40 {
            let g = play_game(&rules, 2 + (seed % 3) as usize, seed, &["random".to_string()], false).unwrap();
            assert_eq!(g.st.board.len() + g.st.discarded as usize, tiles, "{plugin} seed {seed}");
            let k = rules.figure_kind("follower").unwrap();
            for seat in 0..g.st.players {
                let on = g.st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
                assert_eq!(on + g.st.supply[seat][k as usize] as usize, 7);
            }
        }
    }
}

/// PD-DRAGON-1 with tiles left in the stack: the set-aside tiles go back at random places,
/// the forced order of the others is kept.
#[test]
fn set_aside_tiles_are_shuffled_back_into_the_rest_of_the_stack() {
    let rules = pd_rules(&[]);
    let order = ["PDD7", "PDD3", "U", "PDV1", "E", "E", "E", "E", "E", "E"];
    let mut g = start(&rules, 2, &order);
    assert_eq!(g.st.tile.map(|t| rules.catalog.tiles[t as usize].id.as_str()), Some("U"));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("PDV1", 0, 1, 0));
    play(&mut g, pass());
    // Stack: 6 E's and the 2 set-aside dragon tiles, drawn from the end (E already drawn).
    let mut ids = tile_ids(&g);
    ids.push(rules.catalog.tiles[g.st.tile.unwrap() as usize].id.clone());
    assert_eq!(ids.len(), 8);
    assert_eq!(ids.iter().filter(|i| *i == "E").count(), 6);
    let mut dragon: Vec<&String> = ids.iter().filter(|i| i.starts_with("PDD")).collect();
    dragon.sort();
    assert_eq!(dragon, vec!["PDD3", "PDD7"]);
}

/// Forbids every placement of the volcano tiles (so that a drawn volcano is discarded).
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct NoVolcano {}

impl Plugin for NoVolcano {
    fn name(&self) -> &str {
        "no-volcano"
    }
    fn hooks(&self) -> Hooks {
        Hooks::ALLOW_TILE
    }
    fn may_veto_tile(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> bool {
        rules.catalog.tiles[tile as usize].id.starts_with("PDV")
    }
    fn allow_tile(&self, rules: &Rules, _st: &State, _me: usize, p: &carcassonne_core::TilePlacement) -> bool {
        !self.may_veto_tile(rules, p.tile)
    }
}

/// PD-DRAGON-1 and BASE-4: a dragon tile set aside before any volcano is played even when
/// the last tile, a volcano, fits nowhere and is discarded (as a plain tile: no dragon).
#[test]
fn set_aside_tiles_follow_a_last_volcano_that_is_discarded() {
    let f = common::factories_with("no-volcano", carcassonne_core::build_from_options::<NoVolcano>);
    let text = pd_text(&[]) + "\n[[plugins]]\nname = \"no-volcano\"\npriority = 90\n";
    let rules = load_rules(PD, &text, &disk_resolver(PD), &f).unwrap();
    let mut g = start(&rules, 2, &["PDD7", "U", "PDV1"]);
    let id = |g: &Game| g.st.tile.map(|t| rules.catalog.tiles[t as usize].id.clone());
    // PDD7 is set aside at once: seat 0 is shown U.
    assert_eq!(id(&g).as_deref(), Some("U"));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    // The last tile, PDV1, is discarded; PDD7 follows it, for seat 1.
    assert_eq!(g.st.discarded, 1);
    assert_eq!(id(&g).as_deref(), Some("PDD7"));
    assert_eq!(g.decision().map(|d| d.player), Some(1));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    g.try_play(legal[0]).unwrap();
    g.try_play(carcassonne_core::Action::Pass).unwrap();
    assert!(g.is_over());
    assert_eq!(g.st.board.parts.len(), 3, "D, U and PDD7");
    assert!(g.st.figures.iter().all(|f| f.owner != NEUTRAL || !f.alive), "no dragon came into play");
}

// ------------------------------------------------------------------------------------
// Test plugins: a builder that needs a follower (PD-DRAGON-7), and a guard that answers
// every P&D question with "no", as a later expansion's plugin declares its figures.

#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Guard {}

impl Plugin for Guard {
    fn name(&self) -> &str {
        "guard"
    }
    fn hooks(&self) -> Hooks {
        Hooks::QUERY
    }
    fn answer(&self, r: &Rules, _st: &State, _me: usize, q: &Query) -> Option<bool> {
        matches!(r.query_name(q.key), "eatable" | "fairy_may_join" | "portal_target" | "princess_removable")
            .then_some(false)
    }
}

fn test_rules(extra: &str, guard: bool) -> Arc<Rules> {
    let mut f: Vec<PluginFactory> =
        common::factories_with("builder", carcassonne_core::build_from_options::<common::TestBuilder>);
    f.push(PluginFactory {
        name: "guard",
        summary: "test",
        requires: &[],
        conflicts: &[],
        build: carcassonne_core::build_from_options::<Guard>,
    });
    let mut text = std::fs::read_to_string(PD).unwrap() + extra;
    if guard {
        text.push_str("\n[[plugins]]\nname = \"guard\"\npriority = 90\n");
    }
    load_rules(PD, &text, &disk_resolver(PD), &f).unwrap()
}

/// Seat 0's thief on U (1,0) and a builder of seat 0 on D's part of that road; volcano at
/// (2,0); dragon tile at (3,0). Returns the game before the dragon's first step.
fn builder_game(second_follower: bool) -> Game {
    let rules = test_rules("\n[[plugins]]\nname = \"builder\"\npriority = 60\n", false);
    let mut g = start(&rules, 2, &["U", "PDV5", "PDD7"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, fig(1, 0, "road:E+W"));
    let builder = rules.figure_kind("builder").unwrap();
    let road = g.st.node_of(0, 1); // D: city, road, fields
    g.st.add_figure(&rules, 0, builder, 0, Some(road));
    if second_follower {
        g.st.add_figure(&rules, 0, rules.figure_kind("follower").unwrap(), 0, Some(road));
    }
    play(&mut g, place("PDV5", 2, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("PDD7", 3, 0, 0));
    play(&mut g, pass());
    g
}

fn alive(g: &Game, kind: &str) -> usize {
    let k = g.rules.figure_kind(kind).unwrap();
    g.st.figures.iter().filter(|f| f.alive && f.kind == k).count()
}

/// PD-DRAGON-7: the dragon eats seat 0's only follower in the road; its builder there (on
/// another tile, which the dragon has not entered) returns at once.
#[test]
fn builder_leaves_with_the_last_follower_eaten() {
    let mut g = builder_game(false);
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (1, 1));
    play(&mut g, step(1, 0));
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (0, 0), "the builder left with the thief");
    let b = g.rules.figure_kind("builder").unwrap() as usize;
    assert_eq!(g.st.supply[0][b], 1);
    let rec = carcassonne_core::record::GameRecord::from_game(&g, "", None, 0);
    let ev = serde_json::to_value(rec.turns[2].events.as_deref().unwrap_or(&[])).unwrap();
    assert_eq!(
        ev,
        json!([
            {"type": "removed", "figure": "follower", "owner": 0, "at": "(1,0) road:E+W", "reason": "dragon"},
            {"type": "removed", "figure": "builder", "owner": 0, "at": "(0,0) road:E+W", "reason": "dragon"}
        ])
    );
}

/// PD-DRAGON-7: another follower of the owner stays in the road, so the builder stays.
#[test]
fn builder_stays_while_its_owner_keeps_a_follower() {
    let mut g = builder_game(true);
    play(&mut g, step(1, 0));
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (1, 1));
}

/// PD-DRAGON-7 after the princess's removal (PD-PRINCESS-1), and the princess taking an
/// own knight: seat 0's knight and builder in D's city, seat 0 places the princess.
#[test]
fn princess_removal_takes_the_builder_along() {
    let rules = test_rules("\n[[plugins]]\nname = \"builder\"\npriority = 60\n", false);
    let mut g = start(&rules, 2, &["G", "U", "PDP3"]);
    play(&mut g, place("G", 0, -1, 90));
    play(&mut g, fig(0, -1, "city:N+S"));
    let builder = rules.figure_kind("builder").unwrap();
    let city = g.st.node_of(0, 0);
    g.st.add_figure(&rules, 0, builder, 0, Some(city));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("PDP3", 0, -2, 180));
    play(
        &mut g,
        json!({"type": "plugin", "plugin": "princess", "action": "remove_knight", "figure": "follower", "owner": 0, "at": "(0,-1) city:N+S"}),
    );
    assert_eq!((alive(&g, "follower"), alive(&g, "builder")), (0, 0));
}

/// PD-FAIRY-3 in play: the fairy's follower is outvoted (seat 1 has two followers in the
/// road, put there by hand), its feature gives seat 0 nothing, the fairy still gives 3.
#[test]
fn fairy_pays_an_outvoted_follower() {
    let text = "name = \"fairy-only\"\n[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n\
                [[plugins]]\nname = \"fairy\"\npriority = 30\n";
    let rules = load_rules_text("config/fairy-only.toml", text).unwrap();
    let mut g = start(&rules, 2, &["U", "U", "U", "W", "W"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, fig(1, 0, "road:E+W"));
    play(&mut g, place("U", 0, 1, 0));
    play(&mut g, pass());
    play(&mut g, place("U", 1, 1, 0));
    play(
        &mut g,
        json!({"type": "plugin", "plugin": "fairy", "action": "move_fairy", "next_to": "follower", "at": "(1,0) road:E+W"}),
    );
    let follower = rules.figure_kind("follower").unwrap();
    let road = g.st.node_of(0, 1);
    for _ in 0..2 {
        g.st.add_figure(&rules, 1, follower, 0, Some(road));
    }
    play(&mut g, place("W", 2, 0, 0));
    play(&mut g, pass());
    // Turn 5: seat 0 gets the fairy's turn-start point, closes the road: 4 tiles, 4 to seat 1
    // (2 followers against 1), 3 to seat 0 for the fairy.
    assert_eq!(g.scores(), &[1, 0]);
    play(&mut g, place("W", -1, 0, 0));
    play(&mut g, pass());
    assert!(g.is_over());
    assert_eq!(g.scores(), &[4, 4]);
    let fairy = rules.source("fairy").unwrap() as usize;
    assert_eq!(g.st.points_by_source[0][fairy], 4);
    assert_eq!(alive(&g, "fairy"), 1, "the fairy stays on the board");
}

/// A later plugin declares how the dragon, the fairy, the portal and the princess treat its
/// figures by answering the questions: here one that answers "no" to all of them.
#[test]
fn a_later_plugin_can_shield_its_figures() {
    // PD-DRAGON-6: nothing is eaten (pd-dragon-stuck-three-steps without the guard eats 2).
    let rules = test_rules("", true);
    let mut g = start(&rules, 2, &["U", "U", "PDV5", "PDD7"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, fig(1, 0, "road:E+W"));
    play(&mut g, place("U", 2, 0, 0));
    play(&mut g, fig(2, 0, "field:Nw+Ne+En+Wn"));
    play(&mut g, place("PDV5", 3, 0, 0));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert_eq!(legal.len(), 1, "no fairy move: only pass");
    play(&mut g, pass());
    play(&mut g, place("PDD7", 4, 0, 0));
    play(&mut g, pass());
    play(&mut g, step(2, 0));
    play(&mut g, step(1, 0));
    play(&mut g, step(0, 0));
    assert_eq!(alive(&g, "follower"), 2);

    // PD-PORTAL-1: no placement on another tile; PD-PRINCESS-1: no removal.
    let mut g = start(&rules, 2, &["U", "G", "PDG2", "PDP3"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("G", 0, -1, 90));
    play(&mut g, fig(0, -1, "city:N+S"));
    play(&mut g, place("PDG2", 2, 0, 0));
    g.legal_actions(&mut legal);
    let other_tiles =
        legal.iter().filter(|a| g.describe(a)["cell"] != json!([2, 0]) && g.describe(a)["type"] != "pass");
    assert_eq!(other_tiles.count(), 0);
    play(&mut g, pass());
    play(&mut g, place("PDP3", 0, -2, 180));
    g.legal_actions(&mut legal);
    assert!(legal.iter().all(|a| g.describe(a)["type"] != "plugin"), "no removal offered");
}

/// PD-PORTAL-1: without the guard, the same position offers placements on the other
/// tiles; PD-PORTAL-2: only followers travel, not the (test) builder in supply.
#[test]
fn without_the_guard_the_portal_reaches_other_tiles() {
    let rules = test_rules("\n[[plugins]]\nname = \"builder\"\npriority = 60\n", false);
    let mut g = start(&rules, 2, &["U", "G", "PDG2"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("G", 0, -1, 90));
    play(&mut g, fig(0, -1, "city:N+S"));
    play(&mut g, place("PDG2", 2, 0, 0));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let cells: BTreeSet<String> = legal.iter().map(|a| g.describe(a)["cell"].to_string()).collect();
    assert!(cells.contains("[0,0]") && cells.contains("[1,0]") && cells.contains("[0,-1]"), "{cells:?}");
    // The occupied city (seat 1's knight) is offered on no tile.
    assert!(legal.iter().all(|a| !g.describe(a)["feature"].as_str().is_some_and(|f| f.starts_with("city"))));
    assert_eq!(g.st.supply[0][rules.figure_kind("builder").unwrap() as usize], 1);
    assert!(legal.iter().all(|a| matches!(g.describe(a)["figure"].as_str(), None | Some("follower"))));
    let neutral = g.st.figures.iter().filter(|f| f.alive && f.owner == NEUTRAL).count();
    assert_eq!(neutral, 0, "no volcano yet: no dragon");
}

/// `simulate` reports the dragon's steps and meals, fairy points, portal placements and
/// princess removals.
#[test]
fn simulate_reports_the_pd_statistics() {
    let v = simulate_util::json(&["simulate", "--rules", PD, "--games", "20", "--threads", "1", "--json"]);
    let s = simulate_util::summary(&v);
    let stats: Vec<&str> = s["stats"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap()).collect();
    for name in [
        "dragon_steps",
        "dragon_eaten",
        "dragon_movements",
        "dragon_tiles_set_aside",
        "fairy_moves",
        "fairy_turn_points",
        "fairy_scoring_points",
        "portal_placements",
        "princess_removals",
    ] {
        assert!(stats.contains(&name), "{name} missing from {stats:?}");
    }
    let total =
        |n: &str| s["stats"].as_array().unwrap().iter().find(|x| x["name"] == n).unwrap()["total"].as_i64().unwrap();
    // Every dragon tile moves the dragon once it is in play (but an unplaceable one).
    assert!((200..=240).contains(&total("dragon_movements")), "{}", total("dragon_movements"));
    assert!(total("dragon_steps") > 0 && total("fairy_moves") > 0);
    let sources: Vec<&str> =
        s["points_by_source"].as_array().unwrap().iter().map(|x| x["source"].as_str().unwrap()).collect();
    assert!(sources.contains(&"fairy"));
    let text = simulate_util::ok(&["simulate", "--rules", PD, "--games", "4", "--threads", "1"]);
    assert!(text.contains("dragon_eaten") && text.contains("fairy points/game"), "{text}");
}

#[test]
fn the_embedded_rule_set_loads() {
    let (rules, _) = load_rules_file(&format!("embedded:{PD}")).unwrap();
    assert_eq!(rules.plugin_names(), vec!["base", "dragon", "fairy", "portal", "princess"]);
}

/// PD-FAIRY-1 with the dragon (which answers `fairy_may_join`, asked for every candidate in
/// one list): the fairy is offered a move next to each follower of the player but one on the
/// dragon's tile (the dragon is put there by hand: a follower protected from its meal).
#[test]
fn the_fairy_does_not_join_a_follower_on_the_dragons_tile() {
    let rules = pd_rules(&[]);
    let mut g = start(&rules, 2, &["U", "U", "PDV5", "U"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, fig(1, 0, "road:E+W"));
    play(&mut g, place("U", 2, 0, 0));
    play(&mut g, fig(2, 0, "field:Nw+Ne+En+Wn"));
    // Seat 0 places the volcano at (3,0): the dragon goes there; no figure may go there.
    play(&mut g, place("PDV5", 3, 0, 0));
    let moves = |g: &Game| {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        legal
            .iter()
            .filter(|a| g.describe(a)["action"] == "move_fairy")
            .map(|a| g.describe(a)["at"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&g), [json!("(1,0) road:E+W")]);
    let dragon_kind = rules.figure_kind("dragon").unwrap();
    let dragon =
        (0..g.st.figures.len()).find(|&i| g.st.figures[i].alive && g.st.figures[i].kind == dragon_kind).unwrap();
    let road_tile = g.st.board.part_at(carcassonne_core::Pos::new(1, 0)).unwrap();
    let rules2 = g.rules.clone();
    g.st.move_figure(&rules2, dragon as u32, road_tile, None);
    assert_eq!(moves(&g), Vec::<Value>::new(), "the only follower stands with the dragon");
}
