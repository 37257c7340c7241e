//! Hook conditions of plugin files (interface 4.0, `Declare::only_when`): the engine skips
//! a call when none of the hook's conditions holds, and calls it every time they do; a
//! condition that cannot be resolved is refused when the rule set is loaded, naming the
//! plugin, the hook and the problem.

mod plugin_util;

use std::process::Command;

use carcassonne_cli::builtin::{load_rules_text, read_rules_text};
use carcassonne_cli::driver::play_game;
use carcassonne_core::state::LogEntry;
use carcassonne_core::{FeatureKind, Game};
use plugin_util::{base_with, path_of, scratch, write_rules};

/// `config/princess-dragon.toml` with the probe (priority 50) and these options.
fn princess_dragon_with_probe(options: &str) -> String {
    let text = read_rules_text("config/princess-dragon.toml").unwrap();
    let dir = std::fs::canonicalize("config").unwrap().display().to_string().replace('\\', "/");
    let text = text.replace("\"tiles/", &format!("\"{dir}/tiles/"));
    format!(
        "{text}\n[[plugins]]\npath = \"{}\"\npriority = 50\n[plugins.options]\n{options}\n",
        path_of("carcassonne_test_probe")
    )
}

fn load(name: &str, text: &str) -> Result<std::sync::Arc<carcassonne_core::Rules>, String> {
    let file = write_rules(&scratch(name), text);
    load_rules_text(&file, text).map_err(|e| e.to_string())
}

/// The probe's call count (statistic `probe_calls`) after a game.
fn calls(g: &Game) -> i64 {
    g.st.stats[g.rules.stat("probe_calls").unwrap()]
}

/// Placed tiles (single tiles: one part each, the start tile included) with `marker`.
fn placed_with_marker(g: &Game, marker: &str) -> i64 {
    let bit = g.rules.catalog.marker(marker);
    g.st.board.parts.iter().filter(|p| g.rules.catalog.tiles[p.tile as usize].markers & bit != 0).count() as i64
}

#[test]
fn a_placed_tile_marker_condition_calls_the_hook_exactly_on_those_turns() {
    let every = load("cond-all", &princess_dragon_with_probe("count_in = \"on_tile_placed\"")).unwrap();
    let when = "count_in = \"on_tile_placed\"\nwhen = [\"on_tile_placed placed_tile_marker volcano\"]";
    let volcano = load("cond-volcano", &princess_dragon_with_probe(when)).unwrap();
    let bots = ["random".to_string()];
    let mut seen = 0;
    for seed in 1..=20 {
        let a = play_game(&every, 2, seed, &bots, false).unwrap();
        let b = play_game(&volcano, 2, seed, &bots, false).unwrap();
        // The condition changes no game (the probe does nothing but count).
        assert_eq!(a.scores(), b.scores(), "seed {seed}");
        // Without a condition: once per placed tile (the start tile is not placed in a turn).
        assert_eq!(calls(&a), a.st.board.parts.len() as i64 - 1, "seed {seed}");
        // With it: once per placed volcano tile (the start tile is none).
        assert_eq!(calls(&b), placed_with_marker(&b, "volcano"), "seed {seed}");
        seen += calls(&b);
    }
    assert!(seen > 20, "volcano tiles were placed ({seen})");
}

/// A tile_marker condition on `on_tile_drawn`: a call for each drawn tile with the marker
/// (the engine leaves the hook out for the other tiles), none for the others.
#[test]
fn a_tile_marker_condition_calls_the_drawn_hook_exactly_for_those_tiles() {
    let when = "count_in = \"on_tile_drawn\"\nwhen = [\"on_tile_drawn tile_marker volcano\"]";
    let volcano = load("cond-drawn-volcano", &princess_dragon_with_probe(when)).unwrap();
    let bit = volcano.catalog.marker("volcano");
    let bots = ["random".to_string()];
    let mut seen = 0;
    for seed in 1..=20 {
        let g = play_game(&volcano, 2, seed, &bots, true).unwrap();
        let drawn = (g.st.log.as_deref().unwrap().iter())
            .filter(
                |e| matches!(e, LogEntry::Drawn { tile } if g.rules.catalog.tiles[*tile as usize].markers & bit != 0),
            )
            .count() as i64;
        assert_eq!(calls(&g), drawn, "seed {seed}");
        seen += drawn;
    }
    assert!(seen > 20, "volcano tiles were drawn ({seen})");
}

#[test]
fn a_feature_kind_condition_calls_the_hook_only_for_that_kind() {
    // on_feature_completed for roads only: the count is the number of closed roads on the
    // board at the end (a closed road stays closed, and each is completed once).
    let when = "count_in = \"on_feature_completed\"\nwhen = [\"on_feature_completed feature_kind road\"]";
    let rules = load("cond-road", &base_with(&probe_entry(when))).unwrap();
    let mut seen = 0;
    for seed in 1..=20 {
        let g = play_game(&rules, 2, seed, &["random".to_string()], false).unwrap();
        let g_ = &g.st.graph;
        let mut roots: Vec<u32> = (0..g_.len() as u32)
            .filter(|&n| g_.node(n).kind == FeatureKind::Road && g.st.is_complete(g_.find(n)))
            .map(|n| g_.find(n))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        assert_eq!(calls(&g), roots.len() as i64, "seed {seed}");
        seen += calls(&g);
    }
    assert!(seen > 20, "roads were completed ({seen})");
}

fn probe_entry(options: &str) -> String {
    format!(
        "[[plugins]]\npath = \"{}\"\npriority = 50\n[plugins.options]\n{options}\n",
        path_of("carcassonne_test_probe")
    )
}

#[test]
fn conditions_that_cannot_be_resolved_are_refused_at_load_time() {
    let cases = [
        ("[\"on_tile_placed placed_tile_marker nosuch\"]", "", "no tile of this rule set carries marker 'nosuch'"),
        ("[\"on_turn_start feature_kind city\"]", "", "which that hook has nothing to test against"),
        ("[\"on_figure_placed figure_kind wizard\"]", "", "declares figure kind 'wizard'"),
        ("[\"on_feature_completed feature_kind lake\"]", "", "'lake' is not a feature kind"),
        ("[\"on_turn_end deployed follower\"]", "only_hooks = [\"on_turn_start\"]", "does not subscribe to that hook"),
    ];
    for (when, extra, want) in cases {
        let e = load("cond-bad", &base_with(&probe_entry(&format!("when = {when}\n{extra}")))).unwrap_err();
        assert!(e.contains("rules.toml:") && e.contains("plugin 'probe'"), "{e}");
        assert!(e.contains(want), "{when}: {e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

#[test]
fn the_cli_refuses_a_bad_condition_with_exit_code_2() {
    let dir = scratch("cond-cli");
    let text = base_with(&probe_entry("when = [\"on_tile_placed placed_tile_marker nosuch\"]"));
    let file = write_rules(&dir, &text);
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["simulate", "--games", "1", "--rules", &file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("condition placed_tile_marker 'nosuch' on hook on_tile_placed"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
