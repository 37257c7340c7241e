//! House rule: a player who ends a turn with every follower on the board pays `fine`.

use carcassonne_plugin_api::{export_plugin, Declare, Effects, Hooks, Outcome, Rule, Source, Stat, View};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overstretched {
    /// Points taken.
    /// Allowed range checked when the rule set loads (docs/options.md).
    #[serde(deserialize_with = "carcassonne_plugin_api::range::<0, 100, _, _>")]
    pub fine: i32,
    // Indices from `declare`, not options.
    #[serde(skip)]
    source: Source,
    #[serde(skip)]
    fines: Stat,
}

impl Default for Overstretched {
    fn default() -> Self {
        Overstretched { fine: 2, source: Source::default(), fines: Stat::default() }
    }
}

impl Rule for Overstretched {
    /// The name the engine (records, summaries, errors) knows it by.
    const NAME: &'static str = "overstretched";
    type State = ();

    /// Only these hooks are called.
    fn hooks(&self) -> Hooks {
        Hooks::TURN_END
    }

    /// Checks the options, declares score sources, statistics and requirements.
    fn declare(&mut self, d: &mut Declare) -> Outcome {
        d.requires("base"); // the base game's followers
        self.source = d.source("overstretched"); // shown in simulate's points by source
        self.fines = d.stat("fines"); // shown in simulate's statistics
        Ok(())
    }

    fn on_turn_end(&self, view: &View<'_>, _state: &mut (), fx: &mut Effects) -> Outcome {
        let seat = view.current();
        if view.supply(seat, "follower".into()) == 0 {
            fx.award(seat, -self.fine, self.source, "overstretched");
            fx.bump(self.fines, 1);
        }
        Ok(())
    }
}

export_plugin!(Overstretched);
