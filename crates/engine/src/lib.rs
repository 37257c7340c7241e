//! The Carcassonne engine with everything a program needs beside the core
//! (`carcassonne-core`): the built-in plugins and the rule sets compiled in
//! ([`builtin`], [`RuleSet`]), the bots ([`bots`], [`mcts`]), playing games to their end
//! ([`driver`]), records ([`records`]), `simulate` ([`simulate()`], [`summary`]), typed
//! errors ([`error`]) and the record notation of actions and decisions ([`notation`]).
//! The command line (`carcassonne-cli`), the `carcassonne` library and the Python bindings
//! are built on it.

#![deny(missing_docs)]

pub mod bots;
pub mod builtin;
pub mod driver;
pub mod error;
pub mod mcts;
pub mod notation;
pub mod records;
pub mod rule_set;
pub mod simulate;
pub mod summary;

pub use error::{BotError, Error, PlayError, RecordError, SimulateError};
pub use rule_set::RuleSet;
pub use simulate::{simulate, SimulateOptions};
