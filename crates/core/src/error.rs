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
        InputError { file: escape_controls(&file.into()), line, message: clip(&escape_controls(&message.into())) }
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

/// `s` with every control character escaped (`\n`, `\u{1b}`): a message stays on one
/// line and a name from a file cannot drive the terminal.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    s.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

/// Refuses a name shown on a terminal (rule-set name, tile ID, plugin name) that holds a
/// control character; the error names `what` and shows the name escaped.
pub fn check_printable(what: &str, name: &str) -> Result<(), String> {
    match name.chars().any(char::is_control) {
        true => Err(format!("{what} '{}' holds a control character", escape_controls(name))),
        false => Ok(()),
    }
}

/// Checks that `text` is a TOML file of the kind `what` before its content is quoted in
/// any error: it parses, every top-level key is one of `keys` and each `(key, type)` of
/// `required` is there with that type. A file of another kind (any TOML-like file a path
/// may name) gets an error with the line and the expected keys, never its keys or values.
pub fn check_shape(
    file: &str,
    text: &str,
    what: &str,
    keys: &[&str],
    required: &[(&str, &str)],
) -> Result<(), InputError> {
    let expected = || format!("a {what} has the keys {}", keys.join(", "));
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        let msg = redact_quoted(e.message().trim());
        let msg = if msg.is_empty() { "a value is missing (the file ends too early?)".into() } else { msg };
        InputError::new(file, line, format!("not valid TOML: {msg}"))
    })?;
    for key in table.keys() {
        if !keys.contains(&key.as_str()) {
            let line = top_level_key_line(text, key);
            return Err(InputError::new(file, line, format!("not a {what}: a key it does not have ({})", expected())));
        }
    }
    for (key, ty) in required {
        let found = table.get(*key).map(toml::Value::type_str);
        if found != Some(ty) {
            let problem = match found {
                None => format!("no `{key}`"),
                Some(_) => format!("`{key}` is not {}", article(ty)),
            };
            return Err(InputError::new(file, None, format!("not a {what}: {problem} ({})", expected())));
        }
    }
    Ok(())
}

fn article(ty: &str) -> String {
    match ty {
        "array" => "an array".into(),
        t => format!("a {t}"),
    }
}

/// The line of a top-level key (`key = ...`, `[key]`, `[[key]]` or `key.x = ...`), if found.
fn top_level_key_line(text: &str, key: &str) -> Option<usize> {
    // `key` followed by the end of a bare or quoted key.
    let starts = |l: &str| {
        let l = l.trim_start_matches(['"', '\'']);
        l.strip_prefix(key).is_some_and(|r| r.starts_with([' ', '\t', '=', '.', ']', '"', '\'']))
    };
    let mut in_table = false;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim_start();
        if let Some(h) = l.strip_prefix('[') {
            if starts(h.trim_start_matches('[').trim_start()) {
                return Some(i + 1);
            }
            in_table = true;
        } else if !in_table && starts(l) {
            return Some(i + 1);
        }
    }
    None
}

/// A TOML syntax message with quoted words (a key, a value) replaced by `...`: quoted
/// punctuation (`=`, `]`) stays.
fn redact_quoted(msg: &str) -> String {
    let mut out = String::new();
    for (i, part) in msg.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let quoted = i % 2 == 1;
        out.push_str(if quoted && part.chars().any(char::is_alphanumeric) { "..." } else { part });
    }
    out
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
    fn control_characters_are_escaped() {
        let e = InputError::new("t\x1b[2J.toml", None, "tile 'A\nB' at\r");
        assert_eq!(e.to_string(), "t\\u{1b}[2J.toml: tile 'A\\nB' at\\r");
        assert!(check_printable("tile ID", "A\u{7}").unwrap_err().contains("'A\\u{7}'"));
        assert!(check_printable("tile ID", "Ä-1").is_ok());
    }

    #[test]
    fn another_kind_of_file_is_refused_without_its_content() {
        let keys = ["set", "tiles"];
        let req = [("set", "string"), ("tiles", "array")];
        let shape = |text: &str| check_shape("f.toml", text, "tile file", &keys, &req).map_err(|e| e.to_string());
        let e = shape("# env\nAPI_TOKEN = \"hunter2\"\n").unwrap_err();
        assert_eq!(e, "f.toml:2: not a tile file: a key it does not have (a tile file has the keys set, tiles)");
        let e = shape("[secrets]\nx = 1\n").unwrap_err();
        assert!(e.starts_with("f.toml:1: not a tile file") && !e.contains("secrets"), "{e}");
        let e = shape("set = \"hunter2\"\n").unwrap_err();
        assert_eq!(e, "f.toml: not a tile file: no `tiles` (a tile file has the keys set, tiles)");
        let e = shape("set = 12345\ntiles = []\n").unwrap_err();
        assert!(e.contains("`set` is not a string") && !e.contains("12345"), "{e}");
        let e = shape("API_TOKEN = 1\nAPI_TOKEN = 2\n").unwrap_err();
        assert!(e.starts_with("f.toml:2: not valid TOML") && !e.contains("API_TOKEN"), "{e}");
        assert!(shape("set = \"s\"\ntiles = []\n").is_ok());
    }

    #[test]
    fn long_messages_are_clipped() {
        let e = InputError::new("t.toml", Some(3), "x".repeat(100_000));
        let msg = e.to_string();
        assert!(msg.len() < 2100 && msg.ends_with("... (100000 characters)"), "{}", msg.len());
    }
}
