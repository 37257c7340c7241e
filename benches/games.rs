//! Criterion benches: whole random games per rule set, legal-move generation, clone.
//! Throughput is reported in games (elements) per second.

use std::sync::Arc;

use carcassonne_cli::bots::{Bot, RandomBot};
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_cli::driver::run_to_end;
use carcassonne_core::{Game, Rng, Rules};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn rules(file: &str) -> Arc<Rules> {
    load_rules_file(file).expect("rule set").0
}

fn random_game(rules: &Arc<Rules>, seed: u64, buf: &mut Vec<carcassonne_core::Action>) -> Game {
    let mut game = Game::new(rules.clone(), 2, seed).expect("game");
    let mut bots: Vec<Box<dyn Bot>> = (0..2).map(|s| Box::new(RandomBot(Rng::new(seed ^ s))) as Box<dyn Bot>).collect();
    run_to_end(&mut game, &mut bots, buf).expect("game runs");
    game
}

fn full_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for name in ["base", "river"] {
        let r = rules(&format!("config/{name}.toml"));
        let mut seed = 0u64;
        let mut buf = Vec::with_capacity(256);
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                random_game(&r, seed, &mut buf)
            })
        });
    }
    group.finish();
}

/// Plays `turns` decisions of a seeded random game: a fixed mid-game position.
fn mid_game(rules: &Arc<Rules>, seed: u64, decisions: usize) -> Game {
    let mut game = Game::new(rules.clone(), 2, seed).expect("game");
    let mut rng = Rng::new(seed);
    let mut buf = Vec::new();
    for _ in 0..decisions {
        game.legal_actions(&mut buf);
        if buf.is_empty() {
            break;
        }
        let a = buf[rng.below(buf.len())];
        game.play_unchecked(a);
    }
    game
}

fn legal_moves(c: &mut Criterion) {
    let r = rules("config/base.toml");
    let game = mid_game(&r, 7, 70);
    let mut buf = Vec::with_capacity(256);
    c.bench_function("legal_actions/base_mid_game", |b| {
        b.iter(|| {
            game.legal_actions(&mut buf);
            buf.len()
        })
    });
    c.bench_function("clone/base_mid_game", |b| b.iter_batched(|| (), |_| game.clone(), BatchSize::SmallInput));
}

criterion_group!(benches, full_games, legal_moves);
criterion_main!(benches);
