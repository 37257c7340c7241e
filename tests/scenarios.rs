//! Runs every scenario in tests/scenarios/ and checks that every BASE and RIVER rule
//! ID of RULES.md is covered by at least one.

use std::collections::BTreeSet;

#[test]
fn all_scenarios_pass_and_cover_base_and_river() {
    let mut files: Vec<_> = std::fs::read_dir("tests/scenarios")
        .expect("tests/scenarios")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
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
    let wanted: Vec<String> =
        (1..=11).map(|i| format!("BASE-{i}")).chain((1..=3).map(|i| format!("RIVER-{i}"))).collect();
    let missing: Vec<&String> = wanted.iter().filter(|id| !covered.contains(*id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}
