//! The fairy of the classic Princess & Dragon (RULES.md PD-FAIRY-1..4): moved instead of
//! a figure placement next to one of the player's followers (or onto a tile holding one),
//! 1 point at the start of its owner's turn, 3 when that follower's feature is scored, and
//! a tile the dragon may not enter.
//!
//! Cross-plugin questions: `fairy_may_join` (figure, part, node) decides which figures the
//! fairy may join (default: followers; any plugin's `false` forbids it). The fairy answers
//! `dragon_may_enter` (false for its tile, PD-DRAGON-5) and `eatable` (false for figures
//! on its tile, PD-FAIRY-4). It does not answer [`State::is_protected`]: its protection
//! holds against the dragon only, not against the princess or other removals.

mod draw;

use carcassonne_core::action::{Action, Decision};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{Figure, FigureId, LogEntry, OnePerPlace, RemoveReason, ScoreEvent, State, NEUTRAL};
use carcassonne_core::NodeId;
use serde::{Deserialize, Serialize};

/// Where the fairy goes (PD-FAIRY-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FairyPlacement {
    /// Next to one follower; it scores with that follower and detaches when it leaves.
    #[default]
    NextFollower,
    /// Onto a tile holding one of the player's followers; it belongs to the tile.
    OnTile,
}

/// Options of the fairy.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fairy {
    pub fairy_placement: FairyPlacement,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    fairy_may_join: QueryKey,
    kind: u8,
    source: u8,
    moves: usize,
    turn_points: usize,
    scoring_points: usize,
}

/// The factory a rule set names as `fairy`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "fairy",
        summary: "classic P&D fairy: moved instead of a figure, 1 point per turn, 3 at scoring (PD-FAIRY-1..4)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Fairy>,
    }
}

/// Code of the move-the-fairy action.
pub const MOVE: u16 = 1;

/// The fairy's game state.
#[derive(Debug, Default)]
pub struct FairyState {
    /// The fairy figure, once moved onto the board (it starts beside it).
    pub figure: Option<FigureId>,
    /// `next_follower`: the follower it stands next to (None: detached, PD-FAIRY-3).
    pub follower: Option<FigureId>,
    /// Features paid this turn (or in final scoring): once per feature.
    pub paid: Vec<NodeId>,
}

carcassonne_core::clone_fields!(FairyState { figure, follower, paid });

impl Fairy {
    /// The fairy's tile.
    fn part(st: &State, me: usize) -> Option<u32> {
        st.plugin::<FairyState>(me).figure.map(|id| st.figures[id as usize].part)
    }

    /// Whether the fairy may join figure `id` of `player` (PD-FAIRY-1).
    fn joinable(&self, rules: &Rules, st: &State, me: usize, id: FigureId, player: u8) -> bool {
        let f = &st.figures[id as usize];
        f.alive && f.owner == player && f.owner != NEUTRAL && self.may_join(rules, st, me, id)
    }

    /// Whether the plugins let the fairy join figure `id` (a live figure of a seat).
    fn may_join(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        let (q, default) = self.question(rules, me, id, &st.figures[id as usize]);
        rules.verdict(st, &q, default)
    }

    /// The `fairy_may_join` question about figure `id` (as it stands: `f`), and its default
    /// (PD-FAIRY-1: a follower).
    fn question(&self, rules: &Rules, me: usize, id: FigureId, f: &Figure) -> (Query, bool) {
        (Query::about_figure(self.ids.fairy_may_join, id, f, me as u8), rules.figure_kinds[f.kind as usize].follower)
    }

    /// Whether tile `part` holds a follower of `player` the fairy may join.
    fn tile_holds(&self, rules: &Rules, st: &State, me: usize, part: u32, player: u8) -> bool {
        st.figures_on(part).any(|id| self.joinable(rules, st, me, id, player))
    }

    fn log_score(rules: &Rules, st: &mut State, player: u8, points: i32, root: Option<NodeId>, reason: &str) {
        if st.log.is_some() {
            let feature = root.map(|r| st.feature_name(rules, r));
            st.log_entry(LogEntry::Score { feature, players: vec![player], points, reason: reason.into() });
        }
    }
}

impl Plugin for Fairy {
    fn name(&self) -> &str {
        "fairy"
    }

    fn hooks(&self) -> Hooks {
        let h =
            Hooks::FIGURE_ACTIONS | Hooks::TURN_START | Hooks::FEATURE_SCORED | Hooks::FIGURE_REMOVED | Hooks::QUERY;
        match self.fairy_placement {
            FairyPlacement::NextFollower => h | Hooks::FIGURE_MOVED,
            FairyPlacement::OnTile => h,
        }
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind("fairy", false, 0, 0)?;
        reg.figure_look(self.ids.kind, draw::look());
        self.ids.fairy_may_join = reg.query("fairy_may_join");
        self.ids.source = reg.source("fairy")?;
        self.ids.moves = reg.stat("fairy_moves");
        self.ids.turn_points = reg.stat("fairy_turn_points");
        self.ids.scoring_points = reg.stat("fairy_scoring_points");
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(FairyState::default()))
    }

    /// PD-FAIRY-2: 1 point at the start of the turn of the player whose follower the fairy
    /// stands next to (`on_tile`: who has a follower on the fairy's tile). No point when no
    /// tile is left to play: the engine starts no turn then (BASE-10).
    fn on_turn_start(&self, rules: &Rules, st: &mut State, me: usize) {
        st.plugin_mut::<FairyState>(me).paid.clear();
        let s = st.plugin::<FairyState>(me);
        let Some(fairy) = s.figure else { return };
        let player = st.current;
        let scores = match self.fairy_placement {
            FairyPlacement::NextFollower => s.follower.is_some_and(|f| st.figures[f as usize].owner == player),
            FairyPlacement::OnTile => self.tile_holds(rules, st, me, st.figures[fairy as usize].part, player),
        };
        if scores {
            st.award(player, 1, self.ids.source);
            st.bump_stat(self.ids.turn_points, 1);
            Self::log_score(rules, st, player, 1, None, "fairy turn start");
        }
    }

    /// PD-FAIRY-1: move the fairy (instead of placing a figure).
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let s = st.plugin::<FairyState>(me);
        let start = out.len();
        match self.fairy_placement {
            // One action per place: two alike followers side by side (an acrobat pyramid)
            // would be described alike in the record.
            FairyPlacement::NextFollower => {
                let mut one = OnePerPlace::new(out);
                let default = |f: &Figure| rules.figure_kinds[f.kind as usize].follower;
                let ask = (self.ids.fairy_may_join, me as u8);
                rules.for_each_allowed_figure(st, (player, s.follower), ask, default, |id| {
                    if one.first(st, out, id) {
                        out.push(Action::Plugin { plugin: me as u8, code: MOVE, a: id as i32, b: 0 });
                    }
                })
            }
            FairyPlacement::OnTile => {
                let here = Self::part(st, me);
                for id in 0..st.figures.len() as FigureId {
                    let part = st.figures[id as usize].part;
                    if here == Some(part) || !self.joinable(rules, st, me, id, player) {
                        continue;
                    }
                    let a = Action::Plugin { plugin: me as u8, code: MOVE, a: part as i32, b: 0 };
                    if !out[start..].contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        let Action::Plugin { code: MOVE, a: target, .. } = *a else { return };
        let (part, follower) = match self.fairy_placement {
            FairyPlacement::NextFollower => (st.figures[target as usize].part, Some(target as FigureId)),
            FairyPlacement::OnTile => (target as u32, None),
        };
        let id = match st.plugin::<FairyState>(me).figure {
            Some(id) => {
                st.move_figure(rules, id, part, None);
                id
            }
            None => st.add_figure(rules, NEUTRAL, self.ids.kind, part, None),
        };
        let s = st.plugin_mut::<FairyState>(me);
        s.figure = Some(id);
        s.follower = follower;
        st.bump_stat(self.ids.moves, 1);
        tracing::debug!(turn = st.turn, to = %st.board.parts[part as usize].pos, "fairy moves");
    }

    /// PD-FAIRY-3: 3 points when the feature of the fairy's follower is scored (`on_tile`:
    /// to each player with a follower of that feature on the fairy's tile), once per feature.
    /// Extra scorings (a barn's, a castle's: [`ScoreEvent::extra`]) pay nothing.
    fn on_feature_scored(&self, rules: &Rules, st: &mut State, me: usize, ev: &ScoreEvent) {
        if ev.extra {
            return;
        }
        let Some(root) = ev.root else { return };
        let s = st.plugin::<FairyState>(me);
        let Some(fairy) = s.figure else { return };
        if s.paid.contains(&root) {
            return;
        }
        let in_root = |st: &State, id: FigureId| st.figures[id as usize].node.is_some_and(|n| st.graph.find(n) == root);
        let mut players = 0u8;
        match self.fairy_placement {
            FairyPlacement::NextFollower => {
                if let Some(f) = s.follower.filter(|&f| in_root(st, f)) {
                    players = 1 << st.figures[f as usize].owner;
                }
            }
            FairyPlacement::OnTile => {
                let part = st.figures[fairy as usize].part;
                for id in st.figures_on(part) {
                    let owner = st.figures[id as usize].owner;
                    if in_root(st, id) && self.joinable(rules, st, me, id, owner) {
                        players |= 1 << owner;
                    }
                }
            }
        }
        if players == 0 {
            return;
        }
        st.plugin_mut::<FairyState>(me).paid.push(root);
        for p in 0..st.players as u8 {
            if players & (1 << p) != 0 {
                st.award(p, 3, self.ids.source);
                st.bump_stat(self.ids.scoring_points, 3);
                Self::log_score(rules, st, p, 3, Some(root), "fairy");
            }
        }
    }

    /// PD-FAIRY-3: the follower left; the fairy stays where it is, detached.
    fn on_figure_removed(
        &self,
        _rules: &Rules,
        st: &mut State,
        me: usize,
        id: FigureId,
        _fig: &Figure,
        _why: RemoveReason,
    ) {
        let s = st.plugin_mut::<FairyState>(me);
        if s.follower == Some(id) {
            s.follower = None;
        }
    }

    /// `next_follower`: when the fairy's follower changes so that the fairy may no longer
    /// join it (`fairy_may_join` answered false, e.g. a knight turned into a castle's:
    /// COMBO-CASTLE), the fairy goes back to the supply.
    fn on_figure_moved(&self, rules: &Rules, st: &mut State, me: usize, id: FigureId, _from: &Figure) {
        let s = st.plugin::<FairyState>(me);
        let (Some(fairy), Some(follower)) = (s.figure, s.follower) else { return };
        if follower != id {
            return;
        }
        let f = st.figures[id as usize];
        let (q, default) = self.question(rules, me, id, &f);
        if rules.verdict(st, &q, default) {
            // It stays with its follower, wherever that went.
            if st.figures[fairy as usize].part != f.part {
                st.move_figure(rules, fairy, f.part, None);
            }
            return;
        }
        let s = st.plugin_mut::<FairyState>(me);
        s.figure = None;
        s.follower = None;
        st.remove_figure(rules, fairy, RemoveReason::Plugin(me as u8));
    }

    /// PD-DRAGON-5 / PD-FAIRY-4: the dragon neither enters the fairy's tile nor eats there.
    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["dragon_may_enter", "eatable"])
    }

    fn answer(&self, _rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        // Asked only `dragon_may_enter` and `eatable` (`query_names`): not on the fairy's tile.
        (q.part.is_some() && q.part == Self::part(st, me)).then_some(false)
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: MOVE, a: target, .. } = *a else { return serde_json::Value::Null };
        match self.fairy_placement {
            FairyPlacement::NextFollower => {
                let f = &st.figures[target as usize];
                serde_json::json!({
                    "action": "move_fairy",
                    "next_to": rules.figure_kinds[f.kind as usize].name,
                    "at": st.figure_place_name(rules, f),
                })
            }
            FairyPlacement::OnTile => {
                let pos = st.board.parts[target as usize].pos;
                serde_json::json!({"action": "move_fairy", "cell": [pos.x, pos.y]})
            }
        }
    }
}
