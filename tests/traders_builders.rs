//! Traders & Builders (EXPANSIONS.md BUILDER-1..2, PIG-1, GOODS-1) over random games: 3,000
//! games of `config/traders-builders.toml` at 2 to 5 players, checked after every action,
//! every tenth replayed from its record: followers, builders and pigs conserved; a builder
//! or pig only with a follower of its owner in its feature (BUILDER-2); no player plays
//! three turns in a row, and a turn brings an extra one exactly when its tile extends a
//! road or city of the player's builder (BUILDER-1); every rule ID has a scenario.

mod common;

use std::cell::Cell;

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::{FeatureKind, Game, NodeId, Phase};
use carcassonne_plugin_traders_builders::TradersState;

const IDS: &[&str] = &["BUILDER-1", "BUILDER-2", "PIG-1", "GOODS-1"];

#[test]
fn every_traders_and_builders_rule_id_has_a_scenario() {
    let covered = common::scenario_rule_ids();
    let missing: Vec<&&str> = IDS.iter().filter(|id| !covered.contains(**id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}

fn check(g: &Game) {
    let r = &g.rules;
    let st = &g.st;
    for kind in ["follower", "builder", "pig"] {
        let k = r.figure_kind(kind).unwrap();
        let per = r.figure_kinds[k as usize].per_player as usize;
        for seat in 0..st.players {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
            assert_eq!(on + st.supply[seat][k as usize] as usize, per, "{kind}s of seat {seat}, turn {}", st.turn);
        }
    }
    never_alone(g);
    extra_turn_for_the_builder(g);
}

/// BUILDER-1: at the figure decision, the turn has earned an extra one exactly when the
/// placed tile extends a road or city where the player's builder stands, unless the turn
/// is itself an extra one (worked out from the figures, not from the plugin's own test).
fn extra_turn_for_the_builder(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    if st.phase != Phase::Figure || !st.pending.is_empty() {
        return;
    }
    let me = r.plugin_names().iter().position(|&n| n == "traders-builders").unwrap();
    let in_extra = st.plugin::<TradersState>(me).extra_turn_of == st.turn;
    let extended: Vec<NodeId> = (st.placed_parts())
        .flat_map(|part| {
            let features = &st.rotated(r, part).features;
            (0..features.len() as u8)
                .filter(|&l| matches!(features[l as usize].kind, FeatureKind::Road | FeatureKind::City))
                .map(move |l| st.graph.find(st.node_of(part, l)))
        })
        .collect();
    let b = r.figure_kind("builder").unwrap();
    let builder_there = (st.figures.iter()).any(|f| {
        f.alive && f.owner == st.current && f.kind == b && f.node.is_some_and(|n| extended.contains(&st.graph.find(n)))
    });
    assert_eq!(st.extra_turn, builder_there && !in_extra, "extra turn of seat {} at turn {}", st.current, st.turn);
}

/// BUILDER-2: at a decision, no builder or pig stands without its owner's follower.
fn never_alone(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    if !st.pending.is_empty() {
        return;
    }
    let (b, p) = (r.figure_kind("builder").unwrap(), r.figure_kind("pig").unwrap());
    for f in st.figures.iter().filter(|f| f.alive && (f.kind == b || f.kind == p)) {
        let node = f.node.expect("on a feature");
        let with = st.figures_in(node).any(|id| {
            let g = &st.figures[id as usize];
            g.owner == f.owner && r.figure_kinds[g.kind as usize].follower
        });
        assert!(with, "a lone {} at turn {}", r.figure_kinds[f.kind as usize].name, st.turn);
    }
}

#[test]
fn three_thousand_random_traders_and_builders_games() {
    let (r, text) = load_rules_file("config/traders-builders.toml").unwrap();
    // BUILDER-1: never three turns in a row (tracked over the turn starts of each game).
    thread_local!(static RUN: Cell<(u32, u8, u32)> = const { Cell::new((0, u8::MAX, 0)) });
    let turns = |g: &Game| {
        check(g);
        RUN.with(|run| {
            let (turn, player, row) = run.get();
            if g.st.turn != turn && g.decision().is_some() {
                let row = if g.st.current == player && g.st.turn == turn + 1 { row + 1 } else { 1 };
                assert!(row <= 2, "seat {} plays a third turn in a row at turn {}", g.st.current, g.st.turn);
                run.set((g.st.turn, g.st.current, row));
            }
        });
    };
    common::run_checked_games("config/traders-builders.toml", &r, &text, 3000, None, 1, turns);
    let g = common::play_checked(&r, 2, 9, false, Some(96), |_| {});
    assert!(g.is_over());
}

/// Both everything rule sets hold Traders & Builders (and Inns & Cathedrals): 3,000 random
/// games each: builder and pig never alone, every game ends with all its tiles, every tenth
/// replayed from its record.
#[test]
fn three_thousand_random_games_of_each_everything_rule_set() {
    for file in ["config/classic-everything.toml", "config/2025-everything.toml"] {
        let (r, text) = load_rules_file(file).unwrap();
        let games = std::env::var("CARC_EVERYTHING_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000);
        common::run_checked_games(file, &r, &text, games, None, 1, never_alone);
    }
}
