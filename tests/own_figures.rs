//! `State::own_figures` (the seats' figure bit sets, kept by `add_figure` and
//! `remove_figure`) names exactly the live figures of a seat (or the neutral ones: the
//! dragons, the fairies), in id order: through random
//! games of the richest rule sets (figures placed, moved, eaten, captured, scored and their
//! slots reused by other seats), and past the bit sets' reach (a list of more than
//! `OWN_BITS` figures is scanned).

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::state::{NEUTRAL, OWN_BITS};
use carcassonne_core::{FigureId, Game, Rng, State};

/// The live figures of `seat`, by a scan of the figure list.
fn scanned(st: &State, seat: u8) -> Vec<FigureId> {
    (st.figures.iter().enumerate()).filter(|(_, f)| f.alive && f.owner == seat).map(|(i, _)| i as FigureId).collect()
}

fn assert_own(st: &State, what: &str) {
    for seat in (0..st.players as u8).chain([NEUTRAL]) {
        assert_eq!(st.own_figures(seat).collect::<Vec<_>>(), scanned(st, seat), "{what}, seat {seat}");
    }
}

#[test]
fn own_figures_follow_random_games() {
    for (file, players) in [
        ("embedded:config/classic-everything.toml", 3),
        ("embedded:config/2025-everything.toml", 2),
        ("embedded:config/tower.toml", 4),
    ] {
        let rules = load_rules_file(file).unwrap().0;
        let mut neutral_seen = 0;
        for seed in 1..=4u64 {
            let mut g = Game::new(rules.clone(), players, seed).unwrap();
            let (mut rng, mut list) = (Rng::new(seed), Vec::new());
            while g.decision().is_some() {
                assert_own(&g.st, &format!("{file} seed {seed} turn {}", g.st.turn));
                neutral_seen += g.st.own_figures(NEUTRAL).count();
                g.legal_actions(&mut list);
                g.play_unchecked(list[rng.below(list.len())]);
            }
            assert_own(&g.st, &format!("{file} seed {seed} at the end"));
        }
        // The everything rule sets have neutral figures (a dragon, a fairy) on the board.
        assert_eq!(neutral_seen > 0, !file.contains("tower"), "{file}");
    }
}

#[test]
fn a_list_longer_than_the_bit_sets_is_scanned() {
    let rules = load_rules_file("embedded:config/base.toml").unwrap().0;
    let mut g = Game::new(rules.clone(), 3, 1).unwrap();
    let st = &mut g.st;
    // OWN_BITS + 10 figures on the start tile (no feature: no follower count to keep),
    // dealt round the three seats.
    let ids: Vec<FigureId> = (0..OWN_BITS + 10).map(|i| st.add_figure(&rules, (i % 3) as u8, 0, 0, None)).collect();
    assert_eq!(ids.len(), st.figures.len());
    assert_own(st, "every figure placed");
    assert_eq!(st.own_figures(1).count(), (0..OWN_BITS + 10).filter(|i| i % 3 == 1).count());
    // Remove some below the reach and some beyond it; the list keeps its length.
    for id in [0, 4, 50, OWN_BITS as FigureId - 1, OWN_BITS as FigureId + 2] {
        st.remove_figure(&rules, id, carcassonne_core::RemoveReason::Scored);
    }
    assert_own(st, "after removals past the reach");
    // Back within reach: the slots emptied above are reused, by other seats than before.
    while st.figures.len() > OWN_BITS {
        st.figures.pop();
    }
    let mut live: Vec<FigureId> = (0..st.figures.len() as FigureId).filter(|&i| st.figures[i as usize].alive).collect();
    live.sort_unstable();
    for &id in live.iter().step_by(7) {
        st.remove_figure(&rules, id, carcassonne_core::RemoveReason::Scored);
    }
    let again: Vec<FigureId> = (0..6).map(|i| st.add_figure(&rules, (i % 3) as u8, 0, 0, None)).collect();
    assert!(again.iter().all(|&id| (id as usize) < OWN_BITS));
    assert_own(st, "slots reused by other seats");
}
