//! `carcassonne merge`: combines the JSON summaries of shards (`simulate --shard I/N
//! --json`) into the summary one run of all their games gives (docs/distributed.md).

use std::path::PathBuf;

use carcassonne_core::record::RecordPlugin;
use clap::Args;
use serde_json::Value;

use crate::cmd_simulate::{check_output, emit};
use crate::summary::{shard_len, Accumulator, ShardInfo, Summary, FORMAT, SUMMARIES_FORMAT};
use crate::CliError;

#[derive(Args)]
pub struct MergeArgs {
    /// Summaries written by `simulate --json` (or `merge --json`).
    #[arg(required = true, value_name = "SUMMARY")]
    files: Vec<PathBuf>,
    /// Print the merged summaries as JSON, as `simulate --json` does, instead of text.
    #[arg(long)]
    json: bool,
    /// Write the merged summary to this file (atomically) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The object `simulate --json` prints, its summaries left as JSON.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SummariesShape {
    #[allow(dead_code)]
    format: String,
    summaries: Vec<Value>,
}

/// Reads a summary file: `simulate --json`'s object (or, as earlier versions wrote, one
/// summary or an array of them).
fn read_summaries(path: &std::path::Path) -> Result<Vec<Summary>, CliError> {
    let shown = path.display();
    let text = carcassonne_core::files::read_text(path).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    let v: Value =
        serde_json::from_str(&text).map_err(|e| CliError::input(format!("{shown}:{}: not JSON: {e}", e.line())))?;
    // `simulate --json`'s object; a bare summary or an array of them (as earlier versions
    // printed) is read too.
    let items = match v {
        Value::Object(m) if m.get("format").and_then(Value::as_str) == Some(SUMMARIES_FORMAT) => {
            match serde_json::from_value::<SummariesShape>(Value::Object(m)) {
                Ok(s) => s.summaries,
                Err(e) => return Err(CliError::input(format!("{shown}: {e}"))),
            }
        }
        Value::Array(items) => items,
        other => vec![other],
    };
    if items.is_empty() {
        return Err(CliError::input(format!("{shown}: it holds no summary")));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(k, item)| {
            let tag = item.get("format").and_then(Value::as_str).unwrap_or("");
            if tag != FORMAT {
                return Err(CliError::input(format!(
                    "{shown}: summary {k} is not a `simulate --json` summary (format \"{tag}\", expected \"{FORMAT}\")"
                )));
            }
            let s = serde_json::from_value::<Summary>(item)
                .map_err(|e| CliError::input(format!("{shown}: summary {k}: {e}")))?;
            check_names(&s).map_err(|e| CliError::input(format!("{shown}: summary {k}: {e}")))?;
            Ok(s)
        })
        .collect()
}

/// Refuses a summary whose names (printed on the terminal) hold control characters.
fn check_names(s: &Summary) -> Result<(), String> {
    use carcassonne_core::error::check_printable;
    check_printable("rules.name", &s.rules.name)?;
    check_printable("rules.file", &s.rules.file)?;
    s.plugins.iter().try_for_each(|p| check_printable("plugin name", &p.name))?;
    s.bots.iter().try_for_each(|b| check_printable("bot name", b))?;
    s.points_by_source.iter().try_for_each(|p| check_printable("score source", &p.source))?;
    s.stats.iter().try_for_each(|st| check_printable("statistic", &st.name))
}

/// The shards a summary covers: (count, indices); a whole run is shard 0 of 1.
fn shards_of(s: &Summary) -> (u64, Vec<u64>) {
    match &s.shard {
        Some(sh) => (sh.count, sh.indices.clone()),
        None => (1, vec![0]),
    }
}

/// The first difference between two resolved plugin lists: (what, in `a`, in `b`).
fn plugin_difference(a: &[RecordPlugin], b: &[RecordPlugin]) -> (String, String, String) {
    let shown = |p: Option<&RecordPlugin>| p.map_or("none".to_string(), |p| format!("'{}'", p.name));
    for k in 0..a.len().max(b.len()) {
        let (pa, pb) = (a.get(k), b.get(k));
        let (Some(x), Some(y)) = (pa, pb) else {
            return (format!("plugin {}", k + 1), shown(pa), shown(pb));
        };
        if x.name != y.name {
            return (format!("plugin {}", k + 1), shown(pa), shown(pb));
        }
        if x.priority != y.priority {
            return (format!("plugin '{}' priority", x.name), x.priority.to_string(), y.priority.to_string());
        }
        if x.options != y.options {
            if let (Value::Object(ox), Value::Object(oy)) = (&x.options, &y.options) {
                let keys = ox.keys().chain(oy.keys().filter(|key| !ox.contains_key(*key)));
                for key in keys {
                    let (vx, vy) = (ox.get(key), oy.get(key));
                    if vx != vy {
                        let v = |o: Option<&Value>| o.map_or("(absent)".to_string(), Value::to_string);
                        return (format!("plugin '{}' option {key}", x.name), v(vx), v(vy));
                    }
                }
            }
            return (format!("plugin '{}' options", x.name), x.options.to_string(), y.options.to_string());
        }
    }
    ("plugins".into(), "?".into(), "?".into())
}

/// Merges the summaries of one rule set (one per file, `names` for messages).
pub fn merge(parts: &[Summary], names: &[String]) -> Result<Summary, String> {
    let first = &parts[0];
    let (count, _) = shards_of(first);
    let mut covered: Vec<u64> = Vec::new();
    let mut total: Option<Accumulator> = None;
    let mut wall = 0.0;
    let mut threads = 0;
    for (s, name) in parts.iter().zip(names) {
        let differ = |what: &str, a: String, b: String| {
            Err(format!(
                "{name}: cannot merge summaries of different runs: {what} {b} differs from {a} in {}",
                names[0]
            ))
        };
        if s.rules.name != first.rules.name || s.rules.digest != first.rules.digest {
            return differ(
                "rule set",
                format!("'{}' (digest {})", first.rules.name, first.rules.digest),
                format!("'{}' (digest {})", s.rules.name, s.rules.digest),
            );
        }
        if s.plugins != first.plugins {
            let (what, a, b) = plugin_difference(&first.plugins, &s.plugins);
            return differ(&format!("rule set '{}': {what}", s.rules.name), a, b);
        }
        if s.engine_version != first.engine_version {
            return differ("engine version", first.engine_version.clone(), s.engine_version.clone());
        }
        if s.seed != first.seed {
            return differ("seed", first.seed.to_string(), s.seed.to_string());
        }
        if s.players != first.players {
            return differ("players", first.players.to_string(), s.players.to_string());
        }
        if s.bots != first.bots {
            return differ("bots", first.bots.join(","), s.bots.join(","));
        }
        if s.games_total != first.games_total {
            return differ("--games", first.games_total.to_string(), s.games_total.to_string());
        }
        let (n, idx) = shards_of(s);
        if n != count {
            return differ("shard count", count.to_string(), n.to_string());
        }
        let expected = idx.iter().try_fold(0u64, |sum, &i| sum.checked_add(shard_len(s.games_total, i, n)));
        if idx.iter().any(|&i| i >= n) || Some(s.games) != expected {
            let expected = expected.map_or("more than 2^64".to_string(), |e| e.to_string());
            return Err(format!(
                "{name}: inconsistent summary: shards {idx:?} of {n} hold {expected} games, it counts {}",
                s.games
            ));
        }
        for i in idx {
            if covered.contains(&i) {
                return Err(format!(
                    "{name}: shard {i} of {n} is already in another summary; each shard may be merged once"
                ));
            }
            covered.push(i);
        }
        let acc = Accumulator::from_summary(s).map_err(|e| format!("{name}: {e}"))?;
        match &mut total {
            None => total = Some(acc),
            Some(t) => {
                if t.sources != acc.sources || t.stat_names != acc.stat_names {
                    return Err(format!("{name}: score sources or statistics differ from {}", names[0]));
                }
                t.merge(&acc).map_err(|e| format!("{name}: cannot add its totals: {e}"))?
            }
        }
        wall += s.wall_seconds;
        threads = threads.max(s.threads);
    }
    covered.sort_unstable();
    let mut run = first.run_info();
    run.shard = if covered.len() as u64 == count { None } else { Some(ShardInfo { count, indices: covered }) };
    Ok(total.expect("at least one summary").summary(&run, threads, wall))
}

pub fn run(a: MergeArgs) -> Result<(), CliError> {
    if let Some(out) = &a.output {
        check_output(out)?;
    }
    let mut files = Vec::new();
    for f in &a.files {
        files.push(read_summaries(f)?);
    }
    let names: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
    let width = files[0].len();
    if let Some(k) = files.iter().position(|f| f.len() != width) {
        return Err(CliError::input(format!(
            "{}: holds {} summaries, {} holds {width}: the runs had different --rules",
            names[k],
            files[k].len(),
            names[0]
        )));
    }
    let mut merged = Vec::new();
    for r in 0..width {
        let parts: Vec<Summary> = files.iter().map(|f| f[r].clone()).collect();
        merged.push(merge(&parts, &names).map_err(CliError::input)?);
    }
    emit(&merged, a.json, a.output.as_deref())
}
