//! The magic portal of the classic Princess & Dragon (RULES.md PD-PORTAL-1..2): after
//! placing a portal tile, the player may put a follower on any unoccupied, incomplete
//! feature of any tile already on the board, following every normal placement rule.
//!
//! Each (cell, feature) pair is one placement. Only figure kinds that are followers
//! (occupancy, strength > 0, a supply) travel (PD-PORTAL-2); a target must pass the
//! `portal_target` question (part, node and figure kind; any plugin's `false` forbids it:
//! base forbids its follower the features a follower may not take) and every plugin's figure-placement veto (the dragon
//! forbids volcanoes and its own tile). Features a plugin added onto a tile
//! (`State::add_edge_feature`: a bridge, BRIDGE-4) are targets too (seed 001: a meeple may
//! go onto a bridge through the portal; not onto one on a lair tile, which `dragon-2025`
//! vetoes like any figure there). A plugin whose follower kind may not travel
//! vetoes it in `allow_figure` when the part is not one of `st.placed_parts()`. An occupied
//! feature is a target only when some plugin answers `joins_occupied` (part, node, figure
//! kind) with true and none with false (an acrobat pyramid with room left, seed 001); a
//! placement another plugin already offered is not offered twice.

mod draw;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{FigureId, State};
use carcassonne_core::FigureBatch;
use serde::{Deserialize, Serialize};

/// Options of the portal.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Portal {
    /// Tile set holding the portal tiles (marker `portal`).
    pub tile_set: String,
    /// 2 (2016 printing: PDG3 without pennant) or 1 (1st edition: `PDG3c1`, with pennant).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    portal_target: QueryKey,
    joins_occupied: QueryKey,
    marker: u32,
    placements: usize,
}

impl Default for Portal {
    fn default() -> Self {
        Portal { tile_set: "princess-dragon".into(), edition: 2, ids: Ids::default() }
    }
}

/// The factory a rule set names as `portal`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "portal",
        summary: "classic P&D magic portal: a follower onto any open, unoccupied feature (PD-PORTAL-1..2)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Portal>,
    }
}

impl Portal {
    fn portal_turn(&self, rules: &Rules, st: &State) -> bool {
        st.placed_parts().any(|p| st.part_markers(rules, p) & self.ids.marker != 0)
    }

    /// The portal's placements, pushed onto `out` but those among `off_tile` (other
    /// plugins' placements off the placed tile, already in `out`).
    fn offer(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        out: &mut Vec<Action>,
        off_tile: &OffTile,
        roots: &mut RootCache,
    ) {
        let (player, placed) = (st.current, st.placed_parts());
        let mut batch = FigureBatch::new(player, true);
        // Another plugin may offer the same placement (the acrobats' 3 x 3).
        let mut push = |c: &FigurePlacement, local: u8| {
            if !off_tile.contains(c.part, local, c.kind) {
                out.push(Action::PlaceFigure { kind: c.kind, part: c.part, feature: local });
            }
        };
        for (kind, def) in rules.figure_kinds.iter().enumerate() {
            let kind = kind as u8;
            if !def.follower || def.strength == 0 || st.supply[player as usize][kind as usize] == 0 {
                continue;
            }
            let added_any = !st.extra_features.is_empty();
            for (part, pp) in st.board.parts.iter().enumerate() {
                let part = part as u32;
                if placed.contains(&part) {
                    continue;
                }
                // The tile's features (nodes from the part's first), then those a plugin
                // added (a bridge: seed 001).
                let features = rules.catalog.flat[pp.rp as usize].features.len() as u8;
                let tile_nodes = (0..features).map(|local| (local, pp.node_base + local as u32));
                let added = added_any.then(|| st.extra_features_on(part).map(|e| (e.local, e.node)));
                for (local, node) in tile_nodes.chain(added.into_iter().flatten()) {
                    let status = roots.status(st, node);
                    if status == RootStatus::Closed {
                        continue;
                    }
                    // An occupied feature only where a plugin lets followers share it
                    // (`joins_occupied`: an acrobat pyramid with room left).
                    if status == RootStatus::Occupied {
                        let q = Query {
                            key: self.ids.joins_occupied,
                            figure: None,
                            part: Some(part),
                            node: Some(node),
                            kind: Some(kind),
                            by: me as u8,
                        };
                        if !rules.verdict(st, &q, false) {
                            continue;
                        }
                    }
                    let q = Query {
                        key: self.ids.portal_target,
                        figure: None,
                        part: Some(part),
                        node: Some(node),
                        kind: Some(kind),
                        by: me as u8,
                    };
                    if batch.add(q, local) {
                        batch.flush(rules, st, &mut push);
                    }
                }
            }
            batch.flush(rules, st, &mut push);
        }
    }
}

impl Plugin for Portal {
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
        "portal"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        self.ids.marker = reg.require_marker(&self.tile_set, "portal")?;
        self.ids.portal_target = reg.query("portal_target");
        self.ids.joins_occupied = reg.query("joins_occupied");
        self.ids.placements = reg.stat("portal_placements");
        Ok(())
    }

    /// The portal tiles go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.marker, self.edition == 1)
    }

    /// PD-PORTAL-1/2: followers onto other tiles' unoccupied, incomplete features (the
    /// portal tile itself is offered by the normal placement rules).
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        if !self.portal_turn(rules, st) {
            return;
        }
        // Another plugin may have offered placements off the placed tile (the acrobats'
        // 3 x 3): one of the portal's may be a twin of one of those (only of those).
        let off_tile = OffTile::new(out, st.placed_parts());
        ROOTS.with_borrow_mut(|roots| {
            roots.reset(st.graph.len());
            self.offer(rules, st, me, out, &off_tile, roots)
        });
    }

    fn on_figure_placed(&self, rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        // Portal placements are on features; a figure on no feature (a watchman on a tower)
        // came another way.
        let f = st.figures[fig as usize];
        if f.node.is_some() && !st.placed_parts().contains(&f.part) && self.portal_turn(rules, st) {
            st.bump_stat(self.ids.placements, 1);
            tracing::debug!(turn = st.turn, at = st.figure_place_name(rules, &f).as_str(), "placed through the portal");
        }
    }
}

/// Other plugins' placements off the placed tile, as sorted (part, feature, kind) keys
/// (a portal turn asks about every candidate: a binary search each).
struct OffTile(Vec<(u32, u8, u8)>);

impl OffTile {
    fn new(actions: &[Action], placed: std::ops::Range<u32>) -> OffTile {
        let mut keys: Vec<(u32, u8, u8)> = (actions.iter())
            .filter_map(|a| match *a {
                Action::PlaceFigure { kind, part, feature } if !placed.contains(&part) => Some((part, feature, kind)),
                _ => None,
            })
            .collect();
        keys.sort_unstable();
        OffTile(keys)
    }

    /// Whether the placement of a `kind` figure on `feature` of `part` is among them.
    fn contains(&self, part: u32, feature: u8, kind: u8) -> bool {
        !self.0.is_empty() && self.0.binary_search(&(part, feature, kind)).is_ok()
    }
}

/// What a portal turn learned of each feature root (the board's features share few roots:
/// a field of thirty tiles is looked at once, not thirty times).
#[derive(Clone, Copy, PartialEq, Eq)]
enum RootStatus {
    Unknown,
    /// Scored or complete: no placement.
    Closed,
    Open,
    /// Open, with followers on it.
    Occupied,
}

/// Per node id, the [`RootStatus`] of the roots met this turn (the buffer is kept between
/// turns: no allocation per portal turn).
#[derive(Default)]
struct RootCache(Vec<RootStatus>);

impl RootCache {
    fn reset(&mut self, nodes: usize) {
        self.0.clear();
        self.0.resize(nodes, RootStatus::Unknown);
    }

    fn status(&mut self, st: &State, node: carcassonne_core::NodeId) -> RootStatus {
        let root = st.graph.find(node);
        let slot = &mut self.0[root as usize];
        if *slot == RootStatus::Unknown {
            *slot = if st.graph.is_scored(root) || st.is_complete(node) {
                RootStatus::Closed
            } else if st.graph.followers(root) > 0 {
                RootStatus::Occupied
            } else {
                RootStatus::Open
            };
        }
        *slot
    }
}

thread_local! {
    static ROOTS: std::cell::RefCell<RootCache> = std::cell::RefCell::new(RootCache::default());
}
