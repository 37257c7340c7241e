//! The vineyards of Hills & Sheep (EXPANSIONS.md VINEYARD-1..2).
//!
//! - Tiles: the tiles of its tile set (`tile_set`, HS11-HS18) that carry the marker
//!   `vineyard` go into the land tiles.
//! - VINEYARD-1: a monastery completed during the game scores 9 plus `points` (3) for each
//!   vineyard tile among its 8 surrounding tiles; one vineyard counts for every monastery
//!   around it. The plugin scores such a monastery itself, in one scoring of source
//!   `monastery` (so a fairy or castle sees one monastery scoring), before `base` (a lower
//!   priority; base skips a feature already scored). Statistic `vineyard_points`.
//! - VINEYARD-2: an incomplete monastery at the end gets nothing for vineyards (base
//!   scores it). Every monastery counts, whoever occupies it (monk, abbot, a figure through
//!   the portal), an abbey tile too (a monastery feature); a garden does not.

mod draw;

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, NodeId, Pos};
use serde::{Deserialize, Serialize};

/// Options of the vineyards.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Vineyards {
    /// Tile set holding the vineyard tiles (marker `vineyard`).
    pub tile_set: String,
    /// VINEYARD-1: extra points per vineyard around a completed monastery.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    vineyard: u32,
    monastery: u8,
    points: usize,
}

impl Default for Vineyards {
    fn default() -> Self {
        Vineyards { tile_set: "hills-sheep".into(), points: 3, ids: Ids::default() }
    }
}

/// The factory a rule set names as `vineyards`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "vineyards",
        summary: "Hills & Sheep vineyards: a completed monastery scores 3 more per vineyard around it (VINEYARD-1..2)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Vineyards>,
    }
}

impl Vineyards {
    /// Vineyard tiles among the 8 cells around `pos`.
    fn vineyards_around(&self, rules: &Rules, st: &State, pos: Pos) -> u32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                if let Some(part) = st.part_at(Pos::new(pos.x + dx, pos.y + dy)) {
                    n += u32::from(st.part_markers(rules, part) & self.ids.vineyard != 0);
                }
            }
        }
        n
    }
}

impl Plugin for Vineyards {
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
        "vineyards"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FEATURE_COMPLETED
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.vineyard = reg.require_marker(&self.tile_set, "vineyard")?;
        self.ids.monastery = reg.source("monastery")?;
        self.ids.points = reg.stat("vineyard_points");
        Ok(())
    }

    /// `base` must not score the monasteries first.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        match (rules.plugin_index("vineyards"), rules.plugin_index("base")) {
            (Some(i), Some(b)) if i > b => {
                return Err("must run before 'base' (give it a lower priority than base's, e.g. -5)".into())
            }
            _ => {}
        }
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.vineyard, false)
    }

    /// VINEYARD-1: a completed monastery with vineyards around it scores 9 + 3 each.
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, _me: usize, root: NodeId) {
        let node = *st.graph.node(root);
        if node.kind != FeatureKind::Monastery || st.graph.followers(root) == 0 || st.graph.is_scored(root) {
            return;
        }
        let n = self.vineyards_around(rules, st, st.board.parts[node.part as usize].pos);
        if n == 0 {
            return;
        }
        let bonus = self.points * n as i32;
        st.score_feature(rules, root, 9 + bonus, self.ids.monastery, false);
        st.bump_stat(self.ids.points, bonus as i64);
    }
}
