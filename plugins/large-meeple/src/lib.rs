//! The large meeple of Inns & Cathedrals (EXPANSIONS.md LARGE-1) and how the dragons, the
//! fairies and the portal treat it (RULES.md COMBO-LARGE). LARGE-2 (inns and cathedrals)
//! needs the expansion's tiles and is not part of this plugin.
//!
//! - LARGE-1: one large follower per seat, figure kind `large`: a follower (it occupies
//!   its feature) of strength 2, so that the core's majority ([`State::majority`], used by
//!   every scoring of `base` and of the other plugins) counts it as two followers, while a
//!   scoring pays each majority holder once, as for one follower. Instead of a normal
//!   follower (the turn's one figure action, BASE-5), the player may put it on an
//!   unoccupied feature of the tile just placed, on the features `base` lets a follower
//!   take (its answer to `takes_follower`: cities, roads, monasteries, and fields when it
//!   plays with farmers), through every plugin's figure-placement veto. It returns when its feature is scored, like any
//!   follower (the core returns every figure of a scored feature). Six players may play
//!   (`base` allows 2 to 5; this plugin widens the range to 6).
//! - COMBO-LARGE: the other plugins decide by the figure kind's `follower` flag, so the
//!   large meeple needs no answer of its own: it counts for the 2025 dragon's line of sight
//!   (`counts_for_sight`' default), both dragons eat it (`eatable`' default; the 2025
//!   dragon eats every follower kind), it travels through the portal (the portal offers
//!   every follower kind of strength > 0; this plugin answers `portal_target` for its kind
//!   as for its own placements: the features `base` lets a follower take), and either fairy may join it (`fairy_may_join`'
//!   default). A plugin that spares a figure (a castle's knight, a fairy's follower) spares
//!   it too. The tower treats it as any follower as well: it may be captured, held as a
//!   prisoner (exchanged or ransomed as itself) and stand on a tower as a watchman.

mod draw;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{FigureId, State};
use carcassonne_core::NodeId;
use serde::{Deserialize, Serialize};

/// The large meeple has no options.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LargeMeeple {
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    placed: usize,
    takes_follower: QueryKey,
    portal_target: QueryKey,
}

/// The figure kind's name.
pub const KIND: &str = "large";
/// LARGE-1: the large meeple's weight in majorities.
pub const STRENGTH: u8 = 2;

/// The factory a rule set names as `large-meeple`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "large-meeple",
        summary: "large meeple: one large follower per seat, two followers in majorities, up to 6 players \
                  (LARGE-1, COMBO-LARGE)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<LargeMeeple>,
    }
}

impl LargeMeeple {
    /// BASE-5 as `base` applies it (its answer to `takes_follower`): may a follower take
    /// the feature of `node`?
    fn placeable(&self, rules: &Rules, st: &State, node: NodeId, me: usize) -> bool {
        let q = Query {
            key: self.ids.takes_follower,
            figure: None,
            kind: Some(self.ids.kind),
            part: None,
            node: Some(node),
            by: me as u8,
        };
        rules.verdict(st, &q, false)
    }
}

impl Plugin for LargeMeeple {
    fn name(&self) -> &str {
        "large-meeple"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED | Hooks::QUERY
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["portal_target"])
    }

    /// `portal_target` for the large meeple: the features a follower may take (BASE-5).
    fn answer(&self, rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        match (q.key == self.ids.portal_target, q.kind, q.node) {
            (true, Some(k), Some(n)) if k == self.ids.kind && !self.placeable(rules, st, n, me) => Some(false),
            _ => None,
        }
    }

    /// LARGE-1: one large follower per seat, strength 2; six players may play.
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind(KIND, true, STRENGTH, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about its own figure only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.placed = reg.stat("large_meeples_placed");
        self.ids.takes_follower = reg.query("takes_follower");
        self.ids.portal_target = reg.query("portal_target");
        reg.players(2, 6);
        Ok(())
    }

    /// LARGE-1 with BASE-5: the large meeple from supply on an unoccupied feature of the
    /// placed tile, through every plugin's figure-placement veto.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.kind;
        if st.supply[player as usize][kind as usize] == 0 {
            return;
        }
        for part in st.placed_parts() {
            let rp = st.rotated(rules, part);
            for local in 0..rp.features.len() as u8 {
                let node = st.node_of(part, local);
                if st.graph.followers(node) > 0 || !self.placeable(rules, st, node, me) {
                    continue;
                }
                let fp = FigurePlacement { player, kind, part, node: Some(node) };
                if rules.allow_figure(st, &fp) {
                    out.push(Action::PlaceFigure { kind, part, feature: local });
                }
            }
        }
    }

    /// Counts the large meeple's placements (on the placed tile, through the portal or on
    /// a tower) for `simulate`.
    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        if st.figures[fig as usize].kind == self.ids.kind {
            st.bump_stat(self.ids.placed, 1);
        }
    }
}
