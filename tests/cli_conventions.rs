//! The CLI as its ecosystem expects (issue 22): `carcassonne rules` lists every embedded
//! rule set and every built-in plugin with its options, defaults and allowed values, read
//! from the plugins themselves (checked against docs/options.md's table); `RUST_LOG`
//! output has no colour codes off a terminal and names things in the record notation.

mod simulate_util;

use carcassonne_cli::builtin::{factories, DEFAULT_RULES, EMBEDDED_FILES};
use serde_json::Value;
use simulate_util::ok;

fn listing() -> Value {
    serde_json::from_str(&ok(&["rules", "--json"])).expect("JSON")
}

fn plugin<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["plugins"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{name}"))
}

fn option<'a>(v: &'a Value, plugin_name: &str, option: &str) -> &'a Value {
    let p = plugin(v, plugin_name);
    p["options"].as_array().unwrap().iter().find(|o| o["name"] == option).unwrap_or_else(|| panic!("{option}"))
}

#[test]
fn every_embedded_rule_set_is_listed_once_with_the_default_marked() {
    let v = listing();
    let sets = v["rule_sets"].as_array().unwrap();
    let expected: Vec<String> = EMBEDDED_FILES
        .iter()
        .filter(|(p, _)| !p.starts_with("config/tiles/"))
        .map(|(p, _)| format!("embedded:{p}"))
        .collect();
    let listed: Vec<&str> = sets.iter().map(|s| s["file"].as_str().unwrap()).collect();
    assert_eq!(listed, expected);
    let defaults: Vec<&str> =
        sets.iter().filter(|s| s["default"] == true).map(|s| s["file"].as_str().unwrap()).collect();
    assert_eq!(defaults, vec![DEFAULT_RULES]);
    let castle = sets.iter().find(|s| s["file"] == "embedded:config/castle.toml").unwrap();
    // castle runs before base (priority -10).
    assert_eq!(castle["plugins"], serde_json::json!(["castle", "base"]));
}

#[test]
fn every_built_in_plugin_is_listed_with_its_rule_ids_and_options() {
    let v = listing();
    let names: Vec<&str> = v["plugins"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, factories().iter().map(|f| f.name).collect::<Vec<_>>());
    assert!(plugin(&v, "tower")["summary"].as_str().unwrap().contains("TOWER-1..5"));
    assert_eq!(plugin(&v, "dragon-2025")["conflicts"], serde_json::json!(["dragon"]));
    assert_eq!(option(&v, "tower", "ransom")["default"], 3);
    assert_eq!(option(&v, "tower", "ransom")["allowed"], "0 to 100");
    assert_eq!(option(&v, "base", "farmers")["allowed"], "true | false");
    assert_eq!(option(&v, "dragon", "dragon_move")["default"], "before_scoring");
    assert_eq!(option(&v, "dragon", "dragon_move")["allowed"], "\"before_scoring\" | \"after_scoring\"");
    assert_eq!(option(&v, "wagon", "wagon_move")["allowed"], "\"c2\" | \"c1\"");
}

#[test]
fn the_listing_agrees_with_the_option_table_of_the_docs() {
    let v = listing();
    let doc = std::fs::read_to_string("docs/options.md").unwrap();
    let mut rows = 0;
    for line in doc.lines().filter(|l| l.starts_with("| `") && !l.contains("plugin file")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (p, o, default, allowed) = (cells[1].trim_matches('`'), cells[2].trim_matches('`'), cells[3], cells[4]);
        let listed = option(&v, p, o);
        assert_eq!(listed["default"].to_string(), default, "{p}.{o}");
        assert!(allowed.starts_with(listed["allowed"].as_str().unwrap()), "{p}.{o}: {allowed} vs {listed}");
        rows += 1;
    }
    assert!(rows >= 20, "{rows} rows");
}

#[test]
fn the_text_listing_names_each_plugin_and_the_help_names_the_default_rule_set() {
    let text = ok(&["rules"]);
    for f in factories() {
        assert!(text.contains(&format!("  {}: ", f.name)), "{}", f.name);
    }
    assert!(text.contains("ransom = 3 (allowed: 0 to 100)"), "{text}");
    for cmd in ["simulate", "play"] {
        let help = ok(&[cmd, "--help"]);
        assert!(help.contains(&format!("[default: {DEFAULT_RULES}]")), "{cmd}: {help}");
    }
}

#[test]
fn log_output_off_a_terminal_has_no_colour_and_uses_the_record_notation() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["play", "--rules", "embedded:config/base.toml", "--seed", "3"])
        .env("RUST_LOG", "debug")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\u{1b}'), "colour codes in a pipe: {err}");
    let placed = err.lines().find(|l| l.contains("figure placed")).expect("a figure placed");
    assert!(placed.contains("figure=\"follower\"") && placed.contains(" at=\"("), "{placed}");
    let tile = err.lines().find(|l| l.contains("tile placed")).unwrap();
    assert!(tile.contains(" cell=(") && tile.contains(" rotation="), "{tile}");
    let scored = err.lines().find(|l| l.contains("feature scored")).expect("a scoring");
    assert!(scored.contains(" feature=\"(") && scored.contains(" players=["), "{scored}");
}

/// The repository holds what its docs refer to: no web link, no path out of the
/// repository, and every relative link of the docs names a file that exists.
#[test]
fn the_docs_point_only_inside_the_repository() {
    let mut files = vec![std::path::PathBuf::from("README.md")];
    for e in std::fs::read_dir("docs").unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    assert!(
        files.len() > 10
            && files.iter().any(|f| f.ends_with("rules.md"))
            && files.iter().any(|f| f.ends_with("notation.md"))
    );
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for bad in ["https://", "http://", "../shared", "RULES.md", "EXPANSIONS.md", "TILES-MORE.md", "NOTATION.md"] {
            assert!(!text.contains(bad), "{} mentions {bad}", f.display());
        }
        let dir = f.parent().unwrap();
        for link in text.split("](").skip(1).map(|r| &r[..r.find(')').unwrap_or(0)]) {
            let target = link.split('#').next().unwrap();
            let is_path = target.contains('.')
                && !target.starts_with('.')
                && target.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c));
            if is_path || target.starts_with("../") {
                assert!(dir.join(target).exists(), "{}: link to {target} that does not exist", f.display());
            }
        }
    }
}

#[test]
fn log_events_come_in_game_and_turn_spans_and_plugins_log_their_effects() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["play", "--rules", "embedded:config/princess-dragon.toml", "--seed", "1"])
        .env("RUST_LOG", "debug")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().next().unwrap();
    assert!(first.contains("game{rules=\"princess-dragon\" seed=1}:turn{n=1 player=0}:"), "{first}");
    for event in ["dragon step", "dragon movement starts", "fairy moves", "figure removed"] {
        assert!(err.contains(event), "no '{event}' event");
    }
    let step = err.lines().find(|l| l.contains("dragon step")).unwrap();
    assert!(step.contains(" to=("), "{step}");
    let removed = err.lines().find(|l| l.contains("figure removed")).unwrap();
    assert!(removed.contains(" at=\"(") && removed.contains(" by="), "{removed}");
}
