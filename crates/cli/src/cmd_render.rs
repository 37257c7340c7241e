//! `carcassonne render`: draws the board of a game record as an SVG picture, or the whole
//! game as an HTML page (`--html`, crate::html).

use std::path::PathBuf;

use carcassonne_core::replay::{replay, replay_full};
use carcassonne_core::Pos;
use clap::Args;

use crate::builtin::rules_for_record_with;
use crate::cmd_replay::read_record;
use crate::output::write_atomic;
use std::sync::Arc;

use carcassonne_core::record::GameRecord;
use carcassonne_core::Rules;

use crate::html::{page, Steps};
use crate::svg::{render, Picture};
use crate::CliError;

#[derive(Args)]
pub struct RenderArgs {
    /// The game record (JSON) to draw.
    record: PathBuf,
    /// The SVG file to write (standard output without it).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Draw the board after turn N (0: the start tile only); default: the end of the record.
    #[arg(long, value_name = "N", conflicts_with = "html")]
    turn: Option<u32>,
    /// Write one self-contained HTML page that shows the game turn by turn (a slider,
    /// previous/next, the arrow keys; `#turn=N` in the address opens turn N).
    #[arg(long)]
    html: bool,
    /// Load the plugin files the record's rule set names (they run code: only for records
    /// you trust).
    #[arg(long)]
    allow_plugin_files: bool,
}

pub fn run(a: RenderArgs) -> Result<(), CliError> {
    let shown = a.record.display().to_string();
    let mut rec = read_record(&a.record)?;
    let rules = rules_for_record_with(&rec.rules, &shown, a.allow_plugin_files).map_err(CliError::input)?;
    let last = rec.turns.last().map_or(0, |t| t.turn);
    if let Some(n) = a.turn {
        if n > last {
            return Err(CliError::input(format!("--turn {n}: the record of {shown} has turns 1 to {last}")));
        }
    }
    if a.html {
        return html(&a, &rec, rules, &shown);
    }
    let full = a.turn.is_none_or(|n| n == last);
    let stop = a.turn.unwrap_or(last);
    let game = if full && !rec.final_scores.is_empty() {
        replay_full(&rec, rules.clone())
    } else {
        rec.turns.retain(|t| t.turn <= stop);
        replay(&rec, rules.clone(), |_, _| Ok(()))
    }
    .map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    // The tile placed in the last turn drawn, outlined.
    let highlight = rec.turns.iter().rev().find(|t| t.turn <= stop).and_then(|t| {
        t.actions.iter().find(|x| x["type"] == "place_tile").and_then(|x| {
            let c = x.get("cell")?.as_array()?;
            Some(Pos::new(i32::try_from(c.first()?.as_i64()?).ok()?, i32::try_from(c.get(1)?.as_i64()?).ok()?))
        })
    });
    let state = if game.is_over() {
        format!("final board after {last} turns")
    } else if stop == 0 {
        "start of the game".to_string()
    } else {
        format!("board after turn {stop} of {last}")
    };
    let file_name = a.record.file_name().map_or(shown.clone(), |f| f.to_string_lossy().into_owned());
    let bots = rec.bots.clone();
    let seats = match &bots {
        Some(b) => format!(", bots {}", b.join(",")),
        None => String::new(),
    };
    let pic = Picture {
        title: format!("{file_name}: {state}"),
        subtitle: format!(
            "rules {} ({}), plugins {}; seed {}, {} players{seats}; {} tiles on the board",
            rules.name,
            rec.rules.file,
            rules.plugin_names().join(", "),
            rec.seed,
            rec.players,
            game.st.board.len()
        ),
        seat_names: bots,
        highlight,
    };
    write_out(&a, &render(&game, &pic))
}

fn write_out(a: &RenderArgs, text: &str) -> Result<(), CliError> {
    match &a.output {
        Some(path) => {
            write_atomic(path, text.as_bytes()).map_err(|e| CliError::input(format!("-o {}: {e}", path.display())))
        }
        None => crate::output::print_out(text),
    }
}

/// `--html`: the page of the whole record.
fn html(a: &RenderArgs, rec: &GameRecord, rules: Arc<Rules>, shown: &str) -> Result<(), CliError> {
    let bad = |e: carcassonne_core::replay::ReplayError| CliError::input(format!("{shown}: {e}"));
    let last = if rec.final_scores.is_empty() {
        replay(rec, rules.clone(), |_, _| Ok(()))
    } else {
        replay_full(rec, rules.clone())
    }
    .map_err(bad)?;
    let mut empty = rec.clone();
    empty.turns.clear();
    let start = replay(&empty, rules.clone(), |_, _| Ok(())).map_err(bad)?;
    let mut steps = Steps::new(&last, &start);
    replay(rec, rules.clone(), |g, t| {
        steps.after_turn(g, t);
        Ok(())
    })
    .map_err(bad)?;
    if last.is_over() {
        steps.finish(&last, rec);
    }
    let file_name = a.record.file_name().map_or(shown.to_string(), |f| f.to_string_lossy().into_owned());
    let subtitle = format!(
        "rules {} ({}), plugins {}; seed {}, {} players; {} turns",
        rules.name,
        rec.rules.file,
        rules.plugin_names().join(", "),
        rec.seed,
        rec.players,
        rec.turns.len()
    );
    let names = rec.bots.clone().unwrap_or_default();
    write_out(a, &page(&last, &steps, &format!("{file_name}: {}", rules.name), &subtitle, &names))
}
