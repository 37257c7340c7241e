//! The dragon of the classic Princess & Dragon (RULES.md PD-DRAGON-1..7): volcano and
//! dragon-symbol tiles, the dragon arriving on volcanoes, its 6-step movements shared by
//! the players, and what it eats.
//!
//! Cross-plugin questions (so that later plugins declare their own figures' treatment):
//! - `eatable` (figure, part, node): may the dragon eat this figure? Default: every figure
//!   of a player (not neutral ones); any plugin's `false` or [`State::is_protected`] spares it.
//! - `dragon_may_enter` (part): may a step enter this tile? (the fairy answers false for hers)
//! - `needs_follower` (figure): PD-DRAGON-7, asked by [`State::release_dependents`] after any
//!   removal that is not a scoring.
//!
//! The dragon answers `fairy_may_join` with false for figures on its own tile (so that the
//! fairy never stands with the dragon).

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Answers, DrawVerdict, FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{Figure, FigureId, RemoveReason, State, NEUTRAL};
use carcassonne_core::{Pos, Side, TileTypeId};
use serde::{Deserialize, Serialize};

/// When the dragon moves on a dragon-tile turn (PD-DRAGON-4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DragonMove {
    /// Step 3.5: after the figure action, before scoring.
    #[default]
    BeforeScoring,
    /// Step 4.5: after the turn's scoring.
    AfterScoring,
}

/// What happens to dragon tiles before the first volcano (PD-DRAGON-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EarlyDragonTiles {
    /// A dragon tile drawn before the first volcano is set aside; the player draws again.
    #[default]
    SetAside,
    /// Dragon tiles are kept out of the stack from the start until the first volcano.
    HeldOut,
}

/// Options of the dragon.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Dragon {
    pub dragon_move: DragonMove,
    pub early_dragon_tiles: EarlyDragonTiles,
    /// Tile set holding the volcano and dragon tiles (markers `volcano`, `dragon`).
    pub tile_set: String,
    /// 2 (2016 printing) or 1 (1st edition: PDD1 without garden, `PDD1c1`).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    fairy_may_join: QueryKey,
    dragon_may_enter: QueryKey,
    kind: u8,
    volcano: u32,
    symbol: u32,
    steps: usize,
    eaten: usize,
    movements: usize,
    set_aside: usize,
}

impl Default for Dragon {
    fn default() -> Self {
        Dragon {
            dragon_move: DragonMove::BeforeScoring,
            early_dragon_tiles: EarlyDragonTiles::SetAside,
            tile_set: "princess-dragon".into(),
            edition: 2,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `dragon`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "dragon",
        summary: "classic P&D dragon: volcanoes, dragon tiles, 6 shared steps, eating (PD-DRAGON-1..7)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Dragon>,
    }
}

/// Code of a dragon-step action and decision.
pub const STEP: u16 = 1;
/// Most steps of one movement (PD-DRAGON-4).
pub const MAX_STEPS: u8 = 6;

/// The dragon's game state.
#[derive(Debug, Default)]
pub struct DragonState {
    /// The dragon figure, once a volcano was placed (PD-DRAGON-1/2).
    pub figure: Option<FigureId>,
    /// Dragon tiles set aside or held out until the first volcano (PD-DRAGON-1).
    pub waiting: Vec<TileTypeId>,
    /// The stack ran out before any volcano: the waiting tiles were played as plain tiles.
    pub flushed: bool,
    /// Steps made in the current movement.
    pub steps: u8,
    /// Tiles visited in the current movement, the start tile first (PD-DRAGON-5).
    pub visited: [u32; MAX_STEPS as usize + 1],
}

carcassonne_core::clone_fields!(DragonState { figure, waiting, flushed, steps, visited });

impl DragonState {
    /// Whether the dragon is in play (a volcano was placed).
    pub fn in_play(&self) -> bool {
        self.figure.is_some()
    }
}

impl Dragon {
    fn is_symbol(&self, rules: &Rules, t: TileTypeId) -> bool {
        rules.catalog.tiles[t as usize].markers & self.ids.symbol != 0
    }

    fn part_has(&self, rules: &Rules, st: &State, part: u32, marker: u32) -> bool {
        st.part_markers(rules, part) & marker != 0
    }

    /// PD-DRAGON-3: a figure may not go onto a volcano or the dragon's tile (`dragon`).
    fn figure_may_go(&self, rules: &Rules, st: &State, dragon: Option<u32>, part: u32) -> bool {
        !self.part_has(rules, st, part, self.ids.volcano) && dragon != Some(part)
    }

    /// Whether a question of key `key` about figure `figure` asks `fairy_may_join` about a
    /// figure on the dragon's tile (`dragon`): the fairy never stands with the dragon.
    fn keeps_fairy_off(&self, st: &State, dragon: u32, key: QueryKey, figure: Option<FigureId>) -> bool {
        key == self.ids.fairy_may_join && figure.is_some_and(|id| st.figures[id as usize].part == dragon)
    }

    /// The dragon's tile, if it is in play.
    fn dragon_part(st: &State, me: usize) -> Option<u32> {
        st.plugin::<DragonState>(me).figure.map(|id| st.figures[id as usize].part)
    }

    /// Shuffles the waiting dragon tiles into the stack at random places (the stack is
    /// already shuffled, so this is a shuffle of the whole; a forced order keeps its order).
    fn shuffle_in(st: &mut State, me: usize) -> usize {
        let waiting = std::mem::take(&mut st.plugin_mut::<DragonState>(me).waiting);
        for &t in &waiting {
            let i = st.rng.below(st.stack.len() + 1);
            st.stack.insert(i, t);
        }
        waiting.len()
    }

    /// The hook the dragon's movement starts from (PD-DRAGON-4, option `dragon_move`).
    fn move_hook(&self) -> Hooks {
        match self.dragon_move {
            DragonMove::BeforeScoring => Hooks::FIGURE_ACTION_DONE,
            DragonMove::AfterScoring => Hooks::SCORING_DONE,
        }
    }

    /// Starts a movement (PD-DRAGON-4) when the tile placed this turn shows the symbol.
    fn start_movement(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(from) = Self::dragon_part(st, me) else { return };
        if !st.placed_parts().any(|p| self.part_has(rules, st, p, self.ids.symbol)) {
            return;
        }
        let s = st.plugin_mut::<DragonState>(me);
        s.steps = 0;
        s.visited[0] = from;
        st.bump_stat(self.ids.movements, 1);
        tracing::debug!(turn = st.turn, from = %st.board.parts[from as usize].pos, "dragon movement starts");
        self.next_step(rules, st, me);
    }

    /// Pushes the next step's decision, or ends the movement (6 steps, or stuck: PD-DRAGON-5).
    fn next_step(&self, rules: &Rules, st: &mut State, me: usize) {
        let steps = st.plugin::<DragonState>(me).steps;
        if steps >= MAX_STEPS || !self.for_each_step(rules, st, me, |_| true) {
            return;
        }
        let mut player = st.current;
        for _ in 0..steps {
            player = st.next_seat(player);
        }
        st.push_decision(Decision {
            player,
            kind: DecisionKind::Plugin { plugin: me as u8, code: STEP, data: steps as i32 },
        });
    }

    /// Calls `f` with each cell the dragon may step to (PD-DRAGON-5) until it returns true;
    /// returns whether it did.
    fn for_each_step(&self, rules: &Rules, st: &State, me: usize, mut f: impl FnMut(Pos) -> bool) -> bool {
        let s = st.plugin::<DragonState>(me);
        let Some(from) = Self::dragon_part(st, me) else { return false };
        let visited = &s.visited[..=s.steps as usize];
        let pos = st.board.parts[from as usize].pos;
        for side in Side::ALL {
            let cell = pos.step(side);
            let Some(n) = st.board.part_at(cell) else { continue };
            if visited.contains(&n) {
                continue;
            }
            let q = Query {
                key: self.ids.dragon_may_enter,
                figure: None,
                part: Some(n),
                node: None,
                kind: None,
                by: me as u8,
            };
            if rules.verdict(st, &q, true) && f(cell) {
                return true;
            }
        }
        false
    }

    /// PD-DRAGON-6: eats every figure on `part` that no plugin spares.
    /// PD-DRAGON-6: eats every figure on the tile that no plugin spares.
    fn eat(&self, rules: &Rules, st: &mut State, me: usize, part: u32) {
        let eaten = st.eat_figures_on(rules, part, me as u8);
        st.bump_stat(self.ids.eaten, eaten as i64);
        if eaten > 0 {
            tracing::debug!(turn = st.turn, at = %st.board.parts[part as usize].pos, eaten, "the dragon eats");
        }
    }
}

impl Plugin for Dragon {
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
        "dragon"
    }

    fn hooks(&self) -> Hooks {
        let mut h = Hooks::TILE_DRAWN | Hooks::TILE_PLACED | Hooks::ALLOW_FIGURE | Hooks::FIGURE_REMOVED | Hooks::QUERY;
        if self.early_dragon_tiles == EarlyDragonTiles::HeldOut {
            h = h | Hooks::GAME_START;
        }
        h | self.move_hook()
    }

    /// Every drawn tile (the set-aside tiles follow the last one); placed, only a volcano
    /// or a dragon tile.
    fn tile_hooks(&self, rules: &Rules, tile: TileTypeId) -> Hooks {
        let placed = self.ids.volcano | self.ids.symbol;
        Hooks::TILE_DRAWN | carcassonne_core::plugin::marked(rules, tile, placed, Hooks::TILE_PLACED)
    }

    /// The dragon moves only on the turn of a dragon tile (its move is requested when
    /// one is placed).
    fn hooks_on_request(&self) -> Hooks {
        self.move_hook()
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        self.ids.volcano = reg.require_marker(&self.tile_set, "volcano")?;
        self.ids.fairy_may_join = reg.query("fairy_may_join");
        self.ids.dragon_may_enter = reg.query("dragon_may_enter");
        self.ids.symbol = reg.require_marker(&self.tile_set, "dragon")?;
        self.ids.kind = reg.figure_kind("dragon", false, 0, 0)?;
        reg.figure_look(self.ids.kind, draw::look());
        self.ids.steps = reg.stat("dragon_steps");
        self.ids.eaten = reg.stat("dragon_eaten");
        self.ids.movements = reg.stat("dragon_movements");
        self.ids.set_aside = reg.stat("dragon_tiles_set_aside");
        Ok(())
    }

    /// The volcano and dragon tiles go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        let mine = self.ids.volcano | self.ids.symbol;
        setup.add_marked_land_tiles(rules, &self.tile_set, mine, self.edition == 1)
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(DragonState::default()))
    }

    /// PD-DRAGON-1 `held_out`: the dragon tiles leave the stack until the first volcano.
    fn on_game_start(&self, rules: &Rules, st: &mut State, me: usize) {
        let mut held = Vec::new();
        st.stack.retain(|&t| {
            let sym = self.is_symbol(rules, t);
            if sym {
                held.push(t);
            }
            !sym
        });
        st.plugin_mut::<DragonState>(me).waiting = held;
    }

    /// PD-DRAGON-1: a dragon tile drawn before the first volcano is set aside; when the
    /// stack runs out before any volcano, the waiting tiles are shuffled and played.
    fn on_tile_drawn(&self, rules: &Rules, st: &mut State, me: usize, tile: TileTypeId) -> DrawVerdict {
        let s = st.plugin::<DragonState>(me);
        if s.in_play() || s.flushed {
            return DrawVerdict::Keep;
        }
        let mut verdict = DrawVerdict::Keep;
        if self.early_dragon_tiles == EarlyDragonTiles::SetAside && self.is_symbol(rules, tile) {
            st.plugin_mut::<DragonState>(me).waiting.push(tile);
            st.bump_stat(self.ids.set_aside, 1);
            let id = &rules.catalog.tiles[tile as usize].id;
            st.note(rules, me, format_args!("{id} set aside: the dragon is not in play"));
            verdict = DrawVerdict::Taken;
        }
        // The last tile: the waiting tiles follow it. A last volcano would bring them in
        // when placed, but it may fit nowhere and be discarded (BASE-4): they follow it in
        // either case (after a placed volcano they are dragon tiles again).
        if st.stack.is_empty() && !st.plugin::<DragonState>(me).waiting.is_empty() {
            st.plugin_mut::<DragonState>(me).flushed = true;
            let n = Self::shuffle_in(st, me);
            if rules.catalog.tiles[tile as usize].markers & self.ids.volcano != 0 {
                st.note(rules, me, format_args!("the last tile is a volcano: {n} dragon tile(s) shuffled in after it"));
            } else {
                st.note(
                    rules,
                    me,
                    format_args!("the stack ran out before any volcano: {n} dragon tile(s) shuffled in, to be played"),
                );
            }
        }
        verdict
    }

    /// PD-DRAGON-2: a volcano takes the dragon (nothing is eaten on arrival); the first
    /// one brings the waiting dragon tiles back into the stack (PD-DRAGON-1).
    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        if st.placed_parts().any(|p| self.part_has(rules, st, p, self.ids.symbol)) {
            st.request_hook(me, self.move_hook());
        }
        let Some(part) = st.placed_parts().find(|&p| self.part_has(rules, st, p, self.ids.volcano)) else {
            return;
        };
        match st.plugin::<DragonState>(me).figure {
            Some(id) => st.move_figure(rules, id, part, None),
            None => {
                let id = st.add_figure(rules, NEUTRAL, self.ids.kind, part, None);
                st.plugin_mut::<DragonState>(me).figure = Some(id);
                let n = Self::shuffle_in(st, me);
                if n > 0 {
                    st.note(rules, me, format_args!("first volcano: {n} dragon tile(s) shuffled into the stack"));
                }
            }
        }
    }

    /// PD-DRAGON-2/3: no figure on a volcano tile, nor on the dragon's tile (also through
    /// the magic portal, whose placements pass here too).
    fn allow_figure(&self, rules: &Rules, st: &State, me: usize, p: &FigurePlacement) -> bool {
        self.figure_may_go(rules, st, Self::dragon_part(st, me), p.part)
    }

    /// [`Plugin::allow_figure`] of a list: the dragon's tile looked up once.
    fn allow_figures(&self, rules: &Rules, st: &State, me: usize, cands: &[FigurePlacement], allowed: &mut [bool]) {
        let dragon = Self::dragon_part(st, me);
        for (p, ok) in cands.iter().zip(allowed.iter_mut()) {
            *ok &= self.figure_may_go(rules, st, dragon, p.part);
        }
    }

    fn on_figure_action_done(&self, rules: &Rules, st: &mut State, me: usize, _action: &Action) {
        self.start_movement(rules, st, me);
    }

    fn on_scoring_done(&self, rules: &Rules, st: &mut State, me: usize) {
        self.start_movement(rules, st, me);
    }

    /// PD-DRAGON-7: any removal but a scoring may take builder and pig along.
    fn on_figure_removed(
        &self,
        rules: &Rules,
        st: &mut State,
        _me: usize,
        _id: FigureId,
        fig: &Figure,
        why: RemoveReason,
    ) {
        if why != RemoveReason::Scored {
            st.release_dependents(rules, fig, why);
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["fairy_may_join"])
    }

    fn answer(&self, _rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        let dragon = Self::dragon_part(st, me)?;
        self.keeps_fairy_off(st, dragon, q.key, q.figure).then_some(false)
    }

    /// [`Plugin::answer`] about a list of figures (the fairies' lists): the dragon's tile
    /// looked up once.
    fn answer_figures(&self, _r: &Rules, st: &State, me: usize, key: QueryKey, _by: u8, ids: &[FigureId]) -> Answers {
        let mut a = Answers::default();
        let Some(dragon) = Self::dragon_part(st, me) else { return a };
        for (i, &id) in ids.iter().enumerate() {
            a.no |= u64::from(self.keeps_fairy_off(st, dragon, key, Some(id))) << i;
        }
        a
    }

    /// PD-DRAGON-4/5: the legal steps of this step's player.
    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, _d: &Decision, out: &mut Vec<Action>) {
        self.for_each_step(rules, st, me, |cell| {
            out.push(Action::Plugin { plugin: me as u8, code: STEP, a: cell.x, b: cell.y });
            false
        });
    }

    /// One step: enter the tile, eat (PD-DRAGON-6), then the next player's step.
    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        let Action::Plugin { code: STEP, a: x, b: y, .. } = *a else { return };
        let (Some(id), Some(part)) = (st.plugin::<DragonState>(me).figure, st.board.part_at(Pos::new(x, y))) else {
            return;
        };
        st.move_figure(rules, id, part, None);
        let s = st.plugin_mut::<DragonState>(me);
        s.steps += 1;
        s.visited[s.steps as usize] = part;
        st.bump_stat(self.ids.steps, 1);
        tracing::debug!(turn = st.turn, player = _d.player, to = %Pos::new(x, y), "dragon step");
        self.eat(rules, st, me, part);
        self.next_step(rules, st, me);
    }

    fn describe_action(&self, _rules: &Rules, _st: &State, _me: usize, a: &Action) -> serde_json::Value {
        match *a {
            Action::Plugin { code: STEP, a: x, b: y, .. } => serde_json::json!({"action": "step", "cell": [x, y]}),
            _ => serde_json::Value::Null,
        }
    }
}
