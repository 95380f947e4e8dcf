//! Scratch (private, per-lane) memory: the `scratch_*` (FLAT scratch) instructions on all
//! three generations and the wave's FLAT_SCRATCH setup, on MIR — shared by instruction
//! selection (the IR's `load_scratch` / `store_scratch`, `isel::scratch`) and register
//! allocation (spill slots), so neither calls into the other.
//!
//! Design:
//! - Every access is a `scratch_load_dword*` / `scratch_store_dword*` (`_b32`… on GFX11)
//!   whose address is a *per-lane* byte offset into the lane's private window: the hardware
//!   (FLAT_SCRATCH + swizzling) turns it into the lane's memory. One path for GFX9, GFX10.3
//!   and GFX11, so the same MIR serves spilling and function-local arrays. 8/16-bit values
//!   ([`load_narrow`] / [`store_narrow`]) use `scratch_load_ubyte`/`_ushort` and
//!   `scratch_store_byte`/`_short`, so a store leaves the neighbouring bytes alone.
//! - Addressing ([`Addr`]): a constant per-lane offset uses the "no VGPR" form — on GFX10.3
//!   and GFX11 `vaddr off, saddr off, offset:imm` when the offset fits the signed immediate
//!   (12 bits on GFX10, 13 on GFX9/GFX11), otherwise (and always on GFX9, which lacks that
//!   form) an `s_mov_b32` of the offset into an SGPR used as `saddr`; a divergent offset is
//!   a VGPR `vaddr` with `saddr off` plus the immediate.
//! - Size: [`reserve`] hands out 4-byte-aligned slots and grows `Program::scratch_bytes`,
//!   which becomes the metadata's `.scratch_memory_size`, RSRC2 `SCRATCH_EN` and the
//!   "Scratch size" statistic.
//! - Setup ([`insert_setup`], docs/abi.md "Scratch"): GFX11 has architected flat scratch
//!   (the hardware initialises FLAT_SCRATCH when SCRATCH_EN is set), so nothing is emitted.
//!   On GFX9 and GFX10.3 the program reads PAL's global table (user data `GlobalTable`,
//!   the high half from `s_getpc_b64`), loads the scratch ring's base address from the
//!   ring descriptor at byte 16 of that table (compute; byte 0 for a graphics stage) (bits
//!   47:0), adds the scratch wave offset that the hardware loads into the SGPR after the
//!   workgroup ids (compute), after the user SGPRs (hardware VS), after PRIM_MASK (PS) or
//!   into s5 (NGG, whose user SGPRs start at s8), and writes the result
//!   to FLAT_SCRATCH (`s_add_u32 flat_scratch_lo` on GFX9, `s_setreg_b32
//!   hwreg(HW_REG_FLAT_SCR_LO/HI)` on GFX10.3).
//!
//! API for other passes (spilling): [`reserve`] a slot, then [`store`] / [`load`] return
//! the instructions that move a VGPR temp of any size to / from it (more than four dwords
//! become several accesses); insert them where needed. They work on SSA MIR before
//! register allocation (they may create an SGPR temp for the GFX9 offset). Call
//! [`insert_setup`] once, after the last scratch access has been placed and before register
//! allocation: it is a no-op when `scratch_bytes` is 0 and when the setup is already there.
//!
//! Invariant: every instruction produced passes `mir::verify` (operand classes from the
//! tables); the immediate always fits the generation's signed offset field.

use crate::amdgpu::mir::{Arg, MInst, Program, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::binary::registers::UserData;
use crate::binary::HwStage;
use crate::isa::{tables, Format, Gen, Hwreg, Opcode, PhysReg, Reg};

/// Byte offset of the scratch ring descriptor in PAL's global table for compute shaders.
pub const GIT_SCRATCH_RING_OFFSET: u32 = 16;
/// ... and for graphics stages (pal-abi.md §4.5).
pub const GIT_GRAPHICS_SCRATCH_RING_OFFSET: u32 = 0;

/// A per-lane scratch address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addr {
    /// A byte offset that is the same in every lane.
    Const(u32),
    /// A per-lane byte offset in a VGPR plus a constant.
    Vgpr(Temp, u32),
}

/// Reserves `bytes` (rounded up to 4) of per-lane scratch; returns the slot's offset.
pub fn reserve(p: &mut Program, bytes: u32) -> u32 {
    let at = p.scratch_bytes.next_multiple_of(4);
    p.scratch_bytes = at + bytes.next_multiple_of(4);
    at
}

/// The largest immediate offset of a scratch instruction on `gen` (signed field).
fn max_imm(gen: Gen) -> u32 {
    gen.info().flat_offset.1 as u32
}

/// The scratch load or store of `dwords` dwords on `gen` (GFX11 renamed them).
fn opcode(gen: Gen, load: bool, dwords: u8) -> Opcode {
    let o = match (load, dwords) {
        (true, 1) => Opcode::ScratchLoadDword,
        (true, 2) => Opcode::ScratchLoadDwordx2,
        (true, 3) => Opcode::ScratchLoadDwordx3,
        (true, _) => Opcode::ScratchLoadDwordx4,
        (false, 1) => Opcode::ScratchStoreDword,
        (false, 2) => Opcode::ScratchStoreDwordx2,
        (false, 3) => Opcode::ScratchStoreDwordx3,
        (false, _) => Opcode::ScratchStoreDwordx4,
    };
    on(gen, o)
}

/// `o` on `gen`: every generation has the few opcodes this module uses (scratch access,
/// moves, `s_getpc`, a no-carry add), under some name; `o` itself is kept otherwise and the
/// verifier reports it.
fn on(gen: Gen, o: Opcode) -> Opcode {
    o.on(gen).unwrap_or(o)
}

/// `(vaddr, saddr, imm)` for an access at `addr + extra`, with any setup instructions.
fn operands(p: &mut Program, addr: Addr, extra: u32, out: &mut Vec<MInst>) -> (Arg, Arg, u32) {
    let gen = p.target.gen;
    let max = max_imm(gen);
    match addr {
        Addr::Const(c) => {
            let c = c + extra;
            if gen != Gen::Gfx9 && c <= max {
                return (Arg::Off, Arg::Off, c);
            }
            let s = p.new_temp(RegClass::S1);
            out.push(hw(
                p,
                Opcode::SMovB32,
                Format::Sop1,
                &[Arg::Temp(s)],
                &[Arg::Const(c)],
            ));
            (Arg::Off, Arg::Temp(s), 0)
        }
        Addr::Vgpr(v, k) => {
            let k = k + extra;
            if k <= max {
                return (Arg::Temp(v), Arg::Off, k);
            }
            let t = p.new_temp(RegClass::V1);
            // VOP2: the literal goes in src0 (GFX9's VOP3 cannot take one)
            out.push(hw(
                p,
                Opcode::VAddU32,
                Format::Vop2,
                &[Arg::Temp(t)],
                &[Arg::Const(k), Arg::Temp(v)],
            ));
            (Arg::Temp(t), Arg::Off, 0)
        }
    }
}

fn hw(p: &Program, o: Opcode, fmt: Format, defs: &[Arg], ops: &[Arg]) -> MInst {
    let o = on(p.target.gen, o);
    debug_assert!(
        tables::form(p.target.gen, o, fmt).is_some(),
        "{} {fmt:?}",
        o.name()
    );
    MInst::hw(o, fmt, defs, ops)
}

fn access(op: Opcode, defs: &[Arg], ops: &[Arg], imm: u32) -> MInst {
    let mut m = MInst::hw(op, Format::Scratch, defs, ops);
    m.mods.mem.offset = imm as i32;
    m
}

/// Instructions storing the VGPR temp `data` (any number of dwords) at `addr`.
pub fn store(p: &mut Program, data: Temp, addr: Addr) -> Vec<MInst> {
    let gen = p.target.gen;
    let n = p.rc(data).dwords;
    let mut out = Vec::new();
    let parts = chunks(p, data, n, &mut out);
    let mut k = 0u32;
    for (t, d) in parts {
        let (va, sa, imm) = operands(p, addr, 4 * k, &mut out);
        out.push(access(
            opcode(gen, false, d),
            &[],
            &[va, Arg::Temp(t), sa],
            imm,
        ));
        k += d as u32;
    }
    out
}

/// Instructions loading the VGPR temp `dst` (any number of dwords) from `addr`.
pub fn load(p: &mut Program, dst: Temp, addr: Addr) -> Vec<MInst> {
    let gen = p.target.gen;
    let n = p.rc(dst).dwords;
    let mut out = Vec::new();
    let mut parts = Vec::new();
    let mut k = 0u8;
    while k < n {
        let d = (n - k).min(4);
        let t = if d == n {
            dst
        } else {
            p.new_temp(RegClass::v(d))
        };
        let (va, sa, imm) = operands(p, addr, 4 * k as u32, &mut out);
        out.push(access(
            opcode(gen, true, d),
            &[Arg::Temp(t)],
            &[va, sa],
            imm,
        ));
        parts.push(Arg::Temp(t));
        k += d;
    }
    if parts.len() > 1 {
        out.push(MInst::pseudo(
            Pseudo::CreateVector,
            &[Arg::Temp(dst)],
            &parts,
        ));
    }
    out
}

/// The 8/16-bit scratch load (zero-extending) or store on `gen`.
fn narrow_opcode(gen: Gen, load: bool, bits: u8) -> Opcode {
    let o = match (load, bits) {
        (true, 8) => Opcode::ScratchLoadUbyte,
        (true, _) => Opcode::ScratchLoadUshort,
        (false, 8) => Opcode::ScratchStoreByte,
        (false, _) => Opcode::ScratchStoreShort,
    };
    on(gen, o)
}

/// Instructions loading `bits` (8 or 16) at `addr`, zero-extended, into the V1 temp `dst`.
pub fn load_narrow(p: &mut Program, dst: Temp, addr: Addr, bits: u8) -> Vec<MInst> {
    let mut out = Vec::new();
    let (va, sa, imm) = operands(p, addr, 0, &mut out);
    let o = narrow_opcode(p.target.gen, true, bits);
    out.push(access(o, &[Arg::Temp(dst)], &[va, sa], imm));
    out
}

/// Instructions storing the low `bits` (8 or 16) of the V1 temp `data` at `addr`.
pub fn store_narrow(p: &mut Program, data: Temp, addr: Addr, bits: u8) -> Vec<MInst> {
    let mut out = Vec::new();
    let (va, sa, imm) = operands(p, addr, 0, &mut out);
    let o = narrow_opcode(p.target.gen, false, bits);
    out.push(access(o, &[], &[va, Arg::Temp(data), sa], imm));
    out
}

/// `t` cut into pieces of at most four dwords (a split when it is larger).
fn chunks(p: &mut Program, t: Temp, n: u8, out: &mut Vec<MInst>) -> Vec<(Temp, u8)> {
    if n <= 4 {
        return vec![(t, n)];
    }
    let mut sizes = Vec::new();
    let mut k = 0u8;
    while k < n {
        sizes.push((n - k).min(4));
        k += 4;
    }
    let parts: Vec<(Temp, u8)> = sizes
        .iter()
        .map(|&d| (p.new_temp(RegClass::v(d)), d))
        .collect();
    let defs: Vec<Arg> = parts.iter().map(|(t, _)| Arg::Temp(*t)).collect();
    out.push(MInst::pseudo(Pseudo::SplitVector, &defs, &[Arg::Temp(t)]));
    parts
}

/// Adds the FLAT_SCRATCH initialisation (GFX9, GFX10.3) at the top of the program and the
/// inputs it reads (the `GlobalTable` user SGPR pair, the scratch wave offset SGPR). A
/// no-op without scratch, on GFX11, or when already done.
pub fn insert_setup(p: &mut Program) -> Result<(), Error> {
    if p.scratch_bytes == 0 || p.target.gen == Gen::Gfx11 {
        return Ok(());
    }
    if p.abi.user_sgprs.contains(&UserData::GlobalTable) {
        return Ok(());
    }
    let gen = p.target.gen;
    let nuser = p.abi.user_sgprs.len() as u16;
    if nuser + 2 > 16 {
        return Err(Error::Layout(format!(
            "{} user SGPRs needed with scratch, the hardware has 16",
            nuser + 2
        )));
    }
    // user SGPRs start at s8 in a merged (NGG) stage, after its system SGPRs
    let stage = p.abi.graphics.hw_stage;
    let first = if stage == Some(HwStage::Gs) { 8 } else { 0 };
    // PAL requires the global table in the first user SGPR: the pair goes first and every
    // other precoloured SGPR input (user data pairs, workgroup ids, PRIM_MASK) moves up
    // by two
    p.abi
        .user_sgprs
        .splice(0..0, [UserData::GlobalTable, UserData::Unused]);
    for r in p.precolored.values_mut() {
        if !r.is_vgpr() && (first..106).contains(&r.0) {
            *r = PhysReg::sgpr(r.0 + 2);
        }
    }
    // the scratch wave offset: the first SGPR after the inputs the hardware loads (the
    // workgroup ids; a pixel shader's PRIM_MASK), s5 in a merged stage (pal-abi.md §4)
    let wave_off_reg = match stage {
        None => nuser + 2 + p.abi.tgid_en.iter().filter(|e| **e).count() as u16,
        Some(HwStage::Ps) => nuser + 2 + 1,
        Some(HwStage::Gs) => 5,
        Some(_) => nuser + 2,
    };
    let ring = if stage.is_some() {
        GIT_GRAPHICS_SCRATCH_RING_OFFSET
    } else {
        GIT_SCRATCH_RING_OFFSET
    };
    // compute: the GlobalTable pair (the Unused high half is written by PAL); graphics:
    // the one SGPR, as nothing defines the Unused one after it
    let graphics = stage.is_some();
    let git = p.new_temp(if graphics { RegClass::S1 } else { RegClass::S2 });
    let wave_off = p.new_temp(RegClass::S1);
    p.precolored.insert(git, PhysReg::sgpr(first));
    p.precolored.insert(wave_off, PhysReg::sgpr(wave_off_reg));
    let start = &mut p.blocks[0].insts[0];
    debug_assert!(matches!(
        start.op,
        crate::amdgpu::mir::Op::Pseudo(Pseudo::StartPgm)
    ));
    start.defs.push(Arg::Temp(git));
    start.defs.push(Arg::Temp(wave_off));

    let mut seq = Vec::new();
    let t = |p: &mut Program, rc| p.new_temp(rc);
    // GIT address = s_getpc_b64's high half : the GlobalTable user SGPR
    let pc = t(p, RegClass::S2);
    seq.push(hw(
        p,
        Opcode::SGetpcB64,
        Format::Sop1,
        &[Arg::Temp(pc)],
        &[],
    ));
    let (pc_lo, pc_hi, git_lo, git_hi) = (
        t(p, RegClass::S1),
        t(p, RegClass::S1),
        t(p, RegClass::S1),
        t(p, RegClass::S1),
    );
    seq.push(MInst::pseudo(
        Pseudo::SplitVector,
        &[Arg::Temp(pc_lo), Arg::Temp(pc_hi)],
        &[Arg::Temp(pc)],
    ));
    let git_lo = if graphics {
        git
    } else {
        seq.push(MInst::pseudo(
            Pseudo::SplitVector,
            &[Arg::Temp(git_lo), Arg::Temp(git_hi)],
            &[Arg::Temp(git)],
        ));
        git_lo
    };
    let addr = t(p, RegClass::S2);
    seq.push(MInst::pseudo(
        Pseudo::CreateVector,
        &[Arg::Temp(addr)],
        &[Arg::Temp(git_lo), Arg::Temp(pc_hi)],
    ));
    let base = t(p, RegClass::S2);
    seq.push(hw(
        p,
        Opcode::SLoadDwordx2,
        Format::Smem,
        &[Arg::Temp(base)],
        &[Arg::Temp(addr), Arg::Imm(ring)],
    ));
    let (lo, hi, hi48, sum_lo, sum_hi) = (
        t(p, RegClass::S1),
        t(p, RegClass::S1),
        t(p, RegClass::S1),
        t(p, RegClass::S1),
        t(p, RegClass::S1),
    );
    seq.push(MInst::pseudo(
        Pseudo::SplitVector,
        &[Arg::Temp(lo), Arg::Temp(hi)],
        &[Arg::Temp(base)],
    ));
    // the descriptor's base address is bits 47:0
    seq.push(hw(
        p,
        Opcode::SAndB32,
        Format::Sop2,
        &[Arg::Temp(hi48)],
        &[Arg::Temp(hi), Arg::Const(0xffff)],
    ));
    if gen == Gen::Gfx9 {
        seq.push(hw(
            p,
            Opcode::SAddU32,
            Format::Sop2,
            &[Arg::Reg(Reg::s(102, 1))],
            &[Arg::Temp(lo), Arg::Temp(wave_off)],
        ));
        seq.push(hw(
            p,
            Opcode::SAddcU32,
            Format::Sop2,
            &[Arg::Reg(Reg::s(103, 1))],
            &[Arg::Temp(hi48), Arg::Const(0)],
        ));
    } else {
        seq.push(hw(
            p,
            Opcode::SAddU32,
            Format::Sop2,
            &[Arg::Temp(sum_lo)],
            &[Arg::Temp(lo), Arg::Temp(wave_off)],
        ));
        seq.push(hw(
            p,
            Opcode::SAddcU32,
            Format::Sop2,
            &[Arg::Temp(sum_hi)],
            &[Arg::Temp(hi48), Arg::Const(0)],
        ));
        for (reg, v) in [(Hwreg::FlatScrLo, sum_lo), (Hwreg::FlatScrHi, sum_hi)] {
            let id = crate::isa::simm16::hwreg_whole(gen, reg)
                .ok_or_else(|| Error::unsupported(None, format!("no {reg:?} on {gen:?}")))?;
            // s_setreg names its *source* in the table's `sdst` field, which MIR lists
            // among the defs: the temp is then "defined" again in place (same register,
            // nothing written), so it is a multi-def temp with no later use
            p.multi_def.insert(v);
            seq.push(hw(
                p,
                Opcode::SSetregB32,
                Format::Sopk,
                &[Arg::Temp(v)],
                &[Arg::Imm(id)],
            ));
        }
    }
    p.blocks[0].insts.splice(1..1, seq);
    Ok(())
}
