//! Fixed positions shared by the criterion benches (`benches/games.rs`) and the tests that
//! check what the benches measure (`tests/clone_allocations.rs`).

use std::sync::Arc;

use carcassonne_core::{Game, Rng, Rules};

/// Plays `decisions` random decisions of a seeded game: a fixed mid-game position.
pub fn mid_game(rules: &Arc<Rules>, seed: u64, decisions: usize) -> Game {
    let mut game = Game::new(rules.clone(), rules.default_players, seed).expect("game");
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
