//! Interface 3.0 carries real expansions: the princess (PD-PRINCESS-1) and the abbot
//! (ABBOT-1..2) ported to plugin files (plugins/examples/princess, plugins/examples/abbot)
//! play the same games as the built-in plugins: over 2,000 random games each of
//! `classic-everything` and `config/abbot.toml`, identical turns, actions, events, final
//! scoring, scores, points by source and statistics; `simulate` summaries identical apart
//! from the rule set's name and plugin list; the same scenarios pass.

mod plugin_util;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_cli::driver::play_game;
use carcassonne_core::record::GameRecord;
use carcassonne_core::{Game, Rules};
use plugin_util::{path_of, scratch};
use serde_json::Value;

/// Random games per rule set.
const GAMES: u64 = 2_000;

/// The text of `config/FILE` with the built-in `plugin` replaced by the plugin file `lib`
/// (same priority and options) and its tile paths made absolute.
fn ported_text(file: &str, plugin: &str, lib: &str) -> String {
    let text = std::fs::read_to_string(format!("config/{file}")).unwrap();
    let tiles = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/tiles").display().to_string().replace('\\', "/");
    let entry = format!("[[plugins]]\nname = \"{plugin}\"\n");
    assert_eq!(text.matches(&entry).count(), 1, "{file} names plugin '{plugin}' once");
    let file_entry = format!("[[plugins]]\npath = \"{}\"\n", path_of(lib));
    text.replace(&entry, &file_entry).replace("\"tiles/", &format!("\"{tiles}/"))
}

fn load(name: &str, text: &str) -> (Arc<Rules>, String) {
    let file = scratch(name).join("rules.toml").display().to_string();
    std::fs::write(&file, text).unwrap();
    (load_rules_text(&file, text).unwrap_or_else(|e| panic!("{e}")), file)
}

fn builtin(file: &str) -> (Arc<Rules>, String, String) {
    let text = std::fs::read_to_string(format!("config/{file}")).unwrap();
    let path = format!("config/{file}");
    (load_rules_text(&path, &text).unwrap(), path, text)
}

/// A game's record without its rule-set description (name, file, text, plugin list).
fn played(g: &Game, seed: u64) -> Value {
    let rec = GameRecord::from_game(g, "x", None, seed);
    let mut v = serde_json::to_value(&rec).unwrap();
    v.as_object_mut().unwrap().remove("rules");
    v
}

/// Statistics and points by source (per seat), by name.
type Tallies = (Vec<(String, i64)>, Vec<(String, Vec<i32>)>);

fn tallies(g: &Game) -> Tallies {
    let r = &g.rules;
    let mut stats: Vec<(String, i64)> = r.stats.iter().enumerate().map(|(i, n)| (n.clone(), g.st.stats[i])).collect();
    stats.sort();
    let mut points: Vec<(String, Vec<i32>)> = r
        .sources
        .iter()
        .enumerate()
        .map(|(s, n)| (n.clone(), (0..g.st.players).map(|p| g.st.points_by_source[p][s]).collect()))
        .collect();
    points.sort();
    (stats, points)
}

fn same_games(config: &str, plugin: &str, lib: &str) {
    let (a, ..) = builtin(config);
    let (b, _) = load(&format!("port-{plugin}"), &ported_text(config, plugin, lib));
    assert!(b.plugins.iter().any(|p| p.name == plugin));
    let bots: Vec<String> = vec!["random".to_string(); 6];
    let mut acted = 0;
    for seed in 0..GAMES {
        let players = a.min_players + seed as usize % (a.max_players - a.min_players + 1);
        let ga = play_game(&a, players, seed, &bots[..players], true).unwrap();
        let gb = play_game(&b, players, seed, &bots[..players], true).unwrap();
        assert!(gb.failure().is_none(), "{config} seed {seed}: {:?}", gb.failure());
        let (ra, rb) = (played(&ga, seed), played(&gb, seed));
        if ra != rb {
            let turns = |v: &Value| v["turns"].as_array().cloned().unwrap_or_default();
            let (ta, tb) = (turns(&ra), turns(&rb));
            let first = ta.iter().zip(&tb).position(|(x, y)| x != y);
            panic!(
                "{config} seed {seed}: the games differ at turn index {first:?}:\n built-in {}\n file     {}",
                first.map_or(Value::Null, |i| ta[i].clone()),
                first.map_or(Value::Null, |i| tb[i].clone())
            );
        }
        assert_eq!(tallies(&ga), tallies(&gb), "{config} seed {seed}");
        acted += ra["turns"].to_string().matches(&format!("\"plugin\":\"{plugin}\"")).count();
    }
    assert!(
        acted as u64 >= GAMES / 100,
        "{config}: the {plugin}'s own actions were taken only {acted} times in {GAMES} games"
    );
}

#[test]
fn the_princess_file_plays_the_same_classic_everything_games_as_the_built_in() {
    same_games("classic-everything.toml", "princess", "house_princess");
}

#[test]
fn the_abbot_file_plays_the_same_abbot_games_as_the_built_in() {
    same_games("abbot.toml", "abbot", "house_abbot");
}

/// `simulate --json` of the built-in and the ported rule set: the same summary but for the
/// rule set's name, file and plugin list.
#[test]
fn simulate_summaries_of_the_ports_match_the_built_ins() {
    for (config, plugin, lib) in
        [("classic-everything.toml", "princess", "house_princess"), ("abbot.toml", "abbot", "house_abbot")]
    {
        let (_, file) = load(&format!("sim-{plugin}"), &ported_text(config, plugin, lib));
        let run = |rules: &str| -> Value {
            let out = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
                .args(["simulate", "--rules", rules, "--games", "300", "--seed", "9", "--json", "--threads", "1"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let strip = |mut v: Value| {
            for key in ["rules", "name", "file", "plugins", "wall_seconds", "games_per_second", "elapsed"] {
                strip_key(&mut v, key);
            }
            v
        };
        let (a, b) = (strip(run(&format!("config/{config}"))), strip(run(&file)));
        assert_eq!(a, b, "{config}");
    }
}

/// Removes `key` at every depth.
fn strip_key(v: &mut Value, key: &str) {
    match v {
        Value::Object(m) => {
            m.remove(key);
            m.values_mut().for_each(|x| strip_key(x, key));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| strip_key(x, key)),
        _ => {}
    }
}

/// Every scenario whose rule set names the built-in princess or abbot passes with the
/// plugin file in its place.
#[test]
fn the_ports_pass_the_same_scenarios() {
    let mut ran = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("tests/scenarios").unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        let mut rec: GameRecord = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let text = match &rec.rules.text {
            Some(t) => t.clone(),
            None => std::fs::read_to_string(&rec.rules.file).unwrap(),
        };
        for (plugin, lib) in [("princess", "house_princess"), ("abbot", "house_abbot")] {
            let entry = format!("[[plugins]]\nname = \"{plugin}\"\n");
            if !text.contains(&entry) {
                continue;
            }
            let mut r = rec.clone();
            r.rules.text = Some(text.replace(&entry, &format!("[[plugins]]\npath = \"{}\"\n", path_of(lib))));
            let shown = format!("{} (with the {plugin} file)", f.display());
            carcassonne_cli::scenario::run(&r, &shown).unwrap_or_else(|e| panic!("{e}"));
            ran.push(shown);
        }
        rec.rules.text = None;
    }
    // pd-princess-may/must and the abbot and combo-abbot scenarios at least.
    assert!(ran.len() >= 7, "{ran:#?}");
}
