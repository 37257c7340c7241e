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

impl Setup {
    /// Adds to the land tiles every copy of every tile of `set` (a set that is one
    /// expansion); with `first_edition`, their 1st-edition printings replace the originals.
    pub fn add_land_tiles(
        &mut self,
        rules: &crate::rules::Rules,
        set: &str,
        first_edition: bool,
    ) -> Result<(), String> {
        let tiles = rules
            .catalog
            .copies(set, |_| true, first_edition)
            .ok_or_else(|| format!("tile set '{set}' is not loaded"))?;
        self.group("land", 0).tiles.extend(tiles);
        Ok(())
    }

    /// Adds to the land tiles every copy of the tiles of `set` carrying a marker of
    /// `markers`; with `first_edition`, their 1st-edition printings (`variant_of`) replace
    /// the originals.
    pub fn add_marked_land_tiles(
        &mut self,
        rules: &crate::rules::Rules,
        set: &str,
        markers: u32,
        first_edition: bool,
    ) -> Result<(), String> {
        let tiles = rules
            .catalog
            .copies(set, |t| t.markers & markers != 0, first_edition)
            .ok_or_else(|| format!("tile set '{set}' is not loaded"))?;
        self.group("land", 0).tiles.extend(tiles);
        Ok(())
    }
}

/// Checks an `edition` option (1 or 2).
pub fn check_edition(edition: u8) -> Result<(), String> {
    match edition {
        1 | 2 => Ok(()),
        e => Err(format!("`edition`: {e} is not an edition (1 or 2)")),
    }
}
