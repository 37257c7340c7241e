//! Reading input files: only regular files (a named pipe would block forever, a device
//! such as `/dev/zero` never ends), with a size limit (a huge file is refused instead of
//! filling the memory).

use std::io::Read;
use std::path::Path;

/// Largest input file read (bytes).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The text of `path`, if it is a regular file (or a link to one) at most
/// [`MAX_INPUT_BYTES`] long and UTF-8.
pub fn read_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    check_regular(path.as_ref())?;
    let f = std::fs::File::open(path.as_ref())?;
    let mut text = String::new();
    f.take(MAX_INPUT_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!("larger than {} MiB", MAX_INPUT_BYTES >> 20)));
    }
    Ok(text)
}

/// Refuses what is not a regular file before it is opened (opening a named pipe blocks):
/// "is a directory", "is not a regular file (a named pipe)"; a missing file keeps the
/// system's error.
pub fn check_regular(path: &Path) -> std::io::Result<()> {
    let kind = std::fs::metadata(path)?.file_type();
    if kind.is_file() {
        return Ok(());
    }
    if kind.is_dir() {
        return Err(std::io::Error::other("is a directory"));
    }
    Err(std::io::Error::other(format!("is not a regular file ({})", kind_name(&kind))))
}

fn kind_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = kind;
    "a special file"
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_device_is_refused_unread() {
        if std::path::Path::new("/dev/zero").exists() {
            let e = super::read_text("/dev/zero").unwrap_err().to_string();
            assert_eq!(e, "is not a regular file (a device)");
        }
    }

    #[test]
    fn a_directory_is_named_as_such() {
        let e = super::read_text(std::env::temp_dir()).unwrap_err().to_string();
        assert_eq!(e, "is a directory");
    }

    #[test]
    fn a_missing_file_keeps_the_system_error() {
        let e = super::read_text("/no/such/file.toml").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }
}
