//! BASE-8's majority counts each seat's strength on a feature: a follower's, and that of
//! any figure kind a plugin gives strength to, follower or not. Without such a kind the
//! engine stops looking once it has found every follower the feature holds; with one it
//! looks at every figure.

use std::sync::Arc;

use carcassonne_cli::builtin::factories;
use carcassonne_core::config::{disk_resolver, load_rules, PluginFactory};
use carcassonne_core::{FeatureKind, Game, Hooks, Plugin, Registry, Rules, NEUTRAL};
use serde::{Deserialize, Serialize};

/// Registers a non-follower figure kind `heavy` with strength `strength` (no other rule).
#[derive(Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Heavy {
    strength: u8,
}

impl Default for Heavy {
    fn default() -> Self {
        Heavy { strength: 2 }
    }
}

impl Plugin for Heavy {
    fn name(&self) -> &str {
        "heavy"
    }
    fn hooks(&self) -> Hooks {
        Hooks::NONE
    }
    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        reg.figure_kind("heavy", false, self.strength, 1).map(|_| ())
    }
}

fn rules(extra: &str) -> Arc<Rules> {
    let mut f = factories();
    f.push(PluginFactory {
        name: "heavy",
        summary: "test: a non-follower with strength",
        requires: &[],
        conflicts: &[],
        build: carcassonne_core::build_from_options::<Heavy>,
    });
    let file = "config/test-strength.toml";
    let text = format!("[tiles]\nbase = \"tiles/base.toml\"\n[[plugins]]\nname = \"base\"\n{extra}");
    load_rules(file, &text, &disk_resolver(file), &f).unwrap()
}

/// A new 2-seat game and the city node of its start tile (part 0).
fn start(rules: &Arc<Rules>) -> (Game, u32) {
    let g = Game::new(rules.clone(), 2, 1).unwrap();
    let base = g.st.board.parts[0].node_base;
    let city = (base..g.st.graph.len() as u32).find(|&n| g.st.graph.node(n).kind == FeatureKind::City).unwrap();
    (g, city)
}

fn kind(rules: &Rules, name: &str) -> u8 {
    rules.figure_kinds.iter().position(|k| k.name == name).unwrap() as u8
}

#[test]
fn followers_alone_decide_when_no_other_kind_has_strength() {
    let rules = rules("");
    let follower = kind(&rules, "follower");
    let (mut g, city) = start(&rules);
    assert_eq!(g.st.strengths(&rules, city), [0; 6]);
    assert_eq!(g.st.majority(&rules, city), 0, "nobody on the city");
    g.st.add_figure(&rules, 1, follower, 0, Some(city));
    g.st.add_figure(&rules, 0, follower, 0, Some(city));
    g.st.add_figure(&rules, 0, follower, 0, Some(city));
    assert_eq!(g.st.strengths(&rules, city)[..2], [2, 1]);
    assert_eq!(g.st.majority(&rules, city), 0b01);
}

#[test]
fn figures_of_no_strength_and_neutral_followers_do_not_stop_the_count_early() {
    // A strength-0 non-follower (as a builder or a pig) stands on the city before the
    // seats' followers: the count goes on to the last seat follower.
    let rules = rules("[[plugins]]\nname = \"heavy\"\noptions = { strength = 0 }\n");
    let (follower, light) = (kind(&rules, "follower"), kind(&rules, "heavy"));
    let (mut g, city) = start(&rules);
    g.st.add_figure(&rules, 0, light, 0, Some(city));
    g.st.add_figure(&rules, 0, follower, 0, Some(city));
    g.st.add_figure(&rules, 1, follower, 0, Some(city));
    assert_eq!(g.st.strengths(&rules, city)[..2], [1, 1]);
    assert_eq!(g.st.majority(&rules, city), 0b11, "a tie");

    // A neutral follower occupies but has no seat: it adds no strength.
    let (mut g, city) = start(&rules);
    g.st.add_figure(&rules, NEUTRAL, follower, 0, Some(city));
    g.st.add_figure(&rules, 1, follower, 0, Some(city));
    assert_eq!(g.st.graph.followers(city), 2, "the neutral follower occupies too");
    assert_eq!(g.st.strengths(&rules, city)[..2], [0, 1]);
    assert_eq!(g.st.majority(&rules, city), 0b10);
}

#[test]
fn a_strong_non_follower_found_after_the_followers_still_counts() {
    let rules = rules("[[plugins]]\nname = \"heavy\"\n");
    let (follower, heavy) = (kind(&rules, "follower"), kind(&rules, "heavy"));
    let (mut g, city) = start(&rules);
    // The feature's one follower comes first in the figure list, the heavy figure after it.
    g.st.add_figure(&rules, 0, follower, 0, Some(city));
    g.st.add_figure(&rules, 1, heavy, 0, Some(city));
    assert_eq!(g.st.graph.followers(city), 1, "the heavy figure does not occupy");
    assert_eq!(g.st.strengths(&rules, city)[..2], [1, 2]);
    assert_eq!(g.st.majority(&rules, city), 0b10, "strength 2 beats a follower's 1");
}
