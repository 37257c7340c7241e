//! The hook API as a third plugin sees it: priority order (ties by name), dispatch only
//! to subscribers, plugin decisions of another player that pause scoring, queries.

use std::sync::{Arc, Mutex};

use carcassonne_cli::builtin::factories;
use carcassonne_core::config::{disk_resolver, load_rules, PluginFactory};
use carcassonne_core::plugin::{DrawVerdict, PluginState};
use carcassonne_core::rules::Registry;
use carcassonne_core::state::LogEntry;
use carcassonne_core::{
    Action, Decision, DecisionKind, Game, GameOptions, Hooks, NodeId, Plugin, Query, QueryKey, Rules, State, TileTypeId,
};
use serde::{Deserialize, Serialize};

static CALLS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Logs its turn starts; answers `eatable` with its option.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Logger {
    tag: String,
    eatable: Option<bool>,
}

impl Plugin for Logger {
    fn name(&self) -> &str {
        "logger"
    }
    fn hooks(&self) -> Hooks {
        Hooks::TURN_START | Hooks::QUERY
    }
    fn on_turn_start(&self, _r: &Rules, st: &mut State, _me: usize) {
        if st.turn == 1 {
            CALLS.lock().unwrap().push(self.tag.clone());
        }
    }
    fn answer(&self, _r: &Rules, _st: &State, _me: usize, q: &Query) -> Option<bool> {
        (q.key == QueryKey::EATABLE).then_some(self.eatable).flatten()
    }
}

/// When a feature completes, the next seat decides: +5 to the completer's rival, or nothing.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Bribe {
    #[serde(skip)]
    source: u8,
}

impl Plugin for Bribe {
    fn name(&self) -> &str {
        "bribe"
    }
    fn hooks(&self) -> Hooks {
        Hooks::FEATURE_COMPLETED
    }
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.source = reg.source("bribe")?;
        Ok(())
    }
    fn on_feature_completed(&self, _r: &Rules, st: &mut State, me: usize, root: NodeId) {
        let player = st.next_seat(st.current);
        st.push_decision(Decision {
            player,
            kind: DecisionKind::Plugin { plugin: me as u8, code: 7, data: root as i32 },
        });
    }
    fn decision_actions(&self, _r: &Rules, _st: &State, me: usize, _d: &Decision, out: &mut Vec<Action>) {
        out.push(Action::Plugin { plugin: me as u8, code: 1, a: 5, b: 0 });
        out.push(Action::Pass);
    }
    fn apply_action(&self, _r: &Rules, st: &mut State, _me: usize, d: &Decision, a: &Action) {
        if let Action::Plugin { a: points, .. } = a {
            st.award(d.player, *points, self.source);
        }
    }
    fn describe_action(&self, _r: &Rules, _st: &State, _me: usize, a: &Action) -> serde_json::Value {
        serde_json::json!({ "bribe": matches!(a, Action::Plugin { .. }) })
    }
}

static ASKED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Asks its own question `house_question` on turn 1 (default yes) and logs the verdict.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Asker {
    #[serde(skip)]
    key: QueryKey,
}

impl Plugin for Asker {
    fn name(&self) -> &str {
        "asker"
    }
    fn hooks(&self) -> Hooks {
        Hooks::TURN_START
    }
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.key = reg.query("house_question");
        Ok(())
    }
    fn on_turn_start(&self, r: &Rules, st: &mut State, me: usize) {
        if st.turn == 1 {
            let q = Query { key: self.key, figure: None, part: Some(0), node: None, kind: None, by: me as u8 };
            let verdict = r.verdict(st, &q, true);
            ASKED.lock().unwrap().push(format!("verdict {verdict}"));
        }
    }
}

/// Answers only the questions named in its option `names`, with `answer`, logging each.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Answerer {
    names: Vec<String>,
    answer: Option<bool>,
    #[serde(skip)]
    declared: &'static [&'static str],
}

impl Plugin for Answerer {
    fn name(&self) -> &str {
        "answerer"
    }
    fn hooks(&self) -> Hooks {
        Hooks::QUERY
    }
    fn register(&mut self, _reg: &mut Registry) -> Result<(), String> {
        let names: Vec<&'static str> = self.names.iter().map(|n| &*n.clone().leak()).collect();
        self.declared = names.leak();
        Ok(())
    }
    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(self.declared)
    }
    fn answer(&self, r: &Rules, _st: &State, _me: usize, q: &Query) -> Option<bool> {
        ASKED.lock().unwrap().push(format!("{:?} asked {}", self.names, r.query_name(q.key)));
        self.answer
    }
}

static KIND_ASKED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Held by each test that reads [`KIND_ASKED`] (tests run in parallel).
static KIND_TESTS: Mutex<()> = Mutex::new(());

/// Waits for the other tests that read [`KIND_ASKED`] and clears it.
fn kind_asked_alone() -> std::sync::MutexGuard<'static, ()> {
    let guard = KIND_TESTS.lock().unwrap_or_else(|e| e.into_inner());
    KIND_ASKED.lock().unwrap_or_else(|e| e.into_inner()).clear();
    guard
}

/// Answers `eatable` with false about whatever it is asked, logging each question; declares
/// that it answers only about the figure kinds named in `kinds`.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct KindAnswerer {
    kinds: Vec<String>,
}

impl Plugin for KindAnswerer {
    fn name(&self) -> &str {
        "kind-answerer"
    }
    fn hooks(&self) -> Hooks {
        Hooks::QUERY
    }
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        let kinds: Vec<u8> = self.kinds.iter().filter_map(|n| reg.declared_figure_kind(n).map(|(k, _)| k)).collect();
        reg.answers_only_about(&kinds);
        Ok(())
    }
    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["eatable"])
    }
    fn answer(&self, _r: &Rules, st: &State, _me: usize, q: &Query) -> Option<bool> {
        let kind = q.figure.map(|id| st.figures[id as usize].kind).or(q.kind);
        KIND_ASKED.lock().unwrap().push(format!("asked about {kind:?}"));
        Some(false)
    }
}

/// Keeps the tiles its tile hooks are called for; wants them only for tiles whose id starts
/// with one of `drawn` (on_tile_drawn) or `placed` (on_tile_placed) letters.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct TileSeer {
    drawn: String,
    placed: String,
}

/// The tiles a [`TileSeer`] saw drawn and placed, in order.
#[derive(Debug, Default)]
struct Seen {
    drawn: Vec<TileTypeId>,
    placed: Vec<TileTypeId>,
}

carcassonne_core::clone_fields!(Seen { drawn, placed });

fn starts_with_one_of(rules: &Rules, tile: TileTypeId, letters: &str) -> bool {
    rules.catalog.tiles[tile as usize].id.starts_with(|c| letters.contains(c))
}

impl Plugin for TileSeer {
    fn name(&self) -> &str {
        "tile-seer"
    }
    fn hooks(&self) -> Hooks {
        Hooks::TILE_DRAWN | Hooks::TILE_PLACED
    }
    fn tile_hooks(&self, rules: &Rules, tile: TileTypeId) -> Hooks {
        let mut hooks = Hooks::NONE;
        if starts_with_one_of(rules, tile, &self.drawn) {
            hooks = hooks | Hooks::TILE_DRAWN;
        }
        if starts_with_one_of(rules, tile, &self.placed) {
            hooks = hooks | Hooks::TILE_PLACED;
        }
        hooks
    }
    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(Seen::default()))
    }
    fn on_tile_drawn(&self, _r: &Rules, st: &mut State, me: usize, tile: TileTypeId) -> DrawVerdict {
        st.plugin_mut::<Seen>(me).drawn.push(tile);
        DrawVerdict::Keep
    }
    fn on_tile_placed(&self, _r: &Rules, st: &mut State, me: usize) {
        let tile = st.board.parts[st.placed_parts().start as usize].tile;
        st.plugin_mut::<Seen>(me).placed.push(tile);
    }
}

/// Counts the calls of the one turn hook its option names (`figure_action_done`,
/// `scoring_step` or `scoring_done`): the turn loop passes such a phase over only when no
/// plugin subscribes to its hook.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct StepCounter {
    hook: String,
}

/// The calls a [`StepCounter`] counted.
#[derive(Debug, Default)]
struct Steps {
    calls: u32,
}

carcassonne_core::clone_fields!(Steps { calls });

impl StepCounter {
    fn count(st: &mut State, me: usize) {
        st.plugin_mut::<Steps>(me).calls += 1;
    }
}

impl Plugin for StepCounter {
    fn name(&self) -> &str {
        "step-counter"
    }
    fn hooks(&self) -> Hooks {
        match self.hook.as_str() {
            "figure_action_done" => Hooks::FIGURE_ACTION_DONE,
            "scoring_step" => Hooks::SCORING_STEP,
            _ => Hooks::SCORING_DONE,
        }
    }
    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(Steps::default()))
    }
    fn on_figure_action_done(&self, _r: &Rules, st: &mut State, me: usize, _a: &Action) {
        Self::count(st, me);
    }
    fn on_scoring_step(&self, _r: &Rules, st: &mut State, me: usize) {
        Self::count(st, me);
    }
    fn on_scoring_done(&self, _r: &Rules, st: &mut State, me: usize) {
        Self::count(st, me);
    }
}

/// Takes one turn hook (option `hook`) on request only, and requests it when it places a
/// tile in a turn that `every` divides (and, with `again`, from inside the hook too);
/// records the turns in which the hook ran.
#[derive(Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Requester {
    hook: String,
    every: u32,
    again: bool,
    /// `true`: declares a hook on request that it does not subscribe to (a build error).
    wrong: bool,
}

/// The turns in which a [`Requester`]'s hook ran.
#[derive(Debug, Default)]
struct Ran {
    turns: Vec<u32>,
}

carcassonne_core::clone_fields!(Ran { turns });

impl Requester {
    fn hook(&self) -> Hooks {
        match self.hook.as_str() {
            "turn_start" => Hooks::TURN_START,
            "figure_action_done" => Hooks::FIGURE_ACTION_DONE,
            "scoring_step" => Hooks::SCORING_STEP,
            "turn_end" => Hooks::TURN_END,
            _ => Hooks::SCORING_DONE,
        }
    }

    fn ran(&self, st: &mut State, me: usize) {
        let turn = st.turn;
        st.plugin_mut::<Ran>(me).turns.push(turn);
        if self.again {
            st.request_hook(me, self.hook());
        }
    }
}

impl Plugin for Requester {
    fn name(&self) -> &str {
        "requester"
    }
    fn hooks(&self) -> Hooks {
        if self.wrong {
            Hooks::TILE_PLACED
        } else {
            Hooks::TILE_PLACED | self.hook()
        }
    }
    fn hooks_on_request(&self) -> Hooks {
        self.hook()
    }
    fn init_state(&self, _rules: &Rules, _players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(Ran::default()))
    }
    fn on_tile_placed(&self, _r: &Rules, st: &mut State, me: usize) {
        if st.turn.is_multiple_of(self.every) {
            st.request_hook(me, self.hook());
        }
    }
    fn on_turn_start(&self, _r: &Rules, st: &mut State, me: usize) {
        self.ran(st, me);
    }
    fn on_figure_action_done(&self, _r: &Rules, st: &mut State, me: usize, _a: &Action) {
        self.ran(st, me);
    }
    fn on_scoring_step(&self, _r: &Rules, st: &mut State, me: usize) {
        self.ran(st, me);
    }
    fn on_scoring_done(&self, _r: &Rules, st: &mut State, me: usize) {
        self.ran(st, me);
    }
    fn on_turn_end(&self, _r: &Rules, st: &mut State, me: usize) {
        self.ran(st, me);
    }
}

fn test_factories() -> Vec<PluginFactory> {
    fn test(
        name: &'static str,
        requires: &'static [&'static str],
        conflicts: &'static [&'static str],
    ) -> PluginFactory {
        let build = match name {
            "logger" | "rival" => carcassonne_core::build_from_options::<Logger>,
            "asker" => carcassonne_core::build_from_options::<Asker>,
            "answerer" | "bystander" => carcassonne_core::build_from_options::<Answerer>,
            "kind-answerer" => carcassonne_core::build_from_options::<KindAnswerer>,
            "tile-seer" => carcassonne_core::build_from_options::<TileSeer>,
            "step-counter" => carcassonne_core::build_from_options::<StepCounter>,
            "requester" => carcassonne_core::build_from_options::<Requester>,
            _ => carcassonne_core::build_from_options::<Bribe>,
        };
        PluginFactory { name, summary: "test", requires, conflicts, build }
    }
    let mut f = factories();
    f.extend([
        test("logger", &[], &[]),
        test("rival", &[], &["logger"]),
        test("asker", &[], &[]),
        test("answerer", &[], &[]),
        test("bystander", &[], &[]),
        test("kind-answerer", &[], &[]),
        test("tile-seer", &[], &[]),
        test("step-counter", &[], &[]),
        test("requester", &[], &[]),
        test("bribe", &["base"], &[]),
    ]);
    f
}

fn load(text: &str) -> Arc<Rules> {
    // Tile files resolve next to config/ as for the shipped rule sets.
    let file = "config/test-hooks.toml";
    load_rules(file, text, &disk_resolver(file), &test_factories()).unwrap()
}

#[test]
fn plugins_run_in_ascending_priority_then_name() {
    // File order says b, a, base; priorities say base (−5) first, then a and b tie (3).
    let text = r#"
[tiles]
base = "tiles/base.toml"
[[plugins]]
name = "bribe"
priority = 3
[[plugins]]
name = "logger"
priority = 3
options = { tag = "L" }
[[plugins]]
name = "base"
priority = -5
"#;
    let rules = load(text);
    assert_eq!(rules.plugin_names(), vec!["base", "bribe", "logger"]);
    assert!(!rules.uses(Hooks::ALLOW_TILE), "no plugin vetoes tiles: nothing dispatched");
    assert!(rules.uses(Hooks::QUERY));
}

#[test]
fn a_decision_of_another_player_pauses_scoring() {
    let text = r#"
[tiles]
base = "tiles/base.toml"
[[plugins]]
name = "base"
[[plugins]]
name = "bribe"
priority = -1
"#;
    let rules = load(text);
    assert_eq!(rules.plugin_names(), vec!["bribe", "base"]);
    let e = rules.catalog.id("E").unwrap();
    let mut g =
        Game::start(rules.clone(), GameOptions { players: 2, seed: 0, tile_order: Some(vec![e, e]), record: true })
            .unwrap();
    // Seat 0 closes the start tile's city with E and puts a knight in it (BASE-8: 4 points).
    g.try_play(Action::PlaceTile {
        pos: carcassonne_core::Pos::new(0, -1),
        rot: carcassonne_core::Rotation::from_quarters(2),
        face: 0,
    })
    .unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let knight =
        legal.iter().copied().find(|a| g.describe(a)["feature"] == "city:S").expect("a knight on the closing city");
    g.try_play(knight).unwrap();
    // Bribe runs before base: seat 1 decides before the city is scored.
    let d = g.decision().unwrap();
    assert_eq!(d.player, 1);
    assert!(matches!(d.kind, DecisionKind::Plugin { code: 7, .. }));
    assert_eq!(g.scores(), &[0, 0]);
    g.legal_actions(&mut legal);
    assert_eq!(legal.len(), 2);
    g.try_play(legal[0]).unwrap();
    // Then base scores the city for seat 0 and the knight returns.
    assert_eq!(g.scores(), &[4, 5]);
    assert_eq!(g.st.supply[0][0], 7);
    assert_eq!(g.st.turn, 2);
    assert_eq!(g.decision().unwrap().kind, DecisionKind::PlaceTile);
}

#[test]
fn queries_take_the_first_answer_in_priority_order() {
    let text = r#"
[tiles]
base = "tiles/base.toml"
[[plugins]]
name = "base"
[[plugins]]
name = "logger"
priority = 5
options = { tag = "x", eatable = false }
"#;
    let rules = load(text);
    let g = Game::new(rules.clone(), 2, 1).unwrap();
    let q =
        Query { key: rules.query_key("eatable").unwrap(), figure: Some(0), part: None, node: None, kind: None, by: 0 };
    assert_eq!(rules.ask(&g.st, &q), Some(false));
    let q = Query { key: rules.query_key("needs_follower").unwrap(), ..q };
    assert_eq!(rules.ask(&g.st, &q), None);
    CALLS.lock().unwrap().clear();
}

#[test]
fn eating_respects_queries_and_spares_neutral_figures() {
    let text = r#"
[tiles]
base = "tiles/base.toml"
[[plugins]]
name = "base"
[[plugins]]
name = "logger"
options = { tag = "y", eatable = false }
"#;
    let rules = load(text);
    let mut g = Game::new(rules.clone(), 2, 1).unwrap();
    let follower = rules.figure_kind("follower").unwrap();
    let st = &mut g.st;
    let id = st.add_figure(&rules, 0, follower, 0, None);
    // The logger says nothing may be eaten.
    assert_eq!(st.eat_figures_on(&rules, 0, 0), 0);
    assert!(st.figures[id as usize].alive);
    // Without an answer, a player's figure is eaten and goes back to supply.
    let plain = load("[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n");
    let mut g = Game::new(plain.clone(), 2, 1).unwrap();
    let st = &mut g.st;
    st.add_figure(&plain, 1, follower, 0, None);
    let neutral = st.add_figure(&plain, carcassonne_core::NEUTRAL, follower, 0, None);
    assert_eq!(st.supply[1][follower as usize], 6);
    assert_eq!(st.eat_figures_on(&plain, 0, 0), 1);
    assert_eq!(st.supply[1][follower as usize], 7);
    assert!(st.figures[neutral as usize].alive);
}

#[test]
fn conflicting_plugins_are_a_configuration_error() {
    let text = "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"logger\"\n[[plugins]]\nname = \"rival\"\n";
    let file = "config/test-conflict.toml";
    let e = load_rules(file, text, &disk_resolver(file), &test_factories()).unwrap_err().to_string();
    assert!(e.contains("config/test-conflict.toml:8:"), "{e}");
    assert!(e.contains("plugin 'rival' conflicts with plugin 'logger'"), "{e}");
}

/// A plugin's own question (interned with `Registry::query`) reaches only the plugins that
/// declare its name (or declare none); one `false` outweighs the default.
#[test]
fn own_questions_reach_only_the_plugins_that_declare_them() {
    let text = r#"
[tiles]
base = "tiles/base.toml"
[[plugins]]
name = "base"
[[plugins]]
name = "asker"
[[plugins]]
name = "answerer"
options = { names = ["house_question"], answer = false }
[[plugins]]
name = "bystander"
options = { names = ["eatable"], answer = true }
"#;
    let rules = load(text);
    let key = rules.query_key("house_question").unwrap();
    assert_eq!(rules.query_name(key), "house_question");
    ASKED.lock().unwrap().clear();
    Game::new(rules, 2, 1).unwrap();
    assert_eq!(*ASKED.lock().unwrap(), ["[\"house_question\"] asked house_question", "verdict false"]);
}

/// A game of base, the barn and the kind answerer (for followers), plus `more` plugins, with
/// a meeple of seat 0 and a barn of seat 1 put on the start tile by hand; `about(figure,
/// kind)` makes an `eatable` question.
struct KindGame {
    rules: Arc<Rules>,
    g: Game,
    follower: u8,
    barn: u8,
    meeple: u32,
    barn_figure: u32,
    eatable: QueryKey,
}

impl KindGame {
    fn new(more: &str) -> KindGame {
        KindGame::answering_about("follower", more)
    }

    /// [`KindGame::new`] with the kind answerer answering about figures of kind `kind` (it
    /// comes after the barn, whose kind it names).
    fn answering_about(kind: &str, more: &str) -> KindGame {
        let text = format!(
            "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"barn\"\n\
             priority = 500\n[[plugins]]\nname = \"kind-answerer\"\npriority = 600\noptions = {{ kinds = [\"{kind}\"] }}\n{more}"
        );
        let rules = load(&text);
        let (follower, barn) = (rules.figure_kind("follower").unwrap(), rules.figure_kind("barn").unwrap());
        let mut g = Game::new(rules.clone(), 2, 1).unwrap();
        let meeple = g.st.add_figure(&rules, 0, follower, 0, None);
        let barn_figure = g.st.add_figure(&rules, 1, barn, 0, None);
        let eatable = rules.query_key("eatable").unwrap();
        KindGame { rules, g, follower, barn, meeple, barn_figure, eatable }
    }

    fn about(&self, figure: Option<u32>, kind: Option<u8>) -> Query {
        Query { key: self.eatable, figure, part: Some(0), node: None, kind, by: 0 }
    }
}

/// A plugin that answers only about some figure kinds (`Registry::answers_only_about`) is
/// asked only about a figure of those kinds (placed: its kind; to be placed: the query's
/// kind), never about another kind's figure or about none.
#[test]
fn kind_answerers_are_asked_only_about_their_kinds() {
    let k = KindGame::new("");
    let (rules, g, follower, barn, meeple, barn_figure) = (&k.rules, &k.g, k.follower, k.barn, k.meeple, k.barn_figure);
    let about = |figure, kind| k.about(figure, kind);
    let _alone = kind_asked_alone();
    let asked = || KIND_ASKED.lock().unwrap().clone();
    // The barn figure: the barn says it is not eatable; the kind answerer is not asked.
    assert_eq!(rules.ask(&g.st, &about(Some(barn_figure), Some(barn))), Some(false));
    assert!(asked().is_empty());
    // A question about no figure kind reaches neither (the barn answers only about a figure).
    assert_eq!(rules.ask(&g.st, &about(None, None)), None);
    assert!(asked().is_empty());
    // The follower (its kind read from the figure, whatever the query says), then a
    // follower about to be placed (the query's kind): the kind answerer is asked both.
    assert_eq!(rules.ask(&g.st, &about(Some(meeple), None)), Some(false));
    assert!(!rules.verdict(&g.st, &about(None, Some(follower)), true));
    let want = format!("asked about Some({follower})");
    assert_eq!(asked(), [want.clone(), want]);
}

/// `Rules::verdicts` (questions of one key asked in one list) gives each question the
/// verdict `Rules::verdict` gives it alone: one `false` outweighs any `true`, a `true`
/// outweighs the default, and a plugin that answers only about some figure kinds is asked
/// only the questions about them, once each.
#[test]
fn verdicts_of_a_list_are_those_of_each_question() {
    let k = KindGame::new("[[plugins]]\nname = \"logger\"\noptions = { eatable = true }\n");
    let (rules, g, follower, barn, meeple, barn_figure) = (&k.rules, &k.g, k.follower, k.barn, k.meeple, k.barn_figure);
    let about = |figure, kind| k.about(figure, kind);
    // The barn figure (the barn: false), the meeple (the kind answerer: false), no figure
    // with a default of no (the logger: true), a barn to come with a default of yes (the
    // logger: true; the barn answers only about a figure on the board).
    let qs = [about(Some(barn_figure), None), about(Some(meeple), None), about(None, None), about(None, Some(barn))];
    let _alone = kind_asked_alone();
    assert_eq!(rules.verdicts(&g.st, &qs, 0b1010), 0b1100);
    assert_eq!(*KIND_ASKED.lock().unwrap(), [format!("asked about Some({follower})")]);
    for (i, q) in qs.iter().enumerate() {
        assert_eq!(rules.verdict(&g.st, q, 0b1010 & (1 << i) != 0), 0b1100 & (1 << i) != 0, "question {i}");
    }
    // No question: the defaults.
    assert_eq!(rules.verdicts(&g.st, &[], 0b1), 0b1);
}

/// `Rules::figure_verdicts` (questions about a list of figures, not written out): the
/// barn figure is refused by the barn and by the kind answerer (answering about barns, asked
/// once, about it alone), the meeple is allowed by the logger whatever its default; with no
/// logger, each figure keeps its default unless refused.
#[test]
fn figure_verdicts_weigh_the_answers_about_each_figure() {
    let k = KindGame::answering_about("barn", "[[plugins]]\nname = \"logger\"\noptions = { eatable = true }\n");
    let ids = [k.barn_figure, k.meeple];
    let _alone = kind_asked_alone();
    assert_eq!(k.rules.figure_verdicts(&k.g.st, k.eatable, 0, &ids, 0b01), 0b10);
    assert_eq!(*KIND_ASKED.lock().unwrap(), [format!("asked about Some({})", k.barn)]);
    let quiet = KindGame::answering_about("barn", "");
    for (defaults, want) in [(0b11, 0b10), (0b01, 0b00), (0b10, 0b10)] {
        assert_eq!(quiet.rules.figure_verdicts(&quiet.g.st, quiet.eatable, 0, &ids, defaults), want, "{defaults:b}");
    }
    // No figure: the defaults.
    assert_eq!(quiet.rules.figure_verdicts(&quiet.g.st, quiet.eatable, 0, &[], 0b1), 0b1);
}

/// `Plugin::tile_hooks`: a tile hook is called for exactly the tiles the plugin takes it
/// for, every time one is drawn or placed (here tiles A to C when drawn, D to F when
/// placed), and for no other tile.
#[test]
fn tile_hooks_are_called_only_for_the_tiles_a_plugin_takes_them_for() {
    let text = "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\nname = \"tile-seer\"\n\
                options = { drawn = \"ABC\", placed = \"DEF\" }\n";
    let rules = load(text);
    let me = rules.plugin_names().iter().position(|n| *n == "tile-seer").unwrap();
    let bots = ["random".to_string()];
    let (mut drawn, mut placed) = (0, 0);
    for seed in 1..=5 {
        let g = carcassonne_cli::driver::play_game(&rules, 2, seed, &bots, true).unwrap();
        let seen = g.st.plugin::<Seen>(me);
        let log = g.st.log.as_deref().unwrap();
        let all_drawn: Vec<TileTypeId> =
            log.iter().filter_map(|e| if let LogEntry::Drawn { tile } = e { Some(*tile) } else { None }).collect();
        let all_placed: Vec<TileTypeId> = g.st.board.parts[1..].iter().map(|p| p.tile).collect();
        let keep = |all: &[TileTypeId], letters| -> Vec<TileTypeId> {
            all.iter().copied().filter(|&t| starts_with_one_of(&rules, t, letters)).collect()
        };
        assert_eq!(seen.drawn, keep(&all_drawn, "ABC"), "seed {seed}");
        assert_eq!(seen.placed, keep(&all_placed, "DEF"), "seed {seed}");
        assert!(seen.drawn.len() < all_drawn.len() && seen.placed.len() < all_placed.len(), "seed {seed}");
        (drawn, placed) = (drawn + seen.drawn.len(), placed + seen.placed.len());
    }
    assert!(drawn > 5 && placed > 5, "the hooks ran ({drawn} drawn, {placed} placed)");
}

/// A turn hook with one subscriber runs once in every turn that placed a tile, though the
/// base game alone subscribes to none of them (its turn loop passes those phases over).
#[test]
fn a_turn_hook_with_a_subscriber_runs_every_turn() {
    for hook in ["figure_action_done", "scoring_step", "scoring_done"] {
        let text = format!(
            "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\n\
             name = \"step-counter\"\noptions = {{ hook = \"{hook}\" }}\n"
        );
        let rules = load(&text);
        let me = rules.plugin_names().iter().position(|n| *n == "step-counter").unwrap();
        for seed in 1..=3 {
            let g = carcassonne_cli::driver::play_game(&rules, 2, seed, &["random".to_string()], false).unwrap();
            // Every tile but the start tile was placed in a turn of its own.
            let turns = g.st.board.len() as u32 - 1;
            assert!(turns > 60, "{hook} seed {seed}: {turns} turns");
            assert_eq!(g.st.plugin::<Steps>(me).calls, turns, "{hook} seed {seed}");
        }
    }
}

/// A hook taken on request runs exactly once after each request: in the same turn for the
/// hooks after the tile (the request is made when the tile is placed), at the next turn's
/// start for `turn_start`; a request made from inside the hook is for its next run (the
/// next turn), not for the pass under way.
#[test]
fn a_hook_on_request_runs_once_per_request() {
    let hooks = ["figure_action_done", "scoring_step", "scoring_done", "turn_end", "turn_start"];
    for (hook, again) in hooks.iter().flat_map(|h| [(*h, false), (*h, true)]) {
        let text = format!(
            "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\n\
             name = \"requester\"\noptions = {{ hook = \"{hook}\", every = 3, again = {again} }}\n"
        );
        let rules = load(&text);
        let me = rules.plugin_names().iter().position(|n| *n == "requester").unwrap();
        for seed in 1..=3 {
            let g = carcassonne_cli::driver::play_game(&rules, 2, seed, &["random".to_string()], false).unwrap();
            // Turns 1, 2, ... each placed one tile after the start tile.
            let last = g.st.board.len() as u32 - 1;
            // A request of turn t is for that turn, or, at a turn's start, for turn t + 1.
            let delay = u32::from(hook == "turn_start");
            let expected: Vec<u32> = if again {
                // From the first request on, every turn (each run asks for the next).
                (3 + delay..=last).collect()
            } else {
                (1..=last).filter(|t| t % 3 == 0).map(|t| t + delay).filter(|&t| t <= last).collect()
            };
            let ran = &g.st.plugin::<Ran>(me).turns;
            assert!(ran.len() > 15, "{hook} seed {seed}: {ran:?}");
            assert_eq!(*ran, expected, "{hook} again={again} seed {seed}");
        }
    }
}

/// A plugin may take on request only hooks it subscribes to (and that the turn loop runs).
#[test]
fn a_hook_on_request_must_be_one_of_the_plugins_hooks() {
    let text = "[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\n\
                name = \"requester\"\noptions = { every = 3, wrong = true }\n";
    let file = "config/test-hooks.toml";
    let err = load_rules(file, text, &disk_resolver(file), &test_factories()).unwrap_err().to_string();
    assert!(err.contains("plugin 'requester': hooks on request must be among its hooks"), "{err}");
}
