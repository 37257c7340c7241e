//! Run-time plugins (shared libraries named by `[[plugins]] path = "..."`): the example
//! house rules change exact scores and legal moves, run in priority order among the
//! built-in plugins, and bad plugin files or misbehaving hooks give clear errors naming
//! the plugin (and the hook) instead of aborting.

mod plugin_util;

use std::process::Command;
use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_cli::driver::play_game;
use carcassonne_core::record::GameRecord;
use carcassonne_core::{Action, Game, GameOptions, Pos, Rotation, Rules};
use plugin_util::{base_tiles, base_with, house_rules_text, path_of, scratch, write_rules};
use serde_json::{json, Value};

fn load(dir: &std::path::Path, text: &str) -> Result<Arc<Rules>, String> {
    let file = write_rules(dir, text);
    load_rules_text(&file, text).map_err(|e| e.to_string())
}

fn load_ok(name: &str, text: &str) -> Arc<Rules> {
    load(&scratch(name), text).unwrap_or_else(|e| panic!("rule set should load: {e}\n{text}"))
}

fn err_of(name: &str, text: &str) -> String {
    match load(&scratch(name), text) {
        Ok(_) => panic!("rule set should be refused:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// A `[[plugins]]` entry for a plugin file, with an options table body.
fn file_entry(lib: &str, priority: i64, options: &str) -> String {
    format!("[[plugins]]\npath = \"{}\"\npriority = {priority}\n[plugins.options]\n{options}\n", path_of(lib))
}

#[test]
fn house_rules_load_both_plugin_files_among_the_built_in_plugins() {
    let rules = load_ok("house", &house_rules_text());
    // Each file is its own module (abi_stable's load_from_* would give the first file's
    // module to the second: two plugins named 'monastery-bonus').
    assert_eq!(rules.plugin_names(), vec!["base", "monastery-bonus", "no-farmers"]);
    let prio: Vec<i64> = rules.plugins.iter().map(|p| p.priority).collect();
    assert_eq!(prio, vec![0, 10, 20]);
    assert_eq!(rules.plugins[1].options, json!({"points": 12}));
    assert_eq!(rules.plugins[2].options, json!({"forbid": ["field"]}));
    assert!(rules.source("monastery").is_some());
}

#[test]
fn a_plugin_file_runs_in_priority_order_ties_by_name() {
    // probe (priority -3) runs before base (0); equal priorities go by name.
    let text = base_with(&format!(
        "priority = 5\n{}{}",
        file_entry("carcassonne_test_probe", -3, ""),
        file_entry("house_monastery", 5, "points = 10")
    ));
    let rules = load_ok("order", &text);
    assert_eq!(rules.plugin_names(), vec!["probe", "base", "monastery-bonus"]);
}

/// tests/scenarios/base-monastery.json (a monk completes a monastery on turn 8, another
/// monk stands on an incomplete one at the end) with the monastery-bonus plugin.
fn monastery_scenario(points: i32) -> GameRecord {
    let mut rec: Value =
        serde_json::from_str(&std::fs::read_to_string("tests/scenarios/base-monastery.json").unwrap()).unwrap();
    let dir = scratch(&format!("monastery-{points}"));
    let text = base_with(&file_entry("house_monastery", 10, &format!("points = {points}")));
    let file = write_rules(&dir, &text);
    rec["rules"] = json!({"file": file, "text": text});
    let extra = points - 9;
    for t in rec["turns"].as_array_mut().unwrap() {
        t.as_object_mut().unwrap().remove("expect");
    }
    // Turn 8 closes the monastery of seat 0: the base plugin scores 9, the house rule adds
    // the difference (a negative one takes points away), then the monk returns.
    let mut events = vec![
        json!({"type": "score", "feature": "(0,1) monastery", "players": [0], "points": 9, "reason": "monastery completed"}),
        json!({"type": "removed", "figure": "follower", "owner": 0, "at": "(0,1) monastery", "reason": "scored"}),
    ];
    if extra != 0 {
        let bonus =
            json!({"type": "score", "feature": null, "players": [0], "points": extra, "reason": "monastery-bonus"});
        events.insert(1, bonus);
    }
    rec["turns"][7]["expect"] = json!({
        "events": events,
        "scores": [points, 0],
        "supply": {"follower": [7, 7]}
    });
    // The monk on A at (-2,0) has 2 neighbours at the end: 3 points, unchanged by the rule.
    rec["expect"] = json!({
        "scores": [points + 3, 0],
        "decision": "over",
        "final_scoring": [
            {"type": "score", "feature": "(-2,0) monastery", "players": [0], "points": 3, "reason": "monastery final"}
        ],
        "points_by_source": {"monastery": [points + 3, 0]}
    });
    serde_json::from_value(rec).unwrap_or_else(|e| panic!("scenario record: {e}"))
}

#[test]
fn a_completed_monastery_is_worth_the_plugin_option() {
    for points in [12, 9, 5] {
        let rec = monastery_scenario(points);
        carcassonne_cli::scenario::run(&rec, &format!("monastery scenario, points = {points}")).unwrap();
    }
}

/// Seat 0 places B (a monastery in a field) at (0,1) and gets the figure decision.
fn figure_choices(text: &str, name: &str) -> (Game, Vec<(Action, Value)>) {
    let rules = load_ok(name, text);
    let b = rules.catalog.id("B").unwrap();
    let mut g =
        Game::start(rules, GameOptions { players: 2, seed: 0, tile_order: Some(vec![b]), record: false }).unwrap();
    g.try_play(Action::PlaceTile { pos: Pos::new(0, 1), rot: Rotation::from_quarters(0), face: 0 }).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let described = legal.iter().map(|a| (*a, g.describe(a))).collect();
    (g, described)
}

#[test]
fn no_farmers_vetoes_figures_on_fields() {
    let (_, plain) = figure_choices(&base_with(""), "farmers-plain");
    let kinds = |l: &[(Action, Value)]| -> Vec<String> {
        // "field:Nw+Ne+..." -> "field"
        let kind = |d: &Value| {
            d["feature"].as_str().unwrap_or(d["type"].as_str().unwrap()).split(':').next().unwrap().to_string()
        };
        let mut v: Vec<String> = l.iter().map(|(_, d)| kind(d)).collect();
        v.sort();
        v
    };
    assert_eq!(kinds(&plain), vec!["field", "monastery", "pass"]);
    let text = base_with(&file_entry("house_no_farmers", 20, ""));
    let (mut g, vetoed) = figure_choices(&text, "farmers-vetoed");
    assert_eq!(kinds(&vetoed), vec!["monastery", "pass"]);
    let farmer = plain.iter().find(|(_, d)| d["feature"].as_str().is_some_and(|f| f.starts_with("field"))).unwrap().0;
    let e = g.try_play(farmer).unwrap_err().to_string();
    assert!(e.contains("not a legal answer"), "{e}");
    // `forbid` names other feature kinds.
    let text = base_with(&file_entry("house_no_farmers", 20, "forbid = [\"monastery\"]"));
    let (_, vetoed) = figure_choices(&text, "farmers-monastery");
    assert_eq!(kinds(&vetoed), vec!["field", "pass"]);
}

#[test]
fn house_rules_show_in_whole_games() {
    let house = load_ok("house-games", &house_rules_text());
    let field = house.source("field").unwrap() as usize;
    let monastery = house.source("monastery").unwrap() as usize;
    let mut completed_bonus = 0;
    for seed in 1..=20 {
        let g = play_game(&house, 2, seed, &["random".to_string()], true).unwrap();
        for seat in 0..2 {
            assert_eq!(g.st.points_by_source[seat][field], 0, "seed {seed}: a farmer scored");
        }
        assert!(g
            .st
            .figures
            .iter()
            .all(|f| !f.alive || f.node.is_none_or(|n| g.st.graph.node(n).kind.name() != "field")));
        completed_bonus += (0..2).map(|s| g.st.points_by_source[s][monastery]).sum::<i32>();
    }
    assert!(completed_bonus > 0);
}

#[test]
fn a_no_op_plugin_on_every_hook_changes_nothing() {
    let plain = load_ok("noop-plain", &base_with(""));
    let probed = load_ok("noop-probe", &base_with(&file_entry("carcassonne_test_probe", 5, "")));
    assert!(probed.uses(carcassonne_core::Hooks::ALLOW_TILE) && probed.uses(carcassonne_core::Hooks::QUERY));
    for seed in 1..=10 {
        let bots = ["random".to_string()];
        let a = play_game(&plain, 2, seed, &bots, false).unwrap();
        let b = play_game(&probed, 2, seed, &bots, false).unwrap();
        assert_eq!(a.scores(), b.scores(), "seed {seed}");
        assert_eq!(a.st.turn, b.st.turn);
    }
}

/// A tile veto that lists the candidates and forbids none (a `veto` entry that matches no
/// placement) and one that never asks for them (the quiet probe) give the games of no veto
/// at all: the random player's pick from the listed placements is the counted one.
#[test]
fn a_veto_that_forbids_nothing_gives_the_same_games_listed_or_not() {
    let plain = load_ok("nolist-plain", &base_with(""));
    let listing = load_ok(
        "nolist-listing",
        &base_with(&file_entry(
            "carcassonne_test_probe",
            5,
            "veto = [\"Z 999 999 0 0\"]\nonly_hooks = [\"allow_tile\"]",
        )),
    );
    for seed in 1..=10 {
        let bots = ["random".to_string()];
        let a = play_game(&plain, 2, seed, &bots, true).unwrap();
        let b = play_game(&listing, 2, seed, &bots, true).unwrap();
        assert_eq!(a.scores(), b.scores(), "seed {seed}");
        assert_eq!(a.st.turn, b.st.turn, "seed {seed}");
        let placed = |g: &Game| g.st.board.parts.iter().map(|p| (p.tile, p.pos, p.rot)).collect::<Vec<_>>();
        assert_eq!(placed(&a), placed(&b), "seed {seed}");
    }
}

/// The tile placements of the first decision of a seed-1 game.
fn first_placements(rules: &Arc<Rules>) -> (String, Vec<Action>) {
    let g = Game::new(rules.clone(), 2, 1).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    (rules.catalog.tiles[g.st.tile.unwrap() as usize].id.clone(), legal)
}

/// A placement as the probe's `veto` option names it: tile, x, y, degrees, face.
fn veto_entry(tile: &str, a: &Action) -> String {
    let Action::PlaceTile { pos, rot, face } = *a else { panic!("{a:?}") };
    format!("\"{tile} {} {} {} {face}\"", pos.x, pos.y, rot.degrees())
}

#[test]
fn a_plugin_file_vetoes_exactly_the_tile_placements_it_names() {
    // BASE-3 placements filtered by a plugin: the engine hands its own candidate list across
    // the boundary; each candidate must reach the plugin as its cell, rotation and face.
    let (tile, legal) = first_placements(&load_ok("veto-plain", &base_with("")));
    assert!(legal.len() >= 4, "{legal:?}");
    let gone = [legal[0], legal[legal.len() / 2], legal[legal.len() - 1]];
    let list = gone.iter().map(|a| veto_entry(&tile, a)).collect::<Vec<_>>().join(", ");
    let probed =
        load_ok("veto-probe", &base_with(&file_entry("carcassonne_test_probe", 5, &format!("veto = [{list}]"))));
    let (_, left) = first_placements(&probed);
    let expected: Vec<Action> = legal.iter().copied().filter(|a| !gone.contains(a)).collect();
    assert_eq!(left, expected);
}

#[test]
fn a_tile_a_plugin_file_forbids_everywhere_is_discarded() {
    // BASE-4 through the draw-time check: every placement of C (one tile in the base game)
    // is vetoed, so it is shown, removed and another tile drawn.
    let rules = load_ok("veto-tile", &base_with(&file_entry("carcassonne_test_probe", 5, "veto_tile = \"C\"")));
    let c = rules.catalog.tiles.iter().position(|t| t.id == "C").unwrap() as u16;
    for seed in 1..=5 {
        let g = play_game(&rules, 2, seed, &["random".to_string()], true).unwrap();
        assert!(g.st.board.parts.iter().all(|p| p.tile != c), "seed {seed}: C was placed");
        let log = g.st.log.as_ref().unwrap();
        let c_discarded = log
            .iter()
            .filter(|e| matches!(e, carcassonne_core::LogEntry::Discarded { tile, .. } if *tile == c))
            .count();
        assert_eq!(c_discarded, 1, "seed {seed}");
    }
}

#[test]
fn the_guide_template_is_the_overstretched_example() {
    // docs/writing-plugins.md shows the template in full; the example crate is that text, so
    // the guide's code compiles (the crate is built with the others) and is tested below.
    let doc = std::fs::read_to_string("docs/writing-plugins.md").unwrap();
    let code = std::fs::read_to_string("plugins/examples/overstretched/src/lib.rs").unwrap();
    assert!(doc.contains(&format!("```rust\n{code}```")), "the template in the guide and the example differ");
}

#[test]
fn the_guide_shows_the_tax_collector_crate_as_it_is() {
    let doc = std::fs::read_to_string("docs/writing-plugins.md").unwrap();
    let code = std::fs::read_to_string("plugins/examples/tax-collector/src/lib.rs").unwrap();
    assert!(doc.contains(&format!("```rust\n{code}```")), "the tax collector in the guide and the crate differ");
}

/// Plays one turn: the first legal tile placement, then a farmer (`farmer`) or a pass.
fn play_turn(g: &mut Game, farmer: bool) {
    let turn = g.st.turn;
    let mut legal = Vec::new();
    while g.decision().is_some() && g.st.turn == turn {
        g.legal_actions(&mut legal);
        let field = |a: &Action| match *a {
            Action::PlaceFigure { part, feature, .. } if feature != carcassonne_core::NO_FEATURE => {
                g.st.graph.node(g.st.node_of(part, feature)).kind == carcassonne_core::FeatureKind::Field
            }
            _ => false,
        };
        let a = match legal[0] {
            Action::PlaceTile { .. } => legal[0],
            _ if farmer => *legal.iter().find(|a| field(a)).expect("a field on the placed tile"),
            _ => Action::Pass,
        };
        g.try_play(a).unwrap();
    }
}

#[test]
fn the_template_fines_a_player_with_no_follower_left() {
    // One follower each; seat 0 puts theirs on a field (never completed, so it stays).
    let text =
        base_with(&format!("options = {{ followers = 1 }}\n{}", file_entry("house_overstretched", 50, "fine = 3")));
    let rules = load_ok("overstretched", &text);
    let mut g = Game::new(rules.clone(), 2, 1).unwrap();
    play_turn(&mut g, true); // seat 0: farmer, none left: fined at the turn's end
    assert_eq!(g.scores(), &[-3, 0]);
    play_turn(&mut g, false); // seat 1 keeps their follower
    assert_eq!(g.scores(), &[-3, 0]);
    play_turn(&mut g, false); // seat 0 still has none on hand
    assert_eq!(g.scores(), &[-6, 0]);
    assert_eq!(g.st.stats[rules.stat("fines").unwrap()], 2);
    let source = rules.sources.iter().position(|s| s == "overstretched").unwrap();
    assert_eq!(g.st.points_by_source[0][source], -6);
}

// ---- bad plugin files ----

#[test]
fn a_missing_plugin_file_is_named_with_its_line() {
    let e = err_of("missing", &base_with("[[plugins]]\npath = \"nowhere/house_gone\"\n"));
    assert!(e.contains("rules.toml:8:"), "{e}");
    assert!(e.contains("plugin file") && e.contains("nowhere/house_gone") && e.contains("not found"), "{e}");
    assert!(e.contains("libhouse_gone") || e.contains("house_gone.dll"), "platform name tried: {e}");
    assert!(e.contains(": build the plugin, or fix `path`"), "{e}");
    // A path into a Cargo target directory: the message names the command that builds it
    // (config/house-rules.toml on a fresh clone, before the example plugins are built).
    let e = err_of("missing-target", &base_with("[[plugins]]\npath = \"../target/release/house_gone\"\n"));
    assert!(
        e.contains(
            "build it first (for a crate of this workspace: `cargo build --release -p house-gone`), or fix `path`"
        ),
        "{e}"
    );
}

#[test]
fn a_file_that_is_not_a_library_is_refused() {
    let dir = scratch("text-file");
    std::fs::write(dir.join("liar.so"), "this is not a shared library\n").unwrap();
    let e = load(&dir, &base_with("[[plugins]]\npath = \"liar.so\"\n")).unwrap_err();
    assert!(e.contains("rules.toml:8:") && e.contains("liar.so"), "{e}");
    assert!(e.contains("is not a loadable shared library"), "{e}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_shared_library_that_is_not_a_plugin_is_refused() {
    // The C library of this process: a real shared library without a plugin module.
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let libc = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| p.contains("/libc.so") || p.contains("/libc-"))
        .expect("libc in /proc/self/maps")
        .to_string();
    let e = err_of("libc", &base_with(&format!("[[plugins]]\npath = \"{libc}\"\n")));
    assert!(e.contains("is not a Carcassonne plugin") && e.contains("libc"), "{e}");
}

#[test]
fn a_plugin_built_against_another_interface_version_is_refused() {
    let e =
        err_of("old-api", &base_with(&format!("[[plugins]]\npath = \"{}\"\n", path_of("carcassonne_test_old_api"))));
    assert!(e.contains("rules.toml:8:"), "{e}");
    let major = carcassonne_dynamic::api_version().major;
    assert_eq!(major, 4, "this test names the interface the engine implements");
    assert!(e.contains("built against plugin interface 2.0.0") && e.contains("this engine uses interface 4.4."), "{e}");
    assert!(e.contains("rebuild the plugin against carcassonne-plugin-api 4.x"), "{e}");
}

#[test]
fn a_plugin_whose_constructor_panics_is_reported() {
    let e = err_of("panic-new", &base_with(&file_entry("carcassonne_test_probe", 0, "panic_in = \"new\"")));
    assert!(e.contains("rules.toml:8:") && e.contains("libcarcassonne_test_probe"), "{e}");
    assert!(e.contains("panicked at ") && e.contains("probe/src/lib.rs:"), "location: {e}");
    assert!(e.contains(": probe: deliberate panic while building"), "{e}");
}

#[test]
fn plugin_options_errors_name_the_key_and_its_line() {
    let e = err_of("opt-unknown", &base_with(&file_entry("house_monastery", 0, "pointz = 3")));
    assert!(e.contains("rules.toml:11:") && e.contains("unknown field `pointz`"), "{e}");
    assert!(e.contains("libhouse_monastery"), "{e}");
    let e = err_of("opt-type", &base_with(&file_entry("house_monastery", 0, "points = \"many\"")));
    assert!(e.contains("rules.toml:11:") && e.contains("invalid type"), "{e}");
    let e = err_of("opt-value", &base_with(&file_entry("house_monastery", 0, "points = -2")));
    assert!(e.contains("rules.toml:11:") && e.contains("`points`: -2 is out of range (allowed: 0 to 100)"), "{e}");
    let e = err_of("opt-huge", &base_with(&file_entry("house_monastery", 0, "points = 2147483647")));
    assert!(
        e.contains("rules.toml:11:") && e.contains("`points`: 2147483647 is out of range (allowed: 0 to 100)"),
        "{e}"
    );
    // Every numeric option of the example plugin files has its range (docs/options.md).
    for (lib, opt, why) in [
        ("house_overstretched", "fine = -1", "`fine`: -1 is out of range (allowed: 0 to 100)"),
        ("house_tax_collector", "toll = 101", "`toll`: 101 is out of range (allowed: 0 to 100)"),
        ("house_tax_collector", "recall_points = -7", "`recall_points`: -7 is out of range (allowed: 0 to 100)"),
        ("house_princess", "edition = 3", "`edition`: 3 is out of range (allowed: 1 to 2)"),
    ] {
        let e = err_of("opt-range", &base_with(&file_entry(lib, 0, opt)));
        assert!(e.contains("rules.toml:11:") && e.contains(why), "{e}");
    }
    let e = err_of("opt-forbid", &base_with(&file_entry("house_no_farmers", 0, "forbid = [\"moat\"]")));
    assert!(e.contains("unknown feature kind 'moat'"), "{e}");
}

#[test]
fn a_plugin_of_a_newer_interface_with_unknown_hooks_is_refused() {
    let e = err_of("newer", &base_with(&file_entry("carcassonne_test_probe", 0, "extra_hooks = 0x200000")));
    assert!(e.contains("plugin 'probe'") && e.contains("subscribes to hooks this engine does not know"), "{e}");
    assert!(e.contains("bits 0x200000"), "{e}");
}

#[test]
fn name_and_requirements_of_a_plugin_file_are_checked() {
    let mono = path_of("house_monastery");
    let e = err_of("name", &base_with(&format!("[[plugins]]\nname = \"bonus\"\npath = \"{mono}\"\n")));
    assert!(e.contains("holds plugin 'monastery-bonus', not 'bonus'"), "{e}");
    let e = err_of("twice", &base_with(&format!("[[plugins]]\npath = \"{mono}\"\n[[plugins]]\npath = \"{mono}\"\n")));
    assert!(e.contains("plugin 'monastery-bonus' is named twice"), "{e}");
    let text = format!("[tiles]\nbase = \"{}\"\n[[plugins]]\npath = \"{mono}\"\n", base_tiles());
    let e = err_of("requires", &text);
    assert!(e.contains("plugin 'monastery-bonus' requires plugin 'base'"), "{e}");
    let e = err_of("neither", &base_with("[[plugins]]\npriority = 3\n"));
    assert!(e.contains("needs `name` (a built-in plugin) or `path` (a plugin file)"), "{e}");
}

#[test]
fn an_embedded_rule_set_cannot_load_plugin_files() {
    let text = "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\npath = \"x\"\n";
    let e = load_rules_text("embedded:config/x.toml", text).unwrap_err().to_string();
    assert!(e.contains("cannot load plugin files"), "{e}");
}

// ---- misbehaving hooks ----

/// Plays seeds until one fails; returns the failure (every game must fail the same way).
fn game_error(name: &str, options: &str) -> String {
    let rules = load_ok(name, &base_with(&file_entry("carcassonne_test_probe", 5, options)));
    match play_game(&rules, 2, 7, &["random".to_string()], false) {
        Ok(g) => panic!("the game should stop ({options}); scores {:?}", g.scores()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_panicking_hook_stops_the_game_naming_plugin_and_hook() {
    let hooks = [
        "on_game_start",
        "on_turn_start",
        "allow_tile",
        "allow_figure",
        "filter_figure_actions",
        "on_feature_scored",
        "on_final_scoring",
    ];
    for hook in hooks {
        let e = game_error(&format!("panic-{hook}"), &format!("panic_in = \"{hook}\""));
        assert!(e.contains("plugin 'probe'") && e.contains(&format!("hook {hook}:")), "{e}");
        assert!(e.contains("panicked at ") && e.contains("probe/src/lib.rs:"), "location: {e}");
        assert!(e.contains(&format!(": probe: deliberate panic in {hook}")), "{e}");
    }
}

#[test]
fn a_failing_hook_stops_the_game() {
    let e = game_error("fail", "fail_in = \"on_turn_end\"\nfrom_turn = 5");
    assert!(e.contains("plugin 'probe'") && e.contains("hook on_turn_end: probe: deliberate error"), "{e}");
    let e = game_error("fail-query", "fail_in = \"figure_actions\"");
    assert!(e.contains("hook figure_actions: probe: deliberate error"), "{e}");
}

#[test]
fn an_invalid_effect_stops_the_game() {
    let cases = [
        ("on_turn_start", "player", "points to seat 9, but the game has 2 seats"),
        ("on_tile_placed", "source", "points under score source #40, but the plugin declared 1 (probe)"),
        ("on_turn_end", "stat", "statistic #40, but the plugin declared 1 (probe_calls)"),
        ("on_scoring_done", "verdict", "verdict 'protect' (2) is not one this hook may give"),
        ("on_tile_drawn", "unknown_verdict", "verdict 'unknown' (200) is not one this hook may give"),
        ("filter_figure_actions", "drop_all", "it removed every action of the figure decision"),
    ];
    for (hook, bad, want) in cases {
        let e = game_error(&format!("bad-{bad}"), &format!("bad_in = \"{hook}\"\nbad = \"{bad}\""));
        assert!(e.contains("plugin 'probe'") && e.contains(&format!("hook {hook}: invalid effect: {want}")), "{e}");
    }
}

/// `judge_tiles` (4.3) forbids a candidate by its index in the list: an index beyond it is
/// an invalid answer, and the game stops with a one-line error at the first draw (the
/// start tile leaves a cross of four cells: at most 16 candidates).
#[test]
fn a_tile_veto_beyond_the_candidates_stops_the_game() {
    let e = game_error("bad-index", "bad_in = \"allow_tile\"\nbad = \"bad_index\"");
    assert!(e.contains("plugin 'probe'") && e.contains("turn 1:"), "{e}");
    assert!(e.contains("hook allow_tile: invalid answer: it forbids candidate #9999 of a list of"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

/// Interface 3.0's own bad input: a decision with no legal action, a figure that is not on
/// the board, a part that is not, a placement of an undeclared figure kind.
#[test]
fn an_invalid_decision_or_figure_stops_the_game() {
    let cases = [
        ("on_turn_start", "empty_decision", "", "hook decision_actions: its decision (code 7) has no legal action"),
        ("on_turn_end", "missing_figure", "", "hook on_turn_end: invalid effect: figure #9999 is not on the board"),
        (
            "on_turn_start",
            "bad_part",
            "figure = \"probe-token\"\n",
            "hook on_turn_start: invalid effect: part #99999 is not on the board",
        ),
        (
            "figure_actions",
            "bad_offer",
            "",
            "hook figure_actions: invalid figure placement: placing figure kind #5, but the plugin declared 0",
        ),
    ];
    for (hook, bad, extra, want) in cases {
        let e = game_error(&format!("bad3-{bad}"), &format!("{extra}bad_in = \"{hook}\"\nbad = \"{bad}\""));
        assert!(e.contains("plugin 'probe'") && e.contains(want), "{e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

/// A figure kind another plugin declares is refused when the rule set loads (exit 2 from the
/// CLI), naming the plugin, the kind and the line.
#[test]
fn a_colliding_figure_kind_is_refused_at_load_time() {
    let e = err_of("collide", &base_with(&file_entry("carcassonne_test_probe", 5, "figure = \"follower\"")));
    assert!(e.contains("rules.toml:"), "{e}");
    assert!(
        e.contains("plugin 'probe'") && e.contains("figure kind 'follower', which another plugin already declares"),
        "{e}"
    );
    let dir = scratch("collide-cli");
    let file = write_rules(&dir, &base_with(&file_entry("carcassonne_test_probe", 5, "figure = \"follower\"")));
    let (code, _, err) = cli(&["play", "--rules", &file]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("which another plugin already declares") && err.trim().lines().count() == 1, "{err}");
}

/// A state whose clone panics: the clone (as a bot's search makes) stops with an error naming
/// the plugin; the original game goes on.
#[test]
fn a_state_that_panics_when_cloned_stops_only_the_clone() {
    let rules = load_ok("panic-clone", &base_with(&file_entry("carcassonne_test_probe", 5, "panic_in = \"clone\"")));
    let mut g = Game::new(rules, 2, 3).unwrap();
    let mut clone = g.clone();
    let mut legal = Vec::new();
    // The first placement was listed at the draw (BASE-4's check): the plugin is next
    // asked when the tile is placed.
    clone.legal_actions(&mut legal);
    clone.play_unchecked(legal[0]);
    let e = clone.failure().expect("the clone stops").to_string();
    assert!(e.contains("plugin 'probe'") && e.contains("its state is unusable (its clone panicked)"), "{e}");
    assert!(clone.decision().is_none());
    // The original is untouched: it plays to the end.
    while g.decision().is_some() {
        g.legal_actions(&mut legal);
        g.play_unchecked(legal[0]);
    }
    assert!(g.is_over() && g.failure().is_none());
}

#[test]
fn a_stopped_game_refuses_further_actions() {
    let rules =
        load_ok("stopped", &base_with(&file_entry("carcassonne_test_probe", 5, "panic_in = \"on_tile_placed\"")));
    let mut g = Game::new(rules, 2, 3).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    g.try_play(legal[0]).unwrap();
    assert!(g.failure().unwrap().contains("hook on_tile_placed"));
    assert!(g.decision().is_none() && !g.is_over());
    let e = g.try_play(Action::Pass).unwrap_err().to_string();
    assert!(e.contains("the game was stopped: turn 1: plugin 'probe'"), "{e}");
}

// ---- the command line ----

fn cli(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_reports_a_hook_panic_with_a_failure_exit_code() {
    let dir = scratch("cli-panic");
    let file = write_rules(
        &dir,
        &base_with(&file_entry("carcassonne_test_probe", 5, "panic_in = \"on_turn_end\"\nfrom_turn = 4")),
    );
    let (code, _, err) = cli(&["play", "--rules", &file, "--seed", "2"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("error: ") && err.contains("plugin 'probe'") && err.contains("hook on_turn_end"), "{err}");
    let (code, _, err) = cli(&["simulate", "--rules", &file, "--games", "6", "--threads", "2"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("plugin 'probe'") && err.contains("hook on_turn_end") && err.contains("panicked at"), "{err}");
    // Reported once, by the engine: the plugin's own panic hook prints nothing.
    assert!(!err.contains("thread '"), "{err}");
}

#[test]
fn cli_reports_a_bad_plugin_file_as_bad_input() {
    let dir = scratch("cli-missing");
    let file = write_rules(&dir, &base_with("[[plugins]]\npath = \"gone.so\"\n"));
    let (code, _, err) = cli(&["play", "--rules", &file]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("rules.toml:8:") && err.contains("gone.so") && err.contains("not found"), "{err}");
}

#[test]
fn cli_plays_records_and_replays_house_rules() {
    let dir = scratch("cli-house");
    let file = write_rules(&dir, &house_rules_text());
    let rec = dir.join("g.json");
    let (code, out, err) = cli(&["play", "--rules", &file, "--seed", "4", "--record", rec.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let played: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = played["plugins"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["base", "monastery-bonus", "no-farmers"]);
    // A record's plugin files run code: replay loads them only when asked to.
    let (code, _, err) = cli(&["replay", rec.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("loads plugin files only with --allow-plugin-files"), "{err}");
    let (code, out, err) = cli(&["replay", rec.to_str().unwrap(), "--json", "--allow-plugin-files"]);
    assert_eq!(code, Some(0), "{err}");
    let replayed: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(replayed["final_scores"], played["final_scores"]);
}
