//! `carcassonne compare` (issue 20): the 95% intervals on synthetic samples of known mean
//! and variance, a rule set against itself, the report's measures, and bad input.

mod simulate_util;

use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_cli::compare::{measures, paired_difference, report, Condition};
use carcassonne_cli::stats::MeanCi;
use carcassonne_core::{Rng, Rules};
use simulate_util::{bad_input, json, ok};

/// Values 1 and 3 alternating, 100 of them: mean 2, sample variance 100/99, interval
/// 2 -+ t(0.975, 99) * sqrt(100/99) / 10 = 2 -+ 1.98422 * 0.100504 = 2 -+ 0.19942.
#[test]
fn interval_of_a_sample_with_known_mean_and_variance() {
    let xs: Vec<f64> = (0..100).map(|i| if i % 2 == 0 { 1.0 } else { 3.0 }).collect();
    let ci = MeanCi::of(&xs);
    assert_eq!(ci.mean, 2.0);
    assert!((ci.sd - (100.0f64 / 99.0).sqrt()).abs() < 1e-12);
    assert!((ci.high - ci.low - 2.0 * 0.19942).abs() < 2e-4, "{ci:?}");
    assert!(ci.excludes_zero());
    // The same numbers as a paired difference: other = base + xs.
    let base: Vec<f64> = (0..100).map(|i| (i * 7 % 13) as f64).collect();
    let other: Vec<f64> = base.iter().zip(&xs).map(|(b, x)| b + x).collect();
    let d = paired_difference(&base, &other);
    assert!((d.mean - 2.0).abs() < 1e-12 && (d.low - ci.low).abs() < 1e-9 && (d.high - ci.high).abs() < 1e-9);
    // One value: no spread, the interval is the value.
    assert_eq!(MeanCi::of(&[5.0]).low, 5.0);
}

/// Samples of 20 uniform values in 0..1 (mean 1/2, variance 1/12): the 95% interval holds
/// the mean in about 95% of 2,000 samples (binomial sd 0.5%: between 93.5% and 96.5%).
#[test]
fn intervals_cover_the_true_mean_95_percent_of_the_time() {
    let mut rng = Rng::new(2020);
    let (mut covered, mut var_sum) = (0, 0.0);
    let samples = 2000;
    for _ in 0..samples {
        let xs: Vec<f64> = (0..20).map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64).collect();
        let ci = MeanCi::of(&xs);
        var_sum += ci.sd * ci.sd;
        if ci.low <= 0.5 && 0.5 <= ci.high {
            covered += 1;
        }
    }
    // The sample variance is unbiased: its mean is near 1/12.
    assert!((var_sum / samples as f64 - 1.0 / 12.0).abs() < 0.002, "{}", var_sum / samples as f64);
    let share = covered as f64 / samples as f64;
    assert!((0.935..=0.965).contains(&share), "coverage {share}");
}

fn condition(rules: &Arc<Rules>, lineup: &[&str], games: u64, seed: u64) -> Condition {
    let lineup: Vec<String> = lineup.iter().map(|s| s.to_string()).collect();
    let rows = carcassonne_cli::compare::play_rows(rules, &lineup, games, seed, true).unwrap();
    Condition {
        label: format!("seed {seed}"),
        rules: rules.name.clone(),
        file: "config/base.toml".into(),
        lineup,
        sources: rules.sources.clone(),
        stat_names: rules.stats.clone(),
        rows,
    }
}

/// The base game against itself, played on independent seeds (40 fixed pairs of runs of
/// 30 games): the difference of the mean score is significant in at most 5% of them, and
/// over every measure with a spread in at most 5% of (run, measure) pairs.
#[test]
fn a_rule_set_against_itself_shows_no_difference_in_95_percent_of_runs() {
    let rules = load_rules_file("config/base.toml").unwrap().0;
    let (mut mean_sig, mut sig, mut tested) = (0, 0, 0);
    for k in 0..40u64 {
        let a = condition(&rules, &["random", "random"], 30, 7000 + k);
        let b = condition(&rules, &["random", "random"], 30, 9000 + k);
        for m in measures(&[a, b]) {
            let r = report(&m);
            let d = r.differences[0].as_ref().unwrap();
            if d.ci.sd == 0.0 {
                continue; // e.g. the game length of the base game: always 71 turns
            }
            tested += 1;
            if d.significant {
                sig += 1;
                if m.name == "mean score (all seats)" {
                    mean_sig += 1;
                }
            }
        }
    }
    assert!(mean_sig <= 2, "mean score significant in {mean_sig} of 40 runs");
    assert!(tested >= 40 * 8, "{tested} tests");
    assert!(sig as f64 <= 0.05 * tested as f64, "{sig} significant of {tested}");
}

/// On the same seeds a rule set compared with itself plays the same games: every
/// difference is exactly 0 and none is significant.
#[test]
fn the_same_rule_set_on_the_same_seeds_differs_by_nothing() {
    let v = json(&[
        "compare",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/base.toml",
        "--games",
        "12",
        "--skill-games",
        "0",
        "--json",
    ]);
    let ms = v["measures"].as_array().unwrap();
    assert!(ms.len() >= 10);
    for m in ms {
        let d = &m["differences"][0];
        assert_eq!(d["mean"], 0.0, "{m}");
        assert_eq!(d["significant"], false, "{m}");
    }
}

/// Base against River on the same 10 seeds: the River adds 12 tiles, so every game is 12
/// turns longer (71 and 83 turns: no spread, a significant difference); the report names
/// both conditions, rotates the seats and gives the luck-vs-skill figure per rule set.
#[test]
fn base_against_river_reports_every_measure() {
    let v = json(&[
        "compare",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/river.toml",
        "--games",
        "10",
        "--skill-games",
        "4",
        "--strong",
        "mcts:3",
        "--weak",
        "random",
        "--json",
    ]);
    assert_eq!(v["format"], "carcassonne-compare/1");
    assert_eq!(v["rotate_seats"], true);
    assert_eq!(v["conditions"].as_array().unwrap().len(), 2);
    let m = |name: &str| v["measures"].as_array().unwrap().iter().find(|m| m["name"] == name).cloned().unwrap();
    let len = m("game length (turns)");
    assert_eq!(len["values"][0]["mean"], 71.0);
    assert_eq!(len["values"][1]["mean"], 83.0);
    assert_eq!(len["differences"][0]["mean"], 12.0);
    assert_eq!(len["differences"][0]["significant"], true);
    // With the seats rotated each bot plays each seat: the win rates of the two bots add
    // up to one (ties shared).
    let (g, r) = (m("win rate greedy"), m("win rate random"));
    for k in 0..2 {
        let sum = g["values"][k]["mean"].as_f64().unwrap() + r["values"][k]["mean"].as_f64().unwrap();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
    }
    for name in [
        "mean score seat 0",
        "mean score seat 1",
        "first-seat advantage (seat 0 minus the others' mean)",
        "points field (all seats)",
    ] {
        let x = m(name);
        let (lo, mean, hi) = (&x["values"][0]["low"], &x["values"][0]["mean"], &x["values"][0]["high"]);
        assert!(lo.as_f64() <= mean.as_f64() && mean.as_f64() <= hi.as_f64(), "{name}: {x}");
    }
    let skill = v["luck_vs_skill"].as_array().unwrap();
    assert_eq!(skill.len(), 2);
    assert_eq!(skill[0]["rules"], "base");
    assert_eq!(skill[1]["win_rate"]["n"], 4);
    // The text form: one row per measure, the marker on the game length.
    let text = ok(&[
        "compare",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/river.toml",
        "--games",
        "10",
        "--skill-games",
        "0",
    ]);
    let row = text.lines().find(|l| l.starts_with("game length (turns)")).unwrap();
    assert!(row.ends_with("12.000 [12.000, 12.000] *"), "{row}");
}

/// One rule set with two line-ups compares the line-ups.
#[test]
fn one_rule_set_and_two_lineups() {
    let v = json(&[
        "compare",
        "--rules",
        "embedded:config/base.toml",
        "--lineup",
        "greedy,random",
        "--lineup",
        "random,random",
        "--games",
        "8",
        "--skill-games",
        "0",
        "--json",
    ]);
    let c = v["conditions"].as_array().unwrap();
    assert_eq!(c[0]["lineup"], serde_json::json!(["greedy", "random"]));
    assert_eq!(c[1]["lineup"], serde_json::json!(["random", "random"]));
    let greedy = v["measures"].as_array().unwrap().iter().find(|m| m["name"] == "win rate greedy").unwrap();
    assert!(greedy["values"][1].is_null(), "the second line-up has no greedy bot");
    assert!(greedy["differences"][0].is_null());
}

#[test]
fn bad_bots_and_lineups_are_one_line_errors() {
    for (bots, needle) in [("mcts:0", "mcts:0"), ("mcts:abc", "mcts:abc"), ("bogus", "unknown bot 'bogus'")] {
        let err = bad_input(&["simulate", "--games", "2", "--bots", bots], needle);
        assert!(err.contains("--bots"), "{err}");
        let l = format!("{bots},random");
        let err = bad_input(
            &["compare", "--rules", "embedded:config/base.toml", "--lineup", &l, "--lineup", "random,random"],
            needle,
        );
        assert!(err.contains("--lineup"), "{err}");
        bad_input(&["play", "--bots", bots], needle);
    }
    bad_input(&["compare", "--rules", "embedded:config/base.toml"], "two or more --rules");
    bad_input(&["compare", "--rules", "embedded:config/base.toml", "--lineup", "greedy,random"], "--lineup");
    bad_input(
        &[
            "compare",
            "--rules",
            "embedded:config/base.toml",
            "--lineup",
            "greedy,random,random",
            "--lineup",
            "random,random",
        ],
        "--lineup greedy,random,random: names 3 bots, but the games have 2 players",
    );
    bad_input(
        &[
            "compare",
            "--rules",
            "embedded:config/base.toml",
            "--rules",
            "embedded:config/river.toml",
            "--strong",
            "mcts:0",
        ],
        "--strong",
    );
    bad_input(
        &["compare", "--rules", "embedded:config/base.toml", "--rules", "embedded:config/river.toml", "--games", "1"],
        "--games 1",
    );
}
