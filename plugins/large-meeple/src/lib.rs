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
//!   take (cities, roads, monasteries, and fields when `base`'s `farmers` is on), through
//!   every plugin's figure-placement veto. It returns when its feature is scored, like any
//!   follower (the core returns every figure of a scored feature). Six players may play
//!   (`base` allows 2 to 5; this plugin widens the range to 6).
//! - COMBO-LARGE: the other plugins decide by the figure kind's `follower` flag, so the
//!   large meeple needs no answer of its own: it counts for the 2025 dragon's line of sight
//!   (`counts_for_sight`' default), both dragons eat it (`eatable`' default; the 2025
//!   dragon eats every follower kind), it travels through the portal (the portal offers
//!   every follower kind of strength > 0), and either fairy may join it (`fairy_may_join`'
//!   default). A plugin that spares a figure (a castle's knight, a fairy's follower) spares
//!   it too. The tower treats it as any follower as well: it may be captured, held as a
//!   prisoner (exchanged or ransomed as itself) and stand on a tower as a watchman.

use std::sync::OnceLock;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{FigureId, State};
use carcassonne_core::FeatureKind;
use serde::{Deserialize, Serialize};

/// The large meeple has no options.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LargeMeeple {
    #[serde(skip)]
    ids: Ids,
    /// `base`'s `farmers` option (BASE-5: fields take followers only with farmers), read
    /// from the rule set once.
    #[serde(skip)]
    farmers: OnceLock<bool>,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    placed: usize,
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
    /// Whether `base` plays with farmers (its resolved option; true when it says nothing).
    fn farmers(&self, rules: &Rules) -> bool {
        *self.farmers.get_or_init(|| {
            rules
                .plugin_index("base")
                .and_then(|i| rules.plugins[i].options.get("farmers"))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(true)
        })
    }

    /// BASE-5 as `base` applies it: the features a follower may take.
    fn placeable(&self, rules: &Rules, kind: FeatureKind) -> bool {
        match kind {
            FeatureKind::City | FeatureKind::Road | FeatureKind::Monastery => true,
            FeatureKind::Field => self.farmers(rules),
            _ => false,
        }
    }
}

impl Plugin for LargeMeeple {
    fn name(&self) -> &str {
        "large-meeple"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED
    }

    /// LARGE-1: one large follower per seat, strength 2; six players may play.
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind(KIND, true, STRENGTH, 1)?;
        self.ids.placed = reg.stat("large_meeples_placed");
        reg.players(2, 6);
        Ok(())
    }

    /// LARGE-1 with BASE-5: the large meeple from supply on an unoccupied feature of the
    /// placed tile, through every plugin's figure-placement veto.
    fn figure_actions(&self, rules: &Rules, st: &State, _me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.kind;
        if st.supply[player as usize][kind as usize] == 0 {
            return;
        }
        for part in st.placed_parts() {
            let rp = st.rotated(rules, part);
            for (local, f) in rp.features.iter().enumerate() {
                if !self.placeable(rules, f.kind) {
                    continue;
                }
                let node = st.node_of(part, local as u8);
                if st.graph.followers(node) > 0 {
                    continue;
                }
                let fp = FigurePlacement { player, kind, part, node: Some(node) };
                if rules.allow_figure(st, &fp) {
                    out.push(Action::PlaceFigure { kind, part, feature: local as u8 });
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
