//! `simulate`: the summary numbers of a small fixed set of games, computed here
//! independently by playing the same seeds; the same results for any thread count;
//! several rule sets side by side; records; the README's first command.

mod simulate_util;

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_cli::driver::play_game;
use carcassonne_core::record::GameRecord;
use carcassonne_core::Rng;
use serde_json::Value;
use simulate_util::{json, ok, scratch, summaries, summary, untimed};

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}")).iter().map(|x| x.as_f64().unwrap()).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(close(*g, *w), "{what}: got {got:?}, computed {want:?}");
    }
}

#[test]
fn summary_numbers_match_the_games_played_by_hand() {
    let (rules_file, seed, games, players) = ("embedded:config/base.toml", 7u64, 12u64, 3usize);
    let bots = ["random", "greedy"];
    let printed = json(&[
        "simulate",
        "--rules",
        rules_file,
        "--players",
        "3",
        "--games",
        "12",
        "--seed",
        "7",
        "--bots",
        "random,greedy",
        "--threads",
        "3",
        "--json",
    ]);
    let s = summary(&printed);

    // The same games, played here one by one.
    let (rules, _) = load_rules_file(rules_file).unwrap();
    let bot_names: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); players];
    let mut wins = vec![0.0f64; players];
    let mut ties = 0;
    let mut turns = 0u64;
    let mut discarded = 0u64;
    let mut by_source = vec![vec![0i64; players]; rules.sources.len()];
    for i in 0..games {
        let g = play_game(&rules, players, Rng::derive(seed, i), &bot_names, false).unwrap();
        let sc = g.st.scores();
        let best = *sc.iter().max().unwrap();
        let winners = sc.iter().filter(|&&x| x == best).count();
        if winners > 1 {
            ties += 1;
        }
        for seat in 0..players {
            scores[seat].push(sc[seat] as f64);
            if sc[seat] == best {
                wins[seat] += 1.0 / winners as f64;
            }
            for (src, row) in by_source.iter_mut().enumerate() {
                row[seat] += g.st.points_by_source[seat][src] as i64;
            }
        }
        // Sources add up to the score.
        for (seat, &total) in sc.iter().enumerate() {
            let sum: i32 = (0..rules.sources.len()).map(|src| g.st.points_by_source[seat][src]).sum();
            assert_eq!(sum, total, "game {i} seat {seat}: points by source do not add up to the score");
        }
        turns += (g.st.turn - 1) as u64;
        discarded += g.st.discarded as u64;
    }
    let n = games as f64;
    let mean: Vec<f64> = scores.iter().map(|v| v.iter().sum::<f64>() / n).collect();
    let sd: Vec<f64> =
        scores.iter().zip(&mean).map(|(v, m)| (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n).sqrt()).collect();
    let median: Vec<f64> = scores
        .iter()
        .map(|v| {
            let mut v = v.clone();
            v.sort_by(f64::total_cmp);
            (v[5] + v[6]) / 2.0
        })
        .collect();
    let win_rate: Vec<f64> = wins.iter().map(|w| w / n).collect();

    assert_eq!(s["format"], "carcassonne-summary/1");
    assert_eq!(s["games"], 12);
    assert_eq!(s["games_total"], 12);
    assert_eq!(s["shard"], Value::Null);
    assert_eq!(s["seed"], 7);
    assert_eq!(s["players"], 3);
    assert_eq!(s["bots"], serde_json::json!(["random", "greedy", "random"]));
    assert_eq!(s["rules"]["name"], "base");
    assert_eq!(s["plugins"][0]["name"], "base");
    assert_eq!(s["plugins"][0]["options"]["farmers"], true);
    assert_close("mean_score", &f64s(&s["mean_score"]), &mean);
    assert_close("median_score", &f64s(&s["median_score"]), &median);
    assert_close("sd_score", &f64s(&s["sd_score"]), &sd);
    assert_close("win_rate", &f64s(&s["win_rate"]), &win_rate);
    assert_close("win_rate sum", &[f64s(&s["win_rate"]).iter().sum()], &[1.0]);
    assert_eq!(s["tied_games"], ties);
    assert_close("mean_turns", &[s["mean_turns"].as_f64().unwrap()], &[turns as f64 / n]);
    assert_eq!(s["discarded"], discarded);
    let min: Vec<f64> = scores.iter().map(|v| v.iter().copied().fold(f64::MAX, f64::min)).collect();
    assert_close("min_score", &f64s(&s["min_score"]), &min);
    let pbs = s["points_by_source"].as_array().unwrap();
    assert_eq!(pbs.len(), rules.sources.len());
    for (src, entry) in pbs.iter().enumerate() {
        assert_eq!(entry["source"], rules.sources[src].as_str());
        let total: Vec<i64> = entry["total"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
        assert_eq!(total, by_source[src], "points of {}", rules.sources[src]);
        let means: Vec<f64> = by_source[src].iter().map(|&t| t as f64 / n).collect();
        assert_close("points mean", &f64s(&entry["mean"]), &means);
    }
    for name in ["road", "city", "monastery", "field"] {
        assert!(pbs.iter().any(|p| p["source"] == name), "no {name} source");
    }
    assert!(s["stats"].is_array());
    assert!(s["games_per_second"].as_f64().unwrap() > 0.0);
    assert!(s["wall_seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(s["threads"], 3);
}

#[test]
fn same_results_for_any_thread_count() {
    let args = |t: &'static str| ["simulate", "--json", "--games", "2000", "--seed", "5", "--threads", t];
    let one = json(&args("1"));
    let two = json(&args("2"));
    let four = json(&args("4"));
    assert_eq!(summary(&one)["games"], 2000);
    assert_eq!(untimed(&one), untimed(&two));
    assert_eq!(untimed(&one), untimed(&four));
    // Greedy bots too (fewer games: they think harder).
    let g = |t: &'static str| {
        let r = "embedded:config/princess-dragon.toml";
        json(&[
            "simulate",
            "--json",
            "--games",
            "24",
            "--seed",
            "5",
            "--bots",
            "greedy,random",
            "--threads",
            t,
            "--rules",
            r,
        ])
    };
    assert_eq!(untimed(&g("1")), untimed(&g("3")));
}

#[test]
fn several_rule_sets_run_on_the_same_seeds_side_by_side() {
    let base = "embedded:config/base.toml";
    let river = "embedded:config/river.toml";
    let both = json(&["simulate", "--json", "--games", "30", "--seed", "3", "--rules", base, "--rules", river]);
    let arr = summaries(&both);
    assert_eq!(arr.len(), 2);
    assert_eq!(arr[0]["rules"]["name"], "base");
    assert_eq!(arr[1]["rules"]["name"], "river");
    assert_eq!(arr[1]["plugins"].as_array().unwrap().len(), 2);
    // Each equals its own run alone.
    let alone = json(&["simulate", "--json", "--games", "30", "--seed", "3", "--rules", river]);
    assert_eq!(untimed(&arr[1]), untimed(summary(&alone)));
    // One shape for one rule set or several: the same object with one summary.
    assert_eq!(untimed(&alone), untimed(&serde_json::json!([arr[1].clone()])));
    // The text shows one column per rule set.
    let text = ok(&["simulate", "--games", "10", "--rules", base, "--rules", river]);
    let header = text.lines().find(|l| l.contains("[1] base") && l.contains("[2] river"));
    assert!(header.is_some(), "no side-by-side header:\n{text}");
    let games_row = text.lines().find(|l| l.starts_with("games ")).unwrap();
    assert_eq!(games_row.split_whitespace().collect::<Vec<_>>(), ["games", "10", "10"]);
}

#[test]
fn readme_first_command_prints_the_summary() {
    let default = carcassonne_cli::builtin::load_rules_file(carcassonne_cli::builtin::DEFAULT_RULES).unwrap().0;
    let default_rules_line = format!("rules: {} ({})", default.name, carcassonne_cli::builtin::DEFAULT_RULES);
    let first = &default.plugins[0];
    let default_plugins_line = format!("plugins: {} (priority {})", first.name, first.priority);
    // `cargo run --release -- simulate`: the embedded default rules, 2 random bots, 1,000 games.
    let text = ok(&["simulate"]);
    for want in [
        "1000 games, seed 1",
        default_rules_line.as_str(),
        default_plugins_line.as_str(),
        "seats: seat 0 random, seat 1 random",
        "seat 0 mean score",
        "seat 1 median score",
        "seat 0 score std dev",
        "seat 1 win rate",
        "mean game length (turns)",
        "tiles discarded",
        "road points/game by seat",
        "city points/game by seat",
        "monastery points/game by seat",
        "field points/game by seat",
        "wall time",
        "games per second",
    ] {
        assert!(text.contains(want), "summary lacks {want:?}:\n{text}");
    }
    let games_row = text.lines().find(|l| l.starts_with("games ")).unwrap();
    assert_eq!(games_row.split_whitespace().last(), Some("1000"));
}

#[test]
fn records_are_written_for_every_game_and_replay() {
    let dir = scratch("records");
    let recs = dir.join("recs");
    let s = json(&[
        "simulate",
        "--json",
        "--games",
        "5",
        "--seed",
        "11",
        "--bots",
        "greedy,random",
        "--rules",
        "embedded:config/princess-dragon.toml",
        "--records",
        recs.to_str().unwrap(),
    ]);
    let s = summary(&s);
    let mut files: Vec<_> = std::fs::read_dir(&recs).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    let want: Vec<String> = (0..5).map(|i| format!("princess-dragon-{i:06}.json")).collect();
    assert_eq!(names, want);
    let mut sum0 = 0i64;
    for (i, f) in files.iter().enumerate() {
        let rec: GameRecord = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert_eq!(rec.seed, Rng::derive(11, i as u64));
        assert_eq!(rec.bots, Some(vec!["greedy".to_string(), "random".to_string()]));
        assert!(rec.rules.text.is_some(), "records carry the rule-set text");
        sum0 += rec.final_scores[0] as i64;
        let replayed = json(&["replay", f.to_str().unwrap(), "--json"]);
        assert_eq!(replayed["final_scores"], serde_json::json!(rec.final_scores));
    }
    assert!(close(s["mean_score"][0].as_f64().unwrap(), sum0 as f64 / 5.0));
}
