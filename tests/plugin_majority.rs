//! The `majority` hook of plugin files (interface 4.1: `adjust_strengths`, `break_tie`),
//! on the moves of scenario `base-tie` (BASE-8: two knights joined in one city, 3 tiles,
//! 6 points, a tie). The probe fixture's `tie_to` gives a tie to one seat, its `bonus_to`
//! adds 1 to a seat's strength; a condition narrows the hook to a feature kind.

mod common;
mod plugin_util;

use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_core::{Game, GameOptions, Rules};
use common::{pass, place, play};
use plugin_util::{base_with, path_of, scratch, write_rules};
use serde_json::json;

/// Base with the probe (priority 50, only the majority hook) and these options.
fn rules(name: &str, options: &str) -> Arc<Rules> {
    let text = base_with(&format!(
        "priority = 0\n[[plugins]]\npath = \"{}\"\npriority = 50\n[plugins.options]\nonly_hooks = [\"majority\"]\n{options}\n",
        path_of("carcassonne_test_probe")
    ));
    let file = write_rules(&scratch(name), &text);
    load_rules_text(&file, &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Plays scenario `base-tie`: seat 0's knight on E (0,1) city:E and seat 1's on E (2,1)
/// city:W are joined by G at (1,1): the city completes (3 tiles, no pennant: 6 points)
/// with one knight each. Returns the game after G.
fn the_tie(r: &Arc<Rules>) -> Game {
    let order = ["E", "U", "U", "E", "G"].iter().map(|id| r.catalog.id(id).unwrap()).collect();
    let mut g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: true }).unwrap();
    let knight =
        |x: i32, y: i32, f: &str| json!({"type": "figure", "figure": "follower", "cell": [x, y], "feature": f});
    play(&mut g, place("E", 0, 1, 90));
    play(&mut g, knight(0, 1, "city:E"));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("U", 2, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("E", 2, 1, 270));
    play(&mut g, knight(2, 1, "city:W"));
    assert_eq!(g.scores(), vec![0, 0]);
    play(&mut g, place("G", 1, 1, 0));
    play(&mut g, pass());
    g
}

/// Knights of either seat left on the board.
fn knights(g: &Game) -> usize {
    g.st.figures.iter().filter(|f| f.alive).count()
}

#[test]
fn without_an_answer_both_seats_share_the_tie() {
    // BASE-8: a tie, both score the full 6 (the probe is consulted and leaves it).
    let g = the_tie(&rules("maj-none", ""));
    assert_eq!(g.scores(), vec![6, 6]);
    assert_eq!(knights(&g), 0);
}

#[test]
fn break_tie_gives_the_city_to_one_seat() {
    // The probe answers the tie [0, 1] with [1]: only seat 1 scores; both knights return.
    let g = the_tie(&rules("maj-tie1", "tie_to = 1"));
    assert_eq!(g.scores(), vec![0, 6]);
    assert_eq!(knights(&g), 0, "the knights return whoever scores");
    let g = the_tie(&rules("maj-tie0", "tie_to = 0"));
    assert_eq!(g.scores(), vec![6, 0]);
}

#[test]
fn adjust_strengths_decides_before_any_tie() {
    // Seat 0's strength 1 becomes 2 against seat 1's 1: no tie, seat 0 alone scores 6, so
    // break_tie (tie_to = 1) is never asked.
    let g = the_tie(&rules("maj-bonus0", "bonus_to = 0\ntie_to = 1"));
    assert_eq!(g.scores(), vec![6, 0]);
}

#[test]
fn a_feature_kind_condition_narrows_the_majority_hook() {
    // Consulted only for roads: the city tie stands.
    let g = the_tie(&rules("maj-road", "tie_to = 1\nwhen = [\"majority feature_kind road\"]"));
    assert_eq!(g.scores(), vec![6, 6]);
    let g = the_tie(&rules("maj-city", "tie_to = 1\nwhen = [\"majority feature_kind city\"]"));
    assert_eq!(g.scores(), vec![0, 6]);
}

#[test]
fn an_error_in_the_majority_hook_fails_the_game_naming_it() {
    let g = the_tie(&rules("maj-fail", "fail_in = \"majority\""));
    let e = g.st.failure().expect("the game failed").to_string();
    assert!(e.contains("majority") && e.contains("probe: deliberate error in majority"), "{e}");
}
