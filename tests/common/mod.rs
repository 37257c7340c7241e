//! Helpers shared by the rule tests: rule sets with changed options, and the rule IDs
//! the JSON scenarios cover.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_core::Rules;

/// Rule-set file `file` with every line `key = ...` of `opts` set to its value (a key may
/// stand in several plugins' option tables); returns the rules and the changed text.
pub fn rules_with(file: &str, opts: &[(&str, &str)]) -> (Arc<Rules>, String) {
    let mut text = std::fs::read_to_string(file).unwrap();
    for (k, v) in opts {
        let mut out = String::new();
        for line in text.lines() {
            if line.starts_with(&format!("{k} = ")) {
                out.push_str(&format!("{k} = {v}\n"));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        text = out;
    }
    (load_rules_text(file, &text).unwrap(), text)
}

/// Every rule ID named in the `rule_ids` of a scenario in tests/scenarios/.
pub fn scenario_rule_ids() -> BTreeSet<String> {
    let mut covered = BTreeSet::new();
    for e in std::fs::read_dir("tests/scenarios").unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            for id in v["rule_ids"].as_array().into_iter().flatten() {
                covered.insert(id.as_str().unwrap().to_string());
            }
        }
    }
    covered
}
