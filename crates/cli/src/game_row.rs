//! One finished game as a row of numbers: what `simulate --games-out` writes (CSV or JSON
//! lines, docs/simulate.md) and what `compare` computes its measures from.

use std::io::Write;

use carcassonne_core::{Game, Rules};
use serde::{Deserialize, Serialize};

/// One game's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game index in the run (game i is seeded from the run seed and i).
    pub game: u64,
    pub seed: u64,
    /// Rule-set name.
    pub rules: String,
    pub players: usize,
    /// Bot per seat.
    pub bots: Vec<String>,
    /// Final score per seat.
    pub scores: Vec<i64>,
    /// Seats with the highest score (several on a tie).
    pub winners: Vec<usize>,
    /// Turns played.
    pub turns: u64,
    /// Tiles discarded as unplaceable.
    pub discarded: u64,
    /// Points per score source (the rule set's sources, in order), per seat.
    pub points: Vec<Vec<i64>>,
    /// Plugin statistics (the rule set's, in order).
    pub stats: Vec<i64>,
}

impl GameRow {
    /// The row of a finished game.
    pub fn of(game: &Game, index: u64, seed: u64, bots: &[String]) -> GameRow {
        let st = &game.st;
        let scores: Vec<i64> = st.scores().iter().map(|&s| s as i64).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        GameRow {
            game: index,
            seed,
            rules: game.rules.name.clone(),
            players: st.players,
            bots: bots.to_vec(),
            winners: (0..scores.len()).filter(|&s| scores[s] == best).collect(),
            scores,
            turns: st.turn.saturating_sub(1) as u64,
            discarded: st.discarded as u64,
            points: (0..game.rules.sources.len())
                .map(|src| (0..st.players).map(|seat| st.points_by_source[seat][src] as i64).collect())
                .collect(),
            stats: st.stats.clone(),
        }
    }

    /// Win share of `seat`: 1/k when it is one of k winners, else 0.
    pub fn win_share(&self, seat: usize) -> f64 {
        if self.winners.contains(&seat) {
            1.0 / self.winners.len() as f64
        } else {
            0.0
        }
    }
}

/// Output format of `--games-out`, from the file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    Csv,
    JsonLines,
}

impl RowFormat {
    /// `.csv` or `.jsonl` (anything else is refused, naming the option).
    pub fn of_path(path: &std::path::Path) -> Result<RowFormat, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => Ok(RowFormat::Csv),
            Some("jsonl") => Ok(RowFormat::JsonLines),
            _ => Err(format!("--games-out {}: the file name must end in .csv or .jsonl", path.display())),
        }
    }
}

/// Writes rows as they come, after a CSV header naming the columns of `rules`.
pub struct RowWriter {
    out: std::io::BufWriter<std::fs::File>,
    format: RowFormat,
    sources: Vec<String>,
    stats: Vec<String>,
    players: usize,
}

impl RowWriter {
    /// A writer for games of `rules` with `players` seats (a CSV header names its sources
    /// and statistics).
    pub fn create(path: &std::path::Path, rules: &Rules, players: usize) -> std::io::Result<RowWriter> {
        let format = RowFormat::of_path(path).map_err(std::io::Error::other)?;
        let file = std::fs::File::create(path)?;
        let mut w = RowWriter {
            out: std::io::BufWriter::new(file),
            format,
            sources: rules.sources.clone(),
            stats: rules.stats.clone(),
            players,
        };
        if format == RowFormat::Csv {
            let header = csv_header(&w.sources, &w.stats, w.players);
            writeln!(w.out, "{header}")?;
        }
        Ok(w)
    }

    /// The following rows are games of `rules` (JSON lines name their sources and
    /// statistics; a CSV file holds one rule set).
    pub fn switch_rules(&mut self, rules: &Rules, players: usize) {
        self.sources = rules.sources.clone();
        self.stats = rules.stats.clone();
        self.players = players;
    }

    /// Appends one row.
    pub fn write(&mut self, row: &GameRow) -> std::io::Result<()> {
        match self.format {
            RowFormat::JsonLines => {
                let line = serde_json::to_string(&JsonRow::of(row, &self.sources, &self.stats))?;
                writeln!(self.out, "{line}")
            }
            RowFormat::Csv => writeln!(self.out, "{}", csv_line(row, self.players)),
        }
    }

    /// Flushes what was written (after each wave of games: the file grows as the run goes).
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The CSV header: game, seed, rules, turns, discarded, winners, then per seat its bot
/// and score, per source and seat its points, per statistic its value.
pub fn csv_header(sources: &[String], stats: &[String], players: usize) -> String {
    let mut cols: Vec<String> =
        ["game", "seed", "rules", "players", "turns", "discarded", "winners"].iter().map(|s| s.to_string()).collect();
    for s in 0..players {
        cols.push(format!("bot_{s}"));
    }
    for s in 0..players {
        cols.push(format!("score_{s}"));
    }
    for src in sources {
        for s in 0..players {
            cols.push(format!("points_{src}_{s}"));
        }
    }
    for st in stats {
        cols.push(format!("stat_{st}"));
    }
    cols.iter().map(|c| csv_field(c)).collect::<Vec<_>>().join(",")
}

fn csv_line(row: &GameRow, players: usize) -> String {
    let mut cols = vec![
        row.game.to_string(),
        row.seed.to_string(),
        csv_field(&row.rules),
        row.players.to_string(),
        row.turns.to_string(),
        row.discarded.to_string(),
        row.winners.iter().map(usize::to_string).collect::<Vec<_>>().join(" "),
    ];
    for s in 0..players {
        cols.push(csv_field(row.bots.get(s).map_or("", String::as_str)));
    }
    for s in 0..players {
        cols.push(row.scores.get(s).copied().unwrap_or(0).to_string());
    }
    for src in &row.points {
        for s in 0..players {
            cols.push(src.get(s).copied().unwrap_or(0).to_string());
        }
    }
    for v in &row.stats {
        cols.push(v.to_string());
    }
    cols.join(",")
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A row in JSON lines: sources and statistics by name.
#[derive(Serialize)]
struct JsonRow<'a> {
    game: u64,
    seed: u64,
    rules: &'a str,
    players: usize,
    bots: &'a [String],
    scores: &'a [i64],
    winners: &'a [usize],
    turns: u64,
    discarded: u64,
    points: std::collections::BTreeMap<&'a str, &'a [i64]>,
    stats: std::collections::BTreeMap<&'a str, i64>,
}

impl<'a> JsonRow<'a> {
    fn of(r: &'a GameRow, sources: &'a [String], stats: &'a [String]) -> JsonRow<'a> {
        JsonRow {
            game: r.game,
            seed: r.seed,
            rules: &r.rules,
            players: r.players,
            bots: &r.bots,
            scores: &r.scores,
            winners: &r.winners,
            turns: r.turns,
            discarded: r.discarded,
            points: sources.iter().map(String::as_str).zip(r.points.iter().map(Vec::as_slice)).collect(),
            stats: stats.iter().map(String::as_str).zip(r.stats.iter().copied()).collect(),
        }
    }
}
