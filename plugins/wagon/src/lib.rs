//! The wagon of Abbey & Mayor (EXPANSIONS.md WAGON-1..4).
//!
//! - WAGON-1: one wagon per seat, figure kind `wagon`: a follower (it occupies its feature)
//!   of strength 1. Instead of a normal follower (the turn's one figure action), the player
//!   may put it on an unoccupied road, city or monastery (the abbey included) of the tile
//!   just placed, never in a field or on a garden, through every plugin's figure veto.
//!   Statistic `wagons_placed`.
//! - WAGON-2: when a feature holding a wagon is completed and scored during the game, the
//!   core returns the wagon with the feature's other figures (`on_figure_removed`, reason
//!   `Scored`: the wagon is noted as freed, with the tile it stood on and the scored
//!   feature). After the turn's scoring (`on_scoring_done`, requested when a wagon is
//!   freed: `hooks_on_request`), its owner decides (a plugin decision): `pass` leaves it in supply, or `move` puts it on a road, city or monastery
//!   that is incomplete and holds no follower, on the wagon's tile or one of the 8 around
//!   it (option `wagon_move = "c2"`), one action per (cell, feature) pair, through every
//!   plugin's figure veto. Statistics `wagon_moves`, `wagons_freed`.
//! - WAGON-3: several freed wagons decide one after the other, in turn order from the
//!   active player; each decision is asked when the one before it was answered, so the
//!   next owner sees the move made (a feature a wagon moved onto is occupied). Wagons do
//!   not move at final scoring (only removals during the game's scoring are noted).
//! - WAGON-4: `wagon_move = "c1"` (1st edition): the wagon moves only to a feature linked
//!   directly to the scored one on one of the scored feature's tiles: a road ending at a
//!   city gate or a monastery, as the tile data writes it (`ends=city#k`, `ends=monastery`,
//!   TILES-MORE.md rule 17), either way round (from the road to the city or monastery, or
//!   back), whatever the distance to the wagon's tile.
//! - Combinations: the wagon is a follower for every other plugin, like the large meeple:
//!   both dragons eat it, a tower captures it (and may hold it as a prisoner), the princess
//!   may remove it from a city, either fairy may join it (the 2025 fairy leaves when it is
//!   scored; a moved wagon is a new placement with no fairy), it travels through the portal
//!   (this plugin answers `portal_target` for its kind: roads, cities, monasteries), the
//!   abbot and it exclude each other on a monastery (occupancy). A castle built from a city
//!   held by a wagon keeps it as its follower; when the castle scores, it returns without
//!   moving (it was not its feature's scoring).

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{Figure, FigureId, Phase, RemoveReason, State};
use carcassonne_core::{FeatureKind, NodeId, Pos};
use serde::{Deserialize, Serialize};

/// WAGON-4: where a freed wagon may move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WagonMove {
    /// A feature on the wagon's tile or the 8 around it (2nd edition).
    #[default]
    C2,
    /// A feature linked directly to the scored one (1st edition).
    C1,
}

/// Options of the wagon.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Wagon {
    pub wagon_move: WagonMove,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    portal_target: QueryKey,
    placed: usize,
    freed: usize,
    moves: usize,
}

/// The factory a rule set names as `wagon`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "wagon",
        summary: "Abbey & Mayor's wagon: a follower on roads, cities and monasteries that moves on after its \
                  feature scores (WAGON-1..4)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Wagon>,
    }
}

/// The figure kind's name.
pub const KIND: &str = "wagon";
/// The code of the move decision and of its `move` action.
const MOVE: u16 = 1;

/// A wagon freed by a scoring this turn, waiting for its owner's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Freed {
    pub owner: u8,
    /// The placed part the wagon stood on.
    pub part: u32,
    /// The scored feature (a member node).
    pub node: NodeId,
}

/// The plugin's game state.
#[derive(Debug, Default)]
pub struct WagonState {
    /// Wagons freed this turn, not yet decided.
    pub freed: Vec<Freed>,
}

carcassonne_core::clone_fields!(WagonState { freed });

impl Wagon {
    /// WAGON-1: the features a wagon may stand on.
    fn wagon_feature(kind: FeatureKind) -> bool {
        matches!(kind, FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery)
    }

    /// WAGON-2: a target is a road, city or monastery, incomplete, unoccupied, allowed.
    fn open_target(&self, rules: &Rules, st: &State, player: u8, part: u32, local: u8) -> bool {
        let node = st.node_of(part, local);
        let n = st.graph.node(node);
        Self::wagon_feature(n.kind)
            && st.graph.followers(node) == 0
            && !st.graph.is_scored(node)
            && !st.is_complete(node)
            && rules.allow_figure(st, &FigurePlacement { player, kind: self.ids.kind, part, node: Some(node) })
    }

    /// The (part, feature) pairs a freed wagon may move to.
    fn targets(&self, rules: &Rules, st: &State, w: &Freed, out: &mut Vec<(u32, u8)>) {
        match self.wagon_move {
            WagonMove::C2 => {
                let at = st.board.parts[w.part as usize].pos;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let Some(part) = st.part_at(Pos::new(at.x + dx, at.y + dy)) else { continue };
                        for local in 0..st.rotated(rules, part).features.len() as u8 {
                            if self.open_target(rules, st, w.owner, part, local) {
                                out.push((part, local));
                            }
                        }
                    }
                }
            }
            WagonMove::C1 => {
                for m in st.graph.members(w.node) {
                    let (part, local) = (st.graph.node(m).part, st.graph.node(m).local);
                    let p = &st.board.parts[part as usize];
                    let feats =
                        &rules.catalog.tiles[p.tile as usize].faces[p.face as usize].parts[p.part as usize].features;
                    let mut linked: Vec<u8> = feats[local as usize].ends_at.clone();
                    for (i, f) in feats.iter().enumerate() {
                        if f.ends_at.contains(&local) {
                            linked.push(i as u8);
                        }
                    }
                    for l in linked {
                        if !out.contains(&(part, l)) && self.open_target(rules, st, w.owner, part, l) {
                            out.push((part, l));
                        }
                    }
                }
            }
        }
    }

    /// Asks the next freed wagon's owner (turn order from the active player), if any.
    fn ask_next(&self, st: &mut State, me: usize) {
        let (players, current) = (st.players, st.current);
        let s = st.plugin_mut::<WagonState>(me);
        if s.freed.is_empty() {
            return;
        }
        let rank = |p: u8| (p as usize + players - current as usize) % players;
        s.freed.sort_by_key(|w| rank(w.owner));
        let owner = s.freed[0].owner;
        st.push_decision(Decision {
            player: owner,
            kind: DecisionKind::Plugin { plugin: me as u8, code: MOVE, data: 0 },
        });
    }
}

impl Plugin for Wagon {
    fn name(&self) -> &str {
        "wagon"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED | Hooks::FIGURE_REMOVED | Hooks::SCORING_DONE | Hooks::QUERY
    }

    /// The freed wagons' decisions after scoring only on the turns that freed one
    /// (requested when a wagon is freed).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::SCORING_DONE
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind(KIND, true, 1, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about its own figure only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.portal_target = reg.query("portal_target");
        self.ids.placed = reg.stat("wagons_placed");
        self.ids.freed = reg.stat("wagons_freed");
        self.ids.moves = reg.stat("wagon_moves");
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(WagonState::default()))
    }

    /// WAGON-1: the wagon on an unoccupied road, city or monastery of the placed tile.
    fn figure_actions(&self, rules: &Rules, st: &State, _me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.kind;
        if st.supply[player as usize][kind as usize] == 0 {
            return;
        }
        for part in st.placed_parts() {
            for (local, f) in st.rotated(rules, part).features.iter().enumerate() {
                let node = st.node_of(part, local as u8);
                if !Self::wagon_feature(f.kind) || st.graph.followers(node) > 0 {
                    continue;
                }
                if rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) }) {
                    out.push(Action::PlaceFigure { kind, part, feature: local as u8 });
                }
            }
        }
    }

    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        if st.figures[fig as usize].kind == self.ids.kind {
            st.bump_stat(self.ids.placed, 1);
        }
    }

    /// WAGON-2: a wagon returned by its feature's scoring during the game is freed.
    fn on_figure_removed(
        &self,
        _rules: &Rules,
        st: &mut State,
        me: usize,
        _id: FigureId,
        f: &Figure,
        why: RemoveReason,
    ) {
        if f.kind != self.ids.kind || why != RemoveReason::Scored || st.phase != Phase::Scoring {
            return;
        }
        let Some(node) = f.node.filter(|&n| st.graph.is_scored(n)) else { return };
        st.plugin_mut::<WagonState>(me).freed.push(Freed { owner: f.owner, part: f.part, node });
        st.request_hook(me, Hooks::SCORING_DONE);
        st.bump_stat(self.ids.freed, 1);
    }

    /// WAGON-3: after the turn's scoring, the freed wagons' owners decide in turn order.
    fn on_scoring_done(&self, _rules: &Rules, st: &mut State, me: usize) {
        self.ask_next(st, me);
    }

    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, _d: &Decision, out: &mut Vec<Action>) {
        let Some(w) = st.plugin::<WagonState>(me).freed.first().copied() else { return };
        let mut targets = Vec::new();
        self.targets(rules, st, &w, &mut targets);
        out.extend(targets.into_iter().map(|(part, local)| Action::Plugin {
            plugin: me as u8,
            code: MOVE,
            a: part as i32,
            b: local as i32,
        }));
        out.push(Action::Pass);
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        let s = st.plugin_mut::<WagonState>(me);
        if s.freed.is_empty() {
            return;
        }
        let w = s.freed.remove(0);
        if let Action::Plugin { code: MOVE, a: part, b: local, .. } = *a {
            let (part, local) = (part as u32, local as u8);
            let node = st.node_of(part, local);
            st.add_figure(rules, w.owner, self.ids.kind, part, Some(node));
            st.bump_stat(self.ids.moves, 1);
        }
        self.ask_next(st, me);
    }

    /// A recorded move that is not legal: which WAGON rule it breaks.
    fn explain_illegal(&self, rules: &Rules, st: &State, me: usize, want: &serde_json::Value) -> Option<String> {
        let w = st.plugin::<WagonState>(me).freed.first().copied()?;
        let cell = want.get("cell")?.as_array()?;
        let (x, y) = (cell.first()?.as_i64()? as i32, cell.get(1)?.as_i64()? as i32);
        let pos = Pos::new(x, y);
        let Some(part) = st.part_at(pos) else { return Some(format!("no tile lies at {pos}")) };
        let name = want.get("feature")?.as_str()?;
        let feats = st.rotated(rules, part).features.len() as u8;
        let Some(local) = (0..feats).find(|&l| st.local_feature_name(rules, part, l) == name) else {
            return Some(format!("the tile at {pos} has no feature {name}"));
        };
        let node = st.node_of(part, local);
        let why = if !Self::wagon_feature(st.graph.node(node).kind) {
            "a wagon moves only to a road, city or monastery (WAGON-1)"
        } else if st.graph.is_scored(node) || st.is_complete(node) {
            "that feature is completed (WAGON-2)"
        } else if st.graph.followers(node) > 0 {
            "that feature is occupied (WAGON-2)"
        } else {
            let mut t = Vec::new();
            self.targets(rules, st, &w, &mut t);
            if t.contains(&(part, local)) {
                return None;
            }
            match self.wagon_move {
                WagonMove::C2 => "it is not on the wagon's tile or one of the 8 around it (WAGON-2)",
                WagonMove::C1 => "it is not linked directly to the scored feature (WAGON-4, wagon_move = c1)",
            }
        };
        Some(format!("{} {name}: {why}", pos))
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: MOVE, a: part, b: local, .. } = *a else { return serde_json::Value::Null };
        let pos = st.board.parts[part as usize].pos;
        let feature = st.local_feature_name(rules, part as u32, local as u8);
        serde_json::json!({"action": "move", "cell": [pos.x, pos.y], "feature": feature})
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["portal_target"])
    }

    /// `portal_target` for the wagon: roads, cities and monasteries only (WAGON-1).
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        match (q.key == self.ids.portal_target, q.kind, q.node) {
            (true, Some(k), Some(n)) if k == self.ids.kind && !Self::wagon_feature(st.graph.node(n).kind) => {
                Some(false)
            }
            _ => None,
        }
    }
}
