//! The cost of the run-time plugin boundary: random 2-player base games (the same 32
//! seeds per iteration, so every variant plays the same games) with
//! - `base`: no extra plugin;
//! - `base+builtin_noop`: a built-in no-op plugin subscribed to every hook (the engine's
//!   own dispatch cost);
//! - `base+dynamic_noop`: the no-op plugin file (`tests/fixtures/plugins/probe`, default
//!   options) subscribed to every hook (dispatch + library boundary);
//! - `base+dynamic_monastery9`: the example plugin file `house-monastery` with `points = 9`
//!   (one hook, scores unchanged): a realistic house rule;
//! - `princess_builtin` / `princess_file` (`config/princess-dragon.toml`) and
//!   `abbot_builtin` / `abbot_file` (`config/abbot.toml`): the ports of
//!   `plugins/examples/` against the built-in plugins (the same games).
//!
//! `cargo bench --bench dynamic`. Wall times are noisy on a shared machine:
//! `CARC_BENCH_TABLE=50 cargo bench --bench dynamic` prints the best time of each variant
//! over 50 interleaved rounds instead. For exact
//! instruction counts, `CARC_BENCH_VARIANT=NAME` plays the 32 games of one variant
//! `CARC_BENCH_REPS` (10) times and exits, e.g. under `valgrind --tool=callgrind
//! target/release/deps/dynamic-*` (subtract a run with `CARC_BENCH_REPS=0`: loading).

#[path = "../tests/plugin_util/mod.rs"]
mod plugin_util;

/// The binary's allocator (src/main.rs), so that the benches measure what `carcassonne` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;

use carcassonne_cli::bots::{Bot, RandomBot};
use carcassonne_cli::builtin::{factories, read_rules_text};
use carcassonne_cli::driver::run_to_end;
use carcassonne_core::config::{disk_resolver, load_rules_with, PluginFactory};
use carcassonne_core::{Game, Hooks, Plugin, Rng, Rules};
use criterion::{criterion_group, Criterion, Throughput};
use serde::{Deserialize, Serialize};

/// Subscribes to every hook and does nothing: the engine's own dispatch cost.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct NoOp {}

impl Plugin for NoOp {
    fn name(&self) -> &str {
        "noop"
    }
    fn hooks(&self) -> Hooks {
        Hooks((1 << Hooks::COUNT) - 1)
    }
}

const SEEDS: u64 = 32;

fn rules(extra: &str) -> Arc<Rules> {
    let file = "config/base.toml";
    let text = read_rules_text(file).expect("config/base.toml") + extra;
    let mut f = factories();
    f.push(PluginFactory {
        name: "noop",
        summary: "bench: no-op on every hook",
        requires: &[],
        conflicts: &[],
        build: carcassonne_core::build_from_options::<NoOp>,
    });
    let loader = carcassonne_dynamic::disk_loader(file);
    load_rules_with(file, &text, &disk_resolver(file), &f, Some(&loader)).expect("rule set")
}

fn games(rules: &Arc<Rules>, buf: &mut Vec<carcassonne_core::Action>) -> i64 {
    let mut total = 0;
    for seed in 1..=SEEDS {
        let mut game = Game::new(rules.clone(), 2, seed).expect("game");
        let mut bots: Vec<Box<dyn Bot>> =
            (0..2).map(|s| Box::new(RandomBot(Rng::new(seed ^ s))) as Box<dyn Bot>).collect();
        run_to_end(&mut game, &mut bots, buf).expect("game runs");
        total += game.scores().iter().map(|&s| s as i64).sum::<i64>();
    }
    total
}

fn variants() -> Vec<(&'static str, Arc<Rules>)> {
    let files = plugin_util::build(true);
    let path = |lib: &str| files[lib].display().to_string().replace('\\', "/");
    let (probe, monastery) = (path("carcassonne_test_probe"), path("house_monastery"));
    vec![
        ("base", rules("")),
        ("base+builtin_noop", rules("\n[[plugins]]\nname = \"noop\"\npriority = 5\n")),
        ("base+dynamic_noop", rules(&format!("\n[[plugins]]\npath = \"{probe}\"\npriority = 5\n"))),
        (
            "base+dynamic_monastery9",
            rules(&format!("\n[[plugins]]\npath = \"{monastery}\"\npriority = 5\noptions = {{ points = 9 }}\n")),
        ),
    ]
}

/// Ports of built-in plugins against the built-ins, on their own rule sets (same games):
/// `NAME_builtin` and `NAME_file`.
fn port_variants() -> Vec<(&'static str, Arc<Rules>)> {
    let files = plugin_util::build(true);
    let ported = |config: &str, plugin: &str, lib: &str| {
        let file = format!("config/{config}");
        let text = read_rules_text(&file).expect("rule set");
        let entry = format!("[[plugins]]\nname = \"{plugin}\"\n");
        let path = files[lib].display().to_string().replace('\\', "/");
        let text = text.replace(&entry, &format!("[[plugins]]\npath = \"{path}\"\n"));
        let loader = carcassonne_dynamic::disk_loader(&file);
        load_rules_with(&file, &text, &disk_resolver(&file), &factories(), Some(&loader)).expect("rule set")
    };
    vec![
        ("princess_builtin", ported("princess-dragon.toml", "none", "house_princess")),
        ("princess_file", ported("princess-dragon.toml", "princess", "house_princess")),
        ("abbot_builtin", ported("abbot.toml", "none", "house_abbot")),
        ("abbot_file", ported("abbot.toml", "abbot", "house_abbot")),
    ]
}

fn boundary(c: &mut Criterion) {
    let variants = variants();
    // The no-op plugins change nothing: the same games, the same scores.
    let mut buf = Vec::with_capacity(256);
    let reference = games(&variants[0].1, &mut buf);
    for (name, r) in &variants {
        assert_eq!(games(r, &mut buf), reference, "{name} changed the games");
    }
    let mut group = c.benchmark_group("dynamic");
    group.throughput(Throughput::Elements(SEEDS));
    for (name, r) in &variants {
        group.bench_function(*name, |b| b.iter(|| games(r, &mut buf)));
    }
    // A port plays the built-in's games.
    let ports = port_variants();
    for pair in ports.chunks(2) {
        assert_eq!(games(&pair[0].1, &mut buf), games(&pair[1].1, &mut buf), "{} changed the games", pair[1].0);
    }
    for (name, r) in &ports {
        group.bench_function(*name, |b| b.iter(|| games(r, &mut buf)));
    }
    group.finish();
}

criterion_group!(benches, boundary);

/// The best (least disturbed) time of each variant over interleaved rounds, as a table.
fn table(rounds: usize) {
    let v = variants();
    let mut buf = Vec::with_capacity(256);
    let mut best = vec![f64::MAX; v.len()];
    for _ in 0..rounds {
        for (i, (_, r)) in v.iter().enumerate() {
            let t = std::time::Instant::now();
            std::hint::black_box(games(r, &mut buf));
            best[i] = best[i].min(t.elapsed().as_secs_f64());
        }
    }
    for (i, (name, _)) in v.iter().enumerate() {
        let us = best[i] * 1e6 / SEEDS as f64;
        println!("{name:<28} {us:8.2} us/game {:+7.1}%", 100.0 * (best[i] / best[0] - 1.0));
    }
}

fn main() {
    if let Ok(rounds) = std::env::var("CARC_BENCH_TABLE") {
        table(rounds.parse().unwrap_or(50));
        return;
    }
    if let Ok(name) = std::env::var("CARC_BENCH_VARIANT") {
        let mut v = variants();
        v.extend(port_variants());
        let (_, r) = v.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no variant '{name}'"));
        let mut buf = Vec::with_capacity(256);
        let reps: u64 = std::env::var("CARC_BENCH_REPS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
        let total: i64 = (0..reps).map(|_| games(r, &mut buf)).sum();
        println!("{name}: {} games, score sum {total}", reps * SEEDS);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
