//! Castles of Bridges, Castles and Bazaars (EXPANSIONS.md CASTLE-1..4) and how the dragon,
//! the fairy and the portal treat them (RULES.md COMBO-CASTLE).
//!
//! - CASTLE-1: castle tokens per seat (3 with 2-4 players, 2 with 5-6), in the plugin state.
//! - CASTLE-2: when a small city completes (two tiles, each one city part with one side,
//!   no part with `castle-base=false`) holding exactly one follower, whose owner has a
//!   token, that owner decides (`build_castle` or pass) before the city is scored. A castle
//!   takes the city over: it is marked scored, and its knight stays, moved out of the city
//!   feature onto its tile (no feature), so that nothing scores the city.
//!   The plugin must run before `base` (a lower priority) to be asked first.
//! - CASTLE-3: the neighbourhood is the castle's two cells and the four cells beside them
//!   (two on each long side). After the castle's turn, the first time roads, cities or
//!   monasteries touching it are completed (a monastery by its own cell; occupied or not),
//!   in the scoring step of that turn the owner scores the highest of their values
//!   (`base`'s completed points), and the knight returns. A castle scoring this way is a
//!   completed feature worth the points it scored for the other castles (of that turn).
//! - CASTLE-4: a castle not scored by the end scores nothing. In every scoring of a field
//!   by its completed cities (`ScoreEvent::per_city`: farmers at the end, and the barn's
//!   three scorings), the same seats score `farmer_bonus` (1) more for each castle the
//!   field touches: a castle is worth 4 to farmers at the end, 4 when a barn is placed, 2
//!   when farmers join a barn's field, 5 to the barns at the end.
//! - COMBO-CASTLE: the dragons pass castles (they may enter their tiles) and eat no knight
//!   in a castle; the fairy may not join a knight in a castle, and a fairy with the knight
//!   goes to the supply when the castle is built (the knight's move is announced through
//!   `FIGURE_MOVED`; the fairies re-ask `fairy_may_join`); no portal placement into a castle
//!   city (scored, and `portal_target` says no); castle scorings are extra (source
//!   `castle`): no fairy points. Building a castle is no figure placement, so a castle may
//!   overlap a lair or volcano tile.

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Answers, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{Figure, FigureId, RemoveReason, ScoreEvent, State, MAX_PLAYERS};
use carcassonne_core::{FeatureKind, NodeId, Pos};
use serde::{Deserialize, Serialize};

/// Options of the castle.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Castle {
    /// CASTLE-4: extra points per castle in every scoring of a field by its cities (4 - 3).
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub farmer_bonus: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    portal_target: QueryKey,
    source: u8,
    no_base: u32,
    built: usize,
    scored: usize,
}

impl Default for Castle {
    fn default() -> Self {
        Castle { farmer_bonus: 1, ids: Ids::default() }
    }
}

/// The factory a rule set names as `castle`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "castle",
        summary: "castles: a completed small city becomes a castle scoring its neighbourhood's first feature (CASTLE-1..4, COMBO-CASTLE)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Castle>,
    }
}

/// Decision and action: build a castle on the city of root `data` / `a`.
pub const BUILD: u16 = 1;

/// CASTLE-1: castle tokens per seat for 0..=6 players.
pub const TOKENS: [u8; MAX_PLAYERS + 1] = [3, 3, 3, 3, 3, 2, 2];

/// One castle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleInfo {
    /// Its two placed parts.
    pub parts: [u32; 2],
    /// The root of its (scored) city.
    pub city: NodeId,
    pub owner: u8,
    /// The knight in it, until the castle scores.
    pub knight: Option<FigureId>,
    /// Turn it was built.
    pub turn: u32,
    /// Points it scored (CASTLE-3), once scored.
    pub scored: Option<i32>,
}

/// The castle's game state.
#[derive(Debug, Default)]
pub struct CastleState {
    pub castles: Vec<CastleInfo>,
    /// Castle tokens in each seat's supply.
    pub tokens: [u8; MAX_PLAYERS],
    /// Roads, cities and monasteries completed this turn, with their values.
    completed: Vec<(NodeId, i32)>,
}

carcassonne_core::clone_fields!(CastleState { castles, tokens, completed });

impl CastleState {
    fn is_knight(&self, id: FigureId) -> bool {
        self.castles.iter().any(|c| c.knight == Some(id))
    }
    fn is_castle_city(&self, st: &State, root: NodeId) -> bool {
        self.castles.iter().any(|c| st.graph.find(c.city) == root)
    }
    /// Castles that may score: built before this turn, not scored yet.
    fn waiting(&self, turn: u32) -> bool {
        self.castles.iter().any(|c| c.scored.is_none() && c.turn < turn)
    }
}

/// The six cells of a castle's neighbourhood (CASTLE-3).
fn neighbourhood(st: &State, parts: [u32; 2]) -> [Pos; 6] {
    let a = st.board.parts[parts[0] as usize].pos;
    let b = st.board.parts[parts[1] as usize].pos;
    let (dx, dy) = if a.y == b.y { (0, 1) } else { (1, 0) };
    [
        a,
        b,
        Pos::new(a.x - dx, a.y - dy),
        Pos::new(b.x - dx, b.y - dy),
        Pos::new(a.x + dx, a.y + dy),
        Pos::new(b.x + dx, b.y + dy),
    ]
}

impl Castle {
    /// CASTLE-2: the knight of a completed small city that may become a castle.
    fn castle_knight(&self, rules: &Rules, st: &State, me: usize, root: NodeId) -> Option<FigureId> {
        if st.graph.node(root).kind != FeatureKind::City
            || st.graph.is_scored(root)
            || st.graph.size(root) != 2
            || st.graph.followers(root) != 1
        {
            return None;
        }
        let mut parts = [u32::MAX; 2];
        for (i, m) in st.graph.members(root).enumerate() {
            let node = st.graph.node(m);
            let f = &st.rotated(rules, node.part).features[node.local as usize];
            if f.sides.count_ones() != 1 || st.node_modifiers(rules, m) & self.ids.no_base != 0 {
                return None;
            }
            parts[i.min(1)] = node.part;
        }
        if parts[0] == parts[1] {
            return None;
        }
        let mut knight = None;
        for id in st.figures_in(root) {
            let f = &st.figures[id as usize];
            if rules.figure_kinds[f.kind as usize].follower {
                if knight.is_some() {
                    return None;
                }
                knight = Some(id);
            }
        }
        let id = knight?;
        (st.plugin::<CastleState>(me).tokens[st.figures[id as usize].owner as usize] > 0).then_some(id)
    }

    /// CASTLE-3: the castles that score this turn, and their points.
    fn score_castles(&self, rules: &Rules, st: &mut State, me: usize) {
        let s = st.plugin::<CastleState>(me);
        let n = s.castles.len();
        let mut best: Vec<Option<i32>> = vec![None; n];
        let hoods: Vec<[Pos; 6]> = s.castles.iter().map(|c| neighbourhood(st, c.parts)).collect();
        let eligible: Vec<bool> = s.castles.iter().map(|c| c.scored.is_none() && c.turn < st.turn).collect();
        for i in (0..n).filter(|&i| eligible[i]) {
            for &(root, value) in &s.completed {
                let touches = st
                    .graph
                    .members(root)
                    .any(|m| hoods[i].contains(&st.board.parts[st.graph.node(m).part as usize].pos));
                if touches && best[i].is_none_or(|b| value > b) {
                    best[i] = Some(value);
                }
            }
        }
        // A castle scoring counts as a completed feature for the others: values spread
        // until nothing changes (they only grow, so this ends).
        let cells: Vec<[Pos; 2]> = s.castles.iter().map(|c| c.parts.map(|p| st.board.parts[p as usize].pos)).collect();
        loop {
            let mut changed = false;
            for i in (0..n).filter(|&i| eligible[i]) {
                for j in (0..n).filter(|&j| j != i) {
                    let Some(v) = best[j] else { continue };
                    if cells[j].iter().any(|c| hoods[i].contains(c)) && best[i].is_none_or(|b| v > b) {
                        best[i] = Some(v);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for (i, b) in best.into_iter().enumerate() {
            let Some(points) = b else { continue };
            let c = st.plugin::<CastleState>(me).castles[i];
            st.score_players(rules, Some(c.city), 1 << c.owner, points, self.ids.source, false, "castle");
            st.bump_stat(self.ids.scored, 1);
            tracing::debug!(turn = st.turn, owner = c.owner, points, "castle scored");
            let s = st.plugin_mut::<CastleState>(me);
            s.castles[i].scored = Some(points);
            s.castles[i].knight = None;
            if let Some(k) = c.knight {
                st.remove_figure(rules, k, RemoveReason::Scored);
            }
        }
    }
}

impl Plugin for Castle {
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
        "castle"
    }

    fn hooks(&self) -> Hooks {
        Hooks::TURN_START
            | Hooks::FEATURE_COMPLETED
            | Hooks::SCORING_DONE
            | Hooks::FIGURE_REMOVED
            | Hooks::FEATURE_SCORED
            | Hooks::QUERY
    }

    /// The turn's completed features are cleared and scored for the castles only on the
    /// turns that noted some (requested when one is noted).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::TURN_START | Hooks::SCORING_DONE
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.no_base = reg.catalog().modifier("castle-base=false");
        self.ids.source = reg.extra_source("castle")?;
        self.ids.portal_target = reg.query("portal_target");
        self.ids.built = reg.stat("castles_built");
        self.ids.scored = reg.stat("castles_scored");
        Ok(())
    }

    /// CASTLE-1.
    /// The castle decision must come before `base` scores the completed city: `castle`
    /// runs first (a lower priority, e.g. -10).
    fn setup(&self, rules: &Rules, _setup: &mut carcassonne_core::Setup) -> Result<(), String> {
        match (rules.plugin_index("castle"), rules.plugin_index("base")) {
            (Some(c), Some(b)) if c > b => {
                Err("must run before 'base' (give it a lower priority than base's, e.g. -10)".into())
            }
            _ => Ok(()),
        }
    }

    fn init_state(&self, _rules: &Rules, players: usize) -> Option<Box<dyn PluginState>> {
        let mut s = CastleState::default();
        for t in s.tokens.iter_mut().take(players) {
            *t = TOKENS[players.min(MAX_PLAYERS)];
        }
        Some(Box::new(s))
    }

    fn on_turn_start(&self, _rules: &Rules, st: &mut State, me: usize) {
        st.plugin_mut::<CastleState>(me).completed.clear();
    }

    /// CASTLE-2: the knight's owner may turn a completed small city into a castle;
    /// CASTLE-3: the turn's completed features are noted for the castles waiting.
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, me: usize, root: NodeId) {
        let kind = st.graph.node(root).kind;
        if st.plugin::<CastleState>(me).waiting(st.turn)
            && matches!(kind, FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery)
        {
            let tiles = st.feature_tiles(root);
            if let Some(v) = carcassonne_plugin_base::completed_points(kind, tiles, st.graph.pennants(root)) {
                st.plugin_mut::<CastleState>(me).completed.push((root, v));
                st.request_hook(me, Hooks::TURN_START | Hooks::SCORING_DONE);
            }
        }
        if let Some(knight) = self.castle_knight(rules, st, me, root) {
            let player = st.figures[knight as usize].owner;
            st.push_decision(Decision {
                player,
                kind: DecisionKind::Plugin { plugin: me as u8, code: BUILD, data: root as i32 },
            });
        }
    }

    fn on_scoring_done(&self, rules: &Rules, st: &mut State, me: usize) {
        if !st.plugin::<CastleState>(me).completed.is_empty() {
            self.score_castles(rules, st, me);
        }
        st.plugin_mut::<CastleState>(me).completed.clear();
    }

    fn on_figure_removed(&self, _r: &Rules, st: &mut State, me: usize, id: FigureId, _f: &Figure, _w: RemoveReason) {
        let s = st.plugin_mut::<CastleState>(me);
        if let Some(c) = s.castles.iter_mut().find(|c| c.knight == Some(id)) {
            c.knight = None;
        }
    }

    /// CASTLE-4: in every scoring of a field by its completed cities (farmers at the end,
    /// barns), each castle it touches is worth `farmer_bonus` more, to the same seats.
    fn on_feature_scored(&self, rules: &Rules, st: &mut State, me: usize, ev: &ScoreEvent) {
        let (Some(root), Some(_)) = (ev.root, ev.per_city) else { return };
        if ev.winners == 0 || self.farmer_bonus == 0 || st.plugin::<CastleState>(me).castles.is_empty() {
            return;
        }
        let s = st.plugin::<CastleState>(me);
        let castles = st.field_cities(rules, root).into_iter().filter(|&c| s.is_castle_city(st, c)).count();
        if castles == 0 {
            return;
        }
        let points = self.farmer_bonus * castles as i32;
        let reason = if ev.final_scoring { "castle final" } else { "castle in field" };
        st.score_players(rules, Some(root), ev.winners, points, self.ids.source, ev.final_scoring, reason);
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["eatable", "capturable", "fairy_may_join", "princess_removable", "portal_target"])
    }

    /// COMBO-CASTLE: a knight in a castle is neither eaten, captured nor removed, takes no
    /// fairy; nothing goes into a castle through the portal.
    fn answer(&self, _rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        // Asked only the names of `query_names`: `portal_target`, or one of the four
        // questions about a figure.
        if q.key == self.ids.portal_target {
            let n = q.node?;
            // Only a city can be a castle's (a quick no for the portal's roads and fields).
            if st.graph.node(n).kind != FeatureKind::City {
                return None;
            }
            let s = st.plugin::<CastleState>(me);
            return (!s.castles.is_empty() && s.is_castle_city(st, st.graph.find(n))).then_some(false);
        }
        let id = q.figure?;
        st.plugin::<CastleState>(me).is_knight(id).then_some(false)
    }

    /// [`Plugin::answer`] to a list of questions (the portal's): no opinion at all while no
    /// castle stands.
    fn answer_many(&self, rules: &Rules, st: &State, me: usize, qs: &[Query]) -> Answers {
        let mut a = Answers::default();
        if st.plugin::<CastleState>(me).castles.is_empty() {
            return a;
        }
        for (i, q) in qs.iter().enumerate() {
            a.set(i, self.answer(rules, st, me, q));
        }
        a
    }

    /// [`Plugin::answer`] about a list of figures (the fairies' lists): each figure's id
    /// compared with the castles' knights.
    fn answer_figures(&self, rules: &Rules, st: &State, me: usize, key: QueryKey, by: u8, ids: &[FigureId]) -> Answers {
        let mut a = Answers::default();
        let s = st.plugin::<CastleState>(me);
        if s.castles.is_empty() {
            return a;
        }
        for (i, &id) in ids.iter().enumerate() {
            if key == self.ids.portal_target {
                // About the figure's feature (`answer`), not the figure.
                let q = Query::about_figure(key, id, &st.figures[id as usize], by);
                a.set(i, self.answer(rules, st, me, &q));
            } else {
                // One of the four questions about a figure (`query_names`).
                a.no |= u64::from(s.is_knight(id)) << i;
            }
        }
        a
    }

    fn decision_actions(&self, _rules: &Rules, _st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        let DecisionKind::Plugin { code: BUILD, data, .. } = d.kind else { return };
        out.push(Action::Plugin { plugin: me as u8, code: BUILD, a: data, b: 0 });
        out.push(Action::Pass);
    }

    /// CASTLE-2: the castle; its knight moves off the city feature (the fairies hear of it).
    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let Action::Plugin { code: BUILD, a: root, .. } = *a else { return };
        let root = root as NodeId;
        let Some(knight) = self.castle_knight(rules, st, me, root) else { return };
        let mut parts = [0u32; 2];
        for (i, m) in st.graph.members(root).enumerate().take(2) {
            parts[i] = st.graph.node(m).part;
        }
        parts.sort_unstable();
        let part = st.figures[knight as usize].part;
        st.graph.set_scored(root);
        let turn = st.turn;
        let s = st.plugin_mut::<CastleState>(me);
        s.tokens[d.player as usize] -= 1;
        s.completed.retain(|&(r, _)| r != root);
        s.castles.push(CastleInfo { parts, city: root, owner: d.player, knight: Some(knight), turn, scored: None });
        // The knight moves into the castle, off the city feature; the castle is known first,
        // so that plugins hearing of the move see a castle knight.
        st.move_figure(rules, knight, part, None);
        st.bump_stat(self.ids.built, 1);
        tracing::debug!(turn = st.turn, owner = d.player, at = %st.board.parts[part as usize].pos, "castle built");
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: BUILD, a: root, .. } = *a else { return serde_json::Value::Null };
        serde_json::json!({"action": "build_castle", "city": st.feature_name(rules, root as NodeId)})
    }
}
