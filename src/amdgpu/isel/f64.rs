//! Double-precision selection (VALU only; uniform results are read back into SGPRs).
//!
//! - add/sub/mul/fma/min/max: `v_add_f64` (sub via the `neg` source modifier is not
//!   modelled in MIR, so `x - y` is `x + (y ^ sign)`), `v_mul_f64`, `v_fma_f64`,
//!   `v_min_f64`/`v_max_f64`.
//! - floor/ceil/trunc/round-even/fract: the VOP1 `_f64` forms (all present on GFX9+).
//! - neg/abs: the sign bit of the high dword.
//! - compares: `v_cmp_*_f64`; conversions `v_cvt_f64_{f32,i32,u32}`,
//!   `v_cvt_{f32,i32,u32}_f64`.
//! - division: `v_rcp_f64`, two Newton–Raphson steps on the reciprocal, the quotient and
//!   one residual correction (`q + r·(1/y)` with `r = fma(-y, q, x)`), then
//!   `v_div_fixup_f64` for zeros, infinities, NaN and overflow. Not the
//!   `v_div_scale`/`v_div_fmas` sequence: results are correctly rounded except when `x`
//!   or `y` is within a factor 2^53 of the exponent range ends (no pre-scaling).
//! - square root: `v_rsq_f64`, Goldschmidt's iteration (g = x·r, h = r/2, two residual
//!   corrections), as LLVM expands it, and `x` itself for ±0 and +inf; inputs below
//!   2^-767 are not pre-scaled (precision loss for tiny subnormal-range inputs).
//!
//! No 64-bit constant is encoded inline: constants are materialised in SGPR pairs.

use super::alu::src_comp;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{AluOp, Value};

const SIGN_HI: u32 = 0x8000_0000;
const ONE: u64 = 0x3ff0_0000_0000_0000;
const HALF: u64 = 0x3fe0_0000_0000_0000;

impl Isel<'_> {
    /// A 64-bit operand of component `c` of source `k`.
    fn f64_src(&mut self, srcs: &[Value], k: usize, c: usize) -> Result<Arg, Error> {
        let kk = src_comp(self.f, srcs[k], c);
        self.arg(srcs[k], kk)
    }

    /// `x` with the high dword's sign bit changed (`and` to clear, `xor` to flip).
    fn f64_sign(&mut self, x: Arg, op: &str, mask: u32) -> Result<Temp, Error> {
        let (lo, hi) = match x {
            Arg::Temp(t) => self.halves64(MV::T(t, Kind::Plain))?,
            _ => unreachable!("64-bit operands are temps"),
        };
        let h = self.tmp(RegClass::V1);
        self.valu(op, &[Arg::Temp(h)], vec![Arg::Const(mask), hi])?;
        self.join64(lo, Arg::Temp(h), true)
    }

    fn fneg64(&mut self, x: Arg) -> Result<Temp, Error> {
        self.f64_sign(x, "v_xor_b32", SIGN_HI)
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
                Ok(MV::T(s.to_sgpr(Arg::Temp(t))?, Kind::Plain))
            }
        };
        // compares
        let cmp = match op {
            Flt => Some("v_cmp_lt_f64"),
            Fge => Some("v_cmp_ge_f64"),
            Feq => Some("v_cmp_eq_f64"),
            Fneu => Some("v_cmp_neq_f64"),
            Fltu => Some("v_cmp_nge_f64"),
            Fgeu => Some("v_cmp_nlt_f64"),
            Fequ => Some("v_cmp_nlg_f64"),
            Fneo => Some("v_cmp_lg_f64"),
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
                let d = self.v64("v_cvt_f64_f32", &[x])?;
                return done(self, d);
            }
            I2f | U2f if ty.bits == 64 && sbits == 32 => {
                let x = self.f64_src(srcs, 0, c)?;
                let n = if op == I2f {
                    "v_cvt_f64_i32"
                } else {
                    "v_cvt_f64_u32"
                };
                let d = self.v64(n, &[x])?;
                return done(self, d);
            }
            F2f | F2i | F2u if sbits == 64 && ty.bits == 32 => {
                let x = self.f64_src(srcs, 0, c)?;
                let n = match op {
                    F2f => "v_cvt_f32_f64",
                    F2i => "v_cvt_i32_f64",
                    _ => "v_cvt_u32_f64",
                };
                let s = self.vsrc64(&[x])?;
                let d = self.tmp(RegClass::V1);
                self.valu(n, &[Arg::Temp(d)], s)?;
                return if div {
                    Ok(MV::T(d, Kind::Plain))
                } else {
                    Ok(MV::T(self.to_sgpr(Arg::Temp(d))?, Kind::Plain))
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
                    Fadd => "v_add_f64",
                    Fmul => "v_mul_f64",
                    Fmin => "v_min_f64",
                    _ => "v_max_f64",
                };
                self.v64(n, &[x, y])?
            }
            Fsub => {
                let y = self.f64_src(srcs, 1, c)?;
                let ny = self.fneg64(y)?;
                self.v64("v_add_f64", &[x, Arg::Temp(ny)])?
            }
            Ffma => {
                let y = self.f64_src(srcs, 1, c)?;
                let z = self.f64_src(srcs, 2, c)?;
                self.v64("v_fma_f64", &[x, y, z])?
            }
            Ffloor | Fceil | Ftrunc | FroundEven | Ffract | Frcp | Frsq => {
                let n = match op {
                    Ffloor => "v_floor_f64",
                    Fceil => "v_ceil_f64",
                    Ftrunc => "v_trunc_f64",
                    FroundEven => "v_rndne_f64",
                    Ffract => "v_fract_f64",
                    Frcp => "v_rcp_f64",
                    _ => "v_rsq_f64",
                };
                self.v64(n, &[x])?
            }
            Fneg => self.fneg64(x)?,
            Fabs => self.f64_sign(x, "v_and_b32", !SIGN_HI)?,
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
        self.v64("v_fma_f64", &[a, b, c])
    }

    /// x / y: reciprocal refined twice, quotient corrected once, special cases fixed up.
    fn fdiv64(&mut self, x: Arg, y: Arg) -> Result<Temp, Error> {
        let x = Arg::Temp(self.to_vgpr(x)?);
        let y = Arg::Temp(self.to_vgpr(y)?);
        let one = Arg::Temp(self.const64(ONE)?);
        let ny = Arg::Temp(self.fneg64(y)?);
        let r0 = Arg::Temp(self.v64("v_rcp_f64", &[y])?);
        // r' = r + r·(1 - y·r), twice
        let e0 = Arg::Temp(self.fma64(ny, r0, one)?);
        let r1 = Arg::Temp(self.fma64(r0, e0, r0)?);
        let e1 = Arg::Temp(self.fma64(ny, r1, one)?);
        let r2 = Arg::Temp(self.fma64(r1, e1, r1)?);
        let q0 = Arg::Temp(self.v64("v_mul_f64", &[x, r2])?);
        let res = Arg::Temp(self.fma64(ny, q0, x)?);
        let q1 = Arg::Temp(self.fma64(res, r2, q0)?);
        self.v64("v_div_fixup_f64", &[q1, y, x])
    }

    /// sqrt(x): g = x·rsq(x), h = rsq(x)/2, refined; x for ±0 and +inf.
    fn fsqrt64(&mut self, x: Arg) -> Result<Temp, Error> {
        let x = Arg::Temp(self.to_vgpr(x)?);
        let half = Arg::Temp(self.const64(HALF)?);
        let y = Arg::Temp(self.v64("v_rsq_f64", &[x])?);
        let g0 = Arg::Temp(self.v64("v_mul_f64", &[x, y])?);
        let h0 = Arg::Temp(self.v64("v_mul_f64", &[y, half])?);
        let nh0 = Arg::Temp(self.fneg64(h0)?);
        let r = Arg::Temp(self.fma64(nh0, g0, half)?);
        let g1 = Arg::Temp(self.fma64(g0, r, g0)?);
        let h1 = Arg::Temp(self.fma64(h0, r, h0)?);
        let mut g = g1;
        for _ in 0..2 {
            let ng = Arg::Temp(self.fneg64(g)?);
            let d = Arg::Temp(self.fma64(ng, g, x)?);
            g = Arg::Temp(self.fma64(d, h1, g)?);
        }
        // ±0 and +inf (class bits 5, 6, 9) pass through
        let m = self.tmp(self.mask_rc());
        let cls = Arg::Temp(self.to_vgpr(Arg::Const(0x260))?);
        self.valu("v_cmp_class_f64", &[Arg::Temp(m)], vec![x, cls])?;
        let Arg::Temp(gt) = g else { unreachable!() };
        let (gl, gh) = self.halves64(MV::T(gt, Kind::Plain))?;
        let (xl, xh) = self.halves64(MV::T(x.temp().unwrap(), Kind::Plain))?;
        let lo = self.tmp(RegClass::V1);
        let hi = self.tmp(RegClass::V1);
        self.valu(
            "v_cndmask_b32",
            &[Arg::Temp(lo)],
            vec![gl, xl, Arg::Temp(m)],
        )?;
        self.valu(
            "v_cndmask_b32",
            &[Arg::Temp(hi)],
            vec![gh, xh, Arg::Temp(m)],
        )?;
        self.join64(Arg::Temp(lo), Arg::Temp(hi), true)
    }
}
