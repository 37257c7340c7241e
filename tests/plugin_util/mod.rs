//! Builds the run-time plugin crates (example and fixture cdylibs) once per test or bench
//! binary and finds their library files. `cargo test` does not build a cdylib for its
//! tests, so this runs `cargo build -p ...` (the same workspace and target directory, so
//! it is quick when they are fresh) and reads the artifact paths from cargo's JSON
//! messages (wherever `CARGO_TARGET_DIR` points).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The plugin packages: examples and test fixtures.
pub const PACKAGES: &[&str] = &[
    "house-abbot",
    "house-monastery",
    "house-no-farmers",
    "house-overstretched",
    "house-princess",
    "house-tax-collector",
    "carcassonne-test-probe",
    "carcassonne-test-old-api",
];

/// Builds the plugin packages (`release`: with `--release`); returns library target name
/// (e.g. `house_monastery`) → library file.
pub fn build(release: bool) -> BTreeMap<String, PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| option_env!("CARGO").unwrap_or("cargo").into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args(["build", "--message-format=json-render-diagnostics"]);
    if release {
        cmd.arg("--release");
    }
    for p in PACKAGES {
        cmd.args(["-p", p]);
    }
    let out = cmd.stderr(Stdio::inherit()).output().expect("run cargo build for the plugin crates");
    assert!(out.status.success(), "cargo build of the plugin crates failed: {:?}", out.status);
    let mut files = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        let kinds = msg["target"]["kind"].as_array().cloned().unwrap_or_default();
        if !kinds.iter().any(|k| k == "cdylib") {
            continue;
        }
        let name = msg["target"]["name"].as_str().unwrap_or_default().to_string();
        let file = msg["filenames"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str())
            .find(|f| f.ends_with(std::env::consts::DLL_SUFFIX))
            .map(PathBuf::from);
        if let Some(f) = file {
            files.insert(name, f);
        }
    }
    for p in PACKAGES {
        let lib = p.replace('-', "_");
        assert!(files.contains_key(&lib), "cargo built no library for {p}: {files:?}");
    }
    files
}

static DEBUG: OnceLock<BTreeMap<String, PathBuf>> = OnceLock::new();

/// The library file of a plugin crate (built once per test binary, debug profile).
pub fn plugin(lib: &str) -> PathBuf {
    DEBUG.get_or_init(|| build(false)).get(lib).unwrap_or_else(|| panic!("no plugin library '{lib}'")).clone()
}

/// `path` for a rule set: the plugin's library file (absolute).
pub fn path_of(lib: &str) -> String {
    plugin(lib).display().to_string().replace('\\', "/")
}

/// The repository's tile file, absolute (rule sets in scratch directories name it).
pub fn base_tiles() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("config/tiles/base.toml").display().to_string().replace('\\', "/")
}

/// A scratch directory, unique per test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carc-dyn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` as `dir/rules.toml`; returns its path.
pub fn write_rules(dir: &Path, text: &str) -> String {
    let file = dir.join("rules.toml");
    std::fs::write(&file, text).unwrap();
    file.display().to_string()
}

/// A base-game rule set (farmers on) with extra `[[plugins]]` text appended.
pub fn base_with(extra: &str) -> String {
    format!("name = \"t\"\nplayers = 2\n[tiles]\nbase = \"{}\"\n[[plugins]]\nname = \"base\"\n{extra}", base_tiles())
}

/// The text of config/house-rules.toml with its paths pointing at this build's files.
pub fn house_rules_text() -> String {
    let text = std::fs::read_to_string("config/house-rules.toml").unwrap();
    let fixed = text
        .replace("\"../target/release/house_monastery\"", &format!("\"{}\"", path_of("house_monastery")))
        .replace("\"../target/release/house_no_farmers\"", &format!("\"{}\"", path_of("house_no_farmers")))
        .replace("\"tiles/base.toml\"", &format!("\"{}\"", base_tiles()));
    assert!(!fixed.contains("\"../target/") && !fixed.contains("\"tiles/"), "paths not replaced:\n{fixed}");
    fixed
}
