//! Double-precision selection (VALU only; uniform results are read back into SGPRs).
//!
//! - add/sub/mul/fma/min/max: `v_add_f64` (`x - y` with the `neg` modifier on `y`),
//!   `v_mul_f64`, `v_fma_f64`, `v_min_f64`/`v_max_f64`.
//! - floor/ceil/trunc/round-even/fract: the VOP1 `_f64` forms (all present on GFX9+).
//! - neg/abs: the sign bit of the high dword.
//! - compares: `v_cmp_*_f64`; conversions `v_cvt_f64_{f32,i32,u32}`,
//!   `v_cvt_{f32,i32,u32}_f64`.
//! - division: correctly rounded, `v_div_scale_f64` ×2, `v_rcp_f64`, Newton–Raphson,
//!   `v_div_fmas_f64` (VCC from the dividend's scale), `v_div_fixup_f64` (see `fdiv64`).
//! - square root: `v_rsq_f64`, Goldschmidt's iteration (g = x·r, h = r/2, two residual
//!   corrections) with range scaling, as LLVM expands it (see `fsqrt64`).
//!
//! No 64-bit constant is encoded inline: constants are materialised in SGPR pairs.

use super::legalize::src_comp;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{AluOp, Value};
use crate::isa::Opcode;

const SIGN_HI: u32 = 0x8000_0000;
const ONE: u64 = 0x3ff0_0000_0000_0000;
const HALF: u64 = 0x3fe0_0000_0000_0000;
/// 2^-767: below it, sqrt's input is scaled up first.
const TINY: u64 = 0x1000_0000_0000_0000;

impl Isel<'_> {
    /// A 64-bit operand of component `c` of source `k`.
    fn f64_src(&mut self, srcs: &[Value], k: usize, c: usize) -> Result<Arg, Error> {
        let kk = src_comp(self.f, srcs[k], c);
        self.arg(srcs[k], kk)
    }

    /// `x` with the high dword's sign bit changed (`and` to clear, `xor` to flip).
    fn f64_sign(&mut self, x: Arg, op: Opcode, mask: u32) -> Result<Temp, Error> {
        let (lo, hi) = match x {
            Arg::Temp(t) => self.halves64(MV::T(t, Kind::Plain))?,
            _ => unreachable!("64-bit operands are temps"),
        };
        let h = self.tmp(RegClass::V1);
        self.valu(op, &[Arg::Temp(h)], vec![Arg::Const(mask), hi])?;
        self.join64(lo, Arg::Temp(h), true)
    }

    fn fneg64(&mut self, x: Arg) -> Result<Temp, Error> {
        self.f64_sign(x, Opcode::VXorB32, SIGN_HI)
    }

    pub(super) fn f64_op(
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
        let ty = f.ty(i);
        let sbits = f.ty(srcs[0]).bits;
        let unsup = || Error::unsupported(at, format!("64-bit float {}", op.name()));
        let done = |s: &mut Self, t: Temp| -> Result<MV, Error> {
            if div {
                Ok(MV::T(t, Kind::Plain))
            } else {
                Ok(MV::T(s.uniform_to_sgpr(t)?, Kind::Plain))
            }
        };
        // compares
        let cmp = match op {
            Flt => Some(Opcode::VCmpLtF64),
            Fge => Some(Opcode::VCmpGeF64),
            Feq => Some(Opcode::VCmpEqF64),
            Fneu => Some(Opcode::VCmpNeqF64),
            Fltu => Some(Opcode::VCmpNgeF64),
            Fgeu => Some(Opcode::VCmpNltF64),
            Fequ => Some(Opcode::VCmpNlgF64),
            Fneo => Some(Opcode::VCmpLgF64),
            _ => None,
        };
        if let Some(n) = cmp {
            let x = self.f64_src(srcs, 0, c)?;
            let y = self.f64_src(srcs, 1, c)?;
            let s = self.vsrc64(&[x, y])?;
            let m = self.tmp(self.mask_rc());
            self.valu(n, &[Arg::Temp(m)], s)?;
            if div {
                return Ok(MV::T(m, Kind::Mask));
            }
            let a = self.tmp(self.mask_rc());
            self.any_active_to_scc(m, a)?;
            let r = self.tmp(RegClass::S1);
            self.scc_to_bool(r)?;
            return Ok(MV::T(r, Kind::UBool));
        }
        // conversions
        match op {
            F2f if ty.bits == 64 && sbits == 32 => {
                let x = self.f64_src(srcs, 0, c)?;
                let d = self.v64(Opcode::VCvtF64F32, &[x])?;
                return done(self, d);
            }
            I2f | U2f if ty.bits == 64 && sbits == 32 => {
                let x = self.f64_src(srcs, 0, c)?;
                let n = if op == I2f {
                    Opcode::VCvtF64I32
                } else {
                    Opcode::VCvtF64U32
                };
                let d = self.v64(n, &[x])?;
                return done(self, d);
            }
            F2f | F2i | F2u if sbits == 64 && ty.bits == 32 => {
                let x = self.f64_src(srcs, 0, c)?;
                let n = match op {
                    F2f => Opcode::VCvtF32F64,
                    F2i => Opcode::VCvtI32F64,
                    _ => Opcode::VCvtU32F64,
                };
                let s = self.vsrc64(&[x])?;
                let d = self.tmp(RegClass::V1);
                self.valu(n, &[Arg::Temp(d)], s)?;
                return if div {
                    Ok(MV::T(d, Kind::Plain))
                } else {
                    Ok(MV::T(self.uniform_to_sgpr(d)?, Kind::Plain))
                };
            }
            _ => {}
        }
        if ty.bits != 64 || sbits != 64 {
            return Err(unsup());
        }
        let x = self.f64_src(srcs, 0, c)?;
        let d = match op {
            Fadd | Fmul | Fmin | Fmax => {
                let y = self.f64_src(srcs, 1, c)?;
                let n = match op {
                    Fadd => Opcode::VAddF64,
                    Fmul => Opcode::VMulF64,
                    Fmin => Opcode::VMinF64,
                    _ => Opcode::VMaxF64,
                };
                self.v64(n, &[x, y])?
            }
            Fsub => {
                let y = self.f64_src(srcs, 1, c)?;
                let d = self.v64(Opcode::VAddF64, &[x, y])?;
                self.set_neg_last(2);
                d
            }
            Ffma => {
                let y = self.f64_src(srcs, 1, c)?;
                let z = self.f64_src(srcs, 2, c)?;
                self.v64(Opcode::VFmaF64, &[x, y, z])?
            }
            Ffloor | Fceil | Ftrunc | FroundEven | Ffract | Frcp | Frsq => {
                let n = match op {
                    Ffloor => Opcode::VFloorF64,
                    Fceil => Opcode::VCeilF64,
                    Ftrunc => Opcode::VTruncF64,
                    FroundEven => Opcode::VRndneF64,
                    Ffract => Opcode::VFractF64,
                    Frcp => Opcode::VRcpF64,
                    _ => Opcode::VRsqF64,
                };
                self.v64(n, &[x])?
            }
            Fneg => self.fneg64(x)?,
            Fabs => self.f64_sign(x, Opcode::VAndB32, !SIGN_HI)?,
            Fdiv => {
                let y = self.f64_src(srcs, 1, c)?;
                self.fdiv64(x, y)?
            }
            Fsqrt => self.fsqrt64(x)?,
            _ => return Err(unsup()),
        };
        done(self, d)
    }

    /// `fma(a, b, c)` on 64-bit operands.
    fn fma64(&mut self, a: Arg, b: Arg, c: Arg) -> Result<Temp, Error> {
        self.v64(Opcode::VFmaF64, &[a, b, c])
    }

    /// `v_fma_f64` with the `neg` source-modifier bits `neg` (bit k negates source k).
    fn fma64_neg(&mut self, a: Arg, b: Arg, c: Arg, neg: u8) -> Result<Temp, Error> {
        let d = self.fma64(a, b, c)?;
        self.set_neg_last(neg);
        Ok(d)
    }

    /// Sets the `neg` source modifiers of the instruction just pushed (a VOP3 form).
    fn set_neg_last(&mut self, neg: u8) {
        let cur = self.cur;
        let last = self
            .p
            .block_mut(cur)
            .insts
            .last_mut()
            .expect("an instruction was just pushed");
        last.mods.neg = neg;
    }

    /// x / y, correctly rounded: LLVM's expansion. `v_div_scale_f64` scales the divisor
    /// and the dividend away from the exponent range ends (the dividend's scaling flag
    /// goes to VCC), the reciprocal is refined twice by Newton–Raphson, the quotient once,
    /// `v_div_fmas_f64` applies the final correction and undoes the scaling (reading
    /// VCC), and `v_div_fixup_f64` handles zeros, infinities and NaN. VCC is never
    /// allocated to a temp, and nothing between the scale and the fmas writes it.
    fn fdiv64(&mut self, x: Arg, y: Arg) -> Result<Temp, Error> {
        let x = Arg::Temp(self.to_vgpr(x)?);
        let y = Arg::Temp(self.to_vgpr(y)?);
        let one = Arg::Temp(self.const64(ONE)?);
        let vcc = Arg::Reg(crate::isa::Reg::vcc(self.t().wave));
        let den = self.tmp(RegClass::V2);
        let unused = self.tmp(self.mask_rc());
        self.valu(
            Opcode::VDivScaleF64,
            &[Arg::Temp(den), Arg::Temp(unused)],
            vec![y, y, x],
        )?;
        let num = self.tmp(RegClass::V2);
        self.valu(Opcode::VDivScaleF64, &[Arg::Temp(num), vcc], vec![x, y, x])?;
        let (den, num) = (Arg::Temp(den), Arg::Temp(num));
        let rcp = Arg::Temp(self.v64(Opcode::VRcpF64, &[den])?);
        let e0 = Arg::Temp(self.fma64_neg(den, rcp, one, 1)?);
        let r1 = Arg::Temp(self.fma64(rcp, e0, rcp)?);
        let e1 = Arg::Temp(self.fma64_neg(den, r1, one, 1)?);
        let r2 = Arg::Temp(self.fma64(r1, e1, r1)?);
        let q = Arg::Temp(self.v64(Opcode::VMulF64, &[num, r2])?);
        let rem = Arg::Temp(self.fma64_neg(den, q, num, 1)?);
        let fmas = Arg::Temp(self.v64(Opcode::VDivFmasF64, &[rem, r2, q])?);
        self.v64(Opcode::VDivFixupF64, &[fmas, y, x])
    }

    /// sqrt(x), LLVM's expansion: inputs below 2^-767 are scaled by 2^256 (and the root
    /// by 2^-128), g = x·rsq(x) and h = rsq(x)/2 are refined by Goldschmidt's iteration
    /// and two residual corrections; ±0 and +inf pass through (`v_cmp_class_f64`).
    fn fsqrt64(&mut self, x: Arg) -> Result<Temp, Error> {
        let x = Arg::Temp(self.to_vgpr(x)?);
        let half = Arg::Temp(self.const64(HALF)?);
        let tiny = Arg::Temp(self.const64(TINY)?);
        let small = self.tmp(self.mask_rc());
        self.valu(Opcode::VCmpGtF64, &[Arg::Temp(small)], vec![tiny, x])?;
        let sc = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(sc)],
            vec![Arg::Const(0), Arg::Const(256), Arg::Temp(small)],
        )?;
        let xs = Arg::Temp(self.v64(Opcode::VLdexpF64, &[x, Arg::Temp(sc)])?);
        let y = Arg::Temp(self.v64(Opcode::VRsqF64, &[xs])?);
        let g0 = Arg::Temp(self.v64(Opcode::VMulF64, &[xs, y])?);
        let h0 = Arg::Temp(self.v64(Opcode::VMulF64, &[y, half])?);
        let r = Arg::Temp(self.fma64_neg(h0, g0, half, 1)?);
        let g1 = Arg::Temp(self.fma64(g0, r, g0)?);
        let h1 = Arg::Temp(self.fma64(h0, r, h0)?);
        let mut g = g1;
        for _ in 0..2 {
            let d = Arg::Temp(self.fma64_neg(g, g, xs, 1)?);
            g = Arg::Temp(self.fma64(d, h1, g)?);
        }
        let un = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(un)],
            vec![Arg::Const(0), Arg::Const(-128i32 as u32), Arg::Temp(small)],
        )?;
        let g = self.v64(Opcode::VLdexpF64, &[g, Arg::Temp(un)])?;
        // ±0 and +inf (class bits 5, 6, 9) pass through
        let m = self.tmp(self.mask_rc());
        let cls = Arg::Temp(self.to_vgpr(Arg::Const(0x260))?);
        self.valu(Opcode::VCmpClassF64, &[Arg::Temp(m)], vec![xs, cls])?;
        let (gl, gh) = self.halves64(MV::T(g, Kind::Plain))?;
        let (xl, xh) = self.halves64(MV::T(xs.temp().unwrap(), Kind::Plain))?;
        let lo = self.tmp(RegClass::V1);
        let hi = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(lo)],
            vec![gl, xl, Arg::Temp(m)],
        )?;
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(hi)],
            vec![gh, xh, Arg::Temp(m)],
        )?;
        self.join64(Arg::Temp(lo), Arg::Temp(hi), true)
    }
}
