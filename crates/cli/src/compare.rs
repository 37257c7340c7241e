//! The measures `compare` reports (docs/compare.md): per condition (a rule set with a bot
//! line-up), one value per game for each measure; per measure the mean with its 95%
//! interval, and against the first condition the paired difference (same seeds) with its
//! interval, marked significant when the interval excludes 0.

use std::sync::Arc;

use carcassonne_core::{Rng, Rules};
use rayon::prelude::*;
use serde::Serialize;

use crate::driver::play_game;
use crate::CliError;

use crate::game_row::GameRow;
use crate::stats::MeanCi;

/// The games of one condition, in game order, and what names its numbers.
pub struct Condition {
    /// `[k] rules-name` with the line-up when several line-ups are compared.
    pub label: String,
    pub rules: String,
    pub file: String,
    pub lineup: Vec<String>,
    pub sources: Vec<String>,
    pub stat_names: Vec<String>,
    pub rows: Vec<GameRow>,
}

/// One measure: its name and, per condition, one value per game (None: the condition has
/// no such measure, e.g. a source of another rule set's plugin).
pub struct Measure {
    pub name: String,
    pub per_condition: Vec<Option<Vec<f64>>>,
}

/// A measure's figures in a report.
#[derive(Clone, Debug, Serialize)]
pub struct MeasureReport {
    pub name: String,
    /// Per condition: the mean with its 95% interval (null when the condition has none).
    pub values: Vec<Option<MeanCi>>,
    /// Per condition after the first: the paired difference (condition minus the first),
    /// null when either has no such measure.
    pub differences: Vec<Option<Difference>>,
}

/// A paired difference against the first condition.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// Index of the condition compared with condition 0.
    pub condition: usize,
    #[serde(flatten)]
    pub ci: MeanCi,
    /// The 95% interval excludes 0.
    pub significant: bool,
}

/// Every measure of the conditions (docs/compare.md lists them).
pub fn measures(conds: &[Condition]) -> Vec<Measure> {
    let mut out = Vec::new();
    let players = conds.iter().map(|c| c.lineup.len()).max().unwrap_or(0);
    let mut push = |name: String, f: &dyn Fn(&Condition) -> Option<Vec<f64>>| {
        out.push(Measure { name, per_condition: conds.iter().map(f).collect() });
    };
    push("mean score (all seats)".into(), &|c| {
        Some(c.rows.iter().map(|r| r.scores.iter().sum::<i64>() as f64 / r.scores.len() as f64).collect())
    });
    for seat in 0..players {
        push(format!("mean score seat {seat}"), &|c| {
            (seat < c.lineup.len()).then(|| c.rows.iter().map(|r| r.scores[seat] as f64).collect())
        });
    }
    push("first-seat advantage (seat 0 minus the others' mean)".into(), &|c| {
        Some(
            c.rows
                .iter()
                .map(|r| {
                    let others = r.scores[1..].iter().sum::<i64>() as f64 / (r.scores.len() - 1).max(1) as f64;
                    r.scores[0] as f64 - others
                })
                .collect(),
        )
    });
    let mut bots: Vec<&str> = Vec::new();
    for c in conds {
        for b in &c.lineup {
            if !bots.contains(&b.as_str()) {
                bots.push(b);
            }
        }
    }
    for bot in bots {
        push(format!("win rate {bot}"), &|c| {
            c.lineup.iter().any(|b| b == bot).then(|| {
                c.rows
                    .iter()
                    .map(|r| {
                        let seats: Vec<usize> = (0..r.bots.len()).filter(|&s| r.bots[s] == bot).collect();
                        seats.iter().map(|&s| r.win_share(s)).sum::<f64>() / seats.len().max(1) as f64
                    })
                    .collect()
            })
        });
    }
    push("game length (turns)".into(), &|c| Some(c.rows.iter().map(|r| r.turns as f64).collect()));
    let mut sources: Vec<&str> = Vec::new();
    let mut stats: Vec<&str> = Vec::new();
    for c in conds {
        for s in &c.sources {
            if !sources.contains(&s.as_str()) {
                sources.push(s);
            }
        }
        for s in &c.stat_names {
            if !stats.contains(&s.as_str()) {
                stats.push(s);
            }
        }
    }
    for src in sources {
        push(format!("points {src} (all seats)"), &|c| {
            let i = c.sources.iter().position(|s| s == src)?;
            Some(c.rows.iter().map(|r| r.points[i].iter().sum::<i64>() as f64).collect())
        });
    }
    for st in stats {
        push(format!("stat {st}"), &|c| {
            let i = c.stat_names.iter().position(|s| s == st)?;
            Some(c.rows.iter().map(|r| r.stats[i] as f64).collect())
        });
    }
    out
}

/// The figures of a measure: each condition's mean and interval, and each later
/// condition's paired difference with the first.
pub fn report(m: &Measure) -> MeasureReport {
    // A win rate's interval stays within 0..=1.
    let share = m.name.starts_with("win rate");
    let values: Vec<Option<MeanCi>> = m
        .per_condition
        .iter()
        .map(|v| v.as_deref().map(|v| if share { MeanCi::of(v).clamped(0.0, 1.0) } else { MeanCi::of(v) }))
        .collect();
    let differences = (1..m.per_condition.len())
        .map(|k| {
            let (Some(base), Some(other)) = (&m.per_condition[0], &m.per_condition[k]) else { return None };
            let ci = paired_difference(base, other);
            Some(Difference { condition: k, significant: ci.excludes_zero(), ci })
        })
        .collect();
    MeasureReport { name: m.name.clone(), values, differences }
}

/// Mean and 95% interval of `other[i] - base[i]` (games paired by seed).
pub fn paired_difference(base: &[f64], other: &[f64]) -> MeanCi {
    let d: Vec<f64> = base.iter().zip(other).map(|(a, b)| b - a).collect();
    MeanCi::of(&d)
}

/// Bots of game `index`: the line-up turned by `index` seats when rotating.
pub fn seats_of(lineup: &[String], index: u64, rotate: bool) -> Vec<String> {
    let n = lineup.len();
    let r = if rotate { (index % n as u64) as usize } else { 0 };
    (0..n).map(|s| lineup[(s + r) % n].clone()).collect()
}

/// Plays games `0..games` of `rules` with `lineup` (on the current rayon pool); rows in
/// game order, the same for any thread count.
pub fn play_rows(
    rules: &Arc<Rules>,
    lineup: &[String],
    games: u64,
    seed: u64,
    rotate: bool,
) -> Result<Vec<GameRow>, CliError> {
    let players = lineup.len();
    (0..games)
        .into_par_iter()
        .map(|i| {
            let game_seed = Rng::derive(seed, i);
            let bots = seats_of(lineup, i, rotate);
            let g = play_game(rules, players, game_seed, &bots, false).map_err(|e| {
                CliError::failure(format!("rule set '{}', game {i} (seed {game_seed}): {e}", rules.name))
            })?;
            Ok(GameRow::of(&g, i, game_seed, &bots))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotated_seats_give_every_bot_every_seat_equally() {
        let lineup: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(seats_of(&lineup, 1, true), vec!["b", "c", "a"]);
        assert_eq!(seats_of(&lineup, 4, false), lineup);
        let mut count = std::collections::BTreeMap::new();
        for i in 0..9 {
            for (seat, bot) in seats_of(&lineup, i, true).into_iter().enumerate() {
                *count.entry((seat, bot)).or_insert(0) += 1;
            }
        }
        assert_eq!(count.len(), 9);
        assert!(count.values().all(|&n| n == 3), "{count:?}");
    }
}
