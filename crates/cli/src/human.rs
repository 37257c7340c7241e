//! Human seats of `carcassonne play --human SEATS`: each decision of such a seat is asked
//! on the terminal (the drawn tile, the scores, the legal actions numbered and described
//! in words) and answered by a line of input: a number, or `q` to stop (the caller saves
//! the record so far). Works for every decision any plugin pushes: the actions shown are
//! the engine's legal actions in their record form, put into words.

use std::io::{BufRead, Write};

use carcassonne_core::{Action, Game};
use serde_json::Value;

/// What a human answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Index into the legal actions.
    Action(usize),
    /// Stop the game here (`q`, or the end of the input).
    Quit,
}

/// A recorded action in words, e.g. "tile K at (2,-1) rotated 90", "follower on the
/// city N+E at (2,-1)", "dragon: step to (0,3)".
pub fn describe(a: &Value) -> String {
    let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
    match a.get("type").and_then(Value::as_str) {
        Some("place_tile") => format!(
            "tile {} at {} rotated {}",
            s("tile"),
            a.get("cell").map_or_else(String::new, value_words),
            a.get("rotation").and_then(Value::as_i64).unwrap_or(0)
        ),
        Some("figure") => {
            let feature = s("feature");
            let what = match feature.split_once(':') {
                Some((kind, sides)) => format!("the {kind} {sides}"),
                None => format!("the {feature}"),
            };
            let what = if feature == "?" { "the tile".to_string() } else { what };
            format!("{} on {what} at {}", s("figure"), a.get("cell").map_or_else(String::new, value_words))
        }
        Some("pass") => "no figure (pass)".to_string(),
        Some("plugin") => {
            let mut rest: Vec<String> = a
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| !matches!(k.as_str(), "type" | "plugin" | "player" | "action"))
                .map(|(k, v)| format!("{} {}", k.replace('_', " "), value_words(v)))
                .collect();
            rest.sort();
            let action = a.get("action").and_then(Value::as_str).unwrap_or("action").replace('_', " ");
            let rest = if rest.is_empty() { String::new() } else { format!(" ({})", rest.join(", ")) };
            format!("{}: {action}{rest}", s("plugin"))
        }
        _ => a.to_string(),
    }
}

/// A value in words: a cell `[x, y]` as `(x,y)`, a string as itself.
fn value_words(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(c) if c.len() == 2 && c.iter().all(Value::is_i64) => {
            format!("({},{})", c[0].as_i64().unwrap_or(0), c[1].as_i64().unwrap_or(0))
        }
        other => other.to_string(),
    }
}

/// Asks seat `seat` to choose among `actions` (never empty): prints the situation and the
/// numbered actions to `out`, reads lines from `input` until one is a number in range or
/// `q` (the end of the input counts as `q`).
pub fn ask(game: &Game, seat: u8, actions: &[Action], input: &mut dyn BufRead, out: &mut dyn Write) -> Answer {
    let st = &game.st;
    let mut text = format!("\nturn {}, seat {seat} (you)", st.turn);
    if let Some(t) = st.tile {
        text.push_str(&format!(", tile {} drawn", game.rules.catalog.tiles[t as usize].id));
    }
    let scores: Vec<String> = st.scores().iter().enumerate().map(|(p, s)| format!("seat {p} {s}")).collect();
    text.push_str(&format!("\nscores: {}\nlegal actions:\n", scores.join(", ")));
    for (i, a) in actions.iter().enumerate() {
        text.push_str(&format!("  {:>3}. {}\n", i + 1, describe(&game.describe(a))));
    }
    let _ = write!(out, "{text}");
    loop {
        let _ = write!(out, "choose 1-{} (q: save and quit): ", actions.len());
        let _ = out.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return Answer::Quit,
            Ok(_) => {}
        }
        let line = line.trim();
        if line.eq_ignore_ascii_case("q") {
            return Answer::Quit;
        }
        match line.parse::<usize>() {
            Ok(n) if (1..=actions.len()).contains(&n) => return Answer::Action(n - 1),
            _ => {
                let _ = writeln!(out, "'{line}' is not a number from 1 to {}", actions.len());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_in_words() {
        let tile = json!({"type": "place_tile", "tile": "K", "cell": [2, -1], "rotation": 90});
        assert_eq!(describe(&tile), "tile K at (2,-1) rotated 90");
        let f = json!({"type": "figure", "figure": "follower", "cell": [2, -1], "feature": "city:N+E"});
        assert_eq!(describe(&f), "follower on the city N+E at (2,-1)");
        let d = json!({"type": "plugin", "plugin": "dragon", "action": "step", "cell": [0, 3]});
        assert_eq!(describe(&d), "dragon: step (cell (0,3))");
        assert_eq!(describe(&json!({"type": "pass"})), "no figure (pass)");
    }
}
