//! Actions and decisions shown in the record notation (docs/record-format.md): an action
//! as the JSON object a record's `actions[]` holds (without its `player`), a decision as
//! `{"player": 0, "kind": "place_tile", "tile": "E"}` (`kind` `place_tile`, `figure` or
//! `plugin`, with `plugin` naming its plugin). An action needs its game to be shown: the
//! tile it places and the features it names are the game's.

use std::fmt;

use carcassonne_core::{Action, Decision, DecisionKind, Game};
use serde_json::json;

/// An action of a game, displayed in the record notation ([`show_action`]).
#[derive(Clone, Copy, Debug)]
pub struct ShowAction<'a> {
    game: &'a Game,
    action: Action,
}

/// `action`, an answer to the current decision of `game`, in the record notation, e.g.
/// `{"type":"place_tile","tile":"E","cell":[0,-1],"rotation":180}`.
pub fn show_action(game: &Game, action: Action) -> ShowAction<'_> {
    ShowAction { game, action }
}

impl fmt::Display for ShowAction<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.game.describe(&self.action))
    }
}

/// A decision of a game, displayed in the record notation ([`show_decision`]).
#[derive(Clone, Copy, Debug)]
pub struct ShowDecision<'a> {
    game: &'a Game,
    decision: Decision,
}

/// `decision` of `game` in the record notation, e.g.
/// `{"player":0,"kind":"place_tile","tile":"E"}`.
pub fn show_decision(game: &Game, decision: Decision) -> ShowDecision<'_> {
    ShowDecision { game, decision }
}

impl ShowDecision<'_> {
    /// The decision as a JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        let (rules, d) = (&self.game.rules, &self.decision);
        let mut v = json!({ "player": d.player });
        match d.kind {
            DecisionKind::PlaceTile => v["kind"] = json!("place_tile"),
            DecisionKind::Figure => v["kind"] = json!("figure"),
            DecisionKind::Plugin { plugin, .. } => {
                v["kind"] = json!("plugin");
                v["plugin"] = json!(rules.plugins.get(plugin as usize).map(|p| p.name.as_str()));
            }
        }
        if let Some(t) = self.game.st.tile {
            v["tile"] = json!(rules.catalog.tiles[t as usize].id);
        }
        v
    }
}

impl fmt::Display for ShowDecision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}
