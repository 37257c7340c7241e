//! The hook API: what a rule plugin can see, decide and change.
//!
//! A plugin is a small struct whose fields are its options (deserialized from its
//! `[plugins.options]` table). It tells the engine which hooks it uses ([`Hooks`]);
//! the engine dispatches each hook only to the plugins that use it, in priority order.

use std::any::Any;

use crate::action::{Action, Decision};
use crate::candidates::{TileCandidates, TileVetoes};
use crate::draw::Canvas;
use crate::graph::NodeId;
use crate::rules::{Registry, Rules};
use crate::setup::Setup;
use crate::state::{Figure, FigureId, RemoveReason, ScoreEvent, State, MAX_PLAYERS};
use crate::tile::TileTypeId;

/// The hooks a plugin subscribes to (bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks(pub u32);

macro_rules! hooks {
    ($($(#[$m:meta])* $name:ident = $bit:expr;)*) => {
        impl Hooks {
            $($(#[$m])* pub const $name: Hooks = Hooks(1 << $bit);)*
            /// Every hook's name, for listing.
            pub const NAMES: &'static [(&'static str, Hooks)] = &[$((stringify!($name), Hooks(1 << $bit))),*];
        }
    };
}

hooks! {
    /// [`Plugin::on_game_start`]
    GAME_START = 0;
    /// [`Plugin::on_turn_start`]
    TURN_START = 1;
    /// [`Plugin::on_tile_drawn`]
    TILE_DRAWN = 2;
    /// [`Plugin::allow_tile`]
    ALLOW_TILE = 3;
    /// [`Plugin::on_tile_placed`]
    TILE_PLACED = 4;
    /// [`Plugin::figure_actions`]
    FIGURE_ACTIONS = 5;
    /// [`Plugin::allow_figure`]
    ALLOW_FIGURE = 6;
    /// [`Plugin::on_figure_placed`]
    FIGURE_PLACED = 7;
    /// [`Plugin::on_figure_action_done`]
    FIGURE_ACTION_DONE = 8;
    /// [`Plugin::on_feature_completed`]
    FEATURE_COMPLETED = 9;
    /// [`Plugin::on_feature_scored`]
    FEATURE_SCORED = 10;
    /// [`Plugin::on_figure_removed`]
    FIGURE_REMOVED = 11;
    /// [`Plugin::is_protected`]
    PROTECTED = 12;
    /// [`Plugin::on_scoring_done`]
    SCORING_DONE = 13;
    /// [`Plugin::on_turn_end`]
    TURN_END = 14;
    /// [`Plugin::on_final_scoring`]
    FINAL_SCORING = 15;
    /// [`Plugin::answer`]
    QUERY = 16;
    /// [`Plugin::restrict_figure_actions`]
    FIGURE_FILTER = 17;
    /// [`Plugin::on_figure_moved`]
    FIGURE_MOVED = 18;
    /// [`Plugin::on_scoring_step`]
    SCORING_STEP = 19;
    /// [`Plugin::adjust_strengths`] and [`Plugin::break_tie`], asked by every majority
    /// ([`State::majority`]). Built-in plugins only: the run-time plugin interface stops
    /// at `SCORING_STEP` (its bit numbers are the first 20 of these), so a plugin file
    /// can neither subscribe to it nor be broken by it.
    MAJORITY = 20;
    /// [`Plugin::placement_variants`], [`Plugin::place_variant`] and
    /// [`Plugin::describe_variant`]: the plugin widens the legal tile placements with
    /// placement variants (e.g. a tile that fits only with a bridge, BRIDGE-3). Built-in
    /// plugins only, like `MAJORITY`. Without any such plugin the placement generation is
    /// the plain one.
    PLACEMENT_VARIANTS = 21;
}

impl Hooks {
    pub const NONE: Hooks = Hooks(0);
    pub const COUNT: usize = 22;
    /// The hooks the turn loop runs through its plugin lists, which a plugin may take
    /// only on request ([`Plugin::hooks_on_request`]).
    pub const ON_REQUEST: Hooks = Hooks(
        Hooks::TURN_START.0
            | Hooks::TILE_PLACED.0
            | Hooks::FIGURE_ACTION_DONE.0
            | Hooks::SCORING_STEP.0
            | Hooks::FEATURE_COMPLETED.0
            | Hooks::SCORING_DONE.0
            | Hooks::TURN_END.0
            | Hooks::FINAL_SCORING.0,
    );
    /// Number of hooks in [`Hooks::ON_REQUEST`].
    pub(crate) const REQUEST_SLOTS: usize = Hooks::ON_REQUEST.0.count_ones() as usize;
    /// Per hook bit, its slot among [`Hooks::ON_REQUEST`] (the number of those below it).
    pub(crate) const REQUEST_SLOT: [u8; Hooks::COUNT] = {
        let mut t = [0u8; Hooks::COUNT];
        let mut bit = 0;
        while bit < Hooks::COUNT {
            t[bit] = (Hooks::ON_REQUEST.0 & ((1 << bit) - 1)).count_ones() as u8;
            bit += 1;
        }
        t
    };
    pub fn contains(self, h: Hooks) -> bool {
        self.0 & h.0 == h.0
    }
}

impl std::ops::BitOr for Hooks {
    type Output = Hooks;
    fn bitor(self, o: Hooks) -> Hooks {
        Hooks(self.0 | o.0)
    }
}

/// What a plugin says of a drawn tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawVerdict {
    /// Play it.
    Keep,
    /// The plugin took the tile (set aside); draw again.
    Taken,
}

/// A candidate tile placement, as asked of [`Plugin::allow_tile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilePlacement {
    pub tile: TileTypeId,
    pub face: u8,
    pub pos: crate::geometry::Pos,
    pub rot: crate::geometry::Rotation,
    /// 0: the plain placement; else the placement variant of the plugin that reserved the
    /// code ([`Action::PlaceTileVariant`], [`crate::rules::Rules::variant_owner`]); the
    /// plain placements reach [`Plugin::allow_tiles`] in lists, the variants
    /// [`Plugin::allow_tile`] one by one.
    pub variant: u8,
}

/// A candidate figure placement, as asked of [`Plugin::allow_figure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigurePlacement {
    pub player: u8,
    pub kind: u8,
    /// Placed part the figure would stand on.
    pub part: u32,
    /// Feature node it would join, if any.
    pub node: Option<NodeId>,
}

/// A question one plugin asks the others through [`crate::rules::Rules::ask`], so that
/// plugins declare how they treat each other's figures without knowing each other.
/// Known names: `eatable` (may the dragon of plugin `by` remove `figure`?),
/// `fairy_may_join` (may the fairy join `figure`?), `counts_for_sight` (does `figure` count
/// as a follower in the dragon's line of sight?), `portal_target` (may a figure of
/// `kind` go through the portal onto `part`/`node`? each plugin answers for its own kinds),
/// `takes_follower` (does the base game let a follower take the feature of `node`? for
/// figures placed as followers are), `dragon_may_enter` (may the dragon step onto
/// tile `part`?), `needs_follower` (does `figure`, e.g. a builder or pig, leave the board
/// when its owner's last follower leaves its feature? PD-DRAGON-7), `princess_removable`
/// (may the princess remove `figure` from its city?), `capturable` (may a tower capture
/// `figure`?), `joins_occupied` (may a figure of `kind` join the occupied feature `node`,
/// e.g. an acrobat pyramid with room left? asked by the portal; default no),
/// `fairy_final_bonus` (does the 2025 fairy's follower `figure` earn its points at the end
/// when no own scoring of its feature paid them? default yes), `game_goes_on` (asked by the core with no figure when no tile is left to
/// draw: does the game go on with another turn? [`QueryKey::GAME_GOES_ON`]); the fairy re-asks `fairy_may_join` when its follower moves
/// ([`Hooks::FIGURE_MOVED`]). Plugins may ask and answer their own
/// names. Restrictions are best asked with [`crate::rules::Rules::verdict`], where one
/// `Some(false)` outweighs any `Some(true)`. A name is known by its [`QueryKey`], interned
/// at registration ([`Registry::query`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    pub key: QueryKey,
    pub figure: Option<FigureId>,
    /// The figure kind in question: the figure's own ([`Query::about_figure`]), or, when
    /// there is no figure yet, the kind of one to come (e.g. `portal_target`: a figure of
    /// this kind from supply).
    pub kind: Option<u8>,
    pub part: Option<u32>,
    pub node: Option<NodeId>,
    /// The asking plugin's index (`u8::MAX`: the core).
    pub by: u8,
}

impl Query {
    /// A question of no key about nothing (a placeholder in a list of questions).
    pub const NONE: Query =
        Query { key: QueryKey(u16::MAX), figure: None, kind: None, part: None, node: None, by: u8::MAX };

    /// A question about figure `id` (as it stands: `f`), asked by plugin `by`.
    pub fn about_figure(key: QueryKey, id: FigureId, f: &Figure, by: u8) -> Query {
        Query { key, figure: Some(id), kind: Some(f.kind), part: Some(f.part), node: f.node, by }
    }
}

/// Answers to a list of questions ([`Plugin::answer_many`]): bit `i` of `no` set for a
/// `Some(false)` to question `i`, of `yes` for a `Some(true)`, neither for no opinion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Answers {
    pub no: u64,
    pub yes: u64,
}

impl Answers {
    /// Records `answer` as the answer to question `i`.
    #[inline]
    pub fn set(&mut self, i: usize, answer: Option<bool>) {
        match answer {
            Some(false) => self.no |= 1 << i,
            Some(true) => self.yes |= 1 << i,
            None => {}
        }
    }
}

/// A query name interned by [`Registry::query`] (its name: [`Rules::query_name`]); plugins
/// keep the keys of the names they ask and answer, so that asking costs no string lookup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct QueryKey(pub u16);

impl QueryKey {
    /// `eatable`, asked by the core ([`State::is_eatable`]).
    pub const EATABLE: QueryKey = QueryKey(0);
    /// `needs_follower`, asked by the core ([`State::release_dependents`]).
    pub const NEEDS_FOLLOWER: QueryKey = QueryKey(1);
    /// `game_goes_on`, asked by the turn loop when no tile is left to draw (BASE-10): a
    /// plugin that answers true starts one more turn (e.g. a last round after the last tile).
    pub const GAME_GOES_ON: QueryKey = QueryKey(2);
    /// The names of the keys above, interned first by every rule set.
    pub(crate) const CORE: [&'static str; 3] = ["eatable", "needs_follower", "game_goes_on"];
}

/// [`Plugin::tile_hooks`] of a plugin whose tile hooks `hooks` act only on tiles with a
/// part marked `marker` (any face): `hooks` for such a tile, none for the others.
pub fn marked(rules: &Rules, tile: TileTypeId, marker: u32, hooks: Hooks) -> Hooks {
    if rules.catalog.tiles[tile as usize].markers & marker != 0 {
        hooks
    } else {
        Hooks::NONE
    }
}

/// Plugin-owned game state: cloned with the game, downcast by its plugin
/// ([`State::plugin`]).
pub trait PluginState: Any + Send + Sync + std::fmt::Debug {
    fn clone_box(&self) -> Box<dyn PluginState>;
    /// Makes `dst` a copy of this state, reusing its memory where it can
    /// ([`Clone::clone_from`]; a search copies games into the same scratch game). A derived
    /// `Clone` allocates every vector anew there: [`clone_fields!`](crate::clone_fields)
    /// copies field by field.
    fn clone_into_box(&self, dst: &mut Box<dyn PluginState>) {
        *dst = self.clone_box();
    }
}

impl<T: Any + Clone + Send + Sync + std::fmt::Debug> PluginState for T {
    fn clone_box(&self) -> Box<dyn PluginState> {
        Box::new(self.clone())
    }

    fn clone_into_box(&self, dst: &mut Box<dyn PluginState>) {
        match (&mut **dst as &mut dyn Any).downcast_mut::<T>() {
            Some(d) => d.clone_from(self),
            None => *dst = self.clone_box(),
        }
    }
}

impl Clone for Box<dyn PluginState> {
    fn clone(&self) -> Self {
        (**self).clone_box()
    }

    fn clone_from(&mut self, source: &Self) {
        (**source).clone_into_box(self)
    }
}

/// A rule plugin. Every method has a no-op default; [`Plugin::hooks`] says which of the
/// dispatched hooks the engine calls. `me` is the plugin's index in the resolved order
/// (for its state slot and its actions).
#[allow(unused_variables)]
pub trait Plugin: Send + Sync + 'static {
    /// Registered name (as in the rule set's `name = "..."`).
    fn name(&self) -> &str;
    /// The hooks this plugin uses.
    fn hooks(&self) -> Hooks;
    /// Rule-set build time: declare figure kinds, score sources, stats, player range.
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        Ok(())
    }
    /// Game creation: contribute tiles to the stacks and the start tile.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        Ok(())
    }
    /// Initial plugin state, if the plugin keeps any.
    fn init_state(&self, rules: &Rules, players: usize) -> Option<Box<dyn PluginState>> {
        None
    }
    /// After the stacks are shuffled and the start tile placed.
    fn on_game_start(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// Start of a player's turn, before the draw.
    fn on_turn_start(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// A tile was drawn (it is in `st.tile`), before it is checked for a legal placement
    /// (BASE-4); return [`DrawVerdict::Taken`] to take it away (the player draws again).
    fn on_tile_drawn(&self, rules: &Rules, st: &mut State, me: usize, tile: TileTypeId) -> DrawVerdict {
        DrawVerdict::Keep
    }
    /// Hooks of the turn loop (among [`Hooks::ON_REQUEST`], within [`Plugin::hooks`]) that
    /// run only when requested: the core calls such a hook only after the plugin asked for
    /// it with [`State::request_hook`], and each call uses the request up. A plugin whose
    /// hook has work only after some event (a wagon freed, a dragon tile placed) requests it
    /// at that event, and is not called on every other turn. Only the first 64 plugins of a
    /// rule set are held to it (the others' hooks always run). Default: none.
    fn hooks_on_request(&self) -> Hooks {
        Hooks::NONE
    }
    /// Which of the tile hooks ([`Hooks::TILE_DRAWN`], [`Hooks::TILE_PLACED`]) may do
    /// something when tile type `tile` is drawn or placed (asked once per tile type when the
    /// rule set is built; within [`Plugin::hooks`]): a hook left out is not called for that
    /// tile (e.g. a tower's `on_tile_placed` only for tiles with a foundation). Default: both.
    fn tile_hooks(&self, rules: &Rules, tile: TileTypeId) -> Hooks {
        Hooks::TILE_DRAWN | Hooks::TILE_PLACED
    }
    /// Whether [`Plugin::allow_tile`] may ever forbid placements of tile type `tile` (asked
    /// once per rule set; tiles nobody may veto take the fast path).
    fn may_veto_tile(&self, rules: &Rules, tile: TileTypeId) -> bool {
        true
    }
    /// Veto a geometrically legal tile placement (return false to forbid it).
    fn allow_tile(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> bool {
        true
    }
    /// Why [`Plugin::allow_tile`] forbids this placement, for error messages (e.g. a record
    /// that places a tile where a rule forbids it); None: no reason given.
    fn tile_veto_reason(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> Option<String> {
        None
    }
    /// [`Plugin::allow_tile`] for every placement of tile `tile` in `candidates` at once
    /// (one call per decision): forbids each one it vetoes with [`TileVetoes::forbid`]
    /// (skip those already forbidden). The list is made when first asked for
    /// ([`TileCandidates::list`]): a plugin that sees from the state alone that it forbids
    /// nothing now returns without asking, and the engine then counts the placements
    /// instead of listing them. The default asks `allow_tile` of each candidate; a plugin
    /// whose call is costly (a run-time plugin across a library boundary) answers at once.
    fn allow_tiles(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        tile: TileTypeId,
        candidates: &TileCandidates<'_>,
        vetoes: &mut TileVetoes,
    ) {
        for (i, a) in candidates.list().iter().enumerate() {
            if let Action::PlaceTile { pos, rot, face } = *a {
                if !vetoes.is_forbidden(i)
                    && !self.allow_tile(rules, st, me, &TilePlacement { tile, face, pos, rot, variant: 0 })
                {
                    vetoes.forbid(i);
                }
            }
        }
    }
    /// Whether [`Plugin::allow_tiles`] judges a decision in one call that asks for the list
    /// only when it needs it (as a run-time plugin's does). When every plugin that may veto
    /// a drawn tile does, BASE-4's check of the tile makes that same call, and a judgement
    /// that forbade nothing without asking for the list stands for the placement decision
    /// (the state is the same): one call per drawn tile, not two, and no list. The default
    /// (false): the check lists the placements and asks [`Plugin::allow_tile`] of each;
    /// either way, a judgement that lists is kept as the decision's list.
    fn judges_tiles_at_once(&self) -> bool {
        false
    }
    /// [`Hooks::PLACEMENT_VARIANTS`]: appends to `out` the placements of the drawn tile
    /// `tile` that are legal only with one of this plugin's variants
    /// ([`Action::PlaceTileVariant`] with a code it reserved with
    /// [`Registry::placement_variants`]; `out` may or may not hold the plain placements
    /// before them: do not read it). The plugin checks the
    /// geometry as its variant changes it; the core then runs every tile veto over the
    /// variants too. Asked for every legal-placement list, and for the BASE-4 check only
    /// when no plain placement exists.
    fn placement_variants(&self, rules: &Rules, st: &State, me: usize, tile: TileTypeId, out: &mut Vec<Action>) {}
    /// [`Hooks::PLACEMENT_VARIANTS`]: the drawn tile was placed with variant `p.variant`
    /// of this plugin; its parts are on the board and joined as drawn: apply the variant
    /// (e.g. [`State::add_edge_feature`]), before any [`Plugin::on_tile_placed`].
    fn place_variant(&self, rules: &Rules, st: &mut State, me: usize, p: &TilePlacement) {}
    /// [`Hooks::PLACEMENT_VARIANTS`]: JSON form of one of this plugin's variants (the
    /// `"variant"` of a `place_tile` record action); the tile is still undrawn in `st`.
    fn describe_variant(&self, rules: &Rules, st: &State, me: usize, p: &TilePlacement) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// [`Hooks::PLACEMENT_VARIANTS`]: whether the player may discard (`Action::Pass`) a
    /// drawn tile whose every legal placement is a variant of this plugin (BRIDGE-3); the
    /// tile is then removed from the game as BASE-4 removes an unplaceable one.
    fn may_discard(&self, rules: &Rules, st: &State, me: usize, tile: TileTypeId) -> bool {
        false
    }
    /// The drawn tile was placed (its parts are `st.placed_parts()`).
    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// Contribute actions to the current player's figure decision.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {}
    /// Narrow the figure decision's complete action list (every plugin's actions and
    /// `Pass`), e.g. to make an action compulsory. Keep at least one action.
    fn restrict_figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {}
    /// Veto a figure placement that some plugin offered.
    fn allow_figure(&self, rules: &Rules, st: &State, me: usize, p: &FigurePlacement) -> bool {
        true
    }
    /// [`Plugin::allow_figure`] for several candidate placements at once: sets
    /// `allowed[i] = false` for each one it forbids (skip those already false). The default
    /// asks `allow_figure` one by one; a plugin whose call is costly (a run-time plugin
    /// across a library boundary) answers the list at once.
    fn allow_figures(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        candidates: &[FigurePlacement],
        allowed: &mut [bool],
    ) {
        for (p, ok) in candidates.iter().zip(allowed.iter_mut()) {
            if *ok && !self.allow_figure(rules, st, me, p) {
                *ok = false;
            }
        }
    }
    /// A figure was placed by any plugin.
    fn on_figure_placed(&self, rules: &Rules, st: &mut State, me: usize, fig: FigureId) {}
    /// The figure decision was answered (placement, plugin action or pass); decisions
    /// pushed here (e.g. dragon steps) are answered before scoring.
    fn on_figure_action_done(&self, rules: &Rules, st: &mut State, me: usize, action: &Action) {}
    /// The turn's scoring step begins (after the figure action and every decision it
    /// brought), before the features completed this turn are scored: scorings that are no
    /// feature's completion but belong to the scoring step (e.g. farmers joined to a barn's
    /// field, BARN-3).
    fn on_scoring_step(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// A feature was completed this turn: score it (the core returns its figures after,
    /// and marks it scored). A decision pushed here is answered before the next plugin
    /// runs; a plugin that takes the feature over (e.g. a castle) marks it scored.
    fn on_feature_completed(&self, rules: &Rules, st: &mut State, me: usize, root: NodeId) {}
    /// A feature was scored (during play or final scoring).
    fn on_feature_scored(&self, rules: &Rules, st: &mut State, me: usize, ev: &ScoreEvent) {}
    /// A figure left the board.
    fn on_figure_removed(
        &self,
        rules: &Rules,
        st: &mut State,
        me: usize,
        id: FigureId,
        fig: &Figure,
        why: RemoveReason,
    ) {
    }
    /// A figure on the board was moved ([`State::move_figure`]; `from` is where it stood),
    /// or marked as changed by a move to the same place (e.g. a knight into a castle).
    fn on_figure_moved(&self, rules: &Rules, st: &mut State, me: usize, id: FigureId, from: &Figure) {}
    /// A majority of the feature of `root` is weighed ([`State::majority`], whoever asks:
    /// the base game, a barn, ...): adjust the per-seat follower strengths (e.g. a mayor
    /// counts its city's pennants, MAYOR-2). A seat left at 0 never wins.
    fn adjust_strengths(&self, rules: &Rules, st: &State, me: usize, root: NodeId, strengths: &mut [u32; MAX_PLAYERS]) {
    }
    /// Then, when two or more seats share the top strength (`winners`, a bit set), narrow
    /// the tie (e.g. followers on hills, HILLS-2); return a non-empty subset of `winners`
    /// (anything else is ignored).
    fn break_tie(
        &self,
        rules: &Rules,
        st: &State,
        me: usize,
        root: NodeId,
        strengths: &[u32; MAX_PLAYERS],
        winners: u8,
    ) -> u8 {
        winners
    }
    /// Whether a figure is protected from removal by other plugins' effects (e.g. the dragon).
    fn is_protected(&self, rules: &Rules, st: &State, me: usize, id: FigureId) -> bool {
        false
    }
    /// After the turn's completed features were scored.
    fn on_scoring_done(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// End of a turn, before the next player.
    fn on_turn_end(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// Final scoring, after the last turn.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, me: usize) {}
    /// The query names [`Plugin::answer`] may answer (None: any; the plugin is then asked
    /// every question). Declaring them keeps other questions from reaching the plugin.
    fn query_names(&self) -> Option<&'static [&'static str]> {
        None
    }
    /// Answer another plugin's [`Query`] (None: no opinion).
    fn answer(&self, rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        None
    }
    /// [`Plugin::answer`] to several questions of one key at once (at most
    /// [`crate::rules::VERDICT_BATCH`], asked through [`Rules::verdicts`]: one per candidate
    /// of a decision). The default answers each in turn; a plugin overrides it to look up
    /// its state once for all of them. It must answer as `answer` would.
    fn answer_many(&self, rules: &Rules, st: &State, me: usize, qs: &[Query]) -> Answers {
        let mut a = Answers::default();
        for (i, q) in qs.iter().enumerate() {
            a.set(i, self.answer(rules, st, me, q));
        }
        a
    }
    /// [`Plugin::answer`] to the questions of key `key`, asked by plugin `by`, about figures
    /// `ids` as they stand ([`Query::about_figure`]; at most
    /// [`crate::rules::VERDICT_BATCH`], asked through [`Rules::figure_verdicts`]: the
    /// figures a decision may pick). The default asks [`Plugin::answer_many`] those
    /// questions; a plugin overrides it to answer from its state without them. It must
    /// answer as `answer` would.
    fn answer_figures(&self, rules: &Rules, st: &State, me: usize, key: QueryKey, by: u8, ids: &[FigureId]) -> Answers {
        // The questions written out 16 at a time (no 64-entry list to fill for a few).
        const CHUNK: usize = 16;
        let mut all = Answers::default();
        for (c, chunk) in ids.chunks(CHUNK).enumerate() {
            let mut qs = [Query::NONE; CHUNK];
            for (q, &id) in qs.iter_mut().zip(chunk) {
                *q = Query::about_figure(key, id, &st.figures[id as usize], by);
            }
            let a = self.answer_many(rules, st, me, &qs[..chunk.len()]);
            all.no |= a.no << (c * CHUNK);
            all.yes |= a.yes << (c * CHUNK);
        }
        all
    }
    /// Legal actions of a decision this plugin pushed.
    fn decision_actions(&self, rules: &Rules, st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {}
    /// Apply an action of this plugin (from its own decision or the figure decision).
    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {}
    /// Why a recorded action naming this plugin (`action`, as in a record) is not legal now,
    /// when it matched no legal action: e.g. "no grow or gather is due: ...". None: the
    /// replay's generic message. Asked by [`crate::replay::parse_action`] only.
    fn explain_illegal(&self, rules: &Rules, st: &State, me: usize, action: &serde_json::Value) -> Option<String> {
        None
    }
    /// Draws this plugin's pieces and markings on the board picture ([`crate::draw`]):
    /// icons of its tile markers and feature modifiers, pieces kept in its state (towers,
    /// castles), badges on its figures, pieces in the supply. Not part of the game loop (no
    /// hook bit): asked by renderers only, for every plugin.
    fn draw(&self, rules: &Rules, st: &State, me: usize, canvas: &mut dyn Canvas) {}
    /// JSON form of one of this plugin's actions, for records.
    fn describe_action(&self, rules: &Rules, st: &State, me: usize, a: &Action) -> serde_json::Value {
        serde_json::Value::Null
    }
}

/// Implements `Clone` field by field, with a `clone_from` that reuses each field's memory
/// (a derived `Clone` replaces the whole value, so every vector of a plugin state would be
/// allocated anew at each copy). For plugin states with vectors: a search copies games into
/// one scratch game at every playout ([`PluginState::clone_into_box`] calls `clone_from`).
/// Every field is named: `clone_fields!(MyState { towers, pieces });` (a field left out
/// does not compile).
#[macro_export]
macro_rules! clone_fields {
    ($t:ident { $($f:ident),+ $(,)? }) => {
        impl ::core::clone::Clone for $t {
            fn clone(&self) -> Self {
                $t { $($f: ::core::clone::Clone::clone(&self.$f)),+ }
            }
            fn clone_from(&mut self, source: &Self) {
                $(::core::clone::Clone::clone_from(&mut self.$f, &source.$f);)+
            }
        }
    };
}
