//! `gcnc compile`: a compute shader → PAL ELF, optionally printing statistics and
//! disassembly.
//!
//! Input: SPIR-V (recognised by its magic number; translated by `front::spirv` with the
//! `--entry` and `--spec ID=VALUE` options; a value is read by the type of the constant:
//! `2=0.5`, `3=true`, `4=-7`, or a `0x` bit pattern), or the IR text form (`.ir`). The middle-end
//! pipeline runs unless `--no-opt`; `--max-sgprs`/`--max-vgprs` cap the register budget.
//!
//! `--unlinked` compiles without the descriptor and user-data layout (and without the
//! values of the `--link-spec ID` specialization constants): the ELF is an unlinked shader
//! for `gcnc link` (docs/link.md). A shader that cannot be compiled so fails with a message
//! saying to compile the whole pipeline, and no output is written.

//!
//! Two SPIR-V inputs (vertex, fragment) compile one VS+PS pipeline with the default
//! graphics state, or with `--state PIPELINE.json` the state of a draw description
//! (docs/draw.md: vertex inputs, attachment formats, descriptors as the layout, each
//! stage's specialization constants) ([`run_pipeline`]); `--asm`/`--stats` print each
//! stage.

use gcnc::{Missing, Options};

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
    pub max_sgprs: Option<u16>,
    pub max_vgprs: Option<u16>,
    pub unlinked: bool,
    pub link_spec: Vec<u32>,
}

/// Compiles the input as `gcnc compile` does (also used by `gcnc run`): one library
/// call, `gcnc::compile_spirv` (or `compile_module` for IR text), with the options the
/// arguments and the environment (`GCNC_VERIFY`, `GCNC_TIME_PASSES`) give.
pub fn build(a: &Args) -> Result<gcnc::Compiled, String> {
    let target = super::target(&a.target, a.wave)?;
    let bytes = std::fs::read(&a.input).map_err(|e| format!("{}: {e}", a.input))?;
    if !a.link_spec.is_empty() && !a.unlinked {
        return Err("--link-spec needs --unlinked".into());
    }
    let mut opts = Options::new(target);
    opts.entry = a.entry.clone();
    opts.optimize = !a.no_opt;
    opts.settings = super::settings_from_env();
    if a.max_sgprs.is_some() || a.max_vgprs.is_some() {
        let full = gcnc::amdgpu::regalloc::Budget::full(target.gen);
        opts.budget = Some(gcnc::amdgpu::regalloc::Budget {
            sgprs: a.max_sgprs.unwrap_or(full.sgprs).min(full.sgprs),
            vgprs: a.max_vgprs.unwrap_or(full.vgprs).min(full.vgprs),
        });
    }
    if let Some(l) = &a.layout {
        opts.layout = super::layout_file(l)?;
    }
    if a.unlinked {
        opts.missing = Missing::all();
        opts.missing.spec_constants = a.link_spec.iter().copied().collect();
    }
    let spirv = bytes.len() >= 4
        && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == 0x0723_0203;
    let compiled = if spirv {
        let words = gcnc::front::spirv::words_from_bytes(&bytes)
            .map_err(|e| format!("{}: {e}", a.input))?;
        opts.spec = super::spec_values(&[&words], &a.spec)?;
        if a.unlinked {
            gcnc::compile_spirv_unlinked(&words, &opts)
        } else {
            gcnc::compile_spirv(&words, &opts)
        }
    } else {
        if !a.spec.is_empty() {
            return Err("--spec applies to SPIR-V input only".into());
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{}: neither SPIR-V nor UTF-8 IR text", a.input))?;
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
        if a.unlinked {
            gcnc::compile_module_unlinked(&m, &opts)
        } else {
            gcnc::compile_module(&m, &opts)
        }
    }
    .map_err(|e| format!("{}: {e}", a.input))?;
    super::print_timings(&compiled.timings);
    Ok(compiled)
}

pub fn run(a: &Args) -> Result<(), String> {
    if let Some(r) = run_graphics_stage(a) {
        return r;
    }
    let c = build(a)?;
    if a.asm {
        print!("{}", c.asm().map_err(|e| e.to_string())?);
    }
    if a.stats {
        print!("{}", c.stats.to_text());
    }
    if let Some(o) = &a.output {
        std::fs::write(o, &c.elf).map_err(|e| format!("{o}: {e}"))?;
    }
    Ok(())
}

/// A vertex or fragment shader alone: an unlinked stage for `gcnc link` (docs/link.md
/// "Graphics parts"); `None` when the input is not such a SPIR-V module.
fn run_graphics_stage(a: &Args) -> Option<Result<(), String>> {
    use gcnc::compile_graphics_unlinked::{compile_stage_unlinked, entry_stage};
    let bytes = std::fs::read(&a.input).ok()?;
    let words = gcnc::front::spirv::words_from_bytes(&bytes).ok()?;
    let stage = entry_stage(&words, a.entry.as_deref())
        .filter(|s| matches!(s, gcnc::ir::Stage::Vertex | gcnc::ir::Stage::Fragment))?;
    Some((|| {
        let target = super::target(&a.target, a.wave)?;
        let mut opts = Options::new(target);
        opts.entry = a.entry.clone();
        opts.settings = super::settings_from_env();
        opts.spec = super::spec_values(&[&words], &a.spec)?;
        let u = compile_stage_unlinked(&words, stage, &opts)
            .map_err(|e| format!("{}: {e}", a.input))?;
        if a.asm {
            print!("{}", u.compiled.asm().map_err(|e| e.to_string())?);
        }
        if a.stats {
            print!("{}", u.compiled.stats.to_text());
        }
        if let Some(o) = &a.output {
            std::fs::write(o, &u.elf).map_err(|e| format!("{o}: {e}"))?;
        }
        Ok(())
    })())
}

/// Parsed `gcnc compile VS FS` arguments.
pub struct PipelineArgs {
    pub vertex: String,
    pub fragment: String,
    pub target: String,
    pub wave: Option<u32>,
    pub layout: Option<String>,
    pub spec: Vec<String>,
    pub output: Option<String>,
    pub stats: bool,
    pub asm: bool,
    /// A draw description (docs/draw.md) giving the pipeline state.
    pub state: Option<String>,
}

/// `gcnc compile a.vert.spv b.frag.spv`: the whole pipeline.
pub fn run_pipeline(a: &PipelineArgs) -> Result<(), String> {
    let target = super::target(&a.target, a.wave)?;
    let mut opts = Options::new(target);
    opts.settings = super::settings_from_env();
    if let Some(l) = &a.layout {
        opts.layout = super::layout_file(l)?;
    }
    let words = |path: &str| -> Result<Vec<u32>, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        gcnc::front::spirv::words_from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    };
    let (vs, fs) = (words(&a.vertex)?, words(&a.fragment)?);
    let c = match &a.state {
        Some(path) => {
            if a.layout.is_some() || !a.spec.is_empty() {
                return Err(
                    "--state gives the layout and the specialization constants: drop --layout / --spec"
                        .into(),
                );
            }
            let d = gcnc_emu::draw::Desc::load(std::path::Path::new(path))
                .map_err(|e| format!("{path}: {e}"))?;
            super::draw::compile_stages(&d, &vs, &fs, target)
        }
        None => {
            // one --spec list for both stages, typed by the stage that declares each
            // SpecId (the vertex stage's first)
            opts.spec = super::spec_values(&[&vs, &fs], &a.spec)?;
            let state = gcnc::amdgpu::abi_graphics::GraphicsState::default();
            gcnc::compile_graphics::compile_pipeline(&vs, &fs, &opts, &state)
                .map_err(|e| e.to_string())
        }
    }
    .map_err(|e| format!("{} + {}: {e}", a.vertex, a.fragment))?;
    super::print_timings(&c.timings);
    for s in [&c.vs, &c.ps] {
        if a.asm || a.stats {
            println!("; {} stage", s.stage.short());
        }
        if a.asm {
            print!("{}", s.asm().map_err(|e| e.to_string())?);
        }
        if a.stats {
            print!("{}", s.stats.to_text());
        }
    }
    if let Some(o) = &a.output {
        std::fs::write(o, &c.elf).map_err(|e| format!("{o}: {e}"))?;
    }
    Ok(())
}
