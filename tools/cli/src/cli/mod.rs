//! Subcommands of the `gcnc` binary, one file each.

pub mod asm;
pub mod batch;
pub mod compile;
pub mod disasm;
pub mod draw;
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

/// The library's run switches from the environment: `GCNC_VERIFY=1` runs the verifiers
/// in release builds, `GCNC_TIME_PASSES` (any value) reports each pass's time.
pub fn settings_from_env() -> gcnc::Settings {
    gcnc::Settings {
        verify: std::env::var_os("GCNC_VERIFY").is_some_and(|v| v == "1"),
        time_passes: std::env::var_os("GCNC_TIME_PASSES").is_some(),
    }
}

/// The `GCNC_TIME_PASSES` report, one pass per line on stderr.
pub fn print_timings(timings: &[gcnc::Timing]) {
    for t in timings {
        eprintln!("{}", t.to_line());
    }
}

/// `--wave N` → a wave size (`None` when absent).
pub fn parse_wave(wave: Option<u32>) -> Result<Option<Wave>, String> {
    wave.map(|w| {
        Wave::from_lanes(w.into()).ok_or_else(|| format!("--wave must be 32 or 64, not {w}"))
    })
    .transpose()
}

/// The `--spec ID=VALUE` arguments as bit patterns, each value read by the type of the
/// SPIR-V constant its SpecId decorates in `modules` (the first module that declares the
/// ID decides; `gcnc::front::spirv::parse_spec_arg`); an error quotes the argument and
/// says which ID and why.
pub fn spec_values(
    modules: &[&[u32]],
    args: &[String],
) -> Result<std::collections::BTreeMap<u32, u64>, String> {
    let mut out = std::collections::BTreeMap::new();
    if args.is_empty() {
        return Ok(out);
    }
    let mut consts = std::collections::BTreeMap::new();
    for words in modules.iter().rev() {
        consts.extend(gcnc::front::spirv::spec_constants(words).map_err(|e| e.to_string())?);
    }
    for a in args {
        let (id, v) = gcnc::front::spirv::parse_spec_arg(&consts, a)
            .map_err(|e| format!("--spec {a}: {e}"))?;
        out.insert(id, v);
    }
    Ok(out)
}

/// Reads a pipeline layout JSON file (`--layout`); errors name the file.
pub fn layout_file(path: &str) -> Result<gcnc::amdgpu::abi::PipelineLayout, String> {
    let t = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    gcnc::amdgpu::abi::PipelineLayout::from_json(&t).map_err(|e| format!("{path}: {e}"))
}
