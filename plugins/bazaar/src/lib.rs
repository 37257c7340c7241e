//! Bazaars of Bridges, Castles & Bazaars (EXPANSIONS.md BAZAAR-1..3) and the set's land tiles.
//!
//! - Tiles: the 12 land tiles of its tile set (`tile_set`, BCB1-BCB12; `edition = 1`:
//!   BCB10c1 without a garden) go into the land tiles; `tiles = "bazaars"` brings only the 8
//!   with the marker `bazaar`. The castles (plugin `castle`) and bridges (plugin `bridge`)
//!   bring no tiles: this plugin is the one that puts the set's tiles into the supply.
//! - BAZAAR-1: at the end of a turn (`on_turn_end`, requested by `on_tile_placed` for
//!   bazaar tiles and when a won tile is the turn's: `hooks_on_request`) whose placed tile
//!   carries the marker `bazaar`, an auction is held if the supply holds at least one tile
//!   per player. A tile
//!   placed from an auction ([`BazaarState::from_auction`]) starts none, and none starts
//!   while tiles won at an auction are still to be played ([`BazaarState::queue`]).
//! - BAZAAR-2: one tile per player leaves the top of the supply face up (a note lists them;
//!   with a forced draw order the next ones of it). The auction is a chain of plugin
//!   decisions ([`Auction`]): the chooser (in turn order from the seat after the bazaar
//!   player, skipping seats that won a tile, starting after the last chooser) picks a tile
//!   (`choose_tile`) and bids (`bid`, from 0 to its limit, [`Bazaar::limit`]: its own score
//!   but none below 0, at most `max_bid`; `bid_limit = "max_bid"`: `max_bid` whatever the
//!   score); each other seat without a tile, in turn order after the chooser, raises once
//!   (`raise`, above the highest bid, up to its limit) or passes (a seat whose limit is not
//!   above the highest bid passes unasked); if someone raised, the chooser buys (`buy`:
//!   pays the highest bid to its bidder and takes the tile) or sells (`sell`: the highest
//!   bidder pays the chooser and takes it); if nobody raised, the chooser takes it and pays
//!   the bid to the bank. The last seat without a tile gets the last one free. Payments are score events
//!   of the extra source `bazaar` (reasons `bazaar buy`, `bazaar sale`, `bazaar bank`);
//!   scores may go below 0 (JCZ: a chooser who buys pays the raise whatever its score), a
//!   bid never beyond `max_bid`, so each seat pays at most `max_bid` per auction.
//!   `auction = "off"`: each chooser only picks a tile.
//! - BAZAAR-3: the won tiles replace the next draws: at the start of each turn
//!   (`on_turn_start`, requested while won tiles are due) whose seat is the next one in
//!   the queue (turn order from the seat after the bazaar player, that player last), the
//!   won tile is the turn's tile
//!   (`State::turn_tile`, [`TurnTile::Given`]), placed and followed by the figure action and
//!   scoring as any drawn tile; a won tile with no legal placement
//!   (`placement::has_placement`) is discarded (as BASE-4, counted in `State::discarded`) and
//!   the seat draws. While won tiles are due, the game goes on after the supply runs out
//!   (`game_goes_on`).
//! - Statistics: `bazaar_auctions`, `bazaar_buys`, `bazaar_sales`, `bazaar_bank`,
//!   `bazaar_free_tiles`, `bazaar_tiles_discarded`.
//! - Combinations (README interpretations): a won tile is handed out, not drawn, so draw
//!   effects (`on_tile_drawn`: a dragon tile set aside) do not see it; a builder's extra turn
//!   earned with a bazaar tile comes after the auction and draws as usual.

mod auction;

pub use auction::Auction;

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::placement::has_placement;
use carcassonne_core::plugin::{Hooks, Plugin, PluginState, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{LogEntry, State};
use carcassonne_core::{TileTypeId, TurnTile};
use serde::{Deserialize, Serialize};

/// Which of the set's tiles go into the supply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tiles {
    /// All 12 land tiles (BCB1-BCB12).
    #[default]
    All,
    /// Only the 8 bazaar tiles.
    Bazaars,
}

/// BAZAAR-3's option: whether tiles are auctioned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuctionMode {
    /// Bids, raises, buy or sell (BAZAAR-2).
    #[default]
    On,
    /// Each chooser takes a tile (JCZ `bazaar-no-auction`).
    Off,
}

/// BAZAAR-2: how high a seat may bid or raise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BidLimit {
    /// Up to the seat's own score (none below 0), at most `max_bid`.
    #[default]
    Score,
    /// Up to `max_bid` whatever the score (JCZ sets no limit).
    MaxBid,
}

/// Options of the bazaar.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bazaar {
    /// Tile set holding the expansion's land tiles.
    pub tile_set: String,
    /// 2 (C2 printing: BCB10 with a garden) or 1 (C1: BCB10c1).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    /// Which of the set's tiles go into the supply.
    pub tiles: Tiles,
    /// Whether the tiles are auctioned.
    pub auction: AuctionMode,
    /// How high a seat may bid or raise.
    pub bid_limit: BidLimit,
    /// The highest bid or raise (bids go from 0 to this, so the decision lists are finite).
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub max_bid: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    marker: u32,
    source: u8,
    auctions: usize,
    buys: usize,
    sales: usize,
    bank: usize,
    free: usize,
    discarded: usize,
}

impl Default for Bazaar {
    fn default() -> Self {
        Bazaar {
            tile_set: "bridges-bazaars".into(),
            edition: 2,
            tiles: Tiles::All,
            auction: AuctionMode::On,
            bid_limit: BidLimit::Score,
            max_bid: 10,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `bazaar`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "bazaar",
        summary: "Bridges, Castles & Bazaars' land tiles and bazaars: an auction after a bazaar tile's turn, \
                  the won tiles instead of the next draws (BAZAAR-1..3)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Bazaar>,
    }
}

/// Decision and action codes: choose a tile, bid, raise (or pass), buy or sell.
pub const CHOOSE: u16 = 1;
pub const BID: u16 = 2;
pub const RAISE: u16 = 3;
pub const SETTLE: u16 = 4;
/// `a` of a [`SETTLE`] action.
pub const BUY: i32 = 0;
pub const SELL: i32 = 1;

/// The plugin's game state.
#[derive(Debug, Default)]
pub struct BazaarState {
    /// The auction under way (BAZAAR-2), if any.
    pub auction: Option<Auction>,
    /// BAZAAR-3: the won tiles still to be played, in turn order (seat, tile).
    pub queue: Vec<(u8, TileTypeId)>,
    /// The current turn's tile was won at an auction (it starts none, BAZAAR-1).
    pub from_auction: bool,
}

carcassonne_core::clone_fields!(BazaarState { auction, queue, from_auction });

impl Bazaar {
    /// BAZAAR-2: the most seat `seat` may bid or raise to now.
    pub fn limit(&self, st: &State, seat: u8) -> i32 {
        match self.bid_limit {
            BidLimit::Score => self.max_bid.min(st.scores[seat as usize].max(0)),
            BidLimit::MaxBid => self.max_bid,
        }
    }

    fn limit_words(&self) -> String {
        match self.bid_limit {
            BidLimit::Score => format!("the seat's score, at most max_bid = {}", self.max_bid),
            BidLimit::MaxBid => format!("max_bid = {}", self.max_bid),
        }
    }
}

impl Plugin for Bazaar {
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
        "bazaar"
    }

    fn hooks(&self) -> Hooks {
        Hooks::TURN_START | Hooks::TILE_PLACED | Hooks::TURN_END | Hooks::QUERY
    }

    /// The turn's start only while won tiles are due, its end only after a bazaar tile or
    /// a won tile: requested when the queue fills (and again while it holds tiles), when a
    /// bazaar tile is placed and when a won tile is the turn's tile.
    fn hooks_on_request(&self) -> Hooks {
        Hooks::TURN_START | Hooks::TURN_END
    }

    /// Only a bazaar tile may start an auction.
    fn tile_hooks(&self, rules: &Rules, tile: carcassonne_core::TileTypeId) -> Hooks {
        carcassonne_core::plugin::marked(rules, tile, self.ids.marker, Hooks::TILE_PLACED)
    }

    /// BAZAAR-1: the turn of a bazaar tile ends with the auction check.
    fn on_tile_placed(&self, _rules: &Rules, st: &mut State, me: usize) {
        st.request_hook(me, Hooks::TURN_END);
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        self.ids.marker = reg.require_marker(&self.tile_set, "bazaar")?;
        self.ids.source = reg.extra_source("bazaar")?;
        self.ids.auctions = reg.stat("bazaar_auctions");
        self.ids.buys = reg.stat("bazaar_buys");
        self.ids.sales = reg.stat("bazaar_sales");
        self.ids.bank = reg.stat("bazaar_bank");
        self.ids.free = reg.stat("bazaar_free_tiles");
        self.ids.discarded = reg.stat("bazaar_tiles_discarded");
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        let first = self.edition == 1;
        match self.tiles {
            Tiles::All => setup.add_land_tiles(rules, &self.tile_set, first),
            Tiles::Bazaars => setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.marker, first),
        }
    }

    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(BazaarState::default()))
    }

    /// BAZAAR-3: the next won tile is this turn's tile, or is discarded if it fits nowhere.
    fn on_turn_start(&self, rules: &Rules, st: &mut State, me: usize) {
        let (seat, drawing) = (st.current, st.turn_tile == TurnTile::Draw);
        let s = st.plugin_mut::<BazaarState>(me);
        s.from_auction = false;
        let Some(&(next, tile)) = s.queue.first() else { return };
        // Won tiles are due: the next turn's start looks again.
        st.request_hook(me, Hooks::TURN_START);
        let s = st.plugin_mut::<BazaarState>(me);
        if next != seat || !drawing {
            return;
        }
        s.queue.remove(0);
        if has_placement(rules, st, tile) {
            st.plugin_mut::<BazaarState>(me).from_auction = true;
            // Its turn's end takes the mark back (a won tile starts no auction).
            st.request_hook(me, Hooks::TURN_END);
            st.turn_tile = TurnTile::Given(tile);
            st.note(rules, me, format_args!("seat {seat} plays the tile won at the bazaar"));
        } else {
            // As BASE-4: shown, removed from the game; the seat draws instead.
            st.discarded += 1;
            st.bump_stat(self.ids.discarded, 1);
            st.log_entry(LogEntry::Discarded { tile, reason: "no legal placement" });
        }
    }

    /// BAZAAR-1: after the turn of a bazaar tile (not one won at an auction), an auction
    /// if the supply holds a tile per player.
    fn on_turn_end(&self, rules: &Rules, st: &mut State, me: usize) {
        let s = st.plugin_mut::<BazaarState>(me);
        let won = std::mem::take(&mut s.from_auction);
        let due = !s.queue.is_empty();
        let Some((first, _)) = st.placed else { return };
        if won || due || st.part_markers(rules, first) & self.ids.marker == 0 || st.stack.len() < st.players {
            return;
        }
        self.start_auction(rules, st, me);
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["game_goes_on"])
    }

    /// BAZAAR-3: the game goes on while won tiles are to be played (no opinion otherwise).
    fn answer(&self, _rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        let s = st.plugin::<BazaarState>(me);
        (q.key == QueryKey::GAME_GOES_ON && (!s.queue.is_empty() || s.auction.is_some())).then_some(true)
    }

    fn decision_actions(&self, _rules: &Rules, st: &State, me: usize, d: &Decision, out: &mut Vec<Action>) {
        let Some(a) = st.plugin::<BazaarState>(me).auction.as_ref() else { return };
        let DecisionKind::Plugin { code, .. } = d.kind else { return };
        let act = |code: u16, a: i32| Action::Plugin { plugin: me as u8, code, a, b: 0 };
        match code {
            CHOOSE => {
                for (i, &t) in a.offer.iter().enumerate() {
                    if !a.offer[..i].contains(&t) {
                        out.push(act(CHOOSE, t as i32));
                    }
                }
            }
            BID => out.extend((0..=self.limit(st, d.player)).map(|n| act(BID, n))),
            RAISE => {
                out.push(Action::Pass);
                out.extend((a.bid + 1..=self.limit(st, d.player)).map(|n| act(RAISE, n)));
            }
            SETTLE => out.extend([act(SETTLE, BUY), act(SETTLE, SELL)]),
            _ => {}
        }
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let DecisionKind::Plugin { code, .. } = d.kind else { return };
        let n = match *a {
            Action::Plugin { a, .. } => Some(a),
            _ => None,
        };
        match code {
            CHOOSE => self.chosen(rules, st, me, n.unwrap_or_default() as TileTypeId),
            BID => self.bid(rules, st, me, n.unwrap_or_default()),
            RAISE => self.raised(rules, st, me, d.player, n),
            SETTLE => self.settle(rules, st, me, n == Some(SELL)),
            _ => {}
        }
    }

    fn describe_action(&self, rules: &Rules, _st: &State, _me: usize, a: &Action) -> serde_json::Value {
        use serde_json::json;
        match *a {
            Action::Plugin { code: CHOOSE, a, .. } => {
                let id = rules.catalog.tiles.get(a as usize).map(|t| t.id.as_str());
                json!({"action": "choose_tile", "tile": id})
            }
            Action::Plugin { code: BID, a, .. } => json!({"action": "bid", "points": a}),
            Action::Plugin { code: RAISE, a, .. } => json!({"action": "raise", "points": a}),
            Action::Plugin { code: SETTLE, a: BUY, .. } => json!({"action": "buy"}),
            Action::Plugin { code: SETTLE, .. } => json!({"action": "sell"}),
            _ => serde_json::Value::Null,
        }
    }

    fn explain_illegal(&self, _rules: &Rules, st: &State, me: usize, action: &serde_json::Value) -> Option<String> {
        let Some(a) = st.plugin::<BazaarState>(me).auction.as_ref() else {
            return Some("no bazaar auction is under way (BAZAAR-1)".into());
        };
        let max = match st.decision() {
            Some(d) => self.limit(st, d.player),
            None => self.max_bid,
        };
        Some(match action.get("action").and_then(|v| v.as_str()) {
            Some("bid") => format!(
                "a bid is from 0 to {max} points here ({}), once a tile is chosen (BAZAAR-2)",
                self.limit_words()
            ),
            Some("raise") => {
                format!(
                    "a raise is above the highest bid ({}) and at most {max} points here ({}) (BAZAAR-2)",
                    a.bid,
                    self.limit_words()
                )
            }
            Some("choose_tile") => "the chooser picks one of the tiles on offer, before bidding (BAZAAR-2)".into(),
            Some("buy" | "sell") => "the chooser buys or sells once every other seat raised or passed, and \
                                     only when someone raised (BAZAAR-2)"
                .into(),
            _ => return None,
        })
    }
}
