//! Bad input to `simulate`, `merge` and `render`: a clear one-line error, exit code 2,
//! nothing on standard output and no output file left behind.

mod simulate_util;

use simulate_util::{bad_input, ok, scratch};

#[test]
fn simulate_rejects_bad_arguments() {
    let dir = scratch("errors");
    let out = dir.join("summary.json");
    let recs = dir.join("records");
    let o = out.to_str().unwrap();
    let r = recs.to_str().unwrap();
    let garbage = dir.join("garbage.toml");
    std::fs::write(&garbage, "name = \"x\"\n[[plugins]]\nname = 3\n").unwrap();
    let g = garbage.to_str().unwrap();
    let missing = dir.join("no-such-rules.toml");
    let m = missing.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--bots", "random,bogus"], "unknown bot 'bogus'"),
        (vec!["--bots", ""], "--bots"),
        (vec!["--players", "1", "--rules", "embedded:config/base.toml"], "--players 1"),
        (vec!["--players", "9"], "--players 9"),
        (vec!["--players", "2", "--bots", "random,greedy,random"], "3 bots"),
        (vec!["--games", "0"], "--games 0"),
        (vec!["--threads", "0"], "--threads 0"),
        (vec!["--shard", "4/4"], "--shard 4/4"),
        (vec!["--shard", "1/0"], "--shard 1/0"),
        (vec!["--shard", "x"], "expected I/N"),
        (vec!["--shard", "1/2/3"], "expected I/N"),
        (vec!["--shard", "5/8", "--games", "3"], "holds none"),
        (vec!["--rules", m], "no-such-rules.toml"),
        (vec!["--rules", g], "garbage.toml"),
        (vec!["--rules", "embedded:config/nope.toml"], "no such embedded rule set"),
        (vec!["--rules", "embedded:config/base.toml", "--rules", m], "no-such-rules.toml"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["simulate", "-o", o, "--records", r];
        if !extra.contains(&"--games") {
            args.extend(["--games", "4"]);
        }
        args.extend(extra);
        bad_input(&args, needle);
        assert!(!out.exists(), "{args:?} left {o} behind");
        assert!(!recs.exists(), "{args:?} created {r}");
    }
    // An output file in a directory that does not exist.
    let nowhere = dir.join("no/such/dir/s.json");
    bad_input(&["simulate", "--games", "2", "-o", nowhere.to_str().unwrap(), "--records", r], "does not exist");
    assert!(!recs.exists(), "a bad -o created {r}");
    // --records naming a file.
    std::fs::write(dir.join("file"), "x").unwrap();
    bad_input(&["simulate", "--games", "2", "--records", dir.join("file").to_str().unwrap()], "--records");
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn merge_rejects_summaries_of_different_runs() {
    let dir = scratch("merge-errors");
    let sim = |extra: &[&str]| {
        let mut a = vec!["simulate", "--json"];
        if !extra.contains(&"--games") {
            a.extend(["--games", "8"]);
        }
        a.extend_from_slice(extra);
        ok(&a)
    };
    let s0 = write(&dir, "s0.json", &sim(&["--shard", "0/2"]));
    let s1 = write(&dir, "s1.json", &sim(&["--shard", "1/2"]));
    let other_seed = write(&dir, "seed.json", &sim(&["--shard", "1/2", "--seed", "9"]));
    let other_rules = write(&dir, "rules.json", &sim(&["--shard", "1/2", "--rules", "embedded:config/base.toml"]));
    let other_games = write(&dir, "games.json", &sim(&["--shard", "1/2", "--games", "10"]));
    let other_count = write(&dir, "count.json", &sim(&["--shard", "1/4"]));
    let other_bots = write(&dir, "bots.json", &sim(&["--shard", "1/2", "--bots", "greedy"]));
    let whole = write(&dir, "whole.json", &sim(&[]));
    let two = write(
        &dir,
        "two.json",
        &sim(&["--shard", "1/2", "--rules", "embedded:config/base.toml", "--rules", "embedded:config/river.toml"]),
    );
    let not_summary = write(&dir, "other.json", "{\"format\": \"carcassonne-record/1\"}");
    let not_json = write(&dir, "text.json", "games 8\n");
    let missing = dir.join("missing.json").to_str().unwrap().to_string();
    let out = dir.join("merged.json");
    let o = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![&s0, &other_seed], "seed"),
        (vec![&s0, &other_rules], "rule set"),
        (vec![&s0, &other_games], "--games"),
        (vec![&s0, &other_count], "shard count"),
        (vec![&s0, &other_bots], "bots"),
        (vec![&s0, &s0], "shard 0 of 2 is already"),
        (vec![&s0, &s1, &s1], "already"),
        (vec![&whole, &s1], "shard count"),
        (vec![&s0, &two], "summaries"),
        (vec![&s0, &not_summary], "not a `simulate --json` summary"),
        (vec![&s0, &not_json], "not JSON"),
        (vec![&s0, &missing], "missing.json"),
    ];
    for (files, needle) in cases {
        let mut args = vec!["merge", "--json", "-o", o];
        args.extend(files);
        bad_input(&args, needle);
        assert!(!out.exists(), "{args:?} left {o} behind");
    }
    // The good pair merges.
    ok(&["merge", "--json", "-o", o, &s0, &s1]);
    assert!(out.exists());
}

#[test]
fn render_rejects_bad_records() {
    let dir = scratch("render-errors");
    let rec = dir.join("g.json");
    ok(&["play", "--seed", "4", "--record", rec.to_str().unwrap()]);
    let r = rec.to_str().unwrap();
    let svg = dir.join("b.svg");
    let s = svg.to_str().unwrap();
    bad_input(&["render", r, "-o", s, "--turn", "500"], "--turn 500");
    bad_input(&["render", dir.join("none.json").to_str().unwrap(), "-o", s], "none.json");
    let broken = write(&dir, "broken.json", "{\"format\": 1");
    bad_input(&["render", &broken, "-o", s], "broken.json");
    // A record whose actions were tampered with fails replay, naming the turn.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    v["turns"][2]["actions"][0]["cell"] = serde_json::json!([40, 40]);
    let edited = write(&dir, "edited.json", &v.to_string());
    bad_input(&["render", &edited, "-o", s], "turn 3");
    assert!(!svg.exists(), "a failed render left {s} behind");
}

#[test]
fn too_many_threads_are_refused() {
    bad_input(&["simulate", "--games", "2", "--threads", "100000"], "--threads 100000: at most 1024");
}

#[test]
fn existing_records_are_never_overwritten() {
    let dir = scratch("records-exist");
    let recs = dir.join("records");
    std::fs::create_dir_all(&recs).unwrap();
    let precious = recs.join("base-000003.json");
    std::fs::write(&precious, "PRECIOUS").unwrap();
    let r = recs.to_str().unwrap();
    bad_input(
        &["simulate", "--rules", "embedded:config/base.toml", "--games", "5", "--records", r],
        "base-000003.json",
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "PRECIOUS");
    assert_eq!(std::fs::read_dir(&recs).unwrap().count(), 1, "nothing else written");
    // Games 0 and 1 clash with nothing: written.
    ok(&["simulate", "--rules", "embedded:config/base.toml", "--games", "2", "--seed", "1", "--records", r]);
    assert_eq!(std::fs::read_dir(&recs).unwrap().count(), 3);
}

#[cfg(unix)]
#[test]
fn output_through_a_symbolic_link_replaces_the_target() {
    let dir = scratch("symlink");
    let target = dir.join("real.txt");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    ok(&["simulate", "--rules", "embedded:config/base.toml", "--games", "2", "-o", link.to_str().unwrap()]);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink(), "the link is kept");
    assert!(std::fs::read_to_string(&target).unwrap().contains("games"), "the target holds the summary");
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    let full = std::fs::File::create("/dev/full").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["play", "--rules", "embedded:config/base.toml"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: standard output:") && !err.contains("panicked"), "{err}");
}

#[test]
fn a_missing_argument_is_named() {
    bad_input(&["replay"], "<RECORD>");
}
