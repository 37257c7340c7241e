//! Property tests of the tower, barn and castle plugins (EXPANSIONS.md TOWER-*, BARN-*,
//! CASTLE-*; RULES.md COMBO-TOWER, COMBO-BARN, COMBO-CASTLE): thousands of seeded random
//! games with each new rule set (and option variants of the classic P&D plugins beside
//! them), checked after every action: no panic, pieces conserved (followers on the board,
//! in supply or held as prisoners; tower pieces in supply or in towers; barns; castle
//! tokens), watchmen and castle knights where they belong, barns never with farmers, no
//! fairy with a castle knight, the dragon never eating what it must not; every tile played;
//! records replay; same seed, same game. With the classic P&D and with Fairy & Dragon 2025.
//! In the everything rule sets also Hills & Sheep and the mayor: the shepherds' 18 tokens,
//! shepherds with their flocks in fields, mayors only in cities or castles (SHEPHERD-*, MAYOR-1).

mod common;
use common::rules_with;

use std::sync::Arc;

use carcassonne_core::state::Phase;
use carcassonne_core::{FeatureKind, Game, Rules, NEUTRAL};
use carcassonne_plugin_barn::BarnState;
use carcassonne_plugin_castle::{CastleState, TOKENS};
use carcassonne_plugin_shepherd::ShepherdState;
use carcassonne_plugin_tower::{TowerState, PIECES};

fn check_state(g: &Game) {
    let r = &g.rules;
    let st = &g.st;
    let turn = st.turn;
    let follower = r.figure_kind("follower").unwrap();
    let tower = r.plugin_index("tower").map(|i| st.plugin::<TowerState>(i));
    let barn = r.plugin_index("barn").map(|i| st.plugin::<BarnState>(i));
    let castle = r.plugin_index("castle").map(|i| st.plugin::<CastleState>(i));
    for seat in 0..st.players {
        let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == follower).count();
        let held =
            tower.map_or(0, |t| t.prisoners.iter().filter(|p| p.owner == seat as u8 && p.kind == follower).count());
        assert_eq!(on + held + st.supply[seat][follower as usize] as usize, 7, "followers of seat {seat}, turn {turn}");
    }
    if let Some(t) = tower {
        let built: u32 = t.towers.iter().map(|x| x.height as u32).sum();
        let used: u32 = (0..st.players).map(|s| (PIECES[st.players] - t.pieces[s]) as u32).sum();
        assert_eq!(built, used, "tower pieces at turn {turn}");
        for x in &t.towers {
            if let Some(w) = x.watchman {
                let f = &st.figures[w as usize];
                assert!(f.alive && f.part == x.part && f.node.is_none() && x.height > 0, "watchman at turn {turn}");
            }
        }
        // TOWER-4: a ransom needs the points; no score goes below zero, except with the
        // bazaar (BAZAAR-2: a buy may cost more than a seat has, as JCZ; its own bound is
        // checked by carcassonne-checks' invariants).
        if r.source("bazaar").is_none() {
            assert!(st.scores().iter().all(|&x| x >= 0), "a score below zero at turn {turn}: {:?}", st.scores());
        }
        for p in &t.prisoners {
            assert_ne!(p.holder, p.owner);
        }
        // TOWER-4: no two players hold prisoners of each other.
        for a in &t.prisoners {
            assert!(!t.prisoners.iter().any(|b| b.holder == a.owner && b.owner == a.holder), "turn {turn}");
        }
    }
    if let Some(b) = barn {
        let k = r.figure_kind("barn").unwrap();
        for seat in 0..st.players {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
            assert_eq!(on + st.supply[seat][k as usize] as usize, 1, "barn of seat {seat}");
        }
        assert_eq!(b.barns.len(), st.figures.iter().filter(|f| f.alive && f.kind == k).count(), "BARN-5");
        for &id in &b.barns {
            let f = &st.figures[id as usize];
            assert!(f.alive, "BARN-5: barns stay");
            let root = st.graph.find(f.node.unwrap());
            assert_eq!(st.graph.node(root).kind, FeatureKind::Field);
            // BARN-2/3: no farmer stays in a barn's field past a scoring step (a tile may
            // join farmers to it; they score and leave in that turn's scoring step).
            if st.pending.is_empty() && st.phase != Phase::Figure {
                assert_eq!(st.graph.followers(root), 0, "farmers with a barn at turn {turn}");
            }
        }
    }
    if let Some(c) = castle {
        for seat in 0..st.players {
            let built = c.castles.iter().filter(|x| x.owner == seat as u8).count();
            assert_eq!(built + c.tokens[seat] as usize, TOKENS[st.players] as usize, "castle tokens");
        }
        for x in &c.castles {
            assert!(st.graph.is_scored(x.city));
            match x.knight {
                Some(k) => {
                    let f = &st.figures[k as usize];
                    assert!(f.alive && f.node.is_none() && x.parts.contains(&f.part), "castle knight at turn {turn}");
                    assert!(x.scored.is_none());
                }
                None => assert!(x.scored.is_some() || st.is_over(), "a castle lost its knight at turn {turn}"),
            }
        }
        // COMBO-CASTLE: no fairy with a castle knight (either fairy).
        let fairy_follower = match (r.plugin_index("fairy"), r.plugin_index("fairy-2025")) {
            (Some(i), _) => st.plugin::<carcassonne_plugin_fairy::FairyState>(i).follower,
            (_, Some(i)) => st.plugin::<carcassonne_plugin_fairy_2025::FairyState>(i).fairy.map(|(_, f)| f),
            _ => None,
        };
        if let Some(f) = fairy_follower {
            assert!(!c.castles.iter().any(|x| x.knight == Some(f)), "fairy with a castle knight at turn {turn}");
        }
    }
    // Hills & Sheep in the everything rule sets: the 18 tokens in the bag and the flocks
    // (SHEPHERD-1), both wolves back in the bag, one shepherd per seat, in a field with
    // his flock (SHEPHERD-2, SHEPHERD-3; a wolf or a removal sends him home with it,
    // SHEPHERD-4, SHEPHERD-6).
    if let Some(i) = r.plugin_index("shepherd") {
        let s = st.plugin::<ShepherdState>(i);
        assert_eq!(s.tokens(), 18, "tokens in bag and flocks, turn {turn}");
        assert_eq!(s.bag.iter().filter(|&&x| x == 0).count(), 2, "both wolves in the bag, turn {turn}");
        let k = r.figure_kind("shepherd").unwrap();
        for seat in 0..st.players {
            let mine = |f: &&carcassonne_core::state::Figure| f.alive && f.owner == seat as u8 && f.kind == k;
            let on = st.figures.iter().filter(mine).count();
            assert_eq!(on + st.supply[seat][k as usize] as usize, 1, "shepherd of seat {seat}, turn {turn}");
            assert_eq!(s.shepherds[seat].is_some(), on == 1, "seat {seat}'s shepherd is known, turn {turn}");
            if let Some(id) = s.shepherds[seat] {
                let f = &st.figures[id as usize];
                assert!(f.alive && f.kind == k, "seat {seat}'s shepherd stands, turn {turn}");
                assert_eq!(st.graph.node(f.node.expect("in a field")).kind, FeatureKind::Field);
                if st.pending.is_empty() {
                    assert!(!s.flocks[seat].is_empty(), "seat {seat}'s shepherd without sheep, turn {turn}");
                }
            } else {
                assert!(s.flocks[seat].is_empty(), "seat {seat}'s flock without shepherd, turn {turn}");
            }
        }
    }
    // MAYOR-1: one mayor per seat (on the board, in supply or a prisoner), only in a city
    // or as the knight of a castle built from its small city.
    if let Some(k) = r.figure_kind("mayor") {
        for seat in 0..st.players {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k).count();
            let held = tower.map_or(0, |t| t.prisoners.iter().filter(|p| p.owner == seat as u8 && p.kind == k).count());
            assert_eq!(on + held + st.supply[seat][k as usize] as usize, 1, "mayor of seat {seat}, turn {turn}");
        }
        for (id, f) in st.figures.iter().enumerate().filter(|(_, f)| f.alive && f.kind == k) {
            match f.node {
                Some(n) => assert_eq!(st.graph.node(n).kind, FeatureKind::City, "a mayor off a city, turn {turn}"),
                None => assert!(
                    castle.is_some_and(|c| c.castles.iter().any(|x| x.knight == Some(id as u32))),
                    "a mayor on no feature and in no castle, turn {turn}"
                ),
            }
        }
    }
    // PD-DRAGON-3: no player's figure placed on the dragon's tile; barns and castle knights
    // may share it (the dragon passes them).
    if let (Some(dk), Some(di)) = (r.figure_kind("dragon"), r.plugin_index("dragon")) {
        let dragon = st.figures.iter().find(|f| f.alive && f.kind == dk).map(|f| f.part);
        for (id, f) in st.figures.iter().enumerate().filter(|(_, f)| f.alive && f.owner != NEUTRAL) {
            if Some(f.part) == dragon {
                assert!(
                    !st.is_eatable(r, id as u32, di as u8),
                    "turn {turn}: {} of seat {} at {} with the dragon; log {:?}",
                    r.figure_kinds[f.kind as usize].name,
                    f.owner,
                    st.figure_place_name(r, f),
                    st.log.as_ref().map(|l| l[l.len().saturating_sub(12)..].to_vec())
                );
            }
        }
    }
}

/// A seeded random game checked after every action; `tiles`: the tiles in the game (None:
/// those in the stack at the start, after any removed unseen).
fn play_checked(rules: &Arc<Rules>, players: usize, seed: u64, record: bool, tiles: Option<usize>) -> Game {
    common::play_checked(rules, players, seed, record, tiles, check_state)
}

fn run(file: &str, opts: &[(&str, &str)], games: u64, tiles: Option<usize>, first_seed: u64) {
    let (rules, text) = rules_with(file, opts);
    common::run_checked_games(file, &rules, &text, games, tiles, first_seed, check_state);
}

#[test]
fn tower_games() {
    run("config/tower.toml", &[], 500, Some(90), 0);
    run("config/tower.toml", &[("edition", "1"), ("ransom", "5")], 200, Some(90), 10_000);
}

#[test]
fn barn_games() {
    run("config/barn.toml", &[], 600, Some(72), 0);
}

#[test]
fn castle_games() {
    run("config/castle.toml", &[], 600, Some(72), 0);
}

#[test]
fn classic_everything_games() {
    let e = "config/classic-everything.toml";
    // 3,000 games in all (issue 18: every everything rule set over 3,000 checked games).
    run(e, &[], 1000, Some(236), 0);
    run(e, &[("fairy_placement", "\"on_tile\""), ("dragon_move", "\"after_scoring\"")], 1000, Some(236), 20_000);
    run(e, &[("early_dragon_tiles", "\"held_out\""), ("princess_action", "\"must\"")], 1000, Some(236), 30_000);
}

#[test]
fn everything_2025_games() {
    run("config/2025-everything.toml", &[], 3000, None, 0);
}

#[test]
fn same_seed_same_game() {
    let (rules, _) = rules_with("config/classic-everything.toml", &[]);
    common::assert_same_seed_same_game(&rules, 4, 236, check_state);
}

/// Both everything rule sets hold Hills & Sheep and the mayor, and random games use them:
/// over 150 games each, shepherds are placed, wolves drawn and sheep gathered (SHEPHERD-2..5;
/// every gathered sheep pays at least one point of source `sheep`), tiles buried under hills
/// (HILLS-1) and mayors placed (MAYOR-1). A completed monastery beside a vineyard is rare with
/// random bots; these classic games have one (VINEYARD-1).
#[test]
fn hills_sheep_and_the_mayor_play_in_both_everything_sets() {
    let common = ["shepherds_placed", "wolves_drawn", "sheep_gathered", "hill_tiles_buried", "mayors_placed"];
    for (file, tiles, vineyards) in
        [("config/classic-everything.toml", Some(236), true), ("config/2025-everything.toml", None, false)]
    {
        let (rules, _) = rules_with(file, &[]);
        let stat = |n: &str| rules.stat(n).unwrap_or_else(|| panic!("{file}: no statistic {n}"));
        let names: Vec<&str> = common.iter().copied().chain(vineyards.then_some("vineyard_points")).collect();
        let mut totals = vec![0i64; names.len()];
        let sheep = rules.source("sheep").unwrap() as usize;
        let mut sheep_points = 0i64;
        for seed in 0..150u64 {
            let g = play_checked(&rules, 2 + (seed % 4) as usize, 50_000 + seed, false, tiles);
            for (t, n) in totals.iter_mut().zip(&names) {
                *t += g.st.stats[stat(n)];
            }
            sheep_points += (0..g.st.players).map(|s| g.st.points_by_source[s][sheep] as i64).sum::<i64>();
        }
        for (t, n) in totals.iter().zip(&names) {
            assert!(*t > 0, "{file}: {n} is 0 in 150 games");
        }
        let gathered = totals[2];
        assert!(sheep_points >= gathered, "{file}: {sheep_points} sheep points for {gathered} sheep gathered");
    }
}

/// `cargo test --release --test combo_properties -- --ignored`: 10,000 games per rule set.
#[test]
#[ignore]
fn ten_thousand_games() {
    for (file, tiles) in [
        ("config/tower.toml", Some(90)),
        ("config/barn.toml", Some(72)),
        ("config/castle.toml", Some(72)),
        ("config/classic-everything.toml", Some(236)),
        ("config/2025-everything.toml", None),
    ] {
        let (rules, _) = rules_with(file, &[]);
        for seed in 0..10_000u64 {
            play_checked(&rules, 2 + (seed % 4) as usize, seed, false, tiles);
        }
    }
}
