//! A Carcassonne rules engine whose expansions are plugins, as a library: load a rule set,
//! play games (with your own bots or the built-in ones), write and replay records, and run
//! `simulate` from code. The `carcassonne` command is built on the same calls.
//!
//! # A random game
//!
//! A rule set compiled in ([`RuleSet::embedded`]; also [`RuleSet::from_file`] and
//! [`RuleSet::from_toml`]), a game from a seed ([`RuleSet::new_game`]), then its pending
//! [`Decision`] and legal [`Action`]s until the game is over. [`Game::try_play`] checks an
//! action ([`Error::Illegal`] when it is refused); [`Game::play_unchecked`] is the fast
//! path for an action taken from [`Game::legal_actions`]. A game is [`Clone`] (to try an
//! action on a copy; in a search, `scratch.clone_from(&game)` copies into a game kept for
//! the purpose without allocating, and [`Game::clone_without_log`] leaves a recorded
//! game's log behind), and [`show_action`] and [`show_decision`] display them in the
//! record notation.
//!
//! ```
//! use carcassonne::{show_action, show_decision, Rng, RuleSet};
//!
//! let rules = RuleSet::embedded("base")?;
//! let mut game = rules.new_game(2, 7)?;
//! let mut rng = Rng::new(1);
//! let mut legal = Vec::new();
//! let mut first = None;
//! while let Some(decision) = game.decision() {
//!     game.legal_actions(&mut legal);
//!     let action = legal[rng.below(legal.len())];
//!     if first.is_none() {
//!         first = Some(format!("{} -> {}", show_decision(&game, decision), show_action(&game, action)));
//!     }
//!     game.try_play(action)?;
//! }
//! assert!(game.is_over());
//! assert_eq!(game.scores().len(), 2);
//! assert!(first.unwrap().starts_with(r#"{"kind":"place_tile","player":0,"tile":"#));
//!
//! // Its record replays to the same scores, every action checked again.
//! let json = write_record(&rules, &game, 7);
//! let replayed = carcassonne::replay("game.json", &json)?;
//! assert_eq!(replayed.scores(), game.scores());
//! # use carcassonne::write_record;
//! # Ok::<(), carcassonne::Error>(())
//! ```
//!
//! # A custom bot
//!
//! A [`Bot`] picks one of the legal actions; [`run_to_end`] lets one bot per seat answer
//! every decision. [`make_bot`] makes the built-in ones by name (`random`, `greedy`,
//! `mcts`, `mcts:N`: [`BOT_NAMES`]).
//!
//! ```
//! use carcassonne::{make_bot, run_to_end, Action, Bot, Game, RuleSet};
//!
//! /// Places a figure whenever it may, else takes the first legal action.
//! struct Eager;
//!
//! impl Bot for Eager {
//!     fn choose(&mut self, _game: &Game, actions: &[Action]) -> usize {
//!         actions.iter().position(|a| matches!(a, Action::PlaceFigure { .. })).unwrap_or(0)
//!     }
//! }
//!
//! let rules = RuleSet::embedded("base")?;
//! let mut game = rules.new_game(2, 3)?;
//! let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(Eager), make_bot("random", 3, 1)?];
//! run_to_end(&mut game, &mut bots, &mut Vec::new())?;
//! assert!(game.is_over());
//!
//! // An unknown bot is a typed error with the command line's message.
//! let err = make_bot("clever", 3, 1).err().unwrap();
//! assert_eq!(err.to_string(), "unknown bot 'clever' (known: random, greedy, mcts, mcts:N)");
//! # Ok::<(), carcassonne::Error>(())
//! ```
//!
//! # A rule set from TOML text, with options, and `simulate`
//!
//! A rule set names its tile files and its plugins with their options (README, "Rule sets");
//! given as text, its tile files are read from the working directory, else from the ones
//! compiled in. [`simulate()`] plays many games between bots on worker threads and returns
//! the [`Summary`] `carcassonne simulate --json` prints (docs/simulate.md).
//!
//! ```
//! use carcassonne::{simulate, RuleSet, SimulateOptions};
//!
//! let text = r#"
//! name = "base without farmers"
//! players = 3
//! [tiles]
//! base = "tiles/base.toml"
//! [[plugins]]
//! name = "base"
//! priority = 0
//! [plugins.options]
//! farmers = false
//! followers = 5
//! "#;
//! let rules = RuleSet::from_toml(text)?;
//! assert_eq!(rules.name(), "base without farmers");
//!
//! let options = SimulateOptions { games: 16, seed: 1, threads: 2, ..SimulateOptions::default() };
//! let summary = simulate(&rules, &options)?;
//! assert_eq!((summary.games, summary.players), (16, 3));
//! let fields = summary.points_by_source.iter().find(|p| p.source == "field").unwrap();
//! assert_eq!(fields.total, vec![0, 0, 0], "no farmers, no field points");
//!
//! // Bad TOML is a typed error naming the rule set, the line and the problem.
//! let err = RuleSet::from_toml(&text.replace("followers = 5", "followers = five")).unwrap_err();
//! assert_eq!(err.line, Some(11));
//! assert!(err.to_string().starts_with("<rules text>:11: "), "{err}");
//! # Ok::<(), carcassonne::Error>(())
//! ```
//!
//! # Errors
//!
//! Every call that can fail returns a typed error ([`Error`] gathers them): [`InputError`]
//! for a rule set that cannot be loaded, [`IllegalAction`], [`BotError`], [`PlayError`],
//! [`RecordError`] and [`SimulateError`]. Each displays as the one-line message the
//! command line prints.

#![deny(missing_docs)]

pub use carcassonne_core::record::GameRecord;
pub use carcassonne_core::{
    Action, Decision, DecisionKind, Game, GameOptions, IllegalAction, InputError, Pos, Rng, Rotation, Rules,
};
pub use carcassonne_engine::bots::{make_bot, Bot, GreedyBot, RandomBot, BOT_NAMES};
pub use carcassonne_engine::driver::{play_game, run_to_end};
pub use carcassonne_engine::error::{BotError, Error, PlayError, RecordError, SimulateError};
pub use carcassonne_engine::mcts::MctsBot;
pub use carcassonne_engine::notation::{show_action, show_decision, ShowAction, ShowDecision};
pub use carcassonne_engine::records::{read_record, record_json, replay, replay_record};
pub use carcassonne_engine::rule_set::RuleSet;
pub use carcassonne_engine::simulate::{simulate, SimulateOptions};
pub use carcassonne_engine::summary::Summary;

/// The JSON record of `game`, started from `seed` with `rules` (docs/record-format.md);
/// [`replay`] reads it back. Complete for a game started by [`RuleSet::new_game`] (which
/// keeps the log).
pub fn write_record(rules: &RuleSet, game: &Game, seed: u64) -> String {
    record_json(&rules.record(game, seed))
}

/// The legal actions of the current decision of `game` (none once it is over); a loop
/// that plays many games reuses one list with [`Game::legal_actions`] instead.
pub fn legal_actions(game: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out
}
