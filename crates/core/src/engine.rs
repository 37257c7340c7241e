//! The turn loop: a validated game, its current decision, legal actions, and play
//! (tile placement itself is in [`crate::placement`]).

use std::sync::Arc;

use crate::action::{Action, Decision, DecisionKind, NO_FEATURE};
use crate::candidates::{TileCandidates, TileVetoes};
use crate::geometry::{Pos, Rotation};
use crate::placement::{check_tile, counted_pick, place_parts, tile_placements, widen};
use crate::plugin::{DrawVerdict, Hooks, PluginState, Query, QueryKey, TilePlacement};
use crate::rules::Rules;
use crate::state::{FigureList, LogEntry, Phase, RemoveReason, State, TileJudged, TurnTile};
use crate::tile::TileTypeId;

/// How to start a game.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Seats (within the rule set's player range).
    pub players: usize,
    /// Seed of the tile shuffle and of every random draw of the game.
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

/// A game in progress: rules plus state. Cloning copies the state (for tree search);
/// `scratch.clone_from(&game)` copies it into a game kept for the purpose, reusing its
/// memory (no allocation once the scratch game has grown: the cheap copy for playouts).
#[derive(Debug)]
pub struct Game {
    /// The rule set the game is played with.
    pub rules: Arc<Rules>,
    /// The state: board, features, figures, scores, stack, pending decisions. Boxed, so
    /// that a game is a small handle that moves without copying the state (~1.5 kB of
    /// tables; a copy on every move cost more than the clone itself on some machines).
    pub st: Box<State>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game { rules: self.rules.clone(), st: Box::new(self.st.copy(true)) }
    }

    fn clone_from(&mut self, source: &Game) {
        if !Arc::ptr_eq(&self.rules, &source.rules) {
            self.rules = source.rules.clone();
        }
        self.st.clone_from(&source.st);
    }
}

impl Game {
    /// A copy without the record log (for a search: a recorded game's log is the costly
    /// part of a copy, and a playout needs none).
    pub fn clone_without_log(&self) -> Game {
        Game { rules: self.rules.clone(), st: Box::new(self.st.copy(false)) }
    }

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
        let mut g = Game { rules, st: Box::new(st) };
        g.advance();
        Ok(g)
    }

    /// The current decision; None once the game is over.
    pub fn decision(&self) -> Option<Decision> {
        self.st.decision()
    }

    /// Whether the game has ended (no decision is pending).
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
                    match st.listed_at_draw(t).filter(|_| rules.tile_has_vetoers(t)) {
                        Some(list) => out.extend_from_slice(list),
                        None => placement_list(rules, st, t, out),
                    }
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

    /// One legal action of the current decision, chosen by index: `pick(n)` gets the number
    /// of legal actions (at least one) and returns an index below it. The same action as
    /// [`Game::legal_actions`] into `buf` followed by `buf[pick(buf.len())]`, but the
    /// placements of a one-part tile are counted and located without listing them all when
    /// no plugin forbids one of them without asking for the list (`buf` then holds only the
    /// placement variants, if a plugin offers them). `None` when there is no legal action
    /// (or no decision).
    pub fn pick_action(&self, buf: &mut Vec<Action>, pick: impl FnOnce(usize) -> usize) -> Option<Action> {
        let (rules, st) = (&*self.rules, &self.st);
        if let (Some(d), Some(t)) = (st.decision(), st.tile) {
            if d.kind == DecisionKind::PlaceTile && rules.catalog.tiles[t as usize].is_single() {
                if rules.tile_has_vetoers(t) && !st.judged_at_draw(t) && judged_list(rules, st, t, buf) {
                    if buf.is_empty() {
                        return None;
                    }
                    let i = pick(buf.len());
                    return buf.get(i).copied();
                }
                if !rules.uses(Hooks::PLACEMENT_VARIANTS) {
                    return counted_pick(rules, st, t, &[], |_| false, pick);
                }
                // The variants are listed (few, each judged by the vetoes), the plain
                // placements before them counted.
                buf.clear();
                widen(rules, st, t, buf, 0);
                let pass = |plain: usize| plain == 0 && may_discard(rules, st, t, buf);
                return counted_pick(rules, st, t, buf, pass, pick);
            }
        }
        self.legal_actions(buf);
        if buf.is_empty() {
            return None;
        }
        let i = pick(buf.len());
        buf.get(i).copied()
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
            // A plugin's decision may change what a tile veto sees.
            st.tile_judged = TileJudged::No;
            if let DecisionKind::Plugin { plugin, .. } = d.kind {
                rules.plugin_apply(st, &d, plugin, &a);
            }
        } else {
            match (st.phase, a) {
                (Phase::PlaceTile, Action::Pass) => {
                    // A tile placeable only with a plugin's variants, discarded by the
                    // player (BRIDGE-3): removed from the game as BASE-4 removes one.
                    let t = st.tile.take().expect("a drawn tile");
                    st.discarded += 1;
                    st.log_entry(LogEntry::Discarded { tile: t, reason: "discarded by the player" });
                    st.phase = Phase::Draw;
                }
                (Phase::PlaceTile, Action::PlaceTileVariant { pos, rot, face, variant }) => {
                    let t = st.tile.take().expect("a drawn tile");
                    tracing::debug!(turn = st.turn, player, variant, "tile placed with a variant");
                    place_parts(rules, st, t, face, pos, rot);
                    rules.place_variant(st, &TilePlacement { tile: t, face, pos, rot, variant });
                    st.phase = rules.phase_from(Phase::AfterTile);
                }
                (Phase::PlaceTile, Action::PlaceTile { pos, rot, face }) => {
                    let t = st.tile.take().expect("a drawn tile");
                    tracing::debug!(
                        turn = st.turn,
                        player,
                        tile = rules.catalog.tiles[t as usize].id.as_str(),
                        cell = %pos,
                        rotation = rot.degrees(),
                        "tile placed"
                    );
                    place_parts(rules, st, t, face, pos, rot);
                    st.phase = rules.phase_from(Phase::AfterTile);
                }
                (Phase::Figure, a) => {
                    match a {
                        Action::PlaceFigure { kind, part, feature } => {
                            let node = (feature != NO_FEATURE).then(|| st.node_of(part, feature));
                            let id = st.add_figure(rules, st.current, kind, part, node);
                            tracing::debug!(
                                turn = st.turn,
                                player,
                                figure = rules.figure_kinds[kind as usize].name.as_str(),
                                at = st.figure_place_name(rules, &st.figures[id as usize]).as_str(),
                                "figure placed"
                            );
                            rules.dispatch_figure_placed(st, id);
                        }
                        Action::Plugin { plugin, .. } => {
                            let d = Decision { player, kind: DecisionKind::Figure };
                            rules.plugin_apply(st, &d, plugin, &a);
                        }
                        _ => {}
                    }
                    st.phase = rules.phase_from(Phase::AfterFigure);
                    st.figure_action = Some(a);
                }
                (phase, a) => panic!("action {a:?} does not answer phase {phase:?}"),
            }
        }
        // At the figure decision the loop has nothing to run (it would return at once): a
        // placed tile whose after-tile phase was passed over goes straight to it.
        if self.st.phase != Phase::Figure {
            self.advance();
        }
    }

    /// Runs the automatic steps up to the next decision (or the end).
    pub(crate) fn advance(&mut self) {
        let rules = &*self.rules;
        let st = &mut self.st;
        loop {
            if !st.pending.is_empty() || st.failure().is_some() {
                return;
            }
            match st.phase {
                Phase::TurnStart => {
                    // BASE-10: no turn starts once no tile is left to draw, unless a plugin
                    // says the game goes on (the question is asked only then).
                    if st.hook_cursor == 0 && st.stack.is_empty() && !game_goes_on(rules, st) {
                        st.phase = Phase::FinalScoring;
                        continue;
                    }
                    if st.hook_cursor == 0 {
                        tracing::trace!(turn = st.turn, player = st.current, "turn start");
                        if st.log.is_some() {
                            let (turn, player) = (st.turn, st.current);
                            st.log_entry(LogEntry::TurnStart { turn, player });
                        }
                    }
                    if rules.run_hook(st, Hooks::TURN_START, |p, st, me| p.on_turn_start(rules, st, me)) {
                        st.phase = Phase::Draw;
                    }
                }
                Phase::Draw => {
                    match st.turn_tile {
                        TurnTile::Draw => {}
                        TurnTile::NoTile => {
                            st.phase = Phase::TurnEnd;
                            continue;
                        }
                        TurnTile::Given(t) => {
                            // A plugin's tile instead of a draw (ABBEY-2): placed as drawn;
                            // one that fits nowhere is not placed, and the turn ends.
                            st.log_entry(LogEntry::Drawn { tile: t });
                            if tile_placements(rules, st, t, &mut Vec::new(), true) {
                                st.tile = Some(t);
                                st.tile_judged = TileJudged::No;
                                st.phase = Phase::PlaceTile;
                            } else {
                                st.turn_tile = TurnTile::NoTile;
                                st.phase = Phase::TurnEnd;
                            }
                            continue;
                        }
                    }
                    let Some(t) = st.stack.pop() else {
                        // The last tile was discarded this turn: the turn ends (its end
                        // hooks run) when a plugin says the game goes on, else the game does.
                        st.phase = if game_goes_on(rules, st) { Phase::TurnEnd } else { Phase::FinalScoring };
                        continue;
                    };
                    st.tile = Some(t);
                    st.tile_judged = TileJudged::No;
                    if st.log.is_some() {
                        st.log_entry(LogEntry::Drawn { tile: t });
                    }
                    st.phase = Phase::PlaceTile;
                    // A plugin may take the tile away before it is shown (e.g. PD-DRAGON-1
                    // sets a dragon tile aside, placeable or not).
                    if rules.dispatch_tile_drawn(st, t) == DrawVerdict::Taken {
                        st.tile = None;
                        st.phase = Phase::Draw;
                        continue;
                    }
                    if !drawn_tile_fits(rules, st, t) {
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
                    if rules.run_tile_placed(st, |p, st, me| p.on_tile_placed(rules, st, me)) {
                        st.phase = Phase::Figure;
                    }
                }
                Phase::AfterFigure => {
                    let a = st.figure_action.unwrap_or(Action::Pass);
                    if rules
                        .run_hook(st, Hooks::FIGURE_ACTION_DONE, |p, st, me| p.on_figure_action_done(rules, st, me, &a))
                    {
                        st.phase = rules.phase_from(Phase::ScoringStep);
                    }
                }
                Phase::ScoringStep => {
                    if rules.run_hook(st, Hooks::SCORING_STEP, |p, st, me| p.on_scoring_step(rules, st, me)) {
                        st.phase = Phase::Scoring;
                    }
                }
                Phase::Scoring => {
                    let root = match st.scoring {
                        Some(r) => r,
                        None => {
                            if st.completed.is_empty() {
                                st.phase = rules.phase_from(Phase::ScoringDone);
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
                    let ids: FigureList = st.figures_in(root).collect();
                    for &id in ids.iter() {
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
                        // The tile's kept placements were of its decision only (a copy of
                        // the game need not carry them; the next draw clears the judgement).
                        st.judged_list.clear();
                        st.turn_tile = TurnTile::Draw;
                        let extra = std::mem::take(&mut st.extra_turn);
                        if let Some(p) = st.next_player.take() {
                            st.current = p;
                        } else if !extra {
                            st.current = st.next_seat(st.current);
                        }
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

/// BASE-4's check of drawn tile `t`: whether it has a legal placement. A one-part tile whose
/// vetoers all judge at once ([`crate::Plugin::judges_tiles_at_once`]) is judged as its
/// placement decision will be (one call per vetoer, the placements listed only if one
/// asks); when none asked for the list and none forbade a placement, the state remembers
/// it ([`State::tile_judged`]). Any other tile a plugin may veto is listed and judged as
/// its decision lists it, and the state keeps the list ([`State::judged_list`]). Either
/// way the decision, in the same state, is not judged again.
#[inline(always)]
fn drawn_tile_fits(rules: &Rules, st: &mut State, t: TileTypeId) -> bool {
    if rules.tile_has_vetoers(t) {
        return vetoed_tile_fits(rules, st, t);
    }
    if rules.catalog.tiles[t as usize].is_single() {
        return crate::placement::fits_unjudged(rules, st, t);
    }
    tile_placements(rules, st, t, &mut Vec::new(), true)
}

/// [`drawn_tile_fits`] for a tile a plugin may veto: sets [`State::tile_judged`] (read only
/// for such a tile).
#[inline(never)]
fn vetoed_tile_fits(rules: &Rules, st: &mut State, t: TileTypeId) -> bool {
    // The draw has just cleared `tile_judged`: nothing is kept for this tile yet.
    debug_assert!(st.tile_judged == TileJudged::No, "judged before the draw check");
    let mut list = std::mem::take(&mut st.judged_list);
    list.clear();
    if rules.tile_judged_at_once(t) && rules.catalog.tiles[t as usize].is_single() {
        // Judged as the decision judges it (afresh: nothing is kept yet).
        if judged_list(rules, st, t, &mut list) {
            return keep_listed(st, list);
        }
        // Quiet: every plain placement stands (and the decision asks no veto again).
        if crate::placement::fits_plain(rules, st, t) {
            st.judged_list = list;
            st.tile_judged = TileJudged::Quiet;
            return true;
        }
        list.clear();
    }
    // The legal placements as the decision lists them (it needs every one of them when
    // there is one), kept for it.
    placement_list(rules, st, t, &mut list);
    keep_listed(st, list)
}

/// Keeps `list`, the legal placements of the drawn tile, for its placement decision;
/// whether there is one.
fn keep_listed(st: &mut State, list: Vec<Action>) -> bool {
    let fits = !list.is_empty();
    st.judged_list = list;
    st.tile_judged = TileJudged::Listed;
    fits
}

/// The legal placements of drawn tile `t` (every one the vetoes allow, the variants, and
/// the pass that discards a tile placeable only with variants), appended to `out`.
fn placement_list(rules: &Rules, st: &State, t: TileTypeId, out: &mut Vec<Action>) {
    tile_placements(rules, st, t, out, false);
    if rules.uses(Hooks::PLACEMENT_VARIANTS) {
        push_discard(rules, st, t, out);
    }
}

/// The pass that discards drawn tile `t` (BRIDGE-3), pushed onto `legal` (its legal
/// placements) when they are all variants and their plugin lets the player discard it.
fn push_discard(rules: &Rules, st: &State, t: TileTypeId, legal: &mut Vec<Action>) {
    if may_discard(rules, st, t, legal) {
        legal.push(Action::Pass);
    }
}

/// From the listed candidates in `buf`, judged (`vetoes`), the legal placements of `t`:
/// the allowed ones, the variants, and the pass that discards a tile placeable only with
/// variants.
fn finish_judged(rules: &Rules, st: &State, t: TileTypeId, vetoes: &TileVetoes, buf: &mut Vec<Action>) {
    vetoes.retain(buf, 0);
    if rules.uses(Hooks::PLACEMENT_VARIANTS) {
        widen(rules, st, t, buf, 0);
        push_discard(rules, st, t, buf);
    }
}

/// The tile vetoes of a one-part tile `t`, judged with the placements listed on demand: when
/// a plugin asked for the list or forbade a placement, `buf` ends holding the legal actions
/// (as [`Game::legal_actions`] lists them) and the answer is true; else nothing is listed
/// and every plain placement is allowed (false: the caller counts them). A list that
/// BASE-4's check at the draw made ([`State::listed_at_draw`]) is taken as it is.
fn judged_list(rules: &Rules, st: &State, t: TileTypeId, buf: &mut Vec<Action>) -> bool {
    if let Some(list) = st.listed_at_draw(t) {
        // Listed by BASE-4's check at the draw, in this same state.
        buf.clear();
        buf.extend_from_slice(list);
        return true;
    }
    let candidates = TileCandidates::on_demand(rules, st, t, std::mem::take(buf));
    let mut vetoes = TileVetoes::new();
    rules.judge_tiles(st, t, &candidates, &mut vetoes);
    if !vetoes.any() && !candidates.is_listed() {
        *buf = candidates.into_buffer();
        return false;
    }
    candidates.list();
    *buf = candidates.into_buffer();
    finish_judged(rules, st, t, &vetoes, buf);
    true
}

/// Whether the player may discard drawn tile `t` instead of placing it: every legal
/// placement in `legal` is a variant, and the plugin of the first lets them
/// ([`crate::Plugin::may_discard`], BRIDGE-3).
fn may_discard(rules: &Rules, st: &State, t: TileTypeId, legal: &[Action]) -> bool {
    let variant = |a: &Action| match *a {
        Action::PlaceTileVariant { variant, .. } => variant,
        _ => 0,
    };
    !legal.is_empty() && legal.iter().all(|a| variant(a) != 0) && rules.may_discard(st, variant(&legal[0]), t)
}

/// Whether a plugin answers `game_goes_on` with true (BASE-10 with a later last round).
fn game_goes_on(rules: &Rules, st: &State) -> bool {
    let q = Query { key: QueryKey::GAME_GOES_ON, figure: None, kind: None, part: None, node: None, by: u8::MAX };
    rules.ask(st, &q) == Some(true)
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
        Action::PlaceTile { pos, rot, face } => describe_tile(rules, st, pos, rot, face, 0),
        Action::PlaceTileVariant { pos, rot, face, variant } => describe_tile(rules, st, pos, rot, face, variant),
        Action::PlaceFigure { kind, part, feature } => {
            let pos = st.board.parts[part as usize].pos;
            let mut v = json!({
                "type": "figure",
                "figure": rules.figure_kinds[kind as usize].name,
                "cell": [pos.x, pos.y],
            });
            if feature != NO_FEATURE {
                v["feature"] = json!(st.local_feature_name(rules, part, feature));
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

/// JSON form of a tile placement (`variant` 0: a plain one).
fn describe_tile(rules: &Rules, st: &State, pos: Pos, rot: Rotation, face: u8, variant: u8) -> serde_json::Value {
    use serde_json::json;
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
    if let (Some(tile), true) = (st.tile, variant != 0) {
        v["variant"] = rules.describe_variant(st, &TilePlacement { tile, face, pos, rot, variant });
    }
    v
}
