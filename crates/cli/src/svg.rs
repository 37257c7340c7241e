//! Draws a game's board as a self-contained SVG picture: every tile with its cities, roads,
//! rivers, fields, monasteries, gardens, pennants and markers, the figures in the players'
//! colours, neutral figures, coordinates and the scores.

use std::fmt::Write;

use carcassonne_core::tile::{FeatureKind, RotatedFeature};
use carcassonne_core::{Game, Pos, NEUTRAL};

/// Pixels per cell.
const S: f64 = 100.0;
/// Room for the coordinate labels around the board.
const MARGIN: f64 = 36.0;
/// Height of the title above the board.
const HEADER: f64 = 56.0;
/// Height of one line of the score panel.
const LINE: f64 = 24.0;

/// Seat colours: blue, red, yellow, black, green, pink.
pub const SEAT_COLOURS: [&str; 6] = ["#1565c0", "#d32f2f", "#fbc02d", "#212121", "#2e7d32", "#ec407a"];
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
    /// The frame of `game`'s board (with room for its score panel).
    pub fn of(game: &Game) -> Frame {
        let st = &game.st;
        let (minx, miny, maxx, maxy) = if st.board.is_empty() { (0, 0, 0, 0) } else { st.board.bounds };
        let board_w = (maxx - minx + 1) as f64 * S;
        let board_h = (maxy - miny + 1) as f64 * S;
        let (ox, oy) = (MARGIN, HEADER + MARGIN);
        let panel_lines = st.players + 2;
        let width = (board_w + 2.0 * MARGIN).max(640.0);
        let height = oy + board_h + MARGIN + panel_lines as f64 * LINE + 12.0;
        Frame { minx, miny, maxx, maxy, ox, oy, board_w, board_h, width, height }
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
    let _ =
        writeln!(o, r##"<text x="{}" y="44" font-size="13" fill="#444">{}</text>"##, num(MARGIN), esc(&pic.subtitle));
    write_board(&mut o, &frame);
    write_tiles(&mut o, game, &frame);
    if let Some(last) = pic.highlight {
        write_highlight(&mut o, game, &frame, last);
    }
    write_figures(&mut o, game, &frame);
    write_scores(&mut o, game, &frame, pic);
    let _ = writeln!(o, "</svg>");
    o
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
        let _ = writeln!(o, "<title>{} {} rotation {}</title>", placed.pos, esc(&def.name), placed.rot.degrees());
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
        // Modifier names (inn, cathedral, ...) on their features.
        for (local, f) in rp.features.iter().enumerate() {
            let mods = def.features[local].modifiers;
            if mods == 0 {
                continue;
            }
            let names: Vec<&str> = rules
                .catalog
                .modifier_names
                .iter()
                .enumerate()
                .filter(|(b, _)| mods & (1 << b) != 0)
                .map(|(_, n)| n.as_str())
                .collect();
            let (ax, ay) = feature_anchor(f);
            let _ = writeln!(
                o,
                r##"<text class="modifier" x="{}" y="{}" font-size="9" fill="#3e2723" text-anchor="middle">{}</text>"##,
                num(ax * S),
                num(ay * S + 14.0),
                esc(&names.join(","))
            );
        }
        // Markers of the part.
        let markers: Vec<&str> = rules
            .catalog
            .marker_names
            .iter()
            .enumerate()
            .filter(|(b, _)| def.markers & (1 << b) != 0)
            .map(|(_, n)| n.as_str())
            .collect();
        if !markers.is_empty() {
            let label = markers.join(",");
            let w = 6.0 * label.len() as f64 + 6.0;
            let _ = writeln!(
                o,
                r##"<g class="marker"><rect x="{}" y="84" width="{}" height="13" rx="3" fill="#fff8e1" stroke="#8d6e63" stroke-width="0.8"/><text x="{}" y="94" font-size="9" fill="#4e342e" text-anchor="end">{}</text></g>"##,
                num(97.0 - w),
                num(w),
                num(94.0),
                esc(&label)
            );
        }
        let _ = writeln!(
            o,
            r##"<text class="cell" x="3" y="11" font-size="9" fill="#1b3d0f" opacity="0.85">{},{} {}</text>"##,
            placed.pos.x,
            placed.pos.y,
            esc(&def.name)
        );
        let _ = writeln!(
            o,
            r##"<rect width="{s}" height="{s}" fill="none" stroke="#3a3a3a" stroke-width="1"/>"##,
            s = num(S)
        );
        let _ = writeln!(o, "</g>");
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

/// The figures on the board, on top of every tile.
pub fn write_figures(o: &mut String, game: &Game, frame: &Frame) {
    let rules = &*game.rules;
    let st = &game.st;
    let mut taken: Vec<(u32, (i64, i64))> = Vec::new();
    for f in st.figures.iter().filter(|f| f.alive) {
        let Some(placed) = st.board.parts.get(f.part as usize) else { continue };
        let rp = st.rotated(rules, f.part);
        let (ux, uy) = match f.node {
            Some(n) => {
                let node = st.graph.node(n);
                rp.features.get(node.local as usize).map_or((0.5, 0.5), feature_anchor)
            }
            None => (0.8, 0.8),
        };
        let key = (f.part, ((ux * 100.0) as i64, (uy * 100.0) as i64));
        let nth = taken.iter().filter(|k| **k == key).count();
        taken.push(key);
        let (x, y) = frame.cell_xy(placed.pos);
        let (fx, fy) = (x + ux * S + nth as f64 * 14.0, y + uy * S);
        let kind = rules.figure_kinds.get(f.kind as usize);
        let kind_name = kind.map_or("figure", |k| k.name.as_str());
        let place = st.figure_place_name(rules, f);
        if f.owner == NEUTRAL {
            let _ = writeln!(
                o,
                r##"<g class="figure neutral" data-kind="{k}" transform="translate({},{})"><title>{k} (neutral) at {}</title><path d="M0,-13 L11,0 L0,13 L-11,0 Z" fill="{NEUTRAL_COLOUR}" stroke="#fff" stroke-width="1.5"/><text y="4" font-size="11" font-weight="bold" fill="#fff" text-anchor="middle">{}</text></g>"##,
                num(fx),
                num(fy),
                esc(&place),
                esc(&kind_name.chars().next().unwrap_or('?').to_uppercase().to_string()),
                k = esc(kind_name),
            );
            continue;
        }
        let colour = SEAT_COLOURS[f.owner as usize % SEAT_COLOURS.len()];
        let outline = if f.owner as usize % SEAT_COLOURS.len() == 3 { "#eeeeee" } else { "#111111" };
        let follower = kind.is_none_or(|k| k.follower);
        let scale = kind.map_or(1.0, |k| if k.strength >= 2 { 1.35 } else { 1.0 });
        let title = format!("seat {} {} at {}", f.owner, kind_name, place);
        if follower {
            let _ = writeln!(
                o,
                r##"<g class="figure" data-owner="{}" data-kind="{}" transform="translate({},{}) scale({})"><title>{}</title><use xlink:href="#meeple" fill="{colour}" stroke="{outline}" stroke-width="1.3"/></g>"##,
                f.owner,
                esc(kind_name),
                num(fx),
                num(fy),
                num(scale),
                esc(&title)
            );
        } else {
            let _ = writeln!(
                o,
                r##"<g class="figure" data-owner="{}" data-kind="{}" transform="translate({},{})"><title>{}</title><rect x="-9" y="-9" width="18" height="18" rx="4" fill="{colour}" stroke="{outline}" stroke-width="1.3"/><text y="4" font-size="11" font-weight="bold" fill="#fff" text-anchor="middle">{}</text></g>"##,
                f.owner,
                esc(kind_name),
                num(fx),
                num(fy),
                esc(&title),
                esc(&kind_name.chars().next().unwrap_or('?').to_uppercase().to_string())
            );
        }
    }
}

/// The score panel under the board.
fn write_scores(o: &mut String, game: &Game, frame: &Frame, pic: &Picture) {
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
        let ly = py + (seat + 1) as f64 * LINE;
        let colour = SEAT_COLOURS[seat % SEAT_COLOURS.len()];
        let who = pic.seat_names.as_ref().and_then(|n| n.get(seat)).map(|n| format!(" ({n})")).unwrap_or_default();
        let by_source: Vec<String> = rules
            .sources
            .iter()
            .enumerate()
            .map(|(i, name)| format!("{name} {}", st.points_by_source[seat][i]))
            .collect();
        let supply: Vec<String> = rules
            .figure_kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.per_player > 0)
            .map(|(i, k)| {
                let n = st.supply[seat][i];
                format!("{n} {}{} in supply", k.name, if n == 1 { "" } else { "s" })
            })
            .collect();
        let _ = writeln!(
            o,
            r##"<g class="score" data-seat="{seat}" data-score="{score}"><use xlink:href="#meeple" transform="translate({},{}) scale(0.7)" fill="{colour}" stroke="#111" stroke-width="1.3"/><text x="{}" y="{}"><tspan font-weight="bold">seat {seat} {}{}: {score}</tspan> <tspan fill="#555" font-size="12">{}; {}</tspan></text></g>"##,
            num(MARGIN + 8.0),
            num(ly + 9.0),
            num(MARGIN + 22.0),
            num(ly + 14.0),
            SEAT_COLOUR_NAMES[seat % SEAT_COLOUR_NAMES.len()],
            esc(&who),
            esc(&by_source.join(", ")),
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
        let ly = py + (st.players + 1) as f64 * LINE;
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
