//! Typed errors of the engine, one enum per layer: making a bot ([`BotError`]), playing a
//! game to its end ([`PlayError`]), reading and replaying a record ([`RecordError`]),
//! `simulate` ([`SimulateError`]), and [`Error`], any of them (with the core's
//! [`InputError`] for a rule set that cannot be loaded and [`IllegalAction`] for an action
//! a game refuses). Each displays as the one-line message the command line prints.

use carcassonne_core::replay::ReplayError;
use carcassonne_core::{DecisionKind, IllegalAction, InputError};

/// Why a bot cannot be made from its name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BotError {
    /// No bot has this name.
    #[error("unknown bot '{name}' (known: {known})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names known, comma-separated.
        known: String,
    },
    /// `mcts:N` with an N that is no number of playouts, or out of range.
    #[error("{0}")]
    Playouts(String),
}

/// Why a game stopped before its end, or could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game cannot start with these options (e.g. a player count the rule set does not
    /// allow, a setup no plugin completes).
    #[error("{0}")]
    Start(String),
    /// A bot of the game cannot be made.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// A decision without any legal action (a plugin's mistake).
    #[error("turn {turn}: a decision of player {player} has no legal action ({kind:?})")]
    NoLegalAction {
        /// The turn (from 1).
        turn: u32,
        /// The seat that had to decide.
        player: u8,
        /// The decision.
        kind: DecisionKind,
    },
    /// A plugin failed (e.g. a run-time plugin's hook panicked) and stopped the game.
    #[error("{0}")]
    Stopped(String),
}

/// Why a game record cannot be read or replayed. The messages start with the record's
/// name (its file), as `carcassonne replay` prints them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// Not a JSON record (or a key is wrong): the line and what is wrong.
    #[error("{file}:{line}: {message}")]
    Json {
        /// The record's name.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The record's rule set cannot be loaded, or no longer resolves as recorded.
    #[error(transparent)]
    Rules(#[from] InputError),
    /// The record is of another format, or an action of it is not legal when replayed.
    #[error("{file}: {error}")]
    Replay {
        /// The record's name.
        file: String,
        /// The turn and the reason.
        error: ReplayError,
    },
}

/// Why `simulate` cannot run, or stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimulateError {
    /// Options out of range (no games, no bots, a player count the rule set does not
    /// allow, ...): the option and the problem.
    #[error("{0}")]
    Options(String),
    /// A game failed: the rule set, the game's index and seed, and why.
    #[error("rule set '{rules}', game {index} (seed {seed}): {error}")]
    Game {
        /// The rule set's name.
        rules: String,
        /// Index of the game in the run.
        index: u64,
        /// The game's seed.
        seed: u64,
        /// Why it failed.
        error: PlayError,
    },
    /// The worker threads cannot be started.
    #[error("cannot start {threads} threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        message: String,
    },
    /// Totals of different shapes were merged (a bug).
    #[error("{0}")]
    Merge(String),
}

impl SimulateError {
    /// Whether the error is bad input (options), rather than a failure while playing.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, SimulateError::Options(_))
    }
}

/// Any error of the engine's front door.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A rule set (or its tile or plugin files) that cannot be loaded: the file, the line
    /// where known, and the problem.
    #[error(transparent)]
    Rules(#[from] InputError),
    /// An action the game refuses: illegal, of another decision, or after the end.
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
    /// A bot that cannot be made.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// A game that cannot start or stopped before its end.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A record that cannot be read or replayed.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// `simulate` refused its options or stopped.
    #[error(transparent)]
    Simulate(#[from] SimulateError),
}

/// An error message as the command line prints it: on one line (lines joined by "; "),
/// control characters escaped (a name from a file cannot drive the terminal).
pub fn one_line(message: &str) -> String {
    let joined = message.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ");
    carcassonne_core::error::escape_controls(&joined)
}
