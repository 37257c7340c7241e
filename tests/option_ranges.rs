//! Issue 15, class 1: every numeric plugin option has a documented range, checked when the
//! rule set loads (one-line error naming file, line, key and range, exit code 2); scores
//! saturate instead of wrapping.

mod simulate_util;

use carcassonne_cli::builtin::{factories, load_rules_file};
use simulate_util::{bad_input, scratch};

/// The plugin entry `plugin` with option `key = value`, after the base game (tile files by
/// absolute path); returns the text and the line of `key`.
fn rule_set(plugin: &str, key: &str, value: &str) -> (String, usize) {
    let tiles = concat!(env!("CARGO_MANIFEST_DIR"), "/config/tiles");
    let mut text = format!(
        "name = \"t\"\n[tiles]\nbase = \"{tiles}/base.toml\"\nfairy-dragon = \"{tiles}/fairy-dragon.toml\"\n\
         tower = \"{tiles}/tower.toml\"\n"
    );
    if plugin != "base" {
        text.push_str("[[plugins]]\nname = \"base\"\n");
    }
    let priority = if plugin == "castle" { -10 } else { 10 };
    text.push_str(&format!("[[plugins]]\nname = \"{plugin}\"\npriority = {priority}\n[plugins.options]\n"));
    let line = text.lines().count() + 1;
    text.push_str(&format!("{key} = {value}\n"));
    (text, line)
}

#[test]
fn the_issues_out_of_range_options_are_refused_with_file_line_key_and_range() {
    let dir = scratch("ranges");
    let cases = [
        ("tower", "ransom", "-5", "-5 is out of range (allowed: 0 to 100)"),
        ("barn", "placed_points", "-3", "-3 is out of range (allowed: 0 to 100)"),
        ("barn", "final_points", "2147483647", "2147483647 is out of range (allowed: 0 to 100)"),
        ("fairy-2025", "points", "2147483647", "2147483647 is out of range (allowed: 0 to 100)"),
        ("castle", "farmer_bonus", "2147483647", "2147483647 is out of range (allowed: 0 to 100)"),
        ("dragon-2025", "removed_land_tiles", "1000", "1000 is out of range (allowed: 0 to 50)"),
        ("base", "followers", "0", "0 is out of range (allowed: 1 to 30)"),
        ("hills", "edition", "3", "3 is out of range (allowed: 1 to 2)"),
        ("vineyards", "points", "-1", "-1 is out of range (allowed: 0 to 100)"),
        ("abbey", "edition", "3", "3 is out of range (allowed: 1 to 2)"),
        ("bazaar", "max_bid", "101", "101 is out of range (allowed: 0 to 100)"),
    ];
    for (plugin, key, value, why) in cases {
        let (text, line) = rule_set(plugin, key, value);
        let file = dir.join(format!("{plugin}-{key}.toml"));
        std::fs::write(&file, &text).unwrap();
        let f = file.to_str().unwrap();
        let want = format!("{f}:{line}: plugins '{plugin}' options: `{key}`: {why}");
        for args in [vec!["play", "--rules", f], vec!["simulate", "--games", "1", "--rules", f]] {
            let e = bad_input(&args, &want);
            assert_eq!(e.trim_end(), format!("error: {want}"));
        }
    }
}

/// Every numeric option of every built-in plugin: its bounds load, one beyond each is
/// refused naming the key and the range, and `docs/options.md` gives that range.
#[test]
fn every_numeric_option_has_a_checked_and_documented_range() {
    let doc = std::fs::read_to_string("docs/options.md").unwrap();
    let mut checked = 0;
    for f in factories() {
        let (_, defaults) = (f.build)(&toml::Table::new()).unwrap();
        for (key, default) in defaults.as_object().unwrap().iter().filter(|(_, v)| v.is_number()) {
            let build = |v: i64| {
                let opts: toml::Table = [(key.clone(), toml::Value::Integer(v))].into_iter().collect();
                (f.build)(&opts).map(|_| ())
            };
            let e = build(i64::MAX).expect_err(&format!("{} `{key}` = i64::MAX loads", f.name));
            let range = e.split("(allowed: ").nth(1).and_then(|r| r.strip_suffix(')'));
            let range = range.unwrap_or_else(|| panic!("{} `{key}`: no range in {e:?}", f.name));
            assert!(e.starts_with(&format!("`{key}`: {} is out of range", i64::MAX)), "{e}");
            let (lo, hi) = range.split_once(" to ").unwrap();
            let (lo, hi): (i64, i64) = (lo.parse().unwrap(), hi.parse().unwrap());
            assert!(build(lo).is_ok() && build(hi).is_ok(), "{} `{key}`: {lo} or {hi} is refused", f.name);
            for beyond in [lo - 1, hi + 1] {
                let e = build(beyond).unwrap_err();
                assert_eq!(e, format!("`{key}`: {beyond} is out of range (allowed: {lo} to {hi})"));
            }
            let row = format!("| `{}` | `{key}` | {default} | {lo} to {hi}", f.name);
            assert!(doc.contains(&row), "docs/options.md lacks the row {row:?}");
            checked += 1;
        }
    }
    // base 2, dragon, portal, princess, tower 2, barn 3, castle, dragon-2025, fairy-2025,
    // inns-cathedrals 3, traders-builders 3, hills, vineyards, abbey, bazaar 2, acrobats 2,
    // ringmaster, bridge 2.
    assert_eq!(checked, 29);
}

#[test]
fn scores_saturate_instead_of_wrapping() {
    let (rules, _) = load_rules_file("embedded:config/base.toml").unwrap();
    let opts = carcassonne_core::GameOptions { players: 2, seed: 1, tile_order: None, record: false };
    let mut g = carcassonne_core::Game::start(rules, opts).unwrap();
    for _ in 0..3 {
        g.st.award(0, i32::MAX, 0);
        g.st.award(1, i32::MIN, 0);
    }
    assert_eq!(g.scores(), [i32::MAX, i32::MIN]);
    assert_eq!(g.st.points_by_source[0][0], i32::MAX);
}
