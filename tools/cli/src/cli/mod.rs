//! Subcommands of the `gcnc` binary, one file each.

pub mod asm;
pub mod compile;
pub mod disasm;
pub mod ir;
pub mod isa_coverage;
pub mod link;

use gcnc::isa::{Gen, Target, Wave};

/// `--target` + optional `--wave` → Target (LLVM's default wave when absent).
pub fn target(gen: &str, wave: Option<u32>) -> Result<Target, String> {
    let gen: Gen = gen.parse()?;
    match wave {
        None => Ok(Target::new(gen)),
        Some(32) => Target::with_wave(gen, Wave::W32),
        Some(64) => Target::with_wave(gen, Wave::W64),
        Some(w) => Err(format!("wave size must be 32 or 64, not {w}")),
    }
}
