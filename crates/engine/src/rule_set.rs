//! A loaded rule set with the file name and text records and summaries name it by.

use std::sync::Arc;

use carcassonne_core::record::GameRecord;
use carcassonne_core::{Game, GameOptions, InputError, Rules};

use crate::builtin::{load_rules_file, load_rules_text, EMBEDDED, EMBEDDED_FILES};
use crate::error::PlayError;

/// A rule set ready to play: the resolved [`Rules`] and the file and text they were loaded
/// from (what a record or a summary notes). Cheap to clone (the rules are shared).
#[derive(Clone, Debug)]
pub struct RuleSet {
    file: String,
    text: String,
    rules: Arc<Rules>,
}

/// The name a rule set given as TOML text is known by (its tile files are resolved from
/// the working directory, then among the embedded ones).
pub const TEXT_NAME: &str = "<rules text>";

impl RuleSet {
    /// A rule set compiled into the engine, by its name (`base`, `classic-everything`,
    /// ... : [`RuleSet::embedded_names`]) or as `embedded:config/NAME.toml`.
    pub fn embedded(name: &str) -> Result<RuleSet, InputError> {
        let file = if name.starts_with(EMBEDDED) { name.to_string() } else { format!("{EMBEDDED}config/{name}.toml") };
        RuleSet::from_file(&file)
    }

    /// A rule-set file on disk (tile and plugin files resolved next to it), or
    /// `embedded:config/NAME.toml`.
    pub fn from_file(file: &str) -> Result<RuleSet, InputError> {
        let (rules, text) = load_rules_file(file)?;
        Ok(RuleSet { file: file.to_string(), text, rules })
    }

    /// A rule set written as TOML text, known as `name` in errors and records; the tile
    /// files it names are read relative to the working directory when there, else among
    /// the embedded ones (`tiles/base.toml` is the base game's).
    pub fn from_toml_named(name: &str, text: &str) -> Result<RuleSet, InputError> {
        let rules = load_rules_text(name, text)?;
        Ok(RuleSet { file: name.to_string(), text: text.to_string(), rules })
    }

    /// [`RuleSet::from_toml_named`] with the name [`TEXT_NAME`].
    pub fn from_toml(text: &str) -> Result<RuleSet, InputError> {
        RuleSet::from_toml_named(TEXT_NAME, text)
    }

    /// A rule set from `spec`, as the Python bindings take it: TOML text (it has a line
    /// break, or an `=` and no `.toml` ending), a file (ending in `.toml`, holding a `/`,
    /// or `embedded:...`), else the name of an embedded rule set.
    pub fn load(spec: &str) -> Result<RuleSet, InputError> {
        if spec.contains('\n') || (spec.contains('=') && !spec.ends_with(".toml")) {
            RuleSet::from_toml(spec)
        } else if spec.starts_with(EMBEDDED) || spec.ends_with(".toml") || spec.contains('/') {
            RuleSet::from_file(spec)
        } else {
            RuleSet::embedded(spec)
        }
    }

    /// The names of the rule sets compiled into the engine (what [`RuleSet::embedded`]
    /// takes).
    pub fn embedded_names() -> Vec<&'static str> {
        EMBEDDED_FILES
            .iter()
            .filter_map(|(p, _)| p.strip_prefix("config/").filter(|p| !p.starts_with("tiles/")))
            .map(|p| p.trim_end_matches(".toml"))
            .collect()
    }

    /// The resolved rules (plugins in order, tiles, figures, player counts).
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The rule set's `name`.
    pub fn name(&self) -> &str {
        &self.rules.name
    }

    /// The file it was loaded from, as given (`embedded:...`, a path, or [`TEXT_NAME`]).
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The rule-set file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A new game for `players` seats whose stacks are shuffled from `seed`, at its first
    /// decision; it keeps the log a record is written from ([`RuleSet::record`]).
    pub fn new_game(&self, players: usize, seed: u64) -> Result<Game, PlayError> {
        self.start(GameOptions { players, seed, tile_order: None, record: true })
    }

    /// A new game as `options` say (without a log unless `options.record`: faster, for
    /// bulk play).
    pub fn start(&self, options: GameOptions) -> Result<Game, PlayError> {
        Game::start(self.rules.clone(), options).map_err(PlayError::Start)
    }

    /// The record of `game` (started from `seed`), naming this rule set; write it with
    /// `serde_json` (docs/record-format.md). Complete for a game started with a log
    /// ([`RuleSet::new_game`]).
    pub fn record(&self, game: &Game, seed: u64) -> GameRecord {
        crate::records::game_record(game, &self.file, &self.text, seed)
    }
}
