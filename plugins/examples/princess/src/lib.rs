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
//! - Speed: its hooks run only on turns whose placed tile carries the marker
//!   ([`Declare::only_when`], checked by the engine without a call), and the marker, the
//!   modifier and the question are handles resolved when the rule set is loaded.

use carcassonne_plugin_api::{
    export_plugin, ActionView, DecisionView, Declare, Effects, Hooks, Marker, Modifier, OfferedAction, Outcome,
    PluginAction, Question, RVec, Rule, Stat, View, When,
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
    ids: Ids,
}

/// What `declare` resolved.
#[derive(Debug, Default)]
struct Ids {
    removals: Stat,
    marker: Marker,
    modifier: Modifier,
    removable: Question,
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

/// The remove-a-knight action (`a` = the figure).
const REMOVE: u16 = 1;

impl Princess {
    /// Calls `f` with every knight the princess may remove this turn, in the built-in's
    /// order (placed parts, their city features, each city once, figures by id).
    fn for_each_knight(&self, view: &View<'_>, mut f: impl FnMut(u32)) -> Outcome {
        let (mut roots, mut n) = ([u32::MAX; 4], 0);
        for part in view.placed_parts().iter() {
            // The princess tiles carry the marker: other tiles need no look at their cities.
            if !view.part_has(part, self.ids.marker.0) {
                continue;
            }
            for node in view.part_features(part).iter() {
                if !view.node_has(node, self.ids.modifier.0) {
                    continue;
                }
                let Some(feat) = view.feature(node).into_option() else { continue };
                if feat.kind.as_str() != "city" || feat.followers == 0 || roots[..n].contains(&feat.root) || n == 4 {
                    continue;
                }
                roots[n] = feat.root;
                n += 1;
                for id in view.figures_in(node) {
                    let fig = view.figure(id).into_option().ok_or("a figure in the city is missing")?;
                    if !fig.follower {
                        continue;
                    }
                    let q = self.ids.removable.0;
                    let removable = view.ask_about(q, Some(id).into(), Some(fig.part).into(), fig.node);
                    if removable.into_option() != Some(false) && !view.is_protected(id) {
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
        self.ids.removable = d.query("princess_removable");
        self.ids.marker = d.marker("princess");
        self.ids.modifier = d.modifier("princess");
        self.ids.removals = d.stat("princess_removals");
        d.only_when(self.hooks(), When::PlacedTileMarker("princess"));
        Ok(())
    }

    fn figure_actions(&self, view: &View<'_>, _state: &(), out: &mut RVec<OfferedAction>) -> Outcome {
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
        let mine = |a: &ActionView<'_>| a.mine && a.action.code == REMOVE;
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
        fx.bump(self.ids.removals, 1);
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
