//! 32-bit integer division and remainder on the VALU (there is no divide instruction).
//!
//! Unsigned: the reciprocal of the divisor in f32 (`v_rcp_iflag_f32`), scaled by
//! 0x4f7ffffe (just under 2^32) and converted back gives an estimate z of 2^32/d; one
//! Newton–Raphson step (z += mulhi(z, −d·z)) makes q = mulhi(n, z) at most two below the
//! quotient, and two conditional corrections (r ≥ d → q+1, r−d) finish it — the expansion
//! LLVM's AMDGPU backend uses (AMDGPUCodeGenPrepare). Signed forms divide magnitudes and
//! fix signs: the quotient takes sign(a)·sign(b), `irem` the dividend's sign, `imod` the
//! divisor's. Division by zero is undefined in SPIR-V; the result is whatever falls out.
//!
//! A constant divisor needs no reciprocal: [`divisor_magic`] picks a shift, a compare
//! (divisors above 2^31), or a multiply-high by a magic number (Granlund–Montgomery); the
//! remainder is `n − q·c`. Signed forms take the magnitude of the constant as it is.
//!
//! 8- and 16-bit operands with a variable divisor divide in f32 instead (`divrem_narrow`):
//! the operands convert exactly, the reciprocal raised by one ulp times the dividend,
//! truncated, is the quotient for every 16-bit pair (checked by a unit test over all
//! divisors and quotients), in six instructions rather than the 32-bit expansion's ~20.

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
        if let Arg::Const(c) = d {
            if c != 0 {
                return self.udivrem_const(n, c);
            }
        }
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

    /// (quotient, remainder) of unsigned `n / c` for a constant `c` ≠ 0 (`divisor_magic`);
    /// the remainder is `n - q·c` (dead-code elimination drops whichever is unused).
    fn udivrem_const(&mut self, n: Arg, c: u32) -> Result<(Arg, Arg), Error> {
        let q = match divisor_magic(c) {
            Magic::One => n,
            Magic::Shift(k) => self.v2(Opcode::VLshrrevB32, Arg::Const(k), n)?,
            Magic::AtLeast => {
                let m = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpGeU32, &[Arg::Temp(m)], vec![n, Arg::Const(c)])?;
                let q = self.v();
                self.valu(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(q)],
                    vec![Arg::Const(0), Arg::Const(1), Arg::Temp(m)],
                )?;
                Arg::Temp(q)
            }
            Magic::MulHi { m, shift } => {
                let h = self.v2(Opcode::VMulHiU32, n, Arg::Const(m))?;
                if shift == 0 {
                    h
                } else {
                    self.v2(Opcode::VLshrrevB32, Arg::Const(shift), h)?
                }
            }
            Magic::MulHiAdd { m, shift } => {
                let h = self.v2(Opcode::VMulHiU32, n, Arg::Const(m))?;
                let d = self.v2(Opcode::VSubU32, n, h)?;
                let d = self.v2(Opcode::VLshrrevB32, Arg::Const(1), d)?;
                let t = self.v2(Opcode::VAddU32, d, h)?;
                self.v2(Opcode::VLshrrevB32, Arg::Const(shift), t)?
            }
        };
        let r = match divisor_magic(c) {
            Magic::One => Arg::Temp(self.to_vgpr(Arg::Const(0))?),
            Magic::Shift(_) => self.v2(Opcode::VAndB32, Arg::Const(c - 1), n)?,
            _ => {
                let qc = self.v2(Opcode::VMulLoU32, q, Arg::Const(c))?;
                self.v2(Opcode::VSubU32, n, qc)?
            }
        };
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
        let sa = self.v2(Opcode::VAshrrevI32, Arg::Const(31), a)?;
        let ua = self.apply_sign(a, sa)?;
        // a constant divisor: its sign and magnitude are constants too
        let (b, sb, ub) = match b {
            Arg::Const(c) if c != 0 => {
                let sb = if (c as i32) < 0 { u32::MAX } else { 0 };
                (b, Arg::Const(sb), Arg::Const((c as i32).unsigned_abs()))
            }
            _ => {
                let b = Arg::Temp(self.to_vgpr(b)?);
                let sb = self.v2(Opcode::VAshrrevI32, Arg::Const(31), b)?;
                let ub = self.apply_sign(b, sb)?;
                (b, sb, ub)
            }
        };
        let (q, r) = self.udivrem(ua, ub)?;
        match which {
            "div" => {
                let s = match sb {
                    Arg::Const(0) => sa,
                    _ => self.v2(Opcode::VXorB32, sa, sb)?,
                };
                self.apply_sign(q, s)
            }
            "rem" => self.apply_sign(r, sa),
            _ => {
                let r = self.apply_sign(r, sa)?;
                self.mod_from_rem(r, b)
            }
        }
    }

    /// `imod` from `irem`: where r ≠ 0 and its sign differs from the divisor's, r + b.
    fn mod_from_rem(&mut self, r: Arg, b: Arg) -> Result<Arg, Error> {
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

    /// Division family of operands of at most 16 bits, sign- (`signed`) or zero-extended to
    /// 32 bits, divisor not a constant: `which` as in [`Self::sdivrem`] ("div", "rem",
    /// "mod"; unsigned takes "div" and "rem"). Both operands convert to f32 exactly; the
    /// quotient is `trunc(a · r)` with `r` the f32 reciprocal of b raised by one ulp (an
    /// integer add on its bits), then converted back with truncation toward zero. The raise
    /// makes `a · r` never fall below an exact integer quotient, and for |a|, |b| < 2^16
    /// it never reaches the next one (`narrow_division_is_exact` checks every quotient's
    /// range of dividends at both ends; the product is monotone in a). Signs are symmetric
    /// in f32, so the signed form truncates toward zero as `idiv` requires. The remainder
    /// is `a − q·b` with a 24-bit multiply (|q|, |b| ≤ 2^16). This is the sequence RADV's
    /// ACO emits for 8- and 16-bit division (its compute output for tests/shaders/compute/
    /// arith_i16: cvt, cvt, v_rcp_f32, add 1, v_mul_f32, cvt back).
    pub(super) fn divrem_narrow(
        &mut self,
        a: Arg,
        b: Arg,
        signed: bool,
        which: &str,
    ) -> Result<Arg, Error> {
        let (to_f, to_i, mul24) = if signed {
            (Opcode::VCvtF32I32, Opcode::VCvtI32F32, Opcode::VMulI32I24)
        } else {
            (Opcode::VCvtF32U32, Opcode::VCvtU32F32, Opcode::VMulU32U24)
        };
        let fa = match a {
            Arg::Const(c) if signed => Arg::Const((c as i32 as f32).to_bits()),
            Arg::Const(c) => Arg::Const((c as f32).to_bits()),
            _ => self.v1op(to_f, vec![a])?,
        };
        let b = Arg::Temp(self.to_vgpr(b)?);
        let fb = self.v1op(to_f, vec![b])?;
        let r = self.v1op(Opcode::VRcpF32, vec![fb])?;
        let r = self.v2(Opcode::VAddU32, Arg::Const(NARROW_RCP_RAISE), r)?;
        let m = self.v2(Opcode::VMulF32, fa, r)?;
        let q = self.v1op(to_i, vec![m])?;
        if which == "div" {
            return Ok(q);
        }
        let qb = self.v2(mul24, q, b)?;
        let r = self.v2(Opcode::VSubU32, a, qb)?;
        if which == "rem" {
            return Ok(r);
        }
        self.mod_from_rem(r, b)
    }
}

/// How many ulps `divrem_narrow` raises the divisor's f32 reciprocal by.
pub(crate) const NARROW_RCP_RAISE: u32 = 1;

/// How an unsigned 32-bit division by a constant is done without dividing (Granlund and
/// Montgomery, "Division by invariant integers using multiplication", 1994).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Magic {
    /// `c == 1`: the dividend itself.
    One,
    /// `c == 2^k`: `n >> k`.
    Shift(u32),
    /// `c > 2^31`: the quotient is `n >= c`.
    AtLeast,
    /// `mulhi(n, m) >> shift`, with `m = ceil(2^(32+shift) / c)` when its rounding error
    /// `m·c − 2^(32+shift)` is at most `2^shift` (then the error never reaches the next
    /// integer).
    MulHi { m: u32, shift: u32 },
    /// The 33-bit multiplier `2^32 + m`: `t = mulhi(n, m)`,
    /// `((n − t) / 2 + t) >> shift`, with `l = ceil(log2 c)`, `m = floor(2^32·(2^l − c)/c) + 1`
    /// and `shift = l − 1` (the halving keeps `n + t` from overflowing).
    MulHiAdd { m: u32, shift: u32 },
}

/// The division scheme for the constant divisor `c` (not 0).
pub(crate) fn divisor_magic(c: u32) -> Magic {
    debug_assert!(c != 0);
    if c == 1 {
        return Magic::One;
    }
    if c.is_power_of_two() {
        return Magic::Shift(c.trailing_zeros());
    }
    if c > 1 << 31 {
        return Magic::AtLeast;
    }
    let c64 = c as u64;
    for shift in 0..32u32 {
        let two = 1u128 << (32 + shift);
        let m = two.div_ceil(c64 as u128);
        if m >= 1 << 32 {
            break;
        }
        if m * c64 as u128 - two <= 1u128 << shift {
            return Magic::MulHi { m: m as u32, shift };
        }
    }
    let (m, shift) = mul_hi_add(c);
    Magic::MulHiAdd { m, shift }
}

/// `(m, shift)` of the 33-bit-multiplier scheme ([`Magic::MulHiAdd`]) for `c` ≥ 2, exact
/// for every 32-bit dividend whatever `c` is (the vertex-fetch prolog uses it above 2^31,
/// where the compare would need VCC).
pub(crate) fn mul_hi_add(c: u32) -> (u32, u32) {
    debug_assert!(c >= 2);
    let l = 32 - (c - 1).leading_zeros();
    let c = c as u128;
    let m = ((1u128 << 32) * ((1u128 << l) - c)) / c + 1;
    (m as u32, l - 1)
}

#[cfg(test)]
mod tests {
    use super::{divisor_magic, mul_hi_add, Magic, NARROW_RCP_RAISE};

    /// What `divrem_narrow` computes for the quotient, in Rust (f32 arithmetic is IEEE;
    /// the reciprocal correctly rounded, as the emulator's `v_rcp_f32`).
    fn narrow_quotient(a: i32, b: i32) -> i32 {
        let r = f32::from_bits((1.0 / b as f32).to_bits() + NARROW_RCP_RAISE);
        (a as f32 * r) as i32
    }

    #[test]
    fn narrow_division_is_exact() {
        // a · r is monotone in a, so a quotient k is right for every dividend of
        // [k·b, k·b + b − 1] when it is right at both ends: checks every (b, k) of 16 bits
        for b in 1..=0xffff {
            for k in 0..=0xffff / b {
                let lo = k * b;
                let hi = (lo + b - 1).min(0xffff);
                assert_eq!(narrow_quotient(lo, b), k, "{lo} / {b}");
                assert_eq!(narrow_quotient(hi, b), k, "{hi} / {b}");
            }
        }
        // signed: f32 is sign-symmetric, the conversion truncates toward zero
        for b in [-32768, -32767, -255, -7, -1, 1, 3, 128, 32767] {
            for a in [-32768, -32767, -1000, -7, -1, 0, 1, 6, 7, 999, 32766, 32767] {
                assert_eq!(narrow_quotient(a, b), a / b, "{a} / {b}");
            }
        }
    }

    /// What the selected instructions compute, in Rust.
    fn divide(n: u32, c: u32) -> u32 {
        let mulhi = |a: u32, b: u32| ((a as u64 * b as u64) >> 32) as u32;
        match divisor_magic(c) {
            Magic::One => n,
            Magic::Shift(k) => n >> k,
            Magic::AtLeast => (n >= c) as u32,
            Magic::MulHi { m, shift } => mulhi(n, m) >> shift,
            Magic::MulHiAdd { m, shift } => {
                let t = mulhi(n, m);
                ((n - t) / 2 + t) >> shift
            }
        }
    }

    #[test]
    fn constant_division_matches_the_quotient() {
        let mut divisors: Vec<u32> = (1..=1000).collect();
        divisors.extend([
            6_700_417,
            641,
            0x7fff_ffff,
            0x8000_0001,
            0xffff_fffe,
            0xffff_ffff,
            1 << 31,
            0x5555_5555,
            0xaaaa_aaab,
            1_000_000_007,
            3 << 20,
            7 << 28,
            25_000,
            86_400,
        ]);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut dividends: Vec<u32> =
            vec![0, 1, 2, 0x7fff_ffff, 0x8000_0000, u32::MAX, u32::MAX - 1];
        for _ in 0..400 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            dividends.push(seed as u32);
        }
        for &c in &divisors {
            // the quotient changes right at multiples of c: check around them too
            let near = [
                c.wrapping_mul(3),
                c.wrapping_mul(u32::MAX / c),
                (u32::MAX / c) * c - 1,
            ];
            for &n in dividends.iter().chain(&near) {
                assert_eq!(divide(n, c), n / c, "{n} / {c} with {:?}", divisor_magic(c));
            }
        }
        // the schemes picked for a few divisors
        assert_eq!(
            divisor_magic(3),
            Magic::MulHi {
                m: 0xaaaa_aaab,
                shift: 1
            }
        );
        assert_eq!(
            divisor_magic(7),
            Magic::MulHiAdd {
                m: 0x2492_4925,
                shift: 2
            }
        );
        assert_eq!(divisor_magic(64), Magic::Shift(6));
    }

    #[test]
    fn the_multiply_scheme_is_exact_for_divisors_above_2_pow_31_too() {
        for c in [3u32, 7, 1 << 31 | 1, 0xc000_0000, 0xffff_fffe, u32::MAX] {
            let (m, shift) = mul_hi_add(c);
            assert_eq!(shift, 31 - (c - 1).leading_zeros());
            let q = |n: u32| {
                let t = ((n as u64 * m as u64) >> 32) as u32;
                ((n - t) / 2 + t) >> shift
            };
            for n in [
                0,
                1,
                c - 1,
                c,
                c.saturating_add(1),
                u32::MAX,
                u32::MAX / 2,
                12345,
            ] {
                assert_eq!(q(n), n / c, "{n} / {c}");
            }
        }
    }
}
