//! Inns & Cathedrals (EXPANSIONS.md LARGE-2; the large meeple, LARGE-1, is the
//! `large-meeple` plugin, which combines with this one).
//!
//! - Tiles: the 18 tiles of its tile set (`tile_set`, IC1-IC18; `edition = 1`: the
//!   1st-edition printings IC2c1 and IC8c1 without a garden) go into the land tiles. Inns
//!   are roads with the modifier `inn`, cathedrals cities with the modifier `cathedral`.
//! - LARGE-2: a completed road with an inn scores 2 per tile (`inn_points`), a completed
//!   city with a cathedral 3 per tile and per pennant (`cathedral_points`), to its
//!   majority, in the turn's scoring step (`on_feature_completed`, before `base`: this
//!   plugin runs at a lower priority; the feature is then scored, which `base` skips).
//!   Incomplete at the end, both score 0 (`on_final_scoring`, before `base`: a 0-point
//!   scoring marks them scored, so `base` gives them nothing; the scoring is still a
//!   scoring of the feature, so a fairy beside a follower there is paid).
//! - Score sources: the base game's `road` and `city` (an inn or cathedral feature's own
//!   scoring). Statistics: `inns_completed`, `cathedrals_completed`, `inn_points`,
//!   `cathedral_points`.
//! - Combinations: the other plugins see ordinary roads and cities (the dragons, fairies,
//!   portal, tower and barns need nothing more); a castle (CASTLE-3) values a neighbouring
//!   inn road or cathedral city as the base game does (interpretation in the README).

mod draw;

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, NodeId};
use serde::{Deserialize, Serialize};

/// Options of Inns & Cathedrals.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InnsCathedrals {
    /// Tile set holding the expansion's tiles.
    pub tile_set: String,
    /// 2 (C2 printing: IC2 and IC8 with a garden) or 1 (C1: IC2c1, IC8c1).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    /// LARGE-2: points per tile of a completed road with an inn.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub inn_points: i32,
    /// LARGE-2: points per tile and per pennant of a completed city with a cathedral.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub cathedral_points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    inn: u32,
    cathedral: u32,
    road: u8,
    city: u8,
    inns: usize,
    cathedrals: usize,
    inn_points: usize,
    cathedral_points: usize,
}

impl Default for InnsCathedrals {
    fn default() -> Self {
        InnsCathedrals {
            tile_set: "inns-cathedrals".into(),
            edition: 2,
            inn_points: 2,
            cathedral_points: 3,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `inns-cathedrals`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "inns-cathedrals",
        summary: "Inns & Cathedrals: its tiles, inn roads 2 per tile and cathedral cities 3 per tile and pennant \
                  when completed, 0 when not (LARGE-2)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<InnsCathedrals>,
    }
}

impl InnsCathedrals {
    /// Whether any node of the feature of `root` has modifier bit `bit`.
    fn has(rules: &Rules, st: &State, root: NodeId, bit: u32) -> bool {
        st.graph.members(root).any(|n| st.node_modifiers(rules, n) & bit != 0)
    }

    /// LARGE-2: an inn road or a cathedral city (its points per tile and pennant, its
    /// source and statistics), or None for any other feature.
    fn special(&self, rules: &Rules, st: &State, root: NodeId) -> Option<(i32, u8, usize, usize)> {
        let ids = &self.ids;
        match st.graph.node(root).kind {
            FeatureKind::Road if Self::has(rules, st, root, ids.inn) => {
                Some((self.inn_points, ids.road, ids.inns, ids.inn_points))
            }
            FeatureKind::City if Self::has(rules, st, root, ids.cathedral) => {
                Some((self.cathedral_points, ids.city, ids.cathedrals, ids.cathedral_points))
            }
            _ => None,
        }
    }
}

impl Plugin for InnsCathedrals {
    fn draw(
        &self,
        rules: &carcassonne_core::Rules,
        st: &carcassonne_core::State,
        me: usize,
        canvas: &mut dyn carcassonne_core::Canvas,
    ) {
        draw::draw(self, rules, st, me, canvas)
    }

    fn name(&self) -> &str {
        "inns-cathedrals"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FEATURE_COMPLETED | Hooks::FINAL_SCORING
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        reg.require_set(&self.tile_set)?;
        let cat = reg.catalog();
        self.ids.inn = cat.modifier("inn");
        self.ids.cathedral = cat.modifier("cathedral");
        self.ids.road = reg.source("road")?;
        self.ids.city = reg.source("city")?;
        self.ids.inns = reg.stat("inns_completed");
        self.ids.cathedrals = reg.stat("cathedrals_completed");
        self.ids.inn_points = reg.stat("inn_points");
        self.ids.cathedral_points = reg.stat("cathedral_points");
        Ok(())
    }

    /// `base` must not score these features first.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        match (rules.plugin_index("inns-cathedrals"), rules.plugin_index("base")) {
            (Some(i), Some(b)) if i > b => {
                return Err("must run before 'base' (give it a lower priority than base's, e.g. -5)".into())
            }
            _ => {}
        }
        setup.add_land_tiles(rules, &self.tile_set, self.edition == 1)
    }

    /// LARGE-2: a completed inn road or cathedral city scores 2 or 3 per tile (and pennant).
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, _me: usize, root: NodeId) {
        if st.graph.followers(root) == 0 || st.graph.is_scored(root) {
            return;
        }
        let Some((per, source, count, points_stat)) = self.special(rules, st, root) else { return };
        let units = st.feature_tiles(root) + st.graph.pennants(root);
        let points = per * units as i32;
        st.score_feature(rules, root, points, source, false);
        st.bump_stat(count, 1);
        st.bump_stat(points_stat, points as i64);
    }

    /// LARGE-2: an incomplete inn road or cathedral city scores 0 at the end.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, _me: usize) {
        for root in st.occupied_roots(rules) {
            if let Some((_, source, ..)) = self.special(rules, st, root) {
                st.score_feature(rules, root, 0, source, true);
                st.graph.set_scored(root);
            }
        }
    }
}
