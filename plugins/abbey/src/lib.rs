//! The abbey of Abbey & Mayor (EXPANSIONS.md ABBEY-1..4) and the set's land tiles.
//!
//! - Tiles: the 12 land tiles of its tile set (`tile_set`, AM1-AM12; `edition = 1`: AM7c1
//!   without a garden) go into the land tiles (`land_tiles = false` leaves them out). The
//!   abbey tile is the set's tile with the marker `abbey` (AM0), a tile that is not a land
//!   tile (`land = false`, TILES-MORE.md rule 21): never in the supply.
//! - ABBEY-1: each seat starts with one abbey ([`AbbeyState::has`]).
//! - ABBEY-2: at the start of their turn (`on_turn_start`, requested while a seat has its
//!   abbey and in the last round: `hooks_on_request`), a player who still has their abbey
//!   and for whom some empty cell has four placed neighbours (and every plugin allows
//!   the abbey there) decides first (a plugin decision): `pass` draws as usual, the action
//!   `abbey` hands them the abbey instead of a draw (`State::turn_tile`,
//!   [`TurnTile::Given`]). The abbey is then placed like a drawn tile; `allow_tile` keeps it
//!   to cells with four placed neighbours (the reason is given in errors). The rest of the
//!   turn is a normal turn: figure action, scoring. Statistic `abbeys_placed`. Such cells
//!   (holes) are gathered as tiles are placed (`on_tile_placed`: a cell becomes one only
//!   when a tile is placed beside it, `Board::holes_beside`), so the turn-start question
//!   reads a short list, not the whole frontier.
//! - ABBEY-3: the abbey's tile data makes it a monastery (`monastery[]`: base's monk, the
//!   abbot, 9 points when surrounded, 1 + 1 per neighbour at the end, and every plugin that
//!   counts monasteries). Its sides are closed sides (`closed_sides`): they fit any
//!   neighbour and the core closes each road or city side that meets them, so roads and
//!   cities completed there score that turn; it has no field, so fields stop there. The
//!   abbey tile is no part of the roads and cities it closes (it counts for none of them).
//! - ABBEY-4: after the turn in which the last land tile was placed or discarded
//!   (`on_turn_end` with the stack empty), the seats that still have their abbey, in turn
//!   order from the seat after that turn's player (that player last), each get one turn of
//!   the last round (`State::next_player`; `game_goes_on` answered true while one is due):
//!   the same decision (`abbey`, or `pass`: the turn has no tile, [`TurnTile::NoTile`]);
//!   a seat for whom no cell fits has no choice and its turn has no tile. Then the final
//!   scoring. Statistic `abbeys_last_round`.
//! - Combinations (README interpretations): the abbey shows no symbol (no dragon move,
//!   volcano, lair or portal), extends no road or city (no builder's extra turn), and is a
//!   monastery for the abbot, the wagon, castles' neighbourhoods and vineyards. A dragon or
//!   fairy treats it as any tile.

mod draw;

use carcassonne_core::action::{Action, Decision, DecisionKind};
use carcassonne_core::config::{build_from_options, PluginFactory};
use carcassonne_core::plugin::{Hooks, Plugin, PluginState, Query, QueryKey, TilePlacement};
use carcassonne_core::rules::{Registry, Rules};
use carcassonne_core::setup::Setup;
use carcassonne_core::state::State;
use carcassonne_core::{Pos, Rotation, Side, TileTypeId, TurnTile};
use serde::{Deserialize, Serialize};

/// Options of the abbey.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Abbey {
    /// Tile set holding the abbey tile and the expansion's land tiles.
    pub tile_set: String,
    /// 2 (C2 printing: AM7 with a garden) or 1 (C1: AM7c1).
    #[serde(deserialize_with = "carcassonne_core::options::range::<1, 2, _, _>")]
    pub edition: u8,
    /// Whether the set's land tiles (AM1-AM12) go into the supply.
    pub land_tiles: bool,
    #[serde(skip)]
    ids: Ids,
}

#[derive(Clone, Debug, Default)]
struct Ids {
    tile: TileTypeId,
    placed: usize,
    last_round: usize,
}

impl Default for Abbey {
    fn default() -> Self {
        Abbey { tile_set: "abbey-mayor".into(), edition: 2, land_tiles: true, ids: Ids::default() }
    }
}

/// The factory a rule set names as `abbey`.
pub fn factory() -> PluginFactory {
    PluginFactory {
        name: "abbey",
        summary: "Abbey & Mayor's abbey and land tiles: the abbey instead of a draw, into a cell with four \
                  neighbours, closing what meets it; a last round after the last tile (ABBEY-1..4)",
        requires: &["base"],
        conflicts: &[],
        build: build_from_options::<Abbey>,
    }
}

/// The code of the `abbey` action.
const TAKE: u16 = 1;
/// The code of the decision.
const CHOOSE: u16 = 1;

/// The plugin's game state.
#[derive(Debug, Default)]
pub struct AbbeyState {
    /// Seats that still have their abbey (bit = seat).
    pub has: u8,
    /// ABBEY-4: the seats still due a turn of the last round, in order (None before it).
    pub last_round: Option<Vec<u8>>,
    /// The seat whose last-round turn comes next.
    pub scheduled: Option<u8>,
    /// The current turn is a last-round turn.
    pub in_last_round: bool,
    /// Every empty cell with four placed neighbours (ABBEY-2), gathered as tiles are
    /// placed (a cell becomes one only when a tile is placed beside it), while a seat still
    /// has its abbey. It may also hold cells filled since: they are dropped when the
    /// turn-start question reads the list (a seat with its abbey, a normal draw).
    pub holes: Vec<Pos>,
}

carcassonne_core::clone_fields!(AbbeyState { has, last_round, scheduled, in_last_round, holes });

impl Abbey {
    /// ABBEY-2: an empty cell with four placed neighbours.
    fn hole(st: &State, p: Pos) -> bool {
        Side::ALL.iter().all(|&s| st.board.is_placed(p.step(s)))
    }

    /// Whether the abbey fits somewhere now (a hole every plugin allows it into); drops the
    /// holes filled since.
    fn fits_somewhere(&self, rules: &Rules, st: &mut State, me: usize) -> bool {
        let mut holes = std::mem::take(&mut st.plugin_mut::<AbbeyState>(me).holes);
        holes.retain(|&pos| !st.board.is_placed(pos));
        let fits = holes.iter().any(|&pos| {
            rules.allow_tile(
                st,
                &TilePlacement { tile: self.ids.tile, face: 0, pos, rot: Rotation::default(), variant: 0 },
            )
        });
        st.plugin_mut::<AbbeyState>(me).holes = holes;
        fits
    }
}

impl Plugin for Abbey {
    fn draw(
        &self,
        rules: &carcassonne_core::Rules,
        st: &carcassonne_core::State,
        me: usize,
        canvas: &mut dyn carcassonne_core::Canvas,
    ) {
        draw::draw(self, rules, st, me, canvas)
    }

    fn name(&self) -> &str {
        "abbey"
    }

    fn hooks(&self) -> Hooks {
        Hooks::GAME_START | Hooks::TURN_START | Hooks::TILE_PLACED | Hooks::ALLOW_TILE | Hooks::TURN_END | Hooks::QUERY
    }

    /// The turn's start and the holes only while a seat has its abbey or the last round is
    /// on (requested at the game's start, again by each while that holds, and when the last
    /// round begins).
    fn hooks_on_request(&self) -> Hooks {
        Hooks::TURN_START | Hooks::TILE_PLACED
    }

    fn on_game_start(&self, _rules: &Rules, st: &mut State, me: usize) {
        st.request_hook(me, Hooks::TURN_START | Hooks::TILE_PLACED);
    }

    /// The holes beside the placed tile (ABBEY-2), while a seat still has its abbey.
    fn on_tile_placed(&self, _rules: &Rules, st: &mut State, me: usize) {
        if st.plugin::<AbbeyState>(me).has == 0 {
            return;
        }
        st.request_hook(me, Hooks::TILE_PLACED);
        let s = st.plugin_mut::<AbbeyState>(me);
        let mut holes = std::mem::take(&mut s.holes);
        for part in st.placed_parts() {
            st.board.holes_beside(st.board.parts[part as usize].pos, |q| {
                if !holes.contains(&q) {
                    holes.push(q);
                }
            });
        }
        st.plugin_mut::<AbbeyState>(me).holes = holes;
    }

    fn register(&mut self, reg: &mut Registry) -> Result<(), String> {
        carcassonne_core::setup::check_edition(self.edition)?;
        let bit = reg.require_marker(&self.tile_set, "abbey")?;
        let cat = reg.catalog();
        let ids = cat.set(&self.tile_set).unwrap_or_default();
        self.ids.tile = *ids
            .iter()
            .find(|&&t| cat.tile(t).markers & bit != 0)
            .ok_or_else(|| format!("tile set '{}' has no tile with the marker `abbey`", self.tile_set))?;
        if cat.tile(self.ids.tile).land {
            return Err(format!(
                "tile {}: the abbey is not a land tile (TILES-MORE.md rule 21): it needs `land = false`",
                cat.tile(self.ids.tile).id
            ));
        }
        self.ids.placed = reg.stat("abbeys_placed");
        self.ids.last_round = reg.stat("abbeys_last_round");
        Ok(())
    }

    fn setup(&self, rules: &Rules, setup: &mut Setup) -> Result<(), String> {
        if self.land_tiles {
            setup.add_land_tiles(rules, &self.tile_set, self.edition == 1)?;
        }
        Ok(())
    }

    fn init_state(&self, _rules: &Rules, players: usize) -> Option<Box<dyn PluginState>> {
        Some(Box::new(AbbeyState { has: ((1u16 << players) - 1) as u8, ..Default::default() }))
    }

    /// ABBEY-2 (and ABBEY-4 in the last round): the choice before the draw.
    fn on_turn_start(&self, rules: &Rules, st: &mut State, me: usize) {
        let seat = st.current;
        let s = st.plugin::<AbbeyState>(me);
        if s.has == 0 && s.last_round.is_none() {
            return;
        }
        st.request_hook(me, Hooks::TURN_START);
        let s = st.plugin_mut::<AbbeyState>(me);
        let last = s.last_round.is_some();
        if last {
            s.in_last_round = s.scheduled == Some(seat);
            s.scheduled = None;
        }
        let has = s.has & (1 << seat) != 0;
        // ABBEY-2: the abbey replaces a draw; a turn whose tile another plugin hands out
        // (a tile won at a bazaar auction, BAZAAR-3) has no draw to replace.
        if st.turn_tile != TurnTile::Draw {
            return;
        }
        let can = has && self.fits_somewhere(rules, st, me);
        if can {
            st.push_decision(Decision {
                player: seat,
                kind: DecisionKind::Plugin { plugin: me as u8, code: CHOOSE, data: last as i32 },
            });
        } else if last {
            st.turn_tile = TurnTile::NoTile;
        }
    }

    fn decision_actions(&self, _rules: &Rules, _st: &State, me: usize, _d: &Decision, out: &mut Vec<Action>) {
        out.push(Action::Plugin { plugin: me as u8, code: TAKE, a: 0, b: 0 });
        out.push(Action::Pass);
    }

    fn apply_action(&self, rules: &Rules, st: &mut State, me: usize, d: &Decision, a: &Action) {
        let last = matches!(d.kind, DecisionKind::Plugin { data: 1, .. });
        match a {
            Action::Plugin { code: TAKE, .. } => {
                st.plugin_mut::<AbbeyState>(me).has &= !(1 << d.player);
                st.turn_tile = TurnTile::Given(self.ids.tile);
                st.bump_stat(self.ids.placed, 1);
                if last {
                    st.bump_stat(self.ids.last_round, 1);
                }
                st.note(rules, me, format_args!("seat {} plays their abbey instead of drawing", d.player));
            }
            _ if last => st.turn_tile = TurnTile::NoTile,
            _ => {}
        }
    }

    fn describe_action(&self, _rules: &Rules, _st: &State, _me: usize, a: &Action) -> serde_json::Value {
        match a {
            Action::Plugin { code: TAKE, .. } => serde_json::json!({"action": "abbey"}),
            _ => serde_json::Value::Null,
        }
    }

    fn may_veto_tile(&self, _rules: &Rules, tile: TileTypeId) -> bool {
        tile == self.ids.tile
    }

    /// ABBEY-2: the abbey goes only into a cell whose four neighbours hold tiles.
    fn allow_tile(&self, _rules: &Rules, st: &State, _me: usize, p: &TilePlacement) -> bool {
        p.tile != self.ids.tile || Self::hole(st, p.pos)
    }

    fn tile_veto_reason(&self, _rules: &Rules, _st: &State, _me: usize, p: &TilePlacement) -> Option<String> {
        Some(format!(
            "the abbey goes only into a cell whose four neighbours hold tiles, and {} has fewer (ABBEY-2)",
            p.pos
        ))
    }

    /// ABBEY-4: once the stack is empty, the last round: each seat that still has its
    /// abbey, from the seat after the last tile's player.
    fn on_turn_end(&self, _rules: &Rules, st: &mut State, me: usize) {
        if !st.stack.is_empty() {
            return;
        }
        // ABBEY-4: the last round's turns start with the abbey's question.
        st.request_hook(me, Hooks::TURN_START);
        let (players, current) = (st.players, st.current);
        let s = st.plugin_mut::<AbbeyState>(me);
        s.in_last_round = false;
        if s.last_round.is_none() {
            let has = s.has;
            let order = (1..=players).map(|k| ((current as usize + k) % players) as u8);
            s.last_round = Some(order.filter(|&p| has & (1 << p) != 0).collect());
        }
        let queue = s.last_round.as_mut().expect("set above");
        let next = (!queue.is_empty()).then(|| queue.remove(0));
        s.scheduled = next;
        if next.is_some() {
            st.next_player = next;
        }
    }

    fn query_names(&self) -> Option<&'static [&'static str]> {
        Some(&["game_goes_on"])
    }

    /// ABBEY-4: the game goes on while a last-round turn is due (or, before the last
    /// round is set up, while some seat has its abbey).
    fn answer(&self, _rules: &Rules, st: &State, me: usize, q: &Query) -> Option<bool> {
        if q.key != QueryKey::GAME_GOES_ON {
            return None;
        }
        let s = st.plugin::<AbbeyState>(me);
        Some(match s.last_round {
            None => s.has != 0,
            Some(_) => s.scheduled.is_some(),
        })
    }
}
