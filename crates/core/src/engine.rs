//! The turn loop: a validated game, its current decision, legal actions, and play.

use std::sync::Arc;

use crate::action::{Action, Decision, DecisionKind, NO_FEATURE};
use crate::board::PlacedPart;
use crate::geometry::{half_mirror, Pos, Rotation, Side};
use crate::plugin::{DrawVerdict, Hooks, PluginState, TilePlacement};
use crate::rules::Rules;
use crate::state::{LogEntry, Phase, RemoveReason, State};
use crate::tile::{signature_side, SideKind, TileTypeId, NONE};

/// How to start a game.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    pub players: usize,
    pub seed: u64,
    /// Forced draw order (tile IDs, first drawn first), instead of shuffled stacks.
    pub tile_order: Option<Vec<TileTypeId>>,
    /// Keep a log for the game record.
    pub record: bool,
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction(pub String);

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IllegalAction {}

/// A game in progress: rules plus state. Cloning copies the state (for tree search).
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Arc<Rules>,
    pub st: State,
}

impl Game {
    /// A new game with shuffled stacks.
    pub fn new(rules: Arc<Rules>, players: usize, seed: u64) -> Result<Game, String> {
        Game::start(rules, GameOptions { players, seed, ..Default::default() })
    }

    /// A new game as `opts` says; runs to the first decision.
    pub fn start(rules: Arc<Rules>, opts: GameOptions) -> Result<Game, String> {
        let players = opts.players;
        if players < rules.min_players || players > rules.max_players {
            return Err(format!(
                "{players} players: rule set '{}' allows {} to {}",
                rules.name, rules.min_players, rules.max_players
            ));
        }
        let setup = rules.setup(players)?;
        let mut st = State::new(players, &rules, opts.seed);
        for seat in 0..players {
            for (k, def) in rules.figure_kinds.iter().enumerate() {
                st.supply[seat][k] = def.per_player;
            }
        }
        st.set_plugin_states(rules.plugins.iter().map(|p| p.plugin.init_state(&rules, players)));
        if opts.record {
            st.log = Some(Vec::new());
        }
        match opts.tile_order {
            Some(order) => {
                st.stack = order.into_iter().rev().collect();
                st.forced_order = true;
            }
            None => {
                // Groups come sorted (order, name); each is shuffled, its `last` tiles after.
                let mut order = Vec::with_capacity(setup.groups.iter().map(|g| g.tiles.len() + g.last.len()).sum());
                for g in &setup.groups {
                    let from = order.len();
                    order.extend_from_slice(&g.tiles);
                    st.rng.shuffle(&mut order[from..]);
                    order.extend_from_slice(&g.last);
                }
                order.reverse();
                st.stack = order;
            }
        }
        let start = setup.start.ok_or("no plugin gives a start tile")?;
        if st.stack.len() + 1 > crate::board::MAX_TILES {
            return Err(format!("{} tiles: at most {} per game", st.stack.len() + 1, crate::board::MAX_TILES));
        }
        // Room for every tile of the game (about five features each): no reallocation and
        // copy while playing.
        let tiles = st.stack.len() + 1;
        st.board.reserve(tiles);
        st.graph.reserve(tiles * 5);
        place_parts(&rules, &mut st, start, 0, Pos::new(0, 0), Rotation::default());
        st.completed.clear();
        st.placed = None;
        rules.dispatch_game_start(&mut st);
        st.turn = 1;
        st.current = 0;
        st.phase = Phase::TurnStart;
        let mut g = Game { rules, st };
        g.advance();
        Ok(g)
    }

    /// The current decision; None once the game is over.
    pub fn decision(&self) -> Option<Decision> {
        self.st.decision()
    }

    pub fn is_over(&self) -> bool {
        self.st.is_over()
    }

    /// Why the game was stopped before its end (a plugin failed), if it was.
    pub fn failure(&self) -> Option<&str> {
        self.st.failure()
    }

    /// Scores, one per seat.
    pub fn scores(&self) -> &[i32] {
        self.st.scores()
    }

    /// Writes the legal actions of the current decision into `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let (rules, st) = (&*self.rules, &self.st);
        let Some(d) = st.decision() else { return };
        match d.kind {
            DecisionKind::PlaceTile => {
                if let Some(t) = st.tile {
                    tile_placements(rules, st, t, out, false);
                }
            }
            DecisionKind::Figure => {
                rules.collect_figure_actions(st, out);
                out.push(Action::Pass);
                rules.restrict_figure_actions(st, out);
            }
            DecisionKind::Plugin { plugin, .. } => rules.plugin_decision_actions(st, &d, plugin, out),
        }
    }

    /// Checks an action against the current decision, with the reason when illegal.
    pub fn check(&self, a: &Action) -> Result<(), IllegalAction> {
        let Some(d) = self.st.decision() else {
            if let Some(f) = self.st.failure() {
                return Err(IllegalAction(format!("the game was stopped: {f}")));
            }
            return Err(IllegalAction("the game is over".into()));
        };
        if let (DecisionKind::PlaceTile, Action::PlaceTile { pos, rot, face }) = (d.kind, a) {
            let t = self.st.tile.expect("a drawn tile");
            return check_tile(&self.rules, &self.st, t, *face, *pos, *rot).map_err(IllegalAction);
        }
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        if legal.contains(a) {
            Ok(())
        } else {
            Err(IllegalAction(format!(
                "{} is not a legal answer to the {} decision",
                self.describe(a),
                decision_name(&d)
            )))
        }
    }

    /// Plays an action after checking it.
    pub fn try_play(&mut self, a: Action) -> Result<(), IllegalAction> {
        self.check(&a)?;
        self.play_unchecked(a);
        Ok(())
    }

    /// Plays an action known to be legal (from [`Game::legal_actions`]).
    pub fn play_unchecked(&mut self, a: Action) {
        let rules = &*self.rules;
        let st = &mut self.st;
        let player = st.decision().map_or(st.current, |d| d.player);
        if st.log.is_some() {
            let desc = describe(rules, st, &a);
            st.log_entry(LogEntry::Action { player, action: desc });
        }
        if let Some(d) = st.pending.pop() {
            if let DecisionKind::Plugin { plugin, .. } = d.kind {
                rules.plugin_apply(st, &d, plugin, &a);
            }
        } else {
            match (st.phase, a) {
                (Phase::PlaceTile, Action::PlaceTile { pos, rot, face }) => {
                    let t = st.tile.take().expect("a drawn tile");
                    tracing::debug!(
                        turn = st.turn,
                        player,
                        tile = rules.catalog.tiles[t as usize].id.as_str(),
                        x = pos.x,
                        y = pos.y,
                        rot = rot.degrees(),
                        "tile placed"
                    );
                    place_parts(rules, st, t, face, pos, rot);
                    st.phase = Phase::AfterTile;
                }
                (Phase::Figure, a) => {
                    match a {
                        Action::PlaceFigure { kind, part, feature } => {
                            let node = (feature != NO_FEATURE).then(|| st.node_of(part, feature));
                            let id = st.add_figure(rules, st.current, kind, part, node);
                            tracing::debug!(turn = st.turn, player, kind, part, feature, "figure placed");
                            rules.dispatch_figure_placed(st, id);
                        }
                        Action::Plugin { plugin, .. } => {
                            let d = Decision { player, kind: DecisionKind::Figure };
                            rules.plugin_apply(st, &d, plugin, &a);
                        }
                        _ => {}
                    }
                    st.phase = Phase::AfterFigure;
                    st.figure_action = Some(a);
                }
                (phase, a) => panic!("action {a:?} does not answer phase {phase:?}"),
            }
        }
        self.advance();
    }

    /// Runs the automatic steps up to the next decision (or the end).
    fn advance(&mut self) {
        let rules = &*self.rules;
        let st = &mut self.st;
        loop {
            if !st.pending.is_empty() || st.failure().is_some() {
                return;
            }
            match st.phase {
                Phase::TurnStart => {
                    if st.hook_cursor == 0 {
                        tracing::trace!(turn = st.turn, player = st.current, "turn start");
                        let (turn, player) = (st.turn, st.current);
                        st.log_entry(LogEntry::TurnStart { turn, player });
                    }
                    if rules.run_hook(st, Hooks::TURN_START, |p, st, me| p.on_turn_start(rules, st, me)) {
                        st.phase = Phase::Draw;
                    }
                }
                Phase::Draw => {
                    let Some(t) = st.stack.pop() else {
                        st.phase = Phase::FinalScoring;
                        continue;
                    };
                    st.tile = Some(t);
                    st.log_entry(LogEntry::Drawn { tile: t });
                    st.phase = Phase::PlaceTile;
                    // A plugin may take the tile away before it is shown (e.g. PD-DRAGON-1
                    // sets a dragon tile aside, placeable or not).
                    if rules.dispatch_tile_drawn(st, t) == DrawVerdict::Taken {
                        st.tile = None;
                        st.phase = Phase::Draw;
                        continue;
                    }
                    if !tile_placements(rules, st, t, &mut Vec::new(), true) {
                        // BASE-4: shown, removed from the game, draw again.
                        st.discarded += 1;
                        st.tile = None;
                        st.phase = Phase::Draw;
                        st.log_entry(LogEntry::Discarded { tile: t, reason: "no legal placement" });
                        let id = rules.catalog.tiles[t as usize].id.as_str();
                        tracing::debug!(turn = st.turn, tile = id, "tile discarded");
                        continue;
                    }
                }
                Phase::PlaceTile | Phase::Figure | Phase::Over => return,
                Phase::AfterTile => {
                    if rules.run_hook(st, Hooks::TILE_PLACED, |p, st, me| p.on_tile_placed(rules, st, me)) {
                        st.phase = Phase::Figure;
                    }
                }
                Phase::AfterFigure => {
                    let a = st.figure_action.unwrap_or(Action::Pass);
                    if rules
                        .run_hook(st, Hooks::FIGURE_ACTION_DONE, |p, st, me| p.on_figure_action_done(rules, st, me, &a))
                    {
                        st.phase = Phase::Scoring;
                    }
                }
                Phase::Scoring => {
                    let root = match st.scoring {
                        Some(r) => r,
                        None => {
                            if st.completed.is_empty() {
                                st.phase = Phase::ScoringDone;
                                continue;
                            }
                            let root = st.graph.find(st.completed.remove(0));
                            if st.graph.is_scored(root) {
                                continue;
                            }
                            st.scoring = Some(root);
                            root
                        }
                    };
                    if !rules
                        .run_hook(st, Hooks::FEATURE_COMPLETED, |p, st, me| p.on_feature_completed(rules, st, me, root))
                    {
                        continue;
                    }
                    st.scoring = None;
                    st.graph.set_scored(root);
                    // BASE-8: every figure in a scored feature returns.
                    let ids: Vec<u32> = st.figures_in(root).collect();
                    for id in ids {
                        st.remove_figure(rules, id, RemoveReason::Scored);
                    }
                }
                Phase::ScoringDone => {
                    if rules.run_hook(st, Hooks::SCORING_DONE, |p, st, me| p.on_scoring_done(rules, st, me)) {
                        st.phase = Phase::TurnEnd;
                    }
                }
                Phase::TurnEnd => {
                    if rules.run_hook(st, Hooks::TURN_END, |p, st, me| p.on_turn_end(rules, st, me)) {
                        st.placed = None;
                        st.figure_action = None;
                        st.current = st.next_seat(st.current);
                        st.turn += 1;
                        st.phase = Phase::TurnStart;
                    }
                }
                Phase::FinalScoring => {
                    if st.hook_cursor == 0 {
                        st.log_entry(LogEntry::FinalScoring);
                    }
                    if rules.run_hook(st, Hooks::FINAL_SCORING, |p, st, me| p.on_final_scoring(rules, st, me)) {
                        st.phase = Phase::Over;
                        tracing::debug!(scores = ?st.scores(), "game over");
                    }
                }
            }
        }
    }

    /// JSON form of an action (as in game records).
    pub fn describe(&self, a: &Action) -> serde_json::Value {
        describe(&self.rules, &self.st, a)
    }

    /// Plugin state, downcast.
    pub fn plugin_state<T: PluginState>(&self, me: usize) -> &T {
        self.st.plugin(me)
    }
}

fn decision_name(d: &Decision) -> &'static str {
    match d.kind {
        DecisionKind::PlaceTile => "tile placement",
        DecisionKind::Figure => "figure",
        DecisionKind::Plugin { .. } => "plugin",
    }
}

/// JSON form of an action.
pub fn describe(rules: &Rules, st: &State, a: &Action) -> serde_json::Value {
    use serde_json::json;
    match *a {
        Action::PlaceTile { pos, rot, face } => {
            let t = st.tile.map(|t| &rules.catalog.tiles[t as usize]);
            let mut v = json!({
                "type": "place_tile",
                "tile": t.map(|t| t.id.as_str()),
                "cell": [pos.x, pos.y],
                "rotation": rot.degrees(),
            });
            if let Some(t) = t {
                if t.faces.len() > 1 {
                    v["face"] = json!(t.faces[face as usize].name);
                }
            }
            v
        }
        Action::PlaceFigure { kind, part, feature } => {
            let pos = st.board.parts[part as usize].pos;
            let mut v = json!({
                "type": "figure",
                "figure": rules.figure_kinds[kind as usize].name,
                "cell": [pos.x, pos.y],
            });
            if feature != NO_FEATURE {
                v["feature"] = json!(crate::tile::feature_name(&st.rotated(rules, part).features[feature as usize]));
            }
            v
        }
        Action::Pass => json!({"type": "pass"}),
        Action::Plugin { plugin, .. } => {
            let mut v = json!({"type": "plugin", "plugin": rules.plugins[plugin as usize].name});
            if let serde_json::Value::Object(extra) = rules.plugin_describe(st, plugin, a) {
                for (k, x) in extra {
                    v[k] = x;
                }
            }
            v
        }
    }
}

/// Cells of a tile's parts when its first part is at `pos` turned by `rot`.
fn part_cells(
    rules: &Rules,
    t: TileTypeId,
    face: u8,
    pos: Pos,
    rot: Rotation,
) -> impl Iterator<Item = (usize, Pos)> + '_ {
    let parts = &rules.catalog.tiles[t as usize].faces[face as usize].parts;
    parts.iter().enumerate().map(move |(i, p)| {
        let (dx, dy) = p.rotated[rot.quarters() as usize].offset;
        (i, Pos::new(pos.x + dx, pos.y + dy))
    })
}

/// Places every part of a tile and joins its features with the neighbours; records the
/// features it completed in `st.completed`.
pub(crate) fn place_parts(rules: &Rules, st: &mut State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) {
    let tile = &rules.catalog.tiles[t as usize];
    let first = st.board.len() as u32;
    let q = rot.quarters() as usize;
    for (i, part) in tile.faces[face as usize].parts.iter().enumerate() {
        let rp = &part.rotated[q];
        let cell = Pos::new(pos.x + rp.offset.0, pos.y + rp.offset.1);
        let idx = st.board.len() as u32;
        let node_base = st.graph.len() as u32;
        for (local, f) in part.features.iter().enumerate() {
            let open = if f.kind.is_edge_feature() { f.sides.count_ones() } else { 0 };
            st.graph.add(idx, local as u8, f.kind, open, f.pennants as u32);
        }
        st.board.place(PlacedPart {
            pos: cell,
            tile: t,
            face,
            part: i as u8,
            rot,
            signature: rp.signature,
            node_base,
            first,
            cloister: rp.cloisters != 0,
            rp: part.flat + q as u32,
            markers: part.markers,
        });
        for s in Side::ALL {
            let Some(n) = st.board.part_at(cell.step(s)) else {
                continue;
            };
            let other = st.board.parts[n as usize];
            let orp = st.rotated(rules, n);
            let os = s.opposite() as usize;
            let mine = rp.side_feature[s as usize];
            let theirs = orp.side_feature[os];
            if mine != NONE && theirs != NONE {
                st.graph.join(node_base + mine as u32, other.node_base + theirs as u32, 2);
            }
            for h in [2 * s as u8, 2 * s as u8 + 1] {
                let mf = rp.half_feature[h as usize];
                let tf = orp.half_feature[half_mirror(h) as usize];
                if mf != NONE && tf != NONE {
                    st.graph.join(node_base + mf as u32, other.node_base + tf as u32, 0);
                }
            }
        }
    }
    let end = st.board.len() as u32;
    st.placed = Some((first, end));
    st.completed.clear();
    for idx in first..end {
        let p = st.board.parts[idx as usize];
        let rp = st.rotated(rules, idx);
        for (local, f) in rp.features.iter().enumerate() {
            if f.kind.is_edge_feature() {
                let root = st.graph.find(p.node_base + local as u32);
                if st.graph.open(root) == 0 && !st.completed.contains(&root) {
                    st.completed.push(root);
                }
            }
        }
        // Cloisters on this cell or around it that are now surrounded.
        let mut done = [0u32; 9];
        let mut n = 0;
        st.board.take_surrounded(p.pos, |c| {
            done[n] = c;
            n += 1;
        });
        for &c in &done[..n] {
            let crp = st.rotated(rules, c);
            let base = st.board.parts[c as usize].node_base;
            for local in 0..16u32 {
                if crp.cloisters & (1 << local) != 0 {
                    let root = st.graph.find(base + local);
                    if !st.completed.contains(&root) {
                        st.completed.push(root);
                    }
                }
            }
        }
    }
}

/// Generates the legal placements of tile `t` into `out`; with `any`, stops at the first
/// and returns whether one exists.
pub(crate) fn tile_placements(rules: &Rules, st: &State, t: TileTypeId, out: &mut Vec<Action>, any: bool) -> bool {
    let tile = &rules.catalog.tiles[t as usize];
    let mut found = false;
    if tile.is_single() {
        let vetoes = rules.tile_has_vetoers(t);
        if !any {
            let from = out.len();
            for (fi, face) in tile.faces.iter().enumerate() {
                found |= push_fitting(st, face, fi as u8, out);
            }
            if vetoes {
                // The same order as generated: vetoed placements are dropped in place.
                rules.veto_tiles(st, t, out, from);
                found = out.len() > from;
            }
            return found;
        }
        // `any`: the first placement that fits (and that every plugin allows).
        for (fi, face) in tile.faces.iter().enumerate() {
            for (pos, code) in st.board.frontier_needs() {
                let mut rots = face.parts[0].fit[code as usize];
                while rots != 0 {
                    let rot = Rotation::from_quarters(rots.trailing_zeros() as u8);
                    rots &= rots - 1;
                    if !vetoes || rules.allow_tile(st, &TilePlacement { tile: t, face: fi as u8, pos, rot }) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
    // Multi-part tiles: any part may land on a frontier cell, if it fits the cell's placed
    // neighbours (the part's rotations that fit the frontier's need code, from a table: a
    // quick test before the whole tile's).
    let mut local: Vec<Action> = Vec::new();
    for (fi, face) in tile.faces.iter().enumerate() {
        for (cell, code) in st.board.frontier_needs() {
            if face.parts.iter().fold(0, |m, p| m | p.fit[code as usize]) == 0 {
                continue;
            }
            for &rot in &face.distinct_rotations {
                for p in &face.parts {
                    if p.fit[code as usize] & (1 << rot.quarters()) == 0 {
                        continue;
                    }
                    let (dx, dy) = p.rotated[rot.quarters() as usize].offset;
                    let anchor = Pos::new(cell.x - dx, cell.y - dy);
                    let a = Action::PlaceTile { pos: anchor, rot, face: fi as u8 };
                    if local.contains(&a) {
                        continue;
                    }
                    if tile_fits(rules, st, t, fi as u8, anchor, rot) {
                        if any {
                            return true;
                        }
                        local.push(a);
                    }
                }
            }
        }
    }
    found |= !local.is_empty();
    out.extend(local);
    found
}

/// Rotations in each fit mask, in ascending order, padded with zeros: four 16-bit slots
/// in one word (slot k in bits 16k..16k+16), written with one store per cell.
const ROT_LISTS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut m = 0;
    while m < 16 {
        let (mut n, mut r) = (0, 0);
        while r < 4 {
            if m & (1 << r) != 0 {
                t[m] |= (r as u64) << (16 * n);
                n += 1;
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// Set bits of each 4-bit fit mask (a table: `count_ones` is no single instruction on the
/// baseline x86-64 target).
const FIT_COUNT: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Appends every fitting placement of a single-part face. Whether a tile fits a cell is
/// unpredictable, so the first pass is branch-free: each cell writes four candidate slots
/// (cell index << 2 | rotation, one 64-bit store) to a small buffer and the write position
/// advances by the number of rotations that fit; the second pass turns the kept slots into
/// actions.
fn push_fitting(st: &State, face: &crate::tile::TileFace, fi: u8, out: &mut Vec<Action>) -> bool {
    const CHUNK: usize = 64;
    let frontier = st.board.frontier();
    let fit = &face.parts[0].fit;
    let mut found = false;
    let mut buf = [0u16; 4 * CHUNK + 4];
    for (ci, chunk) in frontier.chunks(CHUNK).enumerate() {
        let needs = &st.board.frontier_codes()[ci * CHUNK..ci * CHUNK + chunk.len()];
        let mut n = 0usize;
        for (i, &code) in needs.iter().enumerate() {
            let m = fit[code as usize] as usize & 15;
            // The cell index (<< 2) in each of the four slots.
            let slots = ROT_LISTS[m] | (i as u64 * 0x0004_0004_0004_0004);
            let w: &mut [u16; 4] = (&mut buf[n..n + 4]).try_into().expect("four slots");
            *w = [slots as u16, (slots >> 16) as u16, (slots >> 32) as u16, (slots >> 48) as u16];
            n += FIT_COUNT[m] as usize;
        }
        found |= n > 0;
        out.extend(buf[..n].iter().map(|&e| Action::PlaceTile {
            pos: chunk[(e >> 2) as usize],
            rot: Rotation::from_quarters((e & 3) as u8),
            face: fi,
        }));
    }
    found
}

/// Most parts of a tile that [`tile_fits`] checks without allocating.
const FAST_PARTS: usize = 4;

/// Whether one tile placement is legal: the fast form of [`check_tile`] (no allocation,
/// no message), used to generate the placements of multi-part tiles.
fn tile_fits(rules: &Rules, st: &State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) -> bool {
    let Some(f) = rules.catalog.tiles[t as usize].faces.get(face as usize) else {
        return false;
    };
    let n = f.parts.len();
    if n > FAST_PARTS {
        return check_tile_slow(rules, st, t, face, pos, rot).is_ok();
    }
    let q = rot.quarters() as usize;
    let mut cells = [Pos::default(); FAST_PARTS];
    for (c, p) in cells.iter_mut().zip(&f.parts) {
        let (dx, dy) = p.rotated[q].offset;
        *c = Pos::new(pos.x + dx, pos.y + dy);
    }
    let cells = &cells[..n];
    let mut touches = false;
    for (i, &cell) in cells.iter().enumerate() {
        if st.board.is_placed(cell) {
            return false;
        }
        let sig = f.parts[i].rotated[q].signature;
        for s in Side::ALL {
            let nb = cell.step(s);
            if cells.contains(&nb) {
                continue;
            }
            let Some(o) = st.board.part_at(nb) else {
                continue;
            };
            touches = true;
            if signature_side(sig, s) != signature_side(st.board.parts[o as usize].signature, s.opposite()) {
                return false;
            }
        }
    }
    touches && rules.allow_tile(st, &TilePlacement { tile: t, face, pos, rot })
}

/// Checks one tile placement and says why it is illegal.
pub fn check_tile(rules: &Rules, st: &State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) -> Result<(), String> {
    if tile_fits(rules, st, t, face, pos, rot) {
        return Ok(());
    }
    check_tile_slow(rules, st, t, face, pos, rot)
}

/// [`check_tile`] with the reason of an illegal placement.
fn check_tile_slow(rules: &Rules, st: &State, t: TileTypeId, face: u8, pos: Pos, rot: Rotation) -> Result<(), String> {
    let tile = &rules.catalog.tiles[t as usize];
    let Some(f) = tile.faces.get(face as usize) else {
        return Err(format!("tile {} has no face {face}", tile.id));
    };
    let cells: Vec<(usize, Pos)> = part_cells(rules, t, face, pos, rot).collect();
    let mut touches = false;
    for &(i, cell) in &cells {
        if st.board.is_placed(cell) {
            return Err(format!("cell {cell} already holds a tile"));
        }
        let sig = f.parts[i].rotated[rot.quarters() as usize].signature;
        for s in Side::ALL {
            let q = cell.step(s);
            if cells.iter().any(|&(_, c)| c == q) {
                continue;
            }
            let Some(n) = st.board.part_at(q) else {
                continue;
            };
            touches = true;
            let theirs = signature_side(st.board.parts[n as usize].signature, s.opposite());
            let mine = signature_side(sig, s);
            if mine != theirs {
                return Err(format!(
                    "tile {} at {cell} rotation {}: side {} shows {} but the tile at {q} shows {}",
                    tile.id,
                    rot.degrees(),
                    s.name(),
                    side_kind_name(mine),
                    side_kind_name(theirs)
                ));
            }
        }
    }
    if !touches {
        return Err(format!("tile {} at {pos} touches no placed tile", tile.id));
    }
    if let Some(p) = rules.tile_veto(st, &TilePlacement { tile: t, face, pos, rot }) {
        return Err(format!("tile {} at {pos} rotation {} is forbidden by plugin '{p}'", tile.id, rot.degrees()));
    }
    Ok(())
}

fn side_kind_name(k: u32) -> &'static str {
    [SideKind::Field, SideKind::City, SideKind::Road, SideKind::River].get(k as usize).map_or("?", |s| s.name())
}
