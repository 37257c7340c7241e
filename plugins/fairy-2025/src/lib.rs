//! The fairy of Fairy & Dragon, 2025 edition (RULES.md FD-FAIRY-1..4, FD-DRAGON-3 from
//! the fairy's side; seed 001 wins where it differs).
//!
//! - FD-FAIRY-1: after the turn's scoring, when the current player completed a road or a
//!   city this turn for which they scored no points (fairy points do not count), they may
//!   assign the fairy (from the board or the supply) to any of their followers on the
//!   board: a decision of that player, one action per follower, or pass. A figure may take
//!   the fairy when it is a player's follower kind and no plugin answers the query
//!   `fairy_may_join` with false.
//! - FD-FAIRY-2: when the feature of the fairy's follower is scored (during play or in
//!   final scoring), its owner scores 3 (score source `fairy`), even if the feature gave
//!   them nothing; once in final scoring; never for a follower on no feature (a watchman:
//!   COMBO-TOWER), nor at the end for one for which a plugin answers the query
//!   `fairy_final_bonus` with false (an acrobat: seed 001, acrobat scoring does not
//!   trigger the fairy).
//! - FD-FAIRY-3: when the follower leaves the board (or moves to another tile), the fairy
//!   returns to the supply.
//! - FD-FAIRY-4: no point at the start of a turn (nothing to do).
//! - FD-DRAGON-3: the fairy's follower answers `repels_dragon` with true and `eatable` with
//!   false, so a 2025 dragon entering its tile stops, eats the others and is handed to the
//!   follower's owner.
//!
//! The fairy is a neutral figure (kind `fairy`) on the tile of its follower, on no
//! feature; its `data` is the follower's figure id.

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{Figure, FigureId, OnePerPlace, RemoveReason, ScoreEvent, State, NEUTRAL};
use carcassonne_core::{FeatureKind, NodeId};
use serde::{Deserialize, Serialize};

/// Options of the 2025 fairy.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fairy2025 {
    /// FD-FAIRY-2: points for the fairy when its follower's feature is scored.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    fairy_may_join: QueryKey,
    repels_dragon: QueryKey,
    final_bonus: QueryKey,
    kind: u8,
    source: u8,
    moves: usize,
    bonuses: usize,
}

impl Default for Fairy2025 {
    fn default() -> Self {
        Fairy2025 { points: 3, ids: Ids::default() }
    }
}

/// The factory a rule set names as `fairy-2025`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "fairy-2025",
        summary: "2025 fairy: assigned after completing a road or city for no points, 3 points when its \
                  follower's feature is scored, repels the 2025 dragon (FD-FAIRY-1..4, FD-DRAGON-3)",
        requires: &["base"],
        conflicts: &["fairy"],
        build: build_from_options::<Fairy2025>,
    }
}

/// Decision and action code: assign the fairy (`a` = the follower's figure id).
pub const ASSIGN: u16 = 1;

/// The fairy's game state.
#[derive(Debug, Default)]
pub struct FairyState {
    /// The fairy figure and the follower it is assigned to, while on the board.
    pub fairy: Option<(FigureId, FigureId)>,
    /// Roots of the roads and cities completed this turn.
    completed: Vec<NodeId>,
    /// Roots of the features completed this turn that gave the current player points.
    scored: Vec<NodeId>,
    /// FD-FAIRY-2 was paid in final scoring.
    final_paid: bool,
}

carcassonne_core::clone_fields!(FairyState { fairy, completed, scored, final_paid });

impl Fairy2025 {
    /// The fairy's follower.
    fn follower(st: &State, me: usize) -> Option<FigureId> {
        st.plugin::<FairyState>(me).fairy.map(|(_, f)| f)
    }

    /// The `fairy_may_join` question about figure `id` (as it stands: `f`), and its default
    /// (FD-FAIRY-1: a follower with strength).
    fn question(&self, rules: &Rules, me: usize, id: FigureId, f: &Figure) -> (Query, bool) {
        (Query::about_figure(self.ids.fairy_may_join, id, f, me as u8), self.default_verdict(rules, f))
    }

    /// The default of `fairy_may_join` about figure `f` (FD-FAIRY-1: a follower with
    /// strength).
    fn default_verdict(&self, rules: &Rules, f: &Figure) -> bool {
        let kind = &rules.figure_kinds[f.kind as usize];
        kind.follower && kind.strength > 0
    }

    /// FD-FAIRY-1: may the fairy join figure `id` of the current player? (One question: the
    /// first figure found ends the search of [`Plugin::on_scoring_done`].)
    fn may_join(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        let f = &st.figures[id as usize];
        if !Self::candidate(st, Self::follower(st, me), id, f) {
            return false;
        }
        let (q, default) = self.question(rules, me, id, f);
        rules.verdict(st, &q, default)
    }

    /// Whether figure `id` (`f`) is one the current player may assign the fairy to, the
    /// plugins' answers aside: a live figure of theirs, not the fairy's follower now
    /// (`follower`).
    fn candidate(st: &State, follower: Option<FigureId>, id: FigureId, f: &Figure) -> bool {
        f.alive && f.owner == st.current && follower != Some(id)
    }

    /// Calls `f` with each figure the fairy may join (FD-FAIRY-1), in id order: the
    /// `fairy_may_join` questions about the current player's figures asked at once
    /// ([`Rules::for_each_allowed_figure`]).
    fn for_each_joinable(&self, rules: &Rules, st: &State, me: usize, f: impl FnMut(FigureId)) {
        let seat = (st.current, Self::follower(st, me));
        let default = |g: &Figure| self.default_verdict(rules, g);
        rules.for_each_allowed_figure(st, seat, (self.ids.fairy_may_join, me as u8), default, f);
    }

    /// FD-FAIRY-3: the fairy back to the supply.
    fn detach(&self, rules: &Rules, st: &mut State, me: usize) {
        if let Some((fairy, _)) = st.plugin_mut::<FairyState>(me).fairy.take() {
            st.remove_figure(rules, fairy, RemoveReason::Plugin(me as u8));
        }
    }

    /// FD-FAIRY-2: the fairy's points to the follower's owner.
    fn pay(&self, st: &mut State, owner: u8, final_scoring: bool) {
        let reason = if final_scoring { "fairy final" } else { "fairy" };
        st.score_other(owner, self.points, self.ids.source, reason);
        st.bump_stat(self.ids.bonuses, 1);
    }
}

impl Plugin for Fairy2025 {
    fn name(&self) -> &str {
        "fairy-2025"
    }

    /// The fairy's assignment after scoring only on turns that completed or scored a road
    /// or city (requested then), its follower's check at the turn's end only while it is
    /// placed (requested when placed, and again at each turn's end while it stays).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::SCORING_DONE | Hooks::TURN_END
    }

    fn hooks(&self) -> Hooks {
        Hooks::FEATURE_COMPLETED
            | Hooks::FEATURE_SCORED
            | Hooks::FIGURE_REMOVED
            | Hooks::FIGURE_MOVED
            | Hooks::SCORING_DONE
            | Hooks::TURN_END
            | Hooks::FINAL_SCORING
            | Hooks::QUERY
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind("fairy", false, 0, 0)?;
        reg.figure_look(self.ids.kind, draw::look());
        self.ids.fairy_may_join = reg.query("fairy_may_join");
        self.ids.repels_dragon = reg.query("repels_dragon");
        self.ids.final_bonus = reg.query("fairy_final_bonus");
        self.ids.source = reg.source("fairy")?;
        self.ids.moves = reg.stat("fairy_moves");
        self.ids.bonuses = reg.stat("fairy_bonuses");
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(FairyState::default()))
    }

    fn on_feature_completed(&self, _rules: &Rules, st: &mut State, me: usize, root: NodeId) {
        if matches!(st.graph.node(root).kind, FeatureKind::Road | FeatureKind::City) {
            st.plugin_mut::<FairyState>(me).completed.push(root);
            st.request_hook(me, Hooks::SCORING_DONE);
        }
    }

    /// Extra scorings (a barn's, a castle's: [`ScoreEvent::extra`]) neither pay the fairy nor
    /// count as points for a feature (COMBO-*: "does not trigger the fairy").
    fn on_feature_scored(&self, _rules: &Rules, st: &mut State, me: usize, ev: &ScoreEvent) {
        if ev.extra {
            return;
        }
        let Some(root) = ev.root else { return };
        if !ev.final_scoring && ev.points > 0 && ev.winners & (1 << st.current) != 0 {
            st.plugin_mut::<FairyState>(me).scored.push(root);
            st.request_hook(me, Hooks::SCORING_DONE);
        }
        let Some(f) = Self::follower(st, me) else { return };
        let fig = st.figures[f as usize];
        if fig.node.is_none_or(|n| st.graph.find(n) != root) {
            return;
        }
        if ev.final_scoring {
            let s = st.plugin_mut::<FairyState>(me);
            if s.final_paid {
                return;
            }
            s.final_paid = true;
        }
        self.pay(st, fig.owner, ev.final_scoring);
    }

    /// FD-FAIRY-3: the fairy never stands alone.
    fn on_figure_removed(&self, rules: &Rules, st: &mut State, me: usize, id: FigureId, _f: &Figure, _w: RemoveReason) {
        match st.plugin::<FairyState>(me).fairy {
            Some((_, follower)) if follower == id => self.detach(rules, st, me),
            Some((fairy, _)) if fairy == id => st.plugin_mut::<FairyState>(me).fairy = None,
            _ => {}
        }
    }

    /// FD-FAIRY-3: the fairy's follower moved to another tile, or changed so that the fairy
    /// may no longer join it (`fairy_may_join` false, e.g. a knight in a new castle:
    /// COMBO-CASTLE): the fairy returns to the supply.
    fn on_figure_moved(&self, rules: &Rules, st: &mut State, me: usize, id: FigureId, from: &Figure) {
        if Self::follower(st, me) != Some(id) {
            return;
        }
        let f = st.figures[id as usize];
        let (q, default) = self.question(rules, me, id, &f);
        if f.part != from.part || !rules.verdict(st, &q, default) {
            self.detach(rules, st, me);
        }
    }

    /// FD-FAIRY-1: a road or city completed this turn for no points lets the current
    /// player assign the fairy.
    fn on_scoring_done(&self, rules: &Rules, st: &mut State, me: usize) {
        let s = st.plugin_mut::<FairyState>(me);
        let eligible = s.completed.iter().any(|r| !s.scored.contains(r));
        s.completed.clear();
        s.scored.clear();
        if eligible && (0..st.figures.len() as FigureId).any(|id| self.may_join(rules, st, me, id)) {
            let d =
                Decision { player: st.current, kind: DecisionKind::Plugin { plugin: me as u8, code: ASSIGN, data: 0 } };
            st.push_decision(d);
        }
    }

    /// FD-FAIRY-3: a follower moved to another tile leaves the fairy behind: it returns.
    fn on_turn_end(&self, rules: &Rules, st: &mut State, me: usize) {
        if let Some((fairy, f)) = st.plugin::<FairyState>(me).fairy {
            // Placed: the next turn's end looks again.
            st.request_hook(me, Hooks::TURN_END);
            let (a, b) = (&st.figures[fairy as usize], &st.figures[f as usize]);
            if !b.alive || a.part != b.part {
                self.detach(rules, st, me);
            }
        }
    }

    /// FD-FAIRY-2: 3 points in final scoring, if the follower's feature was not scored.
    /// A follower on no feature (a watchman on its tower) has nothing that is scored:
    /// no points (COMBO-TOWER, seed 001: watchman scoring does not trigger the fairy);
    /// nor does a follower for which a plugin answers `fairy_final_bonus` with false (one
    /// whose feature only that plugin's extra scoring scores: an acrobat, seed 001).
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(f) = Self::follower(st, me) else { return };
        let fig = st.figures[f as usize];
        if fig.node.is_none() {
            return;
        }
        if !rules.verdict(st, &Query::about_figure(self.ids.final_bonus, f, &fig, me as u8), true) {
            return;
        }
        let s = st.plugin_mut::<FairyState>(me);
        if s.final_paid {
            return;
        }
        s.final_paid = true;
        let owner = st.figures[f as usize].owner;
        self.pay(st, owner, true);
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["eatable", "repels_dragon"])
    }

    fn answer(&self, _rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        let f = Self::follower(st, me)?;
        if q.figure != Some(f) {
            return None;
        }
        // Asked only `eatable` and `repels_dragon` (`query_names`).
        Some(q.key == self.ids.repels_dragon)
    }

    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, _d: &Decision, out: &mut Vec<Action>) {
        let plugin = me as u8;
        // One action per place: two alike followers side by side (an acrobat pyramid)
        // would be described alike in the record.
        let mut one = OnePerPlace::new(out);
        self.for_each_joinable(rules, st, me, |id| {
            if one.first(st, out, id) {
                out.push(Action::Plugin { plugin, code: ASSIGN, a: id as i32, b: 0 });
            }
        });
        out.push(Action::Pass);
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        let Action::Plugin { code: ASSIGN, a: id, .. } = *a else { return };
        let follower = id as FigureId;
        let part = st.figures[follower as usize].part;
        let fairy = match st.plugin::<FairyState>(me).fairy {
            Some((fairy, _)) => {
                st.move_figure(rules, fairy, part, None);
                fairy
            }
            None => st.add_figure(rules, NEUTRAL, self.ids.kind, part, None),
        };
        st.figures[fairy as usize].data = follower;
        st.plugin_mut::<FairyState>(me).fairy = Some((fairy, follower));
        st.request_hook(me, Hooks::TURN_END);
        st.bump_stat(self.ids.moves, 1);
        tracing::debug!(turn = st.turn, to = %st.board.parts[part as usize].pos, "fairy assigned");
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: ASSIGN, a: id, .. } = *a else { return serde_json::Value::Null };
        let f = &st.figures[id as usize];
        let at = st.figure_place_name(rules, f);
        // The kind too when the seat has a figure of another kind at the same place (a
        // shepherd beside a ringmaster), so that the record tells the two apart.
        let other_kind = st
            .figures
            .iter()
            .any(|g| g.alive && g.owner == f.owner && g.part == f.part && g.node == f.node && g.kind != f.kind);
        if other_kind {
            return serde_json::json!({
                "action": "assign_fairy",
                "at": at,
                "next_to": rules.figure_kinds[f.kind as usize].name,
            });
        }
        serde_json::json!({ "action": "assign_fairy", "at": at })
    }
}
