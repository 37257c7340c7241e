//! The dragon of Fairy & Dragon, 2025 edition (RULES.md FD-SETUP-1, FD-LAIR-1..2,
//! FD-ORIENT-1, FD-DRAGON-1..4; seed 001 wins where it differs).
//!
//! - Tiles: the plugin adds the land tiles of its tile set that carry a `lair` or `dragon`
//!   marker and, with `plain_tiles`, those without any expansion marker (FDN1..4). Portal
//!   tiles belong to the `portal` plugin, the double spring and lake to `river`.
//! - FD-SETUP-1: after shuffling, `removed_land_tiles` random land tiles leave the stack
//!   unseen (not with a forced draw order).
//! - FD-LAIR-1: no figure on a lair tile (a veto in `allow_figure`; for a double tile only
//!   its lair half).
//! - FD-LAIR-2 / FD-DRAGON-4: after the figure action of a turn that placed a lair, the
//!   dragon goes onto it; a seat holding the dragon puts it on a lair of its choice at the
//!   start of its turn. Each time it is oriented (FD-ORIENT-1): the current player chooses
//!   among the directions toward an adjacent tile that show a follower in the line of
//!   sight (placed tiles up to the first empty cell), or among all of them when none does.
//!   A single allowed direction is taken without a decision.
//! - FD-DRAGON-1/2: drawing a dragon-symbol tile while the dragon is on the board makes
//!   it move twice, straight ahead to the last tile of the line, eating the followers on
//!   every tile it enters (seed 001: "figurky družiníků"; other figures of players only
//!   when a plugin answers `eatable` with true; [`State::is_eatable`] lets other plugins
//!   protect their figures), and re-orienting after each move.
//! - FD-DRAGON-3: a tile holding a figure for which some plugin answers the query
//!   `repels_dragon` (the 2025 fairy's follower) stops the dragon: every other eatable
//!   figure there is eaten, the dragon leaves the board and that figure's owner holds it.
//!
//! - PD-DRAGON-7 (FD-DRAGON-2 refers to it): a player's last follower leaving a feature
//!   other than by scoring releases the figures that need it ([`State::release_dependents`]).
//!
//! Queries asked: `counts_for_sight` (figure; default: a player's follower kind),
//! `repels_dragon` (figure, part; default no), `eatable` (through [`State::is_eatable`]),
//! `needs_follower` (through [`State::release_dependents`]).

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{DrawVerdict, FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{Figure, FigureId, FigureList, RemoveReason, State, NEUTRAL};
use carcassonne_core::{Side, TileTypeId};
use serde::{Deserialize, Serialize};

/// Options of the 2025 dragon.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Dragon2025 {
    /// Tile set holding the Fairy & Dragon tiles (markers `lair`, `dragon`, `portal`).
    pub tile_set: String,
    /// Also add the set's land tiles with no expansion marker (FDN1..4).
    pub plain_tiles: bool,
    /// FD-SETUP-1: land tiles returned to the box unseen after shuffling.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 50, _, _>")]
    pub removed_land_tiles: u32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    counts_for_sight: QueryKey,
    repels_dragon: QueryKey,
    kind: u8,
    lair: u32,
    symbol: u32,
    portal: u32,
    moves: usize,
    eaten: usize,
    repelled: usize,
    ignored: usize,
}

impl Default for Dragon2025 {
    fn default() -> Self {
        Dragon2025 { tile_set: "fairy-dragon".into(), plain_tiles: true, removed_land_tiles: 5, ids: Ids::default() }
    }
}

/// The factory a rule set names as `dragon-2025`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "dragon-2025",
        summary: "2025 dragon: lairs, orientation, two straight moves on dragon symbols, eating, \
                  the fairy's protection (FD-SETUP-1, FD-LAIR-1..2, FD-ORIENT-1, FD-DRAGON-1..4)",
        requires: &["base"],
        conflicts: &["dragon"],
        build: build_from_options::<Dragon2025>,
    }
}

/// Decision and action code: orient the dragon (`a` = side index N=0 E=1 S=2 W=3).
pub const ORIENT: u16 = 1;
/// Decision and action code: put the held dragon on a lair (`a` = placed part).
pub const LAIR: u16 = 2;

/// The dragon's game state.
#[derive(Clone, Debug, Default)]
pub struct DragonState {
    /// The dragon figure while it is on the board.
    pub figure: Option<FigureId>,
    /// The direction it faces (FD-ORIENT-1), once oriented.
    pub facing: Option<Side>,
    /// The seat holding it (FD-DRAGON-3/4).
    pub holder: Option<u8>,
    /// Moves still to make after the current orientation (FD-DRAGON-1/2).
    pub moves_left: u8,
}

impl Dragon2025 {
    fn is_lair(&self, rules: &Rules, st: &State, part: u32) -> bool {
        st.part_markers(rules, part) & self.ids.lair != 0
    }

    /// Placed parts with a dragon lair, in placement order.
    fn lairs<'a>(&'a self, rules: &'a Rules, st: &'a State) -> impl Iterator<Item = u32> + 'a {
        (0..st.board.len() as u32).filter(move |&p| self.is_lair(rules, st, p))
    }

    /// FD-ORIENT-1: whether a figure counts as a follower in the dragon's line of sight
    /// (a player's follower, the fairy's included, unless a plugin says otherwise).
    fn in_sight(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        let f = &st.figures[id as usize];
        let default = f.owner != NEUTRAL && rules.figure_kinds[f.kind as usize].follower;
        let q = Query::about_figure(self.ids.counts_for_sight, id, f, me as u8);
        rules.verdict(st, &q, default)
    }

    /// FD-ORIENT-1: the allowed directions (bit = side index) of a dragon on `part`.
    pub fn allowed(&self, rules: &Rules, st: &State, me: usize, part: u32) -> u8 {
        let pos = st.board.parts[part as usize].pos;
        let mut adjacent = 0u8;
        for s in Side::ALL {
            if st.board.is_placed(pos.step(s)) {
                adjacent |= 1 << s as u8;
            }
        }
        // Each figure in line with the dragon is in sight when the placed tiles run
        // unbroken from the dragon to it (the first empty cell ends the line of sight).
        let mut seeing = 0u8;
        for (id, f) in st.figures.iter().enumerate() {
            if !f.alive {
                continue;
            }
            let fp = st.board.parts[f.part as usize].pos;
            let side = match (fp.x - pos.x, fp.y - pos.y) {
                (0, dy) if dy < 0 => Side::N,
                (0, dy) if dy > 0 => Side::S,
                (dx, 0) if dx > 0 => Side::E,
                (dx, 0) if dx < 0 => Side::W,
                _ => continue,
            };
            let bit = 1 << side as u8;
            if (seeing | !adjacent) & bit != 0 || !self.in_sight(rules, st, me, id as FigureId) {
                continue;
            }
            let mut q = pos.step(side);
            while q != fp && st.board.is_placed(q) {
                q = q.step(side);
            }
            if q == fp {
                seeing |= bit;
            }
        }
        if seeing != 0 {
            seeing
        } else {
            adjacent
        }
    }

    /// Orients the dragon (a decision of the current player when several directions are
    /// allowed), then makes the next move if one is due.
    fn orient(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(fig) = st.plugin::<DragonState>(me).figure else { return };
        let part = st.figures[fig as usize].part;
        let mask = self.allowed(rules, st, me, part);
        if mask.count_ones() > 1 {
            let d = Decision {
                player: st.current,
                kind: DecisionKind::Plugin { plugin: me as u8, code: ORIENT, data: part as i32 },
            };
            st.push_decision(d);
            return;
        }
        if mask != 0 {
            let side = Side::from_index(mask.trailing_zeros() as usize);
            st.plugin_mut::<DragonState>(me).facing = Some(side);
            st.note(rules, me, format_args!("faces {} (the only direction allowed)", side.name()));
        }
        self.after_orient(rules, st, me);
    }

    /// FD-DRAGON-2: after an orientation, the second move of a dragon-symbol draw.
    fn after_orient(&self, rules: &Rules, st: &mut State, me: usize) {
        let s = st.plugin_mut::<DragonState>(me);
        if s.moves_left > 0 && s.figure.is_some() {
            s.moves_left -= 1;
            self.make_move(rules, st, me);
        } else {
            s.moves_left = 0;
        }
    }

    /// The figure on `part` that repels the dragon (FD-DRAGON-3), asked of the plugins.
    fn repeller(&self, rules: &Rules, st: &State, me: usize, here: &[FigureId]) -> Option<FigureId> {
        here.iter().copied().find(|&id| {
            let f = &st.figures[id as usize];
            let q = Query::about_figure(self.ids.repels_dragon, id, f, me as u8);
            f.owner != NEUTRAL && rules.verdict(st, &q, false)
        })
    }

    /// FD-DRAGON-2 as seed 001 says: the dragon removes the followers ("figurky
    /// družiníků", any follower kind) of the tiles it enters; another figure of a player
    /// only when a plugin answers `eatable` with true (a shepherd, say). A builder or pig
    /// leaves with its owner's last follower instead (PD-DRAGON-7). Protection
    /// ([`State::is_eatable`]: `is_protected`, an `eatable` false) spares any figure.
    fn eats(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        if !st.is_eatable(rules, id, me as u8) {
            return false;
        }
        let f = &st.figures[id as usize];
        if rules.figure_kinds[f.kind as usize].follower {
            return true;
        }
        let q = Query::about_figure(QueryKey::EATABLE, id, f, me as u8);
        rules.verdict(st, &q, false)
    }

    /// Eats every figure of `here` (the figures on the tile entered) that the dragon eats,
    /// but `keep`; returns how many.
    fn eat(&self, rules: &Rules, st: &mut State, me: usize, here: &[FigureId], keep: Option<FigureId>) -> u32 {
        let mut eaten = 0;
        for &id in here.iter().filter(|&&id| Some(id) != keep) {
            // Each removal may release others (PD-DRAGON-7): check again before eating.
            if self.eats(rules, st, me, id) {
                st.remove_figure(rules, id, RemoveReason::Plugin(me as u8));
                eaten += 1;
            }
        }
        st.bump_stat(self.ids.eaten, eaten as i64);
        eaten
    }

    /// FD-DRAGON-2/3: one straight move in the facing direction to the last tile of the
    /// line, eating on every tile entered; then the re-orientation.
    fn make_move(&self, rules: &Rules, st: &mut State, me: usize) {
        let s = st.plugin::<DragonState>(me);
        let (Some(fig), Some(dir)) = (s.figure, s.facing) else { return };
        st.bump_stat(self.ids.moves, 1);
        let from = st.board.parts[st.figures[fig as usize].part as usize].pos;
        tracing::debug!(turn = st.turn, from = %from, facing = ?dir, "dragon move");
        let mut pos = from;
        while let Some(part) = st.board.part_at(pos.step(dir)) {
            pos = pos.step(dir);
            st.move_figure(rules, fig, part, None);
            // The figures on the tile entered (the dragon among them), found once.
            let here: FigureList = st.figures_on(part).collect();
            let here = &here[..];
            if let Some(keeper) = self.repeller(rules, st, me, here) {
                // FD-DRAGON-3: the move ends here; the dragon leaves the board and goes to
                // the owner of the fairy's follower; no further move this turn.
                self.eat(rules, st, me, here, Some(keeper));
                let owner = st.figures[keeper as usize].owner;
                st.bump_stat(self.ids.repelled, 1);
                st.note(
                    rules,
                    me,
                    format_args!(
                        "moves {} from {from} to {pos}, meets the fairy: seat {owner} takes the dragon",
                        dir.name()
                    ),
                );
                let ds = st.plugin_mut::<DragonState>(me);
                ds.figure = None;
                ds.facing = None;
                ds.holder = Some(owner);
                ds.moves_left = 0;
                st.request_hook(me, Hooks::TURN_START);
                st.remove_figure(rules, fig, RemoveReason::Plugin(me as u8));
                return;
            }
            self.eat(rules, st, me, here, None);
        }
        st.note(rules, me, format_args!("moves {} from {from} to {pos}", dir.name()));
        self.orient(rules, st, me);
    }

    /// FD-LAIR-2 / FD-DRAGON-4: the dragon onto lair `part` (from anywhere), then oriented.
    fn put_on(&self, rules: &Rules, st: &mut State, me: usize, part: u32) {
        match st.plugin::<DragonState>(me).figure {
            Some(fig) => st.move_figure(rules, fig, part, None),
            None => {
                let fig = st.add_figure(rules, NEUTRAL, self.ids.kind, part, None);
                st.plugin_mut::<DragonState>(me).figure = Some(fig);
            }
        }
        let ds = st.plugin_mut::<DragonState>(me);
        ds.holder = None;
        ds.moves_left = 0;
        let pos = st.board.parts[part as usize].pos;
        st.note(rules, me, format_args!("on the lair at {pos}"));
        self.orient(rules, st, me);
    }
}

impl Plugin for Dragon2025 {
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
        "dragon-2025"
    }

    fn hooks(&self) -> Hooks {
        Hooks::GAME_START
            | Hooks::TURN_START
            | Hooks::TILE_DRAWN
            | Hooks::TILE_PLACED
            | Hooks::ALLOW_FIGURE
            | Hooks::FIGURE_ACTION_DONE
            | Hooks::FIGURE_REMOVED
    }

    /// The turn's start only while a seat holds the dragon (requested when one takes it,
    /// and again at each turn's start until it is put back); the figure action's end only
    /// after a lair tile (requested when one is placed).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::TURN_START | Hooks::FIGURE_ACTION_DONE
    }

    /// Only a dragon-symbol tile moves the dragon when drawn; only a lair tile takes it
    /// when placed.
    fn tile_hooks(&self, rules: &Rules, tile: TileTypeId) -> Hooks {
        carcassonne_core::plugin::marked(rules, tile, self.ids.symbol, Hooks::TILE_DRAWN)
            | carcassonne_core::plugin::marked(rules, tile, self.ids.lair, Hooks::TILE_PLACED)
    }

    /// FD-LAIR-2: the dragon goes onto the lair after the figure action.
    fn on_tile_placed(&self, _rules: &Rules, st: &mut State, me: usize) {
        st.request_hook(me, Hooks::FIGURE_ACTION_DONE);
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.counts_for_sight = reg.query("counts_for_sight");
        self.ids.repels_dragon = reg.query("repels_dragon");
        let cat = reg.catalog();
        reg.require_set(&self.tile_set)?;
        self.ids.lair = cat.marker("lair");
        self.ids.symbol = cat.marker("dragon");
        self.ids.portal = cat.marker("portal");
        if self.ids.lair == 0 || self.ids.symbol == 0 {
            return Err(format!("tile set '{}' has no `lair` or no `dragon` tiles", self.tile_set));
        }
        self.ids.kind = reg.figure_kind("dragon", false, 0, 0)?;
        reg.figure_look(self.ids.kind, draw::look());
        self.ids.moves = reg.stat("dragon_moves");
        self.ids.eaten = reg.stat("dragon_eaten");
        self.ids.repelled = reg.stat("dragon_repelled_by_fairy");
        self.ids.ignored = reg.stat("dragon_symbols_ignored");
        Ok(())
    }

    /// The lair and dragon-symbol tiles (and the plain ones) go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        let cat = &rules.catalog;
        let ids = cat.set(&self.tile_set).ok_or_else(|| format!("tile set '{}' is not loaded", self.tile_set))?;
        let mine = self.ids.lair | self.ids.symbol;
        let all = mine | self.ids.portal;
        let land = setup.group("land", 0);
        for &t in ids {
            let tile = cat.tile(t);
            let take = tile.markers & mine != 0 || (self.plain_tiles && tile.markers & all == 0);
            if tile.is_single() && take {
                land.tiles.extend(std::iter::repeat_n(t, tile.count as usize));
            }
        }
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(DragonState::default()))
    }

    /// FD-SETUP-1: random land tiles go back to the box unseen.
    fn on_game_start(&self, rules: &Rules, st: &mut State, _me: usize) {
        if st.forced_order || self.removed_land_tiles == 0 {
            return;
        }
        let Ok(setup) = rules.setup(st.players) else { return };
        // Draw order: the groups in order, each one's shuffled tiles then its `last` ones;
        // the stack holds that order reversed.
        let mut before = 0;
        let mut land = None;
        for g in &setup.groups {
            if g.name == "land" {
                land = Some(g.tiles.len());
                break;
            }
            before += g.tiles.len() + g.last.len();
        }
        let Some(len) = land else { return };
        let Some(hi) = st.stack.len().checked_sub(before) else { return };
        let Some(lo) = hi.checked_sub(len) else { return };
        for k in 0..(self.removed_land_tiles as usize).min(len) {
            let i = lo + st.rng.below(len - k);
            st.stack.remove(i);
        }
    }

    /// FD-DRAGON-4: a seat holding the dragon puts it on a lair before drawing.
    fn on_turn_start(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(holder) = st.plugin::<DragonState>(me).holder else { return };
        // Held: the next turn's start looks again (putting it back needs no turn start).
        st.request_hook(me, Hooks::TURN_START);
        if holder != st.current {
            return;
        }
        let (first, second) = {
            let mut lairs = self.lairs(rules, st);
            (lairs.next(), lairs.next())
        };
        let Some(first) = first else { return };
        if second.is_none() {
            self.put_on(rules, st, me, first);
        } else {
            let d =
                Decision { player: st.current, kind: DecisionKind::Plugin { plugin: me as u8, code: LAIR, data: 0 } };
            st.push_decision(d);
        }
    }

    /// FD-DRAGON-1: two moves before a drawn dragon-symbol tile is placed.
    fn on_tile_drawn(&self, rules: &Rules, st: &mut State, me: usize, tile: TileTypeId) -> DrawVerdict {
        if rules.catalog.tiles[tile as usize].markers & self.ids.symbol != 0 {
            if st.plugin::<DragonState>(me).figure.is_some() {
                st.plugin_mut::<DragonState>(me).moves_left = 1;
                self.make_move(rules, st, me);
            } else {
                st.bump_stat(self.ids.ignored, 1);
            }
        }
        DrawVerdict::Keep
    }

    /// FD-LAIR-1: no figure on a lair tile.
    fn allow_figure(&self, rules: &Rules, st: &State, _me: usize, p: &FigurePlacement) -> bool {
        !self.is_lair(rules, st, p.part)
    }

    /// FD-LAIR-2: after the figure action, the dragon goes onto the lair just placed.
    fn on_figure_action_done(&self, rules: &Rules, st: &mut State, me: usize, _action: &Action) {
        if let Some(part) = st.placed_parts().find(|&p| self.is_lair(rules, st, p)) {
            self.put_on(rules, st, me, part);
        }
    }

    /// FD-DRAGON-2 as PD-DRAGON-7: when a player's last follower leaves a feature other
    /// than by scoring, the figures that need it (builder, pig: `needs_follower`) go too.
    fn on_figure_removed(
        &self,
        rules: &Rules,
        st: &mut State,
        _me: usize,
        _id: FigureId,
        f: &Figure,
        why: RemoveReason,
    ) {
        if why != RemoveReason::Scored {
            st.release_dependents(rules, f, why);
        }
    }

    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        let DecisionKind::Plugin { code, data, .. } = d.kind else { return };
        let plugin = me as u8;
        match code {
            ORIENT => {
                let mask = self.allowed(rules, st, me, data as u32);
                for s in Side::ALL.into_iter().filter(|s| mask & (1 << *s as u8) != 0) {
                    out.push(Action::Plugin { plugin, code: ORIENT, a: s as i32, b: 0 });
                }
            }
            LAIR => out.extend(self.lairs(rules, st).map(|p| Action::Plugin { plugin, code: LAIR, a: p as i32, b: 0 })),
            _ => {}
        }
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        match *a {
            Action::Plugin { code: ORIENT, a: side, .. } => {
                st.plugin_mut::<DragonState>(me).facing = Some(Side::from_index(side as usize));
                self.after_orient(rules, st, me);
            }
            Action::Plugin { code: LAIR, a: part, .. } => self.put_on(rules, st, me, part as u32),
            _ => {}
        }
    }

    fn describe_action(&self, _rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        match *a {
            Action::Plugin { code: ORIENT, a: side, .. } => {
                serde_json::json!({ "action": "orient", "face": Side::from_index(side as usize).name() })
            }
            Action::Plugin { code: LAIR, a: part, .. } => {
                let pos = st.board.parts[part as usize].pos;
                serde_json::json!({ "action": "put_on_lair", "cell": [pos.x, pos.y] })
            }
            _ => serde_json::Value::Null,
        }
    }
}
