//! BASE-10 final scoring: incomplete roads, cities and monasteries, then fields.

use carcassonne_core::rules::Rules;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, NodeId};

use crate::Base;

/// Points of an incomplete feature at the end (BASE-10).
pub fn incomplete_points(st: &State, root: NodeId) -> Option<i32> {
    let node = st.graph.node(root);
    match node.kind {
        FeatureKind::Road => Some(st.feature_tiles(root) as i32),
        FeatureKind::City => Some((st.feature_tiles(root) + st.graph.pennants(root)) as i32),
        FeatureKind::Monastery => Some(1 + st.board.ring_count(st.board.parts[node.part as usize].pos) as i32),
        _ => None,
    }
}

pub(crate) fn score(base: &Base, rules: &Rules, st: &mut State) {
    let roots = st.occupied_roots(rules);
    for &root in &roots {
        let kind = st.graph.node(root).kind;
        if kind == FeatureKind::Field {
            continue;
        }
        if let Some(points) = incomplete_points(st, root) {
            st.score_feature(rules, root, points, base.source_of(kind), true);
        }
    }
    if base.farmers {
        for &root in &roots {
            if st.graph.node(root).kind == FeatureKind::Field {
                let source = base.source_of(FeatureKind::Field);
                let reason =
                    if st.log.is_some() { format!("{} final", rules.sources[source as usize]) } else { String::new() };
                let winners = st.majority(rules, root);
                st.score_field(rules, root, winners, 3, source, true, &reason);
            }
        }
    }
}
