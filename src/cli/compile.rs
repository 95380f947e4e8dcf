//! `gcnc compile`: a compute shader → PAL ELF, optionally printing statistics and
//! disassembly.
//!
//! Input: the IR text form (`.ir`, what `gcnc` prints and parses). SPIR-V input needs the
//! front-end, which this build does not contain yet; a `.spv` file (SPIR-V magic) is
//! reported as such rather than misparsed. `--spec` is accepted for the CLI contract and
//! refused until the front-end (which resolves specialization constants) is present.

use gcnc::amdgpu::abi::PipelineLayout;
use gcnc::compile::{compile_compute, Options};
use gcnc::isa::{Gen, Wave};

/// Parsed `gcnc compile` arguments.
pub struct Args {
    pub input: String,
    pub target: String,
    pub wave: Option<u32>,
    pub entry: Option<String>,
    pub layout: Option<String>,
    pub spec: Vec<String>,
    pub output: Option<String>,
    pub stats: bool,
    pub asm: bool,
    pub no_opt: bool,
}

pub fn run(a: &Args) -> Result<(), String> {
    let gen: Gen = a.target.parse()?;
    let wave = match a.wave {
        None => None,
        Some(32) => Some(Wave::W32),
        Some(64) => Some(Wave::W64),
        Some(w) => return Err(format!("--wave must be 32 or 64, not {w}")),
    };
    let bytes = std::fs::read(&a.input).map_err(|e| format!("{}: {e}", a.input))?;
    if bytes.len() >= 4 && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == 0x0723_0203
    {
        return Err(format!(
            "{}: SPIR-V input needs the front-end, which is not part of this build yet; pass IR text",
            a.input
        ));
    }
    if !a.spec.is_empty() {
        return Err("--spec needs the SPIR-V front-end (not part of this build yet)".into());
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 IR text", a.input))?;
    let mut m = gcnc::ir::parse_module(&text).map_err(|e| format!("{}:{e}", a.input))?;
    if let Some(entry) = &a.entry {
        let f = m
            .functions
            .iter()
            .find(|(_, f)| &f.name == entry)
            .map(|(h, _)| h)
            .ok_or_else(|| format!("{}: no function `{entry}`", a.input))?;
        m.entry = Some(f);
    }
    gcnc::ir::verify_module(&m).map_err(|e| format!("{}: {e}", a.input))?;
    if !a.no_opt {
        gcnc::passes::run_pipeline(&mut m).map_err(|e| e.to_string())?;
    }
    let mut opts = Options::new(gen);
    opts.wave = wave;
    if let Some(l) = &a.layout {
        let t = std::fs::read_to_string(l).map_err(|e| format!("{l}: {e}"))?;
        opts.layout = PipelineLayout::from_json(&t).map_err(|e| format!("{l}: {e}"))?;
    }
    let c = compile_compute(&m, &opts).map_err(|e| format!("{}: {e}", a.input))?;
    if a.asm {
        print!("{}", c.asm);
    }
    if a.stats {
        print!("{}", c.stats.to_text());
    }
    if let Some(o) = &a.output {
        std::fs::write(o, &c.elf).map_err(|e| format!("{o}: {e}"))?;
    }
    Ok(())
}
