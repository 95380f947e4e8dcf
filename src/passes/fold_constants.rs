//! Constant folding with exact IEEE semantics per bit size.
//!
//! An ALU instruction, swizzle or `vec` whose sources are all constants becomes a
//! constant in place (its handle stays, so no use rewriting is needed). Float arithmetic is
//! rounded once to the operand's own precision: f64 natively; f32 and f16 through f64,
//! which is exact for `+ - * / sqrt` because f64 carries more than twice their
//! significand plus two bits (so the double rounding is innocuous); f32 fma uses the host's
//! fused `mul_add`; f16 conversion is our own (`ir::f16`), round-to-nearest-even or toward
//! zero. Transcendentals (sin, exp2, log2, pow) fold with the host's f64 libm, rounded
//! to the target size, as NIR does. Operations with undefined results for the given
//! constants (integer division by zero, `INT_MIN / -1`, out-of-range bitfields, out-of-range
//! float→int) and float ops at sizes that are no float format are left alone.
//!
//! The folder is a rewrite pass, not the definition of the ops: that is `ir::eval`, written
//! separately, and `tests/fold_vs_eval.rs` requires the two to agree on every op and size
//! (the folder folds exactly what the evaluator defines, to the same bits, NaN payloads
//! aside).

use crate::ir::f16::{f16_to_f64, f64_to_f16};
use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= fold(f);
    }
    progress
}

fn fold(f: &mut Function) -> bool {
    let mut any = false;
    for i in f.insts_in_order() {
        let ty = f.insts[i].ty;
        let folded = match &f.insts[i].kind {
            InstKind::Alu { op, srcs } => {
                let mut cs: SmallVec<[(ValType, &[u64]); 4]> = SmallVec::new();
                let mut all = true;
                for &s in srcs {
                    match f.as_const(s) {
                        Some(c) => cs.push((f.insts[s].ty, c)),
                        None => all = false,
                    }
                }
                if all {
                    fold_alu(*op, ty, &cs)
                } else {
                    None
                }
            }
            InstKind::Swizzle { src, comps } => f
                .as_const(*src)
                .map(|c| comps.iter().map(|&k| c[k as usize]).collect()),
            _ => None,
        };
        if let Some(c) = folded {
            f.insts[i].kind = InstKind::Const(c);
            any = true;
        }
    }
    any
}

// ---- float helpers ----

/// Reads a float of `bits` bits as f64 (exact).
pub fn to_f(bits: u8, x: u64) -> f64 {
    match bits {
        16 => f16_to_f64(x as u16),
        32 => f32::from_bits(x as u32) as f64,
        _ => f64::from_bits(x),
    }
}

/// Rounds an f64 to a float of `bits` bits, to nearest even.
pub fn from_f(bits: u8, v: f64) -> u64 {
    match bits {
        16 => f64_to_f16(v, false) as u64,
        32 => (v as f32).to_bits() as u64,
        _ => v.to_bits(),
    }
}

/// Rounds toward zero.
fn from_f_rtz(bits: u8, v: f64) -> u64 {
    match bits {
        16 => f64_to_f16(v, true) as u64,
        32 => {
            let r = v as f32;
            if r.is_finite() && (r as f64).abs() > v.abs() {
                (r.to_bits() - 1) as u64
            } else if r.is_infinite() && v.is_finite() {
                (f32::MAX.copysign(r)).to_bits() as u64
            } else {
                r.to_bits() as u64
            }
        }
        _ => v.to_bits(),
    }
}

fn sext(bits: u8, x: u64) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        ((x << (64 - bits)) as i64) >> (64 - bits)
    }
}

fn mask(bits: u8) -> u64 {
    ValType::new(bits, 1).mask()
}

fn fbool(b: bool) -> u64 {
    b as u64
}

/// Folds ALU `op` with result type `dst` on constant sources (type, components).
/// Returns one bit pattern per result component, or None when not foldable.
fn fold_alu(op: AluOp, dst: ValType, srcs: &[(ValType, &[u64])]) -> Option<SmallVec<[u64; 4]>> {
    use AluOp::*;
    let n = dst.comps as usize;
    let mut out: SmallVec<[u64; 4]> = SmallVec::new();
    let float_size = |b: u8| matches!(b, 16 | 32 | 64);
    let reads = srcs.first().map_or(0, |s| s.0.bits);
    if (op.reads_float() && !float_size(reads)) || (op.writes_float() && !float_size(dst.bits)) {
        return None; // there are no floats of this size
    }
    match op {
        Vec => {
            for s in srcs {
                out.push(s.1[0]);
            }
            return Some(out);
        }
        Fdot => {
            let b = srcs[0].0.bits;
            let (x, y) = (srcs[0].1, srcs[1].1);
            let mut acc = from_f(b, to_f(b, x[0]) * to_f(b, y[0]));
            for k in 1..x.len() {
                let p = from_f(b, to_f(b, x[k]) * to_f(b, y[k]));
                acc = from_f(b, to_f(b, acc) + to_f(b, p));
            }
            out.push(acc);
            return Some(out);
        }
        Bany => {
            return Some(smallvec::smallvec![fbool(
                srcs[0].1.iter().any(|&c| c != 0)
            )])
        }
        Ball => {
            return Some(smallvec::smallvec![fbool(
                srcs[0].1.iter().all(|&c| c != 0)
            )])
        }
        PackHalf2x16 => {
            let c = srcs[0].1;
            let lo = f64_to_f16(to_f(32, c[0]), false) as u64;
            let hi = f64_to_f16(to_f(32, c[1]), false) as u64;
            return Some(smallvec::smallvec![lo | (hi << 16)]);
        }
        UnpackHalf2x16 => {
            let c = srcs[0].1[0];
            return Some(smallvec::smallvec![
                from_f(32, f16_to_f64(c as u16)),
                from_f(32, f16_to_f64((c >> 16) as u16))
            ]);
        }
        PackUnorm4x8 | PackSnorm4x8 | PackUnorm2x16 | PackSnorm2x16 => {
            let (w, signed) = match op {
                PackUnorm4x8 => (8, false),
                PackSnorm4x8 => (8, true),
                PackUnorm2x16 => (16, false),
                _ => (16, true),
            };
            let mut r = 0u64;
            for (k, &c) in srcs[0].1.iter().enumerate() {
                let v = to_f(32, c);
                let q = if signed {
                    let s = ((1u64 << (w - 1)) - 1) as f64;
                    (v.clamp(-1.0, 1.0) * s).round_ties_even() as i64 as u64
                } else {
                    let s = ((1u64 << w) - 1) as f64;
                    (v.clamp(0.0, 1.0) * s).round_ties_even() as u64
                };
                r |= (q & ((1 << w) - 1)) << (k * w);
            }
            return Some(smallvec::smallvec![r]);
        }
        UnpackUnorm4x8 | UnpackSnorm4x8 | UnpackUnorm2x16 | UnpackSnorm2x16 => {
            let (w, cnt, signed) = match op {
                UnpackUnorm4x8 => (8, 4, false),
                UnpackSnorm4x8 => (8, 4, true),
                UnpackUnorm2x16 => (16, 2, false),
                _ => (16, 2, true),
            };
            let c = srcs[0].1[0];
            for k in 0..cnt {
                let q = (c >> (k * w)) & ((1 << w) - 1);
                let v = if signed {
                    let s = ((1u64 << (w - 1)) - 1) as f64;
                    (sext(w as u8, q) as f64 / s).max(-1.0)
                } else {
                    q as f64 / ((1u64 << w) - 1) as f64
                };
                out.push(from_f(32, v));
            }
            return Some(out);
        }
        Pack64_2x32 => {
            let c = srcs[0].1;
            return Some(smallvec::smallvec![c[0] | (c[1] << 32)]);
        }
        Unpack64_2x32 => {
            let c = srcs[0].1[0];
            return Some(smallvec::smallvec![c & 0xffff_ffff, c >> 32]);
        }
        Pack32_2x16 => {
            let c = srcs[0].1;
            return Some(smallvec::smallvec![c[0] | (c[1] << 16)]);
        }
        Unpack32_2x16 => {
            let c = srcs[0].1[0];
            return Some(smallvec::smallvec![c & 0xffff, c >> 16]);
        }
        Pack32_4x8 => {
            let c = srcs[0].1;
            return Some(smallvec::smallvec![
                c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24)
            ]);
        }
        Unpack32_4x8 => {
            let c = srcs[0].1[0];
            return Some((0..4).map(|k| (c >> (8 * k)) & 0xff).collect());
        }
        _ => {}
    }
    let bits = |s: usize| srcs[s].0.bits;
    for k in 0..n {
        let comp = |s: usize| srcs[s].1[k];
        out.push(eval_comp(op, dst.bits, &bits, &comp)?);
    }
    Some(out)
}

/// A float's value as (significand, exponent) with |x| = sig·2^exp, for exact scaling.
fn decompose(x: f64) -> (f64, i32) {
    let b = x.to_bits();
    let field = ((b >> 52) & 0x7ff) as i32;
    let man = b & ((1u64 << 52) - 1);
    let (sig, e) = if field == 0 {
        (man, -1074)
    } else {
        (man | (1u64 << 52), field - 1075)
    };
    (sig as f64, e)
}

/// x·2^e rounded once to a float of `bits` bits.
fn scale(bits: u8, x: f64, e: i64) -> u64 {
    if x == 0.0 || !x.is_finite() {
        return from_f(bits, x);
    }
    let (sig, ex) = decompose(x.abs());
    let e = (ex as i64).saturating_add(e).clamp(-4000, 4000) as i32;
    // Below f64's smallest subnormal, drop the significand's low bits ourselves, rounding to
    // nearest even once (a product would round twice). Narrower floats underflow long before.
    let lowest = -1074;
    let s = sig as u64;
    let (q, e) = if e >= lowest {
        (s, e)
    } else {
        let drop = (lowest - e) as u32;
        let q = if drop > 63 {
            0
        } else {
            let (rem, half, q) = (s & ((1u64 << drop) - 1), 1u64 << (drop - 1), s >> drop);
            q + (rem > half || (rem == half && q & 1 == 1)) as u64
        };
        (q, lowest)
    };
    // q·2^e in two exact steps (each power of two in range); overflow gives infinity.
    let h = e / 2;
    let v = (q as f64) * 2f64.powi(h) * 2f64.powi(e - h);
    from_f(bits, v.copysign(x))
}

fn eval_comp(
    op: AluOp,
    db: u8,
    bits: &dyn Fn(usize) -> u8,
    c: &dyn Fn(usize) -> u64,
) -> Option<u64> {
    use AluOp::*;
    let sb = bits(0);
    let m = mask(db);
    let fa = || to_f(sb, c(0));
    let fb = || to_f(sb, c(1));
    let fc = || to_f(sb, c(2));
    let ua = || c(0) & mask(sb);
    let ub = || c(1) & mask(sb);
    let ia = || sext(sb, c(0));
    let ib = || sext(sb, c(1));
    let fr = |v: f64| from_f(db, v);
    // Unsigned reading of source s at its own size.
    let un = |s: usize| c(s) & mask(bits(s));
    let shift_amt = || (c(1) as u32) & (sb as u32).saturating_sub(1);
    Some(match op {
        Mov => c(0),
        Fneg => c(0) ^ (1u64 << (sb - 1)),
        Fabs => c(0) & !(1u64 << (sb - 1)),
        Fsat => {
            let x = fa();
            if x.is_nan() || x <= 0.0 {
                0
            } else {
                fr(x.min(1.0))
            }
        }
        Fsign => {
            let x = fa();
            fr(if x.is_nan() {
                0.0
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            })
        }
        Ffloor => fr(fa().floor()),
        Fceil => fr(fa().ceil()),
        Ftrunc => fr(fa().trunc()),
        FroundEven => fr(fa().round_ties_even()),
        Ffract => {
            let x = fa();
            fr(x - x.floor())
        }
        Fsqrt => fr(fa().sqrt()),
        Frsq => fr(1.0 / fa().sqrt()),
        Frcp => fr(1.0 / fa()),
        Fexp2 => fr(fa().exp2()),
        Flog2 => fr(fa().log2()),
        Fsin => fr(fa().sin()),
        Fcos => fr(fa().cos()),
        Fquantize2f16 => {
            let h = f64_to_f16(fa(), false);
            let h = if h & 0x7c00 == 0 { h & 0x8000 } else { h };
            fr(f16_to_f64(h))
        }
        Fadd => fr(fa() + fb()),
        Fsub => fr(fa() - fb()),
        Fmul => fr(fa() * fb()),
        Fdiv => fr(fa() / fb()),
        Fmod => {
            // GLSL mod: x - y * floor(x / y), each step rounded like the GPU would.
            let (x, y) = (fa(), fb());
            let q = to_f(db, fr(x / y)).floor();
            let p = to_f(db, fr(y * q));
            fr(x - p)
        }
        Frem => fr(fa() % fb()),
        Fmin | Fmax => {
            let (x, y) = (fa(), fb());
            if x.is_nan() || y.is_nan() {
                fr(x.min(y)) // the other operand; NaN only when both are
            } else if x == y {
                // ±0: −0 is the smaller.
                let x_neg = x.is_sign_negative();
                if (op == Fmin) == x_neg {
                    c(0)
                } else {
                    c(1)
                }
            } else {
                fr(if op == Fmin { x.min(y) } else { x.max(y) })
            }
        }
        Fddx | Fddy | FddxFine | FddyFine | FddxCoarse | FddyCoarse => {
            // A constant is the same in every lane of the quad.
            fr(fa() - fa())
        }
        Fpow => fr(fa().powf(fb())),
        Ffma => match sb {
            32 => (f32::from_bits(c(0) as u32))
                .mul_add(f32::from_bits(c(1) as u32), f32::from_bits(c(2) as u32))
                .to_bits() as u64,
            64 => fa().mul_add(fb(), fc()).to_bits(),
            _ => fr(fa().mul_add(fb(), fc())),
        },
        Flrp => {
            let (a, b, t) = (fa(), fb(), fc());
            let one_minus = to_f(db, fr(1.0 - t));
            let x = to_f(db, fr(a * one_minus));
            let y = to_f(db, fr(b * t));
            fr(x + y)
        }
        Fldexp => scale(db, fa(), sext(bits(1), c(1))),
        FfrexpSig | FfrexpExp => {
            let x = fa();
            let (sig, exp) = if x == 0.0 || !x.is_finite() {
                (x, 0i64)
            } else {
                // From the bits, so subnormals need no scaling through 2^-1074.
                let (s, e) = decompose(x.abs());
                let top = 63 - (s as u64).leading_zeros() as i64;
                let e = e as i64 + top + 1;
                (x.signum() * s / 2f64.powi(top as i32 + 1), e)
            };
            if op == FfrexpSig {
                fr(sig)
            } else {
                exp as u64 & m
            }
        }
        Flt => fbool(fa() < fb()),
        Fge => fbool(fa() >= fb()),
        Feq => fbool(fa() == fb()),
        Fneu => fbool(fa() != fb()),
        Fltu => fbool(!(fa() >= fb())),
        Fgeu => fbool(!(fa() < fb())),
        Fequ => fbool(!(fa() < fb() || fa() > fb())),
        Fneo => fbool(fa() < fb() || fa() > fb()),
        Fisnan => fbool(fa().is_nan()),
        Fisinf => fbool(fa().is_infinite()),
        Ineg => ua().wrapping_neg() & m,
        Iabs => (ia().wrapping_abs() as u64) & m,
        Isign => (ia().signum() as u64) & m,
        Inot => !c(0) & m,
        Iadd => ua().wrapping_add(ub()) & m,
        Isub => ua().wrapping_sub(ub()) & m,
        Imul => ua().wrapping_mul(ub()) & m,
        Idiv | Imod | Irem if ib() == -1 && ia() == sext(sb, 1u64 << (sb - 1)) => {
            return None; // INT_MIN / -1 overflows: undefined
        }
        Idiv => {
            if ib() == 0 {
                return None;
            }
            (ia().wrapping_div(ib()) as u64) & m
        }
        Udiv => {
            if ub() == 0 {
                return None;
            }
            ua() / ub()
        }
        Imod => {
            // Result takes the sign of the divisor (GLSL/SPIR-V SMod).
            if ib() == 0 {
                return None;
            }
            let r = ia().wrapping_rem(ib());
            let r = if r != 0 && ((r < 0) != (ib() < 0)) {
                r + ib()
            } else {
                r
            };
            (r as u64) & m
        }
        Irem => {
            if ib() == 0 {
                return None;
            }
            (ia().wrapping_rem(ib()) as u64) & m
        }
        Umod => {
            if ub() == 0 {
                return None;
            }
            ua() % ub()
        }
        Imin => (ia().min(ib()) as u64) & m,
        Imax => (ia().max(ib()) as u64) & m,
        Umin => ua().min(ub()),
        Umax => ua().max(ub()),
        Iand => c(0) & c(1),
        Ior => c(0) | c(1),
        Ixor => c(0) ^ c(1),
        UmulHigh => (((ua() as u128 * ub() as u128) >> sb) as u64) & m,
        ImulHigh => (((ia() as i128 * ib() as i128) >> sb) as u64) & m,
        UaddCarry => fbool(ua() as u128 + ub() as u128 > mask(sb) as u128),
        UsubBorrow => fbool(ua() < ub()),
        IaddSat => {
            let (lo, hi) = (-(1i128 << (sb - 1)), (1i128 << (sb - 1)) - 1);
            ((ia() as i128 + ib() as i128).clamp(lo, hi) as u64) & m
        }
        UaddSat => (ua() as u128 + ub() as u128).min(mask(sb) as u128) as u64,
        IsubSat => {
            let (lo, hi) = (-(1i128 << (sb - 1)), (1i128 << (sb - 1)) - 1);
            ((ia() as i128 - ib() as i128).clamp(lo, hi) as u64) & m
        }
        UsubSat => ua().saturating_sub(ub()),
        Ishl => (ua() << shift_amt()) & m,
        Ishr => ((ia() >> shift_amt()) as u64) & m,
        Ushr => ua() >> shift_amt(),
        IbitfieldExtract | UbitfieldExtract => {
            let (off, bits) = (un(1), un(2));
            if off as u128 + bits as u128 > sb as u128 {
                return None;
            }
            if bits == 0 {
                return Some(0);
            }
            let v = (ua() >> off) & mask(bits as u8);
            if op == IbitfieldExtract {
                (sext(bits as u8, v) as u64) & m
            } else {
                v
            }
        }
        BitfieldInsert => {
            let (off, bits) = (un(2), un(3));
            if off as u128 + bits as u128 > sb as u128 {
                return None;
            }
            if bits == 0 {
                return Some(c(0));
            }
            let fm = mask(bits as u8) << off;
            (c(0) & !fm) | ((c(1) << off) & fm)
        }
        BitfieldReverse => (ua().reverse_bits() >> (64 - sb as u32)) & m,
        BitCount => ua().count_ones() as u64 & m,
        UfindMsb => {
            if ua() == 0 {
                m
            } else {
                (63 - ua().leading_zeros() as u64) & m
            }
        }
        IfindMsb => {
            let v = ia();
            let u = if v < 0 { !v as u64 } else { v as u64 };
            if u == 0 {
                m
            } else {
                (63 - u.leading_zeros() as u64) & m
            }
        }
        FindLsb => {
            if ua() == 0 {
                m
            } else {
                ua().trailing_zeros() as u64 & m
            }
        }
        Ieq => fbool(ua() == ub()),
        Ine => fbool(ua() != ub()),
        Ilt => fbool(ia() < ib()),
        Ige => fbool(ia() >= ib()),
        Ult => fbool(ua() < ub()),
        Uge => fbool(ua() >= ub()),
        Bcsel => {
            if c(0) != 0 {
                c(1)
            } else {
                c(2)
            }
        }
        F2f | F2fRtne => fr(fa()),
        F2fRtz => from_f_rtz(db, fa()),
        F2i | F2iSat | F2u | F2uSat => {
            let (x, sat) = (fa(), matches!(op, F2iSat | F2uSat));
            if x.is_nan() {
                return sat.then_some(0);
            }
            // [lo, end) with powers of two as bounds: exact in f64 (2^63 - 1 is not).
            let signed = matches!(op, F2i | F2iSat);
            let end = 2f64.powi(db as i32 - signed as i32);
            let lo = if signed { -end } else { 0.0 };
            let t = x.trunc();
            if t < lo || t >= end {
                if !sat {
                    return None;
                }
                return Some(if t < lo {
                    lo as i128 as u64 & m
                } else {
                    (end as i128 - 1) as u64 & m
                });
            }
            (t as i128 as u64) & m
        }
        I2f => match db {
            32 => (ia() as f32).to_bits() as u64,
            _ => fr(ia() as f64),
        },
        U2f => match db {
            32 => (ua() as f32).to_bits() as u64,
            _ => fr(ua() as f64),
        },
        I2i => (ia() as u64) & m,
        U2u => ua() & m,
        I2iSat => {
            let (lo, hi) = (-(1i128 << (db - 1)), (1i128 << (db - 1)) - 1);
            ((ia() as i128).clamp(lo, hi) as u64) & m
        }
        U2uSat => ua().min(m),
        B2f => {
            if c(0) != 0 {
                fr(1.0)
            } else {
                0
            }
        }
        B2i => (c(0) != 0) as u64,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(op: AluOp, dst: ValType, srcs: &[(ValType, u64)]) -> Option<u64> {
        let owned: Vec<(ValType, [u64; 1])> = srcs.iter().map(|&(t, x)| (t, [x])).collect();
        let refs: Vec<(ValType, &[u64])> = owned.iter().map(|(t, x)| (*t, &x[..])).collect();
        fold_alu(op, dst, &refs).map(|v| v[0])
    }
    const F16: ValType = ValType::new(16, 1);
    const F32: ValType = ValType::U32;
    const F64: ValType = ValType::U64;
    fn f(x: f32) -> (ValType, u64) {
        (F32, x.to_bits() as u64)
    }

    #[test]
    fn f32_arithmetic_rounds_once_to_f32() {
        // 1 + 2^-24 rounds to even (1.0); 1 + 3*2^-24 rounds up.
        let r = ev(AluOp::Fadd, F32, &[f(1.0), f(f32::from_bits(0x3380_0000))]);
        assert_eq!(r, Some(0x3f80_0000));
        let r = ev(
            AluOp::Fadd,
            F32,
            &[f(1.0), f(3.0 * f32::from_bits(0x3380_0000))],
        );
        assert_eq!(r, Some(0x3f80_0002));
        // Division is correctly rounded.
        assert_eq!(
            ev(AluOp::Fdiv, F32, &[f(1.0), f(3.0)]),
            Some((1.0f32 / 3.0).to_bits() as u64)
        );
        // Subnormal results are kept (no flush).
        let tiny = f32::from_bits(1);
        assert_eq!(ev(AluOp::Fmul, F32, &[f(tiny), f(1.0)]), Some(1));
        // sqrt(2) correctly rounded.
        assert_eq!(
            ev(AluOp::Fsqrt, F32, &[f(2.0)]),
            Some(2f32.sqrt().to_bits() as u64)
        );
    }

    #[test]
    fn ffma_is_fused() {
        let a = f32::from_bits(0x3f80_0001);
        let r = ev(
            AluOp::Ffma,
            F32,
            &[f(a), f(a), f(-f32::from_bits(0x3f80_0002))],
        );
        assert_eq!(r, Some(0x2880_0000)); // exactly 2^-46, lost by an unfused mul+add
        let unfused = ev(AluOp::Fmul, F32, &[f(a), f(a)]).unwrap();
        let r2 = ev(
            AluOp::Fadd,
            F32,
            &[(F32, unfused), f(-f32::from_bits(0x3f80_0002))],
        );
        assert_eq!(r2, Some(0));
    }

    #[test]
    fn f16_arithmetic_and_overflow() {
        let one = (F16, 0x3c00);
        let max = (F16, 0x7bff);
        assert_eq!(ev(AluOp::Fadd, F16, &[one, one]), Some(0x4000));
        assert_eq!(ev(AluOp::Fadd, F16, &[max, max]), Some(0x7c00));
        assert_eq!(ev(AluOp::Fmul, F16, &[max, (F16, 0x3800)]), Some(0x77ff)); // *0.5 exact
                                                                               // f32 → f16 conversions: nearest-even vs toward zero.
        assert_eq!(ev(AluOp::F2f, F16, &[f(65520.0)]), Some(0x7c00));
        assert_eq!(ev(AluOp::F2fRtz, F16, &[f(65520.0)]), Some(0x7bff));
        assert_eq!(ev(AluOp::F2f, F32, &[(F16, 0x0001)]), Some(0x3380_0000)); // 2^-24
    }

    #[test]
    fn f64_and_conversions() {
        let third = (1.0f64 / 3.0).to_bits();
        assert_eq!(
            ev(AluOp::F2f, F32, &[(F64, third)]),
            Some((1.0f32 / 3.0).to_bits() as u64)
        );
        // Round toward zero from f64 to f32 never rounds up in magnitude.
        let r = ev(AluOp::F2fRtz, F32, &[(F64, third)]).unwrap();
        assert!(f32::from_bits(r as u32) as f64 <= 1.0 / 3.0);
        assert_eq!(
            ev(AluOp::F2i, F32, &[f(-2.75)]),
            Some((-2i32) as u32 as u64)
        );
        assert_eq!(ev(AluOp::F2u, F32, &[f(-1.0)]), None); // out of range: not folded
        assert_eq!(ev(AluOp::F2uSat, F32, &[f(-1.0)]), Some(0));
        assert_eq!(
            ev(AluOp::I2f, F32, &[(F32, u32::MAX as u64)]),
            Some((-1.0f32).to_bits() as u64)
        );
        assert_eq!(
            ev(AluOp::U2f, F32, &[(F32, 16_777_217)]),
            Some(16_777_216f32.to_bits() as u64)
        );
        assert_eq!(
            ev(AluOp::I2i, F64, &[(F32, 0xffff_fffe)]),
            Some(u64::MAX - 1)
        );
        assert_eq!(
            ev(AluOp::U2u, ValType::new(8, 1), &[(F32, 0x1ff)]),
            Some(0xff)
        );
    }

    #[test]
    fn integer_ops_wrap_and_refuse_undefined() {
        let u = |x: u64| (F32, x);
        assert_eq!(ev(AluOp::Iadd, F32, &[u(u32::MAX as u64), u(1)]), Some(0));
        assert_eq!(ev(AluOp::Udiv, F32, &[u(1), u(0)]), None);
        assert_eq!(
            ev(AluOp::Imod, F32, &[u((-7i32) as u32 as u64), u(3)]),
            Some(2)
        );
        assert_eq!(
            ev(AluOp::Irem, F32, &[u((-7i32) as u32 as u64), u(3)]),
            Some((-1i32) as u32 as u64)
        );
        assert_eq!(ev(AluOp::Ishl, F32, &[u(1), u(33)]), Some(2)); // amount masked
        assert_eq!(
            ev(AluOp::Ishr, F32, &[u(0x8000_0000), u(31)]),
            Some(0xffff_ffff)
        );
        assert_eq!(
            ev(AluOp::UbitfieldExtract, F32, &[u(0xabcd), u(4), u(8)]),
            Some(0xbc)
        );
        assert_eq!(
            ev(AluOp::IbitfieldExtract, F32, &[u(0xf0), u(4), u(4)]),
            Some(0xffff_ffff)
        );
        assert_eq!(ev(AluOp::UbitfieldExtract, F32, &[u(1), u(30), u(8)]), None);
        assert_eq!(ev(AluOp::UfindMsb, F32, &[u(0)]), Some(0xffff_ffff));
        assert_eq!(ev(AluOp::FindLsb, F32, &[u(8)]), Some(3));
        assert_eq!(ev(AluOp::BitfieldReverse, F32, &[u(1)]), Some(0x8000_0000));
        assert_eq!(ev(AluOp::UmulHigh, F32, &[u(0xffff_ffff), u(2)]), Some(1));
        assert_eq!(ev(AluOp::UaddCarry, F32, &[u(0xffff_ffff), u(1)]), Some(1));
        assert_eq!(
            ev(AluOp::IaddSat, F32, &[u(0x7fff_ffff), u(1)]),
            Some(0x7fff_ffff)
        );
    }

    #[test]
    fn nan_compares() {
        let nan = f(f32::NAN);
        assert_eq!(ev(AluOp::Flt, ValType::B1, &[nan, f(1.0)]), Some(0));
        assert_eq!(ev(AluOp::Fltu, ValType::B1, &[nan, f(1.0)]), Some(1));
        assert_eq!(ev(AluOp::Fneu, ValType::B1, &[nan, nan]), Some(1));
        assert_eq!(ev(AluOp::Feq, ValType::B1, &[nan, nan]), Some(0));
        assert_eq!(ev(AluOp::Fisnan, ValType::B1, &[nan]), Some(1));
    }

    #[test]
    fn packing() {
        let v = [f(1.0).1, f(-2.0).1];
        let r = fold_alu(AluOp::PackHalf2x16, F32, &[(ValType::new(32, 2), &v)]).unwrap();
        assert_eq!(r[0], 0xc000_3c00);
        let v = [f(1.0).1, f(0.0).1, f(0.5).1, f(2.0).1];
        let r = fold_alu(AluOp::PackUnorm4x8, F32, &[(ValType::new(32, 4), &v)]).unwrap();
        assert_eq!(r[0], 0xff80_00ff);
    }

    // Regressions found by tests/fold_vs_eval.rs (the folder against `ir::eval`).

    #[test]
    fn bitfields_beyond_the_size_are_left_alone_without_overflow() {
        let u = |x: u64| (F32, x);
        // offset + count overflowed u32 and panicked.
        assert_eq!(
            ev(
                AluOp::UbitfieldExtract,
                F32,
                &[u(1), u(u32::MAX as u64), u(1)]
            ),
            None
        );
        assert_eq!(
            ev(
                AluOp::BitfieldInsert,
                F32,
                &[u(1), u(1), u(1), u(u32::MAX as u64)]
            ),
            None
        );
        // A 64-bit offset of 2^32 was truncated to 0 and folded.
        let big = (F64, 1u64 << 32);
        assert_eq!(ev(AluOp::UbitfieldExtract, F32, &[u(1), big, u(1)]), None);
        // A zero count still needs an offset within the size.
        assert_eq!(ev(AluOp::UbitfieldExtract, F32, &[u(1), u(33), u(0)]), None);
        assert_eq!(
            ev(AluOp::UbitfieldExtract, F32, &[u(1), u(32), u(0)]),
            Some(0)
        );
    }

    #[test]
    fn f64_ldexp_and_frexp_are_exact_in_the_subnormals() {
        let i32v = |x: i32| (F32, x as u32 as u64);
        // 1.5 · 2^-1075 = 0.75 units of 2^-1074: one rounding gives 1 unit (two gave 2).
        assert_eq!(
            ev(AluOp::Fldexp, F64, &[(F64, 1.5f64.to_bits()), i32v(-1075)]),
            Some(1)
        );
        assert_eq!(
            ev(AluOp::Fldexp, F64, &[(F64, 1f64.to_bits()), i32v(-1074)]),
            Some(1)
        );
        // frexp of the smallest subnormal: 0.5 · 2^-1073 (2^e overflowed to inf before).
        assert_eq!(
            ev(AluOp::FfrexpSig, F64, &[(F64, 1)]),
            Some(0.5f64.to_bits())
        );
        assert_eq!(
            ev(AluOp::FfrexpExp, F32, &[(F64, 1)]),
            Some((-1073i32) as u32 as u64)
        );
        // An 8-bit exponent operand is read at its own size (0xff is -1, not 255).
        let r = ev(AluOp::Fldexp, F32, &[f(1.0), (ValType::new(8, 1), 0xff)]);
        assert_eq!(r, Some(0.5f32.to_bits() as u64));
        // A huge exponent saturates instead of overflowing.
        assert_eq!(
            ev(AluOp::Fldexp, F32, &[f(1.0), (F64, 1u64 << 63)]),
            Some(0)
        );
    }

    #[test]
    fn float_to_int_bounds_are_exact_at_64_bits() {
        let two63 = (F64, 9.223_372_036_854_775_808e18f64.to_bits());
        let two64 = (F64, 1.844_674_407_370_955_2e19f64.to_bits());
        // 2^63 - 1 rounds to 2^63 in f64, so the old inclusive bound let 2^63 through.
        assert_eq!(ev(AluOp::F2i, F64, &[two63]), None);
        assert_eq!(ev(AluOp::F2u, F64, &[two64]), None);
        assert_eq!(ev(AluOp::F2iSat, F64, &[two63]), Some(i64::MAX as u64));
        assert_eq!(ev(AluOp::F2uSat, F64, &[two64]), Some(u64::MAX));
        // The saturating forms define NaN as 0.
        assert_eq!(ev(AluOp::F2iSat, F32, &[f(f32::NAN)]), Some(0));
    }

    #[test]
    fn int_min_divided_by_minus_one_is_undefined() {
        let (min, m1) = ((F32, 0x8000_0000), (F32, 0xffff_ffff));
        for op in [AluOp::Idiv, AluOp::Imod, AluOp::Irem] {
            assert_eq!(ev(op, F32, &[min, m1]), None, "{op:?}");
        }
        assert_eq!(
            ev(AluOp::Idiv, F64, &[(F64, 1 << 63), (F64, u64::MAX)]),
            None
        );
    }

    #[test]
    fn signed_zeros_nan_and_sizes() {
        // fsat(-0) is +0; fmin/fmax order -0 below +0.
        assert_eq!(ev(AluOp::Fsat, F32, &[f(-0.0)]), Some(0));
        assert_eq!(ev(AluOp::Fmin, F32, &[f(0.0), f(-0.0)]), Some(0x8000_0000));
        assert_eq!(ev(AluOp::Fmax, F32, &[f(-0.0), f(0.0)]), Some(0));
        // A derivative of a constant is x - x: NaN for infinity.
        let r = ev(AluOp::Fddx, F32, &[f(f32::INFINITY)]).unwrap();
        assert!(f32::from_bits(r as u32).is_nan());
        // There are no 8-bit floats: not folded (it was read as an f64).
        let b8 = (ValType::new(8, 1), 1);
        assert_eq!(ev(AluOp::Fadd, ValType::new(8, 1), &[b8, b8]), None);
        // Counts are masked to the destination size.
        assert_eq!(ev(AluOp::BitCount, ValType::B1, &[(F32, 3)]), Some(0));
    }
}
