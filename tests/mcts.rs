//! The `mcts` bot (issue 20): it answers every decision of every rule set in config/ with a
//! legal action, it plays the same game from the same seed, it finds the move that wins a
//! city, and the determinization it samples keeps what a player knows of the stack.

mod common;
mod plugin_util;
mod simulate_util;

use std::collections::BTreeMap;
use std::sync::Arc;

use carcassonne_cli::bots::{make_bot, Bot};
use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::record::GameRecord;
use carcassonne_core::{Action, Game, GameOptions, Rng, Rules};

/// Every rule set in config/.
fn rule_sets() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir("config")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    files.sort();
    assert!(files.len() >= 17, "{files:?}");
    files
}

/// Plays a game with `bots` (cycled over the seats), checking every answer against the
/// engine's own check; returns the game.
fn play_checked_bots(rules: &Arc<Rules>, players: usize, seed: u64, bots: &[&str], record: bool) -> Game {
    let mut g = Game::start(rules.clone(), GameOptions { players, seed, tile_order: None, record }).unwrap();
    let mut seats: Vec<Box<dyn Bot>> = (0..players).map(|s| make_bot(bots[s % bots.len()], seed, s).unwrap()).collect();
    let mut buf = Vec::new();
    let mut steps = 0;
    while let Some(d) = g.decision() {
        g.legal_actions(&mut buf);
        assert!(!buf.is_empty(), "{} seed {seed}: no legal action for {d:?}", rules.name);
        let i = seats[d.player as usize].choose(&g, &buf);
        assert!(i < buf.len(), "{} seed {seed}: answer {i} of {} actions", rules.name, buf.len());
        let a = buf[i];
        g.check(&a).unwrap_or_else(|e| panic!("{} seed {seed} turn {}: {e}", rules.name, g.st.turn));
        g.play_unchecked(a);
        steps += 1;
        assert!(steps < 5000, "{} seed {seed}: the game does not end", rules.name);
    }
    assert!(g.failure().is_none(), "{} seed {seed}: {:?}", rules.name, g.failure());
    assert!(g.is_over());
    g
}

/// Few playouts, every rule set, 2 to 4 seats: every answer is legal and every game ends.
#[test]
fn mcts_answers_every_decision_of_every_rule_set_legally() {
    let mut games = 0;
    for file in rule_sets() {
        let rules = if file.ends_with("house-rules.toml") {
            // With this build's plugin files.
            let text = plugin_util::house_rules_text();
            let path = plugin_util::write_rules(&plugin_util::scratch("mcts"), &text);
            load_rules_text(&path, &text).unwrap()
        } else {
            load_rules_file(&file).unwrap().0
        };
        let n = if rules.catalog.tiles.len() > 120 { 8 } else { 14 };
        for k in 0..n {
            let players = (2 + k % 3).clamp(rules.min_players, rules.max_players);
            let seed = 1000 + k as u64;
            let bots: &[&str] = if k % 2 == 0 { &["mcts:2", "mcts:1", "random"] } else { &["mcts:1", "greedy"] };
            play_checked_bots(&rules, players, seed, bots, false);
            games += 1;
        }
    }
    assert!(games >= 200, "{games} games");
}

/// The same seed gives the same game (the bot's randomness comes from the game seed).
#[test]
fn mcts_same_seed_same_game() {
    let rules = load_rules_file("config/base.toml").unwrap().0;
    for seed in [4u64, 19] {
        let rec = |g: &Game| GameRecord::from_game(g, "x", None, seed);
        let a = play_checked_bots(&rules, 2, seed, &["mcts:20", "mcts:5"], true);
        let b = play_checked_bots(&rules, 2, seed, &["mcts:20", "mcts:5"], true);
        assert_eq!(rec(&a), rec(&b), "seed {seed}");
    }
    // And another seed another game.
    let a = play_checked_bots(&rules, 2, 4, &["mcts:20"], false);
    let b = play_checked_bots(&rules, 2, 5, &["mcts:20"], false);
    assert_ne!(a.scores(), b.scores());
}

/// `simulate` with mcts seats gives the same summary with 1 and 2 threads.
#[test]
fn mcts_simulate_is_the_same_for_any_thread_count() {
    let run = |t: &str| {
        simulate_util::untimed(&simulate_util::json(&[
            "simulate",
            "--rules",
            "embedded:config/base.toml",
            "--games",
            "6",
            "--bots",
            "mcts:3,greedy",
            "--json",
            "--threads",
            t,
        ]))
    };
    assert_eq!(run("1"), run("2"));
}

/// The base game, tiles in the given order (first drawn first).
fn forced(order: &[&str]) -> Game {
    let text = "name = \"b\"\n[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n";
    let rules = load_rules_text("config/mcts-test.toml", text).unwrap();
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules, GameOptions { players: 2, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

/// One move wins a city: E (a city on one side) turned 180 at (0,-1) closes the start
/// tile's city (BASE scoring: 2 tiles x 2 = 4 points) and a knight placed on it scores them
/// at once; every other placement scores nothing now. `mcts:200` finds both answers.
#[test]
fn mcts_200_finds_the_move_that_wins_a_city() {
    let mut g = forced(&["E", "E", "K", "U", "V", "B", "E", "K"]);
    let mut bot = make_bot("mcts:200", 7, 0).unwrap();
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    assert_eq!(buf.len(), 4, "E below or above D, each in two ways");
    let i = bot.choose(&g, &buf);
    assert_eq!(
        g.describe(&buf[i]),
        serde_json::json!({"type": "place_tile", "tile": "E", "cell": [0, -1], "rotation": 180})
    );
    g.play_unchecked(buf[i]);
    g.legal_actions(&mut buf);
    let i = bot.choose(&g, &buf);
    assert_eq!(g.describe(&buf[i])["feature"], "city:S", "{}", g.describe(&buf[i]));
    g.play_unchecked(buf[i]);
    assert_eq!(g.scores(), &[4, 0]);
}

/// The determinization keeps the content of the stack, the River before the land tiles
/// and the lake last of the River, and samples different orders.
#[test]
fn determinize_keeps_what_is_known_of_the_stack() {
    let rules = load_rules_file("config/river.toml").unwrap().0;
    let g = Game::new(rules.clone(), 2, 3).unwrap();
    let classes = g.draw_classes();
    let river = rules.catalog.set("river").unwrap();
    let is_river = |t: u16| river.contains(&t);
    let lake = rules.catalog.id("RV12").unwrap();
    let count = |s: &[u16]| {
        let mut m = BTreeMap::new();
        for &t in s {
            *m.entry(t).or_insert(0) += 1;
        }
        m
    };
    let real = g.st.stack.clone();
    // The next tile is the last element: the river tiles are the stack's top.
    let rivers = real.iter().filter(|&&t| is_river(t)).count();
    assert!(rivers >= 10, "{rivers} river tiles left");
    let mut rng = Rng::new(11);
    let mut orders = std::collections::BTreeSet::new();
    for _ in 0..50 {
        let mut d = g.clone();
        d.determinize(&classes, &mut rng);
        let s = &d.st.stack;
        assert_eq!(count(s), count(&real));
        let top = &s[s.len() - rivers..];
        assert!(top.iter().all(|&t| is_river(t)), "the River first");
        assert_eq!(top[0], lake, "the lake is the last river tile");
        orders.insert(s.clone());
    }
    assert!(orders.len() > 45, "{} different orders of 50", orders.len());
    assert!(!orders.contains(&real) || orders.len() > 1);
}

/// `end_before_placement` ends the game at once at a tile placement: the start tile's
/// city (1 tile) with a knight scores 1 at the end; elsewhere it changes nothing.
#[test]
fn end_before_placement_scores_the_position() {
    let mut g = forced(&["E", "E", "K"]);
    // E turned 180 below D at (0,1): its field meets D's field, its city faces S (1 tile,
    // open); a knight on it scores 1 point at the end.
    common::play(&mut g, common::place("E", 0, 1, 180));
    assert!(!g.clone().end_before_placement(), "not at a tile placement");
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    let knight = buf
        .iter()
        .copied()
        .find(|a| g.describe(a)["feature"] == "city:S" && matches!(a, Action::PlaceFigure { .. }))
        .unwrap();
    g.play_unchecked(knight);
    assert!(g.end_before_placement());
    assert!(g.is_over());
    assert_eq!(g.scores(), &[1, 0]);
}
