//! Property tests of the abbot plugin (EXPANSIONS.md ABBOT-1..2, RULES.md COMBO-ABBOT):
//! thousands of seeded random games of config/abbot.toml, and hundreds with the abbot and
//! the garden printing added to the classic and the 2025 everything rule sets (dragons,
//! fairies, portal, tower, barn, castle), checked after every action: no panic, followers
//! and abbots conserved (on the board, in supply or held as prisoners), the abbot only on a
//! monastery or a garden, nothing but an abbot on a garden, one follower at most per
//! monastery or garden, no abbot left on a completed one between turns, take-back and
//! garden points between 2 and 9 per take-back or scored garden; every tile played; records
//! replay; same seed, same game.

mod common;
use common::rules_with;

use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_core::{DecisionKind, FeatureKind, Game, Rules};
use carcassonne_plugin_tower::TowerState;

fn check_state(g: &Game) {
    let r = &g.rules;
    let st = &g.st;
    let turn = st.turn;
    let follower = r.figure_kind("follower").unwrap();
    let abbot = r.figure_kind("abbot").unwrap();
    let tower = r.plugin_index("tower").map(|i| st.plugin::<TowerState>(i));
    for seat in 0..st.players {
        for (kind, total) in [(follower, 7), (abbot, 1)] {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == kind).count();
            let held =
                tower.map_or(0, |t| t.prisoners.iter().filter(|p| p.owner == seat as u8 && p.kind == kind).count());
            let name = &r.figure_kinds[kind as usize].name;
            assert_eq!(
                on + held + st.supply[seat][kind as usize] as usize,
                total,
                "{name}s of seat {seat}, turn {turn}"
            );
        }
    }
    let between_turns = st.pending.is_empty() && matches!(st.decision().map(|d| d.kind), Some(DecisionKind::PlaceTile));
    for f in st.figures.iter().filter(|f| f.alive) {
        let kind = f.node.map(|n| st.graph.node(n).kind);
        if f.kind == abbot {
            // ABBOT-1: only on a monastery or a garden.
            let node = f.node.expect("an abbot stands on a feature");
            assert!(kind.is_some_and(FeatureKind::is_cloister), "abbot on {kind:?} at turn {turn}");
            assert!(st.graph.followers(node) == 1, "BASE-5: one follower per cloister, turn {turn}");
            if between_turns {
                assert!(!st.is_complete(node), "an abbot on a completed feature after turn {turn}");
            }
        } else if kind == Some(FeatureKind::Garden) {
            panic!("{} on a garden at turn {turn}", r.figure_kinds[f.kind as usize].name);
        }
    }
    // ABBOT-2: a take-back scores 1 + 1 to 8 neighbours (a placed tile has one at least);
    // ABBOT-1: a garden 9 when completed, 1 + 1 to 7 at the end, to its one abbot's owner.
    let points = |name: &str| {
        let s = r.source(name).unwrap() as usize;
        (0..st.players).map(|p| st.points_by_source[p][s]).sum::<i32>()
    };
    let count = |name: &str| st.stats[r.stat(name).unwrap()] as i32;
    let (taken, gardens) = (count("abbots_taken_back"), count("gardens_scored"));
    assert!((2 * taken..=9 * taken).contains(&points("abbot")), "take-backs at turn {turn}");
    assert!((2 * gardens..=9 * gardens).contains(&points("garden")), "gardens at turn {turn}");
}

/// A seeded random game checked after every action.
fn play_checked(rules: &Arc<Rules>, players: usize, seed: u64, record: bool, tiles: Option<usize>) -> Game {
    common::play_checked(rules, players, seed, record, tiles, check_state)
}

fn run(file: &str, text: &str, games: u64, tiles: Option<usize>, first_seed: u64) {
    let rules = load_rules_text(file, text).unwrap();
    common::run_checked_games(file, &rules, text, games, tiles, first_seed, check_state);
}

/// Rule set `file` with the garden printing on the base game and the abbot plugin added.
fn with_abbot(file: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(text.matches("farmers = true\n").count(), 1, "{file}: the base game's options");
    text.replace("farmers = true\n", "farmers = true\ngarden_printing = true\n")
        + "\n[[plugins]]\nname = \"abbot\"\npriority = 80\n"
}

#[test]
fn abbot_games() {
    let (rules, text) = rules_with("config/abbot.toml", &[]);
    assert!(rules.plugin_index("abbot").is_some());
    run("config/abbot.toml", &text, 3000, Some(72), 0);
}

#[test]
fn classic_everything_with_the_abbot() {
    run("config/classic-everything.toml", &with_abbot("config/classic-everything.toml"), 300, Some(236), 0);
}

#[test]
fn everything_2025_with_the_abbot() {
    run("config/2025-everything.toml", &with_abbot("config/2025-everything.toml"), 300, None, 0);
}

#[test]
fn same_seed_same_game() {
    let (rules, _) = rules_with("config/abbot.toml", &[]);
    common::assert_same_seed_same_game(&rules, 4, 72, check_state);
}

/// The random games above do use the abbot: placements, take-backs and garden scorings.
#[test]
fn random_games_place_take_back_and_score_abbots() {
    let (rules, _) = rules_with("config/abbot.toml", &[]);
    let mut totals = [0i64; 3];
    for seed in 0..50 {
        let g = play_checked(&rules, 2, seed, false, Some(72));
        for (t, name) in totals.iter_mut().zip(["abbots_placed", "abbots_taken_back", "gardens_scored"]) {
            *t += g.st.stats[g.rules.stat(name).unwrap()];
        }
    }
    assert!(totals.iter().all(|&t| t > 0), "{totals:?}");
}
