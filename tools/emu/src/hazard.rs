//! Per-generation hazard checks (the list, with sources, is docs/hazards.md).
//!
//! The wave keeps a short history of executed instructions (`Rec`: class bits, SGPRs and
//! VGPRs written and read, wait states). Before an instruction executes, `check` walks the
//! history backwards the way LLVM's GCNHazardRecognizer and ACO's insert_NOPs reason —
//! counting wait states (1 per instruction, N+1 for `s_nop N`) or intervening instruction
//! kinds — and reports the first rule the program violates. Control flow is followed as
//! executed, so a hazard across a taken branch is caught on the path that runs.

use crate::error::{Error, ErrorKind, Result};
use crate::wave::Uses;
use gcnc::isa::{EncDesc, Gen, Inst, Opcode as O, Operand, Props, Target};
use std::collections::VecDeque;

const HISTORY: usize = 24;

#[derive(Clone, Debug, Default)]
pub struct Rec {
    pub pc: u64,
    pub text: String,
    pub valu: bool,
    pub salu: bool,
    pub smem: bool,
    pub vmem: bool,
    pub trans: bool,
    pub vcmpx: bool,
    pub setreg: bool,
    pub waitcnt_lgkm0: bool,
    pub waitcnt_vm0: bool,
    /// `s_waitcnt_depctr` immediate.
    pub depctr: Option<u32>,
    pub wait_states: u32,
    pub sgpr_w: u128,
    pub sgpr_r: u128,
    pub exec_r: bool,
    pub vgpr_w: Vec<(u16, u16)>,
    /// VALU: SGPRs read as a lane mask (carry-in, select mask, div_fmas VCC).
    pub mask_r: u128,
    /// LDS instruction (DS format).
    pub ds: bool,
    /// VMEM other than FLAT (buffer, global, scratch, image).
    pub vmem_nonflat: bool,
    pub branch: bool,
    /// `s_waitcnt_vscnt null, 0`.
    pub vscnt0: bool,
    /// VALU: reads an SGPR (not EXEC, not as mask) or a literal — expires VALUMaskWrite.
    pub valu_other_sgpr_or_lit: bool,
    /// VMEM (buffer, image, flat, global, scratch) whose data operand is wider than 64
    /// bits: the data VGPRs, which GFX9 reads one cycle after issue.
    pub wide_store_data: Option<(u16, u16)>,
}

#[derive(Clone, Debug, Default)]
pub struct Hazards {
    hist: VecDeque<Rec>,
}

fn sgpr_bits(ranges: &[(u16, u16)]) -> u128 {
    let mut b = 0u128;
    for &(base, n) in ranges {
        for r in base..base + n {
            if r < 128 {
                b |= 1 << r;
            }
        }
    }
    b
}

fn hazard(name: &'static str, detail: String, r: &Rec) -> Error {
    Error::new(ErrorKind::Hazard {
        name,
        detail,
        earlier: r.text.clone(),
        earlier_pc: r.pc,
    })
}

impl Hazards {
    /// Wait states since the most recent record matching `f` (None if none in history).
    fn since(&self, f: impl Fn(&Rec) -> bool) -> Option<(u32, &Rec)> {
        let mut ws = 0;
        for r in self.hist.iter().rev() {
            if f(r) {
                return Some((ws, r));
            }
            ws += r.wait_states;
        }
        None
    }

    pub fn check(
        &self,
        t: Target,
        inst: &Inst,
        _d: &EncDesc,
        props: Props,
        uses: &Uses,
        _pc: u64,
    ) -> Result<()> {
        let reads = sgpr_bits(&uses.reads);
        let writes = sgpr_bits(&uses.writes);
        let valu = props.contains(Props::VALU);
        let vmem = props.contains(Props::VMEM)
            || matches!(
                inst.format,
                gcnc::isa::Format::Mubuf
                    | gcnc::isa::Format::Mtbuf
                    | gcnc::isa::Format::Flat
                    | gcnc::isa::Format::Global
                    | gcnc::isa::Format::Scratch
                    | gcnc::isa::Format::Mimg
            );
        let name = inst.op.name();
        match t.gen {
            Gen::Gfx9 => {
                // VALU writes SGPR → v_readlane/v_writelane lane select: 4 wait states
                if matches!(inst.op, O::VReadlaneB32 | O::VWritelaneB32) {
                    if let Some(Operand::Reg(r)) = inst.operands.get(2) {
                        if r.base.0 < 128 {
                            let bit = 1u128 << r.base.0;
                            if let Some((ws, rec)) = self.since(|x| x.valu && x.sgpr_w & bit != 0) {
                                if ws < 4 {
                                    return Err(hazard("VALUWriteSGPR→RWLane", format!("lane select written by a VALU {ws} wait state(s) earlier, 4 needed"), rec));
                                }
                            }
                        }
                    }
                }
                // DPP: VALU writes EXEC → 5 wait states; VALU writes the DPP source → 2
                if inst.format.is_dpp16() {
                    let exec = 3u128 << 126;
                    if let Some((ws, rec)) = self.since(|x| x.valu && x.sgpr_w & exec != 0) {
                        if ws < 5 {
                            return Err(hazard(
                                "VALUWriteEXEC→DPP",
                                format!(
                                    "EXEC written by a VALU {ws} wait state(s) earlier, 5 needed"
                                ),
                                rec,
                            ));
                        }
                    }
                    if let Some(Operand::Reg(src)) = inst.get(_d, gcnc::isa::Field::Src0) {
                        let (b, n) = (src.base.0, src.count as u16);
                        let hit = |x: &Rec| {
                            x.valu && x.vgpr_w.iter().any(|&(b2, n2)| b < b2 + n2 && b2 < b + n)
                        };
                        if let Some((ws, rec)) = self.since(hit) {
                            if ws < 2 {
                                return Err(hazard("VALUWriteVGPR→DPP", format!("DPP source written by a VALU {ws} wait state(s) earlier, 2 needed"), rec));
                            }
                        }
                    }
                }
                // VMEM with more than 64 bits of data reads them after issue: a VALU may
                // not overwrite them in the next wait state (LLVM checkVALUHazards,
                // has12DWordStoreHazard; GFX10+ has no data-dependency hazards)
                if valu {
                    for &(b, n) in uses.writes.iter().filter(|r| r.0 >= 256) {
                        let hit = |x: &Rec| {
                            x.wide_store_data
                                .is_some_and(|(b2, n2)| b < b2 + n2 && b2 < b + n)
                        };
                        if let Some((ws, rec)) = self.since(hit) {
                            if ws < 1 {
                                return Err(hazard(
                                    "VMEMStoreData→VALUWrite",
                                    "a VALU overwrites the >64-bit data of the VMEM instruction right before it, 1 wait state needed".into(),
                                    rec,
                                ));
                            }
                        }
                    }
                }
                // VALU writes VCC → v_div_fmas: 4 wait states
                if matches!(inst.op, O::VDivFmasF32 | O::VDivFmasF64) {
                    let vcc = 3u128 << 106;
                    if let Some((ws, rec)) = self.since(|x| x.valu && x.sgpr_w & vcc != 0) {
                        if ws < 4 {
                            return Err(hazard(
                                "VALUWriteVCC→DivFmas",
                                format!(
                                    "VCC written by a VALU {ws} wait state(s) earlier, 4 needed"
                                ),
                                rec,
                            ));
                        }
                    }
                }
                // s_setreg → s_getreg/s_setreg: 2 wait states
                if matches!(inst.op, O::SGetregB32 | O::SSetregB32 | O::SSetregImm32B32) {
                    if let Some((ws, rec)) = self.since(|x| x.setreg) {
                        if ws < 2 {
                            return Err(hazard(
                                "SetReg→GetReg",
                                format!("{ws} wait state(s) after s_setreg, 2 needed"),
                                rec,
                            ));
                        }
                    }
                }
                // SALU writes M0 → s_movrel / s_sendmsg / v_interp: 1 wait state
                if name.starts_with("s_movrel")
                    || name.starts_with("s_sendmsg")
                    || name.starts_with("v_interp")
                {
                    let m0 = 1u128 << 124;
                    if let Some((ws, rec)) = self.since(|x| x.salu && x.sgpr_w & m0 != 0) {
                        if ws < 1 {
                            return Err(hazard(
                                "SALUWriteM0→MovRel/SendMsg/Interp",
                                "M0 written by the previous SALU instruction, 1 wait state needed"
                                    .into(),
                                rec,
                            ));
                        }
                    }
                }
                // VALU writes SGPR → VMEM reads it: 5 wait states
                if vmem && reads != 0 {
                    if let Some((ws, rec)) = self.since(|x| x.valu && x.sgpr_w & reads != 0) {
                        if ws < 5 {
                            return Err(hazard(
                                "VALUWriteSGPR→VMEM",
                                format!(
                                    "SGPR written by a VALU {ws} wait state(s) earlier, 5 needed"
                                ),
                                rec,
                            ));
                        }
                    }
                }
                // VALU writes VCC/EXEC → VALU reads vccz/execz: 5 wait states
                if valu {
                    for o in &inst.operands {
                        if let Operand::Reg(r) = o {
                            let (code, bits) = match r.base.0 {
                                251 => (251, 3u128 << 106),
                                252 => (252, 3u128 << 126),
                                _ => continue,
                            };
                            if let Some((ws, rec)) = self.since(|x| x.valu && x.sgpr_w & bits != 0)
                            {
                                if ws < 5 {
                                    return Err(hazard("VALUWriteVCC/EXEC→VCCZ/EXECZ", format!("source code {code} read {ws} wait state(s) after a VALU wrote it, 5 needed"), rec));
                                }
                            }
                        }
                    }
                }
            }
            Gen::Gfx10 | Gen::Gfx11 => {
                // VcmpxPermlaneHazard: v_cmpx then v_permlane needs a VALU in between
                if matches!(inst.op, O::VPermlane16B32 | O::VPermlanex16B32) {
                    for r in self.hist.iter().rev() {
                        if r.vcmpx {
                            return Err(hazard(
                                "VcmpxPermlane",
                                "v_permlane after a v_cmpx with no VALU in between".into(),
                                r,
                            ));
                        }
                        if r.valu {
                            break;
                        }
                    }
                }
                if t.gen == Gen::Gfx10 {
                    // SMEMtoVectorWriteHazard: SMEM reads an SGPR, then a VALU writes it
                    if valu && writes != 0 {
                        for r in self.hist.iter().rev() {
                            if r.smem && r.sgpr_r & writes != 0 {
                                return Err(hazard("SMEMtoVectorWrite", "VALU writes an SGPR an SMEM instruction reads, with no SALU or s_waitcnt lgkmcnt(0) between".into(), r));
                            }
                            if (r.salu && r.depctr.is_none() && !r.setreg_is_sopp())
                                || r.waitcnt_lgkm0
                            {
                                break;
                            }
                        }
                    }
                    // VcmpxExecWARHazard: non-VALU reads EXEC, then a VALU writes EXEC
                    if valu && writes & (3u128 << 126) != 0 {
                        for r in self.hist.iter().rev() {
                            if r.valu && r.sgpr_w != 0 {
                                break;
                            }
                            if let Some(dc) = r.depctr {
                                if dc & 1 == 0 {
                                    break;
                                }
                            }
                            if !r.valu && r.exec_r {
                                return Err(hazard("VcmpxExecWAR", "VALU writes EXEC after a non-VALU read it, with no SGPR-writing VALU or s_waitcnt_depctr sa_sdst(0) between".into(), r));
                            }
                        }
                    }
                    // LdsBranchVmemWARHazard: DS, branch, VMEM (or VMEM, branch, DS) needs an
                    // s_waitcnt_vscnt null, 0 between
                    let is_ds = inst.format == gcnc::isa::Format::Ds;
                    let is_vm = vmem_nonflat(inst.format);
                    if is_ds || is_vm {
                        let mut branch = false;
                        for r in self.hist.iter().rev() {
                            if r.vscnt0 || (is_ds && r.ds) || (is_vm && r.vmem_nonflat) {
                                break;
                            }
                            if r.branch {
                                branch = true;
                            }
                            if (is_ds && r.vmem_nonflat) || (is_vm && r.ds) {
                                if branch {
                                    return Err(hazard("LdsBranchVmemWAR", "LDS and VMEM accesses on either side of a branch without s_waitcnt_vscnt null, 0".into(), r));
                                }
                                break;
                            }
                        }
                    }
                    // VMEMtoScalarWriteHazard: VMEM reads an SGPR, then SALU/SMEM writes it
                    if (props.contains(Props::SALU) || props.contains(Props::SMEM)) && writes != 0 {
                        for r in self.hist.iter().rev() {
                            if r.valu
                                || r.waitcnt_vm0
                                || r.depctr.is_some_and(|d| (d >> 2) & 7 == 0)
                            {
                                break;
                            }
                            if r.vmem && r.sgpr_r & writes != 0 {
                                return Err(hazard("VMEMtoScalarWrite", "SALU/SMEM writes an SGPR a VMEM instruction reads, with no VALU or wait between".into(), r));
                            }
                        }
                    }
                }
                // VALUMaskWriteHazard (GFX11 wave64): VALU reads SGPR X as a lane mask, SALU
                // writes X, SALU reads X — needs s_waitcnt_depctr sa_sdst(0) after the write
                if t.gen == Gen::Gfx11
                    && t.wave == gcnc::isa::Wave::W64
                    && props.contains(Props::SALU)
                    && !props.contains(Props::SMEM)
                    && reads != 0
                {
                    let hist: Vec<&Rec> = self.hist.iter().rev().collect();
                    for bit in 0..124u32 {
                        if reads >> bit & 1 == 0 {
                            continue;
                        }
                        let b = 1u128 << bit;
                        // the most recent SALU write of X, with no sa_sdst(0) wait after it
                        let Some(wi) = hist.iter().position(|r| {
                            r.salu && r.sgpr_w & b != 0 || r.depctr.is_some_and(|d| d & 1 == 0)
                        }) else {
                            continue;
                        };
                        if hist[wi].depctr.is_some() {
                            continue;
                        }
                        for r in &hist[wi + 1..] {
                            if r.depctr.is_some_and(|d| d & 1 == 0) {
                                break;
                            }
                            if r.valu && r.mask_r & b != 0 {
                                return Err(hazard("VALUMaskWrite", format!("SALU reads {} written by an SALU after a VALU read it as a lane mask, with no s_waitcnt_depctr sa_sdst(0) after the write", crate::regs::reg_name(t.gen, bit as u16, 1)), r));
                            }
                            if r.valu && r.valu_other_sgpr_or_lit {
                                break;
                            }
                        }
                    }
                }
                if t.gen == Gen::Gfx11 && valu {
                    // VALUTransUseHazard: VALU reads a VGPR a TRANS op wrote, within 5 VALUs
                    // and 1 TRANS, unless s_waitcnt_depctr va_vdst(0) or VMEM/DS intervenes
                    let vreads: Vec<(u16, u16)> =
                        uses.reads.iter().copied().filter(|r| r.0 >= 256).collect();
                    let (mut valus, mut trans) = (0, 0);
                    for r in self.hist.iter().rev() {
                        if valus > 5 || trans > 1 {
                            break;
                        }
                        if r.vmem || r.depctr == Some(0x0fff) {
                            break;
                        }
                        if r.trans
                            && r.vgpr_w.iter().any(|&(b, n)| {
                                vreads.iter().any(|&(b2, n2)| b < b2 + n2 && b2 < b + n)
                            })
                        {
                            return Err(hazard("VALUTransUse", format!("VALU reads the result of a transcendental op after {valus} VALU(s), needs s_waitcnt_depctr va_vdst(0) or more distance"), r));
                        }
                        if r.valu {
                            valus += 1;
                        }
                        if r.trans {
                            trans += 1;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        t: Target,
        inst: &Inst,
        _d: &EncDesc,
        props: Props,
        uses: &Uses,
        pc: u64,
        text: &str,
    ) {
        let name = inst.op.name();
        let imm = inst.operands.iter().find_map(|o| match o {
            Operand::Imm(v) => Some(*v),
            _ => None,
        });
        let mut sgpr_w = sgpr_bits(&uses.writes);
        if props.contains(Props::WRITES_EXEC) || name.starts_with("v_cmpx") {
            sgpr_w |= 3 << 126;
        }
        let mut sgpr_r = sgpr_bits(&uses.reads);
        let exec_r = props.contains(Props::READS_EXEC) || name.contains("exec");
        if exec_r {
            sgpr_r |= 3 << 126;
        }
        let (mut lgkm0, mut vm0) = (false, false);
        if inst.op == O::SWaitcnt {
            let text = gcnc::isa::simm16::print_waitcnt(t.gen, imm.unwrap_or(0));
            lgkm0 = text.contains("lgkmcnt(0)");
            vm0 = text.contains("vmcnt(0)");
        }
        if inst.op == O::SWaitcntLgkmcnt && imm == Some(0) {
            lgkm0 = true;
        }
        // lane-mask reads of a VALU: implicit VCC after the sources, an explicit mask Src2
        let (mut mask_r, mut other) = (0u128, false);
        if props.contains(Props::VALU) {
            let first_src = _d
                .operands
                .iter()
                .position(|o| o.field == gcnc::isa::Field::Src0);
            for (i, od) in _d.operands.iter().enumerate() {
                if od.implicit == Some(gcnc::isa::tables::Implicit::Vcc)
                    && first_src.is_some_and(|f| i > f)
                {
                    mask_r |= 3 << 106;
                }
            }
            if matches!(inst.op, O::VDivFmasF32 | O::VDivFmasF64) {
                mask_r |= 3 << 106;
            }
            for (od, o) in _d.explicit().zip(inst.operands.iter()) {
                match o {
                    Operand::Reg(r) if r.base.0 < 124 && !r.base.is_vgpr() => {
                        let bits = sgpr_bits(&[(r.base.0, r.count as u16)]);
                        if od.size == 0 && od.field == gcnc::isa::Field::Src2 {
                            mask_r |= bits;
                        } else if !od.is_def() {
                            other = true;
                        }
                    }
                    Operand::Literal(_) => other = true,
                    _ => {}
                }
            }
        }
        let vscnt0 = inst.op == O::SWaitcntVscnt
            && matches!(inst.operands.first(), Some(Operand::Reg(r)) if r.base.0 == 125)
            && imm == Some(0);
        let wide_store_data = if vmem_any(inst.format) {
            match inst.get(_d, gcnc::isa::Field::Vdata) {
                Some(Operand::Reg(r)) if r.base.is_vgpr() && r.count > 2 => {
                    Some((r.base.0, r.count as u16))
                }
                _ => None,
            }
        } else {
            None
        };
        let rec = Rec {
            wide_store_data,
            ds: inst.format == gcnc::isa::Format::Ds,
            vmem_nonflat: vmem_nonflat(inst.format),
            branch: props.contains(Props::BRANCH),
            vscnt0,
            mask_r,
            valu_other_sgpr_or_lit: other,
            pc,
            text: text.to_string(),
            valu: props.contains(Props::VALU),
            salu: props.contains(Props::SALU) && !props.contains(Props::SMEM),
            smem: props.contains(Props::SMEM),
            vmem: props.contains(Props::VMEM)
                || props.contains(Props::LDS)
                || crate::wave::is_mem_format(inst.format),
            trans: props.contains(Props::TRANS),
            vcmpx: name.starts_with("v_cmpx"),
            setreg: name.starts_with("s_setreg"),
            waitcnt_lgkm0: lgkm0,
            waitcnt_vm0: vm0,
            depctr: (inst.op == O::SWaitcntDepctr).then(|| imm.unwrap_or(0)),
            wait_states: if inst.op == O::SNop {
                imm.unwrap_or(0) + 1
            } else {
                1
            },
            sgpr_w,
            sgpr_r,
            exec_r,
            vgpr_w: uses.writes.iter().copied().filter(|r| r.0 >= 256).collect(),
        };
        self.hist.push_back(rec);
        if self.hist.len() > HISTORY {
            self.hist.pop_front();
        }
    }
}

fn vmem_any(f: gcnc::isa::Format) -> bool {
    vmem_nonflat(f) || f == gcnc::isa::Format::Flat
}

fn vmem_nonflat(f: gcnc::isa::Format) -> bool {
    use gcnc::isa::Format::*;
    matches!(f, Mubuf | Mtbuf | Global | Scratch | Mimg)
}

impl Rec {
    /// SOPP instructions (waits, nops) do not count as the SALU that clears the
    /// SMEM→VALU-write hazard; only s_waitcnt lgkmcnt(0) among them does.
    fn setreg_is_sopp(&self) -> bool {
        self.text.starts_with("s_nop")
            || self.text.starts_with("s_waitcnt")
            || self.text.starts_with("s_delay_alu")
            || self.text.starts_with("s_clause")
            || self.text.starts_with("s_branch")
            || self.text.starts_with("s_cbranch")
    }
}
