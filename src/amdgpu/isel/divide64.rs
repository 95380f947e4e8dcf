//! 64-bit integer division and remainder: restoring (shift-subtract) division, one
//! quotient bit per iteration, as a uniform machine loop of 64 trips around a VALU body.
//!
//! The loop is a block of its own on both CFGs (`pre → loop → loop | exit`), counted by
//! an SGPR and closed with `s_cbranch_scc1`. Every lane runs all 64 trips, so exec is
//! never touched and the loop is correct inside divergent control flow. The loop-carried
//! quotient, remainder and counter are multi-definition temps (like phi temps),
//! initialised by a parallel copy before the loop and updated by one at its end.
//!
//! Invariant per trip k (counting from 0): `r:q` holds the dividend shifted left by k+1
//! with the quotient bits so far in the low end of `q`, and `r < d` after the conditional
//! subtraction. Division by zero gives q = all ones and r = x (SPIR-V leaves it
//! undefined).
//!
//! Signed forms divide magnitudes and fix the signs: `idiv` negates when the operand signs
//! differ, `irem` takes the dividend's sign, `imod` then adds the divisor when the signs
//! of a non-zero remainder and the divisor differ. Code size is ~30 instructions;
//! execution is ~64 × 14 VALU, the price of not having LLVM's reciprocal expansion.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::AluOp;
use crate::isa::Opcode;

impl Isel<'_> {
    /// Unsigned (quotient, remainder) of V2 operands.
    fn udivrem64(&mut self, n: Arg, d: Arg) -> Result<(Temp, Temp), Error> {
        let q = self.tmp(RegClass::V2);
        let r = self.tmp(RegClass::V2);
        let cnt = self.tmp(RegClass::S1);
        for t in [q, r, cnt] {
            self.p.multi_def.insert(t);
        }
        let zero = self.to_vgpr(Arg::Const(0))?;
        let zero2 = self.join64(Arg::Temp(zero), Arg::Temp(zero), true)?;
        let c64 = self.to_sgpr(Arg::Const(64))?;
        self.push(MInst::pseudo(
            Pseudo::ParallelCopy,
            &[Arg::Temp(q), Arg::Temp(r), Arg::Temp(cnt)],
            &[n, Arg::Temp(zero2), Arg::Temp(c64)],
        ));
        let pre = self.cur;
        let body = self.p.new_block(self.loop_depth + 1);
        self.p.add_edge(pre, body, true);
        self.cur = body;
        let v1 = |s: &mut Self| s.tmp(RegClass::V1);
        // r:q <<= 1
        let (_, qh) = self.halves64(MV::T(q, Kind::Plain))?;
        let top = v1(self);
        self.valu(
            Opcode::VLshrrevB32,
            &[Arg::Temp(top)],
            vec![Arg::Const(31), qh],
        )?;
        let r2 = self.v64(Opcode::VLshlrevB64, &[Arg::Const(1), Arg::Temp(r)])?;
        let (r2l, r2h) = self.halves64(MV::T(r2, Kind::Plain))?;
        let r3l = v1(self);
        self.valu(Opcode::VOrB32, &[Arg::Temp(r3l)], vec![r2l, Arg::Temp(top)])?;
        let q2 = self.v64(Opcode::VLshlrevB64, &[Arg::Const(1), Arg::Temp(q)])?;
        let (q2l, q2h) = self.halves64(MV::T(q2, Kind::Plain))?;
        // if r >= d: r -= d, q |= 1
        let r3 = self.join64(Arg::Temp(r3l), r2h, true)?;
        let m = self.tmp(self.mask_rc());
        self.valu(Opcode::VCmpGeU64, &[Arg::Temp(m)], vec![Arg::Temp(r3), d])?;
        let (dl, dh) = self.halves64(MV::T(d.temp().expect("V2 divisor"), Kind::Plain))?;
        let (sl, sh) = self.sub64_halves((Arg::Temp(r3l), r2h), (dl, dh), true)?;
        let (rl, rh) = (v1(self), v1(self));
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(rl)],
            vec![Arg::Temp(r3l), sl, Arg::Temp(m)],
        )?;
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(rh)],
            vec![r2h, sh, Arg::Temp(m)],
        )?;
        let bit = v1(self);
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(bit)],
            vec![Arg::Const(0), Arg::Const(1), Arg::Temp(m)],
        )?;
        let ql = v1(self);
        self.valu(Opcode::VOrB32, &[Arg::Temp(ql)], vec![q2l, Arg::Temp(bit)])?;
        let qn = self.join64(Arg::Temp(ql), q2h, true)?;
        let rn = self.join64(Arg::Temp(rl), Arg::Temp(rh), true)?;
        let cn = self.tmp(RegClass::S1);
        self.salu(
            Opcode::SSubU32,
            &[Arg::Temp(cn)],
            vec![Arg::Temp(cnt), Arg::Const(1)],
        )?;
        self.push(MInst::pseudo(
            Pseudo::ParallelCopy,
            &[Arg::Temp(q), Arg::Temp(r), Arg::Temp(cnt)],
            &[Arg::Temp(qn), Arg::Temp(rn), Arg::Temp(cn)],
        ));
        self.hw(Opcode::SCmpLgU32, &[], &[Arg::Temp(cnt), Arg::Const(0)])?;
        self.branch(Opcode::SCbranchScc1, body)?;
        self.p.add_edge(body, body, true);
        let exit = self.p.new_block(self.loop_depth);
        self.p.add_edge(body, exit, true);
        self.cur = exit;
        Ok((q, r))
    }

    /// |x| of a V2 and its sign mask (all ones when negative) in a V1.
    fn abs64(&mut self, x: Arg) -> Result<(Temp, Temp), Error> {
        let (xl, xh) = self.halves64(MV::T(x.temp().expect("V2 operand"), Kind::Plain))?;
        let s = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VAshrrevI32,
            &[Arg::Temp(s)],
            vec![Arg::Const(31), xh],
        )?;
        let a = self.xor_sign(xl, xh, s)?;
        Ok((a, s))
    }

    /// (x ^ s) - s on halves, `s` a sign mask: conditional negation.
    fn xor_sign(&mut self, xl: Arg, xh: Arg, s: Temp) -> Result<Temp, Error> {
        let (l, h) = (self.tmp(RegClass::V1), self.tmp(RegClass::V1));
        self.valu(Opcode::VXorB32, &[Arg::Temp(l)], vec![xl, Arg::Temp(s)])?;
        self.valu(Opcode::VXorB32, &[Arg::Temp(h)], vec![xh, Arg::Temp(s)])?;
        let (lo, hi) = self.sub64_halves(
            (Arg::Temp(l), Arg::Temp(h)),
            (Arg::Temp(s), Arg::Temp(s)),
            true,
        )?;
        self.join64(lo, hi, true)
    }

    /// `op` ∈ {udiv, umod, idiv, irem, imod} of V2 operands, as a V2.
    pub(super) fn divrem64(&mut self, op: AluOp, x: Arg, y: Arg) -> Result<Temp, Error> {
        use AluOp::*;
        if matches!(op, Udiv | Umod) {
            let (q, r) = self.udivrem64(x, y)?;
            return Ok(if op == Udiv { q } else { r });
        }
        let (ax, sx) = self.abs64(x)?;
        let (ay, sy) = self.abs64(y)?;
        let (q, r) = self.udivrem64(Arg::Temp(ax), Arg::Temp(ay))?;
        match op {
            Idiv => {
                let s = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VXorB32,
                    &[Arg::Temp(s)],
                    vec![Arg::Temp(sx), Arg::Temp(sy)],
                )?;
                let (ql, qh) = self.halves64(MV::T(q, Kind::Plain))?;
                self.xor_sign(ql, qh, s)
            }
            _ => {
                let (rl, rh) = self.halves64(MV::T(r, Kind::Plain))?;
                let rem = self.xor_sign(rl, rh, sx)?;
                if op == Irem {
                    return Ok(rem);
                }
                // imod: rem + y when rem != 0 and sign(rem) != sign(y)
                let (el, eh) = self.halves64(MV::T(rem, Kind::Plain))?;
                let (yl, yh) = self.halves64(MV::T(y.temp().expect("V2 operand"), Kind::Plain))?;
                let nz = self.tmp(self.mask_rc());
                let zero = self.const64(0)?;
                self.valu(
                    Opcode::VCmpNeU64,
                    &[Arg::Temp(nz)],
                    vec![Arg::Temp(rem), Arg::Temp(zero)],
                )?;
                let diff = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VXorB32,
                    &[Arg::Temp(diff)],
                    vec![Arg::Temp(sx), Arg::Temp(sy)],
                )?;
                let neg = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VCmpNeU32,
                    &[Arg::Temp(neg)],
                    vec![Arg::Const(0), Arg::Temp(diff)],
                )?;
                let both = self.tmp(self.mask_rc());
                self.hw_lane(
                    Opcode::SAndB32,
                    &[Arg::Temp(both)],
                    &[Arg::Temp(nz), Arg::Temp(neg)],
                )?;
                let lo = self.tmp(RegClass::V1);
                let hi = self.tmp(RegClass::V1);
                let c = self.tmp(self.mask_rc());
                let c2 = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VAddCoU32,
                    &[Arg::Temp(lo), Arg::Temp(c)],
                    vec![el, yl],
                )?;
                self.valu(
                    Opcode::VAddcCoU32,
                    &[Arg::Temp(hi), Arg::Temp(c2)],
                    vec![eh, yh, Arg::Temp(c)],
                )?;
                let (fl, fh) = (self.tmp(RegClass::V1), self.tmp(RegClass::V1));
                self.valu(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(fl)],
                    vec![el, Arg::Temp(lo), Arg::Temp(both)],
                )?;
                self.valu(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(fh)],
                    vec![eh, Arg::Temp(hi), Arg::Temp(both)],
                )?;
                self.join64(Arg::Temp(fl), Arg::Temp(fh), true)
            }
        }
    }
}
