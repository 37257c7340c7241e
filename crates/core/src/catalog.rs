//! The tile catalog: tile types loaded from TOML data files, checked as TILES.md's
//! consistency section says.

use std::collections::HashMap;

use serde::Deserialize;

use crate::board::MAX_TILES;
use crate::board::{fits, NEED_CODES};
use crate::error::{check_printable, check_shape, from_toml, line_of, InputError};
use crate::geometry::{parse_half, Rotation, Side};
use crate::tile::{rotate_part, FeatureDef, FeatureKind, TileFace, TilePart, TileType, TileTypeId};

/// All tile types known to a rule set, with the names of markers and modifiers.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub tiles: Vec<TileType>,
    by_id: HashMap<String, TileTypeId>,
    /// Marker names; bit `i` of a marker mask is `marker_names[i]`.
    pub marker_names: Vec<String>,
    /// Modifier names; bit `i` of a modifier mask is `modifier_names[i]`.
    pub modifier_names: Vec<String>,
    /// Every part's four rotations in one table, for one-step lookups from the board.
    pub flat: Vec<crate::tile::RotatedPart>,
    /// Per part (the part whose `flat` is `4 * i`), per need code, the number of rotations
    /// in its `fit`, padded to [`crate::tile::FIT_CODES`] entries so that a code masked with
    /// `FIT_CODES - 1` is read without a bounds check (counting placements: once per
    /// frontier cell per turn). Beside the tiles, not in them: derived, and not part of a
    /// rule set's digest (taken over the tiles).
    pub fit_counts: Vec<Box<[u8; crate::tile::FIT_CODES]>>,
    /// Per part (as `fit_counts`), its feature nodes as placing it starts them
    /// (`node_seeds[start..start + len]`) and the bit set of its edge features (city, road,
    /// river: those a placement may complete). Derived, beside the tiles like `fit_counts`.
    pub part_seeds: Vec<PartSeeds>,
    /// The node seeds of every part, in part order.
    pub node_seeds: Vec<crate::graph::NodeSeed>,
    /// Loaded tile sets: name and the IDs in file order.
    pub sets: Vec<(String, Vec<TileTypeId>)>,
}

/// The top-level keys of a tile file.
pub const TILE_FILE_KEYS: &[&str] = &["set", "description", "total", "extra_markers", "extra_modifiers", "tiles"];

/// Tile markers of the tile notation (TILES.md, TILES-MORE.md); a tile file names any
/// other marker it uses in `extra_markers`, so that a misspelt marker is an error.
pub const MARKERS: &[&str] = &[
    "volcano", "dragon", "portal", "lair", "princess", "garden", "tower", "hill", "vineyard", "abbey", "bazaar",
    "circus", "acrobats",
];

const CITY: &[FeatureKind] = &[FeatureKind::City];
const ROAD: &[FeatureKind] = &[FeatureKind::Road];
const RIVER: &[FeatureKind] = &[FeatureKind::River];

/// Feature modifiers of the tile notation besides `pennant` and `adj=` (TILES.md rule 5,
/// TILES-MORE.md rule 14), each with the feature kinds it stands on; a tile file names any
/// other in `extra_modifiers` (on any kind).
pub const MODIFIERS: &[(&str, &[FeatureKind])] = &[
    ("princess", CITY),
    ("castle-base=false", CITY),
    ("tunnel", ROAD),
    ("inn", ROAD),
    ("spring", RIVER),
    ("lake", RIVER),
    ("inner", &[FeatureKind::Field]),
    ("cathedral", CITY),
    ("wine", CITY),
    ("grain", CITY),
    ("cloth", CITY),
    ("bridge", &[FeatureKind::Road, FeatureKind::City]),
];

/// Whether modifier `name` may stand on a feature of `kind`: a word of [`MODIFIERS`] on
/// one of its kinds, or a word of `extra`; otherwise the error naming it.
fn check_modifier(name: &str, kind: FeatureKind, extra: &[String]) -> Result<(), String> {
    match MODIFIERS.iter().find(|(n, _)| *n == name) {
        Some((_, kinds)) if !kinds.contains(&kind) => {
            let on: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
            Err(format!("modifier '{name}' stands on a {}, not on a {}", on.join(" or "), kind.name()))
        }
        Some(_) => Ok(()),
        None => check_word("modifier", name, &MODIFIERS.iter().map(|(n, _)| *n).collect::<Vec<_>>(), extra),
    }
}

/// Whether `name` is in `known` or `extra`; otherwise the error naming it.
fn check_word(what: &str, name: &str, known: &[&str], extra: &[String]) -> Result<(), String> {
    if known.contains(&name) || extra.iter().any(|e| e == name) {
        return Ok(());
    }
    Err(format!(
        "unknown {what} '{name}' (known: {}; a tile file names others in `extra_{what}s = [...]`)",
        known.join(", ")
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    set: String,
    #[serde(default)]
    description: String,
    /// Expected number of tiles (sum of counts), checked when given.
    total: Option<u32>,
    /// Marker names this file uses beyond [`MARKERS`] (for a plugin that reads them).
    #[serde(default)]
    extra_markers: Vec<String>,
    /// Feature modifiers this file uses beyond [`MODIFIERS`].
    #[serde(default)]
    extra_modifiers: Vec<String>,
    tiles: Vec<toml::Spanned<RawTile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    id: String,
    count: Option<u32>,
    variant_of: Option<String>,
    features: String,
    #[serde(default)]
    markers: Vec<String>,
    /// For the second part of a double tile: its offset from the first at rotation 0.
    offset: Option<[i32; 2]>,
    /// Sides that show no feature, fit any neighbour and close what meets them
    /// (TILES-MORE.md rule 21, the abbey).
    #[serde(default)]
    closed_sides: Vec<String>,
    /// False for a tile that is not a land tile (rule 21): not counted in `total`, never
    /// among the set's copies; a plugin hands it out.
    land: Option<bool>,
    #[serde(default)]
    #[allow(dead_code)]
    note: String,
}

/// Where a part's feature nodes start in [`Catalog::node_seeds`], and its edge features.
#[derive(Clone, Copy, Debug, Default)]
pub struct PartSeeds {
    pub start: u32,
    pub len: u16,
    /// Bit set of the edge features (by feature index).
    pub edges: u16,
}

impl PartSeeds {
    fn of(part: &TilePart, seeds: &mut Vec<crate::graph::NodeSeed>) -> PartSeeds {
        let start = seeds.len() as u32;
        let mut edges = 0u16;
        for (local, f) in part.features.iter().enumerate() {
            let edge = f.kind.is_edge_feature();
            // An `also=X` side is open on this part too (TILES-MORE.md rule 20); a field is
            // open on each of its half-edges.
            let open = if edge { f.sides.count_ones() + f.also.count_ones() } else { f.halves.count_ones() };
            edges |= u16::from(edge) << local;
            let cities = f.adj_cities.iter().try_fold(0u32, |m, &c| (c < 31).then(|| m | 1 << c));
            seeds.push(crate::graph::NodeSeed {
                kind: f.kind,
                open: open as u16,
                pennants: f.pennants as u16,
                cities: cities.unwrap_or(crate::graph::NodeSeed::CITIES_LISTED),
            });
        }
        PartSeeds { start, len: part.features.len() as u16, edges }
    }
}

impl Catalog {
    pub fn new() -> Self {
        Self::default()
    }

    /// The tile type with TILES.md ID `id`.
    pub fn id(&self, id: &str) -> Option<TileTypeId> {
        self.by_id.get(id).copied()
    }

    pub fn tile(&self, t: TileTypeId) -> &TileType {
        &self.tiles[t as usize]
    }

    /// The bit of marker `name` (registering the name if new).
    pub fn marker_bit(&mut self, name: &str) -> u32 {
        intern(&mut self.marker_names, name)
    }

    /// The bit of marker `name` if any loaded tile uses it, else 0.
    pub fn marker(&self, name: &str) -> u32 {
        self.marker_names.iter().position(|n| n == name).map_or(0, |i| 1 << i)
    }

    /// The bit of modifier `name` if any loaded tile uses it, else 0.
    pub fn modifier(&self, name: &str) -> u32 {
        self.modifier_names.iter().position(|n| n == name).map_or(0, |i| 1 << i)
    }

    /// The tile IDs of a loaded set, in file order.
    pub fn set(&self, name: &str) -> Option<&[TileTypeId]> {
        self.sets.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_slice())
    }

    /// Every copy of the tiles of set `name` that `keep` selects (a tile type repeated
    /// `count` times). With `variants`, each variant printing (`variant_of`) that `keep`
    /// selects replaces one copy of its original. None if the set is not loaded.
    pub fn copies(&self, name: &str, keep: impl Fn(&TileType) -> bool, variants: bool) -> Option<Vec<TileTypeId>> {
        let ids = self.set(name)?;
        let mut out = Vec::new();
        for &t in ids.iter().filter(|&&t| self.tile(t).land && keep(self.tile(t))) {
            out.extend(std::iter::repeat_n(t, self.tile(t).count as usize));
        }
        if variants {
            for &t in ids.iter().filter(|&&t| keep(self.tile(t))) {
                if let Some(orig) = self.tile(t).variant_of.as_deref().and_then(|o| self.id(o)) {
                    if let Some(i) = out.iter().position(|&x| x == orig) {
                        out[i] = t;
                    }
                }
            }
        }
        Some(out)
    }

    /// Loads one tile data file (`file` names it in errors). A file that is not a tile
    /// file ([`TILE_FILE_KEYS`], `set` and `tiles`) is refused without quoting it.
    pub fn load_str(&mut self, file: &str, text: &str) -> Result<String, InputError> {
        check_shape(file, text, "tile file", TILE_FILE_KEYS, &[("set", "string"), ("tiles", "array")])?;
        let raw: RawFile = toml::from_str(text).map_err(|e| from_toml(file, text, &e))?;
        check_printable("tile set", &raw.set).map_err(|e| InputError::new(file, None, e))?;
        if self.set(&raw.set).is_some() {
            return Err(InputError::new(file, None, format!("tile set '{}' is loaded twice", raw.set)));
        }
        let _ = raw.description;
        let mut ids = Vec::new();
        let mut total = 0u64;
        for sp in &raw.tiles {
            let line = Some(line_of(text, sp.span().start));
            let t = sp.get_ref();
            check_printable("tile ID", &t.id).map_err(|e| InputError::new(file, line, e))?;
            let err = |m: String| InputError::new(file, line, format!("tile {}: {}", t.id, m));
            let mut parts = t.id.split('/');
            let base = parts.next().unwrap_or("").to_string();
            let rest: Vec<&str> = parts.collect();
            if base.is_empty() {
                return Err(err("empty tile ID".into()));
            }
            let (face_name, part_name) = match rest.len() {
                0 => (String::new(), base.clone()),
                1 => (String::new(), t.id.clone()),
                2 => (rest[0].to_string(), t.id.clone()),
                _ => return Err(err("an ID has at most the form TILE/FACE/PART".into())),
            };
            let features = parse_features(&t.features, &mut self.modifier_names).map_err(&err)?;
            let mut closed = 0u8;
            for c in &t.closed_sides {
                let sd =
                    Side::parse(c).ok_or_else(|| err(format!("closed_sides: '{c}' is not a side (N, E, S, W)")))?;
                closed |= 1 << sd as u8;
            }
            for f in &features {
                for (bit, name) in self.modifier_names.iter().enumerate().take(32) {
                    if f.modifiers & (1 << bit) != 0 {
                        check_modifier(name, f.kind, &raw.extra_modifiers).map_err(&err)?;
                    }
                }
            }
            // Tunnel roads and roads on a bridge cross other features without joining them.
            let crossing = self.modifier("tunnel") | self.modifier("bridge");
            check_features_closed(&features, crossing, closed).map_err(&err)?;
            let mut markers = 0u32;
            for m in &t.markers {
                check_word("marker", m, MARKERS, &raw.extra_markers).map_err(&err)?;
                let bit = intern(&mut self.marker_names, m);
                if bit >= 32 {
                    return Err(err(format!("too many distinct markers (at '{m}')")));
                }
                markers |= 1 << bit;
            }
            let offset = t.offset.map(|[x, y]| (x, y)).unwrap_or((0, 0));
            if t.offset.is_some() && offset.0.abs() + offset.1.abs() != 1 {
                return Err(err("`offset` must name a neighbouring cell ([1, 0], [0, 1], [-1, 0] or [0, -1])".into()));
            }
            if t.variant_of.as_deref() == Some(base.as_str()) {
                return Err(err("a tile cannot be a variant of itself".into()));
            }
            let part = TilePart {
                offset,
                name: part_name,
                rotated: Rotation::ALL.map(|r| rotate_part(offset, &features, closed, r)),
                flat: 0,
                closed,
                fit: Vec::new(),
                features,
                markers,
            };
            // A later part of a double tile joins the tile started by its first part.
            let existing = if rest.is_empty() { None } else { self.by_id.get(&base).copied() };
            match existing {
                Some(tid) if t.count.is_none() && t.variant_of.is_none() => {
                    let tile = &mut self.tiles[tid as usize];
                    tile.markers |= markers;
                    match tile.faces.iter_mut().find(|f| f.name == face_name) {
                        Some(face) => {
                            if t.offset.is_none() {
                                return Err(err("a second part needs `offset = [dx, dy]`".into()));
                            }
                            face.parts.push(part)
                        }
                        None if t.offset.is_some() => {
                            return Err(err("the first part of a face takes no `offset`".into()))
                        }
                        None => tile.faces.push(TileFace {
                            name: face_name,
                            parts: vec![part],
                            distinct_rotations: Vec::new(),
                        }),
                    }
                }
                Some(_) => return Err(err("a later part of a tile takes no count".into())),
                None if t.offset.is_some() => {
                    return Err(err("the first part of a tile takes no `offset` (only a second part does)".into()))
                }
                None => {
                    let count = match (t.count, &t.variant_of) {
                        (Some(c), None) => c,
                        (None, Some(_)) => 0,
                        (Some(_), Some(_)) => return Err(err("give either `count` or `variant_of`, not both".into())),
                        (None, None) => return Err(err("missing `count` (or `variant_of`)".into())),
                    };
                    if self.by_id.contains_key(&base) {
                        return Err(err("duplicate tile ID".into()));
                    }
                    let land = t.land.unwrap_or(true);
                    if !land && t.variant_of.is_some() {
                        return Err(err("a tile that is not a land tile (`land = false`) has no `variant_of`".into()));
                    }
                    if land {
                        total += u64::from(count);
                    }
                    if total > MAX_TILES as u64 {
                        return Err(err(format!(
                            "the counts add up to {total} tiles so far; a game has at most {MAX_TILES}"
                        )));
                    }
                    let tid = self.tiles.len() as TileTypeId;
                    self.by_id.insert(base.clone(), tid);
                    ids.push(tid);
                    self.tiles.push(TileType {
                        id: base,
                        set: raw.set.clone(),
                        count,
                        variant_of: t.variant_of.clone(),
                        faces: vec![TileFace { name: face_name, parts: vec![part], distinct_rotations: Vec::new() }],
                        markers,
                        land,
                    });
                }
            }
        }
        for &tid in &ids {
            let tile = &mut self.tiles[tid as usize];
            if let Some(v) = &tile.variant_of {
                if !self.by_id.contains_key(v) {
                    return Err(InputError::new(
                        file,
                        None,
                        format!("tile {}: variant_of names unknown tile '{}'", tile.id, v),
                    ));
                }
            }
            for face in &mut tile.faces {
                for part in &mut face.parts {
                    part.flat = self.flat.len() as u32;
                    self.flat.extend(part.rotated.iter().cloned());
                }
                face.distinct_rotations = distinct_rotations(face);
                let rotations = &face.distinct_rotations;
                for part in &mut face.parts {
                    part.fit = (0..NEED_CODES as u16)
                        .map(|code| {
                            (rotations.iter())
                                .filter(|r| fits(part.rotated[r.quarters() as usize].signature, code))
                                .fold(0u8, |m, r| m | (1 << r.quarters()))
                        })
                        .collect();
                    let mut counts = Box::new([0u8; crate::tile::FIT_CODES]);
                    for (n, &m) in counts.iter_mut().zip(&part.fit) {
                        *n = m.count_ones() as u8;
                    }
                    self.fit_counts.push(counts);
                    self.part_seeds.push(PartSeeds::of(part, &mut self.node_seeds));
                }
            }
        }
        if let Some(expected) = raw.total {
            if u64::from(expected) != total {
                return Err(InputError::new(
                    file,
                    None,
                    format!("tile counts add up to {total}, but `total` says {expected}"),
                ));
            }
        }
        self.sets.push((raw.set.clone(), ids));
        Ok(raw.set)
    }
}

fn intern(names: &mut Vec<String>, name: &str) -> u32 {
    if let Some(i) = names.iter().position(|n| n == name) {
        return i as u32;
    }
    names.push(name.to_string());
    (names.len() - 1) as u32
}

/// Rotations whose layout differs from every earlier one.
fn distinct_rotations(face: &TileFace) -> Vec<Rotation> {
    /// A part's layout at one rotation: offset, markers, sorted features.
    type Layout = (i32, i32, u32, u8, Vec<(u8, u8, u8, u8, u32)>);
    let mut seen: Vec<Vec<Layout>> = Vec::new();
    let mut out = Vec::new();
    for r in Rotation::ALL {
        let mut key: Vec<_> = face
            .parts
            .iter()
            .map(|p| {
                let rp = &p.rotated[r.quarters() as usize];
                let mut fs: Vec<(u8, u8, u8, u8, u32)> = rp
                    .features
                    .iter()
                    .zip(&p.features)
                    .map(|(f, d)| (f.kind as u8, f.sides, f.halves, d.pennants, d.modifiers))
                    .collect();
                fs.sort();
                (rp.offset.0, rp.offset.1, p.markers, rp.closed, fs)
            })
            .collect();
        key.sort();
        if !seen.contains(&key) {
            seen.push(key);
            out.push(r);
        }
    }
    out
}

/// Parses TILES.md feature notation: `city[N,W](pennant); field[En,Es](adj=city#1)`.
pub fn parse_features(s: &str, modifier_names: &mut Vec<String>) -> Result<Vec<FeatureDef>, String> {
    let mut out = Vec::new();
    let mut adj_raw: Vec<Vec<usize>> = Vec::new();
    // `ends=` targets: city#k (k >= 1) or 0 for the monastery.
    let mut ends_raw: Vec<Vec<usize>> = Vec::new();
    for item in s.split(';').map(str::trim).filter(|x| !x.is_empty()) {
        let open = item.find('[').ok_or_else(|| format!("feature '{item}': expected kind[edges]"))?;
        let close = item.find(']').ok_or_else(|| format!("feature '{item}': missing ']'"))?;
        let kind_s = &item[..open];
        let kind = FeatureKind::parse(kind_s).ok_or_else(|| format!("unknown feature kind '{kind_s}' in '{item}'"))?;
        let edges = &item[open + 1..close];
        let mut f = FeatureDef {
            kind,
            sides: 0,
            halves: 0,
            pennants: 0,
            also: 0,
            modifiers: 0,
            adj_cities: Vec::new(),
            ends_at: Vec::new(),
        };
        let mut adj = Vec::new();
        let mut ends = Vec::new();
        for e in edges.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            if kind == FeatureKind::Field {
                let h = parse_half(e).ok_or_else(|| format!("'{e}' is not a half-edge (Nw..Wn) in '{item}'"))?;
                if f.halves & (1 << h) != 0 {
                    return Err(format!("half-edge {e} listed twice in '{item}'"));
                }
                f.halves |= 1 << h;
            } else if kind.is_edge_feature() {
                let sd = Side::parse(e).ok_or_else(|| format!("'{e}' is not a side (N, E, S, W) in '{item}'"))?;
                if f.sides & (1 << sd as u8) != 0 {
                    return Err(format!("side {e} listed twice in '{item}'"));
                }
                f.sides |= 1 << sd as u8;
            } else {
                return Err(format!("a {kind_s} touches no edge, but '{item}' lists '{e}'"));
            }
        }
        let rest = item[close + 1..].trim();
        if !rest.is_empty() {
            let inner = rest
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .ok_or_else(|| format!("modifiers of '{item}' must be in parentheses"))?;
            for m in inner.split(',').map(str::trim).filter(|x| !x.is_empty()) {
                if let Some(list) = m.strip_prefix("adj=") {
                    if kind != FeatureKind::Field {
                        return Err(format!("only fields have adj=, in '{item}'"));
                    }
                    for c in list.split('+') {
                        let k = c
                            .strip_prefix("city#")
                            .and_then(|n| n.parse::<usize>().ok())
                            .filter(|&n| n >= 1)
                            .ok_or_else(|| format!("'{c}' is not city#k in '{item}'"))?;
                        adj.push(k);
                    }
                } else if let Some(side) = m.strip_prefix("also=") {
                    // TILES-MORE.md rule 20: the part also opens onto a side of another part.
                    if kind != FeatureKind::City {
                        return Err(format!("only city parts have also=, in '{item}'"));
                    }
                    let sd = Side::parse(side)
                        .ok_or_else(|| format!("also={side}: '{side}' is not a side (N, E, S, W) in '{item}'"))?;
                    if (f.sides | f.also) & (1 << sd as u8) != 0 {
                        return Err(format!("also={side} names a side this part already has, in '{item}'"));
                    }
                    f.also |= 1 << sd as u8;
                } else if m == "pennant" || m.starts_with("pennants=") {
                    if kind != FeatureKind::City {
                        return Err(format!("only cities have pennants, in '{item}'"));
                    }
                    // TILES-MORE.md rule 20: `pennants=2`, a part with two pennants.
                    let n = match m.strip_prefix("pennants=") {
                        None => 1,
                        Some(n) => n
                            .parse::<u8>()
                            .ok()
                            .filter(|&n| (2..=9).contains(&n))
                            .ok_or_else(|| format!("'{m}' in '{item}': pennants=N takes a count from 2 to 9"))?,
                    };
                    f.pennants += n;
                } else if let Some(to) = m.strip_prefix("ends=") {
                    // TILES-MORE.md rule 17: the road ends at a city gate or a monastery.
                    if kind != FeatureKind::Road {
                        return Err(format!("only roads have ends=, in '{item}'"));
                    }
                    let target = if to == "monastery" {
                        0
                    } else {
                        to.strip_prefix("city#")
                            .and_then(|n| n.parse::<usize>().ok())
                            .filter(|&n| n >= 1)
                            .ok_or_else(|| format!("'{m}' in '{item}': ends= takes city#k or monastery"))?
                    };
                    ends.push(target);
                } else {
                    let name = m.split('=').next().unwrap_or(m);
                    let bit = intern(modifier_names, m);
                    if bit >= 32 {
                        return Err(format!("too many distinct modifiers (at '{name}')"));
                    }
                    f.modifiers |= 1 << bit;
                }
            }
        }
        adj_raw.push(adj);
        ends_raw.push(ends);
        out.push(f);
    }
    // Resolve city#k (1-based among the part's cities) to feature indices.
    let cities: Vec<usize> =
        out.iter().enumerate().filter(|(_, f)| f.kind == FeatureKind::City).map(|(i, _)| i).collect();
    for (i, adj) in adj_raw.into_iter().enumerate() {
        for k in adj {
            let idx =
                *cities.get(k - 1).ok_or_else(|| format!("adj=city#{k}, but the tile has {} cities", cities.len()))?;
            out[i].adj_cities.push(idx as u8);
        }
    }
    for (i, ends) in ends_raw.into_iter().enumerate() {
        for k in ends {
            let idx = if k == 0 {
                out.iter()
                    .position(|f| f.kind == FeatureKind::Monastery)
                    .ok_or("ends=monastery, but the tile has no monastery")?
            } else {
                *cities.get(k - 1).ok_or_else(|| format!("ends=city#{k}, but the tile has {} cities", cities.len()))?
            };
            out[i].ends_at.push(idx as u8);
        }
    }
    Ok(out)
}

/// The consistency checks of TILES.md for one part.
/// `tunnel` holds the modifier bits of roads that cross other features without joining
/// them (`tunnel`, and `bridge` of TILES-MORE.md rule 14).
pub fn check_features(fs: &[FeatureDef], tunnel: u32) -> Result<(), String> {
    check_features_closed(fs, tunnel, 0)
}

/// [`check_features`] for a part whose sides `closed` (bit = side) are closed sides
/// (TILES-MORE.md rule 21): no feature and no field half-edge lies on them.
pub fn check_features_closed(fs: &[FeatureDef], tunnel: u32, closed: u8) -> Result<(), String> {
    let mut side_owner = [None::<usize>; 4];
    let mut city_sides = 0u8;
    for (i, f) in fs.iter().enumerate() {
        for (s, owner) in side_owner.iter_mut().enumerate() {
            if f.sides & (1 << s) != 0 {
                if let Some(j) = *owner {
                    return Err(format!(
                        "side {} is covered by two features ({} and {})",
                        Side::NAMES[s],
                        fs[j].kind.name(),
                        f.kind.name()
                    ));
                }
                *owner = Some(i);
            }
        }
        if f.kind == FeatureKind::City {
            city_sides |= f.sides;
        }
    }
    // `also=X` (TILES-MORE.md rule 20): side X is a city side written on another city part.
    for f in fs.iter().filter(|f| f.also != 0) {
        for s in (0..4).filter(|s| f.also & (1 << s) != 0) {
            let owner = side_owner[s].map(|j| &fs[j]);
            if owner.is_none_or(|o| o.kind != FeatureKind::City) {
                return Err(format!("also={} names a side that no other city part of the tile covers", Side::NAMES[s]));
            }
        }
    }
    let mut half_owner = 0u8;
    for f in fs.iter().filter(|f| f.kind == FeatureKind::Field) {
        if half_owner & f.halves != 0 {
            return Err("a half-edge belongs to two fields".into());
        }
        half_owner |= f.halves;
    }
    for (s, name) in Side::NAMES.iter().enumerate() {
        if closed & (1 << s) != 0 && (side_owner[s].is_some() || half_owner & (0b11 << (2 * s)) != 0) {
            return Err(format!("side {name} is a closed side, but a feature lies on it"));
        }
    }
    for h in 0..8u8 {
        if closed & (1 << (h / 2)) != 0 {
            continue;
        }
        let on_city = city_sides & (1 << (h / 2)) != 0;
        let owned = half_owner & (1 << h) != 0;
        if on_city && owned {
            return Err(format!(
                "half-edge {} lies on a city side but belongs to a field",
                crate::geometry::HALF_NAMES[h as usize]
            ));
        }
        if !on_city && !owned {
            return Err(format!("half-edge {} belongs to no field", crate::geometry::HALF_NAMES[h as usize]));
        }
    }
    for f in fs {
        for &c in &f.adj_cities {
            let city = &fs[c as usize];
            let touches = (0..8u8).filter(|h| f.halves & (1 << h) != 0).any(|h| {
                let side = h / 2;
                let corner_side = if h % 2 == 0 { (side + 3) % 4 } else { (side + 1) % 4 };
                city.sides & (1 << corner_side) != 0
            });
            // A field may also touch a city only inside the tile (TILES-MORE.md: TO17,
            // IC16, TB4, ...), unless a road, river or other city running across the tile
            // lies between them.
            if f.halves != 0 && !touches && separated(fs, f, c as usize, tunnel) {
                return Err(format!("a field lists adj=city#{}, but does not touch that city", city_number(fs, c)));
            }
        }
    }
    // No two features cross around the rim (tunnel roads and road-over-river bridges aside).
    let rim: Vec<(usize, u16)> =
        fs.iter().enumerate().map(|(i, f)| (i, rim_positions(f))).filter(|(_, m)| m.count_ones() >= 2).collect();
    for (a, &(i, ma)) in rim.iter().enumerate() {
        for &(j, mb) in &rim[a + 1..] {
            let (fa, fb) = (&fs[i], &fs[j]);
            let exempt = is_tunnel(fa, tunnel) || is_tunnel(fb, tunnel) || is_bridge(fa, fb);
            if !exempt && interleave(ma, mb) {
                return Err(format!("{} and {} cross each other around the rim", fa.kind.name(), fb.kind.name()));
            }
        }
    }
    Ok(())
}

/// Whether some feature other than city `city` (a road or river with two or more sides,
/// not a tunnel or bridge, or a city across the tile) splits the rim so that no arc holds
/// both the field and the city.
fn separated(fs: &[FeatureDef], field: &FeatureDef, city: usize, tunnel: u32) -> bool {
    let (mf, mc) = (rim_positions(field), rim_positions(&fs[city]));
    for (j, g) in fs.iter().enumerate() {
        if j == city || !g.kind.is_edge_feature() || is_tunnel(g, tunnel) {
            continue;
        }
        // A city across the tile that the field lies along too (it lists both): the other
        // city reaches the field over it (AM4's walled street over the W-E city).
        if g.kind == FeatureKind::City && field.adj_cities.contains(&(j as u8)) {
            continue;
        }
        let mg = rim_positions(g);
        if mg.count_ones() < 2 {
            continue;
        }
        let start = mg.trailing_zeros();
        let (mut arc_f, mut arc_c, mut shared) = (false, false, false);
        for k in 1..=12 {
            let p = (start + k) % 12;
            if mg & (1 << p) != 0 {
                shared |= arc_f && arc_c;
                arc_f = false;
                arc_c = false;
            } else {
                arc_f |= mf & (1 << p) != 0;
                arc_c |= mc & (1 << p) != 0;
            }
        }
        if !shared {
            return true;
        }
    }
    false
}

/// A road (tunnel or bridge) or a city on a walled bridge (AM2, TILES-MORE.md rule 20)
/// that crosses other features without joining them.
fn is_tunnel(f: &FeatureDef, tunnel_bit: u32) -> bool {
    matches!(f.kind, FeatureKind::Road | FeatureKind::City) && f.modifiers & tunnel_bit != 0
}

fn is_bridge(a: &FeatureDef, b: &FeatureDef) -> bool {
    matches!((a.kind, b.kind), (FeatureKind::Road, FeatureKind::River) | (FeatureKind::River, FeatureKind::Road))
}

/// Rim positions 0..12: for side s, `3s` = first half, `3s+1` = centre, `3s+2` = second half.
fn rim_positions(f: &FeatureDef) -> u16 {
    let mut m = 0u16;
    for s in 0..4 {
        if f.sides & (1 << s) != 0 {
            m |= if f.kind == FeatureKind::City { 0b111 << (3 * s) } else { 0b010 << (3 * s) };
        }
    }
    for h in 0..8 {
        if f.halves & (1 << h) != 0 {
            let s = h / 2;
            m |= 1 << (3 * s + if h % 2 == 0 { 0 } else { 2 });
        }
    }
    m
}

/// True when the two position sets alternate a-b-a-b around the rim.
fn interleave(a: u16, b: u16) -> bool {
    let mut seq: Vec<u8> = Vec::new();
    for p in 0..12 {
        let t = match (a & (1 << p) != 0, b & (1 << p) != 0) {
            (true, false) => 1,
            (false, true) => 2,
            _ => continue,
        };
        if seq.last() != Some(&t) {
            seq.push(t);
        }
    }
    if seq.len() > 1 && seq.first() == seq.last() {
        seq.pop();
    }
    seq.len() >= 4
}

fn city_number(fs: &[FeatureDef], idx: u8) -> usize {
    fs[..=idx as usize].iter().filter(|f| f.kind == FeatureKind::City).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(features: &str, extra: &str) -> Result<String, String> {
        let text = format!("set = \"t\"\n{extra}[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"{features}\"\n");
        Catalog::new().load_str("t.toml", &text).map_err(|e| e.to_string())
    }

    #[test]
    fn modifiers_stand_on_their_feature_kinds() {
        // TILES-MORE.md rule 14: inn and bridge on roads, cathedral and goods on cities.
        let fields = "field[En,Wn](adj=city#1); field[Es,Se,Sw,Ws]";
        load(&format!("city[N](cathedral,wine); road[E,W](inn,bridge); {fields}"), "").unwrap();
        let e = load(&format!("city[N](inn); road[E,W]; {fields}"), "").unwrap_err();
        assert_eq!(e, "t.toml:2: tile Z: modifier 'inn' stands on a road, not on a city");
        let e = load(&format!("city[N]; road[E,W](grain); {fields}"), "").unwrap_err();
        assert_eq!(e, "t.toml:2: tile Z: modifier 'grain' stands on a city, not on a road");
        let e = load("city[N,E,S,W]; field[](inner,lake)", "").unwrap_err();
        assert!(e.ends_with("modifier 'lake' stands on a river, not on a field"), "{e}");
        // A file's own word stands on any kind.
        load(&format!("city[N]; road[E,W](toll); {fields}"), "extra_modifiers = [\"toll\"]\n").unwrap();
    }

    #[test]
    fn a_road_on_a_bridge_crosses_another_road_and_a_city() {
        // TB2: two through roads cross; TO1: a road crosses a city band. Unmarked, both fail.
        let tb2 = "road[N,S]; road[E,W](bridge); field[Nw,Wn]; field[Ne,En]; field[Es,Se]; field[Sw,Ws]";
        assert!(load(tb2, "").is_ok());
        assert!(load(&tb2.replace("(bridge)", ""), "").unwrap_err().contains("cross each other"));
        let to1 = "city[E,W]; road[N,S](bridge); field[Nw](adj=city#1); field[Ne](adj=city#1); \
                   field[Se](adj=city#1); field[Sw](adj=city#1)";
        assert!(load(to1, "").is_ok());
        assert!(load(&to1.replace("(bridge)", ""), "").unwrap_err().contains("cross each other"));
    }
}
