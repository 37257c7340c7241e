//! The barn of Abbey & Mayor (EXPANSIONS.md BARN-1..5) and how the dragon, the fairy and
//! the portal treat it (RULES.md COMBO-BARN).
//!
//! A barn is a figure (kind `barn`, no follower) standing in a field at a tile corner: on
//! the placed part whose corner it is, in that part's field there (`data` = the corner,
//! 0..4 = NW, NE, SE, SW).
//! - BARN-1: one barn per seat. Instead of placing a follower, the player may put it on a
//!   corner of the tile just placed where four placed tiles meet with field at all four
//!   tile corners, unless that field already has a barn (`place_barn`). A barn stands on a
//!   corner, not on a tile: tile vetoes on figures (a volcano, a lair, the dragon's tile)
//!   do not apply to it (COMBO-BARN: "a barn may overlap a lair tile").
//! - BARN-2: then the field's farmers score at once, the majority 3 per completed city,
//!   and every farmer of that field returns.
//! - BARN-3: no figure may be placed in a field with a barn (a veto in `allow_figure`, so
//!   also not through the portal). When a placed tile joins a field with farmers to one
//!   with a barn, those farmers score 1 per completed city (majority) and return in that
//!   turn's scoring step (`on_scoring_step`, after the figure action and the decisions it
//!   brought, e.g. a dragon that ate some of them), so a farmer sent home this way cannot
//!   be placed again that turn.
//! - CASTLE-4 (with `castle`): every scoring here goes through `State::score_field`, so a
//!   castle touching the field adds its bonus to each (4, 2 and 5 per castle).
//! - BARN-4: at the end, the majority of barns in each field scores 4 per completed city
//!   (its farmers were all scored before).
//! - BARN-5: barns never leave the board: not eatable, not capturable.
//! - COMBO-BARN: the dragons pass barns (they may enter their tiles) and eat no barn; the
//!   fairy joins no barn; only followers travel through the portal; barn scorings are
//!   extra (score source `barn`, [`carcassonne_core::ScoreEvent::extra`]): no fairy points.
//!   Farmers do not stand on barns here (BARN-2 sends them home), so a fairy with such a
//!   farmer follows its own rule for a follower leaving the board.

mod draw;

use carcassonne_core::action::{Action, Decision};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, PluginState, Query};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{FigureId, FigureList, RemoveReason, State, MAX_PLAYERS};
use carcassonne_core::tile::NONE;
use carcassonne_core::{FeatureKind, NodeId, Pos};
use serde::{Deserialize, Serialize};

/// Options of the barn.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Barn {
    /// BARN-2: points per completed city to the farmers when a barn is placed in their field.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub placed_points: i32,
    /// BARN-3: points per completed city to farmers whose field joins a barn's.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub joined_points: i32,
    /// BARN-4: points per completed city to the barns' majority at the end.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub final_points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    source: u8,
    placed: usize,
    farmers: usize,
}

impl Default for Barn {
    fn default() -> Self {
        Barn { placed_points: 3, joined_points: 1, final_points: 4, ids: Ids::default() }
    }
}

/// The factory a rule set names as `barn`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "barn",
        summary:
            "barn: on a four-tile field corner, farmers paid at once, 4 per city at the end (BARN-1..5, COMBO-BARN)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Barn>,
    }
}

/// Figure-decision action: the barn onto corner `b` of placed part `a`.
pub const PLACE: u16 = 1;

/// Corner names, clockwise from the north-west.
pub const CORNERS: [&str; 4] = ["NW", "NE", "SE", "SW"];

/// The barn's game state.
#[derive(Debug, Default)]
pub struct BarnState {
    /// Barn figures on the board, in placement order.
    pub barns: Vec<FigureId>,
}

carcassonne_core::clone_fields!(BarnState { barns });

/// The two half-edges (rotated, as on the board) meeting at corner `c` of a tile.
fn corner_halves(c: u8) -> (usize, usize) {
    (((2 * c as usize) + 7) % 8, 2 * c as usize)
}

/// The field feature (local index) covering corner `c` of placed part `part`, if that
/// tile corner is field.
fn corner_field(rules: &Rules, st: &State, part: u32, c: u8) -> Option<u8> {
    let rp = st.rotated(rules, part);
    let (a, b) = corner_halves(c);
    let f = rp.half_feature[a];
    (f != NONE && f == rp.half_feature[b]).then_some(f)
}

impl Barn {
    /// Roots of the fields holding a barn.
    fn barn_in(&self, st: &State, me: usize, root: NodeId) -> bool {
        st.plugin::<BarnState>(me)
            .barns
            .iter()
            .any(|&b| st.figures[b as usize].node.is_some_and(|n| st.graph.find(n) == root))
    }

    /// BARN-1: the field node of corner `c` of placed part `part` if a barn may go there.
    fn corner_ok(&self, rules: &Rules, st: &State, me: usize, part: u32, c: u8) -> Option<NodeId> {
        let local = corner_field(rules, st, part, c)?;
        let pos = st.board.parts[part as usize].pos;
        let dx = if c == 1 || c == 2 { 1 } else { -1 };
        let dy = if c >= 2 { 1 } else { -1 };
        // The other three tiles at this corner, each with its own corner there.
        for (cell, corner) in [
            (Pos::new(pos.x + dx, pos.y), c ^ 1),
            (Pos::new(pos.x, pos.y + dy), 3 - c),
            (Pos::new(pos.x + dx, pos.y + dy), (c + 2) % 4),
        ] {
            let other = st.board.part_at(cell)?;
            corner_field(rules, st, other, corner)?;
        }
        let node = st.node_of(part, local);
        (!self.barn_in(st, me, st.graph.find(node))).then_some(node)
    }

    /// Scores the farmers of a field at `per_city` points per completed city (majority)
    /// and sends every follower of that field home (BARN-2, BARN-3).
    fn pay_farmers(&self, rules: &Rules, st: &mut State, root: NodeId, per_city: i32, reason: &str) {
        let winners = st.majority(rules, root);
        if winners == 0 {
            return;
        }
        st.score_field(rules, root, winners, per_city, self.ids.source, false, reason);
        let follower = |id: &FigureId| rules.figure_kinds[st.figures[*id as usize].kind as usize].follower;
        let ids: FigureList = st.figures_in(root).filter(follower).collect();
        for &id in ids.iter() {
            st.remove_figure(rules, id, RemoveReason::Scored);
        }
        st.bump_stat(self.ids.farmers, ids.len() as i64);
    }
}

impl Plugin for Barn {
    fn name(&self) -> &str {
        "barn"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SCORING_STEP | Hooks::FIGURE_ACTIONS | Hooks::ALLOW_FIGURE | Hooks::FINAL_SCORING | Hooks::QUERY
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind("barn", false, 0, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about the barn only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.source = reg.extra_source("barn")?;
        self.ids.placed = reg.stat("barns_placed");
        self.ids.farmers = reg.stat("barn_farmers_scored");
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(BarnState::default()))
    }

    /// BARN-3: in the scoring step, a tile that joined a field with farmers to a barn's
    /// pays them 1 per city (farmers never enter a barn's field otherwise).
    fn on_scoring_step(&self, rules: &Rules, st: &mut State, me: usize) {
        if st.plugin::<BarnState>(me).barns.is_empty() {
            return;
        }
        let mut roots: [NodeId; 8] = [0; 8];
        let mut n = 0;
        for part in st.placed_parts() {
            for (local, f) in st.rotated(rules, part).features.iter().enumerate() {
                if f.kind != FeatureKind::Field {
                    continue;
                }
                let root = st.graph.find(st.node_of(part, local as u8));
                if n < roots.len() && !roots[..n].contains(&root) {
                    roots[n] = root;
                    n += 1;
                }
            }
        }
        for &root in &roots[..n] {
            if st.graph.followers(root) > 0 && self.barn_in(st, me, root) {
                self.pay_farmers(rules, st, root, self.joined_points, "barn joined");
            }
        }
    }

    /// BARN-1: the barn on a corner of the tile just placed.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        if st.supply[st.current as usize][self.ids.kind as usize] == 0 {
            return;
        }
        for part in st.placed_parts() {
            for c in 0..4u8 {
                if self.corner_ok(rules, st, me, part, c).is_some() {
                    out.push(Action::Plugin { plugin: me as u8, code: PLACE, a: part as i32, b: c as i32 });
                }
            }
        }
    }

    /// BARN-3: nothing else goes into a field with a barn.
    fn allow_figure(&self, _rules: &Rules, st: &State, me: usize, p: &FigurePlacement) -> bool {
        let Some(node) = p.node else { return true };
        if st.graph.node(node).kind != FeatureKind::Field || st.plugin::<BarnState>(me).barns.is_empty() {
            return true;
        }
        p.kind == self.ids.kind || !self.barn_in(st, me, st.graph.find(node))
    }

    /// [`Plugin::allow_figure`] of a list (the portal's candidates): the barns' fields found
    /// once.
    fn allow_figures(&self, rules: &Rules, st: &State, me: usize, cands: &[FigurePlacement], allowed: &mut [bool]) {
        let barns = &st.plugin::<BarnState>(me).barns;
        if barns.is_empty() {
            return;
        }
        // BARN-1: one barn per seat (more, from a changed supply: asked one by one).
        let mut fields = [NodeId::MAX; MAX_PLAYERS];
        if barns.len() > fields.len() {
            for (p, ok) in cands.iter().zip(allowed.iter_mut()) {
                *ok = *ok && self.allow_figure(rules, st, me, p);
            }
            return;
        }
        for (field, &b) in fields.iter_mut().zip(barns) {
            if let Some(n) = st.figures[b as usize].node {
                *field = st.graph.find(n);
            }
        }
        for (p, ok) in cands.iter().zip(allowed.iter_mut()) {
            let Some(node) = p.node.filter(|_| *ok && p.kind != self.ids.kind) else { continue };
            if st.graph.node(node).kind == FeatureKind::Field && fields.contains(&st.graph.find(node)) {
                *ok = false;
            }
        }
    }

    /// BARN-2: the barn goes down, its field's farmers score and return.
    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let Action::Plugin { code: PLACE, a: part, b: c, .. } = *a else { return };
        let (part, c) = (part as u32, c as u8);
        let Some(node) = self.corner_ok(rules, st, me, part, c) else { return };
        let id = st.add_figure(rules, d.player, self.ids.kind, part, Some(node));
        st.figures[id as usize].data = c as u32;
        st.plugin_mut::<BarnState>(me).barns.push(id);
        st.bump_stat(self.ids.placed, 1);
        let root = st.graph.find(node);
        self.pay_farmers(rules, st, root, self.placed_points, "barn placed");
    }

    /// BARN-4: the barns' majority of each field, 4 per completed city.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, me: usize) {
        let barns = st.plugin::<BarnState>(me).barns.clone();
        let mut done: Vec<NodeId> = Vec::new();
        for &b in &barns {
            let f = st.figures[b as usize];
            let Some(node) = f.node.filter(|_| f.alive) else { continue };
            let root = st.graph.find(node);
            if done.contains(&root) {
                continue;
            }
            done.push(root);
            let mut count = [0u32; MAX_PLAYERS];
            for &o in &barns {
                let g = &st.figures[o as usize];
                if g.alive && g.node.is_some_and(|n| st.graph.find(n) == root) {
                    count[g.owner as usize] += 1;
                }
            }
            let max = *count.iter().max().unwrap_or(&0);
            let winners = (0..st.players).filter(|&p| count[p] == max).fold(0u8, |m, p| m | (1 << p));
            st.score_field(rules, root, winners, self.final_points, self.ids.source, true, "barn final");
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["eatable", "capturable", "fairy_may_join", "princess_removable"])
    }

    /// BARN-5 / COMBO-BARN: a barn is neither eaten nor captured, and takes no fairy.
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        // Asked only the names of `query_names`, which all get the same answer.
        (st.figures[q.figure? as usize].kind == self.ids.kind).then_some(false)
    }

    fn describe_action(&self, _rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: PLACE, a: part, b: c, .. } = *a else { return serde_json::Value::Null };
        let pos = st.board.parts[part as usize].pos;
        serde_json::json!({"action": "place_barn", "cell": [pos.x, pos.y], "corner": CORNERS[c as usize & 3]})
    }
}
