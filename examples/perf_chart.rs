//! Draws a grouped bar chart (SVG, with plotters) of measured numbers per rule set, e.g. the
//! instructions per game of docs/performance.md:
//!
//! ```sh
//! cargo run --release --example perf_chart -- docs/perf/issue23.toml docs/perf/issue23.svg
//! ```
//!
//! The TOML file gives `title`, `series` (one name per bar of a group) and `[[rule_sets]]`
//! with `name` and `values` (one per series).

use plotters::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Chart {
    title: String,
    series: Vec<String>,
    rule_sets: Vec<Group>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Group {
    name: String,
    values: Vec<f64>,
}

/// One colour per series (sixteen before one repeats).
const COLOURS: [RGBColor; 16] = [
    RGBColor(144, 164, 174),
    RGBColor(21, 101, 192),
    RGBColor(46, 125, 50),
    RGBColor(211, 47, 47),
    RGBColor(245, 124, 0),
    RGBColor(106, 27, 154),
    RGBColor(0, 131, 143),
    RGBColor(93, 64, 55),
    RGBColor(194, 24, 91),
    RGBColor(175, 180, 43),
    RGBColor(69, 90, 100),
    RGBColor(255, 179, 0),
    RGBColor(33, 33, 33),
    RGBColor(3, 169, 244),
    RGBColor(0, 200, 83),
    RGBColor(255, 64, 129),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: perf_chart DATA.toml OUT.svg");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| fail(&format!("{input}: {e}")));
    let chart: Chart = toml::from_str(&text).unwrap_or_else(|e| fail(&format!("{input}: {e}")));
    if let Some(g) = chart.rule_sets.iter().find(|g| g.values.len() != chart.series.len()) {
        fail(&format!(
            "{input}: rule set '{}' has {} values for {} series",
            g.name,
            g.values.len(),
            chart.series.len()
        ));
    }
    if let Err(e) = draw(&chart, output) {
        fail(&format!("{output}: {e}"));
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(2);
}

fn draw(c: &Chart, output: &str) -> Result<(), Box<dyn std::error::Error>> {
    let groups = c.rule_sets.len();
    let per = c.series.len().max(1) as f64;
    let top = c.rule_sets.iter().flat_map(|g| g.values.iter().copied()).fold(0.0f64, f64::max) * 1.1;
    let root = SVGBackend::new(output, (900, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..groups as f64, 0.0..top.max(1.0))?;
    let names: Vec<String> = c.rule_sets.iter().map(|g| g.name.clone()).collect();
    let label = |x: &f64| {
        let i = (x - 0.5).round();
        if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2 * groups + 1)
        .x_label_formatter(&label)
        .y_desc("thousand instructions")
        .draw()?;
    for (s, name) in c.series.iter().enumerate() {
        let colour = COLOURS[s % COLOURS.len()];
        let bars = c.rule_sets.iter().enumerate().map(move |(g, group)| {
            let x0 = g as f64 + 0.1 + 0.8 * s as f64 / per;
            let x1 = x0 + 0.8 / per;
            Rectangle::new([(x0, 0.0), (x1, group.values[s])], colour.filled())
        });
        chart
            .draw_series(bars)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .draw()?;
    root.present()?;
    Ok(())
}
