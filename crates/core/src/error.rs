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
        InputError { file: file.into(), line, message: message.into() }
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
    InputError::new(file, line, e.message().trim().to_string())
}
