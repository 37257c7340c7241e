//! The game state: board, feature graph, figures, supplies, scores, stacks, phase.
//! Plain data plus the mechanics plugins call (award points, move figures, push decisions).

use std::any::{Any, TypeId};

use crate::action::{Action, Decision};
use crate::board::Board;
use crate::geometry::{Pos, Side};
use crate::graph::{Graph, NodeId, NodeSeed};
use crate::plugin::PluginState;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::tile::{FeatureDef, RotatedFeature, RotatedPart, TileTypeId};

mod figures;
pub use figures::{FigureList, OccupiedFeature, OnePerPlace, OwnFigures};
mod scoring;

/// Most seats a game can have.
pub const MAX_PLAYERS: usize = 6;
/// Most figure kinds (follower, large meeple, builder, ...) in one rule set.
pub const MAX_FIGURE_KINDS: usize = 16;
/// Most score sources (road, city, ..., plugin sources).
pub const MAX_SOURCES: usize = 24;
/// Owner of neutral figures (dragon, fairy).
pub const NEUTRAL: u8 = u8::MAX;

/// Figure ids that [`State::own_figures`] finds by the seats' bit sets (a game whose
/// figure list grows longer is scanned).
pub const OWN_BITS: usize = 64;

/// The first feature index (`local`) of the features plugins add onto placed parts
/// ([`State::add_edge_feature`]): the k-th on a part is `EXTRA_LOCAL + k`. Tile data
/// never has this many features on one part.
pub const EXTRA_LOCAL: u8 = 0x80;

/// A feature a plugin added onto a placed part ([`State::add_edge_feature`]), e.g. a
/// bridge (BRIDGE-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraFeature {
    /// The placed part it lies on.
    pub part: u32,
    /// Its feature index on the part (from [`EXTRA_LOCAL`]).
    pub local: u8,
    pub node: NodeId,
    /// Its template ([`crate::rules::Registry::edge_feature`]).
    pub template: u8,
}

/// Index of a figure slot in [`State::figures`]; stable while the figure is on the board.
pub type FigureId = u32;

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// Seat, or [`NEUTRAL`].
    pub owner: u8,
    /// Figure kind index (see [`Rules::figure_kinds`]).
    pub kind: u8,
    /// Placed part it stands on.
    pub part: u32,
    /// Feature node it stands in, if any.
    pub node: Option<NodeId>,
    /// Free for the owning plugin (e.g. the fairy's follower).
    pub data: u32,
    /// False for an empty slot.
    pub alive: bool,
}

/// Why a figure left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoveReason {
    /// Its feature was scored.
    Scored,
    /// Removed by a plugin's effect (`plugin` index), e.g. eaten by the dragon.
    Plugin(u8),
}

/// One scoring of a feature or other source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreEvent {
    /// The feature's root node, when a feature was scored.
    pub root: Option<NodeId>,
    /// Bit set of the players who scored.
    pub winners: u8,
    /// Points to each winner.
    pub points: i32,
    /// Score source index (see [`Rules::sources`]).
    pub source: u8,
    /// During final scoring.
    pub final_scoring: bool,
    /// For a field scored by the completed cities it touches ([`State::score_field`]:
    /// farmers, barns): the points per city. Plugins that make a city worth more in every
    /// such scoring (a castle, CASTLE-4) add to it.
    pub per_city: Option<i32>,
    /// An extra scoring, not the feature's own (a barn paying farmers, a castle, a tower...):
    /// its source was declared with [`crate::rules::Registry::extra_source`]. Plugins that
    /// reward a feature's own scoring (the fairy) ignore it.
    pub extra: bool,
}

/// What BASE-4's check of a drawn tile that a plugin may veto left for its placement
/// decision ([`State::tile_judged`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TileJudged {
    /// Nothing: the decision judges the placements.
    #[default]
    No,
    /// Judged with the call the decision makes, nothing forbidden without asking for the
    /// list: every plain placement stands.
    Quiet,
    /// Judged and listed: the legal placements are [`State::judged_list`].
    Listed,
}

/// Where the current turn's tile comes from ([`State::turn_tile`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TurnTile {
    /// Drawn from the stack (BASE-2).
    #[default]
    Draw,
    /// Handed out by a plugin instead of drawing (e.g. the abbey, ABBEY-2): placed like a
    /// drawn tile, through the same placement rules and vetoes.
    Given(TileTypeId),
    /// No tile this turn: the turn ends at once (e.g. a seat that passes in a last round).
    NoTile,
}

/// Where the turn loop stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    TurnStart,
    Draw,
    PlaceTile,
    AfterTile,
    Figure,
    AfterFigure,
    /// The scoring step begins ([`crate::plugin::Hooks::SCORING_STEP`]).
    ScoringStep,
    Scoring,
    ScoringDone,
    TurnEnd,
    FinalScoring,
    Over,
}

impl Phase {
    /// Every phase, in declaration order (`Phase::ALL[p as usize] == p`, checked below).
    pub(crate) const ALL: [Phase; 12] = [
        Phase::TurnStart,
        Phase::Draw,
        Phase::PlaceTile,
        Phase::AfterTile,
        Phase::Figure,
        Phase::AfterFigure,
        Phase::ScoringStep,
        Phase::Scoring,
        Phase::ScoringDone,
        Phase::TurnEnd,
        Phase::FinalScoring,
        Phase::Over,
    ];
}

// `Rules::phase_from` indexes its table by phase: each phase at its own index.
const _: () = {
    let mut i = 0;
    while i < Phase::ALL.len() {
        assert!(Phase::ALL[i] as usize == i, "Phase::ALL out of declaration order");
        i += 1;
    }
};

/// Something worth writing in a game record (kept only when recording).
#[derive(Clone, Debug, PartialEq)]
pub enum LogEntry {
    TurnStart {
        turn: u32,
        player: u8,
    },
    Drawn {
        tile: TileTypeId,
    },
    Discarded {
        tile: TileTypeId,
        reason: &'static str,
    },
    Action {
        player: u8,
        action: serde_json::Value,
    },
    Score {
        feature: Option<String>,
        players: Vec<u8>,
        points: i32,
        reason: String,
    },
    Removed {
        figure: String,
        owner: u8,
        at: String,
        reason: String,
    },
    Note {
        plugin: String,
        text: String,
    },
    /// Final scoring begins.
    FinalScoring,
}

/// The full state of one game.
#[derive(Debug)]
pub struct State {
    pub players: usize,
    pub board: Board,
    pub graph: Graph,
    pub figures: Vec<Figure>,
    /// The live figures of each seat, a bit per figure id below [`OWN_BITS`]
    /// ([`State::own_figures`]; kept by `add_figure` and `remove_figure`).
    own: [u64; MAX_PLAYERS],
    /// Figures in supply per seat and kind.
    pub supply: [[u8; MAX_FIGURE_KINDS]; MAX_PLAYERS],
    pub scores: [i32; MAX_PLAYERS],
    /// Points per seat per source.
    pub points_by_source: [[i32; MAX_SOURCES]; MAX_PLAYERS],
    /// Plugin statistics (see [`Rules::stats`]).
    pub stats: Vec<i64>,
    /// Draw pile: the next tile is the last element.
    pub stack: Vec<TileTypeId>,
    /// The draw order was forced (`GameOptions::tile_order`, scenarios): plugins that
    /// would shuffle or remove tiles unseen leave the stack as given.
    pub forced_order: bool,
    pub phase: Phase,
    /// Seat whose turn it is.
    pub current: u8,
    /// Turn number, from 1.
    pub turn: u32,
    /// Tile drawn this turn, until placed.
    pub tile: Option<TileTypeId>,
    /// First and end (exclusive) placed-part index of the tile placed this turn.
    pub placed: Option<(u32, u32)>,
    /// Roots completed by this turn's placement, scored in the scoring step.
    pub completed: Vec<NodeId>,
    /// Plugin decisions; the last is the current one.
    pub pending: Vec<Decision>,
    /// Feature whose completion hooks are running (they may wait for decisions).
    pub scoring: Option<NodeId>,
    /// The answer to this turn's figure decision.
    pub figure_action: Option<Action>,
    /// Set by a plugin during a turn: the current player also plays the next turn (e.g. the
    /// builder's extra turn, BUILDER-1). Cleared when that turn starts.
    pub extra_turn: bool,
    /// Set by a plugin during a turn: the seat that plays the next turn (before
    /// [`State::extra_turn`] and the next seat clockwise). Cleared when that turn starts.
    pub next_player: Option<u8>,
    /// Set by a plugin at the start of a turn (before the draw): where this turn's tile
    /// comes from. Back to [`TurnTile::Draw`] when the turn ends.
    pub turn_tile: TurnTile,
    /// Where the current phase's hook dispatch resumes after a plugin's decision.
    pub hook_cursor: u8,
    /// Per hook of [`crate::plugin::Hooks::ON_REQUEST`] (by its slot), a bit per plugin
    /// that requested it ([`State::request_hook`]).
    pub(crate) requested: [u64; crate::plugin::Hooks::REQUEST_SLOTS],
    /// What BASE-4's check of the drawn tile left for its placement decision, which, in
    /// the same state, is not judged again. Cleared at each draw and set by the check of a
    /// tile a plugin may veto (the only tiles it is read for); cleared too for a tile a
    /// plugin hands out, by the answer to a plugin's decision (the only actions before the
    /// tile's placement) and by `Game::determinize`.
    pub(crate) tile_judged: TileJudged,
    /// The drawn tile's legal placements as its decision lists them, when
    /// [`TileJudged::Listed`] (kept between draws: no allocation per draw).
    pub(crate) judged_list: Vec<Action>,
    /// Tiles discarded as unplaceable.
    pub discarded: u32,
    /// Features plugins added onto placed parts, in the order added.
    pub extra_features: Vec<ExtraFeature>,
    pub rng: Rng,
    /// One state slot per plugin, in resolved order (read through [`State::plugin`]).
    plugin_state: Vec<Option<PluginSlot>>,
    /// Record entries, when recording.
    pub log: Option<Vec<LogEntry>>,
    /// The first plugin failure (see [`State::fail`]); set through `&self`, so that hooks
    /// that only read the state can report one too.
    failure: std::sync::OnceLock<String>,
}

/// Written out (not derived) for `clone_from`: a search copies positions into one scratch
/// game, and every vector then keeps its memory (no allocation per copy). Both list every
/// field, so a new field that is not copied does not compile.
impl Clone for State {
    fn clone(&self) -> State {
        self.copy(true)
    }

    fn clone_from(&mut self, source: &State) {
        let State {
            players,
            board,
            graph,
            figures,
            own,
            supply,
            scores,
            points_by_source,
            stats,
            stack,
            forced_order,
            phase,
            current,
            turn,
            tile,
            placed,
            completed,
            pending,
            scoring,
            figure_action,
            extra_turn,
            next_player,
            turn_tile,
            hook_cursor,
            requested,
            tile_judged,
            judged_list,
            discarded,
            extra_features,
            rng,
            plugin_state,
            log,
            failure,
        } = source;
        self.players = *players;
        self.board.clone_from(board);
        self.graph.clone_from(graph);
        self.figures.clone_from(figures);
        self.own = *own;
        self.supply = *supply;
        self.scores = *scores;
        self.points_by_source = *points_by_source;
        self.stats.clone_from(stats);
        self.stack.clone_from(stack);
        self.forced_order = *forced_order;
        self.phase = *phase;
        self.current = *current;
        self.turn = *turn;
        self.tile = *tile;
        self.placed = *placed;
        self.completed.clone_from(completed);
        self.pending.clone_from(pending);
        self.scoring = *scoring;
        self.figure_action = *figure_action;
        self.extra_turn = *extra_turn;
        self.next_player = *next_player;
        self.turn_tile = *turn_tile;
        self.hook_cursor = *hook_cursor;
        self.requested = *requested;
        self.tile_judged = *tile_judged;
        self.judged_list.clone_from(judged_list);
        self.discarded = *discarded;
        self.extra_features.clone_from(extra_features);
        self.rng.clone_from(rng);
        self.plugin_state.clone_from(plugin_state);
        self.log.clone_from(log);
        self.failure.clone_from(failure);
    }
}

impl State {
    /// A copy, with the record log or without (a search's copy needs none).
    pub fn copy(&self, log: bool) -> State {
        State {
            players: self.players,
            board: self.board.clone(),
            graph: self.graph.clone(),
            figures: self.figures.clone(),
            own: self.own,
            supply: self.supply,
            scores: self.scores,
            points_by_source: self.points_by_source,
            stats: self.stats.clone(),
            stack: self.stack.clone(),
            forced_order: self.forced_order,
            phase: self.phase,
            current: self.current,
            turn: self.turn,
            tile: self.tile,
            placed: self.placed,
            completed: self.completed.clone(),
            pending: self.pending.clone(),
            scoring: self.scoring,
            figure_action: self.figure_action,
            extra_turn: self.extra_turn,
            next_player: self.next_player,
            turn_tile: self.turn_tile,
            hook_cursor: self.hook_cursor,
            requested: self.requested,
            tile_judged: self.tile_judged,
            judged_list: self.judged_list.clone(),
            discarded: self.discarded,
            extra_features: self.extra_features.clone(),
            rng: self.rng.clone(),
            plugin_state: self.plugin_state.clone(),
            log: if log { self.log.clone() } else { None },
            failure: self.failure.clone(),
        }
    }
}

/// A plugin's state with its concrete type, so that [`State::plugin`] downcasts with one
/// comparison instead of two virtual calls (plugins read their state on every hook).
#[derive(Debug)]
struct PluginSlot {
    ty: TypeId,
    state: Box<dyn PluginState>,
}

impl Clone for PluginSlot {
    /// The clone's type is read again: a hand-written `clone_box` may return another type.
    fn clone(&self) -> PluginSlot {
        PluginSlot::new(self.state.clone())
    }

    fn clone_from(&mut self, source: &PluginSlot) {
        self.state.clone_from(&source.state);
        let any: &dyn Any = &*self.state;
        self.ty = any.type_id();
    }
}

impl PluginSlot {
    fn new(state: Box<dyn PluginState>) -> PluginSlot {
        // The boxed value's own type.
        let any: &dyn Any = &*state;
        PluginSlot { ty: any.type_id(), state }
    }
}

#[cold]
#[inline(never)]
fn wrong_state(me: usize) -> ! {
    panic!("plugin #{me}: no plugin state of the asked type")
}

impl State {
    pub(crate) fn new(players: usize, rules: &Rules, seed: u64) -> State {
        State {
            players,
            board: Board::new(),
            graph: Graph::new(),
            figures: Vec::with_capacity(24),
            own: [0; MAX_PLAYERS],
            supply: [[0; MAX_FIGURE_KINDS]; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
            points_by_source: [[0; MAX_SOURCES]; MAX_PLAYERS],
            stats: vec![0; rules.stats.len()],
            stack: Vec::new(),
            forced_order: false,
            phase: Phase::TurnStart,
            current: 0,
            turn: 0,
            tile: None,
            placed: None,
            completed: Vec::with_capacity(8),
            pending: Vec::with_capacity(4),
            scoring: None,
            figure_action: None,
            extra_turn: false,
            next_player: None,
            turn_tile: TurnTile::Draw,
            hook_cursor: 0,
            requested: [0; crate::plugin::Hooks::REQUEST_SLOTS],
            tile_judged: TileJudged::No,
            judged_list: Vec::new(),
            discarded: 0,
            extra_features: Vec::new(),
            rng: Rng::new(seed),
            plugin_state: Vec::new(),
            log: None,
            failure: std::sync::OnceLock::new(),
        }
    }

    /// Stops the game because a plugin failed (e.g. a run-time plugin's hook panicked or
    /// returned an invalid effect). The first failure is kept; from then on the game asks
    /// no decision ([`State::decision`] is None, and it is not over): the driver reports
    /// [`State::failure`].
    pub fn fail(&self, message: impl Into<String>) {
        let _ = self.failure.set(message.into());
    }

    /// The failure that stopped the game, if any.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// The current decision, or None when the game is over (or stopped by a failure).
    pub fn decision(&self) -> Option<Decision> {
        if self.failure.get().is_some() {
            return None;
        }
        if let Some(d) = self.pending.last() {
            return Some(*d);
        }
        match self.phase {
            Phase::PlaceTile => Some(Decision { player: self.current, kind: crate::action::DecisionKind::PlaceTile }),
            Phase::Figure => Some(Decision { player: self.current, kind: crate::action::DecisionKind::Figure }),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Final (or current) scores, one per seat.
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.players]
    }

    /// The state of plugin `me`, downcast.
    pub fn plugin<T: 'static>(&self, me: usize) -> &T {
        match self.plugin_state.get(me) {
            // SAFETY: `ty` is the type of the boxed value (see `PluginSlot::new`).
            Some(Some(s)) if s.ty == TypeId::of::<T>() => unsafe {
                &*(&*s.state as *const dyn PluginState as *const T)
            },
            _ => wrong_state(me),
        }
    }

    pub fn plugin_mut<T: 'static>(&mut self, me: usize) -> &mut T {
        match self.plugin_state.get_mut(me) {
            // SAFETY: `ty` is the type of the boxed value (see `PluginSlot::new`).
            Some(Some(s)) if s.ty == TypeId::of::<T>() => unsafe {
                &mut *(&mut *s.state as *mut dyn PluginState as *mut T)
            },
            _ => wrong_state(me),
        }
    }

    /// Sets every plugin's state slot (game creation). Empty slots at the end are left
    /// out (read as empty): a rule set whose plugins keep no state clones no slot list.
    pub(crate) fn set_plugin_states(&mut self, states: impl Iterator<Item = Option<Box<dyn PluginState>>>) {
        let mut slots: Vec<Option<PluginSlot>> = states.map(|s| s.map(PluginSlot::new)).collect();
        while slots.last().is_some_and(Option::is_none) {
            slots.pop();
        }
        self.plugin_state = slots;
    }

    /// What the check at the draw left for the placement decision of drawn tile `t`
    /// ([`State::tile_judged`]), if it is that decision's turn ([`TileJudged::No`] else).
    #[inline]
    fn judged_for(&self, t: TileTypeId) -> TileJudged {
        if self.tile == Some(t) && self.phase == Phase::PlaceTile && self.pending.is_empty() {
            self.tile_judged
        } else {
            TileJudged::No
        }
    }

    /// Whether drawn tile `t` was judged at the draw and nothing was forbidden
    /// ([`TileJudged::Quiet`]): its plain placements are all legal, no veto is asked again.
    #[inline]
    pub(crate) fn judged_at_draw(&self, t: TileTypeId) -> bool {
        self.judged_for(t) == TileJudged::Quiet
    }

    /// The legal placements of drawn tile `t` that the check at the draw listed
    /// ([`TileJudged::Listed`]), for its placement decision (ask only for a tile a
    /// plugin may veto).
    #[inline]
    pub(crate) fn listed_at_draw(&self, t: TileTypeId) -> Option<&[Action]> {
        (self.judged_for(t) == TileJudged::Listed).then_some(&self.judged_list[..])
    }

    /// Parts of the tile placed this turn.
    pub fn placed_parts(&self) -> std::ops::Range<u32> {
        self.placed.map_or(0..0, |(a, b)| a..b)
    }

    /// The rotated layout of a placed part.
    pub fn rotated<'r>(&self, rules: &'r Rules, part: u32) -> &'r RotatedPart {
        &rules.catalog.flat[self.board.parts[part as usize].rp as usize]
    }

    /// The marker bits of a placed part.
    pub fn part_markers(&self, _rules: &Rules, part: u32) -> u32 {
        self.board.parts[part as usize].markers
    }

    /// The tile data of a feature node (unrotated; for an added feature, its template).
    pub fn feature_def<'r>(&self, rules: &'r Rules, n: NodeId) -> &'r FeatureDef {
        let node = self.graph.node(n);
        if node.local >= EXTRA_LOCAL {
            return &rules.edge_features[self.extra(node.part, node.local).template as usize].def;
        }
        let p = &self.board.parts[node.part as usize];
        &rules.catalog.tiles[p.tile as usize].faces[p.face as usize].parts[p.part as usize].features
            [node.local as usize]
    }

    /// Modifier bits of a feature node.
    pub fn node_modifiers(&self, rules: &Rules, n: NodeId) -> u32 {
        self.feature_def(rules, n).modifiers
    }

    /// The cities (roots, each once) that the field of node `field` touches, as drawn on
    /// its tiles (farmers' scoring, castles, barns).
    pub fn field_cities(&self, rules: &Rules, field: NodeId) -> Vec<NodeId> {
        let mut cities: Vec<NodeId> = Vec::new();
        self.each_field_city(rules, field, |city| {
            if !cities.contains(&city) {
                cities.push(city);
            }
        });
        cities
    }

    /// Calls `f` with the city (root) beside each member of the field of `field`, once per
    /// member and adjacency (a city may come more than once).
    fn each_field_city(&self, rules: &Rules, field: NodeId, mut f: impl FnMut(NodeId)) {
        for m in self.graph.members(field) {
            let base = self.board.parts[self.graph.node(m).part as usize].node_base;
            for &c in &self.feature_def(rules, m).adj_cities {
                f(self.graph.find(base + c as u32));
            }
        }
    }

    /// [`State::each_field_city`] in no particular order within a part (its cities read
    /// from the part's node seeds, a bit set: no walk through the tile data).
    #[inline]
    fn each_field_city_unordered(&self, rules: &Rules, field: NodeId, mut f: impl FnMut(NodeId)) {
        let catalog = &rules.catalog;
        for m in self.graph.members(field) {
            let node = self.graph.node(m);
            let p = &self.board.parts[node.part as usize];
            let mut cities = NodeSeed::CITIES_LISTED;
            if node.local < EXTRA_LOCAL {
                let seeds = catalog.part_seeds[p.rp as usize / 4];
                cities = catalog.node_seeds[seeds.start as usize + node.local as usize].cities;
            }
            if cities == NodeSeed::CITIES_LISTED {
                for &c in &self.feature_def(rules, m).adj_cities {
                    f(self.graph.find(p.node_base + c as u32));
                }
                continue;
            }
            while cities != 0 {
                let c = cities.trailing_zeros();
                cities &= cities - 1;
                f(self.graph.find(p.node_base + c));
            }
        }
    }

    /// How many completed cities the field of node `field` touches (BASE-10's count).
    pub fn completed_field_cities(&self, rules: &Rules, field: NodeId) -> u32 {
        // The cities seen so far on the stack: no allocation for the fields of a game
        // (a field touching more than 64 cities takes the list).
        const ROOM: usize = 64;
        let mut seen = [0 as NodeId; ROOM];
        let (mut n, mut complete, mut overflow) = (0, 0, false);
        self.each_field_city_unordered(rules, field, |city| {
            if overflow || seen[..n].contains(&city) {
                return;
            }
            if n == ROOM {
                overflow = true;
                return;
            }
            seen[n] = city;
            n += 1;
            complete += u32::from(self.graph.open(city) == 0);
        });
        if overflow {
            return self.field_cities(rules, field).into_iter().filter(|&c| self.graph.open(c) == 0).count() as u32;
        }
        complete
    }

    /// Feature node of feature `local` on placed part `part` (an added feature's too).
    #[inline]
    pub fn node_of(&self, part: u32, local: u8) -> NodeId {
        if local >= EXTRA_LOCAL {
            return self.extra(part, local).node;
        }
        self.board.parts[part as usize].node_base + local as u32
    }

    /// The added feature `local` of part `part` ([`State::add_edge_feature`]).
    #[cold]
    fn extra(&self, part: u32, local: u8) -> &ExtraFeature {
        self.extra_features
            .iter()
            .find(|e| e.part == part && e.local == local)
            .unwrap_or_else(|| panic!("part {part} has no added feature {local}"))
    }

    /// Feature `local` of placed part `part` as it lies on the board (an added one too).
    pub fn rotated_feature<'r>(&self, rules: &'r Rules, part: u32, local: u8) -> &'r RotatedFeature {
        if local >= EXTRA_LOCAL {
            return &rules.edge_features[self.extra(part, local).template as usize].rotated;
        }
        &self.rotated(rules, part).features[local as usize]
    }

    /// The features added onto part `part` ([`State::add_edge_feature`]).
    pub fn extra_features_on(&self, part: u32) -> impl Iterator<Item = &ExtraFeature> + '_ {
        self.extra_features.iter().filter(move |e| e.part == part)
    }

    /// The city, road or river node on side `s` of placed part `part` (as drawn, or added
    /// there by a plugin), if any.
    pub fn side_node(&self, rules: &Rules, part: u32, s: Side) -> Option<NodeId> {
        let local = self.rotated(rules, part).side_feature[s as usize];
        if local != crate::tile::NONE {
            return Some(self.board.parts[part as usize].node_base + local as u32);
        }
        self.extra_features_on(part)
            .find(|e| rules.edge_features[e.template as usize].rotated.sides & (1 << s as u8) != 0)
            .map(|e| e.node)
    }

    /// Adds feature template `template` ([`crate::rules::Registry::edge_feature`]) onto
    /// placed part `part` (e.g. a bridge, BRIDGE-4): its board sides, which must show no
    /// city, road or river, show its kind from now on (signature and frontier needs
    /// follow); it joins the feature of its kind on each placed neighbour's facing side,
    /// and the fields stay as they are. Features this joins that were complete and are
    /// open again leave [`State::completed`]; the joined feature enters it when complete.
    /// Returns its node.
    pub fn add_edge_feature(&mut self, rules: &Rules, part: u32, template: u8) -> NodeId {
        let t = &rules.edge_features[template as usize].def;
        let local = EXTRA_LOCAL + self.extra_features_on(part).count() as u8;
        let node = self.graph.add(part, local, t.kind, t.sides.count_ones(), 0);
        self.extra_features.push(ExtraFeature { part, local, node, template });
        let pos = self.board.parts[part as usize].pos;
        for s in Side::ALL.into_iter().filter(|&s| t.sides & (1 << s as u8) != 0) {
            self.board.set_side(part, s, t.side_kind() as u32);
            let Some(n) = self.board.part_at(pos.step(s)) else { continue };
            if let Some(theirs) = self.side_node(rules, n, s.opposite()) {
                if self.graph.node(theirs).kind == t.kind {
                    self.graph.join(node, theirs, 2);
                }
            }
        }
        let graph = &self.graph;
        self.completed.retain(|&c| graph.open(c) == 0);
        let root = self.graph.find(node);
        if self.graph.open(root) == 0 && !self.completed.iter().any(|&c| self.graph.find(c) == root) {
            self.completed.push(root);
        }
        node
    }

    /// Number of distinct placed tiles (not parts: each part counts, per FD-RIVER-1) in a feature.
    pub fn feature_tiles(&self, n: NodeId) -> u32 {
        let mut seen: [u32; 64] = [u32::MAX; 64];
        let mut count = 0u32;
        let mut extra: Vec<u32> = Vec::new();
        for m in self.graph.members(n) {
            let part = self.graph.node(m).part;
            let slot = (part as usize) & 63;
            if seen[slot] == part {
                continue;
            }
            if seen[slot] == u32::MAX {
                seen[slot] = part;
                count += 1;
            } else if !extra.contains(&part) {
                extra.push(part);
                count += 1;
            }
        }
        count
    }

    /// Whether a cloister-like feature (monastery, garden) at part `part` is surrounded.
    pub fn surrounded(&self, part: u32) -> bool {
        self.board.ring_count(self.board.parts[part as usize].pos) == 8
    }

    /// Whether the feature of `n` is complete (closed city/road/river, surrounded cloister;
    /// never a field or an acrobat space).
    pub fn is_complete(&self, n: NodeId) -> bool {
        let node = self.graph.node(n);
        match node.kind {
            k if k.never_completes() => false,
            k if k.is_cloister() => self.surrounded(node.part),
            _ => self.graph.open(n) == 0,
        }
    }

    /// Name of a feature as in docs/notation.md: the cell and feature of its first-placed
    /// member.
    pub fn feature_name(&self, rules: &Rules, n: NodeId) -> String {
        let first = self.graph.members(n).min().unwrap_or(n);
        let node = self.graph.node(first);
        let pos = self.board.parts[node.part as usize].pos;
        format!("{} {}", pos, self.local_feature_name(rules, node.part, node.local))
    }

    /// Name of feature `local` of placed part `part` on its tile (`city:N+W`, `field`):
    /// [`crate::tile::feature_name`], and when an earlier feature of the part has the same
    /// name (two inner fields touching no side), `#2`, `#3`... after it, so that the name
    /// tells the place apart.
    pub fn local_feature_name(&self, rules: &Rules, part: u32, local: u8) -> String {
        let mut name = crate::tile::feature_name(self.rotated_feature(rules, part, local));
        // Only features touching no side can share a name (a side or half-side belongs to
        // one feature of a part).
        if local < EXTRA_LOCAL && !name.contains(':') {
            let feats = &self.rotated(rules, part).features[..local as usize];
            let twins = feats.iter().filter(|f| crate::tile::feature_name(f) == name).count();
            if twins > 0 {
                name.push_str(&format!("#{}", twins + 1));
            }
        }
        name
    }

    /// Asks the core to run plugin `me`'s hook `h`, which it takes only on request
    /// ([`crate::plugin::Plugin::hooks_on_request`]), the next time the turn loop runs that
    /// hook (this very pass, if the plugin's turn in it is still to come). No effect on a
    /// hook that always runs.
    #[inline]
    pub fn request_hook(&mut self, me: usize, h: crate::plugin::Hooks) {
        if me < 64 {
            let mut bits = h.0 & crate::plugin::Hooks::ON_REQUEST.0;
            while bits != 0 {
                let slot = crate::plugin::Hooks::REQUEST_SLOT[bits.trailing_zeros() as usize];
                if let Some(mask) = self.requested.get_mut(slot as usize) {
                    *mask |= 1 << me;
                }
                bits &= bits - 1;
            }
        }
    }

    /// Pushes a plugin decision; it becomes the current decision.
    pub fn push_decision(&mut self, d: Decision) {
        self.pending.push(d);
    }

    /// The next seat clockwise.
    pub fn next_seat(&self, p: u8) -> u8 {
        ((p as usize + 1) % self.players) as u8
    }

    /// Adds to a plugin statistic (see [`Rules::stat`]).
    pub fn bump_stat(&mut self, stat: usize, by: i64) {
        if let Some(s) = self.stats.get_mut(stat) {
            *s += by;
        }
    }

    /// Adds plugin `me`'s note to the record; formats nothing unless recording.
    pub fn note(&mut self, rules: &Rules, me: usize, text: std::fmt::Arguments<'_>) {
        if self.log.is_some() {
            self.log_entry(LogEntry::Note { plugin: rules.plugins[me].name.clone(), text: text.to_string() });
        }
    }

    /// Appends a record entry (only when recording).
    pub fn log_entry(&mut self, e: LogEntry) {
        if let Some(l) = self.log.as_mut() {
            l.push(e);
        }
    }

    /// Placed part at a cell.
    pub fn part_at(&self, p: Pos) -> Option<u32> {
        self.board.part_at(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Inner(u64);

    /// Not `Clone`: implements `PluginState` by hand.
    #[derive(Debug)]
    struct Outer {
        _pad: [u64; 3],
        inner: Inner,
    }

    impl PluginState for Outer {
        fn clone_box(&self) -> Box<dyn PluginState> {
            Box::new(Outer { _pad: self._pad, inner: Inner(self.inner.0) })
        }
    }

    /// The slot records the boxed value's own type (not that of a field, nor of the box),
    /// so that `State::plugin` never reads one type as another.
    #[test]
    fn plugin_slot_records_the_boxed_type() {
        let slot = PluginSlot::new(Box::new(Outer { _pad: [1, 2, 3], inner: Inner(7) }));
        assert_eq!(slot.ty, TypeId::of::<Outer>());
        assert_ne!(slot.ty, TypeId::of::<Inner>());
        let plain = PluginSlot::new(Box::new(5u32));
        assert_eq!(plain.ty, TypeId::of::<u32>());
    }

    /// A state that clones into another type (a hand-written `clone_box` may).
    #[derive(Debug)]
    struct Shifty;

    impl PluginState for Shifty {
        fn clone_box(&self) -> Box<dyn PluginState> {
            Box::new(7u32)
        }
    }

    #[test]
    fn a_cloned_slot_records_the_clone_s_own_type() {
        let slot = PluginSlot::new(Box::new(Shifty)).clone();
        assert_eq!(slot.ty, TypeId::of::<u32>());
    }
}
