//! Bazaars (EXPANSIONS.md BAZAAR-1..3) in `config/bridges-bazaars.toml`: hand-worked
//! scenarios with a forced draw order for every rule ID (exact scores, deciding seats,
//! legal actions, the turns' tiles), and 3,000 random games checked after every action
//! (figures conserved, every tile counted once: in the supply, on offer, won, in hand,
//! placed or discarded; every tenth replayed from its record).

mod common;

use carcassonne_checks::check_state;
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::record::GameRecord;
use carcassonne_core::{Game, GameOptions};
use carcassonne_plugin_bazaar::BazaarState;
use common::{pass, place, play};
use serde_json::{json, Value};

const RULES: &str = "config/bridges-bazaars.toml";

/// A recorded game of `players` on the rule set drawing `order`, with bids up to `max_bid`
/// whatever the score (`bid_limit = "max_bid"`) and the options `opts`.
fn game(players: usize, order: &[&str], opts: &[(&str, &str)]) -> Game {
    let mut all = vec![("bid_limit", "\"max_bid\"")];
    all.extend_from_slice(opts);
    let (rules, _) = common::rules_with(RULES, &all);
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap_or_else(|| panic!("no tile {id}"))).collect();
    Game::start(rules, GameOptions { players, seed: 1, tile_order: Some(order), record: true }).unwrap()
}

/// A bazaar action in record form.
fn bz(action: &str, extra: Value) -> Value {
    let mut v = json!({"type": "plugin", "plugin": "bazaar", "action": action});
    if let Value::Object(m) = extra {
        for (k, x) in m {
            v[k] = x;
        }
    }
    v
}

fn choose(tile: &str) -> Value {
    bz("choose_tile", json!({"tile": tile}))
}

fn bid(points: i32) -> Value {
    bz("bid", json!({"points": points}))
}

fn raise(points: i32) -> Value {
    bz("raise", json!({"points": points}))
}

/// The seat of the current decision.
fn seat(g: &Game) -> u8 {
    g.decision().unwrap().player
}

/// The described legal actions, in order.
fn legal(g: &Game) -> Vec<Value> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| g.describe(a)).collect()
}

fn state(g: &Game) -> &BazaarState {
    g.st.plugin::<BazaarState>(g.rules.plugin_index("bazaar").unwrap())
}

fn stat(g: &Game, name: &str) -> i64 {
    g.st.stats[g.rules.stat(name).unwrap()]
}

fn tile(g: &Game) -> &str {
    &g.rules.catalog.tiles[g.st.tile.unwrap() as usize].id
}

/// The record of the game so far, turn by turn: (turn, seat, tile placed, discarded).
fn turns(g: &Game) -> Vec<(u32, u8, Option<String>, Vec<String>)> {
    let rec = GameRecord::from_game(g, RULES, None, 1);
    rec.turns.into_iter().map(|t| (t.turn, t.player, t.tile, t.discarded)).collect()
}

/// BAZAAR-1, BAZAAR-2 (a raise and a sale; the last seat's free tile), BAZAAR-3 (the won
/// tiles in turn order from the seat after the bazaar player, each a normal turn).
#[test]
fn bazaar_auction_with_a_raise_and_a_sale() {
    let mut g = game(2, &["BCB1", "B", "E", "U", "V"], &[]);
    // Turn 1, seat 0: the bazaar tile south of the start tile; no figure.
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    // BAZAAR-1: after the turn, an auction (4 tiles left, 2 players): B and E on offer.
    assert_eq!(g.st.turn, 1);
    assert_eq!(state(&g).auction.as_ref().unwrap().offer.len(), 2);
    assert_eq!(g.st.stack.len(), 2);
    // BAZAAR-2: seat 1 (after the bazaar player) chooses among the two tiles.
    assert_eq!(seat(&g), 1);
    assert_eq!(legal(&g), [choose("B"), choose("E")]);
    play(&mut g, choose("B"));
    assert_eq!(seat(&g), 1);
    assert_eq!(legal(&g), (0..=10).map(bid).collect::<Vec<_>>(), "bids 0 to max_bid");
    play(&mut g, bid(2));
    // Seat 0 raises once or passes: above 2, at most 10.
    assert_eq!(seat(&g), 0);
    let mut want = vec![pass()];
    want.extend((3..=10).map(raise));
    assert_eq!(legal(&g), want);
    play(&mut g, raise(5));
    // Seat 1 buys or sells; it sells: seat 0 pays 5 to seat 1 and takes B.
    assert_eq!(seat(&g), 1);
    assert_eq!(legal(&g), [bz("buy", json!({})), bz("sell", json!({}))]);
    play(&mut g, bz("sell", json!({})));
    assert_eq!(g.scores(), [-5, 5]);
    // The last seat without a tile (seat 1) takes E free; the auction is over, and turn 2
    // has begun with seat 1's won tile (taken from the queue): seat 0's B waits.
    assert!(state(&g).auction.is_none());
    let ids =
        |q: &[(u8, u16)]| q.iter().map(|&(s, t)| (s, g.rules.catalog.tiles[t as usize].id.clone())).collect::<Vec<_>>();
    assert_eq!(ids(&state(&g).queue), [(0, "B".to_string())]);
    assert_eq!((stat(&g, "bazaar_sales"), stat(&g, "bazaar_free_tiles")), (1, 1));
    // BAZAAR-3: turn 2, seat 1 plays E instead of a draw: a normal turn. Its follower
    // completes the small city with the start tile; no castle (CASTLE-2 asks), 4 points.
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (2, 1, "E"));
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, json!({"type": "figure", "figure": "follower", "cell": [0, -1], "feature": "city:S"}));
    assert_eq!((seat(&g), legal(&g).len()), (1, 2), "build_castle or pass");
    play(&mut g, pass());
    assert_eq!(g.scores(), [-5, 9]);
    // Turn 3, seat 0 plays B; turn 4, seat 1 draws again (U, the next of the supply).
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (3, 0, "B"));
    play(&mut g, place("B", 1, 1, 0));
    play(&mut g, pass());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (4, 1, "U"));
    assert!(state(&g).queue.is_empty());
    let t = turns(&g);
    assert_eq!(
        t.iter().map(|x| (x.0, x.1, x.2.as_deref())).collect::<Vec<_>>()[..3],
        [(1, 0, Some("BCB1")), (2, 1, Some("E")), (3, 0, Some("B"))]
    );
    // The auction's decisions are in turn 1's record, each with its seat.
    let rec = GameRecord::from_game(&g, RULES, None, 1);
    let acts: Vec<(u64, Value)> = rec.turns[0]
        .actions
        .iter()
        .map(|a| {
            let mut a = a.clone();
            let p = a.as_object_mut().unwrap().remove("player").unwrap().as_u64().unwrap();
            (p, a)
        })
        .collect();
    assert_eq!(acts[2..], [(1, choose("B")), (1, bid(2)), (0, raise(5)), (1, bz("sell", json!({})))]);
}

/// BAZAAR-2 with 3 players: a raise and a buy; then nobody raises (the chooser pays the
/// bank); the last seat's free tile. BAZAAR-1: a bazaar tile won at an auction starts none.
/// BAZAAR-3: the order seat 1, seat 2, seat 0.
#[test]
fn a_buy_the_bank_and_a_bazaar_tile_from_an_auction() {
    let mut g = game(3, &["BCB1", "B", "E", "BCB12", "U", "V", "W"], &[]);
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    // Seat 1 chooses B and bids 1; seat 2 raises to 3, seat 0 passes; seat 1 buys:
    // it pays 3 to seat 2.
    assert_eq!(legal(&g), [choose("B"), choose("E"), choose("BCB12")]);
    play(&mut g, choose("B"));
    play(&mut g, bid(1));
    assert_eq!(seat(&g), 2);
    play(&mut g, raise(3));
    assert_eq!(seat(&g), 0);
    assert_eq!(legal(&g).len(), 1 + 7, "pass, raises 4 to 10");
    play(&mut g, pass());
    assert_eq!(seat(&g), 1);
    play(&mut g, bz("buy", json!({})));
    assert_eq!(g.scores(), [0, -3, 3]);
    // The next chooser after seat 1 without a tile: seat 2. It bids 2 on BCB12, seat 0
    // passes: nobody raised, seat 2 takes it and pays 2 to the bank.
    assert_eq!(seat(&g), 2);
    assert_eq!(legal(&g), [choose("E"), choose("BCB12")]);
    play(&mut g, choose("BCB12"));
    play(&mut g, bid(2));
    assert_eq!(seat(&g), 0);
    play(&mut g, pass());
    assert_eq!(g.scores(), [0, -3, 1]);
    // Seat 0, the last without a tile, gets E free.
    assert!(state(&g).auction.is_none());
    assert_eq!((stat(&g, "bazaar_buys"), stat(&g, "bazaar_bank"), stat(&g, "bazaar_free_tiles")), (1, 1, 1));
    // BAZAAR-3: seat 1 plays B, seat 2 BCB12, seat 0 E.
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (2, 1, "B"));
    play(&mut g, place("B", 1, 1, 0));
    play(&mut g, pass());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (3, 2, "BCB12"));
    play(&mut g, place("BCB12", 0, -1, 90));
    play(&mut g, pass());
    // BAZAAR-1: the bazaar tile came from the auction: no auction; seat 0 plays E.
    assert!(state(&g).auction.is_none());
    assert_eq!(stat(&g, "bazaar_auctions"), 1);
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (4, 0, "E"));
    play(&mut g, place("E", -1, 1, 0));
    play(&mut g, pass());
    // Then the supply again: seat 1 draws U.
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (5, 1, "U"));
    assert_eq!(g.scores(), [0, -3, 1]);
    // The payments are score events of the source `bazaar`.
    let rec = GameRecord::from_game(&g, RULES, None, 1);
    let events = serde_json::to_value(rec.turns[0].events.as_ref().unwrap()).unwrap();
    let score = |p: u8, points: i32, reason: &str| json!({"type": "score", "feature": null, "players": [p], "points": points, "reason": reason});
    let scores: Vec<&Value> = events.as_array().unwrap().iter().filter(|e| e["type"] == "score").collect();
    assert_eq!(scores, [&score(1, -3, "bazaar buy"), &score(2, 3, "bazaar buy"), &score(2, -2, "bazaar bank")]);
    let source = g.rules.source("bazaar").unwrap() as usize;
    assert_eq!((0..3).map(|s| g.st.points_by_source[s][source]).collect::<Vec<_>>(), [0, -3, 1]);
}

/// BAZAAR-1: too few tiles (1 left, 2 players): no auction; exactly as many as players:
/// an auction, and the game goes on after the supply runs out until both won tiles are
/// played (BAZAAR-3); the record replays to the same scores.
#[test]
fn too_few_tiles_start_no_auction() {
    let mut g = game(2, &["BCB1", "U"], &[]);
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    assert!(state(&g).auction.is_none());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (2, 1, "U"));
    assert_eq!(stat(&g, "bazaar_auctions"), 0);

    let mut g = game(2, &["BCB1", "U", "V"], &[]);
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    assert!(g.st.stack.is_empty());
    play(&mut g, choose("V"));
    play(&mut g, bid(0));
    play(&mut g, pass());
    assert_eq!(g.scores(), [0, 0], "a bid of 0 to the bank pays nothing");
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (2, 1, "V"));
    play(&mut g, place("V", 1, 0, 90));
    play(&mut g, pass());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (3, 0, "U"));
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, pass());
    assert!(g.is_over());
    let mut rec =
        GameRecord::from_game(&g, RULES, Some(&common::rules_with(RULES, &[("bid_limit", "\"max_bid\"")]).1), 1);
    rec.tile_order = Some(["BCB1", "U", "V"].map(String::from).to_vec());
    let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    let rules = carcassonne_cli::builtin::rules_for_record(&back.rules, "record").unwrap();
    assert_eq!(carcassonne_core::replay::replay_full(&back, rules).unwrap().scores(), g.scores());
}

/// BAZAAR-3: a won tile that fits nowhere (C, four city sides, when no open city side is
/// left) is discarded and the seat draws; the next seat plays its won tile.
#[test]
fn an_unplaceable_won_tile_is_discarded_and_a_tile_drawn() {
    let mut g = game(2, &["E", "BCB1", "C", "B", "U", "V"], &[]);
    // Seat 0 closes the start tile's city side with E (no follower: nothing scores).
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, pass());
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    // Seat 0 (after bazaar player 1) chooses C, bids 0, seat 1 passes; seat 1 gets B.
    assert_eq!(seat(&g), 0);
    play(&mut g, choose("C"));
    play(&mut g, bid(0));
    play(&mut g, pass());
    // Turn 3, seat 0: C has no legal placement: discarded, U drawn.
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (3, 0, "U"));
    assert_eq!((g.st.discarded, stat(&g, "bazaar_tiles_discarded")), (1, 1));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (4, 1, "B"));
    let t = turns(&g);
    assert_eq!((t[2].2.as_deref(), t[2].3.as_slice()), (Some("U"), &["C".to_string()][..]));
}

/// `auction = "off"` (BAZAAR-3's option): the chooser only picks a tile; nobody pays; the
/// last seat takes the other.
#[test]
fn without_auctions_each_chooser_takes_a_tile() {
    let mut g = game(2, &["BCB1", "B", "E", "U"], &[("auction", "\"off\"")]);
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    assert_eq!(seat(&g), 1);
    assert_eq!(legal(&g), [choose("B"), choose("E")]);
    play(&mut g, choose("E"));
    assert!(state(&g).auction.is_none());
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (2, 1, "E"));
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, pass());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (3, 0, "B"));
}

/// A record whose raise is not above the bid is refused with the bazaar's reason.
#[test]
fn an_illegal_raise_is_refused_with_a_reason() {
    let mut g = game(2, &["BCB1", "B", "E", "U"], &[]);
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    play(&mut g, choose("B"));
    play(&mut g, bid(4));
    let e = carcassonne_core::replay::parse_action(&g, &raise(4)).unwrap_err();
    assert!(
        e.contains("a raise is above the highest bid (4) and at most 10 points here (max_bid = 10) (BAZAAR-2)"),
        "{e}"
    );
}

/// BAZAAR-2 with the rule set's `bid_limit = "score"`: the chooser bids at most its score
/// (4 after its city); seat 1, with 0 points, cannot raise and is not asked: nobody raised,
/// so seat 0 pays its bid to the bank and seat 1 gets the other tile free.
#[test]
fn bids_go_up_to_the_bidder_s_score() {
    let (rules, _) = load_rules_file(RULES).unwrap();
    let order = ["E", "BCB1", "B", "V", "U"].iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    let mut g = Game::start(rules, GameOptions { players: 2, seed: 1, tile_order: Some(order), record: true }).unwrap();
    play(&mut g, place("E", 0, -1, 180));
    play(&mut g, json!({"type": "figure", "figure": "follower", "cell": [0, -1], "feature": "city:S"}));
    play(&mut g, pass());
    assert_eq!(g.scores(), [4, 0]);
    play(&mut g, place("BCB1", 0, 1, 0));
    play(&mut g, pass());
    assert_eq!(seat(&g), 0);
    play(&mut g, choose("B"));
    assert_eq!(legal(&g), (0..=4).map(bid).collect::<Vec<_>>());
    play(&mut g, bid(3));
    assert_eq!(g.scores(), [1, 0]);
    assert!(state(&g).auction.is_none());
    assert_eq!((g.st.turn, seat(&g), tile(&g)), (3, 0, "B"));
    let e = carcassonne_core::replay::parse_action(&g, &bid(1)).unwrap_err();
    assert!(e.contains("no bazaar auction is under way (BAZAAR-1)"), "{e}");
}

/// Bad options and a missing tile file: one-line errors naming the file, line and key.
#[test]
fn bad_bazaar_options_are_refused() {
    let text = std::fs::read_to_string(RULES).unwrap();
    let load = |t: &str| carcassonne_cli::builtin::load_rules_text(RULES, t).map(|_| ()).unwrap_err().to_string();
    assert_eq!(
        load(&text.replace("auction = \"on\"", "auction = \"maybe\"")),
        "config/bridges-bazaars.toml:37: plugins 'bazaar' options: `auction`: unknown variant `maybe`, expected `on` or `off`"
    );
    assert_eq!(
        load(&text.replace("bid_limit = \"score\"", "bid_limit = \"all\"")),
        "config/bridges-bazaars.toml:38: plugins 'bazaar' options: `bid_limit`: unknown variant `all`, expected `score` or `max_bid`"
    );
    let e = load(&text.replace("bridges-bazaars = \"tiles/bridges-bazaars.toml\"\n", ""));
    assert!(e.contains("tile set 'bridges-bazaars' is not loaded"), "{e}");
}

/// Every tile counted once: placed (land tiles), discarded, in the supply, drawn, on offer,
/// won or waiting in the queue; a won tile per seat at most; the queue in turn order; the
/// castle tokens conserved (CASTLE-1).
fn tiles_once(g: &Game) {
    check_state(g);
    let st = &g.st;
    let castle = st.plugin::<carcassonne_plugin_castle::CastleState>(g.rules.plugin_index("castle").unwrap());
    for seat in 0..st.players {
        let built = castle.castles.iter().filter(|c| c.owner == seat as u8).count();
        assert_eq!(built + castle.tokens[seat] as usize, carcassonne_plugin_castle::TOKENS[st.players] as usize);
    }
    let s = state(g);
    let placed = st.board.parts.iter().filter(|p| p.part == 0).count();
    let (offer, won) = s.auction.as_ref().map_or((0, 0), |a| (a.offer.len(), a.won.iter().flatten().count()));
    let total = placed + st.discarded as usize + st.stack.len() + usize::from(st.tile.is_some()) + offer + won;
    assert_eq!(total + s.queue.len(), 84, "turn {}: tiles counted once", st.turn);
    if s.auction.is_some() {
        assert_eq!(offer + won, st.players, "turn {}: one tile per player", st.turn);
    }
    for w in s.queue.windows(2) {
        assert_eq!(w[1].0 as usize, (w[0].0 as usize + 1) % st.players, "turn {}: queue order", st.turn);
    }
}

#[test]
fn three_thousand_random_bridges_bazaars_games() {
    let (r, text) = load_rules_file(RULES).unwrap();
    assert_eq!(Game::new(r.clone(), 2, 1).unwrap().st.stack.len() + 2, 72 + 12);
    common::run_checked_games(RULES, &r, &text, 3000, None, 1, tiles_once);
}

/// The same with `auction = "off"`, and with bids up to a high `max_bid` whatever the score.
#[test]
fn five_hundred_random_games_without_auctions_or_with_high_bids() {
    let (r, text) = common::rules_with(RULES, &[("auction", "\"off\"")]);
    common::run_checked_games(RULES, &r, &text, 300, None, 9001, tiles_once);
    let (r, text) = common::rules_with(RULES, &[("max_bid", "100"), ("bid_limit", "\"max_bid\"")]);
    common::run_checked_games(RULES, &r, &text, 200, None, 9501, tiles_once);
}
