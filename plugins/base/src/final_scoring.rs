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
    // The figures stay where they are during final scoring: each feature's strengths are
    // counted in one walk for all of them.
    let occupied = st.occupied_features(rules);
    let reason = |st: &State, source: u8| {
        if st.log.is_some() {
            format!("{} final", rules.sources[source as usize])
        } else {
            String::new()
        }
    };
    for o in &occupied {
        let kind = st.graph.node(o.root).kind;
        if kind == FeatureKind::Field {
            continue;
        }
        if let Some(points) = incomplete_points(st, o.root) {
            let (winners, source) = (st.majority_of(rules, o.root, o.strengths), base.source_of(kind));
            st.score_players(rules, Some(o.root), winners, points, source, true, &reason(st, source));
        }
    }
    if base.farmers {
        let source = base.source_of(FeatureKind::Field);
        for o in &occupied {
            if st.graph.node(o.root).kind == FeatureKind::Field {
                let winners = st.majority_of(rules, o.root, o.strengths);
                st.score_field(rules, o.root, winners, 3, source, true, &reason(st, source));
            }
        }
    }
}
