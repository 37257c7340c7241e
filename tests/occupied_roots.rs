//! `State::occupied_roots` (final scoring's features: BASE-10, LARGE-2's inn roads and
//! cathedral cities, ABBOT-1's gardens) is the walk it replaced: every root of the graph
//! with followers on it that was not scored, in node order, each once. Checked after every
//! action of random games of rule sets with figures that are not followers (builder,
//! pig, fairy, dragon, barn, shepherd, abbot) and features several followers share.
//! `State::occupied_features` lists the same roots, and the majority from its one-walk
//! strengths (`State::majority_of`) is the feature's `State::majority` (BASE-8's majority,
//! with LARGE-1's large follower and MAYOR-2's mayor).

use std::cell::Cell;

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::NodeId;

mod common;

/// Compares the two at the start and after every action of `games` random games; returns
/// how many roots were compared in all.
fn compare(file: &str, games: u64) -> usize {
    let rules = load_rules_file(file).unwrap().0;
    let compared = Cell::new(0);
    for seed in 1..=games {
        common::play_checked(&rules, 2, seed, false, None, |g| {
            let st = &g.st;
            let walk: Vec<NodeId> =
                st.graph.roots().filter(|&r| st.graph.followers(r) > 0 && !st.graph.is_scored(r)).collect();
            assert_eq!(st.occupied_roots(&rules), walk, "{file} seed {seed} turn {}", st.turn);
            for o in st.occupied_features(&rules) {
                let (by_walk, by_feature) = (st.majority_of(&rules, o.root, o.strengths), st.majority(&rules, o.root));
                assert_eq!(by_walk, by_feature, "{file} seed {seed} turn {} root {}", st.turn, o.root);
            }
            compared.set(compared.get() + walk.len());
        });
    }
    compared.get()
}

#[test]
fn occupied_roots_are_the_occupied_unscored_roots_in_node_order() {
    for file in
        ["config/base.toml", "config/classic-everything.toml", "config/2025-everything.toml", "config/abbot.toml"]
    {
        let n = compare(file, 6);
        assert!(n > 1000, "{file}: only {n} roots compared");
    }
}
