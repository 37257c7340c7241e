//! House rule: no farmers. Vetoes every figure placement on a field (or on the feature
//! kinds named in `forbid`), whichever plugin offers it.
//!
//! With it, fields score nothing at the end: `simulate` shows 0 points from `field`.

use carcassonne_plugin_api::{export_plugin, Declare, FigurePlacementView, Hooks, Outcome, Rule, View};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoFarmers {
    /// Feature kinds no figure may join.
    pub forbid: Vec<String>,
}

impl Default for NoFarmers {
    fn default() -> Self {
        NoFarmers { forbid: vec!["field".to_string()] }
    }
}

const KNOWN: &[&str] = &["city", "road", "field", "monastery", "garden", "river"];

impl Rule for NoFarmers {
    const NAME: &'static str = "no-farmers";
    type State = ();

    fn hooks(&self) -> Hooks {
        Hooks::ALLOW_FIGURE
    }

    fn declare(&mut self, _d: &mut Declare) -> Outcome {
        for f in &self.forbid {
            if !KNOWN.contains(&f.as_str()) {
                return Err(format!("`forbid`: unknown feature kind '{f}' (known: {})", KNOWN.join(", ")));
            }
        }
        Ok(())
    }

    fn allow_figure(&self, _view: &View<'_>, _state: &(), p: &FigurePlacementView<'_>) -> Outcome<bool> {
        Ok(!self.forbid.iter().any(|f| f == p.feature.as_str()))
    }
}

export_plugin!(NoFarmers);
