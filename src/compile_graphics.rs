//! The graphics driver: a vertex and a fragment shader in, one VS+PS pipeline ELF out,
//! through the same parts and link as `gcnc link` (one code path, docs/link.md "Graphics
//! parts"), as the compute path goes through the CS prolog and the link.
//!
//! ```text
//! per stage: front::spirv (Stage::Vertex / Stage::Fragment entry point) → middle end
//! passes::link_varyings   the vertex stage's outputs the fragment stage does not read are
//!                         dropped, with what computed them (whole-pipeline knowledge)
//! per stage: compile::backend (isel/graphics/parts.rs): the main part (inputs in the
//!            prolog's VGPRs, `s_branch gcnc.next` with the exported values as uses)
//! compile_graphics_unlinked::stage_object   the main part as a code object (no ELF written)
//! link::graphics::link_state   the vertex-fetch prolog, the parameter-export epilog and the
//!            colour-export epilog from the state (the process-wide PartCache), laid out
//!            with fall-through; the pipeline metadata
//! ```
//!
//! The pipeline is compiled with the default state of docs/abi.md unless [`GraphicsState`]
//! says otherwise; the default vertex input (binding 0, every input location tightly
//! packed in location order) is made explicit here ([`with_default_vertex_input`]) before
//! the link. A stage alone compiles the same way ([`compile_stage`], for tests and
//! `--asm`): its chain is laid out without a partner (a vertex stage exports every output).
//! To an unlinked ELF, see `compile_graphics_unlinked`. The vertex stage is a hardware VS
//! on GFX9 and an NGG primitive shader (`_amdgpu_gs_main`) on GFX10.3 and GFX11
//! (`isel/ngg.rs`). Scratch memory (function-local arrays, VGPR spills) on GFX9 and
//! GFX10.3 fails with `Unsupported`: the graphics scratch setup is not written yet.
//!
//! Invariant: a [`CompiledStage`] of a linked stage holds the stage's whole chain
//! (prolog, main part, epilog) from its entry; its statistics count every part's
//! instructions and the registers of the widest part.

use crate::amdgpu::abi::PipelineLayout;
use crate::amdgpu::abi_graphics::{GraphicsState, VertexAttribute, VertexBinding};
use crate::amdgpu::vertex_format::VertexFormat;
use crate::amdgpu::{emit, isel, mir};
use crate::binary::graphics::GraphicsStageInfo;
use crate::binary::HwStage;
use crate::compile::{backend, translate_stage, Options};
use crate::compile_graphics_unlinked::stage_object;
use crate::error::Error;
use crate::ir::{Module, Stage};
use crate::link::layout::PlacedPart;
use crate::parts::PartCache;
use crate::settings::{Phase, Timer, Timing};
use std::collections::BTreeSet;

/// One compiled stage.
#[derive(Clone, Debug)]
pub struct CompiledStage {
    pub stage: HwStage,
    /// The stage's code from its entry (linked: the whole chain), padded as the
    /// generation wants (GFX10+ `s_code_end`).
    pub text: Vec<u8>,
    /// Code bytes up to and including `s_endpgm` (or, unlinked, the final branch).
    pub code_bytes: u32,
    /// Unlinked: where the constant data starts in `text`, if there is any.
    pub data_at: Option<u32>,
    /// Relocations of `text` (unlinked: the final branch into the epilog).
    pub relocations: Vec<crate::binary::Relocation>,
    /// Statistics (linked: over the chain, see the module doc).
    pub stats: emit::Stats,
    /// The main part's final machine program (physical registers).
    pub program: mir::Program,
    /// Linked: each part of the chain, offsets from the stage's entry.
    pub placed: Vec<PlacedPart>,
}

impl CompiledStage {
    /// The stage as the pipeline metadata sees it.
    pub fn info(&self) -> GraphicsStageInfo {
        let mut sgprs = self.stats.sgprs.max(1);
        if self.program.target.gen == crate::isa::Gen::Gfx9 && self.program.scratch_bytes > 0 {
            // VCC, FLAT_SCRATCH and XNACK_MASK at the top (as `emit::code_object`)
            sgprs += 6;
        }
        GraphicsStageInfo {
            stage: self.stage,
            vgprs: self.stats.vgprs.max(1),
            sgprs,
            user_data: self.program.abi.user_sgprs.clone(),
            scratch_bytes_per_lane: self.program.scratch_bytes,
            abi: self.program.abi.graphics.clone(),
        }
    }

    /// Our disassembly of the stage's code.
    pub fn asm(&self) -> Result<String, Error> {
        Ok(emit::disassemble_range(
            self.program.target,
            &self.text,
            0,
            self.code_bytes as usize,
        )?)
    }
}

/// The part generators' cache every whole-pipeline compile shares.
fn part_cache() -> &'static PartCache {
    PartCache::global()
}

/// What a main part leaves to the link.
fn parts_link() -> isel::LinkTime {
    isel::LinkTime::default()
}

/// Compiles the entry point of `stage` in `words` against `state`: the main part linked
/// with the parts `state` gives it (module doc).
pub fn compile_stage(
    words: &[u32],
    stage: Stage,
    opts: &Options,
    state: &GraphicsState,
) -> Result<CompiledStage, Error> {
    let mut timer = Timer::new(&opts.settings, Phase::Front);
    let mut m = translate(words, stage, opts, &mut timer)?;
    let layout = middle(&mut m, opts, &mut timer)?;
    alone(&m, &layout, opts, state, &mut timer)
}

/// [`compile_stage`] with what is left to the link (`compile_graphics_unlinked`): the
/// main part only.
pub(crate) fn compile_stage_linking(
    words: &[u32],
    stage: Stage,
    opts: &Options,
    state: &GraphicsState,
    link: &isel::LinkTime,
    timer: &mut Timer,
) -> Result<CompiledStage, Error> {
    let mut m = translate(words, stage, opts, timer)?;
    let layout = middle(&mut m, opts, timer)?;
    main_part(&m, &layout, opts, state, link, timer)
}

/// Compiles a vertex or fragment module (verified first; the middle end runs when
/// `opts.optimize`) against `state`, as [`compile_stage`].
pub fn compile_stage_module(
    m: &Module,
    opts: &Options,
    state: &GraphicsState,
) -> Result<CompiledStage, Error> {
    crate::ir::verify_module(m)?;
    let mut m = m.clone();
    let mut timer = Timer::new(&opts.settings, Phase::Middle);
    let layout = middle(&mut m, opts, &mut timer)?;
    alone(&m, &layout, opts, state, &mut timer)
}

pub(crate) fn hw_stage(stage: Stage, gen: crate::isa::Gen) -> Result<HwStage, Error> {
    match stage {
        Stage::Vertex if crate::amdgpu::abi_graphics::vertex_is_ngg(gen) => Ok(HwStage::Gs),
        Stage::Vertex => Ok(HwStage::Vs),
        Stage::Fragment => Ok(HwStage::Ps),
        _ => Err(crate::amdgpu::Error::unsupported(
            None,
            format!("{} is not a graphics stage", stage.name()),
        )
        .into()),
    }
}

fn translate(
    words: &[u32],
    stage: Stage,
    opts: &Options,
    timer: &mut Timer,
) -> Result<Module, Error> {
    hw_stage(stage, opts.target.gen)?;
    timer.phase = Phase::Front;
    timer.stage("translate", || {
        translate_stage(words, opts, &BTreeSet::new(), stage)
    })
}

/// The middle end (when `opts.optimize`); the stage's completed descriptor layout.
fn middle(m: &mut Module, opts: &Options, timer: &mut Timer) -> Result<PipelineLayout, Error> {
    // as for compute: sets the layout omits are packed from every declared binding
    let layout = opts
        .layout
        .complete(&crate::amdgpu::abi::declared_bindings(m)?)?;
    if opts.optimize {
        timer.phase = Phase::Middle;
        let run = crate::passes::run_pipeline_with(m, &opts.settings, None)?;
        timer.timings.extend(run.timings);
    }
    Ok(layout)
}

/// The backend: `m` to a main part.
fn main_part(
    m: &Module,
    layout: &PipelineLayout,
    opts: &Options,
    state: &GraphicsState,
    link: &isel::LinkTime,
    timer: &mut Timer,
) -> Result<CompiledStage, Error> {
    let hw = hw_stage(m.stage, opts.target.gen)?;
    timer.phase = Phase::Back;
    let (p, code, stats, _) = backend(m, opts, layout, link, state, timer, &mut |_| Ok(()))?;
    Ok(CompiledStage {
        stage: hw,
        text: code.text,
        code_bytes: code.code_bytes,
        data_at: code.data_at,
        relocations: code.relocations,
        stats,
        program: p,
        placed: Vec::new(),
    })
}

/// `state` with the default vertex input made explicit for a vertex stage whose fetch
/// prolog fills `inputs` (location, first VGPR, VGPRs): without attributes, binding 0
/// holds every input location tightly packed in location order, 32 bits per channel;
/// without bindings, each attribute's binding is per-vertex with that packing's stride.
/// An input wider than four 32-bit channels (a 64-bit vector) has no default format.
pub fn with_default_vertex_input(
    state: &GraphicsState,
    inputs: &[(u32, u16, u8)],
) -> Result<GraphicsState, Error> {
    let mut st = state.clone();
    let mut offset = 0;
    if st.attributes.is_empty() {
        let mut sorted = inputs.to_vec();
        sorted.sort_by_key(|i| i.0);
        for (loc, _, n) in sorted {
            let format = VertexFormat::float32(n as u32).ok_or_else(|| {
                Error::Backend(crate::amdgpu::Error::Layout(format!(
                    "vertex input location {loc}: {n} VGPRs have no default vertex format (give the attribute's format in the pipeline state)"
                )))
            })?;
            let a = VertexAttribute {
                binding: 0,
                offset,
                format,
            };
            offset += 4 * n as u32;
            st.attributes.insert(loc, a);
        }
    }
    if st.bindings.is_empty() {
        for a in st.attributes.values() {
            st.bindings.insert(
                a.binding,
                VertexBinding {
                    stride: offset,
                    per_instance: false,
                    divisor: 1,
                },
            );
        }
    }
    Ok(st)
}

/// The linked stage whose chain starts at `entry` in `text` (`placed` covers every
/// chain): its code, the parts, the statistics over them.
fn linked_stage(
    main: CompiledStage,
    text: &[u8],
    functions: &[crate::binary::elf_write::FuncSymbol],
    placed: &[PlacedPart],
) -> Result<CompiledStage, Error> {
    let t = main.program.target;
    let entry = functions
        .iter()
        .find(|f| f.name == main.stage.entry_symbol())
        .ok_or_else(|| {
            Error::from(crate::amdgpu::Error::Verify(format!(
                "the link placed no {}",
                main.stage.entry_symbol()
            )))
        })?;
    let (start, end) = (entry.offset, entry.offset + entry.size);
    let mut parts: Vec<PlacedPart> = placed
        .iter()
        .filter(|p| p.offset >= start && p.offset < end)
        .cloned()
        .collect();
    let mut stats = main.stats.clone();
    stats.instructions = 0;
    stats.code_size = 0;
    for p in &mut parts {
        let code = &text[p.offset as usize..(p.offset + p.size) as usize];
        stats.instructions += crate::isa::decode_all(code, t)
            .map_err(|error| crate::amdgpu::Error::Isa {
                inst: p.symbol.clone(),
                error,
            })?
            .len() as u32;
        stats.code_size += p.size as u32;
        if let Some((v, s)) = p.registers {
            stats.vgprs = stats.vgprs.max(v);
            stats.sgprs = stats.sgprs.max(s);
        } else if p.fell_through {
            stats.branches = stats.branches.saturating_sub(1);
        }
        p.offset -= start;
    }
    let mut own = text[start as usize..].to_vec();
    // the next chain's entry alignment padding is not this stage's
    let next = functions
        .iter()
        .map(|f| f.offset)
        .filter(|&o| o >= end)
        .min();
    if let Some(n) = next {
        own.truncate((n - start) as usize);
    }
    Ok(CompiledStage {
        text: own,
        code_bytes: (end - start) as u32,
        data_at: None,
        relocations: Vec::new(),
        stats,
        placed: parts,
        ..main
    })
}

/// A stage alone: its main part linked with the parts `state` gives it.
fn alone(
    m: &Module,
    layout: &PipelineLayout,
    opts: &Options,
    state: &GraphicsState,
    timer: &mut Timer,
) -> Result<CompiledStage, Error> {
    let c = main_part(m, layout, opts, state, &parts_link(), timer)?;
    let (iface, obj) = stage_object(&c, opts.target)?;
    let st = with_default_vertex_input(state, &iface.inputs)?;
    let laid = timer.stage("link", || {
        let input = crate::link::input::object_input(0, obj)?;
        crate::link::graphics::link_stage(&input, &st, part_cache())
    })?;
    linked_stage(c, &laid.text, &laid.functions, &laid.placed)
}

/// Whether fragment module `fm` reads `gl_PrimitiveID` (then the vertex stage keeps the
/// primitive id for its epilog: `LinkTime::vs_primitive_id`).
fn reads_primitive_id(fm: &Module) -> bool {
    fm.functions.iter().any(|(_, f)| {
        f.blocks_in_order().into_iter().any(|b| {
            f.blocks[b].insts.iter().any(|&i| {
                matches!(
                    f.kind(i),
                    crate::ir::InstKind::Intrinsic {
                        op: crate::ir::Intrinsic::LoadPrimitiveId,
                        ..
                    }
                )
            })
        })
    })
}

/// A compiled VS+PS pipeline.
#[derive(Clone, Debug)]
pub struct CompiledPipeline {
    pub elf: Vec<u8>,
    /// Each stage's chain (module doc).
    pub vs: CompiledStage,
    pub ps: CompiledStage,
    /// The vertex locations the IR link dropped (the fragment stage does not read them).
    pub dropped_outputs: BTreeSet<u32>,
    pub timings: Vec<Timing>,
}

/// Compiles a vertex and a fragment shader into one pipeline ELF.
pub fn compile_pipeline(
    vs_words: &[u32],
    fs_words: &[u32],
    opts: &Options,
    state: &GraphicsState,
) -> Result<CompiledPipeline, Error> {
    compile_pipeline_stages(vs_words, opts, fs_words, opts, state)
}

/// [`compile_pipeline`] with options per stage (each stage's own specialization
/// constants); the pipeline-wide facts (target, settings) are `vs_opts`'.
pub fn compile_pipeline_stages(
    vs_words: &[u32],
    vs_opts: &Options,
    fs_words: &[u32],
    fs_opts: &Options,
    state: &GraphicsState,
) -> Result<CompiledPipeline, Error> {
    let opts = vs_opts;
    if fs_opts.target != opts.target {
        return Err(crate::amdgpu::Error::unsupported(
            None,
            "the vertex and fragment stages of a pipeline are compiled for different targets",
        )
        .into());
    }
    let mut timer = Timer::new(&opts.settings, Phase::Front);
    let mut vm = translate(vs_words, Stage::Vertex, opts, &mut timer)?;
    let mut fm = translate(fs_words, Stage::Fragment, fs_opts, &mut timer)?;
    let fs_layout = middle(&mut fm, fs_opts, &mut timer)?;
    let vs_layout = middle(&mut vm, opts, &mut timer)?;
    timer.phase = Phase::Middle;
    let dropped = timer.stage("link_varyings", || {
        crate::passes::link_varyings::run(&mut vm, &fm)
    });
    let link = parts_link();
    let vs_link = isel::LinkTime {
        vs_primitive_id: reads_primitive_id(&fm),
        vs_view_index: state.view_mask != 0,
        ..link.clone()
    };
    let vs = main_part(&vm, &vs_layout, opts, state, &vs_link, &mut timer)?;
    let ps = main_part(&fm, &fs_layout, fs_opts, state, &link, &mut timer)?;
    let (vi, vs_obj) = stage_object(&vs, opts.target)?;
    let (_, ps_obj) = stage_object(&ps, opts.target)?;
    let st = with_default_vertex_input(state, &vi.inputs)?;
    let linked = timer.stage("link", || {
        let inputs = [
            crate::link::input::object_input(0, vs_obj)?,
            crate::link::input::object_input(1, ps_obj)?,
        ];
        crate::link::graphics::link_state(&inputs, &st, &Default::default(), part_cache())
    })?;
    let text = &linked.object.text;
    let funcs = &linked.object.functions;
    Ok(CompiledPipeline {
        vs: linked_stage(vs, text, funcs, &linked.placed)?,
        ps: linked_stage(ps, text, funcs, &linked.placed)?,
        elf: linked.elf,
        dropped_outputs: dropped,
        timings: timer.timings,
    })
}
