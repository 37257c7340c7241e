//! Helpers shared by the rule tests: rule sets with changed options, the rule IDs the
//! JSON scenarios cover, checked random games, and a test builder plugin.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::Arc;

use carcassonne_cli::bots::{make_bot, Bot};
use carcassonne_cli::builtin::{factories, load_rules_text};
use carcassonne_core::action::Action;
use carcassonne_core::config::{BuildFn, PluginFactory};
use carcassonne_core::rules::Registry;
use carcassonne_core::{Game, GameOptions, Hooks, Plugin, Query, QueryKey, Rules, State};
use serde::{Deserialize, Serialize};

/// The base game (plugin `base`, its tiles) with tile set `set` loaded beside it from the
/// tile file text `tiles`, written to a directory of its own (tests run in parallel
/// threads); the base plugin puts only its own tiles in the stack.
pub fn base_with_tile_set(set: &str, tiles: &str) -> Arc<Rules> {
    with_tile_set(&["base"], set, tiles, &["base"])
}

/// The shipped tile sets `shipped` (`config/tiles/NAME.toml`) and tile set `set` from the
/// tile file text `tiles`, with the plugins `plugins` (default options), written to a
/// directory of its own (tests run in parallel threads).
pub fn with_tile_set(shipped: &[&str], set: &str, tiles: &str, plugins: &[&str]) -> Arc<Rules> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("carc-{set}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(dir.join("tiles")).unwrap();
    let mut text = String::from("[tiles]\n");
    for name in shipped {
        std::fs::copy(format!("config/tiles/{name}.toml"), dir.join(format!("tiles/{name}.toml"))).unwrap();
        text.push_str(&format!("{name} = \"tiles/{name}.toml\"\n"));
    }
    std::fs::write(dir.join(format!("tiles/{set}.toml")), tiles).unwrap();
    text.push_str(&format!("{set} = \"tiles/{set}.toml\"\n"));
    for name in plugins {
        text.push_str(&format!("[[plugins]]\nname = \"{name}\"\n"));
    }
    let file = dir.join("rules.toml");
    std::fs::write(&file, &text).unwrap();
    load_rules_text(file.to_str().unwrap(), &text).unwrap()
}

/// Rule-set file `file` with every line `key = ...` of `opts` set to its value (a key may
/// stand in several plugins' option tables); returns the rules and the changed text.
pub fn rules_with(file: &str, opts: &[(&str, &str)]) -> (Arc<Rules>, String) {
    let mut text = std::fs::read_to_string(file).unwrap();
    for (k, v) in opts {
        let mut out = String::new();
        for line in text.lines() {
            if line.starts_with(&format!("{k} = ")) {
                out.push_str(&format!("{k} = {v}\n"));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        text = out;
    }
    (load_rules_text(file, &text).unwrap(), text)
}

/// Every rule ID named in the `rule_ids` of a scenario in tests/scenarios/.
pub fn scenario_rule_ids() -> BTreeSet<String> {
    let mut covered = BTreeSet::new();
    for e in std::fs::read_dir("tests/scenarios").unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            for id in v["rule_ids"].as_array().into_iter().flatten() {
                covered.insert(id.as_str().unwrap().to_string());
            }
        }
    }
    covered
}

/// Plays a seeded game of random bots, calling `check` at the start and after every
/// action; asserts that a decision always has a legal action, that the game ends, and
/// that every tile was placed, discarded or put under a hill unseen (HILLS-1, statistic
/// `hill_tiles_buried`; a double tile counts once): `tiles` of them, or by default the
/// start tile, the tile drawn at the start and the stack.
pub fn play_checked(
    rules: &Arc<Rules>,
    players: usize,
    seed: u64,
    record: bool,
    tiles: Option<usize>,
    check: impl Fn(&Game),
) -> Game {
    play_checked_with(rules, GameOptions { players, seed, tile_order: None, record }, tiles, check)
}

/// [`play_checked`] of a game started with `opts` (a given draw order among them).
pub fn play_checked_with(rules: &Arc<Rules>, opts: GameOptions, tiles: Option<usize>, check: impl Fn(&Game)) -> Game {
    let (players, seed, record) = (opts.players, opts.seed, opts.record);
    let mut g = Game::start(rules.clone(), opts).unwrap();
    let tiles = tiles.unwrap_or(g.st.stack.len() + 2);
    let mut bots: Vec<Box<dyn Bot>> = (0..players).map(|s| make_bot("random", seed, s).unwrap()).collect();
    let mut buf = Vec::new();
    check(&g);
    let mut steps = 0;
    while let Some(d) = g.decision() {
        g.legal_actions(&mut buf);
        assert!(!buf.is_empty(), "seed {seed} turn {}: no legal action for {d:?}", g.st.turn);
        if record {
            assert_actions_told_apart(&g, &buf, seed);
        }
        let i = bots[d.player as usize].choose(&g, &buf);
        g.play_unchecked(buf[i]);
        check(&g);
        steps += 1;
        assert!(steps < 5000, "seed {seed}: the game does not end");
    }
    // Land tiles only: a tile a plugin hands out (the abbey, `land = false`) is not drawn.
    let placed = g.st.board.parts.iter().filter(|p| p.part == 0 && g.rules.catalog.tile(p.tile).land).count();
    let buried = rules.stat("hill_tiles_buried").map_or(0, |i| g.st.stats[i] as usize);
    assert_eq!(placed + g.st.discarded as usize + buried, tiles, "seed {seed}: every tile placed, discarded or buried");
    g
}

/// Asserts that no two legal actions but tile placements are described alike: a record
/// names an action by its description, so a replay of two alike would pick the first.
fn assert_actions_told_apart(g: &Game, legal: &[Action], seed: u64) {
    let mut seen = std::collections::BTreeMap::new();
    for a in legal.iter().filter(|a| !matches!(a, Action::PlaceTile { .. } | Action::PlaceTileVariant { .. })) {
        let told = g.describe(a).to_string();
        if let Some(b) = seen.insert(told.clone(), a) {
            panic!("seed {seed} turn {}: two legal actions told alike ({b:?}, {a:?}): {told}", g.st.turn);
        }
    }
}

/// A builder that needs a follower (PD-DRAGON-7), as a builder-and-pig plugin declares it
/// through the `needs_follower` question; the rule set names it `builder`.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TestBuilder {
    #[serde(skip)]
    kind: u8,
}

impl Plugin for TestBuilder {
    fn name(&self) -> &str {
        "builder"
    }
    fn hooks(&self) -> Hooks {
        Hooks::QUERY
    }
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.kind = reg.figure_kind("builder", false, 0, 1)?;
        Ok(())
    }
    fn answer(&self, _r: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let f = st.figures[q.figure? as usize];
        (q.key == QueryKey::NEEDS_FOLLOWER && f.kind == self.kind).then_some(true)
    }
}

/// The built-in plugin factories and a test plugin's.
pub fn factories_with(name: &'static str, build: BuildFn) -> Vec<PluginFactory> {
    let mut f = factories();
    f.push(PluginFactory { name, summary: "test", requires: &[], conflicts: &[], build });
    f
}

/// Plays a record-form action (as `replay` reads it), panicking with the turn if illegal.
pub fn play(g: &mut Game, a: serde_json::Value) {
    let action = carcassonne_core::replay::parse_action(g, &a).unwrap_or_else(|e| panic!("turn {}: {e}", g.st.turn));
    g.try_play(action).unwrap();
}

/// A `place_tile` action in record form.
pub fn place(tile: &str, x: i32, y: i32, rot: i32) -> serde_json::Value {
    serde_json::json!({"type": "place_tile", "tile": tile, "cell": [x, y], "rotation": rot})
}

/// A `pass` action in record form.
pub fn pass() -> serde_json::Value {
    serde_json::json!({"type": "pass"})
}

/// Two games of each seed with the same rules give the same record (tiles, actions, events
/// and scores), checked after every action by `check`.
pub fn assert_same_seed_same_game(rules: &Arc<Rules>, players: usize, tiles: usize, check: impl Fn(&Game) + Copy) {
    for seed in [3u64, 77] {
        let game = || play_checked(rules, players, seed, true, Some(tiles), check);
        let record = |g: &Game| carcassonne_core::record::GameRecord::from_game(g, "x", None, seed);
        assert_eq!(record(&game()), record(&game()), "seed {seed}");
    }
}

/// `games` seeded random games of `rules` (2 to 5 players, seeds from `first_seed`),
/// checked after every action by `check`; every tenth is written as a record (with the
/// rule-set `text` of `file`), read back and replayed to the same scores.
pub fn run_checked_games(
    file: &str,
    rules: &Arc<Rules>,
    text: &str,
    games: u64,
    tiles: Option<usize>,
    first_seed: u64,
    check: impl Fn(&Game) + Copy,
) {
    use carcassonne_core::record::GameRecord;
    for n in 0..games {
        let seed = first_seed + n;
        let players = 2 + (n % 4) as usize;
        let replay = n % 10 == 0;
        let g = play_checked(rules, players, seed, replay, tiles, check);
        if replay {
            let rec = GameRecord::from_game(&g, file, Some(text), seed);
            let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
            let rules = carcassonne_cli::builtin::rules_for_record(&back.rules, "record").unwrap();
            let g2 = carcassonne_core::replay::replay_full(&back, rules)
                .unwrap_or_else(|e| panic!("{file} seed {seed}: {e}"));
            assert_eq!(g2.scores(), g.scores());
        }
    }
}
