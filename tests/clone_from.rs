//! `Game::clone_from` (the copy a search makes into one scratch game) gives the same game
//! as `clone`: the same state, field for field, and the same game from there on, whatever
//! the scratch game held before (another position, another rule set with other plugin
//! states, a longer board). `clone_without_log` is the same game without its record log.

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::{Action, Game, GameOptions, Rng};

/// Plays `game` to the end with actions drawn from `seed`; the final scores.
fn finish(mut game: Game, seed: u64) -> Vec<i32> {
    let (mut rng, mut list) = (Rng::new(seed), Vec::new());
    while game.decision().is_some() {
        game.legal_actions(&mut list);
        let a: Action = list[rng.below(list.len())];
        game.play_unchecked(a);
    }
    game.scores().to_vec()
}

/// Random games of `file`; every 9th decision the position is copied into `scratch`
/// (which holds whatever the last copy left, first a game of `other`).
fn check(file: &str, other: &str, games: u64) {
    let rules = load_rules_file(file).unwrap().0;
    let mut scratch = Game::new(load_rules_file(other).unwrap().0, 2, 99).unwrap();
    let mut copies = 0;
    for seed in 1..=games {
        let mut g = Game::new(rules.clone(), 2, seed).unwrap();
        let (mut rng, mut list) = (Rng::new(seed), Vec::new());
        let mut decisions = 0u32;
        while g.decision().is_some() {
            if decisions % 9 == 4 {
                scratch.clone_from(&g);
                assert_eq!(format!("{:?}", scratch.st), format!("{:?}", g.st), "{file} seed {seed}");
                let turn = g.st.turn;
                assert_eq!(finish(scratch.clone(), turn as u64), finish(g.clone(), turn as u64), "{file} seed {seed}");
                copies += 1;
            }
            g.legal_actions(&mut list);
            g.play_unchecked(list[rng.below(list.len())]);
            decisions += 1;
        }
    }
    assert!(copies > 10 * games, "{file}: only {copies} copies checked");
}

#[test]
fn base_copies_into_a_scratch_game_are_the_game() {
    check("config/base.toml", "config/princess-dragon.toml", 6);
}

#[test]
fn copies_with_plugin_states_are_the_game() {
    // Plugin states of other types in the scratch game are replaced, alike ones reused.
    check("config/princess-dragon.toml", "config/base.toml", 3);
    check("config/classic-everything.toml", "config/2025-everything.toml", 2);
    check("config/2025-everything.toml", "config/2025-everything.toml", 2);
}

#[test]
fn a_copy_without_the_log_is_the_same_game_without_a_log() {
    let rules = load_rules_file("config/base.toml").unwrap().0;
    let opts = GameOptions { players: 2, seed: 5, record: true, ..Default::default() };
    let mut g = Game::start(rules, opts).unwrap();
    let (mut rng, mut list) = (Rng::new(5), Vec::new());
    for _ in 0..40 {
        g.legal_actions(&mut list);
        g.play_unchecked(list[rng.below(list.len())]);
    }
    let copy = g.clone_without_log();
    assert!(g.st.log.as_ref().is_some_and(|l| l.len() > 40));
    assert!(copy.st.log.is_none());
    let mut logless = g.clone();
    logless.st.log = None;
    assert_eq!(format!("{:?}", copy.st), format!("{:?}", logless.st));
    assert_eq!(finish(copy, 1), finish(g, 1));
}
