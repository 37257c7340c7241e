//! Property tests of the Fairy & Dragon rule sets over thousands of seeded random games,
//! checked after every action: no panic, followers conserved, the fairy never alone on
//! the board (FD-FAIRY-3), no figure on a lair (FD-LAIR-1), the dragon either on the
//! board, held or not yet in play; at the end every tile was placed or discarded, and
//! records replay to the same scores.

mod common;

use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, rules_for_record};
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::replay_full;
use carcassonne_core::{Game, Rules, NEUTRAL};
use carcassonne_plugin_dragon_2025::DragonState;
use carcassonne_plugin_fairy_2025::FairyState;

fn rules(file: &str) -> Arc<Rules> {
    load_rules_file(file).unwrap().0
}

struct Ids {
    follower: u8,
    dragon: u8,
    fairy: u8,
    lair: u32,
    di: usize,
    fi: usize,
    portal: bool,
}

fn ids(r: &Rules) -> Ids {
    Ids {
        follower: r.figure_kind("follower").unwrap(),
        dragon: r.figure_kind("dragon").unwrap(),
        fairy: r.figure_kind("fairy").unwrap(),
        lair: r.catalog.marker("lair"),
        di: r.plugin_index("dragon-2025").unwrap(),
        fi: r.plugin_index("fairy-2025").unwrap(),
        portal: r.plugin_index("portal").is_some(),
    }
}

fn invariants(g: &Game, ids: &Ids) {
    let st = &g.st;
    for seat in 0..st.players {
        let on_board = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == ids.follower).count();
        assert_eq!(on_board + st.supply[seat][ids.follower as usize] as usize, 7, "seat {seat}: followers");
    }
    let alive = |k: u8| st.figures.iter().enumerate().filter(move |(_, f)| f.alive && f.kind == k);
    // FD-LAIR-1: no player's figure on a lair tile.
    for f in st.figures.iter().filter(|f| f.alive && f.owner != NEUTRAL) {
        assert_eq!(st.part_markers(&g.rules, f.part) & ids.lair, 0, "a figure on a lair at {:?}", f);
    }
    // The dragon: on the board (one figure), held by a seat, or not yet in play.
    let ds: &DragonState = st.plugin(ids.di);
    let dragons: Vec<usize> = alive(ids.dragon).map(|(i, _)| i).collect();
    match ds.figure {
        Some(id) => {
            assert_eq!(dragons, vec![id as usize]);
            assert!(ds.holder.is_none());
            let part = st.figures[id as usize].part;
            // Without the portal nothing can stand where the dragon stopped or landed.
            if !ids.portal && st.pending.is_empty() {
                assert!(st.figures_on(part).all(|f| st.figures[f as usize].owner == NEUTRAL), "figure with the dragon");
            }
        }
        None => assert!(dragons.is_empty()),
    }
    // FD-FAIRY-3: the fairy stands with its follower, or is in the supply.
    let fs: &FairyState = st.plugin(ids.fi);
    let fairies: Vec<usize> = alive(ids.fairy).map(|(i, _)| i).collect();
    match fs.fairy {
        Some((fairy, follower)) => {
            assert_eq!(fairies, vec![fairy as usize]);
            let (a, b) = (&st.figures[fairy as usize], &st.figures[follower as usize]);
            assert!(b.alive && b.owner != NEUTRAL && b.kind == ids.follower, "the fairy alone: {a:?} {b:?}");
            assert_eq!(a.part, b.part);
            assert_eq!(a.data, follower);
        }
        None => assert!(fairies.is_empty(), "a fairy figure without a follower"),
    }
}

/// Plays one random game, checking the invariants after every action.
fn play(r: &Arc<Rules>, players: usize, seed: u64, record: bool) -> Game {
    let ids = ids(r);
    common::play_checked(r, players, seed, record, None, |g| invariants(g, &ids))
}

fn many(file: &str, games: u64) {
    let r = rules(file);
    let text = std::fs::read_to_string(file).unwrap();
    for seed in 0..games {
        let replay = seed % 25 == 0;
        let g = play(&r, 2 + (seed % 4) as usize, seed, replay);
        if replay {
            let rec = GameRecord::from_game(&g, file, Some(&text), seed);
            let json = serde_json::to_string(&rec).unwrap();
            let back: GameRecord = serde_json::from_str(&json).unwrap();
            let g2 = replay_full(&back, rules_for_record(&back.rules, "record").unwrap()).unwrap();
            assert_eq!(g2.scores(), g.scores(), "seed {seed}");
        }
    }
}

#[test]
fn thousands_of_random_fairy_dragon_games() {
    many("config/fairy-dragon.toml", 2000);
}

#[test]
fn thousands_of_random_fairy_dragon_river_games() {
    many("config/fairy-dragon-river.toml", 2000);
}

/// The dragon, the fairy and the stats all take part in random games.
#[test]
fn random_games_use_every_mechanism() {
    let r = rules("config/fairy-dragon-river.toml");
    let mut totals = vec![0i64; r.stats.len()];
    let mut fairy_points = 0;
    let src = r.source("fairy").unwrap() as usize;
    for seed in 0..200 {
        let g = play(&r, 2, seed, false);
        for (t, s) in totals.iter_mut().zip(&g.st.stats) {
            *t += s;
        }
        fairy_points += (0..2).map(|p| g.st.points_by_source[p][src]).sum::<i32>();
    }
    for (name, t) in r.stats.iter().zip(&totals) {
        assert!(*t > 0, "stat {name} never moved in 200 games");
    }
    assert!(fairy_points > 0 && fairy_points % 3 == 0);
}
