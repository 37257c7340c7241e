//! Tile data of Under the Big Top (TILES-MORE.md section "circus", rules 18-23): counts per
//! ID, the markers `circus` and `acrobats`, the acrobat space as a feature of its own
//! (`acrobats[]`), the printings without garden, and a few layouts checked by hand.

use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::tile::{FeatureDef, TileType};
use carcassonne_core::{Catalog, FeatureKind, Game};

fn catalog() -> Catalog {
    load_rules_file("config/big-top.toml").unwrap().0.catalog.clone()
}

fn tile<'a>(cat: &'a Catalog, id: &str) -> &'a TileType {
    cat.tile(cat.id(id).unwrap_or_else(|| panic!("no tile {id}")))
}

fn features<'a>(cat: &'a Catalog, id: &str) -> &'a [FeatureDef] {
    &tile(cat, id).faces[0].parts[0].features
}

/// Half-edge bits (NOTATION.md order Nw, Ne, En, Es, Se, Sw, Ws, Wn).
fn halves(names: &[&str]) -> u8 {
    const ORDER: [&str; 8] = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"];
    names.iter().map(|n| 1u8 << ORDER.iter().position(|o| o == n).unwrap()).fold(0, |m, b| m | b)
}

#[test]
fn twenty_tiles_twelve_circus_eight_acrobats() {
    let cat = catalog();
    let ids: Vec<&str> = cat.set("big-top").unwrap().iter().map(|&t| cat.tile(t).id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "CI1", "CI1ng", "CI2", "CI3-5", "CI6-7", "CI8", "CI9", "CI10", "CI10ng", "CI11", "CI12", "CI13", "CI14",
            "CI15-16", "CI17", "CI18", "CI19", "CI20"
        ]
    );
    let copies = cat.copies("big-top", |_| true, false).unwrap();
    assert_eq!(copies.len(), 20);
    let (circus, acrobats) = (cat.marker("circus"), cat.marker("acrobats"));
    assert!(circus != 0 && acrobats != 0);
    assert_eq!(copies.iter().filter(|&&t| cat.tile(t).markers & circus != 0).count(), 12);
    assert_eq!(copies.iter().filter(|&&t| cat.tile(t).markers & acrobats != 0).count(), 8);
    // Rule 19: exactly the acrobat tiles have an acrobat space, one each, touching no edge.
    for &t in cat.set("big-top").unwrap() {
        let tt = cat.tile(t);
        let spaces: Vec<&FeatureDef> = tt.features().filter(|f| f.kind == FeatureKind::Acrobats).collect();
        assert_eq!(spaces.len(), usize::from(tt.markers & acrobats != 0), "{}", tt.id);
        assert!(spaces.iter().all(|f| f.sides == 0 && f.halves == 0), "{}", tt.id);
        assert!(tt.markers & acrobats == 0 || tt.markers & circus == 0, "{}: both markers", tt.id);
        // No pennant, no monastery (TILES-MORE.md).
        assert!(tt.features().all(|f| f.pennants == 0 && f.kind != FeatureKind::Monastery), "{}", tt.id);
    }
    // Two gardens (C2); the JCZ `:1` printings without them replace CI1 and CI10.
    let gardens: Vec<&str> = copies
        .iter()
        .filter(|&&t| cat.tile(t).features().any(|f| f.kind == FeatureKind::Garden))
        .map(|&t| cat.tile(t).id.as_str())
        .collect();
    assert_eq!(gardens, ["CI1", "CI10"]);
    assert_eq!(tile(&cat, "CI1ng").variant_of.as_deref(), Some("CI1"));
    assert_eq!(tile(&cat, "CI10ng").variant_of.as_deref(), Some("CI10"));
    let ng = cat.copies("big-top", |_| true, true).unwrap();
    assert_eq!(ng.len(), 20);
    assert!(ng.iter().all(|&t| !cat.tile(t).features().any(|f| f.kind == FeatureKind::Garden)));
}

#[test]
fn the_rule_set_holds_base_and_the_twenty_tiles() {
    let (r, _) = load_rules_file("config/big-top.toml").unwrap();
    let g = Game::new(r.clone(), 2, 1).unwrap();
    // The start tile is placed and one tile is drawn.
    assert_eq!(g.st.stack.len() + 2, 72 + 20);
    assert_eq!(r.plugin_names(), ["base", "acrobats", "ringmaster", "circus"]);
}

#[test]
fn layouts_checked_by_hand() {
    let cat = catalog();
    // CI8 (art E): roads N, E, S ending at the acrobat space; fields W (Nw..Wn), NE, SE.
    let ci8 = features(&cat, "CI8");
    let kinds: Vec<FeatureKind> = ci8.iter().map(|f| f.kind).collect();
    use FeatureKind::*;
    assert_eq!(kinds, [Road, Road, Road, Acrobats, Field, Field, Field]);
    assert_eq!([ci8[0].sides, ci8[1].sides, ci8[2].sides], [0b0001, 0b0010, 0b0100]);
    assert_eq!(ci8[4].halves, halves(&["Nw", "Sw", "Ws", "Wn"]));
    assert_eq!(ci8[5].halves, halves(&["Ne", "En"]));
    assert_eq!(ci8[6].halves, halves(&["Es", "Se"]));
    // CI18 (art N): two city caps N and S, the circus between them splits the field W | E;
    // each field touches both cities.
    let ci18 = features(&cat, "CI18");
    assert_eq!(ci18.iter().map(|f| f.kind).collect::<Vec<_>>(), [City, City, Field, Field]);
    assert_eq!([ci18[0].sides, ci18[1].sides], [0b0001, 0b0100]);
    assert_eq!(ci18[2].halves, halves(&["En", "Es"]));
    assert_eq!(ci18[3].halves, halves(&["Ws", "Wn"]));
    assert_eq!(ci18[2].adj_cities, [0, 1]);
    assert_eq!(tile(&cat, "CI18").markers, cat.marker("circus"));
    // CI20 (art P): one city N+W, roads E and S ending at the circus, three fields.
    let ci20 = features(&cat, "CI20");
    assert_eq!(ci20.iter().map(|f| f.kind).collect::<Vec<_>>(), [City, Road, Road, Field, Field, Field]);
    assert_eq!(ci20[0].sides, 0b1001);
    assert_eq!([ci20[1].sides, ci20[2].sides], [0b0010, 0b0100]);
    assert_eq!(ci20[3].halves, halves(&["En"]));
    assert_eq!(ci20[4].halves, halves(&["Es", "Se"]));
    assert_eq!(ci20[5].halves, halves(&["Sw"]));
    assert_eq!((ci20[3].adj_cities.clone(), ci20[4].adj_cities.clone()), (vec![0], vec![]));
    // CI1 (art A): a garden and the acrobat space in one field all round; 4 rotations alike.
    let ci1 = tile(&cat, "CI1");
    assert_eq!(ci1.faces[0].parts[0].features.iter().map(|f| f.kind).collect::<Vec<_>>(), [Garden, Acrobats, Field]);
    assert_eq!(ci1.faces[0].distinct_rotations.len(), 1);
    assert_eq!(ci1.markers, cat.marker("acrobats") | cat.marker("garden"));
    // CI3-5: three copies, two roads S and W; CI6-7 and CI15-16 two each.
    assert_eq!([tile(&cat, "CI3-5").count, tile(&cat, "CI6-7").count, tile(&cat, "CI15-16").count], [3, 2, 2]);
}

#[test]
fn the_acrobat_space_is_a_feature_word_of_the_notation() {
    let load = |features: &str| {
        let text = format!("set = \"t\"\n[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"{features}\"\n");
        Catalog::new().load_str("t.toml", &text).map(|_| ()).map_err(|e| e.to_string())
    };
    load("acrobats[]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]").unwrap();
    assert_eq!(
        load("acrobats[N]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]").unwrap_err(),
        "t.toml:2: tile Z: a acrobats touches no edge, but 'acrobats[N]' lists 'N'"
    );
    assert!(load("acrobat[]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]").unwrap_err().contains("unknown feature kind 'acrobat'"));
    assert_eq!(FeatureKind::parse("acrobats"), Some(FeatureKind::Acrobats));
    assert!(FeatureKind::Acrobats.never_completes() && !FeatureKind::Acrobats.is_cloister());
}
