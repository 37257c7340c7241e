//! Tile data of Bridges, Castles & Bazaars (TILES-MORE.md section "bcb", rules 18-23): counts
//! per ID, the 8 bazaar markers, inns, monasteries, the garden and its C1 printing, the
//! `ends=` links, layouts of a few tiles checked by hand, and the supply the `bazaar`
//! plugin builds from them.

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::tile::{FeatureDef, TileType};
use carcassonne_core::{Catalog, FeatureKind, Game};

fn catalog() -> Catalog {
    load_rules_file("config/bridges-bazaars.toml").unwrap().0.catalog.clone()
}

fn tile<'a>(cat: &'a Catalog, id: &str) -> &'a TileType {
    cat.tile(cat.id(id).unwrap_or_else(|| panic!("no tile {id}")))
}

fn features<'a>(cat: &'a Catalog, id: &str) -> &'a [FeatureDef] {
    &tile(cat, id).faces[0].parts[0].features
}

/// Side bits (N = 1, E = 2, S = 4, W = 8) and half-edge bits (Nw = 1 ... Wn = 128).
const N: u8 = 1;
const E: u8 = 2;
const S: u8 = 4;
const W: u8 = 8;

#[test]
fn twelve_land_tiles_eight_bazaars() {
    let cat = catalog();
    let ids: Vec<(&str, u32)> =
        cat.set("bridges-bazaars").unwrap().iter().map(|&t| (cat.tile(t).id.as_str(), cat.tile(t).count)).collect();
    let want = [
        ("BCB1", 1),
        ("BCB2", 1),
        ("BCB3", 1),
        ("BCB4-5", 2),
        ("BCB6", 1),
        ("BCB7", 1),
        ("BCB8", 1),
        ("BCB9", 1),
        ("BCB10", 1),
        ("BCB10c1", 0),
        ("BCB11", 1),
        ("BCB12", 1),
    ];
    assert_eq!(ids, want);
    let copies = cat.copies("bridges-bazaars", |_| true, false).unwrap();
    assert_eq!(copies.len(), 12);
    // BAZAAR-1: 8 tiles carry the marker `bazaar` (BCB4-5 twice).
    let bazaar = cat.marker("bazaar");
    assert_ne!(bazaar, 0);
    let marked: Vec<&str> =
        copies.iter().filter(|&&t| cat.tile(t).markers & bazaar != 0).map(|&t| cat.tile(t).id.as_str()).collect();
    assert_eq!(marked, ["BCB1", "BCB2", "BCB3", "BCB4-5", "BCB4-5", "BCB6", "BCB11", "BCB12"]);
    // No pennant; 2 monasteries; 2 inns; 1 garden (C2), none in the C1 printing.
    let all = |kind: FeatureKind| {
        copies
            .iter()
            .map(|&t| cat.tile(t))
            .filter(|t| t.faces[0].parts[0].features.iter().any(|f| f.kind == kind))
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(all(FeatureKind::Monastery), ["BCB7", "BCB8"]);
    assert_eq!(all(FeatureKind::Garden), ["BCB10"]);
    let pennants: u32 =
        copies.iter().map(|&t| features(&cat, &cat.tile(t).id).iter().map(|f| f.pennants as u32).sum::<u32>()).sum();
    assert_eq!(pennants, 0);
    let inn = cat.modifier("inn");
    let inns: Vec<&str> = copies
        .iter()
        .map(|&t| cat.tile(t))
        .filter(|t| t.faces[0].parts[0].features.iter().any(|f| f.modifiers & inn != 0))
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(inns, ["BCB3", "BCB11"]);
    assert_eq!(tile(&cat, "BCB10").markers, cat.marker("garden"));
    assert_eq!(tile(&cat, "BCB10c1").variant_of.as_deref(), Some("BCB10"));
    assert!(features(&cat, "BCB10c1").iter().all(|f| f.kind != FeatureKind::Garden));
    let c1 = cat.copies("bridges-bazaars", |_| true, true).unwrap();
    assert!(c1.contains(&cat.id("BCB10c1").unwrap()) && !c1.contains(&cat.id("BCB10").unwrap()));
}

/// Layouts checked by hand against TILES-MORE.md.
#[test]
fn layouts_by_hand() {
    let cat = catalog();
    // BCB1: one field all round, nothing else.
    let b1 = features(&cat, "BCB1");
    assert_eq!(b1.len(), 1);
    assert_eq!((b1[0].kind, b1[0].halves), (FeatureKind::Field, 0xff));
    // BCB2: city N, road S ending at the bazaar, one field touching the city.
    let b2 = features(&cat, "BCB2");
    assert_eq!(
        b2.iter().map(|f| (f.kind, f.sides)).collect::<Vec<_>>()[..2],
        [(FeatureKind::City, N), (FeatureKind::Road, S)]
    );
    assert_eq!((b2[2].halves, b2[2].adj_cities.as_slice()), (0b1111_1100, &[0u8][..]));
    // BCB3: two roads (the S one with an inn), two fields W and E.
    let b3 = features(&cat, "BCB3");
    let inn = cat.modifier("inn");
    assert_eq!((b3[0].sides, b3[0].modifiers & inn), (N, 0));
    assert_eq!((b3[1].sides, b3[1].modifiers & inn != 0), (S, true));
    assert_eq!((b3[2].halves, b3[3].halves), (0b1110_0001, 0b0001_1110));
    // BCB4-5: one city on all four sides, no field, no pennant.
    let b4 = features(&cat, "BCB4-5");
    assert_eq!(b4.len(), 1);
    assert_eq!((b4[0].kind, b4[0].sides, b4[0].pennants), (FeatureKind::City, N | E | S | W, 0));
    // BCB9: three city caps N, E, W; the S road ends at the E city's gate (city#2).
    let b9 = features(&cat, "BCB9");
    assert_eq!(b9.iter().take(4).map(|f| f.sides).collect::<Vec<_>>(), [N, E, W, S]);
    assert_eq!(b9[3].ends_at, [1]);
    assert_eq!((b9[4].halves, b9[4].adj_cities.as_slice()), (0b0001_0000, &[1u8][..]));
    assert_eq!((b9[5].halves, b9[5].adj_cities.as_slice()), (0b0010_0000, &[0u8, 1, 2][..]));
    // BCB10: city W (no castle base), road E to its gate, the garden, three fields.
    let b10 = features(&cat, "BCB10");
    assert_eq!((b10[0].sides, b10[0].modifiers & cat.modifier("castle-base=false") != 0), (W, true));
    assert_eq!((b10[1].sides, b10[1].ends_at.as_slice()), (E, &[0u8][..]));
    assert_eq!(b10[2].kind, FeatureKind::Garden);
    assert_eq!(b10[3..].iter().map(|f| f.halves).collect::<Vec<_>>(), [0b0000_0011, 0b0000_0100, 0b0011_1000]);
    // BCB12: the W-E city band with a field on each side.
    let b12 = features(&cat, "BCB12");
    assert_eq!(b12[0].sides, E | W);
    assert_eq!((b12[1].halves, b12[2].halves), (0b0000_0011, 0b0011_0000));
}

/// The rule set's supply: 72 base tiles and the 12 of the set (83 to draw besides the
/// start tile); `tiles = "bazaars"` brings only the 8 bazaar tiles; `edition = 1` BCB10c1.
#[test]
fn the_supply_of_the_rule_set() {
    let count = |opts: &[(&str, &str)]| {
        let mut text = std::fs::read_to_string("config/bridges-bazaars.toml").unwrap();
        for (k, v) in opts {
            text = text.replace(&format!("{k} = "), &format!("{k} = {v} #"));
        }
        let rules = carcassonne_cli::builtin::load_rules_text("config/bridges-bazaars.toml", &text).unwrap();
        let g = Game::new(rules.clone(), 2, 1).unwrap();
        // The stack, the tile drawn for the first turn.
        let mut ids: Vec<String> = g.st.stack.iter().map(|&t| rules.catalog.tiles[t as usize].id.clone()).collect();
        ids.extend(g.st.tile.map(|t| rules.catalog.tiles[t as usize].id.clone()));
        ids
    };
    let all = count(&[]);
    assert_eq!(all.len(), 83);
    assert_eq!(all.iter().filter(|id| id.starts_with("BCB")).count(), 12);
    assert!(all.iter().any(|id| id == "BCB10"));
    let bazaars = count(&[("tiles", "\"bazaars\"")]);
    assert_eq!(bazaars.iter().filter(|id| id.starts_with("BCB")).count(), 8);
    assert!(!bazaars.iter().any(|id| id == "BCB7" || id == "BCB10"));
    let c1 = count(&[("edition", "1")]);
    assert!(c1.iter().any(|id| id == "BCB10c1") && !c1.iter().any(|id| id == "BCB10"));
}
