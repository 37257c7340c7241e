//! Plays N random 2-player base games (for profilers): `cargo run --release --example profile_games -- 2000`.

use carcassonne::{run_to_end, Bot, GameOptions, RandomBot, Rng, RuleSet};

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let file = std::env::args().nth(2).unwrap_or_else(|| "config/base.toml".into());
    let rules = RuleSet::from_file(&file).expect("rules");
    let mut buf = Vec::with_capacity(256);
    let mut total = 0i64;
    let t = std::time::Instant::now();
    for seed in 0..n {
        let mut game = rules.start(GameOptions { players: 2, seed, ..GameOptions::default() }).expect("game");
        let mut bots: Vec<Box<dyn Bot>> =
            (0..2).map(|s| Box::new(RandomBot(Rng::new(seed ^ s))) as Box<dyn Bot>).collect();
        run_to_end(&mut game, &mut bots, &mut buf).expect("game");
        total += game.scores().iter().map(|&s| s as i64).sum::<i64>();
    }
    let dt = t.elapsed().as_secs_f64();
    println!("{n} games in {dt:.3}s = {:.0} games/s (score sum {total})", n as f64 / dt);
}
