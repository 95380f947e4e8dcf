//! Subcommands of the `gcnc` binary, one file each.

pub mod asm;
pub mod compile;
pub mod disasm;
pub mod ir;
pub mod isa_coverage;
pub mod link;
pub mod run;

use gcnc::isa::{Gen, Target, Wave};

/// `--target` + optional `--wave` → Target (LLVM's default wave when absent).
pub fn target(gen: &str, wave: Option<u32>) -> Result<Target, String> {
    let gen: Gen = gen.parse()?;
    match parse_wave(wave)? {
        None => Ok(Target::new(gen)),
        Some(w) => Ok(Target::with_wave(gen, w)?),
    }
}

/// `--wave N` → a wave size (`None` when absent).
pub fn parse_wave(wave: Option<u32>) -> Result<Option<Wave>, String> {
    wave.map(|w| {
        Wave::from_lanes(w.into()).ok_or_else(|| format!("--wave must be 32 or 64, not {w}"))
    })
    .transpose()
}
