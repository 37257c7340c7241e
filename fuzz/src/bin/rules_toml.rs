//! Fuzz target `rules_toml`: [`carcassonne_checks::rules_toml`] on each input (docs/fuzzing.md).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        carcassonne_checks::rules_toml(data);
    });
}
