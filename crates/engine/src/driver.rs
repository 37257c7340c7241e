//! Plays whole games with bots.

use std::sync::Arc;

use carcassonne_core::{Game, GameOptions, Rules};

use crate::bots::{make_bot, Bot};
use crate::error::PlayError;

/// Plays one game to the end; `bots` are cycled over the seats (`record`: keep the log a
/// game record is written from).
pub fn play_game(
    rules: &Arc<Rules>,
    players: usize,
    seed: u64,
    bot_names: &[String],
    record: bool,
) -> Result<Game, PlayError> {
    let mut bots: Vec<Box<dyn Bot>> =
        (0..players).map(|seat| make_bot(&bot_names[seat % bot_names.len()], seed, seat)).collect::<Result<_, _>>()?;
    let _game = tracing::debug_span!("game", rules = rules.name.as_str(), seed).entered();
    let mut game = Game::start(rules.clone(), GameOptions { players, seed, tile_order: None, record })
        .map_err(PlayError::Start)?;
    let mut buf = Vec::with_capacity(256);
    run_to_end(&mut game, &mut bots, &mut buf)?;
    Ok(game)
}

/// Lets the bots (one per seat) answer every decision until the game ends; `buf` is
/// scratch space for the legal actions.
pub fn run_to_end(
    game: &mut Game,
    bots: &mut [Box<dyn Bot>],
    buf: &mut Vec<carcassonne_core::Action>,
) -> Result<(), PlayError> {
    // A span per turn (RUST_LOG); `play_game` opens one per game around it. Whether the
    // spans are wanted is asked once a game, not at every turn.
    let spans = tracing::enabled!(tracing::Level::DEBUG);
    let mut turn = (u32::MAX, tracing::Span::none());
    while let Some(d) = game.decision() {
        if spans && game.st.turn != turn.0 {
            turn = (game.st.turn, tracing::debug_span!("turn", n = game.st.turn, player = game.st.current));
        }
        let _in_turn = turn.1.enter();
        let bot = &mut bots[d.player as usize];
        let action = if bot.by_count() {
            // The engine counts and locates the choice without listing every action.
            game.pick_action(buf, |n| bot.choose_by_count(n))
        } else {
            game.legal_actions(buf);
            (!buf.is_empty()).then(|| buf[bot.choose(game, buf)])
        };
        // A plugin may fail while listing the actions (e.g. a decision with none).
        if let Some(f) = game.failure() {
            return Err(PlayError::Stopped(f.to_string()));
        }
        let Some(action) = action else {
            return Err(PlayError::NoLegalAction { turn: game.st.turn, player: d.player, kind: d.kind });
        };
        game.play_unchecked(action);
    }
    // A plugin failure (e.g. a run-time plugin's hook panicked) stops the game early.
    match game.failure() {
        Some(f) => Err(PlayError::Stopped(f.to_string())),
        None => Ok(()),
    }
}
