//! Issue 15, class 6: an existing but unwritable `--records` directory (or the directory
//! of `-o` or `play --record`) is refused before the run starts: exit code 2, the
//! directory and the reason.

mod simulate_util;

use std::path::Path;

use simulate_util::{bad_input, scratch};

/// `/proc/self` exists and is a directory, but nobody (root included) creates files there.
const UNWRITABLE: &str = "/proc/self";

#[test]
fn an_unwritable_records_directory_is_refused_before_the_run() {
    if !Path::new(UNWRITABLE).is_dir() {
        return;
    }
    let e = bad_input(&["simulate", "--games", "2", "--records", UNWRITABLE], "cannot write records");
    assert!(e.starts_with(&format!("error: --records {UNWRITABLE}: cannot write records in this directory: ")), "{e}");
    assert!(e.len() > "error: --records /proc/self: cannot write records in this directory: ".len() + 1, "{e}");
}

#[test]
fn an_unwritable_output_directory_is_refused_before_the_run() {
    if !Path::new(UNWRITABLE).is_dir() {
        return;
    }
    let dir = scratch("unwritable-out");
    let recs = dir.join("records");
    let out = format!("{UNWRITABLE}/summary.json");
    let e = bad_input(
        &["simulate", "--games", "2", "-o", &out, "--records", recs.to_str().unwrap()],
        &format!("--output {out}: cannot write in directory {UNWRITABLE}: "),
    );
    assert!(!recs.exists(), "{e}: the run started and created {}", recs.display());
}

#[test]
fn an_unwritable_play_record_directory_is_refused_before_the_game() {
    if !Path::new(UNWRITABLE).is_dir() {
        return;
    }
    let rec = format!("{UNWRITABLE}/g.json");
    bad_input(
        &["play", "--rules", "config/base.toml", "--record", &rec],
        &format!("--record {rec}: cannot write in directory {UNWRITABLE}: "),
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_directory_is_refused_for_an_unprivileged_user() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    let ro = dir.join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes anyway: the check then rightly lets the run go on.
    if std::fs::File::create(ro.join("probe")).is_ok() {
        return;
    }
    let r = ro.to_str().unwrap();
    bad_input(&["simulate", "--games", "2", "--records", r], &format!("--records {r}: cannot write records"));
}
