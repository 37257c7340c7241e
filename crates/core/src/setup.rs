//! Game setup as plugins build it: tile stacks and the start tile.

use crate::tile::TileTypeId;

/// A group of tiles shuffled together (e.g. the River before the land tiles).
#[derive(Clone, Debug, Default)]
pub struct TileGroup {
    pub name: String,
    /// Groups are drawn in ascending `order` (ties by name).
    pub order: i32,
    /// Shuffled tiles.
    pub tiles: Vec<TileTypeId>,
    /// Drawn after the shuffled tiles of the group, in this order.
    pub last: Vec<TileTypeId>,
}

/// What plugins build before the first turn.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub groups: Vec<TileGroup>,
    /// The start tile, placed at (0,0), rotation 0.
    pub start: Option<TileTypeId>,
    /// Figures each player gets, by figure kind index.
    pub players: usize,
}

impl Setup {
    /// The group named `name`, created with `order` if missing.
    pub fn group(&mut self, name: &str, order: i32) -> &mut TileGroup {
        if let Some(i) = self.groups.iter().position(|g| g.name == name) {
            return &mut self.groups[i];
        }
        self.groups.push(TileGroup { name: name.to_string(), order, ..Default::default() });
        self.groups.last_mut().expect("just pushed")
    }
}
