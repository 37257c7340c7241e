//! The tax collector (plugins/examples/tax-collector, TAX-1..4 in its opening comment): a
//! plugin file with a figure kind, figure-decision actions, a decision of its own for
//! another seat, per-game state cloned with the game, and figure effects. Exact legal
//! actions and scores worked out by hand; random games replay from their records.

mod common;
mod plugin_util;

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_text, rules_for_record_with};
use carcassonne_cli::driver::play_game;
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::replay_full;
use carcassonne_core::{Game, GameOptions, Rules};
use common::{pass, place, play};
use plugin_util::{base_with, path_of, scratch, write_rules};
use serde_json::{json, Value};

/// Base (farmers on) with the tax collector file; the rule-set file and its text.
fn rules() -> (Arc<Rules>, String, String) {
    let text = base_with(&format!(
        "priority = 0\n[[plugins]]\npath = \"{}\"\npriority = 50\n",
        path_of("house_tax_collector")
    ));
    let file = write_rules(&scratch("tax"), &text);
    (load_rules_text(&file, &text).unwrap_or_else(|e| panic!("{e}\n{text}")), file, text)
}

fn start(r: &Arc<Rules>, order: &[&str]) -> Game {
    let tile_order = Some(order.iter().map(|id| r.catalog.id(id).unwrap()).collect());
    Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order, record: true }).unwrap()
}

fn legal(g: &Game) -> Vec<Value> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| g.describe(a)).collect()
}

fn tax(action: &str, extra: Value) -> Value {
    let mut v = json!({"type": "plugin", "plugin": "tax-collector", "action": action});
    if let Value::Object(m) = extra {
        for (k, x) in m {
            v[k] = x;
        }
    }
    v
}

fn follower(x: i32, y: i32, feature: &str) -> Value {
    json!({"type": "figure", "figure": "follower", "cell": [x, y], "feature": feature})
}

fn on_board(g: &Game, kind: &str) -> Vec<(u8, String)> {
    let k = g.rules.figure_kind(kind).unwrap();
    let st = &g.st;
    st.figures.iter().filter(|f| f.alive && f.kind == k).map(|f| (f.owner, st.figure_place_name(&g.rules, f))).collect()
}

/// TAX-1..3 in one game: place, expel (no toll: the joiner has no points), levy (no second
/// expulsion), recall, and the final scores.
#[test]
fn the_collector_is_placed_expels_levies_and_is_recalled_for_its_road() {
    let (r, _, _) = rules();
    let mut g = start(&r, &["U", "U", "B", "E", "U", "U", "U", "U"]);
    // TAX-1: U east of D extends D's road; the collector may go on it instead of a follower.
    play(&mut g, place("U", 1, 0, 0));
    let collector = tax("place_collector", json!({"at": "(1,0) road:E+W"}));
    assert_eq!(
        legal(&g),
        vec![
            follower(1, 0, "road:E+W"),
            follower(1, 0, "field:Nw+Ne+En+Wn"),
            follower(1, 0, "field:Es+Se+Sw+Ws"),
            collector.clone(),
            pass(),
        ]
    );
    play(&mut g, collector);
    assert_eq!(on_board(&g, "collector"), [(0, "(1,0) road:E+W".to_string())]);
    assert_eq!(g.st.supply[0][r.figure_kind("collector").unwrap() as usize], 0);
    // TAX-2: seat 1's follower joins the road on U (-1,0): seat 0 decides; seat 1 has no
    // point, so no levy is offered. Seat 0 expels it.
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, follower(-1, 0, "road:E+W"));
    let d = g.decision().unwrap();
    assert_eq!(d.player, 0);
    assert_eq!(legal(&g), vec![tax("wave_through", json!({})), tax("expel", json!({}))]);
    play(&mut g, tax("expel", json!({})));
    assert!(on_board(&g, "follower").is_empty());
    assert_eq!(g.st.supply[1][r.figure_kind("follower").unwrap() as usize], 7);
    // Seat 0: B (0,1), pass (its collector may be recalled: TAX-3).
    play(&mut g, place("B", 0, 1, 0));
    assert_eq!(legal(&g).last(), Some(&pass()));
    assert!(legal(&g).contains(&tax("recall_collector", json!({"at": "(1,0) road:E+W"}))));
    play(&mut g, pass());
    // Seat 1 closes D's city with its knight: 4 points.
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, follower(0, -1, "city:S"));
    assert_eq!(g.scores(), &[0, 4]);
    play(&mut g, place("U", 2, 0, 0));
    play(&mut g, pass());
    // Seat 1's follower joins again on U (-2,0): now it has the points, so levy is
    // offered, and no expulsion (this collector expelled seat 1 once).
    play(&mut g, place("U", -2, 0, 0));
    play(&mut g, follower(-2, 0, "road:E+W"));
    assert_eq!(legal(&g), vec![tax("levy", json!({})), tax("wave_through", json!({}))]);
    play(&mut g, tax("levy", json!({})));
    assert_eq!(g.scores(), &[1, 3]);
    // TAX-3: seat 0 recalls its collector: 1 per tile of the road, (-2,0) to (3,0): 6.
    play(&mut g, place("U", 3, 0, 0));
    play(&mut g, tax("recall_collector", json!({"at": "(1,0) road:E+W"})));
    assert_eq!(g.scores(), &[7, 3]);
    assert!(on_board(&g, "collector").is_empty());
    // Seat 1: U (-3,0). End: seat 1's follower on the open road, 7 tiles.
    play(&mut g, place("U", -3, 0, 0));
    play(&mut g, pass());
    assert!(g.is_over());
    assert_eq!(g.scores(), &[7, 10]);
    let by = |name: &str| {
        let s = r.source(name).unwrap() as usize;
        [g.st.points_by_source[0][s], g.st.points_by_source[1][s]]
    };
    assert_eq!(by("toll"), [1, -1]);
    assert_eq!(by("collector"), [6, 0]);
    assert_eq!(by("road"), [0, 7]);
    assert_eq!(by("city"), [0, 4]);
    assert_eq!(g.st.stats[r.stat("tolls_levied").unwrap()], 1);
    assert_eq!(g.st.stats[r.stat("followers_expelled").unwrap()], 1);
    assert_eq!(g.st.stats[r.stat("collectors_recalled").unwrap()], 1);
}

/// The board picture (interface 4.2): the file's look for its collector (a money bag with
/// a coin), drawn once, where the collector stands; after TAX-2's expulsion a badge "1"
/// with its hover text; the legend names the collector.
#[test]
fn the_picture_shows_the_collector_with_its_look_and_badge() {
    let (r, _, _) = rules();
    let mut g = start(&r, &["U", "U", "B"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, tax("place_collector", json!({"at": "(1,0) road:E+W"})));
    let picture = |g: &Game| carcassonne_cli::svg::render(g, &carcassonne_cli::svg::Picture::default());
    // The collector's figure drawn with the file's look (its coin), in seat 0's colour.
    let figure = |svg: &str| {
        let at = svg.find(r#"class="figure" data-owner="0" data-kind="collector""#).expect("the collector is drawn");
        svg[at..at + svg[at..].find("</g>").unwrap()].to_string()
    };
    let before = picture(&g);
    assert!(figure(&before).contains(r##"fill="#1565c0""##) && figure(&before).contains(r##"fill="#ffd54f""##));
    assert!(figure(&before).contains("<title>seat 0 collector at (1,0) road:E+W</title>"), "{before}");
    // The coin twice: on the figure and in the legend.
    assert_eq!(before.matches(r##"fill="#ffd54f""##).count(), 2, "{before}");
    assert!(!before.contains("has expelled"), "no badge before an expulsion");
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, follower(-1, 0, "road:E+W"));
    play(&mut g, tax("expel", json!({})));
    let after = picture(&g);
    assert_eq!(after.matches(r##"fill="#ffd54f""##).count(), 2, "{after}");
    assert_eq!(after.matches("<title>has expelled 1 player(s)</title>").count(), 1, "{after}");
    assert!(after.contains(">1</text>"), "{after}");
    assert!(after.contains("tax collector (badge: players it expelled)"), "{after}");
}

/// TAX-2's state: a collector expels each player once, and a clone of the game keeps its
/// own state. TAX-4: a completed road sends the collector home with nothing.
#[test]
fn a_collector_expels_once_per_player_in_its_own_game_and_leaves_with_its_road() {
    let (r, _, _) = rules();
    // A (1,0) turned 90 ends the road east at its monastery; A (-3,0) turned 270 ends it
    // west: a road of 5 tiles.
    let mut g = start(&r, &["A", "U", "U", "A"]);
    play(&mut g, place("A", 1, 0, 90));
    play(&mut g, tax("place_collector", json!({"at": "(1,0) road:W"})));
    let mut other = g.clone();
    // This game: seat 1 joins and is expelled.
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, follower(-1, 0, "road:E+W"));
    assert_eq!(legal(&g), vec![tax("wave_through", json!({})), tax("expel", json!({}))]);
    play(&mut g, tax("expel", json!({})));
    // The clone: seat 1 goes into a field instead.
    play(&mut other, place("U", -1, 0, 0));
    play(&mut other, follower(-1, 0, "field:Es+Se+Sw+Ws"));
    for game in [&mut g, &mut other] {
        play(game, place("U", -2, 0, 0));
        play(game, pass());
        play(game, place("A", -3, 0, 270));
        play(game, follower(-3, 0, "road:E"));
    }
    // Seat 1 joins again: this collector expelled it once, so only the wave is left; in
    // the clone, whose state saw no expulsion, it may still be expelled.
    assert_eq!(legal(&g), vec![tax("wave_through", json!({}))]);
    assert_eq!(legal(&other), vec![tax("wave_through", json!({})), tax("expel", json!({}))]);
    for game in [&mut g, &mut other] {
        play(game, tax("wave_through", json!({})));
    }
    // The road (-3,0)..(1,0) is complete: seat 1's follower scores its 5 tiles, and the
    // collector goes home with nothing (TAX-4). The clone's farmer: D's city is open, 0.
    for game in [&g, &other] {
        assert!(game.is_over());
        assert!(on_board(game, "collector").is_empty());
        assert_eq!(game.scores(), &[0, 5]);
    }
    assert_eq!(g.st.stats[r.stat("followers_expelled").unwrap()], 1);
    assert_eq!(other.st.stats[r.stat("followers_expelled").unwrap()], 0);
}

/// Random games with the tax collector always offer a legal action, end, and replay from
/// their records (with plugin files allowed) to the same turns and scores.
#[test]
fn random_tax_collector_games_replay_from_their_records() {
    let (r, file, text) = rules();
    let bots = ["random".to_string(), "random".to_string(), "greedy".to_string()];
    let mut levied = 0;
    for seed in 0..60u64 {
        let players = 2 + (seed % 2) as usize;
        let g = play_game(&r, players, seed, &bots[..players], true).unwrap();
        assert!(g.is_over(), "seed {seed}: {:?}", g.failure());
        levied += g.st.stats[r.stat("tolls_levied").unwrap()];
        let rec = GameRecord::from_game(&g, &file, Some(&text), seed);
        let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        let rules = rules_for_record_with(&back.rules, "record", true).unwrap();
        let g2 = replay_full(&back, rules).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(g2.scores(), g.scores(), "seed {seed}");
    }
    assert!(levied > 0, "no toll was levied in 60 games");
}

/// A record that answers the collector's decision with an action it did not offer (a levy
/// from a player with no points) is refused on replay, naming the turn.
#[test]
fn a_record_with_an_action_the_plugin_did_not_offer_is_refused() {
    let (r, file, text) = rules();
    let mut g = start(&r, &["U", "U"]);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, tax("place_collector", json!({"at": "(1,0) road:E+W"})));
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, follower(-1, 0, "road:E+W"));
    play(&mut g, tax("wave_through", json!({})));
    assert!(g.is_over());
    let rec = GameRecord::from_game(&g, &file, Some(&text), 0);
    let mut v = serde_json::to_value(&rec).unwrap();
    v["tile_order"] = json!(["U", "U"]);
    let turn = v["turns"].as_array_mut().unwrap().iter_mut().find(|t| t["turn"] == 2).unwrap();
    let actions = turn["actions"].as_array_mut().unwrap();
    assert_eq!(actions[2]["action"], "wave_through");
    actions[2]["action"] = json!("levy");
    let bad: GameRecord = serde_json::from_value(v).unwrap();
    let rules = rules_for_record_with(&bad.rules, "record", true).unwrap();
    let e = replay_full(&bad, rules).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("turn 2") && e.contains("levy") && e.contains("not legal"), "{e}");
}
