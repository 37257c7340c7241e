//! `--charts DIR`: SVG charts of a `simulate` or `compare` run, drawn with plotters' SVG
//! backend: `scores.svg` (final-score distribution per rule set), `sources.svg` (mean
//! points per game by source), `length.svg` (game-length distribution) and
//! `first-seat.svg` (first-seat advantage with its 95% interval). docs/compare.md.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;

use crate::game_row::GameRow;
use crate::stats::{t975, MeanCi};
use crate::CliError;

/// What the charts show of one rule set (or condition), accumulated game by game.
#[derive(Clone, Debug, Default)]
pub struct ChartData {
    pub label: String,
    pub sources: Vec<String>,
    games: u64,
    /// Final score (every seat) -> count.
    scores: BTreeMap<i64, u64>,
    /// Turns -> games.
    turns: BTreeMap<u64, u64>,
    /// Points per source, summed over seats and games.
    points: Vec<i64>,
    /// Seat 0 minus the others' mean: sum and sum of squares.
    fsa: (f64, f64),
}

impl ChartData {
    pub fn new(label: &str, sources: &[String]) -> ChartData {
        ChartData {
            label: label.to_string(),
            sources: sources.to_vec(),
            points: vec![0; sources.len()],
            ..Default::default()
        }
    }

    /// Adds one game.
    pub fn add(&mut self, r: &GameRow) {
        self.games += 1;
        for &s in &r.scores {
            *self.scores.entry(s).or_insert(0) += 1;
        }
        *self.turns.entry(r.turns).or_insert(0) += 1;
        for (p, src) in self.points.iter_mut().zip(&r.points) {
            *p += src.iter().sum::<i64>();
        }
        let others = r.scores[1..].iter().sum::<i64>() as f64 / (r.scores.len() - 1).max(1) as f64;
        let x = r.scores[0] as f64 - others;
        self.fsa.0 += x;
        self.fsa.1 += x * x;
    }

    /// The first-seat advantage with its 95% interval.
    pub fn first_seat(&self) -> MeanCi {
        let n = self.games as f64;
        let mean = if n > 0.0 { self.fsa.0 / n } else { 0.0 };
        let var = if n > 1.0 { ((self.fsa.1 - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        let half = if n > 1.0 { t975(n - 1.0) * (var / n).sqrt() } else { 0.0 };
        MeanCi { mean, sd: var.sqrt(), n: self.games, low: mean - half, high: mean + half }
    }
}

/// Creates the charts directory (before any game runs).
pub fn prepare_dir(dir: &Path) -> Result<(), CliError> {
    if dir.symlink_metadata().is_ok() && !dir.is_dir() {
        return Err(CliError::input(format!("--charts {}: not a directory", dir.display())));
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::input(format!("--charts {}: {e}", dir.display())))?;
    crate::output::check_writable_dir(dir)
        .map_err(|e| CliError::input(format!("--charts {}: cannot write in this directory: {e}", dir.display())))
}

/// Writes the four charts of `data` (one series or bar per rule set) into `dir`.
pub fn write_charts(dir: &Path, data: &[ChartData]) -> Result<(), String> {
    let err = |file: &str, e: &dyn std::fmt::Display| format!("--charts {}: {e}", dir.join(file).display());
    distribution(&dir.join("scores.svg"), "Final score distribution (every seat)", "score", data, |d| {
        d.scores.iter().map(|(&k, &v)| (k as f64, v as f64 / (d.games as f64 * seats(d)))).collect()
    })
    .map_err(|e| err("scores.svg", &e))?;
    distribution(&dir.join("length.svg"), "Game length distribution", "turns", data, |d| {
        d.turns.iter().map(|(&k, &v)| (k as f64, v as f64 / d.games as f64)).collect()
    })
    .map_err(|e| err("length.svg", &e))?;
    sources(&dir.join("sources.svg"), data).map_err(|e| err("sources.svg", &e))?;
    first_seat(&dir.join("first-seat.svg"), data).map_err(|e| err("first-seat.svg", &e))?;
    Ok(())
}

fn seats(d: &ChartData) -> f64 {
    let total: u64 = d.scores.values().sum();
    if d.games == 0 {
        1.0
    } else {
        (total as f64 / d.games as f64).max(1.0)
    }
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn color(i: usize) -> RGBColor {
    let (r, g, b) = Palette99::pick(i).to_rgba().rgb();
    RGBColor(r, g, b)
}

/// One line per rule set: share of values at each x.
fn distribution(
    path: &Path,
    title: &str,
    x_label: &str,
    data: &[ChartData],
    points: impl Fn(&ChartData) -> Vec<(f64, f64)>,
) -> DrawResult {
    let series: Vec<Vec<(f64, f64)>> = data.iter().map(&points).collect();
    let all = series.iter().flatten();
    let (x0, x1) = all.clone().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let y1 = all.fold(0.0f64, |m, p| m.max(p.1));
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0 - 1.0, x1 + 1.0) };
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0.0..(y1 * 1.1).max(1e-9))?;
    chart.configure_mesh().x_desc(x_label).y_desc("share of games").draw()?;
    for (i, (d, s)) in data.iter().zip(&series).enumerate() {
        let c = color(i);
        chart
            .draw_series(LineSeries::new(s.iter().copied(), c.stroke_width(2)))?
            .label(d.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

/// Mean points per game by source: one bar per rule set in each source's group.
fn sources(path: &Path, data: &[ChartData]) -> DrawResult {
    let mut names: Vec<&str> = Vec::new();
    for d in data {
        for s in &d.sources {
            if !names.contains(&s.as_str()) {
                names.push(s);
            }
        }
    }
    let value = |d: &ChartData, src: &str| {
        d.sources.iter().position(|s| s == src).map_or(0.0, |i| d.points[i] as f64 / d.games.max(1) as f64)
    };
    let y1 = data.iter().flat_map(|d| names.iter().map(move |s| value(d, s))).fold(0.0f64, f64::max);
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let n = names.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption("Points per game by source (all seats)", ("sans-serif", 22))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..(y1 * 1.1).max(1e-9))?;
    let label_of = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).map_or(String::new(), |s| s.to_string())
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&label_of)
        .disable_x_mesh()
        .y_desc("points per game")
        .draw()?;
    let k = data.len().max(1) as f64;
    let w = 0.8 / k;
    for (i, d) in data.iter().enumerate() {
        let c = color(i);
        let bars: Vec<Rectangle<(f64, f64)>> = names
            .iter()
            .enumerate()
            .map(|(j, s)| {
                let x = j as f64 - 0.4 + w * i as f64;
                Rectangle::new([(x, 0.0), (x + w, value(d, s))], c.filled())
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(d.label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

/// The first-seat advantage of each rule set: its mean and 95% interval as an error bar.
fn first_seat(path: &Path, data: &[ChartData]) -> DrawResult {
    let cis: Vec<MeanCi> = data.iter().map(ChartData::first_seat).collect();
    let lo = cis.iter().map(|c| c.low).fold(0.0f64, f64::min);
    let hi = cis.iter().map(|c| c.high).fold(0.0f64, f64::max);
    let pad = ((hi - lo) * 0.1).max(0.5);
    let n = data.len().max(1);
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("First-seat advantage (seat 0 minus the others' mean, 95% interval)", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), (lo - pad)..(hi + pad))?;
    let labels: Vec<String> = data.iter().map(|d| d.label.clone()).collect();
    let label_of = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart.configure_mesh().x_labels(n).x_label_formatter(&label_of).disable_x_mesh().y_desc("points").draw()?;
    chart.draw_series(std::iter::once(PathElement::new(vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)], BLACK)))?;
    for (i, (d, ci)) in data.iter().zip(&cis).enumerate() {
        let c = color(i);
        chart
            .draw_series(std::iter::once(ErrorBar::new_vertical(
                i as f64,
                ci.low,
                ci.mean,
                ci.high,
                c.filled().stroke_width(2),
                12,
            )))?
            .label(d.label.clone())
            .legend(move |(x, y)| Circle::new((x + 5, y), 4, c.filled()));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

/// The charts of a `compare` run: one series per condition.
pub fn compare_charts(
    dir: &Path,
    conds: &[crate::compare::Condition],
    _rep: &crate::cmd_compare::CompareReport,
) -> Result<(), String> {
    let data: Vec<ChartData> = conds
        .iter()
        .map(|c| {
            let mut d = ChartData::new(&c.label, &c.sources);
            for r in &c.rows {
                d.add(r);
            }
            d
        })
        .collect();
    write_charts(dir, &data)
}
