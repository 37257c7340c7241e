//! Scoring mechanics of [`State`]: majorities, awarding points, logging and announcing a
//! scoring to the plugins (what scores, and how much, is the plugins' rule).

use super::*;

impl State {
    /// Follower strength per seat in the feature of `n`: each follower's kind strength,
    /// then as the plugins of [`crate::plugin::Hooks::MAJORITY`] adjust it.
    pub fn strengths(&self, rules: &Rules, n: NodeId) -> [u32; MAX_PLAYERS] {
        let mut s = self.kind_strengths(rules, n);
        rules.adjust_strengths(self, self.graph.find(n), &mut s);
        s
    }

    /// Follower strength per seat in the feature of `n` by figure kind alone.
    fn kind_strengths(&self, rules: &Rules, n: NodeId) -> [u32; MAX_PLAYERS] {
        let root = self.graph.find(n);
        let mut s = [0u32; MAX_PLAYERS];
        // The feature's occupancy counts its live followers (NEUTRAL ones too): when only
        // followers have strength, the walk stops at the last of them (none: no strength
        // at all). A count at its cap may be short of the figures: then every one is seen.
        let only_followers = !rules.figure_kinds.iter().any(|k| !k.follower && k.strength > 0);
        let followers = self.graph.followers(root);
        let mut left = if only_followers && followers < u16::MAX as u32 { followers } else { u32::MAX };
        if left == 0 {
            return s;
        }
        for f in self.figures.iter().filter(|f| f.alive && f.owner != NEUTRAL) {
            if let Some(fnode) = f.node {
                if self.graph.find(fnode) == root {
                    let kind = &rules.figure_kinds[f.kind as usize];
                    s[f.owner as usize] += kind.strength as u32;
                    if kind.follower {
                        left -= 1;
                        if left == 0 {
                            break;
                        }
                    }
                }
            }
        }
        s
    }

    /// Seats with the most follower strength in the feature (bit set; 0 if none).
    pub fn majority(&self, rules: &Rules, n: NodeId) -> u8 {
        self.majority_of(rules, n, self.kind_strengths(rules, n))
    }

    /// [`State::majority`] of the feature of `n` from its strengths by figure kind
    /// (`kind_strengths`, as [`State::occupied_features`] gives them): the plugins adjust
    /// them, then break a tie.
    pub fn majority_of(&self, rules: &Rules, n: NodeId, kind_strengths: [u32; MAX_PLAYERS]) -> u8 {
        let mut s = kind_strengths;
        rules.adjust_strengths(self, self.graph.find(n), &mut s);
        let max = *s.iter().max().unwrap_or(&0);
        if max == 0 {
            return 0;
        }
        let winners = (0..self.players).filter(|&p| s[p] == max).fold(0u8, |m, p| m | (1 << p));
        if winners.count_ones() < 2 {
            return winners;
        }
        rules.break_tie(self, self.graph.find(n), &s, winners)
    }

    /// Adds points to a seat, counted under `source`; saturating (docs/options.md: a score
    /// never wraps, whatever a plugin file awards).
    pub fn award(&mut self, player: u8, points: i32, source: u8) {
        let score = &mut self.scores[player as usize];
        *score = score.saturating_add(points);
        let by_source = &mut self.points_by_source[player as usize][source as usize];
        *by_source = by_source.saturating_add(points);
    }

    /// Scores a feature: `points` to each majority holder, logs it and tells every plugin
    /// that subscribes to [`crate::plugin::Hooks::FEATURE_SCORED`].
    pub fn score_feature(&mut self, rules: &Rules, n: NodeId, points: i32, source: u8, final_scoring: bool) {
        let winners = self.majority(rules, n);
        let root = self.graph.find(n);
        if !final_scoring {
            self.graph.set_scored(root);
        }
        let reason = if self.log.is_some() {
            format!("{} {}", rules.sources[source as usize], if final_scoring { "final" } else { "completed" })
        } else {
            String::new()
        };
        self.score_players(rules, Some(root), winners, points, source, final_scoring, &reason);
    }

    /// Awards `points` to each seat of `winners` (a bit set) for the feature of `root`, if
    /// any, without marking it scored; logs it with `reason` and tells every plugin that
    /// subscribes to [`crate::plugin::Hooks::FEATURE_SCORED`]. For scorings that leave the
    /// feature in play or that pay someone else than its majority (a barn paying a field's
    /// farmers, a castle scoring a neighbouring feature's value).
    #[allow(clippy::too_many_arguments)]
    pub fn score_players(
        &mut self,
        rules: &Rules,
        root: Option<NodeId>,
        winners: u8,
        points: i32,
        source: u8,
        final_scoring: bool,
        reason: &str,
    ) {
        self.announce_score(rules, root, winners, points, None, source, final_scoring, reason);
    }

    /// Scores the field of `field` by the completed cities it touches: `per_city` points per
    /// city to each seat of `winners` (a bit set), without marking it scored; logs it with
    /// `reason` and tells the plugins, whose [`ScoreEvent::per_city`] says so (farmers at the
    /// end, barns).
    #[allow(clippy::too_many_arguments)]
    pub fn score_field(
        &mut self,
        rules: &Rules,
        field: NodeId,
        winners: u8,
        per_city: i32,
        source: u8,
        final_scoring: bool,
        reason: &str,
    ) {
        let points = per_city * self.completed_field_cities(rules, field) as i32;
        self.announce_score(rules, Some(field), winners, points, Some(per_city), source, final_scoring, reason);
    }

    #[allow(clippy::too_many_arguments)]
    fn announce_score(
        &mut self,
        rules: &Rules,
        root: Option<NodeId>,
        winners: u8,
        points: i32,
        per_city: Option<i32>,
        source: u8,
        final_scoring: bool,
        reason: &str,
    ) {
        let root = root.map(|r| self.graph.find(r));
        if winners != 0 {
            for p in 0..self.players as u8 {
                if winners & (1 << p) != 0 {
                    self.award(p, points, source);
                }
            }
        }
        if self.log.is_some() {
            let name = root.map(|r| self.feature_name(rules, r));
            let players = (0..self.players as u8).filter(|p| winners & (1 << p) != 0).collect();
            self.log_entry(LogEntry::Score { feature: name, players, points, reason: reason.to_string() });
        }
        tracing::debug!(
            turn = self.turn,
            feature = root.map(|r| self.feature_name(rules, r)).as_deref().unwrap_or("-"),
            points,
            players = ?(0..self.players as u8).filter(|p| winners & (1 << p) != 0).collect::<Vec<_>>(),
            source = rules.sources[source as usize].as_str(),
            "feature scored"
        );
        let extra = rules.is_extra_source(source);
        let ev = ScoreEvent { root, winners, points, source, final_scoring, extra, per_city };
        rules.dispatch_feature_scored(self, &ev);
    }

    /// Awards points not tied to a feature (e.g. the fairy's turn-start point) and logs it.
    pub fn score_other(&mut self, player: u8, points: i32, source: u8, reason: &str) {
        self.award(player, points, source);
        if self.log.is_some() {
            self.log_entry(LogEntry::Score {
                feature: None,
                players: vec![player],
                points,
                reason: reason.to_string(),
            });
        }
    }
}
