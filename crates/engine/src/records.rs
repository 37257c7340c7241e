//! Game records (docs/record-format.md): reading one and replaying it, every action
//! re-checked, as `carcassonne replay` does.

use std::sync::Arc;

use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::{check_format, replay_full};
use carcassonne_core::{Game, Rules};

use crate::builtin::rules_for_record_with;
use crate::error::RecordError;

/// Parses the JSON text of a record named `file` (its path, for messages) and checks its
/// format.
pub fn read_record(file: &str, text: &str) -> Result<GameRecord, RecordError> {
    let rec: GameRecord = serde_json::from_str(text).map_err(|e| RecordError::Json {
        file: file.to_string(),
        line: e.line(),
        message: e.to_string(),
    })?;
    check_format(&rec).map_err(|error| RecordError::Replay { file: file.to_string(), error })?;
    Ok(rec)
}

/// Replays a record named `file`: rebuilds its rules (refusing plugin files unless
/// `plugin_files`: loading a library runs its code), checks they resolve as recorded, and
/// plays every action, checked; returns the rules and the game at its end.
pub fn replay_record(rec: &GameRecord, file: &str, plugin_files: bool) -> Result<(Arc<Rules>, Game), RecordError> {
    let rules = rules_for_record_with(&rec.rules, file, plugin_files)?;
    let game =
        replay_full(rec, rules.clone()).map_err(|error| RecordError::Replay { file: file.to_string(), error })?;
    Ok((rules, game))
}

/// The record of `game` (started from `seed`) played on the rule set `text` read from
/// `file`, with the directory its tile files are found in.
pub fn game_record(game: &Game, file: &str, text: &str, seed: u64) -> GameRecord {
    let mut rec = GameRecord::from_game(game, file, Some(text), seed);
    rec.rules.dir = crate::builtin::record_dir(file);
    rec
}

/// The JSON text of a record, as `carcassonne play --record` writes it.
pub fn record_json(rec: &GameRecord) -> String {
    // A record holds strings, numbers and JSON values only: it always serializes.
    serde_json::to_string_pretty(rec).unwrap_or_default()
}

/// Reads the record text `text` (named `file` in errors) and replays it, every action
/// checked, refusing plugin files; returns the game at its end.
pub fn replay(file: &str, text: &str) -> Result<Game, RecordError> {
    let rec = read_record(file, text)?;
    Ok(replay_record(&rec, file, false)?.1)
}
