//! What the plugins draw on the board picture ([`carcassonne_core::draw`]), collected
//! from every plugin's [`carcassonne_core::Plugin::draw`], and the legend of a picture.

use carcassonne_core::{Canvas, FigureId, Game};

/// One drawing of a plugin on a placed part (or one of its features).
#[derive(Clone, Debug)]
pub struct Mark {
    pub part: u32,
    /// Feature index in the part, for feature icons.
    pub local: usize,
    pub piece: String,
    pub svg: String,
    pub title: String,
}

/// Everything the plugins drew for one state of a game.
#[derive(Clone, Debug, Default)]
pub struct Pieces {
    pub tiles: Vec<Mark>,
    pub tile_icons: Vec<Mark>,
    pub feature_icons: Vec<Mark>,
    pub badges: Vec<(FigureId, String, String)>,
    /// (seat, label, count).
    pub supply: Vec<(usize, String, u32)>,
    /// Piece name, markup and text given by [`Canvas::legend`].
    pub legend: Vec<(String, String, String)>,
}

impl Pieces {
    /// Asks every plugin of `game`'s rules to draw the game as it stands.
    pub fn of(game: &Game) -> Pieces {
        let mut p = Pieces::default();
        for (me, lp) in game.rules.plugins.iter().enumerate() {
            lp.plugin.draw(&game.rules, &game.st, me, &mut p);
        }
        p
    }

    /// The pieces drawn on the board (names, in drawing order, once each) with the markup
    /// of their first drawing.
    pub fn drawn(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for m in self.tiles.iter().chain(&self.tile_icons).chain(&self.feature_icons) {
            if !out.iter().any(|(n, _)| *n == m.piece) {
                out.push((m.piece.clone(), m.svg.clone()));
            }
        }
        out
    }

    /// The legend's text and markup for piece `name` (its [`Canvas::legend`] entry if any).
    pub fn legend_of<'a>(&'a self, name: &'a str, drawn_svg: &'a str) -> (&'a str, &'a str) {
        match self.legend.iter().find(|(n, _, _)| n == name) {
            Some((_, svg, text)) => (svg, text),
            None => (drawn_svg, name),
        }
    }
}

impl Canvas for Pieces {
    fn on_tile(&mut self, part: u32, piece: &str, svg: &str, title: &str) {
        self.tiles.push(Mark { part, local: 0, piece: piece.into(), svg: svg.into(), title: title.into() });
    }
    fn tile_icon(&mut self, part: u32, piece: &str, svg: &str, title: &str) {
        self.tile_icons.push(Mark { part, local: 0, piece: piece.into(), svg: svg.into(), title: title.into() });
    }
    fn feature_icon(&mut self, part: u32, local: usize, piece: &str, svg: &str, title: &str) {
        self.feature_icons.push(Mark { part, local, piece: piece.into(), svg: svg.into(), title: title.into() });
    }
    fn figure_badge(&mut self, id: FigureId, svg: &str, title: &str) {
        self.badges.push((id, svg.into(), title.into()));
    }
    fn supply(&mut self, seat: usize, label: &str, count: u32) {
        self.supply.push((seat, label.into(), count));
    }
    fn legend(&mut self, piece: &str, svg: &str, text: &str) {
        if !self.legend.iter().any(|(n, _, _)| n == piece) {
            self.legend.push((piece.into(), svg.into(), text.into()));
        }
    }
}
