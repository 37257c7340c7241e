//! `simulate --shard I/N` and `merge`: 4 shards merged give exactly the summary of one run
//! of all the games (every number but the timing), also with several rule sets.

mod simulate_util;

use serde_json::Value;
use simulate_util::{json, ok, scratch, untimed};

fn shard_files(dir: &std::path::Path, n: u64, common: &[&str]) -> Vec<String> {
    (0..n)
        .map(|i| {
            let path = dir.join(format!("shard-{i}.json"));
            let shard = format!("{i}/{n}");
            let mut args = vec!["simulate", "--json", "--shard", &shard, "-o", path.to_str().unwrap()];
            args.extend_from_slice(common);
            let printed = ok(&args);
            assert!(printed.is_empty(), "-o writes the summary to the file only");
            path.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn four_shards_merge_to_one_run() {
    let dir = scratch("shards");
    let common =
        ["--games", "203", "--seed", "42", "--bots", "random,greedy,random", "--players", "3", "--threads", "2"];
    let files = shard_files(&dir, 4, &common);
    let mut one_args = vec!["simulate", "--json"];
    one_args.extend_from_slice(&common);
    let one = json(&one_args);

    // Each shard plays its share: games i, i+4, ...
    let shard_games: Vec<u64> = files
        .iter()
        .map(|f| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            assert_eq!(v["games_total"], 203);
            v["games"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(shard_games, [51, 51, 51, 50]);

    // Merged in any order: exactly the one run.
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(merged["shard"], Value::Null);
    assert_eq!(untimed(&merged), untimed(&one));
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().rev().map(String::as_str));
    assert_eq!(untimed(&json(&args)), untimed(&one));

    // Merging merges: (0+2) + (1+3).
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    ok(&["merge", "--json", "-o", a.to_str().unwrap(), &files[0], &files[2]]);
    ok(&["merge", "--json", "-o", b.to_str().unwrap(), &files[1], &files[3]]);
    let partial: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    assert_eq!(partial["shard"], serde_json::json!({"count": 4, "indices": [0, 2]}));
    assert_eq!(partial["games"], 102);
    let again = json(&["merge", "--json", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(untimed(&again), untimed(&one));

    // The text of a merge is the text of the run, timing aside.
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    let text = ok(&args);
    let mut one_text_args = vec!["simulate"];
    one_text_args.extend_from_slice(&common);
    let one_text = ok(&one_text_args);
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("wall time") && !l.starts_with("games per second"))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&text), strip(&one_text));
}

#[test]
fn shards_of_several_rule_sets_merge_element_by_element() {
    let dir = scratch("shards-multi");
    let common = [
        "--games",
        "41",
        "--seed",
        "8",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/river.toml",
    ];
    let files = shard_files(&dir, 4, &common);
    let mut one_args = vec!["simulate", "--json"];
    one_args.extend_from_slice(&common);
    let one = json(&one_args);
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(merged.as_array().map(Vec::len), Some(2));
    assert_eq!(untimed(&merged), untimed(&one));
}
