//! Tile data of Abbey & Mayor (TILES-MORE.md section "abbey", rules 17-21): counts per ID,
//! the abbey as a tile that is not a land tile with closed sides, `pennants=2`, the walled
//! city bridge, the three-sided road, the `ends=` links of the wagon's C1 move.

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::tile::{FeatureDef, SideKind, TileType};
use carcassonne_core::{Catalog, FeatureKind};

fn catalog() -> Catalog {
    load_rules_file("config/abbey-mayor.toml").unwrap().0.catalog.clone()
}

fn tile<'a>(cat: &'a Catalog, id: &str) -> &'a TileType {
    cat.tile(cat.id(id).unwrap_or_else(|| panic!("no tile {id}")))
}

fn features<'a>(cat: &'a Catalog, id: &str) -> &'a [FeatureDef] {
    &tile(cat, id).faces[0].parts[0].features
}

#[test]
fn twelve_land_tiles_and_the_abbey() {
    let cat = catalog();
    let ids: Vec<&str> = cat.set("abbey-mayor").unwrap().iter().map(|&t| cat.tile(t).id.as_str()).collect();
    let mut want: Vec<String> = vec!["AM0".into()];
    want.extend((1..=7).map(|i| format!("AM{i}")));
    want.push("AM7c1".into());
    want.extend((8..=12).map(|i| format!("AM{i}")));
    assert_eq!(ids, want);
    // The supply gets the 12 land tiles once each, never the abbey (rule 21).
    let copies = cat.copies("abbey-mayor", |_| true, false).unwrap();
    assert_eq!(copies.len(), 12);
    assert!(copies.iter().all(|&t| cat.tile(t).land && cat.tile(t).count == 1));
    let abbey = tile(&cat, "AM0");
    assert!(!abbey.land);
    assert_eq!(abbey.count, 6);
    assert_eq!(abbey.markers, cat.marker("abbey"));
    assert_eq!(features(&cat, "AM0").iter().map(|f| f.kind).collect::<Vec<_>>(), [FeatureKind::Monastery]);
    // Every side closed, at every rotation: fits anything.
    let part = &abbey.faces[0].parts[0];
    assert_eq!(part.closed, 0b1111);
    for rp in &part.rotated {
        assert_eq!(rp.closed, 0b1111);
        assert_eq!(rp.signature, (0..4).map(|s| (SideKind::Closed as u32) << (8 * s)).sum::<u32>());
    }
    assert_eq!(abbey.faces[0].distinct_rotations.len(), 1);
    // C1: AM7c1 replaces AM7 (no garden).
    assert_eq!(tile(&cat, "AM7c1").variant_of.as_deref(), Some("AM7"));
    assert_eq!(tile(&cat, "AM7").markers, cat.marker("garden"));
}

#[test]
fn pennants_bridge_tunnel_and_the_three_sided_road() {
    let cat = catalog();
    let land: Vec<&TileType> =
        cat.set("abbey-mayor").unwrap().iter().map(|&t| cat.tile(t)).filter(|t| t.land && t.count > 0).collect();
    let pennants = |t: &TileType| t.faces[0].parts[0].features.iter().map(|f| f.pennants as u32).sum::<u32>();
    // 6 pennants on 5 tiles: AM2, AM3 (two), AM4, AM8, AM11.
    assert_eq!(land.iter().map(|t| pennants(t)).sum::<u32>(), 6);
    let with: Vec<&str> = land.iter().filter(|t| pennants(t) > 0).map(|t| t.id.as_str()).collect();
    assert_eq!(with, ["AM2", "AM3", "AM4", "AM8", "AM11"]);
    assert_eq!(features(&cat, "AM3")[0].pennants, 2);
    // AM2: the N-S city on a walled bridge over the W-E city; two inner fields.
    let am2 = features(&cat, "AM2");
    assert_eq!((am2[0].sides, am2[0].modifiers & cat.modifier("bridge") != 0), (0b0101, true));
    assert_eq!((am2[1].sides, am2[1].modifiers), (0b1010, 0));
    assert_eq!(am2.iter().filter(|f| f.kind == FeatureKind::Field && f.halves == 0).count(), 2);
    // AM11: the tunnel; AM12: one road on three sides (N, E, W).
    assert!(features(&cat, "AM11").iter().any(|f| f.modifiers & cat.modifier("tunnel") != 0));
    let am12: Vec<&FeatureDef> = features(&cat, "AM12").iter().filter(|f| f.kind == FeatureKind::Road).collect();
    assert_eq!(am12.len(), 1);
    assert_eq!(am12[0].sides, 0b1011);
}

#[test]
fn roads_ending_at_a_gate_or_the_monastery() {
    let cat = catalog();
    // AM1: four roads end at the monastery (feature 4).
    let am1 = features(&cat, "AM1");
    assert!(am1[..4].iter().all(|f| f.kind == FeatureKind::Road && f.ends_at == [4]));
    // AM5: road W at the city's gate; AM6: road E at the N city's, road S at the W city's.
    assert_eq!(features(&cat, "AM5")[1].ends_at, [0]);
    let am6 = features(&cat, "AM6");
    assert_eq!((am6[2].ends_at.as_slice(), am6[3].ends_at.as_slice()), (&[0u8][..], &[1u8][..]));
    // Base A and S (TILES.md notes).
    assert_eq!(features(&cat, "A")[0].ends_at, [1]);
    assert_eq!(features(&cat, "S")[1].ends_at, [0]);
    let linked = |id: &str| features(&cat, id).iter().filter(|f| !f.ends_at.is_empty()).count();
    for (id, n) in [("AM9", 0), ("AM10", 0), ("AM12", 0), ("D", 0), ("L", 0)] {
        assert_eq!(linked(id), n, "{id}");
    }
}

/// The notation's new words are checked (one-line errors naming file, line and tile).
#[test]
fn bad_abbey_notation_is_refused() {
    let load = |features: &str, extra: &str| {
        let text = format!("set = \"t\"\n[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"{features}\"\n{extra}");
        Catalog::new().load_str("t.toml", &text).map(|_| ()).unwrap_err().to_string()
    };
    assert_eq!(
        load("city[N,E,S,W](pennants=1)", ""),
        "t.toml:2: tile Z: 'pennants=1' in 'city[N,E,S,W](pennants=1)': pennants=N takes a count from 2 to 9"
    );
    assert_eq!(
        load("city[N]; field[En,Es,Se,Sw,Ws,Wn](adj=city#1,ends=city#1)", ""),
        "t.toml:2: tile Z: only roads have ends=, in 'field[En,Es,Se,Sw,Ws,Wn](adj=city#1,ends=city#1)'"
    );
    assert_eq!(
        load("road[S](ends=city#1); field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]", ""),
        "t.toml:2: tile Z: ends=city#1, but the tile has 0 cities"
    );
    assert_eq!(
        load("road[S](ends=monastery); field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]", ""),
        "t.toml:2: tile Z: ends=monastery, but the tile has no monastery"
    );
    assert_eq!(
        load("city[N]; field[En,Es,Se,Sw,Ws,Wn](adj=city#1)", "closed_sides = [\"N\"]\n"),
        "t.toml:2: tile Z: side N is a closed side, but a feature lies on it"
    );
    assert_eq!(
        load("monastery[]", "closed_sides = [\"X\"]\n"),
        "t.toml:2: tile Z: closed_sides: 'X' is not a side (N, E, S, W)"
    );
    // Without closed sides, the abbey's layout leaves its half-edges in no field.
    assert_eq!(load("monastery[]", ""), "t.toml:2: tile Z: half-edge Nw belongs to no field");
}
