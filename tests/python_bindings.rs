//! Runs the Python bindings' pytest suite (bindings/python/run_tests.sh: a venv under the
//! target directory with the pinned maturin, numpy, gymnasium and pytest, the extension
//! built in debug mode), so that `cargo test --workspace` runs the Python tests too
//! (docs/python.md). The suite compares `simulate` and the bots with this build's
//! `carcassonne` binary and plays config/house-rules.toml with this build's plugin files.

mod plugin_util;

use std::process::Command;

#[test]
fn python_bindings_pytest_suite() {
    let dir = plugin_util::scratch("python");
    let house = plugin_util::write_rules(&dir, &plugin_util::house_rules_text());
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/bindings/python/run_tests.sh"))
        .current_dir(root)
        .env("CARCASSONNE_CLI", env!("CARGO_BIN_EXE_carcassonne"))
        .env("CARCASSONNE_HOUSE_RULES", &house)
        .output()
        .expect("run bash bindings/python/run_tests.sh");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // pytest's closing line, e.g. "51 passed in 20.1s" (shown with --nocapture).
    println!("pytest: {}", stdout.lines().last().unwrap_or(""));
    assert!(
        out.status.success(),
        "the Python bindings' tests failed ({}); bindings/python/run_tests.sh printed:\n{stdout}\n{stderr}",
        out.status
    );
}
