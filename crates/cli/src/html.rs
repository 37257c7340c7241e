//! `carcassonne render --html`: one self-contained HTML page that shows a game turn by
//! turn (a slider, previous/next buttons and the arrow keys): the board drawn as the SVG
//! picture draws it, the tile placed and the actions of each turn, its events and the
//! scores after it, then the final scoring.
//!
//! The page holds the final board's tiles once (each tagged with the order it was placed
//! in) and, per turn, only what changes: how many tiles lie, the figures, the outline of
//! the tile just placed, the text of the turn. No network, no build step: the script is
//! inline. `#turn=N` in the address opens turn N (`#turn=final`: the final scoring).

use std::fmt::Write;

use carcassonne_core::record::{GameRecord, RecordEvent, RecordTurn};
use carcassonne_core::{Game, Pos};
use serde::Serialize;
use serde_json::Value;

use crate::svg::{
    esc, write_board, write_figures, write_highlight, write_legend, write_open, write_tiles, Frame, Pieces,
    SEAT_COLOURS,
};

/// The page around the board, with `@NAME@` placeholders.
const TEMPLATE: &str = include_str!("viewer.html");

/// One step of the page: the board after a turn (or at the start, or after the final scoring).
#[derive(Serialize)]
pub struct Step {
    /// "start", "turn N" or "final scoring".
    pub label: String,
    /// The turn number (0 at the start; the last turn's for the final scoring).
    pub turn: u32,
    /// The seat that played the turn.
    pub player: Option<u8>,
    /// Tiles on the board.
    pub tiles: usize,
    /// The turn's actions and events, in words.
    pub actions: Vec<String>,
    pub events: Vec<String>,
    /// Scores after the step.
    pub scores: Vec<i32>,
    /// SVG of the figures and the outline of the tile placed (drawn in the final frame).
    pub figures: String,
}

/// Builds the steps of a record: `start` is the game before the first turn; `after_turn`
/// is called by the caller's replay for each turn; `finish` adds the final scoring.
pub struct Steps {
    frame: Frame,
    pub steps: Vec<Step>,
}

impl Steps {
    /// Steps drawn in the frame of the final board `last`, starting from `start`.
    pub fn new(last: &Game, start: &Game) -> Steps {
        let mut s = Steps { frame: Frame::for_viewer(last), steps: Vec::new() };
        let figures = s.figures(start, None);
        s.steps.push(Step {
            label: "start".to_string(),
            turn: 0,
            player: None,
            tiles: start.st.board.len(),
            actions: Vec::new(),
            events: Vec::new(),
            scores: start.scores().to_vec(),
            figures,
        });
        s
    }

    fn figures(&self, game: &Game, placed: Option<Pos>) -> String {
        let mut o = String::new();
        if let Some(cell) = placed {
            write_highlight(&mut o, game, &self.frame, cell);
        }
        write_figures(&mut o, game, &self.frame);
        o
    }

    /// The board after recorded turn `t`.
    pub fn after_turn(&mut self, game: &Game, t: &RecordTurn) {
        let placed = t.actions.iter().find(|a| a["type"] == "place_tile").and_then(cell_of);
        let mut actions: Vec<String> = t.discarded.iter().map(|d| format!("tile {d} drawn and discarded")).collect();
        actions.extend(t.actions.iter().map(action_text));
        let figures = self.figures(game, placed);
        self.steps.push(Step {
            label: format!("turn {}", t.turn),
            turn: t.turn,
            player: Some(t.player),
            tiles: game.st.board.len(),
            actions,
            events: t.events.iter().flatten().map(event_text).collect(),
            scores: game.scores().to_vec(),
            figures,
        });
    }

    /// The final scoring (figures leave the board, but those that stay: see `svg`).
    pub fn finish(&mut self, game: &Game, rec: &GameRecord) {
        let events = rec.final_scoring.iter().flatten().map(event_text).collect();
        let turn = self.steps.last().map_or(0, |s| s.turn);
        self.steps.push(Step {
            label: "final scoring".to_string(),
            turn,
            player: None,
            tiles: game.st.board.len(),
            actions: Vec::new(),
            events,
            scores: game.scores().to_vec(),
            figures: self.figures(game, None),
        });
    }
}

fn cell_of(a: &Value) -> Option<Pos> {
    let c = a.get("cell")?.as_array()?;
    Some(Pos::new(i32::try_from(c.first()?.as_i64()?).ok()?, i32::try_from(c.get(1)?.as_i64()?).ok()?))
}

/// A recorded action in words, with the seat that took it ("seat 1: tile U at (0,1)
/// rotated 0").
fn action_text(a: &Value) -> String {
    let who = a.get("player").and_then(Value::as_u64).map_or(String::new(), |p| format!("seat {p}: "));
    format!("{who}{}", crate::human::describe(a))
}

/// A recorded event in words.
pub fn event_text(e: &RecordEvent) -> String {
    match e {
        RecordEvent::Score { feature, players, points, reason } => {
            let seats: Vec<String> = players.iter().map(|p| format!("seat {p}")).collect();
            let whom = if seats.is_empty() { "nobody".to_string() } else { seats.join(" and ") };
            match feature {
                Some(f) => format!("{whom} {points:+} for {f} ({reason})"),
                None => format!("{whom} {points:+} ({reason})"),
            }
        }
        RecordEvent::Removed { figure, owner, at, reason } => {
            let whose = owner.map_or("neutral".to_string(), |o| format!("seat {o}'s"));
            format!("{whose} {figure} at {at} leaves the board ({reason})")
        }
        RecordEvent::Note { plugin, text } => format!("{plugin}: {text}"),
    }
}

/// The page: `last` is the final game (its board is drawn once), `title` the heading.
pub fn page(last: &Game, steps: &Steps, title: &str, subtitle: &str, seat_names: &[String]) -> String {
    let frame = &steps.frame;
    let mut svg = String::new();
    write_open(&mut svg, frame, title);
    write_board(&mut svg, frame);
    write_tiles(&mut svg, last, frame);
    let _ = writeln!(svg, r#"<g id="figures"></g>"#);
    write_legend(&mut svg, last, frame, &Pieces::of(last), true);
    let _ = writeln!(svg, "</svg>");
    let seats: Vec<Value> = (0..last.st.players)
        .map(|s| {
            serde_json::json!({
                "colour": SEAT_COLOURS[s % SEAT_COLOURS.len()],
                "name": seat_names.get(s).cloned().unwrap_or_default(),
            })
        })
        .collect();
    // `</` never appears inside the script's JSON (it would close the element).
    let data = serde_json::json!({"steps": steps.steps, "seats": seats}).to_string().replace("</", "<\\/");
    // One pass over the template, so that nothing inserted is read as a placeholder.
    let max = steps.steps.len().saturating_sub(1).to_string();
    let (title, subtitle) = (esc(title), esc(subtitle));
    let mut out = String::with_capacity(TEMPLATE.len() + svg.len() + data.len());
    let mut rest = TEMPLATE;
    while let Some(i) = rest.find('@') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let (key, value) =
            [("@TITLE@", &title), ("@SUBTITLE@", &subtitle), ("@MAX@", &max), ("@SVG@", &svg), ("@DATA@", &data)]
                .into_iter()
                .find(|(k, _)| after.starts_with(k))
                .map_or(("@", "@"), |(k, v)| (k, v.as_str()));
        out.push_str(value);
        rest = &after[key.len()..];
    }
    out.push_str(rest);
    out
}
