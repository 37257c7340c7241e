//! What a plugin file draws on the board picture (interface 4.2): its figure looks, checked
//! when the rule set is loaded, and its drawings ([`carcassonne_plugin_api::DrawOp`]),
//! checked and handed to the renderer's [`Canvas`].
//!
//! Markup from a file goes into SVG and HTML pages as it is, so it is checked first: a
//! well-formed fragment with no `script` or `foreignObject` element, no event attribute
//! (`on...`) and no link out of the page (an `href` other than `#id`, such as `#meeple`),
//! so that a picture never runs code or loads anything.

use carcassonne_core::state::State;
use carcassonne_core::Canvas;
use carcassonne_plugin_api::DrawOp;

/// Checks an SVG fragment from a plugin file; the error says what is wrong.
pub fn check_svg(svg: &str) -> Result<(), String> {
    let doc = format!("<svg xmlns=\"http://www.w3.org/2000/svg\">{svg}</svg>");
    let tree = roxmltree::Document::parse(&doc).map_err(|e| format!("the SVG fragment is not well-formed: {e}"))?;
    for n in tree.descendants().filter(|n| n.is_element()) {
        let name = n.tag_name().name();
        if name.eq_ignore_ascii_case("script") || name.eq_ignore_ascii_case("foreignObject") {
            return Err(format!("the SVG fragment holds a <{name}> element"));
        }
        for a in n.attributes() {
            let an = a.name().to_ascii_lowercase();
            // A link within the page (`#meeple`) loads nothing.
            if an.starts_with("on") || (an == "href" && !a.value().starts_with('#')) {
                return Err(format!("the SVG fragment has a '{}' attribute", a.name()));
            }
        }
    }
    Ok(())
}

/// Checks one drawing against the game; the error says what is wrong.
fn check(st: &State, op: &DrawOp) -> Result<(), String> {
    let (what, ok) = match op.what {
        DrawOp::ON_TILE | DrawOp::TILE_ICON => ("part", (op.at as usize) < st.board.parts.len()),
        DrawOp::FEATURE_ICON => ("node", (op.at as usize) < st.graph.len()),
        DrawOp::FIGURE_BADGE => ("figure", st.figures.get(op.at as usize).is_some_and(|f| f.alive)),
        DrawOp::SUPPLY => ("seat", op.at < st.players as u32),
        DrawOp::LEGEND => ("", true),
        w => return Err(format!("unknown drawing kind {w}")),
    };
    if !ok {
        return Err(format!("a drawing names {what} {}, which is not in the game", op.at));
    }
    for (field, text) in [("piece", op.piece.as_str()), ("title", op.title.as_str())] {
        carcassonne_core::error::check_printable(field, text)?;
    }
    check_svg(op.svg.as_str())
}

/// Hands the drawings of plugin `who` to `canvas`; one that fails its check is left out
/// with a warning naming the plugin.
pub fn hand_over(st: &State, who: &str, ops: &[DrawOp], canvas: &mut dyn Canvas) {
    for op in ops {
        if let Err(e) = check(st, op) {
            tracing::warn!("{who}, hook draw: {e}; the drawing is left out");
            continue;
        }
        let (piece, svg, title) = (op.piece.as_str(), op.svg.as_str(), op.title.as_str());
        match op.what {
            DrawOp::ON_TILE => canvas.on_tile(op.at, piece, svg, title),
            DrawOp::TILE_ICON => canvas.tile_icon(op.at, piece, svg, title),
            DrawOp::FEATURE_ICON => {
                let node = st.graph.node(op.at);
                canvas.feature_icon(node.part, node.local as usize, piece, svg, title)
            }
            DrawOp::FIGURE_BADGE => canvas.figure_badge(op.at, svg, title),
            DrawOp::SUPPLY => canvas.supply(op.at as usize, piece, op.count),
            _ => canvas.legend(piece, svg, title),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check_svg;

    #[test]
    fn plain_markup_passes() {
        assert_eq!(check_svg(r#"<circle r="5"/><text y="3">2</text>"#), Ok(()));
        assert_eq!(check_svg(""), Ok(()));
        assert_eq!(check_svg(r##"<use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#meeple"/>"##), Ok(()));
    }

    #[test]
    fn code_links_and_broken_markup_are_refused() {
        assert_eq!(
            check_svg("<g><script>alert(1)</script></g>").unwrap_err(),
            "the SVG fragment holds a <script> element"
        );
        assert_eq!(check_svg(r#"<rect onclick="x()"/>"#).unwrap_err(), "the SVG fragment has a 'onclick' attribute");
        assert_eq!(
            check_svg(r#"<image href="http://example.org/a.png"/>"#).unwrap_err(),
            "the SVG fragment has a 'href' attribute"
        );
        assert_eq!(check_svg("<foreignObject/>").unwrap_err(), "the SVG fragment holds a <foreignObject> element");
        assert!(check_svg("<g>").unwrap_err().starts_with("the SVG fragment is not well-formed: "));
    }
}
