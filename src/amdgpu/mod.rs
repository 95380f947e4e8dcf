//! The AMD GPU backend: IR (after the middle-end) → machine IR → registers → machine code.
//!
//! Stages, in the order the driver (`crate::compile`) runs them:
//! - [`isel`]: IR → [`mir`] in SSA form with virtual registers carrying a [`mir::RegClass`];
//!   uniform values in SGPRs (SALU, SMEM), divergent ones in VGPRs (VALU); structured control
//!   flow becomes a logical CFG (what the shader means) inside a linear CFG (what the wave
//!   executes), with exec-mask save/restore for divergent constructs.
//! - [`regalloc`]: liveness on the linear CFG, tuple-aware register assignment.
//! - [`passes`]: `lower_to_hw` (pseudo → real, parallel copies sequentialised),
//!   `insert_waitcnt`, `resolve_hazards`.
//! - [`emit`]: code buffer with labels and branch fixups → bytes, statistics, PAL ELF.
//! - [`scratch`]: per-lane scratch accesses and the FLAT_SCRATCH setup on MIR, used by
//!   `isel` (function-local arrays) and `regalloc` (spill slots); neither stage calls
//!   into the other.
//!
//! Every stage reports bad or unsupported input as [`Error`] and checks its own output with
//! the MIR verifier in debug builds and tests.

pub mod abi;
pub mod abi_graphics;
pub mod attachment_format;
pub mod emit;
pub mod error;
pub mod isel;
pub mod mir;
pub mod passes;
pub mod regalloc;
pub mod scratch;
pub mod vertex_format;

pub use error::Error;
