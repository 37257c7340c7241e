//! House rule: the tax collector, a figure of its own (the second example of
//! docs/writing-plugins.md).
//!
//! - TAX-1: each seat has one collector (figure kind `collector`, no follower). Instead of
//!   placing a follower, a player may put it on a road of the tile just placed that holds
//!   no figure (`place_collector`).
//! - TAX-2: when another player places a follower on the collector's road, the collector's
//!   owner decides (a decision of this plugin, for that seat): `levy` the toll (`toll`
//!   points from the follower's owner, offered only when they have them), `wave_through`
//!   (no toll), or `expel` the follower (back to its owner's supply), but a collector
//!   expels each player only once (per-game state: who was expelled by which collector).
//! - TAX-3: instead of a figure action, a player may recall their collector: they score
//!   `recall_points` per tile of its road (`recall_collector`), and it returns to supply.
//! - TAX-4: when its road is completed and scored, the collector goes home with nothing;
//!   at the end it scores nothing.
//!
//! Hooks: `figure_actions` (TAX-1, TAX-3), `on_figure_placed` (TAX-2: pushes the
//! decision), `on_figure_removed` (a collector that leaves forgets whom it expelled); `decision_actions`,
//! `apply_action` and `describe_action` need no hook bit. Score sources: `toll`,
//! `collector`; statistics: `tolls_levied`, `followers_expelled`, `collectors_recalled`.

use carcassonne_plugin_api::{
    export_plugin, DecisionView, Declare, Drawing, Effects, FigureKind, FigureView, Hooks, OfferedAction, Outcome,
    PluginAction, RVec, RemovedView, Rule, Source, Stat, View,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Figure-decision action: the collector onto feature `b` of placed part `a` (TAX-1).
const PLACE: u16 = 1;
/// Figure-decision action: recall collector figure `a` (TAX-3).
const RECALL: u16 = 2;
/// Decision (data: the follower that joined) and its actions (TAX-2).
const TOLL: u16 = 3;
/// The board picture's collector: a money bag in its owner's colour with a coin.
const COLLECTOR_LOOK: &str = "<path d=\"M-5,-9 L5,-9 L2,-5 C9,-2 10,9 0,10 C-10,9 -9,-2 -2,-5 Z\" stroke=\"#000\"/>\
<circle cx=\"0\" cy=\"3\" r=\"3.5\" fill=\"#ffd54f\" stroke=\"#000\" stroke-width=\"0.8\"/>";

/// The answers to a TOLL decision (`PluginAction::a`).
const LEVY: i32 = 0;
const WAVE: i32 = 1;
const EXPEL: i32 = 2;

#[derive(Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaxCollector {
    /// TAX-2: points a joining player pays.
    #[serde(deserialize_with = "carcassonne_plugin_api::range::<0, 100, _, _>")]
    pub toll: i32,
    /// TAX-3: points per tile of the road when the collector is recalled.
    #[serde(deserialize_with = "carcassonne_plugin_api::range::<0, 100, _, _>")]
    pub recall_points: i32,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Debug, Default)]
struct Ids {
    collector: FigureKind,
    toll: Source,
    recall: Source,
    levied: Stat,
    expelled: Stat,
    recalled: Stat,
}

impl Default for TaxCollector {
    fn default() -> Self {
        TaxCollector { toll: 1, recall_points: 1, ids: Ids::default() }
    }
}

/// The per-game state: whom each collector has expelled (TAX-2).
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    /// (collector figure, player) pairs: that collector may not expel that player again.
    expelled: Vec<(u32, u8)>,
}

impl TaxCollector {
    /// The collector (figure id, its figure) standing on the road of `node`, if any.
    fn collector_on<'v>(&self, view: &'v View<'_>, node: u32) -> Option<(u32, FigureView<'v>)> {
        view.figures_in(node).into_iter().find_map(|id| {
            let f = view.figure(id).into_option()?;
            (f.figure.as_str() == "collector").then_some((id, f))
        })
    }
}

impl Rule for TaxCollector {
    const NAME: &'static str = "tax-collector";
    type State = Ledger;

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS | Hooks::FIGURE_PLACED | Hooks::FIGURE_REMOVED
    }

    fn declare(&mut self, d: &mut Declare) -> Outcome {
        d.requires("base");
        self.ids.collector = d.figure("collector", false, 0, 1);
        self.ids.toll = d.source("toll");
        self.ids.recall = d.source("collector");
        self.ids.levied = d.stat("tolls_levied");
        self.ids.expelled = d.stat("followers_expelled");
        self.ids.recalled = d.stat("collectors_recalled");
        d.figure_look(self.ids.collector, COLLECTOR_LOOK, false);
        Ok(())
    }

    /// TAX-1: the collector on a road of the placed tile that holds no figure; TAX-3: the
    /// player's collector on the board may be recalled.
    fn figure_actions(&self, view: &View<'_>, _state: &Ledger, out: &mut RVec<OfferedAction>) -> Outcome {
        let seat = view.current();
        if view.supply(seat, "collector".into()) > 0 {
            for part in view.placed_parts().iter() {
                for (i, node) in view.part_features(part).iter().enumerate() {
                    let Some(f) = view.feature(node).into_option() else { continue };
                    if f.kind.as_str() == "road" && f.open_edges > 0 && view.figures_in(node).is_empty() {
                        out.push(PluginAction { code: PLACE, a: part as i32, b: i as i32 }.into());
                    }
                }
            }
        }
        for id in view.figures() {
            let f = view.figure(id).into_option().ok_or("a listed figure is missing")?;
            if f.figure.as_str() == "collector" && f.owner == seat {
                out.push(PluginAction { code: RECALL, a: id as i32, b: 0 }.into());
            }
        }
        Ok(())
    }

    /// TAX-2: another player's follower joined a collector's road: its owner decides.
    fn on_figure_placed(&self, view: &View<'_>, _state: &mut Ledger, figure: u32, fx: &mut Effects) -> Outcome {
        let Some(f) = view.figure(figure).into_option() else { return Ok(()) };
        let Some(node) = f.node.into_option() else { return Ok(()) };
        if !view.is_follower(f.figure) || f.feature.as_str() != "road" {
            return Ok(());
        }
        if let Some((_, c)) = self.collector_on(view, node) {
            if c.owner != f.owner {
                fx.push_decision(c.owner, TOLL, figure as i32);
            }
        }
        Ok(())
    }

    /// A collector that leaves forgets who settled with it.
    fn on_figure_removed(
        &self,
        _view: &View<'_>,
        state: &mut Ledger,
        r: &RemovedView<'_>,
        _fx: &mut Effects,
    ) -> Outcome {
        state.expelled.retain(|&(c, _)| c != r.figure.id);
        Ok(())
    }

    fn decision_actions(
        &self,
        view: &View<'_>,
        state: &Ledger,
        d: DecisionView,
        out: &mut RVec<PluginAction>,
    ) -> Outcome {
        let follower = view.figure(d.data as u32).into_option().ok_or("the joining follower is gone")?;
        let node = follower.node.into_option().ok_or("the follower stands on no road")?;
        let (collector, _) = self.collector_on(view, node).ok_or("the collector is gone")?;
        if view.score(follower.owner) >= self.toll {
            out.push(PluginAction { code: TOLL, a: LEVY, b: 0 });
        }
        out.push(PluginAction { code: TOLL, a: WAVE, b: 0 });
        if !state.expelled.contains(&(collector, follower.owner)) {
            out.push(PluginAction { code: TOLL, a: EXPEL, b: 0 });
        }
        Ok(())
    }

    fn apply_action(
        &self,
        view: &View<'_>,
        state: &mut Ledger,
        d: DecisionView,
        a: PluginAction,
        fx: &mut Effects,
    ) -> Outcome {
        match a.code {
            PLACE => {
                let node = view.part_features(a.a as u32).get(a.b as usize).ok_or("no such road")?;
                fx.place_figure(self.ids.collector, d.player, a.a as u32, Some(node));
            }
            RECALL => {
                let c = view.figure(a.a as u32).into_option().ok_or("no such collector")?;
                let tiles = view.feature_tiles(c.node.unwrap_or(0));
                fx.award(d.player, self.recall_points * tiles as i32, self.ids.recall, "collector recalled");
                fx.remove_figure(a.a as u32);
                fx.bump(self.ids.recalled, 1);
            }
            TOLL => {
                let follower = view.figure(d.data as u32).into_option().ok_or("the joining follower is gone")?;
                let node = follower.node.into_option().ok_or("the follower stands on no road")?;
                let (collector, _) = self.collector_on(view, node).ok_or("the collector is gone")?;
                match a.a {
                    LEVY => {
                        fx.award(follower.owner, -self.toll, self.ids.toll, "toll paid");
                        fx.award(d.player, self.toll, self.ids.toll, "toll levied");
                        fx.bump(self.ids.levied, 1);
                    }
                    WAVE => {}
                    _ => {
                        fx.remove_figure(d.data as u32);
                        fx.bump(self.ids.expelled, 1);
                        state.expelled.push((collector, follower.owner));
                    }
                }
            }
            other => return Err(format!("unknown action code {other}")),
        }
        Ok(())
    }

    fn describe_action(&self, view: &View<'_>, _state: &Ledger, a: PluginAction) -> Outcome<Map<String, Value>> {
        let v = match (a.code, a.a) {
            (PLACE, part) => {
                let node = view.part_features(part as u32).get(a.b as usize).unwrap_or(u32::MAX);
                json!({"action": "place_collector", "at": view.feature_name(node).as_str()})
            }
            (RECALL, id) => {
                let at = view.figure(id as u32).into_option().and_then(|f| f.node.into_option());
                json!({"action": "recall_collector", "at": at.map(|n| view.feature_name(n).to_string())})
            }
            (TOLL, LEVY) => json!({"action": "levy"}),
            (TOLL, WAVE) => json!({"action": "wave_through"}),
            (TOLL, _) => json!({"action": "expel"}),
            _ => Value::Null,
        };
        match v {
            Value::Object(m) => Ok(m),
            _ => Err(format!("unknown action code {}", a.code)),
        }
    }

    /// The picture: a badge on each collector with the number of players it has expelled
    /// (TAX-2: each at most once), and the collector in the legend.
    fn draw(&self, view: &View<'_>, state: &Ledger, canvas: &mut Drawing<'_>) -> Outcome {
        for id in view.figures() {
            let Some(f) = view.figure(id).into_option() else { continue };
            if !self.ids.collector.is(f.own_kind) {
                continue;
            }
            let n = state.expelled.iter().filter(|(c, _)| *c == id).count();
            if n > 0 {
                let badge = format!(
                    "<circle r=\"6\" fill=\"#fff\" stroke=\"#000\"/><text y=\"3\" font-size=\"8\" \
                     text-anchor=\"middle\">{n}</text>"
                );
                canvas.figure_badge(id, &badge, &format!("has expelled {n} player(s)"));
            }
        }
        canvas.legend("collector", COLLECTOR_LOOK, "tax collector (badge: players it expelled)");
        Ok(())
    }
}

export_plugin!(TaxCollector);
