//! Criterion benches for every rule set in `config/` (one group per workload):
//! - `random_game/<rules>`: a fixed batch of 64 seeded random 2-player games (all
//!   different, as in `simulate` or AI playouts: a few games repeated would let the branch
//!   predictor learn them), throughput in turns;
//! - `legal_actions/<rules>`: legal-action generation on fixed mid-game positions;
//! - `replay/<rules>`: replaying a fixed record (every action re-checked), in turns;
//! - `clone/<rules>`: cloning a mid-game state and dropping the clone (a tree search's
//!   cycle; the allocator reuses the memory as it would there);
//! - `clone_from/<rules>`: copying that state into a scratch game with `clone_from` (what
//!   the MCTS bot does at every playout: no allocation).
//!
//! Inputs are fixed by seed. A rule set that cannot be loaded here (e.g. a house-rule
//! plugin library not built) is reported and skipped.

/// The binary's allocator (src/main.rs), so that the benches measure what `carcassonne` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::sync::Arc;

use carcassonne_cli::bots::{Bot, RandomBot};
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_cli::driver::run_to_end;
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::replay_full;
use carcassonne_core::{Action, Game, Rng, Rules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../tests/position_util/mod.rs"]
mod position_util;
use position_util::mid_game;

/// Games per `random_game` iteration (distinct seeds).
const BATCH: u64 = 64;

/// Every rule set under config/ (not the tile data), by file name.
fn rule_sets() -> Vec<(String, Arc<Rules>, String)> {
    let mut files: Vec<_> = std::fs::read_dir("config")
        .expect("config/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let file = f.to_string_lossy().into_owned();
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        match load_rules_file(&file) {
            Ok((rules, text)) => out.push((name, rules, text)),
            Err(e) => eprintln!("skipping {file}: {e}"),
        }
    }
    out
}

fn random_game(rules: &Arc<Rules>, seed: u64, buf: &mut Vec<Action>) -> Game {
    let players = rules.default_players;
    let mut game = Game::new(rules.clone(), players, seed).expect("game");
    let mut bots: Vec<Box<dyn Bot>> =
        (0..players as u64).map(|s| Box::new(RandomBot(Rng::new(seed ^ (s << 32)))) as Box<dyn Bot>).collect();
    run_to_end(&mut game, &mut bots, buf).expect("game runs");
    game
}

fn benches(c: &mut Criterion) {
    let sets = rule_sets();
    let mut buf = Vec::with_capacity(256);

    let mut group = c.benchmark_group("random_game");
    group.sample_size(20);
    for (name, rules, _) in &sets {
        let turns: u64 = (0..BATCH).map(|s| random_game(rules, s, &mut buf).st.turn as u64 - 1).sum();
        group.throughput(Throughput::Elements(turns));
        group.bench_function(name.as_str(), |b| {
            b.iter(|| (0..BATCH).map(|s| random_game(rules, s, &mut buf).scores()[0]).sum::<i32>())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("legal_actions");
    for (name, rules, _) in &sets {
        let positions: Vec<Game> = (0..16).map(|s| mid_game(rules, 100 + s, 60)).collect();
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|g| {
                        g.legal_actions(&mut buf);
                        buf.len()
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("replay");
    for (name, rules, text) in &sets {
        let file = format!("config/{name}.toml");
        let players = rules.default_players;
        let bots = vec!["random".to_string()];
        let game = carcassonne_cli::driver::play_game(rules, players, 7, &bots, true).expect("game");
        let rec = GameRecord::from_game(&game, &file, Some(text), 7);
        group.throughput(Throughput::Elements(rec.turns.len() as u64));
        group.bench_function(name.as_str(), |b| {
            b.iter(|| replay_full(&rec, rules.clone()).expect("replays").scores()[0])
        });
    }
    group.finish();

    let mut group = c.benchmark_group("clone");
    for (name, rules, _) in &sets {
        let game = mid_game(rules, 7, 70);
        group.bench_function(name.as_str(), |b| b.iter(|| game.clone()));
    }
    group.finish();

    let mut group = c.benchmark_group("clone_from");
    for (name, rules, _) in &sets {
        let game = mid_game(rules, 7, 70);
        let mut scratch = mid_game(rules, 8, 20);
        group.bench_function(name.as_str(), |b| b.iter(|| scratch.clone_from(black_box(&game))));
    }
    group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
