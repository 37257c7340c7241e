//! Issue 15, class 7: every error is one line, e.g. `--players` against the range of a
//! rule set whose name once spanned two lines.

mod simulate_util;

use simulate_util::{bad_input, scratch};

#[test]
fn a_players_error_is_one_line() {
    let dir = scratch("players-one-line");
    let rules = dir.join("rules.toml");
    let tiles = concat!(env!("CARGO_MANIFEST_DIR"), "/config/tiles/base.toml");
    let text = format!("name = \"two\\nlines\"\n[tiles]\nbase = \"{tiles}\"\n[[plugins]]\nname = \"base\"\n");
    std::fs::write(&rules, &text).unwrap();
    let r = rules.to_str().unwrap();
    for args in [vec!["play", "--players", "9", "--rules", r], vec!["simulate", "--players", "9", "--rules", r]] {
        // bad_input asserts exactly one line on standard error.
        let e = bad_input(&args, "rule-set name 'two\\nlines' holds a control character");
        assert!(e.starts_with(&format!("error: {r}: ")), "{e}");
    }
    std::fs::write(&rules, text.replace("two\\nlines", "two lines")).unwrap();
    for args in [vec!["play", "--players", "9", "--rules", r], vec!["simulate", "--players", "9", "--rules", r]] {
        let e = bad_input(&args, "--players 9");
        assert_eq!(e.trim_end(), "error: --players 9: rule set 'two lines' allows 2 to 5");
    }
}

#[test]
fn a_message_of_several_lines_is_printed_on_one() {
    assert_eq!(carcassonne_cli::one_line("first\n  second\n\nthird\u{1b}"), "first; second; third\\u{1b}");
}
