//! `carcassonne play`: one game between bots, or with people at some seats (`--human`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use carcassonne_core::{Game, GameOptions, Rules};
use clap::Args;

use crate::bots::make_bot;
use crate::builtin::{load_rules_file, plugin_order, DEFAULT_RULES};
use crate::driver::play_game;
use crate::human::{ask, Answer};
use crate::output::{scores_line, write_atomic};
use crate::svg::{render, Picture};
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
    /// Seats played by a person on the terminal (e.g. `--human 0` or `--human 0,2`): each
    /// of their decisions is asked with the legal actions numbered; `q` saves the record
    /// so far (to `--record`, default `game.json`) and stops.
    #[arg(long, value_name = "SEATS", value_delimiter = ',')]
    human: Vec<usize>,
    /// With `--human`: a picture of the board, rewritten before each of their decisions
    /// (`.svg`, or `.html`: a page that reloads itself).
    #[arg(long, value_name = "FILE", requires = "human")]
    board: Option<PathBuf>,
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
    if let Some(&seat) = a.human.iter().find(|&&s| s >= players) {
        return Err(CliError::input(format!("--human {seat}: the game has seats 0 to {}", players - 1)));
    }
    let game = if a.human.is_empty() {
        play_game(&rules, players, a.seed, &a.bots, a.record.is_some()).map_err(CliError::failure)?
    } else {
        let (game, quit) = play_with_humans(&a, &rules, players)?;
        if quit {
            let path = a.record.clone().unwrap_or_else(|| PathBuf::from("game.json"));
            write_record(&a, &game, &text, players, &path)?;
            return crate::output::print_out(&format!(
                "stopped at turn {}; the record so far is in {}\n",
                game.st.turn,
                path.display()
            ));
        }
        game
    };
    if let Some(path) = &a.record {
        write_record(&a, &game, &text, players, path)?;
    }
    if a.json {
        let v = crate::output::game_result_json(&game, a.seed);
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

/// The seat's player as the record names it: `human` or its bot.
fn seat_name(a: &PlayArgs, seat: usize) -> String {
    if a.human.contains(&seat) {
        "human".to_string()
    } else {
        a.bots[seat % a.bots.len()].clone()
    }
}

fn write_record(a: &PlayArgs, game: &Game, text: &str, players: usize, path: &Path) -> Result<(), CliError> {
    let mut rec = carcassonne_engine::records::game_record(game, &a.rules, text, a.seed);
    rec.bots = Some((0..players).map(|s| seat_name(a, s)).collect());
    let body = serde_json::to_vec_pretty(&rec).map_err(CliError::failure)?;
    write_atomic(path, &body).map_err(|e| CliError::input(format!("--record {}: {e}", path.display())))
}

/// Plays with the `--human` seats asked on the terminal and bots elsewhere (the same
/// bots, seeded the same way, as without `--human`). True if a human stopped the game.
fn play_with_humans(a: &PlayArgs, rules: &Arc<Rules>, players: usize) -> Result<(Game, bool), CliError> {
    let mut bots: Vec<Box<dyn crate::bots::Bot>> = (0..players)
        .map(|seat| make_bot(&a.bots[seat % a.bots.len()], a.seed, seat))
        .collect::<Result<_, _>>()
        .map_err(CliError::input)?;
    let opts = GameOptions { players, seed: a.seed, tile_order: None, record: true };
    let mut game = Game::start(rules.clone(), opts).map_err(CliError::failure)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let mut buf = Vec::new();
    while let Some(d) = game.decision() {
        game.legal_actions(&mut buf);
        if let Some(f) = game.failure() {
            return Err(CliError::failure(f));
        }
        if buf.is_empty() {
            return Err(CliError::failure(format!("turn {}: a decision with no legal action", game.st.turn)));
        }
        let i = if a.human.contains(&(d.player as usize)) {
            if let Some(path) = &a.board {
                write_board(&game, path)?;
            }
            match ask(&game, d.player, &buf, &mut input, &mut out) {
                Answer::Action(i) => i,
                Answer::Quit => return Ok((game, true)),
            }
        } else {
            bots[d.player as usize].choose(&game, &buf)
        };
        game.play_unchecked(buf[i]);
    }
    match game.failure() {
        Some(f) => Err(CliError::failure(f)),
        None => Ok((game, false)),
    }
}

/// `--board FILE`: the board as an SVG, or (`.html`) a page holding it that reloads itself.
fn write_board(game: &Game, path: &Path) -> Result<(), CliError> {
    let pic = Picture {
        title: format!("turn {}", game.st.turn),
        subtitle: format!("rules {}", game.rules.name),
        ..Picture::default()
    };
    let svg = render(game, &pic);
    let html = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("html"));
    let body = if html {
        let svg = svg.trim_start_matches(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
        format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"2\">\
             <title>turn {}</title></head><body>{svg}</body></html>\n",
            game.st.turn
        )
    } else {
        svg
    };
    write_atomic(path, body.as_bytes()).map_err(|e| CliError::input(format!("--board {}: {e}", path.display())))
}
