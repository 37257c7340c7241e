//! Game records (docs/record-format.md): the rules, seed, players, every turn's draws,
//! actions and scoring events, and the final scores. Built from a game's log.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::Game;
use crate::state::{LogEntry, NEUTRAL};

/// Format tag of records written by this engine.
pub const FORMAT: &str = "carcassonne-record/1";

/// The rules a record was played with.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RecordRules {
    /// Rule-set name.
    #[serde(default)]
    pub name: String,
    /// The rule-set file; `embedded:...` for a rule set compiled into the binary.
    pub file: String,
    /// The working directory of the run that wrote the record, when `file` is a relative
    /// path on disk: replay resolves `file` (and the tile and plugin files it names) from
    /// there while it exists, so that a record replays from any directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// The rule-set text, so the record replays without the file (optional in scenarios).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Plugins in resolved order with their resolved options.
    #[serde(default)]
    pub plugins: Vec<RecordPlugin>,
}

/// One plugin of the resolved order.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RecordPlugin {
    pub name: String,
    pub priority: i64,
    pub options: Value,
}

/// Something that happened in a turn (or in final scoring).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecordEvent {
    /// Points scored: `feature` as NOTATION.md (`(1,0) city:N`), none for other sources.
    Score { feature: Option<String>, players: Vec<u8>, points: i32, reason: String },
    /// A figure left the board (`owner` null for neutral figures).
    Removed { figure: String, owner: Option<u8>, at: String, reason: String },
    /// A plugin's note (e.g. a tile set aside).
    Note { plugin: String, text: String },
}

/// One turn.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct RecordTurn {
    pub turn: u32,
    pub player: u8,
    /// The tile placed this turn (none if the stack ran out during the turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    /// Tiles drawn and discarded as unplaceable (BASE-4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discarded: Vec<String>,
    /// Every decision answered in this turn, in order; each carries `player`.
    pub actions: Vec<Value>,
    /// Scoring, removal and note events of the turn, in order. The engine writes them when
    /// there are any (none: absent). On replay, absent means none in a record that has
    /// `final_scoring` (every engine-written one), and "not checked" in one without it
    /// (hand-written scenarios).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<RecordEvent>>,
    /// Scenario checks after this turn's actions (ignored in plain records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Value>,
}

/// A whole game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Always `carcassonne-record/1`.
    pub format: String,
    /// What a scenario shows (scenarios only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// The RULES.md IDs a scenario checks (scenarios only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_ids: Option<Vec<String>>,
    /// The rule set played (file, text, resolved plugins).
    pub rules: RecordRules,
    /// The game seed.
    pub seed: u64,
    /// Number of seats.
    pub players: usize,
    /// Bot per seat, when bots played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots: Option<Vec<String>>,
    /// Forced draw order (scenarios); shuffled from the seed when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_order: Option<Vec<String>>,
    /// The turns, in order.
    pub turns: Vec<RecordTurn>,
    /// Events of the final scoring; the engine always writes them (`[]` when none or when the
    /// game is unfinished). Absent means "not checked" on replay, as in scenarios.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_scoring: Option<Vec<RecordEvent>>,
    /// Final scores, one per seat (absent in an unfinished scenario).
    #[serde(default)]
    pub final_scores: Vec<i32>,
    /// Scenario checks at the end (ignored in plain records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Value>,
}

/// Files a game's log into record turns and final scoring, as [`GameRecord::from_game`]
/// writes them. Reads the log incrementally, so that a replay checks each turn as it ends.
#[derive(Default)]
pub(crate) struct LogFiler {
    /// Log entries read so far.
    read: usize,
    /// The turns filed so far, one per `TurnStart`.
    pub turns: Vec<RecordTurn>,
    /// The events after `FinalScoring`.
    pub final_scoring: Vec<RecordEvent>,
    in_final: bool,
    last_drawn: Option<String>,
}

impl LogFiler {
    /// Files the entries of the game's log not read yet.
    pub fn read(&mut self, game: &Game) {
        let id = |t: u16| game.rules.catalog.tiles[t as usize].id.clone();
        let log = game.st.log.as_deref().unwrap_or(&[]);
        for e in log.get(self.read..).unwrap_or(&[]) {
            let ev = match e {
                LogEntry::TurnStart { turn, player } => {
                    self.turns.push(RecordTurn { turn: *turn, player: *player, ..Default::default() });
                    None
                }
                LogEntry::Drawn { tile } => {
                    self.last_drawn = Some(id(*tile));
                    None
                }
                LogEntry::Discarded { tile, .. } => {
                    if let Some(t) = self.turns.last_mut() {
                        t.discarded.push(id(*tile));
                    }
                    None
                }
                LogEntry::Action { player, action } => {
                    if let Some(t) = self.turns.last_mut() {
                        let mut a = action.clone();
                        a["player"] = Value::from(*player);
                        if a["type"] == "place_tile" {
                            t.tile = self.last_drawn.clone();
                        }
                        t.actions.push(a);
                    }
                    None
                }
                LogEntry::Score { feature, players, points, reason } => Some(RecordEvent::Score {
                    feature: feature.clone(),
                    players: players.clone(),
                    points: *points,
                    reason: reason.clone(),
                }),
                LogEntry::Removed { figure, owner, at, reason } => Some(RecordEvent::Removed {
                    figure: figure.clone(),
                    owner: (*owner != NEUTRAL).then_some(*owner),
                    at: at.clone(),
                    reason: reason.clone(),
                }),
                LogEntry::Note { plugin, text } => {
                    Some(RecordEvent::Note { plugin: plugin.clone(), text: text.clone() })
                }
                LogEntry::FinalScoring => {
                    self.in_final = true;
                    None
                }
            };
            if let Some(ev) = ev {
                if self.in_final {
                    self.final_scoring.push(ev);
                } else if let Some(t) = self.turns.last_mut() {
                    t.events.get_or_insert_with(Vec::new).push(ev);
                }
            }
        }
        self.read = log.len();
    }

    /// The turn numbered `turn`, as filed so far (none before its `TurnStart`).
    pub fn turn(&self, turn: u32) -> Option<&RecordTurn> {
        self.turns.iter().rev().find(|t| t.turn == turn)
    }
}

impl GameRecord {
    /// Builds the record of a recorded game.
    pub fn from_game(game: &Game, file: &str, text: Option<&str>, seed: u64) -> GameRecord {
        let rules = &game.rules;
        let st = &game.st;
        let mut filer = LogFiler::default();
        filer.read(game);
        let LogFiler { turns, final_scoring, .. } = filer;
        GameRecord {
            format: FORMAT.into(),
            about: None,
            rule_ids: None,
            rules: RecordRules {
                name: rules.name.clone(),
                file: file.into(),
                dir: None,
                text: text.map(str::to_string),
                plugins: rules
                    .plugins
                    .iter()
                    .map(|p| RecordPlugin { name: p.name.clone(), priority: p.priority, options: p.options.clone() })
                    .collect(),
            },
            seed,
            players: st.players,
            bots: None,
            tile_order: None,
            turns,
            final_scoring: Some(final_scoring),
            final_scores: if st.is_over() { st.scores().to_vec() } else { Vec::new() },
            expect: None,
        }
    }
}
