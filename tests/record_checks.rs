//! Edited records and summaries are refused as bad input (exit code 2, one line naming the
//! file and the problem): a turn's `tile`, `player`, `discarded` and `events`, the
//! `final_scoring` events, the `format`, cells
//! beyond any game's reach (both in records and scenarios), totals that overflow in
//! `merge`, and rule sets that differ only in their plugins.

mod simulate_util;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use simulate_util::{bad_input, ok, scratch};

/// Plays a 2-player base game with a record; returns the record file and its JSON.
fn recorded(dir: &Path) -> (PathBuf, Value) {
    recorded_seed(dir, 4)
}

/// Plays a 2-player base game of `seed` with a record; returns the record file and its JSON.
fn recorded_seed(dir: &Path, seed: u64) -> (PathBuf, Value) {
    let rec = dir.join(format!("g{seed}.json"));
    ok(&["play", "--rules", "config/base.toml", "--seed", &seed.to_string(), "--record", rec.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    (rec, v)
}

/// Writes `v` as `name` in `dir`; returns the path as a string.
fn write(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p.to_str().unwrap().to_string()
}

/// `replay` of `v` (written as `name`) fails naming the file and containing every needle.
fn replay_fails(dir: &Path, name: &str, v: &Value, needles: &[&str]) -> String {
    let file = write(dir, name, v);
    let err = bad_input(&["replay", &file], name);
    for n in needles {
        assert!(err.contains(n), "replay of {name}: error should mention {n:?}: {err}");
    }
    err
}

#[test]
fn replay_checks_the_turn_tile_and_player() {
    let dir = scratch("record-turn-checks");
    let (rec, good) = recorded(&dir);
    // The record as written replays: its turn-level tile and player agree with the game.
    assert!(ok(&["replay", rec.to_str().unwrap()]).contains("every action legal"));
    let turn3 = &good["turns"][2];
    assert_eq!(turn3["turn"], 3);
    assert_eq!(turn3["player"], 0, "seat 0 plays turns 1 and 3 of a 2-player game");
    let drawn = turn3["tile"].as_str().unwrap().to_string();
    let other = good["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["tile"].as_str())
        .find(|&t| t != drawn)
        .expect("a game places more than one kind of tile")
        .to_string();

    let mut v = good.clone();
    v["turns"][2]["tile"] = json!("ZZZ");
    replay_fails(&dir, "tile-unknown.json", &v, &["turn 3:", "tile ZZZ", &format!("tile {drawn} was drawn")]);
    let mut v = good.clone();
    v["turns"][2]["tile"] = json!(other);
    replay_fails(
        &dir,
        "tile-other.json",
        &v,
        &["turn 3:", &format!("tile {other}"), &format!("tile {drawn} was drawn")],
    );

    let mut v = good.clone();
    v["turns"][2]["player"] = json!(99);
    replay_fails(&dir, "player-99.json", &v, &["turn 3:", "player 99", "player 0's"]);
    let mut v = good.clone();
    v["turns"][2]["player"] = json!(1);
    replay_fails(&dir, "player-wrong-seat.json", &v, &["turn 3:", "player 1", "player 0's"]);
}

#[test]
fn replay_and_render_refuse_other_record_formats() {
    let dir = scratch("record-format");
    let (_, good) = recorded(&dir);
    for (name, format) in [("format-2.json", "carcassonne-record/2"), ("format-garbage.json", "garbage")] {
        let mut v = good.clone();
        v["format"] = json!(format);
        let err = replay_fails(&dir, name, &v, &[format, "\"carcassonne-record/1\""]);
        assert!(!err.contains("turn"), "{err}");
        let file = dir.join(name);
        bad_input(&["render", file.to_str().unwrap()], "\"carcassonne-record/1\"");
    }
}

#[test]
fn replay_refuses_cells_out_of_range() {
    let dir = scratch("record-cells");
    let (_, good) = recorded(&dir);
    let place = &good["turns"][0]["actions"][0];
    assert_eq!(place["type"], "place_tile");
    let y = place["cell"][1].clone();
    for (k, cell, value) in [
        (0, json!([4294967295u64, y]), "x 4294967295"),
        (1, json!([2147483648u64, y]), "x 2147483648"),
        (2, json!([0, -2147483649i64]), "y -2147483649"),
        (3, json!([0, 18446744073709551615u64]), "y 18446744073709551615"),
    ] {
        let mut v = good.clone();
        v["turns"][0]["actions"][0]["cell"] = cell;
        let err = replay_fails(&dir, &format!("cell-{k}.json"), &v, &["turn 1:", value, "out of range"]);
        assert!(!err.contains("(-1,") && !err.contains("-2147483648,"), "truncated coordinate shown: {err}");
    }
    // A figure on an out-of-range cell is refused the same way.
    let (t, a) = first_figure_action(&good);
    let mut v = good.clone();
    v["turns"][t]["actions"][a]["cell"] = json!([4294967296u64, 0]);
    replay_fails(&dir, "figure-cell.json", &v, &[&format!("turn {}:", t + 1), "x 4294967296", "out of range"]);
}

/// `replay` of `v` (written as `name`) fails with exactly `error: <file>: <message>`.
fn replay_refused(dir: &Path, name: &str, v: &Value, message: &str) {
    let file = write(dir, name, v);
    let err = bad_input(&["replay", &file], name);
    assert_eq!(err.trim_end(), format!("error: {file}: {message}"));
}

#[test]
fn replay_checks_the_turn_discards() {
    let dir = scratch("record-discards");
    // Seed 40: the first base game (random bots, seeds from 0) with a discard: H in turn 6.
    let (rec, good) = recorded_seed(&dir, 40);
    let turns = good["turns"].as_array().unwrap();
    let with_discards: Vec<(u64, &Value)> = turns
        .iter()
        .filter(|t| t.get("discarded").is_some())
        .map(|t| (t["turn"].as_u64().unwrap(), &t["discarded"]))
        .collect();
    assert_eq!(with_discards, [(6, &json!(["H"]))], "the game of seed 40 discards H in turn 6");
    assert_eq!(good["turns"][5]["turn"], 6);
    assert!(good["turns"][2].get("discarded").is_none());
    // The record as written replays: its discards agree with the game.
    assert!(ok(&["replay", rec.to_str().unwrap()]).contains("every action legal"));
    let said = |recorded: &str, replayed: &str| {
        format!(
            "the record says \"discarded\": {recorded}, but the replay discarded {replayed} \
             (tiles drawn with no legal placement, BASE-4)"
        )
    };

    // The discard removed: the key left out (as a writer does for none) or an empty list.
    let mut v = good.clone();
    v["turns"][5].as_object_mut().unwrap().remove("discarded");
    replay_refused(&dir, "discard-removed.json", &v, &format!("turn 6: {}", said("[]", "[\"H\"]")));
    let mut v = good.clone();
    v["turns"][5]["discarded"] = json!([]);
    replay_refused(&dir, "discard-empty.json", &v, &format!("turn 6: {}", said("[]", "[\"H\"]")));
    // A discard added to a turn without one, or to the turn with one.
    let mut v = good.clone();
    v["turns"][2]["discarded"] = json!(["H"]);
    replay_refused(&dir, "discard-added.json", &v, &format!("turn 3: {}", said("[\"H\"]", "[]")));
    let mut v = good.clone();
    v["turns"][5]["discarded"] = json!(["H", "C"]);
    replay_refused(&dir, "discard-extra.json", &v, &format!("turn 6: {}", said("[\"H\", \"C\"]", "[\"H\"]")));
    // Another tile discarded instead.
    let mut v = good.clone();
    v["turns"][5]["discarded"] = json!(["C"]);
    replay_refused(&dir, "discard-other.json", &v, &format!("turn 6: {}", said("[\"C\"]", "[\"H\"]")));
    // The discard moved to the next turn: refused at turn 6, where it is missing.
    let mut v = good.clone();
    v["turns"][5].as_object_mut().unwrap().remove("discarded");
    v["turns"][6]["discarded"] = json!(["H"]);
    replay_refused(&dir, "discard-moved.json", &v, &format!("turn 6: {}", said("[]", "[\"H\"]")));
}

/// Turn 2 of the base game of seed 6 (2 players, random bots): seat 1 completes seat 0's
/// city; its events as the replay error shows them (compact JSON, keys in record order).
const CITY_SCORED: &str =
    r#"{"type":"score","feature":"(0,1) city:E","players":[0],"points":4,"reason":"city completed"}"#;
const FOLLOWER_BACK: &str = r#"{"type":"removed","figure":"follower","owner":0,"at":"(0,1) city:E","reason":"scored"}"#;

/// A score event added by hand.
fn extra_score() -> Value {
    json!({"type": "score", "feature": null, "players": [1], "points": 10, "reason": "bribe"})
}
const EXTRA_SCORE: &str = r#"{"type":"score","feature":null,"players":[1],"points":10,"reason":"bribe"}"#;

/// The message for the first difference in a turn's `events` (`None`: the side has none).
fn events_differ(turn: u32, key: &str, recorded: Option<&str>, replayed: Option<&str>) -> String {
    let said = recorded.map_or("the record has none".to_string(), |r| format!("the record says {r}"));
    let prefix = if turn == 0 { "final scoring".to_string() } else { format!("turn {turn}") };
    format!("{prefix}: {key}: {said}, but the replay has {}", replayed.unwrap_or("none"))
}

#[test]
fn replay_checks_the_turn_events() {
    let dir = scratch("record-events");
    // Seed 6: the first base game (random bots, seeds from 0) with events in turn 2.
    let (rec, good) = recorded_seed(&dir, 6);
    let t2 = &good["turns"][1];
    assert_eq!((&t2["turn"], &t2["player"]), (&json!(2), &json!(1)));
    let as_json = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    assert_eq!(t2["events"], json!([as_json(CITY_SCORED), as_json(FOLLOWER_BACK)]));
    // A turn without events leaves the key out.
    assert!(good["turns"][0].get("events").is_none());
    // The record as written replays: every turn's events agree with the game.
    assert!(ok(&["replay", rec.to_str().unwrap()]).contains("every action legal"));

    // The points of a score event changed (the final scores still match).
    let mut v = good.clone();
    v["turns"][1]["events"][0]["points"] = json!(5);
    let five = CITY_SCORED.replace("\"points\":4", "\"points\":5");
    let msg = events_differ(2, "events[0]", Some(&five), Some(CITY_SCORED));
    replay_refused(&dir, "event-points.json", &v, &msg);
    // Who scored changed.
    let mut v = good.clone();
    v["turns"][1]["events"][0]["players"] = json!([1]);
    let seat1 = CITY_SCORED.replace("\"players\":[0]", "\"players\":[1]");
    replay_refused(&dir, "event-players.json", &v, &events_differ(2, "events[0]", Some(&seat1), Some(CITY_SCORED)));
    // The score event removed: the removal is compared with it.
    let mut v = good.clone();
    v["turns"][1]["events"].as_array_mut().unwrap().remove(0);
    let msg = events_differ(2, "events[0]", Some(FOLLOWER_BACK), Some(CITY_SCORED));
    replay_refused(&dir, "event-score-removed.json", &v, &msg);
    // The last event removed, or all of them (an empty list is none, not "not checked").
    let mut v = good.clone();
    v["turns"][1]["events"].as_array_mut().unwrap().pop();
    replay_refused(&dir, "event-last-removed.json", &v, &events_differ(2, "events[1]", None, Some(FOLLOWER_BACK)));
    let mut v = good.clone();
    v["turns"][1]["events"] = json!([]);
    replay_refused(&dir, "events-empty.json", &v, &events_differ(2, "events[0]", None, Some(CITY_SCORED)));
    // The whole key removed: in a record (it has `final_scoring`) an absent `events` is none.
    let mut v = good.clone();
    v["turns"][1].as_object_mut().unwrap().remove("events");
    replay_refused(&dir, "events-key-removed.json", &v, &events_differ(2, "events[0]", None, Some(CITY_SCORED)));
    // An event added after the turn's events, or to a turn without any.
    let mut v = good.clone();
    v["turns"][1]["events"].as_array_mut().unwrap().push(extra_score());
    replay_refused(&dir, "event-added.json", &v, &events_differ(2, "events[2]", Some(EXTRA_SCORE), None));
    let mut v = good.clone();
    v["turns"][0]["events"] = json!([extra_score()]);
    replay_refused(&dir, "event-added-turn-1.json", &v, &events_differ(1, "events[0]", Some(EXTRA_SCORE), None));
    // A removal's figure or owner changed.
    let mut v = good.clone();
    v["turns"][1]["events"][1]["figure"] = json!("builder");
    let builder = FOLLOWER_BACK.replace("follower", "builder");
    replay_refused(
        &dir,
        "removed-figure.json",
        &v,
        &events_differ(2, "events[1]", Some(&builder), Some(FOLLOWER_BACK)),
    );
    let mut v = good.clone();
    v["turns"][1]["events"][1]["owner"] = json!(null);
    let neutral = FOLLOWER_BACK.replace("\"owner\":0", "\"owner\":null");
    replay_refused(&dir, "removed-owner.json", &v, &events_differ(2, "events[1]", Some(&neutral), Some(FOLLOWER_BACK)));
}

#[test]
fn replay_checks_the_final_scoring_events() {
    let dir = scratch("record-final-events");
    let (rec, good) = recorded_seed(&dir, 6);
    let finals = good["final_scoring"].as_array().unwrap();
    assert_eq!(finals.len(), 14, "the game of seed 6 ends with 14 final-scoring events");
    assert_eq!(
        finals[0],
        json!({"type": "score", "feature": "(1,-2) city:E", "players": [1], "points": 1, "reason": "city final"})
    );
    assert!(ok(&["replay", rec.to_str().unwrap()]).contains("every action legal"));
    let first = r#"{"type":"score","feature":"(1,-2) city:E","players":[1],"points":1,"reason":"city final"}"#;
    // The last one, in the record's key order.
    let f = &finals[13];
    assert_eq!(f["type"], "score");
    let last = format!(
        r#"{{"type":"score","feature":{},"players":{},"points":{},"reason":{}}}"#,
        f["feature"], f["players"], f["points"], f["reason"]
    );

    // A final-scoring event changed.
    let mut v = good.clone();
    v["final_scoring"][0]["points"] = json!(3);
    let three = first.replace("\"points\":1", "\"points\":3");
    let msg = events_differ(0, "final_scoring[0]", Some(&three), Some(first));
    let file = write(&dir, "final-points.json", &v);
    let err = bad_input(&["replay", &file], "final-points.json");
    assert_eq!(err.trim_end(), format!("error: {file}: {msg}"));
    assert!(!err.contains("turn"), "{err}");
    // One removed (the last), one added, or all removed.
    let mut v = good.clone();
    v["final_scoring"].as_array_mut().unwrap().pop();
    replay_refused(&dir, "final-removed.json", &v, &events_differ(0, "final_scoring[13]", None, Some(&last)));
    let mut v = good.clone();
    v["final_scoring"].as_array_mut().unwrap().push(extra_score());
    replay_refused(&dir, "final-added.json", &v, &events_differ(0, "final_scoring[14]", Some(EXTRA_SCORE), None));
    let mut v = good.clone();
    v["final_scoring"] = json!([]);
    replay_refused(&dir, "final-empty.json", &v, &events_differ(0, "final_scoring[0]", None, Some(first)));
}

#[test]
fn scenarios_check_events_only_when_given() {
    let dir = scratch("scenario-events");
    // A hand-written scenario gives no turn `events` and no `final_scoring`: not checked.
    let good = scenario("base-two-tile-city.json");
    assert!(good["turns"][0].get("events").is_none() && good.get("final_scoring").is_none());
    carcassonne_cli::scenario::run_file(Path::new("tests/scenarios/base-two-tile-city.json")).unwrap();
    let events = good["turns"][0]["expect"]["events"].clone();
    assert_eq!(events.as_array().unwrap().len(), 2);
    // Given (as the engine writes them), they are checked.
    let mut v = good.clone();
    v["turns"][0]["events"] = events.clone();
    v["final_scoring"] = json!([]);
    let file = write(&dir, "given.json", &v);
    carcassonne_cli::scenario::run_file(Path::new(&file)).unwrap();
    let city = r#"{"type":"score","feature":"(0,0) city:N","players":[0],"points":4,"reason":"city completed"}"#;
    let mut v = good.clone();
    v["turns"][0]["events"] = events.clone();
    v["turns"][0]["events"][0]["points"] = json!(2);
    let two = city.replace("\"points\":4", "\"points\":2");
    assert_eq!(scenario_error(&dir, "points.json", &v), events_differ(1, "events[0]", Some(&two), Some(city)));
    let mut v = good.clone();
    v["turns"][0]["events"] = events.clone();
    v["final_scoring"] = json!([extra_score()]);
    assert_eq!(scenario_error(&dir, "final.json", &v), events_differ(0, "final_scoring[0]", Some(EXTRA_SCORE), None));
    // With `final_scoring` (as the engine writes records), a turn without `events` had none.
    let mut v = good.clone();
    v["final_scoring"] = json!([]);
    let found = city.to_string();
    assert_eq!(scenario_error(&dir, "no-events.json", &v), events_differ(1, "events[0]", None, Some(&found)));
}

/// Why a far cell is refused, after `cell [x, y]: x|y v is out of range`.
const NO_GAME_REACHES: &str =
    "a game of at most 8000 tiles (each at most 3 cells across) reaches no coordinate beyond ±24000";

#[test]
fn replay_refuses_cells_no_game_reaches() {
    assert_eq!(carcassonne_core::MAX_TILES, 8000);
    assert_eq!(carcassonne_core::MAX_COORD, 24000);
    let dir = scratch("record-far-cells");
    let (_, good) = recorded(&dir);
    let place = &good["turns"][0]["actions"][0];
    assert_eq!(place["type"], "place_tile");
    // Cells within 32 bits but beyond any game: `Pos::step` would overflow on the largest.
    for (k, x, y, value) in [
        (0, json!(2147483647), json!(0), "x 2147483647"),
        (1, json!(-2147483648i64), json!(0), "x -2147483648"),
        (2, json!(0), json!(2147483647), "y 2147483647"),
        (3, json!(0), json!(-2147483648i64), "y -2147483648"),
        (4, json!(24001), json!(0), "x 24001"),
        (5, json!(0), json!(-24001), "y -24001"),
    ] {
        let mut v = good.clone();
        v["turns"][0]["actions"][0]["cell"] = json!([x, y]);
        let msg = format!("turn 1: cell [{x}, {y}]: {value} is out of range: {NO_GAME_REACHES}");
        replay_refused(&dir, &format!("far-{k}.json"), &v, &msg);
    }
    // At the bound the cell is read, and the placement is judged as usual.
    let tile = place["tile"].as_str().unwrap();
    let mut v = good.clone();
    v["turns"][0]["actions"][0]["cell"] = json!([24000, -24000]);
    replay_refused(
        &dir,
        "far-bound.json",
        &v,
        &format!("turn 1: tile {tile} at (24000,-24000) touches no placed tile"),
    );
    // A figure's cell is read the same way.
    let (t, a) = first_figure_action(&good);
    let mut v = good.clone();
    v["turns"][t]["actions"][a]["cell"] = json!([2147483647, 0]);
    let msg = format!("turn {}: cell [2147483647, 0]: x 2147483647 is out of range: {NO_GAME_REACHES}", t + 1);
    replay_refused(&dir, "far-figure.json", &v, &msg);
}

/// The scenario `tests/scenarios/<name>`, as JSON.
fn scenario(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("tests/scenarios/{name}")).unwrap()).unwrap()
}

/// Runs the scenario `v` written as `name`; returns its error, with the file name cut off.
fn scenario_error(dir: &Path, name: &str, v: &Value) -> String {
    let file = write(dir, name, v);
    let err = carcassonne_cli::scenario::run_file(Path::new(&file)).expect_err("the scenario should fail");
    err.strip_prefix(&format!("{file}: ")).unwrap_or_else(|| panic!("error should name {file}: {err}")).to_string()
}

#[test]
fn scenarios_get_the_same_discard_and_cell_checks() {
    let dir = scratch("scenario-checks");
    let good = scenario("base-discard-unplaceable.json");
    assert_eq!(good["turns"][1]["discarded"], json!(["C"]));
    carcassonne_cli::scenario::run_file(Path::new("tests/scenarios/base-discard-unplaceable.json")).unwrap();

    let mut v = good.clone();
    v["turns"][1].as_object_mut().unwrap().remove("discarded");
    assert_eq!(
        scenario_error(&dir, "no-discard.json", &v),
        "turn 2: the record says \"discarded\": [], but the replay discarded [\"C\"] \
         (tiles drawn with no legal placement, BASE-4)"
    );

    let mut v = good.clone();
    v["turns"][0]["actions"][0]["cell"] = json!([2147483647, -1]);
    assert_eq!(
        scenario_error(&dir, "far-cell.json", &v),
        format!("turn 1: cell [2147483647, -1]: x 2147483647 is out of range: {NO_GAME_REACHES}")
    );
}

/// Two shards (0/2 and 1/2) of one 8-game run, as JSON values: their summaries alone
/// (`merge` reads a bare summary too, as earlier versions wrote it).
fn shards() -> (Value, Value) {
    let sim = |shard: &str| -> Value {
        let v: Value = serde_json::from_str(&ok(&[
            "simulate",
            "--json",
            "--rules",
            "config/base.toml",
            "--games",
            "8",
            "--seed",
            "3",
            "--shard",
            shard,
        ]))
        .unwrap();
        simulate_util::summary(&v).clone()
    };
    (sim("0/2"), sim("1/2"))
}

#[test]
fn merge_refuses_totals_that_overflow() {
    let dir = scratch("merge-overflow");
    let (s0, s1) = shards();
    let a = write(&dir, "s0.json", &s0);
    // Unedited, the shards merge.
    ok(&["merge", "--json", &a, &write(&dir, "s1.json", &s1)]);

    let mut v = s1.clone();
    v["totals"]["turns"] = json!(u64::MAX);
    let b = write(&dir, "turns.json", &v);
    bad_input(&["merge", "--json", &a, &b], "turns.json: cannot add its totals: totals.turns");

    let mut v = s1.clone();
    let source = v["points_by_source"][0]["source"].as_str().unwrap().to_string();
    assert!(s0["points_by_source"][0]["total"][0].as_i64().unwrap() > 0, "seat 0 scored some {source} points");
    v["points_by_source"][0]["total"][0] = json!(i64::MAX);
    let b = write(&dir, "points.json", &v);
    let err = bad_input(&["merge", "--json", &a, &b], "points.json: cannot add its totals");
    assert!(err.contains(&format!("points_by_source '{source}' total[0]")) && err.contains("overflows"), "{err}");

    // Within one summary: win shares that wrap around are inconsistent, not accepted.
    let mut v = s1.clone();
    v["totals"]["win_sixtieths"] = json!([u64::MAX, 1 + v["games"].as_u64().unwrap() * 60]);
    let b = write(&dir, "wins.json", &v);
    bad_input(&["merge", "--json", &a, &b], "wins.json: inconsistent summary: win shares");
}

#[test]
fn merge_names_the_plugin_difference() {
    let dir = scratch("merge-plugins");
    let (s0, s1) = shards();
    let a = write(&dir, "s0.json", &s0);
    let base = s0["plugins"][0].clone();
    assert_eq!(base["name"], "base");
    let farmers = base["options"]["farmers"].as_bool().expect("base has a farmers option");

    let mut v = s1.clone();
    v["plugins"][0]["options"]["farmers"] = json!(!farmers);
    let b = write(&dir, "farmers.json", &v);
    let err = bad_input(&["merge", "--json", &a, &b], "farmers.json: cannot merge summaries of different runs");
    assert!(err.contains(&format!("plugin 'base' option farmers {} differs from {farmers}", !farmers)), "{err}");

    let mut v = s1.clone();
    v["plugins"][0]["priority"] = json!(7);
    let b = write(&dir, "priority.json", &v);
    bad_input(&["merge", "--json", &a, &b], "plugin 'base' priority 7 differs from 0");

    let mut v = s1.clone();
    v["plugins"].as_array_mut().unwrap().push(json!({"name": "extra", "priority": 99, "options": {}}));
    let b = write(&dir, "extra.json", &v);
    let n = v["plugins"].as_array().unwrap().len();
    bad_input(&["merge", "--json", &a, &b], &format!("plugin {n} 'extra' differs from none"));
}

/// The turn index and action index of a record's first figure placement.
fn first_figure_action(record: &Value) -> (usize, usize) {
    let turns = record["turns"].as_array().unwrap();
    turns
        .iter()
        .enumerate()
        .find_map(|(t, turn)| {
            turn["actions"].as_array().unwrap().iter().position(|a| a["type"] == "figure").map(|a| (t, a))
        })
        .expect("some follower placed")
}

#[test]
fn misspelt_record_and_scenario_keys_are_refused() {
    // A misspelt key (`discard` for `discarded`) used to be ignored: its check never ran.
    let dir = scratch("unknown-keys");
    let (_, good) = recorded(&dir);
    type Edit = (&'static str, fn(&mut Value));
    let edits: [Edit; 5] = [
        ("final_score", |v| v["final_score"] = json!([0, 0])),
        ("txt", |v| v["rules"]["txt"] = json!("")),
        ("option", |v| v["rules"]["plugins"][0]["option"] = json!({})),
        ("discard", |v| v["turns"][2]["discard"] = json!(["H"])),
        ("point", |v| v["final_scoring"][0]["point"] = json!(1)),
    ];
    for (key, edit) in edits {
        let mut v = good.clone();
        edit(&mut v);
        let file = format!("{key}.json");
        replay_fails(&dir, &file, &v, &[&format!("{file}:"), &format!("unknown field `{key}`")]);
    }
    // Scenarios too (they are records with a forced tile order and expectations).
    let mut v = scenario("base-two-tile-city.json");
    v["turns"][0]["expects"] = json!({});
    let err = scenario_error_with_line(&dir, "expects.json", &v);
    assert!(err.contains("unknown field `expects`, expected one of `turn`, `player`, `tile`"), "{err}");
}

/// Like [`scenario_error`], for an error that names a line (`FILE:LINE: ...`).
fn scenario_error_with_line(dir: &Path, name: &str, v: &Value) -> String {
    let file = write(dir, name, v);
    let err = carcassonne_cli::scenario::run_file(Path::new(&file)).expect_err("the scenario should fail");
    assert!(err.starts_with(&format!("{file}:")), "error should name {file}: {err}");
    err
}
