//! Inns & Cathedrals (EXPANSIONS.md LARGE-2, with the large meeple of LARGE-1) over random
//! games: 3,000 games of `config/inns-cathedrals.toml` at 2 to 5 players, checked after
//! every action (followers and large meeples conserved; inn and cathedral scorings in whole
//! multiples of their rates), every tenth replayed from its record; the tiles of the set
//! are all played; the plugin refuses to run after `base`.

mod common;

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::{Game, Rules};

fn rules() -> (Arc<Rules>, String) {
    let (r, text) = load_rules_file("config/inns-cathedrals.toml").unwrap();
    (r, text)
}

fn check(g: &Game) {
    let r = &g.rules;
    let st = &g.st;
    for kind in ["follower", "large"] {
        let k = r.figure_kind(kind).unwrap();
        let per = r.figure_kinds[k as usize].per_player as usize;
        for seat in 0..st.players {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
            assert_eq!(on + st.supply[seat][k as usize] as usize, per, "{kind}s of seat {seat}, turn {}", st.turn);
        }
    }
    // LARGE-2: 2 per tile of an inn road, 3 per tile and pennant of a cathedral city.
    let stat = |name: &str| st.stats[r.stat(name).unwrap()];
    assert_eq!(stat("inn_points") % 2, 0);
    assert_eq!(stat("cathedral_points") % 3, 0);
    assert!(stat("inn_points") >= 2 * 2 * stat("inns_completed"), "an inn road has at least 2 tiles");
}

#[test]
fn three_thousand_random_inns_and_cathedrals_games() {
    let (r, text) = rules();
    common::run_checked_games("config/inns-cathedrals.toml", &r, &text, 3000, None, 1, check);
}

/// Every tile of the set is in the game: 72 + 18 tiles (edition 2), and in edition 1 the
/// C1 printings IC2c1 and IC8c1 take the place of IC2 and IC8.
#[test]
fn the_sets_tiles_are_all_played() {
    let (r, text) = rules();
    let g = common::play_checked(&r, 2, 5, false, Some(90), |_| {});
    let ids: Vec<&str> =
        g.st.board.parts.iter().filter(|p| p.part == 0).map(|p| r.catalog.tiles[p.tile as usize].id.as_str()).collect();
    assert!(ids.contains(&"IC11-12") && ids.contains(&"IC2") && !ids.contains(&"IC2c1"), "{ids:?}");
    let first = text.replace("edition = 2 ", "edition = 1 ");
    assert_ne!(first, text);
    let r1 = load_rules_text("config/inns-cathedrals.toml", &first).unwrap();
    let g = common::play_checked(&r1, 2, 5, false, Some(90), |_| {});
    let ids: Vec<&str> =
        g.st.board
            .parts
            .iter()
            .filter(|p| p.part == 0)
            .map(|p| r1.catalog.tiles[p.tile as usize].id.as_str())
            .collect();
    assert!(ids.contains(&"IC2c1") && ids.contains(&"IC8c1") && !ids.contains(&"IC2"), "{ids:?}");
}

/// The plugin scores inn roads and cathedral cities before `base`: a rule set that runs it
/// after `base` is refused, naming the fix.
#[test]
fn inns_cathedrals_must_run_before_base() {
    let (_, text) = rules();
    let late = text.replace("priority = -5", "priority = 10");
    assert_ne!(late, text);
    let e = load_rules_text("config/inns-cathedrals.toml", &late).unwrap_err().to_string();
    assert!(e.contains("must run before 'base'"), "{e}");
}
