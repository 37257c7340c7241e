//! `simulate` from code: the base game with and without farmers, 200 random games each on
//! the same seeds, and the mean score of each seat (uses only the `carcassonne` library):
//! `cargo run --release --example simulate_rules`.

use carcassonne::{simulate, RuleSet, SimulateOptions};

/// The base game with the option `farmers` set.
fn base(farmers: bool) -> String {
    format!(
        "name = \"base, farmers {farmers}\"\nplayers = 2\n[tiles]\nbase = \"tiles/base.toml\"\n\
         [[plugins]]\nname = \"base\"\npriority = 0\n[plugins.options]\nfarmers = {farmers}\n"
    )
}

fn main() -> Result<(), carcassonne::Error> {
    let options = SimulateOptions { games: 200, seed: 1, ..SimulateOptions::default() };
    for farmers in [true, false] {
        let rules = RuleSet::from_toml(&base(farmers))?;
        let s = simulate(&rules, &options)?;
        println!(
            "{}: mean scores {:?}, mean turns {:.1}, {:.0} games/s",
            s.rules.name, s.mean_score, s.mean_turns, s.games_per_second
        );
    }
    Ok(())
}
