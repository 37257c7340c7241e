//! What the fuzz targets (`fuzz/`, `docs/fuzzing.md`) and their proptest versions
//! (`tests/fuzz_properties.rs`) check, in one place: whatever the input, no panic; a bad
//! input gives a one-line error naming its file; every game keeps its invariants after
//! every action and replays from its record to the same scores.
//!
//! Each target takes raw bytes: [`rules_toml`], [`tiles_toml`], [`record_json`],
//! [`random_actions`]. A violated property panics (the fuzzer's crash).

mod invariants;
mod targets;

pub use invariants::{check_state, min_score};
pub use targets::{embedded_rule_sets, play_driven, random_actions, record_json, rules_toml, tiles_toml};

/// Bytes read one by one as choices; when they run out, choices come from a seeded
/// generator (so a short input still plays a whole game).
pub struct Choices<'a> {
    data: &'a [u8],
    state: u64,
}

impl<'a> Choices<'a> {
    /// Choices from `data`, then from `seed`.
    pub fn new(data: &'a [u8], seed: u64) -> Self {
        Choices { data, state: seed }
    }

    /// The next byte (of the input, then of the generator).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => (self.splitmix() >> 56) as u8,
        }
    }

    /// A number below `n` (> 0): two bytes of the input, else the generator.
    pub fn below(&mut self, n: usize) -> usize {
        if self.data.len() >= 2 {
            let v = u16::from_le_bytes([self.byte(), self.byte()]) as usize;
            return v % n;
        }
        self.data = &[];
        (self.splitmix() % n as u64) as usize
    }

    /// Eight bytes as a number (zero-padded when the input is short).
    pub fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.data.split_first().map_or(0, |(&v, _)| v);
            self.data = self.data.get(1..).unwrap_or(&[]);
        }
        u64::from_le_bytes(b)
    }

    fn splitmix(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Asserts that an input error, as printed, is one line without control characters and
/// starts with a file name from `files`.
pub fn check_error(e: &str, files: &[&str]) {
    assert!(!e.chars().any(char::is_control), "an error holds a control character: {e:?}");
    assert!(files.iter().any(|f| e.starts_with(f)), "the error names no input file ({files:?}): {e}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> std::sync::Arc<carcassonne_core::Rules> {
        let sets = embedded_rule_sets();
        sets.iter().find(|(f, ..)| f.ends_with("config/base.toml")).unwrap().1.clone()
    }

    #[test]
    fn a_driven_game_is_played_to_its_end() {
        let mut c = Choices::new(&[1, 2, 3, 250, 7], 9);
        let g = play_driven(&base(), 3, 5, &mut c, false, usize::MAX);
        assert!(g.is_over() && g.st.turn > 60, "turn {}", g.st.turn);
    }

    #[test]
    #[should_panic(expected = "follower of seat 0")]
    fn a_lost_follower_is_caught() {
        let mut c = Choices::new(&[], 1);
        let mut g = play_driven(&base(), 2, 1, &mut c, false, 10);
        g.st.supply[0][0] -= 1;
        check_state(&g);
    }

    #[test]
    #[should_panic(expected = "is not its points by source")]
    fn a_score_without_its_source_is_caught() {
        let mut c = Choices::new(&[], 1);
        let mut g = play_driven(&base(), 2, 1, &mut c, false, 10);
        g.st.scores[1] += 1;
        check_state(&g);
    }

    #[test]
    fn the_error_check_wants_one_clean_line_naming_the_file() {
        check_error("a.toml:3: bad", &["a.toml"]);
        for bad in ["a.toml:3: two\nlines", "b.toml: other file", "a.toml: \u{1b}[2J"] {
            assert!(std::panic::catch_unwind(|| check_error(bad, &["a.toml"])).is_err(), "{bad:?}");
        }
    }
}
