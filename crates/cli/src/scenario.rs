//! Scenarios: records with a forced tile order and expectations (scores, figures on the
//! board, supplies, legal-move counts, scoring events) checked after a turn or at the end.
//! The format is in docs/record-format.md; tests/scenarios/ holds them.

use std::path::Path;

use carcassonne_core::record::{GameRecord, RecordEvent};
use carcassonne_core::replay::replay;
use carcassonne_core::{DecisionKind, Game, NEUTRAL};
use serde_json::Value;

use crate::builtin::rules_for_record_with;

/// Runs one scenario file; returns the rule IDs it covers.
pub fn run_file(path: &Path) -> Result<Vec<String>, String> {
    let shown = path.display().to_string();
    let text = carcassonne_core::files::read_text(path).map_err(|e| format!("{shown}: {e}"))?;
    let rec: GameRecord = serde_json::from_str(&text).map_err(|e| format!("{shown}:{}: {e}", e.line()))?;
    let ids = rec.rule_ids.clone().unwrap_or_default();
    if ids.is_empty() {
        return Err(format!("{shown}: a scenario names the rule IDs it checks in \"rule_ids\""));
    }
    run(&rec, &shown)?;
    Ok(ids)
}

/// Replays a scenario and checks every expectation.
pub fn run(rec: &GameRecord, shown: &str) -> Result<(), String> {
    // Scenarios are the project's own test files: their plugin files are trusted.
    let rules = rules_for_record_with(&rec.rules, shown, true).map_err(|e| e.to_string())?;
    let game = replay(rec, rules, |g, turn| match &turn.expect {
        Some(e) => check(g, e, Some(turn.turn)),
        None => Ok(()),
    })
    .map_err(|e| format!("{shown}: {e}"))?;
    if let Some(e) = &rec.expect {
        check(&game, e, None).map_err(|m| format!("{shown}: at the end: {m}"))?;
    }
    Ok(())
}

fn figures(g: &Game) -> Vec<Value> {
    let mut v: Vec<Value> =
        g.st.figures
            .iter()
            .filter(|f| f.alive)
            .map(|f| {
                serde_json::json!({
                    "owner": (f.owner != NEUTRAL).then_some(f.owner),
                    "figure": g.rules.figure_kinds[f.kind as usize].name,
                    "at": g.st.figure_place_name(&g.rules, f),
                })
            })
            .collect();
    v.sort_by_key(|x| x.to_string());
    v
}

fn sorted(v: &Value) -> Vec<Value> {
    let mut a = v.as_array().cloned().unwrap_or_default();
    a.sort_by_key(|x| x.to_string());
    a
}

/// Checks one expectation object against the game.
pub fn check(g: &Game, e: &Value, turn: Option<u32>) -> Result<(), String> {
    let obj = e.as_object().ok_or("\"expect\" must be an object")?;
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    for (k, want) in obj {
        let got: Value = match k.as_str() {
            "scores" => serde_json::json!(g.scores()),
            "figures" => {
                let got = figures(g);
                if sorted(want) != got {
                    return Err(format!("figures on the board: expected {want}, got {}", Value::from(got)));
                }
                continue;
            }
            "supply" => {
                let mut m = serde_json::Map::new();
                for (kind, _) in want.as_object().ok_or("\"supply\" maps a figure kind to counts per seat")? {
                    let ki =
                        g.rules.figure_kind(kind).ok_or_else(|| format!("supply: unknown figure kind '{kind}'"))?;
                    let per: Vec<u8> = (0..g.st.players).map(|s| g.st.supply[s][ki as usize]).collect();
                    m.insert(kind.clone(), serde_json::json!(per));
                }
                Value::Object(m)
            }
            "legal_moves" => serde_json::json!(legal.len()),
            "legal_actions" => {
                let got: Vec<Value> = legal.iter().map(|a| g.describe(a)).collect();
                if sorted(want) != sorted(&Value::from(got.clone())) {
                    return Err(format!("legal actions: expected {want}, got {}", Value::from(got)));
                }
                continue;
            }
            "decision" => serde_json::json!(match g.decision().map(|d| d.kind) {
                None => "over",
                Some(DecisionKind::PlaceTile) => "place_tile",
                Some(DecisionKind::Figure) => "figure",
                Some(DecisionKind::Plugin { .. }) => "plugin",
            }),
            "tile" => serde_json::json!(g.st.tile.map(|t| g.rules.catalog.tiles[t as usize].id.clone())),
            "discarded" => serde_json::json!(g.st.discarded),
            "events" => {
                let t = turn.ok_or("\"events\" belongs in a turn's expect")?;
                let rec = GameRecord::from_game(g, "", None, 0);
                let evs: Vec<RecordEvent> =
                    rec.turns.iter().find(|x| x.turn == t).and_then(|x| x.events.clone()).unwrap_or_default();
                serde_json::to_value(evs).map_err(|e| e.to_string())?
            }
            "final_scoring" => {
                let rec = GameRecord::from_game(g, "", None, 0);
                serde_json::to_value(rec.final_scoring.unwrap_or_default()).map_err(|e| e.to_string())?
            }
            "points_by_source" => {
                let mut m = serde_json::Map::new();
                for (src, _) in want.as_object().ok_or("\"points_by_source\" maps a source to points per seat")? {
                    let si = g.rules.source(src).ok_or_else(|| format!("points_by_source: unknown source '{src}'"))?;
                    let per: Vec<i32> = (0..g.st.players).map(|s| g.st.points_by_source[s][si as usize]).collect();
                    m.insert(src.clone(), serde_json::json!(per));
                }
                Value::Object(m)
            }
            "note" => continue,
            other => return Err(format!("unknown expectation '{other}'")),
        };
        if &got != want {
            return Err(format!("{k}: expected {want}, got {got}"));
        }
    }
    Ok(())
}
