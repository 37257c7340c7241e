//! `simulate` as a library call: many games between bots on one rule set, played on
//! worker threads and summarized ([`Summary`], docs/simulate.md). The command line's
//! `carcassonne simulate` plays its games with [`play_games`] too, so both give the same
//! numbers for the same rule set, seed, games, players and bots.

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::{Game, Rng, Rules};
use rayon::prelude::*;

use crate::bots::make_bot;
use crate::driver::play_game;
use crate::error::SimulateError;
use crate::rule_set::RuleSet;
use crate::summary::{Accumulator, RunInfo, Summary};

/// Most worker threads a run accepts.
pub const MAX_THREADS: usize = 1024;

/// What [`simulate`] plays: `carcassonne simulate`'s options for one rule set, without
/// shards, records or output files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimulateOptions {
    /// Seats (None: the rule set's `players`).
    pub players: Option<usize>,
    /// Number of games.
    pub games: u64,
    /// Seed of the run: game i is played with seed `Rng::derive(seed, i)`.
    pub seed: u64,
    /// Bots, one per seat, cycled (`random`, `greedy`, `mcts`, `mcts:N`).
    pub bots: Vec<String>,
    /// Worker threads (1 to [`MAX_THREADS`]; the results do not depend on it).
    pub threads: usize,
}

impl Default for SimulateOptions {
    /// `carcassonne simulate`'s defaults: 1000 games, seed 1, random bots, the rule set's
    /// players, one thread per available core.
    fn default() -> Self {
        SimulateOptions {
            players: None,
            games: 1000,
            seed: 1,
            bots: vec!["random".into()],
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// Plays the games of `rules` as `carcassonne simulate` does and returns the summary its
/// `--json` prints for that rule set (the same numbers for the same rule set, seed, games,
/// players and bots; only the timing differs).
pub fn simulate(rules: &RuleSet, o: &SimulateOptions) -> Result<Summary, SimulateError> {
    let bad = SimulateError::Options;
    if o.games == 0 {
        return Err(bad("games 0: at least one game is needed".into()));
    }
    if o.threads == 0 || o.threads > MAX_THREADS {
        return Err(bad(format!("threads {}: 1 to {MAX_THREADS}", o.threads)));
    }
    check_bots(&o.bots, "")?;
    let (players, bots) = seats(rules.rules(), o.players, &o.bots, "")?;
    let threads = o.threads.min(usize::try_from(o.games).unwrap_or(usize::MAX));
    let pool = thread_pool(threads)?;
    let games = Games { first: 0, step: 1, count: o.games };
    let start = Instant::now();
    let acc = pool.install(|| {
        play_games::<(), SimulateError, _, _>(
            rules.rules(),
            players,
            &bots,
            games,
            o.seed,
            threads,
            false,
            |_, _, _| Ok(None),
            |_| Ok(()),
        )
    })?;
    let wall = start.elapsed().as_secs_f64();
    let run = RunInfo::new(rules.rules(), rules.file(), rules.text(), o.seed, bots, o.games, None);
    Ok(acc.summary(&run, threads, wall))
}

/// A pool of `threads` worker threads.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, SimulateError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimulateError::Threads { threads, message: e.to_string() })
}

/// Checks that `bots` names at least one bot and only known ones (`dashes` prefixes the
/// option's name: "--" for the command line, "" for the library call).
pub fn check_bots(bots: &[String], dashes: &str) -> Result<(), SimulateError> {
    if bots.is_empty() {
        return Err(SimulateError::Options(format!("{dashes}bots: name at least one bot")));
    }
    for b in bots {
        make_bot(b, 0, 0).map_err(|e| SimulateError::Options(format!("{dashes}bots: {e}")))?;
    }
    Ok(())
}

/// The seats of a rule set and the bot of each (`bots` cycled), or why not: `players`
/// outside what the rule set allows, more bots than seats (`dashes` prefixes the option
/// names: "--" for the command line, "" for the library call).
pub fn seats(
    rules: &Rules,
    players: Option<usize>,
    bots: &[String],
    dashes: &str,
) -> Result<(usize, Vec<String>), SimulateError> {
    let players = players.unwrap_or(rules.default_players);
    if players < rules.min_players || players > rules.max_players {
        return Err(SimulateError::Options(format!(
            "{dashes}players {players}: rule set '{}' allows {} to {}",
            rules.name, rules.min_players, rules.max_players
        )));
    }
    if bots.len() > players {
        return Err(SimulateError::Options(format!(
            "{dashes}bots names {} bots, but rule set '{}' is played by {players} players",
            bots.len(),
            rules.name
        )));
    }
    Ok((players, (0..players).map(|s| bots[s % bots.len()].clone()).collect()))
}

/// The games a run plays: indices `first, first + step, ...`, `count` of them (a shard
/// `I/N` of a run: `first` I, `step` N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Games {
    /// Index of the first game.
    pub first: u64,
    /// Distance between two games' indices.
    pub step: u64,
    /// Number of games.
    pub count: u64,
}

/// Games per work unit: small enough to balance the threads, large enough to be cheap.
const CHUNK: u64 = 8;
/// Work units per thread handed to the pool at once (bounds the memory of long runs).
const WAVE_PER_THREAD: u64 = 64;

/// Plays `games` of `rules` between `bots` (one per seat) on the current rayon pool, in
/// waves of chunks of consecutive games, and returns their totals, combined in game-index
/// order. Game i is played with seed `Rng::derive(seed, i)`, with its log kept when
/// `record`. `each(i, seed, game)` runs on the worker thread after each game (e.g. to write
/// its record) and may return a row; `take` receives the rows of each wave in game order
/// (the same for any thread count).
#[allow(clippy::too_many_arguments)]
pub fn play_games<R, E, F, T>(
    rules: &Arc<Rules>,
    players: usize,
    bots: &[String],
    games: Games,
    seed: u64,
    threads: usize,
    record: bool,
    each: F,
    mut take: T,
) -> Result<Accumulator, E>
where
    R: Send,
    E: From<SimulateError> + Send,
    F: Fn(u64, u64, &Game) -> Result<Option<R>, E> + Sync,
    T: FnMut(Vec<R>) -> Result<(), E>,
{
    let chunks = games.count.div_ceil(CHUNK);
    let wave = threads.max(1) as u64 * WAVE_PER_THREAD;
    let mut total = Accumulator::for_rules(rules, players);
    let mut start = 0;
    while start < chunks {
        let end = (start + wave).min(chunks);
        let parts: Vec<(Accumulator, Vec<R>)> = (start..end)
            .into_par_iter()
            .map(|c| {
                let mut acc = Accumulator::for_rules(rules, players);
                let mut rows = Vec::new();
                for k in c * CHUNK..((c + 1) * CHUNK).min(games.count) {
                    let i = games.first + k * games.step;
                    let game_seed = Rng::derive(seed, i);
                    let game = play_game(rules, players, game_seed, bots, record).map_err(|error| {
                        SimulateError::Game { rules: rules.name.clone(), index: i, seed: game_seed, error }
                    })?;
                    acc.add_game(&game);
                    rows.extend(each(i, game_seed, &game)?);
                }
                Ok((acc, rows))
            })
            .collect::<Result<_, E>>()?;
        for (p, rows) in parts {
            total.merge(&p).map_err(SimulateError::Merge)?;
            take(rows)?;
        }
        start = end;
    }
    Ok(total)
}
