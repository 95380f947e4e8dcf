//! Vector ALU: VOP1, VOP2, VOPC, VOP3 (a and b), VOP3P.
//!
//! Sources are gathered in table order from the `Src0`, `Vsrc1`/`Src1`, `Src2` and `K`
//! fields; source i takes modifier bit i (abs, neg, op_sel). Each operation states the
//! type of its sources (`Ty`), which decides how inline constants and literals are formed
//! (f16 / f32 / f64 patterns, a 64-bit float literal is the high dword), whether abs/neg
//! apply, and denormal flushing per MODE.FP_DENORM (bit 0 of the 2-bit field allows
//! denormal inputs, bit 1 outputs; [5:4] f32, [7:6] f64 and f16). Float results then get
//! omod (×2, ×4, ÷2) and clamp to [0, 1] (NaN clamps to 0). MODE.FP_ROUND: f32
//! add/sub/mul honour all four directions (exact error terms, `float::add_rm/mul_rm`);
//! any other float operation under a mode other than nearest-even is an `Unsupported`
//! error rather than a silently wrong rounding.
//!
//! 16-bit results: GFX9 zeroes the high half of the destination, GFX10+ keep it (VOP3
//! op_sel bit 3 writes the high half instead). Compares write 0 for inactive lanes;
//! `v_cmpx` writes EXEC (and on GFX9 also its VCC/SGPR destination).
//!
//! Every VGPR source lane read under EXEC is checked for having been written.

use crate::error::{Error, Result};
use crate::float::*;
use crate::wave::{inline_value, literal_value, Env, Wave};
use gcnc::isa::tables::Implicit;
use gcnc::isa::{EncDesc, Field, Format, Gen, Inst, Opcode as O, Operand};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    F16,
    F32,
    F64,
    /// 16-bit integer.
    I16,
    B32,
    B64,
}

impl Ty {
    fn dwords(self) -> u8 {
        match self {
            Ty::F64 | Ty::B64 => 2,
            _ => 1,
        }
    }
    fn half(self) -> bool {
        matches!(self, Ty::F16 | Ty::I16)
    }
    fn float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Src {
    Uniform(u64),
    Vgpr(u16, u8),
}

pub(crate) struct Lanes<'a> {
    pub(crate) w: &'a Wave,
    pub(crate) srcs: Vec<(Src, Ty)>,
    inst: &'a Inst,
    /// Lanes that execute and write: EXEC, narrowed by the DPP row/bank masks and, without
    /// bound_ctrl, by invalid DPP source lanes.
    pub(crate) live: u64,
    /// DPP: the lane src0 is read from in each lane (None: reads 0).
    dpp: Option<Vec<Option<u32>>>,
}

impl<'a> Lanes<'a> {
    pub(crate) fn new(
        w: &'a Wave,
        srcs: Vec<(Src, Ty)>,
        inst: &'a Inst,
        uninit: bool,
    ) -> Result<Lanes<'a>> {
        let exec = w.regs.exec();
        let mut l = Lanes {
            w,
            srcs,
            inst,
            live: exec,
            dpp: None,
        };
        if inst.format.is_dpp16() || inst.format.is_dpp8() {
            let (map, live) = crate::lanes::dpp_map(w.t.gen, inst, exec, w.lanes());
            l.live = live;
            if let Some((Src::Vgpr(n, c), _)) = l.srcs.first().copied() {
                if uninit {
                    let mut read = 0u64;
                    for (lane, s) in map.iter().enumerate() {
                        if live >> lane & 1 == 1 {
                            if let Some(s) = s {
                                read |= 1 << s;
                            }
                        }
                    }
                    for k in 0..c as u16 {
                        w.regs.check_v(n + k, read)?;
                    }
                }
            }
            l.dpp = Some(map);
        }
        Ok(l)
    }

    /// Source i in `lane` with its modifiers applied (raw bits of its type).
    pub(crate) fn get(&self, i: usize, lane: u32) -> u64 {
        let (s, ty) = self.srcs[i];
        let mut v = match s {
            Src::Uniform(v) => v,
            Src::Vgpr(n, c) => {
                let from = match (&self.dpp, i) {
                    (Some(map), 0) => match map[lane as usize] {
                        Some(f) => f,
                        None => return 0,
                    },
                    _ => lane,
                };
                let lo = self.w.regs.v(n, from) as u64;
                if c == 2 {
                    lo | (self.w.regs.v(n + 1, from) as u64) << 32
                } else {
                    lo
                }
            }
        };
        let m = &self.inst.mods;
        if self.inst.format.is_sdwa() && i < 2 {
            let sel = if i == 0 {
                m.sdwa.src0_sel
            } else {
                m.sdwa.src1_sel
            };
            v = crate::lanes::sdwa_select(v as u32, sel, m.sdwa.sext >> i & 1 == 1) as u64;
        }
        if ty.half() && self.inst.format.is_vop3() {
            if m.op_sel >> i & 1 == 1 {
                v >>= 16;
            }
            v &= 0xffff;
        } else if ty.half() {
            v &= 0xffff;
        }
        if ty.float() && self.inst.format != Format::Vop3p {
            let sign = match ty {
                Ty::F16 => 1u64 << 15,
                Ty::F32 => 1 << 31,
                _ => 1 << 63,
            };
            if m.abs >> i & 1 == 1 {
                v &= !sign;
            }
            if m.neg >> i & 1 == 1 {
                v ^= sign;
            }
        }
        v
    }
}

pub(crate) fn mode_round_ok(w: &Wave, ty: Ty) -> Result<()> {
    let r = match ty {
        Ty::F32 => w.mode & 3,
        Ty::F64 | Ty::F16 => (w.mode >> 2) & 3,
        _ => 0,
    };
    if r != 0 {
        return Err(Error::unsupported(format!(
            "MODE.FP_ROUND {:#x} (only round-to-nearest-even is modelled)",
            w.mode & 0xf
        )));
    }
    Ok(())
}

/// Float operations whose result MODE.FP_ROUND does not affect: exact ones (min/max,
/// floor/ceil/trunc/rndne/fract, frexp mantissa, widening and byte conversions) and AMD's
/// approximations (rcp, rsq, exp, log, sin, cos, f64/f16 sqrt), whose documented error
/// bound is stated without reference to a rounding direction. Every other float result
/// either implements the directions (`run_rm` callers) or is `Unsupported` under a
/// non-default direction.
pub(crate) fn round_exempt(op: O) -> bool {
    matches!(
        op,
        O::VMinF32
            | O::VMaxF32
            | O::VMin3F32
            | O::VMax3F32
            | O::VMed3F32
            | O::VMinF64
            | O::VMaxF64
            | O::VMinF16
            | O::VMaxF16
            | O::VMin3F16
            | O::VMax3F16
            | O::VMed3F16
            | O::VFloorF32
            | O::VCeilF32
            | O::VTruncF32
            | O::VRndneF32
            | O::VFractF32
            | O::VFloorF64
            | O::VCeilF64
            | O::VTruncF64
            | O::VRndneF64
            | O::VFractF64
            | O::VFloorF16
            | O::VCeilF16
            | O::VTruncF16
            | O::VRndneF16
            | O::VFractF16
            | O::VFrexpMantF32
            | O::VFrexpMantF64
            | O::VFrexpMantF16
            | O::VExpF32
            | O::VLogF32
            | O::VRcpF32
            | O::VRcpIflagF32
            | O::VRsqF32
            | O::VSinF32
            | O::VCosF32
            | O::VRcpF64
            | O::VRsqF64
            | O::VSqrtF64
            | O::VRcpF16
            | O::VRsqF16
            | O::VSqrtF16
            | O::VExpF16
            | O::VLogF16
            | O::VCvtF64F32
            | O::VCvtF32F16
            | O::VCvtF64I32
            | O::VCvtF64U32
            | O::VCvtF32Ubyte0
            | O::VCvtF32Ubyte1
            | O::VCvtF32Ubyte2
            | O::VCvtF32Ubyte3
    )
}

pub(crate) fn denorm_in(w: &Wave, ty: Ty) -> bool {
    match ty {
        Ty::F32 => w.mode >> 4 & 1 == 1,
        _ => w.mode >> 6 & 1 == 1,
    }
}
pub(crate) fn denorm_out(w: &Wave, ty: Ty) -> bool {
    match ty {
        Ty::F32 => w.mode >> 5 & 1 == 1,
        _ => w.mode >> 7 & 1 == 1,
    }
}

/// Flushes a denormal of type `ty` (raw bits) to a signed zero.
pub(crate) fn flush_bits(v: u64, ty: Ty) -> u64 {
    match ty {
        Ty::F32 => flush32(f32::from_bits(v as u32)).to_bits() as u64,
        Ty::F64 => flush64(f64::from_bits(v)).to_bits(),
        Ty::F16 => flush16(v as u16) as u64,
        _ => v,
    }
}

/// The explicit sources of `inst`, in table order: (operand, index among sources).
pub(crate) fn sources<'a>(inst: &'a Inst, d: &EncDesc) -> Vec<&'a Operand> {
    d.explicit()
        .zip(inst.operands.iter())
        .filter(|(od, _)| {
            matches!(
                od.field,
                Field::Src0 | Field::Vsrc1 | Field::Src1 | Field::Src2 | Field::K
            ) && od.size != 0
        })
        .map(|(_, o)| o)
        .collect()
}

/// Source `i` of an instruction's source list, or an error when the form has fewer.
pub(crate) fn nth<'a>(so: &[&'a Operand], i: usize) -> Result<&'a Operand> {
    so.get(i)
        .copied()
        .ok_or_else(|| Error::unsupported(format!("source {i} missing in this encoding")))
}

/// Whether `load` checks source `i` for unwritten lanes: a DPP source 0 reads other lanes,
/// so `Lanes::new` checks exactly the lanes it reads instead.
pub(crate) fn chk(inst: &Inst, i: usize, uninit: bool) -> bool {
    uninit && !(i == 0 && (inst.format.is_dpp16() || inst.format.is_dpp8()))
}

pub(crate) fn load(w: &Wave, o: &Operand, ty: Ty, exec: u64, uninit: bool) -> Result<Src> {
    let dw = ty.dwords();
    match *o {
        Operand::Reg(r) if r.base.is_vgpr() => {
            let n = r.base.0 - 256;
            if uninit {
                for k in 0..dw as u16 {
                    w.regs.check_v(n + k, exec)?;
                }
            }
            Ok(Src::Vgpr(n, dw))
        }
        Operand::Inline(c) => Ok(Src::Uniform(inline_value(c, dw, ty.float(), ty.half()))),
        Operand::Literal(v) => Ok(Src::Uniform(literal_value(v, dw, ty == Ty::F64, false))),
        _ => Ok(Src::Uniform(w.s_read(o, dw, ty == Ty::F64, false)?)),
    }
}

/// Writes a VALU result to the explicit Vdst of `inst` in `lane`.
pub(crate) fn write_vdst(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    lane: u32,
    v: u64,
    ty: Ty,
) -> Result<()> {
    let Some(Operand::Reg(r)) = inst.get(d, Field::Vdst) else {
        return Err(Error::unsupported("VALU without a VGPR destination"));
    };
    let r = *r;
    if !r.base.is_vgpr() {
        return Err(Error::unsupported(
            "scalar destination in a vector operation",
        ));
    }
    let n = r.base.0 - 256;
    if inst.format.is_sdwa() {
        let old = w.regs.v(n, lane);
        let sd = &inst.mods.sdwa;
        let nv = crate::lanes::sdwa_dst(old, v as u32, sd.dst_sel, sd.dst_unused);
        return w.regs.set_v(n, lane, nv);
    }
    match ty {
        Ty::F64 | Ty::B64 => {
            w.regs.set_v(n, lane, v as u32)?;
            w.regs.set_v(n + 1, lane, (v >> 32) as u32)?;
        }
        Ty::F16 | Ty::I16 => {
            let hi = inst.format.is_vop3() && inst.mods.op_sel >> 3 & 1 == 1;
            let old = w.regs.v(n, lane);
            let h = v as u32 & 0xffff;
            let nv = if w.t.gen == Gen::Gfx9 && !hi {
                h
            } else if hi {
                (old & 0xffff) | h << 16
            } else {
                (old & 0xffff_0000) | h
            };
            w.regs.set_v(n, lane, nv)?;
        }
        _ => w.regs.set_v(n, lane, v as u32)?,
    }
    Ok(())
}

/// Output modifiers for a float result.
pub(crate) fn omod_clamp(inst: &Inst, v: u64, ty: Ty) -> u64 {
    let m = &inst.mods;
    if m.omod == 0 && !m.clamp {
        return v;
    }
    let mut x = match ty {
        Ty::F32 => f32::from_bits(v as u32) as f64,
        Ty::F64 => f64::from_bits(v),
        _ => f16_to_f64(v as u16),
    };
    x *= match m.omod {
        1 => 2.0,
        2 => 4.0,
        3 => 0.5,
        _ => 1.0,
    };
    if m.clamp {
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    match ty {
        Ty::F32 => (x as f32).to_bits() as u64,
        Ty::F64 => x.to_bits(),
        _ => f64_to_f16(x) as u64,
    }
}

/// Runs a lane-wise operation: sources typed `tys` (extra entries for the accumulating
/// destination of mac/fmac when `acc`), result typed `out`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    tys: &[Ty],
    out: Ty,
    acc: bool,
    f: impl Fn(&[u64]) -> u64,
) -> Result<()> {
    let exec = w.regs.exec();
    let srcs_o = sources(inst, d);
    let uninit = env.checks.uninit;
    let mut srcs = Vec::with_capacity(4);
    for (i, o) in srcs_o.iter().enumerate() {
        let ty = *tys.get(i).unwrap_or(&Ty::B32);
        srcs.push((load(w, o, ty, exec, chk(inst, i, uninit))?, ty));
    }
    if acc {
        let dst = inst
            .get(d, Field::Vdst)
            .copied()
            .ok_or_else(|| Error::unsupported("mac without destination"))?;
        srcs.push((load(w, &dst, out, exec, uninit)?, out));
    }
    if out.float() && !round_exempt(inst.op) {
        mode_round_ok(w, out)?;
    }
    let dout = denorm_out(w, out);
    let mut results = Vec::new();
    {
        let l = Lanes::new(w, srcs, inst, env.checks.uninit)?;
        let mut vals = [0u64; 4];
        for lane in 0..w.lanes() {
            if l.live >> lane & 1 == 0 {
                continue;
            }
            for (i, v) in vals.iter_mut().enumerate().take(l.srcs.len()) {
                let mut x = l.get(i, lane);
                let ty = l.srcs[i].1;
                if ty.float() && !denorm_in(w, ty) {
                    x = flush_bits(x, ty);
                }
                *v = x;
            }
            let mut r = f(&vals);
            if out.float() {
                r = omod_clamp(inst, r, out);
                if !dout {
                    r = flush_bits(r, out);
                }
            }
            results.push((lane, r));
        }
    }
    for (lane, r) in results {
        write_vdst(w, inst, d, lane, r, out)?;
    }
    Ok(())
}

/// v_cndmask: each active lane takes source 1 where the mask bit is set and source 0
/// elsewhere, sources typed `ty`, result written as `out`. The select only reads the source
/// each lane picks; `lanes_uninit` is the uninitialised-lane check of the lane view.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cndmask(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    ty: Ty,
    lanes_uninit: bool,
    out: Ty,
) -> Result<()> {
    let m = mask_in(w, inst, d)?;
    let exec = w.regs.exec();
    let so = sources(inst, d);
    let s0 = load(
        w,
        nth(&so, 0)?,
        ty,
        exec & !m,
        chk(inst, 0, env.checks.uninit),
    )?;
    let s1 = load(w, nth(&so, 1)?, ty, exec & m, env.checks.uninit)?;
    let mut res = Vec::new();
    {
        let l = Lanes::new(w, vec![(s0, ty), (s1, ty)], inst, lanes_uninit)?;
        for lane in 0..w.lanes() {
            if l.live >> lane & 1 == 1 {
                res.push((
                    lane,
                    if m >> lane & 1 == 1 {
                        l.get(1, lane)
                    } else {
                        l.get(0, lane)
                    },
                ));
            }
        }
    }
    for (lane, r) in res {
        write_vdst(w, inst, d, lane, r, out)?;
    }
    Ok(())
}

/// `run_rm` for accumulating forms (v_mac/v_fmac: the destination is the third source).
fn run_rm_acc(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    tys: &[Ty],
    out: Ty,
    f: impl Fn(&[u64]) -> u64,
) -> Result<()> {
    let saved = w.mode;
    w.mode &= !0xf;
    let r = run(w, inst, d, env, tys, out, true, f);
    w.mode = saved;
    r
}

/// `run` for operations that implement every rounding mode themselves.
fn run_rm(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    tys: &[Ty],
    out: Ty,
    f: impl Fn(&[u64]) -> u64,
) -> Result<()> {
    let saved = w.mode;
    // the closure applies the direction; `run` only checks for nearest-even
    w.mode &= !0xf;
    let r = run(w, inst, d, env, tys, out, false, f);
    w.mode = saved;
    r
}

pub(crate) fn f32s(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
pub(crate) fn f64s(v: u64) -> f64 {
    f64::from_bits(v)
}
pub(crate) fn b32(x: f32) -> u64 {
    x.to_bits() as u64
}
pub(crate) fn b64(x: f64) -> u64 {
    x.to_bits()
}
pub(crate) fn h(v: u64) -> f64 {
    f16_to_f64(v as u16)
}
pub(crate) fn bh(x: f64) -> u64 {
    f64_to_f16(x) as u64
}

pub(crate) fn med3<T: PartialOrd + Copy>(a: T, b: T, c: T) -> T {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if c < lo {
        lo
    } else if c > hi {
        hi
    } else {
        c
    }
}

pub(crate) fn nan32(x: f32) -> bool {
    x.is_nan()
}
pub(crate) fn nan64(x: f64) -> bool {
    x.is_nan()
}

/// Mask source of a carry-in / select: explicit lane-mask `Src2` or the implicit VCC.
pub(crate) fn mask_in(w: &Wave, inst: &Inst, d: &EncDesc) -> Result<u64> {
    for (od, o) in d.explicit().zip(inst.operands.iter()) {
        if od.field == Field::Src2 && od.size == 0 {
            return match *o {
                Operand::Reg(r) => w.read_mask(r.base.0),
                Operand::Inline(c) => Ok(inline_value(c, 2, false, false) & w.regs.lane_mask()),
                _ => Err(Error::unsupported("lane-mask source")),
            };
        }
    }
    w.read_mask(106)
}

/// Writes a lane mask to the instruction's mask destination (explicit sdst / vdst:m, or
/// the implicit VCC of the 32-bit encodings). Returns false when it has none.
pub(crate) fn mask_out(w: &mut Wave, inst: &Inst, d: &EncDesc, v: u64) -> Result<bool> {
    if let Some(r) = inst.mods.sdwa.sdst.filter(|_| inst.format.is_sdwa()) {
        w.write_mask(r.base.0, v)?;
        return Ok(true);
    }
    for (od, o) in d.explicit().zip(inst.operands.iter()) {
        if (od.field == Field::Sdst || od.field == Field::Vdst) && od.size == 0 {
            if let Operand::Reg(r) = o {
                w.write_mask(r.base.0, v)?;
                return Ok(true);
            }
        }
    }
    let first_src = d
        .operands
        .iter()
        .position(|o| matches!(o.field, Field::Src0))
        .unwrap_or(usize::MAX);
    let has_vcc_def = d
        .operands
        .iter()
        .enumerate()
        .any(|(i, o)| o.implicit == Some(Implicit::Vcc) && i < first_src);
    if has_vcc_def {
        w.write_mask(106, v)?;
        return Ok(true);
    }
    Ok(false)
}

/// Carry-producing integer ops: `f(a, b, carry_in) -> (result, carry_out)`.
fn carry_op(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    uses_cin: bool,
    f: impl Fn(u64, u64, u64) -> (u64, bool),
) -> Result<()> {
    let exec = w.regs.exec();
    let cin = if uses_cin { mask_in(w, inst, d)? } else { 0 };
    let srcs_o = sources(inst, d);
    let s0 = load(
        w,
        nth(&srcs_o, 0)?,
        Ty::B32,
        exec,
        chk(inst, 0, env.checks.uninit),
    )?;
    let s1 = load(w, nth(&srcs_o, 1)?, Ty::B32, exec, env.checks.uninit)?;
    let mut out = 0u64;
    let mut res = Vec::new();
    {
        let l = Lanes::new(
            w,
            vec![(s0, Ty::B32), (s1, Ty::B32)],
            inst,
            env.checks.uninit,
        )?;
        for lane in 0..w.lanes() {
            if l.live >> lane & 1 == 0 {
                continue;
            }
            let (r, c) = f(l.get(0, lane), l.get(1, lane), cin >> lane & 1);
            if c {
                out |= 1 << lane;
            }
            res.push((lane, r));
        }
    }
    let clamp = inst.mods.clamp;
    for (lane, r) in res {
        let r = if clamp && out >> lane & 1 == 1 {
            // unsigned saturation on overflow
            if matches!(
                inst.op,
                O::VSubCoU32
                    | O::VSubrevCoU32
                    | O::VSubbCoU32
                    | O::VSubCoCiU32
                    | O::VSubbrevCoU32
                    | O::VSubrevCoCiU32
            ) {
                0
            } else {
                u32::MAX as u64
            }
        } else {
            r
        };
        write_vdst(w, inst, d, lane, r, Ty::B32)?;
    }
    mask_out(w, inst, d, out)?;
    Ok(())
}

fn cmp_name(name: &str) -> Option<(bool, &str, &str)> {
    let rest = name.strip_prefix("v_cmp")?;
    let (x, rest) = match rest.strip_prefix('x') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let rest = rest.strip_prefix('_')?;
    let (cond, ty) = rest.rsplit_once('_')?;
    Some((x, cond, ty))
}

#[allow(clippy::neg_cmp_op_on_partial_ord, clippy::nonminimal_bool)] // NaN-aware: !(a < b) is not a >= b
fn compare(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    x: bool,
    cond: &str,
    ty: &str,
) -> Result<()> {
    let sty = match ty {
        "f16" => Ty::F16,
        "f32" => Ty::F32,
        "f64" => Ty::F64,
        "i16" | "u16" => Ty::I16,
        "i32" | "u32" => Ty::B32,
        "i64" | "u64" => Ty::B64,
        _ => return Err(Error::unimpl(inst.op.name())),
    };
    let exec = w.regs.exec();
    let srcs_o = sources(inst, d);
    let class = cond == "class";
    let t1 = if class { Ty::B32 } else { sty };
    let s0 = load(
        w,
        nth(&srcs_o, 0)?,
        sty,
        exec,
        chk(inst, 0, env.checks.uninit),
    )?;
    let s1 = load(w, nth(&srcs_o, 1)?, t1, exec, env.checks.uninit)?;
    let mut mask = 0u64;
    {
        let l = Lanes::new(w, vec![(s0, sty), (s1, t1)], inst, env.checks.uninit)?;
        for lane in 0..w.lanes() {
            if l.live >> lane & 1 == 0 {
                continue;
            }
            let (a, b) = (l.get(0, lane), l.get(1, lane));
            let r = if class {
                let bit = match sty {
                    Ty::F16 => class_bit(a, 5, 10),
                    Ty::F32 => class_bit(a, 8, 23),
                    _ => class_bit(a, 11, 52),
                };
                b >> bit & 1 == 1
            } else if sty.float() {
                let (fa, fb) = match sty {
                    Ty::F16 => (h(a), h(b)),
                    Ty::F32 => (f32s(a) as f64, f32s(b) as f64),
                    _ => (f64s(a), f64s(b)),
                };
                let un = fa.is_nan() || fb.is_nan();
                match cond {
                    "f" => false,
                    "lt" => fa < fb,
                    "eq" => fa == fb,
                    "le" => fa <= fb,
                    "gt" => fa > fb,
                    "lg" => fa < fb || fa > fb,
                    "ge" => fa >= fb,
                    "o" => !un,
                    "u" => un,
                    "nge" => !(fa >= fb),
                    "nlg" => !(fa < fb || fa > fb),
                    "ngt" => !(fa > fb),
                    "nle" => !(fa <= fb),
                    "neq" => fa != fb,
                    "nlt" => !(fa < fb),
                    "tru" | "t" => true,
                    _ => return Err(Error::unimpl(inst.op.name())),
                }
            } else {
                let signed = ty.starts_with('i');
                let bits = match sty {
                    Ty::I16 => 16,
                    Ty::B32 => 32,
                    _ => 64,
                };
                let sx = |v: u64| -> i64 { ((v << (64 - bits)) as i64) >> (64 - bits) };
                let zx = |v: u64| -> u64 {
                    if bits == 64 {
                        v
                    } else {
                        v & ((1 << bits) - 1)
                    }
                };
                let ord = if signed {
                    sx(a).cmp(&sx(b))
                } else {
                    zx(a).cmp(&zx(b))
                };
                use std::cmp::Ordering::*;
                match cond {
                    "f" => false,
                    "lt" => ord == Less,
                    "eq" => ord == Equal,
                    "le" => ord != Greater,
                    "gt" => ord == Greater,
                    "ne" | "lg" => ord != Equal,
                    "ge" => ord != Less,
                    "t" => true,
                    _ => return Err(Error::unimpl(inst.op.name())),
                }
            };
            if r {
                mask |= 1 << lane;
            }
        }
    }
    if x {
        w.regs.set_exec(mask);
        if w.t.gen == Gen::Gfx9 {
            mask_out(w, inst, d, mask)?;
        }
    } else if !mask_out(w, inst, d, mask)? {
        return Err(Error::unsupported("compare without a destination"));
    }
    Ok(())
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    use Ty::*;
    let name = inst.op.name();
    if let Some((x, cond, ty)) = cmp_name(name) {
        return compare(w, inst, d, env, x, cond, ty);
    }
    let env: &Env = env;
    let clamp = inst.mods.clamp;
    macro_rules! f32op {
        ($n:expr, |$s:ident| $e:expr) => {
            run(w, inst, d, env, &[F32; 3][..$n], F32, false, |$s| b32($e))
        };
    }
    macro_rules! f64op {
        ($n:expr, |$s:ident| $e:expr) => {
            run(w, inst, d, env, &[F64; 3][..$n], F64, false, |$s| b64($e))
        };
    }
    macro_rules! f16op {
        ($n:expr, |$s:ident| $e:expr) => {
            run(w, inst, d, env, &[F16; 3][..$n], F16, false, |$s| bh($e))
        };
    }
    macro_rules! iop {
        ($tys:expr, $out:expr, |$s:ident| $e:expr) => {
            run(w, inst, d, env, &$tys, $out, false, |$s| $e)
        };
    }
    let a32 = |s: &[u64], i: usize| f32s(s[i]);
    let a64 = |s: &[u64], i: usize| f64s(s[i]);
    let u = |s: &[u64], i: usize| s[i] as u32;
    let i = |s: &[u64], i: usize| s[i] as u32 as i32;
    let sat_u = |v: i64| -> u64 {
        if clamp {
            v.clamp(0, u32::MAX as i64) as u64
        } else {
            v as u32 as u64
        }
    };
    let sat_i = |v: i64| -> u64 {
        if clamp {
            v.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64
        } else {
            v as i32 as u32 as u64
        }
    };
    // f32 add/sub/mul honour every MODE.FP_ROUND direction (exact error terms)
    let rm = w.mode & 3;
    // f64 and f16 share MODE.FP_ROUND[3:2]
    let rm64 = (w.mode >> 2) & 3;
    macro_rules! f32rm {
        (|$s:ident| $e:expr) => {
            run_rm(w, inst, d, env, &[F32, F32], F32, |$s| b32($e))
        };
        ($n:expr, |$s:ident| $e:expr) => {
            run_rm(w, inst, d, env, &[F32; 3][..$n], F32, |$s| b32($e))
        };
    }
    match inst.op {
        // ---------------- f32
        O::VAddF32 => f32rm!(|s| add_rm(a32(s, 0), a32(s, 1), rm)),
        O::VSubF32 => f32rm!(|s| add_rm(a32(s, 0), -a32(s, 1), rm)),
        O::VSubrevF32 => f32rm!(|s| add_rm(a32(s, 1), -a32(s, 0), rm)),
        O::VMulF32 => f32rm!(|s| mul_rm(a32(s, 0), a32(s, 1), rm)),
        O::VMulLegacyF32 | O::VMulDx9ZeroF32 => f32op!(2, |s| {
            let (x, y) = (a32(s, 0), a32(s, 1));
            if x == 0.0 || y == 0.0 {
                0.0
            } else {
                x * y
            }
        }),
        O::VFmaF32 | O::VFmamkF32 | O::VFmaakF32 => {
            f32rm!(3, |s| fma32_rm(a32(s, 0), a32(s, 1), a32(s, 2), rm))
        }
        O::VMadF32 | O::VMadmkF32 | O::VMadakF32 => {
            // unfused: the product is rounded (and flushed) before the add
            f32rm!(3, |s| add_rm(
                flush32(mul_rm(a32(s, 0), a32(s, 1), rm)),
                a32(s, 2),
                rm
            ))
        }
        O::VMacF32 => run_rm_acc(w, inst, d, env, &[F32, F32], F32, |s| {
            b32(add_rm(
                flush32(mul_rm(a32(s, 0), a32(s, 1), rm)),
                a32(s, 2),
                rm,
            ))
        }),
        O::VFmacF32 => run_rm_acc(w, inst, d, env, &[F32, F32], F32, |s| {
            b32(fma32_rm(a32(s, 0), a32(s, 1), a32(s, 2), rm))
        }),
        O::VMinF32 => f32op!(2, |s| min_num(a32(s, 0), a32(s, 1), nan32)),
        O::VMaxF32 => f32op!(2, |s| max_num(a32(s, 0), a32(s, 1), nan32)),
        O::VMin3F32 => f32op!(3, |s| min_num(
            min_num(a32(s, 0), a32(s, 1), nan32),
            a32(s, 2),
            nan32
        )),
        O::VMax3F32 => f32op!(3, |s| max_num(
            max_num(a32(s, 0), a32(s, 1), nan32),
            a32(s, 2),
            nan32
        )),
        O::VMed3F32 => f32op!(3, |s| {
            let (x, y, z) = (a32(s, 0), a32(s, 1), a32(s, 2));
            if x.is_nan() || y.is_nan() || z.is_nan() {
                min_num(min_num(x, y, nan32), z, nan32)
            } else {
                med3(x, y, z)
            }
        }),
        O::VLdexpF32 => run_rm(w, inst, d, env, &[F32, B32], F32, |s| {
            // exact in f64 for every f32 and clamped exponent; one rounding to f32
            b32(round_to_f32(
                a32(s, 0) as f64 * 2f64.powi((s[1] as i32).clamp(-400, 400)),
                0.0,
                rm,
            ))
        }),
        O::VFractF32 => f32op!(1, |s| {
            let x = a32(s, 0);
            if x.is_infinite() {
                f32::NAN
            } else {
                (x - x.floor()).min(f32::from_bits(0x3f7fffff))
            }
        }),
        O::VFloorF32 => f32op!(1, |s| a32(s, 0).floor()),
        O::VCeilF32 => f32op!(1, |s| a32(s, 0).ceil()),
        O::VTruncF32 => f32op!(1, |s| a32(s, 0).trunc()),
        O::VRndneF32 => f32op!(1, |s| a32(s, 0).round_ties_even()),
        O::VExpF32 => f32op!(1, |s| exp2_32(a32(s, 0))),
        O::VLogF32 => f32op!(1, |s| log2_32(a32(s, 0))),
        O::VRcpF32 | O::VRcpIflagF32 => f32op!(1, |s| 1.0 / a32(s, 0)),
        O::VRsqF32 => f32op!(1, |s| (1.0 / (a32(s, 0) as f64).sqrt()) as f32),
        O::VSqrtF32 => f32rm!(1, |s| sqrt32_rm(a32(s, 0), rm)),
        O::VSinF32 => f32op!(1, |s| sin_rev(a32(s, 0))),
        O::VCosF32 => f32op!(1, |s| cos_rev(a32(s, 0))),
        O::VFrexpMantF32 => f32op!(1, |s| frexp_mant64(a32(s, 0) as f64) as f32),
        O::VFrexpExpI32F32 => iop!([F32], B32, |s| frexp_exp64(a32(s, 0) as f64) as u32 as u64),
        // ---------------- f64
        O::VAddF64 => run_rm(w, inst, d, env, &[F64, F64], F64, |s| {
            b64(add64_rm(a64(s, 0), a64(s, 1), rm64))
        }),
        O::VMulF64 => run_rm(w, inst, d, env, &[F64, F64], F64, |s| {
            b64(mul64_rm(a64(s, 0), a64(s, 1), rm64))
        }),
        O::VFmaF64 => f64op!(3, |s| a64(s, 0).mul_add(a64(s, 1), a64(s, 2))),
        O::VMinF64 => f64op!(2, |s| min_num(a64(s, 0), a64(s, 1), nan64)),
        O::VMaxF64 => f64op!(2, |s| max_num(a64(s, 0), a64(s, 1), nan64)),
        O::VLdexpF64 => run(w, inst, d, env, &[F64, B32], F64, false, |s| {
            let e = (s[1] as i32).clamp(-2200, 2200);
            let x = a64(s, 0) * 2f64.powi(e / 2);
            b64(x * 2f64.powi(e - e / 2))
        }),
        O::VRcpF64 => f64op!(1, |s| 1.0 / a64(s, 0)),
        O::VRsqF64 => f64op!(1, |s| 1.0 / a64(s, 0).sqrt()),
        O::VSqrtF64 => f64op!(1, |s| a64(s, 0).sqrt()),
        O::VFloorF64 => f64op!(1, |s| a64(s, 0).floor()),
        O::VCeilF64 => f64op!(1, |s| a64(s, 0).ceil()),
        O::VTruncF64 => f64op!(1, |s| a64(s, 0).trunc()),
        O::VRndneF64 => f64op!(1, |s| a64(s, 0).round_ties_even()),
        O::VFractF64 => f64op!(1, |s| {
            let x = a64(s, 0);
            if x.is_infinite() {
                f64::NAN
            } else {
                (x - x.floor()).min(f64::from_bits(0x3fefffffffffffff))
            }
        }),
        O::VFrexpMantF64 => f64op!(1, |s| frexp_mant64(a64(s, 0))),
        O::VFrexpExpI32F64 => iop!([F64], B32, |s| frexp_exp64(a64(s, 0)) as u32 as u64),
        // ---------------- f16
        // f16 sums and products are exact in f64: one directed rounding to f16
        O::VAddF16 => run_rm(w, inst, d, env, &[F16, F16], F16, |s| {
            round_to_f16(h(s[0]) + h(s[1]), 0.0, rm64) as u64
        }),
        O::VSubF16 => run_rm(w, inst, d, env, &[F16, F16], F16, |s| {
            round_to_f16(h(s[0]) - h(s[1]), 0.0, rm64) as u64
        }),
        O::VSubrevF16 => run_rm(w, inst, d, env, &[F16, F16], F16, |s| {
            round_to_f16(h(s[1]) - h(s[0]), 0.0, rm64) as u64
        }),
        O::VMulF16 => run_rm(w, inst, d, env, &[F16, F16], F16, |s| {
            round_to_f16(h(s[0]) * h(s[1]), 0.0, rm64) as u64
        }),
        O::VFmaF16 => run_rm(w, inst, d, env, &[F16; 3], F16, |s| {
            fma16_rm(h(s[0]), h(s[1]), h(s[2]), rm64) as u64
        }),
        O::VFmacF16 => run(w, inst, d, env, &[F16, F16], F16, true, |s| {
            bh(h(s[0]).mul_add(h(s[1]), h(s[2])))
        }),
        O::VMinF16 => f16op!(2, |s| min_num(h(s[0]), h(s[1]), nan64)),
        O::VMaxF16 => f16op!(2, |s| max_num(h(s[0]), h(s[1]), nan64)),
        O::VSqrtF16 => f16op!(1, |s| h(s[0]).sqrt()),
        O::VRcpF16 => f16op!(1, |s| 1.0 / h(s[0])),
        O::VRsqF16 => f16op!(1, |s| 1.0 / h(s[0]).sqrt()),
        O::VExpF16 => f16op!(1, |s| h(s[0]).exp2()),
        O::VLogF16 => f16op!(1, |s| if h(s[0]) == 0.0 {
            f64::NEG_INFINITY
        } else {
            h(s[0]).log2()
        }),
        O::VFloorF16 => f16op!(1, |s| h(s[0]).floor()),
        O::VCeilF16 => f16op!(1, |s| h(s[0]).ceil()),
        O::VTruncF16 => f16op!(1, |s| h(s[0]).trunc()),
        O::VRndneF16 => f16op!(1, |s| h(s[0]).round_ties_even()),
        O::VCvtF16F32 => run_rm(w, inst, d, env, &[F32], F16, |s| {
            round_to_f16(a32(s, 0) as f64, 0.0, rm64) as u64
        }),
        O::VCvtF32F16 => run(w, inst, d, env, &[F16], F32, false, |s| b32(h(s[0]) as f32)),
        O::VCvtF16I16 => run_rm(w, inst, d, env, &[I16], F16, |s| {
            round_to_f16(s[0] as u16 as i16 as f64, 0.0, rm64) as u64
        }),
        O::VCvtF16U16 => run_rm(w, inst, d, env, &[I16], F16, |s| {
            round_to_f16(s[0] as u16 as f64, 0.0, rm64) as u64
        }),
        O::VCvtI16F16 => iop!([F16], I16, |s| (h(s[0]) as i16) as u16 as u64),
        O::VCvtU16F16 => iop!([F16], I16, |s| (h(s[0]) as u16) as u64),
        O::VCvtPkrtzF16F32 | O::VCvtPkRtzF16F32 => iop!([F32, F32], B32, |s| {
            (rtz_f16(a32(s, 0)) as u64) | (rtz_f16(a32(s, 1)) as u64) << 16
        }),
        O::VPackB32F16 => iop!([F16, F16], B32, |s| (s[0] & 0xffff) | (s[1] & 0xffff) << 16),
        // ---------------- conversions
        O::VCvtF32I32 => run_rm(w, inst, d, env, &[B32], F32, |s| {
            b32(round_to_f32(i(s, 0) as f64, 0.0, rm))
        }),
        O::VCvtF32U32 => run_rm(w, inst, d, env, &[B32], F32, |s| {
            b32(round_to_f32(u(s, 0) as f64, 0.0, rm))
        }),
        O::VCvtI32F32 => iop!([F32], B32, |s| f32_to_i32(a32(s, 0)) as u32 as u64),
        O::VCvtU32F32 => iop!([F32], B32, |s| f32_to_u32(a32(s, 0)) as u64),
        O::VCvtRpiI32F32 | O::VCvtNearestI32F32 => {
            iop!([F32], B32, |s| f32_to_i32((a32(s, 0) + 0.5).floor()) as u32
                as u64)
        }
        O::VCvtFlrI32F32 | O::VCvtFloorI32F32 => {
            iop!([F32], B32, |s| f32_to_i32(a32(s, 0).floor()) as u32 as u64)
        }
        O::VCvtF64F32 => run(w, inst, d, env, &[F32], F64, false, |s| {
            b64(a32(s, 0) as f64)
        }),
        O::VCvtF32F64 => run_rm(w, inst, d, env, &[F64], F32, |s| {
            b32(round_to_f32(a64(s, 0), 0.0, rm))
        }),
        O::VCvtF64I32 => run(w, inst, d, env, &[B32], F64, false, |s| b64(i(s, 0) as f64)),
        O::VCvtF64U32 => run(w, inst, d, env, &[B32], F64, false, |s| b64(u(s, 0) as f64)),
        O::VCvtI32F64 => iop!([F64], B32, |s| f64_to_i32(a64(s, 0)) as u32 as u64),
        O::VCvtU32F64 => iop!([F64], B32, |s| f64_to_u32(a64(s, 0)) as u64),
        O::VCvtF32Ubyte0 | O::VCvtF32Ubyte1 | O::VCvtF32Ubyte2 | O::VCvtF32Ubyte3 => {
            let k = match inst.op {
                O::VCvtF32Ubyte0 => 0,
                O::VCvtF32Ubyte1 => 8,
                O::VCvtF32Ubyte2 => 16,
                _ => 24,
            };
            run(w, inst, d, env, &[B32], F32, false, |s| {
                b32(((s[0] >> k) & 0xff) as f32)
            })
        }
        // ---------------- 32-bit integer
        O::VMovB32 => iop!([B32], B32, |s| s[0]),
        O::VAddU32 | O::VAddNcU32 => {
            iop!([B32, B32], B32, |s| sat_u(u(s, 0) as i64 + u(s, 1) as i64))
        }
        O::VSubU32 | O::VSubNcU32 => {
            iop!([B32, B32], B32, |s| sat_u(u(s, 0) as i64 - u(s, 1) as i64))
        }
        O::VSubrevU32 | O::VSubrevNcU32 => {
            iop!([B32, B32], B32, |s| sat_u(u(s, 1) as i64 - u(s, 0) as i64))
        }
        O::VAddI32 | O::VAddNcI32 => {
            iop!([B32, B32], B32, |s| sat_i(i(s, 0) as i64 + i(s, 1) as i64))
        }
        O::VSubI32 | O::VSubNcI32 => {
            iop!([B32, B32], B32, |s| sat_i(i(s, 0) as i64 - i(s, 1) as i64))
        }
        O::VAdd3U32 => iop!([B32, B32, B32], B32, |s| (u(s, 0)
            .wrapping_add(u(s, 1))
            .wrapping_add(u(s, 2)))
            as u64),
        O::VAddCoU32 => carry_op(w, inst, d, env, false, |a, b, _| {
            let r = a + b;
            (r & 0xffff_ffff, r >> 32 != 0)
        }),
        O::VSubCoU32 => carry_op(w, inst, d, env, false, |a, b, _| {
            (a.wrapping_sub(b) & 0xffff_ffff, b > a)
        }),
        O::VSubrevCoU32 => carry_op(w, inst, d, env, false, |a, b, _| {
            (b.wrapping_sub(a) & 0xffff_ffff, a > b)
        }),
        O::VAddcCoU32 | O::VAddCoCiU32 => carry_op(w, inst, d, env, true, |a, b, c| {
            let r = a + b + c;
            (r & 0xffff_ffff, r >> 32 != 0)
        }),
        O::VSubbCoU32 | O::VSubCoCiU32 => carry_op(w, inst, d, env, true, |a, b, c| {
            (a.wrapping_sub(b).wrapping_sub(c) & 0xffff_ffff, b + c > a)
        }),
        O::VSubbrevCoU32 | O::VSubrevCoCiU32 => carry_op(w, inst, d, env, true, |a, b, c| {
            (b.wrapping_sub(a).wrapping_sub(c) & 0xffff_ffff, a + c > b)
        }),
        O::VMulLoU32 => iop!([B32, B32], B32, |s| u(s, 0).wrapping_mul(u(s, 1)) as u64),
        O::VMulHiU32 => iop!([B32, B32], B32, |s| (s[0] as u32 as u64
            * s[1] as u32 as u64)
            >> 32),
        O::VMulHiI32 => iop!(
            [B32, B32],
            B32,
            |s| ((i(s, 0) as i64 * i(s, 1) as i64) >> 32) as u32 as u64
        ),
        O::VMulU32U24 => iop!([B32, B32], B32, |s| ((u(s, 0) & 0xffffff) as u64
            * (u(s, 1) & 0xffffff) as u64)
            & 0xffff_ffff),
        O::VMulHiU32U24 => iop!([B32, B32], B32, |s| ((u(s, 0) & 0xffffff) as u64
            * (u(s, 1) & 0xffffff) as u64)
            >> 32),
        O::VMulI32I24 => iop!([B32, B32], B32, |s| (sx24(s[0]) * sx24(s[1])) as u32 as u64),
        O::VMulHiI32I24 => iop!(
            [B32, B32],
            B32,
            |s| ((sx24(s[0]) * sx24(s[1])) >> 32) as u32 as u64
        ),
        O::VMadU32U24 => iop!([B32, B32, B32], B32, |s| ((u(s, 0) & 0xffffff) as u64
            * (u(s, 1) & 0xffffff) as u64
            + s[2])
            & 0xffff_ffff),
        O::VMadI32I24 => iop!(
            [B32, B32, B32],
            B32,
            |s| (sx24(s[0]) * sx24(s[1]) + i(s, 2) as i64) as u32 as u64
        ),
        O::VMadU64U32 | O::VMadI64I32 => {
            let signed = inst.op == O::VMadI64I32;
            let exec = w.regs.exec();
            let so = sources(inst, d);
            let u = env.checks.uninit;
            let srcs = vec![
                (load(w, nth(&so, 0)?, B32, exec, chk(inst, 0, u))?, B32),
                (load(w, nth(&so, 1)?, B32, exec, u)?, B32),
                (load(w, nth(&so, 2)?, B64, exec, u)?, B64),
            ];
            let mut res = Vec::new();
            let mut carry = 0u64;
            {
                let l = Lanes::new(w, srcs, inst, env.checks.uninit)?;
                for lane in 0..w.lanes() {
                    if l.live >> lane & 1 == 0 {
                        continue;
                    }
                    let (a, b, c) = (l.get(0, lane), l.get(1, lane), l.get(2, lane));
                    let (r, o) = if signed {
                        let p = (a as u32 as i32 as i128) * (b as u32 as i32 as i128)
                            + c as i64 as i128;
                        (p as u64, p > i64::MAX as i128 || p < i64::MIN as i128)
                    } else {
                        let p = (a as u32 as u128) * (b as u32 as u128) + c as u128;
                        (p as u64, p >> 64 != 0)
                    };
                    if o {
                        carry |= 1 << lane;
                    }
                    res.push((lane, r));
                }
            }
            for (lane, r) in res {
                write_vdst(w, inst, d, lane, r, B64)?;
            }
            mask_out(w, inst, d, carry)?;
            Ok(())
        }
        O::VAndB32 => iop!([B32, B32], B32, |s| s[0] & s[1]),
        O::VOrB32 => iop!([B32, B32], B32, |s| s[0] | s[1]),
        O::VXorB32 => iop!([B32, B32], B32, |s| s[0] ^ s[1]),
        O::VXnorB32 => iop!([B32, B32], B32, |s| !(s[0] ^ s[1]) & 0xffff_ffff),
        O::VNotB32 => iop!([B32], B32, |s| !s[0] & 0xffff_ffff),
        O::VAndOrB32 => iop!([B32, B32, B32], B32, |s| (s[0] & s[1]) | s[2]),
        O::VOr3B32 => iop!([B32, B32, B32], B32, |s| s[0] | s[1] | s[2]),
        O::VXor3B32 => iop!([B32, B32, B32], B32, |s| s[0] ^ s[1] ^ s[2]),
        O::VLshlrevB32 => iop!([B32, B32], B32, |s| (u(s, 1) << (s[0] & 31)) as u64),
        O::VLshrrevB32 => iop!([B32, B32], B32, |s| (u(s, 1) >> (s[0] & 31)) as u64),
        O::VAshrrevI32 => iop!([B32, B32], B32, |s| (i(s, 1) >> (s[0] & 31)) as u32 as u64),
        O::VLshlrevB64 => iop!([B32, B64], B64, |s| s[1] << (s[0] & 63)),
        O::VLshrrevB64 => iop!([B32, B64], B64, |s| s[1] >> (s[0] & 63)),
        O::VAshrrevI64 => iop!([B32, B64], B64, |s| ((s[1] as i64) >> (s[0] & 63)) as u64),
        O::VLshlOrB32 => iop!(
            [B32, B32, B32],
            B32,
            |s| ((u(s, 0) << (s[1] & 31)) | u(s, 2)) as u64
        ),
        O::VLshlAddU32 => iop!([B32, B32, B32], B32, |s| (u(s, 0) << (s[1] & 31))
            .wrapping_add(u(s, 2))
            as u64),
        O::VAddLshlU32 => iop!([B32, B32, B32], B32, |s| (u(s, 0).wrapping_add(u(s, 1))
            << (s[2] & 31)) as u64),
        O::VAlignbitB32 => iop!([B32, B32, B32], B32, |s| ((((s[0] as u32 as u64) << 32)
            | s[1] as u32 as u64)
            >> (s[2] & 31))
            & 0xffff_ffff),
        O::VAlignbyteB32 => iop!([B32, B32, B32], B32, |s| ((((s[0] as u32 as u64) << 32)
            | s[1] as u32 as u64)
            >> (8 * (s[2] & 3)))
            & 0xffff_ffff),
        O::VBfeU32 => iop!([B32, B32, B32], B32, |s| {
            let (off, wd) = (s[1] & 31, s[2] & 31);
            if wd == 0 {
                0
            } else {
                (s[0] as u32 as u64 >> off) & ((1 << wd) - 1)
            }
        }),
        O::VBfeI32 => iop!([B32, B32, B32], B32, |s| {
            let (off, wd) = (s[1] as u32 & 31, s[2] as u32 & 31);
            if wd == 0 {
                0
            } else if off + wd < 32 {
                (((u(s, 0) << (32 - off - wd)) as i32) >> (32 - wd)) as u32 as u64
            } else {
                ((i(s, 0)) >> off) as u32 as u64
            }
        }),
        O::VBfiB32 => iop!([B32, B32, B32], B32, |s| (s[0] & s[1])
            | (!s[0] & s[2] & 0xffff_ffff)),
        O::VBfmB32 => iop!([B32, B32], B32, |s| (((1u64 << (s[0] & 31)) - 1)
            << (s[1] & 31))
            & 0xffff_ffff),
        O::VBcntU32B32 => iop!([B32, B32], B32, |s| (u(s, 0).count_ones() + u(s, 1)) as u64),
        O::VBfrevB32 => iop!([B32], B32, |s| u(s, 0).reverse_bits() as u64),
        O::VFfbhU32 | O::VClzI32U32 => iop!([B32], B32, |s| if u(s, 0) == 0 {
            u32::MAX as u64
        } else {
            u(s, 0).leading_zeros() as u64
        }),
        O::VFfblB32 | O::VCtzI32B32 => iop!([B32], B32, |s| if u(s, 0) == 0 {
            u32::MAX as u64
        } else {
            u(s, 0).trailing_zeros() as u64
        }),
        O::VFfbhI32 | O::VClsI32 => iop!([B32], B32, |s| {
            let a = u(s, 0);
            let n = if a >> 31 == 1 {
                a.leading_ones()
            } else {
                a.leading_zeros()
            };
            if n == 32 {
                u32::MAX as u64
            } else {
                n as u64
            }
        }),
        O::VMinU32 => iop!([B32, B32], B32, |s| u(s, 0).min(u(s, 1)) as u64),
        O::VMaxU32 => iop!([B32, B32], B32, |s| u(s, 0).max(u(s, 1)) as u64),
        O::VMinI32 => iop!([B32, B32], B32, |s| i(s, 0).min(i(s, 1)) as u32 as u64),
        O::VMaxI32 => iop!([B32, B32], B32, |s| i(s, 0).max(i(s, 1)) as u32 as u64),
        O::VMin3U32 => iop!([B32, B32, B32], B32, |s| u(s, 0).min(u(s, 1)).min(u(s, 2))
            as u64),
        O::VMax3U32 => iop!([B32, B32, B32], B32, |s| u(s, 0).max(u(s, 1)).max(u(s, 2))
            as u64),
        O::VMin3I32 => iop!(
            [B32, B32, B32],
            B32,
            |s| i(s, 0).min(i(s, 1)).min(i(s, 2)) as u32 as u64
        ),
        O::VMax3I32 => iop!(
            [B32, B32, B32],
            B32,
            |s| i(s, 0).max(i(s, 1)).max(i(s, 2)) as u32 as u64
        ),
        O::VMed3U32 => iop!([B32, B32, B32], B32, |s| med3(u(s, 0), u(s, 1), u(s, 2))
            as u64),
        O::VMed3I32 => iop!(
            [B32, B32, B32],
            B32,
            |s| med3(i(s, 0), i(s, 1), i(s, 2)) as u32 as u64
        ),
        O::VPermB32 => iop!([B32, B32, B32], B32, |s| {
            let bytes = ((s[0] as u32 as u64) << 32) | s[1] as u32 as u64;
            let mut r = 0u64;
            for k in 0..4 {
                let sel = (s[2] >> (8 * k)) & 0xff;
                let b = match sel {
                    0..=7 => (bytes >> (8 * sel)) & 0xff,
                    8..=11 => {
                        let src_byte = (bytes >> (8 * (2 * (sel - 8) + 1))) & 0xff;
                        if src_byte & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    }
                    12 => 0,
                    _ => 0xff,
                };
                r |= b << (8 * k);
            }
            r
        }),
        O::VCvtPkU16U32 => iop!([B32, B32], B32, |s| (s[0] & 0xffff) | (s[1] & 0xffff) << 16),
        O::VCvtPkI16I32 => iop!([B32, B32], B32, |s| (s[0] & 0xffff) | (s[1] & 0xffff) << 16),
        O::VCndmaskB32 => cndmask(w, inst, d, env, F32, env.checks.uninit, B32),
        // ---------------- 16-bit integer
        O::VAddU16 | O::VAddNcU16 => iop!([I16, I16], I16, |s| if clamp {
            (s[0] + s[1]).min(0xffff)
        } else {
            (s[0] + s[1]) & 0xffff
        }),
        O::VSubU16 | O::VSubNcU16 => iop!([I16, I16], I16, |s| if clamp {
            s[0].saturating_sub(s[1])
        } else {
            s[0].wrapping_sub(s[1]) & 0xffff
        }),
        O::VSubrevU16 => iop!([I16, I16], I16, |s| s[1].wrapping_sub(s[0]) & 0xffff),
        O::VMulLoU16 => iop!([I16, I16], I16, |s| (s[0] * s[1]) & 0xffff),
        O::VLshlrevB16 => iop!([I16, I16], I16, |s| (s[1] << (s[0] & 15)) & 0xffff),
        O::VLshrrevB16 => iop!([I16, I16], I16, |s| s[1] >> (s[0] & 15)),
        O::VAshrrevI16 => iop!(
            [I16, I16],
            I16,
            |s| ((s[1] as u16 as i16) >> (s[0] & 15)) as u16 as u64
        ),
        O::VMinU16 => iop!([I16, I16], I16, |s| s[0].min(s[1])),
        O::VMaxU16 => iop!([I16, I16], I16, |s| s[0].max(s[1])),
        O::VMinI16 => iop!(
            [I16, I16],
            I16,
            |s| (s[0] as u16 as i16).min(s[1] as u16 as i16) as u16 as u64
        ),
        O::VMaxI16 => iop!(
            [I16, I16],
            I16,
            |s| (s[0] as u16 as i16).max(s[1] as u16 as i16) as u16 as u64
        ),
        // ---------------- cross-lane
        O::VReadfirstlaneB32 | O::VReadlaneB32 => {
            let so = sources(inst, d);
            let Operand::Reg(r) = *nth(&so, 0)? else {
                return Err(Error::unsupported("readlane of a non-VGPR"));
            };
            let lane = if inst.op == O::VReadlaneB32 {
                (w.s_read(nth(&so, 1)?, 1, false, false)? as u32) % w.lanes()
            } else {
                let e = w.regs.exec();
                if e == 0 {
                    0
                } else {
                    e.trailing_zeros()
                }
            };
            let n = r
                .base
                .0
                .checked_sub(256)
                .ok_or_else(|| Error::unsupported("readlane source"))?;
            if env.checks.uninit {
                w.regs.check_v(n, 1 << lane)?;
            }
            let v = w.regs.v(n, lane);
            let dst = *inst
                .get(d, Field::Vdst)
                .ok_or_else(|| Error::unsupported("readlane dst"))?;
            w.s_write(&dst, v as u64)
        }
        O::VWritelaneB32 => {
            let so = sources(inst, d);
            let v = w.s_read(nth(&so, 0)?, 1, false, false)?;
            let lane = (w.s_read(nth(&so, 1)?, 1, false, false)? as u32) % w.lanes();
            let Some(Operand::Reg(r)) = inst.get(d, Field::Vdst) else {
                return Err(Error::unsupported("writelane dst"));
            };
            let n = r.base.0 - 256;
            w.regs.set_v(n, lane, v as u32)
        }
        O::VMbcntLoU32B32 | O::VMbcntHiU32B32 => {
            let hi = inst.op == O::VMbcntHiU32B32;
            let exec = w.regs.exec();
            let so = sources(inst, d);
            let s0 = load(w, nth(&so, 0)?, B32, exec, chk(inst, 0, env.checks.uninit))?;
            let s1 = load(w, nth(&so, 1)?, B32, exec, env.checks.uninit)?;
            let mut res = Vec::new();
            {
                let l = Lanes::new(w, vec![(s0, B32), (s1, B32)], inst, env.checks.uninit)?;
                for lane in 0..w.lanes() {
                    if l.live >> lane & 1 == 0 {
                        continue;
                    }
                    let m = l.get(0, lane) as u32;
                    let pos = if hi {
                        lane.saturating_sub(32)
                    } else {
                        lane.min(32)
                    };
                    let below = if pos >= 32 {
                        m
                    } else {
                        m & ((1u32 << pos) - 1)
                    };
                    let below = if hi && lane < 32 { 0 } else { below };
                    res.push((
                        lane,
                        below.count_ones().wrapping_add(l.get(1, lane) as u32) as u64,
                    ));
                }
            }
            for (lane, r) in res {
                write_vdst(w, inst, d, lane, r, B32)?;
            }
            Ok(())
        }
        _ if crate::valu_legacy::handles(inst.op) => crate::valu_legacy::exec(w, inst, d, env),
        _ if inst.format == Format::Vop3p && !name.starts_with("v_dot") => {
            crate::packed::exec(w, inst, d, env)
        }
        _ => crate::valu_ext::exec(w, inst, d, env),
    }
}

fn sx24(v: u64) -> i64 {
    ((v << 40) as i64) >> 40
}

/// f32 → f16 rounding toward zero (v_cvt_pkrtz).
fn rtz_f16(x: f32) -> u16 {
    let r = f32_to_f16(x);
    if x.is_nan() || x.is_infinite() {
        return r;
    }
    let back = f16_to_f32(r);
    if back.abs() > x.abs() {
        // stepped away from zero: go one toward zero (inf → max finite)
        r - 1
    } else {
        r
    }
}
