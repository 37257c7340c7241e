//! Fuzz target `record_json`: [`carcassonne_checks::record_json`] on each input (docs/fuzzing.md).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        carcassonne_checks::record_json(data);
    });
}
