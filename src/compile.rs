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
//!   emit::encode            code buffer, branch fixups, s_code_end padding
//!   emit::write_elf         PAL ELF with the compute metadata
//! ```
//!
//! Errors carry their layer: `amdgpu::Error` for the backend. The same input always gives
//! the same bytes.

use crate::amdgpu::{self, abi::PipelineLayout, emit, mir, passes, regalloc, Error};
use crate::ir::Module;
use crate::isa::{Gen, Target, Wave};

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
}

impl Options {
    pub fn new(gen: Gen) -> Options {
        Options {
            gen,
            wave: None,
            layout: PipelineLayout::default(),
            budget: None,
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
    /// The PAL ELF.
    pub elf: Vec<u8>,
    /// `.text` including padding.
    pub text: Vec<u8>,
    pub stats: emit::Stats,
    /// The final machine program (physical registers), for printing.
    pub program: mir::Program,
    /// Disassembly of the code (our printer).
    pub asm: String,
}

/// Compiles the entry point of `module` (a compute shader after the middle-end).
pub fn compile_compute(module: &Module, opts: &Options) -> Result<Compiled, Error> {
    let t = opts.target()?;
    let budget = opts.budget.unwrap_or(regalloc::Budget::full(t.gen));
    let mut p = amdgpu::isel::select(module, t, &opts.layout)?;
    mir::verify::verify(&p, false)?;
    amdgpu::isel::scratch::insert_setup(&mut p)?;
    let usage = regalloc::allocate(&mut p, budget)?;
    mir::verify::verify(&p, true)?;
    let copies = passes::lower_to_hw(&mut p)?;
    passes::insert_waitcnt(&mut p)?;
    passes::resolve_hazards(&mut p)?;
    mir::verify::verify(&p, true)?;
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
        subgroups_per_simd: emit::subgroups_per_simd(t, usage.sgprs, usage.vgprs),
        copies,
        branches: code.branches,
    };
    let elf = emit::write_elf(&p, &code, usage.sgprs, usage.vgprs)?;
    let asm = emit::disassemble(&p, &code)?;
    Ok(Compiled {
        elf,
        text: code.text,
        stats,
        program: p,
        asm,
    })
}
