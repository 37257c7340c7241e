//! The four fuzz targets: rule-set TOML, tile TOML, records through replay, and games
//! driven by input bytes choosing any legal action at each decision.

use std::sync::{Arc, OnceLock};

use carcassonne_cli::builtin::{factories, load_rules_text, rules_for_record, EMBEDDED, EMBEDDED_FILES};
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::{check_format, replay_full};
use carcassonne_core::{Catalog, Game, GameOptions, Rules};

use crate::{check_error, check_state, Choices};

/// The name a fuzzed rule set is loaded under (its tile files resolve among the embedded
/// ones, `tiles/base.toml` and so on; plugin files are refused).
pub const FUZZ_RULES: &str = "embedded:config/fuzz.toml";

/// Actions of a game started from a fuzzed rule set or tile file before it is left
/// unfinished (a legal rule set may hold 8,000 tiles).
const SHORT_GAME: usize = 600;

/// Most actions of any game: every turn places a tile, so a game that goes on longer is stuck.
const MAX_ACTIONS: usize = 60_000;

/// A small hash of the input, seeding the choices once the input is used up.
fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Every embedded rule set: (file, rules, text), loaded once.
pub fn embedded_rule_sets() -> &'static [(String, Arc<Rules>, String)] {
    static SETS: OnceLock<Vec<(String, Arc<Rules>, String)>> = OnceLock::new();
    SETS.get_or_init(|| {
        (EMBEDDED_FILES.iter().filter(|(p, _)| !p.starts_with("config/tiles/")))
            .map(|(p, text)| {
                let file = format!("{EMBEDDED}{p}");
                let rules = load_rules_text(&file, text).unwrap_or_else(|e| panic!("{e}"));
                (file, rules, text.to_string())
            })
            .collect()
    })
}

/// Plays a game whose every decision takes the legal action `choices` picks (any index),
/// checking the state after the start and after every action; stops after `max_actions`.
/// Panics when a decision has no legal action or the game does not end.
pub fn play_driven(
    rules: &Arc<Rules>,
    players: usize,
    seed: u64,
    choices: &mut Choices<'_>,
    record: bool,
    max_actions: usize,
) -> Game {
    let opts = GameOptions { players, seed, tile_order: None, record };
    let mut g = Game::start(rules.clone(), opts).unwrap_or_else(|e| panic!("a loaded rule set does not start: {e}"));
    check_state(&g);
    let mut legal = Vec::new();
    for _ in 0..max_actions.min(MAX_ACTIONS) {
        let Some(d) = g.decision() else { return g };
        g.legal_actions(&mut legal);
        assert!(!legal.is_empty(), "turn {}: no legal action for {d:?}", g.st.turn);
        g.play_unchecked(legal[choices.below(legal.len())]);
        check_state(&g);
    }
    assert!(max_actions < MAX_ACTIONS || g.is_over(), "the game does not end after {MAX_ACTIONS} actions");
    g
}

/// A rule set's TOML text: loads with a clean error, or plays a (short) game.
pub fn rules_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match load_rules_text(FUZZ_RULES, text) {
        Err(e) => check_error(&e.to_string(), &["embedded:config/"]),
        Ok(rules) => {
            let mut choices = Choices::new(&[], hash(data));
            play_driven(&rules, rules.default_players, hash(data), &mut choices, false, SHORT_GAME);
        }
    }
}

/// A tile file's TOML text: loads with a clean error, or, as the tile set of the base
/// game (its first tile the start tile), loads as a rule set or is refused cleanly, and
/// plays a (short) game.
pub fn tiles_toml(data: &[u8]) {
    const TILES: &str = "fuzz-tiles.toml";
    const RULES: &str = "fuzz-rules.toml";
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut catalog = Catalog::new();
    let set = match catalog.load_str(TILES, text) {
        Err(e) => return check_error(&e.to_string(), &[TILES]),
        Ok(set) => set,
    };
    let Some(&first) = catalog.set(&set).and_then(|ids| ids.first()) else { return };
    let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
    let rules_text = format!(
        "name = \"fuzz\"\n[tiles]\n{} = \"{TILES}\"\n[[plugins]]\nname = \"base\"\n[plugins.options]\n\
         tile_set = {}\nstart_tile = {}\n",
        quoted(&set),
        quoted(&set),
        quoted(&catalog.tile(first).id)
    );
    let resolve = |rel: &str| match rel {
        TILES => Ok((TILES.to_string(), text.to_string())),
        other => Err(format!("'{other}': no such file")),
    };
    match carcassonne_core::load_rules(RULES, &rules_text, &resolve, &factories()) {
        Err(e) => check_error(&e.to_string(), &[RULES, TILES]),
        Ok(rules) => {
            let mut choices = Choices::new(&[], hash(data));
            play_driven(&rules, rules.default_players, hash(data), &mut choices, false, SHORT_GAME);
        }
    }
}

/// A record's JSON: refused with a clean error, or replayed to its end with its final
/// scores (never a panic).
pub fn record_json(data: &[u8]) {
    let Ok(rec) = serde_json::from_slice::<GameRecord>(data) else { return };
    if check_format(&rec).is_err() {
        return;
    }
    let rules = match rules_for_record(&rec.rules, "fuzz-record.json") {
        Err(e) => {
            let e = e.to_string();
            return assert!(!e.chars().any(char::is_control), "an error holds a control character: {e:?}");
        }
        Ok(r) => r,
    };
    if let Ok(g) = replay_full(&rec, rules) {
        assert!(g.is_over());
        check_state(&g);
        if rec.final_scoring.is_some() {
            assert_eq!(g.scores(), rec.final_scores.as_slice(), "a replay accepted other final scores");
        }
    }
}

/// A game of an embedded rule set (chosen by the first byte; then the player count and
/// the seed), every decision answered by the next input bytes (any legal index), checked
/// after every action; a finished game's record replays to the same scores.
pub fn random_actions(data: &[u8]) {
    let sets = embedded_rule_sets();
    let mut c = Choices::new(data, hash(data));
    let (file, rules, text) = &sets[c.byte() as usize % sets.len()];
    let players = rules.min_players + c.byte() as usize % (rules.max_players - rules.min_players + 1);
    let seed = c.u64();
    let g = play_driven(rules, players, seed, &mut c, true, MAX_ACTIONS);
    assert!(g.is_over());
    let rec = GameRecord::from_game(&g, file, Some(text), seed);
    let back: GameRecord =
        serde_json::from_str(&serde_json::to_string(&rec).expect("a record is JSON")).expect("a record reads back");
    let rules = rules_for_record(&back.rules, "record").unwrap_or_else(|e| panic!("{e}"));
    let replayed = replay_full(&back, rules).unwrap_or_else(|e| panic!("{file} seed {seed}: {e}"));
    assert_eq!(replayed.scores(), g.scores(), "{file} seed {seed}: the replay ends with other scores");
}
