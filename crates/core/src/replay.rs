//! Replaying a record (or a scenario): every action re-checked, tiles drawn as recorded.

use std::sync::Arc;

use serde_json::Value;

use crate::action::Action;
use crate::board::{MAX_COORD, MAX_TILES};
use crate::engine::{Game, GameOptions};
use crate::geometry::{Pos, Rotation};
use crate::record::{GameRecord, LogFiler, RecordEvent, RecordTurn, FORMAT};
use crate::rules::Rules;

/// Why a replay stopped: the turn and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub turn: Option<u32>,
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.turn {
            Some(t) => write!(f, "turn {t}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ReplayError {}

fn err(turn: Option<u32>, message: impl Into<String>) -> ReplayError {
    ReplayError { turn, message: message.into() }
}

/// Starts the record's game on `rules` (its seed, players and forced order).
pub fn start(record: &GameRecord, rules: Arc<Rules>) -> Result<Game, ReplayError> {
    check_format(record)?;
    let order = match &record.tile_order {
        Some(ids) => Some(
            ids.iter()
                .map(|id| {
                    rules.catalog.id(id).ok_or_else(|| err(None, format!("tile_order names unknown tile '{id}'")))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    Game::start(rules, GameOptions { players: record.players, seed: record.seed, tile_order: order, record: true })
        .map_err(|e| err(None, e))
}

/// Refuses a record of another format than the one this engine writes ([`FORMAT`]).
pub fn check_format(record: &GameRecord) -> Result<(), ReplayError> {
    if record.format != FORMAT {
        return Err(err(
            None,
            format!("\"format\" is {:?}, but this engine reads only \"{FORMAT}\" records", record.format),
        ));
    }
    Ok(())
}

/// Replays every action of `record`, calling `after_turn` after each turn's actions.
pub fn replay(
    record: &GameRecord,
    rules: Arc<Rules>,
    mut after_turn: impl FnMut(&Game, &RecordTurn) -> Result<(), String>,
) -> Result<Game, ReplayError> {
    let mut game = start(record, rules)?;
    // The replay's log, filed into turns as `GameRecord::from_game` does.
    let mut filed = LogFiler::default();
    for turn in &record.turns {
        let t = Some(turn.turn);
        if !game.is_over() && game.st.turn != turn.turn {
            return Err(err(
                t,
                format!("the game is at turn {}, but the record says turn {}", game.st.turn, turn.turn),
            ));
        }
        // The seat whose turn it is (`player`), checked once the game is at this turn.
        if game.st.turn == turn.turn && game.st.current != turn.player {
            return Err(err(
                t,
                format!("the record says it is player {}'s turn, but it is player {}'s", turn.player, game.st.current),
            ));
        }
        // The tile drawn when the last `place_tile` of the turn was answered.
        let mut placed: Option<String> = None;
        for a in &turn.actions {
            let Some(d) = game.decision() else {
                return Err(err(t, "the game is over, but the record has more actions"));
            };
            if let Some(p) = a.get("player").and_then(Value::as_u64) {
                if p != d.player as u64 {
                    return Err(err(
                        t,
                        format!("the record has player {p} act, but the decision is player {}'s", d.player),
                    ));
                }
            }
            let action = parse_action(&game, a).map_err(|m| err(t, m))?;
            if matches!(action, Action::PlaceTile { .. } | Action::PlaceTileVariant { .. }) {
                placed = game.st.tile.map(|id| game.rules.catalog.tiles[id as usize].id.clone());
            }
            game.try_play(action).map_err(|e| err(t, e.0))?;
            if let Some(f) = game.failure() {
                return Err(err(t, f.to_string()));
            }
        }
        // The turn's `tile` (optional in hand-written scenarios) is the tile placed.
        if let Some(want) = &turn.tile {
            match &placed {
                Some(got) if got == want => {}
                Some(got) => {
                    return Err(err(t, format!("the record says tile {want} was placed, but tile {got} was drawn")))
                }
                None => return Err(err(t, format!("the record says tile {want} was placed, but no tile was placed"))),
            }
        }
        filed.read(&game);
        let replayed = filed.turn(turn.turn);
        // The turn's `discarded` (absent when none) are the tiles the replay discarded in it.
        let got = replayed.map_or(&[][..], |r| &r.discarded);
        if got != turn.discarded {
            return Err(err(
                t,
                format!(
                    "the record says \"discarded\": {:?}, but the replay discarded {got:?} \
                     (tiles drawn with no legal placement, BASE-4)",
                    turn.discarded
                ),
            ));
        }
        // The turn's `events` are the replay's. The engine leaves `events` out of a turn
        // without any, and always writes `final_scoring`: in such a record an absent
        // `events` means none. Hand-written scenarios leave both out: not checked.
        let none_when_absent = record.final_scoring.is_some().then_some(&[][..]);
        if let Some(want) = turn.events.as_deref().or(none_when_absent) {
            let got = replayed.and_then(|r| r.events.as_deref()).unwrap_or(&[]);
            if let Some(m) = first_event_difference("events", want, got) {
                return Err(err(t, m));
            }
        }
        after_turn(&game, turn).map_err(|m| err(t, m))?;
    }
    // The `final_scoring` events (absent in scenarios: not checked), once the game is over.
    if let (true, Some(want)) = (game.is_over(), &record.final_scoring) {
        filed.read(&game);
        if let Some(m) = first_event_difference("final_scoring", want, &filed.final_scoring) {
            return Err(err(None, format!("final scoring: {m}")));
        }
    }
    Ok(game)
}

/// The first difference between the recorded and the replayed events of `key`, e.g.
/// `events[1]: the record says {...}, but the replay has {...}` (events as compact JSON).
fn first_event_difference(key: &str, recorded: &[RecordEvent], replayed: &[RecordEvent]) -> Option<String> {
    let show = |e: Option<&RecordEvent>| {
        e.map_or_else(|| "none".to_string(), |e| serde_json::to_string(e).unwrap_or_else(|x| x.to_string()))
    };
    (0..recorded.len().max(replayed.len())).find_map(|i| {
        let (r, p) = (recorded.get(i), replayed.get(i));
        (r != p).then(|| {
            let said = match r {
                Some(_) => format!("the record says {}", show(r)),
                None => "the record has none".to_string(),
            };
            format!("{key}[{i}]: {said}, but the replay has {}", show(p))
        })
    })
}

/// Replays a whole record and checks it ends with the recorded final scores.
pub fn replay_full(record: &GameRecord, rules: Arc<Rules>) -> Result<Game, ReplayError> {
    let game = replay(record, rules, |_, _| Ok(()))?;
    if !game.is_over() {
        return Err(err(Some(game.st.turn), "the record ends before the game does"));
    }
    // The engine always writes both: a record with `final_scoring` needs `final_scores`
    // (absent only in hand-written scenarios, where it is not checked).
    if record.final_scoring.is_some() && record.final_scores.is_empty() {
        return Err(err(
            None,
            "the record has no \"final_scores\" (every record the engine writes has them, with \"final_scoring\")",
        ));
    }
    if !record.final_scores.is_empty() && game.scores() != record.final_scores.as_slice() {
        return Err(err(
            None,
            format!("final scores {:?} differ from the recorded {:?}", game.scores(), record.final_scores),
        ));
    }
    Ok(game)
}

/// Whether two action descriptions are equal but for their `"player"` keys.
fn same_action(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            let counted = |m: &serde_json::Map<String, Value>| m.len() - usize::from(m.contains_key("player"));
            counted(g) == counted(w) && w.iter().all(|(k, v)| k == "player" || g.get(k) == Some(v))
        }
        _ => got == want,
    }
}

/// The action's `"cell"` as a position: none without the key or when it is not `[x, y]`
/// integers; an error when a coordinate lies beyond any game's reach ([`MAX_COORD`]).
fn cell_of(a: &Value) -> Result<Option<Pos>, String> {
    let Some(c) = a.get("cell").and_then(Value::as_array).filter(|c| c.len() == 2) else {
        return Ok(None);
    };
    let mut xy = [0i32; 2];
    for (k, v) in c.iter().enumerate() {
        if v.as_i64().is_none() && v.as_u64().is_none() {
            return Ok(None);
        }
        xy[k] = v
            .as_i64()
            .filter(|n| n.unsigned_abs() <= MAX_COORD.unsigned_abs() as u64)
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| {
                format!(
                    "cell [{}, {}]: {} {v} is out of range: a game of at most {MAX_TILES} tiles \
                     (each at most 3 cells across) reaches no coordinate beyond ±{MAX_COORD}",
                    c[0],
                    c[1],
                    ["x", "y"][k],
                )
            })?;
    }
    Ok(Some(Pos::new(xy[0], xy[1])))
}

/// Turns a recorded action into an [`Action`] of the current decision.
pub fn parse_action(game: &Game, a: &Value) -> Result<Action, String> {
    let kind = a.get("type").and_then(Value::as_str).ok_or_else(|| format!("action {a} has no \"type\""))?;
    if kind == "place_tile" {
        let drawn = game.st.tile.map(|t| game.rules.catalog.tiles[t as usize].id.clone());
        if let (Some(want), Some(got)) = (a.get("tile").and_then(Value::as_str), drawn.as_deref()) {
            if want != got {
                return Err(format!("the record places tile {want}, but tile {got} was drawn"));
            }
        }
        let cell = cell_of(a)?.ok_or_else(|| format!("place_tile {a}: \"cell\" must be [x, y]"))?;
        let rot = a
            .get("rotation")
            .and_then(Value::as_i64)
            .and_then(Rotation::from_degrees)
            .ok_or_else(|| format!("place_tile {a}: \"rotation\" must be 0, 90, 180 or 270"))?;
        let face = match (a.get("face").and_then(Value::as_str), game.st.tile) {
            (Some(name), Some(t)) => game.rules.catalog.tiles[t as usize]
                .faces
                .iter()
                .position(|f| f.name == name)
                .ok_or_else(|| format!("place_tile: the tile has no face '{name}'"))?
                as u8,
            _ => 0,
        };
        let Some(want) = a.get("variant") else {
            return Ok(Action::PlaceTile { pos: cell, rot, face });
        };
        // A placement variant (e.g. with a bridge, BRIDGE-3): the legal one described so.
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let found = legal.iter().find(|l| {
            matches!(**l, Action::PlaceTileVariant { pos, rot: r, face: f, .. } if pos == cell && r == rot && f == face)
                && game.describe(l).get("variant") == Some(want)
        });
        return found.copied().ok_or_else(|| format!("place_tile {a}: no legal placement has this variant"));
    }
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    // Only candidates of the recorded kind (and cell, or plugin) are described and compared.
    let cell = cell_of(a)?.map(|p| (p.x as i64, p.y as i64));
    let plugin = a.get("plugin").and_then(Value::as_str);
    let may_match = |l: &Action| match *l {
        Action::PlaceTile { .. } | Action::PlaceTileVariant { .. } => false,
        Action::Pass => kind == "pass",
        Action::PlaceFigure { part, .. } => {
            let pos = game.st.board.parts[part as usize].pos;
            kind == "figure" && cell.is_none_or(|c| c == (pos.x as i64, pos.y as i64))
        }
        Action::Plugin { plugin: i, .. } => {
            kind == "plugin" && plugin.is_none_or(|name| game.rules.plugins[i as usize].name == name)
        }
    };
    for l in legal.iter().filter(|l| may_match(l)) {
        if same_action(&game.describe(l), a) {
            return Ok(*l);
        }
    }
    let mut want = a.clone();
    if let Value::Object(m) = &mut want {
        m.remove("player");
    }
    // The named plugin may say why (e.g. no grow or gather is due).
    if let Some(i) = plugin.and_then(|name| game.rules.plugin_index(name)) {
        let p = &game.rules.plugins[i].plugin;
        if let Some(why) = p.explain_illegal(&game.rules, &game.st, i, &want) {
            return Err(format!("{want} is not legal here: {why}"));
        }
    }
    let shown: Vec<String> = legal.iter().take(6).map(|l| game.describe(l).to_string()).collect();
    Err(format!("{want} is not legal here; the {} legal actions include {}", legal.len(), shown.join(", ")))
}
