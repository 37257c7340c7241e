//! The summary of many games (`simulate`): exact, mergeable totals and the numbers derived
//! from them. docs/simulate.md documents every JSON key.
//!
//! Everything a summary reports is derived from integer totals (score histograms, win
//! shares in sixtieths, turn and point sums), so summing the totals of shards in any order
//! gives exactly the totals of one run, and deriving again gives exactly its numbers.

use std::collections::BTreeMap;

use carcassonne_core::record::RecordPlugin;
use carcassonne_core::{Game, Rules};
use serde::{Deserialize, Serialize};

mod text;
pub use text::render_text;

/// Format tag of summaries.
pub const FORMAT: &str = "carcassonne-summary/1";

/// Format tag of what `simulate --json` and `merge --json` print: [`Summaries`].
pub const SUMMARIES_FORMAT: &str = "carcassonne-simulate/1";

/// What `simulate --json` (and `merge --json`) prints, whether one or several rule sets
/// were run: the summary of each rule set, in the order given.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Summaries {
    /// Always [`SUMMARIES_FORMAT`].
    pub format: String,
    /// One summary per rule set.
    pub summaries: Vec<Summary>,
}

impl Summaries {
    /// The summaries of a run, tagged.
    pub fn new(summaries: Vec<Summary>) -> Summaries {
        Summaries { format: SUMMARIES_FORMAT.to_string(), summaries }
    }
}

/// A k-way tie for the win gives each winner 60/k sixtieths of a win (exact for k <= 6).
pub const WIN_UNITS: u64 = 60;

/// The rule set a summary was played with.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RulesInfo {
    /// Rule-set name.
    pub name: String,
    /// The rule-set file as given (`embedded:...` for a compiled-in one).
    pub file: String,
    /// FNV-1a 64 hash (hex) of the rule-set text, its resolved plugins and its loaded tiles.
    pub digest: String,
}

/// Which shards of a run a summary covers (absent when it covers every game).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ShardInfo {
    /// N of `--shard I/N`.
    pub count: u64,
    /// The shard indices I covered, ascending.
    pub indices: Vec<u64>,
}

/// Points of one score source.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SourcePoints {
    /// Score source (e.g. `city`, `field final`).
    pub source: String,
    /// Mean points per game, per seat.
    pub mean: Vec<f64>,
    /// Total points over all games, per seat.
    pub total: Vec<i64>,
}

/// One plugin statistic.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatSummary {
    /// Statistic name (as the plugin reports it).
    pub name: String,
    /// Mean per game.
    pub mean: f64,
    /// Total over all games.
    pub total: i64,
}

/// The exact totals a summary is derived from (what `merge` adds up).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct Totals {
    /// Turns played, summed over the games.
    pub turns: u64,
    /// Wins per seat in sixtieths (a k-way tie gives each winner 60/k).
    pub win_sixtieths: Vec<u64>,
    /// Final-score histogram per seat: `[score, games]` pairs, ascending by score.
    pub score_histogram: Vec<Vec<(i64, u64)>>,
}

/// The summary of a run (or of some shards of it).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Always [`FORMAT`].
    pub format: String,
    /// Version of the engine that played the games.
    pub engine_version: String,
    /// The rule set played.
    pub rules: RulesInfo,
    /// Plugins in resolved order with their resolved options.
    pub plugins: Vec<RecordPlugin>,
    /// `--seed`: game i is played with seed `Rng::derive(seed, i)`.
    pub seed: u64,
    /// Seats of every game.
    pub players: usize,
    /// Bot per seat.
    pub bots: Vec<String>,
    /// `--games`: games of the whole run, over every shard.
    pub games_total: u64,
    /// The shards covered; null when the summary covers all `games_total` games.
    pub shard: Option<ShardInfo>,
    /// Games summarized here.
    pub games: u64,
    /// Per seat: mean final score.
    pub mean_score: Vec<f64>,
    /// Per seat: median final score (exact; the mean of the two middle scores when even).
    pub median_score: Vec<f64>,
    /// Per seat: population standard deviation of the final score.
    pub sd_score: Vec<f64>,
    /// Per seat: lowest final score.
    pub min_score: Vec<i64>,
    /// Per seat: highest final score.
    pub max_score: Vec<i64>,
    /// Per seat: share of games won, ties shared (a k-way tie counts 1/k to each winner).
    pub win_rate: Vec<f64>,
    /// Games whose highest score was shared.
    pub tied_games: u64,
    /// Mean number of turns of a game.
    pub mean_turns: f64,
    /// Tiles discarded as unplaceable, over all games.
    pub discarded: u64,
    /// Tiles discarded per game.
    pub mean_discarded: f64,
    /// Points per score source (in the rule set's order), per seat.
    pub points_by_source: Vec<SourcePoints>,
    /// Statistics the plugins report (e.g. figures eaten by the dragon).
    pub stats: Vec<StatSummary>,
    /// Threads that played the games (the largest, after a merge).
    pub threads: usize,
    /// Wall time of the run (summed over shards after a merge).
    pub wall_seconds: f64,
    /// `games / wall_seconds`.
    pub games_per_second: f64,
    /// The exact totals the numbers above are derived from.
    pub totals: Totals,
}

/// What identifies a run: everything but the games actually played and the timing.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// The rule set played.
    pub rules: RulesInfo,
    /// Plugins in resolved order with their resolved options.
    pub plugins: Vec<RecordPlugin>,
    /// Seed of the run.
    pub seed: u64,
    /// Seats of every game.
    pub players: usize,
    /// Bot per seat.
    pub bots: Vec<String>,
    /// Games of the whole run, over every shard.
    pub games_total: u64,
    /// The shards covered (None: all of them).
    pub shard: Option<ShardInfo>,
}

impl RunInfo {
    /// The run of `rules` (from `file` with `text`) by `bots`, one per seat.
    pub fn new(
        rules: &Rules,
        file: &str,
        text: &str,
        seed: u64,
        bots: Vec<String>,
        games_total: u64,
        shard: Option<ShardInfo>,
    ) -> RunInfo {
        RunInfo {
            rules: RulesInfo { name: rules.name.clone(), file: file.to_string(), digest: rules_digest(rules, text) },
            plugins: plugins_of(rules),
            seed,
            players: bots.len(),
            bots,
            games_total,
            shard,
        }
    }
}

/// Plugins in resolved order, as records name them.
pub fn plugins_of(rules: &Rules) -> Vec<RecordPlugin> {
    rules
        .plugins
        .iter()
        .map(|p| RecordPlugin { name: p.name.clone(), priority: p.priority, options: p.options.clone() })
        .collect()
}

/// FNV-1a 64 of the rule-set text, the resolved plugins and the loaded tiles, in hex.
pub fn rules_digest(rules: &Rules, text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(text.as_bytes());
    eat(serde_json::to_string(&plugins_of(rules)).unwrap_or_default().as_bytes());
    eat(format!("{:?}", rules.catalog.tiles).as_bytes());
    eat(format!("{:?}{:?}", rules.catalog.marker_names, rules.catalog.modifier_names).as_bytes());
    format!("{h:016x}")
}

/// Running totals of games of one rule set; games can be added and accumulators merged in
/// any order with the same result (integers only).
#[derive(Clone, Debug, PartialEq)]
pub struct Accumulator {
    /// Seats of every game.
    pub players: usize,
    /// Score sources, in the rule set's order.
    pub sources: Vec<String>,
    /// Plugin statistics, in the rule set's order.
    pub stat_names: Vec<String>,
    /// Games added.
    pub games: u64,
    /// Turns, summed.
    pub turns: u64,
    /// Tiles discarded, summed.
    pub discarded: u64,
    /// Games whose highest score was shared.
    pub tied_games: u64,
    /// Wins per seat in sixtieths (a k-way tie gives each winner 60/k).
    pub win_sixtieths: Vec<u64>,
    /// Final-score histogram per seat: games by score.
    pub histogram: Vec<BTreeMap<i64, u64>>,
    /// `[source][seat]`.
    pub points: Vec<Vec<i64>>,
    /// Statistic totals, in `stat_names` order.
    pub stats: Vec<i64>,
}

impl Accumulator {
    /// An empty accumulator for `players` seats with these score sources and statistics.
    pub fn new(players: usize, sources: Vec<String>, stat_names: Vec<String>) -> Accumulator {
        Accumulator {
            players,
            points: vec![vec![0; players]; sources.len()],
            stats: vec![0; stat_names.len()],
            sources,
            stat_names,
            games: 0,
            turns: 0,
            discarded: 0,
            tied_games: 0,
            win_sixtieths: vec![0; players],
            histogram: vec![BTreeMap::new(); players],
        }
    }

    /// An empty accumulator for games of `rules`.
    pub fn for_rules(rules: &Rules, players: usize) -> Accumulator {
        Accumulator::new(players, rules.sources.clone(), rules.stats.clone())
    }

    /// Adds a finished game.
    pub fn add_game(&mut self, game: &Game) {
        let st = &game.st;
        let scores: Vec<i64> = st.scores().iter().map(|&s| s as i64).collect();
        let points: Vec<Vec<i64>> = (0..self.sources.len())
            .map(|src| (0..self.players).map(|seat| st.points_by_source[seat][src] as i64).collect())
            .collect();
        self.add(&scores, st.turn.saturating_sub(1) as u64, st.discarded as u64, &points, &st.stats);
    }

    /// Adds one game given by its numbers: final scores per seat, turns, tiles discarded,
    /// points `[source][seat]` and plugin statistics.
    pub fn add(&mut self, scores: &[i64], turns: u64, discarded: u64, points: &[Vec<i64>], stats: &[i64]) {
        self.games += 1;
        self.turns += turns;
        self.discarded += discarded;
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = scores.iter().filter(|&&s| s == best).count() as u64;
        if winners > 1 {
            self.tied_games += 1;
        }
        for (seat, &s) in scores.iter().enumerate().take(self.players) {
            *self.histogram[seat].entry(s).or_insert(0) += 1;
            if s == best {
                self.win_sixtieths[seat] += WIN_UNITS / winners;
            }
        }
        for (src, per_seat) in points.iter().enumerate().take(self.sources.len()) {
            for (seat, &p) in per_seat.iter().enumerate().take(self.players) {
                self.points[src][seat] += p;
            }
        }
        for (i, &v) in stats.iter().enumerate().take(self.stats.len()) {
            self.stats[i] += v;
        }
    }

    /// Adds another accumulator of the same rule set and seats; fails naming the total
    /// whose sum does not fit (`self` is then partly added: callers stop). Called once per
    /// work unit of `simulate`: the field names are formatted only on failure.
    pub fn merge(&mut self, o: &Accumulator) -> Result<(), String> {
        let m = self;
        add_u64(&mut m.games, o.games, || "games".into())?;
        add_u64(&mut m.turns, o.turns, || "totals.turns".into())?;
        add_u64(&mut m.discarded, o.discarded, || "discarded".into())?;
        add_u64(&mut m.tied_games, o.tied_games, || "tied_games".into())?;
        for seat in 0..m.players {
            add_u64(&mut m.win_sixtieths[seat], o.win_sixtieths[seat], || format!("totals.win_sixtieths[{seat}]"))?;
            for (&s, &c) in &o.histogram[seat] {
                add_u64(m.histogram[seat].entry(s).or_insert(0), c, || {
                    format!("totals.score_histogram[{seat}] (score {s})")
                })?;
            }
        }
        for ((mine, theirs), src) in m.points.iter_mut().zip(&o.points).zip(&m.sources) {
            for (seat, (a, b)) in mine.iter_mut().zip(theirs).enumerate() {
                add_i64(a, *b, || format!("points_by_source '{src}' total[{seat}]"))?;
            }
        }
        for ((a, b), name) in m.stats.iter_mut().zip(&o.stats).zip(&m.stat_names) {
            add_i64(a, *b, || format!("stats '{name}' total"))?;
        }
        Ok(())
    }

    /// Rebuilds the accumulator of a summary from its totals (checking they agree).
    pub fn from_summary(s: &Summary) -> Result<Accumulator, String> {
        let players = s.players;
        let bad = |what: &str| Err(format!("inconsistent summary: {what}"));
        if s.totals.score_histogram.len() != players || s.totals.win_sixtieths.len() != players {
            return bad("totals do not have one entry per seat");
        }
        let mut acc = Accumulator::new(
            players,
            s.points_by_source.iter().map(|p| p.source.clone()).collect(),
            s.stats.iter().map(|p| p.name.clone()).collect(),
        );
        acc.games = s.games;
        acc.turns = s.totals.turns;
        acc.discarded = s.discarded;
        acc.tied_games = s.tied_games;
        acc.win_sixtieths = s.totals.win_sixtieths.clone();
        for (seat, h) in s.totals.score_histogram.iter().enumerate() {
            let mut counted = Some(0u64);
            for &(score, count) in h {
                let field = || format!("totals.score_histogram[{seat}] (score {score})");
                add_u64(acc.histogram[seat].entry(score).or_insert(0), count, field)?;
                counted = counted.and_then(|n| n.checked_add(count));
            }
            if counted != Some(s.games) {
                return bad("a score histogram does not count every game");
            }
        }
        for (src, p) in s.points_by_source.iter().enumerate() {
            if p.total.len() != players {
                return bad("points_by_source does not have one total per seat");
            }
            acc.points[src] = p.total.clone();
        }
        acc.stats = s.stats.iter().map(|x| x.total).collect();
        let shares = acc.win_sixtieths.iter().try_fold(0u64, |n, &w| n.checked_add(w));
        if shares.is_none() || shares != s.games.checked_mul(WIN_UNITS) {
            return bad("win shares do not add up to one per game");
        }
        Ok(acc)
    }

    /// The summary of these games.
    pub fn summary(&self, run: &RunInfo, threads: usize, wall_seconds: f64) -> Summary {
        let n = self.games as f64;
        let div = |x: f64| if self.games == 0 { 0.0 } else { x / n };
        let mut mean_score = Vec::new();
        let mut median_score = Vec::new();
        let mut sd_score = Vec::new();
        let mut min_score = Vec::new();
        let mut max_score = Vec::new();
        for h in &self.histogram {
            let (mean, var) = mean_and_variance(h, self.games);
            mean_score.push(mean);
            sd_score.push(var.max(0.0).sqrt());
            median_score.push(median(h, self.games));
            min_score.push(h.keys().next().copied().unwrap_or(0));
            max_score.push(h.keys().next_back().copied().unwrap_or(0));
        }
        Summary {
            format: FORMAT.into(),
            engine_version: env!("CARGO_PKG_VERSION").into(),
            rules: run.rules.clone(),
            plugins: run.plugins.clone(),
            seed: run.seed,
            players: run.players,
            bots: run.bots.clone(),
            games_total: run.games_total,
            shard: run.shard.clone(),
            games: self.games,
            mean_score,
            median_score,
            sd_score,
            min_score,
            max_score,
            win_rate: self.win_sixtieths.iter().map(|&w| div(w as f64 / WIN_UNITS as f64)).collect(),
            tied_games: self.tied_games,
            mean_turns: div(self.turns as f64),
            discarded: self.discarded,
            mean_discarded: div(self.discarded as f64),
            points_by_source: self
                .sources
                .iter()
                .zip(&self.points)
                .map(|(name, per_seat)| SourcePoints {
                    source: name.clone(),
                    mean: per_seat.iter().map(|&p| div(p as f64)).collect(),
                    total: per_seat.clone(),
                })
                .collect(),
            stats: self
                .stat_names
                .iter()
                .zip(&self.stats)
                .map(|(name, &t)| StatSummary { name: name.clone(), mean: div(t as f64), total: t })
                .collect(),
            threads,
            wall_seconds,
            games_per_second: if wall_seconds > 0.0 { n / wall_seconds } else { 0.0 },
            totals: Totals {
                turns: self.turns,
                win_sixtieths: self.win_sixtieths.clone(),
                score_histogram: self.histogram.iter().map(|h| h.iter().map(|(&s, &c)| (s, c)).collect()).collect(),
            },
        }
    }
}

/// Adds `b` to the total `field`, failing when the sum does not fit.
fn add_u64(a: &mut u64, b: u64, field: impl FnOnce() -> String) -> Result<(), String> {
    *a = a.checked_add(b).ok_or_else(|| format!("{}: {a} + {b} overflows (more than {})", field(), u64::MAX))?;
    Ok(())
}

/// Adds `b` to the total `field`, failing when the sum does not fit.
fn add_i64(a: &mut i64, b: i64, field: impl FnOnce() -> String) -> Result<(), String> {
    *a = a
        .checked_add(b)
        .ok_or_else(|| format!("{}: {a} + {b} overflows (outside {} to {})", field(), i64::MIN, i64::MAX))?;
    Ok(())
}

/// Mean and population variance of a histogram holding `n` values: from exact integers
/// (`(n*sum(x^2) - sum(x)^2) / n^2`), or in floating point when those do not fit in 128
/// bits (huge scores or counts in a summary given to `merge`).
fn mean_and_variance(h: &BTreeMap<i64, u64>, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let exact = || -> Option<(i128, i128)> {
        let (mut sum, mut sq) = (0i128, 0i128);
        for (&s, &c) in h {
            let sc = (s as i128).checked_mul(c as i128)?;
            sum = sum.checked_add(sc)?;
            sq = sq.checked_add(sc.checked_mul(s as i128)?)?;
        }
        Some((sum, (n as i128).checked_mul(sq)?.checked_sub(sum.checked_mul(sum)?)?))
    };
    let nf = n as f64;
    match exact() {
        Some((sum, var_num)) => (sum as f64 / nf, var_num as f64 / (nf * nf)),
        None => {
            let mean = h.iter().map(|(&s, &c)| s as f64 * c as f64).sum::<f64>() / nf;
            let var = h.iter().map(|(&s, &c)| c as f64 * (s as f64 - mean) * (s as f64 - mean)).sum::<f64>() / nf;
            (mean, var)
        }
    }
}

/// Exact median of a histogram holding `n` values.
fn median(h: &BTreeMap<i64, u64>, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    // 0-based ranks of the middle value(s).
    let (lo, hi) = ((n - 1) / 2, n / 2);
    let mut seen = 0u64;
    let mut lo_v = None;
    for (&s, &c) in h {
        seen += c;
        if lo_v.is_none() && seen > lo {
            lo_v = Some(s);
        }
        if seen > hi {
            return (lo_v.unwrap_or(s) as f64 + s as f64) / 2.0;
        }
    }
    0.0
}

impl Summary {
    /// What identifies the run this summary belongs to.
    pub fn run_info(&self) -> RunInfo {
        RunInfo {
            rules: self.rules.clone(),
            plugins: self.plugins.clone(),
            seed: self.seed,
            players: self.players,
            bots: self.bots.clone(),
            games_total: self.games_total,
            shard: self.shard.clone(),
        }
    }
}

/// Game indices of shard `index` of `count` among `games` games: index, index+count, ...
pub fn shard_games(games: u64, index: u64, count: u64) -> impl Iterator<Item = u64> {
    (index..games).step_by(count.max(1) as usize)
}

/// Games in shard `index` of `count` among `games` games.
pub fn shard_len(games: u64, index: u64, count: u64) -> u64 {
    if index >= games {
        0
    } else {
        (games - index).div_ceil(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc_of(games: &[[i64; 2]]) -> Accumulator {
        let mut a = Accumulator::new(2, vec!["road".into()], vec![]);
        for g in games {
            a.add(g, 10, 1, &[vec![g[0], g[1]]], &[]);
        }
        a
    }

    fn run() -> RunInfo {
        RunInfo {
            rules: RulesInfo { name: "t".into(), file: "t.toml".into(), digest: "0".into() },
            plugins: vec![],
            seed: 1,
            players: 2,
            bots: vec!["random".into(), "random".into()],
            games_total: 4,
            shard: None,
        }
    }

    #[test]
    fn numbers_of_a_small_set() {
        let a = acc_of(&[[10, 20], [30, 30], [5, 1], [7, 9]]);
        let s = a.summary(&run(), 1, 1.0);
        assert_eq!(s.mean_score, vec![13.0, 15.0]);
        assert_eq!(s.median_score, vec![8.5, 14.5]);
        assert_eq!(s.win_rate, vec![1.5 / 4.0, 2.5 / 4.0]);
        assert_eq!(s.tied_games, 1);
        let var0 = [10.0f64, 30.0, 5.0, 7.0].iter().map(|x| (x - 13.0) * (x - 13.0)).sum::<f64>() / 4.0;
        assert!((s.sd_score[0] - var0.sqrt()).abs() < 1e-12);
        assert_eq!(s.mean_turns, 10.0);
        assert_eq!(s.points_by_source[0].total, vec![52, 60]);
    }

    #[test]
    fn merging_equals_one_accumulator() {
        let games = [[10, 20], [30, 30], [5, 1], [7, 9], [3, 3], [40, 2]];
        let whole = acc_of(&games);
        let mut parts = acc_of(&games[4..]);
        parts.merge(&acc_of(&games[..4])).unwrap();
        assert_eq!(whole, parts);
        let s = whole.summary(&run(), 1, 1.0);
        assert_eq!(Accumulator::from_summary(&s).unwrap(), whole);
    }

    #[test]
    fn plugin_stats_are_summed_merged_and_shown() {
        let mut a = Accumulator::new(2, vec!["road".into(), "dragon".into()], vec!["dragon_eaten".into()]);
        a.add(&[3, 5], 70, 0, &[vec![3, 1], vec![0, 4]], &[2]);
        let mut b = Accumulator::new(2, vec!["road".into(), "dragon".into()], vec!["dragon_eaten".into()]);
        b.add(&[6, 0], 71, 2, &[vec![6, 0], vec![0, 0]], &[1]);
        a.merge(&b).unwrap();
        let s = a.summary(&run(), 2, 0.5);
        assert_eq!(s.stats, vec![StatSummary { name: "dragon_eaten".into(), mean: 1.5, total: 3 }]);
        assert_eq!(s.points_by_source[1].source, "dragon");
        assert_eq!(s.points_by_source[1].total, vec![0, 4]);
        assert_eq!(s.discarded, 2);
        assert_eq!(s.games_per_second, 4.0);
        let back = Accumulator::from_summary(&serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap());
        assert_eq!(back.unwrap(), a);
        let text = render_text(&[s]);
        assert!(text.contains("dragon points/game by seat"), "{text}");
        assert!(
            text.lines().any(|l| l.starts_with("dragon_eaten (total, per game)") && l.ends_with("3 (1.500)")),
            "{text}"
        );
    }

    #[test]
    fn shards_partition_the_games() {
        let mut all: Vec<u64> = (0..4).flat_map(|i| shard_games(10, i, 4)).collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!((0..4).map(|i| shard_len(10, i, 4)).collect::<Vec<_>>(), vec![3, 3, 2, 2]);
        assert_eq!(shard_len(3, 5, 8), 0);
    }
}
