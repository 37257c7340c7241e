//! The board picture (issue 22): every plugin draws its own pieces through
//! `Plugin::draw` and its figure looks; no notation word is printed on a tile; farmers lie;
//! figures sharing a spot are spread and neutral figures drawn on top; the legend lists
//! every piece drawn; the final picture shows only what stays on the board. Checked on the
//! SVG of recorded scenarios (outcomes worked out in their `about`) and of a
//! classic-everything game; every SVG is parsed as XML.

mod simulate_util;

use roxmltree::{Document, Node};
use simulate_util::{ok, scratch};

fn render(name: &str, record: &str, turn: Option<u32>) -> String {
    let out = scratch(&format!("picture-{name}")).join("board.svg");
    let mut args = vec!["render", record, "-o", out.to_str().unwrap()];
    let t = turn.map(|t| t.to_string());
    if let Some(t) = &t {
        args.extend(["--turn", t.as_str()]);
    }
    ok(&args);
    std::fs::read_to_string(out).unwrap()
}

fn parse(svg: &str) -> Document<'_> {
    Document::parse(svg).unwrap_or_else(|e| panic!("not valid XML: {e}"))
}

fn has_class(n: &Node, class: &str) -> bool {
    n.attribute("class").is_some_and(|c| c.split(' ').any(|x| x == class))
}

fn of_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants().filter(|n| has_class(n, class)).collect()
}

/// The text of an element without its `<title>` (hover text).
fn shown_text(n: &Node) -> String {
    n.descendants()
        .filter(|d| d.is_text() && !d.ancestors().any(|a| a.has_tag_name("title")))
        .map(|d| d.text().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `translate(x,y)` of an element.
fn translate(n: &Node) -> (f64, f64) {
    let t = n.attribute("transform").unwrap();
    let inner = &t[t.find("translate(").unwrap() + 10..];
    let inner = &inner[..inner.find(')').unwrap()];
    let v: Vec<f64> = inner.split(',').map(|x| x.trim().parse().unwrap()).collect();
    (v[0], v[1])
}

fn score_line(doc: &Document, seat: usize) -> String {
    let n = doc.descendants().find(|n| n.attribute("data-seat") == Some(&seat.to_string())).unwrap();
    shown_text(&n)
}

#[test]
fn a_tower_is_drawn_with_its_height_and_its_pieces_and_prisoners_in_the_supply() {
    // tower-capture-range: TO9 at (3,3) built to height 1, 2, then 3 in turns 14, 21, 22
    // (TOWER-2); the other three Tower tiles stay bare foundations. In turn 22 seat 0
    // captures seat 1's knight (TOWER-3): seat 0 holds one prisoner of seat 1. Three
    // players start with 9 pieces each and each built one.
    let svg = render("tower-22", "tests/scenarios/tower-capture-range.json", None);
    let doc = parse(&svg);
    let towers = of_class(&doc, "tower");
    let mut heights: Vec<&str> = towers.iter().map(|t| t.attribute("data-height").unwrap()).collect();
    heights.sort();
    assert_eq!(heights, ["0", "0", "0", "3"]);
    let built = towers.iter().find(|t| t.attribute("data-height") == Some("3")).unwrap();
    assert_eq!(shown_text(built).trim(), "3", "the height is written on the tower");
    assert_eq!(built.children().filter(|c| c.has_tag_name("rect")).count(), 1 + 3, "foundation and 3 pieces");
    // It stands on the tile of (3,3).
    let piece = built.parent().unwrap();
    let tile = doc.descendants().find(|n| n.attribute("data-cell") == Some("3,3")).unwrap();
    assert_eq!(translate(&piece), translate(&tile));
    assert_eq!(piece.children().find(|c| c.has_tag_name("title")).unwrap().text(), Some("tower of height 3"));
    assert!(score_line(&doc, 0).contains("8 tower pieces, 1 prisoner of seat 1"), "{}", score_line(&doc, 0));
    for seat in 1..3 {
        let line = score_line(&doc, seat);
        assert!(line.contains("8 tower pieces") && !line.contains("prisoner"), "seat {seat}: {line}");
    }
    // After turn 21 the tower is 2 high and nobody holds a prisoner.
    let doc21 = render("tower-21", "tests/scenarios/tower-capture-range.json", Some(21));
    let doc21 = parse(&doc21);
    assert!(of_class(&doc21, "tower").iter().any(|t| t.attribute("data-height") == Some("2")));
    assert!(!score_line(&doc21, 0).contains("prisoner"));
}

#[test]
fn farmers_lie_and_other_followers_stand() {
    // tower-capture-range after turn 21: seat 2's farmer on the tower's tile (3,3) is the
    // only follower in a field; the 16 others stand in monasteries and cities.
    let svg = render("farmers", "tests/scenarios/tower-capture-range.json", Some(21));
    let doc = parse(&svg);
    let figures = of_class(&doc, "figure");
    assert_eq!(figures.len(), 17);
    let lying: Vec<_> = figures.iter().filter(|f| has_class(f, "lying")).collect();
    assert_eq!(lying.len(), 1);
    assert_eq!(lying[0].attribute("data-owner"), Some("2"));
    assert!(lying[0].attribute("transform").unwrap().ends_with("rotate(90)"));
    let title = lying[0].children().find(|c| c.has_tag_name("title")).unwrap().text().unwrap();
    assert!(title.starts_with("seat 2 follower (farmer) at (3,3) field"), "{title}");
    for f in figures.iter().filter(|f| !has_class(f, "lying")) {
        assert!(!f.attribute("transform").unwrap().contains("rotate"), "a standing follower is not turned");
    }
    // The legend explains the lying meeple.
    assert!(of_class(&doc, "legend-entry").iter().any(|e| e.attribute("data-piece") == Some("farmer")));
}

#[test]
fn the_watchman_is_marked_and_the_2025_dragon_shows_its_facing() {
    // tower-watchman-captured: turn 3, seat 0's watchman on the tower of (0,1), 2 high
    // (TOWER-2); turn 4, seat 1's new tower captures it (TOWER-3, TOWER-5): no watchman,
    // seat 1 holds one prisoner of seat 0.
    let svg = render("watchman-3", "tests/scenarios/tower-watchman-captured.json", Some(3));
    let doc = parse(&svg);
    let badges = of_class(&doc, "badge");
    assert_eq!(badges.len(), 1);
    assert_eq!(
        badges[0].children().find(|c| c.has_tag_name("title")).unwrap().text(),
        Some("watchman of the tower of height 2")
    );
    let watchman = of_class(&doc, "figure");
    assert_eq!(watchman.len(), 1);
    let (fx, fy) = translate(&watchman[0]);
    assert_eq!(translate(&badges[0]), (fx + 11.0, fy - 11.0), "the badge sits at the watchman's upper right");
    assert!(!score_line(&doc, 1).contains("prisoner"));
    let svg = render("watchman-4", "tests/scenarios/tower-watchman-captured.json", Some(4));
    let doc = parse(&svg);
    assert!(of_class(&doc, "badge").is_empty());
    assert!(score_line(&doc, 1).contains("1 prisoner of seat 0"), "{}", score_line(&doc, 1));

    // combo-2025-sight-watchman: the dragon faces east, then seat 1 turns it north, then
    // west (FD-ORIENT-1, FD-DRAGON-2): the final picture shows it facing west; the lair at
    // (-1,1) has its icon.
    let svg = render("dragon-end", "tests/scenarios/combo-2025-sight-watchman.json", None);
    let doc = parse(&svg);
    let facing = of_class(&doc, "facing");
    assert_eq!(facing.len(), 1);
    assert_eq!(facing[0].attribute("data-facing"), Some("270"));
    assert_eq!(facing[0].attribute("transform"), Some("rotate(270)"));
    let lair = of_class(&doc, "icon").into_iter().find(|i| i.attribute("data-piece") == Some("lair")).unwrap();
    let tile = doc.descendants().find(|n| n.attribute("data-cell") == Some("-1,1")).unwrap();
    let (lx, ly) = translate(&lair);
    let (tx, ty) = translate(&tile);
    assert!(lx > tx && lx < tx + 100.0 && ly > ty && ly < ty + 100.0, "the lair icon is on its tile");
}

/// A classic-everything game played by bots, recorded.
fn classic_everything() -> String {
    let rec = scratch("picture-everything-game").join("everything.json");
    ok(&[
        "play",
        "--rules",
        "embedded:config/classic-everything.toml",
        "--seed",
        "3",
        "--record",
        rec.to_str().unwrap(),
    ]);
    rec.to_str().unwrap().to_string()
}

/// Checks that hold for every picture: no word printed on a tile or a piece of the board
/// (only numbers: heights, flocks, pennants), every piece drawn in the legend, figures
/// never sharing a position, neutral figures drawn after (over) the others and beside them.
fn check_picture(svg: &str) {
    let doc = parse(svg);
    for n in doc.descendants().filter(|n| {
        ["tile", "piece", "badge", "figure"].iter().any(|c| has_class(n, c)) && !has_class(n, "legend-entry")
    }) {
        let text = shown_text(&n);
        for word in text.split_whitespace() {
            assert!(word.chars().all(|c| c.is_ascii_digit()), "word {word:?} printed on the board");
        }
    }
    let legend: Vec<&str> = of_class(&doc, "legend-entry").iter().map(|e| e.attribute("data-piece").unwrap()).collect();
    for n in doc.descendants().filter(|n| n.attribute("data-piece").is_some() && !has_class(n, "legend-entry")) {
        let piece = n.attribute("data-piece").unwrap();
        assert!(legend.contains(&piece), "{piece} is not in the legend {legend:?}");
    }
    let figures = of_class(&doc, "figure");
    let at: Vec<(f64, f64)> = figures.iter().map(translate).collect();
    for (i, a) in at.iter().enumerate() {
        for b in &at[i + 1..] {
            assert!(a != b, "two figures at {a:?}");
        }
    }
    let first_neutral = figures.iter().position(|f| has_class(f, "neutral")).unwrap_or(figures.len());
    assert!(figures[first_neutral..].iter().all(|f| has_class(f, "neutral")), "neutral figures are drawn last");
    for (i, n) in figures.iter().enumerate().filter(|(_, f)| has_class(f, "neutral")) {
        for (j, m) in figures.iter().enumerate().filter(|(_, f)| !has_class(f, "neutral")) {
            let (a, b) = (at[i], at[j]);
            let near = (a.0 - b.0).abs() < 12.0 && (a.1 - b.1).abs() < 12.0;
            assert!(!near, "{:?} hides under {:?}", n.attribute("data-kind"), m.attribute("data-kind"));
        }
    }
    // No icon under a figure.
    for icon in of_class(&doc, "icon") {
        let (x, y) = translate(&icon);
        for (f, &(fx, fy)) in figures.iter().zip(&at) {
            let near = (x - fx).abs() < 16.0 && (y - fy).abs() < 16.0;
            assert!(!near, "icon {:?} under {:?} at {fx},{fy}", icon.attribute("data-piece"), f.attribute("data-kind"));
        }
    }
    // The subtitle stays inside the canvas.
    let width: f64 = doc.root_element().attribute("width").unwrap().parse().unwrap();
    for line in
        doc.descendants().filter(|n| n.has_tag_name("tspan") && n.parent().is_some_and(|p| has_class(&p, "subtitle")))
    {
        let chars = line.text().unwrap_or("").chars().count() as f64;
        assert!(36.0 + chars * 7.2 <= width, "subtitle line runs off the canvas: {:?}", line.text());
    }
}

#[test]
fn a_classic_everything_game_draws_every_piece_without_words_and_in_the_legend() {
    let rec = classic_everything();
    for turn in [40, 80, 160] {
        check_picture(&render(&format!("everything-{turn}"), &rec, Some(turn)));
    }
    let mid = render("everything-200", &rec, Some(200));
    check_picture(&mid);
    let doc = parse(&mid);
    let drawn: std::collections::BTreeSet<&str> = doc.descendants().filter_map(|n| n.attribute("data-piece")).collect();
    for piece in [
        "tower",
        "volcano",
        "portal",
        "princess",
        "inn",
        "cathedral",
        "hill",
        "vineyard",
        "abbey",
        "farmer",
        "circus",
        "big-top",
        "bazaar",
    ] {
        assert!(drawn.contains(piece), "no {piece} drawn after turn 200: {drawn:?}");
    }
    assert_eq!(of_class(&doc, "subtitle").len(), 1);
    assert!(!mid.contains(">castle-base=false<") && !mid.contains("inner<"));

    // The final picture: only what stays after the final scoring (barns, neutral figures,
    // towers, castles); every follower is back in its supply.
    let fin = render("everything-final", &rec, None);
    check_picture(&fin);
    let doc = parse(&fin);
    for f in of_class(&doc, "figure") {
        let kind = f.attribute("data-kind").unwrap();
        assert!(["barn", "dragon", "fairy", "big-top"].contains(&kind), "{kind} stays on the final board");
    }
    let rules_line = score_line(&doc, 0);
    assert!(rules_line.contains("7 followers"), "every follower is back: {rules_line}");
}

// ------------------------------------------------------------------------------------
// A new plugin draws its own pieces through the hook, with no change in the renderer.

mod common;

use carcassonne_core::config::{disk_resolver, load_rules};
use carcassonne_core::{Canvas, FigureLook, Game, Hooks, Plugin, Registry, Rules, State, NEUTRAL as NOBODY};
use serde::{Deserialize, Serialize};

/// A test plugin: a neutral "lantern" figure put on the start tile at the start of the
/// game, a "beacon" icon on the start tile, a "lamp" icon on its first feature, and
/// 2 "lantern oil" in each seat's supply.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Lantern {
    #[serde(skip)]
    kind: u8,
}

impl Plugin for Lantern {
    fn name(&self) -> &str {
        "lantern"
    }
    fn hooks(&self) -> Hooks {
        Hooks::GAME_START
    }
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.kind = reg.figure_kind("lantern", false, 0, 0)?;
        reg.figure_look(self.kind, FigureLook::new(r#"<circle class="lantern-look" r="7"/>"#).staying());
        Ok(())
    }
    fn on_game_start(&self, rules: &Rules, st: &mut State, _me: usize) {
        st.add_figure(rules, NOBODY, self.kind, 0, None);
    }
    fn draw(&self, _rules: &Rules, st: &State, _me: usize, c: &mut dyn Canvas) {
        c.tile_icon(0, "beacon", r#"<rect class="beacon-icon" x="-5" y="-5" width="10" height="10"/>"#, "a beacon");
        c.feature_icon(0, 0, "lamp", r#"<circle class="lamp-icon" r="4"/>"#, "a lamp");
        c.legend("beacon", r#"<rect x="-5" y="-5" width="10" height="10"/>"#, "beacon (test)");
        for seat in 0..st.players {
            c.supply(seat, "lantern oil", 2);
        }
    }
}

#[test]
fn a_new_plugin_draws_its_figures_icons_and_supply_through_the_hook() {
    let f = common::factories_with("lantern", carcassonne_core::build_from_options::<Lantern>);
    let file = "config/base.toml";
    let text = std::fs::read_to_string(file).unwrap() + "\n[[plugins]]\nname = \"lantern\"\npriority = 90\n";
    let rules = load_rules(file, &text, &disk_resolver(file), &f).unwrap();
    let game = Game::new(rules, 2, 7).unwrap();
    let svg = carcassonne_cli::svg::render(&game, &carcassonne_cli::svg::Picture::default());
    let doc = parse(&svg);
    // Its figure with its look, on top of the start tile (0,0), and in the legend.
    let lantern: Vec<_> =
        of_class(&doc, "figure").into_iter().filter(|f| f.attribute("data-kind") == Some("lantern")).collect();
    assert_eq!(lantern.len(), 1);
    assert!(has_class(&lantern[0], "neutral"));
    assert_eq!(lantern[0].descendants().filter(|n| has_class(n, "lantern-look")).count(), 1);
    // Its icons: the tile icon in the row at the top of the tile, the feature icon.
    let beacon = of_class(&doc, "beacon-icon");
    assert_eq!(beacon.len(), 1);
    let tile = doc.descendants().find(|n| n.attribute("data-cell") == Some("0,0")).unwrap();
    let (tx, ty) = translate(&tile);
    assert_eq!(translate(&beacon[0].parent().unwrap()), (tx + 11.0, ty + 11.0));
    // The lamp once on the board, once in the legend (which draws it as first drawn).
    let lamps = of_class(&doc, "lamp-icon");
    assert_eq!(lamps.len(), 2);
    assert_eq!(lamps.iter().filter(|l| l.ancestors().any(|a| has_class(&a, "legend"))).count(), 1);
    // The legend: the figure kind (neutral), the beacon with its text, the lamp by name.
    let legend: Vec<(String, String)> = of_class(&doc, "legend-entry")
        .iter()
        .map(|e| (e.attribute("data-piece").unwrap().to_string(), shown_text(e).trim().to_string()))
        .collect();
    for want in [("lantern", "lantern (neutral)"), ("beacon", "beacon (test)"), ("lamp", "lamp")] {
        assert!(legend.contains(&(want.0.to_string(), want.1.to_string())), "{want:?} not in {legend:?}");
    }
    // Its supply, after the 7 followers of each seat.
    for seat in 0..2 {
        assert!(score_line(&doc, seat).contains("supply: 7 followers, 2 lantern oil"), "{}", score_line(&doc, seat));
    }
    check_picture(&svg);
}

/// The pieces named `piece` drawn on tiles: (title, translate) each.
fn pieces(doc: &Document, piece: &str) -> Vec<(String, (f64, f64))> {
    doc.descendants()
        .filter(|n| has_class(n, "piece") && n.attribute("data-piece") == Some(piece))
        .map(|n| (n.children().find(|c| c.has_tag_name("title")).unwrap().text().unwrap().to_string(), translate(&n)))
        .collect()
}

fn badge_titles(doc: &Document) -> Vec<String> {
    of_class(doc, "badge")
        .iter()
        .map(|b| b.children().find(|c| c.has_tag_name("title")).unwrap().text().unwrap().to_string())
        .collect()
}

#[test]
fn a_castle_is_drawn_on_its_two_tiles_with_its_knight_and_tokens_in_the_supply() {
    // castle-chain, turn 1: E (0,-1) closes D's city with seat 0's knight: castle A on
    // (0,0) and (0,-1) (CASTLE-2), one of seat 0's 3 tokens used (CASTLE-1).
    let svg = render("castle-1", "tests/scenarios/castle-chain.json", Some(1));
    let doc = parse(&svg);
    let castles = pieces(&doc, "castle");
    let cell = |c: &str| translate(&doc.descendants().find(|n| n.attribute("data-cell") == Some(c)).unwrap());
    assert_eq!(castles, [("seat 0's castle".to_string(), cell("0,0")), ("seat 0's castle".to_string(), cell("0,-1"))]);
    assert!(
        svg.contains(r##"<g class="castle"><path d="M38,62 v-16 h5 v4 h5 v-4 h4 v4 h5 v-4 h5 v16 z" fill="#1565c0""##)
    );
    assert_eq!(badge_titles(&doc), ["knight of the castle"]);
    assert!(score_line(&doc, 0).contains("2 castle tokens"));
    assert!(score_line(&doc, 1).contains("3 castle tokens"));
    // Turn 5 (the end): castles A and B scored 2 each and their knights returned (CASTLE-3);
    // the castles stay, in their owners' colours.
    let svg = render("castle-end", "tests/scenarios/castle-chain.json", None);
    let doc = parse(&svg);
    let titles: Vec<String> = pieces(&doc, "castle").into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        titles,
        [
            "seat 0's castle (scored 2)",
            "seat 0's castle (scored 2)",
            "seat 1's castle (scored 2)",
            "seat 1's castle (scored 2)"
        ]
    );
    assert!(badge_titles(&doc).is_empty());
    assert!(of_class(&doc, "figure").is_empty());
    for seat in 0..2 {
        assert!(score_line(&doc, seat).contains("2 castle tokens"));
    }
}

#[test]
fn a_shepherd_shows_its_flock_size() {
    // shepherd-grow-wolf: seat 0's shepherd draws 2 sheep (turn 1), seat 1's 3 (turn 2);
    // in turn 3 the wolf sends both shepherds back (SHEPHERD-4): no flock is drawn.
    let doc1 = render("sheep-1", "tests/scenarios/shepherd-grow-wolf.json", Some(1));
    assert_eq!(badge_titles(&parse(&doc1)), ["flock of 2 sheep"]);
    let doc2 = render("sheep-2", "tests/scenarios/shepherd-grow-wolf.json", Some(2));
    let doc2 = parse(&doc2);
    assert_eq!(badge_titles(&doc2), ["flock of 2 sheep", "flock of 3 sheep"]);
    let numbers: Vec<String> = of_class(&doc2, "badge").iter().map(|b| shown_text(b).trim().to_string()).collect();
    assert_eq!(numbers, ["2", "3"]);
    let doc3 = render("sheep-3", "tests/scenarios/shepherd-grow-wolf.json", Some(3));
    let doc3 = parse(&doc3);
    assert!(badge_titles(&doc3).is_empty());
    assert!(of_class(&doc3, "figure").iter().all(|f| f.attribute("data-kind") != Some("shepherd")));
}

#[test]
fn the_viewer_draws_the_plugins_pieces_per_turn_and_the_final_picture_without_followers() {
    // tower-capture-range in the HTML viewer: the tower's height is drawn per turn (1 after
    // turn 14, 2 after 21, 3 after 22: TOWER-2); the final step shows no follower.
    let page = scratch("picture-viewer").join("game.html");
    ok(&["render", "tests/scenarios/tower-capture-range.json", "--html", "-o", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html.find(r#"<script id="game-data" type="application/json">"#).unwrap();
    let data = &html[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(&data.replace("<\\/", "</")).unwrap();
    let steps = data["steps"].as_array().unwrap();
    let layer = |label: &str| -> String {
        let s = steps.iter().find(|s| s["label"] == label).unwrap_or_else(|| panic!("no step {label}"));
        s["figures"].as_str().unwrap().to_string()
    };
    let height = |label: &str| -> Vec<String> {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{}</svg>"#,
            layer(label)
        );
        let doc = parse(&svg);
        let mut h: Vec<String> =
            of_class(&doc, "tower").iter().map(|t| t.attribute("data-height").unwrap().to_string()).collect();
        h.sort();
        h
    };
    assert!(height("turn 14").contains(&"1".to_string()));
    assert!(height("turn 21").contains(&"2".to_string()));
    assert!(height("turn 22").contains(&"3".to_string()));
    assert!(layer("turn 21").contains(r#"class="figure"#));
    let last = layer("final scoring");
    assert!(!last.contains(r#"class="figure"#), "no follower after the final scoring");
    assert_eq!(height("final scoring"), ["0", "0", "0", "3"]);
    // The page's legend lists every figure kind of the rules and the tower.
    assert!(html.contains(r#"<g class="legend-entry" data-piece="follower">"#));
    assert!(html.contains(r#"<g class="legend-entry" data-piece="tower">"#));
}
