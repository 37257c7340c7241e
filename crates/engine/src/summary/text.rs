//! The text form of `simulate` summaries: one column per rule set.

use super::Summary;

/// Text of summaries side by side (one column per rule set).
pub fn render_text(sums: &[Summary]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let first = &sums[0];
    let seat_max = sums.iter().map(|s| s.players).max().unwrap_or(0);
    let all_same = |f: &dyn Fn(&Summary) -> String| sums.iter().all(|s| f(s) == f(first));
    let _ = writeln!(
        out,
        "{} game{}{}, seed {}{}",
        first.games,
        if first.games == 1 { "" } else { "s" },
        if sums.len() > 1 { " per rule set" } else { "" },
        first.seed,
        match &first.shard {
            Some(sh) => format!(
                " (shard{} {} of {}, {} games in the whole run)",
                if sh.indices.len() == 1 { "" } else { "s" },
                sh.indices.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
                sh.count,
                first.games_total
            ),
            None => String::new(),
        }
    );
    for (i, s) in sums.iter().enumerate() {
        let label = if sums.len() > 1 { format!("[{}] ", i + 1) } else { String::new() };
        let _ = writeln!(out, "{label}rules: {} ({})", s.rules.name, s.rules.file);
        let pl: Vec<String> =
            s.plugins.iter().map(|p| format!("{} (priority {}) {}", p.name, p.priority, p.options)).collect();
        let _ = writeln!(out, "{}plugins: {}", " ".repeat(label.len()), pl.join("; "));
    }
    if all_same(&|s| format!("{} {:?}", s.players, s.bots)) {
        let _ = writeln!(out, "seats: {}", seats_line(&first.bots));
    } else {
        for (i, s) in sums.iter().enumerate() {
            let _ = writeln!(out, "seats [{}]: {}", i + 1, seats_line(&s.bots));
        }
    }
    let _ = writeln!(out);

    // The table: one row label, one column per rule set.
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let dash = || "-".to_string();
    let mut row = |label: String, f: &dyn Fn(&Summary) -> Option<String>| {
        rows.push((label, sums.iter().map(|s| f(s).unwrap_or_else(dash)).collect()));
    };
    row("games".into(), &|s| Some(s.games.to_string()));
    for seat in 0..seat_max {
        row(format!("seat {seat} mean score"), &|s| s.mean_score.get(seat).map(|v| format!("{v:.2}")));
        row(format!("seat {seat} median score"), &|s| s.median_score.get(seat).map(|v| format!("{v}")));
        row(format!("seat {seat} score std dev"), &|s| s.sd_score.get(seat).map(|v| format!("{v:.2}")));
        row(format!("seat {seat} win rate"), &|s| s.win_rate.get(seat).map(|v| format!("{:.1}%", v * 100.0)));
    }
    row("tied games".into(), &|s| Some(s.tied_games.to_string()));
    row("mean game length (turns)".into(), &|s| Some(format!("{:.2}", s.mean_turns)));
    row("tiles discarded".into(), &|s| Some(format!("{} ({:.3}/game)", s.discarded, s.mean_discarded)));
    let mut sources: Vec<&str> = Vec::new();
    let mut stats: Vec<&str> = Vec::new();
    for s in sums {
        for p in &s.points_by_source {
            if !sources.contains(&p.source.as_str()) {
                sources.push(&p.source);
            }
        }
        for p in &s.stats {
            if !stats.contains(&p.name.as_str()) {
                stats.push(&p.name);
            }
        }
    }
    for src in &sources {
        row(format!("{src} points/game by seat"), &|s| {
            s.points_by_source
                .iter()
                .find(|p| p.source == *src)
                .map(|p| p.mean.iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(" / "))
        });
    }
    for st in &stats {
        row(format!("{st} (total, per game)"), &|s| {
            s.stats.iter().find(|p| p.name == *st).map(|p| format!("{} ({:.3})", p.total, p.mean))
        });
    }
    row("wall time".into(), &|s| Some(format!("{:.2} s", s.wall_seconds)));
    row("games per second".into(), &|s| Some(format!("{:.1}", s.games_per_second)));

    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let mut widths: Vec<usize> = sums
        .iter()
        .enumerate()
        .map(|(i, s)| if sums.len() > 1 { format!("[{}] {}", i + 1, s.rules.name).len() } else { 0 })
        .collect();
    for (_, cells) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(c.len());
        }
    }
    if sums.len() > 1 {
        let _ = write!(out, "{:w0$}", "");
        for (i, s) in sums.iter().enumerate() {
            let _ = write!(out, "  {:>w$}", format!("[{}] {}", i + 1, s.rules.name), w = widths[i]);
        }
        let _ = writeln!(out);
    }
    for (label, cells) in &rows {
        let _ = write!(out, "{label:w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {c:>w$}");
        }
        let _ = writeln!(out);
    }
    out
}

fn seats_line(bots: &[String]) -> String {
    bots.iter().enumerate().map(|(i, b)| format!("seat {i} {b}")).collect::<Vec<_>>().join(", ")
}
