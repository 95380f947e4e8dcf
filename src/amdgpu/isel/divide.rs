//! 32-bit integer division and remainder on the VALU (there is no divide instruction).
//!
//! Unsigned: the reciprocal of the divisor in f32 (`v_rcp_iflag_f32`), scaled by
//! 0x4f7ffffe (just under 2^32) and converted back gives an estimate z of 2^32/d; one
//! Newton–Raphson step (z += mulhi(z, −d·z)) makes q = mulhi(n, z) at most two below the
//! quotient, and two conditional corrections (r ≥ d → q+1, r−d) finish it — the expansion
//! LLVM's AMDGPU backend uses (AMDGPUCodeGenPrepare). Signed forms divide magnitudes and
//! fix signs: the quotient takes sign(a)·sign(b), `irem` the dividend's sign, `imod` the
//! divisor's. Division by zero is undefined in SPIR-V; the result is whatever falls out.

use super::Isel;
use crate::amdgpu::mir::{Arg, RegClass, Temp};
use crate::amdgpu::Error;
use crate::isa::Opcode;

impl Isel<'_> {
    fn v(&mut self) -> Temp {
        self.tmp(RegClass::V1)
    }

    fn v2(&mut self, op: Opcode, a: Arg, b: Arg) -> Result<Arg, Error> {
        let d = self.v();
        self.valu(op, &[Arg::Temp(d)], vec![a, b])?;
        Ok(Arg::Temp(d))
    }

    /// (quotient, remainder) of unsigned `n / d`.
    pub(super) fn udivrem(&mut self, n: Arg, d: Arg) -> Result<(Arg, Arg), Error> {
        const ADD: Opcode = Opcode::VAddU32;
        const SUB: Opcode = Opcode::VSubU32;
        let n = Arg::Temp(self.to_vgpr(n)?);
        let d = Arg::Temp(self.to_vgpr(d)?);
        let fd = self.v();
        self.valu(Opcode::VCvtF32U32, &[Arg::Temp(fd)], vec![d])?;
        let rc = self.v();
        self.valu(Opcode::VRcpIflagF32, &[Arg::Temp(rc)], vec![Arg::Temp(fd)])?;
        let sc = self.v2(Opcode::VMulF32, Arg::Const(0x4f7f_fffe), Arg::Temp(rc))?;
        let z = self.v();
        self.valu(Opcode::VCvtU32F32, &[Arg::Temp(z)], vec![sc])?;
        let negd = self.v2(SUB, Arg::Const(0), d)?;
        let t = self.v2(Opcode::VMulLoU32, negd, Arg::Temp(z))?;
        let h = self.v2(Opcode::VMulHiU32, Arg::Temp(z), t)?;
        let z2 = self.v2(ADD, Arg::Temp(z), h)?;
        let mut q = self.v2(Opcode::VMulHiU32, n, z2)?;
        let qd = self.v2(Opcode::VMulLoU32, q, d)?;
        let mut r = self.v2(SUB, n, qd)?;
        for _ in 0..2 {
            let q1 = self.v2(ADD, Arg::Const(1), q)?;
            let r1 = self.v2(SUB, r, d)?;
            let m = self.tmp(self.mask_rc());
            self.valu(Opcode::VCmpGeU32, &[Arg::Temp(m)], vec![r, d])?;
            let qn = self.v();
            self.valu(
                Opcode::VCndmaskB32,
                &[Arg::Temp(qn)],
                vec![q, q1, Arg::Temp(m)],
            )?;
            let rn = self.v();
            self.valu(
                Opcode::VCndmaskB32,
                &[Arg::Temp(rn)],
                vec![r, r1, Arg::Temp(m)],
            )?;
            q = Arg::Temp(qn);
            r = Arg::Temp(rn);
        }
        Ok((q, r))
    }

    /// `(x ^ s) - s`: negates x where s is all ones.
    fn apply_sign(&mut self, x: Arg, s: Arg) -> Result<Arg, Error> {
        let t = self.v2(Opcode::VXorB32, x, s)?;
        self.v2(Opcode::VSubU32, t, s)
    }

    /// Signed division family: `which` is "div", "rem" (sign of a) or "mod" (sign of b).
    pub(super) fn sdivrem(&mut self, a: Arg, b: Arg, which: &str) -> Result<Arg, Error> {
        let a = Arg::Temp(self.to_vgpr(a)?);
        let b = Arg::Temp(self.to_vgpr(b)?);
        let sa = self.v2(Opcode::VAshrrevI32, Arg::Const(31), a)?;
        let sb = self.v2(Opcode::VAshrrevI32, Arg::Const(31), b)?;
        let ua = self.apply_sign(a, sa)?;
        let ub = self.apply_sign(b, sb)?;
        let (q, r) = self.udivrem(ua, ub)?;
        match which {
            "div" => {
                let s = self.v2(Opcode::VXorB32, sa, sb)?;
                self.apply_sign(q, s)
            }
            "rem" => self.apply_sign(r, sa),
            _ => {
                let r = self.apply_sign(r, sa)?;
                // r != 0 and sign(r) != sign(b) → r + b
                let rb = self.v2(Opcode::VAddU32, r, b)?;
                let x = self.v2(Opcode::VXorB32, r, b)?;
                let neg = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpGtI32, &[Arg::Temp(neg)], vec![Arg::Const(0), x])?;
                let nz = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpNeU32, &[Arg::Temp(nz)], vec![Arg::Const(0), r])?;
                let m = self.tmp(self.mask_rc());
                self.hw_lane(
                    Opcode::SAndB32,
                    &[Arg::Temp(m)],
                    &[Arg::Temp(neg), Arg::Temp(nz)],
                )?;
                let d = self.v();
                self.valu(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(d)],
                    vec![r, rb, Arg::Temp(m)],
                )?;
                Ok(Arg::Temp(d))
            }
        }
    }
}
