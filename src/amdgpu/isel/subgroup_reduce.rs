//! Subgroup reductions and inclusive / exclusive scans over 8-, 16-, 32- and 64-bit values
//! (integer, f16, f32, f64), in the way ACO's `aco_lower_to_hw_instr` builds them.
//!
//! Value widths: a 32-bit value combines with one VALU instruction per step ([`Comb::Dword`]).
//! An 8/16-bit integer runs as 32-bit (a narrow value's upper bits are undefined,
//! `alu16.rs`): min/max first sign- or zero-extend it, and add/mul/and/or/xor only need its
//! low bits, which the 32-bit operation gets right. f16 combines with the native 16-bit VALU
//! operations (`v_add_f16` ...) and f16 identities. A 64-bit value is a pair of dwords: the
//! lane movement below runs per dword, and each step moves the other lane's pair into
//! temps holding the identity, then combines the pairs with the 64-bit sequence
//! ([`Comb::Qword`]: `v_add_co`/`v_addc_co`, the 64-bit multiply, `v_cmp_*_64` + two
//! `v_cndmask`, `v_{add,mul,min,max}_f64`); 64-bit and/or/xor run as two dword reductions.
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

/// Identity element and VALU opcode of a reduction operation on 32-bit values.
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

/// Identity element (−0, 1, +inf, −inf as f16) and VALU opcode of an f16 reduction.
fn info_f16(op: ReduceOp) -> Option<(u32, Opcode)> {
    use ReduceOp::*;
    Some(match op {
        Fadd => (0x8000, Opcode::VAddF16),
        Fmul => (0x3c00, Opcode::VMulF16),
        Fmin => (0x7c00, Opcode::VMinF16),
        Fmax => (0xfc00, Opcode::VMaxF16),
        _ => return None,
    })
}

/// Identity element of a reduction operation on 64-bit values.
fn identity64(op: ReduceOp) -> u64 {
    use ReduceOp::*;
    match op {
        Iadd | Ior | Ixor | Umax => 0,
        Imul => 1,
        Fadd => 0x8000_0000_0000_0000,
        Fmul => 0x3ff0_0000_0000_0000,
        Imin => i64::MAX as u64,
        Umin | Iand => u64::MAX,
        Fmin => 0x7ff0_0000_0000_0000,
        Imax => i64::MIN as u64,
        Fmax => 0xfff0_0000_0000_0000,
    }
}

/// How two lanes' values combine.
#[derive(Clone, Copy)]
enum Comb {
    /// One dword: `acc = op(other, acc)`, `identity` in lanes that hold no value.
    Dword { identity: u32, op: Opcode },
    /// A 64-bit value (a pair of dwords, low first) under this operation.
    Qword(ReduceOp),
}

impl Comb {
    /// The identity's dword `k` (0 for a dword combination's only one).
    fn identity(self, k: usize) -> u32 {
        match self {
            Comb::Dword { identity, .. } => identity,
            Comb::Qword(op) => (identity64(op) >> (32 * k)) as u32,
        }
    }
}

/// A lane value being reduced: its dwords (one, or two for a 64-bit value).
type Acc = SmallVec<[Temp; 2]>;

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
        c: Comb,
        acc: &mut Acc,
        src: &[Temp],
        dpp_ctrl: u16,
        row_mask: u8,
    ) -> Result<(), Error> {
        let Comb::Dword { identity, op } = c else {
            // the other lane's pair (the identity where the control selects no lane)
            let mut t = Vec::new();
            for (k, &s) in src.iter().enumerate() {
                t.push(Arg::Temp(self.dpp_into_identity(
                    s,
                    c.identity(k),
                    dpp_ctrl,
                    row_mask,
                )?));
            }
            return self.combine(c, acc, &t);
        };
        let o = self.op(op)?;
        if tables::form(self.t().gen, o, Format::Vop2Dpp).is_some() {
            return self.dpp(
                op,
                Format::Vop2Dpp,
                &[Arg::Temp(acc[0])],
                &[Arg::Temp(src[0]), Arg::Temp(acc[0])],
                dpp_ctrl,
                row_mask,
                false,
            );
        }
        let t = self.dpp_into_identity(src[0], identity, dpp_ctrl, row_mask)?;
        self.valu(
            op,
            &[Arg::Temp(acc[0])],
            vec![Arg::Temp(t), Arg::Temp(acc[0])],
        )
    }

    /// A temp holding `identity`, then `src` moved in by DPP where the control selects a
    /// lane (and the row mask the row).
    fn dpp_into_identity(
        &mut self,
        src: Temp,
        identity: u32,
        dpp_ctrl: u16,
        row_mask: u8,
    ) -> Result<Temp, Error> {
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
        Ok(t)
    }

    /// `acc = op(other, acc)` in every lane (`other`: one operand per dword of `acc`).
    fn combine(&mut self, c: Comb, acc: &mut Acc, other: &[Arg]) -> Result<(), Error> {
        let rop = match c {
            Comb::Dword { op, .. } => {
                return self.valu(op, &[Arg::Temp(acc[0])], vec![other[0], Arg::Temp(acc[0])]);
            }
            Comb::Qword(rop) => rop,
        };
        use ReduceOp::*;
        let (x, y) = ((other[0], other[1]), (Arg::Temp(acc[0]), Arg::Temp(acc[1])));
        let (lo, hi) = match rop {
            Iadd => {
                let (lo, hi) = (self.tmp(RegClass::V1), self.tmp(RegClass::V1));
                let (carry, c2) = (self.tmp(self.mask_rc()), self.tmp(self.mask_rc()));
                let (xl, xh) = (self.to_vgpr(x.0)?, self.to_vgpr(x.1)?);
                self.valu(
                    Opcode::VAddCoU32,
                    &[Arg::Temp(lo), Arg::Temp(carry)],
                    vec![y.0, Arg::Temp(xl)],
                )?;
                self.valu(
                    Opcode::VAddcCoU32,
                    &[Arg::Temp(hi), Arg::Temp(c2)],
                    vec![y.1, Arg::Temp(xh), Arg::Temp(carry)],
                )?;
                (Arg::Temp(lo), Arg::Temp(hi))
            }
            Imul => self.mul64_halves(x, y, true)?,
            Iand | Ior | Ixor => {
                let (_, op) = info(rop);
                let (lo, hi) = (self.tmp(RegClass::V1), self.tmp(RegClass::V1));
                self.valu(op, &[Arg::Temp(lo)], vec![x.0, y.0])?;
                self.valu(op, &[Arg::Temp(hi)], vec![x.1, y.1])?;
                (Arg::Temp(lo), Arg::Temp(hi))
            }
            _ => {
                let xv = Arg::Temp(self.join64(x.0, x.1, true)?);
                let yv = Arg::Temp(self.join64(y.0, y.1, true)?);
                let cmp = match rop {
                    Imin => Some(Opcode::VCmpLtI64),
                    Imax => Some(Opcode::VCmpGtI64),
                    Umin => Some(Opcode::VCmpLtU64),
                    Umax => Some(Opcode::VCmpGtU64),
                    _ => None,
                };
                let d = match (cmp, rop) {
                    (Some(n), _) => {
                        let m = self.cmp64(n, xv, yv)?;
                        self.select64(Arg::Temp(m), xv, yv)?
                    }
                    (None, Fadd) => self.v64(Opcode::VAddF64, &[xv, yv])?,
                    (None, Fmul) => self.v64(Opcode::VMulF64, &[xv, yv])?,
                    (None, Fmin) => self.v64(Opcode::VMinF64, &[xv, yv])?,
                    (None, _) => self.v64(Opcode::VMaxF64, &[xv, yv])?,
                };
                let p = self.split(d, 2)?;
                (Arg::Temp(p[0]), Arg::Temp(p[1]))
            }
        };
        *acc = smallvec::smallvec![self.to_vgpr(lo)?, self.to_vgpr(hi)?];
        Ok(())
    }

    /// `f` applied to every dword of `acc` (a lane movement), as combine operands.
    fn per_dword(
        &mut self,
        acc: &Acc,
        mut f: impl FnMut(&mut Self, Temp) -> Result<Temp, Error>,
    ) -> Result<Vec<Arg>, Error> {
        let mut out = Vec::new();
        for &t in acc.iter() {
            out.push(Arg::Temp(f(self, t)?));
        }
        Ok(out)
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
    fn reduce_steps(&mut self, c: Comb, acc: &mut Acc, cluster: u32) -> Result<u32, Error> {
        use ctrl::*;
        let gen = self.t().gen;
        let lanes = self.t().wave.lanes();
        let steps = [
            (2, QUAD_1032),
            (4, QUAD_2301),
            (8, ROW_HALF_MIRROR),
            (16, ROW_MIRROR),
        ];
        for (size, k) in steps {
            if cluster >= size {
                let src = acc.clone();
                self.dpp_step(c, acc, &src, k, 0xf)?;
            }
        }
        if cluster <= 16 {
            return Ok(0);
        }
        if gen == Gen::Gfx9 {
            if cluster == 64 {
                let src = acc.clone();
                self.dpp_step(c, acc, &src, ROW_BCAST15, 0xa)?;
                let src = acc.clone();
                self.dpp_step(c, acc, &src, ROW_BCAST31, 0xc)?;
                return Ok(63);
            }
            // cluster of 32 on GFX9: combine with the other row through ds_bpermute
            let lane = self.lane_id()?;
            let t = self.per_dword(acc, |s, v| s.xor_lanes(v, lane, 16))?;
            self.combine(c, acc, &t)?;
            return Ok(0);
        }
        let t = self.per_dword(acc, |s, v| s.permlanex16(v, 0))?;
        self.combine(c, acc, &t)?;
        if cluster == 64 && lanes == 64 {
            let t = if gen == Gen::Gfx11 {
                self.per_dword(acc, |s, v| {
                    let t = s.tmp(RegClass::V1);
                    s.hw(Opcode::VPermlane64B32, &[Arg::Temp(t)], &[Arg::Temp(v)])?;
                    Ok(t)
                })?
            } else {
                self.per_dword(acc, |s, v| s.readlane(v, 63))?
            };
            self.combine(c, acc, &t)?;
        }
        Ok(0)
    }

    /// `v_permlanex16_b32` of `v` with both lane selects `sel` (every nibble the same).
    fn permlanex16(&mut self, v: Temp, sel: u32) -> Result<Temp, Error> {
        let t = self.tmp(RegClass::V1);
        self.hw(
            Opcode::VPermlanex16B32,
            &[Arg::Temp(t)],
            &[Arg::Temp(v), Arg::Const(sel), Arg::Const(sel)],
        )?;
        Ok(t)
    }

    /// Inclusive scan steps on `acc` (exec = all lanes).
    fn scan_steps(&mut self, c: Comb, acc: &mut Acc) -> Result<(), Error> {
        use ctrl::*;
        for n in [1u16, 2, 4, 8] {
            let src = acc.clone();
            self.dpp_step(c, acc, &src, ROW_SHR0 + n, 0xf)?;
        }
        if self.t().gen == Gen::Gfx9 {
            let src = acc.clone();
            self.dpp_step(c, acc, &src, ROW_BCAST15, 0xa)?;
            let src = acc.clone();
            self.dpp_step(c, acc, &src, ROW_BCAST31, 0xc)?;
            return Ok(());
        }
        let t = self.per_dword(acc, |s, v| s.permlanex16(v, u32::MAX))?;
        let t: Vec<Temp> = t.iter().filter_map(|a| a.temp()).collect();
        self.dpp_step(c, acc, &t, QUAD_ID, 0xa)?;
        if self.p.wave64() {
            let t = self.per_dword(acc, |s, v| {
                let l = s.readlane(v, 31)?;
                let t = s.tmp(RegClass::V1);
                s.valu(Opcode::VMovB32, &[Arg::Temp(t)], vec![Arg::Temp(l)])?;
                Ok(t)
            })?;
            let t: Vec<Temp> = t.iter().filter_map(|a| a.temp()).collect();
            self.dpp_step(c, acc, &t, QUAD_ID, 0xc)?;
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
        use ReduceOp::*;
        let float = matches!(rop, Fadd | Fmul | Fmin | Fmax);
        let comb = match ty.bits {
            32 => {
                let (identity, op) = info(rop);
                Comb::Dword { identity, op }
            }
            16 if float => {
                let (identity, op) = info_f16(rop).expect("a float operation");
                Comb::Dword { identity, op }
            }
            8 | 16 if !float => {
                // the narrow identity, extended as the operands are (an exclusive scan
                // hands it to lane 0)
                let (identity, op) = info(rop);
                let top = 1u32 << (ty.bits - 1);
                let identity = match rop {
                    Imin => top - 1,
                    Imax => !(top - 1),
                    Umin => (top << 1) - 1,
                    _ => identity,
                };
                Comb::Dword { identity, op }
            }
            // 64-bit bitwise operations are two independent dword reductions
            64 if matches!(rop, Iand | Ior | Ixor) => {
                let (identity, op) = info(rop);
                Comb::Dword { identity, op }
            }
            64 => Comb::Qword(rop),
            b => {
                return Err(Error::unsupported(
                    at,
                    format!("{b}-bit subgroup {} {}", rop.name(), op.name()),
                ))
            }
        };
        // narrow integers whose comparison looks at the whole value are extended first
        let extend = match rop {
            Imin | Imax if ty.bits < 32 => Some(true),
            Umin | Umax if ty.bits < 32 => Some(false),
            _ => None,
        };
        let divergent_out = self.div.is_divergent(i);
        let mut out = SmallVec::new();
        for k in 0..ty.comps as usize {
            let mut x = self.arg(srcs[0], k)?;
            if let Some(signed) = extend {
                x = self.narrow_ext(x, ty.bits, signed)?;
            }
            if ty.bits == 64 {
                let (lo, hi) = self.halves_of(x)?;
                let r = match comb {
                    Comb::Dword { .. } => {
                        let lo = self.collective_one(what, rop, comb, &[lo])?;
                        let hi = self.collective_one(what, rop, comb, &[hi])?;
                        [lo[0], hi[0]]
                    }
                    Comb::Qword(_) => {
                        let r = self.collective_one(what, rop, comb, &[lo, hi])?;
                        [r[0], r[1]]
                    }
                };
                let d = self.join64(r[0], r[1], divergent_out)?;
                out.push(MV::T(d, Kind::Plain));
            } else {
                let r = self.collective_one(what, rop, comb, &[x])?;
                out.push(self.finish(r[0], divergent_out)?);
            }
        }
        Ok(out)
    }

    /// The (low, high) dwords of a 64-bit operand.
    fn halves_of(&mut self, x: Arg) -> Result<(Arg, Arg), Error> {
        match x {
            Arg::Temp(t) => self.halves64(MV::T(t, Kind::Plain)),
            Arg::Const(k) => Ok((Arg::Const(k), Arg::Const(0))),
            _ => Err(Error::unsupported(None, "64-bit subgroup operand")),
        }
    }

    /// One reduction / scan of a value given as its dwords (`x`: one, or two for
    /// `Comb::Qword`); returns the result's dwords (SGPRs for a full reduction).
    fn collective_one(
        &mut self,
        what: What,
        rop: ReduceOp,
        c: Comb,
        x: &[Arg],
    ) -> Result<SmallVec<[Arg; 2]>, Error> {
        let lanes = self.t().wave.lanes();
        let uniform_x = x
            .iter()
            .all(|a| !matches!(a, Arg::Temp(t) if !self.p.rc(*t).is_sgpr()));
        let clustered = matches!(what, What::Reduce(n) if n < lanes);
        if uniform_x && !clustered {
            match c {
                Comb::Dword { .. } => {
                    if let Some(r) = self.uniform_collective(what, rop, x[0])? {
                        return Ok(smallvec::smallvec![r]);
                    }
                }
                Comb::Qword(_) => {
                    use ReduceOp::*;
                    let idem = matches!(rop, Imin | Imax | Umin | Umax | Fmin | Fmax);
                    if idem && what != What::Exclusive {
                        return Ok(x.iter().copied().collect());
                    }
                }
            }
        }
        let save = self.wwm_begin()?;
        let mut acc: Acc = SmallVec::new();
        for (k, &d) in x.iter().enumerate() {
            acc.push(self.wwm_value(save, d, c.identity(k))?);
        }
        let r = match what {
            What::Reduce(n) => {
                let lane = self.reduce_steps(c, &mut acc, n)?;
                if n == lanes {
                    let mut r: SmallVec<[Temp; 2]> = SmallVec::new();
                    for &t in acc.iter() {
                        r.push(self.readlane(t, lane)?);
                    }
                    Some(r)
                } else {
                    None
                }
            }
            What::Inclusive | What::Exclusive => {
                if what == What::Exclusive {
                    for k in 0..acc.len() {
                        acc[k] = self.shift_up_one(acc[k], c.identity(k))?;
                    }
                }
                self.scan_steps(c, &mut acc)?;
                None
            }
        };
        self.set_exec(Arg::Temp(save))?;
        Ok(match r {
            Some(s) => s.into_iter().map(Arg::Temp).collect(),
            None => {
                let mut out = SmallVec::new();
                for &t in acc.iter() {
                    let d = self.tmp(RegClass::V1);
                    self.valu(Opcode::VMovB32, &[Arg::Temp(d)], vec![Arg::Temp(t)])?;
                    out.push(Arg::Temp(d));
                }
                out
            }
        })
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
