//! Replaying a record (or a scenario): every action re-checked, tiles drawn as recorded.

use std::sync::Arc;

use serde_json::Value;

use crate::action::Action;
use crate::engine::{Game, GameOptions};
use crate::geometry::{Pos, Rotation};
use crate::record::{GameRecord, RecordTurn};
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

/// Replays every action of `record`, calling `after_turn` after each turn's actions.
pub fn replay(
    record: &GameRecord,
    rules: Arc<Rules>,
    mut after_turn: impl FnMut(&Game, &RecordTurn) -> Result<(), String>,
) -> Result<Game, ReplayError> {
    let mut game = start(record, rules)?;
    for turn in &record.turns {
        let t = Some(turn.turn);
        if !game.is_over() && game.st.turn != turn.turn {
            return Err(err(
                t,
                format!("the game is at turn {}, but the record says turn {}", game.st.turn, turn.turn),
            ));
        }
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
            game.try_play(action).map_err(|e| err(t, e.0))?;
            if let Some(f) = game.failure() {
                return Err(err(t, f.to_string()));
            }
        }
        after_turn(&game, turn).map_err(|m| err(t, m))?;
    }
    Ok(game)
}

/// Replays a whole record and checks it ends with the recorded final scores.
pub fn replay_full(record: &GameRecord, rules: Arc<Rules>) -> Result<Game, ReplayError> {
    let game = replay(record, rules, |_, _| Ok(()))?;
    if !game.is_over() {
        return Err(err(Some(game.st.turn), "the record ends before the game does"));
    }
    if !record.final_scores.is_empty() && game.scores() != record.final_scores.as_slice() {
        return Err(err(
            None,
            format!("final scores {:?} differ from the recorded {:?}", game.scores(), record.final_scores),
        ));
    }
    Ok(game)
}

fn without_player(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(m) = &mut v {
        m.remove("player");
    }
    v
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
        let cell = a
            .get("cell")
            .and_then(Value::as_array)
            .filter(|c| c.len() == 2)
            .and_then(|c| Some(Pos::new(c[0].as_i64()? as i32, c[1].as_i64()? as i32)))
            .ok_or_else(|| format!("place_tile {a}: \"cell\" must be [x, y]"))?;
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
        return Ok(Action::PlaceTile { pos: cell, rot, face });
    }
    let want = without_player(a);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    for l in &legal {
        if without_player(&game.describe(l)) == want {
            return Ok(*l);
        }
    }
    let shown: Vec<String> = legal.iter().take(6).map(|l| game.describe(l).to_string()).collect();
    Err(format!("{want} is not legal here; the {} legal actions include {}", legal.len(), shown.join(", ")))
}
