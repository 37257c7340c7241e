//! Issue 15, class 5: a record without `final_scores` or with a changed `rules.name` is
//! refused by replay, and merge refuses a summary with an unknown key as records do.

mod simulate_util;

use serde_json::Value;
use simulate_util::{bad_input, ok, scratch};

fn record(dir: &std::path::Path) -> (std::path::PathBuf, Value) {
    let rec = dir.join("g.json");
    ok(&["play", "--rules", "config/base.toml", "--record", rec.to_str().unwrap()]);
    let v = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    (rec, v)
}

#[test]
fn a_record_without_final_scores_is_refused() {
    let dir = scratch("no-final-scores");
    let (rec, mut v) = record(&dir);
    let r = rec.to_str().unwrap();
    ok(&["replay", r]);
    v.as_object_mut().unwrap().remove("final_scores");
    std::fs::write(&rec, v.to_string()).unwrap();
    let e = bad_input(&["replay", r], "final_scores");
    assert_eq!(
        e.trim_end(),
        format!(
            "error: {r}: the record has no \"final_scores\" (every record the engine writes has them, with \
             \"final_scoring\")"
        )
    );
}

#[test]
fn a_record_with_another_rule_set_name_is_refused() {
    let dir = scratch("renamed");
    let (rec, mut v) = record(&dir);
    let r = rec.to_str().unwrap();
    v["rules"]["name"] = "house".into();
    std::fs::write(&rec, v.to_string()).unwrap();
    let e = bad_input(&["replay", r], "rules.name");
    assert!(
        e.contains(&format!("{r}: rules.name: the record says 'house', but 'config/base.toml' is named 'base'")),
        "{e}"
    );
}

#[test]
fn merge_refuses_a_summary_with_an_unknown_key() {
    let dir = scratch("merge-unknown");
    let s = dir.join("s.json");
    ok(&["simulate", "--rules", "config/base.toml", "--games", "4", "--json", "-o", s.to_str().unwrap()]);
    ok(&["merge", s.to_str().unwrap()]);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&s).unwrap()).unwrap();
    for (path, key) in [("/summaries/0", "extra"), ("/summaries/0/rules", "owner"), ("/summaries/0/totals", "bonus")] {
        let mut changed = v.clone();
        changed.pointer_mut(path).unwrap().as_object_mut().unwrap().insert(key.into(), 1.into());
        std::fs::write(&s, changed.to_string()).unwrap();
        bad_input(&["merge", s.to_str().unwrap()], &format!("summary 0: unknown field `{key}`"));
    }
    // A key beside `format` and `summaries` too.
    let mut changed = v.clone();
    changed.as_object_mut().unwrap().insert("extra".into(), 1.into());
    std::fs::write(&s, changed.to_string()).unwrap();
    bad_input(&["merge", s.to_str().unwrap()], "s.json: unknown field `extra`, expected `format` or `summaries`");
    v["summaries"][0].as_object_mut().unwrap().remove("seed");
    std::fs::write(&s, v.to_string()).unwrap();
    bad_input(&["merge", s.to_str().unwrap()], "missing field `seed`");
}
