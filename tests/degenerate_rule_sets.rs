//! Issue 15, class 2: a rule set that cannot play one turn is refused when it loads,
//! naming why (exit code 2, one line), instead of playing 0-turn games.

mod simulate_util;

use simulate_util::{bad_input, scratch};

const D: &str = "[[tiles]]\nid = \"D\"\ncount = COUNT\n\
    features = \"city[N]; road[E,W]; field[En,Wn](adj=city#1); field[Es,Se,Sw,Ws]\"\n";

/// A base tile set of tile D only, `count` copies (one is the start tile).
fn d_only(dir: &std::path::Path, count: u32) -> String {
    let p = dir.join("d-only.toml");
    std::fs::write(&p, format!("set = \"base\"\n{}", D.replace("COUNT", &count.to_string()))).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_tile_set_holding_only_the_start_tile_is_refused() {
    let dir = scratch("start-only");
    let rules = dir.join("rules.toml");
    let text = format!("name = \"t\"\n[tiles]\nbase = \"{}\"\n[[plugins]]\nname = \"base\"\n", d_only(&dir, 1));
    std::fs::write(&rules, text).unwrap();
    let f = rules.to_str().unwrap();
    let want = format!(
        "error: {f}: a game of 2 players cannot play one turn: its tile sets and options leave no tile to \
         draw besides the start tile"
    );
    for args in [vec!["play", "--rules", f], vec!["simulate", "--games", "3", "--rules", f]] {
        assert_eq!(bad_input(&args, "cannot play one turn").trim_end(), want);
    }
    // One more copy of D: one turn to play, the rule set loads and plays it.
    d_only(&dir, 2);
    let out = simulate_util::json(&["play", "--rules", f, "--json"]);
    assert_eq!(out["turns"], 1, "{out}");
}

#[test]
fn options_that_remove_every_land_tile_are_refused() {
    // 1 land tile of the base set, 20 of Fair & Dragon's: removing 50 leaves none.
    let dir = scratch("removed-all");
    let rules = dir.join("rules.toml");
    let fd = concat!(env!("CARGO_MANIFEST_DIR"), "/config/tiles/fairy-dragon.toml");
    let text = format!(
        "name = \"t\"\n[tiles]\nbase = \"{}\"\nfairy-dragon = \"{fd}\"\n[[plugins]]\nname = \"base\"\n\
         [[plugins]]\nname = \"dragon-2025\"\npriority = 20\n[plugins.options]\nremoved_land_tiles = 50\n",
        d_only(&dir, 2)
    );
    std::fs::write(&rules, &text).unwrap();
    let f = rules.to_str().unwrap();
    let e = bad_input(&["simulate", "--games", "2", "--rules", f], "cannot play one turn");
    assert!(
        e.contains(&format!("{f}: a game of 2 players cannot play one turn: the game ends before its first turn")),
        "{e}"
    );
    assert!(e.contains("`removed_land_tiles`"), "{e}");
    // Removing fewer than the land tiles leaves a game to play.
    std::fs::write(&rules, text.replace("removed_land_tiles = 50", "removed_land_tiles = 5")).unwrap();
    let out = simulate_util::json(&["play", "--rules", f, "--json"]);
    assert!(out["turns"].as_u64().unwrap() > 0, "{out}");
}
