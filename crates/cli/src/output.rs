//! Writing output files safely: a file appears complete or not at all.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
/// so an interrupted write never leaves a truncated file under the final name. A symbolic
/// link is followed (its target is replaced, not the link); something that is not a
/// regular file (a device such as `/dev/stdout`, a named pipe) is written to directly.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() && !meta.is_dir() {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            return f.write_all(bytes).and_then(|_| f.flush());
        }
    }
    let target = std::fs::canonicalize(path).ok().filter(|_| path.is_symlink());
    let path = target.as_deref().unwrap_or(path);
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let res = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res
}

/// Checks that files can be created in `dir` (before a run writes there): creates and
/// removes an empty probe file. The error is the system's reason (permission denied, a
/// read-only file system, ...).
pub fn check_writable_dir(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(".carcassonne-probe-{}", std::process::id()));
    std::fs::OpenOptions::new().write(true).create_new(true).open(&probe)?;
    std::fs::remove_file(&probe)
}

/// Final scores as `seat 0: 12, seat 1: 30`.
pub fn scores_line(scores: &[i32]) -> String {
    scores.iter().enumerate().map(|(i, s)| format!("seat {i}: {s}")).collect::<Vec<_>>().join(", ")
}

/// Writes `text` to standard output; a failure (a closed pipe, a full disk) is an error
/// naming standard output instead of a panic.
pub fn print_out(text: &str) -> Result<(), crate::CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| crate::CliError::failure(format!("standard output: {e}")))
}

/// The tag of [`game_result_json`]'s shape.
pub const RESULT_FORMAT: &str = "carcassonne-result/1";

/// The JSON result of one game, as `play --json` and `replay --json` print it (one
/// shape): the rule set, its plugins in order with priority and options, seed, seats,
/// turns, tiles discarded and final scores.
pub fn game_result_json(game: &carcassonne_core::Game, seed: u64) -> serde_json::Value {
    let rules = &game.rules;
    let plugins: Vec<serde_json::Value> = rules
        .plugins
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "priority": p.priority, "options": p.options}))
        .collect();
    serde_json::json!({
        "format": RESULT_FORMAT,
        "rules": rules.name,
        "plugins": plugins,
        "seed": seed,
        "players": game.st.players,
        "turns": game.st.turn.saturating_sub(1),
        "discarded": game.st.discarded,
        "final_scores": game.scores(),
    })
}
