//! The shepherd of Hills & Sheep (EXPANSIONS.md SHEPHERD-1..6) and how the dragons, the
//! fairies and the portal treat him (RULES.md COMBO-SHEPHERD).
//!
//! - Tiles: the tiles of its tile set (`tile_set`) that carry neither `hill` nor
//!   `vineyard` (HS9, HS10, the box's two monasteries) go into the land tiles; the hill and
//!   vineyard tiles are the `hills` and `vineyards` plugins'. `tile_set = ""` adds none.
//! - SHEPHERD-1: the bag ([`ShepherdState::bag`]) starts with 18 tokens: sheep 4 x 1,
//!   5 x 2, 5 x 3, 2 x 4 and 2 wolves (value 0). A draw takes one of the tokens now in the
//!   bag uniformly, with the game's seeded generator (`State::rng`): the same seed gives
//!   the same draws, and records replay.
//! - SHEPHERD-2: one shepherd per seat, figure kind `shepherd`: not a follower (no
//!   occupancy, strength 0, no feature scoring). Instead of placing a follower, the player
//!   may put him in a field of the tile just placed that (as joined) holds no shepherd,
//!   through every plugin's figure-placement veto (a barn's field refuses him). Farmers
//!   neither prevent him nor are prevented.
//! - SHEPHERD-3: when he is placed, a token is drawn: a sheep joins his flock
//!   ([`ShepherdState::flocks`]); a wolf goes back and he returns to supply.
//! - SHEPHERD-4: in the scoring step (`on_scoring_step`: after the figure action and the
//!   decisions it brought, before completed features score), when a field part of the
//!   placed tile lies in the field of the active player's shepherd and he was not placed
//!   this turn, that player decides (a plugin decision, actions `grow` and `gather`):
//!   grow draws a token (a sheep joins his flock; the wolf sends every shepherd of that
//!   field home and every token of their flocks, and the wolf, back into the bag); gather
//!   pays each seat with a shepherd in the field 1 point per sheep on all the field's
//!   tokens (score source `sheep`, an extra source), then those shepherds return and their
//!   tokens go back.
//! - SHEPHERD-5: then every field with shepherds that this turn's tile may have closed
//!   (the tile lies in it or next to one of its tiles) and that has no open half-edge left
//!   (the feature graph counts them: `Graph::open`) is gathered at once, unless it was
//!   tended this turn.
//! - SHEPHERD-6: a shepherd removed by any other effect (a dragon, ...) takes only his own
//!   flock back into the bag. At the end shepherds and sheep score nothing.
//! - COMBO-SHEPHERD: both dragons eat shepherds (this plugin answers `eatable` with true:
//!   the classic dragon eats any seat's figure by default, the 2025 dragon only followers
//!   unless asked), and his tokens go back (SHEPHERD-6); either fairy may join a shepherd (this plugin
//!   answers `fairy_may_join`); after a portal tile (marker `portal`, with the `portal`
//!   plugin) the shepherd may go into any field of the board that holds no shepherd (the
//!   `portal_target` question and every veto apply), and draws at once (SHEPHERD-3); flock
//!   points are an extra source, which the fairies ignore.
//! - Statistics: `shepherds_placed`, `sheep_gathered` (sheep counted in gathers),
//!   `wolves_drawn`.

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{Figure, FigureId, RemoveReason, State, MAX_PLAYERS};
use carcassonne_core::{FeatureKind, FigureBatch, NodeId};
use serde::{Deserialize, Serialize};

/// Options of the shepherd.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Shepherd {
    /// Tile set holding the box's other tiles (neither `hill` nor `vineyard`); "" for none.
    pub tile_set: String,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    source: u8,
    portal: u32,
    portal_target: QueryKey,
    placed: usize,
    gathered: usize,
    wolves: usize,
}

impl Default for Shepherd {
    fn default() -> Self {
        Shepherd { tile_set: "hills-sheep".into(), ids: Ids::default() }
    }
}

/// The factory a rule set names as `shepherd`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "shepherd",
        summary: "Hills & Sheep shepherd: flocks drawn from a bag of sheep and wolves, grow or gather \
                  (SHEPHERD-1..6, COMBO-SHEPHERD)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Shepherd>,
    }
}

/// SHEPHERD-1: the tokens of the bag at the start (0 = a wolf, else the sheep shown).
pub const TOKENS: [u8; 18] = [1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 0, 0];
/// The wolf's value.
pub const WOLF: u8 = 0;
/// [`Shepherd::fields`]: no shepherd of that seat stands.
const NO_FIELD: NodeId = NodeId::MAX;

/// Plugin decision: the active player tends the field of their shepherd.
pub const TEND: u16 = 1;
/// Action of [`TEND`]: draw a token.
pub const GROW: u16 = 2;
/// Action of [`TEND`]: score the field's sheep and bring the shepherds home.
pub const GATHER: u16 = 3;

/// The shepherd's game state.
#[derive(Debug)]
pub struct ShepherdState {
    /// Tokens in the bag (0 = wolf).
    pub bag: Vec<u8>,
    /// Tokens beside each seat's shepherd.
    pub flocks: [Vec<u8>; MAX_PLAYERS],
    /// Each seat's shepherd on the board.
    pub shepherds: [Option<FigureId>; MAX_PLAYERS],
    /// The turn in which each seat last placed their shepherd.
    pub placed_turn: [u32; MAX_PLAYERS],
    /// The field tended this turn (root) and the turn.
    pub tended: Option<(NodeId, u32)>,
}

carcassonne_core::clone_fields!(ShepherdState { bag, flocks, shepherds, placed_turn, tended });

impl Default for ShepherdState {
    fn default() -> Self {
        ShepherdState {
            bag: TOKENS.to_vec(),
            flocks: Default::default(),
            shepherds: [None; MAX_PLAYERS],
            placed_turn: [0; MAX_PLAYERS],
            tended: None,
        }
    }
}

impl ShepherdState {
    /// Tokens in the bag plus tokens in flocks (always 18).
    pub fn tokens(&self) -> usize {
        self.bag.len() + self.flocks.iter().map(Vec::len).sum::<usize>()
    }
}

fn token_name(t: u8) -> String {
    match t {
        WOLF => "the wolf".into(),
        1 => "1 sheep".into(),
        n => format!("{n} sheep"),
    }
}

impl Shepherd {
    fn state(st: &State, me: usize) -> &ShepherdState {
        st.plugin::<ShepherdState>(me)
    }

    /// Root of the field of seat `p`'s shepherd, if he stands.
    fn field_of(st: &State, me: usize, p: usize) -> Option<NodeId> {
        Self::field(st, Self::state(st, me).shepherds[p])
    }

    /// The root of the field where shepherd `id` stands.
    fn field(st: &State, id: Option<FigureId>) -> Option<NodeId> {
        st.figures[id? as usize].node.map(|n| st.graph.find(n))
    }

    /// [`Shepherd::field_of`] of every seat (`NO_FIELD`: no shepherd, and every slot past
    /// the seats), or `None` when no shepherd stands.
    fn fields(st: &State, me: usize) -> Option<[NodeId; MAX_PLAYERS]> {
        let shepherds = &Self::state(st, me).shepherds;
        let mut fields = [NO_FIELD; MAX_PLAYERS];
        let mut any = false;
        for (field, &id) in fields.iter_mut().zip(&shepherds[..st.players]) {
            if let Some(root) = Self::field(st, id) {
                *field = root;
                any = true;
            }
        }
        any.then_some(fields)
    }

    /// Seats (bit set) with a shepherd in the field of `root`.
    fn seats_in(st: &State, me: usize, root: NodeId) -> u8 {
        (0..st.players).filter(|&p| Self::field_of(st, me, p) == Some(root)).fold(0u8, |m, p| m | (1 << p))
    }

    /// Draws one token from the bag with the game's generator (None: the bag is empty,
    /// which cannot happen: both wolves go back at once, so it always holds them).
    fn draw(st: &mut State, me: usize) -> Option<u8> {
        let n = st.plugin::<ShepherdState>(me).bag.len();
        if n == 0 {
            return None;
        }
        let i = st.rng.below(n);
        Some(st.plugin_mut::<ShepherdState>(me).bag.swap_remove(i))
    }

    /// Sends the shepherds of `seats` home; their flocks go back into the bag
    /// (`on_figure_removed`).
    fn send_home(rules: &Rules, st: &mut State, me: usize, seats: u8) {
        for p in 0..st.players {
            if seats & (1 << p) != 0 {
                if let Some(id) = Self::state(st, me).shepherds[p] {
                    st.remove_figure(rules, id, RemoveReason::Plugin(me as u8));
                }
            }
        }
    }

    /// SHEPHERD-3 / grow: seat `p` draws for their shepherd in `root`; a wolf sends every
    /// shepherd of the field home (only the drawer's when just placed: he is alone there).
    fn grow(&self, rules: &Rules, st: &mut State, me: usize, p: usize, root: NodeId) {
        let Some(t) = Self::draw(st, me) else { return };
        st.note(rules, me, format_args!("seat {p} draws {}", token_name(t)));
        if t == WOLF {
            st.bump_stat(self.ids.wolves, 1);
            let seats = Self::seats_in(st, me, root) | (1 << p);
            Self::send_home(rules, st, me, seats);
            st.plugin_mut::<ShepherdState>(me).bag.push(WOLF);
        } else {
            st.plugin_mut::<ShepherdState>(me).flocks[p].push(t);
        }
    }

    /// SHEPHERD-4 gather: every shepherd of the field scores all its sheep, then returns.
    fn gather(&self, rules: &Rules, st: &mut State, me: usize, root: NodeId, reason: &str) {
        let seats = Self::seats_in(st, me, root);
        let s = Self::state(st, me);
        let sheep: u32 =
            (0..st.players).filter(|&p| seats & (1 << p) != 0).flat_map(|p| &s.flocks[p]).map(|&t| t as u32).sum();
        st.score_players(rules, Some(root), seats, sheep as i32, self.ids.source, false, reason);
        st.bump_stat(self.ids.gathered, sheep as i64);
        Self::send_home(rules, st, me, seats);
    }

    /// Whether the field of `root` has a tile that is this turn's or next to one of them.
    fn touched(st: &State, root: NodeId) -> bool {
        let placed = st.placed_parts();
        st.graph.members(root).any(|m| {
            let part = st.graph.node(m).part;
            let pos = st.board.parts[part as usize].pos;
            placed.contains(&part)
                || placed.clone().any(|p| {
                    let c = st.board.parts[p as usize].pos;
                    (c.x - pos.x).abs() + (c.y - pos.y).abs() == 1
                })
        })
    }

    /// SHEPHERD-5: fields with shepherds closed by this turn's tile, not tended, gather.
    fn gather_closed(&self, rules: &Rules, st: &mut State, me: usize) {
        if let Some(fields) = Self::fields(st, me) {
            self.gather_closed_in(rules, st, me, &fields);
        }
    }

    /// [`Shepherd::gather_closed`] with the seats' fields as the turn began its scoring step
    /// (`fields`: a gather joins no feature, it only sends shepherds home).
    fn gather_closed_in(&self, rules: &Rules, st: &mut State, me: usize, fields: &[NodeId; MAX_PLAYERS]) {
        let tended = Self::state(st, me).tended.filter(|&(_, t)| t == st.turn).map(|(r, _)| st.graph.find(r));
        for (p, &root) in fields.iter().enumerate().take(st.players) {
            if root == NO_FIELD {
                continue;
            }
            // Closed: no half-edge of the field faces an empty cell (the graph's open count);
            // a shepherd sent home by an earlier gather of the same field is gone.
            if Some(root) != tended
                && st.graph.open(root) == 0
                && Self::state(st, me).shepherds[p].is_some()
                && Self::touched(st, root)
            {
                self.gather(rules, st, me, root, "sheep gathered (field closed)");
            }
        }
    }

    /// Whether a placed part of this turn has a field part in the field of `root`.
    fn extends(rules: &Rules, st: &State, root: NodeId) -> bool {
        st.placed_parts().any(|part| {
            // The tile's own features are its first nodes (`State::node_of`).
            let first = st.board.parts[part as usize].node_base;
            (st.rotated(rules, part).features.iter().zip(first..))
                .any(|(f, node)| f.kind == FeatureKind::Field && st.graph.find(node) == root)
        })
    }

    /// Offers a shepherd on field `local` of `part` unless a shepherd stands in that field
    /// (`herded`: the fields of the shepherds on the board, [`Shepherd::fields`]).
    fn push_field(
        &self,
        rules: &Rules,
        st: &State,
        herded: &[NodeId; MAX_PLAYERS],
        part: u32,
        local: u8,
        out: &mut Vec<Action>,
    ) {
        let node = st.node_of(part, local);
        if st.graph.node(node).kind != FeatureKind::Field || herded.contains(&st.graph.find(node)) {
            return;
        }
        let (player, kind) = (st.current, self.ids.kind);
        if rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) }) {
            out.push(Action::PlaceFigure { kind, part, feature: local });
        }
    }
}

impl Plugin for Shepherd {
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
        "shepherd"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED | Hooks::SCORING_STEP | Hooks::FIGURE_REMOVED | Hooks::QUERY
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        if !self.tile_set.is_empty() {
            reg.require_set(&self.tile_set)?;
        }
        self.ids.kind = reg.figure_kind("shepherd", false, 0, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about the shepherd only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.source = reg.extra_source("sheep")?;
        self.ids.portal = reg.catalog().marker("portal");
        self.ids.portal_target = reg.query("portal_target");
        self.ids.placed = reg.stat("shepherds_placed");
        self.ids.gathered = reg.stat("sheep_gathered");
        self.ids.wolves = reg.stat("wolves_drawn");
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        if self.tile_set.is_empty() {
            return Ok(());
        }
        let marked = rules.catalog.marker("hill") | rules.catalog.marker("vineyard");
        let tiles = rules
            .catalog
            .copies(&self.tile_set, |t| t.markers & marked == 0, false)
            .ok_or_else(|| format!("tile set '{}' is not loaded", self.tile_set))?;
        setup.group("land", 0).tiles.extend(tiles);
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(ShepherdState::default()))
    }

    /// SHEPHERD-2: the shepherd into a field of the placed tile without a shepherd; after
    /// a portal tile, into any such field (COMBO-SHEPHERD).
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        if st.supply[st.current as usize][self.ids.kind as usize] == 0 {
            return;
        }
        let placed = st.placed_parts();
        let herded = &Self::fields(st, me).unwrap_or([NO_FIELD; MAX_PLAYERS]);
        for part in placed.clone() {
            for local in 0..st.rotated(rules, part).features.len() as u8 {
                self.push_field(rules, st, herded, part, local, out);
            }
        }
        let portal = self.ids.portal != 0
            && placed.clone().any(|p| st.part_markers(rules, p) & self.ids.portal != 0)
            && rules.plugin_index("portal").is_some();
        if !portal {
            return;
        }
        // Every field that holds no shepherd, asked `portal_target` and the vetoes in lists.
        let (player, kind, key) = (st.current, self.ids.kind, self.ids.portal_target);
        let mut batch = FigureBatch::new(player, true);
        let mut push = |c: &FigurePlacement, feature: u8| out.push(Action::PlaceFigure { kind, part: c.part, feature });
        for part in (0..st.board.len() as u32).filter(|p| !placed.contains(p)) {
            let first = st.board.parts[part as usize].node_base;
            for (f, (local, node)) in st.rotated(rules, part).features.iter().zip((0u8..).zip(first..)) {
                if f.kind != FeatureKind::Field || herded.contains(&st.graph.find(node)) {
                    continue;
                }
                let q = Query { key, figure: None, kind: Some(kind), part: Some(part), node: Some(node), by: me as u8 };
                if batch.add(q, local) {
                    batch.flush(rules, st, &mut push);
                }
            }
        }
        batch.flush(rules, st, &mut push);
    }

    /// SHEPHERD-3: a token is drawn for the shepherd just placed.
    fn on_figure_placed(&self, rules: &Rules, st: &mut State, me: usize, fig: FigureId) {
        let f = st.figures[fig as usize];
        if f.kind != self.ids.kind {
            return;
        }
        let (p, turn) = (f.owner as usize, st.turn);
        let s = st.plugin_mut::<ShepherdState>(me);
        s.shepherds[p] = Some(fig);
        s.placed_turn[p] = turn;
        st.bump_stat(self.ids.placed, 1);
        let root = st.graph.find(f.node.expect("a shepherd stands in a field"));
        self.grow(rules, st, me, p, root);
    }

    /// SHEPHERD-4: the active player tends their shepherd's field; SHEPHERD-5 after.
    fn on_scoring_step(&self, rules: &Rules, st: &mut State, me: usize) {
        // SHEPHERD-4 and -5 concern the fields of the shepherds that stand.
        let Some(fields) = Self::fields(st, me) else { return };
        let p = st.current as usize;
        let root = fields[p];
        if root != NO_FIELD && Self::state(st, me).placed_turn[p] != st.turn && Self::extends(rules, st, root) {
            st.plugin_mut::<ShepherdState>(me).tended = Some((root, st.turn));
            let data = root as i32;
            st.push_decision(Decision {
                player: p as u8,
                kind: DecisionKind::Plugin { plugin: me as u8, code: TEND, data },
            });
            return;
        }
        self.gather_closed_in(rules, st, me, &fields);
    }

    fn decision_actions(&self, _rules: &Rules, _st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        if let DecisionKind::Plugin { code: TEND, .. } = d.kind {
            for code in [GROW, GATHER] {
                out.push(Action::Plugin { plugin: me as u8, code, a: 0, b: 0 });
            }
        }
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let (DecisionKind::Plugin { code: TEND, data, .. }, Action::Plugin { code, .. }) = (d.kind, *a) else {
            return;
        };
        let root = st.graph.find(data as NodeId);
        match code {
            GROW => self.grow(rules, st, me, d.player as usize, root),
            GATHER => self.gather(rules, st, me, root, "sheep gathered"),
            _ => return,
        }
        self.gather_closed(rules, st, me);
    }

    /// SHEPHERD-6: a shepherd leaving the board takes his own flock back into the bag.
    fn on_figure_removed(
        &self,
        _rules: &Rules,
        st: &mut State,
        me: usize,
        id: FigureId,
        f: &Figure,
        _why: RemoveReason,
    ) {
        if f.kind != self.ids.kind {
            return;
        }
        let s = st.plugin_mut::<ShepherdState>(me);
        let p = f.owner as usize;
        if s.shepherds[p] == Some(id) {
            s.shepherds[p] = None;
            let flock = std::mem::take(&mut s.flocks[p]);
            s.bag.extend(flock);
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["fairy_may_join", "eatable"])
    }

    /// COMBO-SHEPHERD: either fairy may join a shepherd, and both dragons eat him (the
    /// 2025 dragon eats a figure that is no follower only when asked so; any plugin's
    /// `false`, e.g. a fairy's protection, still spares him).
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        (st.figures[q.figure? as usize].kind == self.ids.kind).then_some(true)
    }

    /// A recorded grow or gather when none is due says why.
    fn explain_illegal(&self, rules: &Rules, st: &State, me: usize, a: &serde_json::Value) -> Option<String> {
        let act = a.get("action")?.as_str()?;
        if act != "grow" && act != "gather" {
            return None;
        }
        let d = st.decision()?;
        let p = d.player as usize;
        let why = match Self::field_of(st, me, p) {
            None => format!("seat {p} has no shepherd on the board"),
            Some(_) if Self::state(st, me).placed_turn[p] == st.turn => {
                format!("seat {p} placed its shepherd this turn")
            }
            Some(root) if st.placed.is_some() && !Self::extends(rules, st, root) => {
                format!("this turn's tile does not extend the field of seat {p}'s shepherd")
            }
            Some(_) => match d.kind {
                DecisionKind::PlaceTile => "the tile is not placed yet".to_string(),
                DecisionKind::Figure => "the figure action comes first".to_string(),
                DecisionKind::Plugin { plugin, .. } => {
                    format!("plugin '{}' decides first", rules.plugins[plugin as usize].name)
                }
            },
        };
        Some(format!("no grow or gather is due: {why}"))
    }

    fn describe_action(&self, _rules: &Rules, _st: &State, _me: usize, a: &Action) -> serde_json::Value {
        match *a {
            Action::Plugin { code: GROW, .. } => serde_json::json!({"action": "grow"}),
            Action::Plugin { code: GATHER, .. } => serde_json::json!({"action": "gather"}),
            _ => serde_json::Value::Null,
        }
    }
}
