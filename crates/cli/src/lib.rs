//! The `carcassonne` command line: play, replay, simulate, compare, merge and render.

pub mod charts;
mod cmd_compare;
mod cmd_merge;
mod cmd_play;
mod cmd_render;
mod cmd_replay;
pub mod cmd_rules;
mod cmd_simulate;
pub mod compare;
pub mod game_row;
pub mod html;
pub mod human;
pub mod output;
pub mod scenario;
pub mod stats;
pub mod svg;
pub mod svg_pieces;

// The engine's modules, under the paths the command's code (and its tests) name them by.
pub use carcassonne_engine::{bots, builtin, driver, mcts, summary};
pub use carcassonne_engine::{simulate, SimulateOptions};

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code for bad input (config, records, arguments).
pub const EXIT_BAD_INPUT: u8 = 2;

/// An error the CLI reports: one line on stderr and an exit code.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// Bad input: exit code 2.
    pub fn input(m: impl std::fmt::Display) -> Self {
        CliError { code: EXIT_BAD_INPUT, message: m.to_string() }
    }
    /// Anything else: exit code 1.
    pub fn failure(m: impl std::fmt::Display) -> Self {
        CliError { code: 1, message: m.to_string() }
    }
}

impl From<carcassonne_engine::SimulateError> for CliError {
    /// Bad options are bad input (exit code 2); a failed game or thread pool, exit code 1.
    fn from(e: carcassonne_engine::SimulateError) -> Self {
        if e.is_bad_input() {
            CliError::input(e)
        } else {
            CliError::failure(e)
        }
    }
}

#[derive(Parser)]
#[command(
    name = "carcassonne",
    version,
    about = "Carcassonne rules engine: expansions as plugins",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play one game between bots (or people: --human) and print the final scores.
    Play(cmd_play::PlayArgs),
    /// Re-check every action of a game record and print its final scores.
    Replay(cmd_replay::ReplayArgs),
    /// Play many games between bots and print a summary (docs/simulate.md).
    Simulate(cmd_simulate::SimulateArgs),
    /// Combine the JSON summaries of shards into the summary of the whole run.
    Merge(cmd_merge::MergeArgs),
    /// Draw the board of a game record as an SVG picture, or the game as an HTML page.
    Render(cmd_render::RenderArgs),
    /// List the embedded rule sets and the built-in plugins with their options.
    Rules(cmd_rules::RulesArgs),
    /// Compare rule sets (or bot line-ups) on the same seeds, with 95% intervals
    /// (docs/compare.md).
    Compare(cmd_compare::CompareArgs),
}

/// Runs the CLI with the process arguments.
pub fn main() -> ExitCode {
    init_tracing();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // --help, --version
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // `carcassonne` alone: the help, on stderr, exit 2 (as clap does).
                let _ = e.print();
                return ExitCode::from(EXIT_BAD_INPUT);
            }
            eprintln!("{} (see --help)", argument_error_line(&e.render().to_string()));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let res = match cli.cmd {
        Cmd::Play(a) => cmd_play::run(a),
        Cmd::Replay(a) => cmd_replay::run(a),
        Cmd::Simulate(a) => cmd_simulate::run(a),
        Cmd::Merge(a) => cmd_merge::run(a),
        Cmd::Render(a) => cmd_render::run(a),
        Cmd::Rules(a) => cmd_rules::run(a),
        Cmd::Compare(a) => cmd_compare::run(a),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", one_line(&e.message));
            ExitCode::from(e.code)
        }
    }
}

/// clap's error text on one line: what is wrong with which argument (its first line, with
/// the next when the first ends with ':', e.g. "...were not provided:"), then its tips
/// ("tip: a similar argument exists: '--games'").
pub fn argument_error_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut line = lines.next().unwrap_or("error: bad arguments").to_string();
    if line.ends_with(':') {
        if let Some(next) = lines.next() {
            line = format!("{line} {next}");
        }
    }
    for tip in lines.filter(|l| l.starts_with("tip:")) {
        line = format!("{line}; {tip}");
    }
    line
}

/// An error message as the CLI prints it: on one line (lines joined by "; "), control
/// characters escaped (a name from a file cannot drive the terminal).
pub fn one_line(message: &str) -> String {
    carcassonne_engine::error::one_line(message)
}

/// `tracing` output on stderr, silent unless `RUST_LOG` is set.
fn init_tracing() {
    if std::env::var_os("RUST_LOG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            // Colour codes only on a terminal (not in a log file or a pipe).
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .try_init();
    }
}
