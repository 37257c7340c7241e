//! The fuzz targets' properties (`carcassonne-checks`, `docs/fuzzing.md`) as proptests,
//! run by `cargo test`: mutated rule sets, tile files and records give a clean error or
//! load/replay, and games of any legal action choices keep their invariants.

use std::sync::OnceLock;

use carcassonne_checks::{random_actions, record_json, rules_toml, tiles_toml};
use proptest::prelude::*;
use serde_json::Value;

/// One change to a text: (kind, position, value).
type Edit = (u8, usize, i64);

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let value = prop_oneof![-3i64..200, Just(i64::MAX), Just(i64::MIN), Just(i32::MAX as i64 + 1), any::<i64>()];
    prop::collection::vec((0u8..4, any::<usize>(), value), 1..6)
}

/// Applies `edits` to a TOML text: an integer value set to `v`, a line removed, a line
/// duplicated, or a byte of `v` inserted.
fn edit_toml(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for &(kind, at, v) in edits {
        if lines.is_empty() {
            break;
        }
        let i = at % lines.len();
        match kind {
            0 => {
                // The n-th `key = <integer>` line gets `v`.
                let ints: Vec<usize> = (0..lines.len())
                    .filter(|&k| lines[k].split_once(" = ").is_some_and(|(_, x)| x.trim().parse::<i64>().is_ok()))
                    .collect();
                if let Some(&k) = ints.get(at % ints.len().max(1)) {
                    let key = lines[k].split_once(" = ").unwrap().0.to_string();
                    lines[k] = format!("{key} = {v}");
                }
            }
            1 => {
                lines.remove(i);
            }
            2 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            _ => {
                let l = &mut lines[i];
                let pos = (0..=l.len()).filter(|&p| l.is_char_boundary(p)).nth(at % (l.len() + 1)).unwrap_or(0);
                l.insert(pos, char::from((v & 0x7f) as u8));
            }
        }
    }
    lines.join("\n")
}

/// A finished game's record (config/base.toml), as JSON.
fn base_record() -> &'static Value {
    static REC: OnceLock<Value> = OnceLock::new();
    REC.get_or_init(|| {
        let (rules, text) = carcassonne_cli::builtin::load_rules_file("config/base.toml").unwrap();
        let g = carcassonne_cli::driver::play_game(&rules, 2, 7, &["random".into()], true).unwrap();
        let rec = carcassonne_core::record::GameRecord::from_game(&g, "config/base.toml", Some(&text), 7);
        serde_json::to_value(rec).unwrap()
    })
}

/// Every value of `v` (depth first), as JSON pointers.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| pointers(x, format!("{at}/{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| pointers(x, format!("{at}/{i}"), out)),
        _ => {}
    }
    out.push(at);
}

/// Applies `edits` to a record: a value set to a number, to a string, to null, or removed.
fn edit_record(rec: &Value, edits: &[Edit]) -> Value {
    let mut v = rec.clone();
    for &(kind, at, n) in edits {
        let mut all = Vec::new();
        pointers(&v, String::new(), &mut all);
        let p = &all[at % all.len()];
        if p.is_empty() {
            continue;
        }
        let (parent, key) = p.rsplit_once('/').unwrap();
        match kind {
            0 => *v.pointer_mut(p).unwrap() = n.into(),
            1 => *v.pointer_mut(p).unwrap() = format!("x{n}").into(),
            2 => *v.pointer_mut(p).unwrap() = Value::Null,
            _ => match v.pointer_mut(parent).unwrap() {
                Value::Object(m) => {
                    m.remove(key);
                }
                Value::Array(a) => {
                    a.remove(key.parse::<usize>().unwrap());
                }
                _ => {}
            },
        }
    }
    v
}

const RULE_SETS: [&str; 5] =
    ["config/base.toml", "config/tower.toml", "config/barn.toml", "config/castle.toml", "config/2025-everything.toml"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Mutated rule sets (options out of range included) load or give a clean error.
    #[test]
    fn mutated_rule_sets_load_or_give_a_clean_error(set in 0..RULE_SETS.len(), e in edits()) {
        let text = std::fs::read_to_string(RULE_SETS[set]).unwrap();
        // Tile files resolve among the embedded ones (`tiles/...`), as the fuzz target's.
        rules_toml(edit_toml(&text, &e).as_bytes());
    }

    /// Mutated tile files load or give a clean error; a loading one plays as the base set.
    #[test]
    fn mutated_tile_files_load_or_give_a_clean_error(e in edits()) {
        let text = std::fs::read_to_string("config/tiles/base.toml").unwrap();
        tiles_toml(edit_toml(&text, &e).as_bytes());
    }

    /// Mutated records replay to their scores or give a clean error, never a panic.
    #[test]
    fn mutated_records_replay_or_give_a_clean_error(e in edits()) {
        record_json(edit_record(base_record(), &e).to_string().as_bytes());
    }

    /// Any text as a rule set or a tile file.
    #[test]
    fn any_text_is_refused_cleanly(text in "\\PC{0,200}") {
        rules_toml(text.as_bytes());
        tiles_toml(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any legal action at each decision, of any embedded rule set: figures conserved,
    /// edges matching, scores within bounds after every action; the record replays.
    #[test]
    fn any_legal_action_sequence_keeps_the_invariants(data in prop::collection::vec(any::<u8>(), 0..600)) {
        random_actions(&data);
    }
}
