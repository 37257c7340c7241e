//! Draws a game's board as a self-contained SVG picture: every tile with its cities, roads,
//! rivers, fields, monasteries, gardens, pennants and markers, the figures in the players'
//! colours, neutral figures, coordinates, the scores and a legend. Plugins draw their own
//! pieces ([`carcassonne_core::draw`], collected in [`Pieces`]); this file draws the generic
//! things (tiles, features, pennants, figures with their kinds' looks).
//!
//! The final picture (a game that is over) shows only what stays on the board after the
//! final scoring: figures whose look says so (e.g. barns) and neutral figures; every other
//! figure is drawn returned, counted in its seat's supply.

use std::fmt::Write;

use carcassonne_core::tile::{FeatureKind, RotatedFeature};
use carcassonne_core::{Figure, Game, Pos, NEUTRAL};

pub use crate::svg_pieces::Pieces;

/// Pixels per cell.
const S: f64 = 100.0;
/// Room for the coordinate labels around the board.
const MARGIN: f64 = 36.0;
/// Height of the title above the board.
const HEADER: f64 = 72.0;
/// Width of one legend entry.
const LEGEND_W: f64 = 215.0;
/// Height of one line of the score panel.
const LINE: f64 = 24.0;

/// Seat colours: blue, red, yellow, black, green, pink.
pub use carcassonne_core::draw::SEAT_COLOURS;
/// Names of [`SEAT_COLOURS`].
pub const SEAT_COLOUR_NAMES: [&str; 6] = ["blue", "red", "yellow", "black", "green", "pink"];

const FIELD: &str = "#9ccc65";
const CITY: &str = "#d7b377";
const CITY_WALL: &str = "#7b5a2e";
const ROAD: &str = "#f7f3e8";
const ROAD_EDGE: &str = "#5d5d5d";
const RIVER: &str = "#3d8fd1";
const NEUTRAL_COLOUR: &str = "#4a148c";

/// A meeple silhouette, about 24 px high, centred on (0, 0).
const MEEPLE: &str = "M0,-12C3,-12 4.5,-10 4.5,-7.5C4.5,-5.5 3.6,-4.6 3,-4L10,-1C11.6,-0.4 11.4,2.2 9.8,2.2L5,1.2L8,10L2,10L0,5L-2,10L-8,10L-5,1.2L-9.8,2.2C-11.4,2.2 -11.6,-0.4 -10,-1L-3,-4C-3.6,-4.6 -4.5,-5.5 -4.5,-7.5C-4.5,-10 -3,-12 0,-12Z";

/// What to draw besides the board.
#[derive(Clone, Debug, Default)]
pub struct Picture {
    /// First line of the title.
    pub title: String,
    /// Second line of the title.
    pub subtitle: String,
    /// Bot (or player name) per seat, if known.
    pub seat_names: Option<Vec<String>>,
    /// Cell of the tile placed last, outlined.
    pub highlight: Option<Pos>,
}

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => o.push(c),
        }
    }
    o
}

/// Midpoint of side `s` (0 N, 1 E, 2 S, 3 W) in unit coordinates.
fn side_mid(s: usize) -> (f64, f64) {
    [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)][s & 3]
}

/// A point `depth` inside the tile from the midpoint of side `s`.
fn side_inset(s: usize, depth: f64) -> (f64, f64) {
    [(0.5, depth), (1.0 - depth, 0.5), (0.5, 1.0 - depth), (depth, 0.5)][s & 3]
}

/// Corner `k`: the start of side `k` going clockwise (NW, NE, SE, SW).
fn corner(k: usize) -> (f64, f64) {
    [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)][k & 3]
}

/// Half-edge `h` (Nw Ne En Es Se Sw Ws Wn) in unit coordinates, and the inward direction.
fn half_point(h: usize) -> ((f64, f64), (f64, f64)) {
    let p =
        [(0.25, 0.0), (0.75, 0.0), (1.0, 0.25), (1.0, 0.75), (0.75, 1.0), (0.25, 1.0), (0.0, 0.75), (0.0, 0.25)][h & 7];
    let d = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][(h & 7) / 2];
    (p, d)
}

fn sides_of(mask: u8) -> Vec<usize> {
    (0..4).filter(|s| mask & (1 << s) != 0).collect()
}

fn pt(p: (f64, f64)) -> String {
    format!("{},{}", num(p.0 * S), num(p.1 * S))
}

/// A number with at most 2 decimals, without trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Path of a city covering the sides in `mask`, in tile coordinates.
fn city_path(mask: u8) -> String {
    let sides = sides_of(mask);
    let covered = |s: usize| mask & (1 << (s & 3)) != 0;
    if sides.len() == 1 {
        let k = sides[0];
        return format!("M{} L{} Q{} {} Z", pt(corner(k)), pt(corner(k + 1)), pt(side_inset(k, 0.6)), pt(corner(k)));
    }
    let corners: Vec<usize> = (0..4).filter(|&k| covered(k) || covered(k + 3)).collect();
    let mut d = format!("M{}", pt(corner(corners[0])));
    for (i, &a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        if (a + 1) % 4 == b && !covered(a) {
            let _ = write!(d, " Q{} {}", pt(side_inset(a, 0.6)), pt(corner(b)));
        } else {
            let _ = write!(d, " L{}", pt(corner(b)));
        }
    }
    d.push_str(" Z");
    d
}

/// Path of a road or river through the sides in `mask` (to the centre when it ends).
fn way_path(mask: u8) -> String {
    let sides = sides_of(mask);
    let c = (0.5, 0.5);
    match sides.as_slice() {
        [a, b] => format!("M{} Q{} {}", pt(side_mid(*a)), pt(c), pt(side_mid(*b))),
        _ => sides.iter().map(|&s| format!("M{} L{}", pt(side_mid(s)), pt(c))).collect::<Vec<_>>().join(" "),
    }
}

/// Where a figure on a feature stands (unit coordinates).
fn feature_anchor(f: &RotatedFeature) -> (f64, f64) {
    let sides = sides_of(f.sides);
    let avg = |ps: &[(f64, f64)]| {
        let n = ps.len().max(1) as f64;
        (ps.iter().map(|p| p.0).sum::<f64>() / n, ps.iter().map(|p| p.1).sum::<f64>() / n)
    };
    match f.kind {
        FeatureKind::City => {
            if sides.is_empty() {
                (0.5, 0.5)
            } else {
                avg(&sides.iter().map(|&s| side_inset(s, 0.18)).collect::<Vec<_>>())
            }
        }
        FeatureKind::Road | FeatureKind::River => match sides.as_slice() {
            [] => (0.5, 0.5),
            [a, b] => {
                let (ma, mb) = (side_mid(*a), side_mid(*b));
                (0.64 * ma.0 + 0.32 * 0.5 + 0.04 * mb.0, 0.64 * ma.1 + 0.32 * 0.5 + 0.04 * mb.1)
            }
            [a, ..] => {
                let m = side_mid(*a);
                (m.0 + 0.4 * (0.5 - m.0), m.1 + 0.4 * (0.5 - m.1))
            }
        },
        FeatureKind::Field => {
            let halves: Vec<usize> = (0..8).filter(|h| f.halves & (1 << h) != 0).collect();
            if halves.is_empty() {
                return (0.15, 0.85);
            }
            let a = avg(&halves.iter().map(|&h| half_point(h).0).collect::<Vec<_>>());
            let pulled = (a.0 + 0.3 * (0.5 - a.0), a.1 + 0.3 * (0.5 - a.1));
            if (pulled.0 - 0.5).hypot(pulled.1 - 0.5) > 0.2 {
                pulled
            } else {
                let (p, d) = half_point(halves[0]);
                (p.0 + 0.13 * d.0, p.1 + 0.13 * d.1)
            }
        }
        FeatureKind::Monastery | FeatureKind::Garden => (0.5, 0.56),
        FeatureKind::Acrobats => (0.5, 0.4),
    }
}

/// Draws the board of `game` (its state as it stands).
/// Where the board lies on the canvas: the bounds of the cells drawn and the offsets.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    minx: i32,
    miny: i32,
    maxx: i32,
    maxy: i32,
    ox: f64,
    oy: f64,
    board_w: f64,
    board_h: f64,
    /// Canvas size.
    pub width: f64,
    pub height: f64,
}

impl Frame {
    /// The frame of `game`'s board (with room for its score panel and the legend of what it
    /// shows).
    pub fn of(game: &Game) -> Frame {
        Frame::with_legend(game, legend_entries(game, false).len())
    }

    /// The frame for the HTML viewer: its legend lists every figure kind of the rules.
    pub fn for_viewer(game: &Game) -> Frame {
        Frame::with_legend(game, legend_entries(game, true).len())
    }

    fn with_legend(game: &Game, entries: usize) -> Frame {
        let st = &game.st;
        let (minx, miny, maxx, maxy) = if st.board.is_empty() { (0, 0, 0, 0) } else { st.board.bounds };
        let board_w = (maxx - minx + 1) as f64 * S;
        let board_h = (maxy - miny + 1) as f64 * S;
        let (ox, oy) = (MARGIN, HEADER + MARGIN);
        // Per seat: its score and sources, then its supply.
        let panel_lines = 2 * st.players + 2;
        let width = (board_w + 2.0 * MARGIN).max(640.0);
        let per_row = (((width - 2.0 * MARGIN) / LEGEND_W).floor() as usize).max(1);
        let legend_h = if entries == 0 { 0.0 } else { 20.0 + entries.div_ceil(per_row) as f64 * LINE };
        let height = oy + board_h + MARGIN + panel_lines as f64 * LINE + 12.0 + legend_h;
        Frame { minx, miny, maxx, maxy, ox, oy, board_w, board_h, width, height }
    }

    /// Top of the legend.
    fn legend_y(&self, game: &Game) -> f64 {
        self.oy + self.board_h + MARGIN + (2 * game.st.players + 2) as f64 * LINE + 12.0
    }

    fn cell_xy(&self, p: Pos) -> (f64, f64) {
        (self.ox + (p.x - self.minx) as f64 * S, self.oy + (p.y - self.miny) as f64 * S)
    }
}

/// The SVG picture of `game`'s board with `pic`'s title, the figures and the scores.
pub fn render(game: &Game, pic: &Picture) -> String {
    let frame = Frame::of(game);
    let mut o = String::new();
    let _ = writeln!(o, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    write_open(&mut o, &frame, &pic.title);
    let _ = writeln!(
        o,
        r##"<text x="{}" y="24" font-size="18" font-weight="bold" fill="#222">{}</text>"##,
        num(MARGIN),
        esc(&pic.title)
    );
    write_subtitle(&mut o, &frame, &pic.subtitle);
    write_board(&mut o, &frame);
    write_tiles(&mut o, game, &frame);
    if let Some(last) = pic.highlight {
        write_highlight(&mut o, game, &frame, last);
    }
    let pieces = Pieces::of(game);
    write_pieces(&mut o, game, &frame, &pieces);
    write_scores(&mut o, game, &frame, pic, &pieces);
    write_legend(&mut o, game, &frame, &pieces, false);
    let _ = writeln!(o, "</svg>");
    o
}

/// The subtitle, wrapped at word boundaries into at most two lines that fit the canvas
/// (and clipped to it).
pub fn write_subtitle(o: &mut String, frame: &Frame, subtitle: &str) {
    let max = (((frame.width - 2.0 * MARGIN) / 7.2) as usize).max(10);
    let mut lines: Vec<String> = vec![String::new()];
    for word in subtitle.split_whitespace() {
        let last = lines.last_mut().expect("a line");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > max {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    if lines.len() > 2 {
        lines.truncate(2);
        let l = &mut lines[1];
        let keep: String = l.chars().take(max.saturating_sub(1)).collect();
        *l = format!("{keep}…");
    }
    let _ = writeln!(
        o,
        r##"<clipPath id="subtitle-clip"><rect x="0" y="28" width="{}" height="{}"/></clipPath>"##,
        num(frame.width - MARGIN / 2.0),
        num(HEADER - 28.0)
    );
    let _ = write!(o, r##"<text class="subtitle" clip-path="url(#subtitle-clip)" font-size="13" fill="#444">"##);
    for (i, l) in lines.iter().enumerate() {
        let _ = write!(o, r#"<tspan x="{}" y="{}">{}</tspan>"#, num(MARGIN), 44 + 16 * i, esc(l));
    }
    let _ = writeln!(o, "</text>");
}

/// The `<svg>` element's opening, its title, the meeple shape and the background.
pub fn write_open(o: &mut String, frame: &Frame, title: &str) {
    let (width, height) = (frame.width, frame.height);
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Arial, sans-serif">"#,
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(o, "<title>{}</title>", esc(title));
    let _ = writeln!(
        o,
        r##"<defs><path id="meeple" d="{MEEPLE}"/></defs>
<rect x="0" y="0" width="{}" height="{}" fill="#fbf8ef"/>"##,
        num(width),
        num(height)
    );
}

/// The board area and its coordinates.
pub fn write_board(o: &mut String, frame: &Frame) {
    let Frame { minx, miny, maxx, maxy, ox, oy, board_w, board_h, .. } = *frame;
    let _ = writeln!(
        o,
        r##"<rect class="board" x="{}" y="{}" width="{}" height="{}" fill="#ece6d6" stroke="#b9ae92"/>"##,
        num(ox),
        num(oy),
        num(board_w),
        num(board_h)
    );
    let _ = writeln!(o, r##"<g class="coordinates" font-size="12" fill="#555" text-anchor="middle">"##);
    for x in minx..=maxx {
        let cx = ox + (x - minx) as f64 * S + S / 2.0;
        let _ = writeln!(o, r#"<text x="{}" y="{}">{x}</text>"#, num(cx), num(oy - 10.0));
        let _ = writeln!(o, r#"<text x="{}" y="{}">{x}</text>"#, num(cx), num(oy + board_h + 20.0));
    }
    for y in miny..=maxy {
        let cy = oy + (y - miny) as f64 * S + S / 2.0 + 4.0;
        let _ = writeln!(o, r#"<text x="{}" y="{}">{y}</text>"#, num(ox - 16.0), num(cy));
        let _ = writeln!(o, r#"<text x="{}" y="{}">{y}</text>"#, num(ox + board_w + 16.0), num(cy));
    }
    let _ = writeln!(o, "</g>");
}

/// Every tile of the board (`data-order`: the order in which they were placed).
pub fn write_tiles(o: &mut String, game: &Game, frame: &Frame) {
    let rules = &*game.rules;
    let st = &game.st;
    for (i, placed) in st.board.parts.iter().enumerate() {
        let part = i as u32;
        let rp = st.rotated(rules, part);
        let tile = &rules.catalog.tiles[placed.tile as usize];
        let def = &tile.faces[placed.face as usize].parts[placed.part as usize];
        let (x, y) = frame.cell_xy(placed.pos);
        let _ = writeln!(
            o,
            r#"<g class="tile" data-order="{i}" data-cell="{},{}" data-tile="{}" data-rotation="{}" transform="translate({},{})">"#,
            placed.pos.x,
            placed.pos.y,
            esc(&def.name),
            placed.rot.degrees(),
            num(x),
            num(y)
        );
        let _ = writeln!(
            o,
            "<title>{} {} rotation {}{}</title>",
            placed.pos,
            esc(&def.name),
            placed.rot.degrees(),
            esc(&tile_words(rules, def))
        );
        let _ = writeln!(o, r#"<rect width="{s}" height="{s}" fill="{FIELD}"/>"#, s = num(S));
        // Rivers, then roads (under the cities they end at), then cities.
        for f in rp.features.iter().filter(|f| f.kind == FeatureKind::River) {
            let d = way_path(f.sides);
            let _ = writeln!(
                o,
                r#"<path class="river" d="{d}" fill="none" stroke="{RIVER}" stroke-width="16" stroke-linecap="round"/>"#
            );
            if f.sides.count_ones() == 1 {
                let _ = writeln!(o, r#"<circle class="lake" cx="50" cy="50" r="20" fill="{RIVER}"/>"#);
            }
        }
        let roads: Vec<&RotatedFeature> = rp.features.iter().filter(|f| f.kind == FeatureKind::Road).collect();
        for f in &roads {
            let _ = writeln!(
                o,
                r#"<path d="{}" fill="none" stroke="{ROAD_EDGE}" stroke-width="11" stroke-linecap="butt"/>"#,
                way_path(f.sides)
            );
        }
        for f in &roads {
            let _ = writeln!(
                o,
                r#"<path class="road" d="{}" fill="none" stroke="{ROAD}" stroke-width="7" stroke-linecap="butt"/>"#,
                way_path(f.sides)
            );
        }
        let ends = roads.iter().filter(|f| f.sides.count_ones() == 1).count();
        let has_cloister = rp.features.iter().any(|f| f.kind.is_cloister());
        let city_here = rp.features.iter().any(|f| f.kind == FeatureKind::City);
        if ends >= 3 && !has_cloister && !city_here {
            let _ = writeln!(
                o,
                r##"<rect class="junction" x="40" y="40" width="20" height="20" fill="#8d6e63" stroke="#4e342e"/>"##
            );
        }
        for (local, f) in rp.features.iter().enumerate() {
            if f.kind != FeatureKind::City {
                continue;
            }
            let _ = writeln!(
                o,
                r#"<path class="city" d="{}" fill="{CITY}" stroke="{CITY_WALL}" stroke-width="2.5" stroke-linejoin="round"/>"#,
                city_path(f.sides)
            );
            let fd = &def.features[local];
            if fd.pennants > 0 {
                let (ax, ay) = feature_anchor(f);
                let (px, py) = (ax * S + 22.0, ay * S - 4.0);
                let _ = writeln!(
                    o,
                    r##"<path class="pennant" d="M{},{} h12 v7 q0,6 -6,9 q-6,-3 -6,-9 z" fill="#1e4fa0" stroke="#fff" stroke-width="1.2"/>"##,
                    num(px - 6.0),
                    num(py - 8.0)
                );
                if fd.pennants > 1 {
                    let _ = writeln!(
                        o,
                        r##"<text x="{}" y="{}" font-size="9" fill="#fff" text-anchor="middle">{}</text>"##,
                        num(px),
                        num(py + 1.0),
                        fd.pennants
                    );
                }
            }
        }
        for f in rp.features.iter() {
            match f.kind {
                FeatureKind::Monastery => {
                    let _ = writeln!(
                        o,
                        r##"<g class="monastery"><rect x="37" y="42" width="26" height="24" fill="#efe4c8" stroke="#5d4037" stroke-width="1.5"/><path d="M33,43 L50,27 L67,43 Z" fill="#b23a2e" stroke="#5d4037" stroke-width="1.5"/><path d="M50,48 v12 M45,53 h10" stroke="#5d4037" stroke-width="2"/></g>"##
                    );
                }
                FeatureKind::Garden => {
                    let _ = writeln!(
                        o,
                        r##"<g class="garden"><circle cx="50" cy="50" r="15" fill="#2e7d32" stroke="#1b5e20" stroke-width="1.5"/><circle cx="45" cy="46" r="3" fill="#f48fb1"/><circle cx="55" cy="48" r="3" fill="#fff59d"/><circle cx="50" cy="56" r="3" fill="#ce93d8"/></g>"##
                    );
                }
                FeatureKind::Acrobats => {
                    let _ = writeln!(
                        o,
                        r##"<g class="acrobats"><circle cx="50" cy="40" r="13" fill="#fff3e0" stroke="#e65100" stroke-width="2" stroke-dasharray="4 3"/></g>"##
                    );
                }
                _ => {}
            }
        }
        // Markers and modifiers are drawn by their plugins (`Pieces`), their words only in
        // the tile's title.
        let _ = writeln!(
            o,
            r##"<rect width="{s}" height="{s}" fill="none" stroke="#3a3a3a" stroke-width="1"/>"##,
            s = num(S)
        );
        let _ = writeln!(o, "</g>");
    }
}

/// The markers and feature modifiers of a tile part in words (for its hover title).
fn tile_words(rules: &carcassonne_core::Rules, def: &carcassonne_core::tile::TilePart) -> String {
    let cat = &rules.catalog;
    let bits = |mask: u32, names: &[String]| -> Vec<String> {
        names.iter().enumerate().filter(|(b, _)| mask & (1 << b) != 0).map(|(_, n)| n.clone()).collect()
    };
    let mut words = bits(def.markers, &cat.marker_names);
    for f in &def.features {
        words.extend(bits(f.modifiers, &cat.modifier_names));
    }
    if words.is_empty() {
        String::new()
    } else {
        format!(" ({})", words.join(", "))
    }
}

/// The outline of the tile placed last, at `cell` (every cell of a double tile).
pub fn write_highlight(o: &mut String, game: &Game, frame: &Frame, cell: Pos) {
    let board = &game.st.board;
    let Some(first) = board.part_at(cell).map(|i| board.parts[i as usize].first) else { return };
    for placed in board.parts.iter().filter(|p| p.first == first) {
        let (x, y) = frame.cell_xy(placed.pos);
        let _ = writeln!(
            o,
            r##"<rect class="last" x="{}" y="{}" width="96" height="96" fill="none" stroke="#ff6f00" stroke-width="3"/>"##,
            num(x + 2.0),
            num(y + 2.0)
        );
    }
}

/// Whether figure `f` is drawn: every figure during the game; after the final scoring only
/// neutral figures and those whose look stays (the others are back in their supply).
fn shown(game: &Game, f: &Figure) -> bool {
    f.alive
        && (!game.st.is_over()
            || f.owner == NEUTRAL
            || game.rules.figure_kinds.get(f.kind as usize).is_some_and(|k| k.look.stays_at_end))
}

/// Where figure `f` stands in its tile (unit coordinates) and whether it lies in a field.
fn figure_spot(game: &Game, f: &Figure) -> ((f64, f64), bool) {
    let rp = game.st.rotated(&game.rules, f.part);
    match f.node {
        Some(n) => {
            let node = game.st.graph.node(n);
            match rp.features.get(node.local as usize) {
                Some(rf) => (feature_anchor(rf), rf.kind == FeatureKind::Field),
                None => ((0.5, 0.5), false),
            }
        }
        None => ((0.8, 0.8), false),
    }
}

/// The generic look of a figure kind with no look of its own.
fn generic_look(name: &str, follower: bool) -> String {
    if follower {
        r##"<use xlink:href="#meeple"/>"##.to_string()
    } else {
        format!(
            r##"<rect x="-9" y="-9" width="18" height="18" rx="4"/><text y="4" font-size="11" font-weight="bold" fill="#fff" stroke="none" text-anchor="middle">{}</text>"##,
            esc(&name.chars().next().unwrap_or('?').to_uppercase().to_string())
        )
    }
}

/// The look of figure kind `kind`.
fn look_of(game: &Game, kind: u8) -> String {
    match game.rules.figure_kinds.get(kind as usize) {
        Some(k) if !k.look.svg.is_empty() => k.look.svg.clone(),
        Some(k) => generic_look(&k.name, k.follower),
        None => generic_look("figure", true),
    }
}

/// Where each shown figure is drawn on the canvas (centre), spread so that figures sharing
/// a spot stand side by side and neutral figures stand above and left of the others.
fn figure_positions(game: &Game, frame: &Frame) -> Vec<(usize, (f64, f64), bool)> {
    let st = &game.st;
    let mut spots: Vec<((u32, i64, i64), Vec<usize>)> = Vec::new();
    let mut neutral: Vec<((u32, i64, i64), Vec<usize>)> = Vec::new();
    for (i, f) in st.figures.iter().enumerate().filter(|(_, f)| shown(game, f)) {
        let ((ux, uy), _) = figure_spot(game, f);
        let key = (f.part, (ux * 100.0) as i64, (uy * 100.0) as i64);
        let list = if f.owner == NEUTRAL { &mut neutral } else { &mut spots };
        match list.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(i),
            None => list.push((key, vec![i])),
        }
    }
    let mut out = Vec::new();
    for (group, is_neutral) in [(&spots, false), (&neutral, true)] {
        for ((part, kx, ky), ids) in group {
            let (x, y) = frame.cell_xy(st.board.parts[*part as usize].pos);
            let n = ids.len() as f64;
            for (j, &i) in ids.iter().enumerate() {
                let ((_, _), lying) = figure_spot(game, &st.figures[i]);
                let spread = if lying { 26.0 } else { 20.0 };
                let mut fx = *kx as f64 + (j as f64 - (n - 1.0) / 2.0) * spread;
                let mut fy = *ky as f64;
                if is_neutral {
                    fx += -16.0 + j as f64 * 4.0;
                    fy -= 18.0;
                }
                let (fx, fy) = free_spot(&out, (x, y), (fx, fy));
                out.push((i, (x + fx, y + fy), lying));
            }
        }
    }
    out
}

/// The spot nearest `(fx, fy)` in the tile at `(x, y)` (tile coordinates, kept inside the
/// tile) where no figure already placed in `out` stands within 12 px: figures whose
/// features' anchors lie close (e.g. a fairy beside a mayor) never hide each other.
fn free_spot(out: &[(usize, (f64, f64), bool)], (x, y): (f64, f64), (fx, fy): (f64, f64)) -> (f64, f64) {
    const STEPS: [(f64, f64); 13] = [
        (0.0, 0.0),
        (14.0, 0.0),
        (-14.0, 0.0),
        (0.0, 14.0),
        (0.0, -14.0),
        (14.0, 14.0),
        (-14.0, -14.0),
        (14.0, -14.0),
        (-14.0, 14.0),
        (28.0, 0.0),
        (-28.0, 0.0),
        (0.0, 28.0),
        (0.0, -28.0),
    ];
    let place = |(dx, dy): (f64, f64)| ((fx + dx).clamp(12.0, 88.0), (fy + dy).clamp(13.0, 88.0));
    let free = |(px, py): (f64, f64)| {
        out.iter().all(|(_, (ox, oy), _)| (x + px - ox).abs() >= 12.0 || (y + py - oy).abs() >= 12.0)
    };
    STEPS.iter().map(|&d| place(d)).find(|&p| free(p)).unwrap_or_else(|| place((0.0, 0.0)))
}

/// Everything drawn over the tiles for the state of `game`: the plugins' tile markings and
/// icons, the figures (neutral ones on top) and their badges.
pub fn write_figures(o: &mut String, game: &Game, frame: &Frame) {
    write_pieces(o, game, frame, &Pieces::of(game));
}

/// [`write_figures`] with the plugins' drawings already collected.
pub fn write_pieces(o: &mut String, game: &Game, frame: &Frame, pieces: &Pieces) {
    let rules = &*game.rules;
    let st = &game.st;
    let positions = figure_positions(game, frame);
    for m in &pieces.tiles {
        let Some(placed) = st.board.parts.get(m.part as usize) else { continue };
        let (x, y) = frame.cell_xy(placed.pos);
        let _ = writeln!(
            o,
            r#"<g class="piece" data-piece="{}" transform="translate({},{})"><title>{}</title>{}</g>"#,
            esc(&m.piece),
            num(x),
            num(y),
            esc(&m.title),
            m.svg
        );
    }
    let mut per_part: Vec<(u32, usize)> = Vec::new();
    for m in &pieces.tile_icons {
        let Some(placed) = st.board.parts.get(m.part as usize) else { continue };
        let n = match per_part.iter_mut().find(|(p, _)| *p == m.part) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                per_part.push((m.part, 1));
                0
            }
        };
        let (x, y) = frame.cell_xy(placed.pos);
        // A row along the top of the tile from the left corner, or along the bottom when a
        // figure stands where the icon would.
        let ix = x + 11.0 + 20.0 * n as f64;
        let free = |iy: f64| !positions.iter().any(|(_, (fx, fy), _)| (fx - ix).abs() < 18.0 && (fy - iy).abs() < 18.0);
        let iy = [y + 11.0, y + 89.0].into_iter().find(|&iy| free(iy)).unwrap_or(y + 11.0);
        let (ix, iy) = (ix, iy);
        let _ = writeln!(
            o,
            r#"<g class="piece icon" data-piece="{}" transform="translate({},{})"><title>{}</title>{}</g>"#,
            esc(&m.piece),
            num(ix),
            num(iy),
            esc(&m.title),
            m.svg
        );
    }
    let mut per_feature: Vec<((u32, usize), usize)> = Vec::new();
    for m in &pieces.feature_icons {
        let Some(placed) = st.board.parts.get(m.part as usize) else { continue };
        let rp = st.rotated(rules, m.part);
        let Some(rf) = rp.features.get(m.local) else { continue };
        let key = (m.part, m.local);
        let n = match per_feature.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                per_feature.push((key, 1));
                0
            }
        };
        let (ax, ay) = feature_anchor(rf);
        // Below the feature's figures (above them near the south edge).
        let dy = if ay > 0.7 { -20.0 } else { 19.0 };
        let ix = (ax * S + 16.0 * n as f64 - 8.0 * (n > 0) as u8 as f64).clamp(9.0, 91.0);
        let iy = (ay * S + dy).clamp(9.0, 91.0);
        let (x, y) = frame.cell_xy(placed.pos);
        let _ = writeln!(
            o,
            r#"<g class="piece icon" data-piece="{}" transform="translate({},{})"><title>{}</title>{}</g>"#,
            esc(&m.piece),
            num(x + ix),
            num(y + iy),
            esc(&m.title),
            m.svg
        );
    }
    for &(i, (fx, fy), lying) in &positions {
        let f = &st.figures[i];
        let kind = rules.figure_kinds.get(f.kind as usize);
        let kind_name = kind.map_or("figure", |k| k.name.as_str());
        let place = st.figure_place_name(rules, f);
        let look = look_of(game, f.kind);
        let (colour, outline, class, title) = if f.owner == NEUTRAL {
            (NEUTRAL_COLOUR, "#ffffff", "figure neutral", format!("{kind_name} (neutral) at {place}"))
        } else {
            let c = f.owner as usize % SEAT_COLOURS.len();
            let outline = if c == 3 { "#eeeeee" } else { "#111111" };
            let title = format!("seat {} {}{} at {}", f.owner, kind_name, if lying { " (farmer)" } else { "" }, place);
            (SEAT_COLOURS[c], outline, if lying { "figure lying" } else { "figure" }, title)
        };
        let owner = if f.owner == NEUTRAL { String::new() } else { format!(r#" data-owner="{}""#, f.owner) };
        let rotate = if lying { " rotate(90)" } else { "" };
        let _ = writeln!(
            o,
            r#"<g class="{class}"{owner} data-kind="{k}" data-piece="{k}" transform="translate({},{}){rotate}" fill="{colour}" color="{colour}" stroke="{outline}" stroke-width="1.3"><title>{}</title>{look}</g>"#,
            num(fx),
            num(fy),
            esc(&title),
            k = esc(kind_name),
        );
    }
    for (id, svg, title) in &pieces.badges {
        let Some(&(_, (fx, fy), _)) = positions.iter().find(|(i, _, _)| *i == *id as usize) else { continue };
        let _ = writeln!(
            o,
            r#"<g class="badge" transform="translate({},{})"><title>{}</title>{svg}</g>"#,
            num(fx + 11.0),
            num(fy - 11.0),
            esc(title)
        );
    }
}

/// The score panel under the board: points per source, the supply (figures, and the pieces
/// the plugins list), neutral figures.
fn write_scores(o: &mut String, game: &Game, frame: &Frame, pic: &Picture, pieces: &Pieces) {
    let rules = &*game.rules;
    let st = &game.st;
    let Frame { oy, board_h, .. } = *frame;
    // Scores.
    let py = oy + board_h + MARGIN + 8.0;
    let _ = writeln!(o, r##"<g class="scores" font-size="14" fill="#222">"##);
    let over = st.is_over();
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-weight="bold">{}</text>"#,
        num(MARGIN),
        num(py + 14.0),
        if over { "Final scores" } else { "Scores" }
    );
    for seat in 0..st.players {
        let ly = py + (2 * seat + 1) as f64 * LINE;
        let colour = SEAT_COLOURS[seat % SEAT_COLOURS.len()];
        let who = pic.seat_names.as_ref().and_then(|n| n.get(seat)).map(|n| format!(" ({n})")).unwrap_or_default();
        let by_source: Vec<String> = rules
            .sources
            .iter()
            .enumerate()
            .map(|(i, name)| format!("{name} {}", st.points_by_source[seat][i]))
            .collect();
        let mut supply: Vec<String> = rules
            .figure_kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.per_player > 0)
            .map(|(i, k)| {
                // Figures the final picture no longer shows are back in the supply.
                let back = st
                    .figures
                    .iter()
                    .filter(|f| f.alive && f.owner as usize == seat && f.kind as usize == i && !shown(game, f))
                    .count();
                let n = st.supply[seat][i] as usize + back;
                format!("{n} {}{}", k.name, if n == 1 { "" } else { "s" })
            })
            .collect();
        supply.extend(pieces.supply.iter().filter(|(s, _, _)| *s == seat).map(|(_, label, n)| format!("{n} {label}")));
        let _ = writeln!(
            o,
            r##"<g class="score" data-seat="{seat}" data-score="{score}"><use xlink:href="#meeple" transform="translate({},{}) scale(0.7)" fill="{colour}" stroke="#111" stroke-width="1.3"/><text x="{}" y="{}"><tspan font-weight="bold">seat {seat} {}{}: {score}</tspan> <tspan fill="#555" font-size="12">{}</tspan><tspan x="{}" y="{}" fill="#555" font-size="12">supply: {}</tspan></text></g>"##,
            num(MARGIN + 8.0),
            num(ly + 9.0),
            num(MARGIN + 22.0),
            num(ly + 14.0),
            SEAT_COLOUR_NAMES[seat % SEAT_COLOUR_NAMES.len()],
            esc(&who),
            esc(&by_source.join(", ")),
            num(MARGIN + 22.0),
            num(ly + 14.0 + LINE * 0.8),
            esc(&supply.join(", ")),
            score = st.scores()[seat],
        );
    }
    let neutral: Vec<String> = st
        .figures
        .iter()
        .filter(|f| f.alive && f.owner == NEUTRAL)
        .map(|f| {
            let name = rules.figure_kinds.get(f.kind as usize).map_or("figure", |k| k.name.as_str());
            format!("{name} at {}", st.figure_place_name(rules, f))
        })
        .collect();
    if !neutral.is_empty() {
        let ly = py + (2 * st.players + 1) as f64 * LINE;
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="12">neutral figures: {}</text>"#,
            num(MARGIN),
            num(ly + 14.0),
            esc(&neutral.join(", "))
        );
    }
    let _ = writeln!(o, "</g>");
}

/// The legend's entries: (piece, markup, text). The figure kinds drawn (every kind of the
/// rules if `all_kinds`), then the plugins' pieces drawn.
pub fn legend_entries(game: &Game, all_kinds: bool) -> Vec<(String, String, String)> {
    legend_of(game, &Pieces::of(game), all_kinds)
}

fn legend_of(game: &Game, pieces: &Pieces, all_kinds: bool) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut lying = false;
    for (i, k) in game.rules.figure_kinds.iter().enumerate() {
        let drawn: Vec<&Figure> = game.st.figures.iter().filter(|f| f.kind as usize == i && shown(game, f)).collect();
        if drawn.is_empty() && !all_kinds {
            continue;
        }
        lying |= k.follower && drawn.iter().any(|f| figure_spot(game, f).1);
        let (svg, text) = pieces.legend_of(&k.name, "");
        let svg = if svg.is_empty() { look_of(game, i as u8) } else { svg.to_string() };
        let text = if text == k.name && k.per_player == 0 { format!("{} (neutral)", k.name) } else { text.to_string() };
        out.push((k.name.clone(), svg, text));
    }
    if lying || (all_kinds && game.rules.figure_kinds.iter().any(|k| k.follower)) {
        out.push((
            "farmer".into(),
            r##"<use xlink:href="#meeple" transform="rotate(90)"/>"##.into(),
            "farmer (a lying follower)".into(),
        ));
    }
    for (name, svg) in pieces.drawn() {
        let (svg, text) = pieces.legend_of(&name, &svg);
        out.push((name.clone(), svg.to_string(), text.to_string()));
    }
    out
}

/// The legend under the score panel: one entry per piece drawn (see [`legend_entries`]).
pub fn write_legend(o: &mut String, game: &Game, frame: &Frame, pieces: &Pieces, all_kinds: bool) {
    let entries = legend_of(game, pieces, all_kinds);
    if entries.is_empty() {
        return;
    }
    let per_row = (((frame.width - 2.0 * MARGIN) / LEGEND_W).floor() as usize).max(1);
    let top = frame.legend_y(game);
    let _ = writeln!(
        o,
        r##"<g class="legend" font-size="12" fill="#222"><text x="{}" y="{}" font-weight="bold">Legend</text>"##,
        num(MARGIN),
        num(top + 12.0)
    );
    for (i, (piece, svg, text)) in entries.iter().enumerate() {
        let x = MARGIN + (i % per_row) as f64 * LEGEND_W;
        let y = top + 20.0 + (i / per_row) as f64 * LINE;
        let _ = writeln!(
            o,
            r##"<g class="legend-entry" data-piece="{}"><g transform="translate({},{}) scale(0.8)" fill="#9e9e9e" color="#9e9e9e" stroke="#333" stroke-width="1.2">{svg}</g><text x="{}" y="{}">{}</text></g>"##,
            esc(piece),
            num(x + 12.0),
            num(y + 12.0),
            num(x + 28.0),
            num(y + 16.0),
            esc(text)
        );
    }
    let _ = writeln!(o, "</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn city_paths_close() {
        for mask in 1u8..16 {
            let d = city_path(mask);
            assert!(d.starts_with('M') && d.ends_with('Z'), "{mask}: {d}");
        }
        assert_eq!(city_path(0b1111), "M0,0 L100,0 L100,100 L0,100 L0,0 Z");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
