//! Shared by the CLI tests: the workspace root (test inputs are named relative to it) and
//! one way to run the `gcnc` binary from there.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The workspace root.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Runs `gcnc ARGS…` in the workspace root.
pub fn gcnc_output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcnc"))
        .current_dir(ROOT)
        .args(args)
        .output()
        .expect("the gcnc binary runs")
}

/// Runs `gcnc ARGS…` in the workspace root: (success, stdout, stderr).
pub fn gcnc(args: &[&str]) -> (bool, String, String) {
    let o = gcnc_output(args);
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
