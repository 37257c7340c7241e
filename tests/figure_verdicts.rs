//! `Rules::figure_verdicts` (the questions about a list of figures asked without writing
//! them out: `Plugin::answer_figures`, overridden by the castle and the classic dragon)
//! gives each figure the verdict `Rules::verdict` gives its `Query::about_figure` question
//! alone, for every question about figures the everything rule sets ask, with a default of
//! yes (a missing "no" shows) and of no (a stray "yes" shows), through random games.

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::plugin::Query;
use carcassonne_core::rules::VERDICT_BATCH;
use carcassonne_core::{FigureId, Game, Rng, Rules, State};

/// Questions about figures (PD-FAIRY-1, FD-FAIRY-1, PD-DRAGON-3, TOWER-4, PD-PRINCESS-1,
/// PD-PORTAL-1), as the plugins register them.
const KEYS: [&str; 5] = ["fairy_may_join", "eatable", "capturable", "princess_removable", "portal_target"];

/// Per key, how many verdicts about a live figure were "no" with a default of yes.
fn compare(rules: &Rules, st: &State, by: u8, nos: &mut [usize; KEYS.len()]) {
    let live: Vec<FigureId> = (0..st.figures.len() as FigureId).filter(|&i| st.figures[i as usize].alive).collect();
    for (k, name) in KEYS.iter().enumerate() {
        let Some(key) = rules.query_key(name) else { continue };
        for ids in live.chunks(VERDICT_BATCH) {
            for defaults in [u64::MAX, 0, 0x5555_5555_5555_5555] {
                let got = rules.figure_verdicts(st, key, by, ids, defaults);
                for (i, &id) in ids.iter().enumerate() {
                    let q = Query::about_figure(key, id, &st.figures[id as usize], by);
                    let want = rules.verdict(st, &q, defaults & (1 << i) != 0);
                    assert_eq!(
                        got & (1 << i) != 0,
                        want,
                        "{name} about figure {id} (turn {}, defaults {defaults:x})",
                        st.turn
                    );
                    nos[k] += usize::from(defaults == u64::MAX && !want);
                }
            }
        }
    }
}

#[test]
fn figure_verdicts_are_those_of_each_question() {
    for file in ["embedded:config/classic-everything.toml", "embedded:config/2025-everything.toml"] {
        let rules = load_rules_file(file).unwrap().0;
        let by = rules.plugin_names().iter().position(|n| n.starts_with("fairy")).unwrap() as u8;
        let mut nos = [0; KEYS.len()];
        for seed in 1..=3u64 {
            let mut g = Game::new(rules.clone(), 2, seed).unwrap();
            let (mut rng, mut list) = (Rng::new(seed), Vec::new());
            while g.decision().is_some() {
                if g.st.turn.is_multiple_of(4) {
                    compare(&rules, &g.st, by, &mut nos);
                }
                g.legal_actions(&mut list);
                g.play_unchecked(list[rng.below(list.len())]);
            }
        }
        // The comparisons saw vetoes, not only silence: the fairies' question and the
        // dragons' were answered "no" about some figures.
        assert!(nos[0] > 0 && nos[1] > 0, "{file}: refusals {nos:?}");
        eprintln!("{file}: {nos:?}");
    }
}
