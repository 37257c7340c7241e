//! `carcassonne replay`: re-check a record and print its final scores.

use std::path::PathBuf;

use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::{check_format, replay_full};
use clap::Args;

use crate::builtin::{plugin_order, rules_for_record_with};
use crate::output::scores_line;
use crate::CliError;

#[derive(Args)]
pub struct ReplayArgs {
    /// The game record (JSON) to replay.
    record: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Load the plugin files the record's rule set names (they run code: only for records
    /// you trust).
    #[arg(long)]
    pub allow_plugin_files: bool,
}

/// Reads and parses a record file, naming the file and line on error.
pub fn read_record(path: &std::path::Path) -> Result<GameRecord, CliError> {
    let text =
        carcassonne_core::files::read_text(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let rec: GameRecord =
        serde_json::from_str(&text).map_err(|e| CliError::input(format!("{}:{}: {e}", path.display(), e.line())))?;
    check_format(&rec).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    Ok(rec)
}

pub fn run(a: ReplayArgs) -> Result<(), CliError> {
    let shown = a.record.display().to_string();
    let rec = read_record(&a.record)?;
    let rules = rules_for_record_with(&rec.rules, &shown, a.allow_plugin_files).map_err(CliError::input)?;
    let game = replay_full(&rec, rules.clone()).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    if a.json {
        let v = crate::output::game_result_json(&game, rec.seed);
        crate::output::print_out(&format!("{v}\n"))
    } else {
        crate::output::print_out(&format!(
            "plugins: {}\nreplayed {} turns: every action legal\nfinal scores: {}\n",
            plugin_order(&rules),
            rec.turns.len(),
            scores_line(game.scores())
        ))
    }
}
