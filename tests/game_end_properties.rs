//! BASE-10 over every rule set in config/: in random games at every player count a rule
//! set allows, no decision comes after the turn that placed the last tile (the next
//! decision is `over`). A held 2025 dragon (FD-DRAGON-3/4), a prisoner to ransom
//! (TOWER-4) or the classic fairy's turn point (PD-FAIRY-2) starts no further turn; only
//! the abbey's last round (ABBEY-4) and the tiles won at a bazaar (BAZAAR-3) do.

mod plugin_util;

use std::sync::Arc;

use carcassonne_cli::bots::{make_bot, Bot};
use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::{Game, GameOptions, Rules};

/// Games per rule set and player count.
const GAMES: u64 = 40;

/// Every rule set of config/ with its name (house-rules.toml with this build's plugin files).
fn rule_sets() -> Vec<(String, Arc<Rules>)> {
    let mut files: Vec<String> = std::fs::read_dir("config")
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 13, "rule sets in config/: {files:?}");
    files
        .into_iter()
        .map(|f| {
            let rules = if f.ends_with("house-rules.toml") {
                let dir = plugin_util::scratch("game-end");
                let text = plugin_util::house_rules_text();
                let file = plugin_util::write_rules(&dir, &text);
                load_rules_text(&file, &text).unwrap()
            } else {
                load_rules_file(&f).unwrap_or_else(|e| panic!("{f}: {e}")).0
            };
            (f, rules)
        })
        .collect()
}

/// Plays `seed` with random bots and checks that every decision after the last tile's
/// placement is in that same turn; returns the turn that placed the last tile.
fn last_turn_of(rules: &Arc<Rules>, file: &str, players: usize, seed: u64) -> u32 {
    let mut g = Game::start(rules.clone(), GameOptions { players, seed, ..Default::default() }).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = (0..players).map(|s| make_bot("random", seed, s).unwrap()).collect();
    let mut buf = Vec::new();
    let mut last = None;
    while let Some(d) = g.decision() {
        if let Some(turn) = last {
            // ABBEY-4: with the abbey, the last round's turns follow (at most one per seat),
            // each only the abbey's choice and the turn of the abbey played; BAZAAR-3: after
            // an auction that took the last tiles, the won tiles' turns (one per seat). Such a
            // turn starts like any other (e.g. a tower ransom, TOWER-4, before its tile).
            let (abbey, bazaar) = (rules.plugin_index("abbey"), rules.plugin_index("bazaar"));
            let starting = g.st.placed.is_none() && matches!(d.kind, carcassonne_core::DecisionKind::Plugin { .. });
            let last_round = (abbey.is_some() || bazaar.is_some())
                && g.st.turn <= turn + players as u32
                && (g.st.turn_tile != carcassonne_core::TurnTile::Draw || starting);
            if !last_round {
                assert_eq!(
                    g.st.turn, turn,
                    "{file}, {players} players, seed {seed}: a decision after the last tile's turn"
                );
            }
        }
        g.legal_actions(&mut buf);
        let i = bots[d.player as usize].choose(&g, &buf);
        g.play_unchecked(buf[i]);
        if last.is_none() && g.st.stack.is_empty() && g.st.placed.is_some() {
            last = Some(g.st.turn);
        }
    }
    assert!(g.is_over(), "{file}, seed {seed}: {:?}", g.failure());
    // The last tile is placed unless the stack ended on discards (BASE-4).
    last.unwrap_or(g.st.turn)
}

#[test]
fn no_decision_follows_the_turn_of_the_last_tile_in_any_rule_set() {
    for (file, rules) in rule_sets() {
        for players in rules.min_players..=rules.max_players {
            for n in 0..GAMES {
                let seed = 1000 * players as u64 + n;
                let last = last_turn_of(&rules, &file, players, seed);
                assert!(last > 1, "{file}: seed {seed} ended at turn {last}");
            }
        }
    }
}
