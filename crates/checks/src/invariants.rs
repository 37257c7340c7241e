//! The state invariants checked after every action of a fuzzed or random game.

use carcassonne_core::geometry::Side;
use carcassonne_core::tile::{sides_fit, signature_side};
use carcassonne_core::Game;
use carcassonne_plugin_tower::TowerState;

/// The lowest score the built-in rules allow a seat at the game's turn: only the tower's
/// ransom (at most its `ransom` option once per turn) and the bazaar's payments (at most
/// its `max_bid` per auction, at most one auction per turn) take points away.
pub fn min_score(g: &Game) -> i64 {
    let option = |plugin: &str, key: &str| {
        (g.rules.plugins.iter().find(|p| p.name == plugin))
            .and_then(|p| p.options.get(key))
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0)
    };
    -(option("tower", "ransom") + option("bazaar", "max_bid")) * (i64::from(g.st.turn) + 1)
}

/// Checks, panicking with what broke: the game did not fail; every figure a seat owns is
/// on the board, in its supply or another seat's prisoner (figures conserved); every side
/// of a placed tile matches its neighbour (edges matching); each score is the sum of its
/// points by source and lies within [`min_score`] and `i32::MAX` (never saturated).
pub fn check_state(g: &Game) {
    let (r, st) = (&g.rules, &g.st);
    let turn = st.turn;
    assert!(g.failure().is_none(), "turn {turn}: the game failed: {:?}", g.failure());
    let tower = r.plugin_index("tower").map(|i| st.plugin::<TowerState>(i));
    for (k, def) in r.figure_kinds.iter().enumerate().filter(|(_, d)| d.per_player > 0) {
        for seat in 0..st.players {
            let mine = |owner: u8, kind: u8| owner == seat as u8 && kind == k as u8;
            let on = st.figures.iter().filter(|f| f.alive && mine(f.owner, f.kind)).count();
            let held = tower.map_or(0, |t| t.prisoners.iter().filter(|p| mine(p.owner, p.kind)).count());
            let supply = st.supply[seat][k] as usize;
            assert_eq!(on + held + supply, def.per_player as usize, "turn {turn}: {} of seat {seat}", def.name);
        }
    }
    let b = &st.board;
    for p in &b.parts {
        for s in Side::ALL {
            if let Some(n) = b.part_at(p.pos.step(s)) {
                let other = &b.parts[n as usize];
                let (mine, theirs) = (signature_side(p.signature, s), signature_side(other.signature, s.opposite()));
                assert!(sides_fit(mine, theirs), "turn {turn}: {} side {s:?} does not match {}", p.pos, other.pos);
            }
        }
    }
    let low = min_score(g);
    for (seat, &score) in st.scores().iter().enumerate() {
        let by_source: i64 = st.points_by_source[seat].iter().map(|&p| i64::from(p)).sum();
        assert_eq!(i64::from(score), by_source, "turn {turn}: seat {seat}'s score is not its points by source");
        assert!(i64::from(score) >= low, "turn {turn}: seat {seat} has {score}, below {low}");
        assert!(score < i32::MAX, "turn {turn}: seat {seat}'s score reached the saturation bound");
    }
}
