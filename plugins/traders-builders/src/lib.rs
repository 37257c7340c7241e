//! Traders & Builders (EXPANSIONS.md BUILDER-1..2, PIG-1, GOODS-1) and how the dragons,
//! the fairies and the portal treat the builder and the pig (RULES.md COMBO-BUILDER-PIG).
//!
//! - Tiles: the 24 tiles of its tile set (`tile_set`, TB1-TB24; `edition = 1`: the
//!   1st-edition printings TB11c1 and TB21c1 without a garden) go into the land tiles.
//!   Goods are the city modifiers `wine`, `grain` and `cloth` (one symbol per tile).
//! - BUILDER-1: one builder per seat (figure kind `builder`, no follower). Instead of
//!   placing a follower, a player puts it on a road or city of the tile just placed in
//!   which they have a follower (a figure placement, through every plugin's veto). When
//!   that player later places a tile that extends the builder's feature (one of the tile's
//!   roads or cities joins it), they play one extra turn at once (`State::extra_turn`),
//!   never a third turn in a row (the extra turn grants none). Statistic `extra_turns`.
//! - PIG-1: one pig per seat (figure kind `pig`), instead of a follower into a field of the
//!   tile just placed in which the player has a farmer. At the end, if the pig's owner is
//!   among the winners of that field's farmers, each completed city is worth 1 more to
//!   them (4 instead of 3: an event after the field's, extra source `pig`, which the
//!   fairies ignore). A castle's +1 (CASTLE-4) adds to it.
//! - BUILDER-2: builder and pig go back to supply when their owner has no follower left in
//!   their feature (whatever removed it: scoring, a dragon, a tower, the princess, a
//!   barn), and the builder when its feature is completed (the engine returns every figure
//!   of a scored feature; an unoccupied completed feature cannot hold a builder).
//! - GOODS-1: the player who completes a city (in their turn, whoever scores it, occupied
//!   or not) takes one goods token per goods symbol on its tiles. At the end, the most
//!   tokens of each kind score 10 (ties all score; nobody with none), score source
//!   `goods` (no feature: no fairy). Statistics `goods_wine`, `goods_grain`, `goods_cloth`.
//! - COMBO-BUILDER-PIG: the dragons eat no builder or pig (they answer `eatable` with
//!   false) but eat their owner's follower, after which they go home (PD-DRAGON-7:
//!   `needs_follower`); the fairies join followers only; a builder or pig may go into a
//!   feature whose follower came through the portal (they need a follower there, not one
//!   of this tile); towers capture followers only.

mod draw;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, PluginState, Query};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{Figure, FigureId, RemoveReason, ScoreEvent, State, MAX_PLAYERS};
use carcassonne_core::{FeatureKind, NodeId};
use serde::{Deserialize, Serialize};

/// Options of Traders & Builders.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TradersBuilders {
    /// Tile set holding the expansion's tiles.
    pub tile_set: String,
    /// 2 (C2 printing: TB11 and TB21 with a garden) or 1 (C1: TB11c1, TB21c1).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    /// GOODS-1: points to the most tokens of each kind at the end.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub goods_points: i32,
    /// PIG-1: extra points per completed city to the winning pig's owner.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub pig_points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    builder: u8,
    pig: u8,
    goods_source: u8,
    pig_source: u8,
    field_source: u8,
    /// Modifier bits of wine, grain, cloth.
    goods: [u32; 3],
    extra_turns: usize,
    goods_stats: [usize; 3],
    builders: usize,
    pigs: usize,
}

impl Default for TradersBuilders {
    fn default() -> Self {
        TradersBuilders {
            tile_set: "traders-builders".into(),
            edition: 2,
            goods_points: 10,
            pig_points: 1,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `traders-builders`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "traders-builders",
        summary: "Traders & Builders: its tiles, goods, the builder's extra turn, the pig (BUILDER-1..2, PIG-1, \
                  GOODS-1, COMBO-BUILDER-PIG)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<TradersBuilders>,
    }
}

/// Goods kinds, in the order of the statistics and of [`TradersState::goods`].
pub const GOODS: [&str; 3] = ["wine", "grain", "cloth"];

/// The plugin's game state.
#[derive(Clone, Debug, Default)]
pub struct TradersState {
    /// Goods tokens per seat and kind (GOODS-1).
    pub goods: [[u32; 3]; MAX_PLAYERS],
    /// The turn that is a builder's extra turn (it grants no further one).
    pub extra_turn_of: u32,
}

impl TradersBuilders {
    /// Whether `player` has a follower in the feature of `node`.
    fn has_follower(rules: &Rules, st: &State, player: u8, node: NodeId) -> bool {
        // The feature's follower count first: no walk over the figures for an empty one.
        st.graph.followers(node) > 0
            && Self::has_any(st, node, |f| f.owner == player && rules.figure_kinds[f.kind as usize].follower)
    }

    /// Whether the feature of `node` holds a figure of `kind` of `player`.
    fn has_own(st: &State, player: u8, kind: u8, node: NodeId) -> bool {
        Self::has_any(st, node, |f| f.owner == player && f.kind == kind)
    }

    /// Whether the feature of `node` holds a figure that passes `test` (the test first:
    /// the feature of a figure is looked up only for those that pass it).
    fn has_any(st: &State, node: NodeId, test: impl Fn(&Figure) -> bool) -> bool {
        let root = st.graph.find(node);
        (st.figures.iter()).any(|f| f.alive && test(f) && f.node.is_some_and(|n| st.graph.find(n) == root))
    }

    /// BUILDER-2: sends home the builder and pig of `f`'s owner in `f`'s feature when that
    /// owner has no follower left there (`f`: a follower as it stood before it left).
    fn release_alone(&self, rules: &Rules, st: &mut State, me: usize, f: &Figure) {
        let Some(node) = f.node else { return };
        if !rules.figure_kinds[f.kind as usize].follower || Self::has_follower(rules, st, f.owner, node) {
            return;
        }
        let alone: Vec<FigureId> = st
            .figures_in(node)
            .filter(|&g| {
                let g = &st.figures[g as usize];
                g.owner == f.owner && (g.kind == self.ids.builder || g.kind == self.ids.pig)
            })
            .collect();
        for id in alone {
            st.remove_figure(rules, id, RemoveReason::Plugin(me as u8));
        }
    }
}

impl Plugin for TradersBuilders {
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
        "traders-builders"
    }

    fn hooks(&self) -> Hooks {
        Hooks::TILE_PLACED
            | Hooks::FIGURE_ACTIONS
            | Hooks::FIGURE_PLACED
            | Hooks::FEATURE_COMPLETED
            | Hooks::FEATURE_SCORED
            | Hooks::FIGURE_REMOVED
            | Hooks::FIGURE_MOVED
            | Hooks::FINAL_SCORING
            | Hooks::QUERY
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        reg.require_set(&self.tile_set)?;
        let cat = reg.catalog();
        self.ids.goods = GOODS.map(|g| cat.modifier(g));
        self.ids.builder = reg.figure_kind("builder", false, 0, 1)?;
        reg.figure_look(self.ids.builder, draw::builder_look());
        self.ids.pig = reg.figure_kind("pig", false, 0, 1)?;
        reg.figure_look(self.ids.pig, draw::pig_look());
        // Its answers are about the builder and the pig only.
        reg.answers_only_about(&[self.ids.builder, self.ids.pig]);
        self.ids.field_source = reg.source("field")?;
        self.ids.goods_source = reg.extra_source("goods")?;
        self.ids.pig_source = reg.extra_source("pig")?;
        self.ids.extra_turns = reg.stat("extra_turns");
        self.ids.goods_stats = GOODS.map(|g| reg.stat(&format!("goods_{g}")));
        self.ids.builders = reg.stat("builders_placed");
        self.ids.pigs = reg.stat("pigs_placed");
        reg.query("needs_follower");
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_land_tiles(rules, &self.tile_set, self.edition == 1)
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(TradersState::default()))
    }

    /// BUILDER-1: a tile of the builder's owner that extends its feature gives an extra
    /// turn, unless this turn is one.
    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        let player = st.current;
        if st.plugin::<TradersState>(me).extra_turn_of == st.turn
            || st.supply[player as usize][self.ids.builder as usize] > 0
        {
            return;
        }
        // The seat's builders (one, BUILDER-1) looked for in the placed tile's roads and cities.
        let extends = st.own_figures(player).any(|id| {
            let f = &st.figures[id as usize];
            let Some(root) = f.node.filter(|_| f.kind == self.ids.builder).map(|n| st.graph.find(n)) else {
                return false;
            };
            st.placed_parts().any(|part| {
                st.rotated(rules, part).features.iter().enumerate().any(|(local, f)| {
                    matches!(f.kind, FeatureKind::Road | FeatureKind::City)
                        && st.graph.find(st.node_of(part, local as u8)) == root
                })
            })
        });
        if extends {
            st.extra_turn = true;
            st.plugin_mut::<TradersState>(me).extra_turn_of = st.turn + 1;
            st.bump_stat(self.ids.extra_turns, 1);
            st.note(rules, me, format_args!("the builder gives seat {player} an extra turn"));
        }
    }

    /// BUILDER-1, PIG-1: the builder onto a road or city, the pig into a field, of the tile
    /// just placed, where the player has a follower.
    fn figure_actions(&self, rules: &Rules, st: &State, _me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let supply = &st.supply[player as usize];
        let (builder, pig) = (supply[self.ids.builder as usize] > 0, supply[self.ids.pig as usize] > 0);
        if !builder && !pig {
            return;
        }
        for part in st.placed_parts() {
            for (local, f) in st.rotated(rules, part).features.iter().enumerate() {
                let kind = match f.kind {
                    FeatureKind::Road | FeatureKind::City if builder => self.ids.builder,
                    FeatureKind::Field if pig => self.ids.pig,
                    _ => continue,
                };
                let node = st.node_of(part, local as u8);
                if !Self::has_follower(rules, st, player, node) {
                    continue;
                }
                if rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) }) {
                    out.push(Action::PlaceFigure { kind, part, feature: local as u8 });
                }
            }
        }
    }

    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        let kind = st.figures[fig as usize].kind;
        if kind == self.ids.builder {
            st.bump_stat(self.ids.builders, 1);
        } else if kind == self.ids.pig {
            st.bump_stat(self.ids.pigs, 1);
        }
    }

    /// GOODS-1: the completing player takes the city's goods.
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, me: usize, root: NodeId) {
        if st.graph.node(root).kind != FeatureKind::City {
            return;
        }
        let mut got = [0u32; 3];
        for n in st.graph.members(root) {
            let m = st.node_modifiers(rules, n);
            for (k, &bit) in self.ids.goods.iter().enumerate() {
                if bit != 0 && m & bit != 0 {
                    got[k] += 1;
                }
            }
        }
        if got == [0; 3] {
            return;
        }
        let player = st.current as usize;
        for (k, &n) in got.iter().enumerate() {
            st.plugin_mut::<TradersState>(me).goods[player][k] += n;
            st.bump_stat(self.ids.goods_stats[k], n as i64);
        }
        st.note(
            rules,
            me,
            format_args!("seat {player} takes goods: wine {}, grain {}, cloth {}", got[0], got[1], got[2]),
        );
    }

    /// PIG-1: at the end, a winner of a field with their pig in it scores 1 more per city.
    fn on_feature_scored(&self, rules: &Rules, st: &mut State, _me: usize, ev: &ScoreEvent) {
        let (Some(root), Some(per)) = (ev.root, ev.per_city) else { return };
        if !ev.final_scoring || ev.source != self.ids.field_source || per <= 0 || self.pig_points == 0 {
            return;
        }
        let cities = ev.points / per;
        for p in 0..st.players as u8 {
            if ev.winners & (1 << p) != 0 && Self::has_own(st, p, self.ids.pig, root) {
                let points = self.pig_points * cities;
                st.score_players(rules, Some(root), 1 << p, points, self.ids.pig_source, true, "pig");
            }
        }
    }

    /// BUILDER-2: a builder or pig whose owner has no follower left in its feature goes home.
    fn on_figure_removed(
        &self,
        rules: &Rules,
        st: &mut State,
        me: usize,
        _id: FigureId,
        f: &Figure,
        why: RemoveReason,
    ) {
        // A scored feature's figures all go home with it (the engine removes them).
        if why == RemoveReason::Scored && f.node.is_some_and(|n| st.graph.is_scored(st.graph.find(n))) {
            return;
        }
        self.release_alone(rules, st, me, f);
    }

    /// BUILDER-2: likewise when a follower moves out of its feature (e.g. a knight into a
    /// castle).
    fn on_figure_moved(&self, rules: &Rules, st: &mut State, me: usize, id: FigureId, from: &Figure) {
        let root = |n: Option<NodeId>| n.map(|n| st.graph.find(n));
        if from.node.is_some() && root(st.figures[id as usize].node) != root(from.node) {
            self.release_alone(rules, st, me, from);
        }
    }

    /// GOODS-1: the most tokens of each kind score 10 (ties all score).
    fn on_final_scoring(&self, _rules: &Rules, st: &mut State, me: usize) {
        let goods = st.plugin::<TradersState>(me).goods;
        for (k, name) in GOODS.iter().enumerate() {
            let max = (0..st.players).map(|p| goods[p][k]).max().unwrap_or(0);
            if max == 0 {
                continue;
            }
            for (p, held) in goods.iter().enumerate().take(st.players) {
                if held[k] == max {
                    st.score_other(p as u8, self.goods_points, self.ids.goods_source, &format!("most {name}"));
                }
            }
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["eatable", "needs_follower", "fairy_may_join", "capturable", "princess_removable"])
    }

    /// COMBO-BUILDER-PIG: builders and pigs are not eaten, captured, removed or joined by a
    /// fairy; they need their owner's follower (PD-DRAGON-7).
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let f = &st.figures[q.figure? as usize];
        if f.kind != self.ids.builder && f.kind != self.ids.pig {
            return None;
        }
        Some(q.key == carcassonne_core::plugin::QueryKey::NEEDS_FOLLOWER)
    }
}
