//! Issue 15, class 3: only regular files are read. A named pipe (which would block
//! forever), a directory or a device named as a rule set, tile file, record or plugin file
//! is refused with what it is (exit code 2, one line).

mod simulate_util;

use std::path::{Path, PathBuf};

use serde_json::Value;
use simulate_util::{bad_input, ok, scratch};

fn fifo(dir: &Path) -> PathBuf {
    let p = dir.join("pipe");
    let st = std::process::Command::new("mkfifo").arg(&p).status().expect("mkfifo");
    assert!(st.success());
    p
}

/// A record of a short game on `config/base.toml`, as JSON.
fn record(dir: &Path) -> Value {
    let rec = dir.join("g.json");
    ok(&["play", "--rules", "config/base.toml", "--record", rec.to_str().unwrap()]);
    serde_json::from_str(&std::fs::read_to_string(rec).unwrap()).unwrap()
}

fn replay_err(dir: &Path, rec: &Value, needle: &str) -> String {
    let p = dir.join("changed.json");
    std::fs::write(&p, rec.to_string()).unwrap();
    bad_input(&["replay", p.to_str().unwrap()], needle)
}

#[test]
fn a_named_pipe_as_rules_file_or_tile_file_is_refused_unopened() {
    let dir = scratch("fifo");
    let pipe = fifo(&dir);
    let pipe = pipe.to_str().unwrap();
    let mut rec = record(&dir);
    // `rules.file` names the pipe and the record holds no text: the file would be read.
    let mut by_file = rec.clone();
    by_file["rules"]["file"] = pipe.into();
    by_file["rules"].as_object_mut().unwrap().remove("text");
    by_file["rules"].as_object_mut().unwrap().remove("dir");
    let e = replay_err(&dir, &by_file, "is not a regular file (a named pipe)");
    assert!(e.contains(&format!("error: {pipe}: cannot read rule set: is not a regular file (a named pipe)")), "{e}");
    // A tile path of `rules.text` names the pipe.
    let text = rec["rules"]["text"].as_str().unwrap().replace("tiles/base.toml", pipe);
    rec["rules"]["text"] = text.into();
    let e = replay_err(&dir, &rec, "is not a regular file (a named pipe)");
    assert!(e.contains(&format!("tiles.base = '{pipe}': cannot read '{pipe}': is not a regular file")), "{e}");
    // As `--rules` and as a record.
    bad_input(
        &["play", "--rules", pipe],
        &format!("{pipe}: cannot read rule set: is not a regular file (a named pipe)"),
    );
    bad_input(&["replay", pipe], &format!("{pipe}: is not a regular file (a named pipe)"));
}

#[test]
fn a_directory_is_named_as_such() {
    let dir = scratch("dir-input");
    let d = dir.to_str().unwrap();
    bad_input(&["play", "--rules", d], &format!("{d}: cannot read rule set: is a directory"));
    bad_input(&["replay", d], &format!("{d}: is a directory"));
    bad_input(&["merge", d], &format!("{d}: is a directory"));
}

/// The rule set `config/base.toml` with a plugin file at `path`.
fn with_plugin_file(dir: &Path, path: &str) -> String {
    let tiles = concat!(env!("CARGO_MANIFEST_DIR"), "/config/tiles/base.toml");
    let text = format!(
        "name = \"t\"\n[tiles]\nbase = \"{tiles}\"\n[[plugins]]\nname = \"base\"\n[[plugins]]\npath = \"{path}\"\n"
    );
    let p = dir.join("rules.toml");
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_directory_or_device_as_plugin_path_is_named_as_such() {
    let dir = scratch("plugin-path");
    std::fs::create_dir_all(dir.join("plugins")).unwrap();
    let plugins = dir.join("plugins");
    let rules = with_plugin_file(&dir, plugins.to_str().unwrap());
    let e = bad_input(&["play", "--rules", &rules], "is a directory");
    assert!(e.contains(&format!("{rules}:7: plugin file '{}' is a directory", plugins.display())), "{e}");
    if Path::new("/dev/zero").exists() {
        let rules = with_plugin_file(&dir, "/dev/zero");
        let e = bad_input(&["play", "--rules", &rules], "is not a regular file (a device)");
        assert!(e.contains("plugin file '/dev/zero' is not a regular file (a device)"), "{e}");
    }
}
