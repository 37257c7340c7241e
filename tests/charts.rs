//! `--charts DIR` (issue 20): well-formed SVG files drawn by plotters, one series (or bar)
//! per rule set, the expected labels.

mod simulate_util;

use simulate_util::{ok, scratch};

/// Every text of an SVG file (it must parse as XML with an `svg` root).
fn texts(path: &std::path::Path) -> (roxmltree::Document<'static>, Vec<String>) {
    let body: &'static str = Box::leak(std::fs::read_to_string(path).unwrap().into_boxed_str());
    let doc = roxmltree::Document::parse(body).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let t = doc
        .descendants()
        .filter(|n| n.is_text())
        .map(|n| n.text().unwrap().trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    (doc, t)
}

fn count(doc: &roxmltree::Document, tag: &str, stroke: &str) -> usize {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag && n.attribute("stroke").is_some_and(|s| s == stroke))
        .count()
}

#[test]
fn simulate_charts_show_each_rule_set() {
    let dir = scratch("charts-simulate");
    let charts = dir.join("charts");
    ok(&[
        "simulate",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/tower.toml",
        "--games",
        "12",
        "--bots",
        "greedy,random",
        "--charts",
        charts.to_str().unwrap(),
    ]);
    for f in ["scores.svg", "length.svg", "sources.svg", "first-seat.svg"] {
        let (doc, t) = texts(&charts.join(f));
        assert!(t.iter().any(|x| x == "base") && t.iter().any(|x| x == "tower"), "{f}: legend {t:?}");
        if f == "scores.svg" || f == "length.svg" {
            // A line per rule set in its palette colour (plotters' first two).
            let lines: Vec<_> = doc
                .descendants()
                .filter(|n| n.tag_name().name() == "polyline" && n.attribute("stroke-width") == Some("2"))
                .collect();
            assert!(lines.len() >= 2 * 2, "{f}: a series and its legend sample per rule set: {}", lines.len());
            let strokes: std::collections::BTreeSet<&str> =
                lines.iter().filter_map(|n| n.attribute("stroke")).collect();
            assert_eq!(strokes.len(), 2, "{f}: {strokes:?}");
        }
        if f == "sources.svg" {
            for src in ["road", "city", "monastery", "field", "ransom"] {
                assert!(t.iter().any(|x| x == src), "sources.svg: no label {src}: {t:?}");
            }
        }
        if f == "first-seat.svg" {
            assert!(t.iter().any(|x| x.starts_with("First-seat advantage")), "{t:?}");
            assert!(count(&doc, "line", "#000000") > 0 || doc.descendants().any(|n| n.tag_name().name() == "polyline"));
        }
    }
}

#[test]
fn compare_charts_show_each_condition() {
    let dir = scratch("charts-compare");
    let charts = dir.join("c");
    ok(&[
        "compare",
        "--rules",
        "embedded:config/base.toml",
        "--lineup",
        "greedy,random",
        "--lineup",
        "random,random",
        "--games",
        "6",
        "--skill-games",
        "0",
        "--charts",
        charts.to_str().unwrap(),
    ]);
    let (_, t) = texts(&charts.join("first-seat.svg"));
    assert!(
        t.iter().any(|x| x == "[1] base (greedy,random)") && t.iter().any(|x| x == "[2] base (random,random)"),
        "{t:?}"
    );
}
