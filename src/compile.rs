//! The compiler driver: the whole backend pipeline in one function, as ACO's
//! `aco_interface.cpp` shows it.
//!
//! ```text
//! IR module (after the middle-end)
//!   isel::select            IR → MIR (SSA, virtual registers, logical + linear CFG)
//!   mir::verify             (debug builds and tests)
//!   regalloc::allocate      spilling to the budget, tuple-aware assignment
//!   passes::lower_to_hw     pseudo → real, parallel copies sequentialised
//!   passes::insert_waitcnt  memory counters
//!   passes::resolve_hazards per-generation interlocks
//!   emit::encode            code buffer, branch fixups, relocations, s_code_end padding
//!   emit::code_object       PAL code object + `gcnc.prelink`: the unlinked main part
//!   link::link              parts (CS prolog), layout, fall-through, relocations,
//!                           metadata merge → the pipeline ELF
//! ```
//!
//! There is one code path (docs/link.md): [`compile_unlinked`] stops after the main part
//! (the state in [`Options::missing`] becomes relocated literals and pre-link metadata);
//! [`compile_compute`] compiles the same main part with everything known and links it with
//! the final user-data layout ([`Options::user_data`]), building the same CS prolog the
//! link stage builds for an unlinked shader when that layout differs from the backend's.
//!
//! Errors carry their layer: `amdgpu::Error` for the backend. The same input always gives
//! the same bytes.

use crate::amdgpu::{self, abi::PipelineLayout, emit, mir, passes, regalloc, Error};
use crate::binary::prelink::{PreLinkMetadata, UserSgpr};
use crate::binary::{HwStage, UserData};
use crate::ir::Module;
use crate::isa::{Gen, Target, Wave};
use crate::link::state::{Item, PipelineState, UserDataLayout};
use std::collections::BTreeSet;

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

/// Compilation options.
#[derive(Clone, Debug)]
pub struct Options {
    pub gen: Gen,
    /// Wave size; `None` picks the default: wave64 on GFX9 (its only mode) and wave32 on
    /// GFX10.3/GFX11, because divergent control flow then manipulates 32-bit exec masks
    /// with 1-dword SGPRs (half the SGPR pressure per mask) and the VALU issues a wave32
    /// instruction in one pass where wave64 needs two — RADV's default for compute too.
    pub wave: Option<Wave>,
    pub layout: PipelineLayout,
    /// Register budget; `None` = everything the generation allows.
    pub budget: Option<regalloc::Budget>,
    /// What [`compile_unlinked`] leaves to the link stage (ignored by [`compile_compute`]).
    pub missing: Missing,
    /// The final user-data layout of a whole-pipeline compile; `None` keeps the backend's
    /// own placement (docs/abi.md). A layout that differs gets the CS prolog.
    pub user_data: Option<UserDataLayout>,
}

impl Options {
    pub fn new(gen: Gen) -> Options {
        Options {
            gen,
            wave: None,
            layout: PipelineLayout::default(),
            budget: None,
            missing: Missing::default(),
            user_data: None,
        }
    }
    pub fn target(&self) -> Result<Target, Error> {
        match self.wave {
            None => Ok(Target::new(self.gen)),
            Some(w) => Target::with_wave(self.gen, w).map_err(|e| Error::unsupported(None, e)),
        }
    }
}

/// A compiled compute shader.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The PAL ELF: the linked pipeline ([`compile_compute`]) or the unlinked shader
    /// ([`compile_unlinked`]).
    pub elf: Vec<u8>,
    /// `.text` of `elf` including padding.
    pub text: Vec<u8>,
    /// Statistics of the main part (the backend's code; a CS prolog is not counted).
    pub stats: emit::Stats,
    /// The final machine program of the main part (physical registers), for printing.
    pub program: mir::Program,
    /// Disassembly of the entry point's code in `elf` (our printer).
    pub asm: String,
    /// Where the link put each part (whole-pipeline compiles; empty for unlinked ones).
    pub placed: Vec<crate::link::layout::PlacedPart>,
}

/// The parts a process builds, shared by every whole-pipeline compile and link.
fn part_cache() -> &'static crate::parts::PartCache {
    crate::parts::PartCache::global()
}

/// Compiles the entry point of `module` (a compute shader after the middle-end) for the
/// whole pipeline: the main part with everything known, linked with `opts.user_data`.
pub fn compile_compute(module: &Module, opts: &Options) -> Result<Compiled, Error> {
    let main = main_part(module, opts, &Missing::default())?;
    let state = PipelineState {
        user_data: opts.user_data.clone(),
        ..Default::default()
    };
    let linked = crate::link::link(&[&main.elf], &state, part_cache())
        .map_err(|e| Error::Link(e.to_string()))?;
    let entry = linked
        .object
        .functions
        .iter()
        .find(|f| f.name == HwStage::Cs.entry_symbol())
        .map(|f| (f.offset, f.size))
        .ok_or_else(|| Error::Link("the linked object has no CS entry".into()))?;
    let asm = emit::disassemble_range(
        main.program.target,
        &linked.object.text,
        entry.0 as usize,
        (entry.0 + entry.1) as usize,
    )?;
    Ok(Compiled {
        elf: linked.elf,
        text: linked.object.text,
        stats: main.stats,
        program: main.program,
        asm,
        placed: linked.placed,
    })
}

/// Compiles the entry point of `module` with the state in `opts.missing` left to the link
/// stage: an unlinked ELF (relocations + `gcnc.prelink`) for `link::link`. A shader that
/// cannot be compiled this way gets `Error::NeedsWholePipeline` and nothing else.
pub fn compile_unlinked(module: &Module, opts: &Options) -> Result<Compiled, Error> {
    let mut c = main_part(module, opts, &opts.missing)?;
    c.asm = emit::disassemble_range(c.program.target, &c.text, 0, c.stats.code_size as usize)?;
    Ok(c)
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

/// The backend pipeline up to the main part's code object (with `gcnc.prelink`).
fn main_part(module: &Module, opts: &Options, missing: &Missing) -> Result<Compiled, Error> {
    let t = opts.target()?;
    let budget = opts.budget.unwrap_or(regalloc::Budget::full(t.gen));
    let link_time = amdgpu::isel::LinkTime {
        descriptor_layout: missing.descriptor_layout,
    };
    let mut p = amdgpu::isel::select_with(module, t, &opts.layout, &link_time)?;
    if crate::passes::verify_each() {
        mir::verify::verify(&p, false)?;
    }
    amdgpu::isel::scratch::insert_setup(&mut p)?;
    let usage = regalloc::allocate(&mut p, budget)?;
    // the user SGPRs as allocation left them (VGPR spilling may add the scratch setup)
    let mut assumed: Vec<UserSgpr> = Vec::new();
    for u in &p.abi.user_sgprs {
        let a = assumed_user_sgpr(u, assumed.last());
        assumed.push(a);
    }
    if missing.user_data {
        if let Some(j) = assumed.iter().position(|a| Item::from_assumed(a).is_none()) {
            return Err(Error::NeedsWholePipeline(format!(
                "user SGPR {j} holds {:?}, which no user-data layout supplies",
                assumed[j]
            )));
        }
    }
    if crate::passes::verify_each() {
        mir::verify::verify(&p, true)?;
    }
    let copies = passes::lower_to_hw(&mut p)?;
    passes::insert_waitcnt(&mut p)?;
    passes::resolve_hazards(&mut p)?;
    if crate::passes::verify_each() {
        mir::verify::verify(&p, true)?;
    }
    let code = emit::encode(&p)?;
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
    let mut obj = emit::code_object(&p, &code, usage.sgprs, usage.vgprs)?;
    let mut pl = PreLinkMetadata::new(HwStage::Cs);
    pl.user_sgprs = assumed;
    pl.missing_state = missing.names();
    obj.metadata
        .as_map_mut()
        .ok_or_else(|| Error::Binary("metadata root is not a map".into()))?
        .insert(
            crate::binary::msgpack::Key::str(crate::binary::metadata::KEY_PRELINK),
            pl.to_value(),
        );
    let elf = obj.write().map_err(|e| Error::Binary(e.to_string()))?;
    // the caller disassembles what it returns (the main part, or the linked entry)
    Ok(Compiled {
        elf,
        text: code.text,
        stats,
        program: p,
        asm: String::new(),
        placed: Vec::new(),
    })
}
