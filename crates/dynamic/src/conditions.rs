//! Hook conditions of plugin files ([`api::HookCondition`]): resolved to bit tables when
//! the rule set is built, checked by the engine before a call across the boundary, so
//! that a hook that cannot apply costs a few instructions instead of a call.

use carcassonne_core::rules::Registry;
use carcassonne_core::state::State;
use carcassonne_core::{FeatureKind, NodeId, TileTypeId};
use carcassonne_plugin_api as api;
use carcassonne_plugin_api::HookCondition;

/// Hooks of the interface (bits of [`api::Hooks`]).
const HOOKS: usize = api::Hooks::NAMES.len();

/// A plugin's resolved conditions, as bit sets: for each hook bit `h`, the hook is called
/// when it has no condition (`mask` bit clear) or when one of its conditions holds.
#[derive(Clone, Debug)]
pub(crate) struct Conditions {
    /// Hooks that have conditions.
    pub(crate) mask: u32,
    /// Hooks that have conditions other than about the placed tile.
    other: u32,
    /// Per tile type: the hooks one of whose conditions holds when it is the placed tile
    /// (placed_tile_marker, placed_tile_feature; over every face and part: a safe superset).
    placed: Vec<u32>,
    /// Per tile type: the hooks one of whose tile_marker conditions holds for it.
    tile: Vec<u32>,
    /// Per hook: feature kinds (bits of [`FeatureKind`]) of feature_kind conditions.
    feature: [u8; HOOKS],
    /// Per hook: figure kinds (bits) of figure_kind conditions.
    figure: [u64; HOOKS],
    /// Per hook: figure kinds (bits) of deployed conditions.
    deployed: [u64; HOOKS],
    /// Per figure kind: the copies a seat starts with (deployed: fewer in supply).
    per_player: [u8; 64],
}

impl Default for Conditions {
    fn default() -> Self {
        Conditions {
            mask: 0,
            other: 0,
            placed: Vec::new(),
            tile: Vec::new(),
            feature: [0; HOOKS],
            figure: [0; HOOKS],
            deployed: [0; HOOKS],
            per_player: [0; 64],
        }
    }
}

/// What a hook is about, for its conditions.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Subject {
    /// Nothing but the game (turn hooks).
    Game,
    /// A tile type (`on_tile_drawn`, `allow_tile`).
    Tile(TileTypeId),
    /// A feature node.
    Feature(NodeId),
    /// A figure kind.
    Figure(u8),
    /// A candidate figure placement (`allow_figures`): its kind and node.
    Candidate(u8, Option<NodeId>),
}

/// The hooks a condition may be given for.
fn hooks_for(when: u8) -> api::Hooks {
    use api::Hooks as H;
    match when {
        HookCondition::TILE_MARKER => H::TILE_DRAWN | H::ALLOW_TILE,
        HookCondition::FEATURE_KIND => H::FEATURE_COMPLETED | H::FEATURE_SCORED | H::ALLOW_FIGURE | H::MAJORITY,
        HookCondition::FIGURE_KIND => {
            H::FIGURE_PLACED | H::FIGURE_REMOVED | H::FIGURE_MOVED | H::PROTECTED | H::ALLOW_FIGURE
        }
        HookCondition::PLACED_TILE_MARKER | HookCondition::PLACED_TILE_FEATURE | HookCondition::DEPLOYED => H::ALL,
        _ => H::NONE,
    }
}

impl Conditions {
    /// Resolves a plugin's declared conditions (`hooks`: the hooks it subscribes to).
    pub(crate) fn resolve(conditions: &[HookCondition], hooks: u32, reg: &Registry) -> Result<Conditions, String> {
        let cat = reg.catalog();
        let tiles = cat.tiles.len();
        let mut c = Conditions { placed: vec![0; tiles], tile: vec![0; tiles], ..Conditions::default() };
        for d in conditions {
            let when = HookCondition::NAMES.get(d.when as usize).copied();
            let hook = api::Hooks::NAMES.get(d.hook as usize).copied();
            let (Some(when), Some(hook)) = (when, hook) else {
                return Err(format!("declares an unknown hook condition (hook #{}, condition #{})", d.hook, d.when));
            };
            let name = d.name.as_str();
            let what = format!("condition {when} '{}' on hook {hook}", name.escape_debug());
            if !hooks_for(d.when).contains(api::Hooks(1 << d.hook)) {
                return Err(format!("declares {what}, which that hook has nothing to test against"));
            }
            if hooks & (1 << d.hook) == 0 {
                return Err(format!("declares {what}, but does not subscribe to that hook"));
            }
            let bit = 1u32 << d.hook;
            let h = d.hook as usize;
            let marker = || match cat.marker(name) {
                0 => Err(format!("declares {what}: no tile of this rule set carries marker '{}'", name.escape_debug())),
                m => Ok(m),
            };
            let feature = || {
                FeatureKind::parse(name)
                    .ok_or_else(|| format!("declares {what}: '{}' is not a feature kind", name.escape_debug()))
            };
            let figure = || match reg.declared_figure_kind(name) {
                Some((id, def)) if (id as usize) < 64 => Ok((id, def.per_player)),
                _ => Err(format!(
                    "declares {what}: no plugin before it in priority order (nor itself) declares figure kind '{}'",
                    name.escape_debug()
                )),
            };
            match d.when {
                HookCondition::PLACED_TILE_MARKER => {
                    let m = marker()?;
                    for (t, slot) in cat.tiles.iter().zip(&mut c.placed) {
                        if t.markers & m != 0 {
                            *slot |= bit;
                        }
                    }
                }
                HookCondition::PLACED_TILE_FEATURE => {
                    let k = feature()?;
                    for (t, slot) in cat.tiles.iter().zip(&mut c.placed) {
                        if t.features().any(|f| f.kind == k) {
                            *slot |= bit;
                        }
                    }
                }
                HookCondition::TILE_MARKER => {
                    let m = marker()?;
                    for (t, slot) in cat.tiles.iter().zip(&mut c.tile) {
                        if t.markers & m != 0 {
                            *slot |= bit;
                        }
                    }
                }
                HookCondition::FEATURE_KIND => c.feature[h] |= 1 << feature()? as u8,
                HookCondition::FIGURE_KIND => c.figure[h] |= 1 << figure()?.0,
                _ => {
                    let (id, per_player) = figure()?;
                    c.deployed[h] |= 1 << id;
                    c.per_player[id as usize] = per_player;
                }
            }
            c.mask |= bit;
            if !matches!(d.when, HookCondition::PLACED_TILE_MARKER | HookCondition::PLACED_TILE_FEATURE) {
                c.other |= bit;
            }
        }
        Ok(c)
    }

    /// Whether hook `hook` is worth calling for `subject`: it has no conditions, or one of
    /// them holds. The placed tile's table inline; the other conditions out of line.
    #[inline(always)]
    pub(crate) fn wanted(&self, hook: usize, st: &State, subject: Subject) -> bool {
        let bit = 1u32 << hook;
        if self.mask & bit == 0 {
            return true;
        }
        if let Some((first, _)) = st.placed {
            let tile = st.board.parts[first as usize].tile as usize;
            if self.placed.get(tile).is_some_and(|&m| m & bit != 0) {
                return true;
            }
        }
        self.other & bit != 0 && self.holds(hook, st, subject)
    }

    /// Whether one of hook `hook`'s conditions other than the placed tile's holds.
    #[inline(always)]
    pub(crate) fn holds(&self, hook: usize, st: &State, subject: Subject) -> bool {
        let bit = 1u32 << hook;
        let feature =
            |n: NodeId| (n as usize) < st.graph.len() && self.feature[hook] >> st.graph.node(n).kind as u8 & 1 != 0;
        let figure = |k: u8| k < 64 && self.figure[hook] >> k & 1 != 0;
        let about = match subject {
            Subject::Game => false,
            Subject::Tile(t) => self.tile.get(t as usize).is_some_and(|&m| m & bit != 0),
            Subject::Feature(n) => feature(n),
            Subject::Figure(k) => figure(k),
            Subject::Candidate(k, n) => figure(k) || n.is_some_and(feature),
        };
        about || self.deployed_now(hook, st)
    }

    /// Whether the seat whose turn it is has a figure of a deployed-condition kind of
    /// `hook` out of its supply.
    fn deployed_now(&self, hook: usize, st: &State) -> bool {
        let mut kinds = self.deployed[hook];
        let Some(supply) = st.supply.get(st.current as usize) else { return false };
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            if supply.get(k).is_some_and(|&n| n < self.per_player[k]) {
                return true;
            }
        }
        false
    }

    /// Whether the plugin may ever judge a placement of tile `t` in `allow_tile` (its
    /// conditions there are about the tile, or about something else that may hold).
    pub(crate) fn may_judge_tile(&self, t: TileTypeId) -> bool {
        self.may_want_tile(api::Hooks::ALLOW_TILE, t)
    }

    /// Whether hook `h` (about a tile: `allow_tile`, `on_tile_drawn`) may be wanted for
    /// tile `t`: it has no conditions, one about the tile holds for `t`, or one about
    /// something else may hold (the placed tile's, whatever it is: a safe superset).
    pub(crate) fn may_want_tile(&self, h: api::Hooks, t: TileTypeId) -> bool {
        let (bit, hook) = (h.0, h.0.trailing_zeros() as usize);
        if self.mask & bit == 0 {
            return true;
        }
        let placed_any = self.placed.iter().any(|&m| m & bit != 0);
        placed_any || self.deployed[hook] != 0 || self.tile.get(t as usize).is_some_and(|&m| m & bit != 0)
    }

    /// Whether `on_tile_placed` may be wanted when tile `t` is the placed tile: it has no
    /// conditions, one about the placed tile holds for `t`, or a deployed one may hold.
    pub(crate) fn may_want_placed(&self, t: TileTypeId) -> bool {
        let bit = api::Hooks::TILE_PLACED.0;
        let hook = bit.trailing_zeros() as usize;
        self.mask & bit == 0 || self.deployed[hook] != 0 || self.placed.get(t as usize).is_some_and(|&m| m & bit != 0)
    }
}
