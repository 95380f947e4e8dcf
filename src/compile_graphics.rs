//! The graphics driver: a vertex and a fragment shader in, one VS+PS pipeline ELF out.
//!
//! ```text
//! per stage: front::spirv (Stage::Vertex / Stage::Fragment entry point) → middle end →
//!            compile::backend (isel against the GraphicsState … encode)
//! binary::graphics   the VsPs / Ngg metadata from both stages' GraphicsAbi
//! CodeObject         the vertex stage (_amdgpu_vs_main or _amdgpu_gs_main) at 0,
//!                    _amdgpu_ps_main at the next 256-byte boundary
//! ```
//!
//! The pipeline is compiled whole, with the default state of docs/abi.md unless
//! [`GraphicsState`] says otherwise: vertex fetch and exports are selected inside the
//! stages (no prologs or epilogs). A stage alone compiles to machine code here
//! ([`compile_stage`], for tests and `--asm`); to an unlinked ELF that the link stage
//! completes with parts, see `compile_graphics_unlinked` (docs/link.md "Graphics parts"). The vertex stage is a hardware VS on GFX9 and an
//! NGG primitive shader (`_amdgpu_gs_main`, `.type` `Ngg`) on GFX10.3 and GFX11
//! (`isel/ngg.rs`). Scratch memory (function-local arrays, VGPR spills) on GFX9 and
//! GFX10.3 fails with `Unsupported`: the graphics scratch setup is not written yet.

use crate::amdgpu::abi_graphics::GraphicsState;
use crate::amdgpu::{emit, isel, mir};
use crate::binary::elf_write::{CodeObject, FuncSymbol};
use crate::binary::graphics::{GraphicsPipelineInfo, GraphicsStageInfo};
use crate::binary::HwStage;
use crate::compile::{backend, translate_stage, Options};
use crate::error::Error;
use crate::ir::{Module, Stage};
use crate::settings::{Phase, Timer, Timing};
use std::collections::BTreeSet;

/// One compiled stage.
#[derive(Clone, Debug)]
pub struct CompiledStage {
    pub stage: HwStage,
    /// The stage's code, padded as the generation wants (GFX10+ `s_code_end`).
    pub text: Vec<u8>,
    /// Code bytes up to and including `s_endpgm` (or, unlinked, the final branch).
    pub code_bytes: u32,
    /// Relocations of `text` (unlinked: the final branch into the epilog).
    pub relocations: Vec<crate::binary::Relocation>,
    pub stats: emit::Stats,
    /// The final machine program (physical registers).
    pub program: mir::Program,
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

/// A compiled VS+PS pipeline.
#[derive(Clone, Debug)]
pub struct CompiledPipeline {
    pub elf: Vec<u8>,
    pub vs: CompiledStage,
    pub ps: CompiledStage,
    pub timings: Vec<Timing>,
}

/// Compiles the entry point of `stage` in `words` against `state` to machine code.
pub fn compile_stage(
    words: &[u32],
    stage: Stage,
    opts: &Options,
    state: &GraphicsState,
) -> Result<CompiledStage, Error> {
    compile_stage_timed(
        words,
        stage,
        opts,
        state,
        &mut Timer::new(&opts.settings, Phase::Front),
    )
}

fn compile_stage_timed(
    words: &[u32],
    stage: Stage,
    opts: &Options,
    state: &GraphicsState,
    timer: &mut Timer,
) -> Result<CompiledStage, Error> {
    compile_stage_linking(words, stage, opts, state, &isel::LinkTime::default(), timer)
}

/// [`compile_stage`] with what is left to the link (`compile_graphics_unlinked`).
pub(crate) fn compile_stage_linking(
    words: &[u32],
    stage: Stage,
    opts: &Options,
    state: &GraphicsState,
    link: &isel::LinkTime,
    timer: &mut Timer,
) -> Result<CompiledStage, Error> {
    let hw = hw_stage(stage, opts.target.gen)?;
    timer.phase = Phase::Front;
    let m = timer.stage("translate", || {
        translate_stage(words, opts, &BTreeSet::new(), stage)
    })?;
    stage_backend(m, hw, opts, state, link, timer)
}

/// Compiles a vertex or fragment module (verified first; the middle end runs when
/// `opts.optimize`) against `state` to machine code.
pub fn compile_stage_module(
    m: &Module,
    opts: &Options,
    state: &GraphicsState,
) -> Result<CompiledStage, Error> {
    crate::ir::verify_module(m)?;
    let hw = hw_stage(m.stage, opts.target.gen)?;
    stage_backend(
        m.clone(),
        hw,
        opts,
        state,
        &isel::LinkTime::default(),
        &mut Timer::new(&opts.settings, Phase::Middle),
    )
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

fn stage_backend(
    mut m: Module,
    hw: HwStage,
    opts: &Options,
    state: &GraphicsState,
    link: &isel::LinkTime,
    timer: &mut Timer,
) -> Result<CompiledStage, Error> {
    // as for compute: sets the layout omits are packed from every declared binding
    let layout = opts
        .layout
        .complete(&crate::amdgpu::abi::declared_bindings(&m)?)?;
    if opts.optimize {
        timer.phase = Phase::Middle;
        let run = crate::passes::run_pipeline_with(&mut m, &opts.settings, None)?;
        timer.timings.extend(run.timings);
    }
    timer.phase = Phase::Back;
    let (p, code, stats, _) = backend(&m, opts, &layout, link, state, timer, &mut |_| Ok(()))?;
    Ok(CompiledStage {
        stage: hw,
        text: code.text,
        code_bytes: code.code_bytes,
        relocations: code.relocations,
        stats,
        program: p,
    })
}

/// Entry points are 256-byte aligned (pal-abi.md §1.4).
const ENTRY_ALIGN: usize = 256;

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
    let vs = compile_stage_timed(vs_words, Stage::Vertex, opts, state, &mut timer)?;
    let ps = compile_stage_timed(fs_words, Stage::Fragment, fs_opts, state, &mut timer)?;
    let pipeline = GraphicsPipelineInfo {
        target: opts.target,
        vs: vs.info(),
        ps: ps.info(),
    };
    let md = pipeline.to_metadata()?;
    let mut text = vs.text.clone();
    text.resize(text.len().next_multiple_of(ENTRY_ALIGN), 0);
    let ps_at = text.len();
    text.extend_from_slice(&ps.text);
    let obj = CodeObject {
        gen: opts.target.gen,
        text,
        functions: vec![
            FuncSymbol {
                name: vs.stage.entry_symbol(),
                offset: 0,
                size: vs.code_bytes as u64,
            },
            FuncSymbol {
                name: HwStage::Ps.entry_symbol(),
                offset: ps_at as u64,
                size: ps.code_bytes as u64,
            },
        ],
        relocations: Vec::new(),
        metadata: md.to_value(),
    };
    obj.validate()?;
    let elf = obj.write()?;
    Ok(CompiledPipeline {
        elf,
        vs,
        ps,
        timings: timer.timings,
    })
}
