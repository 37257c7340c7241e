//! Board geometry in the notation of NOTATION.md: cells, sides, half-edges, rotations.

use std::fmt;

/// A board cell `(x, y)`: x grows east, y grows south; the start tile is at `(0, 0)`.
/// `repr(C)`: part of [`crate::Action`]'s fixed layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
#[repr(C)]
pub struct Pos {
    /// Column: grows east.
    pub x: i32,
    /// Row: grows south.
    pub y: i32,
}

impl Pos {
    /// The cell `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }
    /// The neighbouring cell across `side`.
    #[inline]
    pub fn step(self, side: Side) -> Pos {
        let (dx, dy) = side.delta();
        Pos::new(self.x + dx, self.y + dy)
    }
    /// The eight surrounding cells, clockwise from the north-west.
    pub fn ring(self) -> [Pos; 8] {
        let Pos { x, y } = self;
        [
            Pos::new(x - 1, y - 1),
            Pos::new(x, y - 1),
            Pos::new(x + 1, y - 1),
            Pos::new(x + 1, y),
            Pos::new(x + 1, y + 1),
            Pos::new(x, y + 1),
            Pos::new(x - 1, y + 1),
            Pos::new(x - 1, y),
        ]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A side of a tile: `N E S W` (indices 0..4, clockwise).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];
    pub const NAMES: [&'static str; 4] = ["N", "E", "S", "W"];

    #[inline]
    pub fn from_index(i: usize) -> Side {
        Side::ALL[i & 3]
    }
    #[inline]
    pub fn opposite(self) -> Side {
        Side::from_index(self as usize + 2)
    }
    /// The side this one becomes after turning the tile by `rot`.
    #[inline]
    pub fn rotated(self, rot: Rotation) -> Side {
        Side::from_index(self as usize + rot.quarters() as usize)
    }
    #[inline]
    pub fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }
    pub fn name(self) -> &'static str {
        Side::NAMES[self as usize]
    }
    pub fn parse(s: &str) -> Option<Side> {
        Side::NAMES.iter().position(|n| *n == s).map(Side::from_index)
    }
}

/// Field half-edges clockwise from the north-west corner:
/// `Nw Ne En Es Se Sw Ws Wn` (indices 0..8). Half-edge `h` lies on side `h / 2`.
pub const HALF_NAMES: [&str; 8] = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"];

/// Parses a half-edge name (`Nw`..`Wn`) to its index.
pub fn parse_half(s: &str) -> Option<u8> {
    HALF_NAMES.iter().position(|n| *n == s).map(|i| i as u8)
}

/// The half-edge of the neighbouring tile that half-edge `h` meets across its side.
#[inline]
pub fn half_mirror(h: u8) -> u8 {
    const M: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];
    M[h as usize & 7]
}

/// A clockwise rotation: 0, 90, 180 or 270 degrees (stored as quarter turns, one byte).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Rotation(u8);

impl Rotation {
    /// The four rotations, ascending.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];
    /// From quarter turns (taken modulo 4).
    pub const fn from_quarters(q: u8) -> Self {
        Rotation(q & 3)
    }
    /// From degrees; only 0, 90, 180, 270 are valid.
    pub fn from_degrees(d: i64) -> Option<Self> {
        match d {
            0 | 90 | 180 | 270 => Some(Rotation((d / 90) as u8)),
            _ => None,
        }
    }
    /// Quarter turns clockwise (0 to 3).
    pub const fn quarters(self) -> u8 {
        self.0
    }
    /// Degrees clockwise: 0, 90, 180 or 270.
    pub const fn degrees(self) -> u16 {
        self.0 as u16 * 90
    }
    /// This rotation followed by `other`.
    pub fn then(self, other: Rotation) -> Rotation {
        Rotation::from_quarters(self.0 + other.0)
    }
}

/// Bit mask helpers for side masks (bit = side index) and half-edge masks (bit = half index).
#[inline]
pub fn rotate_side_mask(mask: u8, rot: Rotation) -> u8 {
    let q = rot.quarters() as u32;
    let m = mask as u32 & 0xF;
    (((m << q) | (m >> (4 - q))) & 0xF) as u8
}

#[inline]
pub fn rotate_half_mask(mask: u8, rot: Rotation) -> u8 {
    mask.rotate_left(2 * rot.quarters() as u32)
}

/// Rotates an offset `(dx, dy)` clockwise by `rot` (y grows south).
#[inline]
pub fn rotate_offset(dx: i32, dy: i32, rot: Rotation) -> (i32, i32) {
    match rot.quarters() {
        0 => (dx, dy),
        1 => (-dy, dx),
        2 => (-dx, -dy),
        _ => (dy, -dx),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_maps_as_notation() {
        // NOTATION.md: N->E E->S S->W W->N and Nw->En ... Wn->Ne.
        let r = Rotation::from_quarters(1);
        assert_eq!(Side::N.rotated(r), Side::E);
        assert_eq!(Side::W.rotated(r), Side::N);
        let m = rotate_half_mask(1 << parse_half("Nw").unwrap(), r);
        assert_eq!(m, 1 << parse_half("En").unwrap());
        let m = rotate_half_mask(1 << parse_half("Wn").unwrap(), r);
        assert_eq!(m, 1 << parse_half("Ne").unwrap());
        assert_eq!(rotate_side_mask(0b1000, r), 0b0001);
    }

    #[test]
    fn mirrors_as_notation() {
        let h = |s| parse_half(s).unwrap();
        assert_eq!(half_mirror(h("Ne")), h("Se"));
        assert_eq!(half_mirror(h("Nw")), h("Sw"));
        assert_eq!(half_mirror(h("En")), h("Wn"));
        assert_eq!(half_mirror(h("Es")), h("Ws"));
    }

    #[test]
    fn offsets_turn_clockwise() {
        // FDSPRING at 90: the second half (east at 0) lies south.
        assert_eq!(rotate_offset(1, 0, Rotation::from_quarters(1)), (0, 1));
        assert_eq!(Pos::new(0, 0).step(Side::N), Pos::new(0, -1));
    }
}
