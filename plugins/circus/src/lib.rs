//! The big top of Under the Big Top (EXPANSIONS.md CIRCUS-1..4) and how the dragons, the
//! fairies and the portal treat it (seed 001, "Cirkus a akrobaté").
//!
//! - CIRCUS-1: the tiles of its tile set (`tile_set`) that carry the marker `circus`
//!   (CI9-CI20) go into the land tiles; with `gardens = false` CI10ng replaces CI10. The
//!   bag ([`CircusState::bag`]) holds the 16 animal tokens ([`TOKENS`]: 1 x 1, 4 x 3,
//!   5 x 4, 3 x 5, 2 x 6, 1 x 7). The big top is one neutral figure (kind `big-top`, no
//!   follower, no supply) standing on its tile on no feature: the circus space is no
//!   feature (TILES-MORE.md rule 19), so no figure is ever placed there (CIRCUS-4).
//! - CIRCUS-2: when the first circus tile is placed (`on_tile_placed`), a token is drawn
//!   uniformly from the bag with the game's seeded generator (`State::rng`: the same seed
//!   gives the same draws, records replay) and lies face down under the big top, which is
//!   put on that tile. Nothing scores.
//! - CIRCUS-3: when a later circus tile is placed, after that turn's completed features
//!   were scored and their figures returned (`on_scoring_done`, requested when the later
//!   circus tile is placed: `hooks_on_request`; the rule sets run this
//!   plugin after the wagon's move, priority 17, and before the classic dragon's
//!   after-scoring move, priority 20), the token under the big top is revealed and leaves
//!   the game ([`CircusState::revealed`]); every seat scores its value times the number
//!   of its figures that are followers (the figure kind's `follower` flag: followers,
//!   farmers, the large meeple as one, mayors, wagons, abbots, ringmasters, acrobats,
//!   watchmen; not builders, pigs, barns, shepherds or neutral figures) on the big top's
//!   tile and the 8 around it (score source `circus`, an extra source). The big top then
//!   moves onto the new circus tile over a newly drawn token.
//! - CIRCUS-4: at the end the token under the big top is revealed and scores once more
//!   the same way.
//! - Seed 001: the dragons do not remove the big top or the tokens (this plugin answers
//!   `eatable` with false for the big top; the tokens are no figures). The fairies never
//!   join it (a neutral figure is no player's follower) and it never travels through the
//!   portal (it is never in a supply). Circus points are an extra source, which the fairies
//!   ignore.
//! - Statistics: `big_top_moves` (moves onto a later circus tile), `circus_points` (every
//!   seat's circus points together), `animal_tokens_revealed`.

mod draw;

use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{FigureId, State, MAX_PLAYERS, NEUTRAL};
use carcassonne_core::Pos;
use serde::{Deserialize, Serialize};

/// CIRCUS-1: the 16 animal tokens' values (flea, monkeys, seals, bears, tigers, elephant).
pub const TOKENS: [u8; 16] = [1, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 6, 6, 7];

/// The big top's figure kind.
pub const KIND: &str = "big-top";

/// Options of the big top.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Circus {
    /// Tile set holding the circus tiles (marker `circus`).
    pub tile_set: String,
    /// The C2 printing with gardens (CI10); false: CI10ng without garden.
    pub gardens: bool,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    source: u8,
    marker: u32,
    eatable: QueryKey,
    moves: usize,
    points: usize,
    revealed: usize,
}

impl Default for Circus {
    fn default() -> Self {
        Circus { tile_set: "big-top".into(), gardens: true, ids: Ids::default() }
    }
}

/// The big top's game state.
#[derive(Debug, Default)]
pub struct CircusState {
    /// Face-down tokens not yet drawn (values).
    pub bag: Vec<u8>,
    /// The big top's figure, once the first circus tile is placed.
    pub big_top: Option<FigureId>,
    /// The face-down token under the big top (None: the bag was empty).
    pub token: Option<u8>,
    /// A circus tile placed this turn (its part) to which the big top moves after scoring.
    pub next: Option<u32>,
    /// Tokens revealed so far (they left the game), in order.
    pub revealed: Vec<u8>,
}

carcassonne_core::clone_fields!(CircusState { bag, big_top, token, next, revealed });

/// The factory a rule set names as `circus`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "circus",
        summary: "Under the Big Top: the big top and its animal tokens, scoring the followers around it (CIRCUS-1..4)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Circus>,
    }
}

/// Per seat, the figures that are followers on the tile at `at` and the 8 around it.
pub fn followers_around(rules: &Rules, st: &State, at: Pos) -> [u32; MAX_PLAYERS] {
    let mut n = [0u32; MAX_PLAYERS];
    for f in st.figures.iter().filter(|f| f.alive && f.owner != NEUTRAL) {
        if !rules.figure_kinds[f.kind as usize].follower {
            continue;
        }
        let p = st.board.parts[f.part as usize].pos;
        if (p.x - at.x).abs() <= 1 && (p.y - at.y).abs() <= 1 {
            n[f.owner as usize] += 1;
        }
    }
    n
}

impl Circus {
    fn state(st: &State, me: usize) -> &CircusState {
        st.plugin::<CircusState>(me)
    }

    /// A face-down token from the bag, drawn with the game's generator.
    fn draw(st: &mut State, me: usize) -> Option<u8> {
        let n = Self::state(st, me).bag.len();
        if n == 0 {
            return None;
        }
        let i = st.rng.below(n);
        Some(st.plugin_mut::<CircusState>(me).bag.swap_remove(i))
    }

    /// CIRCUS-3/4: reveals the token under the big top and pays its value per follower
    /// around the big top to every seat.
    fn perform(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(id) = Self::state(st, me).big_top else { return };
        let f = st.figures[id as usize];
        if !f.alive || f.kind != self.ids.kind {
            return;
        }
        let Some(token) = st.plugin_mut::<CircusState>(me).token.take() else { return };
        st.plugin_mut::<CircusState>(me).revealed.push(token);
        st.bump_stat(self.ids.revealed, 1);
        let at = st.board.parts[f.part as usize].pos;
        st.note(rules, me, format_args!("token {token} revealed under the big top at {at}"));
        let counts = followers_around(rules, st, at);
        for (seat, &n) in counts.iter().enumerate().take(st.players) {
            let points = i32::from(token) * n as i32;
            if points > 0 {
                st.score_other(seat as u8, points, self.ids.source, "circus");
                st.bump_stat(self.ids.points, i64::from(points));
            }
        }
    }
}

impl Plugin for Circus {
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
        "circus"
    }

    fn hooks(&self) -> Hooks {
        Hooks::TILE_PLACED | Hooks::SCORING_DONE | Hooks::FINAL_SCORING | Hooks::QUERY
    }

    /// The performance after scoring only on the turn of a later circus tile (requested
    /// when it is placed).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::SCORING_DONE
    }

    /// Only a circus tile raises the big top.
    fn tile_hooks(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> Hooks {
        carcassonne_core::plugin::marked(rules, tile, self.ids.marker, Hooks::TILE_PLACED)
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.marker = reg.require_marker(&self.tile_set, "circus")?;
        self.ids.kind = reg.figure_kind(KIND, false, 0, 0)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about its own figure only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.source = reg.extra_source("circus")?;
        self.ids.eatable = reg.query("eatable");
        self.ids.moves = reg.stat("big_top_moves");
        self.ids.points = reg.stat("circus_points");
        self.ids.revealed = reg.stat("animal_tokens_revealed");
        Ok(())
    }

    /// CIRCUS-1: the circus tiles go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.marker, !self.gardens)
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(CircusState { bag: TOKENS.to_vec(), ..CircusState::default() }))
    }

    /// CIRCUS-2: the first circus tile takes the big top over a drawn token; a later one
    /// is remembered for the move after scoring (CIRCUS-3).
    fn on_tile_placed(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(part) = st.placed_parts().find(|&p| st.part_markers(rules, p) & self.ids.marker != 0) else {
            return;
        };
        if Self::state(st, me).big_top.is_some() {
            st.plugin_mut::<CircusState>(me).next = Some(part);
            st.request_hook(me, Hooks::SCORING_DONE);
            return;
        }
        let token = Self::draw(st, me);
        let id = st.add_figure(rules, NEUTRAL, self.ids.kind, part, None);
        let s = st.plugin_mut::<CircusState>(me);
        s.big_top = Some(id);
        s.token = token;
    }

    /// CIRCUS-3: the performance, then the big top moves over a new token.
    fn on_scoring_done(&self, rules: &Rules, st: &mut State, me: usize) {
        let Some(part) = st.plugin_mut::<CircusState>(me).next.take() else { return };
        self.perform(rules, st, me);
        let Some(id) = Self::state(st, me).big_top else { return };
        st.move_figure(rules, id, part, None);
        let token = Self::draw(st, me);
        st.plugin_mut::<CircusState>(me).token = token;
        st.bump_stat(self.ids.moves, 1);
    }

    /// CIRCUS-4: the big top's circus scores once more.
    fn on_final_scoring(&self, rules: &Rules, st: &mut State, me: usize) {
        self.perform(rules, st, me);
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["eatable"])
    }

    /// Seed 001: no dragon removes the big top.
    fn answer(&self, _rules: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let f = st.figures[q.figure? as usize];
        (q.key == self.ids.eatable && f.kind == self.ids.kind).then_some(false)
    }
}
