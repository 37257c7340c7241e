//! `render`: the SVG of a record is valid XML, self-contained, and shows every tile of the
//! board, the figures and the scores; `--turn N` shows the board after turn N.

mod simulate_util;

use carcassonne_core::record::GameRecord;
use simulate_util::{ok, scratch};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not valid XML: {e}"))
}

fn class_count(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants().filter(|n| n.attribute("class").is_some_and(|c| c.split(' ').any(|x| x == class))).count()
}

#[test]
fn render_of_a_finished_game_shows_the_whole_board() {
    let dir = scratch("render");
    let recs = dir.join("recs");
    ok(&[
        "simulate",
        "--rules",
        "embedded:config/river.toml",
        "--games",
        "1",
        "--seed",
        "21",
        "--bots",
        "greedy,random",
        "--records",
        recs.to_str().unwrap(),
    ]);
    let rec_path = recs.join("river-000000.json");
    let rec: GameRecord = serde_json::from_str(&std::fs::read_to_string(&rec_path).unwrap()).unwrap();
    let svg_path = dir.join("board.svg");
    let printed = ok(&["render", rec_path.to_str().unwrap(), "-o", svg_path.to_str().unwrap()]);
    assert!(printed.is_empty());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));

    // Every tile of the game is drawn: the start tile plus one per turn that placed one.
    let placed = rec.turns.iter().filter(|t| t.tile.is_some()).count() + 1;
    let tiles: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("tile")).collect();
    assert_eq!(tiles.len(), placed);
    // ... inside the picture.
    let vb: Vec<f64> = root.attribute("viewBox").unwrap().split(' ').map(|x| x.parse().unwrap()).collect();
    for t in &tiles {
        let tr = t.attribute("transform").unwrap();
        let xy: Vec<f64> =
            tr.trim_start_matches("translate(").trim_end_matches(')').split(',').map(|x| x.parse().unwrap()).collect();
        assert!(
            xy[0] >= 0.0 && xy[0] + 100.0 <= vb[2] && xy[1] >= 0.0 && xy[1] + 100.0 <= vb[3],
            "{tr} outside {vb:?}"
        );
        let cell = t.attribute("data-cell").unwrap();
        assert!(cell.contains(','), "{cell}");
    }
    // Features, coordinates and scores; no figure after the final scoring
    // (every follower of a river game is back in its supply).
    for class in ["city", "road", "river", "monastery", "coordinates", "scores"] {
        assert!(class_count(&doc, class) > 0, "no element of class {class}");
    }
    assert_eq!(class_count(&doc, "figure"), 0, "the final picture shows no follower");
    for seat in 0..2 {
        let score = doc
            .descendants()
            .find(|n| n.attribute("data-seat") == Some(&seat.to_string()))
            .and_then(|n| n.attribute("data-score"))
            .unwrap();
        assert_eq!(score, rec.final_scores[seat].to_string());
    }
    assert!(svg.contains("Final scores"));
    // Self-contained: no reference to another file.
    for n in doc.descendants() {
        for a in n.attributes() {
            if a.name() == "href" {
                assert!(a.value().starts_with('#'), "external reference {}", a.value());
            }
        }
    }
    assert!(!svg.contains("<image"), "no embedded images needed");
}

#[test]
fn render_stops_after_turn_n() {
    let dir = scratch("render-turn");
    let rec_path = dir.join("g.json");
    ok(&["play", "--rules", "embedded:config/base.toml", "--seed", "5", "--record", rec_path.to_str().unwrap()]);
    let rec: GameRecord = serde_json::from_str(&std::fs::read_to_string(&rec_path).unwrap()).unwrap();
    let tiles_after = |n: u32| rec.turns.iter().filter(|t| t.turn <= n && t.tile.is_some()).count() + 1;
    for n in [0u32, 1, 10, 30] {
        let svg = ok(&["render", rec_path.to_str().unwrap(), "--turn", &n.to_string()]);
        let doc = parse(&svg);
        let tiles = doc.descendants().filter(|x| x.attribute("class") == Some("tile")).count();
        assert_eq!(tiles, tiles_after(n), "--turn {n}");
        if n > 0 {
            assert!(svg.contains(&format!("after turn {n} of")), "--turn {n}: title");
            assert_eq!(class_count(&doc, "last"), 1, "the tile placed in turn {n} is outlined");
        }
        assert!(!svg.contains("Final scores"));
    }
}
