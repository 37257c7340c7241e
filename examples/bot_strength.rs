//! Strength of one bot against another on 2-player games, seats swapped every other game
//! (the benchmark behind the README's bot figures; not a test):
//! `cargo run --release --example bot_strength -- mcts greedy 200 [RULES] [THREADS]`.
//!
//! Prints the first bot's win rate (ties shared) with its 95% interval, the mean scores,
//! and the first bot's time per decision (decisions with one legal action excluded).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use carcassonne::{make_bot, run_to_end, Action, Bot, Game, GameOptions, Rng, RuleSet};

/// A bot that counts its decisions and the time they took.
struct Timed {
    bot: Box<dyn Bot>,
    stats: Arc<Mutex<(u64, Duration)>>,
}

impl Bot for Timed {
    fn choose(&mut self, game: &Game, actions: &[Action]) -> usize {
        let t = Instant::now();
        let i = self.bot.choose(game, actions);
        if actions.len() > 1 {
            let mut s = self.stats.lock().unwrap();
            s.0 += 1;
            s.1 += t.elapsed();
        }
        i
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = args.first().cloned().unwrap_or_else(|| "mcts".into());
    let b = args.get(1).cloned().unwrap_or_else(|| "greedy".into());
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let file = args.get(3).cloned().unwrap_or_else(|| "config/base.toml".into());
    let threads: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = RuleSet::from_file(&file).expect("rules");
    let timing = Arc::new(Mutex::new((0u64, Duration::ZERO)));
    let results = Mutex::new(Vec::new());
    let wall = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (rules, a, b, timing, results) = (&rules, &a, &b, &timing, &results);
            scope.spawn(move || {
                let mut buf = Vec::with_capacity(256);
                for g in (t..games).step_by(threads as usize) {
                    let seed = Rng::derive(0x5EED, g);
                    let a_seat = (g % 2) as usize;
                    let mut bots: Vec<Box<dyn Bot>> = (0..2)
                        .map(|seat| {
                            let name = if seat == a_seat { a } else { b };
                            let bot = make_bot(name, seed, seat).expect("bot");
                            if seat == a_seat {
                                Box::new(Timed { bot, stats: timing.clone() }) as Box<dyn Bot>
                            } else {
                                bot
                            }
                        })
                        .collect();
                    let mut game =
                        rules.start(GameOptions { players: 2, seed, ..GameOptions::default() }).expect("game");
                    run_to_end(&mut game, &mut bots, &mut buf).expect("game");
                    let s = game.scores();
                    let (sa, sb) = (s[a_seat], s[1 - a_seat]);
                    let share = if sa > sb {
                        1.0
                    } else if sa == sb {
                        0.5
                    } else {
                        0.0
                    };
                    results.lock().unwrap().push((share, sa, sb));
                }
            });
        }
    });
    let r = results.into_inner().unwrap();
    let n = r.len() as f64;
    let p = r.iter().map(|x| x.0).sum::<f64>() / n;
    let var = r.iter().map(|x| (x.0 - p) * (x.0 - p)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    let ma = r.iter().map(|x| x.1 as f64).sum::<f64>() / n;
    let mb = r.iter().map(|x| x.2 as f64).sum::<f64>() / n;
    let (decisions, spent) = *timing.lock().unwrap();
    println!(
        "{a} vs {b} on {file}, {n} games: {a} wins {:.1}% (95% CI {:.1}% to {:.1}%), mean score {ma:.1} vs {mb:.1}; \
         {a}: {decisions} decisions, {:.3} ms per decision; wall {:.1} s",
        p * 100.0,
        (p - half) * 100.0,
        (p + half) * 100.0,
        spent.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
        wall.elapsed().as_secs_f64()
    );
}
