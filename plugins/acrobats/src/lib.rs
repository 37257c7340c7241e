//! The acrobat spaces of Under the Big Top (EXPANSIONS.md ACROBATS-1..4) and how the
//! dragons, the fairies and the portal treat them (seed 001, "Cirkus a akrobaté").
//!
//! - ACROBATS-1: the tiles of its tile set (`tile_set`) that carry the marker `acrobats`
//!   (CI1-CI8) go into the land tiles; with `gardens = false` CI1ng replaces CI1. Each has
//!   one acrobat space, the feature `acrobats[]` (feature kind
//!   [`FeatureKind::Acrobats`]: it touches no edge and never completes), holding a
//!   pyramid of at most `height` (3) followers: the followers stand in that feature, in no
//!   order (nothing in the rules depends on who stands on top).
//! - ACROBATS-2: instead of placing a follower, the player may put one normal follower
//!   (figure kind `follower`, base's) from supply on the acrobat space of the tile just
//!   placed or of one of the 8 tiles around it that holds fewer than `height` followers,
//!   through every plugin's figure-placement veto (a volcano, the dragon's tile, a lair).
//!   Players share a pyramid; no occupancy rule applies. Base offers no follower there
//!   (its `takes_follower` is false for acrobat spaces), so no other figure kind goes
//!   there: not the large meeple, the ringmaster (RINGMASTER-1), the wagon or the mayor.
//! - ACROBATS-3: instead of placing a follower, the active player may score one complete
//!   pyramid anywhere (`score`): each seat scores `points` (5) per follower of theirs in
//!   it (score source `acrobats`, an extra source), then they all return to supply.
//! - ACROBATS-4: at the end every acrobat space with followers scores `points` per
//!   follower to their owners, complete or not.
//! - Seed 001: both dragons remove acrobats (followers; the 2025 dragon entering a tile
//!   where the 2025 fairy protects one acrobat eats the others: FD-DRAGON-3 as it is);
//!   either fairy may join an acrobat, on top of a pyramid too (`fairy_may_join`'
//!   default); through the portal a normal follower may go onto any acrobat space of the
//!   board with room left (this plugin answers the portal's `joins_occupied` with true for
//!   it, and `portal_target` with false for every other figure kind); acrobat scorings
//!   are an extra source, so they give no fairy points, and the 2025 fairy's bonus at the
//!   end for a follower whose feature nothing scored is not paid for an acrobat (this
//!   plugin answers `fairy_final_bonus` with false).
//! - Statistics: `acrobats_placed` (followers put on acrobat spaces, the portal's too),
//!   `pyramids_scored`, `acrobat_points`.

use carcassonne_core::action::{Action, Decision};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Answers, FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{FigureId, RemoveReason, State, MAX_PLAYERS, NEUTRAL};
use carcassonne_core::{FeatureKind, NodeId, Pos};
use serde::{Deserialize, Serialize};

/// Options of the acrobats.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Acrobats {
    /// Tile set holding the acrobat tiles (marker `acrobats`).
    pub tile_set: String,
    /// The C2 printing with gardens (CI1); false: CI1ng without garden.
    pub gardens: bool,
    /// ACROBATS-1: followers in a complete pyramid.
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 6, _, _>")]
    pub height: u8,
    /// ACROBATS-3/4: points per follower in a scored pyramid.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    follower: u8,
    source: u8,
    marker: u32,
    /// Per tile type: whether some part of it has an acrobat space.
    has_space: Vec<bool>,
    portal_target: QueryKey,
    joins_occupied: QueryKey,
    fairy_final_bonus: QueryKey,
    placed: usize,
    scored: usize,
    points: usize,
}

impl Default for Acrobats {
    fn default() -> Self {
        Acrobats { tile_set: "big-top".into(), gardens: true, height: 3, points: 5, ids: Ids::default() }
    }
}

/// The acrobats' game state.
#[derive(Debug, Default)]
pub struct AcrobatsState {
    /// Every acrobat space on the board: its node.
    pub spaces: Vec<NodeId>,
}

carcassonne_core::clone_fields!(AcrobatsState { spaces });

/// `Action::Plugin::code` of the pyramid scoring (ACROBATS-3); `a` is the space's node.
const SCORE: u16 = 0;

/// The factory a rule set names as `acrobats`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "acrobats",
        summary: "Under the Big Top: acrobat pyramids of up to 3 followers, 5 per follower (ACROBATS-1..4)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Acrobats>,
    }
}

impl Acrobats {
    fn is_space(st: &State, node: NodeId) -> bool {
        st.graph.node(node).kind == FeatureKind::Acrobats
    }

    /// Pays `points` per follower on the space `node` to their owners (ACROBATS-3/4).
    fn score_space(&self, rules: &Rules, st: &mut State, node: NodeId, final_scoring: bool) {
        let mut count = [0i32; MAX_PLAYERS];
        for id in st.figures_in(node) {
            let f = &st.figures[id as usize];
            if f.owner != NEUTRAL && rules.figure_kinds[f.kind as usize].follower {
                count[f.owner as usize] += 1;
            }
        }
        let reason = if st.log.is_some() {
            format!("acrobats {}", if final_scoring { "final" } else { "pyramid" })
        } else {
            String::new()
        };
        for (seat, &n) in count.iter().enumerate().take(st.players) {
            if n > 0 {
                let points = self.points * n;
                st.score_players(rules, Some(node), 1 << seat, points, self.ids.source, final_scoring, &reason);
                st.bump_stat(self.ids.points, i64::from(points));
            }
        }
    }
}

impl Plugin for Acrobats {
    fn name(&self) -> &str {
        "acrobats"
    }

    fn hooks(&self) -> Hooks {
        Hooks::GAME_START
            | Hooks::TILE_PLACED
            | Hooks::FIGURE_ACTIONS
            | Hooks::FIGURE_PLACED
            | Hooks::FINAL_SCORING
            | Hooks::QUERY
    }

    /// Only a tile with an acrobats' space opens one.
    fn tile_hooks(&self, _rules: &Rules, tile: carcassonne_core::TileTypeId) -> Hooks {
        if self.ids.has_space[tile as usize] {
            Hooks::TILE_PLACED
        } else {
            Hooks::NONE
        }
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.marker = reg.require_marker(&self.tile_set, "acrobats")?;
        self.ids.has_space =
            reg.catalog().tiles.iter().map(|t| t.features().any(|f| f.kind == FeatureKind::Acrobats)).collect();
        self.ids.follower = match reg.declared_figure_kind("follower") {
            Some((k, _)) => k,
            None => return Err("acrobats runs after `base` (a higher priority): it needs base's follower".into()),
        };
        self.ids.source = reg.extra_source("acrobats")?;
        self.ids.portal_target = reg.query("portal_target");
        self.ids.joins_occupied = reg.query("joins_occupied");
        self.ids.fairy_final_bonus = reg.query("fairy_final_bonus");
        self.ids.placed = reg.stat("acrobats_placed");
        self.ids.scored = reg.stat("pyramids_scored");
        self.ids.points = reg.stat("acrobat_points");
        Ok(())
    }

    /// ACROBATS-1: the acrobat tiles go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.marker, !self.gardens)
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(AcrobatsState::default()))
    }

    /// Acrobat spaces of the start tile, if any.
    fn on_game_start(&self, _rules: &Rules, st: &mut State, me: usize) {
        let spaces: Vec<NodeId> = (0..st.graph.len() as NodeId).filter(|&n| Self::is_space(st, n)).collect();
        st.plugin_mut::<AcrobatsState>(me).spaces = spaces;
    }

    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(first) = st.placed_parts().next() else { return };
        if !self.ids.has_space[st.board.parts[first as usize].tile as usize] {
            return;
        }
        for part in st.placed_parts() {
            let rp = st.rotated(rules, part);
            for l in 0..rp.features.len() as u8 {
                if rp.features[l as usize].kind == FeatureKind::Acrobats {
                    let node = st.node_of(part, l);
                    st.plugin_mut::<AcrobatsState>(me).spaces.push(node);
                }
            }
        }
    }

    /// ACROBATS-2: a normal follower onto an acrobat space with room in the 3 x 3 around
    /// the tile just placed; ACROBATS-3: scoring a complete pyramid anywhere. Only the
    /// spaces on the board are looked at (at most a few), not the tiles around.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.follower;
        let s = st.plugin::<AcrobatsState>(me);
        if s.spaces.is_empty() {
            return;
        }
        let height = u32::from(self.height);
        let supply = st.supply[player as usize][kind as usize] > 0;
        let placed = st.placed_parts();
        let near = |at: Pos| {
            placed.clone().any(|p| {
                let q = st.board.parts[p as usize].pos;
                (q.x - at.x).abs() <= 1 && (q.y - at.y).abs() <= 1
            })
        };
        for &node in &s.spaces {
            let followers = st.graph.followers(node);
            if followers >= height {
                out.push(Action::Plugin { plugin: me as u8, code: SCORE, a: node as i32, b: 0 });
                continue;
            }
            let n = st.graph.node(node);
            let part = n.part;
            if supply
                && near(st.board.parts[part as usize].pos)
                && rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) })
            {
                out.push(Action::PlaceFigure { kind, part, feature: n.local });
            }
        }
    }

    /// ACROBATS-3: the pyramid scores and its followers return.
    fn apply_action(&self, rules: &Rules, st: &mut State, _me: usize, _d: &Decision, a: &Action) {
        let Action::Plugin { code: SCORE, a: node, .. } = *a else { return };
        let node = node as NodeId;
        self.score_space(rules, st, node, false);
        st.bump_stat(self.ids.scored, 1);
        let ids: Vec<FigureId> = st.figures_in(node).collect();
        for id in ids {
            st.remove_figure(rules, id, RemoveReason::Scored);
        }
    }

    fn describe_action(&self, _rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: SCORE, a: node, .. } = *a else { return serde_json::Value::Null };
        let part = st.graph.node(node as NodeId).part;
        let pos = st.board.parts[part as usize].pos;
        serde_json::json!({"action": "score", "cell": [pos.x, pos.y]})
    }

    /// Counts followers put on acrobat spaces (the portal's too).
    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        if st.figures[fig as usize].node.is_some_and(|n| Self::is_space(st, n)) {
            st.bump_stat(self.ids.placed, 1);
        }
    }

    /// ACROBATS-4: every space with followers, complete or not.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, me: usize) {
        let spaces = st.plugin::<AcrobatsState>(me).spaces.clone();
        for node in spaces {
            if st.graph.followers(node) > 0 {
                self.score_space(rules, st, node, true);
            }
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["portal_target", "joins_occupied", "fairy_final_bonus"])
    }

    /// Seed 001: through the portal, a normal follower onto any acrobat space with room
    /// left (`joins_occupied`), no other figure kind (`portal_target`); acrobat scoring
    /// does not trigger the fairy, so the 2025 fairy's end-of-game bonus is not paid for
    /// an acrobat (`fairy_final_bonus`).
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let node = q.node?;
        if !Self::is_space(st, node) {
            return None;
        }
        if q.key == self.ids.fairy_final_bonus {
            return Some(false);
        }
        let normal = q.kind == Some(self.ids.follower);
        if q.key == self.ids.portal_target {
            (!normal).then_some(false)
        } else if q.key == self.ids.joins_occupied {
            Some(normal && st.graph.followers(node) < u32::from(self.height))
        } else {
            None
        }
    }

    /// [`Plugin::answer`] of a list (the portal's candidates): only acrobat spaces get an
    /// answer.
    fn answer_many(&self, rules: &Rules, st: &State, me: usize, qs: &[Query]) -> Answers {
        let mut a = Answers::default();
        for (i, q) in qs.iter().enumerate() {
            if q.node.is_some_and(|n| Self::is_space(st, n)) {
                a.set(i, self.answer(rules, st, me, q));
            }
        }
        a
    }
}
