//! BASE-4's check of a drawn tile and the placement decision share one judgement when every
//! plugin that may veto the tile judges at once (`Plugin::judges_tiles_at_once`, as a
//! plugin file's `judge_tiles` does): a veto that forbids nothing without asking for the
//! list is asked once per drawn tile, not twice, and the games are those of no veto; a
//! judgement that forbids, and the one-placement-at-a-time vetoes of other plugins (the
//! river's), list the legal placements at the draw and the decision takes that list; a
//! plugin decision answered between the draw and the placement makes it judge again.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use carcassonne_cli::builtin::factories;
use carcassonne_core::config::{disk_resolver, load_rules, PluginFactory};
use carcassonne_core::{
    Action, Decision, DecisionKind, DrawVerdict, Game, Hooks, LogEntry, Plugin, Rng, Rules, State, TileCandidates,
    TileTypeId, TileVetoes,
};
use serde::{Deserialize, Serialize};

/// `allow_tiles` calls of the plugins `judge`, `lister` and `again` (one per test: tests
/// run in parallel).
static CALLS: [AtomicUsize; 4] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];
const NAMES: [&str; 4] = ["judge", "lister", "again", "asked"];

/// `allow_tile` calls of the plugin `one-by-one`.
static ONE_BY_ONE_CALLS: AtomicUsize = AtomicUsize::new(0);

/// Judges tile placements one at a time (as the river does) and forbids none.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OneByOne {}

impl Plugin for OneByOne {
    fn name(&self) -> &str {
        "one-by-one"
    }
    fn hooks(&self) -> Hooks {
        Hooks::ALLOW_TILE
    }
    fn allow_tile(&self, _rules: &Rules, _st: &State, _me: usize, _p: &carcassonne_core::TilePlacement) -> bool {
        ONE_BY_ONE_CALLS.fetch_add(1, Ordering::SeqCst);
        true
    }
}

/// Judges tiles at once; forbids every placement of tile `forbid` (only the first, with
/// `only_first`), asking for the list only then; nothing else.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Judge {
    forbid: String,
    only_first: bool,
    /// Its name and counter: an index into `NAMES`.
    counter: usize,
}

impl Plugin for Judge {
    fn name(&self) -> &str {
        NAMES[self.counter]
    }
    fn hooks(&self) -> Hooks {
        Hooks::ALLOW_TILE
    }
    fn judges_tiles_at_once(&self) -> bool {
        true
    }
    fn allow_tiles(
        &self,
        rules: &Rules,
        _st: &State,
        _me: usize,
        tile: TileTypeId,
        candidates: &TileCandidates<'_>,
        vetoes: &mut TileVetoes,
    ) {
        CALLS[self.counter].fetch_add(1, Ordering::SeqCst);
        if rules.catalog.tiles[tile as usize].id == self.forbid {
            let n = if self.only_first { 1 } else { candidates.list().len() };
            for i in 0..n {
                vetoes.forbid(i);
            }
        }
    }
}

/// Asks the current player a question of its own at every draw (before the tile is
/// placed): "0 or 1?", with no effect on the game.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Ask {}

impl Plugin for Ask {
    fn name(&self) -> &str {
        "ask"
    }
    fn hooks(&self) -> Hooks {
        Hooks::TILE_DRAWN
    }
    fn on_tile_drawn(&self, _rules: &Rules, st: &mut State, me: usize, _tile: TileTypeId) -> DrawVerdict {
        let player = st.current;
        st.push_decision(Decision { player, kind: DecisionKind::Plugin { plugin: me as u8, code: 0, data: 0 } });
        DrawVerdict::Keep
    }
    fn decision_actions(&self, _rules: &Rules, _st: &State, me: usize, _d: &Decision, out: &mut Vec<Action>) {
        out.extend((0..2).map(|a| Action::Plugin { plugin: me as u8, code: 0, a, b: 0 }));
    }
}

fn rules(extra: &str) -> Arc<Rules> {
    let mut f = factories();
    f.push(PluginFactory {
        name: "ask",
        summary: "test: a question at every draw",
        requires: &[],
        conflicts: &[],
        build: carcassonne_core::build_from_options::<Ask>,
    });
    f.push(PluginFactory {
        name: "one-by-one",
        summary: "test: judges tile placements one at a time",
        requires: &[],
        conflicts: &[],
        build: carcassonne_core::build_from_options::<OneByOne>,
    });
    for name in NAMES {
        f.push(PluginFactory {
            name,
            summary: "test: judges tiles at once",
            requires: &[],
            conflicts: &[],
            build: carcassonne_core::build_from_options::<Judge>,
        });
    }
    let file = "config/test-judgement.toml";
    let text = format!("[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n{extra}");
    load_rules(file, &text, &disk_resolver(file), &f).unwrap()
}

/// Plays a seeded random game (the placements counted when no veto needs the list);
/// returns it with the number of tiles shown (placed or discarded, the start tile aside).
fn play(rules: &Arc<Rules>, seed: u64) -> (Game, usize) {
    let mut g = Game::start(
        rules.clone(),
        carcassonne_core::GameOptions { players: 2, seed, record: true, ..Default::default() },
    )
    .unwrap();
    let mut rng = Rng::new(seed);
    let mut buf = Vec::new();
    while let Some(a) = g.pick_action(&mut buf, |n| rng.below(n)) {
        g.play_unchecked(a);
    }
    let log = g.st.log.as_ref().unwrap();
    let shown = log.iter().filter(|e| matches!(e, LogEntry::Drawn { .. })).count();
    (g, shown)
}

fn placed(g: &Game) -> Vec<(TileTypeId, carcassonne_core::Pos, carcassonne_core::Rotation)> {
    g.st.board.parts.iter().map(|p| (p.tile, p.pos, p.rot)).collect()
}

#[test]
fn a_quiet_judge_is_asked_once_per_drawn_tile_and_changes_no_game() {
    let plain = rules("");
    let judged = rules("[[plugins]]\nname = \"judge\"\n");
    assert!(judged.uses(Hooks::ALLOW_TILE));
    for seed in 1..=4 {
        let (a, _) = play(&plain, seed);
        let before = CALLS[0].load(Ordering::SeqCst);
        let (b, shown) = play(&judged, seed);
        // BASE-4's check at each draw; the decision that follows reuses it.
        assert_eq!(CALLS[0].load(Ordering::SeqCst) - before, shown, "seed {seed}");
        assert_eq!(a.scores(), b.scores(), "seed {seed}");
        assert_eq!(placed(&a), placed(&b), "seed {seed}");
    }

    // Listing the legal actions at the decision asks nothing more; a determinized copy
    // (another stack) is judged again.
    let mut g = Game::new(judged.clone(), 2, 7).unwrap();
    let mut legal = Vec::new();
    let before = CALLS[0].load(Ordering::SeqCst);
    g.legal_actions(&mut legal);
    assert_eq!(CALLS[0].load(Ordering::SeqCst), before);
    let mut plain_legal = Vec::new();
    Game::new(plain.clone(), 2, 7).unwrap().legal_actions(&mut plain_legal);
    assert_eq!(legal, plain_legal);
    let classes = g.draw_classes();
    g.determinize(&classes, &mut Rng::new(3));
    g.legal_actions(&mut legal);
    assert_eq!(CALLS[0].load(Ordering::SeqCst), before + 1);
    assert_eq!(legal, plain_legal, "the same tile, the same board: the same placements");
}

#[test]
fn a_tile_a_judge_forbids_everywhere_is_discarded_after_one_judgement() {
    // BASE-4: every placement of C (one tile in the base game) forbidden at the draw: C is
    // shown, removed from the game and another tile drawn; other tiles are judged once.
    let rules = rules("[[plugins]]\nname = \"lister\"\noptions = { forbid = \"C\", counter = 1 }\n");
    let c = rules.catalog.tiles.iter().position(|t| t.id == "C").unwrap() as TileTypeId;
    for seed in 1..=3 {
        let before = CALLS[1].load(Ordering::SeqCst);
        let (g, shown) = play(&rules, seed);
        assert!(g.st.board.parts.iter().all(|p| p.tile != c), "seed {seed}: C was placed");
        let log = g.st.log.as_ref().unwrap();
        let c_gone = log.iter().filter(|e| matches!(e, LogEntry::Discarded { tile, .. } if *tile == c)).count();
        assert_eq!(c_gone, 1, "seed {seed}");
        assert_eq!(CALLS[1].load(Ordering::SeqCst) - before, shown, "seed {seed}: C is judged once, at the draw");
    }
}

#[test]
fn a_judgement_that_forbids_is_kept_for_the_decision() {
    let plain = rules("");
    let g = Game::new(plain.clone(), 2, 1).unwrap();
    let first = plain.catalog.tiles[g.st.tile.unwrap() as usize].id.clone();
    let mut plain_legal = Vec::new();
    g.legal_actions(&mut plain_legal);
    assert!(plain_legal.len() > 1);
    let rules = rules(&format!(
        "[[plugins]]\nname = \"again\"\noptions = {{ forbid = \"{first}\", only_first = true, counter = 2 }}\n"
    ));
    let before = CALLS[2].load(Ordering::SeqCst);
    let g = Game::new(rules, 2, 1).unwrap();
    assert_eq!(CALLS[2].load(Ordering::SeqCst), before + 1, "judged at the draw");
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert_eq!(CALLS[2].load(Ordering::SeqCst), before + 1, "the decision lists what the draw kept");
    assert_eq!(legal, plain_legal[1..]);
    // Picking by count reads the same list.
    let mut buf = Vec::new();
    for (i, want) in legal.iter().enumerate() {
        assert_eq!(g.pick_action(&mut buf, |_| i), Some(*want));
    }
    assert_eq!(CALLS[2].load(Ordering::SeqCst), before + 1);
}

#[test]
fn a_veto_asked_one_placement_at_a_time_is_asked_once_per_placement_and_drawn_tile() {
    // BASE-4's check at the draw of a tile a plugin vetoes one placement at a time lists
    // the legal placements, asking the veto once per candidate; the decision takes that
    // list and asks nothing more (the river's way, RIVER-2).
    let plain = rules("");
    let judged = rules("[[plugins]]\nname = \"one-by-one\"\n");
    for seed in 1..=3 {
        let mut plain_legal = Vec::new();
        Game::new(plain.clone(), 2, seed).unwrap().legal_actions(&mut plain_legal);
        let before = ONE_BY_ONE_CALLS.load(Ordering::SeqCst);
        let g = Game::new(judged.clone(), 2, seed).unwrap();
        let at_draw = ONE_BY_ONE_CALLS.load(Ordering::SeqCst) - before;
        assert_eq!(at_draw, plain_legal.len(), "seed {seed}: one question per legal placement");
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let mut buf = Vec::new();
        assert_eq!(g.pick_action(&mut buf, |n| n - 1), plain_legal.last().copied());
        assert_eq!(ONE_BY_ONE_CALLS.load(Ordering::SeqCst) - before, at_draw, "seed {seed}: the kept list");
        assert_eq!(legal, plain_legal, "seed {seed}");
    }
}

#[test]
fn a_plugin_decision_between_the_draw_and_the_placement_makes_the_judgement_again() {
    // The answer to a plugin's decision may change what a veto sees, so the draw-time
    // judgement is not reused for the placement decision that follows it: one judgement at
    // each draw (BASE-4), one more at each placement decision. Both when the judgement
    // forbade nothing (kept as quiet) and when it forbade a placement of V, the curve (kept
    // as a list).
    for (forbid, seed) in [("", 1), ("", 2), ("", 3), ("V", 4), ("V", 5)] {
        let rules = rules(&format!(
            "[[plugins]]\nname = \"asked\"\noptions = {{ counter = 3, forbid = \"{forbid}\", only_first = true }}\n\
             [[plugins]]\nname = \"ask\"\n"
        ));
        let before = CALLS[3].load(Ordering::SeqCst);
        let (g, shown) = play(&rules, seed);
        let log = g.st.log.as_ref().unwrap();
        let placed = log
            .iter()
            .filter(|e| matches!(e, LogEntry::Action { action, .. } if action["type"] == "place_tile"))
            .count();
        let asked =
            log.iter().filter(|e| matches!(e, LogEntry::Action { action, .. } if action["type"] == "plugin")).count();
        assert_eq!(asked, shown, "seed {seed}: a question at every draw");
        assert_eq!(CALLS[3].load(Ordering::SeqCst) - before, shown + placed, "seed {seed}");
        assert!(placed > 60, "seed {seed}: {placed} placements");
    }
}

/// Every placement of the drawn tile `t` that `Game::check` allows (each judged on its own:
/// the fit, every plugin's `allow_tile`), on the cells around the board, in the face's
/// distinct rotations (a symmetric tile's twins are one placement).
fn checked_placements(g: &Game, t: TileTypeId) -> Vec<Action> {
    use carcassonne_core::Pos;
    let (x0, y0, x1, y1) = g.st.board.parts.iter().fold((i32::MAX, i32::MAX, i32::MIN, i32::MIN), |b, p| {
        (b.0.min(p.pos.x), b.1.min(p.pos.y), b.2.max(p.pos.x), b.3.max(p.pos.y))
    });
    let faces = g.rules.catalog.tiles[t as usize].faces.len() as u8;
    let mut ok = Vec::new();
    for face in 0..faces {
        for x in x0 - 3..=x1 + 3 {
            for y in y0 - 3..=y1 + 3 {
                for &rot in &g.rules.catalog.tiles[t as usize].faces[face as usize].distinct_rotations {
                    let a = Action::PlaceTile { pos: Pos::new(x, y), rot, face };
                    if g.check(&a).is_ok() {
                        ok.push(a);
                    }
                }
            }
        }
    }
    ok
}

#[test]
fn a_list_kept_from_the_draw_holds_what_each_placement_check_allows() {
    // RIVER-2 (single river tiles) and FD-RIVER-1 (the double spring and lake) veto one
    // placement at a time: BASE-4's check at the draw lists the legal placements and the
    // decision takes that list. It must hold exactly the placements that are legal one by
    // one (`Game::check`), in every river decision of random games.
    for (file, games) in [("config/river.toml", 6), ("config/fairy-dragon-river.toml", 6)] {
        let rules = carcassonne_cli::builtin::load_rules_file(file).unwrap().0;
        let (mut river_decisions, mut doubles) = (0, 0);
        for seed in 1..=games {
            let mut g = Game::new(rules.clone(), 2, seed).unwrap();
            let mut rng = Rng::new(seed);
            let mut list = Vec::new();
            while let Some(d) = g.decision() {
                g.legal_actions(&mut list);
                if let (DecisionKind::PlaceTile, Some(t)) = (d.kind, g.st.tile) {
                    if rules.tile_has_vetoers(t) {
                        let mut want = checked_placements(&g, t);
                        let mut got: Vec<Action> = list.clone();
                        let key = |a: &Action| format!("{a:?}");
                        want.sort_by_key(key);
                        got.sort_by_key(key);
                        assert_eq!(got, want, "{file} seed {seed} turn {}", g.st.turn);
                        // A copy of the game (a search's) lists the same placements.
                        let (mut copy, mut again) = (Game::new(rules.clone(), 2, seed + 1).unwrap(), Vec::new());
                        copy.clone_from(&g);
                        for c in [g.clone(), copy] {
                            c.legal_actions(&mut again);
                            assert_eq!(again, list, "{file} seed {seed} turn {}: a copy", g.st.turn);
                        }
                        river_decisions += 1;
                        doubles += usize::from(!rules.catalog.tiles[t as usize].is_single());
                    }
                }
                let a = list[rng.below(list.len())];
                g.play_unchecked(a);
            }
        }
        assert!(river_decisions >= 10 * games as usize, "{file}: {river_decisions} river decisions");
        if file.contains("fairy") {
            assert!(doubles >= games as usize, "{file}: {doubles} double lakes");
        }
    }
}
