//! Tile data of Inns & Cathedrals and Traders & Builders (TILES-MORE.md, sections "inns"
//! and "traders"): counts per ID, the new modifiers on the right tiles, every tile placeable
//! next to the base start tile, and no change to a game that no plugin brings them into.

mod common;

use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_core::record::GameRecord;
use carcassonne_core::tile::{FeatureDef, TileType};
use carcassonne_core::{Catalog, FeatureKind, Game, GameOptions, Rules};

/// The base game with both tile files loaded and only the base plugin.
fn rules() -> Arc<Rules> {
    let text = "name = \"more-tiles\"\n[tiles]\nbase = \"tiles/base.toml\"\n\
                inns-cathedrals = \"tiles/inns-cathedrals.toml\"\n\
                traders-builders = \"tiles/traders-builders.toml\"\n[[plugins]]\nname = \"base\"\n";
    load_rules_text("config/more-tiles-test.toml", text).unwrap()
}

fn tiles<'a>(cat: &'a Catalog, set: &str) -> Vec<&'a TileType> {
    cat.set(set).unwrap().iter().map(|&t| cat.tile(t)).collect()
}

fn features(t: &TileType) -> &[FeatureDef] {
    &t.faces[0].parts[0].features
}

fn has(cat: &Catalog, f: &FeatureDef, modifier: &str) -> bool {
    f.modifiers & cat.modifier(modifier) != 0
}

/// Copies (counted tiles, variants excluded) of features of `kind` with `modifier`.
fn copies_with(cat: &Catalog, set: &str, kind: FeatureKind, modifier: &str) -> u32 {
    let n = |t: &TileType| features(t).iter().filter(|f| f.kind == kind && has(cat, f, modifier)).count() as u32;
    tiles(cat, set).iter().map(|t| n(t) * t.count).sum()
}

/// IDs (variants included) with a feature that `pick` selects.
fn ids_where(cat: &Catalog, set: &str, pick: impl Fn(&FeatureDef) -> bool) -> Vec<String> {
    tiles(cat, set).iter().filter(|t| features(t).iter().any(&pick)).map(|t| t.id.clone()).collect()
}

/// Counted IDs with their counts, and variants with their originals, in file order.
type Listing = (Vec<(String, u32)>, Vec<(String, String)>);

fn listing(cat: &Catalog, set: &str) -> Listing {
    let all = tiles(cat, set);
    let counted = all.iter().filter(|t| t.variant_of.is_none()).map(|t| (t.id.clone(), t.count)).collect();
    let variants = all.iter().filter_map(|t| Some((t.id.clone(), t.variant_of.clone()?))).collect();
    (counted, variants)
}

/// `PREFIX1`..`PREFIXn`, one copy each, except `PREFIXk-(k+1)` with 2 copies for `pair` k.
fn numbered(prefix: &str, n: u32, pair: Option<u32>) -> Vec<(String, u32)> {
    (1..=n)
        .filter(|&i| pair.is_none_or(|k| i != k + 1))
        .map(|i| if pair == Some(i) { (format!("{prefix}{i}-{}", i + 1), 2) } else { (format!("{prefix}{i}"), 1) })
        .collect()
}

#[test]
fn inns_and_cathedrals_has_18_tiles_per_id() {
    let r = rules();
    let (counted, variants) = listing(&r.catalog, "inns-cathedrals");
    // IC1..IC18, one copy each except the cathedral IC11-12 (2 copies).
    assert_eq!(counted, numbered("IC", 18, Some(11)));
    assert_eq!(counted.iter().map(|(_, c)| c).sum::<u32>(), 18);
    let v = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(variants, vec![v("IC2c1", "IC2"), v("IC8c1", "IC8")]);
}

#[test]
fn traders_and_builders_has_24_tiles_per_id() {
    let r = rules();
    let (counted, variants) = listing(&r.catalog, "traders-builders");
    assert_eq!(counted, numbered("TB", 24, None));
    assert_eq!(counted.iter().map(|(_, c)| c).sum::<u32>(), 24);
    let v = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(variants, vec![v("TB11c1", "TB11"), v("TB21c1", "TB21")]);
}

#[test]
fn inns_cathedrals_pennants_and_monastery_sit_on_their_tiles() {
    let r = rules();
    let cat = &r.catalog;
    let set = "inns-cathedrals";
    // 6 inns, each on a road of its own tile; the C1 IC2c1 keeps its inn.
    assert_eq!(copies_with(cat, set, FeatureKind::Road, "inn"), 6);
    let inns = ids_where(cat, set, |f| has(cat, f, "inn"));
    assert_eq!(inns, ["IC1", "IC2", "IC2c1", "IC3", "IC13", "IC14", "IC15"]);
    // IC3: the one inn is on the E road (the art; not also on W).
    let ic3 = cat.tile(cat.id("IC3").unwrap());
    let inn_sides: Vec<u8> = features(ic3).iter().filter(|f| has(cat, f, "inn")).map(|f| f.sides).collect();
    assert_eq!(inn_sides, [0b0010], "E side only");
    // 2 cathedrals: the two copies of IC11-12, a city on all four sides and no field.
    assert_eq!(copies_with(cat, set, FeatureKind::City, "cathedral"), 2);
    let cath = cat.tile(cat.id("IC11-12").unwrap());
    assert_eq!(features(cath).len(), 1);
    assert_eq!((features(cath)[0].kind, features(cath)[0].sides), (FeatureKind::City, 0b1111));
    // 3 pennants (IC13, IC17 on the N-W city, IC18), 1 monastery (IC4).
    let pennants: u32 =
        tiles(cat, set).iter().map(|t| t.count * features(t).iter().map(|f| f.pennants as u32).sum::<u32>()).sum();
    assert_eq!(pennants, 3);
    let ic17 = features(cat.tile(cat.id("IC17").unwrap()));
    assert_eq!((ic17[0].sides, ic17[0].pennants, ic17[1].pennants), (0b1001, 1, 0));
    assert_eq!(ids_where(cat, set, |f| f.kind == FeatureKind::Monastery), ["IC4"]);
    // IC8 (and its C1 printing): four caps around a field that touches no edge.
    assert_eq!(ids_where(cat, set, |f| has(cat, f, "inner")), ["IC8", "IC8c1"]);
    let garden: Vec<&str> =
        tiles(cat, set).iter().filter(|t| t.markers & cat.marker("garden") != 0).map(|t| t.id.as_str()).collect();
    assert_eq!(garden, ["IC2", "IC8"]);
}

#[test]
fn traders_goods_and_bridges_sit_on_their_tiles() {
    let r = rules();
    let cat = &r.catalog;
    let set = "traders-builders";
    // 20 goods symbols, one per tile on one city part: 9 wine, 6 grain, 5 cloth.
    assert_eq!(copies_with(cat, set, FeatureKind::City, "wine"), 9);
    assert_eq!(copies_with(cat, set, FeatureKind::City, "grain"), 6);
    assert_eq!(copies_with(cat, set, FeatureKind::City, "cloth"), 5);
    let goods = |f: &FeatureDef| ["wine", "grain", "cloth"].iter().filter(|g| has(cat, f, g)).count();
    let ids = |range: std::ops::RangeInclusive<u32>| range.map(|i| format!("TB{i}")).collect::<Vec<_>>();
    for t in tiles(cat, set).into_iter().filter(|t| t.variant_of.is_none()) {
        let per_part: Vec<usize> = features(t).iter().map(goods).filter(|&n| n > 0).collect();
        let none = ["TB1", "TB2", "TB3", "TB10"].contains(&t.id.as_str());
        assert_eq!(per_part, if none { vec![] } else { vec![1] }, "{}", t.id);
    }
    assert_eq!(ids_where(cat, set, |f| has(cat, f, "grain")), ids(4..=9));
    assert_eq!(ids_where(cat, set, |f| has(cat, f, "cloth")), ["TB11", "TB11c1", "TB12", "TB13", "TB14", "TB15"]);
    assert_eq!(ids_where(cat, set, |f| has(cat, f, "wine")).len(), 10, "TB16..TB24 and TB21c1");
    // No pennant, one monastery (TB10).
    assert!(tiles(cat, set).iter().all(|t| features(t).iter().all(|f| f.pennants == 0)));
    assert_eq!(ids_where(cat, set, |f| f.kind == FeatureKind::Monastery), ["TB10"]);
    // 2 bridges: TB2's W-E road over its N-S road (both run through), TB3's W road.
    assert_eq!(copies_with(cat, set, FeatureKind::Road, "bridge"), 2);
    let roads = |id: &str| -> Vec<(u8, bool)> {
        let t = cat.tile(cat.id(id).unwrap());
        features(t).iter().filter(|f| f.kind == FeatureKind::Road).map(|f| (f.sides, has(cat, f, "bridge"))).collect()
    };
    assert_eq!(roads("TB2"), [(0b0101, false), (0b1010, true)]);
    assert_eq!(roads("TB3"), [(0b0100, false), (0b1000, true)]);
    assert_eq!(ids_where(cat, set, |f| has(cat, f, "inner")), ["TB13", "TB14", "TB16", "TB24"]);
}

#[test]
fn a_first_edition_variant_is_its_original_without_the_garden() {
    let r = rules();
    let cat = &r.catalog;
    for set in ["inns-cathedrals", "traders-builders"] {
        for v in tiles(cat, set).into_iter().filter(|t| t.variant_of.is_some()) {
            let orig = cat.tile(cat.id(v.variant_of.as_deref().unwrap()).unwrap());
            let no_garden: Vec<&FeatureDef> = features(orig).iter().filter(|f| f.kind != FeatureKind::Garden).collect();
            assert_eq!(features(v).iter().collect::<Vec<_>>(), no_garden, "{}", v.id);
            assert_eq!((v.markers, orig.markers), (0, cat.marker("garden")), "{}", v.id);
        }
    }
}

/// Legal placements of `id` as the first tile drawn, next to the start tile D (city N,
/// roads E and W, field S).
fn placements(r: &Arc<Rules>, id: &str) -> Vec<serde_json::Value> {
    let order = vec![r.catalog.id(id).unwrap()];
    let g =
        Game::start(r.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(order), record: false }).unwrap();
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| g.describe(a)).filter(|a| a["type"] == "place_tile").collect()
}

#[test]
fn every_tile_can_be_placed_next_to_the_start_tile() {
    let r = rules();
    for set in ["inns-cathedrals", "traders-builders"] {
        for t in tiles(&r.catalog, set) {
            let all = placements(&r, &t.id);
            assert!(!all.is_empty(), "{} has no place next to D", t.id);
            let mut g = Game::start(
                r.clone(),
                GameOptions {
                    players: 2,
                    seed: 0,
                    tile_order: Some(vec![r.catalog.id(&t.id).unwrap()]),
                    record: false,
                },
            )
            .unwrap();
            common::play(&mut g, all[0].clone());
            assert_eq!(g.st.board.parts.len(), 2, "{}", t.id);
        }
    }
    // City on all sides: only north of D. One layout for the cathedral and IC8 (the same
    // every way round); four for TB24, whose two diagonal cities would match after a half
    // turn but only one carries wine; four for TB13.
    let north = |id: &str| {
        let all = placements(&r, id);
        assert!(all.iter().all(|a| a["cell"] == serde_json::json!([0, -1])), "{id}: {all:?}");
        all.len()
    };
    assert_eq!([north("IC11-12"), north("IC8"), north("TB24"), north("TB13")], [1, 1, 4, 4]);
}

#[test]
fn tile_files_no_plugin_brings_change_no_game() {
    let plain = load_rules_text("config/base.toml", &std::fs::read_to_string("config/base.toml").unwrap()).unwrap();
    let more = rules();
    for seed in [5u64, 41] {
        let record = |r: &Arc<Rules>| {
            let g = common::play_checked(r, 3, seed, true, None, |_| {});
            let rec = GameRecord::from_game(&g, "x", None, seed);
            (serde_json::to_value(&rec.turns).unwrap(), rec.final_scores)
        };
        assert_eq!(record(&more), record(&plain), "seed {seed}");
    }
}
