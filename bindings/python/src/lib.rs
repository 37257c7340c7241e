//! `carcassonne._native`: the engine's games, bots and `simulate` for Python
//! (docs/python.md). The Python package `carcassonne` re-exports these and adds the
//! numpy observation and the Gymnasium environment.
//!
//! Bad input (an unknown rule set, bad TOML, an illegal action, playing after the end)
//! raises `RulesError` or `IllegalActionError` (both `ValueError`s) with the engine's
//! one-line message; nothing here panics on user input.

mod convert;
mod encode;

use std::sync::Mutex;

use carcassonne_core::replay::parse_action;
use carcassonne_core::{Action, DecisionKind, Game as EngineGame, GameOptions};
use carcassonne_engine::bots::{make_bot, Bot as EngineBot, BOT_NAMES};
use carcassonne_engine::builtin::EMBEDDED;
use carcassonne_engine::error::one_line;
use carcassonne_engine::{RuleSet, SimulateOptions};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyString};

use encode::Layout;

create_exception!(_native, RulesError, PyValueError, "A rule set that cannot be loaded.");
create_exception!(_native, IllegalActionError, PyValueError, "An action the game refuses.");

fn rules_error(m: impl std::fmt::Display) -> PyErr {
    RulesError::new_err(one_line(&m.to_string()))
}

fn illegal(m: impl std::fmt::Display) -> PyErr {
    IllegalActionError::new_err(one_line(&m.to_string()))
}

/// A loaded rule set: its file name (as records name it), text and rules.
type Loaded = RuleSet;

/// Loads `spec`: TOML text (it has a line break or `=`), a file (`*.toml`, a path with
/// `/`, or `embedded:config/NAME.toml`), or the name of an embedded rule set
/// ([`RuleSet::load`]).
fn load(spec: &str) -> PyResult<Loaded> {
    let embedded = !(spec.contains('\n') || spec.contains('=') || spec.ends_with(".toml") || spec.contains('/'))
        || spec.starts_with(EMBEDDED);
    if !embedded {
        return RuleSet::load(spec).map_err(rules_error);
    }
    // Embedded rule sets never change: each is loaded once per process.
    static CACHE: Mutex<Vec<(String, Loaded)>> = Mutex::new(Vec::new());
    if let Some(l) = CACHE.lock().ok().and_then(|c| c.iter().find(|(s, _)| s == spec).map(|(_, l)| l.clone())) {
        return Ok(l);
    }
    let loaded = RuleSet::load(spec).map_err(rules_error)?;
    if let Ok(mut c) = CACHE.lock() {
        c.push((spec.to_string(), loaded.clone()));
    }
    Ok(loaded)
}

/// One game: `Game(rules="classic-everything", players=2, seed=0, record=True)`.
#[pyclass(module = "carcassonne._native", name = "Game")]
struct Game {
    game: EngineGame,
    loaded: Loaded,
    seed: u64,
    /// The legal actions of the current decision, while `fresh`.
    legal: Vec<Action>,
    fresh: bool,
    /// The dicts the last `legal_actions()` returned, each with a private copy: `play`
    /// finds a returned dict by identity (and checks it against its copy) without reading
    /// it. Cleared whenever the decision changes.
    shown: Vec<(Py<PyDict>, Py<PyDict>)>,
}

impl Clone for Game {
    fn clone(&self) -> Self {
        Game {
            game: self.game.clone(),
            loaded: self.loaded.clone(),
            seed: self.seed,
            legal: self.legal.clone(),
            fresh: self.fresh,
            shown: Vec::new(),
        }
    }
}

impl Game {
    fn refresh(&mut self) -> PyResult<&[Action]> {
        if !self.fresh {
            self.game.legal_actions(&mut self.legal);
            self.fresh = true;
            if let Some(f) = self.game.failure() {
                return Err(illegal(format!("the game was stopped: {f}")));
            }
        }
        Ok(&self.legal)
    }

    /// The error for playing when no decision is pending (game over or stopped).
    fn no_decision(&self) -> Option<PyErr> {
        self.game.decision().is_none().then(|| match self.game.check(&Action::Pass) {
            Err(e) => illegal(e),
            Ok(()) => illegal("the game is over"),
        })
    }

    fn play_action(&mut self, a: Action) {
        self.game.play_unchecked(a);
        self.fresh = false;
        self.shown.clear();
    }

    /// An action as a dict: tile placements and pass built directly, the rest through
    /// [`EngineGame::describe`] (the same keys and values).
    fn action_dict<'py>(
        &self,
        py: Python<'py>,
        a: &Action,
        tile: Option<&Bound<'py, PyString>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        match (*a, tile) {
            (Action::PlaceTile { pos, rot, face: 0 }, Some(tile)) => {
                let d = PyDict::new(py);
                d.set_item(intern!(py, "cell"), PyList::new(py, [pos.x, pos.y])?)?;
                d.set_item(intern!(py, "rotation"), rot.degrees())?;
                d.set_item(intern!(py, "tile"), tile)?;
                d.set_item(intern!(py, "type"), intern!(py, "place_tile"))?;
                Ok(d)
            }
            (Action::Pass, _) => {
                let d = PyDict::new(py);
                d.set_item(intern!(py, "type"), intern!(py, "pass"))?;
                Ok(d)
            }
            _ => Ok(convert::to_py(py, &self.game.describe(a))?.into_bound(py).downcast_into::<PyDict>()?),
        }
    }

    fn layout(&self, window: usize) -> PyResult<Layout> {
        if window == 0 || window > 255 {
            return Err(PyValueError::new_err(format!("window {window}: 1 to 255 cells")));
        }
        Ok(Layout::new(&self.game, window))
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "classic-everything", players = 2, seed = 0, record = true))]
    fn new(rules: &str, players: usize, seed: u64, record: bool) -> PyResult<Self> {
        let loaded = load(rules)?;
        let game = EngineGame::start(loaded.rules().clone(), GameOptions { players, seed, tile_order: None, record })
            .map_err(rules_error)?;
        Ok(Game { game, loaded, seed, legal: Vec::with_capacity(64), fresh: false, shown: Vec::new() })
    }

    /// The legal actions of the current decision, as dicts in the record's action form
    /// (`[]` once the game is over). Their indices are what `play(i)` takes.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.refresh()?;
        // A single-faced drawn tile: placements are built without `describe`.
        let tile = self.game.st.tile.map(|t| &self.game.rules.catalog.tiles[t as usize]);
        let tile = tile.filter(|t| t.faces.len() == 1).map(|t| PyString::new(py, &t.id));
        let mut out = Vec::with_capacity(self.legal.len());
        let mut shown = Vec::with_capacity(self.legal.len());
        for a in &self.legal {
            let d = self.action_dict(py, a, tile.as_ref())?;
            shown.push((d.clone().unbind(), d.copy()?.unbind()));
            out.push(d);
        }
        self.shown = shown;
        Ok(out)
    }

    /// The number of legal actions (the fast path: `play_index(i)` for `i` below it).
    fn legal_action_count(&mut self) -> PyResult<usize> {
        Ok(self.refresh()?.len())
    }

    /// Plays the `i`-th legal action.
    fn play_index(&mut self, i: usize) -> PyResult<()> {
        if let Some(e) = self.no_decision() {
            return Err(e);
        }
        let n = self.refresh()?.len();
        let a = *self.legal.get(i).ok_or_else(|| {
            illegal(format!("action index {i}: the decision has {n} legal actions (0 to {})", n.saturating_sub(1)))
        })?;
        self.play_action(a);
        Ok(())
    }

    /// Plays an action: a dict in the record's action form (as `legal_actions` gives
    /// them; a `"player"` key is ignored) or the index of a legal action.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if action.is_instance_of::<PyInt>() {
            let i: i64 = action.extract()?;
            let i = usize::try_from(i).map_err(|_| illegal(format!("action index {i}: indices start at 0")))?;
            return self.play_index(i);
        }
        if let Ok(d) = action.downcast::<PyDict>() {
            // A dict `legal_actions()` returned, unchanged: its index is known.
            let py = action.py();
            if let Some(i) = self.shown.iter().position(|(o, _)| d.is(o)) {
                if d.eq(self.shown[i].1.bind(py))? {
                    let a = self.legal[i];
                    self.play_action(a);
                    return Ok(());
                }
            }
        }
        let v = convert::from_py(action)?;
        if !v.is_object() {
            return Err(illegal(format!("action {v}: expected a dict or an index")));
        }
        if let Some(e) = self.no_decision() {
            return Err(e);
        }
        let a = parse_action(&self.game, &v).map_err(illegal)?;
        self.game.check(&a).map_err(illegal)?;
        self.play_action(a);
        Ok(())
    }

    /// A new game of the same rule set and seats from `seed` (the rules are not loaded
    /// again).
    fn new_game(&self, seed: u64) -> PyResult<Self> {
        let opts =
            GameOptions { players: self.game.st.players, seed, tile_order: None, record: self.game.st.log.is_some() };
        let game = EngineGame::start(self.loaded.rules().clone(), opts).map_err(rules_error)?;
        Ok(Game {
            game,
            loaded: self.loaded.clone(),
            seed,
            legal: Vec::with_capacity(64),
            fresh: false,
            shown: Vec::new(),
        })
    }

    /// An independent copy (for search): playing on one leaves the other as it is.
    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }

    /// The seat that answers the current decision; None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.game.decision().map(|d| d.player)
    }

    /// The current decision as a dict (`player`, `kind`: `place_tile`, `figure` or
    /// `plugin`, with `plugin` naming its plugin, and the drawn `tile`); None once over.
    #[getter]
    fn decision(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let Some(d) = self.game.decision() else { return Ok(None) };
        let out = PyDict::new(py);
        out.set_item("player", d.player)?;
        match d.kind {
            DecisionKind::PlaceTile => out.set_item("kind", "place_tile")?,
            DecisionKind::Figure => out.set_item("kind", "figure")?,
            DecisionKind::Plugin { plugin, .. } => {
                out.set_item("kind", "plugin")?;
                out.set_item("plugin", &self.game.rules.plugins[plugin as usize].name)?;
            }
        }
        if let Some(t) = self.game.st.tile {
            out.set_item("tile", &self.game.rules.catalog.tiles[t as usize].id)?;
        }
        Ok(Some(out.into_any().unbind()))
    }

    /// Scores, one per seat.
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.game.scores().to_vec()
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Why a plugin stopped the game before its end, if one did.
    #[getter]
    fn failure(&self) -> Option<String> {
        self.game.failure().map(str::to_string)
    }

    /// Turn number, from 1.
    #[getter]
    fn turn(&self) -> u32 {
        self.game.st.turn
    }

    #[getter]
    fn players(&self) -> usize {
        self.game.st.players
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Tiles left in the draw pile.
    #[getter]
    fn tiles_left(&self) -> usize {
        self.game.st.stack.len()
    }

    /// The ID of the drawn tile (before it is placed).
    #[getter]
    fn tile(&self) -> Option<String> {
        self.game.st.tile.map(|t| self.game.rules.catalog.tiles[t as usize].id.clone())
    }

    /// The rule set's name.
    #[getter]
    fn rules_name(&self) -> String {
        self.game.rules.name.clone()
    }

    /// The rule set's figure kinds, in the order of the encoding's figure channels.
    #[getter]
    fn figure_kinds(&self) -> Vec<String> {
        self.game.rules.figure_kinds.iter().map(|k| k.name.clone()).collect()
    }

    /// The game record (docs/record-format.md) as JSON text; `carcassonne replay` reads it.
    fn record(&self) -> PyResult<String> {
        if self.game.st.log.is_none() {
            return Err(PyValueError::new_err("this game keeps no record: start it with record=True"));
        }
        let rec = self.loaded.record(&self.game, self.seed);
        serde_json::to_string_pretty(&rec).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Sizes of the encoding with a `window` x `window` board view (docs/python.md).
    fn encoding_sizes(&self, py: Python<'_>, window: usize) -> PyResult<PyObject> {
        let l = self.layout(window)?;
        let d = PyDict::new(py);
        d.set_item("window", l.w)?;
        d.set_item("channels", l.channels())?;
        d.set_item("players", l.players)?;
        d.set_item("figure_kinds", l.kinds)?;
        d.set_item("feature_slots", l.feats)?;
        d.set_item("tile_codes", encode::PART_CODES)?;
        d.set_item("meta", encode::META)?;
        d.set_item("tile_slots", l.tile_slots())?;
        d.set_item("figure_slots", l.figure_slots())?;
        d.set_item("pass_slot", l.pass_slot())?;
        d.set_item("plugin_slots", encode::PLUGIN_SLOTS)?;
        d.set_item("actions", l.actions())?;
        Ok(d.into_any().unbind())
    }

    /// The raw observation: (board bytes, tile bytes, meta, scores, supply).
    #[allow(clippy::type_complexity)]
    fn _observe<'py>(
        &self,
        py: Python<'py>,
        window: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Vec<i32>, Vec<i32>, Vec<i32>)> {
        let o = encode::observe(&self.game, &self.layout(window)?);
        Ok((PyBytes::new(py, &o.board), PyBytes::new(py, &o.tile), o.meta.to_vec(), o.scores, o.supply))
    }

    /// The action slot of each legal action (-1: it has none).
    fn action_slots(&mut self, window: usize) -> PyResult<Vec<i64>> {
        let l = self.layout(window)?;
        self.refresh()?;
        Ok(encode::slots(&self.game, &l, &self.legal))
    }

    /// Plays the legal action whose slot is `slot`.
    fn play_slot(&mut self, window: usize, slot: i64) -> PyResult<()> {
        if let Some(e) = self.no_decision() {
            return Err(e);
        }
        let slots = self.action_slots(window)?;
        let i = slots
            .iter()
            .position(|&s| s == slot && s >= 0)
            .ok_or_else(|| illegal(format!("action slot {slot} is not legal here (window {window})")))?;
        let a = self.legal[i];
        self.play_action(a);
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(rules={:?}, players={}, seed={}, turn={}, scores={:?}{})",
            self.game.rules.name,
            self.game.st.players,
            self.seed,
            self.game.st.turn,
            self.game.scores(),
            if self.game.is_over() { ", over" } else { "" }
        )
    }
}

/// A built-in bot: `Bot("random" | "greedy", seed=0, seat=0)`, seeded as `simulate`
/// seeds the bot of `seat` in a game of seed `seed`.
#[pyclass(module = "carcassonne._native", name = "Bot")]
struct Bot {
    /// A `Mutex` only to be `Sync`, as Python objects must be.
    bot: std::sync::Mutex<Box<dyn EngineBot>>,
    name: String,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name = "random", seed = 0, seat = 0))]
    fn new(name: &str, seed: u64, seat: usize) -> PyResult<Self> {
        let bot = make_bot(name, seed, seat).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Bot { bot: std::sync::Mutex::new(bot), name: name.to_string() })
    }

    /// The index (into `game.legal_actions()`) of the action the bot chooses.
    fn choose(&mut self, game: &mut Game) -> PyResult<usize> {
        if let Some(e) = game.no_decision() {
            return Err(e);
        }
        let legal = game.refresh()?.to_vec();
        if legal.is_empty() {
            return Err(illegal("the decision has no legal action"));
        }
        let mut bot = self.bot.lock().map_err(|_| PyValueError::new_err("the bot failed earlier"))?;
        Ok(bot.choose(&game.game, &legal))
    }

    /// Chooses an action and plays it.
    fn play(&mut self, game: &mut Game) -> PyResult<()> {
        let i = self.choose(game)?;
        game.play_index(i)
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }
}

/// Plays `games` games between bots as `carcassonne simulate` does and returns the summary
/// `simulate --json` prints, as a dict (docs/simulate.md).
#[pyfunction]
#[pyo3(signature = (rules = "classic-everything", games = 1000, seed = 1, players = None, bots = vec!["random".to_string()], threads = None))]
fn simulate(
    py: Python<'_>,
    rules: &str,
    games: u64,
    seed: u64,
    players: Option<usize>,
    bots: Vec<String>,
    threads: Option<usize>,
) -> PyResult<PyObject> {
    let loaded = load(rules)?;
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = SimulateOptions { players, games, seed, bots, threads };
    let summary = py
        .allow_threads(|| carcassonne_engine::simulate(&loaded, &opts))
        .map_err(|e| PyValueError::new_err(one_line(&e.to_string())))?;
    let v = serde_json::to_value(&summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
    convert::to_py(py, &v)
}

/// The names of the embedded rule sets (what `Game(rules=NAME)` takes).
#[pyfunction]
fn rule_sets() -> Vec<String> {
    RuleSet::embedded_names().into_iter().map(str::to_string).collect()
}

/// Loads a rule set and returns its name (raises `RulesError` when it cannot be loaded).
#[pyfunction]
fn check_rules(rules: &str) -> PyResult<String> {
    Ok(load(rules)?.name().to_string())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(check_rules, m)?)?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add("IllegalActionError", m.py().get_type::<IllegalActionError>())?;
    m.add("BOT_NAMES", BOT_NAMES.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
