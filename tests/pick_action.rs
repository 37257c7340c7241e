//! `Game::pick_action` (the driver's path for bots that choose by count, e.g. the random
//! bot: plain tile placements are counted and located without being listed) picks exactly
//! `legal_actions()[i]` for every index `i`, and offers the same number of actions, in
//! every decision of random games: plain tiles, double tiles, tiles a plugin vetoes (the
//! river) or widens (bridges), figure steps and plugin decisions.

use carcassonne_cli::bots::{Bot, RandomBot};
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::{Action, DecisionKind, Game, Rng};

/// Checks every pick of `games` random games; returns how many tile decisions offered a
/// placement variant and how many offered a discard (a pass).
fn check_games(file: &str, games: u64) -> (usize, usize) {
    let rules = load_rules_file(file).unwrap().0;
    let (mut list, mut scratch) = (Vec::new(), Vec::new());
    let (mut checked, mut variants, mut discards) = (0usize, 0, 0);
    for seed in 1..=games {
        let mut g = Game::new(rules.clone(), 2, seed).unwrap();
        let mut bot = RandomBot(Rng::new(seed));
        while let Some(d) = g.decision() {
            g.legal_actions(&mut list);
            if d.kind == DecisionKind::PlaceTile {
                variants += list.iter().any(|a| matches!(a, Action::PlaceTileVariant { .. })) as usize;
                discards += list.contains(&Action::Pass) as usize;
            }
            for (i, want) in list.iter().enumerate() {
                let mut offered = None;
                let got = g.pick_action(&mut scratch, |n| {
                    offered = Some(n);
                    i
                });
                assert_eq!(offered, Some(list.len()), "{file} seed {seed} turn {}: count", g.st.turn);
                assert_eq!(got, Some(*want), "{file} seed {seed} turn {}: index {i}", g.st.turn);
                checked += 1;
            }
            // An index beyond the count picks nothing.
            assert_eq!(g.pick_action(&mut scratch, |n| n), None);
            let a: Action = list[bot.choose(&g, &list)];
            g.play_unchecked(a);
        }
    }
    assert!(checked > 1000 * games as usize, "{file}: only {checked} picks checked");
    (variants, discards)
}

#[test]
fn base_games_pick_what_the_list_holds() {
    check_games("config/base.toml", 20);
}

#[test]
fn river_games_pick_what_the_list_holds() {
    // The river vetoes placements (RIVER-2): those tiles take the list path.
    check_games("config/river.toml", 10);
}

#[test]
fn everything_games_pick_what_the_list_holds() {
    // Double tiles (the double spring and lake), bridges' variants, plugin decisions.
    check_games("config/2025-everything.toml", 4);
    check_games("config/classic-everything.toml", 4);
}

#[test]
fn bridge_games_pick_variants_and_discards() {
    // BRIDGE-3: placements only a bridge makes legal come after the counted plain ones,
    // and a tile placeable only so may be discarded (the pass after them).
    let (variants, discards) = check_games("config/bridge.toml", 400);
    assert!(variants > 100, "{variants} tile decisions with a bridge placement");
    assert!(discards > 0, "no tile decision offered a discard");
}

#[test]
fn a_finished_game_picks_nothing() {
    let rules = load_rules_file("config/base.toml").unwrap().0;
    let mut g = Game::new(rules, 2, 7).unwrap();
    let mut buf = Vec::new();
    let mut rng = Rng::new(7);
    while let Some(a) = g.pick_action(&mut buf, |n| rng.below(n)) {
        g.play_unchecked(a);
    }
    assert!(g.is_over());
    assert_eq!(g.pick_action(&mut buf, |_| 0), None);
}
