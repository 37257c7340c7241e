//! The mayor of Abbey & Mayor (EXPANSIONS.md MAYOR-1..2) and how the other expansions
//! treat it (README interpretations).
//!
//! - MAYOR-1: one mayor per seat, figure kind `mayor`: a follower (it occupies its city).
//!   Instead of a normal follower, the player may put it on an unoccupied city of the tile
//!   just placed, through every plugin's figure-placement veto. It is vetoed anywhere else
//!   (`allow_figure`): no mayor on a road, field or monastery, nor as a watchman on a tower.
//! - MAYOR-2: its strength is the number of pennants of its whole city when a majority is
//!   weighed (the core's majority hook [`Hooks::MAJORITY`], `adjust_strengths`: the kind is
//!   registered with strength 1, which this plugin replaces by the pennants), 0 without
//!   pennants. A seat whose total strength is 0 never wins (the core's majority: a seat
//!   wins only with the top strength, and nobody when it is 0), so a city whose figures are
//!   all mayors without pennants scores for nobody; its followers still return. Points are
//!   unchanged. Statistic `mayors_placed`.
//! - With the other plugins the mayor is a follower of its city: both dragons eat it, the
//!   2025 dragon sees it, either fairy may join it, the tower may capture it (strength 1 to
//!   the tower's test, a follower), the princess may send it home, a castle may be built
//!   from a small city held by a mayor. Through the portal it may go only into a city
//!   (`portal_target`). The large meeple and the mayor of one seat add up; the barn and the
//!   abbot never meet it (fields, monasteries, gardens).

mod draw;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{FigureId, State, MAX_PLAYERS};
use carcassonne_core::{FeatureKind, NodeId};
use serde::{Deserialize, Serialize};

/// The mayor has no options.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mayor {
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    placed: usize,
    portal_target: QueryKey,
}

/// The figure kind's name.
pub const KIND: &str = "mayor";

/// The factory a rule set names as `mayor`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "mayor",
        summary: "Abbey & Mayor mayor: a follower in a city, as strong as its city's pennants (MAYOR-1..2)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Mayor>,
    }
}

impl Mayor {
    fn in_city(st: &State, node: Option<NodeId>) -> bool {
        node.is_some_and(|n| st.graph.node(n).kind == FeatureKind::City)
    }
}

impl Plugin for Mayor {
    fn name(&self) -> &str {
        "mayor"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::ALLOW_FIGURE | Hooks::FIGURE_PLACED | Hooks::QUERY | Hooks::MAJORITY
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind(KIND, true, 1, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about its own figure only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.placed = reg.stat("mayors_placed");
        self.ids.portal_target = reg.query("portal_target");
        Ok(())
    }

    /// MAYOR-1: the mayor on an unoccupied city of the placed tile.
    fn figure_actions(&self, rules: &Rules, st: &State, _me: usize, out: &mut Vec<Action>) {
        let (player, kind) = (st.current, self.ids.kind);
        if st.supply[player as usize][kind as usize] == 0 {
            return;
        }
        for part in st.placed_parts() {
            let rp = st.rotated(rules, part);
            for (local, f) in rp.features.iter().enumerate() {
                let node = st.node_of(part, local as u8);
                if f.kind != FeatureKind::City || st.graph.followers(node) > 0 {
                    continue;
                }
                if rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) }) {
                    out.push(Action::PlaceFigure { kind, part, feature: local as u8 });
                }
            }
        }
    }

    /// MAYOR-1: a mayor stands in a city, nowhere else (not on a tower either).
    fn allow_figure(&self, _rules: &Rules, st: &State, _me: usize, p: &FigurePlacement) -> bool {
        p.kind != self.ids.kind || Self::in_city(st, p.node)
    }

    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        if st.figures[fig as usize].kind == self.ids.kind {
            st.bump_stat(self.ids.placed, 1);
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["portal_target"])
    }

    /// `portal_target`: a mayor through the portal only into a city.
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        (q.key == self.ids.portal_target && q.kind == Some(self.ids.kind)).then(|| Self::in_city(st, q.node))
    }

    /// MAYOR-2: each mayor in the feature counts its city's pennants instead of 1.
    fn adjust_strengths(&self, rules: &Rules, st: &State, _me: usize, root: NodeId, s: &mut [u32; MAX_PLAYERS]) {
        let pennants = st.graph.pennants(root);
        let base = rules.figure_kinds[self.ids.kind as usize].strength as u32;
        for f in st.figures.iter().filter(|f| f.alive && f.kind == self.ids.kind && (f.owner as usize) < MAX_PLAYERS) {
            if f.node.is_some_and(|n| st.graph.find(n) == root) {
                let seat = &mut s[f.owner as usize];
                *seat = seat.saturating_sub(base) + pennants;
            }
        }
    }
}
