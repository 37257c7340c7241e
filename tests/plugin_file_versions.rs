//! A plugin file built against an older 4.x interface is called the way that version
//! expects: before 4.3 its tile veto gets every candidate (`allow_tiles`), before 4.4 its
//! figure filter and figure vetoes get every action and candidate as views
//! (`filter_figure_actions`, `allow_figures`); from 4.4 it is handed counts and asks for
//! the views it wants. The probe fixture reports the version its options name
//! (`built_with_minor`), so one plugin goes down each of the engine's paths: at every
//! decision of whole games the legal moves are the same for 4.2, 4.3 and 4.4, and they are
//! exactly those of the plain base game minus what the probe's rules remove (BASE-3 tile
//! placements it forbids, BASE-6 figure placements it forbids, `pass` it drops).

mod plugin_util;

use std::sync::Arc;

use carcassonne_cli::builtin::load_rules_text;
use carcassonne_cli::driver::play_game;
use carcassonne_core::{Action, DecisionKind, FeatureKind, Game, Rules};
use plugin_util::{base_with, path_of, scratch, write_rules};

fn load(name: &str, text: &str) -> Arc<Rules> {
    let file = write_rules(&scratch(name), text);
    load_rules_text(&file, text).unwrap_or_else(|e| panic!("rule set should load: {e}\n{text}"))
}

/// Base with the probe forbidding tiles turned a quarter, followers on roads and `pass` when a
/// placement is left, reporting interface 4.`minor`, with more options `extra`.
fn probed_with(name: &str, minor: u32, extra: &str) -> Arc<Rules> {
    let entry = format!(
        "[[plugins]]\npath = \"{}\"\npriority = 5\n[plugins.options]\nforbid_rotation = 90\n\
         forbid_figures_on = \"road\"\ndrop_pass = true\nbuilt_with_minor = {minor}\n{extra}\n",
        path_of("carcassonne_test_probe")
    );
    load(name, &base_with(&entry))
}

fn probed(minor: u32) -> Arc<Rules> {
    probed_with(&format!("versions-4-{minor}"), minor, "")
}

/// What the probe leaves of the plain game's legal moves in the same position.
fn expected(plain: &Game, legal: &[Action]) -> Vec<Action> {
    let on_road = |a: &Action| match *a {
        Action::PlaceFigure { part, feature, .. } => {
            plain.st.graph.node(plain.st.node_of(part, feature)).kind == FeatureKind::Road
        }
        _ => false,
    };
    let mut left: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| !matches!(a, Action::PlaceTile { rot, .. } if rot.quarters() == 1))
        .filter(|a| !on_road(a))
        .collect();
    if left.iter().any(|a| *a != Action::Pass) {
        left.retain(|a| *a != Action::Pass);
    }
    left
}

#[test]
fn plugin_files_of_4_2_4_3_and_4_4_get_the_same_moves_at_every_decision() {
    let plain_rules = load("versions-plain", &base_with(""));
    let versions = [probed(2), probed(3), probed(4)];
    let (mut compared, mut figure_steps_narrowed, mut tile_steps_narrowed) = (0, 0, 0);
    for seed in 1..=4u64 {
        let mut plain = Game::new(plain_rules.clone(), 2, seed).unwrap();
        let mut games: Vec<Game> = versions.iter().map(|r| Game::new(r.clone(), 2, seed).unwrap()).collect();
        let mut pick = seed;
        let (mut want, mut buf) = (Vec::new(), Vec::new());
        while let Some(d) = games[2].decision() {
            // The tile drawn (and any discarded) must match the plain game's for the plain
            // game's moves to be the reference: a tile the probe forbids everywhere is
            // discarded there and not in the plain game (BASE-4), which ends the comparison.
            let in_step = plain.decision().map(|p| p.kind) == Some(d.kind) && plain.st.tile == games[2].st.tile;
            plain.legal_actions(&mut buf);
            let reference = in_step.then(|| expected(&plain, &buf));
            games[2].legal_actions(&mut want);
            for (g, minor) in games[..2].iter().zip([2, 3]) {
                let mut got = Vec::new();
                g.legal_actions(&mut got);
                assert_eq!(got, want, "seed {seed}, turn {}: interface 4.{minor} against 4.4", g.st.turn);
            }
            let Some(reference) = reference else { break };
            assert_eq!(want, reference, "seed {seed}, turn {}: the probe's moves", games[2].st.turn);
            compared += 1;
            if reference.len() < buf.len() {
                match d.kind {
                    DecisionKind::PlaceTile => tile_steps_narrowed += 1,
                    _ => figure_steps_narrowed += 1,
                }
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let a = want[(pick >> 33) as usize % want.len()];
            for g in &mut games {
                g.try_play(a).unwrap();
            }
            plain.try_play(a).unwrap();
        }
    }
    // Whole games were compared (seed 1 stops at its fourth turn, on a tile that fits only
    // turned a quarter) and the vetoes narrowed both kinds of decision (432, 197 and 48
    // when written).
    assert!(compared > 300, "{compared} decisions compared");
    assert!(tile_steps_narrowed > 100 && figure_steps_narrowed > 30, "{tile_steps_narrowed} / {figure_steps_narrowed}");
}

/// A 4.4 file that asks for an action or candidate past the decision's lists (or outside
/// a decision) gets the documented empty answers, a `pass` view and
/// `FigurePlacementView::NONE`, never another decision's views: the probe fails the game
/// otherwise. The same games with `refuse` show that both judgements, where the probe
/// asks, were reached.
#[test]
fn views_asked_for_past_the_lists_are_empty() {
    let rules_with = |name: &str, extra: &str| {
        let entry = format!(
            "[[plugins]]\npath = \"{}\"\npriority = 5\n[plugins.options]\npeek_beyond = true\n{extra}\n",
            path_of("carcassonne_test_probe")
        );
        load(name, &base_with(&entry))
    };
    let bots = ["random".to_string()];
    let rules = rules_with("versions-peek", "");
    let refusing = ["judge_figure_actions", "judge_figures"]
        .map(|entry| (entry, rules_with(&format!("versions-peek-{entry}"), &format!("refuse = [\"{entry}\"]"))));
    for seed in 1..=3 {
        let g = play_game(&rules, 2, seed, &bots, false).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(g.is_over(), "seed {seed}");
        for (entry, refusing) in &refusing {
            let e = play_game(refusing, 2, seed, &bots, false).expect_err("the judgement is reached");
            assert!(e.to_string().contains(&format!("probe: called through {entry}")), "seed {seed}: {e}");
        }
    }
}

/// The version a file reports decides the engine's path: a 4.2 file is never called
/// through the 4.3 and 4.4 entry points, a 4.3 file through `judge_tiles` but not the 4.4
/// ones, a 4.4 file through all three (the probe fails the game in an entry point its
/// `refuse` option names).
#[test]
fn the_reported_version_decides_the_entry_points() {
    let run = |minor: u32, refuse: &[&str]| {
        let list = refuse.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(", ");
        let name = format!("versions-refuse-{minor}-{}", refuse.join("-"));
        let rules = probed_with(&name, minor, &format!("refuse = [{list}]"));
        play_game(&rules, 2, 1, &["random".to_string()], false).map(|g| g.is_over()).map_err(|e| e.to_string())
    };
    let (tiles, actions, figures) = ("judge_tiles", "judge_figure_actions", "judge_figures");
    assert_eq!(run(2, &[tiles, actions, figures]), Ok(true));
    assert_eq!(run(3, &[actions, figures]), Ok(true));
    for (minor, entry) in [(3, tiles), (4, tiles), (4, actions), (4, figures)] {
        let e = run(minor, &[entry]).expect_err("the game should stop");
        assert!(e.contains(&format!("probe: called through {entry}")), "4.{minor}: {e}");
    }
}
