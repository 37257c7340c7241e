//! Property tests over thousands of seeded random games: no panic, followers conserved,
//! every placed tile matches its neighbours, records replay to identical scores.

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, rules_for_record};
use carcassonne_cli::driver::play_game;
use carcassonne_core::geometry::Side;
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::replay_full;
use carcassonne_core::tile::signature_side;
use carcassonne_core::{Game, Rules, NEUTRAL};
use proptest::prelude::*;

fn rules(file: &str) -> Arc<Rules> {
    load_rules_file(file).unwrap().0
}

/// BASE-1/BASE-8: each seat's followers are in supply or on the board, 7 in all.
fn followers_conserved(g: &Game) {
    let k = g.rules.figure_kind("follower").unwrap();
    for seat in 0..g.st.players {
        let on_board = g.st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
        assert_eq!(on_board + g.st.supply[seat][k as usize] as usize, 7, "seat {seat}");
    }
    assert!(g.st.figures.iter().all(|f| !f.alive || f.owner != NEUTRAL));
}

/// BASE-3: every side touching a placed tile matches it.
fn tiles_match(g: &Game) {
    let b = &g.st.board;
    for p in &b.parts {
        for s in Side::ALL {
            if let Some(n) = b.part_at(p.pos.step(s)) {
                let other = &b.parts[n as usize];
                assert_eq!(
                    signature_side(p.signature, s),
                    signature_side(other.signature, s.opposite()),
                    "{} side {:?} vs {}",
                    p.pos,
                    s,
                    other.pos
                );
            }
        }
    }
}

fn check_game(rules: &Arc<Rules>, file: &str, players: usize, seed: u64, bots: &[String], replay: bool) {
    let g = play_game(rules, players, seed, bots, replay).unwrap();
    assert!(g.is_over());
    followers_conserved(&g);
    tiles_match(&g);
    // Every tile was placed or discarded (BASE-4, BASE-10).
    let total: usize = rules.catalog.tiles.iter().map(|t| t.count as usize).sum();
    let in_play = if rules.plugin_index("river").is_some() { total } else { 72 };
    assert_eq!(g.st.board.len() + g.st.discarded as usize, in_play);
    if replay {
        let text = std::fs::read_to_string(file).unwrap();
        let rec = GameRecord::from_game(&g, file, Some(&text), seed);
        let json = serde_json::to_string(&rec).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        let r2 = rules_for_record(&back.rules, "record").unwrap();
        let g2 = replay_full(&back, r2).unwrap();
        assert_eq!(g2.scores(), g.scores());
    }
}

#[test]
fn thousands_of_random_base_games() {
    let r = rules("config/base.toml");
    let bots = vec!["random".to_string()];
    for seed in 0..2000 {
        check_game(&r, "config/base.toml", 2 + (seed % 4) as usize, seed, &bots, seed % 10 == 0);
    }
}

#[test]
fn thousands_of_random_river_games() {
    let r = rules("config/river.toml");
    let bots = vec!["random".to_string()];
    for seed in 0..1000 {
        check_game(&r, "config/river.toml", 2 + (seed % 4) as usize, seed, &bots, seed % 10 == 0);
    }
}

#[test]
fn greedy_games_replay() {
    let r = rules("config/base.toml");
    let bots = vec!["greedy".to_string(), "random".to_string()];
    for seed in 0..5 {
        check_game(&r, "config/base.toml", 2, seed, &bots, true);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Same seed and rule set, same game (scores and record).
    #[test]
    fn same_seed_same_game(seed in any::<u64>(), players in 2usize..=5) {
        let r = rules("config/river.toml");
        let bots = vec!["random".to_string()];
        let a = play_game(&r, players, seed, &bots, true).unwrap();
        let b = play_game(&r, players, seed, &bots, true).unwrap();
        prop_assert_eq!(a.scores(), b.scores());
        let ra = GameRecord::from_game(&a, "x", None, seed);
        let rb = GameRecord::from_game(&b, "x", None, seed);
        prop_assert_eq!(ra, rb);
    }
}
