//! `play --human SEATS` (issue 22): a person's decisions asked on the terminal and read
//! from standard input, driven here through a pipe. A seat that always answers `1` plays
//! exactly the game of a bot that always takes the first legal action (worked out here
//! in-process with the same seeded bots at the other seats); `q` saves the record so far.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use carcassonne_cli::bots::make_bot;
use carcassonne_cli::builtin::load_rules_file;
use carcassonne_core::{Game, GameOptions};

fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A broken pipe (the game ended before all the input was read) is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("carc-human-{}-{name}", std::process::id()))
}

/// Seat 0 takes the first legal action at every decision, seat 1 is `random` seeded as
/// `play` seeds it: the final scores.
fn first_action_game(rules: &str, seed: u64) -> Vec<i32> {
    let (rules, _) = load_rules_file(rules).unwrap();
    let mut g = Game::start(rules.clone(), GameOptions { players: 2, seed, tile_order: None, record: false }).unwrap();
    let mut bot = make_bot("random", seed, 1).unwrap();
    let mut buf = Vec::new();
    while let Some(d) = g.decision() {
        g.legal_actions(&mut buf);
        let i = if d.player == 0 { 0 } else { bot.choose(&g, &buf) };
        g.play_unchecked(buf[i]);
    }
    g.scores().to_vec()
}

/// The scores of the `final scores: seat 0: 10, seat 1: 12` line, in seat order.
fn final_scores(stdout: &str) -> Vec<i32> {
    let line = stdout.lines().find(|l| l.starts_with("final scores:")).expect("final scores");
    line["final scores:".len()..].split(',').map(|s| s.rsplit(':').next().unwrap().trim().parse().unwrap()).collect()
}

#[test]
fn a_human_answering_1_plays_the_first_action_game() {
    for (rules, seed) in [("embedded:config/base.toml", 4), ("embedded:config/classic-everything.toml", 2)] {
        let out = play(&["--rules", rules, "--seed", &seed.to_string(), "--human", "0"], &"1\n".repeat(2000));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{rules}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("turn 1, seat 0 (you), tile "), "{rules}");
        assert!(stdout.contains("legal actions:\n    1. tile "), "{rules}");
        assert_eq!(final_scores(&stdout), first_action_game(rules, seed), "{rules}");
    }
}

#[test]
fn q_saves_the_record_so_far_and_a_bad_answer_is_asked_again() {
    let rec = tmp("quit.json");
    let _ = std::fs::remove_file(&rec);
    let r = rec.to_str().unwrap();
    let out = play(&["--rules", "embedded:config/base.toml", "--human", "0", "--record", r], "2\nfoo\n0\n5\nq\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("'foo' is not a number from 1 to"), "{stdout}");
    assert!(stdout.contains("'0' is not a number from 1 to"), "{stdout}");
    assert!(stdout.contains("stopped at turn 3; the record so far is in"), "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let turns = v["turns"].as_array().unwrap();
    // Turn 1 (seat 0: the 2nd placement, then pass: the 5th figure action), turn 2 (the
    // bot), and turn 3 stopped before its first action.
    assert_eq!(turns.len(), 3);
    assert_eq!(turns[2]["actions"], serde_json::json!([]));
    assert_eq!(turns[0]["actions"][1]["type"], "pass");
    assert_eq!(v["bots"], serde_json::json!(["human", "random"]));
    // What it chose is what was offered second (the engine's order).
    let (rules, _) = load_rules_file("embedded:config/base.toml").unwrap();
    let g = Game::start(rules, GameOptions { players: 2, seed: 1, tile_order: None, record: false }).unwrap();
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    let mut second = g.describe(&buf[1]);
    second["player"] = 0.into();
    assert_eq!(turns[0]["actions"][0], second);
    // The partial record draws.
    let html = tmp("quit.html");
    let st = Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(["render", r, "--html", "-o"]).arg(&html).status();
    assert!(st.unwrap().success());
}

#[test]
fn the_board_file_is_rewritten_and_bad_seats_are_refused() {
    let board = tmp("board.svg");
    let b = board.to_str().unwrap();
    let out = play(&["--rules", "embedded:config/base.toml", "--human", "1", "--board", b], "1\n1\nq\n");
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&board).unwrap();
    assert!(svg.contains("<svg") && svg.contains("class=\"tile\""), "{svg}");
    let out = play(&["--rules", "embedded:config/base.toml", "--human", "5"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end(), "error: --human 5: the game has seats 0 to 1");
}
