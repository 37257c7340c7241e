//! BAZAAR-2: the auction as a chain of plugin decisions (choose, bid, raise or pass, buy or
//! sell), each pushed when the one before is answered.

use carcassonne_core::action::{Decision, DecisionKind};
use carcassonne_core::plugin::Hooks;
use carcassonne_core::rules::Rules;
use carcassonne_core::state::{State, MAX_PLAYERS};
use carcassonne_core::TileTypeId;

use crate::{AuctionMode, Bazaar, BazaarState, BID, CHOOSE, RAISE, SETTLE};

/// An auction under way.
#[derive(Clone, Debug, Default)]
pub struct Auction {
    /// The seat that placed the bazaar tile.
    pub bazaar_player: u8,
    /// The tiles still on offer (face up).
    pub offer: Vec<TileTypeId>,
    /// The tile each seat won so far.
    pub won: [Option<TileTypeId>; MAX_PLAYERS],
    /// The seat choosing now.
    pub chooser: u8,
    /// The tile it chose, once chosen.
    pub tile: Option<TileTypeId>,
    /// The highest bid so far and the seat that made it (the chooser until a raise).
    pub bid: i32,
    pub high: u8,
    /// The seats still to raise or pass, in turn order.
    pub raisers: Vec<u8>,
}

impl Auction {
    /// Seats in turn order after `seat` (`seat` last) that have no tile yet.
    fn without_tile(&self, players: usize, seat: u8) -> impl Iterator<Item = u8> + '_ {
        (1..=players).map(move |k| ((seat as usize + k) % players) as u8).filter(|&s| self.won[s as usize].is_none())
    }
}

fn auction(st: &mut State, me: usize) -> &mut Auction {
    st.plugin_mut::<BazaarState>(me).auction.as_mut().expect("an auction under way")
}

fn tile_id(rules: &Rules, t: TileTypeId) -> &str {
    rules.catalog.tiles[t as usize].id.as_str()
}

impl Bazaar {
    fn push(st: &mut State, me: usize, player: u8, code: u16) {
        st.push_decision(Decision { player, kind: DecisionKind::Plugin { plugin: me as u8, code, data: 0 } });
    }

    /// BAZAAR-2: one tile per player from the top of the supply, face up; the first chooser.
    pub(crate) fn start_auction(&self, rules: &Rules, st: &mut State, me: usize) {
        let n = st.players;
        let offer: Vec<TileTypeId> = (0..n).filter_map(|_| st.stack.pop()).collect();
        st.bump_stat(self.ids.auctions, 1);
        if st.log.is_some() {
            let ids: Vec<&str> = offer.iter().map(|&t| tile_id(rules, t)).collect();
            st.note(rules, me, format_args!("bazaar: {} on offer", ids.join(", ")));
        }
        let seat = st.current;
        st.plugin_mut::<BazaarState>(me).auction =
            Some(Auction { bazaar_player: seat, offer, chooser: seat, high: seat, ..Default::default() });
        self.next_chooser(rules, st, me, seat);
    }

    /// The next chooser in turn order after `after`; the last seat without a tile gets the
    /// last one free, and the auction ends.
    fn next_chooser(&self, rules: &Rules, st: &mut State, me: usize, after: u8) {
        let players = st.players;
        let a = auction(st, me);
        let left: Vec<u8> = a.without_tile(players, after).collect();
        let Some(&next) = left.first() else { return };
        if left.len() > 1 {
            a.chooser = next;
            a.tile = None;
            Self::push(st, me, next, CHOOSE);
            return;
        }
        let last = a.offer[0];
        self.award(rules, st, me, next, last);
        st.bump_stat(self.ids.free, 1);
        st.note(rules, me, format_args!("seat {next} takes the last tile, {}, free", tile_id(rules, last)));
        let s = st.plugin_mut::<BazaarState>(me);
        let a = s.auction.take().expect("an auction under way");
        // BAZAAR-3: the won tiles in turn order from the seat after the bazaar player.
        s.queue = (1..=players)
            .map(|k| ((a.bazaar_player as usize + k) % players) as u8)
            .map(|seat| (seat, a.won[seat as usize].expect("every seat won a tile")))
            .collect();
        st.request_hook(me, Hooks::TURN_START);
    }

    /// `seat` takes `tile` off the offer.
    fn award(&self, _rules: &Rules, st: &mut State, me: usize, seat: u8, tile: TileTypeId) {
        let a = auction(st, me);
        a.won[seat as usize] = Some(tile);
        if let Some(i) = a.offer.iter().position(|&t| t == tile) {
            a.offer.remove(i);
        }
    }

    /// The chooser picked `tile`: bid next (or, without auctions, take it).
    pub(crate) fn chosen(&self, rules: &Rules, st: &mut State, me: usize, tile: TileTypeId) {
        let a = auction(st, me);
        a.tile = Some(tile);
        let chooser = a.chooser;
        match self.auction {
            AuctionMode::On => Self::push(st, me, chooser, BID),
            AuctionMode::Off => {
                self.award(rules, st, me, chooser, tile);
                self.next_chooser(rules, st, me, chooser);
            }
        }
    }

    /// The chooser bid `points`: each other seat without a tile raises or passes in turn.
    pub(crate) fn bid(&self, rules: &Rules, st: &mut State, me: usize, points: i32) {
        let players = st.players;
        let a = auction(st, me);
        a.bid = points;
        a.high = a.chooser;
        let chooser = a.chooser;
        a.raisers = a.without_tile(players, chooser).filter(|&s| s != chooser).collect();
        self.next_raiser(rules, st, me);
    }

    /// A seat raised to `points` (None: passed).
    pub(crate) fn raised(&self, rules: &Rules, st: &mut State, me: usize, seat: u8, points: Option<i32>) {
        if let Some(p) = points {
            let a = auction(st, me);
            a.bid = p;
            a.high = seat;
        }
        self.next_raiser(rules, st, me);
    }

    /// The next seat to raise or pass; after the last, the chooser buys or sells, or (nobody
    /// raised) takes the tile and pays the bid to the bank.
    fn next_raiser(&self, rules: &Rules, st: &mut State, me: usize) {
        // A seat that cannot bid above the highest bid passes without being asked.
        while let Some(&next) = auction(st, me).raisers.first() {
            auction(st, me).raisers.remove(0);
            if self.limit(st, next) > auction(st, me).bid {
                Self::push(st, me, next, RAISE);
                return;
            }
        }
        let a = auction(st, me);
        let (chooser, high, bid, tile) = (a.chooser, a.high, a.bid, a.tile.expect("a chosen tile"));
        if high != chooser {
            Self::push(st, me, chooser, SETTLE);
            return;
        }
        if bid > 0 {
            st.score_other(chooser, -bid, self.ids.source, "bazaar bank");
        }
        st.bump_stat(self.ids.bank, 1);
        self.award(rules, st, me, chooser, tile);
        self.next_chooser(rules, st, me, chooser);
    }

    /// The chooser buys (pays the highest bidder, takes the tile) or sells (the highest
    /// bidder pays the chooser and takes it).
    pub(crate) fn settle(&self, rules: &Rules, st: &mut State, me: usize, sell: bool) {
        let a = auction(st, me);
        let (chooser, high, bid, tile) = (a.chooser, a.high, a.bid, a.tile.expect("a chosen tile"));
        let (payer, payee, taker, reason, stat) = if sell {
            (high, chooser, high, "bazaar sale", self.ids.sales)
        } else {
            (chooser, high, chooser, "bazaar buy", self.ids.buys)
        };
        st.score_other(payer, -bid, self.ids.source, reason);
        st.score_other(payee, bid, self.ids.source, reason);
        st.bump_stat(stat, 1);
        self.award(rules, st, me, taker, tile);
        self.next_chooser(rules, st, me, chooser);
    }
}
