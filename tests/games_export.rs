//! `simulate --games-out` (issue 20): one row per game, the same for any thread count,
//! shards that merge into one run's file, rows that agree with the summary.

mod simulate_util;

use simulate_util::{bad_input, json, ok, scratch};

fn rows(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn one_csv_row_per_game_the_same_for_any_thread_count() {
    let dir = scratch("export-threads");
    let run = |t: &str, name: &str| {
        let p = dir.join(name);
        let s = json(&[
            "simulate",
            "--rules",
            "embedded:config/tower.toml",
            "--games",
            "23",
            "--seed",
            "9",
            "--bots",
            "greedy,random",
            "--threads",
            t,
            "--json",
            "--games-out",
            p.to_str().unwrap(),
        ]);
        (rows(&p), simulate_util::summary(&s).clone())
    };
    let (one, summary) = run("1", "one.csv");
    let (two, _) = run("2", "two.csv");
    assert_eq!(one, two);
    assert_eq!(one.len(), 1 + 23, "a header and 23 rows");
    let header: Vec<&str> = one[0].split(',').collect();
    assert_eq!(&header[..9], &["game", "seed", "rules", "players", "turns", "discarded", "winners", "bot_0", "bot_1"]);
    assert!(header.contains(&"points_ransom_1") && header.contains(&"stat_tower_captures"), "{header:?}");
    // The rows agree with the summary: mean score of seat 0, turns, a plugin statistic.
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let sum =
        |name: &str| one[1..].iter().map(|r| r.split(',').nth(col(name)).unwrap().parse::<f64>().unwrap()).sum::<f64>();
    assert!((sum("score_0") / 23.0 - summary["mean_score"][0].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(sum("turns") as u64, summary["totals"]["turns"].as_u64().unwrap());
    let captures = summary["stats"].as_array().unwrap().iter().find(|s| s["name"] == "tower_captures").unwrap();
    assert_eq!(sum("stat_tower_captures") as i64, captures["total"].as_i64().unwrap());
    // Game i is seeded from the run seed and i, in game order.
    for (i, r) in one[1..].iter().enumerate() {
        assert!(r.starts_with(&format!("{i},")), "{r}");
    }
}

/// Three shards' JSON lines, put together in game order, are the one run's file.
#[test]
fn shards_merge_into_the_whole_run() {
    let dir = scratch("export-shards");
    let common = [
        "simulate",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/river.toml",
        "--games",
        "17",
        "--seed",
        "4",
        "--json",
    ];
    let whole = dir.join("all.jsonl");
    let mut args = common.to_vec();
    args.extend(["--games-out", whole.to_str().unwrap()]);
    ok(&args);
    let mut merged: Vec<serde_json::Value> = Vec::new();
    for i in 0..3 {
        let p = dir.join(format!("s{i}.jsonl"));
        let shard = format!("{i}/3");
        let mut args = common.to_vec();
        args.extend(["--shard", &shard, "--games-out", p.to_str().unwrap()]);
        ok(&args);
        merged.extend(rows(&p).iter().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()));
    }
    let key = |v: &serde_json::Value| (v["rules"].as_str().unwrap().to_string(), v["game"].as_u64().unwrap());
    merged.sort_by_key(key);
    let mut all: Vec<serde_json::Value> = rows(&whole).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(all.len(), 2 * 17);
    all.sort_by_key(key);
    assert_eq!(merged, all);
    assert_eq!(all[0]["points"].as_object().unwrap().len(), 4, "road, city, monastery, field: {}", all[0]);
}

#[test]
fn bad_games_out_is_a_one_line_error() {
    let dir = scratch("export-bad");
    let txt = dir.join("g.txt");
    bad_input(&["simulate", "--games", "2", "--games-out", txt.to_str().unwrap()], "--games-out");
    let csv = dir.join("g.csv");
    bad_input(
        &[
            "simulate",
            "--games",
            "2",
            "--rules",
            "embedded:config/base.toml",
            "--rules",
            "embedded:config/river.toml",
            "--games-out",
            csv.to_str().unwrap(),
        ],
        "one rule set",
    );
    let nowhere = dir.join("no/such/g.csv");
    bad_input(&["simulate", "--games", "2", "--games-out", nowhere.to_str().unwrap()], "does not exist");
}
