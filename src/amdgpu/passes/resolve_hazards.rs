//! Hazard resolution: the instruction sequences a generation executes wrongly unless
//! software separates them. Rules (facts as ACO's aco_insert_NOPs.cpp and LLVM's
//! GCNHazardRecognizer.cpp state them; docs/backend.md lists them with sources):
//!
//! GFX9 — `s_nop` gives the wait states a VALU write needs before a DPP instruction reads
//! the VGPR (2) or runs after an EXEC write (5), before `v_readlane`/`v_writelane` uses
//! the SGPR as lane select (4), and before `v_div_fmas_*` reads VCC after a VALU wrote it
//! (explicitly, or implicitly through a VOP2/VOPC form) (4). VMEMStoreData (LLVM's
//! `checkVALUHazards` / `has12DWordStoreHazard`): a VMEM instruction with more than 64
//! bits of data VGPRs reads them one cycle late, so a VALU writing one of them right after
//! it needs one wait state: `s_nop 0` (also before leaving a block that ends with such a
//! store, unless every successor is a lone `s_endpgm`). VALUWriteSGPR→VMEM: an SGPR a VALU wrote (`v_readlane_b32` of a reloaded
//! spill, `v_readfirstlane_b32`, compares) and a VMEM instruction reads needs 5 wait
//! states. The other GFX9 rules (m0 before GDS/movrel, s_setreg before s_getreg) cannot
//! arise: the pass rejects their trigger instructions (movrel, setreg).
//!
//! GFX10 — SMEMtoVectorWriteHazard: an SMEM instruction reads an SGPR and a later VALU
//! writes it, with no SALU in between: insert `s_mov_b32 null, 0`.
//! VMEMtoScalarWriteHazard: a VMEM/DS instruction reads an SGPR and a later SALU/SMEM
//! writes it with no VALU in between: insert `s_waitcnt_depctr vm_vsrc(0)` (0xffe3).
//! LdsBranchVmemWARHazard: an LDS and a VMEM access on either side of a branch need an
//! `s_waitcnt_vscnt null, 0` between them. Branches end blocks, so in a program that has
//! both kinds, a block with an LDS or VMEM access after its last such wait gets one
//! before its trailing branches (conservative: every block end counts as a branch).
//!
//! GFX11 —
//! - VALUTransUseHazard: a VALU reads a VGPR written by a transcendental op with fewer than
//!   6 VALU or 2 transcendental ops in between: `s_waitcnt_depctr va_vdst(0)` (0x0fff).
//! - VALUPartialForwardingHazard (wave64): a VALU reads two or more VGPRs after an SALU
//!   exec write with recent VGPR writes on both sides: resolved conservatively by
//!   `s_waitcnt_depctr va_vdst(0)` before the first such VALU after any SALU exec write
//!   (and at the start of any block reached by a branch, whose history is unknown).
//! - VALUMaskWriteHazard (wave64): a VALU reads an SGPR as a lane mask (v_cndmask,
//!   carry-in), an SALU then writes it, and an SALU reads it: `s_waitcnt_depctr
//!   sa_sdst(0)` (0xfffe) before that read.
//!
//! State is per block, conservatively reset at block starts (all "hazard possible").

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo};
use crate::amdgpu::Error;
use crate::isa::{Format, Gen, Opcode, Props, Reg, Wave};
use std::collections::BTreeSet;

fn regs(args: &[Arg], vgpr: bool) -> Vec<u16> {
    let mut v = Vec::new();
    for a in args {
        if let Arg::Reg(r) = a {
            if r.base.is_vgpr() == vgpr {
                for k in 0..r.count as u16 {
                    v.push(r.base.0 + k);
                }
            }
        }
    }
    v
}

fn depctr(v: u32) -> MInst {
    MInst::hw(Opcode::SWaitcntDepctr, Format::Sopp, &[], &[Arg::Imm(v)])
}

fn nop() -> MInst {
    MInst::hw(Opcode::SNop, Format::Sopp, &[], &[Arg::Imm(0)])
}

fn writes_exec(i: &MInst) -> bool {
    i.defs
        .iter()
        .any(|d| matches!(d, Arg::Reg(r) if r.base == crate::isa::PhysReg::EXEC_LO))
        || i.opcode()
            .is_some_and(|o| o.props().contains(Props::WRITES_EXEC))
}

/// GFX9 wait-state history entry: whether a VALU issued it, the registers it wrote, and
/// how many wait states it provides.
struct Gfx9Rec {
    valu: bool,
    sgprs: Vec<u16>,
    vgprs: Vec<u16>,
    exec: bool,
    /// Writes VCC (explicitly, or implicitly as a VOP2/VOPC form).
    vcc: bool,
    wait_states: u32,
}

impl Gfx9Rec {
    fn nop(n: u32) -> Gfx9Rec {
        Gfx9Rec {
            valu: false,
            sgprs: Vec::new(),
            vgprs: Vec::new(),
            exec: false,
            vcc: false,
            wait_states: n,
        }
    }
    fn of(i: &MInst, valu: bool, fmt: Format) -> Gfx9Rec {
        let sgprs = regs(&i.defs, false);
        let vcc = crate::isa::PhysReg::VCC_LO.0;
        let implicit = i
            .opcode()
            .is_some_and(|o| o.props().contains(Props::WRITES_VCC))
            && matches!(fmt, Format::Vop2 | Format::Vopc);
        Gfx9Rec {
            valu,
            vcc: implicit || sgprs.iter().any(|r| *r == vcc || *r == vcc + 1),
            sgprs,
            vgprs: regs(&i.defs, true),
            exec: writes_exec(i),
            wait_states: 1,
        }
    }
}

/// GFX9 (LLVM `checkDPPHazards` / `checkVALUHazards`, ACO `handle_instruction_gfx6`):
/// a VALU writing a DPP source VGPR needs 2 wait states before the DPP instruction, a
/// VALU writing EXEC 5; a VALU writing the SGPR lane select of `v_readlane` /
/// `v_writelane` needs 4, a VALU writing VCC before `v_div_fmas_*` (LLVM
/// `checkDivFMasHazards`) 4, a VALU writing an SGPR a VMEM instruction reads 5. A block with predecessors assumes a VALU wrote everything just
/// before it. Returns the wait states still missing before `i`.
fn gfx9_wait_states(hist: &[Gfx9Rec], unknown_start: bool, i: &MInst, fmt: Format) -> u32 {
    let since = |f: &dyn Fn(&Gfx9Rec) -> bool| -> Option<u32> {
        let mut ws = 0;
        for r in hist.iter().rev() {
            if r.valu && f(r) {
                return Some(ws);
            }
            ws += r.wait_states;
        }
        unknown_start.then_some(ws)
    };
    let mut need = 0u32;
    let mut want = |n: u32, ws: Option<u32>| {
        if let Some(ws) = ws {
            need = need.max(n.saturating_sub(ws));
        }
    };
    if fmt.is_dpp16() {
        let src: Vec<u16> = regs(&i.ops[..1.min(i.ops.len())], true);
        want(
            2,
            since(&|r: &Gfx9Rec| r.vgprs.iter().any(|v| src.contains(v))),
        );
        want(5, since(&|r: &Gfx9Rec| r.exec));
    }
    let props = i.opcode().map_or(Props::empty(), |o| o.props());
    if props.contains(Props::LANE_SELECT) {
        let sel: Vec<u16> = regs(i.ops.get(1..2).unwrap_or(&[]), false);
        if !sel.is_empty() {
            want(
                4,
                since(&|r: &Gfx9Rec| r.sgprs.iter().any(|s| sel.contains(s))),
            );
        }
    }
    if matches!(i.opcode(), Some(Opcode::VDivFmasF32 | Opcode::VDivFmasF64)) {
        want(4, since(&|r: &Gfx9Rec| r.vcc));
    }
    if props.contains(Props::VMEM) {
        let reads = regs(&i.ops, false);
        want(
            5,
            since(&|r: &Gfx9Rec| r.sgprs.iter().any(|s| reads.contains(s))),
        );
    }
    need
}

/// Inserts the hazard fixes into `p`; returns the number of instructions added.
pub fn resolve_hazards(p: &mut Program) -> Result<u32, Error> {
    let gen = p.target.gen;
    let wave64 = p.target.wave == Wave::W64;
    let mut added = 0;
    let has = |p: &Program, f: Props| {
        p.blocks.iter().flat_map(|b| &b.insts).any(|i| {
            i.opcode()
                .is_some_and(|o| o.props().contains(f) && !o.props().contains(Props::CACHE_INV))
        })
    };
    let lds_and_vmem = gen == Gen::Gfx10 && has(p, Props::LDS) && has(p, Props::VMEM);
    // blocks that end the program at once (their first instruction is `s_endpgm`): no
    // instruction of the wave follows, so nothing open in a predecessor needs resolving
    let ends_program: Vec<bool> = p
        .blocks
        .iter()
        .map(|b| {
            b.insts
                .first()
                .and_then(|i| i.opcode())
                .is_some_and(|o| o.props().contains(Props::END_PGM))
        })
        .collect();
    for b in &mut p.blocks {
        let mut out = Vec::with_capacity(b.insts.len());
        // GFX10 LdsBranchVmemWAR: an LDS/VMEM access since the last `s_waitcnt_vscnt null, 0`
        let mut lds_vmem_open = false;
        // GFX10
        let mut sgprs_read_by_smem: BTreeSet<u16> = BTreeSet::new();
        let mut sgprs_read_by_vmem: BTreeSet<u16> = BTreeSet::new();
        // GFX11: VGPR → (VALUs since, trans since) of a trans write
        let mut trans_writes: Vec<(u16, u32, u32)> = Vec::new();
        // a block reached from elsewhere has an unknown history
        let mut exec_written = !b.linear_preds.is_empty();
        let mut mask_read_by_valu: BTreeSet<u16> = BTreeSet::new();
        let mut mask_then_salu_written: BTreeSet<u16> = BTreeSet::new();
        // GFX9: recent instructions (wait-state history) of this block
        let mut gfx9_hist: Vec<Gfx9Rec> = Vec::new();
        let gfx9_unknown = !b.linear_preds.is_empty();
        // GFX9: data VGPRs of the previous instruction, a VMEM with > 64 bits of data
        let mut wide_store_data: Vec<u16> = Vec::new();
        for i in std::mem::take(&mut b.insts) {
            let (op, fmt) = match i.op {
                Op::Hw(op, fmt) => (op, fmt),
                // expanded at emission into s_getpc_b64 + s_add_u32 + s_addc_u32: SALU
                // writes of its pair, which is what the interlocks need to know
                Op::Pseudo(Pseudo::ConstDataAddr) => (Opcode::SGetpcB64, Format::Sop1),
                Op::Pseudo(_) => {
                    return Err(Error::Verify(
                        "pseudo instruction reached hazard resolution".into(),
                    ))
                }
            };
            let props = op.props();
            let is_valu = props.contains(Props::VALU);
            let is_salu = props.contains(Props::SALU) && !props.contains(Props::SMEM);
            match gen {
                Gen::Gfx9 => {
                    if is_valu
                        && regs(&i.defs, true)
                            .iter()
                            .any(|r| wide_store_data.contains(r))
                    {
                        out.push(nop());
                        added += 1;
                    }
                    wide_store_data.clear();
                    if matches!(
                        fmt,
                        Format::Mubuf
                            | Format::Mtbuf
                            | Format::Global
                            | Format::Flat
                            | Format::Scratch
                            | Format::Mimg
                    ) {
                        for a in &i.ops {
                            if let Arg::Reg(r) = a {
                                if r.base.is_vgpr() && r.count > 2 {
                                    wide_store_data
                                        .extend((0..r.count as u16).map(|k| r.base.0 + k));
                                }
                            }
                        }
                    }
                    if props.contains(Props::MOVREL | Props::SALU)
                        || props.contains(Props::WRITES_HWREG)
                    {
                        return Err(Error::Verify(format!(
                            "{}: GFX9 hazard rules for it are not implemented",
                            op.name()
                        )));
                    }
                    let need = gfx9_wait_states(&gfx9_hist, gfx9_unknown, &i, fmt);
                    if need > 0 {
                        out.push(MInst::hw(
                            Opcode::SNop,
                            Format::Sopp,
                            &[],
                            &[Arg::Imm(need - 1)],
                        ));
                        added += 1;
                        gfx9_hist.push(Gfx9Rec::nop(need));
                    }
                    gfx9_hist.push(Gfx9Rec::of(&i, is_valu, fmt));
                }
                Gen::Gfx10 => {
                    if is_valu {
                        let w = regs(&i.defs, false);
                        if w.iter().any(|r| sgprs_read_by_smem.contains(r)) {
                            out.push(MInst::hw(
                                Opcode::SMovB32,
                                Format::Sop1,
                                &[Arg::Reg(Reg::null())],
                                &[Arg::Const(0)],
                            ));
                            added += 1;
                            sgprs_read_by_smem.clear();
                        }
                    } else if is_salu && fmt != Format::Sopp {
                        sgprs_read_by_smem.clear();
                    }
                    if fmt == Format::Smem {
                        sgprs_read_by_smem.extend(regs(&i.ops, false));
                    }
                    // VMEMtoScalarWrite
                    if is_valu {
                        sgprs_read_by_vmem.clear();
                    } else if (is_salu || fmt == Format::Smem)
                        && regs(&i.defs, false)
                            .iter()
                            .any(|r| sgprs_read_by_vmem.contains(r))
                    {
                        out.push(depctr(0xffe3));
                        added += 1;
                        sgprs_read_by_vmem.clear();
                    }
                    if props.intersects(Props::VMEM | Props::LDS) {
                        sgprs_read_by_vmem.extend(regs(&i.ops, false));
                        lds_vmem_open |= lds_and_vmem;
                    }
                    if op == Opcode::SWaitcntVscnt
                        && i.defs.first() == Some(&Arg::Reg(Reg::null()))
                        && i.ops.first() == Some(&Arg::Imm(0))
                    {
                        lds_vmem_open = false;
                    }
                }
                Gen::Gfx11 => {
                    if is_valu {
                        let reads = regs(&i.ops, true);
                        let trans_hit = reads.iter().any(|r| {
                            trans_writes
                                .iter()
                                .any(|&(w, valu, trans)| w == *r && valu <= 5 && trans <= 1)
                        });
                        let partial = wave64 && exec_written && reads.len() >= 2;
                        if trans_hit || partial {
                            out.push(depctr(0x0fff));
                            added += 1;
                            trans_writes.clear();
                            exec_written = false;
                        }
                        for t in &mut trans_writes {
                            t.1 += 1;
                            if props.contains(Props::TRANS) {
                                t.2 += 1;
                            }
                        }
                        if props.contains(Props::TRANS) {
                            for r in regs(&i.defs, true) {
                                trans_writes.retain(|t| t.0 != r);
                                trans_writes.push((r, 0, 0));
                            }
                        }
                        if wave64 && props.contains(Props::MASK_SRC) {
                            if let Some(Arg::Reg(r)) = i.ops.last() {
                                if !r.base.is_vgpr() && r.base != crate::isa::PhysReg::EXEC_LO {
                                    for k in 0..r.count as u16 {
                                        mask_read_by_valu.insert(r.base.0 + k);
                                    }
                                }
                            }
                        }
                    }
                    if is_salu && wave64 {
                        let reads = regs(&i.ops, false);
                        if reads.iter().any(|r| mask_then_salu_written.contains(r)) {
                            out.push(depctr(0xfffe));
                            added += 1;
                            mask_then_salu_written.clear();
                            mask_read_by_valu.clear();
                        }
                        for r in regs(&i.defs, false) {
                            if mask_read_by_valu.contains(&r) {
                                mask_then_salu_written.insert(r);
                            }
                        }
                    }
                    if is_salu && writes_exec(&i) {
                        exec_written = true;
                    }
                }
            }
            out.push(i);
        }
        // hazards may cross into a successor whose history is not tracked: resolve what
        // is still open before the block's trailing branches
        let mut flush = Vec::new();
        if !wide_store_data.is_empty() {
            flush.push(nop());
        }
        if !sgprs_read_by_vmem.is_empty() {
            flush.push(depctr(0xffe3));
        }
        if !sgprs_read_by_smem.is_empty() {
            flush.push(MInst::hw(
                Opcode::SMovB32,
                Format::Sop1,
                &[Arg::Reg(Reg::null())],
                &[Arg::Const(0)],
            ));
        }
        if trans_writes.iter().any(|&(_, v, t)| v <= 5 && t <= 1) {
            flush.push(depctr(0x0fff));
        }
        if !mask_then_salu_written.is_empty() || !mask_read_by_valu.is_empty() {
            flush.push(depctr(0xfffe));
        }
        if lds_vmem_open {
            flush.extend(crate::amdgpu::passes::insert_waitcnt::wait_insts(
                gen,
                [None, None, None, Some(0)],
            )?);
        }
        let leaves_program = b.linear_succs.iter().all(|s| ends_program[s.0 as usize]);
        if !flush.is_empty() && !leaves_program {
            let at = out
                .iter()
                .rposition(|i| {
                    !i.opcode()
                        .is_some_and(|o| o.props().intersects(Props::BRANCH | Props::END_PGM))
                })
                .map_or(0, |k| k + 1);
            added += flush.len() as u32;
            out.splice(at..at, flush);
        }
        b.insts = out;
    }
    Ok(added)
}
