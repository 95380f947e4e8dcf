//! The vertex stage as an NGG primitive shader (GFX10.3 and GFX11; docs/abi.md "Graphics"
//! has the launch contract): passthrough mode, one vertex and one primitive per lane, no
//! culling, one wave per subgroup (the pipeline's VGT_GS_ONCHIP_CNTL says so, but nothing
//! here depends on it except the attribute-ring index).
//!
//! Program shape, in front of and around the vertex shader's own code:
//! ```text
//! entry:  s_bfe_u32 wid, s3, 24|4<<16          ; wave id in the subgroup (merged wave info)
//!         s_cmp_lg_u32 wid, 0 ; s_cbranch_scc1 PRIM
//! alloc:  M0 = s2[20:12] | s2[30:22] << 12     ; the subgroup's vertices and primitives
//!         s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)  ; the first wave only, before any export
//! PRIM:   lane = v_mbcnt ; P = lane < s3[15:8] (the wave's primitives), V = lane < s3[7:0]
//!         (its vertices), both under the launch EXEC ; saved = EXEC ; EXEC &= P
//!         s_cbranch_execz VERT
//! prim:   [ds_write_b32 (v0 & 0x1ff) << 2, v2]  ; LinkTime::vs_primitive_id: the id at
//!                                               ; the provoking vertex's LDS slot
//!         exp prim v0, off, off, off done      ; v0 is the passthrough `exp prim` value
//! VERT:   EXEC = saved & V                      ; the wave's vertices
//!         ... the vertex shader ...
//!         s_branch gcnc.next                    ; the export epilog (parts::vs_epilog):
//!                                               ; GFX11 ring stores, exp pos0 … done,
//!                                               ; GFX10.3 exp paramN
//! ```
//! Invariants:
//! - system SGPRs: s2 = GS_TG_INFO (subgroup vertex count 20:12, primitive count 30:22),
//!   s3 = merged wave info (wave vertex count 7:0, primitive count 15:8, wave id 27:24),
//!   GFX11 s5 = the subgroup's attribute-ring offset (bits 14:0, 512-byte units; read only
//!   with attributes and handed to the epilog with the global table);
//!   user SGPRs from s8 (the compute pairs, then the single SGPRs of `gfx_finish_inputs`);
//! - VGPRs: v0 = the passthrough primitive (indices at 8:0, 18:10, 28:20, null at 31),
//!   v2 = the primitive's id (GS_VGPR_COMP_CNT 2, read when the primitive id is kept),
//!   v5 = VertexID, v8 = InstanceID (ES_VGPR_COMP_CNT 3 when read);
//! - the primitive id's hand-off: each primitive lane writes its id to LDS byte
//!   `4 · provoking vertex`; the epilog's vertex lanes read byte `4 · lane` (one-wave
//!   subgroups: the wave's LDS ops are in order, no barrier; the pipeline sets
//!   VGT_PRIMITIVEID_EN.NGG_DISABLE_PROVOK_REUSE so no two primitives share a provoking
//!   vertex, as RADV does);
//! - GS_ALLOC_REQ precedes every export of the wave, and the vertex code runs with exactly
//!   the wave's vertex lanes in EXEC, so the position exports cover those lanes;
//! - GFX11 attributes: stored to the attribute ring by the vertex epilog
//!   (`parts::vs_epilog`, which has the ring layout), before its position exports; the
//!   ring's vertex index is the lane, the thread's index in its one-wave subgroup.

use super::Isel;
use crate::amdgpu::abi_graphics::NGG_ATTR_OFFSET_SGPR;
use crate::amdgpu::mir::{Arg, MInst, RegClass, Temp};
use crate::amdgpu::passes::insert_waitcnt::wait_insts;
use crate::amdgpu::Error;
use crate::isa::{Format, Opcode, PhysReg};

/// The system inputs of an NGG wave the selector reads.
#[derive(Default)]
pub(crate) struct NggInputs {
    /// s2: GS_TG_INFO.
    tg_info: Option<Temp>,
    /// s3: merged wave info.
    wave_info: Option<Temp>,
    /// v0: the passthrough primitive.
    prim: Option<Temp>,
    /// v2: the primitive id (GS_VGPR_COMP_CNT 2), when kept for the epilog.
    prim_id: Option<Temp>,
    /// GFX11 with attributes: the global table's low half (a user SGPR).
    pub(super) global_table: Option<Temp>,
    /// GFX11 with attributes: s5, the subgroup's attribute-ring offset.
    pub(super) attr_offset: Option<Temp>,
}

/// `s_bfe_u32` operand: offset | width << 16.
const fn field(offset: u32, width: u32) -> u32 {
    offset | width << 16
}

impl Isel<'_> {
    fn s_bfe(&mut self, src: Temp, offset: u32, width: u32) -> Result<Temp, Error> {
        let d = self.tmp(RegClass::S1);
        self.hw(
            Opcode::SBfeU32,
            &[Arg::Temp(d)],
            &[Arg::Temp(src), Arg::Const(field(offset, width))],
        )?;
        Ok(d)
    }

    /// The lanes below the wave's count in bits `offset`.. of the merged wave info.
    fn lanes_below(&mut self, lane: Temp, offset: u32) -> Result<Temp, Error> {
        let wi = self.gfx.ngg.wave_info.expect("ngg_begin");
        let n = self.s_bfe(wi, offset, 8)?;
        let m = self.tmp(self.mask_rc());
        self.valu(
            Opcode::VCmpGtU32,
            &[Arg::Temp(m)],
            vec![Arg::Temp(n), Arg::Temp(lane)],
        )?;
        Ok(m)
    }

    /// The NGG prologue (module doc): GS_ALLOC_REQ, the primitive export, EXEC = the
    /// vertex lanes. Runs before `vs_begin`, whose code follows in the current block.
    pub(super) fn ngg_begin(&mut self) -> Result<(), Error> {
        let gen = self.t().gen;
        let tg = self.tmp(RegClass::S1);
        let wi = self.tmp(RegClass::S1);
        let prim = self.tmp(RegClass::V1);
        self.gfx.ngg.tg_info = Some(tg);
        self.gfx.ngg.wave_info = Some(wi);
        self.gfx.ngg.prim = Some(prim);
        // GS_ALLOC_REQ from the subgroup's first wave
        let wid = self.s_bfe(wi, 24, 4)?;
        self.hw(Opcode::SCmpLgU32, &[], &[Arg::Temp(wid), Arg::Const(0)])?;
        let pre = self.cur;
        let to_prim = self.branch(Opcode::SCbranchScc1, pre)?;
        let alloc = self.p.new_block(0);
        self.p.add_edge(pre, alloc, true);
        self.cur = alloc;
        let nv = self.s_bfe(tg, 12, 9)?;
        let np = self.s_bfe(tg, 22, 9)?;
        let np_hi = self.tmp(RegClass::S1);
        self.hw(
            Opcode::SLshlB32,
            &[Arg::Temp(np_hi)],
            &[Arg::Temp(np), Arg::Const(12)],
        )?;
        self.hw(
            Opcode::SOrB32,
            &[Arg::Reg(crate::isa::Reg::m0())],
            &[Arg::Temp(nv), Arg::Temp(np_hi)],
        )?;
        let msg = crate::isa::SendMsg::GsAllocReq
            .value(gen)
            .ok_or_else(|| Error::unsupported(None, format!("GS_ALLOC_REQ on {gen:?}")))?;
        self.hw(Opcode::SSendmsg, &[], &[Arg::Imm(msg as u32)])?;
        let prim_b = self.p.new_block(0);
        self.p.add_edge(alloc, prim_b, true);
        self.p.add_edge(pre, prim_b, true);
        self.patch(to_prim, prim_b);
        self.cur = prim_b;
        // the primitive export, for the wave's primitive lanes
        // both masks under the launch EXEC (a VALU compare writes 0 for inactive lanes)
        let lane = self.lane_id()?;
        let m = self.lanes_below(lane, 8)?;
        let verts = self.lanes_below(lane, 0)?;
        let saved = self.tmp(self.mask_rc());
        self.hw_lane(
            Opcode::SAndSaveexecB32,
            &[Arg::Temp(saved)],
            &[Arg::Temp(m)],
        )?;
        let to_vert = self.branch(Opcode::SCbranchExecz, prim_b)?;
        let exp_b = self.p.new_block(0);
        self.p.add_edge(prim_b, exp_b, true);
        self.cur = exp_b;
        if self.link.vs_primitive_id {
            // the primitive's id to LDS at its provoking vertex (vertex 0: Vulkan's first
            // vertex convention; NGG_DISABLE_PROVOK_REUSE gives each primitive its own)
            let id = self.tmp(RegClass::V1);
            self.gfx.ngg.prim_id = Some(id);
            let v = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VAndB32,
                &[Arg::Temp(v)],
                vec![Arg::Const(0x1ff), Arg::Temp(prim)],
            )?;
            let addr = self.times4(Arg::Temp(v))?;
            if gen == crate::isa::Gen::Gfx10 {
                // LdsBranchVmemWAR: the fetch prolog's loads (VMEM) precede this LDS
                // access across branches, and the hazard pass sees only this part
                for w in wait_insts(gen, [None, None, None, Some(0)])? {
                    self.push(w);
                }
            }
            let o = self.op(Opcode::DsWriteB32)?;
            self.push(MInst::hw(
                o,
                Format::Ds,
                &[],
                &[Arg::Temp(addr), Arg::Temp(id)],
            ));
        }
        let mut mi = MInst::hw(
            Opcode::Exp,
            Format::Exp,
            &[],
            &[
                Arg::Imm(super::graphics::target::PRIM),
                Arg::Temp(prim),
                Arg::Off,
                Arg::Off,
                Arg::Off,
            ],
        );
        mi.mods.mem.done = true;
        self.push(mi);
        let vert = self.p.new_block(0);
        self.p.add_edge(exp_b, vert, true);
        self.p.add_edge(prim_b, vert, false);
        self.patch(to_vert, vert);
        self.cur = vert;
        // the vertex lanes
        let exec = self.p.exec();
        self.hw_lane(
            Opcode::SAndB32,
            &[exec],
            &[Arg::Temp(saved), Arg::Temp(verts)],
        )?;
        Ok(())
    }

    /// The NGG system inputs in p_startpgm: s2, s3, s5 (GFX11 with attributes), v0 (the
    /// VS VGPRs are placed by
    /// `gfx_finish_inputs`).
    pub(super) fn ngg_finish_inputs(&mut self, defs: &mut Vec<Arg>) {
        let n = &self.gfx.ngg;
        let regs = [
            (n.tg_info, PhysReg::sgpr(2)),
            (n.wave_info, PhysReg::sgpr(3)),
            (n.attr_offset, PhysReg::sgpr(NGG_ATTR_OFFSET_SGPR)),
            (n.prim, PhysReg::vgpr(0)),
            (n.prim_id, PhysReg::vgpr(2)),
        ];
        for (t, r) in regs {
            if let Some(t) = t {
                self.p.precolored.insert(t, r);
                defs.push(Arg::Temp(t));
            }
        }
    }
}
