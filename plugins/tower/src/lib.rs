//! The Tower (EXPANSIONS.md TOWER-1..5) and how the dragon, the fairy and the portal treat
//! its figures (RULES.md COMBO-TOWER).
//!
//! - Tiles: the 18 Tower tiles (marker `tower`) go into the land tiles. A Tower tile's
//!   foundation is not a feature; the plugin keeps each tower's height.
//! - TOWER-1: tower pieces per seat by player count (10, 9, 7, 6, 5 for 2..6 players),
//!   kept in the plugin state.
//! - TOWER-2: instead of placing a follower, the player may put a tower piece on any
//!   foundation or open tower (`build_tower`), or a follower from supply on top of an open
//!   tower (height 1 or more): a watchman, a normal figure placement on the Tower tile with
//!   no feature (`Action::PlaceFigure` with `NO_FEATURE`), through every plugin's
//!   placement veto. A tower is closed while a watchman stands on it.
//! - TOWER-3: after adding a piece, the player may capture one follower on a tile in the
//!   tower's row or column at a distance up to its new height (its own tile included;
//!   empty cells and other towers do not block): a decision of that player. A figure may
//!   be captured when it is a player's follower kind and no plugin answers the query
//!   `capturable` with false (castles do for their followers; barns, builders, pigs are no
//!   followers). Watchmen are followers too: any tower in range captures them, whatever
//!   the heights, its owner's too (TOWER-3, TOWER-5); their tower is open again. Another
//!   player's follower becomes the capturer's prisoner (out of its owner's supply), an own
//!   follower goes back to supply.
//! - TOWER-4: two players holding a prisoner of each other exchange one each at once. At
//!   the start of their turn, a player with a follower held by another and at least
//!   `ransom` points (3) may pay them to that holder to get one back (one ransom per turn;
//!   score source `ransom`, an extra source); `ransom_below_zero = true` lets a player pay
//!   with fewer points (the score goes below zero). No turn starts once the stack is
//!   empty (BASE-10), so no ransom is paid then.
//! - TOWER-5: watchmen stay until the end or until captured (TOWER-3) or eaten, and score
//!   nothing.
//! - COMBO-TOWER: the dragons eat watchmen (the default `eatable`) but not towers (no
//!   figure); a watchman stands on its tower's tile, which is where the 2025 dragon looks
//!   for followers. The fairy may join a watchman and leaves with it (the fairies' own
//!   removal rules). No watchman through the portal: the portal only places on features.
//!   Watchmen score nothing, so they never trigger the fairy. When the dragon eats a
//!   watchman, its tower is open again.

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind, NO_FEATURE};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{
    Figure, FigureId, OnePerPlace, RemoveReason, State, MAX_FIGURE_KINDS, MAX_PLAYERS, NEUTRAL,
};
use serde::{Deserialize, Serialize};

/// Options of the tower.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tower {
    /// Tile set holding the Tower tiles (marker `tower`).
    pub tile_set: String,
    /// 2 (C2 printing: TO5 and TO9 with a garden) or 1 (C1: `TO5c1`, `TO9c1`).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    /// TOWER-4: points a player pays to get a prisoner back.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub ransom: i32,
    /// TOWER-4 variant: a player with fewer than `ransom` points may pay it too.
    pub ransom_below_zero: bool,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    capturable: QueryKey,
    marker: u32,
    source: u8,
    built: usize,
    watchmen: usize,
    captures: usize,
    exchanges: usize,
    ransoms: usize,
    /// The kinds that may stand watch (`Tower::watchman_kinds`), listed at the first figure
    /// decision (every plugin has registered its kinds by then).
    watch_kinds: std::sync::OnceLock<([u8; MAX_FIGURE_KINDS], usize)>,
}

impl Default for Tower {
    fn default() -> Self {
        Tower { tile_set: "tower".into(), edition: 2, ransom: 3, ransom_below_zero: false, ids: Ids::default() }
    }
}

/// The factory a rule set names as `tower`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "tower",
        summary:
            "The Tower: tower pieces, watchmen, captures, prisoners, exchange and ransom (TOWER-1..5, COMBO-TOWER)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Tower>,
    }
}

/// Figure-decision action: a tower piece onto the tower of part `a`.
pub const BUILD: u16 = 1;
/// Decision and action: capture figure `a` (decision data: the tower's part).
pub const CAPTURE: u16 = 2;
/// Decision and action: pay the ransom to seat `a` for a follower of kind `b`.
pub const RANSOM: u16 = 3;

/// TOWER-1: tower pieces per seat for 0..=6 players.
pub const PIECES: [u8; MAX_PLAYERS + 1] = [10, 10, 10, 9, 7, 6, 5];

/// One tower (a placed Tower tile).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerInfo {
    /// The placed part of its Tower tile.
    pub part: u32,
    /// Tower pieces on it (0: a bare foundation).
    pub height: u8,
    /// The watchman closing it.
    pub watchman: Option<FigureId>,
}

impl TowerInfo {
    /// TOWER-2: a tower at least one piece high with no watchman.
    pub fn is_open(&self) -> bool {
        self.height > 0 && self.watchman.is_none()
    }
}

/// A captured follower, off the board and out of its owner's supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prisoner {
    pub holder: u8,
    pub owner: u8,
    pub kind: u8,
}

/// The tower's game state.
#[derive(Debug, Default)]
pub struct TowerState {
    /// Every Tower tile placed, in placement order.
    pub towers: Vec<TowerInfo>,
    /// Tower pieces in each seat's supply.
    pub pieces: [u8; MAX_PLAYERS],
    /// Prisoners, in capture order.
    pub prisoners: Vec<Prisoner>,
}

carcassonne_core::clone_fields!(TowerState { towers, pieces, prisoners });

impl TowerState {
    fn tower_at(&self, part: u32) -> Option<usize> {
        self.towers.iter().position(|t| t.part == part)
    }
}

impl Tower {
    /// Whether figure `id` may be captured by this plugin (TOWER-3).
    fn capturable(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        let f = &st.figures[id as usize];
        let def = &rules.figure_kinds[f.kind as usize];
        if !f.alive || f.owner == NEUTRAL || !def.follower || def.strength == 0 {
            return false;
        }
        let q = Query::about_figure(self.ids.capturable, id, f, me as u8);
        rules.verdict(st, &q, true)
    }

    /// TOWER-3: calls `f` with every figure the tower on `part` may capture: on a tile in
    /// its row or column at a distance up to its height (one pass over the figures).
    fn for_each_target(&self, rules: &Rules, st: &State, me: usize, part: u32, mut f: impl FnMut(FigureId)) {
        let s = st.plugin::<TowerState>(me);
        let Some(t) = s.tower_at(part).map(|i| s.towers[i]) else { return };
        let at = st.board.parts[part as usize].pos;
        let h = t.height as i32;
        for (id, fig) in st.figures.iter().enumerate() {
            if !fig.alive || fig.owner == NEUTRAL {
                continue;
            }
            let p = st.board.parts[fig.part as usize].pos;
            let (dx, dy) = ((p.x - at.x).abs(), (p.y - at.y).abs());
            if ((dx == 0 && dy <= h) || (dy == 0 && dx <= h)) && self.capturable(rules, st, me, id as FigureId) {
                f(id as FigureId);
            }
        }
    }

    /// TOWER-4: one prisoner of each of two players who hold each other's, exchanged
    /// until no such pair is left.
    fn exchange(&self, rules: &Rules, st: &mut State, me: usize) {
        loop {
            let s = st.plugin::<TowerState>(me);
            let pair = s.prisoners.iter().enumerate().find_map(|(i, a)| {
                s.prisoners.iter().position(|b| b.holder == a.owner && b.owner == a.holder).map(|j| (i, j))
            });
            let Some((i, j)) = pair else { return };
            let s = st.plugin_mut::<TowerState>(me);
            let (a, b) = (s.prisoners[i], s.prisoners[j]);
            s.prisoners.remove(i.max(j));
            s.prisoners.remove(i.min(j));
            st.supply[a.owner as usize][a.kind as usize] += 1;
            st.supply[b.owner as usize][b.kind as usize] += 1;
            st.bump_stat(self.ids.exchanges, 1);
            st.note(
                rules,
                me,
                format_args!("prisoners exchanged: seat {} and seat {} each get a follower back", a.owner, b.owner),
            );
        }
    }

    /// Follower kinds that may stand on a tower (those that may take a feature).
    fn watchman_kinds(rules: &Rules) -> impl Iterator<Item = u8> + '_ {
        rules.figure_kinds.iter().enumerate().filter(|(_, k)| k.follower && k.strength > 0).map(|(i, _)| i as u8)
    }
}

impl Plugin for Tower {
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
        "tower"
    }

    fn hooks(&self) -> Hooks {
        Hooks::TURN_START | Hooks::TILE_PLACED | Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED | Hooks::FIGURE_REMOVED
    }

    /// The ransom's turn start only while someone is held (requested at each capture,
    /// and again at each turn's start while prisoners are held).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::TURN_START
    }

    /// Only a tile with a foundation adds a tower.
    fn tile_hooks(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> Hooks {
        carcassonne_core::plugin::marked(rules, tile, self.ids.marker, Hooks::TILE_PLACED)
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        self.ids.marker = reg.require_marker(&self.tile_set, "tower")?;
        self.ids.capturable = reg.query("capturable");
        self.ids.source = reg.extra_source("ransom")?;
        self.ids.built = reg.stat("tower_pieces_built");
        self.ids.watchmen = reg.stat("tower_watchmen");
        self.ids.captures = reg.stat("tower_captures");
        self.ids.exchanges = reg.stat("tower_exchanges");
        self.ids.ransoms = reg.stat("tower_ransoms");
        Ok(())
    }

    /// The Tower tiles go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.marker, self.edition == 1)
    }

    /// TOWER-1.
    fn init_state(&self, _rules: &Rules, players: usize) -> Option<Box<dyn PluginState>> {
        let mut s = TowerState::default();
        for p in s.pieces.iter_mut().take(players) {
            *p = PIECES[players.min(MAX_PLAYERS)];
        }
        Some(Box::new(s))
    }

    /// TOWER-4: the ransom, offered at the start of the turn of a player whose follower
    /// another holds, if they have the points to pay it (or `ransom_below_zero`).
    fn on_turn_start(&self, _rules: &Rules, st: &mut State, me: usize) {
        let p = st.current;
        if st.plugin::<TowerState>(me).prisoners.is_empty() {
            return;
        }
        // Someone is held: the next turn's start looks again.
        st.request_hook(me, Hooks::TURN_START);
        if !st.plugin::<TowerState>(me).prisoners.iter().any(|x| x.owner == p)
            || (!self.ransom_below_zero && st.scores()[p as usize] < self.ransom)
        {
            return;
        }
        st.push_decision(Decision {
            player: p,
            kind: DecisionKind::Plugin { plugin: me as u8, code: RANSOM, data: 0 },
        });
    }

    /// A placed Tower tile brings a bare foundation.
    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        for part in st.placed_parts() {
            if st.part_markers(rules, part) & self.ids.marker != 0 {
                st.plugin_mut::<TowerState>(me).towers.push(TowerInfo { part, height: 0, watchman: None });
            }
        }
    }

    /// TOWER-2: a tower piece on any foundation or open tower, or a watchman on any open
    /// tower, instead of a follower placement.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let s = st.plugin::<TowerState>(me);
        let pieces = s.pieces[player as usize] > 0;
        // The kinds the player may post as watchmen now (in kind order), found once.
        let mut kinds = [0u8; MAX_FIGURE_KINDS];
        let mut n = 0;
        let (watch, w) = self.ids.watch_kinds.get_or_init(|| {
            let mut watch = ([0u8; MAX_FIGURE_KINDS], 0);
            for kind in Self::watchman_kinds(rules).take(MAX_FIGURE_KINDS) {
                watch.0[watch.1] = kind;
                watch.1 += 1;
            }
            watch
        });
        for &kind in &watch[..*w] {
            if st.supply[player as usize][kind as usize] > 0 {
                kinds[n] = kind;
                n += 1;
            }
        }
        for t in &s.towers {
            if t.watchman.is_some() {
                continue;
            }
            if pieces {
                out.push(Action::Plugin { plugin: me as u8, code: BUILD, a: t.part as i32, b: 0 });
            }
            if t.height == 0 {
                continue;
            }
            for &kind in &kinds[..n] {
                if rules.allow_figure(st, &FigurePlacement { player, kind, part: t.part, node: None }) {
                    out.push(Action::PlaceFigure { kind, part: t.part, feature: NO_FEATURE });
                }
            }
        }
    }

    /// TOWER-2: a follower placed on an open tower's tile on no feature is its watchman.
    fn on_figure_placed(&self, rules: &Rules, st: &mut State, me: usize, fig: FigureId) {
        let f = st.figures[fig as usize];
        if f.node.is_some() || f.owner == NEUTRAL || !rules.figure_kinds[f.kind as usize].follower {
            return;
        }
        let s = st.plugin_mut::<TowerState>(me);
        if let Some(i) = s.tower_at(f.part).filter(|&i| s.towers[i].is_open()) {
            s.towers[i].watchman = Some(fig);
            st.bump_stat(self.ids.watchmen, 1);
        }
    }

    /// A watchman that leaves (eaten by the dragon) opens its tower again.
    fn on_figure_removed(&self, _r: &Rules, st: &mut State, me: usize, id: FigureId, _f: &Figure, _w: RemoveReason) {
        let s = st.plugin_mut::<TowerState>(me);
        if let Some(t) = s.towers.iter_mut().find(|t| t.watchman == Some(id)) {
            t.watchman = None;
        }
    }

    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        let DecisionKind::Plugin { code, data, .. } = d.kind else { return };
        let plugin = me as u8;
        match code {
            CAPTURE => {
                // One action per place: two alike figures side by side (an acrobat pyramid)
                // would be described alike in the record.
                let mut one = OnePerPlace::new(out);
                self.for_each_target(rules, st, me, data as u32, |id| {
                    if one.first(st, out, id) {
                        out.push(Action::Plugin { plugin, code: CAPTURE, a: id as i32, b: 0 })
                    }
                });
            }
            RANSOM => {
                let start = out.len();
                for p in &st.plugin::<TowerState>(me).prisoners {
                    let a = Action::Plugin { plugin, code: RANSOM, a: p.holder as i32, b: p.kind as i32 };
                    if p.owner == d.player && !out[start..].contains(&a) {
                        out.push(a);
                    }
                }
            }
            _ => {}
        }
        out.push(Action::Pass);
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let Action::Plugin { code, a: x, b: y, .. } = *a else { return };
        match code {
            BUILD => {
                let part = x as u32;
                let player = d.player;
                let s = st.plugin_mut::<TowerState>(me);
                let Some(i) = s.tower_at(part) else { return };
                s.towers[i].height += 1;
                s.pieces[player as usize] -= 1;
                st.bump_stat(self.ids.built, 1);
                tracing::debug!(
                    turn = st.turn,
                    player,
                    at = %st.board.parts[part as usize].pos,
                    height = st.plugin::<TowerState>(me).towers[i].height,
                    "tower piece built"
                );
                let mut any = false;
                self.for_each_target(rules, st, me, part, |_| any = true);
                if any {
                    st.push_decision(Decision {
                        player,
                        kind: DecisionKind::Plugin { plugin: me as u8, code: CAPTURE, data: part as i32 },
                    });
                }
            }
            CAPTURE => {
                let id = x as FigureId;
                let f = st.figures[id as usize];
                let why = RemoveReason::Plugin(me as u8);
                st.remove_figure(rules, id, why);
                // PD-DRAGON-7 also when no dragon plugin is in the rule set.
                st.release_dependents(rules, &f, why);
                st.bump_stat(self.ids.captures, 1);
                tracing::debug!(turn = st.turn, captor = d.player, owner = f.owner, "tower capture");
                if f.owner != d.player {
                    let s = &mut st.supply[f.owner as usize][f.kind as usize];
                    *s = s.saturating_sub(1);
                    let p = Prisoner { holder: d.player, owner: f.owner, kind: f.kind };
                    st.plugin_mut::<TowerState>(me).prisoners.push(p);
                    st.request_hook(me, Hooks::TURN_START);
                    self.exchange(rules, st, me);
                }
            }
            RANSOM => {
                let (holder, kind) = (x as u8, y as u8);
                let s = st.plugin_mut::<TowerState>(me);
                let Some(i) =
                    s.prisoners.iter().position(|p| p.holder == holder && p.owner == d.player && p.kind == kind)
                else {
                    return;
                };
                s.prisoners.remove(i);
                st.supply[d.player as usize][kind as usize] += 1;
                st.score_other(d.player, -self.ransom, self.ids.source, "ransom paid");
                st.score_other(holder, self.ransom, self.ids.source, "ransom received");
                st.bump_stat(self.ids.ransoms, 1);
            }
            _ => {}
        }
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code, a: x, b: y, .. } = *a else { return serde_json::Value::Null };
        match code {
            BUILD => {
                let pos = st.board.parts[x as usize].pos;
                serde_json::json!({"action": "build_tower", "cell": [pos.x, pos.y]})
            }
            CAPTURE => {
                let f = &st.figures[x as usize];
                serde_json::json!({
                    "action": "capture",
                    "figure": rules.figure_kinds[f.kind as usize].name,
                    "owner": f.owner,
                    "at": st.figure_place_name(rules, f),
                })
            }
            RANSOM => serde_json::json!({
                "action": "ransom",
                "holder": x,
                "figure": rules.figure_kinds[y as usize].name,
            }),
            _ => serde_json::Value::Null,
        }
    }
}
