//! How plugins draw their pieces on the board picture (`carcassonne render`, the HTML
//! viewer): a renderer-neutral [`Canvas`] that [`crate::Plugin::draw`] writes to, and the
//! [`FigureLook`] a plugin registers with a figure kind ([`crate::Registry::figure_look`]).
//!
//! Markup is an SVG fragment in a local box: for a figure or an icon, centred on (0, 0) and
//! about 24 px across; for a whole tile, its 100 × 100 box (north up, as on the board).
//! A seat's figure is drawn inside a group whose `fill` and `color` are the seat's colour
//! (neutral figures: purple), so a look that sets no fill, or uses `currentColor`, takes the
//! owner's colour. The renderer places icons and badges so that they overlap neither each
//! other nor the figures; the words go in `title` (a hover tooltip), never on the tile.

use crate::state::FigureId;

/// How the figures of one kind are drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FigureLook {
    /// SVG markup centred on (0, 0), about 24 px high. Empty: the generic look (a meeple
    /// for followers, a rounded square with the kind's initial for other figures).
    pub svg: String,
    /// Whether the figure stays on the board after the final scoring (e.g. a barn, a
    /// dragon); other figures are drawn returned to their supply in the final picture.
    pub stays_at_end: bool,
}

impl FigureLook {
    /// A look drawn with `svg`, returned at the end.
    pub fn new(svg: impl Into<String>) -> FigureLook {
        FigureLook { svg: svg.into(), stays_at_end: false }
    }

    /// The same look, staying on the board after the final scoring.
    pub fn staying(mut self) -> FigureLook {
        self.stays_at_end = true;
        self
    }
}

/// Where [`crate::Plugin::draw`] puts what its plugin shows. `piece` names the kind of
/// thing drawn (e.g. "tower", "volcano"): the renderer lists every piece drawn in its
/// legend (with the first markup drawn under that name, or the one given to
/// [`Canvas::legend`]). `title` is the hover text of one drawing (e.g. "tower of height 3").
pub trait Canvas {
    /// Markup over the whole tile of placed part `part` (its 100 × 100 box), above the tile
    /// and its icons, under the figures (e.g. a tower with its pieces).
    fn on_tile(&mut self, part: u32, piece: &str, svg: &str, title: &str);
    /// A small icon (centred on (0, 0), at most 20 px) on the tile of placed part `part`
    /// (e.g. a volcano, a portal); the renderer lines the icons of a tile up in a free row.
    fn tile_icon(&mut self, part: u32, piece: &str, svg: &str, title: &str);
    /// A small icon (centred on (0, 0), at most 16 px) on feature `local` (index in the
    /// part's rotated features) of placed part `part` (e.g. an inn on a road), placed
    /// beside the feature's figures.
    fn feature_icon(&mut self, part: u32, local: usize, piece: &str, svg: &str, title: &str);
    /// A badge (centred on (0, 0), at most 12 px) at the upper right of figure `id` (e.g. a
    /// flock's size, the dragon's facing), drawn on top of it.
    fn figure_badge(&mut self, id: FigureId, svg: &str, title: &str);
    /// `count` pieces that are no figure (tower pieces, castle tokens, prisoners) in, or held
    /// by, `seat`'s supply, listed with the figures of the seat's supply.
    fn supply(&mut self, seat: usize, label: &str, count: u32);
    /// Describes piece `piece` in the legend with `svg` (centred on (0, 0)) and `text`.
    fn legend(&mut self, piece: &str, svg: &str, text: &str);
}

/// Seat colours of the board picture (blue, red, yellow, black, green, pink), for pieces a
/// plugin draws in a seat's colour outside a figure (e.g. a castle).
pub const SEAT_COLOURS: [&str; 6] = ["#1565c0", "#d32f2f", "#fbc02d", "#212121", "#2e7d32", "#ec407a"];

/// The colour of seat `seat` ([`SEAT_COLOURS`]).
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

/// Placed parts whose markers include a bit of `mask`, in placement order (for icons of a
/// tile marker).
pub fn parts_marked(st: &crate::State, mask: u32) -> impl Iterator<Item = u32> + '_ {
    (0..st.board.parts.len() as u32).filter(move |&p| mask != 0 && st.board.parts[p as usize].markers & mask != 0)
}

/// Features of placed parts whose modifiers include a bit of `mask`: (part, index in the
/// part's features, the feature's modifier bits), in placement order (for icons of a
/// feature modifier).
pub fn features_modified<'a>(
    rules: &'a crate::Rules,
    st: &'a crate::State,
    mask: u32,
) -> impl Iterator<Item = (u32, usize, u32)> + 'a {
    st.board.parts.iter().enumerate().flat_map(move |(i, p)| {
        let def = &rules.catalog.tiles[p.tile as usize].faces[p.face as usize].parts[p.part as usize];
        def.features
            .iter()
            .enumerate()
            .filter(move |(_, f)| mask != 0 && f.modifiers & mask != 0)
            .map(move |(local, f)| (i as u32, local, f.modifiers))
    })
}
