//! `play --record` then `replay` give the same final scores; an edited record fails
//! replay naming the turn.

use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("carc-cli-{}-{name}", std::process::id()))
}

fn json_of(out: &std::process::Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn play_record_then_replay_same_scores() {
    for (rules, players) in [("config/base.toml", 3), ("config/river.toml", 2), ("config/classic-everything.toml", 4)] {
        let rec = tmp(&format!("g{players}.json"));
        let played = json_of(
            &bin()
                .args(["play", "--rules", rules, "--players", &players.to_string(), "--seed", "1", "--json"])
                .arg("--record")
                .arg(&rec)
                .output()
                .unwrap(),
        );
        let scores = played["final_scores"].as_array().unwrap().clone();
        assert_eq!(scores.len(), players);
        let replayed = json_of(&bin().arg("replay").arg(&rec).arg("--json").output().unwrap());
        // One shape for both (issue 22): the same object, tagged.
        assert_eq!(replayed, played);
        assert_eq!(played["format"], "carcassonne-result/1");
        assert_eq!(played["players"], players);
        assert_eq!(played["seed"], 1);
        // The record stores the resolved plugin order.
        let r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
        assert_eq!(r["rules"]["plugins"][0]["name"], played["plugins"][0]["name"]);
        assert_eq!(r["final_scores"].as_array().unwrap(), &scores);
    }
}

#[test]
fn text_output_prints_plugin_order_and_scores() {
    let out = bin().args(["play", "--rules", "config/river.toml", "--seed", "2"]).output().unwrap();
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("plugins: base (priority 0)"), "{s}");
    assert!(s.contains("river (priority 10)"), "{s}");
    assert!(s.contains("final scores: seat 0:"), "{s}");
}

#[test]
fn edited_illegal_placement_fails_naming_the_turn() {
    let rec = tmp("edit.json");
    let st =
        bin().args(["play", "--rules", "config/base.toml", "--seed", "4"]).arg("--record").arg(&rec).output().unwrap();
    assert!(st.status.success());
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    // Move turn 10's tile far away from every other tile.
    let turn = &mut r["turns"][9];
    assert_eq!(turn["turn"], 10);
    turn["actions"][0]["cell"] = serde_json::json!([40, 40]);
    let bad = tmp("edit-bad.json");
    std::fs::write(&bad, serde_json::to_string(&r).unwrap()).unwrap();
    let out = bin().arg("replay").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("turn 10:") && err.contains("touches no placed tile"), "{err}");

    // A rotation that does not match its neighbours.
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let a = &r["turns"][0]["actions"][0];
    let rot = a["rotation"].as_i64().unwrap();
    let mut found = false;
    for d in [90, 180, 270] {
        r["turns"][0]["actions"][0]["rotation"] = serde_json::json!((rot + d) % 360);
        std::fs::write(&bad, serde_json::to_string(&r).unwrap()).unwrap();
        let out = bin().arg("replay").arg(&bad).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        if err.contains("turn 1:") && err.contains("shows") {
            assert_eq!(out.status.code(), Some(2));
            found = true;
            break;
        }
    }
    assert!(found, "some other rotation of turn 1's tile mismatches its neighbour");
}

#[test]
fn malformed_record_is_bad_input() {
    let bad = tmp("malformed.json");
    std::fs::write(&bad, "{\"format\": 1,\n").unwrap();
    let out = bin().arg("replay").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed.json:"));
}

/// A recorded figure placement or plugin action that is not legal where it stands fails
/// replay naming the turn, the action (without its seat) and some legal ones; a wrong seat
/// is named as such.
#[test]
fn edited_figure_or_plugin_action_fails_naming_the_turn() {
    let rec = tmp("pd.json");
    let args = ["play", "--rules", "config/princess-dragon.toml", "--seed", "4"];
    assert!(bin().args(args).arg("--record").arg(&rec).output().unwrap().status.success());
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let bad = tmp("pd-bad.json");
    let replay_err = |r: &Value| {
        std::fs::write(&bad, serde_json::to_string(r).unwrap()).unwrap();
        let out = bin().arg("replay").arg(&bad).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).to_string())
    };

    // Turn 2: seat 1's follower on (1,1) city:S; that tile has no road N.
    let mut r = original.clone();
    let a = &mut r["turns"][1]["actions"][1];
    assert_eq!((a["type"].as_str(), a["feature"].as_str()), (Some("figure"), Some("city:S")));
    a["feature"] = "road:N".into();
    let (code, err) = replay_err(&r);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("turn 2:") && err.contains("is not legal here"), "{err}");
    let want = r#"{"cell":[1,1],"feature":"road:N","figure":"follower","type":"figure"} is not legal here"#;
    assert!(err.contains(want), "{err}");

    // Turn 6: seat 1 moves the fairy to seat 0's follower of turn 3 (PD-FAIRY-1: own
    // followers only).
    let mut r = original.clone();
    let a = &mut r["turns"][5]["actions"][1];
    assert_eq!(a["action"], "move_fairy");
    a["at"] = "(1,0) field:Es+Se+Sw+Ws".into();
    let (code, err) = replay_err(&r);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("turn 6:") && err.contains("is not legal here"), "{err}");

    // The seat is checked against the decision, not matched with the candidates.
    let mut r = original.clone();
    r["turns"][1]["actions"][1]["player"] = 0.into();
    let (code, err) = replay_err(&r);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("turn 2: the record has player 0 act, but the decision is player 1's"), "{err}");
}

#[test]
fn a_record_replays_from_any_directory() {
    // The record notes the directory its relative rule-set path was written from, so the
    // rule set's tile files are found from anywhere while that directory exists.
    let rec = tmp("anywhere.json");
    let played = bin().args(["play", "--rules", "config/river.toml", "--record"]).arg(&rec).output().unwrap();
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let here = std::env::current_dir().unwrap().display().to_string();
    assert_eq!(r["rules"]["file"], "config/river.toml");
    assert_eq!(r["rules"]["dir"], here.as_str());
    let elsewhere = std::env::temp_dir();
    let replay_in = |dir: &std::path::Path, file: &std::path::Path| {
        bin().arg("replay").arg(file).current_dir(dir).output().unwrap()
    };
    let out = replay_in(&elsewhere, &rec);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Without `dir` (or with one that is gone) the path is relative to where replay runs.
    let stale = tmp("anywhere-stale.json");
    r["rules"]["dir"] = Value::from("/no/such/dir/anywhere");
    std::fs::write(&stale, serde_json::to_vec(&r).unwrap()).unwrap();
    let out = replay_in(&elsewhere, &stale);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config/river.toml:7: tiles.base = 'tiles/base.toml': cannot read 'config/tiles/base.toml'"),
        "{err}"
    );
    let out = replay_in(std::path::Path::new(&here), &stale);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
