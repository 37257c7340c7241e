//! `carcassonne compare`: rule sets (or bot line-ups) played on the same seeds, each
//! measure with its 95% interval and its difference to the first (docs/compare.md).

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::builtin::{load_rules_file, DEFAULT_RULES};
use crate::compare::{measures, play_rows, report, Condition, MeasureReport};
use crate::output::write_atomic;
use crate::stats::MeanCi;
use crate::CliError;

#[derive(Args)]
pub struct CompareArgs {
    /// Rule-set file (`embedded:config/NAME.toml`); repeat to compare rule sets.
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<String>,
    /// A bot line-up, one bot per seat (e.g. `mcts,greedy`); repeat to compare line-ups.
    /// Default: greedy, then random for the other seats.
    #[arg(long = "lineup", alias = "bots", value_name = "LIST")]
    lineups: Vec<String>,
    /// Number of players (default: the first rule set's `players`).
    #[arg(long)]
    players: Option<usize>,
    /// Games per condition (the same seeds for each).
    #[arg(long, default_value_t = 500)]
    games: u64,
    /// Seed of the run: game i is played with seed Rng::derive(SEED, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rotate the seats: in game i the line-up is turned by i seats, so that each bot
    /// plays each seat equally often (`--rotate-seats false` keeps it fixed).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    rotate_seats: bool,
    /// Strong bot of the luck-vs-skill figure.
    #[arg(long, default_value = "mcts:200")]
    strong: String,
    /// Weak bot of the luck-vs-skill figure (every other seat).
    #[arg(long, default_value = "greedy")]
    weak: String,
    /// Games of the luck-vs-skill figure per rule set (0: none).
    #[arg(long, default_value_t = 100)]
    skill_games: u64,
    /// Worker threads (default: every available core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write SVG charts of the run into this directory (docs/compare.md).
    #[arg(long, value_name = "DIR")]
    charts: Option<PathBuf>,
}

/// The luck-vs-skill figure of one rule set.
#[derive(Clone, Debug, Serialize)]
pub struct SkillReport {
    pub rules: String,
    pub strong: String,
    pub weak: String,
    /// Win share of the strong bot (ties shared), with its 95% interval.
    pub win_rate: MeanCi,
}

/// What `compare --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct CompareReport {
    pub format: &'static str,
    pub seed: u64,
    pub games: u64,
    pub players: usize,
    pub rotate_seats: bool,
    pub conditions: Vec<ConditionInfo>,
    pub measures: Vec<MeasureReport>,
    pub luck_vs_skill: Vec<SkillReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConditionInfo {
    pub label: String,
    pub rules: String,
    pub file: String,
    pub lineup: Vec<String>,
}

fn check_lineup(flag: &str, list: &str, players: usize) -> Result<Vec<String>, CliError> {
    let bots: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
    for b in &bots {
        crate::bots::make_bot(b, 0, 0).map_err(|e| CliError::input(format!("{flag} {list}: {e}")))?;
    }
    if bots.len() != players {
        return Err(CliError::input(format!(
            "{flag} {list}: names {} bot{}, but the games have {players} players (one bot per seat)",
            bots.len(),
            if bots.len() == 1 { "" } else { "s" }
        )));
    }
    Ok(bots)
}

pub fn run(a: CompareArgs) -> Result<(), CliError> {
    if a.games < 2 {
        return Err(CliError::input(format!("--games {}: at least 2 games are needed for an interval", a.games)));
    }
    let files = if a.rules.is_empty() { vec![DEFAULT_RULES.to_string()] } else { a.rules.clone() };
    if files.len() < 2 && a.lineups.len() < 2 {
        return Err(CliError::input(
            "compare: give two or more --rules, or one rule set and two or more --lineup (nothing to compare)",
        ));
    }
    let mut sets = Vec::new();
    for f in &files {
        let (rules, _) = load_rules_file(f).map_err(|e| CliError::input(crate::one_line(&e.to_string())))?;
        sets.push((f.clone(), rules));
    }
    let players = a.players.unwrap_or(sets[0].1.default_players);
    for (_, r) in &sets {
        if players < r.min_players.max(2) || players > r.max_players {
            return Err(CliError::input(format!(
                "--players {players}: rule set '{}' allows {} to {}",
                r.name,
                r.min_players.max(2),
                r.max_players
            )));
        }
    }
    let lineups: Vec<Vec<String>> = if a.lineups.is_empty() {
        vec![(0..players).map(|s| if s == 0 { "greedy".to_string() } else { "random".to_string() }).collect()]
    } else {
        a.lineups.iter().map(|l| check_lineup("--lineup", l, players)).collect::<Result<_, _>>()?
    };
    for (flag, b) in [("--strong", &a.strong), ("--weak", &a.weak)] {
        crate::bots::make_bot(b, 0, 0).map_err(|e| CliError::input(format!("{flag}: {e}")))?;
    }
    let threads = match a.threads {
        Some(0) => return Err(CliError::input("--threads 0: at least one thread is needed")),
        Some(t) => t.min(1024),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if let Some(out) = &a.output {
        crate::cmd_simulate::check_output(out)?;
    }
    if let Some(dir) = &a.charts {
        crate::charts::prepare_dir(dir)?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start {threads} threads: {e}")))?;

    let mut conds = Vec::new();
    for (file, rules) in &sets {
        for lineup in &lineups {
            let k = conds.len() + 1;
            let label = if lineups.len() > 1 {
                format!("[{k}] {} ({})", rules.name, lineup.join(","))
            } else {
                format!("[{k}] {}", rules.name)
            };
            let rows = pool.install(|| play_rows(rules, lineup, a.games, a.seed, a.rotate_seats))?;
            conds.push(Condition {
                label,
                rules: rules.name.clone(),
                file: file.clone(),
                lineup: lineup.clone(),
                sources: rules.sources.clone(),
                stat_names: rules.stats.clone(),
                rows,
            });
        }
    }
    let mut skill = Vec::new();
    if a.skill_games > 0 {
        for (_, rules) in &sets {
            let lineup: Vec<String> =
                (0..players).map(|s| if s == 0 { a.strong.clone() } else { a.weak.clone() }).collect();
            // Always rotated: the strong bot plays each seat equally often.
            let rows = pool.install(|| play_rows(rules, &lineup, a.skill_games, a.seed, true))?;
            let shares: Vec<f64> = rows
                .iter()
                .map(|r| {
                    let seat = r.bots.iter().position(|b| *b == a.strong).unwrap_or(0);
                    r.win_share(seat)
                })
                .collect();
            skill.push(SkillReport {
                rules: rules.name.clone(),
                strong: a.strong.clone(),
                weak: a.weak.clone(),
                win_rate: MeanCi::of(&shares).clamped(0.0, 1.0),
            });
        }
    }
    let reports: Vec<MeasureReport> = measures(&conds).iter().map(report).collect();
    let rep = CompareReport {
        format: "carcassonne-compare/1",
        seed: a.seed,
        games: a.games,
        players,
        rotate_seats: a.rotate_seats,
        conditions: conds
            .iter()
            .map(|c| ConditionInfo {
                label: c.label.clone(),
                rules: c.rules.clone(),
                file: c.file.clone(),
                lineup: c.lineup.clone(),
            })
            .collect(),
        measures: reports,
        luck_vs_skill: skill,
    };
    if let Some(dir) = &a.charts {
        crate::charts::compare_charts(dir, &conds, &rep).map_err(CliError::failure)?;
    }
    let text = if a.json { serde_json::to_string(&rep).map_err(CliError::failure)? + "\n" } else { render_text(&rep) };
    match &a.output {
        Some(path) => write_atomic(path, text.as_bytes())
            .map_err(|e| CliError::input(format!("--output {}: {e}", path.display()))),
        None => crate::output::print_out(&text),
    }
}

/// The report as a table: a row per measure; per condition its mean [interval]; per
/// later condition the difference to the first [interval], `*` when significant.
pub fn render_text(rep: &CompareReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games per condition, seed {}, {} players, seats {}",
        rep.games,
        rep.seed,
        rep.players,
        if rep.rotate_seats { "rotated" } else { "fixed" }
    );
    for c in &rep.conditions {
        let _ = writeln!(out, "{}: {} ({}), line-up {}", c.label, c.rules, c.file, c.lineup.join(","));
    }
    let _ =
        writeln!(out, "values: mean [95% interval]; differences: condition minus [1], * when the interval excludes 0");
    let _ = writeln!(out);
    let mut header = vec!["measure".to_string()];
    for c in &rep.conditions {
        header.push(c.label.clone());
    }
    for c in rep.conditions.iter().skip(1) {
        header.push(format!("{} - [1]", c.label.split(']').next().unwrap_or("").to_string() + "]"));
    }
    let fmt = |ci: &MeanCi| format!("{:.3} [{:.3}, {:.3}]", ci.mean, ci.low, ci.high);
    let mut rows = vec![header];
    for m in &rep.measures {
        let mut row = vec![m.name.clone()];
        for v in &m.values {
            row.push(v.as_ref().map_or("-".into(), fmt));
        }
        for d in &m.differences {
            row.push(
                d.as_ref().map_or("-".into(), |d| format!("{}{}", fmt(&d.ci), if d.significant { " *" } else { "" })),
            );
        }
        rows.push(row);
    }
    let cols = rows[0].len();
    let widths: Vec<usize> = (0..cols).map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0)).collect();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| if i == 0 { format!("{c:w$}", w = widths[0]) } else { format!("{c:>w$}", w = widths[i]) })
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    if !rep.luck_vs_skill.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "luck vs skill (win rate of the strong bot against the weak ones; the closer to 1/players, the more luck):"
        );
        for s in &rep.luck_vs_skill {
            let _ = writeln!(
                out,
                "{}: {} vs {}: {:.1}% [{:.1}%, {:.1}%] over {} games",
                s.rules,
                s.strong,
                s.weak,
                s.win_rate.mean * 100.0,
                s.win_rate.low * 100.0,
                s.win_rate.high * 100.0,
                s.win_rate.n
            );
        }
    }
    out
}
