//! Whether an oracle (lavapipe, RADV's null device, glslang, ...) that a test needs is
//! present, and what to do when it is not: with `GCNC_REQUIRE_ORACLES=1` (CI) a missing
//! oracle is a test failure; otherwise the test prints a notice and returns early.
//!
//! Invariant: every test that needs an oracle asks [`require`] (or [`available`]) first; no
//! test decides on its own to skip.

/// True when the environment demands every oracle (`GCNC_REQUIRE_ORACLES=1`).
pub fn required() -> bool {
    std::env::var("GCNC_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

/// Returns the probe's value when the oracle is usable. When it is not: panics (failing the
/// test) if oracles are required, else prints a notice and returns `None` so the test can
/// return early.
pub fn require<T, E: std::fmt::Display>(what: &str, probe: Result<T, E>) -> Option<T> {
    match probe {
        Ok(v) => Some(v),
        Err(e) if required() => {
            panic!("oracle {what} is required (GCNC_REQUIRE_ORACLES=1) but unusable: {e}")
        }
        Err(e) => {
            eprintln!("SKIPPED: oracle {what} unusable ({e}); set GCNC_REQUIRE_ORACLES=1 to make this a failure");
            None
        }
    }
}

/// Probe for lavapipe: creates (or reuses) the process-wide lavapipe device.
pub fn lavapipe() -> Option<crate::device::Info> {
    require("lavapipe", crate::lavapipe::info())
}

/// Probe for a command-line oracle (`glslangValidator`, `spirv-val`): runs it with
/// `version_arg` and returns its name when it starts.
pub fn tool(name: &str, version_arg: &str) -> Option<String> {
    let probe = std::process::Command::new(name)
        .arg(version_arg)
        .output()
        .map_err(|e| e.to_string())
        .map(|_| name.to_string());
    require(name, probe)
}

/// Probe for RADV's null device: starts (or reuses) a navi21/ACO worker.
pub fn radv() -> Option<()> {
    let cfg = crate::radv::Config::new(
        crate::radv::Family::Navi21,
        crate::radv::Backend::Aco,
        gcnc::isa::Wave::W64,
    );
    require(
        "RADV null device",
        crate::radv::with_worker(cfg, |_| Ok(())),
    )
}
