//! The abbot and gardens (EXPANSIONS.md ABBOT-1..2) as a plugin file: a port of the
//! built-in `abbot` plugin (plugins/abbot) that plays the same games.
//!
//! - ABBOT-1: each seat has one abbot (figure kind `abbot`, a follower of strength 1).
//!   Instead of a follower, it goes on an unoccupied monastery or garden of the tile just
//!   placed, through the other plugins' placement vetoes: an offered figure placement
//!   ([`OfferedAction::placement`]). `allow_figure` keeps it off everything else and every
//!   other figure off gardens. A completed garden with an abbot scores 9 to its majority
//!   ([`Effects::score_feature`], source `garden`; the engine returns its figures); at the
//!   end an incomplete one scores 1 + 1 per surrounding tile.
//! - ABBOT-2: instead of a figure action, a player whose abbot is on the board takes it
//!   back (`take_back_abbot`) and scores at once 1 + 1 per tile around its tile, under the
//!   extra source `abbot` (the fairies ignore it: COMBO-ABBOT).
//! - State: each seat's abbot on the board (set in `on_figure_placed`, cleared in
//!   `on_figure_removed`), so that no hook scans the figures.
//! - Statistics `abbots_placed`, `abbots_taken_back`, `gardens_scored`.
//! - Speed ([`Declare::only_when`], checked by the engine without a call): the figure
//!   actions only when the placed tile has a monastery or a garden or the player has an
//!   abbot out; placements judged only when an abbot or a garden is among them; placed and
//!   removed figures only when they are abbots; completed features only gardens. Kinds are
//!   compared as the plugin's own indices ([`FigureKind::is`]), not by name.

use carcassonne_plugin_api::{
    export_plugin, DecisionView, Declare, Effects, FigureKind, FigurePlacementView, Hooks, OfferedAction, Outcome,
    PluginAction, RVec, RemovedView, Rule, Source, Stat, View, When,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Abbot {
    #[serde(skip)]
    ids: Ids,
}

#[derive(Debug, Default)]
struct Ids {
    kind: FigureKind,
    garden: Source,
    take_back: Source,
    placed: Stat,
    taken_back: Stat,
    gardens: Stat,
}

/// Figure-decision action: take back abbot figure `a` (ABBOT-2).
const TAKE_BACK: u16 = 1;
/// Points of a completed garden (ABBOT-1: like a monastery).
const GARDEN_POINTS: i32 = 9;

/// 1 + 1 per placed tile around the cell `(x, y)`.
fn cloister_points(view: &View<'_>, x: i32, y: i32) -> i32 {
    1 + view.tiles_around(x, y) as i32
}

fn is_cloister(kind: &str) -> bool {
    kind == "monastery" || kind == "garden"
}

/// The per-game state: each seat's abbot on the board (one per seat), so that no hook
/// scans the figures.
#[derive(Clone, Debug, Default)]
pub struct Abbots {
    on_board: [Option<u32>; 8],
}

impl Rule for Abbot {
    const NAME: &'static str = "abbot";
    type State = Abbots;

    fn hooks(&self) -> Hooks {
        Hooks::FIGURE_ACTIONS
            | Hooks::ALLOW_FIGURE
            | Hooks::FIGURE_PLACED
            | Hooks::FIGURE_REMOVED
            | Hooks::FEATURE_COMPLETED
            | Hooks::FINAL_SCORING
    }

    fn declare(&mut self, d: &mut Declare) -> Outcome {
        d.requires("base");
        self.ids.kind = d.figure("abbot", true, 1, 1);
        let figure_step = Hooks::FIGURE_ACTIONS;
        d.only_when(figure_step, When::PlacedTileFeature("monastery"));
        d.only_when(figure_step, When::PlacedTileFeature("garden"));
        d.only_when(figure_step, When::Deployed("abbot"));
        d.only_when(Hooks::ALLOW_FIGURE, When::FigureKind("abbot"));
        d.only_when(Hooks::ALLOW_FIGURE, When::FeatureKind("garden"));
        d.only_when(Hooks::FIGURE_PLACED | Hooks::FIGURE_REMOVED, When::FigureKind("abbot"));
        d.only_when(Hooks::FEATURE_COMPLETED, When::FeatureKind("garden"));
        self.ids.garden = d.source("garden");
        self.ids.take_back = d.extra_source("abbot");
        self.ids.placed = d.stat("abbots_placed");
        self.ids.taken_back = d.stat("abbots_taken_back");
        self.ids.gardens = d.stat("gardens_scored");
        Ok(())
    }

    /// ABBOT-1: the abbot onto an unoccupied monastery or garden of the tile just placed;
    /// ABBOT-2: or, when it is on the board, taking it back.
    fn figure_actions(&self, view: &View<'_>, state: &Abbots, out: &mut RVec<OfferedAction>) -> Outcome {
        let player = view.current();
        if view.own_supply(player, self.ids.kind.0) > 0 {
            let at = view.placed_tile().into_option().ok_or("no tile placed this turn")?;
            for part in view.placed_parts().iter() {
                for node in view.part_features(part).iter() {
                    let Some(f) = view.feature(node).into_option() else { continue };
                    if !is_cloister(f.kind.as_str()) || f.followers > 0 {
                        continue;
                    }
                    let fp = FigurePlacementView {
                        player,
                        figure: "abbot".into(),
                        own_kind: self.ids.kind.0,
                        part,
                        x: at.x,
                        y: at.y,
                        node: Some(node).into(),
                        feature: f.kind,
                    };
                    if view.allow_figure(&fp) {
                        out.push(OfferedAction::placement(self.ids.kind, part, Some(node)));
                    }
                }
            }
        }
        if let Some(id) = state.on_board.get(player as usize).copied().flatten() {
            out.push(PluginAction { code: TAKE_BACK, a: id as i32, b: 0 }.into());
        }
        Ok(())
    }

    /// ABBOT-1: the abbot only on a monastery or a garden; a garden takes only the abbot.
    fn allow_figure(&self, _view: &View<'_>, _state: &Abbots, p: &FigurePlacementView<'_>) -> Outcome<bool> {
        let feature = p.feature.as_str();
        Ok(if self.ids.kind.is(p.own_kind) { is_cloister(feature) } else { feature != "garden" })
    }

    fn on_figure_placed(&self, view: &View<'_>, state: &mut Abbots, figure: u32, fx: &mut Effects) -> Outcome {
        if let Some(f) = view.figure(figure).into_option().filter(|f| self.ids.kind.is(f.own_kind)) {
            fx.bump(self.ids.placed, 1);
            *state.on_board.get_mut(f.owner as usize).ok_or("seat out of range")? = Some(figure);
        }
        Ok(())
    }

    fn on_figure_removed(
        &self,
        _view: &View<'_>,
        state: &mut Abbots,
        r: &RemovedView<'_>,
        _fx: &mut Effects,
    ) -> Outcome {
        if let Some(slot) = state.on_board.get_mut(r.figure.owner as usize) {
            if *slot == Some(r.figure.id) {
                *slot = None;
            }
        }
        Ok(())
    }

    /// ABBOT-1: a completed garden scores 9 to its majority (the engine returns the abbot).
    fn on_feature_completed(&self, view: &View<'_>, _state: &mut Abbots, root: u32, fx: &mut Effects) -> Outcome {
        let f = view.feature(root).into_option().ok_or("no such feature")?;
        if f.kind.as_str() == "garden" && f.followers > 0 {
            fx.score_feature(root, GARDEN_POINTS, self.ids.garden, false);
            fx.bump(self.ids.gardens, 1);
        }
        Ok(())
    }

    /// ABBOT-1: an incomplete garden with an abbot scores 1 + 1 per surrounding tile at the
    /// end (gardens in the order of their roots, as the engine lists features).
    fn on_final_scoring(&self, view: &View<'_>, state: &mut Abbots, fx: &mut Effects) -> Outcome {
        let mut gardens: Vec<(u32, i32, i32)> = Vec::new();
        for id in state.on_board.iter().flatten().copied() {
            let Some(fig) = view.figure(id).into_option() else { continue };
            let Some(node) = fig.node.into_option() else { continue };
            let Some(f) = view.feature(node).into_option() else { continue };
            if f.kind.as_str() == "garden" && !f.scored && !gardens.iter().any(|g| g.0 == f.root) {
                gardens.push((f.root, fig.x, fig.y));
            }
        }
        gardens.sort_unstable();
        for (root, x, y) in gardens {
            fx.score_feature(root, cloister_points(view, x, y), self.ids.garden, true);
            fx.bump(self.ids.gardens, 1);
        }
        Ok(())
    }

    /// ABBOT-2: the abbot back to supply, 1 + 1 per surrounding tile at once (an extra
    /// scoring: no fairy points).
    fn apply_action(
        &self,
        view: &View<'_>,
        _state: &mut Abbots,
        d: DecisionView,
        a: PluginAction,
        fx: &mut Effects,
    ) -> Outcome {
        if a.code != TAKE_BACK {
            return Err(format!("unknown action code {}", a.code));
        }
        let f = view.figure(a.a as u32).into_option().ok_or("no such abbot")?;
        if !self.ids.kind.is(f.own_kind) || f.owner != d.player {
            return Err("not the player's abbot".into());
        }
        let node = f.node.into_option().ok_or("the abbot stands on no feature")?;
        fx.score_seats(
            node,
            1 << f.owner,
            cloister_points(view, f.x, f.y),
            self.ids.take_back,
            false,
            "abbot taken back",
        );
        fx.remove_figure(a.a as u32);
        fx.bump(self.ids.taken_back, 1);
        Ok(())
    }

    fn describe_action(&self, view: &View<'_>, _state: &Abbots, a: PluginAction) -> Outcome<Map<String, Value>> {
        let f = view.figure(a.a as u32).into_option().ok_or("no such abbot")?;
        let at = match f.node.into_option() {
            Some(n) => view.feature_name(n).to_string(),
            None => format!("({},{})", f.x, f.y),
        };
        Ok(json!({"action": "take_back_abbot", "at": at}).as_object().cloned().unwrap_or_default())
    }
}

export_plugin!(Abbot);
