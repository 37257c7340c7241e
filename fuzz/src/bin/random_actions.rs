//! Fuzz target `random_actions`: [`carcassonne_checks::random_actions`] on each input (docs/fuzzing.md).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        carcassonne_checks::random_actions(data);
    });
}
