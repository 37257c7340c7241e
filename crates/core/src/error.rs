//! Errors for bad input: each names the file (and line or key where known).

use std::fmt;

/// An error in user input (rule set, tile data, record, scenario), with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or embedded name) the error is in.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong, naming the key or tile.
    pub message: String,
}

impl InputError {
    pub fn new(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Self {
        InputError { file: file.into(), line, message: clip(&message.into()) }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file, l, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// 1-based line of byte offset `pos` in `text`.
pub fn line_of(text: &str, pos: usize) -> usize {
    text.as_bytes()[..pos.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Turns a `toml` parse error into an [`InputError`] with its line.
pub fn from_toml(file: &str, text: &str, e: &toml::de::Error) -> InputError {
    let line = e.span().map(|s| line_of(text, s.start));
    let msg = e.message().trim();
    // toml says nothing for some errors at the end of the text (`key = ` and no value).
    let msg = if msg.is_empty() { "a value is missing (the file ends too early?)" } else { msg };
    InputError::new(file, line, msg)
}

/// A message quoting input is cut to a readable length (a 100,000-character line of a
/// tile file is not echoed whole).
pub fn clip(msg: &str) -> String {
    const MAX: usize = 2000;
    match msg.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}... ({} characters)", &msg[..i], msg.chars().count()),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_missing_at_the_end_is_named() {
        let text = "name = ";
        let e = toml::from_str::<toml::Table>(text).unwrap_err();
        let msg = from_toml("f.toml", text, &e).to_string();
        assert!(msg.starts_with("f.toml:1: ") && msg.len() > "f.toml:1: ".len(), "{msg}");
    }

    #[test]
    fn long_messages_are_clipped() {
        let e = InputError::new("t.toml", Some(3), "x".repeat(100_000));
        let msg = e.to_string();
        assert!(msg.len() < 2100 && msg.ends_with("... (100000 characters)"), "{}", msg.len());
    }
}
