//! The base game (RULES.md BASE-1..11) as a plugin: followers, tiles and start tile,
//! figure placement, and the points of roads, cities, monasteries and fields.

mod final_scoring;

pub use final_scoring::incomplete_points;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, NodeId};
use serde::{Deserialize, Serialize};

/// Options of the base game; defaults are the 3rd-edition rules with farmers.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Base {
    /// Farmers may be placed and fields score at the end (BASE-5, BASE-10).
    pub farmers: bool,
    /// Followers per player (BASE-1).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 30, _, _>")]
    pub followers: u8,
    /// Tile set holding the base tiles (a key of the rule set's `[tiles]`).
    pub tile_set: String,
    /// Start tile, placed at (0,0) rotation 0 (BASE-1).
    pub start_tile: String,
    /// Use the garden printings: each `variant_of` tile replaces one copy of its original.
    pub garden_printing: bool,
    /// Copies of the tile set in the stack (1 = the normal game; 4 = 288 tiles).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 8000, _, _>")]
    pub copies: u32,
    #[serde(skip)]
    ids: Ids,
}

/// Indices resolved at registration.
#[derive(Clone, Debug, Default)]
struct Ids {
    follower: u8,
    road: u8,
    city: u8,
    monastery: u8,
    field: u8,
    portal_target: QueryKey,
    takes_follower: QueryKey,
    joins_occupied: QueryKey,
}

impl Default for Base {
    fn default() -> Self {
        Base {
            farmers: true,
            followers: 7,
            tile_set: "base".into(),
            start_tile: "D".into(),
            garden_printing: false,
            copies: 1,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `base`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "base",
        summary: "base game: tiles A..X, followers, roads, cities, monasteries, fields (BASE-1..11)",
        requires: &[],
        conflicts: &[],
        build: build_from_options::<Base>,
    }
}

/// Points of a completed feature (BASE-8): road 1 per tile, city 2 per tile + 2 per
/// pennant, monastery 9; None for others (a garden is the abbot plugin's, ABBOT-1).
pub fn completed_points(kind: FeatureKind, tiles: u32, pennants: u32) -> Option<i32> {
    match kind {
        FeatureKind::Road => Some(tiles as i32),
        FeatureKind::City => Some(2 * (tiles + pennants) as i32),
        FeatureKind::Monastery => Some(9),
        _ => None,
    }
}

impl Base {
    fn source_of(&self, kind: FeatureKind) -> u8 {
        match kind {
            FeatureKind::Road => self.ids.road,
            FeatureKind::City => self.ids.city,
            FeatureKind::Monastery => self.ids.monastery,
            _ => self.ids.field,
        }
    }

    fn placeable(&self, kind: FeatureKind) -> bool {
        match kind {
            FeatureKind::City | FeatureKind::Road | FeatureKind::Monastery => true,
            FeatureKind::Field => self.farmers,
            _ => false,
        }
    }
}

impl Plugin for Base {
    fn name(&self) -> &str {
        "base"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FEATURE_COMPLETED | Hooks::FINAL_SCORING | Hooks::QUERY
    }

    /// `portal_target` (PD-PORTAL-1): base's follower may go through the portal only onto
    /// the features BASE-5 lets it take (no field without farmers, no garden, no river;
    /// acrobat spaces are left to a plugin that answers `joins_occupied`, `acrobats`);
    /// other figure kinds follow the rules of the plugin that registered them.
    /// `takes_follower`: whether BASE-5 lets a follower take the feature of `node`, for
    /// plugins whose figures are placed as followers are (the large meeple).
    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["portal_target", "takes_follower"])
    }

    fn answer(&self, rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let n = q.node?;
        let kind = st.graph.node(n).kind;
        let placeable = self.placeable(kind);
        if q.key == self.ids.takes_follower {
            Some(placeable)
        } else if q.key == self.ids.portal_target
            && q.kind == Some(self.ids.follower)
            && !placeable
            // An acrobat space is for the plugin that stacks followers on it (it answers
            // `joins_occupied`; seed 001: a follower may go onto one through the portal).
            && !(kind == FeatureKind::Acrobats && rules.is_answered(self.ids.joins_occupied))
        {
            Some(false)
        } else {
            None
        }
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        reg.require_set(&self.tile_set)?;
        if reg.catalog().id(&self.start_tile).is_none() {
            return Err(format!("start tile '{}' is not in any loaded tile set", self.start_tile));
        }
        self.ids.follower = reg.figure_kind("follower", true, 1, self.followers)?;
        self.ids.road = reg.source("road")?;
        self.ids.city = reg.source("city")?;
        self.ids.monastery = reg.source("monastery")?;
        self.ids.field = reg.source("field")?;
        self.ids.portal_target = reg.query("portal_target");
        self.ids.takes_follower = reg.query("takes_follower");
        self.ids.joins_occupied = reg.query("joins_occupied");
        reg.players(2, 5);
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        let cat = &rules.catalog;
        let ids = cat.set(&self.tile_set).ok_or_else(|| format!("tile set '{}' is not loaded", self.tile_set))?;
        let total = ids.iter().fold(0u64, |n, &t| n.saturating_add(cat.tile(t).count as u64 * self.copies as u64));
        if total > carcassonne_core::MAX_TILES as u64 {
            return Err(format!(
                "{total} tiles with `copies` = {}: at most {} per game",
                self.copies,
                carcassonne_core::MAX_TILES
            ));
        }
        let mut tiles = Vec::new();
        for &t in ids {
            for _ in 0..cat.tile(t).count * self.copies {
                tiles.push(t);
            }
        }
        if self.garden_printing {
            // Each copy of the set is the garden printing: one original per copy replaced.
            for &t in ids {
                if let Some(orig) = cat.tile(t).variant_of.as_deref().and_then(|o| cat.id(o)) {
                    for _ in 0..self.copies {
                        if let Some(i) = tiles.iter().position(|&x| x == orig) {
                            tiles[i] = t;
                        }
                    }
                }
            }
        }
        let start = cat.id(&self.start_tile).ok_or("start tile not loaded")?;
        let i = tiles.iter().position(|&t| t == start).ok_or_else(|| {
            format!("start tile '{}' is not among the tiles of set '{}'", self.start_tile, self.tile_set)
        })?;
        tiles.remove(i);
        setup.group("land", 0).tiles.extend(tiles);
        setup.start = Some(start);
        Ok(())
    }

    /// BASE-5: one follower from supply on an unoccupied feature of the placed tile.
    fn figure_actions(&self, rules: &Rules, st: &State, _me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.follower;
        if st.supply[player as usize][kind as usize] == 0 {
            return;
        }
        if !rules.uses(Hooks::ALLOW_FIGURE) {
            for part in st.placed_parts() {
                for (l, f) in st.rotated(rules, part).features.iter().enumerate() {
                    if self.placeable(f.kind) && st.graph.followers(st.node_of(part, l as u8)) == 0 {
                        out.push(Action::PlaceFigure { kind, part, feature: l as u8 });
                    }
                }
            }
            return;
        }
        // The vetoing plugins judge all candidates in one call each (on the stack, not
        // initialised beyond what is used).
        const MAX: usize = 32;
        let mut cands = [std::mem::MaybeUninit::<FigurePlacement>::uninit(); MAX];
        let mut local = [0u8; MAX];
        let mut n = 0;
        for part in st.placed_parts() {
            for (l, f) in st.rotated(rules, part).features.iter().enumerate() {
                let node = st.node_of(part, l as u8);
                if self.placeable(f.kind) && st.graph.followers(node) == 0 && n < MAX {
                    cands[n].write(FigurePlacement { player, kind, part, node: Some(node) });
                    local[n] = l as u8;
                    n += 1;
                }
            }
        }
        // SAFETY: the first `n` slots were just written.
        let cands = unsafe { std::slice::from_raw_parts(cands.as_ptr().cast::<FigurePlacement>(), n) };
        let mut allowed = [true; MAX];
        rules.allow_figures(st, cands, &mut allowed[..n]);
        for i in (0..n).filter(|&i| allowed[i]) {
            out.push(Action::PlaceFigure { kind, part: cands[i].part, feature: local[i] });
        }
    }

    /// BASE-8/9: the majority scores a completed road, city or monastery.
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, _me: usize, root: NodeId) {
        let kind = st.graph.node(root).kind;
        // A feature another plugin scored first (e.g. an inn road, LARGE-2) is not scored again.
        if st.graph.followers(root) == 0 || st.graph.is_scored(root) {
            return;
        }
        let tiles = st.feature_tiles(root);
        if let Some(points) = completed_points(kind, tiles, st.graph.pennants(root)) {
            st.score_feature(rules, root, points, self.source_of(kind), false);
        }
    }

    /// BASE-10: incomplete features and fields.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, _me: usize) {
        final_scoring::score(self, rules, st);
    }
}
