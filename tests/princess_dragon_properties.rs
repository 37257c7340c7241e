//! Property tests of the Princess & Dragon plugins: thousands of seeded random games with
//! all four plugins, for every value of every option (dragon_move, early_dragon_tiles,
//! fairy_placement, princess_action, edition), checked after every action: no panic,
//! followers conserved, the dragon never on the fairy's tile, no player's figure on a
//! volcano or on the dragon's tile; every tile played; records replay; same seed, same game.

mod common;

use std::sync::Arc;

use carcassonne_cli::builtin::rules_for_record;
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::replay_full;
use carcassonne_core::{Game, Rules, NEUTRAL};

const PD: &str = "config/princess-dragon.toml";

/// Every combination of option values.
fn option_sets() -> Vec<Vec<(&'static str, &'static str)>> {
    let axes: [(&str, [&str; 2]); 5] = [
        ("dragon_move", ["\"before_scoring\"", "\"after_scoring\""]),
        ("early_dragon_tiles", ["\"set_aside\"", "\"held_out\""]),
        ("fairy_placement", ["\"next_follower\"", "\"on_tile\""]),
        ("princess_action", ["\"may\"", "\"must\""]),
        ("edition", ["2", "1"]),
    ];
    (0..32u32)
        .map(|bits| axes.iter().enumerate().map(|(i, (k, vals))| (*k, vals[(bits >> i) as usize & 1])).collect())
        .collect()
}

fn rules_with(opts: &[(&str, &str)]) -> (Arc<Rules>, String) {
    common::rules_with(PD, opts)
}

fn check_state(g: &Game) {
    let r = &g.rules;
    let st = &g.st;
    let follower = r.figure_kind("follower").unwrap();
    for seat in 0..st.players {
        let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == follower).count();
        assert_eq!(on + st.supply[seat][follower as usize] as usize, 7, "seat {seat} at turn {}", st.turn);
    }
    let part_of = |name: &str| {
        let k = r.figure_kind(name).unwrap();
        st.figures.iter().find(|f| f.alive && f.kind == k).map(|f| f.part)
    };
    let dragon = part_of("dragon");
    let fairy = part_of("fairy");
    if let (Some(d), Some(f)) = (dragon, fairy) {
        assert_ne!(d, f, "the dragon on the fairy's tile at turn {}", st.turn);
    }
    let volcano = r.catalog.marker("volcano");
    for f in st.figures.iter().filter(|f| f.alive && f.owner != NEUTRAL) {
        assert!(st.part_markers(r, f.part) & volcano == 0, "a figure on a volcano at turn {}", st.turn);
        assert_ne!(Some(f.part), dragon, "a figure with the dragon at turn {}", st.turn);
    }
}

/// A seeded random game checked after every action; all 102 tiles are played.
fn play_checked(rules: &Arc<Rules>, players: usize, seed: u64, record: bool) -> Game {
    common::play_checked(rules, players, seed, record, Some(102), check_state)
}

#[test]
fn thousands_of_random_games_for_every_option_value() {
    let mut games = 0;
    for (i, opts) in option_sets().into_iter().enumerate() {
        let (rules, text) = rules_with(&opts);
        for n in 0..70u64 {
            let seed = i as u64 * 1000 + n;
            let replay = n % 10 == 0;
            let g = play_checked(&rules, 2 + (n % 4) as usize, seed, replay);
            if replay {
                let rec = GameRecord::from_game(&g, PD, Some(&text), seed);
                let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
                let g2 = replay_full(&back, rules_for_record(&back.rules, "record").unwrap())
                    .unwrap_or_else(|e| panic!("{opts:?} seed {seed}: {e}"));
                assert_eq!(g2.scores(), g.scores());
            }
            games += 1;
        }
    }
    assert_eq!(games, 32 * 70);
}

#[test]
fn same_seed_same_game() {
    let (rules, _) = rules_with(&[]);
    for seed in [1u64, 99, 12345] {
        let a = GameRecord::from_game(&play_checked(&rules, 3, seed, true), "x", None, seed);
        let b = GameRecord::from_game(&play_checked(&rules, 3, seed, true), "x", None, seed);
        assert_eq!(a, b);
    }
}

/// `cargo test --release --test princess_dragon_properties -- --ignored`: 10,000 games.
#[test]
#[ignore]
fn ten_thousand_games() {
    let (rules, _) = rules_with(&[]);
    for seed in 0..10_000u64 {
        play_checked(&rules, 2 + (seed % 4) as usize, seed, false);
    }
}
