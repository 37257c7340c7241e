//! `carcassonne rules`: the embedded rule sets and the built-in plugins with their options,
//! defaults, allowed values and rule IDs.
//!
//! Nothing here is a second list of facts: defaults are what each plugin resolves from
//! empty options, and allowed values are read off the refusal each plugin's own option
//! check gives for a value no option accepts (the range of `carcassonne_options::range`,
//! the variants serde names), so the listing follows the code.

use clap::Args;
use serde::Serialize;
use serde_json::Value;

use crate::builtin::{factories, load_rules_file, DEFAULT_RULES, EMBEDDED, EMBEDDED_FILES};
use crate::CliError;

#[derive(Args)]
pub struct RulesArgs {
    /// Print JSON (`{"rule_sets": [...], "plugins": [...]}`) instead of text.
    #[arg(long)]
    json: bool,
}

/// An embedded rule set.
#[derive(Serialize)]
pub struct RuleSetInfo {
    /// The name to pass to `--rules`.
    pub file: String,
    /// The rule set's own name.
    pub name: String,
    pub players: String,
    /// Plugins in the order they run.
    pub plugins: Vec<String>,
    pub default: bool,
}

/// One option of a built-in plugin.
#[derive(Serialize)]
pub struct OptionInfo {
    pub name: String,
    pub default: Value,
    /// Allowed values as the plugin's check states them (e.g. "0 to 100", "\"c2\" | \"c1\"").
    pub allowed: String,
}

/// A built-in plugin.
#[derive(Serialize)]
pub struct PluginInfo {
    pub name: String,
    /// What it implements, with its rule IDs.
    pub summary: String,
    pub requires: Vec<String>,
    pub conflicts: Vec<String>,
    pub options: Vec<OptionInfo>,
}

/// The embedded rule sets, loaded.
pub fn rule_sets() -> Result<Vec<RuleSetInfo>, String> {
    let mut out = Vec::new();
    for (path, _) in EMBEDDED_FILES.iter().filter(|(p, _)| !p.starts_with("config/tiles/")) {
        let file = format!("{EMBEDDED}{path}");
        let (rules, _) = load_rules_file(&file).map_err(|e| e.to_string())?;
        out.push(RuleSetInfo {
            players: format!("{} (allowed {} to {})", rules.default_players, rules.min_players, rules.max_players),
            name: rules.name.clone(),
            plugins: rules.plugins.iter().map(|p| p.name.clone()).collect(),
            default: file == DEFAULT_RULES,
            file,
        });
    }
    Ok(out)
}

/// The built-in plugins with their options.
pub fn plugins() -> Vec<PluginInfo> {
    factories()
        .iter()
        .map(|f| {
            let defaults = match (f.build)(&toml::Table::new()) {
                Ok((_, Value::Object(m))) => m,
                _ => serde_json::Map::new(),
            };
            let options = defaults
                .iter()
                .map(|(name, default)| OptionInfo {
                    allowed: allowed(f.build, name, default),
                    name: name.clone(),
                    default: default.clone(),
                })
                .collect();
            PluginInfo {
                name: f.name.to_string(),
                summary: f.summary.to_string(),
                requires: f.requires.iter().map(|s| s.to_string()).collect(),
                conflicts: f.conflicts.iter().map(|s| s.to_string()).collect(),
                options,
            }
        })
        .collect()
}

/// The values option `name` allows, read off the plugin's refusal of one it cannot take.
fn allowed(build: carcassonne_core::config::BuildFn, name: &str, default: &Value) -> String {
    let probe = match default {
        Value::Bool(_) => return "true | false".to_string(),
        Value::Number(n) if n.is_i64() || n.is_u64() => toml::Value::Integer(i64::MIN + 1),
        Value::Number(_) => return "a number".to_string(),
        Value::String(_) => toml::Value::String("\u{1}".to_string()),
        Value::Array(_) => return "a list".to_string(),
        Value::Null => return "unset, or a name checked when the rule set loads".to_string(),
        Value::Object(_) => return "a table".to_string(),
    };
    let mut t = toml::Table::new();
    t.insert(name.to_string(), probe);
    let Err(e) = build(&t) else { return "a name, checked when the rule set loads".to_string() };
    if let Some(range) = between(&e, "(allowed: ", ")") {
        return range.to_string();
    }
    // serde: "unknown variant `x`, expected `a` or `b`" / "expected one of `a`, `b`, `c`".
    if let Some(list) = e.split_once("unknown variant").and_then(|(_, r)| r.split_once("expected ")).map(|(_, l)| l) {
        let names: Vec<String> = list.split('`').skip(1).step_by(2).map(|v| format!("\"{v}\"")).collect();
        if !names.is_empty() {
            return names.join(" | ");
        }
    }
    match default {
        Value::String(_) => "a string (a name, e.g. of a tile set or tile)".to_string(),
        _ => "an integer".to_string(),
    }
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let rest = &s[s.find(open)? + open.len()..];
    Some(&rest[..rest.find(close)?])
}

pub fn run(a: RulesArgs) -> Result<(), CliError> {
    let sets = rule_sets().map_err(CliError::failure)?;
    let plugins = plugins();
    if a.json {
        let v = serde_json::json!({"rule_sets": sets, "plugins": plugins});
        println!("{}", serde_json::to_string_pretty(&v).map_err(CliError::failure)?);
        return Ok(());
    }
    println!("Embedded rule sets (--rules NAME):");
    for s in &sets {
        let default = if s.default { ", the default" } else { "" };
        println!("  {} ({}{default}; players {})", s.file, s.name, s.players);
        println!("      plugins: {}", s.plugins.join(", "));
    }
    println!();
    println!("Built-in plugins ([[plugins]] name = NAME, options under [plugins.options]):");
    for p in &plugins {
        println!("  {}: {}", p.name, p.summary);
        if !p.requires.is_empty() {
            println!("      requires: {}", p.requires.join(", "));
        }
        if !p.conflicts.is_empty() {
            println!("      conflicts with: {}", p.conflicts.join(", "));
        }
        for o in &p.options {
            println!("      {} = {} (allowed: {})", o.name, o.default, o.allowed);
        }
    }
    Ok(())
}
