//! Hazard resolution: the instruction sequences a generation executes wrongly unless
//! software separates them. Rules (facts as ACO's aco_insert_NOPs.cpp and LLVM's
//! GCNHazardRecognizer.cpp state them; docs/backend.md lists them with sources):
//!
//! GFX9 — VALUWriteSGPR→VMEM: an SGPR written by a VALU (`v_readlane_b32` of a reloaded
//! spill, `v_readfirstlane_b32`, compares) and read by a VMEM instruction needs 5 wait
//! states: `s_nop` makes up the difference (tracked within the block; an open lane read
//! at a block end is padded before the trailing branches). None of the other GFX9 rules
//! (readlane lane select written by a VALU, VALU exec write before DPP or execz, VCC
//! before v_div_fmas, m0 before GDS/movrel, s_setreg before s_getreg) can arise from the
//! instructions this backend emits; the pass checks that the program contains none of
//! their triggers (DPP, readlane/writelane with an SGPR lane select, v_div_fmas, movrel,
//! setreg).
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

use crate::amdgpu::mir::{Arg, MInst, Op, Program};
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
    MInst::hw(
        Opcode::from_name("s_waitcnt_depctr").expect("depctr on GFX10+"),
        Format::Sopp,
        &[],
        &[Arg::Imm(v)],
    )
}

/// `s_nop n`: n + 1 wait states.
fn s_nop(n: u32) -> MInst {
    MInst::hw(
        Opcode::from_name("s_nop").expect("s_nop"),
        Format::Sopp,
        &[],
        &[Arg::Imm(n)],
    )
}

fn writes_exec(i: &MInst) -> bool {
    i.defs
        .iter()
        .any(|d| matches!(d, Arg::Reg(r) if r.base == crate::isa::PhysReg::EXEC_LO))
        || i.opcode()
            .is_some_and(|o| o.props().contains(Props::WRITES_EXEC))
}

/// Inserts the hazard fixes into `p`; returns the number of instructions added.
pub fn resolve_hazards(p: &mut Program) -> Result<u32, Error> {
    let gen = p.target.gen;
    let wave64 = p.target.wave == Wave::W64;
    let mut added = 0;
    let has = |p: &Program, f: Props| {
        p.blocks.iter().flat_map(|b| &b.insts).any(|i| {
            i.opcode()
                .is_some_and(|o| o.props().contains(f) && !o.name().ends_with("_inv"))
        })
    };
    let lds_and_vmem = gen == Gen::Gfx10 && has(p, Props::LDS) && has(p, Props::VMEM);
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
        // GFX9: SGPRs a VALU wrote (register, wait states since, written by readlane /
        // readfirstlane)
        let mut valu_sgpr_writes: Vec<(u16, u32, bool)> = Vec::new();
        for i in std::mem::take(&mut b.insts) {
            let Op::Hw(op, fmt) = i.op else {
                return Err(Error::Verify(
                    "pseudo instruction reached hazard resolution".into(),
                ));
            };
            let props = op.props();
            let is_valu = props.contains(Props::VALU);
            let is_salu = props.contains(Props::SALU) && !props.contains(Props::SMEM);
            match gen {
                Gen::Gfx9 => {
                    let n = op.name();
                    let sgpr_lane = (n.starts_with("v_readlane") || n.starts_with("v_writelane"))
                        && matches!(i.ops.get(1), Some(Arg::Reg(_)));
                    if sgpr_lane
                        || n.starts_with("v_div_fmas")
                        || n.starts_with("s_movrel")
                        || n.starts_with("s_setreg")
                    {
                        return Err(Error::Verify(format!(
                            "{n}: GFX9 hazard rules for it are not implemented"
                        )));
                    }
                    // VALUWriteSGPR→VMEM: 5 wait states
                    if props.contains(Props::VMEM) {
                        let reads = regs(&i.ops, false);
                        let need = valu_sgpr_writes
                            .iter()
                            .filter(|w| reads.contains(&w.0))
                            .map(|w| 5 - w.1)
                            .max()
                            .unwrap_or(0);
                        if need > 0 {
                            out.push(s_nop(need - 1));
                            added += 1;
                            for w in &mut valu_sgpr_writes {
                                w.1 += need;
                            }
                        }
                    }
                    for w in &mut valu_sgpr_writes {
                        w.1 += 1;
                    }
                    valu_sgpr_writes.retain(|w| w.1 < 5);
                    if is_valu {
                        let lane_read = n.starts_with("v_read");
                        for r in regs(&i.defs, false) {
                            valu_sgpr_writes.retain(|w| w.0 != r);
                            valu_sgpr_writes.push((r, 0, lane_read));
                        }
                    }
                }
                Gen::Gfx10 => {
                    if is_valu {
                        let w = regs(&i.defs, false);
                        if w.iter().any(|r| sgprs_read_by_smem.contains(r)) {
                            let mov = Opcode::from_name("s_mov_b32").unwrap();
                            out.push(MInst::hw(
                                mov,
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
                    if op.name() == "s_waitcnt_vscnt"
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
                        let n = op.name();
                        if wave64
                            && (n.starts_with("v_cndmask")
                                || n.starts_with("v_addc")
                                || n.starts_with("v_subb")
                                || n.contains("_co_ci_"))
                        {
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
        if !sgprs_read_by_vmem.is_empty() {
            flush.push(depctr(0xffe3));
        }
        if !sgprs_read_by_smem.is_empty() {
            let mov = Opcode::from_name("s_mov_b32").unwrap();
            flush.push(MInst::hw(
                mov,
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
        // lane reads may feed a VMEM in the successor (lane masks from v_cmp never do)
        if let Some(ws) = valu_sgpr_writes.iter().filter(|w| w.2).map(|w| w.1).min() {
            flush.push(s_nop(4 - ws));
        }
        if lds_vmem_open {
            flush.extend(crate::amdgpu::passes::insert_waitcnt::wait_insts(
                gen,
                [None, None, None, Some(0)],
            )?);
        }
        if !flush.is_empty() && !b.linear_succs.is_empty() {
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
