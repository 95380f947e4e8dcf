//! Subgroup reductions and inclusive / exclusive scans over 32-bit values (integer and
//! f32), in the way ACO's `aco_lower_to_hw_instr` builds them.
//!
//! Shape of every divergent reduction / scan:
//! 1. `save = s_or_saveexec -1` (exec = all lanes); `acc = identity` in every lane;
//!    `exec = save`; `acc = x` in the active lanes; `exec = -1`. Inactive lanes now hold
//!    the operation's identity, so the lane-combining steps below need no exec handling.
//! 2. Lane-combining steps `acc = op(acc[src lane], acc)`: a VOP2 DPP instruction writing
//!    `acc` (lanes whose DPP source is invalid, or whose row is masked off, are not written
//!    and keep their value), or — for operations without a VOP2 DPP form (`v_mul_lo_u32`)
//!    — `v_mov_b32_dpp` into a temp holding the identity followed by the plain operation.
//!    - reduce, all generations: quad_perm [1,0,3,2], quad_perm [2,3,0,1], row_half_mirror,
//!      row_mirror (every lane holds its row's total; clusters ≤ 16 stop here);
//!      GFX9: row_bcast:15 (rows 1, 3) and row_bcast:31 (rows 2, 3), result in lane 63;
//!      GFX10+: `v_permlanex16_b32` (sel 0) + op gives every lane its 32-lane half's
//!      total; wave64 adds `v_permlane64_b32` + op on GFX11, and on GFX10 reads lane 63
//!      with `v_readlane_b32` and combines it into lane 0's half.
//!    - inclusive scan: row_shr:1,2,4,8 (Hillis–Steele inside each row); GFX9:
//!      row_bcast:15 (rows 1, 3), row_bcast:31 (rows 2, 3); GFX10+: `v_permlanex16_b32`
//!      of lane 15 of the other row combined into rows 1 and 3 (DPP row_mask 0xa), and in
//!      wave64 lane 31 (`v_readlane_b32`) combined into rows 2 and 3 (row_mask 0xc).
//!    - exclusive scan: the inclusive scan of the values shifted up by one lane (identity
//!      in lane 0): GFX9 `wave_shr:1`; GFX10+ `row_shr:1` plus `v_writelane_b32` of lanes
//!      15 / 31 / 47 into lanes 16 / 32 / 48.
//! 3. The result is read (`v_readlane_b32`, reductions) or copied out under the original
//!    exec (scans, clustered reductions); then `exec = save`.
//!
//! Uniform operands take fast paths: a reduction of a uniform `x` over the active lanes is
//! `x` (and/or/min/max), `x · popcount(exec)` (add), `x · (popcount(exec) & 1)` (xor); its
//! inclusive / exclusive add scans are `x · (mbcnt(exec) + 1)` / `x · mbcnt(exec)`.
//!
//! Invariant: `acc` temps are defined several times (listed in `Program::multi_def`), so
//! the allocator keeps one register for the whole sequence; every instruction between the
//! two exec writes runs with all lanes on.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{Intrinsic, ReduceOp, Value};
use crate::isa::inst::Dpp;
use crate::isa::Opcode;
use crate::isa::{tables, Format, Gen};
use smallvec::SmallVec;

/// DPP16 controls used here (ISA manuals / LLVM's `DppCtrl`).
pub(super) mod ctrl {
    pub const QUAD_1032: u16 = 0xb1;
    pub const QUAD_2301: u16 = 0x4e;
    pub const QUAD_ID: u16 = 0xe4;
    pub const ROW_SHR0: u16 = 0x110;
    pub const WAVE_SHR1: u16 = 0x138;
    pub const ROW_MIRROR: u16 = 0x140;
    pub const ROW_HALF_MIRROR: u16 = 0x141;
    pub const ROW_BCAST15: u16 = 0x142;
    pub const ROW_BCAST31: u16 = 0x143;
    pub const ROW_XMASK0: u16 = 0x160;
}

/// Identity element and VALU opcode names of a reduction operation on 32-bit values.
fn info(op: ReduceOp) -> (u32, Opcode) {
    use ReduceOp::*;
    match op {
        Iadd => (0, Opcode::VAddU32),
        Imul => (1, Opcode::VMulLoU32),
        Fadd => (0x8000_0000, Opcode::VAddF32),
        Fmul => (0x3f80_0000, Opcode::VMulF32),
        Imin => (i32::MAX as u32, Opcode::VMinI32),
        Umin => (u32::MAX, Opcode::VMinU32),
        Fmin => (0x7f80_0000, Opcode::VMinF32),
        Imax => (i32::MIN as u32, Opcode::VMaxI32),
        Umax => (0, Opcode::VMaxU32),
        Fmax => (0xff80_0000, Opcode::VMaxF32),
        Iand => (u32::MAX, Opcode::VAndB32),
        Ior => (0, Opcode::VOrB32),
        Ixor => (0, Opcode::VXorB32),
    }
}

/// Which collective operation is being selected.
#[derive(Clone, Copy, PartialEq, Eq)]
enum What {
    /// Reduction over clusters of this many lanes (the wave size for a full reduction).
    Reduce(u32),
    Inclusive,
    Exclusive,
}

impl Isel<'_> {
    /// Pushes a DPP16 instruction (`fmt` VOP1/VOP2 DPP) with the given controls.
    pub(super) fn dpp(
        &mut self,
        op: Opcode,
        fmt: Format,
        defs: &[Arg],
        ops: &[Arg],
        dpp_ctrl: u16,
        row_mask: u8,
        bound_ctrl: bool,
    ) -> Result<(), Error> {
        let o = self.op(op)?;
        if tables::form(self.t().gen, o, fmt).is_none() {
            return Err(Error::unsupported(
                None,
                format!("{}: no {fmt:?} form", o.name()),
            ));
        }
        let mut i = MInst::hw(o, fmt, defs, ops);
        i.mods.dpp = Dpp {
            ctrl: dpp_ctrl,
            row_mask,
            bank_mask: 0xf,
            bound_ctrl,
            ..Dpp::default()
        };
        self.push(i);
        Ok(())
    }

    /// `acc = op(src[dpp lane], acc)` in the lanes the DPP control and row mask select.
    fn dpp_step(
        &mut self,
        rop: ReduceOp,
        acc: Temp,
        src: Temp,
        dpp_ctrl: u16,
        row_mask: u8,
    ) -> Result<(), Error> {
        let (identity, op) = info(rop);
        let o = self.op(op)?;
        if tables::form(self.t().gen, o, Format::Vop2Dpp).is_some() {
            return self.dpp(
                op,
                Format::Vop2Dpp,
                &[Arg::Temp(acc)],
                &[Arg::Temp(src), Arg::Temp(acc)],
                dpp_ctrl,
                row_mask,
                false,
            );
        }
        let t = self.tmp(RegClass::V1);
        self.p.multi_def.insert(t);
        self.valu(Opcode::VMovB32, &[Arg::Temp(t)], vec![Arg::Const(identity)])?;
        self.dpp(
            Opcode::VMovB32,
            Format::Vop1Dpp,
            &[Arg::Temp(t)],
            &[Arg::Temp(src)],
            dpp_ctrl,
            row_mask,
            false,
        )?;
        self.valu(op, &[Arg::Temp(acc)], vec![Arg::Temp(t), Arg::Temp(acc)])
    }

    /// `acc = op(other, acc)` in every lane.
    fn combine(&mut self, rop: ReduceOp, acc: Temp, other: Arg) -> Result<(), Error> {
        let (_, op) = info(rop);
        self.valu(op, &[Arg::Temp(acc)], vec![other, Arg::Temp(acc)])
    }

    fn readlane(&mut self, v: Temp, lane: u32) -> Result<Temp, Error> {
        let s = self.tmp(RegClass::S1);
        self.hw(
            Opcode::VReadlaneB32,
            &[Arg::Temp(s)],
            &[Arg::Temp(v), Arg::Const(lane)],
        )?;
        Ok(s)
    }

    /// Opens a whole-wave region: returns the saved exec; exec = all lanes.
    pub(super) fn wwm_begin(&mut self) -> Result<Temp, Error> {
        let save = self.tmp(self.mask_rc());
        self.hw_lane(
            Opcode::SOrSaveexecB32,
            &[Arg::Temp(save)],
            &[Arg::Const(u32::MAX)],
        )?;
        Ok(save)
    }

    pub(super) fn set_exec(&mut self, to: Arg) -> Result<(), Error> {
        let exec = self.p.exec();
        self.hw_lane(Opcode::SMovB32, &[exec], &[to])
    }

    /// Inside a whole-wave region opened by `wwm_begin`: a VGPR holding `x` in the lanes
    /// active in `save` and `fill` in the others (exec is all lanes again on return).
    pub(super) fn wwm_value(&mut self, save: Temp, x: Arg, fill: u32) -> Result<Temp, Error> {
        let acc = self.tmp(RegClass::V1);
        self.p.multi_def.insert(acc);
        self.valu(Opcode::VMovB32, &[Arg::Temp(acc)], vec![Arg::Const(fill)])?;
        self.set_exec(Arg::Temp(save))?;
        self.valu(Opcode::VMovB32, &[Arg::Temp(acc)], vec![x])?;
        self.set_exec(Arg::Const(u32::MAX))?;
        Ok(acc)
    }

    /// Count of lanes below the current one set in exec (`v_mbcnt_*`).
    /// (plus one when `inclusive`).
    fn mbcnt_exec(&mut self, inclusive: bool) -> Result<Temp, Error> {
        let m = self.tmp(self.mask_rc());
        let exec = self.p.exec();
        self.hw_lane(Opcode::SMovB32, &[Arg::Temp(m)], &[exec])?;
        self.mbcnt(Arg::Temp(m), Arg::Const(inclusive as u32))
    }

    /// `acc + |{ j < lane : mask bit j }|` with `mask` a lane mask (SGPR temp).
    pub(super) fn mbcnt(&mut self, mask: Arg, acc: Arg) -> Result<Temp, Error> {
        let parts: Vec<Arg> = match mask {
            Arg::Temp(t) if self.p.rc(t).dwords == 2 => {
                self.split(t, 2)?.into_iter().map(Arg::Temp).collect()
            }
            // a constant lane mask (0 or -1) is sign-extended to the wave
            Arg::Const(k) => vec![Arg::Const(k), Arg::Const(k)],
            a => vec![a, Arg::Const(0)],
        };
        let lo = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VMbcntLoU32B32,
            &[Arg::Temp(lo)],
            vec![parts[0], acc],
        )?;
        if !self.p.wave64() {
            return Ok(lo);
        }
        let hi = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VMbcntHiU32B32,
            &[Arg::Temp(hi)],
            vec![parts[1], Arg::Temp(lo)],
        )?;
        Ok(hi)
    }

    /// `popcount(exec)` in an SGPR.
    fn exec_count(&mut self) -> Result<Temp, Error> {
        let n = self.tmp(RegClass::S1);
        let exec = self.p.exec();
        self.hw_lane(Opcode::SBcnt1I32B32, &[Arg::Temp(n)], &[exec])?;
        Ok(n)
    }

    /// Fast path for a uniform operand; None when the operation has none.
    fn uniform_collective(
        &mut self,
        what: What,
        rop: ReduceOp,
        x: Arg,
    ) -> Result<Option<Arg>, Error> {
        use ReduceOp::*;
        let idem = matches!(rop, Iand | Ior | Imin | Imax | Umin | Umax | Fmin | Fmax);
        Ok(Some(match (what, rop) {
            (What::Reduce(_), _) | (What::Inclusive, _) if idem => x,
            (What::Reduce(_), Iadd | Ixor) => {
                let n = self.exec_count()?;
                let f = if rop == Ixor {
                    let p = self.tmp(RegClass::S1);
                    self.salu(
                        Opcode::SAndB32,
                        &[Arg::Temp(p)],
                        vec![Arg::Temp(n), Arg::Const(1)],
                    )?;
                    p
                } else {
                    n
                };
                let d = self.tmp(RegClass::S1);
                self.salu(Opcode::SMulI32, &[Arg::Temp(d)], vec![x, Arg::Temp(f)])?;
                Arg::Temp(d)
            }
            (What::Inclusive | What::Exclusive, Iadd) => {
                let c = self.mbcnt_exec(what == What::Inclusive)?;
                let d = self.tmp(RegClass::V1);
                self.valu(Opcode::VMulLoU32, &[Arg::Temp(d)], vec![x, Arg::Temp(c)])?;
                Arg::Temp(d)
            }
            _ => return Ok(None),
        }))
    }

    /// Reduction steps on `acc` (exec = all lanes); returns the lane holding the wave's
    /// total when `cluster` is the wave size (None: every lane holds its cluster's total).
    fn reduce_steps(&mut self, rop: ReduceOp, acc: Temp, cluster: u32) -> Result<u32, Error> {
        use ctrl::*;
        let gen = self.t().gen;
        let lanes = self.t().wave.lanes();
        let steps = [
            (2, QUAD_1032),
            (4, QUAD_2301),
            (8, ROW_HALF_MIRROR),
            (16, ROW_MIRROR),
        ];
        for (size, c) in steps {
            if cluster >= size {
                self.dpp_step(rop, acc, acc, c, 0xf)?;
            }
        }
        if cluster <= 16 {
            return Ok(0);
        }
        if gen == Gen::Gfx9 {
            if cluster == 64 {
                self.dpp_step(rop, acc, acc, ROW_BCAST15, 0xa)?;
                self.dpp_step(rop, acc, acc, ROW_BCAST31, 0xc)?;
                return Ok(63);
            }
            // cluster of 32 on GFX9: combine with the other row through ds_bpermute
            let lane = self.lane_id()?;
            let t = self.xor_lanes(acc, lane, 16)?;
            self.combine(rop, acc, Arg::Temp(t))?;
            return Ok(0);
        }
        let t = self.tmp(RegClass::V1);
        self.hw(
            Opcode::VPermlanex16B32,
            &[Arg::Temp(t)],
            &[Arg::Temp(acc), Arg::Const(0), Arg::Const(0)],
        )?;
        self.combine(rop, acc, Arg::Temp(t))?;
        if cluster == 64 && lanes == 64 {
            if gen == Gen::Gfx11 {
                let t = self.tmp(RegClass::V1);
                self.hw(Opcode::VPermlane64B32, &[Arg::Temp(t)], &[Arg::Temp(acc)])?;
                self.combine(rop, acc, Arg::Temp(t))?;
            } else {
                let s = self.readlane(acc, 63)?;
                self.combine(rop, acc, Arg::Temp(s))?;
            }
        }
        Ok(0)
    }

    /// Inclusive scan steps on `acc` (exec = all lanes).
    fn scan_steps(&mut self, rop: ReduceOp, acc: Temp) -> Result<(), Error> {
        use ctrl::*;
        for n in [1u16, 2, 4, 8] {
            self.dpp_step(rop, acc, acc, ROW_SHR0 + n, 0xf)?;
        }
        if self.t().gen == Gen::Gfx9 {
            self.dpp_step(rop, acc, acc, ROW_BCAST15, 0xa)?;
            self.dpp_step(rop, acc, acc, ROW_BCAST31, 0xc)?;
            return Ok(());
        }
        let t = self.tmp(RegClass::V1);
        self.hw(
            Opcode::VPermlanex16B32,
            &[Arg::Temp(t)],
            &[Arg::Temp(acc), Arg::Const(u32::MAX), Arg::Const(u32::MAX)],
        )?;
        self.dpp_step(rop, acc, t, QUAD_ID, 0xa)?;
        if self.p.wave64() {
            let s = self.readlane(acc, 31)?;
            let t = self.tmp(RegClass::V1);
            self.valu(Opcode::VMovB32, &[Arg::Temp(t)], vec![Arg::Temp(s)])?;
            self.dpp_step(rop, acc, t, QUAD_ID, 0xc)?;
        }
        Ok(())
    }

    /// Shifts `acc` up by one lane across the whole wave; lane 0 gets `identity`.
    fn shift_up_one(&mut self, acc: Temp, identity: u32) -> Result<Temp, Error> {
        let d = self.tmp(RegClass::V1);
        self.p.multi_def.insert(d);
        self.valu(Opcode::VMovB32, &[Arg::Temp(d)], vec![Arg::Const(identity)])?;
        if self.t().gen == Gen::Gfx9 {
            self.dpp(
                Opcode::VMovB32,
                Format::Vop1Dpp,
                &[Arg::Temp(d)],
                &[Arg::Temp(acc)],
                ctrl::WAVE_SHR1,
                0xf,
                false,
            )?;
            return Ok(d);
        }
        self.dpp(
            Opcode::VMovB32,
            Format::Vop1Dpp,
            &[Arg::Temp(d)],
            &[Arg::Temp(acc)],
            ctrl::ROW_SHR0 + 1,
            0xf,
            false,
        )?;
        let lanes = self.t().wave.lanes();
        for row in 1..lanes / 16 {
            let s = self.readlane(acc, row * 16 - 1)?;
            self.hw(
                Opcode::VWritelaneB32,
                &[Arg::Temp(d)],
                &[Arg::Temp(s), Arg::Const(row * 16)],
            )?;
        }
        Ok(d)
    }

    /// reduce / inclusive_scan / exclusive_scan.
    pub(super) fn subgroup_collective(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let lanes = self.t().wave.lanes();
        let rop = ReduceOp::ALL
            .get(idx.first().copied().unwrap_or(u32::MAX) as usize)
            .copied()
            .ok_or_else(|| Error::unsupported(at, "reduction operation index"))?;
        let what = match op {
            Intrinsic::Reduce => {
                let c = idx.get(1).copied().unwrap_or(0);
                What::Reduce(if c == 0 || c > lanes { lanes } else { c })
            }
            Intrinsic::InclusiveScan => What::Inclusive,
            _ => What::Exclusive,
        };
        let ty = self.f.ty(srcs[0]);
        if ty.bits == 1 && what == What::Reduce(lanes) && ty.comps == 1 {
            return Ok(smallvec::smallvec![self.bool_reduce(rop, srcs[0], at)?]);
        }
        if ty.bits != 32 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit subgroup {}", ty.bits, op.name()),
            ));
        }
        let divergent_out = self.div.is_divergent(i);
        let mut out = SmallVec::new();
        for c in 0..ty.comps as usize {
            let x = self.arg(srcs[0], c)?;
            let uniform_x = !matches!(x, Arg::Temp(t) if !self.p.rc(t).is_sgpr());
            let clustered = matches!(what, What::Reduce(n) if n < lanes);
            if uniform_x && !clustered {
                if let Some(r) = self.uniform_collective(what, rop, x)? {
                    out.push(self.finish(r, divergent_out)?);
                    continue;
                }
            }
            let (identity, _) = info(rop);
            let save = self.wwm_begin()?;
            let mut acc = self.wwm_value(save, x, identity)?;
            let r = match what {
                What::Reduce(n) => {
                    let lane = self.reduce_steps(rop, acc, n)?;
                    if n == lanes {
                        Some(self.readlane(acc, lane)?)
                    } else {
                        None
                    }
                }
                What::Inclusive | What::Exclusive => {
                    if what == What::Exclusive {
                        acc = self.shift_up_one(acc, identity)?;
                    }
                    self.scan_steps(rop, acc)?;
                    None
                }
            };
            self.set_exec(Arg::Temp(save))?;
            let r = match r {
                Some(s) => Arg::Temp(s),
                None => {
                    let d = self.tmp(RegClass::V1);
                    self.valu(Opcode::VMovB32, &[Arg::Temp(d)], vec![Arg::Temp(acc)])?;
                    Arg::Temp(d)
                }
            };
            out.push(self.finish(r, divergent_out)?);
        }
        Ok(out)
    }

    /// Whole-wave logical and / or / xor of a boolean: on the lane mask, as a uniform bool.
    fn bool_reduce(&mut self, rop: ReduceOp, v: Value, at: Option<u32>) -> Result<MV, Error> {
        let m = self.mask(v, 0)?;
        match rop {
            ReduceOp::Iand => self.vote_all_mask(m),
            ReduceOp::Ior | ReduceOp::Ixor => {
                let t = self.tmp(self.mask_rc());
                let exec = self.p.exec();
                self.hw_lane(Opcode::SAndB32, &[Arg::Temp(t)], &[m, exec])?;
                if rop == ReduceOp::Ior {
                    return self.mask_test(Arg::Temp(t), false);
                }
                let n = self.tmp(RegClass::S1);
                self.hw_lane(Opcode::SBcnt1I32B32, &[Arg::Temp(n)], &[Arg::Temp(t)])?;
                let d = self.tmp(RegClass::S1);
                self.salu(
                    Opcode::SAndB32,
                    &[Arg::Temp(d)],
                    vec![Arg::Temp(n), Arg::Const(1)],
                )?;
                Ok(MV::T(d, Kind::UBool))
            }
            _ => Err(Error::unsupported(
                at,
                format!("boolean subgroup reduce {}", rop.name()),
            )),
        }
    }

    /// The result in the file its uniformity asks for.
    fn finish(&mut self, r: Arg, divergent: bool) -> Result<MV, Error> {
        let t = if divergent {
            self.to_vgpr(r)?
        } else {
            self.to_sgpr(r)?
        };
        Ok(MV::T(t, Kind::Plain))
    }
}
