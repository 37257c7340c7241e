//! The abbot and gardens (EXPANSIONS.md ABBOT-1..2) and how the dragons, the fairies, the
//! portal and the tower treat the abbot (RULES.md COMBO-ABBOT).
//!
//! - ABBOT-1: each seat has one abbot, figure kind `abbot`, a follower of strength 1: it
//!   occupies a monastery or a garden as a monk does and counts 1 in a majority (PD-DRAGON-6
//!   counts the abbot among the followers). Instead of placing a follower (the turn's one
//!   figure action, BASE-5), the player may put the abbot on an unoccupied monastery or
//!   garden of the tile just placed, through every plugin's placement veto. The abbot goes
//!   nowhere else and nothing else goes on a garden: this plugin's `allow_figure` vetoes an
//!   abbot on any other feature or on no feature (a tower's watchman) and any other figure on
//!   a garden (the base game offers no garden placement; the portal may).
//! - ABBOT-1: a garden completes like a monastery (all 8 surrounding cells placed) and this
//!   plugin scores it: 9 to the majority when completed (then its figures return, as every
//!   scored feature's), 1 + 1 per surrounding tile at the end (score source `garden`). A
//!   monastery with an abbot is the base game's (source `monastery`). Without this plugin
//!   nobody stands on a garden, so gardens score nothing, as before.
//! - ABBOT-2: instead of a figure action, a player whose abbot is on the board may take it
//!   back (`take_back_abbot`) and scores at once 1 + 1 per tile around the abbot's tile
//!   (score source `abbot`, an extra source: not the feature's own scoring). The feature
//!   stays in play, unscored and unoccupied.
//! - COMBO-ABBOT: the dragons eat the abbot: it is a player's follower, which the classic
//!   dragon eats unless a plugin spares it and the 2025 dragon eats as a follower (it also
//!   counts in the 2025 dragon's line of sight). Taking the abbot back early does not
//!   trigger the fairy (seed 001: "Removing the abbot does not trigger the fairy bonus"):
//!   its scoring is extra ([`carcassonne_core::ScoreEvent::extra`]), which both fairies
//!   ignore; the classic fairy stays where it is, detached (PD-FAIRY-3), the 2025 fairy
//!   goes to the supply (FD-FAIRY-3). A garden's own scoring, completed or final, pays the
//!   fairy as any feature's does.
//! - The portal (PD-PORTAL-1/2): the abbot is a follower, so it travels: onto an
//!   unoccupied, incomplete monastery or garden of any tile ("every normal placement rule"
//!   keeps ABBOT-1's features; the portal lifts only "of the tile just placed", as for every
//!   follower). The base game answers `portal_target` for its own follower only (no garden);
//!   this plugin's veto keeps every other figure off gardens.
//! - The tower: the abbot may be captured (TOWER-3 captures followers), held, exchanged and
//!   ransomed as any follower; it is never a watchman (see above).
//! - Barns and castles: the abbot never stands in a field or a city, so they never meet it;
//!   a completed garden does not score a castle (CASTLE-3 names roads, cities and
//!   monasteries).

mod draw;

use carcassonne_core::action::{Action, Decision};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{FigureId, RemoveReason, State};
use carcassonne_core::{FeatureKind, NodeId};
use serde::{Deserialize, Serialize};

/// The abbot plugin (no options).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Abbot {
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    garden: u8,
    take_back: u8,
    placed: usize,
    taken_back: usize,
    gardens: usize,
}

/// The factory a rule set names as `abbot`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "abbot",
        summary: "abbot: one per seat on a monastery or garden, gardens score like monasteries, \
                  take the abbot back for 1 + surrounding tiles (ABBOT-1..2, COMBO-ABBOT)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Abbot>,
    }
}

/// Figure-decision action: take back abbot figure `a` (ABBOT-2).
pub const TAKE_BACK: u16 = 1;

/// Points of a completed garden (ABBOT-1: like a monastery, BASE-8).
pub const GARDEN_POINTS: i32 = 9;

impl Abbot {
    /// The abbot of `player` on the board, if any.
    fn abbot_of(&self, st: &State, player: u8) -> Option<FigureId> {
        let k = self.ids.kind;
        st.own_figures(player).find(|&id| st.figures[id as usize].kind == k)
    }

    /// 1 + 1 per placed tile around part `part` (ABBOT-2; BASE-10 for a monastery).
    fn cloister_points(st: &State, part: u32) -> i32 {
        1 + st.board.ring_count(st.board.parts[part as usize].pos) as i32
    }
}

impl Plugin for Abbot {
    fn name(&self) -> &str {
        "abbot"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS
            | Hooks::ALLOW_FIGURE
            | Hooks::FIGURE_PLACED
            | Hooks::FEATURE_COMPLETED
            | Hooks::FINAL_SCORING
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind("abbot", true, 1, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        self.ids.garden = reg.source("garden")?;
        self.ids.take_back = reg.extra_source("abbot")?;
        self.ids.placed = reg.stat("abbots_placed");
        self.ids.taken_back = reg.stat("abbots_taken_back");
        self.ids.gardens = reg.stat("gardens_scored");
        Ok(())
    }

    /// ABBOT-1: the abbot onto an unoccupied monastery or garden of the tile just placed;
    /// ABBOT-2: or, when it is on the board, taking it back.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.kind;
        if st.supply[player as usize][kind as usize] > 0 {
            for part in st.placed_parts() {
                for (local, f) in st.rotated(rules, part).features.iter().enumerate() {
                    if !f.kind.is_cloister() {
                        continue;
                    }
                    let node = st.node_of(part, local as u8);
                    if st.graph.followers(node) > 0 {
                        continue;
                    }
                    if rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) }) {
                        out.push(Action::PlaceFigure { kind, part, feature: local as u8 });
                    }
                }
            }
        }
        if let Some(id) = self.abbot_of(st, player) {
            out.push(Action::Plugin { plugin: me as u8, code: TAKE_BACK, a: id as i32, b: 0 });
        }
    }

    /// ABBOT-1: the abbot only on a monastery or a garden; a garden takes only the abbot.
    fn allow_figure(&self, _rules: &Rules, st: &State, _me: usize, p: &FigurePlacement) -> bool {
        let feature = p.node.map(|n| st.graph.node(n).kind);
        if p.kind == self.ids.kind {
            feature.is_some_and(FeatureKind::is_cloister)
        } else {
            feature != Some(FeatureKind::Garden)
        }
    }

    /// ABBOT-1: a completed garden scores 9 to its majority (the core returns the abbot).
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, _me: usize, root: NodeId) {
        if st.graph.node(root).kind != FeatureKind::Garden || st.graph.followers(root) == 0 {
            return;
        }
        st.score_feature(rules, root, GARDEN_POINTS, self.ids.garden, false);
        st.bump_stat(self.ids.gardens, 1);
    }

    /// ABBOT-1 (as BASE-10 for a monastery): an incomplete garden with an abbot scores 1 + 1
    /// per surrounding tile at the end.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, _me: usize) {
        let mut roots = st.occupied_roots(rules);
        roots.retain(|&r| st.graph.node(r).kind == FeatureKind::Garden);
        for root in roots {
            let points = Self::cloister_points(st, st.graph.node(root).part);
            st.score_feature(rules, root, points, self.ids.garden, true);
            st.bump_stat(self.ids.gardens, 1);
        }
    }

    /// ABBOT-2: the abbot back to supply, 1 + 1 per surrounding tile at once (an extra
    /// scoring: COMBO-ABBOT, no fairy points).
    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let Action::Plugin { code: TAKE_BACK, a: id, .. } = *a else { return };
        let id = id as FigureId;
        let f = st.figures[id as usize];
        if !f.alive || f.kind != self.ids.kind || f.owner != d.player {
            return;
        }
        let points = Self::cloister_points(st, f.part);
        st.score_players(rules, f.node, 1 << f.owner, points, self.ids.take_back, false, "abbot taken back");
        st.remove_figure(rules, id, RemoveReason::Plugin(me as u8));
        st.bump_stat(self.ids.taken_back, 1);
    }

    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        if st.figures[fig as usize].kind == self.ids.kind {
            st.bump_stat(self.ids.placed, 1);
        }
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: TAKE_BACK, a: id, .. } = *a else { return serde_json::Value::Null };
        let at = st.figure_place_name(rules, &st.figures[id as usize]);
        serde_json::json!({"action": "take_back_abbot", "at": at})
    }
}
