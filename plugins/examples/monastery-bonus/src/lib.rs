//! House rule: a completed monastery is worth `points` (default 12) instead of 9.
//!
//! The base plugin scores a completed monastery 9 points to its majority (BASE-8); this
//! plugin watches every scoring and gives each winner of a completed monastery the
//! difference, under the same `monastery` score source. Final scoring of incomplete
//! monasteries is unchanged.

use carcassonne_plugin_api::{export_plugin, Declare, Effects, Hooks, Outcome, Rule, ScoreView, Source, View, When};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MonasteryBonus {
    /// Points of a completed monastery.
    #[serde(deserialize_with = "carcassonne_plugin_api::range::<0, 100, _, _>")]
    pub points: i32,
    #[serde(skip)]
    source: Source,
}

impl Default for MonasteryBonus {
    fn default() -> Self {
        MonasteryBonus { points: 12, source: Source::default() }
    }
}

impl Rule for MonasteryBonus {
    const NAME: &'static str = "monastery-bonus";
    type State = ();

    fn hooks(&self) -> Hooks {
        Hooks::FEATURE_SCORED
    }

    fn declare(&mut self, d: &mut Declare) -> Outcome {
        d.requires("base");
        self.source = d.source("monastery");
        // Called only for monastery scorings (the engine checks the kind: no call for the
        // cities, roads and fields of every turn and of the final scoring).
        d.only_when(Hooks::FEATURE_SCORED, When::FeatureKind("monastery"));
        Ok(())
    }

    fn on_feature_scored(&self, view: &View<'_>, _state: &mut (), ev: &ScoreView<'_>, fx: &mut Effects) -> Outcome {
        if ev.final_scoring || ev.source.as_str() != "monastery" {
            return Ok(());
        }
        // The base plugin gave `ev.points` (9) to each winner: add the difference.
        let extra = self.points - ev.points;
        if extra == 0 {
            return Ok(());
        }
        for seat in 0..view.players() {
            if ev.winners & (1 << seat) != 0 {
                fx.award(seat, extra, self.source, "monastery-bonus");
            }
        }
        Ok(())
    }
}

export_plugin!(MonasteryBonus);
