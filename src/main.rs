//! The `carcassonne` binary.

/// mimalloc instead of the system allocator: copying a game (a search's every playout) is a
/// few vectors, and glibc's malloc and free cost more than the copy for the ones past its
/// small-block cache (docs/performance.md, "Copies and the allocator"). The library sets
/// none: a program that uses it chooses its own.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    carcassonne_cli::main()
}
