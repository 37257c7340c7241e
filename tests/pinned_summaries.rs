//! Speed work must not change a game (issue 23): the `simulate` summaries of fixed seeds
//! on six rule sets, timing fields aside, are pinned in `tests/fixtures/summaries/`. A
//! change that plays any of these games differently (another legal action, another order
//! of actions, another random draw) fails here. A change of the rules themselves updates
//! the pins on purpose: `CARC_WRITE_PINS=1 cargo test --release --test pinned_summaries`
//! rewrites them, and the diff shows what changed.

mod simulate_util;

use carcassonne::{simulate, RuleSet, SimulateOptions};
use serde_json::Value;
use simulate_util::untimed;

/// (embedded rule set, games): about 10 seconds of games in a debug build in all.
const PINNED: [(&str, u64); 6] = [
    ("base", 60),
    ("princess-dragon", 30),
    ("fairy-dragon-river", 30),
    ("tower", 30),
    ("2025-everything", 12),
    ("classic-everything", 12),
];

fn pin_file(rules: &str) -> String {
    format!("{}/tests/fixtures/summaries/{rules}.json", env!("CARGO_MANIFEST_DIR"))
}

/// The summary of `games` games of `rules` (seed 23, random bots, 2 threads: the numbers
/// do not depend on the threads), timing fields removed.
fn summary_of(rules: &str, games: u64) -> Value {
    let set = RuleSet::embedded(rules).unwrap_or_else(|e| panic!("{rules}: {e}"));
    let o = SimulateOptions { games, seed: 23, threads: 2, ..SimulateOptions::default() };
    let s = simulate(&set, &o).unwrap_or_else(|e| panic!("{rules}: {e}"));
    untimed(&serde_json::to_value(&s).unwrap())
}

#[test]
fn fixed_seeds_play_the_pinned_games() {
    let write = std::env::var_os("CARC_WRITE_PINS").is_some();
    for (rules, games) in PINNED {
        let got = summary_of(rules, games);
        let file = pin_file(rules);
        if write {
            std::fs::write(&file, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
            continue;
        }
        // The text, not parsed numbers: a float read back may differ in its last bit.
        let got = serde_json::to_string_pretty(&got).unwrap() + "\n";
        let want = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(got == want, "{rules}: the summary of {games} games of seed 23 differs from {file}:\n{got}");
    }
}
