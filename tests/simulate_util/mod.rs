//! Helpers shared by the tests/simulate_*.rs files: run the built binary, scratch
//! directories, and JSON summaries without their timing fields.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `carcassonne` binary with `args` (no terminal: no progress bar).
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(args).output().expect("run carcassonne")
}

/// Standard output of a successful run.
pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "carcassonne {args:?} failed ({:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The JSON printed by a successful run.
pub fn json(args: &[&str]) -> Value {
    let text = ok(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("carcassonne {args:?}: not JSON ({e}): {text}"))
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("simulate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Fields that depend on the machine and the run, not on the games.
pub const TIMING: [&str; 3] = ["wall_seconds", "games_per_second", "threads"];

/// The summaries `simulate --json` and `merge --json` print (docs/simulate.md: one
/// object, `{"format": "carcassonne-simulate/1", "summaries": [...]}`, for one rule set or
/// several).
pub fn summaries(v: &Value) -> &[Value] {
    assert_eq!(v["format"], "carcassonne-simulate/1", "not simulate's JSON: {v}");
    assert_eq!(v.as_object().map(|m| m.len()), Some(2), "keys other than format and summaries: {v}");
    v["summaries"].as_array().unwrap_or_else(|| panic!("no summaries: {v}"))
}

/// The summary of a run of one rule set, from what `simulate --json` prints.
pub fn summary(v: &Value) -> &Value {
    let all = summaries(v);
    assert_eq!(all.len(), 1, "one rule set, one summary: {v}");
    &all[0]
}

/// A summary (or simulate's JSON, or an array of summaries) without its timing fields.
pub fn untimed(v: &Value) -> Value {
    if v.get("summaries").is_some() {
        return Value::Array(summaries(v).iter().map(untimed).collect());
    }
    match v {
        Value::Array(items) => Value::Array(items.iter().map(untimed).collect()),
        Value::Object(m) => {
            let mut m = m.clone();
            for k in TIMING {
                assert!(m.remove(k).is_some(), "summary without {k}");
            }
            Value::Object(m)
        }
        other => other.clone(),
    }
}

/// Asserts that a run failed as bad input: exit code 2, one line on stderr, nothing on stdout.
pub fn bad_input(args: &[&str], needle: &str) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "carcassonne {args:?} should fail with exit code 2; stderr: {err}");
    assert!(out.stdout.is_empty(), "carcassonne {args:?} printed: {}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(err.lines().count(), 1, "carcassonne {args:?}: error not on one line: {err}");
    assert!(err.starts_with("error: "), "carcassonne {args:?}: {err}");
    assert!(err.contains(needle), "carcassonne {args:?}: error should mention {needle:?}: {err}");
    err
}
