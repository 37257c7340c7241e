//! The built-in plugins and the rule sets and tile data compiled into the binary.

use std::path::Path;
use std::sync::Arc;

use carcassonne_core::config::{disk_resolver, load_rules, load_rules_with, PluginFactory};
use carcassonne_core::record::RecordRules;
use carcassonne_core::{InputError, Rules};

/// Every built-in plugin a rule set can name.
pub fn factories() -> Vec<PluginFactory> {
    vec![
        carcassonne_plugin_base::factory(),
        carcassonne_plugin_river::factory(),
        carcassonne_plugin_dragon::factory(),
        carcassonne_plugin_fairy::factory(),
        carcassonne_plugin_portal::factory(),
        carcassonne_plugin_princess::factory(),
        carcassonne_plugin_dragon_2025::factory(),
        carcassonne_plugin_fairy_2025::factory(),
        carcassonne_plugin_tower::factory(),
        carcassonne_plugin_barn::factory(),
        carcassonne_plugin_castle::factory(),
        carcassonne_plugin_large_meeple::factory(),
        carcassonne_plugin_abbot::factory(),
        carcassonne_plugin_inns_cathedrals::factory(),
        carcassonne_plugin_traders_builders::factory(),
        carcassonne_plugin_hills::factory(),
        carcassonne_plugin_vineyards::factory(),
        carcassonne_plugin_shepherd::factory(),
        carcassonne_plugin_mayor::factory(),
        carcassonne_plugin_abbey::factory(),
        carcassonne_plugin_wagon::factory(),
        carcassonne_plugin_bazaar::factory(),
        carcassonne_plugin_circus::factory(),
        carcassonne_plugin_acrobats::factory(),
        carcassonne_plugin_ringmaster::factory(),
        carcassonne_plugin_bridge::factory(),
    ]
}

/// Prefix of the names of embedded files.
pub const EMBEDDED: &str = "embedded:";

/// Rule sets and tile data compiled in, by their path in the repository.
pub const EMBEDDED_FILES: &[(&str, &str)] = &[
    ("config/base.toml", include_str!("../../../config/base.toml")),
    ("config/river.toml", include_str!("../../../config/river.toml")),
    ("config/tiles/base.toml", include_str!("../../../config/tiles/base.toml")),
    ("config/tiles/river.toml", include_str!("../../../config/tiles/river.toml")),
    ("config/princess-dragon.toml", include_str!("../../../config/princess-dragon.toml")),
    ("config/tiles/princess-dragon.toml", include_str!("../../../config/tiles/princess-dragon.toml")),
    ("config/fairy-dragon.toml", include_str!("../../../config/fairy-dragon.toml")),
    ("config/fairy-dragon-river.toml", include_str!("../../../config/fairy-dragon-river.toml")),
    ("config/tiles/fairy-dragon.toml", include_str!("../../../config/tiles/fairy-dragon.toml")),
    ("config/tower.toml", include_str!("../../../config/tower.toml")),
    ("config/barn.toml", include_str!("../../../config/barn.toml")),
    ("config/castle.toml", include_str!("../../../config/castle.toml")),
    ("config/classic-everything.toml", include_str!("../../../config/classic-everything.toml")),
    ("config/2025-everything.toml", include_str!("../../../config/2025-everything.toml")),
    ("config/tiles/tower.toml", include_str!("../../../config/tiles/tower.toml")),
    ("config/large-meeple.toml", include_str!("../../../config/large-meeple.toml")),
    ("config/abbot.toml", include_str!("../../../config/abbot.toml")),
    ("config/inns-cathedrals.toml", include_str!("../../../config/inns-cathedrals.toml")),
    ("config/tiles/inns-cathedrals.toml", include_str!("../../../config/tiles/inns-cathedrals.toml")),
    ("config/traders-builders.toml", include_str!("../../../config/traders-builders.toml")),
    ("config/tiles/traders-builders.toml", include_str!("../../../config/tiles/traders-builders.toml")),
    ("config/hills-sheep.toml", include_str!("../../../config/hills-sheep.toml")),
    ("config/tiles/hills-sheep.toml", include_str!("../../../config/tiles/hills-sheep.toml")),
    ("config/abbey-mayor.toml", include_str!("../../../config/abbey-mayor.toml")),
    ("config/tiles/abbey-mayor.toml", include_str!("../../../config/tiles/abbey-mayor.toml")),
    ("config/bridges-bazaars.toml", include_str!("../../../config/bridges-bazaars.toml")),
    ("config/tiles/bridges-bazaars.toml", include_str!("../../../config/tiles/bridges-bazaars.toml")),
    ("config/big-top.toml", include_str!("../../../config/big-top.toml")),
    ("config/tiles/big-top.toml", include_str!("../../../config/tiles/big-top.toml")),
    ("config/bridge.toml", include_str!("../../../config/bridge.toml")),
];

/// The rule set `simulate` and `play` use without `--rules`: the richest one supported.
pub const DEFAULT_RULES: &str = "embedded:config/classic-everything.toml";

fn embedded(path: &str) -> Option<&'static str> {
    EMBEDDED_FILES.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}

/// Joins `rel` to the directory of `file` (both `/`-separated), folding `..`.
fn join(file: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = file.split('/').collect();
    parts.pop();
    for seg in rel.split('/') {
        match seg {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// Reads a rule-set file: `embedded:PATH` or a path on disk. Returns the text.
pub fn read_rules_text(file: &str) -> Result<String, InputError> {
    if let Some(path) = file.strip_prefix(EMBEDDED) {
        return embedded(path).map(str::to_string).ok_or_else(|| {
            let known: Vec<String> = EMBEDDED_FILES
                .iter()
                .filter(|(p, _)| !p.starts_with("config/tiles/"))
                .map(|(p, _)| format!("{EMBEDDED}{p}"))
                .collect();
            InputError::new(file, None, format!("no such embedded rule set (known: {})", known.join(", ")))
        });
    }
    carcassonne_core::files::read_text(file)
        .map_err(|e| InputError::new(file, None, format!("cannot read rule set: {e}")))
}

/// Loads a rule set from its name and text (tile files resolved next to it).
pub fn load_rules_text(file: &str, text: &str) -> Result<Arc<Rules>, InputError> {
    load_rules_trusting(file, text, true)
}

/// [`load_rules_text`]; with `plugin_files` false, a plugin file the rule set names is
/// refused (a record's rule set: loading a library runs its code).
fn load_rules_trusting(file: &str, text: &str, plugin_files: bool) -> Result<Arc<Rules>, InputError> {
    let resolve_disk = disk_resolver(file);
    let from_text = Path::new(file).file_name().is_some_and(|n| n == crate::rule_set::TEXT_NAME);
    // A rule set given as text finds its tile files on disk, else among the embedded ones.
    let resolve = move |rel: &str| {
        resolve_disk(rel).or_else(|e| match embedded(&join("config/text", rel)) {
            Some(t) if from_text => Ok((format!("{EMBEDDED}{}", join("config/text", rel)), t.to_string())),
            _ => Err(e),
        })
    };
    if !plugin_files && !file.starts_with(EMBEDDED) {
        let refuse = |path: &str, _: &toml::Table| -> Result<carcassonne_core::FilePlugin, String> {
            Err(format!(
                "plugin file '{path}': a record's rule set loads plugin files only with \
                 --allow-plugin-files (loading a library runs its code)"
            ))
        };
        return load_rules_with(file, text, &resolve, &factories(), Some(&refuse));
    }
    let factories = factories();
    if let Some(path) = file.strip_prefix(EMBEDDED) {
        let path = path.to_string();
        let resolve = move |rel: &str| {
            let p = join(&path, rel);
            embedded(&p)
                .map(|t| (format!("{EMBEDDED}{p}"), t.to_string()))
                .ok_or_else(|| format!("'{EMBEDDED}{p}': no such embedded file"))
        };
        load_rules(file, text, &resolve, &factories)
    } else {
        // Plugin files (`[[plugins]] path = "..."`) load only from rule sets on disk.
        let plugin_files = carcassonne_dynamic::disk_loader(file);
        load_rules_with(file, text, &resolve, &factories, Some(&plugin_files))
    }
}

/// Loads a rule-set file (`embedded:PATH` or a path on disk); returns the rules and text.
pub fn load_rules_file(file: &str) -> Result<(Arc<Rules>, String), InputError> {
    let text = read_rules_text(file)?;
    Ok((load_rules_text(file, &text)?, text))
}

/// The directory a record notes for its rule-set file `file` ([`RecordRules::dir`]): the
/// working directory, for a relative path on disk.
pub fn record_dir(file: &str) -> Option<String> {
    if file.starts_with(EMBEDDED) || file.is_empty() || Path::new(file).is_absolute() {
        return None;
    }
    std::env::current_dir().ok().map(|d| d.display().to_string())
}

/// The rule-set file of a record as replay reads it: from the record's `dir` while that
/// file's directory exists there, else as written (relative to the working directory).
fn record_rules_file(r: &RecordRules) -> String {
    match &r.dir {
        Some(dir) if !r.file.starts_with(EMBEDDED) && Path::new(&r.file).is_relative() => {
            let p = Path::new(dir).join(&r.file);
            if p.parent().is_some_and(Path::is_dir) {
                return p.display().to_string();
            }
            r.file.clone()
        }
        _ => r.file.clone(),
    }
}

/// Rebuilds the rules a record names, and checks they resolve to the recorded plugins.
/// Plugin files are refused: see [`rules_for_record_with`].
pub fn rules_for_record(r: &RecordRules, record_file: &str) -> Result<Arc<Rules>, InputError> {
    rules_for_record_with(r, record_file, false)
}

/// [`rules_for_record`]; `plugin_files`: load the plugin files its rule set names (the user
/// trusts them: `--allow-plugin-files`).
pub fn rules_for_record_with(r: &RecordRules, record_file: &str, plugin_files: bool) -> Result<Arc<Rules>, InputError> {
    let file = record_rules_file(r);
    let rules = match &r.text {
        Some(text) => load_rules_trusting(&file, text, plugin_files)?,
        None => load_rules_trusting(&file, &read_rules_text(&file)?, plugin_files)?,
    };
    // The name the record shows is the rule set's (hand-written scenarios may leave it out).
    if !r.name.is_empty() && r.name != rules.name {
        return Err(InputError::new(
            record_file,
            None,
            format!("rules.name: the record says '{}', but '{}' is named '{}'", r.name, r.file, rules.name),
        ));
    }
    if !r.plugins.is_empty() {
        let now: Vec<(&str, i64, &serde_json::Value)> =
            rules.plugins.iter().map(|p| (p.name.as_str(), p.priority, &p.options)).collect();
        let then: Vec<(&str, i64, &serde_json::Value)> =
            r.plugins.iter().map(|p| (p.name.as_str(), p.priority, &p.options)).collect();
        if now != then {
            return Err(InputError::new(
                record_file,
                None,
                format!(
                    "rules.plugins: the record was played with {}, but '{}' now resolves to {}",
                    describe(&then),
                    r.file,
                    describe(&now)
                ),
            ));
        }
    }
    Ok(rules)
}

fn describe(list: &[(&str, i64, &serde_json::Value)]) -> String {
    list.iter().map(|(n, p, o)| format!("{n}[{p}] {o}")).collect::<Vec<_>>().join(", ")
}

/// One line per plugin in resolved order: `priority name options`.
pub fn plugin_order(rules: &Rules) -> String {
    rules
        .plugins
        .iter()
        .map(|p| format!("{} (priority {}) {}", p.name, p.priority, p.options))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_folds_relative_paths() {
        assert_eq!(join("config/river.toml", "tiles/river.toml"), "config/tiles/river.toml");
        assert_eq!(join("config/x/a.toml", "../tiles/b.toml"), "config/tiles/b.toml");
    }

    #[test]
    fn every_embedded_rule_set_loads() {
        for (p, _) in EMBEDDED_FILES.iter().filter(|(p, _)| !p.starts_with("config/tiles/")) {
            load_rules_file(&format!("{EMBEDDED}{p}")).unwrap();
        }
    }
}
