//! The large meeple (EXPANSIONS.md LARGE-1; RULES.md COMBO-LARGE) beyond the scenarios in
//! tests/scenarios/ (large-*, combo-large-*): rule-ID coverage, six players, the large
//! meeple without farmers, and thousands of seeded random games (the new rule set with 2 to
//! 6 players, and the classic and 2025 "everything" rule sets with the large meeple added)
//! checked after every action: every per-seat figure conserved (on the board, in supply or
//! held as a prisoner), occupancy counted once per follower, the large meeple never on a
//! volcano or a lair nor left beside the classic dragon; records replay.

mod common;

use std::cell::Cell;
use std::sync::Arc;

use carcassonne_cli::builtin::{load_rules_file, load_rules_text, rules_for_record};
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::{parse_action, replay_full};
use carcassonne_core::{Game, GameOptions, LogEntry, Rules, NEUTRAL};
use carcassonne_plugin_castle::CastleState;
use carcassonne_plugin_tower::TowerState;
use serde_json::{json, Value};

/// The rule IDs of Inns & Cathedrals (EXPANSIONS.md LARGE-1, the large meeple; LARGE-2,
/// inns and cathedrals, the `inns-cathedrals` plugin) and of their combination rules.
const LARGE_IDS: &[&str] = &["LARGE-1", "LARGE-2", "COMBO-LARGE"];

#[test]
fn every_large_meeple_rule_id_has_a_scenario() {
    let covered = common::scenario_rule_ids();
    let missing: Vec<&&str> = LARGE_IDS.iter().filter(|id| !covered.contains(**id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}

fn large_rules() -> Arc<Rules> {
    load_rules_file("config/large-meeple.toml").unwrap().0
}

fn legal(g: &Game) -> Vec<Value> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    let mut v: Vec<Value> = buf.iter().map(|a| g.describe(a)).collect();
    v.sort_by_key(|x| x.to_string());
    v
}

fn sorted(mut v: Vec<Value>) -> Vec<Value> {
    v.sort_by_key(|x| x.to_string());
    v
}

/// LARGE-1: "Six players may play": the base game alone allows 2 to 5 seats, with the
/// large meeple 2 to 6; every seat starts with 7 followers and one large meeple.
#[test]
fn six_players_with_the_large_meeple() {
    let base = load_rules_file("config/base.toml").unwrap().0;
    assert_eq!((base.min_players, base.max_players), (2, 5));
    assert!(Game::new(base, 6, 1).is_err(), "the base game alone seats at most 5");
    let r = large_rules();
    assert_eq!((r.min_players, r.max_players), (2, 6));
    assert!(Game::new(r.clone(), 1, 1).is_err());
    assert!(Game::new(r.clone(), 7, 1).is_err());
    let g = Game::new(r.clone(), 6, 1).unwrap();
    let (follower, large) = (r.figure_kind("follower").unwrap(), r.figure_kind("large").unwrap());
    let def = &r.figure_kinds[large as usize];
    assert!(def.follower && def.strength == 2 && def.per_player == 1, "{def:?}");
    for seat in 0..6 {
        assert_eq!((g.st.supply[seat][follower as usize], g.st.supply[seat][large as usize]), (7, 1));
    }
}

/// LARGE-1 with BASE-5: the large meeple goes where base puts a follower; with `farmers =
/// false` neither goes into a field. After U (1,0): the road only, for either figure.
#[test]
fn no_large_meeple_in_fields_without_farmers() {
    let (r, _) = common::rules_with("config/large-meeple.toml", &[("farmers", "false")]);
    let order = vec![r.catalog.id("U").unwrap()];
    let mut g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: false }).unwrap();
    let place = json!({"type": "place_tile", "tile": "U", "cell": [1, 0], "rotation": 0});
    g.try_play(parse_action(&g, &place).unwrap()).unwrap();
    let want = sorted(vec![
        json!({"type": "figure", "figure": "follower", "cell": [1, 0], "feature": "road:E+W"}),
        json!({"type": "figure", "figure": "large", "cell": [1, 0], "feature": "road:E+W"}),
        json!({"type": "pass"}),
    ]);
    assert_eq!(legal(&g), want);
}

/// What the random games showed (so that the properties are not checked on games that
/// never got there).
#[derive(Default)]
struct Seen {
    /// States with a large meeple held as a prisoner (tower capture, TOWER-3).
    prisoner: Cell<u64>,
    /// States with a large meeple as a watchman (TOWER-2).
    watchman: Cell<u64>,
    /// States with a large meeple as a castle's knight (CASTLE-2).
    knight: Cell<u64>,
    /// States with the fairy (either) joined to a large meeple (COMBO-LARGE).
    fairy: Cell<u64>,
    /// Large meeples eaten by a dragon (in the recorded games; COMBO-LARGE).
    eaten: Cell<u64>,
    /// Large meeples placed through the portal (in the recorded games; COMBO-LARGE).
    portal: Cell<u64>,
}

fn bump(c: &Cell<u64>) {
    c.set(c.get() + 1);
}

fn check_state(g: &Game, seen: &Seen) {
    let r = &g.rules;
    let st = &g.st;
    let turn = st.turn;
    let large = r.figure_kind("large").unwrap();
    let tower = r.plugin_index("tower").map(|i| st.plugin::<TowerState>(i));
    // Every figure a seat owns (followers, the large meeple, the barn) is on the board, in
    // its supply, or another seat's prisoner.
    for (k, def) in r.figure_kinds.iter().enumerate().filter(|(_, d)| d.per_player > 0) {
        for seat in 0..st.players {
            let on = st.figures.iter().filter(|f| f.alive && f.owner == seat as u8 && f.kind == k as u8).count();
            let held =
                tower.map_or(0, |t| t.prisoners.iter().filter(|p| p.owner == seat as u8 && p.kind == k as u8).count());
            let supply = st.supply[seat][k] as usize;
            assert_eq!(on + held + supply, def.per_player as usize, "{} of seat {seat} at turn {turn}", def.name);
        }
    }
    if let Some(t) = tower {
        if t.prisoners.iter().any(|p| p.kind == large) {
            bump(&seen.prisoner);
        }
        if t.towers.iter().any(|x| x.watchman.is_some_and(|w| st.figures[w as usize].kind == large)) {
            bump(&seen.watchman);
        }
    }
    if let Some(c) = r.plugin_index("castle").map(|i| st.plugin::<CastleState>(i)) {
        if c.castles.iter().any(|x| x.knight.is_some_and(|k| st.figures[k as usize].kind == large)) {
            bump(&seen.knight);
        }
    }
    let fairy_follower = match (r.plugin_index("fairy"), r.plugin_index("fairy-2025")) {
        (Some(i), _) => st.plugin::<carcassonne_plugin_fairy::FairyState>(i).follower,
        (_, Some(i)) => st.plugin::<carcassonne_plugin_fairy_2025::FairyState>(i).fairy.map(|(_, f)| f),
        _ => None,
    };
    if fairy_follower.is_some_and(|f| st.figures[f as usize].alive && st.figures[f as usize].kind == large) {
        bump(&seen.fairy);
    }
    // Occupancy: each follower figure (the large meeple too) counts once in its feature.
    let mut count: Vec<(u32, u32)> = Vec::new();
    for f in st.figures.iter().filter(|f| f.alive && r.figure_kinds[f.kind as usize].follower) {
        if let Some(n) = f.node {
            let root = st.graph.find(n);
            match count.iter_mut().find(|(r, _)| *r == root) {
                Some(e) => e.1 += 1,
                None => count.push((root, 1)),
            }
        }
    }
    for (root, n) in count {
        assert_eq!(st.graph.followers(root), n, "occupancy of {} at turn {turn}", st.feature_name(r, root));
    }
    // No large meeple on a volcano or a lair (PD-DRAGON-2, FD-LAIR-1), nor left on the
    // classic dragon's tile unless something spares it (PD-DRAGON-3/6).
    let forbidden = r.catalog.marker("volcano") | r.catalog.marker("lair");
    let dragon = r.plugin_index("dragon").and_then(|i| {
        let k = r.figure_kind("dragon")?;
        st.figures.iter().find(|f| f.alive && f.kind == k).map(|f| (f.part, i))
    });
    for (id, f) in st.figures.iter().enumerate().filter(|(_, f)| f.alive && f.kind == large) {
        assert!(f.owner != NEUTRAL);
        assert_eq!(st.part_markers(r, f.part) & forbidden, 0, "a large meeple on a volcano or lair at turn {turn}");
        if let Some((part, di)) = dragon {
            if part == f.part {
                assert!(!st.is_eatable(r, id as u32, di as u8), "a large meeple with the dragon at turn {turn}");
            }
        }
    }
}

/// Plays `games` seeded random games of `text` (read as `file`), 2 to `max_players` seats,
/// checked after every action; every tenth game is recorded, searched for a large meeple
/// eaten by a dragon or placed through the portal (on another cell than the tile just
/// placed: no double tiles in these rule sets but the 2025 River's, not searched), and
/// replayed.
fn run(file: &str, text: &str, games: u64, max_players: u64, seen: &Seen) {
    let rules = load_rules_text(file, text).unwrap();
    let portal = rules.plugin_index("portal").is_some() && rules.plugin_index("dragon").is_some();
    for seed in 0..games {
        let players = 2 + (seed % (max_players - 1)) as usize;
        let record = seed % 10 == 0;
        let g = common::play_checked(&rules, players, seed, record, None, |g| check_state(g, seen));
        if !record {
            continue;
        }
        let mut tile_cell = Value::Null;
        for e in g.st.log.iter().flatten() {
            match e {
                LogEntry::Removed { figure, reason, .. } if figure == "large" && reason.starts_with("dragon") => {
                    bump(&seen.eaten)
                }
                LogEntry::Action { action, .. } if action["type"] == "place_tile" => tile_cell = action["cell"].clone(),
                LogEntry::Action { action, .. }
                    if portal
                        && action["type"] == "figure"
                        && action["figure"] == "large"
                        && action.get("feature").is_some()
                        && action["cell"] != tile_cell =>
                {
                    bump(&seen.portal)
                }
                _ => {}
            }
        }
        let rec = GameRecord::from_game(&g, file, Some(text), seed);
        let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        let g2 = replay_full(&back, rules_for_record(&back.rules, "record").unwrap())
            .unwrap_or_else(|e| panic!("{file} seed {seed}: {e}"));
        assert_eq!(g2.scores(), g.scores());
    }
}

/// A rule set's text with the large meeple added.
fn with_large(file: &str) -> String {
    std::fs::read_to_string(file).unwrap() + "\n[[plugins]]\nname = \"large-meeple\"\npriority = 5\n"
}

#[test]
fn large_meeple_games_two_to_six_players() {
    let seen = Seen::default();
    let file = "config/large-meeple.toml";
    run(file, &std::fs::read_to_string(file).unwrap(), 2000, 6, &seen);
}

#[test]
fn classic_everything_with_the_large_meeple() {
    let seen = Seen::default();
    run("config/classic-everything.toml", &with_large("config/classic-everything.toml"), 1500, 5, &seen);
    for (what, c) in [
        ("eaten by the dragon", &seen.eaten),
        ("through the portal", &seen.portal),
        ("with the fairy", &seen.fairy),
        ("a prisoner", &seen.prisoner),
        ("a watchman", &seen.watchman),
        ("a castle knight", &seen.knight),
    ] {
        assert!(c.get() > 0, "no large meeple {what} in 1500 games");
    }
}

#[test]
fn everything_2025_with_the_large_meeple() {
    let seen = Seen::default();
    run("config/2025-everything.toml", &with_large("config/2025-everything.toml"), 1000, 5, &seen);
    for (what, c) in
        [("eaten by the dragon", &seen.eaten), ("with the fairy", &seen.fairy), ("a prisoner", &seen.prisoner)]
    {
        assert!(c.get() > 0, "no large meeple {what} in 1000 games");
    }
}

/// The figure action of `g` placing a `figure` on a field of the tile just placed.
fn farmer(g: &Game, figure: &str) -> Value {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    let found = buf.iter().map(|a| g.describe(a)).find(|a| {
        a["type"] == "figure" && a["figure"] == figure && a["feature"].as_str().is_some_and(|f| f.starts_with("field"))
    });
    found.unwrap_or_else(|| panic!("no {figure} farmer offered"))
}

/// LARGE-1 with BASE-10 (fields): the large meeple counts two farmers in a field's majority.
/// D's city is closed by E (0,-1) turned 180 (nobody in it). Seat 0's large meeple farms E's
/// field, seat 1's follower farms D's north field through U (1,0); E (1,-1) joins both
/// fields. At the end the field touches one completed city: 3 points to seat 0 alone (2
/// against 1); with a follower instead of the large meeple both would score 3.
#[test]
fn the_large_meeple_wins_a_field_against_one_farmer() {
    let play_out = |figure: &str| -> Vec<i32> {
        let r = large_rules();
        let order = ["E", "U", "E"].iter().map(|id| r.catalog.id(id).unwrap()).collect();
        let mut g =
            Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: true }).unwrap();
        common::play(&mut g, common::place("E", 0, -1, 180));
        let a = farmer(&g, figure);
        common::play(&mut g, a);
        common::play(&mut g, common::place("U", 1, 0, 0));
        let a = farmer(&g, "follower");
        assert_eq!(a["cell"], json!([1, 0]));
        common::play(&mut g, a);
        common::play(&mut g, common::place("E", 1, -1, 0));
        common::play(&mut g, common::pass());
        assert!(g.is_over());
        g.scores().to_vec()
    };
    assert_eq!(play_out("large"), [3, 0]);
    assert_eq!(play_out("follower"), [3, 3]);
}
