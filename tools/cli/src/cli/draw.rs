//! `gcnc draw`: run one graphics draw on the emulator from a draw description (docs/draw.md)
//! and write its attachments.
//!
//! ```text
//! gcnc draw PIPELINE.json --target GFX [--wave 32|64] --out DIR [--elf PIPELINE.elf]
//!           [--budget N] [--draw-budget N]
//! ```
//! Writes `color_<i>.raw` (tightly packed rows in the attachment's format) and
//! `color_<i>.png` per colour attachment, and `depth.raw` (f32 per pixel) when the
//! description has a depth attachment; prints the draw's statistics.
//! Design: the pipeline is the description's SPIR-V pair compiled like `gcnc compile
//! a.vert b.frag`, with the state the description implies (vertex bindings and 32-bit
//! float attributes, one export format per colour attachment), or a PAL ELF given with
//! `--elf` (hand-assembled, or compiled elsewhere); compiled stages are specialized by
//! the description's `spec_constants`. The draw provides gcnc's user data
//! (`draw::launch::entries`: push constants, descriptor sets, the vertex-buffer table).
//! The emulator runs with all its strict checks; a failing draw prints the emulator's
//! error (rule or instruction, pc, wave, register dump) and exits non-zero.

use clap::Args as ClapArgs;
use gcnc::amdgpu::abi_graphics::GraphicsState;
use gcnc_emu::draw::{self, Desc, Options, Pipeline};
use std::path::Path;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The draw description (JSON, docs/draw.md).
    pub input: String,
    /// gfx900, gfx1030 or gfx1100 (checked against the ELF's target).
    #[arg(long)]
    pub target: String,
    /// Wave size of both stages (default: the ELF's).
    #[arg(long)]
    pub wave: Option<u32>,
    /// Directory for the attachments (created).
    #[arg(long)]
    pub out: String,
    /// The pipeline as a PAL ELF with .vs/.gs and .ps hardware stages (default: compile
    /// the description's SPIR-V).
    #[arg(long)]
    pub elf: Option<String>,
    /// Instruction budget per wave (default 1,000,000).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Instruction budget of the whole draw (default 100,000,000).
    #[arg(long)]
    pub draw_budget: Option<u64>,
    /// Compile each stage alone (unlinked) and link them with the description's state
    /// (prolog and epilogs, docs/link.md "Graphics parts") instead of compiling the
    /// whole pipeline.
    #[arg(long)]
    pub unlinked: bool,
}

pub fn run(a: &Args) -> Result<(), String> {
    let target = super::target(&a.target, a.wave)?;
    let wave = super::parse_wave(a.wave)?;
    let d = Desc::load(Path::new(&a.input)).map_err(|e| format!("{}: {e}", a.input))?;
    let (elf, elf_name) = match &a.elf {
        Some(path) => (
            std::fs::read(path).map_err(|e| format!("{path}: {e}"))?,
            path.clone(),
        ),
        None if a.unlinked => (compile_unlinked(&d, target)?, a.input.clone()),
        None => (compile(&d, target)?, a.input.clone()),
    };
    let elf_path = &elf_name;
    let p = Pipeline::from_elf(&elf, wave).map_err(|e| format!("{elf_path}: {e}"))?;
    if p.ps.target.gen != target.gen {
        return Err(format!(
            "{elf_path}: the ELF is for {}, not {}",
            p.ps.target.gen.mcpu(),
            a.target
        ));
    }
    let mut opt = Options::default();
    if let Some(b) = a.budget {
        opt.budget = b;
    }
    if let Some(b) = a.draw_budget {
        opt.draw_budget = b;
    }
    let entries = draw::launch::entries(&d);
    let (img, stats) =
        draw::run(&p, &d, &entries, &opt).map_err(|e| format!("{}: {e}", a.input))?;
    draw::write_files(
        Path::new(&a.out),
        &d,
        &img.color,
        &img.resolved,
        img.depth.as_deref(),
    )?;
    println!(
        "{} vertex waves, {} primitives, {} pixel waves, {} quads, {} instructions",
        stats.vertex_waves, stats.primitives, stats.pixel_waves, stats.quads, stats.instructions
    );
    Ok(())
}

/// The pipeline state the description implies (`Draw::graphics_state`).
pub fn state(d: &draw::Draw) -> Result<GraphicsState, String> {
    Ok(d.graphics_state())
}

/// Each stage's options for a description: its descriptors as the pipeline layout (both
/// stages), each stage's own specialization constants.
fn stage_options(d: &draw::Draw, target: gcnc::isa::Target) -> Result<[gcnc::Options; 2], String> {
    let mut opts = gcnc::Options::new(target);
    opts.settings = super::settings_from_env();
    // the description's descriptors are the pipeline layout, for both stages
    opts.layout = d.layout().map_err(|e| e.to_string())?;
    // each stage its own specialization constants (32-bit patterns, docs/draw.md)
    let stage_opts = |fragment: bool| -> Result<gcnc::Options, String> {
        let mut o = opts.clone();
        let spec = d.spec(fragment).map_err(|e| e.to_string())?;
        o.spec = spec.into_iter().map(|(id, v)| (id, v as u64)).collect();
        Ok(o)
    };
    Ok([stage_opts(false)?, stage_opts(true)?])
}

/// The description's SPIR-V pair and each stage's options.
fn sources(
    d: &draw::Draw,
    target: gcnc::isa::Target,
) -> Result<[(Vec<u32>, gcnc::Options); 2], String> {
    let words = |p: &Path| -> Result<Vec<u32>, String> {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        gcnc::front::spirv::words_from_bytes(&bytes).map_err(|e| format!("{}: {e}", p.display()))
    };
    let [vs_opts, fs_opts] = stage_options(d, target)?;
    Ok([
        (words(&d.vertex_spv)?, vs_opts),
        (words(&d.fragment_spv)?, fs_opts),
    ])
}

/// The link state of a description: its graphics state and its `link_user_data`
/// layouts (`gcnc link --state DRAW.json`).
pub fn link_state(d: &draw::Draw) -> Result<gcnc::link::PipelineState, String> {
    Ok(gcnc::link::PipelineState {
        graphics: Some(gcnc::link::state::GraphicsLinkState::from_state(&state(d)?)),
        stage_user_data: d.desc.link_user_data.clone(),
        ..Default::default()
    })
}

/// Compiles each stage of the description alone and links them with its state.
fn compile_unlinked(d: &draw::Draw, target: gcnc::isa::Target) -> Result<Vec<u8>, String> {
    use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
    use gcnc::ir::Stage;
    let [(vs, vs_opts), (fs, fs_opts)] = sources(d, target)?;
    let v = compile_stage_unlinked(&vs, Stage::Vertex, &vs_opts)
        .map_err(|e| format!("{}: {e}", d.vertex_spv.display()))?;
    let f = compile_stage_unlinked(&fs, Stage::Fragment, &fs_opts)
        .map_err(|e| format!("{}: {e}", d.fragment_spv.display()))?;
    let linked = gcnc::link::link(
        &[&v.elf, &f.elf],
        &link_state(d)?,
        gcnc::parts::PartCache::global(),
    )
    .map_err(|e| format!("link: {e}"))?;
    Ok(linked.elf)
}

/// Compiles a vertex + fragment pair with the pipeline state a draw description gives:
/// its vertex inputs and attachment formats (`state`), its descriptors as the pipeline
/// layout, each stage's specialization constants (also `gcnc compile --state`).
pub fn compile_stages(
    d: &draw::Draw,
    vs: &[u32],
    fs: &[u32],
    target: gcnc::isa::Target,
) -> Result<gcnc::compile_graphics::CompiledPipeline, String> {
    let [vs_opts, fs_opts] = stage_options(d, target)?;
    gcnc::compile_graphics::compile_pipeline_stages(vs, &vs_opts, fs, &fs_opts, &state(d)?)
        .map_err(|e| e.to_string())
}

/// Compiles the description's SPIR-V pair with its state (`gcnc compile a.vert b.frag`).
fn compile(d: &draw::Draw, target: gcnc::isa::Target) -> Result<Vec<u8>, String> {
    let [(vs, _), (fs, _)] = sources(d, target)?;
    let c = compile_stages(d, &vs, &fs, target).map_err(|e| {
        format!(
            "{} + {}: {e}",
            d.vertex_spv.display(),
            d.fragment_spv.display()
        )
    })?;
    Ok(c.elf)
}
