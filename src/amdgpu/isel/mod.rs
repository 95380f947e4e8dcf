//! Instruction selection: IR (after the middle-end) → machine IR in SSA form.
//!
//! Design (ACO's `instruction_selection.cpp`, much reduced):
//! - Uniformity comes from [`crate::passes::divergence`]. Uniform values live in SGPRs and use SALU and
//!   scalar loads; divergent values live in VGPRs and use VALU. Uniform float arithmetic
//!   runs on the VALU (no SALU float before GFX11.5): its IR value is the SGPR a
//!   `v_readfirstlane_b32` right after it reads back (once per value), and the VGPR it
//!   came from is remembered ([`Isel::vgpr_origin`]) so that VALU users and VGPR operands
//!   read that VGPR instead. A readback only VALU users needed is then dead and
//!   `eliminate_dead_code` deletes it: the SGPR exists only where an SGPR is required
//!   (SALU, scalar memory, branch, phi of the SGPR file, lane index).
//!   Why reading the VGPR is sound: the structured exec-mask CF only narrows exec between
//!   a definition and the uses it dominates (a use after a divergent region reads a phi),
//!   so every lane active at a use wrote the VGPR, and wrote the uniform value.
//! - Each IR value maps to one machine value per component ([`MV`]): a temp with a
//!   [`Kind`] (plain data, uniform bool 0/1 in an SGPR, lane mask, or a divergent bool
//!   kept as 0/1 in a VGPR — the form divergent bool phis take), or a constant folded into
//!   its users.
//! - Phis are eliminated during selection: each phi gets a temp defined by a parallel copy
//!   at the end of every predecessor (so the temp has several definitions and is listed in
//!   `Program::multi_def`). Predecessors of phi blocks always have one successor in the
//!   structured CF, so no critical edge needs splitting.
//! - Control flow (see `cf.rs`): uniform `if`/loops branch on SCC; divergent ones keep the
//!   exec mask in SGPRs on the linear CFG and skip regions whose exec is empty.
//!
//! Invariant on exit: the program passes `mir::verify::verify(p, false)`.

mod alu;
mod alu16;
mod alu64;
mod buffers;
mod buffers16;
mod cf;
mod constant_data;
pub(crate) mod divide;
mod divide64;
mod f64;
mod global;
pub mod graphics;
mod image;
mod intrinsics;
mod lds;
mod legalize;
pub(crate) use legalize::is_inline32;
mod ngg;
mod pack;
mod quad;
pub mod scratch;
mod spec;
mod subgroup;
mod subgroup_reduce;
mod subgroup_shuffle;
mod upper_bound;

use super::abi::PipelineLayout;
use super::abi_graphics::GraphicsState;
use super::mir::{Arg, BlockId, MInst, Program, Pseudo, RegClass, Temp};
use super::Error;
use crate::binary::registers::UserData;
use crate::ir::{self, Cfg, InstKind, Module, SecondaryMap, Value};
use crate::isa::{tables, Format, Opcode, PhysReg, Target};
use smallvec::SmallVec;

/// How a machine value represents its IR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    /// Uniform 1-bit value as 0 or 1 in an SGPR.
    UBool,
    /// Divergent 1-bit value as a lane mask.
    Mask,
    /// Divergent 1-bit value as 0 or 1 in a VGPR.
    VBool,
}

/// One component of an IR value after selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MV {
    T(Temp, Kind),
    /// A constant bit pattern (bools are 0/1).
    C(u64),
}

/// Per-loop state for jumps.
pub(crate) struct LoopCx {
    divergent: bool,
    header: BlockId,
    /// Blocks ending in a branch to the exit, patched once the exit exists.
    exit_patches: Vec<(BlockId, usize)>,
    brk: Option<Temp>,
    cont: Option<Temp>,
}

/// Selector state.
pub struct Isel<'a> {
    pub(crate) m: &'a Module,
    pub(crate) f: &'a ir::Function,
    pub(crate) cfg: Cfg,
    pub(crate) div: crate::passes::divergence::FunctionDivergence,
    pub(crate) layout: &'a PipelineLayout,
    pub(crate) p: Program,
    pub(crate) cur: BlockId,
    pub(crate) vals: SecondaryMap<ir::InstData, SmallVec<[MV; 4]>>,
    pub(crate) loops: Vec<LoopCx>,
    /// Number of enclosing divergent ifs.
    pub(crate) div_if_depth: u32,
    pub(crate) loop_depth: u32,
    /// The current block ended with an unconditional jump.
    pub(crate) dead: bool,
    /// Blocks ending in `s_branch` to the program end, patched at the end.
    pub(crate) end_patches: Vec<(BlockId, usize)>,
    /// Hardware-initialised inputs, created on first use.
    pub(crate) inputs: Inputs,
    /// Extensions of 8/16-bit values already made (`alu16.rs`).
    pub(crate) narrow: alu16::NarrowCache,
    /// What an unlinked compile leaves to the link stage (default: nothing).
    pub(crate) link: LinkTime,
    /// The pipeline state of a vertex or fragment shader. No selection reads it since
    /// vertex fetch and exports are parts the link builds from the state (docs/link.md
    /// "Graphics parts"); kept for state-dependent selection.
    #[allow(dead_code)]
    pub(crate) state: &'a GraphicsState,
    /// Graphics stage inputs and outputs (`graphics.rs`).
    pub(crate) gfx: graphics::Gfx,
    /// Components of each value its users read (`image.rs`, computed on first use).
    pub(crate) used_comps: Option<SecondaryMap<ir::InstData, u8>>,
    /// SGPR readback of a uniform VALU result → the VGPR holding the same value in every
    /// lane active wherever the SGPR is read ([`Isel::uniform_to_sgpr`]).
    pub(crate) vgpr_origin: std::collections::HashMap<Temp, Temp>,
}

/// The state an unlinked compile does not have: each item becomes a relocated literal
/// (docs/link.md) instead of a constant. (Vertex and fragment stages are always main
/// parts completed by the link's parts, docs/link.md "Graphics parts".)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkTime {
    /// Descriptor offsets and array strides come from `gcnc.desc.*` relocations.
    pub descriptor_layout: bool,
    /// A vertex stage keeps the primitive id for its epilog, which exports it when the
    /// fragment stage reads `gl_PrimitiveID` (an unlinked vertex stage cannot know:
    /// always; a whole pipeline: when its fragment stage reads it). GFX9: v2 handed to the
    /// epilog; NGG: each primitive's id stored to LDS at its provoking vertex
    /// (`isel/ngg.rs`). docs/abi.md "Built-ins a fragment shader declares the Geometry
    /// capability for".
    pub vs_primitive_id: bool,
    /// A vertex stage keeps PAL's ViewId user SGPR for its epilog, which exports it as the
    /// layer under multiview: a whole pipeline when its state has a view mask (a stage
    /// reading gl_ViewIndex keeps it anyway; an unlinked stage that does not read it
    /// cannot be linked into a multiview pipeline).
    pub vs_view_index: bool,
}

/// The temps holding ABI inputs (precoloured once their registers are known).
#[derive(Default)]
pub(crate) struct Inputs {
    pub push_ptr: Option<Temp>,
    pub set_ptr: [Option<Temp>; 7],
    pub workgroup_ptr: Option<Temp>,
    pub tgid: [Option<Temp>; 3],
    pub tid: [Option<Temp>; 3],
    /// The constant data's address (`p_constaddr`, not a hardware input).
    pub const_data: Option<Temp>,
}

/// Selects the entry point of `m` for `t`.
pub fn select(m: &Module, t: Target, layout: &PipelineLayout) -> Result<Program, Error> {
    select_with(m, t, layout, &LinkTime::default())
}

/// [`select`], leaving what `link` names to the link stage (unlinked compiles).
pub fn select_with(
    m: &Module,
    t: Target,
    layout: &PipelineLayout,
    link: &LinkTime,
) -> Result<Program, Error> {
    select_stage(m, t, layout, link, &GraphicsState::default())
}

/// Selects a compute, vertex or fragment entry point; a graphics stage is compiled
/// against `state` (docs/abi.md "Graphics").
pub fn select_stage(
    m: &Module,
    t: Target,
    layout: &PipelineLayout,
    link: &LinkTime,
    state: &GraphicsState,
) -> Result<Program, Error> {
    let f = m.entry_function().ok_or(Error::NoEntryPoint)?;
    if !matches!(
        m.stage,
        ir::Stage::Compute | ir::Stage::Vertex | ir::Stage::Fragment
    ) {
        return Err(Error::unsupported(
            None,
            format!("{} shaders", m.stage.name()),
        ));
    }
    if f.has_calls() {
        return Err(Error::unsupported(
            None,
            "calls must be inlined before isel",
        ));
    }
    let mut s = Isel {
        m,
        f,
        cfg: Cfg::new(f),
        div: crate::passes::divergence::analyze_function(f),
        layout,
        p: Program::new(t),
        cur: BlockId(0),
        vals: SecondaryMap::with_len(f.insts.len(), SmallVec::new()),
        loops: Vec::new(),
        div_if_depth: 0,
        loop_depth: 0,
        dead: false,
        end_patches: Vec::new(),
        inputs: Inputs::default(),
        narrow: Default::default(),
        link: link.clone(),
        state,
        gfx: Default::default(),
        used_comps: None,
        vgpr_origin: Default::default(),
    };
    s.p.workgroup_size = m.local_size;
    s.cur = s.p.new_block(0);
    // p_startpgm goes first; its defs are filled in `finish_inputs`.
    s.p.blocks[0]
        .insts
        .push(MInst::pseudo(Pseudo::StartPgm, &[], &[]));
    s.gfx_begin()?;
    s.create_phi_temps();
    let body = f.body.clone();
    s.list(&body)?;
    let end = s.p.new_block(0);
    if !s.dead {
        s.p.add_edge(s.cur, end, true);
    }
    for (b, i) in std::mem::take(&mut s.end_patches) {
        s.p.block_mut(b).insts[i].ops[0] = Arg::Label(end);
        s.p.add_edge(b, end, false);
    }
    s.cur = end;
    s.gfx_end()?;
    // a graphics stage is a main part: it ends with its branch to the export epilog
    if !s.is_graphics() {
        s.hw(Opcode::SEndpgm, &[], &[Arg::Imm(0)])?;
    }
    s.quad_end(end)?;
    s.place_const_data_addr();
    s.finish_inputs()?;
    if cfg!(debug_assertions) {
        super::mir::verify::verify(&s.p, false)?;
    }
    Ok(s.p)
}

/// The runs of consecutive components a store's write `mask` selects among `comps`
/// components of `per` dwords each, every run at most `max_dwords` dwords long (`u32::MAX`:
/// unbounded), as `(first, last)` component pairs in order.
pub(crate) fn mask_runs(comps: u32, mask: u32, per: u32, max_dwords: u32) -> Vec<(u32, u32)> {
    let mut runs = Vec::new();
    let mut c = 0u32;
    while c < comps {
        if mask >> c & 1 == 0 {
            c += 1;
            continue;
        }
        let mut end = c;
        while end + 1 < comps && mask >> (end + 1) & 1 == 1 && (end + 2 - c) * per <= max_dwords {
            end += 1;
        }
        runs.push((c, end));
        c = end + 1;
    }
    runs
}

impl Isel<'_> {
    pub(crate) fn t(&self) -> Target {
        self.p.target
    }
    pub(crate) fn mask_rc(&self) -> RegClass {
        RegClass::lane_mask(self.p.target)
    }
    pub(crate) fn tmp(&mut self, rc: RegClass) -> Temp {
        self.p.new_temp(rc)
    }
    pub(crate) fn push(&mut self, i: MInst) {
        let b = self.cur;
        self.p.block_mut(b).insts.push(i);
    }

    /// The opcode performing `o` on the target: `o` itself, or its rename on this
    /// generation (`Opcode::on`); a generation without the operation is an
    /// `Error::NotOnTarget`.
    pub(crate) fn op(&self, o: Opcode) -> Result<Opcode, Error> {
        let gen = self.t().gen;
        o.on(gen).ok_or(Error::NotOnTarget { op: o, gen })
    }

    /// The lane-mask form of the 32-bit scalar opcode `o` for the wave size: `o` in wave32,
    /// its 64-bit twin in wave64 (`Opcode::for_wave`), resolved for the generation.
    pub(crate) fn lane_op(&self, o: Opcode) -> Result<Opcode, Error> {
        let wave = self.t().wave;
        let w = o.for_wave(wave).ok_or(Error::NotOnTarget {
            op: o,
            gen: self.t().gen,
        })?;
        self.op(w)
    }

    /// Appends a real instruction, choosing the first format the generation has among
    /// SOP1/SOP2/SOPC/SOPK/SOPP/SMEM/VOP1/VOP3 (VOP2/VOPC are chosen by `valu`).
    pub(crate) fn hw(&mut self, o: Opcode, defs: &[Arg], ops: &[Arg]) -> Result<(), Error> {
        let o = self.op(o)?;
        let gen = self.t().gen;
        let fmt = [
            Format::Sop1,
            Format::Sop2,
            Format::Sopc,
            Format::Sopk,
            Format::Sopp,
            Format::Smem,
            Format::Vop1,
            Format::Vop3,
            Format::Vop3p,
        ]
        .into_iter()
        .find(|f| tables::form(gen, o, *f).is_some())
        .ok_or_else(|| Error::unsupported(None, format!("{}: no usable format", o.name())))?;
        self.push(MInst::hw(o, fmt, defs, ops));
        Ok(())
    }

    /// [`Isel::hw`] for a lane-mask operation named by its 32-bit scalar opcode
    /// ([`Isel::lane_op`]: `s_and_b32` becomes `s_and_b64` in wave64).
    pub(crate) fn hw_lane(&mut self, o: Opcode, defs: &[Arg], ops: &[Arg]) -> Result<(), Error> {
        let o = self.lane_op(o)?;
        self.hw(o, defs, ops)
    }

    /// Emits `s_branch`/`s_cbranch_*` to `target` (a placeholder until patched) and returns
    /// its position for patching.
    pub(crate) fn branch(&mut self, o: Opcode, target: BlockId) -> Result<(BlockId, usize), Error> {
        self.hw(o, &[], &[Arg::Label(target)])?;
        let b = self.cur;
        Ok((b, self.p.block(b).insts.len() - 1))
    }

    pub(crate) fn patch(&mut self, at: (BlockId, usize), target: BlockId) {
        self.p.block_mut(at.0).insts[at.1].ops[0] = Arg::Label(target);
    }

    fn create_phi_temps(&mut self) {
        let f = self.f;
        for b in f.blocks_in_order() {
            for &i in &f.blocks[b].insts {
                if !matches!(f.kind(i), InstKind::Phi(_)) {
                    continue;
                }
                let ty = f.ty(i);
                let div = self.div.is_divergent(i);
                let mut v = SmallVec::new();
                for _ in 0..ty.comps {
                    let (rc, k) = match (ty.bits, div) {
                        (1, false) => (RegClass::S1, Kind::UBool),
                        (1, true) => (RegClass::V1, Kind::VBool),
                        (64, false) => (RegClass::S2, Kind::Plain),
                        (64, true) => (RegClass::V2, Kind::Plain),
                        (_, false) => (RegClass::S1, Kind::Plain),
                        (_, true) => (RegClass::V1, Kind::Plain),
                    };
                    let t = self.tmp(rc);
                    self.p.multi_def.insert(t);
                    v.push(MV::T(t, k));
                }
                self.vals[i] = v;
            }
        }
    }

    /// Parallel copies into the phis of `b`'s single successor.
    pub(crate) fn phi_copies(&mut self, b: ir::Block) -> Result<(), Error> {
        let succs = self.cfg.succs[b].clone();
        if succs.len() != 1 {
            return Ok(());
        }
        let f = self.f;
        let mut defs: SmallVec<[Arg; 2]> = SmallVec::new();
        let mut ops: SmallVec<[Arg; 4]> = SmallVec::new();
        for &i in &f.blocks[succs[0]].insts {
            let InstKind::Phi(srcs) = f.kind(i) else {
                continue;
            };
            // The IR lets a phi omit predecessors the entry cannot reach (code after an
            // if whose arms all break, say), but the exec-mask CF still lays such blocks
            // out: their copy defines zero, a value nothing observes.
            let src = match srcs.iter().find(|(p, _)| *p == b) {
                Some(&(_, src)) => Some(src),
                None if !self.cfg.reachable[b] => None,
                None => {
                    return Err(Error::Verify(format!(
                        "phi (IR instruction #{}) has no source for a reachable predecessor",
                        i.index()
                    )))
                }
            };
            let dst = self.vals[i].clone();
            for (c, d) in dst.iter().enumerate() {
                let MV::T(dt, k) = *d else { unreachable!() };
                let o = match (src, k) {
                    (None, Kind::VBool) => Arg::Temp(self.to_vgpr(Arg::Const(0))?),
                    (None, _) if self.p.rc(dt).dwords == 2 => {
                        let z = self.tmp(RegClass::S2);
                        self.hw(Opcode::SMovB64, &[Arg::Temp(z)], &[Arg::Const(0)])?;
                        Arg::Temp(z)
                    }
                    (None, _) => Arg::Const(0),
                    (Some(src), Kind::VBool) => Arg::Temp(self.vbool(src, c)?),
                    (Some(src), Kind::UBool) => self.ubool(src, c)?,
                    (Some(src), _) => self.arg(src, c)?,
                };
                defs.push(Arg::Temp(dt));
                ops.push(o);
            }
        }
        if !defs.is_empty() {
            self.push(MInst::pseudo(Pseudo::ParallelCopy, &defs, &ops));
        }
        Ok(())
    }

    /// A source operand for component `c` (temp of any file, or a 32-bit constant). 64-bit
    /// constants are materialised.
    pub(crate) fn arg(&mut self, v: Value, c: usize) -> Result<Arg, Error> {
        match self.get(v, c)? {
            MV::C(x) if self.f.ty(v).bits == 64 => {
                let t = self.tmp(RegClass::S2);
                let lo = self.tmp(RegClass::S1);
                let hi = self.tmp(RegClass::S1);
                self.hw(Opcode::SMovB32, &[Arg::Temp(lo)], &[Arg::Const(x as u32)])?;
                self.hw(
                    Opcode::SMovB32,
                    &[Arg::Temp(hi)],
                    &[Arg::Const((x >> 32) as u32)],
                )?;
                self.push(MInst::pseudo(
                    Pseudo::CreateVector,
                    &[Arg::Temp(t)],
                    &[Arg::Temp(lo), Arg::Temp(hi)],
                ));
                Ok(Arg::Temp(t))
            }
            MV::C(x) => Ok(Arg::Const(x as u32)),
            MV::T(t, Kind::Mask) => {
                // a divergent bool used as data: 0/1 per lane
                let d = self.tmp(RegClass::V1);
                self.hw(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(d)],
                    &[Arg::Const(0), Arg::Const(1), Arg::Temp(t)],
                )?;
                Ok(Arg::Temp(d))
            }
            MV::T(t, _) => Ok(Arg::Temp(t)),
        }
    }

    pub(crate) fn get(&self, v: Value, c: usize) -> Result<MV, Error> {
        self.vals[v].get(c).copied().ok_or_else(|| {
            Error::unsupported(
                Some(v.index() as u32),
                format!("value has no component {c} selected"),
            )
        })
    }

    pub(crate) fn to_sgpr(&mut self, a: Arg) -> Result<Temp, Error> {
        match a {
            Arg::Temp(t) if self.p.rc(t).is_sgpr() => Ok(t),
            Arg::Temp(t) => {
                let n = self.p.rc(t).dwords;
                let parts = self.split(t, n)?;
                let mut outs = Vec::new();
                for pt in parts {
                    let d = self.tmp(RegClass::S1);
                    self.hw(Opcode::VReadfirstlaneB32, &[Arg::Temp(d)], &[Arg::Temp(pt)])?;
                    outs.push(Arg::Temp(d));
                }
                if n == 1 {
                    return Ok(outs[0].temp().unwrap());
                }
                let d = self.tmp(RegClass::s(n));
                self.push(MInst::pseudo(Pseudo::CreateVector, &[Arg::Temp(d)], &outs));
                Ok(d)
            }
            Arg::Const(x) => {
                let d = self.tmp(RegClass::S1);
                self.hw(Opcode::SMovB32, &[Arg::Temp(d)], &[Arg::Const(x)])?;
                Ok(d)
            }
            _ => Err(Error::unsupported(
                None,
                "operand cannot be moved to an SGPR",
            )),
        }
    }

    /// The SGPR form of the VALU result `t` of a uniform IR value (`v_readfirstlane_b32`
    /// per dword), remembering `t` as its VGPR origin: VALU users read `t` itself.
    pub(crate) fn uniform_to_sgpr(&mut self, t: Temp) -> Result<Temp, Error> {
        let s = self.to_sgpr(Arg::Temp(t))?;
        if s != t {
            self.vgpr_origin.insert(s, t);
        }
        Ok(s)
    }

    /// The VGPR an SGPR operand was read back from, if any ([`Isel::vgpr_origin`]).
    pub(crate) fn origin_of(&self, a: Arg) -> Option<Temp> {
        match a {
            Arg::Temp(t) => self.vgpr_origin.get(&t).copied(),
            _ => None,
        }
    }

    pub(crate) fn to_vgpr(&mut self, a: Arg) -> Result<Temp, Error> {
        if let Some(v) = self.origin_of(a) {
            return Ok(v);
        }
        match a {
            Arg::Temp(t) if !self.p.rc(t).is_sgpr() => Ok(t),
            Arg::Temp(t) if self.p.rc(t).dwords == 1 => {
                let d = self.tmp(RegClass::V1);
                self.hw(Opcode::VMovB32, &[Arg::Temp(d)], &[Arg::Temp(t)])?;
                Ok(d)
            }
            Arg::Temp(t) => {
                let n = self.p.rc(t).dwords;
                let d = self.tmp(RegClass::v(n));
                self.push(MInst::pseudo(
                    Pseudo::ParallelCopy,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(t)],
                ));
                Ok(d)
            }
            Arg::Const(x) => {
                let d = self.tmp(RegClass::V1);
                self.hw(Opcode::VMovB32, &[Arg::Temp(d)], &[Arg::Const(x)])?;
                Ok(d)
            }
            _ => Err(Error::unsupported(
                None,
                "operand cannot be moved to a VGPR",
            )),
        }
    }

    /// Components `first..=last` of `v` as VGPR dwords, in order (the data of a store).
    pub(crate) fn vgpr_dwords(
        &mut self,
        v: Value,
        first: u32,
        last: u32,
    ) -> Result<Vec<Temp>, Error> {
        let mut dw = Vec::new();
        for k in first..=last {
            let a = self.arg(v, k as usize)?;
            let t = self.to_vgpr(a)?;
            let n = self.p.rc(t).dwords;
            dw.extend(self.split(t, n)?);
        }
        Ok(dw)
    }

    /// One VGPR tuple holding `dwords` in order (a single dword stays itself).
    pub(crate) fn vgpr_tuple(&mut self, dwords: &[Temp]) -> Temp {
        if let [t] = dwords {
            return *t;
        }
        let d = self.tmp(RegClass::v(dwords.len() as u8));
        let parts: Vec<Arg> = dwords.iter().map(|t| Arg::Temp(*t)).collect();
        self.push(MInst::pseudo(Pseudo::CreateVector, &[Arg::Temp(d)], &parts));
        d
    }

    /// Splits a tuple temp into `n` dword temps of its file.
    pub(crate) fn split(&mut self, t: Temp, n: u8) -> Result<Vec<Temp>, Error> {
        if n == 1 {
            return Ok(vec![t]);
        }
        let rc = self.p.rc(t);
        let parts: Vec<Temp> = (0..n)
            .map(|_| self.tmp(RegClass { dwords: 1, ..rc }))
            .collect();
        let defs: Vec<Arg> = parts.iter().map(|t| Arg::Temp(*t)).collect();
        self.push(MInst::pseudo(Pseudo::SplitVector, &defs, &[Arg::Temp(t)]));
        Ok(parts)
    }

    /// A uniform bool as an SGPR 0/1 operand (or constant).
    pub(crate) fn ubool(&mut self, v: Value, c: usize) -> Result<Arg, Error> {
        match self.get(v, c)? {
            MV::C(x) => Ok(Arg::Const((x & 1) as u32)),
            MV::T(t, Kind::UBool) => Ok(Arg::Temp(t)),
            MV::T(t, Kind::Plain) if self.p.rc(t).is_sgpr() => Ok(Arg::Temp(t)),
            MV::T(t, _) => {
                // a uniform bool computed on the VALU: read the first lane
                let m = self.mask_of(MV::T(t, self.kind_of(v, c)))?;
                let d = self.tmp(RegClass::S1);
                self.hw_lane(Opcode::SCmpLgU32, &[], &[m, Arg::Const(0)])?;
                self.scc_to_bool(d)?;
                Ok(Arg::Temp(d))
            }
        }
    }

    fn kind_of(&self, v: Value, c: usize) -> Kind {
        match self.vals[v][c] {
            MV::T(_, k) => k,
            MV::C(_) => Kind::Plain,
        }
    }

    /// A divergent bool as a lane mask operand.
    pub(crate) fn mask(&mut self, v: Value, c: usize) -> Result<Arg, Error> {
        let mv = self.get(v, c)?;
        self.mask_of(mv)
    }

    pub(crate) fn mask_of(&mut self, mv: MV) -> Result<Arg, Error> {
        match mv {
            MV::C(x) if x & 1 == 0 => Ok(Arg::Const(0)),
            MV::C(_) => Ok(self.p.exec()),
            MV::T(t, Kind::Mask) => Ok(Arg::Temp(t)),
            MV::T(t, Kind::VBool) => {
                let d = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VCmpNeU32,
                    &[Arg::Temp(d)],
                    vec![Arg::Const(0), Arg::Temp(t)],
                )?;
                Ok(Arg::Temp(d))
            }
            MV::T(t, _) => {
                let d = self.tmp(self.mask_rc());
                self.hw(Opcode::SCmpLgU32, &[], &[Arg::Temp(t), Arg::Const(0)])?;
                let exec = self.p.exec();
                self.hw_lane(Opcode::SCselectB32, &[Arg::Temp(d)], &[exec, Arg::Const(0)])?;
                Ok(Arg::Temp(d))
            }
        }
    }

    /// A divergent bool as a VGPR 0/1.
    pub(crate) fn vbool(&mut self, v: Value, c: usize) -> Result<Temp, Error> {
        match self.get(v, c)? {
            MV::T(t, Kind::VBool) => Ok(t),
            MV::C(x) => self.to_vgpr(Arg::Const((x & 1) as u32)),
            MV::T(t, Kind::UBool) => self.to_vgpr(Arg::Temp(t)),
            mv => {
                let m = self.mask_of(mv)?;
                let d = self.tmp(RegClass::V1);
                self.hw(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(d)],
                    &[Arg::Const(0), Arg::Const(1), m],
                )?;
                Ok(d)
            }
        }
    }

    /// Registers the hardware inputs in p_startpgm and the ABI description, in the order
    /// docs/abi.md gives: user SGPR pairs, then workgroup ids, then local ids in v0..v2.
    fn finish_inputs(&mut self) -> Result<(), Error> {
        let mut user: Vec<(UserData, Temp)> = Vec::new();
        let mut defs = Vec::new();
        let mut ud = Vec::new();
        if let Some(t) = self.inputs.push_ptr {
            user.push((UserData::Entry(super::abi::PUSH_CONSTANT_ENTRY), t));
        }
        for s in 0..7u32 {
            if let Some(t) = self.inputs.set_ptr[s as usize] {
                user.push((UserData::Entry(super::abi::set_entry(s)), t));
            }
        }
        if let Some(t) = self.inputs.workgroup_ptr {
            user.push((UserData::Workgroup, t));
        }
        let mut next = 0u16;
        // an NGG vertex stage has its user SGPRs from s8 (after the system SGPRs)
        let base = if self.m.stage == ir::Stage::Vertex
            && crate::amdgpu::abi_graphics::vertex_is_ngg(self.t().gen)
        {
            8
        } else {
            0
        };
        for (u, t) in user {
            self.p.precolored.insert(t, PhysReg::sgpr(base + next));
            defs.push(Arg::Temp(t));
            match u {
                UserData::Entry(n) => {
                    ud.push(UserData::Entry(n));
                    ud.push(UserData::Entry(n + 1));
                }
                other => {
                    ud.push(other);
                    ud.push(UserData::Unused);
                }
            }
            next += 2;
        }
        if next > 16 {
            return Err(Error::Layout(format!(
                "{next} user SGPRs needed, the hardware has 16"
            )));
        }
        if self.is_graphics() {
            self.gfx_finish_inputs(next, &mut defs, &mut ud)?;
            self.p.abi.user_sgprs = ud;
            self.p.blocks[0].insts[0].defs = defs.into();
            return Ok(());
        }
        self.p.abi.user_sgprs = ud;
        for c in 0..3 {
            if let Some(t) = self.inputs.tgid[c] {
                self.p.abi.tgid_en[c] = true;
                let _ = t;
            }
        }
        // system SGPRs follow the user SGPRs, one per enabled id, in x, y, z order
        for c in 0..3 {
            if let Some(t) = self.inputs.tgid[c] {
                self.p.precolored.insert(t, PhysReg::sgpr(next));
                defs.push(Arg::Temp(t));
                next += 1;
            }
        }
        let packed = self.t().gen == crate::isa::Gen::Gfx11;
        let mut cnt = 0;
        for c in 0..3 {
            if let Some(t) = self.inputs.tid[c] {
                self.p
                    .precolored
                    .insert(t, PhysReg::vgpr(if packed { 0 } else { c as u16 }));
                defs.push(Arg::Temp(t));
                cnt = c as u32;
                if packed {
                    break;
                }
            }
        }
        self.p.abi.tidig_comp_cnt = if packed {
            // GFX11 packs x/y/z into v0 (10 bits each); enable all three
            if self.inputs.tid[0].is_some() {
                2
            } else {
                0
            }
        } else {
            cnt
        };
        self.p.blocks[0].insts[0].defs = defs.into();
        Ok(())
    }

    /// Emits the IR blocks/ifs/loops of a CF list.
    fn list(&mut self, list: &[ir::CfNode]) -> Result<(), Error> {
        for n in list {
            match n {
                ir::CfNode::Block(b) => self.block(*b)?,
                ir::CfNode::If {
                    cond,
                    then_body,
                    else_body,
                    ..
                } => self.if_node(*cond, then_body, else_body)?,
                ir::CfNode::Loop { body, .. } => self.loop_node(body)?,
            }
        }
        Ok(())
    }

    fn block(&mut self, b: ir::Block) -> Result<(), Error> {
        let f = self.f;
        let mut jump = None;
        for &i in &f.blocks[b].insts {
            match f.kind(i) {
                InstKind::Phi(_) => {}
                InstKind::Jump(k, _) => jump = Some((*k, i)),
                _ => self.inst(i)?,
            }
        }
        self.phi_copies(b)?;
        if let Some((k, i)) = jump {
            self.jump(k, i)?;
        }
        Ok(())
    }

    fn inst(&mut self, i: Value) -> Result<(), Error> {
        let nonuniform = self.nonuniform_descriptors(i);
        if nonuniform.is_empty() {
            self.select_inst(i)
        } else {
            self.waterfall(i, &nonuniform)
        }
    }

    /// Selects one IR instruction into the current block.
    pub(crate) fn select_inst(&mut self, i: Value) -> Result<(), Error> {
        let f = self.f;
        let ty = f.ty(i);
        let at = Some(i.index() as u32);
        if !ty.is_none() && !matches!(ty.bits, 1 | 8 | 16 | 32 | 64) {
            return Err(Error::unsupported(at, format!("{}-bit values", ty.bits)));
        }
        let v: SmallVec<[MV; 4]> = match f.kind(i) {
            InstKind::Const(c) => c.iter().map(|&x| MV::C(x)).collect(),
            InstKind::Undef => (0..ty.comps).map(|_| MV::C(0)).collect(),
            InstKind::Swizzle { src, comps } => {
                let mut out = SmallVec::new();
                for &c in comps {
                    out.push(self.get(*src, c as usize)?);
                }
                out
            }
            InstKind::Alu { op, srcs } => self.alu(i, *op, srcs)?,
            InstKind::Intrinsic { op, srcs, idx } => self.intrinsic(i, *op, srcs, idx)?,
            InstKind::Deref(_) => {
                return Err(Error::unsupported(
                    at,
                    "derefs must be lowered by lower_explicit_io",
                ))
            }
            InstKind::Tex(t) => self.tex(i, t)?,
            InstKind::Call { .. } => return Err(Error::unsupported(at, "calls")),
            InstKind::Phi(_) | InstKind::Jump(..) => unreachable!(),
        };
        self.vals[i] = v;
        Ok(())
    }
}
