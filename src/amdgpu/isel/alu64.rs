//! 64-bit ALU selection: integers (SALU for uniform values where the ISA has 64-bit
//! scalar forms, VALU otherwise) and doubles (always VALU; uniform results come back
//! through `v_readfirstlane_b32`).
//!
//! Representation: a 64-bit component is one S2/V2 temp (or a constant). Halves are taken
//! with `p_split_vector` and rejoined with `p_create_vector`.
//! - add/sub: `s_add_u32`+`s_addc_u32` / `v_add_co_u32`+`v_addc_co_u32`.
//! - mul: lo·lo (`mul_lo` + `mul_hi_u32`) plus the two cross products into the high half.
//! - shifts: `s_lshl_b64`/`s_lshr_b64`/`s_ashr_i64`, `v_lshlrev_b64`/`v_lshrrev_b64`/
//!   `v_ashrrev_i64` (amount first); the amount is the low dword of a 64-bit source.
//! - compares: `v_cmp_*_{u,i,f}64`; a uniform compare ANDs the lane mask with exec
//!   and tests it on SCC (there is no 64-bit ordered scalar compare).
//! - min/max and select: a compare and `v_cndmask_b32` per half, or `s_cselect_b64`.
//! - division/remainder (`divide64.rs`), f64 division and square root (`f64.rs`).
//!
//! Constant bus: a 64-bit SGPR source cannot be split by `valu`'s legaliser, so
//! [`Isel::vsrc64`] moves every 64-bit scalar source but the first into VGPRs up front.
//! 64-bit constants are materialised into SGPR pairs (f64 inline constants differ from
//! f32 ones, so no 64-bit constant is encoded inline).

use super::legalize::src_comp;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{AluOp, Value};
use crate::isa::Opcode;

impl Isel<'_> {
    /// The (low, high) dword operands of a 64-bit machine value.
    pub(super) fn halves64(&mut self, mv: MV) -> Result<(Arg, Arg), Error> {
        match mv {
            MV::C(x) => Ok((Arg::Const(x as u32), Arg::Const((x >> 32) as u32))),
            MV::T(t, _) => {
                let p = self.split(t, 2)?;
                Ok((Arg::Temp(p[0]), Arg::Temp(p[1])))
            }
        }
    }

    /// Joins two dwords into a V2 (`div`) or S2 temp.
    pub(super) fn join64(&mut self, lo: Arg, hi: Arg, div: bool) -> Result<Temp, Error> {
        let (lo, hi) = if div {
            (self.to_vgpr(lo)?, self.to_vgpr(hi)?)
        } else {
            (self.to_sgpr(lo)?, self.to_sgpr(hi)?)
        };
        let d = self.tmp(if div { RegClass::V2 } else { RegClass::S2 });
        self.push(MInst::pseudo(
            Pseudo::CreateVector,
            &[Arg::Temp(d)],
            &[Arg::Temp(lo), Arg::Temp(hi)],
        ));
        Ok(d)
    }

    /// A 64-bit constant in an SGPR pair.
    pub(super) fn const64(&mut self, x: u64) -> Result<Temp, Error> {
        self.join64(Arg::Const(x as u32), Arg::Const((x >> 32) as u32), false)
    }

    /// 64-bit VALU sources: at most one scalar pair stays scalar (constant-bus limit of
    /// one on GFX9; 64-bit scalar sources count once each), the rest move to VGPRs.
    pub(super) fn vsrc64(&mut self, srcs: &[Arg]) -> Result<Vec<Arg>, Error> {
        let mut out = Vec::new();
        let mut scalar = None;
        for &a in srcs {
            match a {
                Arg::Temp(t) if self.p.rc(t).is_sgpr() => {
                    if scalar.is_none() || scalar == Some(a) {
                        scalar = Some(a);
                        out.push(a);
                    } else {
                        out.push(Arg::Temp(self.to_vgpr(a)?));
                    }
                }
                _ => out.push(a),
            }
        }
        Ok(out)
    }

    /// Reads a V2 result back into an S2 for a uniform IR value.
    fn uniform64(&mut self, t: Temp, div: bool) -> Result<MV, Error> {
        if div {
            Ok(MV::T(t, Kind::Plain))
        } else {
            Ok(MV::T(self.uniform_to_sgpr(t)?, Kind::Plain))
        }
    }

    /// A VALU instruction producing one V2 from 64-bit/32-bit sources.
    pub(super) fn v64(&mut self, op: Opcode, srcs: &[Arg]) -> Result<Temp, Error> {
        let srcs = self.vsrc64(srcs)?;
        let d = self.tmp(RegClass::V2);
        self.valu(op, &[Arg::Temp(d)], srcs)?;
        Ok(d)
    }

    /// A lane-mask compare of two 64-bit operands.
    pub(super) fn cmp64(&mut self, op: Opcode, x: Arg, y: Arg) -> Result<Temp, Error> {
        let s = self.vsrc64(&[x, y])?;
        let d = self.tmp(self.mask_rc());
        self.valu(op, &[Arg::Temp(d)], s)?;
        Ok(d)
    }

    /// A lane mask as the IR bool: itself when divergent, SCC → 0/1 when uniform.
    fn mask_result(&mut self, m: Temp, div: bool) -> Result<MV, Error> {
        if div {
            return Ok(MV::T(m, Kind::Mask));
        }
        let a = self.tmp(self.mask_rc());
        self.any_active_to_scc(m, a)?;
        let r = self.tmp(RegClass::S1);
        self.scc_to_bool(r)?;
        Ok(MV::T(r, Kind::UBool))
    }

    /// `mask ? x : y` on 64-bit operands (divergent: per half).
    pub(super) fn select64(&mut self, m: Arg, x: Arg, y: Arg) -> Result<Temp, Error> {
        let (xl, xh) = self.halves_arg(x)?;
        let (yl, yh) = self.halves_arg(y)?;
        let lo = self.tmp(RegClass::V1);
        let hi = self.tmp(RegClass::V1);
        self.valu(Opcode::VCndmaskB32, &[Arg::Temp(lo)], vec![yl, xl, m])?;
        self.valu(Opcode::VCndmaskB32, &[Arg::Temp(hi)], vec![yh, xh, m])?;
        self.join64(Arg::Temp(lo), Arg::Temp(hi), true)
    }

    fn halves_arg(&mut self, a: Arg) -> Result<(Arg, Arg), Error> {
        match a {
            Arg::Temp(t) => self.halves64(MV::T(t, Kind::Plain)),
            Arg::Const(x) => Ok((Arg::Const(x), Arg::Const(0))),
            _ => unreachable!("64-bit operands are temps or constants"),
        }
    }

    /// One component of a 64-bit ALU operation (64-bit result or 64-bit sources).
    pub(super) fn alu64(
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
        let kk = |k: usize| src_comp(f, srcs[k], c);
        let ty = f.ty(i);
        let sbits = f.ty(srcs[0]).bits;
        if is_float_op(op) || matches!(op, I2f | U2f) && ty.bits == 64 {
            return self.f64_op(i, op, srcs, c, div);
        }
        let h = |s: &mut Self, k: usize| -> Result<(Arg, Arg), Error> {
            let mv = s.get(srcs[k], kk(k))?;
            s.halves64(mv)
        };
        let a64 = |s: &mut Self, k: usize| s.arg(srcs[k], kk(k));
        match op {
            Iadd | Isub if ty.bits == 64 => {
                let (xl, xh) = h(self, 0)?;
                let (yl, yh) = h(self, 1)?;
                let lo = self.tmp(if div { RegClass::V1 } else { RegClass::S1 });
                let hi = self.tmp(if div { RegClass::V1 } else { RegClass::S1 });
                if div {
                    let carry = self.tmp(self.mask_rc());
                    let (n0, n1) = if op == Iadd {
                        (Opcode::VAddCoU32, Opcode::VAddcCoU32)
                    } else {
                        (Opcode::VSubCoU32, Opcode::VSubbCoU32)
                    };
                    let yl = Arg::Temp(self.to_vgpr(yl)?);
                    let yh = Arg::Temp(self.to_vgpr(yh)?);
                    self.valu(n0, &[Arg::Temp(lo), Arg::Temp(carry)], vec![xl, yl])?;
                    let c2 = self.tmp(self.mask_rc());
                    self.valu(
                        n1,
                        &[Arg::Temp(hi), Arg::Temp(c2)],
                        vec![xh, yh, Arg::Temp(carry)],
                    )?;
                } else {
                    let (xl, xh, yl, yh) = (
                        self.sgpr_or_const(xl)?,
                        self.sgpr_or_const(xh)?,
                        self.sgpr_or_const(yl)?,
                        self.sgpr_or_const(yh)?,
                    );
                    let (n0, n1) = if op == Iadd {
                        (Opcode::SAddU32, Opcode::SAddcU32)
                    } else {
                        (Opcode::SSubU32, Opcode::SSubbU32)
                    };
                    self.salu(n0, &[Arg::Temp(lo)], vec![xl, yl])?;
                    self.salu(n1, &[Arg::Temp(hi)], vec![xh, yh])?;
                }
                let d = self.join64(Arg::Temp(lo), Arg::Temp(hi), div)?;
                Ok(MV::T(d, Kind::Plain))
            }
            Ineg if ty.bits == 64 => {
                let (xl, xh) = h(self, 0)?;
                let (lo, hi) = self.sub64_halves((Arg::Const(0), Arg::Const(0)), (xl, xh), div)?;
                let d = self.join64(lo, hi, div)?;
                Ok(MV::T(d, Kind::Plain))
            }
            Iand | Ior | Ixor | Inot if ty.bits == 64 => {
                let (xl, xh) = h(self, 0)?;
                let (yl, yh) = if op == Inot {
                    (Arg::Const(u32::MAX), Arg::Const(u32::MAX))
                } else {
                    h(self, 1)?
                };
                let (vo, so) = match op {
                    Iand => (Opcode::VAndB32, Opcode::SAndB32),
                    Ior => (Opcode::VOrB32, Opcode::SOrB32),
                    _ => (Opcode::VXorB32, Opcode::SXorB32),
                };
                let mut r = std::vec::Vec::new();
                for (x, y) in [(xl, yl), (xh, yh)] {
                    if div {
                        let d = self.tmp(RegClass::V1);
                        self.valu(vo, &[Arg::Temp(d)], vec![x, y])?;
                        r.push(Arg::Temp(d));
                    } else {
                        let d = self.tmp(RegClass::S1);
                        let (x, y) = (self.sgpr_or_const(x)?, self.sgpr_or_const(y)?);
                        self.salu(so, &[Arg::Temp(d)], vec![x, y])?;
                        r.push(Arg::Temp(d));
                    }
                }
                let d = self.join64(r[0], r[1], div)?;
                Ok(MV::T(d, Kind::Plain))
            }
            Imul if ty.bits == 64 => {
                let (xl, xh) = h(self, 0)?;
                let (yl, yh) = h(self, 1)?;
                let (lo, hi) = self.mul64_halves((xl, xh), (yl, yh), div)?;
                let d = self.join64(lo, hi, div)?;
                Ok(MV::T(d, Kind::Plain))
            }
            Ishl | Ushr | Ishr if ty.bits == 64 => {
                let x = a64(self, 0)?;
                let amt = match self.get(srcs[1], kk(1))? {
                    MV::C(k) => Arg::Const((k & 63) as u32),
                    mv if f.ty(srcs[1]).bits == 64 => self.halves64(mv)?.0,
                    MV::T(t, _) => Arg::Temp(t),
                };
                if div {
                    let n = match op {
                        Ishl => Opcode::VLshlrevB64,
                        Ushr => Opcode::VLshrrevB64,
                        _ => Opcode::VAshrrevI64,
                    };
                    let d = self.v64(n, &[amt, x])?;
                    Ok(MV::T(d, Kind::Plain))
                } else {
                    let n = match op {
                        Ishl => Opcode::SLshlB64,
                        Ushr => Opcode::SLshrB64,
                        _ => Opcode::SAshrI64,
                    };
                    let amt = self.sgpr_or_const(amt)?;
                    let x = Arg::Temp(self.to_sgpr(x)?);
                    let d = self.tmp(RegClass::S2);
                    self.salu(n, &[Arg::Temp(d)], vec![x, amt])?;
                    Ok(MV::T(d, Kind::Plain))
                }
            }
            Imin | Imax | Umin | Umax if ty.bits == 64 => {
                let x = a64(self, 0)?;
                let y = a64(self, 1)?;
                let n = match op {
                    Imin => Opcode::VCmpLtI64,
                    Imax => Opcode::VCmpGtI64,
                    Umin => Opcode::VCmpLtU64,
                    _ => Opcode::VCmpGtU64,
                };
                let m = self.cmp64(n, x, y)?;
                if div {
                    let d = self.select64(Arg::Temp(m), x, y)?;
                    return Ok(MV::T(d, Kind::Plain));
                }
                let a = self.tmp(self.mask_rc());
                self.any_active_to_scc(m, a)?;
                let (x, y) = (self.to_sgpr(x)?, self.to_sgpr(y)?);
                let d = self.tmp(RegClass::S2);
                self.hw(
                    Opcode::SCselectB64,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(x), Arg::Temp(y)],
                )?;
                Ok(MV::T(d, Kind::Plain))
            }
            Ieq | Ine | Ilt | Ige | Ult | Uge if sbits == 64 => {
                let x = a64(self, 0)?;
                let y = a64(self, 1)?;
                let n = match op {
                    Ieq => Opcode::VCmpEqU64,
                    Ine => Opcode::VCmpNeU64,
                    Ilt => Opcode::VCmpLtI64,
                    Ige => Opcode::VCmpGeI64,
                    Ult => Opcode::VCmpLtU64,
                    _ => Opcode::VCmpGeU64,
                };
                let m = self.cmp64(n, x, y)?;
                self.mask_result(m, div)
            }
            Bcsel if ty.bits == 64 => {
                let x = a64(self, 1)?;
                let y = a64(self, 2)?;
                if div {
                    let m = self.mask(srcs[0], kk(0))?;
                    let d = self.select64(m, x, y)?;
                    return Ok(MV::T(d, Kind::Plain));
                }
                let cnd = self.ubool(srcs[0], kk(0))?;
                let cnd = Arg::Temp(self.to_sgpr(cnd)?);
                let (x, y) = (self.to_sgpr(x)?, self.to_sgpr(y)?);
                self.hw(Opcode::SCmpLgU32, &[], &[cnd, Arg::Const(0)])?;
                let d = self.tmp(RegClass::S2);
                self.hw(
                    Opcode::SCselectB64,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(x), Arg::Temp(y)],
                )?;
                Ok(MV::T(d, Kind::Plain))
            }
            B2i if ty.bits == 64 => {
                let lo = if div {
                    let m = self.mask(srcs[0], kk(0))?;
                    let d = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VCndmaskB32,
                        &[Arg::Temp(d)],
                        vec![Arg::Const(0), Arg::Const(1), m],
                    )?;
                    Arg::Temp(d)
                } else {
                    self.ubool(srcs[0], kk(0))?
                };
                let d = self.join64(lo, Arg::Const(0), div)?;
                Ok(MV::T(d, Kind::Plain))
            }
            U2u | I2i if ty.bits == 64 && sbits == 32 => {
                let x = self.arg(srcs[0], kk(0))?;
                let hi = if op == U2u {
                    Arg::Const(0)
                } else if div {
                    let d = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VAshrrevI32,
                        &[Arg::Temp(d)],
                        vec![Arg::Const(31), x],
                    )?;
                    Arg::Temp(d)
                } else {
                    let d = self.tmp(RegClass::S1);
                    let xs = self.sgpr_or_const(x)?;
                    self.salu(Opcode::SAshrI32, &[Arg::Temp(d)], vec![xs, Arg::Const(31)])?;
                    Arg::Temp(d)
                };
                let d = self.join64(x, hi, div)?;
                Ok(MV::T(d, Kind::Plain))
            }
            U2u | I2i if ty.bits == 64 && sbits == 64 => self.get(srcs[0], kk(0)),
            U2u | I2i if ty.bits == 32 && sbits == 64 => {
                let (lo, _) = h(self, 0)?;
                match lo {
                    Arg::Const(x) => Ok(MV::C(x as u64)),
                    Arg::Temp(t) => Ok(MV::T(t, Kind::Plain)),
                    _ => unreachable!(),
                }
            }
            Udiv | Umod | Idiv | Irem | Imod if ty.bits == 64 => {
                let x = a64(self, 0)?;
                let y = a64(self, 1)?;
                let x = Arg::Temp(self.to_vgpr(x)?);
                let y = Arg::Temp(self.to_vgpr(y)?);
                let r = self.divrem64(op, x, y)?;
                self.uniform64(r, div)
            }
            _ => Err(Error::unsupported(at, format!("64-bit {}", op.name()))),
        }
    }

    /// `x - y` on (lo, hi) halves.
    pub(super) fn sub64_halves(
        &mut self,
        x: (Arg, Arg),
        y: (Arg, Arg),
        div: bool,
    ) -> Result<(Arg, Arg), Error> {
        if div {
            let lo = self.tmp(RegClass::V1);
            let hi = self.tmp(RegClass::V1);
            let b = self.tmp(self.mask_rc());
            let b2 = self.tmp(self.mask_rc());
            let yl = Arg::Temp(self.to_vgpr(y.0)?);
            let yh = Arg::Temp(self.to_vgpr(y.1)?);
            self.valu(
                Opcode::VSubCoU32,
                &[Arg::Temp(lo), Arg::Temp(b)],
                vec![x.0, yl],
            )?;
            self.valu(
                Opcode::VSubbCoU32,
                &[Arg::Temp(hi), Arg::Temp(b2)],
                vec![x.1, yh, Arg::Temp(b)],
            )?;
            Ok((Arg::Temp(lo), Arg::Temp(hi)))
        } else {
            let lo = self.tmp(RegClass::S1);
            let hi = self.tmp(RegClass::S1);
            let (xl, xh) = (self.sgpr_or_const(x.0)?, self.sgpr_or_const(x.1)?);
            let (yl, yh) = (self.sgpr_or_const(y.0)?, self.sgpr_or_const(y.1)?);
            self.salu(Opcode::SSubU32, &[Arg::Temp(lo)], vec![xl, yl])?;
            self.salu(Opcode::SSubbU32, &[Arg::Temp(hi)], vec![xh, yh])?;
            Ok((Arg::Temp(lo), Arg::Temp(hi)))
        }
    }

    /// The low 64 bits of `x * y` on halves: lo = xl·yl, hi = mulhi(xl, yl) + xl·yh +
    /// xh·yl.
    pub(super) fn mul64_halves(
        &mut self,
        x: (Arg, Arg),
        y: (Arg, Arg),
        div: bool,
    ) -> Result<(Arg, Arg), Error> {
        let (xl, xh) = x;
        let (yl, yh) = y;
        if div {
            let v = |s: &mut Self| s.tmp(RegClass::V1);
            let lo = v(self);
            self.valu(Opcode::VMulLoU32, &[Arg::Temp(lo)], vec![xl, yl])?;
            let mh = v(self);
            self.valu(Opcode::VMulHiU32, &[Arg::Temp(mh)], vec![xl, yl])?;
            let c1 = v(self);
            self.valu(Opcode::VMulLoU32, &[Arg::Temp(c1)], vec![xl, yh])?;
            let c2 = v(self);
            self.valu(Opcode::VMulLoU32, &[Arg::Temp(c2)], vec![xh, yl])?;
            let s1 = v(self);
            self.valu(
                Opcode::VAddU32,
                &[Arg::Temp(s1)],
                vec![Arg::Temp(mh), Arg::Temp(c1)],
            )?;
            let hi = v(self);
            self.valu(
                Opcode::VAddU32,
                &[Arg::Temp(hi)],
                vec![Arg::Temp(s1), Arg::Temp(c2)],
            )?;
            Ok((Arg::Temp(lo), Arg::Temp(hi)))
        } else {
            let s = |s: &mut Self| s.tmp(RegClass::S1);
            let (xl, xh) = (self.sgpr_or_const(xl)?, self.sgpr_or_const(xh)?);
            let (yl, yh) = (self.sgpr_or_const(yl)?, self.sgpr_or_const(yh)?);
            let xl = Arg::Temp(self.to_sgpr(xl)?);
            let lo = s(self);
            self.salu(Opcode::SMulI32, &[Arg::Temp(lo)], vec![xl, yl])?;
            let mh = s(self);
            self.salu(Opcode::SMulHiU32, &[Arg::Temp(mh)], vec![xl, yl])?;
            let c1 = s(self);
            self.salu(Opcode::SMulI32, &[Arg::Temp(c1)], vec![xl, yh])?;
            let c2 = s(self);
            self.salu(Opcode::SMulI32, &[Arg::Temp(c2)], vec![xh, yl])?;
            let s1 = s(self);
            self.salu(
                Opcode::SAddU32,
                &[Arg::Temp(s1)],
                vec![Arg::Temp(mh), Arg::Temp(c1)],
            )?;
            let hi = s(self);
            self.salu(
                Opcode::SAddU32,
                &[Arg::Temp(hi)],
                vec![Arg::Temp(s1), Arg::Temp(c2)],
            )?;
            Ok((Arg::Temp(lo), Arg::Temp(hi)))
        }
    }
}

/// Whether `op` is float arithmetic or a float compare/conversion from a float source.
fn is_float_op(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Fneg | Fabs
            | Fsat
            | Fsign
            | Ffloor
            | Fceil
            | Ftrunc
            | FroundEven
            | Ffract
            | Fsqrt
            | Frsq
            | Frcp
            | Fadd
            | Fsub
            | Fmul
            | Fdiv
            | Fmin
            | Fmax
            | Ffma
            | Flrp
            | Flt
            | Fge
            | Feq
            | Fneu
            | Fltu
            | Fgeu
            | Fequ
            | Fneo
            | F2f
            | F2i
            | F2u
    )
}
