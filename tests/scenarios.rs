//! Runs every scenario in tests/scenarios/ once and checks that every BASE, RIVER and FD
//! rule ID of RULES.md is covered by at least one (PD, TOWER, BARN, CASTLE and COMBO
//! coverage is checked in tests/princess_dragon.rs and tests/combo.rs, which also count
//! their Rust tests). `SCENARIO=name` runs only the files whose name contains `name`.

use std::collections::BTreeSet;

/// FD rule IDs (RULES.md, "FD" section).
const FD_IDS: &[&str] = &[
    "FD-SETUP-1",
    "FD-RIVER-1",
    "FD-LAIR-1",
    "FD-LAIR-2",
    "FD-ORIENT-1",
    "FD-DRAGON-1",
    "FD-DRAGON-2",
    "FD-DRAGON-3",
    "FD-DRAGON-4",
    "FD-FAIRY-1",
    "FD-FAIRY-2",
    "FD-FAIRY-3",
    "FD-FAIRY-4",
    "FD-TILE-1",
    "FD-PORTAL-1",
];

#[test]
fn all_scenarios_pass_and_cover_base_river_and_fd() {
    let only = std::env::var("SCENARIO").ok();
    let mut files: Vec<_> = std::fs::read_dir("tests/scenarios")
        .expect("tests/scenarios")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && only.as_deref().is_none_or(|o| name.contains(o))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut covered = BTreeSet::new();
    let mut failures = Vec::new();
    for f in &files {
        match carcassonne_cli::scenario::run_file(f) {
            Ok(ids) => covered.extend(ids),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{} scenario(s) failed:\n{}", failures.len(), failures.join("\n"));
    if only.is_some() {
        return;
    }
    let wanted: Vec<String> = (1..=11)
        .map(|i| format!("BASE-{i}"))
        .chain((1..=3).map(|i| format!("RIVER-{i}")))
        .chain(FD_IDS.iter().map(|s| s.to_string()))
        .collect();
    let missing: Vec<&String> = wanted.iter().filter(|id| !covered.contains(*id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}
