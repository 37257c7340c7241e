//! The ringmaster (ringmistress in newer printings) of Under the Big Top (EXPANSIONS.md
//! RINGMASTER-1..2) and how the dragons, the fairies and the portal treat it (seed 001,
//! "Cirkus a akrobaté").
//!
//! - RINGMASTER-1: one ringmaster per seat, figure kind `ringmaster`: a follower of
//!   strength 1. Instead of a normal follower, the player may put it on an unoccupied
//!   feature of the tile just placed where `base` lets a follower go (its answer to
//!   `takes_follower`: cities, roads, monasteries, fields with farmers; never an acrobat
//!   space, a garden or a river), through every plugin's figure-placement veto. It
//!   returns when its feature is scored, as any follower.
//! - RINGMASTER-2: whenever a feature holding ringmasters is scored (`on_feature_scored`,
//!   in play or at the end, even for 0 points, whether or not its owner wins the feature:
//!   JCZ), each ringmaster's owner scores `points` (2) per tile with the marker `circus`
//!   and `points` per tile with the marker `acrobats` among the ringmaster's tile and the
//!   8 around it, wherever the big top stands (score source `ringmaster`, an extra
//!   source). Extra scorings (a castle's, a barn's, the acrobats') are not the feature's
//!   own scoring and pay nothing (JCZ: not for castles).
//! - Seed 001: both dragons may remove ringmasters (`eatable`' default: a player's figure,
//!   a follower for the 2025 dragon); either fairy may join one (`fairy_may_join`'
//!   default); it goes through the portal by the usual rules (this plugin answers
//!   `portal_target` for its kind as for its own placements). The bonus is an extra
//!   source, so it gives no fairy points (the feature's own scoring still does).
//! - Statistics: `ringmasters_placed`, `ringmaster_points`.

mod draw;

use carcassonne_core::action::Action;
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{FigurePlacement, Hooks, Plugin, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::state::{FigureId, ScoreEvent, State, MAX_PLAYERS, NEUTRAL};
use carcassonne_core::{NodeId, Pos};
use serde::{Deserialize, Serialize};

/// Options of the ringmaster.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Ringmaster {
    /// RINGMASTER-2: points per circus tile and per acrobat tile around the ringmaster.
    #[serde(deserialize_with = "carcassonne_core::options::range::<0, 100, _, _>")]
    pub points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    kind: u8,
    source: u8,
    circus: u32,
    acrobats: u32,
    takes_follower: QueryKey,
    portal_target: QueryKey,
    placed: usize,
    bonus: usize,
}

impl Default for Ringmaster {
    fn default() -> Self {
        Ringmaster { points: 2, ids: Ids::default() }
    }
}

/// The figure kind's name.
pub const KIND: &str = "ringmaster";

/// The factory a rule set names as `ringmaster`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "ringmaster",
        summary: "Under the Big Top: the ringmaster, 2 per circus and acrobat tile around it when its feature \
                  scores (RINGMASTER-1..2)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Ringmaster>,
    }
}

impl Ringmaster {
    /// BASE-5 as `base` applies it (`takes_follower`): may a follower take `node`?
    fn placeable(&self, rules: &Rules, st: &State, node: NodeId, me: usize) -> bool {
        let q = Query {
            key: self.ids.takes_follower,
            figure: None,
            kind: Some(self.ids.kind),
            part: None,
            node: Some(node),
            by: me as u8,
        };
        rules.verdict(st, &q, false)
    }

    /// RINGMASTER-2: circus and acrobat tiles on the tile at `at` and the 8 around it.
    fn bonus_at(&self, st: &State, at: Pos) -> i32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(part) = st.board.part_at(Pos::new(at.x + dx, at.y + dy)) {
                    let m = st.board.parts[part as usize].markers;
                    n += i32::from(m & self.ids.circus != 0) + i32::from(m & self.ids.acrobats != 0);
                }
            }
        }
        n * self.points
    }
}

impl Plugin for Ringmaster {
    fn name(&self) -> &str {
        "ringmaster"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED | Hooks::FEATURE_SCORED | Hooks::QUERY
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        self.ids.kind = reg.figure_kind(KIND, true, 1, 1)?;
        reg.figure_look(self.ids.kind, draw::look());
        // Its answers are about its own figure only.
        reg.answers_only_about(&[self.ids.kind]);
        self.ids.source = reg.extra_source("ringmaster")?;
        // 0 when no loaded tile carries the marker: then there is no bonus.
        self.ids.circus = reg.catalog().marker("circus");
        self.ids.acrobats = reg.catalog().marker("acrobats");
        self.ids.takes_follower = reg.query("takes_follower");
        self.ids.portal_target = reg.query("portal_target");
        self.ids.placed = reg.stat("ringmasters_placed");
        self.ids.bonus = reg.stat("ringmaster_points");
        Ok(())
    }

    /// RINGMASTER-1: the ringmaster on an unoccupied feature of the placed tile where a
    /// follower may go, through every plugin's figure-placement veto.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        let player = st.current;
        let kind = self.ids.kind;
        if st.supply[player as usize][kind as usize] == 0 {
            return;
        }
        for part in st.placed_parts() {
            for local in 0..st.rotated(rules, part).features.len() as u8 {
                let node = st.node_of(part, local);
                if st.graph.followers(node) > 0 || !self.placeable(rules, st, node, me) {
                    continue;
                }
                if rules.allow_figure(st, &FigurePlacement { player, kind, part, node: Some(node) }) {
                    out.push(Action::PlaceFigure { kind, part, feature: local });
                }
            }
        }
    }

    fn on_figure_placed(&self, _rules: &Rules, st: &mut State, _me: usize, fig: FigureId) {
        if st.figures[fig as usize].kind == self.ids.kind {
            st.bump_stat(self.ids.placed, 1);
        }
    }

    /// RINGMASTER-2: the bonus of every ringmaster in a feature's own scoring.
    fn on_feature_scored(&self, _rules: &Rules, st: &mut State, _me: usize, ev: &ScoreEvent) {
        if ev.extra {
            return;
        }
        let Some(root) = ev.root else { return };
        let mut pay = [0i32; MAX_PLAYERS];
        let mut any = false;
        for id in st.figures_in(root) {
            let f = &st.figures[id as usize];
            if f.kind == self.ids.kind && f.owner != NEUTRAL {
                pay[f.owner as usize] += self.bonus_at(st, st.board.parts[f.part as usize].pos);
                any = true;
            }
        }
        if !any {
            return;
        }
        for (seat, &points) in pay.iter().enumerate().take(st.players) {
            if points > 0 {
                st.score_other(seat as u8, points, self.ids.source, "ringmaster");
                st.bump_stat(self.ids.bonus, i64::from(points));
            }
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["portal_target"])
    }

    /// `portal_target` for the ringmaster: the features a follower may take (BASE-5).
    fn answer(&self, rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        match (q.key == self.ids.portal_target, q.kind, q.node) {
            (true, Some(k), Some(n)) if k == self.ids.kind && !self.placeable(rules, st, n, me) => Some(false),
            _ => None,
        }
    }
}
