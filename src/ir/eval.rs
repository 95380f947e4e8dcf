//! The meaning of every ALU operation: [`eval_alu`] computes an op's result from known
//! source bit patterns. It is the reference the interpreter (`ir::interp`), specialization
//! constants and loop trip counts use, and the oracle `tests/fold_vs_eval.rs` holds the
//! constant folder to. It is written apart from the folder on purpose — different float
//! routes, its own float encoder — so the two can check each other.
//!
//! # Semantics
//!
//! * **Values** are bit patterns of the source's bit size (1, 8, 16, 32 or 64); integers
//!   wrap modulo 2^bits. Ops that read floats accept only 16, 32 and 64 bits, anything else
//!   is [`EvalError::IllTyped`] (as is a source that does not fit `alu_result_type`).
//! * **Floats are IEEE 754 binary16/32/64, round to nearest even, denormals kept** (no flush
//!   in either direction). `+ - * /`, `sqrt`, `rcp` and `frem` are correctly rounded: f32 and
//!   f64 by the host's IEEE arithmetic, f16 in f64 and rounded once to f16 (f64 carries more
//!   than 2·11+2 bits, so the double rounding is innocuous). f16 `ffma` is computed exactly in
//!   integers and rounded once; f32/f64 `ffma` use the host's fused multiply-add.
//!   `fldexp`, `ffrexp_*` and every float narrowing go through one exact encoder
//!   ([`round_to`]), which also serves f16 and round-toward-zero.
//! * **NaN**: a float result that is NaN is the canonical quiet NaN of its size
//!   (`0x7e00`, `0x7fc0_0000`, `0x7ff8_0000_0000_0000`); the IR gives NaN payloads no meaning.
//!   Bit operations (`mov`, `fneg`, `fabs`, `bcsel`, packing of bits) keep their operand's
//!   bits. `fmin`/`fmax` return the other operand when one is NaN and order −0 below +0.
//!   `fsat(NaN) = +0`, `fsat(−0) = +0`; `fsign(NaN) = +0`, `fsign(±0) = ±0`.
//!   Ordered compares are false on NaN, unordered ones true.
//! * **Composite float ops are their steps, each rounded**: `fmod(x, y) = x − y·floor(x/y)`,
//!   `flrp(a, b, t) = a·(1−t) + b·t`, `fdot` multiplies then adds left to right,
//!   `ffract(x) = x − floor(x)`.
//! * **Approximate ops** (`fexp2 flog2 fsin fcos fpow frsq`) are the host's f64 libm result
//!   rounded once; the GPU's approximations may differ in the last bits.
//! * **Derivatives**: one invocation sees a quad-uniform value, so `fddx(x) = x − x`.
//! * **Undefined results** are [`EvalError::Undefined`], never a guess: integer division or
//!   remainder by zero, `INT_MIN / −1` (and its `imod`/`irem`), a bitfield whose offset +
//!   count exceeds the bit size, `f2i`/`f2u` of NaN or of a value whose truncation is out of
//!   the destination's range (the `_sat` forms clamp, NaN → 0).
//! * **Integers**: shift amounts are taken modulo the bit size; `iabs(INT_MIN) = INT_MIN`;
//!   bitfield offsets and counts are read unsigned at their own bit size; `*find_msb` and
//!   `find_lsb` give −1 for "none"; `ifind_msb` of a negative value finds the highest 0 bit.
//! * **Packing**: `pack_*norm` clamps, scales and rounds to nearest even (NaN packs as 0);
//!   `unpack_snorm` clamps at −1; `pack_half_2x16` rounds to nearest even.

use super::ops::alu_result_type;
use super::{AluOp, ValType};
use smallvec::SmallVec;
use std::cmp::Ordering;

/// Result components of one evaluation.
pub type Comps = SmallVec<[u64; 4]>;

/// Why [`eval_alu`] gives no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The operation is undefined for these operands; the text names the rule.
    Undefined(&'static str),
    /// The result type or sources do not fit the operation.
    IllTyped,
}

type R<T> = Result<T, EvalError>;

/// Evaluates ALU `op` with result type `dst` on sources given as (type, components).
/// Returns one bit pattern per result component, each within the result's bit size.
pub fn eval_alu(op: AluOp, dst: ValType, srcs: &[(ValType, &[u64])]) -> R<Comps> {
    let tys: SmallVec<[ValType; 4]> = srcs.iter().map(|s| s.0).collect();
    let typed = alu_result_type(op, &tys, dst.bits) == Some(dst)
        && srcs.iter().all(|(t, c)| c.len() == t.comps as usize)
        && dst.is_valid();
    if !typed {
        return Err(EvalError::IllTyped);
    }
    let n = dst.comps as usize;
    if let Some(r) = eval_whole(op, dst, srcs)? {
        return Ok(r);
    }
    let mut out = Comps::new();
    for k in 0..n {
        let c: SmallVec<[(u8, u64); 4]> = srcs.iter().map(|(t, v)| (t.bits, v[k])).collect();
        out.push(eval_comp(op, dst.bits, &c)?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Float formats and the exact encoder.

/// An IEEE binary format: explicit significand bits and exponent bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fmt {
    man: u32,
    exp: u32,
}

impl Fmt {
    fn of(bits: u8) -> R<Fmt> {
        match bits {
            16 => Ok(Fmt { man: 10, exp: 5 }),
            32 => Ok(Fmt { man: 23, exp: 8 }),
            64 => Ok(Fmt { man: 52, exp: 11 }),
            _ => Err(EvalError::IllTyped),
        }
    }
    fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    fn exp_all_ones(self) -> u64 {
        (1u64 << self.exp) - 1
    }
    fn sign_bit(self) -> u64 {
        1u64 << (self.exp + self.man)
    }
    fn man_mask(self) -> u64 {
        (1u64 << self.man) - 1
    }
    fn nan(self) -> u64 {
        (self.exp_all_ones() << self.man) | (1u64 << (self.man - 1))
    }
    fn inf(self, neg: bool) -> u64 {
        (self.exp_all_ones() << self.man) | if neg { self.sign_bit() } else { 0 }
    }
    fn max_finite(self, neg: bool) -> u64 {
        ((self.exp_all_ones() - 1) << self.man)
            | self.man_mask()
            | if neg { self.sign_bit() } else { 0 }
    }
    fn zero(self, neg: bool) -> u64 {
        if neg {
            self.sign_bit()
        } else {
            0
        }
    }
    fn is_neg(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }
}

/// 2^k as an f64, exactly (k within f64's range, subnormals included).
fn pow2(k: i32) -> f64 {
    debug_assert!((-1074..=1023).contains(&k));
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// Reads a float bit pattern as f64 (exact for every format).
fn widen(f: Fmt, x: u64) -> f64 {
    if f.man == 52 {
        return f64::from_bits(x);
    }
    let neg = f.is_neg(x);
    let e = (x >> f.man) & f.exp_all_ones();
    let m = x & f.man_mask();
    let mag = if e == f.exp_all_ones() {
        if m == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if e == 0 {
        m as f64 * pow2(1 - f.bias() - f.man as i32)
    } else {
        (m | (1u64 << f.man)) as f64 * pow2(e as i32 - f.bias() - f.man as i32)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// A finite non-zero f64 as (negative, significand, exponent) with value = ±sig·2^exp and
/// sig odd.
fn parts(v: f64) -> (bool, u128, i32) {
    let b = v.to_bits();
    let field = ((b >> 52) & 0x7ff) as i32;
    let m = b & ((1u64 << 52) - 1);
    let (sig, e) = if field == 0 {
        (m, -1074)
    } else {
        (m | (1u64 << 52), field - 1075)
    };
    let tz = sig.trailing_zeros();
    (v < 0.0, (sig >> tz) as u128, e + tz as i32)
}

/// Encodes the exact value ±sig·2^e (sig > 0) in format `f`, rounding once: to nearest
/// even, or toward zero when `rtz`. Overflow gives infinity (toward zero: the largest
/// finite value); underflow gives subnormals, then zero.
fn round_to(f: Fmt, neg: bool, sig: u128, e: i32, rtz: bool) -> u64 {
    debug_assert!(sig > 0);
    let man = f.man as i32;
    let emin = 1 - f.bias();
    // Exponent of the leading bit, then of one unit in the last place kept.
    let top = 127 - sig.leading_zeros() as i32 + e;
    let mut q = top.max(emin) - man;
    let shift = q - e;
    let (mut n, rest) = if shift <= 0 {
        (sig << (-shift) as u32, Ordering::Less)
    } else if shift > 128 {
        (0, Ordering::Less) // sig < 2^128 ≤ half a unit: nonzero but below half
    } else {
        let kept = if shift == 128 { 0 } else { sig >> shift };
        let rem = if shift == 128 {
            sig
        } else {
            sig & ((1u128 << shift) - 1)
        };
        (kept, rem.cmp(&(1u128 << (shift - 1))))
    };
    let up = rest == Ordering::Greater || (rest == Ordering::Equal && n & 1 == 1);
    if !rtz && up {
        n += 1;
    }
    if n >> (man + 1) != 0 {
        // Rounding carried into a new leading bit (n was all ones, now a power of two).
        n >>= 1;
        q += 1;
    }
    if n == 0 {
        return f.zero(neg);
    }
    let biased = if n >> man == 0 { 0 } else { q + man + f.bias() };
    if biased as i64 >= f.exp_all_ones() as i64 {
        return if rtz { f.max_finite(neg) } else { f.inf(neg) };
    }
    f.zero(neg) | ((biased as u64) << f.man) | (n as u64 & f.man_mask())
}

/// Rounds an f64 to format `f` (to nearest even, or toward zero).
fn narrow(f: Fmt, v: f64, rtz: bool) -> u64 {
    if v.is_nan() {
        f.nan()
    } else if v.is_infinite() {
        f.inf(v < 0.0)
    } else if v == 0.0 {
        f.zero(v.is_sign_negative())
    } else {
        let (neg, sig, e) = parts(v);
        round_to(f, neg, sig, e, rtz)
    }
}

/// Encodes an integer (exact value `neg`·`mag`) in format `f`, to nearest even.
fn from_int(f: Fmt, neg: bool, mag: u128) -> u64 {
    if mag == 0 {
        0
    } else {
        round_to(f, neg, mag, 0, false)
    }
}

/// One correctly rounded binary operation: f64 and f32 natively, f16 through f64.
fn arith(f: Fmt, a: u64, b: u64, op64: fn(f64, f64) -> f64, op32: fn(f32, f32) -> f32) -> u64 {
    match f.man {
        23 => {
            let r = op32(f32::from_bits(a as u32), f32::from_bits(b as u32));
            if r.is_nan() {
                f.nan()
            } else {
                r.to_bits() as u64
            }
        }
        52 => {
            let r = op64(f64::from_bits(a), f64::from_bits(b));
            if r.is_nan() {
                f.nan()
            } else {
                r.to_bits()
            }
        }
        _ => narrow(f, op64(widen(f, a), widen(f, b)), false),
    }
}

fn fadd(f: Fmt, a: u64, b: u64) -> u64 {
    arith(f, a, b, |x, y| x + y, |x, y| x + y)
}
fn fsub(f: Fmt, a: u64, b: u64) -> u64 {
    arith(f, a, b, |x, y| x - y, |x, y| x - y)
}
fn fmul(f: Fmt, a: u64, b: u64) -> u64 {
    arith(f, a, b, |x, y| x * y, |x, y| x * y)
}
fn fdiv(f: Fmt, a: u64, b: u64) -> u64 {
    arith(f, a, b, |x, y| x / y, |x, y| x / y)
}

/// Fused multiply-add, rounded once.
fn ffma(f: Fmt, a: u64, b: u64, c: u64) -> u64 {
    match f.man {
        23 => {
            let r = f32::from_bits(a as u32)
                .mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32));
            if r.is_nan() {
                f.nan()
            } else {
                r.to_bits() as u64
            }
        }
        52 => {
            let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
            if r.is_nan() {
                f.nan()
            } else {
                r.to_bits()
            }
        }
        _ => {
            let (x, y, z) = (widen(f, a), widen(f, b), widen(f, c));
            // With a zero or non-finite operand f64 arithmetic is exact (products of f16
            // values have 22 bits) and gets the IEEE signs and NaNs right.
            if x == 0.0 || y == 0.0 || z == 0.0 || !(x * y).is_finite() || !z.is_finite() {
                return narrow(f, x * y + z, false);
            }
            // Exact: f16 values are multiples of 2^-24 below 2^16, so the sum, scaled to
            // its smallest unit, fits an i128 comfortably.
            let (nx, sx, ex) = parts(x);
            let (ny, sy, ey) = parts(y);
            let (nz, sz, ez) = parts(z);
            let (sp, ep) = (sx * sy, ex + ey);
            let lo = ep.min(ez);
            let p = ((sp << (ep - lo)) as i128) * if nx != ny { -1 } else { 1 };
            let q = ((sz << (ez - lo)) as i128) * if nz { -1 } else { 1 };
            let s = p + q;
            if s == 0 {
                0 // exact cancellation of non-zero terms is +0 when rounding to nearest
            } else {
                round_to(f, s < 0, s.unsigned_abs(), lo, false)
            }
        }
    }
}

/// `fmin`/`fmax`: a NaN operand yields the other one; −0 orders below +0.
fn fminmax(f: Fmt, a: u64, b: u64, max: bool) -> u64 {
    let (x, y) = (widen(f, a), widen(f, b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => return f.nan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let a_below = if x == y {
        f.is_neg(a) && !f.is_neg(b)
    } else {
        x < y
    };
    if a_below == max {
        b
    } else {
        a
    }
}

fn ldexp(f: Fmt, a: u64, k: i64) -> u64 {
    let x = widen(f, a);
    if x.is_nan() {
        return f.nan();
    }
    if x == 0.0 || x.is_infinite() {
        return a;
    }
    let (neg, sig, e) = parts(x);
    // Beyond ±4096 every format has long over- or underflowed.
    round_to(f, neg, sig, e + k.clamp(-4096, 4096) as i32, false)
}

/// (significand in [0.5, 1), exponent) with x = sig·2^exp; zero and non-finite values are
/// their own significand with exponent 0.
fn frexp(f: Fmt, a: u64) -> (u64, i64) {
    let x = widen(f, a);
    if x.is_nan() {
        return (f.nan(), 0);
    }
    if x == 0.0 || x.is_infinite() {
        return (a, 0);
    }
    let (neg, sig, e) = parts(x);
    let exp = 128 - sig.leading_zeros() as i32 + e;
    (round_to(f, neg, sig, e - exp, false), exp as i64)
}

// ---------------------------------------------------------------------------------------
// Integers.

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(bits: u8, x: u64) -> i64 {
    let sh = 64 - bits as u32;
    ((x << sh) as i64) >> sh
}

fn int_min(bits: u8) -> i128 {
    -(1i128 << (bits - 1))
}
fn int_max(bits: u8) -> i128 {
    (1i128 << (bits - 1)) - 1
}

/// Float to integer: the truncation if it lies in [lo, hi], else Undefined (or clamped for
/// the saturating forms, NaN giving 0).
fn f2int(f: Fmt, a: u64, lo: i128, hi: i128, sat: bool) -> R<i128> {
    let x = widen(f, a);
    if x.is_nan() {
        return if sat {
            Ok(0)
        } else {
            Err(EvalError::Undefined("float-to-integer conversion of NaN"))
        };
    }
    let t = x.trunc();
    // lo and hi + 1 are powers of two or zero, exact in f64.
    if t < lo as f64 || t >= (hi + 1) as f64 {
        return if sat {
            Ok(if t < 0.0 { lo } else { hi })
        } else {
            Err(EvalError::Undefined(
                "float-to-integer conversion out of range",
            ))
        };
    }
    Ok(t as i128)
}

/// (offset, count) of a bitfield op on `bits`-bit values, Undefined when they overflow it.
fn field(bits: u8, off: (u8, u64), count: (u8, u64)) -> R<(u32, u32)> {
    let (o, c) = (off.1 & mask(off.0), count.1 & mask(count.0));
    if o as u128 + c as u128 > bits as u128 {
        return Err(EvalError::Undefined("bitfield beyond the bit size"));
    }
    Ok((o as u32, c as u32))
}

fn low_mask(count: u32) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1u64 << count) - 1
    }
}

// ---------------------------------------------------------------------------------------
// The operations.

/// Ops that do not work component by component; `None` for the others.
fn eval_whole(op: AluOp, dst: ValType, srcs: &[(ValType, &[u64])]) -> R<Option<Comps>> {
    use AluOp::*;
    let s0 = || srcs[0].1;
    let f32f = Fmt::of(32)?;
    let f16f = Fmt::of(16)?;
    let r: Comps = match op {
        Vec => srcs.iter().map(|s| s.1[0]).collect(),
        Fdot => {
            let f = Fmt::of(srcs[0].0.bits)?;
            let (x, y) = (srcs[0].1, srcs[1].1);
            let mut acc = fmul(f, x[0], y[0]);
            for k in 1..x.len() {
                acc = fadd(f, acc, fmul(f, x[k], y[k]));
            }
            smallvec::smallvec![acc]
        }
        Bany => smallvec::smallvec![s0().iter().any(|&c| c != 0) as u64],
        Ball => smallvec::smallvec![s0().iter().all(|&c| c != 0) as u64],
        PackHalf2x16 => {
            let h = |c: u64| narrow(f16f, widen(f32f, c), false);
            smallvec::smallvec![h(s0()[0]) | (h(s0()[1]) << 16)]
        }
        UnpackHalf2x16 => {
            let c = s0()[0];
            let w = |h: u64| narrow(f32f, widen(f16f, h & 0xffff), false);
            smallvec::smallvec![w(c), w(c >> 16)]
        }
        PackUnorm4x8 | PackSnorm4x8 | PackUnorm2x16 | PackSnorm2x16 => {
            let (w, signed) = match op {
                PackUnorm4x8 => (8, false),
                PackSnorm4x8 => (8, true),
                PackUnorm2x16 => (16, false),
                _ => (16, true),
            };
            let mut r = 0u64;
            for (k, &c) in s0().iter().enumerate() {
                let v = widen(f32f, c);
                // The scaled value of an f32 has at most 24 + 16 bits: exact in f64.
                let q: i64 = if v.is_nan() {
                    0
                } else if signed {
                    (v.clamp(-1.0, 1.0) * int_max(w) as f64).round_ties_even() as i64
                } else {
                    (v.clamp(0.0, 1.0) * mask(w) as f64).round_ties_even() as i64
                };
                r |= (q as u64 & mask(w)) << (k as u32 * w as u32);
            }
            smallvec::smallvec![r]
        }
        UnpackUnorm4x8 | UnpackSnorm4x8 | UnpackUnorm2x16 | UnpackSnorm2x16 => {
            let (w, cnt, signed) = match op {
                UnpackUnorm4x8 => (8u8, 4, false),
                UnpackSnorm4x8 => (8, 4, true),
                UnpackUnorm2x16 => (16, 2, false),
                _ => (16, 2, true),
            };
            let c = s0()[0];
            (0..cnt)
                .map(|k| {
                    let q = (c >> (k * w as u32)) & mask(w);
                    // Both operands are exact f32 values, so one f32 division rounds once.
                    let v = if signed {
                        (sext(w, q) as f32 / int_max(w) as f32).max(-1.0)
                    } else {
                        q as f32 / mask(w) as f32
                    };
                    v.to_bits() as u64
                })
                .collect()
        }
        Pack64_2x32 => smallvec::smallvec![s0()[0] | (s0()[1] << 32)],
        Unpack64_2x32 => smallvec::smallvec![s0()[0] & mask(32), s0()[0] >> 32],
        Pack32_2x16 => smallvec::smallvec![s0()[0] | (s0()[1] << 16)],
        Unpack32_2x16 => smallvec::smallvec![s0()[0] & mask(16), s0()[0] >> 16],
        Pack32_4x8 => {
            smallvec::smallvec![s0()
                .iter()
                .enumerate()
                .fold(0, |r, (k, &c)| r | (c << (8 * k)))]
        }
        Unpack32_4x8 => (0..4).map(|k| (s0()[0] >> (8 * k)) & mask(8)).collect(),
        _ => return Ok(None),
    };
    debug_assert_eq!(r.len(), dst.comps as usize);
    Ok(Some(r))
}

/// One component of a per-component op: `c[s]` is source s as (bit size, bits).
fn eval_comp(op: AluOp, db: u8, c: &[(u8, u64)]) -> R<u64> {
    use AluOp::*;
    let sb = c[0].0;
    let m = mask(db);
    let x = c[0].1;
    let u = |s: usize| c[s].1 & mask(c[s].0);
    let i = |s: usize| sext(c[s].0, c[s].1);
    let bool_of = |b: bool| b as u64;
    // Float sources: the format of source 0 (compares, arithmetic, conversions from float).
    let sf = || Fmt::of(sb);
    let df = || Fmt::of(db);
    let w = |s: usize| -> R<f64> { Ok(widen(Fmt::of(c[s].0)?, c[s].1)) };
    let approx = |g: fn(f64) -> f64| -> R<u64> { Ok(narrow(sf()?, g(w(0)?), false)) };
    let undef = |why| Err(EvalError::Undefined(why));
    Ok(match op {
        Mov => x,
        // Bit operations on floats.
        Fneg => x ^ sf()?.sign_bit(),
        Fabs => x & !sf()?.sign_bit(),
        Fsat => {
            let (f, v) = (sf()?, w(0)?);
            if v.is_nan() || v <= 0.0 {
                0
            } else if v >= 1.0 {
                narrow(f, 1.0, false)
            } else {
                x
            }
        }
        Fsign => {
            let (f, v) = (sf()?, w(0)?);
            if v.is_nan() {
                0
            } else if v == 0.0 {
                x
            } else {
                narrow(f, v.signum(), false)
            }
        }
        // Rounding to an integer is exact in f64.
        Ffloor => narrow(sf()?, w(0)?.floor(), false),
        Fceil => narrow(sf()?, w(0)?.ceil(), false),
        Ftrunc => narrow(sf()?, w(0)?.trunc(), false),
        FroundEven => narrow(sf()?, w(0)?.round_ties_even(), false),
        Ffract => {
            let f = sf()?;
            fsub(f, x, narrow(f, w(0)?.floor(), false))
        }
        Fsqrt => arith(sf()?, x, 0, |a, _| a.sqrt(), |a, _| a.sqrt()),
        Frcp => {
            let f = sf()?;
            fdiv(f, narrow(f, 1.0, false), x)
        }
        Frsq => approx(|v| 1.0 / v.sqrt())?,
        Fexp2 => approx(f64::exp2)?,
        Flog2 => approx(f64::log2)?,
        Fsin => approx(f64::sin)?,
        Fcos => approx(f64::cos)?,
        Fpow => narrow(sf()?, w(0)?.powf(w(1)?), false),
        Fquantize2f16 => {
            let f16f = Fmt::of(16)?;
            let h = narrow(f16f, w(0)?, false);
            let h = if h & (f16f.exp_all_ones() << f16f.man) == 0 {
                h & f16f.sign_bit() // an f16 subnormal flushes to a signed zero
            } else {
                h
            };
            narrow(sf()?, widen(f16f, h), false)
        }
        Fadd => fadd(sf()?, x, c[1].1),
        Fsub => fsub(sf()?, x, c[1].1),
        Fmul => fmul(sf()?, x, c[1].1),
        Fdiv => fdiv(sf()?, x, c[1].1),
        Frem => arith(sf()?, x, c[1].1, |a, b| a % b, |a, b| a % b),
        Fmod => {
            let f = sf()?;
            let q = fdiv(f, x, c[1].1);
            let fl = narrow(f, widen(f, q).floor(), false);
            fsub(f, x, fmul(f, c[1].1, fl))
        }
        Fmin => fminmax(sf()?, x, c[1].1, false),
        Fmax => fminmax(sf()?, x, c[1].1, true),
        Ffma => ffma(sf()?, x, c[1].1, c[2].1),
        Flrp => {
            let f = sf()?;
            let one_minus = fsub(f, narrow(f, 1.0, false), c[2].1);
            fadd(f, fmul(f, x, one_minus), fmul(f, c[1].1, c[2].1))
        }
        Fldexp => ldexp(sf()?, x, i(1)),
        FfrexpSig => frexp(sf()?, x).0,
        FfrexpExp => frexp(sf()?, x).1 as u64 & m,
        Fddx | Fddy | FddxFine | FddyFine | FddxCoarse | FddyCoarse => fsub(sf()?, x, x),
        Flt | Fge | Feq | Fneu | Fltu | Fgeu | Fequ | Fneo => {
            let (a, b) = (w(0)?, w(1)?);
            bool_of(match op {
                Flt => a < b,
                Fge => a >= b,
                Feq => a == b,
                Fneu => a != b,
                Fltu => a.is_nan() || b.is_nan() || a < b,
                Fgeu => a.is_nan() || b.is_nan() || a >= b,
                Fequ => a.is_nan() || b.is_nan() || a == b,
                _ => !a.is_nan() && !b.is_nan() && a != b,
            })
        }
        Fisnan => bool_of(w(0)?.is_nan()),
        Fisinf => bool_of(w(0)?.is_infinite()),
        // Integers (wrapping modulo 2^bits).
        Ineg => u(0).wrapping_neg() & m,
        Iabs => i(0).unsigned_abs() & m,
        Isign => i(0).signum() as u64 & m,
        Inot => !x & m,
        Iadd => u(0).wrapping_add(u(1)) & m,
        Isub => u(0).wrapping_sub(u(1)) & m,
        Imul => u(0).wrapping_mul(u(1)) & m,
        Idiv | Imod | Irem => {
            let (a, b) = (i(0) as i128, i(1) as i128);
            if b == 0 {
                return undef("signed division by zero");
            }
            if a == int_min(sb) && b == -1 {
                return undef("signed division overflows (INT_MIN / -1)");
            }
            let r = match op {
                Idiv => a / b,
                Irem => a % b,
                // The result takes the divisor's sign.
                _ => a.rem_euclid(b) + if b < 0 && a.rem_euclid(b) != 0 { b } else { 0 },
            };
            r as u64 & m
        }
        Udiv | Umod => {
            if u(1) == 0 {
                return undef("unsigned division by zero");
            }
            if op == Udiv {
                u(0) / u(1)
            } else {
                u(0) % u(1)
            }
        }
        Imin => i(0).min(i(1)) as u64 & m,
        Imax => i(0).max(i(1)) as u64 & m,
        Umin => u(0).min(u(1)),
        Umax => u(0).max(u(1)),
        Iand => x & c[1].1,
        Ior => x | c[1].1,
        Ixor => x ^ c[1].1,
        UmulHigh => ((u(0) as u128 * u(1) as u128) >> sb) as u64 & m,
        ImulHigh => ((i(0) as i128 * i(1) as i128) >> sb) as u64 & m,
        UaddCarry => bool_of(u(0) as u128 + u(1) as u128 > m as u128),
        UsubBorrow => bool_of(u(0) < u(1)),
        IaddSat => (i(0) as i128 + i(1) as i128).clamp(int_min(sb), int_max(sb)) as u64 & m,
        IsubSat => (i(0) as i128 - i(1) as i128).clamp(int_min(sb), int_max(sb)) as u64 & m,
        UaddSat => (u(0) as u128 + u(1) as u128).min(m as u128) as u64,
        UsubSat => u(0).saturating_sub(u(1)),
        Ishl | Ishr | Ushr => {
            let amount = (c[1].1 % sb as u64) as u32;
            match op {
                Ishl => (u(0) << amount) & m,
                Ishr => (i(0) >> amount) as u64 & m,
                _ => u(0) >> amount,
            }
        }
        UbitfieldExtract | IbitfieldExtract => {
            let (off, count) = field(sb, c[1], c[2])?;
            if count == 0 {
                0
            } else {
                let v = (u(0) >> off) & low_mask(count);
                if op == IbitfieldExtract {
                    sext(count as u8, v) as u64 & m
                } else {
                    v
                }
            }
        }
        BitfieldInsert => {
            let (off, count) = field(sb, c[2], c[3])?;
            let fm = if count == 0 {
                0
            } else {
                low_mask(count) << off
            };
            (x & !fm) | ((c[1].1 << off.min(63)) & fm)
        }
        BitfieldReverse => {
            (0..sb as u32).fold(0, |r, k| r | (((u(0) >> k) & 1) << (sb as u32 - 1 - k)))
        }
        BitCount => u(0).count_ones() as u64 & m,
        UfindMsb | IfindMsb => {
            let v = if op == IfindMsb && i(0) < 0 {
                !u(0) & mask(sb)
            } else {
                u(0)
            };
            if v == 0 {
                m
            } else {
                (63 - v.leading_zeros()) as u64 & m
            }
        }
        FindLsb => {
            if u(0) == 0 {
                m
            } else {
                u(0).trailing_zeros() as u64 & m
            }
        }
        Ieq => bool_of(u(0) == u(1)),
        Ine => bool_of(u(0) != u(1)),
        Ilt => bool_of(i(0) < i(1)),
        Ige => bool_of(i(0) >= i(1)),
        Ult => bool_of(u(0) < u(1)),
        Uge => bool_of(u(0) >= u(1)),
        Bcsel => {
            if x != 0 {
                c[1].1
            } else {
                c[2].1
            }
        }
        // Conversions.
        F2f | F2fRtne | F2fRtz => narrow(df()?, w(0)?, op == F2fRtz),
        F2i | F2iSat => f2int(sf()?, x, int_min(db), int_max(db), op == F2iSat)? as u64 & m,
        F2u | F2uSat => f2int(sf()?, x, 0, m as i128, op == F2uSat)? as u64 & m,
        I2f => from_int(df()?, i(0) < 0, i(0).unsigned_abs() as u128),
        U2f => from_int(df()?, false, u(0) as u128),
        I2i => i(0) as u64 & m,
        U2u => u(0) & m,
        I2iSat => (i(0) as i128).clamp(int_min(db), int_max(db)) as u64 & m,
        U2uSat => u(0).min(m),
        B2f => {
            let f = df()?;
            if x != 0 {
                narrow(f, 1.0, false)
            } else {
                0
            }
        }
        B2i => bool_of(x != 0),
        Vec | Fdot | Bany | Ball | PackHalf2x16 | UnpackHalf2x16 | PackUnorm4x8 | PackSnorm4x8
        | UnpackUnorm4x8 | UnpackSnorm4x8 | PackUnorm2x16 | PackSnorm2x16 | UnpackUnorm2x16
        | UnpackSnorm2x16 | Pack64_2x32 | Unpack64_2x32 | Pack32_2x16 | Unpack32_2x16
        | Pack32_4x8 | Unpack32_4x8 => unreachable!("whole-value op {op:?}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(op: AluOp, dst: ValType, srcs: &[(ValType, u64)]) -> R<u64> {
        let owned: Vec<(ValType, [u64; 1])> = srcs.iter().map(|&(t, x)| (t, [x])).collect();
        let refs: Vec<(ValType, &[u64])> = owned.iter().map(|(t, x)| (*t, &x[..])).collect();
        eval_alu(op, dst, &refs).map(|v| v[0])
    }
    const H: ValType = ValType::new(16, 1);
    const S: ValType = ValType::U32;
    const D: ValType = ValType::U64;

    /// A tiny deterministic generator for the encoder's host comparisons.
    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn the_encoder_rounds_f64_to_f32_like_the_host() {
        // The f32 instance of the generic encoder must equal IEEE hardware narrowing, which
        // is what vouches for its f16 instance.
        let f = Fmt::of(32).unwrap();
        let mut s = 0x9e37_79b9_7f4a_7c15;
        for k in 0..200_000 {
            let bits = xorshift(&mut s);
            // Half the cases near f32's range (normal, subnormal, overflow), half anywhere.
            let v = if k % 2 == 0 {
                let e = 1023 - 160 + (bits >> 56) % 300;
                f64::from_bits((bits & ((1 << 52) - 1)) | (e << 52) | (bits & (1 << 63)))
            } else {
                f64::from_bits(bits)
            };
            let want = v as f32;
            let got = narrow(f, v, false);
            if want.is_nan() {
                assert_eq!(got, f.nan());
            } else {
                assert_eq!(got, want.to_bits() as u64, "{v:e}");
            }
        }
    }

    #[test]
    fn the_encoder_reads_back_every_f16() {
        let f = Fmt::of(16).unwrap();
        for h in 0..=u16::MAX as u64 {
            let v = widen(f, h);
            if v.is_nan() {
                assert_eq!(narrow(f, v, false), f.nan());
            } else {
                assert_eq!(narrow(f, v, false), h, "{h:#x}");
            }
        }
    }

    #[test]
    fn f16_rounding_ties_subnormals_and_overflow() {
        let to_h = |v: f64| ev(AluOp::F2f, H, &[(D, v.to_bits())]).unwrap();
        assert_eq!(to_h(65504.0), 0x7bff);
        assert_eq!(to_h(65519.99), 0x7bff);
        assert_eq!(to_h(65520.0), 0x7c00); // the tie above the largest finite rounds to inf
        assert_eq!(ev(AluOp::F2fRtz, H, &[(D, 65520f64.to_bits())]), Ok(0x7bff));
        assert_eq!(to_h(pow2(-24)), 0x0001);
        assert_eq!(to_h(pow2(-25)), 0x0000); // tie to even
        assert_eq!(to_h(1.5 * pow2(-25)), 0x0001);
        assert_eq!(to_h(1.0 + pow2(-11)), 0x3c00); // tie to even
        assert_eq!(to_h(1.0 + pow2(-11) + pow2(-40)), 0x3c01); // just above the tie
        assert_eq!(to_h(-0.0), 0x8000);
    }

    #[test]
    fn f16_fma_rounds_once() {
        // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20; minus (1 + 2^-9) leaves exactly 2^-20, an f16
        // subnormal (16 units of 2^-24). Rounding the product first loses it.
        let a = (H, 0x3c01);
        assert_eq!(ev(AluOp::Ffma, H, &[a, a, (H, 0xbc02)]), Ok(0x0010));
        let p = ev(AluOp::Fmul, H, &[a, a]).unwrap();
        assert_eq!(ev(AluOp::Fadd, H, &[(H, p), (H, 0xbc02)]), Ok(0));
    }

    #[test]
    fn ldexp_and_frexp_are_exact_at_denormals() {
        let min_sub = 1u64; // f64 2^-1074
        assert_eq!(
            ev(
                AluOp::Fldexp,
                D,
                &[(D, 1f64.to_bits()), (S, (-1074i32) as u32 as u64)]
            ),
            Ok(min_sub)
        );
        // 1.5 · 2^-1075 is 0.75 of the smallest subnormal: rounds to one unit, once.
        assert_eq!(
            ev(
                AluOp::Fldexp,
                D,
                &[(D, 1.5f64.to_bits()), (S, (-1075i32) as u32 as u64)]
            ),
            Ok(1)
        );
        assert_eq!(
            ev(AluOp::FfrexpSig, D, &[(D, min_sub)]),
            Ok(0.5f64.to_bits())
        );
        assert_eq!(
            ev(AluOp::FfrexpExp, S, &[(D, min_sub)]),
            Ok((-1073i32) as u32 as u64)
        );
        assert_eq!(
            ev(AluOp::FfrexpExp, S, &[(H, 0x0001)]),
            Ok((-23i32) as u32 as u64)
        );
    }

    #[test]
    fn undefined_cases_are_named_not_guessed() {
        let int_min = (S, 0x8000_0000);
        let minus_one = (S, 0xffff_ffff);
        assert!(matches!(
            ev(AluOp::Idiv, S, &[int_min, minus_one]),
            Err(EvalError::Undefined(_))
        ));
        assert!(matches!(
            ev(AluOp::Udiv, S, &[(S, 1), (S, 0)]),
            Err(EvalError::Undefined(_))
        ));
        let big = (S, u32::MAX as u64);
        assert!(matches!(
            ev(AluOp::UbitfieldExtract, S, &[(S, 1), big, (S, 1)]),
            Err(EvalError::Undefined(_))
        ));
        // 2^63 does not fit an i64; 2^63 - 1024 (the largest double below) does.
        assert!(ev(
            AluOp::F2i,
            D,
            &[(D, 9.223_372_036_854_775_808e18f64.to_bits())]
        )
        .is_err());
        assert_eq!(
            ev(
                AluOp::F2i,
                D,
                &[(D, 9.223_372_036_854_774_784e18f64.to_bits())]
            ),
            Ok(0x7fff_ffff_ffff_fc00)
        );
        assert_eq!(
            ev(AluOp::F2iSat, S, &[(S, f32::NAN.to_bits() as u64)]),
            Ok(0)
        );
        assert_eq!(
            ev(
                AluOp::Fadd,
                ValType::new(8, 1),
                &[(ValType::new(8, 1), 1), (ValType::new(8, 1), 1)]
            ),
            Err(EvalError::IllTyped)
        );
    }

    #[test]
    fn nan_results_are_canonical_and_min_max_skip_nan() {
        let nan = (S, 0x7f80_0001); // a signalling NaN with a payload
        assert_eq!(ev(AluOp::Fadd, S, &[nan, (S, 0)]), Ok(0x7fc0_0000));
        assert_eq!(ev(AluOp::Fneg, S, &[nan]), Ok(0xff80_0001)); // bit operation
        assert_eq!(
            ev(AluOp::Fmin, S, &[nan, (S, 2f32.to_bits() as u64)]),
            Ok(2f32.to_bits() as u64)
        );
        assert_eq!(
            ev(AluOp::Fmin, S, &[(S, 0), (S, 0x8000_0000)]),
            Ok(0x8000_0000)
        );
        assert_eq!(ev(AluOp::Fmax, S, &[(S, 0x8000_0000), (S, 0)]), Ok(0));
    }
}
