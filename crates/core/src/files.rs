//! Reading input files with a size limit: a rule set, tile file or record named by
//! mistake as `/dev/zero` or a huge file is refused instead of filling the memory.

use std::io::Read;
use std::path::Path;

/// Largest input file read (bytes).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The text of `path`, if it is at most [`MAX_INPUT_BYTES`] long and UTF-8.
pub fn read_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    let f = std::fs::File::open(path.as_ref())?;
    let mut text = String::new();
    f.take(MAX_INPUT_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!("larger than {} MiB", MAX_INPUT_BYTES >> 20)));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_endless_file_is_refused() {
        if std::path::Path::new("/dev/zero").exists() {
            let e = super::read_text("/dev/zero").unwrap_err().to_string();
            assert!(e.contains("larger than 64 MiB"), "{e}");
        }
    }
}
