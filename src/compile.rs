//! The compiler driver: SPIR-V in, PAL ELF out, the whole chain in one function
//! ([`compile`], after ACO's `aco_interface.cpp`):
//!
//! ```text
//! SPIR-V words
//!   front::spirv::translate   SPIR-V → IR (specialization constants applied; an unlinked
//!                             compile keeps the late ones symbolic)
//!   ir::verify_module         the IR the rest of the chain may rely on
//!   passes::run_pipeline_with the middle end (Options::optimize)
//!   isel::select              IR → MIR (SSA, virtual registers, logical + linear CFG)
//!   passes::insert_wqm        whole-quad mode of fragment shaders (docs/wqm.md)
//!   mir::verify               (debug builds, Settings::verify)
//!   regalloc::allocate_in     spilling to the budget, tuple-aware assignment
//!   passes::lower_to_hw       pseudo → real, parallel copies sequentialised
//!   passes::thread_branches   no branch to the next instruction or over a branch
//!   passes::drop_short_exec_branches  no s_cbranch_execz over a few cheap instructions
//!   passes::simplify_exec_writes      no s_or into an empty exec, no unread exec write
//!   passes::form_vopd         GFX11 wave32 dual issue
//!   passes::insert_waitcnt    memory counters
//!   passes::resolve_hazards   per-generation interlocks
//!   emit::encode              code buffer, branch fixups, relocations, s_code_end padding
//!   emit::code_object         PAL code object (typed metadata) + `gcnc.prelink`: the
//!                             unlinked main part
//!   link::link_inputs         the main part as a structure (no ELF or metadata-tree round
//!                             trip, link::input::typed_input): parts
//!                             (CS prolog), layout, fall-through, relocations,
//!                             metadata merge → the pipeline ELF
//! ```
//!
//! Entry points: [`compile_spirv`] (the linked pipeline ELF) and [`compile_spirv_unlinked`]
//! (an unlinked shader for `link::link`); [`compile_module`] / [`compile_module_unlinked`]
//! start from IR (the `.ir` text form, or IR reused across several backend compiles, see
//! [`optimize_spirv`]). There is one code path (docs/link.md): an unlinked compile stops
//! after the main part (the state in [`Options::missing`] becomes relocated literals and
//! pre-link metadata); a whole-pipeline compile builds the same main part with everything
//! known and links it with the final user-data layout ([`Options::user_data`]), building
//! the same CS prolog the link stage builds for an unlinked shader when that layout
//! differs from the backend's.
//!
//! Errors are [`crate::Error`]: each layer's typed error, unflattened. How the compiler
//! runs (verifiers, timing) is [`Settings`]; the library reads no environment variables.
//! The same input and options always give the same bytes.

use crate::amdgpu::{self, abi::PipelineLayout, emit, mir, passes, regalloc};
use crate::binary::prelink::{PreLinkMetadata, UserSgpr};
use crate::binary::{HwStage, UserData};
use crate::error::Error;
use crate::ir::Module;
use crate::isa::Target;
use crate::link::state::{Item, PipelineState, UserDataLayout};
use crate::settings::Timer;
pub use crate::settings::{Phase, Settings, Timing};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// The pipeline state an unlinked compile does not have (docs/link.md). Each missing
/// piece is named in the ELF's `gcnc.prelink.missing_state`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Missing {
    /// The descriptor layout: descriptor offsets and array strides become
    /// `gcnc.desc.*` relocated literals (`Options::layout` is ignored).
    pub descriptor_layout: bool,
    /// The user-data layout: the shader records the user-SGPR placement it assumed and
    /// the link stage builds a CS prolog when the final layout differs. An input no
    /// layout can supply (the dispatch-dimensions pointer) fails the compile.
    pub user_data: bool,
    /// Specialization constants (SpecId) known only at link.
    pub spec_constants: BTreeSet<u32>,
}

impl Missing {
    /// Everything compute can leave to the link stage.
    pub fn all() -> Missing {
        Missing {
            descriptor_layout: true,
            user_data: true,
            spec_constants: BTreeSet::new(),
        }
    }

    /// The `gcnc.prelink.missing_state` names.
    pub fn names(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.descriptor_layout {
            v.push("descriptor_layout".to_string());
        }
        if self.user_data {
            v.push("user_data_layout".to_string());
        }
        if !self.spec_constants.is_empty() {
            v.push("spec_constants".to_string());
        }
        v
    }
}

/// Compilation options: what to compile for and with which pipeline state.
#[derive(Clone, Debug)]
pub struct Options {
    /// Generation and wave size. [`Target::new`] picks the default wave size: wave64 on
    /// GFX9 (its only mode) and wave32 on GFX10.3/GFX11, because divergent control flow
    /// then manipulates 32-bit exec masks with 1-dword SGPRs (half the SGPR pressure per
    /// mask) and the VALU issues a wave32 instruction in one pass where wave64 needs two —
    /// RADV's default for compute too.
    pub target: Target,
    /// The SPIR-V entry point (default: the only / first compute entry point).
    pub entry: Option<String>,
    /// Specialization constant values by SpecId, as raw bit patterns.
    pub spec: BTreeMap<u32, u64>,
    /// Run the middle end (default). Off, the IR goes to the backend as given: the IR
    /// tests, and IR that already went through [`optimize_spirv`].
    pub optimize: bool,
    pub layout: PipelineLayout,
    /// Register budget; `None` = everything the generation allows.
    pub budget: Option<regalloc::Budget>,
    /// What an unlinked compile leaves to the link stage (ignored by whole-pipeline
    /// compiles).
    pub missing: Missing,
    /// The final user-data layout of a whole-pipeline compile; `None` keeps the backend's
    /// own placement (docs/abi.md). A layout that differs gets the CS prolog.
    pub user_data: Option<UserDataLayout>,
    /// How the compiler runs (verifiers, timing); never changes the output.
    pub settings: Settings,
}

impl Options {
    pub fn new(target: Target) -> Options {
        Options {
            target,
            entry: None,
            spec: BTreeMap::new(),
            optimize: true,
            layout: PipelineLayout::default(),
            budget: None,
            missing: Missing::default(),
            user_data: None,
            settings: Settings::default(),
        }
    }
}

/// A compiled compute shader.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The PAL ELF: the linked pipeline or the unlinked shader.
    pub elf: Vec<u8>,
    /// `.text` of `elf` including padding.
    pub text: Vec<u8>,
    /// Statistics of the main part (the backend's code; a CS prolog is not counted).
    pub stats: emit::Stats,
    /// The final machine program of the main part (physical registers), for printing.
    pub program: mir::Program,
    /// The entry point's code in `text`: (start, end) byte offsets; [`Compiled::asm`]
    /// disassembles it when asked (a compile does no printing work of its own).
    pub entry: (usize, usize),
    /// Where the link put each part (whole-pipeline compiles; empty for unlinked ones).
    pub placed: Vec<crate::link::layout::PlacedPart>,
    /// Each pass and stage run, in order, when `Settings::time_passes` is set.
    pub timings: Vec<Timing>,
}

impl Compiled {
    /// Disassembly of the entry point's code (our printer, LLVM's syntax), one
    /// instruction per line with its byte offset.
    pub fn asm(&self) -> Result<String, Error> {
        let t = self.program.target;
        Ok(emit::disassemble_range(
            t,
            &self.text,
            self.entry.0,
            self.entry.1,
        )?)
    }
}

/// What the chain starts from.
enum Source<'a> {
    Spirv(&'a [u32]),
    Ir(&'a Module),
}

/// A linked pipeline ELF, or an unlinked shader that leaves `Options::missing` to the link
/// stage.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Pipeline,
    Unlinked,
}

/// SPIR-V → the linked compute pipeline ELF.
pub fn compile_spirv(words: &[u32], opts: &Options) -> Result<Compiled, Error> {
    compile(Source::Spirv(words), opts, Output::Pipeline)
}

/// SPIR-V → an unlinked shader (relocations + `gcnc.prelink`) for `link::link`, leaving
/// `opts.missing` to the link stage. A shader that cannot be compiled this way fails with
/// `NeedsWholePipeline` (front end or backend) and produces nothing.
pub fn compile_spirv_unlinked(words: &[u32], opts: &Options) -> Result<Compiled, Error> {
    compile(Source::Spirv(words), opts, Output::Unlinked)
}

/// IR → the linked compute pipeline ELF (verified first; the middle end runs when
/// `opts.optimize`).
pub fn compile_module(module: &Module, opts: &Options) -> Result<Compiled, Error> {
    compile(Source::Ir(module), opts, Output::Pipeline)
}

/// IR → an unlinked shader ([`compile_spirv_unlinked`] from IR).
pub fn compile_module_unlinked(module: &Module, opts: &Options) -> Result<Compiled, Error> {
    compile(Source::Ir(module), opts, Output::Unlinked)
}

/// The front and middle end alone: SPIR-V → the verified, optimized IR the backend takes
/// (for `gcnc ir`, and for compiling one shader with many backend options:
/// [`compile_module`] with `optimize` off).
pub fn optimize_spirv(words: &[u32], opts: &Options) -> Result<Module, Error> {
    let mut m = translate(words, opts, &BTreeSet::new())?;
    if opts.optimize {
        crate::passes::run_pipeline_with(&mut m, &opts.settings, None)?;
    }
    Ok(m)
}

/// The SPIR-V front end with the options' entry point and specialization constants;
/// the SpecIds in `late` stay symbolic (unlinked compiles).
fn translate(words: &[u32], opts: &Options, late: &BTreeSet<u32>) -> Result<Module, Error> {
    translate_stage(words, opts, late, crate::ir::Stage::Compute)
}

/// [`translate`] of the entry point of `stage`.
pub(crate) fn translate_stage(
    words: &[u32],
    opts: &Options,
    late: &BTreeSet<u32>,
    stage: crate::ir::Stage,
) -> Result<Module, Error> {
    let fopts = crate::front::spirv::Options {
        entry: opts.entry.clone(),
        spec: opts.spec.clone(),
        stage: Some(stage),
    };
    // (translate_unlinked ends by verifying the module it built)
    Ok(crate::front::spirv::translate_unlinked(
        words, &fopts, late,
    )?)
}

/// The whole chain.
fn compile(source: Source, opts: &Options, output: Output) -> Result<Compiled, Error> {
    opts.target.check_wave()?;
    let mut timer = Timer::new(&opts.settings, Phase::Front);
    let missing = match output {
        Output::Pipeline => Missing::default(),
        Output::Unlinked => opts.missing.clone(),
    };

    // Front end: SPIR-V → verified IR.
    let mut module = match source {
        Source::Spirv(words) => Cow::Owned(timer.stage("translate", || {
            translate(words, opts, &missing.spec_constants)
        })?),
        Source::Ir(m) => {
            crate::ir::verify_module(m)?;
            Cow::Borrowed(m)
        }
    };
    if module.stage != crate::ir::Stage::Compute {
        return Err(amdgpu::Error::unsupported(
            None,
            format!(
                "a {} shader compiles only as part of a whole VS+FS pipeline (compile_graphics)",
                module.stage.name()
            ),
        )
        .into());
    }

    // Sets the layout does not give are packed from every declared binding, used or not,
    // so the placement does not depend on what the optimizer removes.
    let layout = opts
        .layout
        .complete(&amdgpu::abi::declared_bindings(&module)?)?;

    // Middle end.
    if opts.optimize {
        let run = crate::passes::run_pipeline_with(module.to_mut(), &opts.settings, None)?;
        timer.timings.extend(run.timings);
    }

    // Backend: instruction selection, register allocation, post-RA passes, encoding.
    timer.phase = Phase::Back;
    let link_time = amdgpu::isel::LinkTime {
        descriptor_layout: missing.descriptor_layout,
        ..Default::default()
    };
    let mut assumed = Vec::new();
    let (p, code, stats, usage) = backend(
        &module,
        opts,
        &layout,
        &link_time,
        &amdgpu::abi_graphics::GraphicsState::default(),
        &mut timer,
        &mut |p| {
            assumed = assumed_user_sgprs(&p.abi.user_sgprs, &missing)?;
            Ok(())
        },
    )?;

    // The main part: a PAL code object (typed metadata) with the pre-link section.
    let code_bytes = code.code_bytes as usize;
    let (data_at, text_len) = (code.data_at, code.text.len() as u64);
    let mut obj = emit::code_object(&p, code, usage.sgprs, usage.vgprs)?;
    let mut pl = PreLinkMetadata::new(HwStage::Cs);
    pl.user_sgprs = assumed;
    pl.missing_state = missing.names();
    if let Some(at) = data_at {
        pl.set_constant_data(u64::from(at), text_len);
    }
    obj.metadata.prelink = Some(pl);
    if output == Output::Unlinked {
        return Ok(Compiled {
            elf: obj.write()?,
            entry: (0, code_bytes),
            text: obj.text,
            stats,
            program: p,
            placed: Vec::new(),
            timings: timer.timings,
        });
    }

    // Link: the main part with the final user-data layout (and the CS prolog it needs),
    // handed over as the code object itself, its metadata still typed (the same input its
    // ELF would give; the pipeline ELF is the only one written).
    let state = PipelineState {
        user_data: opts.user_data.clone(),
        ..Default::default()
    };
    let linked = timer.stage("link", || {
        let main = crate::link::input::typed_input(0, obj);
        crate::link::link_inputs([main], &state, part_cache())
    })?;
    let entry = linked.object.entry(HwStage::Cs)?;
    let mut entry = (entry.offset as usize, (entry.offset + entry.size) as usize);
    if !p.constant_data.is_empty() {
        // the main part ends in its constant data: disassembly stops at its last instruction
        if let Some(main) = linked.placed.iter().find(|m| m.symbol == "gcnc.main.cs") {
            entry.1 = entry.1.min(main.offset as usize + code_bytes);
        }
    }
    Ok(Compiled {
        elf: linked.elf,
        text: linked.object.text,
        entry,
        stats,
        program: p,
        placed: linked.placed,
        timings: timer.timings,
    })
}

/// One selected stage through the backend: what every compile shares. `after_ra` runs
/// right after register allocation (the unlinked compile checks its user SGPRs there).
pub(crate) fn backend(
    module: &Module,
    opts: &Options,
    layout: &PipelineLayout,
    link_time: &amdgpu::isel::LinkTime,
    state: &amdgpu::abi_graphics::GraphicsState,
    timer: &mut Timer,
    after_ra: &mut dyn FnMut(&mir::Program) -> Result<(), Error>,
) -> Result<(mir::Program, emit::Code, emit::Stats, regalloc::Usage), Error> {
    let t = opts.target.check_wave()?;
    let verify_mir = |p: &mir::Program, allocated: bool| -> Result<(), Error> {
        if opts.settings.verify_each() {
            mir::verify::verify(p, allocated)?;
        }
        Ok(())
    };
    // A shader whose branches all reach is allocated with the whole budget; one with a
    // branch beyond the SOPP range is selected and allocated again with the top SGPR
    // pair of the budget kept free for the long branches.
    let mut long_branch: Option<u16> = None;
    let (p, code, usage, copies) = loop {
        let mut p = timer.stage("isel", || {
            amdgpu::isel::select_stage(module, t, layout, link_time, state)
        })?;
        verify_mir(&p, false)?;
        timer.stage("optimize_selected", || passes::optimize_selected(&mut p));
        verify_mir(&p, false)?;
        if p.wqm.is_some() {
            timer.stage("insert_wqm", || passes::insert_wqm(&mut p))?;
            verify_mir(&p, false)?;
        }
        amdgpu::scratch::insert_setup(&mut p)?;
        let mut budget = opts.budget.unwrap_or(regalloc::Budget::full(t.gen));
        if let Some(pair) = long_branch {
            budget.sgprs = pair;
        }
        // the allocator times its own stages (ra_liveness, ra_assign, ...)
        let usage = regalloc::allocate_in(&mut p, budget, &opts.settings, timer)?;
        // the user SGPRs as allocation left them (VGPR spilling may add the scratch setup)
        after_ra(&p)?;
        verify_mir(&p, true)?;
        let copies = timer.stage("lower_to_hw", || passes::lower_to_hw(&mut p))?;
        timer.stage("thread_branches", || passes::thread_branches(&mut p));
        timer.stage("drop_short_exec_branches", || {
            passes::drop_short_exec_branches(&mut p)
        });
        timer.stage("simplify_exec_writes", || {
            passes::simplify_exec_writes(&mut p)
        });
        timer.stage("form_vopd", || passes::form_vopd(&mut p));
        timer.stage("insert_waitcnt", || passes::insert_waitcnt(&mut p))?;
        timer.stage("resolve_hazards", || passes::resolve_hazards(&mut p))?;
        verify_mir(&p, true)?;
        match timer.stage("encode", || emit::encode(&p, long_branch)) {
            Err(amdgpu::Error::BranchRange { .. })
                if long_branch.is_none() && budget.sgprs >= 4 =>
            {
                long_branch = Some((budget.sgprs - 2) & !1);
            }
            code => break (p, code?, usage, copies),
        }
    };
    let stats = emit::Stats {
        instructions: code.instructions,
        code_size: code.code_bytes,
        sgprs: usage.sgprs,
        vgprs: usage.vgprs,
        spilled_sgprs: usage.spilled_sgprs,
        spilled_vgprs: usage.spilled_vgprs,
        scratch_size: p.scratch_bytes,
        lds_size: p.lds_bytes,
        subgroups_per_simd: t.waves_per_simd(usage.sgprs, usage.vgprs),
        copies,
        branches: code.branches,
    };
    Ok((p, code, stats, usage))
}

/// The parts a process builds, shared by every whole-pipeline compile and link.
fn part_cache() -> &'static crate::parts::PartCache {
    crate::parts::PartCache::global()
}

/// The prelink item pair of a user-data entry of the backend's ABI (docs/abi.md).
fn assumed_user_sgpr(u: &UserData, prev: Option<&UserSgpr>) -> UserSgpr {
    use amdgpu::abi::{set_entry, PUSH_CONSTANT_ENTRY};
    match *u {
        UserData::Entry(n) if n == PUSH_CONSTANT_ENTRY => UserSgpr::PushConstantPointer,
        UserData::Entry(n) if n == PUSH_CONSTANT_ENTRY + 1 => UserSgpr::PushConstantPointerHi,
        UserData::Entry(n) if n >= set_entry(0) && (n - set_entry(0)) % 2 == 0 => {
            UserSgpr::DescriptorSet((n - set_entry(0)) / 2)
        }
        UserData::Entry(n) if n > set_entry(0) => UserSgpr::DescriptorSetHi((n - set_entry(0)) / 2),
        UserData::Workgroup => UserSgpr::Workgroup,
        UserData::GlobalTable => UserSgpr::GlobalTable,
        _ => match prev {
            Some(UserSgpr::Workgroup) => UserSgpr::Other("workgroup_hi".into(), 0),
            Some(UserSgpr::GlobalTable) => UserSgpr::Unused,
            _ => UserSgpr::Other(format!("{u:?}"), 0),
        },
    }
}

/// What the main part assumes each user SGPR holds; with the user-data layout missing,
/// every one must be something a layout can supply.
fn assumed_user_sgprs(user_sgprs: &[UserData], missing: &Missing) -> Result<Vec<UserSgpr>, Error> {
    let mut assumed: Vec<UserSgpr> = Vec::new();
    for u in user_sgprs {
        let a = assumed_user_sgpr(u, assumed.last());
        assumed.push(a);
    }
    if missing.user_data {
        if let Some(j) = assumed.iter().position(|a| Item::from_assumed(a).is_none()) {
            return Err(amdgpu::Error::NeedsWholePipeline(format!(
                "user SGPR {j} holds {:?}, which no user-data layout supplies",
                assumed[j]
            ))
            .into());
        }
    }
    Ok(assumed)
}

/// Compiles share nothing mutable: the options, the IR and the result move between
/// threads and are read from several at once (`gcnc batch`, the C API's compiler), and
/// the only process-wide state is the part cache, which is synchronised.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Options>();
    send_sync::<Module>();
    send_sync::<Compiled>();
    send_sync::<crate::parts::PartCache>();
};
