//! Tile types: features of each tile part, markers, and precomputed rotations.

use crate::geometry::{rotate_half_mask, rotate_offset, rotate_side_mask, Rotation, Side, HALF_NAMES};

/// Index of a tile type in the [`Catalog`](crate::catalog::Catalog).
pub type TileTypeId = u16;

/// The kinds of feature a tile part can hold.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FeatureKind {
    City = 0,
    Road = 1,
    Field = 2,
    Monastery = 3,
    Garden = 4,
    River = 5,
    /// An acrobat space (`acrobats[]`, TILES-MORE.md rule 19): a feature of its own that
    /// touches no edge and never completes, on which followers are stacked (the plugin
    /// that reads it decides how many).
    Acrobats = 6,
}

impl FeatureKind {
    pub const ALL: [FeatureKind; 7] = [
        FeatureKind::City,
        FeatureKind::Road,
        FeatureKind::Field,
        FeatureKind::Monastery,
        FeatureKind::Garden,
        FeatureKind::River,
        FeatureKind::Acrobats,
    ];
    pub fn name(self) -> &'static str {
        // A `const` table: an array literal would be built on the stack at every call.
        const NAMES: [&str; 7] = ["city", "road", "field", "monastery", "garden", "river", "acrobats"];
        NAMES[self as usize]
    }
    pub fn parse(s: &str) -> Option<Self> {
        FeatureKind::ALL.iter().copied().find(|k| k.name() == s)
    }
    /// Features that join across whole sides (city, road, river).
    pub fn is_edge_feature(self) -> bool {
        matches!(self, FeatureKind::City | FeatureKind::Road | FeatureKind::River)
    }
    /// Features completed by being surrounded by 8 tiles (monastery, garden).
    pub fn is_cloister(self) -> bool {
        matches!(self, FeatureKind::Monastery | FeatureKind::Garden)
    }
    /// Features that never complete (fields, acrobat spaces).
    pub fn never_completes(self) -> bool {
        matches!(self, FeatureKind::Field | FeatureKind::Acrobats)
    }
}

/// What a side of a tile shows, for edge matching.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SideKind {
    Field = 0,
    City = 1,
    Road = 2,
    River = 3,
    /// A side that shows no feature and fits any neighbouring side, closing whatever meets
    /// it (TILES-MORE.md rule 21: the abbey's sides, JCZ `AbbeyEdge`).
    Closed = 4,
}

impl SideKind {
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 5] = ["field", "city", "road", "river", "closed side"];
        NAMES[self as usize]
    }
}

/// Whether two touching sides (kinds as in a packed signature) fit: the same kind, or
/// either one closed ([`SideKind::Closed`]).
#[inline]
pub fn sides_fit(mine: u32, theirs: u32) -> bool {
    mine == theirs || mine == SideKind::Closed as u32 || theirs == SideKind::Closed as u32
}

/// One feature of a tile part, unrotated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    pub kind: FeatureKind,
    /// Sides covered (bit = side index), for cities, roads and rivers.
    pub sides: u8,
    /// Half-edges covered (bit = half index), for fields.
    pub halves: u8,
    /// Pennants (coats of arms) on this city part.
    pub pennants: u8,
    /// Sides this city part also opens onto, written on another city part of the tile
    /// (`also=X`, TILES-MORE.md rule 20): it joins the city beyond them too.
    pub also: u8,
    /// Modifier bits; names in [`Catalog::modifier_names`](crate::catalog::Catalog).
    pub modifiers: u32,
    /// For fields: the cities this field touches, as feature indices within the part.
    pub adj_cities: Vec<u8>,
    /// For roads: the features of the part the road ends at (`ends=city#k`,
    /// `ends=monastery`: a city gate or a monastery, TILES-MORE.md rule 17), as feature
    /// indices within the part (the wagon's 1st-edition move, WAGON-4).
    pub ends_at: Vec<u8>,
}

/// A feature as it lies on the placed (rotated) tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RotatedFeature {
    pub kind: FeatureKind,
    pub sides: u8,
    pub halves: u8,
}

/// One part of a tile rotated by some rotation, with lookup tables for joining.
#[derive(Clone, Debug)]
pub struct RotatedPart {
    /// Offset of this part from the first part's cell.
    pub offset: (i32, i32),
    /// Side kinds packed 8 bits per side (N lowest), for fast matching.
    pub signature: u32,
    /// Feature index on each side (city, road or river), or `NONE`.
    pub side_feature: [u8; 4],
    /// Field feature index on each half-edge, or `NONE`.
    pub half_feature: [u8; 8],
    /// City feature index that also opens onto each side (`also=X`), or `NONE`.
    pub side_also: [u8; 4],
    pub features: Vec<RotatedFeature>,
    /// Bit set of the cloister-like features (monastery, garden).
    pub cloisters: u16,
    /// Closed sides (bit = side, [`SideKind::Closed`]) of the rotated part.
    pub closed: u8,
}

/// Marks "no feature" in the lookup tables.
pub const NONE: u8 = u8::MAX;

/// One part (cell) of a tile: a normal tile has one, a double tile two.
#[derive(Clone, Debug)]
pub struct TilePart {
    /// Unrotated offset from the first part.
    pub offset: (i32, i32),
    /// Part name in TILES.md (`FDSPRING/E`), or the tile ID for single tiles.
    pub name: String,
    pub features: Vec<FeatureDef>,
    /// Marker bits of this part; names in the catalog.
    pub markers: u32,
    /// Unrotated closed sides (bit = side): no feature, fits anything, closes what meets
    /// it (the tile file's `closed_sides`, TILES-MORE.md rule 21).
    pub closed: u8,
    pub rotated: [RotatedPart; 4],
    /// Index of `rotated[0]` in [`crate::catalog::Catalog::flat`] (the four follow).
    pub flat: u32,
    /// Per [`crate::board::need_code`], the bit set of the face's distinct rotations for
    /// which this part fits a cell with that need (bit = quarter turns).
    pub fit: Vec<u8>,
}

/// Entries of [`crate::catalog::Catalog::fit_counts`]: the power of two above the number of
/// need codes.
pub const FIT_CODES: usize = 1024;
const _: () = assert!(crate::board::NEED_CODES <= FIT_CODES);

/// One face of a tile (double-sided tiles have two).
#[derive(Clone, Debug)]
pub struct TileFace {
    pub name: String,
    pub parts: Vec<TilePart>,
    /// Rotations that give distinct layouts (symmetric tiles list fewer).
    pub distinct_rotations: Vec<Rotation>,
}

/// A tile type: ID of TILES.md, its faces and copy count.
#[derive(Clone, Debug)]
pub struct TileType {
    pub id: String,
    /// Tile set name (the file's `set`), e.g. `base`.
    pub set: String,
    /// Copies in the set (0 for a variant printing).
    pub count: u32,
    /// For a variant printing: the tile whose copy it replaces.
    pub variant_of: Option<String>,
    pub faces: Vec<TileFace>,
    /// Union of all parts' markers.
    pub markers: u32,
    /// A land tile (false: a tile a plugin hands out, e.g. the abbey, TILES-MORE.md rule 21;
    /// never among a set's copies, nor in its `total`).
    pub land: bool,
}

impl TileType {
    /// True when every face has one part (a normal single-cell tile).
    pub fn is_single(&self) -> bool {
        self.faces.iter().all(|f| f.parts.len() == 1)
    }

    /// Every feature of every part of every face (e.g. to ask whether a tile shows a river).
    pub fn features(&self) -> impl Iterator<Item = &FeatureDef> {
        self.faces.iter().flat_map(|f| &f.parts).flat_map(|p| &p.features)
    }
}

impl FeatureDef {
    pub fn side_kind(&self) -> SideKind {
        match self.kind {
            FeatureKind::City => SideKind::City,
            FeatureKind::Road => SideKind::Road,
            FeatureKind::River => SideKind::River,
            _ => SideKind::Field,
        }
    }
}

/// Builds the rotated lookup tables of a part.
/// `closed`: the part's unrotated closed sides ([`SideKind::Closed`]).
pub fn rotate_part(offset: (i32, i32), features: &[FeatureDef], closed: u8, rot: Rotation) -> RotatedPart {
    let mut side_feature = [NONE; 4];
    let mut half_feature = [NONE; 8];
    let closed = rotate_side_mask(closed, rot);
    let mut side_also = [NONE; 4];
    let mut signature =
        (0..4).filter(|s| closed & (1 << s) != 0).fold(0u32, |m, s| m | (SideKind::Closed as u32) << (8 * s));
    let mut out = Vec::with_capacity(features.len());
    for (i, f) in features.iter().enumerate() {
        let sides = rotate_side_mask(f.sides, rot);
        let halves = rotate_half_mask(f.halves, rot);
        let also = rotate_side_mask(f.also, rot);
        for (s, slot) in side_also.iter_mut().enumerate() {
            if also & (1 << s) != 0 {
                *slot = i as u8;
            }
        }
        for (s, slot) in side_feature.iter_mut().enumerate() {
            if sides & (1 << s) != 0 {
                *slot = i as u8;
                signature |= (f.side_kind() as u32) << (8 * s);
            }
        }
        for (h, slot) in half_feature.iter_mut().enumerate() {
            if halves & (1 << h) != 0 {
                *slot = i as u8;
            }
        }
        out.push(RotatedFeature { kind: f.kind, sides, halves });
    }
    let cloisters =
        features.iter().enumerate().filter(|(_, f)| f.kind.is_cloister()).fold(0u16, |m, (i, _)| m | (1 << i));
    RotatedPart {
        cloisters,
        closed,
        offset: rotate_offset(offset.0, offset.1, rot),
        signature,
        side_feature,
        half_feature,
        side_also,
        features: out,
    }
}

/// The kind shown on side `s` of a packed signature.
#[inline]
pub fn signature_side(sig: u32, s: Side) -> u32 {
    (sig >> (8 * s as u32)) & 0xFF
}

/// Names a rotated feature as NOTATION.md does: `city:N+W`, `field:Ne+En`, `monastery`.
pub fn feature_name(f: &RotatedFeature) -> String {
    let mut s = String::from(f.kind.name());
    let mut parts: Vec<&str> = Vec::new();
    if f.kind == FeatureKind::Field {
        for (h, name) in HALF_NAMES.iter().enumerate() {
            if f.halves & (1 << h) != 0 {
                parts.push(name);
            }
        }
    } else {
        for side in Side::ALL {
            if f.sides & (1 << side as u8) != 0 {
                parts.push(side.name());
            }
        }
    }
    if !parts.is_empty() {
        s.push(':');
        s.push_str(&parts.join("+"));
    }
    s
}
