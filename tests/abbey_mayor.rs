//! Abbey & Mayor's abbey and wagon (EXPANSIONS.md ABBEY-1..4, WAGON-1..4) over random
//! games: 3,000 games of `config/abbey-mayor.toml` at 2 to 5 players (and 1,000 with the
//! wagon's 1st-edition move), checked after every action (the state invariants: figures
//! conserved, edges matching, scores by source), every tenth replayed from its record:
//! every land tile placed or discarded, each seat's abbey in hand or on the board exactly
//! once, the abbey only in a cell with four neighbours and never drawn, the abbey's list of
//! such cells (ABBEY-2) complete; every rule ID has a scenario.

mod common;

use carcassonne_checks::check_state;
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::Game;
use carcassonne_plugin_abbey::AbbeyState;

const IDS: &[&str] = &["ABBEY-1", "ABBEY-2", "ABBEY-3", "ABBEY-4", "WAGON-1", "WAGON-2", "WAGON-3", "WAGON-4"];

#[test]
fn every_abbey_and_wagon_rule_id_has_a_scenario() {
    let covered = common::scenario_rule_ids();
    let missing: Vec<&&str> = IDS.iter().filter(|id| !covered.contains(**id)).collect();
    assert!(missing.is_empty(), "rule IDs without a scenario: {missing:?}");
}

/// ABBEY-1, ABBEY-2: each seat's abbey is in hand or on the board, once; every abbey on
/// the board has four neighbours.
fn abbeys(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    check_state(g);
    let me = r.plugin_index("abbey").unwrap();
    let s = st.plugin::<AbbeyState>(me);
    let abbey = r.catalog.id("AM0").unwrap();
    let on: Vec<_> = st.board.parts.iter().filter(|p| p.tile == abbey).collect();
    let in_hand = usize::from(st.tile == Some(abbey));
    assert_eq!(on.len() + in_hand + s.has.count_ones() as usize, st.players, "turn {}: abbeys", st.turn);
    for p in on {
        let n = carcassonne_core::Side::ALL.iter().filter(|&&d| st.board.is_placed(p.pos.step(d))).count();
        assert_eq!(n, 4, "turn {}: the abbey at {} has {n} neighbours", st.turn, p.pos);
    }
    assert!(!st.stack.contains(&abbey), "the abbey is never in the supply");
    // ABBEY-2's holes, gathered as tiles are placed (while a seat has its abbey): the empty
    // cells with four placed neighbours, every one of them.
    if s.has != 0 {
        let four =
            |p: carcassonne_core::Pos| carcassonne_core::Side::ALL.iter().all(|&d| st.board.is_placed(p.step(d)));
        let mut want: Vec<_> = st.board.frontier().iter().copied().filter(|&p| four(p)).collect();
        let mut got: Vec<_> = s.holes.iter().copied().filter(|&p| !st.board.is_placed(p)).collect();
        want.sort_by_key(|p| (p.x, p.y));
        got.sort_by_key(|p| (p.x, p.y));
        assert_eq!(got, want, "turn {}: the abbey's holes", st.turn);
    }
}

#[test]
fn three_thousand_random_abbey_mayor_games() {
    let (r, text) = load_rules_file("config/abbey-mayor.toml").unwrap();
    assert_eq!(Game::new(r.clone(), 2, 1).unwrap().st.stack.len() + 2, 72 + 12);
    common::run_checked_games("config/abbey-mayor.toml", &r, &text, 3000, None, 1, abbeys);
}

#[test]
fn a_thousand_random_games_with_the_first_edition_wagon() {
    let (r, text) = common::rules_with("config/abbey-mayor.toml", &[("wagon_move", "\"c1\"")]);
    common::run_checked_games("config/abbey-mayor.toml", &r, &text, 1000, None, 5001, abbeys);
}

/// The scenario `name` replayed up to (not including) action `upto` of its turn `turn`
/// (later turns dropped), with the rules it names.
fn replay_until(name: &str, turn: u32, upto: usize) -> Game {
    let (mut rec, rules) = scenario(name);
    rec.turns.retain(|t| t.turn <= turn);
    let last = rec.turns.last_mut().unwrap();
    last.actions.truncate(upto);
    last.expect = None;
    carcassonne_core::replay::replay(&rec, rules, |_, _| Ok(())).unwrap()
}

fn scenario(name: &str) -> (carcassonne_core::record::GameRecord, std::sync::Arc<carcassonne_core::Rules>) {
    let path = format!("tests/scenarios/{name}.json");
    let rec: carcassonne_core::record::GameRecord =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rules = carcassonne_cli::builtin::rules_for_record(&rec.rules, &path).unwrap();
    (rec, rules)
}

/// The described legal actions, sorted.
fn legal(g: &Game) -> Vec<String> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    let mut v: Vec<String> = buf.iter().map(|a| g.describe(a).to_string()).collect();
    v.sort();
    v
}

fn moves(cells: &[(i32, i32, &str)]) -> Vec<String> {
    let mut v: Vec<String> = cells
        .iter()
        .map(|(x, y, f)| {
            serde_json::json!({"type": "plugin", "plugin": "wagon", "action": "move", "cell": [x, y], "feature": f})
                .to_string()
        })
        .chain([serde_json::json!({"type": "pass"}).to_string()])
        .collect();
    v.sort();
    v
}

/// WAGON-1: on S (-1,0) turned 270 the wagon may take the road and the city, not a field;
/// the follower may take the fields too.
#[test]
fn the_wagon_goes_on_roads_cities_and_monasteries_only() {
    let g = replay_until("wagon-move-c2", 1, 1);
    let wagon: Vec<String> = legal(&g).into_iter().filter(|a| a.contains("\"wagon\"")).collect();
    let want =
        |f: &str| serde_json::json!({"type": "figure", "figure": "wagon", "cell": [-1, 0], "feature": f}).to_string();
    assert_eq!(wagon, vec![want("city:N+S+W"), want("road:E")]);
    assert_eq!(legal(&g).iter().filter(|a| a.contains("\"follower\"")).count(), 4, "road, city, two fields");
    // On the abbey: the monastery (ABBEY-3).
    let g = replay_until("abbey-closes-road-and-city", 7, 2);
    let wagon: Vec<String> = legal(&g).into_iter().filter(|a| a.contains("\"wagon\"")).collect();
    assert_eq!(
        wagon,
        vec![serde_json::json!({"type": "figure", "figure": "wagon", "cell": [0, -1], "feature": "monastery"})
            .to_string()]
    );
}

/// WAGON-2 (c2) and WAGON-4 (c1): the exact targets after the road of the scenarios scores.
#[test]
fn the_freed_wagon_s_targets() {
    let g = replay_until("wagon-move-c2", 4, 2);
    assert_eq!(legal(&g), moves(&[(-1, 0, "city:N+S+W"), (0, 0, "city:N")]));
    let g = replay_until("wagon-move-c1", 4, 2);
    assert_eq!(legal(&g), moves(&[(-1, 0, "city:N+S+W"), (1, 1, "monastery")]));
}

/// WAGON-3: seat 2 decides first (after the active seat 1), then seat 0 without the
/// monastery seat 2's wagon took.
#[test]
fn two_freed_wagons_decide_in_turn_order() {
    let g = replay_until("wagon-two-freed", 5, 2);
    assert_eq!(g.decision().unwrap().player, 2);
    assert_eq!(legal(&g), moves(&[(2, 0, "monastery"), (2, 1, "monastery")]));
    let g = replay_until("wagon-two-freed", 5, 3);
    assert_eq!(g.decision().unwrap().player, 0);
    assert_eq!(legal(&g), moves(&[(0, 0, "city:N"), (2, 1, "monastery")]));
}

/// Replays scenario `name` with action `index` of turn `turn` replaced by `action`: the error.
fn replay_changed(name: &str, turn: u32, index: usize, action: serde_json::Value) -> String {
    let (mut rec, rules) = scenario(name);
    let t = rec.turns.iter_mut().find(|t| t.turn == turn).unwrap();
    t.actions[index] = action;
    carcassonne_core::replay::replay_full(&rec, rules).map(|_| ()).unwrap_err().to_string()
}

/// Bad records: the abbey into a cell without four neighbours, a wagon moved onto an
/// occupied or a completed feature: one line naming the turn and the reason.
#[test]
fn bad_abbey_and_wagon_moves_in_records_are_refused_with_the_turn_and_the_reason() {
    let e = replay_changed("abbey-closes-road-and-city", 7, 1, common::place("AM0", 2, -1, 0));
    assert_eq!(
        e,
        "turn 7: tile AM0 at (2,-1) rotation 0 is forbidden by plugin 'abbey': the abbey goes only into a cell \
         whose four neighbours hold tiles, and (2,-1) has fewer (ABBEY-2)"
    );
    let mv = |x: i32, y: i32, f: &str| serde_json::json!({"type": "plugin", "plugin": "wagon", "action": "move", "cell": [x, y], "feature": f, "player": 0});
    let e = replay_changed("wagon-two-freed", 5, 3, mv(2, 0, "monastery"));
    assert_eq!(
        e,
        "turn 5: {\"action\":\"move\",\"cell\":[2,0],\"feature\":\"monastery\",\"plugin\":\"wagon\",\"type\":\"plugin\"} \
         is not legal here: (2,0) monastery: that feature is occupied (WAGON-2)"
    );
    let e = replay_changed("wagon-two-freed", 5, 3, mv(1, 0, "road:S+W"));
    assert!(e.starts_with("turn 5: ") && e.ends_with("(1,0) road:S+W: that feature is completed (WAGON-2)"), "{e}");
    assert!(!e.contains('\n'));
}

/// Each everything rule set holds the abbey and the wagon: random games with every other
/// expansion's figures (dragons, fairies, portal, tower, castles, barn, large meeple,
/// builder and pig, shepherd, mayor), checked after every action, every tenth replayed.
#[test]
fn random_games_of_each_everything_rule_set_with_the_abbey_and_the_wagon() {
    for file in ["config/classic-everything.toml", "config/2025-everything.toml"] {
        let text = std::fs::read_to_string(file).unwrap();
        let r = carcassonne_cli::builtin::load_rules_text(file, &text).unwrap();
        assert!(r.plugin_index("abbey").is_some() && r.plugin_index("wagon").is_some(), "{file}");
        let games = std::env::var("CARC_EVERYTHING_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(500);
        common::run_checked_games(file, &r, &text, games, None, 1, abbeys);
    }
}

/// ABBEY-3 with the abbot (ABBOT-1): the abbey is a monastery, so the abbot may stand on
/// it, as the monk and the wagon may; it has no field for a farmer.
#[test]
fn the_abbot_may_stand_on_the_abbey() {
    let (mut rec, _) = scenario("abbey-closes-road-and-city");
    let text = std::fs::read_to_string("config/abbey-mayor.toml").unwrap()
        + "\n[[plugins]]\nname = \"abbot\"\npriority = 90\n";
    let rules = carcassonne_cli::builtin::load_rules_text("config/abbey-mayor.toml", &text).unwrap();
    rec.turns.retain(|t| t.turn <= 7);
    rec.turns[6].actions.truncate(2);
    rec.turns[6].expect = None;
    let g = carcassonne_core::replay::replay(&rec, rules, |_, _| Ok(())).unwrap();
    let on = |fig: &str| {
        serde_json::json!({"type": "figure", "figure": fig, "cell": [0, -1], "feature": "monastery"}).to_string()
    };
    let mut want = vec![on("abbot"), on("follower"), on("wagon"), serde_json::json!({"type": "pass"}).to_string()];
    want.sort();
    assert_eq!(legal(&g), want);
}

/// WAGON-4: `wagon_move` takes `c2` or `c1`; another word is a one-line error naming the
/// file, line and key.
#[test]
fn a_wagon_move_of_no_edition_is_refused() {
    let text = std::fs::read_to_string("config/abbey-mayor.toml")
        .unwrap()
        .replace("wagon_move = \"c2\"", "wagon_move = \"c3\"");
    let e = carcassonne_cli::builtin::load_rules_text("config/abbey-mayor.toml", &text).unwrap_err().to_string();
    assert_eq!(
        e,
        "config/abbey-mayor.toml:27: plugins 'wagon' options: `wagon_move`: unknown variant `c3`, expected `c2` or `c1`"
    );
}

/// Each plugin works alone with the base game: the wagon on the base tiles, the abbey with
/// or without the set's land tiles; 300 checked random games each, every tenth replayed.
#[test]
fn the_abbey_and_the_wagon_each_alone_with_the_base_game() {
    let head = "name = \"t\"\n[tiles]\nbase = \"tiles/base.toml\"\nabbey-mayor = \"tiles/abbey-mayor.toml\"\n\
                [[plugins]]\nname = \"base\"\n";
    let wagon = format!("{head}[[plugins]]\nname = \"wagon\"\npriority = 17\n");
    let r = carcassonne_cli::builtin::load_rules_text("config/t.toml", &wagon).unwrap();
    assert_eq!(Game::new(r.clone(), 2, 1).unwrap().st.stack.len() + 2, 72, "the wagon brings no tiles");
    common::run_checked_games("config/t.toml", &r, &wagon, 300, None, 1, check_state);
    for land in ["true", "false"] {
        let abbey =
            format!("{head}[[plugins]]\nname = \"abbey\"\npriority = 80\n[plugins.options]\nland_tiles = {land}\n");
        let r = carcassonne_cli::builtin::load_rules_text("config/t.toml", &abbey).unwrap();
        let tiles = if land == "true" { 84 } else { 72 };
        assert_eq!(Game::new(r.clone(), 2, 1).unwrap().st.stack.len() + 2, tiles);
        common::run_checked_games("config/t.toml", &r, &abbey, 300, None, 1, abbeys);
    }
}

/// AM2's two inner fields touch no side, so both would be named `field`: the second in the
/// tile's list is `field#2` (docs/notation.md), so that a record tells the two farmer
/// placements apart and replays the one that was played.
#[test]
fn a_tile_s_two_inner_fields_are_field_and_field_2() {
    let (rules, _) = load_rules_file("embedded:config/abbey-mayor.toml").unwrap();
    let order = Some(vec![rules.catalog.id("AM2").unwrap(), rules.catalog.id("AM2").unwrap()]);
    let opts = carcassonne_core::GameOptions { players: 2, seed: 0, tile_order: order, record: true };
    let mut g = Game::start(rules, opts).unwrap();
    // AM2 north of D: its south city closes on D's north city.
    common::play(&mut g, common::place("AM2", 0, -1, 0));
    let fields: Vec<String> =
        legal(&g).into_iter().filter(|a| a.contains("\"field") && a.contains("\"follower\"")).collect();
    assert_eq!(
        fields,
        [
            r#"{"cell":[0,-1],"feature":"field","figure":"follower","type":"figure"}"#,
            r#"{"cell":[0,-1],"feature":"field#2","figure":"follower","type":"figure"}"#,
        ]
    );
    // The second one is played and read back from its description: the farmer stands on
    // the tile's second field.
    let a = serde_json::json!({"type": "figure", "figure": "follower", "cell": [0, -1], "feature": "field#2"});
    common::play(&mut g, a);
    let f = g.st.figures.iter().find(|f| f.alive).unwrap();
    assert_eq!(g.st.figure_place_name(&g.rules, f), "(0,-1) field#2");
}
