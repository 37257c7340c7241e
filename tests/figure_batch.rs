//! `FigureBatch` (candidate placements asked about in lists: the portal's followers and the
//! shepherd through a portal, PD-PORTAL-1 and COMBO-SHEPHERD) keeps exactly the candidates
//! that `Rules::verdict` of each one's question and `Rules::allow_figure` keep one by one,
//! in the order they were added, with a default of yes and of no, through random games of
//! both everything rule sets.

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::plugin::{FigurePlacement, Query};
use carcassonne_core::{FigureBatch, Game, Rng, Rules, State};

/// Every feature of every placed part as a `portal_target` candidate for each figure kind;
/// returns how many the verdicts refused and how many the vetoes refused (default yes).
fn compare(rules: &Rules, st: &State, by: u8) -> (usize, usize) {
    let key = rules.query_key("portal_target").expect("portal_target is asked");
    let player = st.current;
    let (mut refused, mut vetoed) = (0, 0);
    for default in [true, false] {
        for kind in 0..rules.figure_kinds.len() as u8 {
            let mut batch = FigureBatch::new(player, default);
            let (mut want, mut got) = (Vec::new(), Vec::new());
            let mut keep = |c: &FigurePlacement, local: u8| got.push((c.kind, c.part, c.node, local));
            for (part, pp) in st.board.parts.iter().enumerate() {
                let part = part as u32;
                for local in 0..st.rotated(rules, part).features.len() as u8 {
                    let node = Some(pp.node_base + local as u32);
                    let q = Query { key, figure: None, kind: Some(kind), part: Some(part), node, by };
                    let placement = FigurePlacement { player, kind, part, node };
                    match (rules.verdict(st, &q, default), rules.allow_figure(st, &placement)) {
                        (true, true) => want.push((kind, part, node, local)),
                        (false, _) => refused += usize::from(default),
                        (true, false) => vetoed += usize::from(default),
                    }
                    if batch.add(q, local) {
                        batch.flush(rules, st, &mut keep);
                    }
                }
            }
            batch.flush(rules, st, &mut keep);
            assert_eq!(got, want, "kind {kind}, turn {}, default {default}", st.turn);
        }
    }
    (refused, vetoed)
}

#[test]
fn figure_batch_keeps_what_each_question_and_veto_keep() {
    for file in ["embedded:config/classic-everything.toml", "embedded:config/2025-everything.toml"] {
        let rules = load_rules_file(file).unwrap().0;
        let by = rules.plugin_names().iter().position(|&n| n == "portal").unwrap() as u8;
        let (mut refused, mut vetoed) = (0, 0);
        for seed in 1..=2u64 {
            let mut g = Game::new(rules.clone(), 2, seed).unwrap();
            let (mut rng, mut list) = (Rng::new(seed), Vec::new());
            while g.decision().is_some() {
                if g.st.turn % 9 == 4 {
                    let (r, v) = compare(&rules, &g.st, by);
                    (refused, vetoed) = (refused + r, vetoed + v);
                }
                g.legal_actions(&mut list);
                g.play_unchecked(list[rng.below(list.len())]);
            }
        }
        // Both filters refused candidates: the comparisons are not of lists that keep all.
        assert!(refused > 0 && vetoed > 0, "{file}: refused {refused}, vetoed {vetoed}");
    }
}
