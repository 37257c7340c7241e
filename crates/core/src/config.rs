//! Rule-set files: `[[plugins]]` with name, priority and options, tile sets, player
//! count. Plugins are built from registered factories (or loaded from a plugin file,
//! `path = "..."`, by a [`FileLoader`]) and ordered by ascending priority, ties broken by
//! name (file order never matters).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::board::MAX_TILES;
use crate::catalog::Catalog;
use crate::engine::{Game, GameOptions};
use crate::error::{check_printable, check_shape, from_toml, line_of, InputError};
use crate::plugin::Plugin;
use crate::rules::{LoadedPlugin, Rules};

/// Builds one plugin from its options table: returns the plugin and its resolved options.
pub type BuildFn = fn(&toml::Table) -> Result<(Box<dyn Plugin>, serde_json::Value), String>;

/// A plugin that a rule set can name.
#[derive(Clone, Copy)]
pub struct PluginFactory {
    pub name: &'static str,
    /// One line on what it implements (with rule IDs).
    pub summary: &'static str,
    /// Plugins that must be in the same rule set.
    pub requires: &'static [&'static str],
    /// Plugins that may not be in the same rule set.
    pub conflicts: &'static [&'static str],
    pub build: BuildFn,
}

/// Builds a plugin whose options are its fields (`#[serde(default, deny_unknown_fields)]`).
pub fn build_from_options<T>(opts: &toml::Table) -> Result<(Box<dyn Plugin>, serde_json::Value), String>
where
    T: Plugin + Serialize + DeserializeOwned,
{
    let parse = |t: &toml::Table| -> Result<T, String> {
        toml::Value::Table(t.clone()).try_into().map_err(|e: toml::de::Error| e.message().trim().to_string())
    };
    let p: T = match parse(opts) {
        Ok(p) => p,
        Err(e) => {
            // Name the key: the first option that fails on its own.
            for (k, v) in opts {
                let one: toml::Table = [(k.clone(), v.clone())].into_iter().collect();
                if let Err(e1) = parse(&one) {
                    if !e1.contains("unknown field") {
                        return Err(format!("`{k}`: {e1}"));
                    }
                }
            }
            return Err(e);
        }
    };
    let resolved = serde_json::to_value(&p).map_err(|e| e.to_string())?;
    Ok((Box::new(p), resolved))
}

/// A plugin loaded from a file a rule set names (`[[plugins]] path = "..."`).
pub struct FilePlugin {
    /// The name the plugin declares.
    pub name: String,
    /// Plugins that must be in the same rule set.
    pub requires: Vec<String>,
    /// Plugins that may not be in the same rule set.
    pub conflicts: Vec<String>,
    /// Its options after defaults, as JSON.
    pub options: serde_json::Value,
    /// Tile files it brings (paths relative to the rule set's file).
    pub tile_files: Vec<String>,
    pub plugin: Box<dyn Plugin>,
}

/// Loads a plugin file: gets the `path` as written in the rule set (relative to the rule
/// set) and the plugin's options table; its error names the file (and the key, for an
/// options error, as `` `key` ``).
pub type FileLoader<'a> = &'a dyn Fn(&str, &toml::Table) -> Result<FilePlugin, String>;

/// Reads a file named in a rule set, relative to the rule set: returns a display name
/// (used in errors and records) and the text; an error names the file it tried.
pub type Resolver<'a> = &'a dyn Fn(&str) -> Result<(String, String), String>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleSet {
    name: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: String,
    players: Option<toml::Spanned<usize>>,
    #[serde(default)]
    tiles: BTreeMap<String, toml::Spanned<String>>,
    plugins: Vec<toml::Spanned<RawPlugin>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlugin {
    /// A built-in plugin; with `path`, the name the file's plugin must declare.
    name: Option<toml::Spanned<String>>,
    /// A plugin file, relative to the rule set.
    path: Option<toml::Spanned<String>>,
    #[serde(default)]
    priority: i64,
    #[serde(default)]
    options: Option<toml::Spanned<toml::Table>>,
}

/// A plugin of a rule set being loaded: (plugin, requires, conflicts, line).
type Entry = (LoadedPlugin, Vec<String>, Vec<String>, Option<usize>);

/// Where a rule set came from, for records and replays.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RuleSetSource {
    /// Display name of the rule-set file.
    pub file: String,
    /// Its text.
    pub text: String,
}

/// Loads a rule set from its text. `file` names it in errors; `resolve` reads the tile
/// files it names; `factories` are the plugins that can be named. Plugin files
/// (`path = "..."`) are refused: see [`load_rules_with`].
pub fn load_rules(
    file: &str,
    text: &str,
    resolve: Resolver<'_>,
    factories: &[PluginFactory],
) -> Result<Arc<Rules>, InputError> {
    load_rules_with(file, text, resolve, factories, None)
}

/// [`load_rules`], loading the plugin files a rule set names with `files`.
pub fn load_rules_with(
    file: &str,
    text: &str,
    resolve: Resolver<'_>,
    factories: &[PluginFactory],
    files: Option<FileLoader<'_>>,
) -> Result<Arc<Rules>, InputError> {
    check_shape(file, text, "rule set", RULE_SET_KEYS, &[("plugins", "array")])?;
    let raw: RawRuleSet = toml::from_str(text).map_err(|e| from_toml(file, text, &e))?;
    let at = |pos: usize| Some(line_of(text, pos));
    if let Some(n) = &raw.name {
        check_printable("rule-set name", n).map_err(|e| InputError::new(file, None, e))?;
    }
    if raw.plugins.is_empty() {
        return Err(InputError::new(file, None, "`plugins` is empty: name at least one plugin"));
    }
    let mut catalog = Catalog::new();
    for (set, path) in &raw.tiles {
        let line = at(path.span().start);
        let (shown, body) = resolve(path.get_ref())
            .map_err(|e| InputError::new(file, line, format!("tiles.{set} = '{}': cannot read {e}", path.get_ref())))?;
        let loaded = catalog.load_str(&shown, &body)?;
        if &loaded != set {
            return Err(InputError::new(
                file,
                line,
                format!("tiles.{set}: '{}' holds tile set '{loaded}', not '{set}'", path.get_ref()),
            ));
        }
    }
    // (plugin, requires, conflicts, line)
    let mut plugins: Vec<Entry> = Vec::new();
    for sp in &raw.plugins {
        let p = sp.get_ref();
        let empty = toml::Table::new();
        let opts = p.options.as_ref().map_or(&empty, |o| o.get_ref());
        let (loaded, requires, conflicts, line) = match (&p.name, &p.path) {
            (name, Some(path)) => {
                let line = at(path.span().start);
                let load = files.ok_or_else(|| {
                    InputError::new(
                        file,
                        line,
                        format!("plugin file '{}': this rule set cannot load plugin files", path.get_ref()),
                    )
                })?;
                let fp = load(path.get_ref(), opts).map_err(|e| {
                    let line = p.options.as_ref().and_then(|o| key_line(text, o.span(), &e)).or(line);
                    InputError::new(file, line, e)
                })?;
                check_printable(&format!("plugin file '{}' declares a plugin name", path.get_ref()), &fp.name)
                    .map_err(|e| InputError::new(file, line, e))?;
                if let Some(n) = name.as_ref().filter(|n| *n.get_ref() != fp.name) {
                    return Err(InputError::new(
                        file,
                        at(n.span().start),
                        format!("plugin file '{}' holds plugin '{}', not '{}'", path.get_ref(), fp.name, n.get_ref()),
                    ));
                }
                for tf in &fp.tile_files {
                    let (shown, body) = resolve(tf).map_err(|e| {
                        InputError::new(file, line, format!("plugin '{}' tile file '{tf}': cannot read {e}", fp.name))
                    })?;
                    catalog.load_str(&shown, &body)?;
                }
                let loaded =
                    LoadedPlugin { name: fp.name, priority: p.priority, options: fp.options, plugin: fp.plugin };
                (loaded, fp.requires, fp.conflicts, line)
            }
            (Some(n), None) => {
                let name = n.get_ref().as_str();
                let line = at(n.span().start);
                let f = factories.iter().find(|f| f.name == name).ok_or_else(|| {
                    let known: Vec<&str> = factories.iter().map(|f| f.name).collect();
                    InputError::new(file, line, format!("unknown plugin '{name}' (known: {})", known.join(", ")))
                })?;
                let (plugin, resolved) = (f.build)(opts).map_err(|e| {
                    let line = p.options.as_ref().and_then(|o| key_line(text, o.span(), &e)).or(line);
                    InputError::new(file, line, format!("plugins '{name}' options: {e}"))
                })?;
                let strings = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
                let loaded = LoadedPlugin { name: name.to_string(), priority: p.priority, options: resolved, plugin };
                (loaded, strings(f.requires), strings(f.conflicts), line)
            }
            (None, None) => {
                return Err(InputError::new(
                    file,
                    at(sp.span().start),
                    "a [[plugins]] entry needs `name` (a built-in plugin) or `path` (a plugin file)",
                ))
            }
        };
        if plugins.iter().any(|(q, ..)| q.name == loaded.name) {
            return Err(InputError::new(file, line, format!("plugin '{}' is named twice", loaded.name)));
        }
        plugins.push((loaded, requires, conflicts, line));
    }
    let names: Vec<&str> = plugins.iter().map(|(p, ..)| p.name.as_str()).collect();
    for (p, requires, conflicts, line) in &plugins {
        for r in requires {
            if !names.contains(&r.as_str()) {
                return Err(InputError::new(
                    file,
                    *line,
                    format!("plugin '{}' requires plugin '{r}', which the rule set does not name", p.name),
                ));
            }
        }
        for c in conflicts {
            if names.contains(&c.as_str()) {
                return Err(InputError::new(
                    file,
                    *line,
                    format!("plugin '{}' conflicts with plugin '{c}': name only one", p.name),
                ));
            }
        }
    }
    let players = raw.players.as_ref().map(|p| *p.get_ref());
    let players_line = raw.players.as_ref().map(|p| line_of(text, p.span().start));
    let name = raw.name.clone().unwrap_or_else(|| file.to_string());
    let lines: Vec<(String, Option<usize>)> = plugins.iter().map(|(p, _, _, line)| (p.name.clone(), *line)).collect();
    // An error of plugin 'X' ("plugin 'X': ...") is reported at X's entry.
    let line_of_error =
        |e: &str| lines.iter().find(|(n, _)| e.starts_with(&format!("plugin '{n}'"))).map_or(players_line, |(_, l)| *l);
    let rules = Rules::build(&name, catalog, plugins.into_iter().map(|(p, ..)| p).collect(), players)
        .map_err(|e| InputError::new(file, line_of_error(&e), e))?;
    // Every player count's setup, now rather than at the first game: a plugin's setup error
    // or too many tiles is bad input of this file.
    for n in rules.min_players..=rules.max_players {
        let setup = rules.setup(n).map_err(|e| InputError::new(file, line_of_error(&e), e))?;
        let tiles = setup.groups.iter().map(|g| g.tiles.len() + g.last.len()).sum::<usize>() + 1;
        if tiles > MAX_TILES {
            return Err(InputError::new(
                file,
                None,
                format!(
                    "a game of {n} players would have {tiles} tiles; at most {MAX_TILES} are supported \
                     (check `copies` and the tile counts)"
                ),
            ));
        }
    }
    let rules = Arc::new(rules);
    check_playable(file, &rules)?;
    Ok(rules)
}

/// The top-level keys of a rule set.
pub const RULE_SET_KEYS: &[&str] = &["name", "description", "players", "tiles", "plugins"];

/// Refuses a rule set that cannot play one turn with some player count: no tile besides
/// the start tile, or every tile leaving the game before the first turn (a plugin's
/// option, e.g. dragon-2025's `removed_land_tiles`).
fn check_playable(file: &str, rules: &Arc<Rules>) -> Result<(), InputError> {
    for n in rules.min_players..=rules.max_players {
        let setup = rules.setup(n).map_err(|e| InputError::new(file, None, e))?;
        let tiles = setup.groups.iter().map(|g| g.tiles.len() + g.last.len()).sum::<usize>();
        let why = if tiles == 0 {
            "its tile sets and options leave no tile to draw besides the start tile".to_string()
        } else {
            let opts = GameOptions { players: n, seed: 0, tile_order: None, record: false };
            let game = Game::start(rules.clone(), opts).map_err(|e| InputError::new(file, None, e))?;
            // A plugin that failed (a plugin file's hook) is reported by the game that runs it.
            if !game.is_over() || game.failure().is_some() {
                continue;
            }
            format!(
                "the game ends before its first turn: none of its {tiles} tiles is played \
                 (taken out by an option such as `removed_land_tiles`, or none fits)"
            )
        };
        return Err(InputError::new(file, None, format!("a game of {n} players cannot play one turn: {why}")));
    }
    Ok(())
}

/// The line of the key an options error names (`unknown field \`x\``), within a span.
fn key_line(text: &str, span: std::ops::Range<usize>, msg: &str) -> Option<usize> {
    let key = msg.split('`').nth(1)?;
    let body = text.get(span.clone())?;
    let mut off = 0;
    for line in body.split_inclusive('\n') {
        // `key = ...` on its own line, or inside an inline table `{ a = 1, key = 2 }`.
        let hit = line.match_indices(key).any(|(i, _)| {
            let before = line[..i].trim_end();
            let after = line[i + key.len()..].trim_start();
            after.starts_with('=') && (before.is_empty() || before.ends_with('{') || before.ends_with(','))
        });
        if hit {
            return Some(line_of(text, span.start + off));
        }
        off += line.len();
    }
    None
}

/// Resolver for files on disk, relative to the directory of `rule_file`.
pub fn disk_resolver(rule_file: &str) -> impl Fn(&str) -> Result<(String, String), String> {
    let dir = std::path::Path::new(rule_file).parent().map(|p| p.to_path_buf()).unwrap_or_default();
    move |rel: &str| {
        let p = dir.join(rel);
        let shown = p.display().to_string();
        crate::files::read_text(&p).map_err(|e| format!("'{shown}': {e}")).map(|t| (shown, t))
    }
}
