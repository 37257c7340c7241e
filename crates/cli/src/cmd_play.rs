//! `carcassonne play`: one game between bots.

use std::path::PathBuf;

use carcassonne_core::record::GameRecord;
use clap::Args;

use crate::builtin::{load_rules_file, plugin_order, DEFAULT_RULES};
use crate::driver::play_game;
use crate::output::{scores_line, write_atomic};
use crate::CliError;

#[derive(Args)]
pub struct PlayArgs {
    /// Rule-set file (`embedded:config/NAME.toml` for a built-in one).
    #[arg(long, default_value = DEFAULT_RULES)]
    rules: String,
    /// Number of players (default: the rule set's `players`).
    #[arg(long)]
    players: Option<usize>,
    /// Seed of the game (tile order and bots).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bots, one per seat, cycled: random, greedy, mcts, mcts:N (N playouts per decision).
    #[arg(long, default_value = "random", value_delimiter = ',')]
    bots: Vec<String>,
    /// Write the game record (JSON) to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: PlayArgs) -> Result<(), CliError> {
    let (rules, text) = load_rules_file(&a.rules).map_err(CliError::input)?;
    let players = a.players.unwrap_or(rules.default_players);
    if players < rules.min_players || players > rules.max_players {
        return Err(CliError::input(format!(
            "--players {players}: rule set '{}' allows {} to {}",
            rules.name, rules.min_players, rules.max_players
        )));
    }
    for b in &a.bots {
        crate::bots::make_bot(b, 0, 0).map_err(|e| CliError::input(format!("--bots: {e}")))?;
    }
    if let Some(path) = &a.record {
        crate::cmd_simulate::check_output_file("--record", path)?;
    }
    let game = play_game(&rules, players, a.seed, &a.bots, a.record.is_some()).map_err(CliError::failure)?;
    if let Some(path) = &a.record {
        let mut rec = GameRecord::from_game(&game, &a.rules, Some(&text), a.seed);
        rec.rules.dir = crate::builtin::record_dir(&a.rules);
        rec.bots = Some((0..players).map(|s| a.bots[s % a.bots.len()].clone()).collect());
        let body = serde_json::to_vec_pretty(&rec).map_err(CliError::failure)?;
        write_atomic(path, &body).map_err(|e| CliError::input(format!("--record {}: {e}", path.display())))?;
    }
    if a.json {
        let v = serde_json::json!({
            "rules": rules.name,
            "plugins": rules.plugins.iter().map(|p| serde_json::json!({"name": p.name, "priority": p.priority, "options": p.options})).collect::<Vec<_>>(),
            "seed": a.seed,
            "players": players,
            "turns": game.st.turn.saturating_sub(1),
            "discarded": game.st.discarded,
            "final_scores": game.scores(),
        });
        crate::output::print_out(&format!("{v}\n"))
    } else {
        crate::output::print_out(&format!(
            "rules: {} ({})\nplugins: {}\nseed {}, {} players, bots {}\nfinal scores: {}\n",
            rules.name,
            a.rules,
            plugin_order(&rules),
            a.seed,
            players,
            a.bots.join(","),
            scores_line(game.scores())
        ))
    }
}
