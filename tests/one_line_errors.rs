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

#[test]
fn a_mistyped_argument_keeps_clap_s_tip_on_the_one_line() {
    let e = bad_input(&["simulate", "--game", "3"], "unexpected argument '--game'");
    assert!(e.contains("; tip: a similar argument exists: '--games'"), "{e}");
    let e = bad_input(&["simulat"], "unrecognized subcommand 'simulat'");
    assert!(e.contains("tip: a similar subcommand exists: 'simulate'"), "{e}");
}

#[test]
fn without_a_subcommand_the_help_is_printed_with_exit_code_2() {
    let out = simulate_util::run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Usage: carcassonne <COMMAND>"), "{err}");
    for cmd in ["play", "replay", "simulate", "merge", "render"] {
        assert!(err.lines().any(|l| l.trim_start().starts_with(cmd)), "{cmd} listed: {err}");
    }
}
