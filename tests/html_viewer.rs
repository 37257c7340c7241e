//! `render --html` (issue 22): the page of a recorded game, opened in headless Chromium
//! (Debian's `chromium`, installed by .ci/run, or here when missing and allowed): moved to
//! a turn (`#turn=N`, the handler the slider and the arrow keys use), the page shows as
//! many tiles as the board held after that turn and the scores of that moment, worked out
//! by replaying the record here. Screenshots of a base and a classic-everything game go
//! to `target/tmp/viewer-*.png` for a person to look at.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use carcassonne_cli::builtin::rules_for_record;
use carcassonne_core::record::GameRecord;
use carcassonne_core::replay::replay;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).to_path_buf();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The Chromium binary, installed with apt-get when missing (as root, as on CI).
fn chromium() -> &'static str {
    static FOUND: OnceLock<String> = OnceLock::new();
    FOUND.get_or_init(|| {
        let has = |c: &str| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success());
        for c in ["chromium", "chromium-browser"] {
            if has(c) {
                return c.to_string();
            }
        }
        let _ = Command::new("apt-get").args(["update", "-q"]).status();
        let _ = Command::new("apt-get").args(["install", "-y", "-q", "chromium"]).status();
        assert!(has("chromium"), "headless Chromium is needed: apt-get install chromium (Debian's package)");
        "chromium".to_string()
    })
}

fn headless(args: &[&str], url: &str) -> String {
    let out = Command::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1400,1000"])
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(out.status.success(), "chromium: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Plays a game, records it and writes its page; returns the record and the page.
fn game_page(name: &str, rules: &str, seed: u64) -> (GameRecord, PathBuf, PathBuf) {
    let dir = out_dir();
    let rec = dir.join(format!("viewer-{name}.json"));
    let html = dir.join(format!("viewer-{name}.html"));
    let _ = std::fs::remove_file(&rec);
    let st = bin().args(["play", "--rules", rules, "--seed", &seed.to_string()]).arg("--record").arg(&rec).output();
    assert!(st.unwrap().status.success());
    let out = bin().arg("render").arg(&rec).args(["--html", "-o"]).arg(&html).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: GameRecord = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    (r, rec, html)
}

/// The board's tile count and the scores after turn `n` of the record.
fn expected(rec: &GameRecord, file: &Path, n: u32) -> (usize, Vec<i32>) {
    let rules = rules_for_record(&rec.rules, &file.display().to_string()).unwrap();
    let mut part = rec.clone();
    part.turns.retain(|t| t.turn <= n);
    let g = replay(&part, rules, |_, _| Ok(())).unwrap();
    (g.st.board.len(), g.scores().to_vec())
}

/// What the page shows: (`data-tiles` of the body, tile groups shown, seats' scores).
fn shown(dom: &str) -> (usize, usize, Vec<i32>) {
    let attr = |s: &str, key: &str| -> Option<String> {
        let i = s.find(key)? + key.len();
        Some(s[i..s[i..].find('"')? + i].to_string())
    };
    let body = &dom[dom.find("<body").expect("a body")..];
    let tiles: usize = attr(body, "data-tiles=\"").expect("data-tiles").parse().unwrap();
    let groups = dom.split("<g class=\"tile\"").skip(1).map(|g| &g[..g.find('>').unwrap()]);
    let visible = groups.filter(|g| !g.contains("display: none")).count();
    let scores_div = &dom[dom.find("id=\"scores\"").unwrap()..];
    let scores_div = &scores_div[..scores_div.find("</div>\n").unwrap_or(scores_div.len())];
    let scores =
        scores_div.split("data-score=\"").skip(1).map(|s| s[..s.find('"').unwrap()].parse().unwrap()).collect();
    (tiles, visible, scores)
}

fn url(page: &Path, hash: &str) -> String {
    format!("file://{}#{hash}", page.display())
}

#[test]
fn the_page_shows_the_board_and_scores_of_the_turn_it_is_moved_to() {
    for (name, rules, seed, turns) in [
        ("base", "embedded:config/base.toml", 9, [0, 1, 30, 71]),
        ("classic-everything", "embedded:config/classic-everything.toml", 3, [0, 57, 100, 150]),
    ] {
        let (rec, file, page) = game_page(name, rules, seed);
        for n in turns {
            let dom = headless(&["--dump-dom"], &url(&page, &format!("turn={n}")));
            let (tiles, visible, scores) = shown(&dom);
            let (want_tiles, want_scores) = expected(&rec, &file, n);
            assert_eq!((tiles, visible), (want_tiles, want_tiles), "{name} turn {n}: tiles");
            assert_eq!(scores, want_scores, "{name} turn {n}: scores");
        }
        // The final scoring: the recorded final scores and one line per final event.
        let dom = headless(&["--dump-dom"], &url(&page, "turn=final"));
        let (_, _, scores) = shown(&dom);
        assert_eq!(scores, rec.final_scores, "{name}: final scores");
        let events = &dom[dom.find("id=\"events\"").unwrap()..];
        let events = &events[..events.find("</ul>").unwrap()];
        let n_final = rec.final_scoring.as_ref().map_or(0, Vec::len).max(1);
        assert_eq!(events.matches("<li>").count(), n_final, "{name}: final scoring events");
    }
}

#[test]
fn screenshots_of_a_base_and_a_classic_everything_game() {
    for (name, rules, seed, turn) in [
        ("base-shot", "embedded:config/base.toml", 9, 40),
        ("everything-shot", "embedded:config/classic-everything.toml", 3, 120),
    ] {
        let (_, _, page) = game_page(name, rules, seed);
        let png = out_dir().join(format!("viewer-{name}-turn{turn}.png"));
        let _ = std::fs::remove_file(&png);
        headless(&[&format!("--screenshot={}", png.display())], &url(&page, &format!("turn={turn}")));
        let bytes = std::fs::read(&png).expect("a screenshot");
        assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000, "{}: {} bytes", png.display(), bytes.len());
    }
}

#[test]
fn the_page_is_self_contained() {
    let (_, _, page) = game_page("offline", "embedded:config/base.toml", 2);
    let text = std::fs::read_to_string(page).unwrap();
    for needle in ["http://", "https://", "src=\"", "href=\"http"] {
        let hits: Vec<&str> = text.matches(needle).collect();
        // The SVG namespaces are names, not downloads.
        let allowed = text.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
            + text.matches("xmlns:xlink=\"http://www.w3.org/1999/xlink\"").count();
        let n = if needle == "http://" { hits.len() - allowed } else { hits.len() };
        assert_eq!(n, 0, "{needle} in the page");
    }
}
