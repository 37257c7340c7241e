//! Fuzz target `tiles_toml`: [`carcassonne_checks::tiles_toml`] on each input (docs/fuzzing.md).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        carcassonne_checks::tiles_toml(data);
    });
}
