//! Fairy & Dragon (2025) scenarios: runs tests/scenarios/fd-*.json (hand-worked expected
//! states) and checks that every FD rule ID this branch implements is covered by one.
//! `FD_SCENARIO=name` runs only the files whose name contains `name`.

use std::collections::BTreeSet;

#[test]
fn fd_scenarios_pass_and_cover_the_fd_rules() {
    let only = std::env::var("FD_SCENARIO").ok();
    let mut files: Vec<_> = std::fs::read_dir("tests/scenarios")
        .expect("tests/scenarios")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("fd-") && name.ends_with(".json") && only.as_deref().is_none_or(|o| name.contains(o))
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
    let wanted = [
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
    let missing: Vec<&&str> = wanted.iter().filter(|id| !covered.contains(**id)).collect();
    assert!(missing.is_empty(), "FD rule IDs without a scenario: {missing:?}");
}
