//! One game between a random player and the greedy bot, every action shown in the record
//! notation, then its record replayed (uses only the `carcassonne` library):
//! `cargo run --example random_game -- [RULES] [SEED]` (RULES: an embedded rule set's
//! name, a file, or TOML text; default `base`).

use carcassonne::{make_bot, show_action, show_decision, write_record, Rng, RuleSet};

fn main() -> Result<(), carcassonne::Error> {
    let spec = std::env::args().nth(1).unwrap_or_else(|| "base".into());
    let seed: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = RuleSet::load(&spec)?;
    let mut game = rules.new_game(2, seed)?;
    let mut rng = Rng::new(seed);
    let mut greedy = make_bot("greedy", seed, 1)?;
    let mut legal = Vec::new();
    while let Some(decision) = game.decision() {
        game.legal_actions(&mut legal);
        let i = match decision.player {
            0 => rng.below(legal.len()),
            _ => greedy.choose(&game, &legal),
        };
        println!("{} -> {}", show_decision(&game, decision), show_action(&game, legal[i]));
        game.try_play(legal[i])?;
    }
    let replayed = carcassonne::replay("random_game.json", &write_record(&rules, &game, seed))?;
    assert_eq!(replayed.scores(), game.scores());
    println!("{}: final scores {:?} (random, greedy); the record replays", rules.name(), game.scores());
    Ok(())
}
