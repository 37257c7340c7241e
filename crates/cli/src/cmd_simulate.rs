//! `carcassonne simulate`: many games between bots, summarized (docs/simulate.md).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::Rules;
use carcassonne_engine::simulate::{check_bots, play_games, seats, thread_pool, Games, MAX_THREADS};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::builtin::{load_rules_file, DEFAULT_RULES};
use crate::charts::ChartData;
use crate::game_row::{GameRow, RowFormat, RowWriter};
use crate::output::write_atomic;
use crate::summary::{render_text, shard_len, Accumulator, RunInfo, ShardInfo, Summaries, Summary};
use crate::CliError;

#[derive(Args)]
pub struct SimulateArgs {
    /// Rule-set file (`embedded:config/NAME.toml` for a built-in one); repeat to compare
    /// rule sets on the same seeds [default: embedded:config/classic-everything.toml].
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<String>,
    /// Number of players (default: each rule set's `players`).
    #[arg(long)]
    players: Option<usize>,
    /// Number of games (of the whole run, over every shard).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the run: game i is played with seed Rng::derive(SEED, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bots, one per seat, cycled: random, greedy, mcts, mcts:N (N playouts per decision).
    #[arg(long, default_value = "random", value_delimiter = ',')]
    bots: Vec<String>,
    /// Worker threads (default: every available core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the summaries as JSON: `{"format": "carcassonne-simulate/1", "summaries":
    /// [...]}`, one per rule set (docs/simulate.md).
    #[arg(long)]
    json: bool,
    /// Write every game's record (JSON) into this directory.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Play only shard I of N: games I, I+N, I+2N, ... (0 <= I < N).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write the summary to this file (atomically) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write one row per game to this file as the run goes (`.csv` or `.jsonl`,
    /// docs/simulate.md).
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Write SVG charts of the run into this directory (docs/compare.md).
    #[arg(long, value_name = "DIR")]
    charts: Option<PathBuf>,
}

/// Where the rows of the games go as they are played.
struct RowSinks {
    writer: Option<RowWriter>,
    path: Option<PathBuf>,
    charts: Option<ChartData>,
}

impl RowSinks {
    fn wanted(&self) -> bool {
        self.writer.is_some() || self.charts.is_some()
    }
    fn take(&mut self, rows: &[GameRow]) -> Result<(), CliError> {
        let shown = || self.path.as_ref().map_or(String::new(), |p| p.display().to_string());
        if let Some(w) = &mut self.writer {
            for r in rows {
                w.write(r).map_err(|e| CliError::failure(format!("--games-out {}: {e}", shown())))?;
            }
            w.flush().map_err(|e| CliError::failure(format!("--games-out {}: {e}", shown())))?;
        }
        if let Some(c) = &mut self.charts {
            for r in rows {
                c.add(r);
            }
        }
        Ok(())
    }
}

/// One rule set of the run.
struct RuleSet {
    file: String,
    text: String,
    rules: Arc<Rules>,
    players: usize,
    bots: Vec<String>,
    /// File-name prefix of its records.
    label: String,
}

/// Parses `I/N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {s}: expected I/N with 0 <= I < N (e.g. 0/4)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

fn sanitize(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if s.is_empty() {
        "rules".into()
    } else {
        s
    }
}

pub fn run(a: SimulateArgs) -> Result<(), CliError> {
    if a.games == 0 {
        return Err(CliError::input("--games 0: at least one game is needed"));
    }
    let threads = match a.threads {
        Some(0) => return Err(CliError::input("--threads 0: at least one thread is needed")),
        Some(t) if t > MAX_THREADS => {
            return Err(CliError::input(format!("--threads {t}: at most {MAX_THREADS}")));
        }
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let shard = a.shard.as_deref().map(parse_shard).transpose().map_err(CliError::input)?;
    let (shard_index, shard_count) = shard.unwrap_or((0, 1));
    let my_games = shard_len(a.games, shard_index, shard_count);
    if my_games == 0 {
        return Err(CliError::input(format!(
            "--shard {shard_index}/{shard_count}: this shard holds none of the {} games",
            a.games
        )));
    }
    check_bots(&a.bots, "--")?;
    let files = if a.rules.is_empty() { vec![DEFAULT_RULES.to_string()] } else { a.rules.clone() };
    let mut sets: Vec<RuleSet> = Vec::new();
    for file in &files {
        let (rules, text) = load_rules_file(file).map_err(|e| CliError::input(one_line(&e.to_string())))?;
        let (players, bots) = seats(&rules, a.players, &a.bots, "--")?;
        let mut label = sanitize(&rules.name);
        let base = label.clone();
        let mut k = 2;
        while sets.iter().any(|s| s.label == label) {
            label = format!("{base}-{k}");
            k += 1;
        }
        sets.push(RuleSet { file: file.clone(), text, rules, players, bots, label });
    }
    if let Some(out) = &a.output {
        check_output(out)?;
    }
    if let Some(path) = &a.games_out {
        let format = RowFormat::of_path(path).map_err(CliError::input)?;
        if format == RowFormat::Csv && sets.len() > 1 {
            return Err(CliError::input(format!(
                "--games-out {}: a CSV file holds the games of one rule set (use .jsonl for several)",
                path.display()
            )));
        }
        check_output_file("--games-out", path)?;
    }
    if let Some(dir) = &a.charts {
        crate::charts::prepare_dir(dir)?;
    }
    if let Some(dir) = &a.records {
        prepare_dir(dir)?;
        let labels: Vec<&str> = sets.iter().map(|s| s.label.as_str()).collect();
        refuse_existing_records(dir, &labels, shard_index, shard_count, my_games)?;
    }
    // No more threads than games (the results do not depend on the thread count).
    let threads = threads.min(usize::try_from(my_games).unwrap_or(usize::MAX));
    let pool = thread_pool(threads)?;
    let bar = progress_bar(!a.json && a.output.is_none(), my_games * sets.len() as u64);
    let games = Games { first: shard_index, step: shard_count, count: my_games };
    let shard_info = shard.map(|(i, n)| ShardInfo { count: n, indices: vec![i] });

    let mut summaries = Vec::new();
    let mut writer = None;
    if let Some(path) = &a.games_out {
        let w = RowWriter::create(path, &sets[0].rules, sets[0].players)
            .map_err(|e| CliError::input(format!("--games-out {}: {e}", path.display())))?;
        writer = Some(w);
    }
    let mut chart_data = Vec::new();
    for set in &sets {
        let start = Instant::now();
        if let Some(w) = &mut writer {
            w.switch_rules(&set.rules, set.players);
        }
        let mut sinks = RowSinks {
            writer: writer.take(),
            path: a.games_out.clone(),
            charts: a.charts.as_ref().map(|_| ChartData::new(&set.rules.name, &set.rules.sources)),
        };
        let acc = pool.install(|| play_all(set, games, a.seed, threads, a.records.as_deref(), &bar, &mut sinks))?;
        writer = sinks.writer.take();
        chart_data.extend(sinks.charts.take());
        let wall = start.elapsed().as_secs_f64();
        let run = RunInfo::new(&set.rules, &set.file, &set.text, a.seed, set.bots.clone(), a.games, shard_info.clone());
        summaries.push(acc.summary(&run, threads, wall));
    }
    bar.finish_and_clear();
    if let Some(dir) = &a.charts {
        crate::charts::write_charts(dir, &chart_data).map_err(CliError::failure)?;
    }
    emit(&summaries, a.json, a.output.as_deref())
}

/// Prints (or writes to `output`) the summaries as text or JSON.
pub fn emit(summaries: &[Summary], json: bool, output: Option<&Path>) -> Result<(), CliError> {
    let text = if json {
        // One shape for one rule set or several (docs/simulate.md).
        serde_json::to_string(&Summaries::new(summaries.to_vec())).map_err(CliError::failure)? + "\n"
    } else {
        render_text(summaries)
    };
    match output {
        Some(path) => write_atomic(path, text.as_bytes())
            .map_err(|e| CliError::input(format!("--output {}: {e}", path.display()))),
        None => crate::output::print_out(&text),
    }
}

/// Checks that an output file can be created in its directory (before any game runs).
pub fn check_output(path: &Path) -> Result<(), CliError> {
    check_output_file("--output", path)
}

/// [`check_output`] for the file of option `flag`: its directory exists and takes new
/// files, and it is no directory itself.
pub fn check_output_file(flag: &str, path: &Path) -> Result<(), CliError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let shown = path.display();
    if !dir.is_dir() {
        return Err(CliError::input(format!("{flag} {shown}: directory {} does not exist", dir.display())));
    }
    if path.is_dir() {
        return Err(CliError::input(format!("{flag} {shown}: is a directory")));
    }
    if path.symlink_metadata().is_ok_and(|m| !m.is_file() && !m.file_type().is_symlink()) {
        // A device or a named pipe is written to directly (`write_atomic`).
        return Ok(());
    }
    crate::output::check_writable_dir(dir)
        .map_err(|e| CliError::input(format!("{flag} {shown}: cannot write in directory {}: {e}", dir.display())))
}

/// Records are never overwritten: a run whose record files would replace existing files
/// (or folders) is refused before it starts.
fn refuse_existing_records(dir: &Path, labels: &[&str], first: u64, step: u64, count: u64) -> Result<(), CliError> {
    for label in labels {
        for k in 0..count {
            let path = record_path(dir, label, first + k * step);
            if path.symlink_metadata().is_ok() {
                return Err(CliError::input(format!(
                    "--records {}: {} already exists (records are never overwritten: use another directory)",
                    dir.display(),
                    path.display()
                )));
            }
        }
    }
    Ok(())
}

fn prepare_dir(dir: &Path) -> Result<(), CliError> {
    if dir.symlink_metadata().is_ok() && !dir.is_dir() {
        return Err(CliError::input(format!("--records {}: not a directory", dir.display())));
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::input(format!("--records {}: {e}", dir.display())))?;
    if !dir.is_dir() {
        return Err(CliError::input(format!("--records {}: not a directory", dir.display())));
    }
    crate::output::check_writable_dir(dir).map_err(|e| {
        CliError::input(format!("--records {}: cannot write records in this directory: {e}", dir.display()))
    })
}

fn progress_bar(wanted: bool, total: u64) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} games, {rate}, eta {eta}")
    {
        let style = style.progress_chars("=> ").with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0} games/s", s.per_sec());
        });
        bar.set_style(style);
    }
    bar
}

/// Plays the games of one rule set on the current rayon pool, writing their records into
/// `records` and their rows into `sinks` in game order.
fn play_all(
    set: &RuleSet,
    games: Games,
    seed: u64,
    threads: usize,
    records: Option<&Path>,
    bar: &ProgressBar,
    sinks: &mut RowSinks,
) -> Result<Accumulator, CliError> {
    let want_rows = sinks.wanted();
    let each = |i: u64, game_seed: u64, game: &carcassonne_core::Game| {
        if let Some(dir) = records {
            write_record(set, dir, i, game_seed, game)?;
        }
        bar.inc(1);
        Ok(want_rows.then(|| GameRow::of(game, i, game_seed, &set.bots)))
    };
    let take = |rows: Vec<GameRow>| sinks.take(&rows);
    play_games(&set.rules, set.players, &set.bots, games, seed, threads, records.is_some(), each, take)
}

/// Path of the record of game `index` of a rule set.
pub fn record_path(dir: &Path, label: &str, index: u64) -> PathBuf {
    dir.join(format!("{label}-{index:06}.json"))
}

fn write_record(
    set: &RuleSet,
    dir: &Path,
    index: u64,
    seed: u64,
    game: &carcassonne_core::Game,
) -> Result<(), CliError> {
    let mut rec = carcassonne_engine::records::game_record(game, &set.file, &set.text, seed);
    rec.bots = Some(set.bots.clone());
    let body = serde_json::to_vec_pretty(&rec).map_err(CliError::failure)?;
    let path = record_path(dir, &set.label, index);
    write_atomic(&path, &body).map_err(|e| CliError::failure(format!("--records: {}: {e}", path.display())))
}

/// A message on one line (errors are reported on one line).
pub fn one_line(s: &str) -> String {
    s.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_syntax() {
        assert_eq!(parse_shard("0/4"), Ok((0, 4)));
        assert_eq!(parse_shard("3/4"), Ok((3, 4)));
        for bad in ["4/4", "1/0", "a/b", "1", "-1/4", "1/4/2", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
