//! The princess of the classic Princess & Dragon (RULES.md PD-PRINCESS-1): when the
//! princess city part of the placed tile joins a city holding knights, the player may
//! (`must`: has to) remove one of them, as the turn's figure action.
//!
//! A knight is a figure of a follower kind standing in that city; the question
//! `princess_removable` (figure, part, node) lets a plugin spare its figures (any
//! `false` wins), and [`State::is_protected`] figures are spared too.

mod draw;

use carcassonne_core::action::{Action, Decision};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, Query, QueryKey};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::{FigureId, RemoveReason, State};
use carcassonne_core::FeatureKind;
use serde::{Deserialize, Serialize};

/// Whether the removal is optional (PD-PRINCESS-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrincessAction {
    /// The player may remove a knight instead of another figure action.
    #[default]
    May,
    /// Removing a knight is compulsory when possible.
    Must,
}

/// Options of the princess.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Princess {
    pub princess_action: PrincessAction,
    /// Tile set holding the princess tiles (marker `princess`, modifier `princess` on the city).
    pub tile_set: String,
    /// 2 (2016 printing: PDP5 with a garden) or 1 (1st edition: `PDP5c1`, no garden).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    removable: QueryKey,
    marker: u32,
    modifier: u32,
    removals: usize,
    /// Per tile type: whether it shows a princess (a city with the modifier).
    tiles: Vec<bool>,
}

impl Default for Princess {
    fn default() -> Self {
        Princess {
            princess_action: PrincessAction::May,
            tile_set: "princess-dragon".into(),
            edition: 2,
            ids: Ids::default(),
        }
    }
}

/// The factory a rule set names as `princess`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "princess",
        summary: "classic P&D princess: remove a knight from the city the princess joins (PD-PRINCESS-1)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Princess>,
    }
}

/// Code of the remove-a-knight action (`a` = the figure).
pub const REMOVE: u16 = 1;

impl Princess {
    /// Calls `f` with every knight the princess may remove this turn.
    fn for_each_knight(&self, rules: &Rules, st: &State, me: usize, mut f: impl FnMut(FigureId)) {
        let mut roots: [u32; 4] = [u32::MAX; 4];
        let mut n = 0;
        for part in st.placed_parts() {
            if !self.ids.tiles[st.board.parts[part as usize].tile as usize] {
                continue;
            }
            let rp = st.rotated(rules, part);
            for (local, feat) in rp.features.iter().enumerate() {
                if feat.kind != FeatureKind::City {
                    continue;
                }
                let node = st.node_of(part, local as u8);
                if st.node_modifiers(rules, node) & self.ids.modifier == 0 || st.graph.followers(node) == 0 {
                    continue;
                }
                let root = st.graph.find(node);
                if roots[..n].contains(&root) || n == roots.len() {
                    continue;
                }
                roots[n] = root;
                n += 1;
                for id in st.figures_in(root) {
                    let fig = &st.figures[id as usize];
                    if !rules.figure_kinds[fig.kind as usize].follower {
                        continue;
                    }
                    let q = Query::about_figure(self.ids.removable, id, fig, me as u8);
                    if rules.verdict(st, &q, true) && !st.is_protected(rules, id) {
                        f(id);
                    }
                }
            }
        }
    }
}

impl Plugin for Princess {
    fn draw(
        &self,
        rules: &carcassonne_core::Rules,
        st: &carcassonne_core::State,
        me: usize,
        canvas: &mut dyn carcassonne_core::Canvas,
    ) {
        draw::draw(self, rules, st, me, canvas)
    }

    fn name(&self) -> &str {
        "princess"
    }

    fn hooks(&self) -> Hooks {
        match self.princess_action {
            PrincessAction::May => Hooks::FIGURE_ACTIONS,
            PrincessAction::Must => Hooks::FIGURE_ACTIONS | Hooks::FIGURE_FILTER,
        }
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        self.ids.marker = reg.require_marker(&self.tile_set, "princess")?;
        self.ids.removable = reg.query("princess_removable");
        let cat = reg.catalog();
        self.ids.modifier = cat.modifier("princess");
        if self.ids.marker == 0 || self.ids.modifier == 0 {
            return Err(format!("tile set '{}' has no `princess` tiles", self.tile_set));
        }
        let shows = |t: &carcassonne_core::tile::TileType| t.features().any(|f| f.modifiers & self.ids.modifier != 0);
        self.ids.tiles = cat.tiles.iter().map(shows).collect();
        self.ids.removals = reg.stat("princess_removals");
        Ok(())
    }

    /// The princess tiles go into the land tiles.
    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        setup.add_marked_land_tiles(rules, &self.tile_set, self.ids.marker, self.edition == 1)
    }

    /// PD-PRINCESS-1: removing a knight is one of the figure actions.
    fn figure_actions(&self, rules: &Rules, st: &State, me: usize, out: &mut Vec<Action>) {
        self.for_each_knight(rules, st, me, |id| {
            out.push(Action::Plugin { plugin: me as u8, code: REMOVE, a: id as i32, b: 0 });
        });
    }

    /// `must`: when a knight can be removed, nothing else may be done.
    fn restrict_figure_actions(&self, _rules: &Rules, _st: &State, me: usize, out: &mut Vec<Action>) {
        let mine = |a: &Action| matches!(a, Action::Plugin { plugin, code: REMOVE, .. } if *plugin as usize == me);
        if out.iter().any(mine) {
            out.retain(mine);
        }
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, _d: &Decision, a: &Action) {
        let Action::Plugin { code: REMOVE, a: id, .. } = *a else { return };
        let fig = st.figures[id as usize];
        let why = RemoveReason::Plugin(me as u8);
        st.remove_figure(rules, id as FigureId, why);
        // PD-DRAGON-7 also when the dragon plugin is not in the rule set.
        st.release_dependents(rules, &fig, why);
        st.bump_stat(self.ids.removals, 1);
        tracing::debug!(turn = st.turn, player = _d.player, "the princess sends a knight home");
    }

    fn describe_action(&self, rules: &Rules, st: &State, _me: usize, a: &Action) -> serde_json::Value {
        let Action::Plugin { code: REMOVE, a: id, .. } = *a else { return serde_json::Value::Null };
        let f = &st.figures[id as usize];
        serde_json::json!({
            "action": "remove_knight",
            "figure": rules.figure_kinds[f.kind as usize].name,
            "owner": f.owner,
            "at": st.figure_place_name(rules, f),
        })
    }
}
