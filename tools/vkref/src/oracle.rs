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
