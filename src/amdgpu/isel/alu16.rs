//! 8- and 16-bit ALU selection: integer arithmetic on i8/u8/i16/u16, f16 arithmetic and
//! compares, and conversions between the narrow types and 32/64-bit ones.
//!
//! Representation (the invariant every narrow value obeys): one value per 32-bit register
//! (SGPR when uniform, VGPR when divergent), meaningful in its low 8 or 16 bits; the upper
//! bits are **undefined**. Constants are their zero-extended bit patterns.
//!
//! Consequences:
//! - Operations whose low result bits depend only on low source bits run as the 32-bit
//!   instruction (add, sub, mul via `v_mul_u32_u24`, logic, left shift, negate): wrap-around
//!   at 8/16 bits is automatic because nobody reads the upper bits.
//! - Operations that look at the whole value (compares, min/max, right shifts, division,
//!   abs/sign, widening, int→float) first extend their sources explicitly: SALU
//!   `s_sext_i32_i8/i16` or `s_and_b32 0xff/0xffff`, VALU `v_bfe_i32` or `v_and_b32`.
//!   Shift amounts are masked to `bits − 1` (the IR's definition).
//! - f16 math uses the native 16-bit VALU instructions in their 32-bit-register forms
//!   (VOP1/VOP2/VOP3 as llvm-mc accepts them; no SDWA, op_sel or GFX11 true16). GFX9 zeroes
//!   the high half of a 16-bit result and GFX10+ keep it; either way it is "undefined" here.
//!   Uniform f16 values are computed on the VALU and read back with `v_readfirstlane_b32`,
//!   like uniform f32 math. Denormals follow FLOAT_MODE (f16 denormals kept: 0xF0).
//! - f16 division goes through f32 (`a·rcp(b)` in f32, one rounding to f16: within 1 ULP),
//!   as do `pow` and `ldexp`.
//!
//! Layering: a leaf of `alu` (which dispatches narrow types here); it emits through
//! `legalize` and never calls back into `alu`.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, BlockId, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{AluOp, Value};
use crate::isa::Opcode;
use std::collections::BTreeMap;

/// Whether a bit width is one of the narrow ones this file selects.
pub(super) fn is_narrow(bits: u8) -> bool {
    bits == 8 || bits == 16
}

/// Extensions already computed: (temp, bits, signed) → the 32-bit extended temp and the
/// block it was made in (`None`: valid everywhere, e.g. a zero-extending load's own
/// result). Only reused within its block, so every use is dominated by the definition.
#[derive(Default)]
pub(crate) struct NarrowCache {
    ext: BTreeMap<(Temp, u8, bool), (Option<BlockId>, Temp)>,
}

impl NarrowCache {
    /// Records that `t` already holds its `bits`-bit value zero-extended.
    pub(super) fn zero_extended(&mut self, t: Temp, bits: u8) {
        self.ext.insert((t, bits, false), (None, t));
    }
}

/// f16 constants.
const H_ONE: u32 = 0x3c00;
const H_NEG_ONE: u32 = 0xbc00;

impl Isel<'_> {
    /// Sign- or zero-extends the low `bits` of `x` to 32 bits, in `x`'s file (constants are
    /// folded).
    pub(super) fn narrow_ext(&mut self, x: Arg, bits: u8, signed: bool) -> Result<Arg, Error> {
        if bits >= 32 {
            return Ok(x);
        }
        let m = (1u32 << bits) - 1;
        if let Arg::Temp(t) = x {
            if let Some(&(b, e)) = self.narrow.ext.get(&(t, bits, signed)) {
                if b.is_none() || b == Some(self.cur) {
                    return Ok(Arg::Temp(e));
                }
            }
        }
        let r = match x {
            Arg::Const(c) => {
                let v = c & m;
                Ok(Arg::Const(if signed && v >> (bits - 1) & 1 == 1 {
                    v | !m
                } else {
                    v
                }))
            }
            Arg::Temp(t) if self.p.rc(t).is_sgpr() => {
                let d = self.tmp(RegClass::S1);
                if signed {
                    let n = if bits == 8 {
                        Opcode::SSextI32I8
                    } else {
                        Opcode::SSextI32I16
                    };
                    self.hw(n, &[Arg::Temp(d)], &[x])?;
                } else {
                    self.salu(Opcode::SAndB32, &[Arg::Temp(d)], vec![x, Arg::Const(m)])?;
                }
                Ok(Arg::Temp(d))
            }
            _ => {
                let d = self.tmp(RegClass::V1);
                if signed {
                    self.valu(
                        Opcode::VBfeI32,
                        &[Arg::Temp(d)],
                        vec![x, Arg::Const(0), Arg::Const(bits as u32)],
                    )?;
                } else {
                    self.valu(Opcode::VAndB32, &[Arg::Temp(d)], vec![Arg::Const(m), x])?;
                }
                Ok(Arg::Temp(d))
            }
        }?;
        if let (Arg::Temp(t), Arg::Temp(e)) = (x, r) {
            let b = self.cur;
            self.narrow.ext.insert((t, bits, signed), (Some(b), e));
        }
        Ok(r)
    }

    /// A 32-bit integer operation on the SALU (uniform) or the VALU (divergent).
    fn int2(&mut self, div: bool, s: Opcode, v: Opcode, x: Arg, y: Arg) -> Result<Arg, Error> {
        if div {
            let d = self.tmp(RegClass::V1);
            self.valu(v, &[Arg::Temp(d)], vec![x, y])?;
            Ok(Arg::Temp(d))
        } else {
            let x = self.sgpr_or_const(x)?;
            let y = self.sgpr_or_const(y)?;
            let x = if matches!((x, y), (Arg::Const(_), Arg::Const(_))) {
                Arg::Temp(self.to_sgpr(x)?)
            } else {
                x
            };
            let d = self.tmp(RegClass::S1);
            self.salu(s, &[Arg::Temp(d)], vec![x, y])?;
            Ok(Arg::Temp(d))
        }
    }

    /// Whether `x` is known to hold its `bits`-bit value zero-extended.
    fn is_zext(&self, x: Arg, bits: u8) -> bool {
        match x {
            Arg::Const(c) => c >> bits == 0,
            Arg::Temp(t) => {
                matches!(self.narrow.ext.get(&(t, bits, false)), Some(&(None, e)) if e == t)
            }
            _ => false,
        }
    }

    /// Whether the IR value `v` is known to be below `limit` (a power of two): an `iand`
    /// with a constant mask below it (so a shift amount needs no masking).
    fn below(&self, v: Value, limit: u32) -> bool {
        let f = self.f;
        let crate::ir::InstKind::Alu {
            op: AluOp::Iand,
            srcs,
        } = f.kind(v)
        else {
            return false;
        };
        srcs.iter().any(|&s| {
            matches!(f.kind(s), crate::ir::InstKind::Const(c)
                if f.ty(s).comps == 1 && c.first().is_some_and(|&k| k < limit as u64))
        })
    }

    /// A one-dword VALU result in a fresh VGPR.
    pub(super) fn v1op(&mut self, op: Opcode, srcs: Vec<Arg>) -> Result<Arg, Error> {
        let d = self.tmp(RegClass::V1);
        self.valu(op, &[Arg::Temp(d)], srcs)?;
        Ok(Arg::Temp(d))
    }

    /// A VALU result as the IR value's machine value: read back to SGPRs when uniform.
    fn narrow_result(&mut self, r: Arg, kind: Kind, div: bool) -> Result<MV, Error> {
        match (r, kind) {
            (Arg::Const(c), _) => Ok(MV::C(c as u64)),
            (Arg::Temp(t), Kind::Mask) if !div => {
                let m = self.tmp(self.mask_rc());
                self.any_active_to_scc(t, m)?;
                let d = self.tmp(RegClass::S1);
                self.scc_to_bool(d)?;
                Ok(MV::T(d, Kind::UBool))
            }
            (Arg::Temp(t), k) if !div && !self.p.rc(t).is_sgpr() => {
                Ok(MV::T(self.uniform_to_sgpr(t)?, k))
            }
            (Arg::Temp(t), k) => Ok(MV::T(t, k)),
            _ => unreachable!("selection produces temps or constants"),
        }
    }

    /// One component of an ALU op with an 8/16-bit source or result (except `bcsel` and
    /// `b2i`, whose 32-bit selection is already width-agnostic).
    pub(super) fn alu_narrow(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
        c: usize,
        div: bool,
    ) -> Result<MV, Error> {
        use AluOp::*;
        let f = self.f;
        let at = Some(i.index() as u32);
        let db = f.ty(i).bits;
        let sb = f.ty(srcs[0]).bits;
        let a = |s: &mut Self, k: usize| -> Result<Arg, Error> {
            let kk = super::legalize::src_comp(f, srcs[k], c);
            s.arg(srcs[k], kk)
        };
        let unsup = |what: &str| {
            Error::unsupported(at, format!("{} {what} ({sb}-bit → {db}-bit)", op.name()))
        };
        let float = f16_op(op);
        if float.is_some() || matches!(op, F2f | F2fRtz | F2fRtne | F2i | F2u | I2f | U2f | B2f) {
            let (r, kind) = self.narrow_float(i, op, srcs, c, div)?;
            return self.narrow_result(r, kind, div);
        }
        // integer operations
        let w = sb.max(if db == 1 { 0 } else { db });
        let vmul = Opcode::VMulU32U24;
        if div && w == 16 {
            if let Some((n, is_cmp)) = native16(op) {
                // these read only the low 16 bits (shifts: amount bits 3:0)
                let (x, y) = (a(self, 0)?, a(self, 1)?);
                let (x, y) = if matches!(op, Ishl | Ushr | Ishr) {
                    (y, x)
                } else {
                    (x, y)
                };
                return if is_cmp {
                    let d = self.tmp(self.mask_rc());
                    self.valu(n, &[Arg::Temp(d)], vec![x, y])?;
                    Ok(MV::T(d, Kind::Mask))
                } else {
                    let r = self.v1op(n, vec![x, y])?;
                    self.narrow_result(r, Kind::Plain, div)
                };
            }
        }
        let (r, kind) = match op {
            Iadd | Isub | Imul | Iand | Ior | Ixor => {
                let (x, y) = (a(self, 0)?, a(self, 1)?);
                let (s, v) = match op {
                    Iadd => (Opcode::SAddU32, Opcode::VAddU32),
                    Isub => (Opcode::SSubU32, Opcode::VSubU32),
                    Imul => (Opcode::SMulI32, vmul),
                    Iand => (Opcode::SAndB32, Opcode::VAndB32),
                    Ior => (Opcode::SOrB32, Opcode::VOrB32),
                    _ => (Opcode::SXorB32, Opcode::VXorB32),
                };
                let r = self.int2(div, s, v, x, y)?;
                // logic keeps zero-extension: `and` when either side has it, `or`/`xor`
                // when both do
                let (zx, zy) = (self.is_zext(x, w), self.is_zext(y, w));
                let clean = match op {
                    Iand => zx || zy,
                    Ior | Ixor => zx && zy,
                    _ => false,
                };
                if let (true, Arg::Temp(t)) = (clean, r) {
                    self.narrow.zero_extended(t, w);
                }
                (r, Kind::Plain)
            }
            Inot => {
                let x = a(self, 0)?;
                (
                    self.int2(
                        div,
                        Opcode::SXorB32,
                        Opcode::VXorB32,
                        x,
                        Arg::Const(u32::MAX),
                    )?,
                    Kind::Plain,
                )
            }
            Ineg => {
                let x = a(self, 0)?;
                (
                    self.int2(div, Opcode::SSubU32, Opcode::VSubU32, Arg::Const(0), x)?,
                    Kind::Plain,
                )
            }
            Ishl | Ushr | Ishr => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let amt = match y {
                    Arg::Const(k) => Arg::Const(k & (w as u32 - 1)),
                    _ if self.below(srcs[1], w as u32) => y,
                    _ => self.int2(
                        div,
                        Opcode::SAndB32,
                        Opcode::VAndB32,
                        y,
                        Arg::Const(w as u32 - 1),
                    )?,
                };
                let x = match op {
                    Ishl => x,
                    Ushr => self.narrow_ext(x, w, false)?,
                    _ => self.narrow_ext(x, w, true)?,
                };
                let (s, v) = match op {
                    Ishl => (Opcode::SLshlB32, Opcode::VLshlrevB32),
                    Ushr => (Opcode::SLshrB32, Opcode::VLshrrevB32),
                    _ => (Opcode::SAshrI32, Opcode::VAshrrevI32),
                };
                let r = if div {
                    self.v1op(v, vec![amt, x])?
                } else {
                    self.int2(false, s, v, x, amt)?
                };
                (r, Kind::Plain)
            }
            Imin | Imax | Umin | Umax => {
                let signed = matches!(op, Imin | Imax);
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let x = self.narrow_ext(x, w, signed)?;
                let y = self.narrow_ext(y, w, signed)?;
                let (s, v) = match op {
                    Imin => (Opcode::SMinI32, Opcode::VMinI32),
                    Imax => (Opcode::SMaxI32, Opcode::VMaxI32),
                    Umin => (Opcode::SMinU32, Opcode::VMinU32),
                    _ => (Opcode::SMaxU32, Opcode::VMaxU32),
                };
                (self.int2(div, s, v, x, y)?, Kind::Plain)
            }
            Ieq | Ine | Ilt | Ige | Ult | Uge => {
                let signed = matches!(op, Ilt | Ige);
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let x = self.narrow_ext(x, w, signed)?;
                let y = self.narrow_ext(y, w, signed)?;
                let (s, v) = match op {
                    Ieq => (Opcode::SCmpEqU32, Opcode::VCmpEqU32),
                    Ine => (Opcode::SCmpLgU32, Opcode::VCmpNeU32),
                    Ilt => (Opcode::SCmpLtI32, Opcode::VCmpLtI32),
                    Ige => (Opcode::SCmpGeI32, Opcode::VCmpGeI32),
                    Ult => (Opcode::SCmpLtU32, Opcode::VCmpLtU32),
                    _ => (Opcode::SCmpGeU32, Opcode::VCmpGeU32),
                };
                if div {
                    let d = self.tmp(self.mask_rc());
                    self.valu(v, &[Arg::Temp(d)], vec![x, y])?;
                    (Arg::Temp(d), Kind::Mask)
                } else {
                    let x = self.sgpr_or_const(x)?;
                    let y = self.sgpr_or_const(y)?;
                    let x = match x {
                        Arg::Const(_) => Arg::Temp(self.to_sgpr(x)?),
                        _ => x,
                    };
                    self.salu(s, &[], vec![x, y])?;
                    let d = self.tmp(RegClass::S1);
                    self.scc_to_bool(d)?;
                    (Arg::Temp(d), Kind::UBool)
                }
            }
            Udiv | Umod | Idiv | Irem | Imod => {
                let signed = matches!(op, Idiv | Irem | Imod);
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let x = self.narrow_ext(x, w, signed)?;
                let y = self.narrow_ext(y, w, signed)?;
                let r = match (op, y) {
                    // a constant divisor multiplies by its magic number (`divide`)
                    (_, Arg::Const(_)) => match op {
                        Udiv => self.udivrem(x, y)?.0,
                        Umod => self.udivrem(x, y)?.1,
                        Idiv => self.sdivrem(x, y, "div")?,
                        Irem => self.sdivrem(x, y, "rem")?,
                        _ => self.sdivrem(x, y, "mod")?,
                    },
                    (Udiv | Idiv, _) => self.divrem_narrow(x, y, signed, "div")?,
                    (Umod | Irem, _) => self.divrem_narrow(x, y, signed, "rem")?,
                    _ => self.divrem_narrow(x, y, signed, "mod")?,
                };
                (r, Kind::Plain)
            }
            Iabs => {
                let x = a(self, 0)?;
                let x = self.narrow_ext(x, w, true)?;
                let r = if div {
                    let n = self.v1op(Opcode::VSubU32, vec![Arg::Const(0), x])?;
                    self.v1op(Opcode::VMaxI32, vec![x, n])?
                } else {
                    let x = self.sgpr_or_const(x)?;
                    let x = Arg::Temp(self.to_sgpr(x)?);
                    let d = self.tmp(RegClass::S1);
                    self.hw(Opcode::SAbsI32, &[Arg::Temp(d)], &[x])?;
                    Arg::Temp(d)
                };
                (r, Kind::Plain)
            }
            Isign => {
                let x = a(self, 0)?;
                let x = self.narrow_ext(x, w, true)?;
                let r = if div {
                    self.v1op(
                        Opcode::VMed3I32,
                        vec![x, Arg::Const(u32::MAX), Arg::Const(1)],
                    )?
                } else {
                    let t = self.int2(false, Opcode::SMinI32, Opcode::VMinI32, x, Arg::Const(1))?;
                    self.int2(
                        false,
                        Opcode::SMaxI32,
                        Opcode::VMaxI32,
                        t,
                        Arg::Const(u32::MAX),
                    )?
                };
                (r, Kind::Plain)
            }
            I2i | U2u => {
                let x = a(self, 0)?;
                if db <= sb {
                    // truncation: the low bits are already the value
                    let x = match x {
                        Arg::Temp(t) if self.p.rc(t).dwords == 2 => Arg::Temp(self.split(t, 2)?[0]),
                        Arg::Const(k) if db < 32 => Arg::Const(k & ((1u32 << db) - 1)),
                        other => other,
                    };
                    return self.narrow_result(x, Kind::Plain, div);
                }
                let x = self.narrow_ext(x, sb, op == I2i)?;
                if db <= 32 {
                    (x, Kind::Plain)
                } else {
                    // 64-bit: the high dword is the sign (i2i) or zero (u2u)
                    let hi = match (op, x) {
                        (U2u, _) => Arg::Const(0),
                        (_, Arg::Const(k)) => Arg::Const(((k as i32) >> 31) as u32),
                        _ if div => self.v1op(Opcode::VAshrrevI32, vec![Arg::Const(31), x])?,
                        _ => self.int2(
                            false,
                            Opcode::SAshrI32,
                            Opcode::VAshrrevI32,
                            x,
                            Arg::Const(31),
                        )?,
                    };
                    let (lo, hi) = if div {
                        (self.to_vgpr(x)?, self.to_vgpr(hi)?)
                    } else {
                        (self.to_sgpr(x)?, self.to_sgpr(hi)?)
                    };
                    let d = self.tmp(if div { RegClass::V2 } else { RegClass::S2 });
                    self.push(MInst::pseudo(
                        Pseudo::CreateVector,
                        &[Arg::Temp(d)],
                        &[Arg::Temp(lo), Arg::Temp(hi)],
                    ));
                    return Ok(MV::T(d, Kind::Plain));
                }
            }
            _ => return Err(unsup("is not selected for narrow integers")),
        };
        self.narrow_result(r, kind, div)
    }

    /// SPIR-V `OpQuantizeToF16` on f32: through f16 and back (rounding to nearest even,
    /// overflow to ±inf), with results too small for a normal f16 made ±0.
    pub(super) fn quantize_f16(
        &mut self,
        srcs: &[Value],
        c: usize,
        div: bool,
    ) -> Result<MV, Error> {
        let kk = super::legalize::src_comp(self.f, srcs[0], c);
        let x = self.arg(srcs[0], kk)?;
        let h = self.v1op(Opcode::VCvtF16F32, vec![x])?;
        let r = self.v1op(Opcode::VCvtF32F16, vec![h])?;
        let a = self.v1op(Opcode::VAndB32, vec![Arg::Const(0x7fff_ffff), r])?;
        let tiny = self.tmp(self.mask_rc());
        // 2^-14, the smallest normal f16; NaN compares false and stays
        self.valu(
            Opcode::VCmpGtF32,
            &[Arg::Temp(tiny)],
            vec![Arg::Const(0x3880_0000), a],
        )?;
        let s = self.v1op(Opcode::VAndB32, vec![Arg::Const(0x8000_0000), r])?;
        let d = self.v1op(Opcode::VCndmaskB32, vec![r, s, Arg::Temp(tiny)])?;
        self.narrow_result(d, Kind::Plain, div)
    }

    /// f16 arithmetic and the float conversions touching 8/16-bit types, on the VALU.
    fn narrow_float(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
        c: usize,
        div: bool,
    ) -> Result<(Arg, Kind), Error> {
        use AluOp::*;
        let f = self.f;
        let at = Some(i.index() as u32);
        let db = f.ty(i).bits;
        let sb = f.ty(srcs[0]).bits;
        let a = |s: &mut Self, k: usize| -> Result<Arg, Error> {
            let kk = super::legalize::src_comp(f, srcs[k], c);
            s.arg(srcs[k], kk)
        };
        let unsup = |what: &str| {
            Error::unsupported(at, format!("{} {what} ({sb}-bit → {db}-bit)", op.name()))
        };
        let plain = |r: Arg| Ok((r, Kind::Plain));
        let _ = div;
        if let Some(k) = f16_op(op) {
            if sb != 16 {
                return Err(unsup("on non-f16 sources"));
            }
            return match k {
                F16::One(n) => {
                    let x = a(self, 0)?;
                    plain(self.v1op(n, vec![x])?)
                }
                F16::Two(n) => {
                    let (x, y) = (a(self, 0)?, a(self, 1)?);
                    plain(self.v1op(n, vec![x, y])?)
                }
                F16::Cmp(n) => {
                    let (x, y) = (a(self, 0)?, a(self, 1)?);
                    let d = self.tmp(self.mask_rc());
                    self.valu(n, &[Arg::Temp(d)], vec![x, y])?;
                    Ok((Arg::Temp(d), Kind::Mask))
                }
                F16::Other => self.f16_other(op, srcs, c, &a),
            };
        }
        match op {
            F2f | F2fRtne | F2fRtz => {
                let x = a(self, 0)?;
                match (sb, db) {
                    (16, 32) => plain(self.v1op(Opcode::VCvtF32F16, vec![x])?),
                    (16, 64) => {
                        let t = self.v1op(Opcode::VCvtF32F16, vec![x])?;
                        let d = self.tmp(RegClass::V2);
                        self.valu(Opcode::VCvtF64F32, &[Arg::Temp(d)], vec![t])?;
                        plain(Arg::Temp(d))
                    }
                    (32, 16) if op == F2fRtz => {
                        // the packing conversion truncates; the high half is ignored
                        plain(self.v1op(Opcode::VCvtPkrtzF16F32, vec![x, Arg::Const(0)])?)
                    }
                    (32, 16) => plain(self.v1op(Opcode::VCvtF16F32, vec![x])?),
                    (16, 16) => plain(x),
                    _ => Err(unsup("conversion")),
                }
            }
            F2i | F2u => {
                let x = a(self, 0)?;
                let x = match sb {
                    16 => self.v1op(Opcode::VCvtF32F16, vec![x])?,
                    32 => x,
                    _ => return Err(unsup("conversion")),
                };
                if db > 32 {
                    return Err(unsup("conversion"));
                }
                let n = if op == F2i {
                    Opcode::VCvtI32F32
                } else {
                    Opcode::VCvtU32F32
                };
                plain(self.v1op(n, vec![x])?)
            }
            I2f | U2f => {
                let x = a(self, 0)?;
                if sb > 32 || !(db == 16 || db == 32) {
                    return Err(unsup("conversion"));
                }
                let x = self.narrow_ext(x, sb, op == I2f)?;
                let n = if op == I2f {
                    Opcode::VCvtF32I32
                } else {
                    Opcode::VCvtF32U32
                };
                // ints up to 2^24 convert to f32 exactly, and anything larger overflows
                // f16: converting through f32 rounds once
                let t = self.v1op(n, vec![x])?;
                if db == 32 {
                    plain(t)
                } else {
                    plain(self.v1op(Opcode::VCvtF16F32, vec![t])?)
                }
            }
            B2f => {
                // f16 destination (32/64 go through the bool path)
                let kk = super::legalize::src_comp(f, srcs[0], c);
                if div {
                    let m = self.mask(srcs[0], kk)?;
                    plain(self.v1op(
                        Opcode::VCndmaskB32,
                        vec![Arg::Const(0), Arg::Const(H_ONE), m],
                    )?)
                } else {
                    let b = self.ubool(srcs[0], kk)?;
                    let b = Arg::Temp(self.to_sgpr(b)?);
                    self.hw(Opcode::SCmpLgU32, &[], &[b, Arg::Const(0)])?;
                    let d = self.tmp(RegClass::S1);
                    self.salu(
                        Opcode::SCselectB32,
                        &[Arg::Temp(d)],
                        vec![Arg::Const(H_ONE), Arg::Const(0)],
                    )?;
                    plain(Arg::Temp(d))
                }
            }
            _ => Err(unsup("is not selected")),
        }
    }

    /// f16 operations that need more than one instruction.
    fn f16_other(
        &mut self,
        op: AluOp,
        srcs: &[Value],
        c: usize,
        a: &dyn Fn(&mut Self, usize) -> Result<Arg, Error>,
    ) -> Result<(Arg, Kind), Error> {
        use AluOp::*;
        let r = match op {
            Fneg => match self.f.kind(srcs[0]) {
                // -|x| sets the sign bit: one `v_or_b32` of x instead of and + xor
                crate::ir::InstKind::Alu { op: Fabs, srcs: s } => {
                    let f = self.f;
                    let x = s[0];
                    let sc = super::legalize::src_comp;
                    let x = self.arg(x, sc(f, x, sc(f, srcs[0], c)))?;
                    self.v1op(Opcode::VOrB32, vec![Arg::Const(0x8000), x])?
                }
                _ => {
                    let x = a(self, 0)?;
                    self.v1op(Opcode::VXorB32, vec![Arg::Const(0x8000), x])?
                }
            },
            Fabs => {
                let x = a(self, 0)?;
                self.v1op(Opcode::VAndB32, vec![Arg::Const(0x7fff), x])?
            }
            Fsat => {
                let x = a(self, 0)?;
                self.v1op(Opcode::VMed3F16, vec![x, Arg::Const(0), Arg::Const(H_ONE)])?
            }
            Ffma => {
                let (x, y, z) = (a(self, 0)?, a(self, 1)?, a(self, 2)?);
                self.v1op(Opcode::VFmaF16, vec![x, y, z])?
            }
            Flrp => {
                // x + (y - x) * t
                let (x, y, t) = (a(self, 0)?, a(self, 1)?, a(self, 2)?);
                let d = self.v1op(Opcode::VSubF16, vec![y, x])?;
                self.v1op(Opcode::VFmaF16, vec![d, t, x])?
            }
            Fsign => {
                let x = a(self, 0)?;
                let gt = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpLtF16, &[Arg::Temp(gt)], vec![Arg::Const(0), x])?;
                let t = self.v1op(
                    Opcode::VCndmaskB32,
                    vec![x, Arg::Const(H_ONE), Arg::Temp(gt)],
                )?;
                let lt = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpGtF16, &[Arg::Temp(lt)], vec![Arg::Const(0), x])?;
                self.v1op(
                    Opcode::VCndmaskB32,
                    vec![t, Arg::Const(H_NEG_ONE), Arg::Temp(lt)],
                )?
            }
            Fsin | Fcos => {
                // x / (2π) in f32 (1/(2π) has no exact f16), then the f16 instruction
                let x = a(self, 0)?;
                let x = self.v1op(Opcode::VCvtF32F16, vec![x])?;
                let t = self.v1op(Opcode::VMulF32, vec![Arg::Const(0x3e22_f983), x])?;
                let t = self.v1op(Opcode::VCvtF16F32, vec![t])?;
                let n = if op == Fsin {
                    Opcode::VSinF16
                } else {
                    Opcode::VCosF16
                };
                self.v1op(n, vec![t])?
            }
            Fdiv | Fpow | Fldexp => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let x = self.v1op(Opcode::VCvtF32F16, vec![x])?;
                let r = match op {
                    Fdiv => {
                        let y = self.v1op(Opcode::VCvtF32F16, vec![y])?;
                        let r = self.v1op(Opcode::VRcpF32, vec![y])?;
                        self.v1op(Opcode::VMulF32, vec![x, r])?
                    }
                    Fpow => {
                        let y = self.v1op(Opcode::VCvtF32F16, vec![y])?;
                        let l = self.v1op(Opcode::VLogF32, vec![x])?;
                        let m = self.v1op(Opcode::VMulF32, vec![y, l])?;
                        self.v1op(Opcode::VExpF32, vec![m])?
                    }
                    _ => self.v1op(Opcode::VLdexpF32, vec![x, y])?,
                };
                self.v1op(Opcode::VCvtF16F32, vec![r])?
            }
            FfrexpSig => {
                let x = a(self, 0)?;
                self.v1op(Opcode::VFrexpMantF16, vec![x])?
            }
            FfrexpExp => {
                // the exponent comes back as i16; the IR result is i32
                let x = a(self, 0)?;
                let e = self.v1op(Opcode::VFrexpExpI16F16, vec![x])?;
                self.narrow_ext(e, 16, true)?
            }
            _ => {
                let _ = (srcs, c);
                return Err(Error::unsupported(
                    None,
                    format!("f16 {} is not selected", op.name()),
                ));
            }
        };
        Ok((r, Kind::Plain))
    }
}

/// The 16-bit VALU instruction of a divergent 16-bit integer op that reads only the low
/// halves of its sources, and whether it is a compare.
fn native16(op: AluOp) -> Option<(Opcode, bool)> {
    use AluOp::*;
    Some(match op {
        Imin => (Opcode::VMinI16, false),
        Imax => (Opcode::VMaxI16, false),
        Umin => (Opcode::VMinU16, false),
        Umax => (Opcode::VMaxU16, false),
        Ishl => (Opcode::VLshlrevB16, false),
        Ushr => (Opcode::VLshrrevB16, false),
        Ishr => (Opcode::VAshrrevI16, false),
        Ieq => (Opcode::VCmpEqU16, true),
        Ine => (Opcode::VCmpNeU16, true),
        Ilt => (Opcode::VCmpLtI16, true),
        Ige => (Opcode::VCmpGeI16, true),
        Ult => (Opcode::VCmpLtU16, true),
        Uge => (Opcode::VCmpGeU16, true),
        _ => return None,
    })
}

/// How an f16 operation is selected.
enum F16 {
    One(Opcode),
    Two(Opcode),
    Cmp(Opcode),
    Other,
}

/// The f16 selection of a float op (`None` for non-float ops); the caller checks that the
/// sources are 16-bit.
fn f16_op(op: AluOp) -> Option<F16> {
    use AluOp::*;
    Some(match op {
        Fadd => F16::Two(Opcode::VAddF16),
        Fsub => F16::Two(Opcode::VSubF16),
        Fmul => F16::Two(Opcode::VMulF16),
        Fmin => F16::Two(Opcode::VMinF16),
        Fmax => F16::Two(Opcode::VMaxF16),
        Ffloor => F16::One(Opcode::VFloorF16),
        Fceil => F16::One(Opcode::VCeilF16),
        Ftrunc => F16::One(Opcode::VTruncF16),
        FroundEven => F16::One(Opcode::VRndneF16),
        Ffract => F16::One(Opcode::VFractF16),
        Fsqrt => F16::One(Opcode::VSqrtF16),
        Frsq => F16::One(Opcode::VRsqF16),
        Frcp => F16::One(Opcode::VRcpF16),
        Fexp2 => F16::One(Opcode::VExpF16),
        Flog2 => F16::One(Opcode::VLogF16),
        Flt => F16::Cmp(Opcode::VCmpLtF16),
        Fge => F16::Cmp(Opcode::VCmpGeF16),
        Feq => F16::Cmp(Opcode::VCmpEqF16),
        Fneu => F16::Cmp(Opcode::VCmpNeqF16),
        Fltu => F16::Cmp(Opcode::VCmpNgeF16),
        Fgeu => F16::Cmp(Opcode::VCmpNltF16),
        Fequ => F16::Cmp(Opcode::VCmpNlgF16),
        Fneo => F16::Cmp(Opcode::VCmpLgF16),
        Fneg | Fabs | Fsat | Ffma | Flrp | Fsign | Fsin | Fcos | Fdiv | Fpow | Fldexp
        | FfrexpSig | FfrexpExp => F16::Other,
        _ => return None,
    })
}
