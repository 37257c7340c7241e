//! Abbey & Mayor's abbey and wagon (EXPANSIONS.md ABBEY-1..4, WAGON-1..4) over random
//! games: 3,000 games of `config/abbey-mayor.toml` at 2 to 5 players (and 1,000 with the
//! wagon's 1st-edition move), checked after every action (the state invariants: figures
//! conserved, edges matching, scores by source), every tenth replayed from its record:
//! every land tile placed or discarded, each seat's abbey in hand or on the board exactly
//! once, the abbey only in a cell with four neighbours and never drawn; every rule ID has
//! a scenario.

mod common;

use carcassonne_checks::check_state;
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::Game;
use carcassonne_plugin_abbey::AbbeyState;

const IDS: &[&str] = &["ABBEY-1", "ABBEY-2", "ABBEY-3", "ABBEY-4", "WAGON-1", "WAGON-2", "WAGON-3", "WAGON-4"];

#[test]
fn every_abbey_and_wagon_rule_id_has_a_scenario() {
    let covered = common::scenario_rule_ids();
    let missing: Vec<&&str> = IDS.iter().filter(|id| !covered.contains(**id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}

/// ABBEY-1, ABBEY-2: each seat's abbey is in hand or on the board, once; every abbey on
/// the board has four neighbours.
fn abbeys(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    check_state(g);
    let me = r.plugin_index("abbey").unwrap();
    let s = st.plugin::<AbbeyState>(me);
    let abbey = r.catalog.id("AM0").unwrap();
    let on: Vec<_> = st.board.parts.iter().filter(|p| p.tile == abbey).collect();
    let in_hand = usize::from(st.tile == Some(abbey));
    assert_eq!(on.len() + in_hand + s.has.count_ones() as usize, st.players, "turn {}: abbeys", st.turn);
    for p in on {
        let n = carcassonne_core::Side::ALL.iter().filter(|&&d| st.board.is_placed(p.pos.step(d))).count();
        assert_eq!(n, 4, "turn {}: the abbey at {} has {n} neighbours", st.turn, p.pos);
    }
    assert!(!st.stack.contains(&abbey), "the abbey is never in the supply");
}

#[test]
fn three_thousand_random_abbey_mayor_games() {
    let (r, text) = load_rules_file("config/abbey-mayor.toml").unwrap();
    assert_eq!(Game::new(r.clone(), 2, 1).unwrap().st.stack.len() + 2, 72 + 12);
    common::run_checked_games("config/abbey-mayor.toml", &r, &text, 3000, None, 1, abbeys);
}

#[test]
fn a_thousand_random_games_with_the_first_edition_wagon() {
    let (r, text) = common::rules_with("config/abbey-mayor.toml", &[("wagon_move", "\"c1\"")]);
    common::run_checked_games("config/abbey-mayor.toml", &r, &text, 1000, None, 5001, abbeys);
}
