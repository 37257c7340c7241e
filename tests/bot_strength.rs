//! Strength targets of the bots (issue 20), ignored by default: heavy, run them in release
//! (`cargo test --release --test bot_strength -- --ignored`). 2-player base games, seats
//! swapped every other game; the README's figures come from `examples/bot_strength.rs`.

use carcassonne_cli::bots::{make_bot, Bot};
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_cli::driver::run_to_end;
use carcassonne_core::{Game, Rng};

/// Win share of bot `a` against bot `b` over `games` games (ties halved).
fn win_share(a: &str, b: &str, games: u64) -> f64 {
    let rules = load_rules_file("config/base.toml").unwrap().0;
    let mut buf = Vec::new();
    let mut total = 0.0;
    for g in 0..games {
        let seed = Rng::derive(0x5EED, g);
        let a_seat = (g % 2) as usize;
        let mut bots: Vec<Box<dyn Bot>> =
            (0..2).map(|s| make_bot(if s == a_seat { a } else { b }, seed, s).unwrap()).collect();
        let mut game = Game::new(rules.clone(), 2, seed).unwrap();
        run_to_end(&mut game, &mut bots, &mut buf).unwrap();
        let s = game.scores();
        total += match s[a_seat].cmp(&s[1 - a_seat]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
    }
    total / games as f64
}

#[test]
#[ignore = "heavy: run in release"]
fn greedy_wins_at_least_90_percent_against_random() {
    let w = win_share("greedy", "random", 200);
    assert!(w >= 0.9, "greedy wins {w}");
}

#[test]
#[ignore = "heavy: run in release"]
fn mcts_wins_at_least_75_percent_against_greedy() {
    let w = win_share("mcts", "greedy", 200);
    assert!(w >= 0.75, "mcts wins {w}");
}

#[test]
#[ignore = "heavy: run in release"]
fn more_playouts_beat_fewer() {
    let w = win_share("mcts:300", "mcts:100", 200);
    assert!(w > 0.6, "mcts:300 wins {w}");
}
