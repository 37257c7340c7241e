//! Issue 15, class 4: an error about a file that is not a tile file (or rule set) quotes
//! none of its keys or values, only its line and the expected keys; names shown on a
//! terminal holding control characters are refused, and errors print them escaped.

mod simulate_util;

use std::path::Path;

use simulate_util::{bad_input, scratch};

const SECRET_KEYS: &str = "# deploy settings\nAPI_TOKEN = \"hunter2-xyz\"\n[database]\npassword = \"pw-123\"\n";

/// A rule set whose base tile file is `tiles` (absolute path).
fn rules_with_tiles(dir: &Path, tiles: &Path) -> String {
    let p = dir.join("rules.toml");
    let text = format!("name = \"t\"\n[tiles]\nbase = \"{}\"\n[[plugins]]\nname = \"base\"\n", tiles.display());
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn assert_quotes_nothing(e: &str, secrets: &[&str]) {
    for s in secrets {
        assert!(!e.contains(s), "the error quotes {s:?}: {e}");
    }
}

#[test]
fn a_tile_path_naming_another_file_quotes_none_of_it() {
    let dir = scratch("secrets");
    let env = dir.join("settings.env");
    std::fs::write(&env, SECRET_KEYS).unwrap();
    let rules = rules_with_tiles(&dir, &env);
    let e = bad_input(&["play", "--rules", &rules], "not a tile file");
    let want = format!(
        "error: {}:2: not a tile file: a key it does not have (a tile file has the keys set, description, \
         total, extra_markers, extra_modifiers, tiles)",
        env.display()
    );
    assert_eq!(e.trim_end(), want);
    assert_quotes_nothing(&e, &["API_TOKEN", "hunter2", "database", "password", "pw-123"]);
    // A `set` value without tiles, a duplicate key, a value of the wrong type.
    for (text, line) in [
        ("set = \"leaked-name\"\nhost = \"db.internal\"\n", ":2: "),
        ("set = \"leaked-name\"\n", ": "),
        ("SECRET = 1\nSECRET = 2\n", ":2: "),
        ("set = 31337\ntiles = []\n", ": "),
    ] {
        std::fs::write(&env, text).unwrap();
        let e = bad_input(&["play", "--rules", &rules], "not ");
        assert!(e.starts_with(&format!("error: {}{line}not ", env.display())), "{e}");
        assert_quotes_nothing(&e, &["leaked-name", "db.internal", "host", "SECRET", "31337"]);
    }
}

#[test]
fn a_record_pointing_its_tile_path_at_another_file_quotes_none_of_it() {
    let dir = scratch("record-secrets");
    let env = dir.join("settings.env");
    std::fs::write(&env, SECRET_KEYS).unwrap();
    let rec = dir.join("g.json");
    simulate_util::ok(&["play", "--rules", "config/base.toml", "--record", rec.to_str().unwrap()]);
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let text = v["rules"]["text"].as_str().unwrap().replace("tiles/base.toml", env.to_str().unwrap());
    v["rules"]["text"] = text.into();
    std::fs::write(&rec, v.to_string()).unwrap();
    let e = bad_input(&["replay", rec.to_str().unwrap()], "not a tile file");
    assert_quotes_nothing(&e, &["API_TOKEN", "hunter2", "database", "password", "pw-123"]);
}

#[test]
fn names_with_control_characters_are_refused_and_shown_escaped() {
    let dir = scratch("controls");
    let tiles = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/tiles/base.toml");
    let rules = rules_with_tiles(&dir, &tiles);
    let text = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(&rules, text.replace("name = \"t\"", "name = \"t\\u001b[2J\\nx\"")).unwrap();
    let e = bad_input(&["play", "--rules", &rules], "holds a control character");
    assert_eq!(e.trim_end(), format!("error: {rules}: rule-set name 't\\u{{1b}}[2J\\nx' holds a control character"));
    // A tile ID.
    let bad_tiles = dir.join("tiles.toml");
    let base = std::fs::read_to_string(&tiles).unwrap();
    std::fs::write(&bad_tiles, base.replacen("id = \"A\"", "id = \"A\\u0007\"", 1)).unwrap();
    let rules = rules_with_tiles(&dir, &bad_tiles);
    let e = bad_input(&["play", "--rules", &rules], "holds a control character");
    assert!(e.contains(&format!("{}:8: tile ID 'A\\u{{7}}' holds a control character", bad_tiles.display())), "{e}");
    assert!(!e.contains('\u{7}') && !e.contains('\u{1b}'), "{e:?}");
}
