//! Bad rule sets and tile data: each gives a clear error naming file, line or key, and
//! the CLI exits with code 2 (never a panic).

use std::path::{Path, PathBuf};
use std::process::Command;

use carcassonne_cli::builtin::load_rules_text;

/// A scratch directory with `config/tiles` copied in, unique per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carc-cfg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tiles")).unwrap();
    for f in ["base.toml", "river.toml"] {
        std::fs::copy(Path::new("config/tiles").join(f), dir.join("tiles").join(f)).unwrap();
    }
    dir
}

fn err_of(dir: &Path, text: &str) -> String {
    let file = dir.join("rules.toml");
    std::fs::write(&file, text).unwrap();
    match load_rules_text(file.to_str().unwrap(), text) {
        Ok(_) => panic!("rule set should be refused:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const HEAD: &str = "name = \"t\"\n[tiles]\nbase = \"tiles/base.toml\"\nriver = \"tiles/river.toml\"\n";

#[test]
fn unknown_plugin_names_line_and_known_plugins() {
    let d = scratch("unknown");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"dragonn\"\n"));
    assert!(e.contains("rules.toml:8:"), "{e}");
    assert!(e.contains("unknown plugin 'dragonn'") && e.contains("known: base, river"), "{e}");
}

#[test]
fn unknown_option_names_key_and_line() {
    let d = scratch("option");
    let e =
        err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[plugins.options]\nfarmers = true\nfarmer = false\n"));
    assert!(e.contains("rules.toml:9:"), "{e}");
    assert!(e.contains("unknown field `farmer`"), "{e}");
}

#[test]
fn wrong_option_type_names_key() {
    let d = scratch("type");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[plugins.options]\nfarmers = \"yes\"\n"));
    assert!(e.contains("rules.toml:8:") && e.contains("`farmers`"), "{e}");
    assert!(e.contains("expected a boolean"), "{e}");
}

#[test]
fn missing_requirement_is_reported() {
    let d = scratch("requires");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"river\"\n"));
    assert!(e.contains("plugin 'river' requires plugin 'base'"), "{e}");
    assert!(e.contains("rules.toml:6:"), "{e}");
}

#[test]
fn duplicate_plugin_is_reported() {
    let d = scratch("dup");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"base\"\n"));
    assert!(e.contains("plugin 'base' is named twice"), "{e}");
}

#[test]
fn missing_tile_file_names_key_and_path() {
    let d = scratch("missing");
    let e = err_of(&d, "[tiles]\nbase = \"tiles/nope.toml\"\n[[plugins]]\nname = \"base\"\n");
    assert!(e.contains("rules.toml:2:") && e.contains("tiles.base") && e.contains("tiles/nope.toml"), "{e}");
}

#[test]
fn syntax_error_names_line() {
    let d = scratch("syntax");
    let e = err_of(&d, "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = base\n");
    assert!(e.contains("rules.toml:4:"), "{e}");
}

#[test]
fn plugin_missing_its_tile_set_is_reported() {
    let d = scratch("noset");
    let e = err_of(
        &d,
        "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"river\"\n",
    );
    assert!(e.contains("plugin 'river'") && e.contains("tile set 'river' is not loaded"), "{e}");
}

/// Invalid tile data: the loader checks as TILES.md's consistency section does.
fn tile_err(name: &str, tiles: &str) -> String {
    let d = scratch(name);
    std::fs::write(d.join("tiles/bad.toml"), format!("set = \"base\"\n{tiles}")).unwrap();
    err_of(&d, "[tiles]\nbase = \"tiles/bad.toml\"\n[[plugins]]\nname = \"base\"\n")
}

#[test]
fn a_missing_tile_file_is_named_as_tried() {
    // The path as written and the path it resolved to (next to the rule set).
    let d = scratch("no-tiles");
    let e = err_of(&d, "name = \"t\"\n[tiles]\nbase = \"tiles/nope.toml\"\n[[plugins]]\nname = \"base\"\n");
    let tried = d.join("tiles/nope.toml").display().to_string();
    assert!(e.contains(&format!("rules.toml:3: tiles.base = 'tiles/nope.toml': cannot read '{tried}': ")), "{e}");
}

#[test]
fn tile_markers_and_modifiers_are_words_of_the_notation() {
    // A misspelt marker or modifier made a plain tile without a word (TILES.md rules 5-6).
    let tile = |extra: &str, markers: &str, city: &str| {
        format!(
            "{extra}[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"city[N]{city}; field[En,Es,Se,Sw,Ws,Wn](adj=city#1)\"\n\
             markers = [{markers}]\n"
        )
    };
    let e = tile_err("marker", &tile("", "\"volcanoe\"", ""));
    assert!(e.contains("bad.toml:2: tile Z: unknown marker 'volcanoe' (known: volcano, dragon, portal,"), "{e}");
    assert!(e.contains("a tile file names others in `extra_markers = [...]`"), "{e}");
    let e = tile_err("modifier", &tile("", "", "(pennant,princes)"));
    assert!(e.contains("bad.toml:2: tile Z: unknown modifier 'princes' (known: princess,"), "{e}");
    assert!(e.contains("`extra_modifiers = [...]`"), "{e}");
    // A file may add words for a plugin that reads them; the rule set then loads (and
    // fails later, for another reason: this set lacks the base tiles' start tile).
    let extra = "extra_markers = [\"goldmine\"]\nextra_modifiers = [\"princes\"]\n";
    let e = tile_err("extra", &tile(extra, "\"goldmine\"", "(princes)"));
    assert!(!e.contains("unknown"), "{e}");
    assert!(e.contains("start tile 'D'"), "{e}");
}

#[test]
fn tile_side_covered_twice() {
    let e = tile_err(
        "twice",
        "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"city[N]; road[N,S]; field[Es,Se,Sw,Ws,Wn,En]\"\n",
    );
    assert!(e.contains("bad.toml:2: tile Z: side N is covered by two features"), "{e}");
}

#[test]
fn tile_half_edge_without_field() {
    let e = tile_err("nofield", "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"city[N]; field[En,Es,Se,Sw,Ws]\"\n");
    assert!(e.contains("tile Z: half-edge Wn belongs to no field"), "{e}");
}

#[test]
fn tile_field_on_city_side() {
    let e =
        tile_err("oncity", "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"city[N]; field[Nw,En,Es,Se,Sw,Ws,Wn]\"\n");
    assert!(e.contains("half-edge Nw lies on a city side"), "{e}");
}

#[test]
fn tile_adjacency_to_a_city_it_does_not_touch() {
    let e = tile_err(
        "adj",
        "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"city[N]; road[E,W]; field[En,Wn](adj=city#1); field[Es,Se,Sw,Ws](adj=city#1)\"\n",
    );
    assert!(e.contains("does not touch that city"), "{e}");
}

#[test]
fn tile_features_crossing() {
    let e = tile_err("cross", "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"road[N,S]; road[E,W]; field[Nw,Wn]; field[Ne,En]; field[Es,Se]; field[Sw,Ws]\"\n");
    assert!(e.contains("cross each other"), "{e}");
}

#[test]
fn tile_unknown_kind_and_half_edge() {
    let e = tile_err("kind", "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"castle[N]\"\n");
    assert!(e.contains("unknown feature kind 'castle'"), "{e}");
    let e = tile_err("half", "[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"field[Nw,Ne,En,Es,Se,Sw,Ws,Xx]\"\n");
    assert!(e.contains("'Xx' is not a half-edge"), "{e}");
}

#[test]
fn tile_total_mismatch_and_missing_count() {
    let e = tile_err(
        "total",
        "total = 3\n[[tiles]]\nid = \"Z\"\ncount = 1\nfeatures = \"monastery[]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]\"\n",
    );
    assert!(e.contains("add up to 1, but `total` says 3"), "{e}");
    let e = tile_err("count", "[[tiles]]\nid = \"Z\"\nfeatures = \"monastery[]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]\"\n");
    assert!(e.contains("tile Z: missing `count`"), "{e}");
}

#[test]
fn tile_offsets_only_on_second_parts_and_variants_of_others() {
    // A single tile with an offset made records that did not replay.
    let field = "monastery[]; field[Nw,Ne,En,Es,Se,Sw,Ws,Wn]";
    let e = tile_err("offset", &format!("[[tiles]]\nid = \"Z\"\ncount = 1\noffset = [1, 0]\nfeatures = \"{field}\"\n"));
    assert!(e.contains("bad.toml:2: tile Z: the first part of a tile takes no `offset`"), "{e}");
    let e = tile_err(
        "offset2",
        &format!(
            "[[tiles]]\nid = \"Z/W\"\ncount = 1\nfeatures = \"{field}\"\n[[tiles]]\nid = \"Z/E\"\noffset = [2, 0]\nfeatures = \"{field}\"\n"
        ),
    );
    assert!(e.contains("`offset` must name a neighbouring cell"), "{e}");
    let e = tile_err("variant", &format!("[[tiles]]\nid = \"Z\"\nvariant_of = \"Z\"\nfeatures = \"{field}\"\n"));
    assert!(e.contains("tile Z: a tile cannot be a variant of itself"), "{e}");
}

#[test]
fn shipped_tile_data_passes_the_checks() {
    for f in ["config/base.toml", "config/river.toml"] {
        let text = std::fs::read_to_string(f).unwrap();
        let rules = load_rules_text(f, &text).unwrap();
        let base: u32 = rules.catalog.set("base").unwrap().iter().map(|&t| rules.catalog.tile(t).count).sum();
        assert_eq!(base, 72, "BASE-1: 72 land tiles");
        let pennants: u32 = rules
            .catalog
            .set("base")
            .unwrap()
            .iter()
            .map(|&t| rules.catalog.tile(t))
            .filter(|t| t.faces[0].parts[0].features.iter().any(|f| f.pennants > 0))
            .map(|t| t.count)
            .sum();
        assert_eq!(pennants, 10, "TILES.md: 10 base pennant tiles");
    }
}

#[test]
fn cli_exits_2_with_one_line_on_bad_rules() {
    let d = scratch("cli");
    let file = d.join("rules.toml");
    std::fs::write(&file, format!("{HEAD}[[plugins]]\nname = \"nope\"\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["play", "--rules", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown plugin 'nope'"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["play", "--rules", "/nonexistent/rules.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(["play", "--players", "9"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("allows 2 to 6"));
}

// ---- setup errors, found when the rule set is loaded (not at the first game) ----

#[test]
fn copies_zero_is_refused_at_its_line() {
    let d = scratch("copies0");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[plugins.options]\ncopies = 0\n"));
    assert!(e.contains("rules.toml:8:") && e.contains("`copies`: 0 is out of range (allowed: 1 to 8000)"), "{e}");
}

#[test]
fn more_tiles_than_a_board_holds_are_refused() {
    // 1,000 copies of the 72 base tiles; the board holds at most MAX_TILES.
    let d = scratch("copies1000");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[plugins.options]\ncopies = 1000\n"));
    assert!(e.contains("rules.toml:6:") && e.contains("72000 tiles"), "{e}");
    assert!(e.contains(&format!("at most {} per game", carcassonne_core::MAX_TILES)), "{e}");
}

#[test]
fn a_start_tile_outside_the_base_set_is_refused_when_loading() {
    let d = scratch("start");
    let e = err_of(&d, &format!("{HEAD}[[plugins]]\nname = \"base\"\n[plugins.options]\nstart_tile = \"RV5\"\n"));
    assert!(e.contains("rules.toml:6:"), "{e}");
    assert!(e.contains("start tile 'RV5' is not among the tiles of set 'base'"), "{e}");
}

#[test]
fn river_options_name_river_tiles() {
    // The spring and the lake must be river tiles of the river set (spring = "A" made the
    // 12 river tiles vanish), and not the same tile.
    let d = scratch("river-opts");
    let river = |opts: &str| {
        format!("{HEAD}[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"river\"\n[plugins.options]\n{opts}\n")
    };
    let e = err_of(&d, &river("spring = \"A\""));
    assert!(e.contains("rules.toml:8:") && e.contains("`spring`: tile 'A' is not a river tile of set 'river'"), "{e}");
    let e = err_of(&d, &river("lake = \"RV1\"\nspring = \"RV1\""));
    assert!(e.contains("`lake`: tile 'RV1' is also the spring"), "{e}");
    // The ends swapped: the spring named as the lake, the lake as the spring.
    let e = err_of(&d, &river("spring = \"RV12\"\nlake = \"RV1\""));
    assert!(e.contains("`lake`: tile 'RV1' has no lake (a river with the `lake` modifier)"), "{e}");
    let e = err_of(&d, &river("spring = \"RV5\""));
    assert!(e.contains("`spring`: tile 'RV5' has no spring (a river with the `spring` modifier)"), "{e}");
}

#[test]
fn double_spring_and_double_lake_are_not_swapped() {
    // FD-RIVER-1 / TILES.md: FDSPRING has two mouths and no lake; FDLAKE ends the river.
    let d = scratch("river-double");
    std::fs::copy("config/tiles/fairy-dragon.toml", d.join("tiles/fairy-dragon.toml")).unwrap();
    let river = |opts: &str| {
        format!(
            "{HEAD}fairy-dragon = \"tiles/fairy-dragon.toml\"\n[[plugins]]\nname = \"base\"\n\
             [[plugins]]\nname = \"river\"\n[plugins.options]\n{opts}\n"
        )
    };
    let ok = river("double_spring = \"FDSPRING\"\ndouble_lake = \"FDLAKE\"");
    std::fs::write(d.join("rules.toml"), &ok).unwrap();
    let loaded = load_rules_text(d.join("rules.toml").to_str().unwrap(), &ok);
    assert!(loaded.is_ok(), "{:?}", loaded.err());
    let e = err_of(&d, &river("double_spring = \"FDLAKE\"\ndouble_lake = \"FDSPRING\""));
    assert!(e.contains("rules.toml:9:"), "{e}");
    assert!(e.contains("`double_lake`: tile 'FDSPRING' has no lake (a river with the `lake` modifier)"), "{e}");
    let e = err_of(&d, &river("double_spring = \"FDLAKE\""));
    assert!(e.contains("`double_spring`: tile 'FDLAKE' is a lake (its river has the `lake` modifier)"), "{e}");
}

#[test]
fn castle_after_base_is_refused() {
    // The castle decision comes before base scores the city: castle runs first.
    let d = scratch("castle-order");
    let text =
        format!("{HEAD}[[plugins]]\nname = \"base\"\npriority = 0\n[[plugins]]\nname = \"castle\"\npriority = 10\n");
    let e = err_of(&d, &text);
    assert!(e.contains("rules.toml:9:") && e.contains("plugin 'castle': must run before 'base'"), "{e}");
}
