//! The princess of the classic Princess & Dragon (RULES.md PD-PRINCESS-1) as a plugin
//! file: a port of the built-in `princess` plugin (plugins/princess) that plays the same
//! games, the proof that interface 3.0 can carry an expansion.
//!
//! - Tiles: the rule set's tile set `tile_set` brings the princess tiles (marker
//!   `princess`, modifier `princess` on the city part); [`Declare::land_tiles`] puts them
//!   into the land tiles (`edition = 1`: the 1st-edition printings).
//! - PD-PRINCESS-1: when a princess city part of the placed tile joins a city holding
//!   knights, removing one (anyone's) is one of the figure actions (`remove_knight`): a
//!   follower kind in that city that no plugin spares (`princess_removable` answered no,
//!   or `is_protected`). `princess_action = "must"` makes it compulsory when possible
//!   (`filter_figure_actions`).
//! - The removed knight goes home through the engine's removal (a builder or pig of its
//!   owner leaves with a last follower, PD-DRAGON-7). Statistic `princess_removals`.

use carcassonne_plugin_api::{
    export_plugin, ActionView, DecisionView, Declare, Effects, Hooks, OfferedAction, Outcome, PluginAction, QueryView,
    Rule, Stat, View,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Whether the removal is optional (PD-PRINCESS-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrincessAction {
    #[default]
    May,
    Must,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Princess {
    pub princess_action: PrincessAction,
    /// Tile set holding the princess tiles.
    pub tile_set: String,
    /// 2 (2016 printing) or 1 (1st edition).
    #[serde(deserialize_with = "carcassonne_plugin_api::range::<1, 2, _, _>")]
    pub edition: u8,
    #[serde(skip)]
    removals: Stat,
}

impl Default for Princess {
    fn default() -> Self {
        Princess {
            princess_action: PrincessAction::May,
            tile_set: "princess-dragon".into(),
            edition: 2,
            removals: Stat::default(),
        }
    }
}

/// The remove-a-knight action (`a` = the figure).
const REMOVE: u16 = 1;

impl Princess {
    /// Calls `f` with every knight the princess may remove this turn, in the built-in's
    /// order (placed parts, their city features, each city once, figures by id).
    fn for_each_knight(&self, view: &View<'_>, mut f: impl FnMut(u32)) -> Outcome {
        let mut roots: Vec<u32> = Vec::new();
        for part in view.placed_parts().iter() {
            // The princess tiles carry the marker: other tiles need no look at their cities.
            if !view.part_has_marker(part, "princess".into()) {
                continue;
            }
            for node in view.part_features(part).iter() {
                let Some(feat) = view.feature(node).into_option() else { continue };
                if feat.kind.as_str() != "city"
                    || !view.node_has_modifier(node, "princess".into())
                    || feat.followers == 0
                {
                    continue;
                }
                if roots.contains(&feat.root) {
                    continue;
                }
                roots.push(feat.root);
                for id in view.figures_in(node) {
                    let fig = view.figure(id).into_option().ok_or("a figure in the city is missing")?;
                    if !view.is_follower(fig.figure) {
                        continue;
                    }
                    let q = QueryView {
                        name: "princess_removable".into(),
                        figure: Some(id).into(),
                        part: Some(fig.part).into(),
                        node: fig.node,
                        by: Self::NAME.into(),
                    };
                    if view.ask(&q).into_option() != Some(false) && !view.is_protected(id) {
                        f(id);
                    }
                }
            }
        }
        Ok(())
    }
}

impl Rule for Princess {
    const NAME: &'static str = "princess";
    type State = ();

    fn hooks(&self) -> Hooks {
        match self.princess_action {
            PrincessAction::May => Hooks::FIGURE_ACTIONS,
            PrincessAction::Must => Hooks::FIGURE_ACTIONS | Hooks::FIGURE_FILTER,
        }
    }

    fn declare(&mut self, d: &mut Declare) -> Outcome {
        d.requires("base");
        d.land_tiles(&self.tile_set, "princess", self.edition == 1);
        d.query("princess_removable");
        self.removals = d.stat("princess_removals");
        Ok(())
    }

    fn figure_actions(&self, view: &View<'_>, _state: &(), out: &mut Vec<OfferedAction>) -> Outcome {
        self.for_each_knight(view, |id| out.push(PluginAction { code: REMOVE, a: id as i32, b: 0 }.into()))
    }

    /// `must`: when a knight can be removed, nothing else may be done.
    fn filter_figure_actions(
        &self,
        _view: &View<'_>,
        _state: &(),
        actions: &[ActionView<'_>],
        keep: &mut [bool],
    ) -> Outcome {
        let mine = |a: &ActionView<'_>| a.plugin.as_str() == Self::NAME && a.action.code == REMOVE;
        if actions.iter().any(mine) {
            for (a, k) in actions.iter().zip(keep.iter_mut()) {
                *k = mine(a);
            }
        }
        Ok(())
    }

    fn apply_action(
        &self,
        _view: &View<'_>,
        _state: &mut (),
        _d: DecisionView,
        a: PluginAction,
        fx: &mut Effects,
    ) -> Outcome {
        if a.code != REMOVE {
            return Err(format!("unknown action code {}", a.code));
        }
        fx.remove_figure(a.a as u32);
        fx.bump(self.removals, 1);
        Ok(())
    }

    fn describe_action(&self, view: &View<'_>, _state: &(), a: PluginAction) -> Outcome<Map<String, Value>> {
        let f = view.figure(a.a as u32).into_option().ok_or("no such knight")?;
        let at = match f.node.into_option() {
            Some(n) => view.feature_name(n).to_string(),
            None => format!("({},{})", f.x, f.y),
        };
        let v = json!({"action": "remove_knight", "figure": f.figure.as_str(), "owner": f.owner, "at": at});
        Ok(v.as_object().cloned().unwrap_or_default())
    }
}

export_plugin!(Princess);
