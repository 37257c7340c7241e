//! What copying a game allocates (counted by a global allocator of this test binary): a
//! tree search copies positions by the million, and each heap block of a copy costs more
//! than the bytes it holds. A mid-game base position's `clone` allocates one block per
//! vector that holds something (the board's cells, parts, frontier, need codes and open
//! cloisters, the feature graph, the figures, the draw pile) and nothing for the plugin
//! states (base keeps none: no slot list); `clone_from` into a scratch game
//! that held as large a position allocates nothing, plugin states with vectors included
//! (they copy field by field, `carcassonne_core::clone_fields!`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

mod position_util;

use carcassonne_cli::builtin::load_rules_file;
use position_util::mid_game;

/// The system allocator, counting this thread's allocations while `COUNTING` is set.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static BLOCKS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            BLOCKS.with(|b| b.set(b.get() + 1));
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            BLOCKS.with(|b| b.set(b.get() + 1));
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap blocks allocated by `f` on this thread.
fn blocks<T>(f: impl FnOnce() -> T) -> (usize, T) {
    BLOCKS.with(|b| b.set(0));
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (BLOCKS.with(Cell::get), out)
}

#[test]
fn a_base_mid_game_clone_allocates_one_block_per_filled_vector() {
    // The position the criterion `clone` bench copies.
    let game = mid_game(&load_rules_file("config/base.toml").unwrap().0, 7, 70);
    let st = &game.st;
    assert!(st.board.len() > 20 && !st.figures.is_empty() && !st.stack.is_empty());
    assert!(st.completed.is_empty() && st.pending.is_empty() && st.extra_features.is_empty());
    assert!(st.stats.is_empty() && st.log.is_none());
    let (n, copy) = blocks(|| game.clone());
    // The state's own block (a game is a handle: `Game::st` is boxed), then cells, parts,
    // frontier, need codes, open cloisters, graph nodes, figures, draw pile.
    assert_eq!(n, 9, "blocks allocated by one clone");
    assert_eq!(format!("{:?}", copy.st), format!("{:?}", game.st));
}

#[test]
fn clone_from_into_a_scratch_game_allocates_nothing() {
    for file in [
        "config/base.toml",
        "config/princess-dragon.toml",
        "config/classic-everything.toml",
        "config/2025-everything.toml",
    ] {
        let rules = load_rules_file(file).unwrap().0;
        // The position the criterion `clone_from` bench copies.
        let game = mid_game(&rules, 7, 70);
        // The scratch game held a copy of this position once: every vector has room.
        let mut scratch = game.clone();
        scratch.clone_from(&mid_game(&rules, 8, 20));
        let (n, ()) = blocks(|| scratch.clone_from(&game));
        assert_eq!(n, 0, "{file}: blocks allocated by clone_from");
        assert_eq!(format!("{:?}", scratch.st), format!("{:?}", game.st), "{file}");
    }
}

#[test]
fn a_game_is_a_small_handle() {
    // A game moves (into a vector of positions, out of a function) without copying its
    // state: the rules' and the state's addresses only (docs/performance.md, step 23).
    assert_eq!(std::mem::size_of::<carcassonne_core::Game>(), 2 * std::mem::size_of::<usize>());
}
