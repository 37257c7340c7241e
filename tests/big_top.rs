//! Under the Big Top (EXPANSIONS.md CIRCUS-1..4, ACROBATS-1..4, RINGMASTER-1..2) and its
//! combination rules with Fairy & Dragon (seed 001, "Cirkus a akrobaté"): a scenario with
//! exact points for every rule ID (forced draw orders; the animal tokens set in the bag
//! before they are drawn), each plugin alone with base, and 3,000 random games of
//! `config/big-top.toml` (figures and tokens conserved, tiles counted once, records replay).

mod common;

use std::sync::Arc;

use carcassonne_checks::check_state;
use carcassonne_cli::builtin::{load_rules_file, load_rules_text};
use carcassonne_core::{FeatureKind, Game, GameOptions, Rules, NEUTRAL};
use carcassonne_plugin_acrobats::AcrobatsState;
use carcassonne_plugin_circus::{CircusState, TOKENS};
use common::{pass, place, play};
use serde_json::{json, Value};

/// A rule set of base and `plugins` (name, priority) on the tile sets `tiles` (with base).
fn rules(plugins: &[(&str, i64)], tiles: &[&str]) -> Arc<Rules> {
    let mut text = String::from("name = \"big-top-test\"\n[tiles]\nbase = \"tiles/base.toml\"\n");
    for t in tiles {
        text.push_str(&format!("{t} = \"tiles/{t}.toml\"\n"));
    }
    text.push_str("[[plugins]]\nname = \"base\"\n");
    for (name, priority) in plugins {
        text.push_str(&format!("[[plugins]]\nname = \"{name}\"\npriority = {priority}\n"));
    }
    load_rules_text("config/big-top-test.toml", &text).unwrap()
}

fn big_top() -> Arc<Rules> {
    load_rules_file("config/big-top.toml").unwrap().0
}

fn start(rules: &Arc<Rules>, order: &[&str]) -> Game {
    let order = order.iter().map(|id| rules.catalog.id(id).unwrap()).collect();
    Game::start(rules.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: true }).unwrap()
}

fn legal(g: &Game) -> Vec<Value> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| g.describe(a)).collect()
}

fn stat(g: &Game, name: &str) -> i64 {
    g.st.stats[g.rules.stat(name).unwrap()]
}

fn source(g: &Game, seat: usize, name: &str) -> i32 {
    g.st.points_by_source[seat][g.rules.source(name).unwrap() as usize]
}

/// The next token drawn from the bag will be `value` (the only one left in it).
fn next_token(g: &mut Game, value: u8) {
    let me = g.rules.plugin_index("circus").unwrap();
    g.st.plugin_mut::<CircusState>(me).bag = vec![value];
}

fn circus(g: &Game) -> &CircusState {
    g.st.plugin::<CircusState>(g.rules.plugin_index("circus").unwrap())
}

/// Figures on the board: owner (None: neutral), kind, where.
fn figures(g: &Game) -> Vec<(Option<u8>, String, String)> {
    let (r, st) = (&g.rules, &g.st);
    let mut v: Vec<_> = st
        .figures
        .iter()
        .filter(|f| f.alive)
        .map(|f| {
            let owner = (f.owner != NEUTRAL).then_some(f.owner);
            (owner, r.figure_kinds[f.kind as usize].name.clone(), st.figure_place_name(r, f))
        })
        .collect();
    v.sort();
    v
}

fn figure(kind: &str, x: i32, y: i32, feature: &str) -> Value {
    json!({"type": "figure", "figure": kind, "cell": [x, y], "feature": feature})
}

fn acrobat(x: i32, y: i32) -> Value {
    figure("follower", x, y, "acrobats")
}

fn score_pyramid(x: i32, y: i32) -> Value {
    json!({"type": "plugin", "plugin": "acrobats", "action": "score", "cell": [x, y]})
}

fn finish(g: &mut Game) {
    assert!(g.is_over(), "the forced order is played out: {:?}", g.decision());
}

/// CIRCUS-1: 12 circus tiles and the 16 tokens; the circus alone with base.
#[test]
fn circus_1_the_tiles_and_the_sixteen_tokens() {
    let r = rules(&[("circus", 19)], &["big-top"]);
    let g = Game::new(r.clone(), 2, 1).unwrap();
    assert_eq!(g.st.stack.len() + 2, 72 + 12);
    let circus_bit = r.catalog.marker("circus");
    assert_eq!(g.st.stack.iter().filter(|&&t| r.catalog.tile(t).markers & circus_bit != 0).count(), 12);
    let bag = &circus(&g).bag;
    assert_eq!(bag.len(), 16);
    assert_eq!(bag.iter().map(|&v| u32::from(v)).sum::<u32>(), 1 + 4 * 3 + 5 * 4 + 3 * 5 + 2 * 6 + 7);
    assert_eq!(*bag, TOKENS);
    assert!(circus(&g).big_top.is_none());
    // gardens = false: CI10ng instead of CI10.
    let (r, _) = common::rules_with("config/big-top.toml", &[("gardens", "false")]);
    let g = Game::new(r.clone(), 2, 1).unwrap();
    let ids: Vec<&str> = g.st.stack.iter().map(|&t| r.catalog.tile(t).id.as_str()).collect();
    assert!(ids.contains(&"CI10ng") && !ids.contains(&"CI10"));
    assert!(ids.contains(&"CI1ng") && !ids.contains(&"CI1"));
}

/// CIRCUS-2..4: the big top comes with the first circus tile (nothing scores); the second
/// circus tile makes it perform after the turn's scoring (the road's follower already
/// home, the new city follower counted) and move; at the end it performs once more.
#[test]
fn circus_2_3_4_the_big_top_scores_on_its_move_and_at_the_end() {
    let r = big_top();
    let mut g = start(&r, &["CI9", "B", "CI15-16", "U"]);
    // Turn 1: seat 0, CI9 at (0,1) (road S ends at the circus), a follower on the road.
    next_token(&mut g, 4);
    play(&mut g, place("CI9", 0, 1, 0));
    play(&mut g, figure("follower", 0, 1, "road:S"));
    // CIRCUS-2: the big top over a face-down token, nothing scores.
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!(circus(&g).token, Some(4));
    assert!(figures(&g).contains(&(None, "big-top".into(), "(0,1)".into())));
    // Turn 2: seat 1, a monk on B at (1,1).
    play(&mut g, place("B", 1, 1, 0));
    play(&mut g, figure("follower", 1, 1, "monastery"));
    // Turn 3: seat 0, CI15-16 turned 180 at (0,2): road N closes the road (2 tiles), and a
    // follower on its city S.
    next_token(&mut g, 6);
    play(&mut g, place("CI15-16", 0, 2, 180));
    play(&mut g, figure("follower", 0, 2, "city:S"));
    // CIRCUS-3: road 2 to seat 0 first (its follower returns); then token 4 around (0,1):
    // seat 0's city follower at (0,2), seat 1's monk at (1,1): 4 each.
    assert_eq!(source(&g, 0, "road"), 2);
    assert_eq!([source(&g, 0, "circus"), source(&g, 1, "circus")], [4, 4]);
    assert_eq!(circus(&g).revealed, [4]);
    assert_eq!(circus(&g).token, Some(6));
    assert!(figures(&g).contains(&(None, "big-top".into(), "(0,2)".into())));
    assert_eq!(stat(&g, "big_top_moves"), 1);
    // Turn 4: seat 1, U at (-1,0), away from every follower.
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, pass());
    finish(&mut g);
    // CIRCUS-4: token 6 around (0,2): seat 0's city follower, seat 1's monk at (1,1).
    // Base: seat 0's city (1 tile) 1, seat 1's monastery 1 + 3 = 4.
    assert_eq!([source(&g, 0, "circus"), source(&g, 1, "circus")], [10, 10]);
    assert_eq!(g.scores(), [2 + 4 + 6 + 1, 4 + 6 + 4]);
    assert_eq!(circus(&g).revealed, [4, 6]);
    assert_eq!(stat(&g, "circus_points"), 20);
    assert_eq!(stat(&g, "animal_tokens_revealed"), 2);
}

/// CIRCUS-3: figures that are no followers do not count, a large meeple counts once: seat
/// 0's large meeple on CI9 beside the big top, seat 1's barn (no follower) on the corner
/// of (0,1), (1,1), (0,2) and (1,2).
#[test]
fn circus_3_counts_followers_not_other_figures() {
    let r = rules(&[("large-meeple", 5), ("barn", 70), ("circus", 19)], &["big-top"]);
    let mut g = start(&r, &["CI9", "B", "B", "U", "CI11"]);
    next_token(&mut g, 5);
    play(&mut g, place("CI9", 0, 1, 0));
    play(&mut g, figure("large", 0, 1, "road:S"));
    play(&mut g, place("B", 1, 1, 0));
    play(&mut g, pass());
    play(&mut g, place("B", 1, 2, 0));
    play(&mut g, pass());
    play(&mut g, place("U", 0, 2, 90));
    play(&mut g, json!({"type": "plugin", "plugin": "barn", "action": "place_barn", "cell": [0, 2], "corner": "NE"}));
    // Seat 0 places CI11 at (-1,0) (roads E and W end at its circus): the big top performs.
    next_token(&mut g, 3);
    play(&mut g, place("CI11", -1, 0, 0));
    play(&mut g, pass());
    // The last tile: the performance (token 5) and the final one (token 3 around (-1,0),
    // which reaches (0,1)).
    finish(&mut g);
    assert_eq!([source(&g, 0, "circus"), source(&g, 1, "circus")], [5 + 3, 0], "the large meeple counts once");
}

/// ACROBATS-1..3: three followers of two seats in one pyramid, placed from the tile just
/// placed and its neighbours; when it is complete no fourth goes on, and seat 1 scores it
/// as its figure action: 5 per follower, all return.
#[test]
fn acrobats_1_2_3_a_complete_pyramid_scored() {
    let r = big_top();
    let mut g = start(&r, &["CI1ng", "B", "B", "U"]);
    play(&mut g, place("CI1ng", 0, 1, 0));
    // ACROBATS-1: one space on the tile.
    let acts = legal(&g);
    assert_eq!(acts.iter().filter(|a| a.get("feature") == Some(&json!("acrobats"))).count(), 1);
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("B", 1, 1, 0));
    // ACROBATS-2: from the tile just placed, onto the space of a neighbour, shared.
    let acts = legal(&g);
    let on_space: Vec<&Value> = acts.iter().filter(|a| a.get("feature") == Some(&json!("acrobats"))).collect();
    assert_eq!(on_space, [&acrobat(0, 1)]);
    // Only the normal follower goes there (not the ringmaster, RINGMASTER-1).
    assert!(!acts.iter().any(|a| a["figure"] == "ringmaster" && a["feature"] == "acrobats"));
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("B", -1, 1, 0));
    play(&mut g, acrobat(0, 1));
    let sp = g.st.plugin::<AcrobatsState>(r.plugin_index("acrobats").unwrap()).spaces.clone();
    assert_eq!(sp.len(), 1);
    assert_eq!(g.st.graph.followers(sp[0]), 3);
    assert!(!g.st.is_complete(sp[0]), "an acrobat space never completes");
    assert_eq!(g.st.graph.node(sp[0]).kind, FeatureKind::Acrobats);
    // Turn 4: seat 1, U at (1,0) next to the full pyramid: no fourth acrobat, the scoring.
    play(&mut g, place("U", 1, 0, 0));
    let acts = legal(&g);
    assert!(!acts.iter().any(|a| a.get("feature") == Some(&json!("acrobats"))));
    assert!(acts.contains(&score_pyramid(0, 1)));
    play(&mut g, score_pyramid(0, 1));
    // ACROBATS-3: seat 0 two followers 10, seat 1 one 5; all home.
    assert_eq!(g.scores(), [10, 5]);
    assert_eq!(g.st.supply[0][0] + g.st.supply[1][0], 14);
    assert_eq!(stat(&g, "pyramids_scored"), 1);
    finish(&mut g);
    assert_eq!(g.scores(), [10, 5]);
}

/// ACROBATS-2, ACROBATS-4: no space farther than the 8 around the tile just placed; an
/// incomplete pyramid of two seats scores 5 per follower at the end, and cannot be scored
/// during the game.
#[test]
fn acrobats_4_an_incomplete_pyramid_at_the_end() {
    let r = rules(&[("acrobats", 15)], &["big-top"]);
    let mut g = start(&r, &["CI1ng", "U", "U"]);
    play(&mut g, place("CI1ng", 0, 1, 0));
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("U", 1, 0, 0));
    assert!(!legal(&g).contains(&score_pyramid(0, 1)), "two followers: not complete");
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("U", 2, 0, 0));
    assert!(!legal(&g).iter().any(|a| a.get("feature") == Some(&json!("acrobats"))), "(0,1) is two cells away");
    play(&mut g, pass());
    finish(&mut g);
    assert_eq!(g.scores(), [5, 5]);
    assert_eq!([source(&g, 0, "acrobats"), source(&g, 1, "acrobats")], [5, 5]);
}

/// RINGMASTER-1..2: the ringmaster on a road (not on an acrobat space); the road completes:
/// 2 points and 2 x (1 circus + 1 acrobat tile) = 4; later on a city, which is incomplete
/// at the end: 1 and 2 x (2 circus + 1 acrobat tiles) = 6. The big top performs on the
/// second circus tile and at the end.
#[test]
fn ringmaster_1_2_the_bonus_in_play_and_at_the_end() {
    let r = big_top();
    let mut g = start(&r, &["CI9", "CI2", "CI13", "U"]);
    next_token(&mut g, 3);
    play(&mut g, place("CI9", 0, 1, 0));
    play(&mut g, figure("ringmaster", 0, 1, "road:S"));
    // Seat 1: CI2 turned 180 at (0,2): its road N closes seat 0's road.
    play(&mut g, place("CI2", 0, 2, 180));
    // Seat 1's ringmaster: the field only (the road is seat 0's, no acrobat space).
    let ring: Vec<Value> = legal(&g).into_iter().filter(|a| a["figure"] == "ringmaster").collect();
    assert_eq!(ring, [figure("ringmaster", 0, 2, "field:Nw+Ne+En+Es+Se+Sw+Ws+Wn")]);
    play(&mut g, acrobat(0, 2));
    // RINGMASTER-2: road 2, bonus 4 (CI9 circus, CI2 acrobats around (0,1)); it returns.
    assert_eq!(g.scores(), [6, 0]);
    assert_eq!(source(&g, 0, "ringmaster"), 4);
    assert_eq!(g.st.supply[0][r.figure_kind("ringmaster").unwrap() as usize], 1);
    // Seat 0: CI13 at (1,1), the ringmaster on its city; the big top performs: token 3
    // around (0,1): seat 1's acrobat at (0,2), seat 0's ringmaster at (1,1).
    next_token(&mut g, 5);
    play(&mut g, place("CI13", 1, 1, 0));
    play(&mut g, figure("ringmaster", 1, 1, "city:N"));
    assert_eq!([source(&g, 0, "circus"), source(&g, 1, "circus")], [3, 3]);
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, pass());
    finish(&mut g);
    // End: city 1 + bonus 2 x 3 = 6 (circus (0,1), (1,1); acrobats (0,2)); token 5 around
    // (1,1): both; acrobats: seat 1 5.
    assert_eq!(source(&g, 0, "ringmaster"), 4 + 6);
    assert_eq!(g.scores(), [2 + 4 + 3 + 1 + 6 + 5, 3 + 5 + 5]);
    assert_eq!(stat(&g, "ringmaster_points"), 10);
}

/// RINGMASTER-2 (JCZ): the bonus whoever wins the feature, even for 0 points: seat 0's
/// ringmaster and seat 1's large meeple farm one field (joined round CI9's road end),
/// which seat 1 wins at the end with no completed city; seat 0 still gets 2 for CI9.
#[test]
fn ringmaster_2_paid_whoever_wins_the_feature() {
    let r = rules(&[("large-meeple", 5), ("ringmaster", 18), ("circus", 19)], &["big-top"]);
    let mut g = start(&r, &["U", "U", "CI9"]);
    next_token(&mut g, 4);
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, figure("ringmaster", 1, 0, "field:Nw+Ne+En+Wn"));
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, figure("large", -1, 0, "field:Es+Se+Sw+Ws"));
    play(&mut g, place("CI9", 2, 0, 90));
    play(&mut g, pass());
    finish(&mut g);
    // The field: seat 1 (strength 2) wins 0 points; seat 0's ringmaster at (1,0) has CI9
    // at (2,0) around it: 2. The big top (token 4) on (2,0) sees the ringmaster only.
    assert_eq!([source(&g, 0, "field"), source(&g, 1, "field")], [0, 0]);
    assert_eq!(source(&g, 0, "ringmaster"), 2);
    assert_eq!(g.scores(), [2 + 4, 0]);
}

/// Seed 001: the classic dragon eats the ringmaster, not the big top (nor its token).
#[test]
fn the_dragon_eats_the_ringmaster_not_the_big_top() {
    let r = rules(&[("ringmaster", 18), ("circus", 19), ("dragon", 20)], &["princess-dragon", "big-top"]);
    let mut g = start(&r, &["CI11", "PDV1", "PDD1", "U"]);
    next_token(&mut g, 7);
    play(&mut g, place("CI11", 1, 0, 0));
    play(&mut g, figure("ringmaster", 1, 0, "road:E"));
    play(&mut g, place("PDV1", 1, 1, 0));
    play(&mut g, pass());
    play(&mut g, place("PDD1", 0, 1, 180));
    play(&mut g, pass());
    let step = |x: i32, y: i32| json!({"type": "plugin", "plugin": "dragon", "action": "step", "cell": [x, y]});
    play(&mut g, step(1, 0));
    play(&mut g, step(0, 0));
    play(&mut g, step(0, 1));
    assert_eq!(stat(&g, "dragon_eaten"), 1);
    assert_eq!(g.st.supply[0][r.figure_kind("ringmaster").unwrap() as usize], 1, "the ringmaster is home");
    let figs = figures(&g);
    assert!(figs.contains(&(None, "big-top".into(), "(1,0)".into())), "{figs:?}");
    assert_eq!(circus(&g).token, Some(7));
    play(&mut g, place("U", -1, 0, 0));
    play(&mut g, pass());
    finish(&mut g);
    // CIRCUS-4 with nobody around (1,0): nothing.
    assert_eq!(g.scores(), [0, 0]);
}

/// Seed 001: the 2025 fairy goes to an acrobat in a full pyramid; the 2025 dragon entering
/// its tile eats the two other acrobats, the fairy and its acrobat stay; the acrobat's 5
/// at the end give no fairy points. (The tiles of scenario fd-dragon-meets-fairy, with
/// CI2 for A: its road ends at the acrobat space.)
#[test]
fn the_2025_fairy_on_an_acrobat_and_the_2025_dragon() {
    let r = rules(&[("acrobats", 15), ("dragon-2025", 20), ("fairy-2025", 30)], &["fairy-dragon", "big-top"]);
    let mut g = start(&r, &["CI2", "B", "W", "FDL1", "FDL1", "B", "FDD3", "FDD4", "B"]);
    play(&mut g, place("CI2", 1, 0, 90));
    play(&mut g, acrobat(1, 0));
    play(&mut g, place("B", 2, 0, 0));
    play(&mut g, acrobat(1, 0));
    // The road (-1,0)-(1,0) completes with no follower: seat 0 may assign the fairy, to
    // its acrobat only.
    play(&mut g, place("W", -1, 0, 180));
    play(&mut g, pass());
    let assign = json!({"type": "plugin", "plugin": "fairy-2025", "action": "assign_fairy", "at": "(1,0) acrobats"});
    assert_eq!(legal(&g), [assign.clone(), json!({"type": "pass"})]);
    play(&mut g, assign);
    // Seat 1 places the lair at (0,1) and its second acrobat on (1,0): the pyramid is full.
    play(&mut g, place("FDL1", 0, 1, 0));
    play(&mut g, acrobat(1, 0));
    play(&mut g, place("FDL1", 3, 0, 0));
    assert!(legal(&g).contains(&score_pyramid(1, 0)));
    play(&mut g, pass());
    play(&mut g, place("B", -1, 1, 0));
    play(&mut g, pass());
    // Seat 0 draws FDD3: the dragon moves W from (3,0) and enters (1,0), the fairy's tile.
    play(&mut g, place("FDD3", -1, -1, 0));
    play(&mut g, pass());
    let figs = figures(&g);
    assert_eq!(figs, [(None, "fairy".into(), "(1,0)".into()), (Some(0), "follower".into(), "(1,0) acrobats".into())]);
    assert_eq!(g.st.supply[1][0], 7, "seat 1's two acrobats were eaten");
    play(&mut g, place("FDD4", -2, 0, 0));
    play(&mut g, pass());
    play(&mut g, json!({"type": "plugin", "plugin": "dragon-2025", "action": "put_on_lair", "cell": [0, 1]}));
    play(&mut g, json!({"type": "plugin", "plugin": "dragon-2025", "action": "orient", "face": "W"}));
    play(&mut g, place("B", 1, 1, 0));
    play(&mut g, pass());
    finish(&mut g);
    // ACROBATS-4: 5 to seat 0, no fairy points for it.
    assert_eq!(g.scores(), [5, 0]);
    assert_eq!(source(&g, 0, "fairy"), 0);
}

/// Seed 001: the classic fairy may join an acrobat on top of a full pyramid; the classic
/// dragon does not enter its tile (PD-DRAGON-5), and the acrobats' points at the end give
/// no fairy points.
#[test]
fn the_classic_fairy_on_an_acrobat_gives_no_points_for_acrobats() {
    let r = rules(&[("acrobats", 15), ("fairy", 30)], &["princess-dragon", "big-top"]);
    let mut g = start(&r, &["CI1ng", "B", "B", "U"]);
    play(&mut g, place("CI1ng", 0, 1, 0));
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("B", 1, 1, 0));
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("B", -1, 1, 0));
    play(&mut g, acrobat(0, 1));
    // Seat 1 puts the fairy next to its acrobat, the third in the pyramid.
    play(&mut g, place("U", 1, 0, 0));
    let fairy = json!({"type": "plugin", "plugin": "fairy", "action": "move_fairy", "next_to": "follower", "at": "(0,1) acrobats"});
    assert!(legal(&g).contains(&fairy));
    play(&mut g, fairy);
    finish(&mut g);
    // ACROBATS-4: 10 and 5; no fairy points (no turn start of seat 1 after it, and
    // acrobat scorings are extra).
    assert_eq!(g.scores(), [10, 5]);
    assert_eq!(source(&g, 1, "fairy"), 0);
}

/// Seed 001: through the portal a normal follower goes onto any acrobat space with room
/// (here one with a follower, three cells away), never the ringmaster; a portal tile next
/// to the space offers it once; a full pyramid is no target.
#[test]
fn the_portal_onto_an_acrobat_space() {
    let r = rules(&[("acrobats", 15), ("ringmaster", 18), ("portal", 40)], &["princess-dragon", "big-top"]);
    let mut g = start(&r, &["CI1ng", "U", "U", "PDG2", "PDG2", "B"]);
    play(&mut g, place("CI1ng", 0, 1, 0));
    play(&mut g, acrobat(0, 1));
    play(&mut g, place("U", 1, 0, 0));
    play(&mut g, pass());
    play(&mut g, place("U", 2, 0, 0));
    play(&mut g, pass());
    // Seat 1: the portal PDG2 at (3,0).
    play(&mut g, place("PDG2", 3, 0, 0));
    let acts = legal(&g);
    let on_space: Vec<&Value> = acts.iter().filter(|a| a.get("feature") == Some(&json!("acrobats"))).collect();
    assert_eq!(on_space, [&acrobat(0, 1)]);
    // The ringmaster travels by the usual rules: onto the open road, not onto the space.
    assert!(acts.contains(&figure("ringmaster", 1, 0, "road:E+W")));
    play(&mut g, acrobat(0, 1));
    assert_eq!(stat(&g, "portal_placements"), 1);
    // Seat 0: the portal PDG2 at (-1,1) turned 90, next to the space: offered once.
    play(&mut g, place("PDG2", -1, 1, 90));
    let acts = legal(&g);
    assert_eq!(acts.iter().filter(|a| **a == acrobat(0, 1)).count(), 1);
    play(&mut g, acrobat(0, 1));
    // Seat 1: B at (1,1): the pyramid is full; scored by seat 1.
    play(&mut g, place("B", 1, 1, 0));
    let acts = legal(&g);
    assert!(!acts.iter().any(|a| a.get("feature") == Some(&json!("acrobats"))));
    play(&mut g, score_pyramid(0, 1));
    assert_eq!(g.scores(), [10, 5]);
    finish(&mut g);
}

/// Each plugin works alone with base: random games of base with each of them.
#[test]
fn each_plugin_alone_with_base() {
    for (plugin, priority) in [("circus", 19), ("acrobats", 15), ("ringmaster", 18)] {
        let r = rules(&[(plugin, priority)], &["big-top"]);
        for seed in 0..100 {
            common::play_checked(&r, 2 + (seed % 4) as usize, seed, false, None, check_state);
        }
    }
}

/// The 16 tokens are in the bag, under the big top or revealed, each once; the big top is
/// on a circus tile once the first is placed; at most 3 followers on an acrobat space, only
/// normal followers there.
fn big_top_invariants(g: &Game) {
    check_state(g);
    let (r, st) = (&g.rules, &g.st);
    let c = circus(g);
    let mut all: Vec<u8> = c.bag.iter().chain(c.token.iter()).chain(c.revealed.iter()).copied().collect();
    all.sort();
    assert_eq!(all, TOKENS, "turn {}: tokens", st.turn);
    let circus_bit = r.catalog.marker("circus");
    let circus_tiles = st.board.parts.iter().filter(|p| p.markers & circus_bit != 0).count();
    let tops: Vec<_> =
        st.figures.iter().filter(|f| f.alive && r.figure_kinds[f.kind as usize].name == "big-top").collect();
    match c.big_top {
        None => assert!(tops.is_empty() && circus_tiles == 0, "turn {}", st.turn),
        Some(id) => {
            assert_eq!(tops.len(), 1, "turn {}: one big top", st.turn);
            let f = &st.figures[id as usize];
            assert!(f.alive && f.owner == NEUTRAL && f.node.is_none());
            assert!(
                st.board.parts[f.part as usize].markers & circus_bit != 0,
                "turn {}: the big top on a circus tile",
                st.turn
            );
            // One token drawn per circus tile placed (the current one under the top).
            let moves = c.revealed.len() + usize::from(c.token.is_some());
            let pending = usize::from(c.next.is_some());
            assert_eq!(moves + pending, circus_tiles.min(16), "turn {}: tokens drawn", st.turn);
        }
    }
    let follower = r.figure_kind("follower").unwrap();
    for f in st.figures.iter().filter(|f| f.alive) {
        if let Some(n) = f.node {
            if st.graph.node(n).kind == FeatureKind::Acrobats {
                assert_eq!(f.kind, follower, "turn {}: only normal followers on acrobat spaces", st.turn);
                assert!(st.graph.followers(n) <= 3, "turn {}: a pyramid of at most 3", st.turn);
            }
        }
    }
}

/// The big top with the classic Princess & Dragon and with Fairy & Dragon 2025 (and the
/// large meeple, the barn, the wagon): 300 checked random games each.
#[test]
fn random_big_top_games_with_the_dragons_fairies_and_portal() {
    let sets = [
        (
            vec![
                ("large-meeple", 5),
                ("acrobats", 15),
                ("wagon", 17),
                ("ringmaster", 18),
                ("circus", 19),
                ("dragon", 20),
                ("fairy", 30),
                ("portal", 40),
                ("barn", 70),
            ],
            vec!["princess-dragon", "abbey-mayor", "big-top"],
            // 72 + 6 volcanoes, 12 dragon tiles, 6 portals + 20 (dragon tiles set aside
            // are not in the stack at the start).
            Some(116),
        ),
        (
            vec![("acrobats", 15), ("ringmaster", 18), ("circus", 19), ("dragon-2025", 20), ("fairy-2025", 30)],
            vec!["fairy-dragon", "big-top"],
            None,
        ),
    ];
    let names = ["big_top_moves", "circus_points", "acrobats_placed", "pyramids_scored", "ringmaster_points"];
    for (plugins, tiles, count) in sets {
        let r = rules(&plugins, &tiles);
        let mut totals = [0i64; 5];
        for seed in 0..300 {
            let g = common::play_checked(&r, 2 + (seed % 4) as usize, seed, false, count, big_top_invariants);
            for (t, n) in totals.iter_mut().zip(names) {
                *t += stat(&g, n);
            }
        }
        for (t, n) in totals.iter().zip(names) {
            assert!(*t > 0, "{plugins:?}: {n} is 0 in 300 games");
        }
    }
}

#[test]
fn three_thousand_random_big_top_games() {
    let (r, text) = load_rules_file("config/big-top.toml").unwrap();
    common::run_checked_games("config/big-top.toml", &r, &text, 3000, None, 1, big_top_invariants);
    common::assert_same_seed_same_game(&r, 3, 92, big_top_invariants);
}
