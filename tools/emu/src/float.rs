//! Floating-point helpers with AMD's rules, independent of the register file.
//!
//! - f16 ⇄ f32/f64 conversions (round to nearest even, exact widening), written out here
//!   because the emulator takes no dependency for them.
//! - Denormal flushing per the MODE register's FP_DENORM fields: bit 0 of a 2-bit field
//!   allows denormal inputs, bit 1 denormal outputs; a disallowed denormal becomes ±0.
//! - AMD's min/max (IEEE-754 2008 minNum/maxNum: a NaN operand is ignored unless both are),
//!   `v_cmp_class` masks, saturating float→int (NaN → 0, out of range → the bound), which
//!   is what Rust's `as` casts do.
//! - Transcendentals: `v_rcp/v_sqrt/v_rsq` are computed correctly rounded, which is within
//!   the 1 ulp the ISA documents; `v_exp/v_log` (base 2) and `v_sin/v_cos` (input in
//!   revolutions, i.e. sin(2π·x)) use the host's libm on f64 and round once to f32, well
//!   within the documented 1 ulp (exp/log) and 2^-20 absolute (sin/cos) error.

pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // denormal: value = m * 2^-24
            let v = m as f32 * (1.0 / 16777216.0);
            return if sign != 0 { -v } else { v };
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

pub fn f16_to_f64(h: u16) -> f64 {
    f16_to_f32(h) as f64
}

/// f64 → f16, round to nearest even (one rounding: exact for every f64).
pub fn f64_to_f16(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 63) as u16) << 15;
    if x.is_nan() {
        return sign | 0x7e00 | ((bits >> 42) as u16 & 0x1ff);
    }
    let a = x.abs();
    if a.is_infinite() || a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-25) {
        // below half the smallest denormal (ties at exactly 2^-25 go to even = 0)
        return sign;
    }
    // scale so the f16 ulp becomes 1, round to nearest even with f64's rint
    let e = a.log2().floor() as i32;
    let e = e.max(-14);
    let ulp = 2f64.powi(e - 10);
    let q = (a / ulp).round_ties_even();
    let v = q * ulp;
    // re-encode
    if v >= 65520.0 {
        return sign | 0x7c00;
    }
    if v < 2f64.powi(-14) {
        return sign | (v / 2f64.powi(-24)) as u16;
    }
    let e2 = v.log2().floor() as i32;
    let m = ((v / 2f64.powi(e2) - 1.0) * 1024.0).round() as u16;
    sign | (((e2 + 15) as u16) << 10) | m
}

pub fn f32_to_f16(x: f32) -> u16 {
    f64_to_f16(x as f64)
}

pub fn is_denorm32(x: f32) -> bool {
    x != 0.0 && x.is_subnormal()
}

pub fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

pub fn flush64(x: f64) -> f64 {
    if x.is_subnormal() {
        f64::from_bits(x.to_bits() & (1 << 63))
    } else {
        x
    }
}

pub fn flush16(h: u16) -> u16 {
    if h & 0x7c00 == 0 {
        h & 0x8000
    } else {
        h
    }
}

/// minNum: a NaN operand loses unless both are NaN (then a quiet NaN).
pub fn min_num<T: PartialOrd + Copy>(a: T, b: T, nan: fn(T) -> bool) -> T {
    match (nan(a), nan(b)) {
        (true, true) => a,
        (true, false) => b,
        (false, true) => a,
        _ => {
            if b < a {
                b
            } else {
                a
            }
        }
    }
}

pub fn max_num<T: PartialOrd + Copy>(a: T, b: T, nan: fn(T) -> bool) -> T {
    match (nan(a), nan(b)) {
        (true, true) => a,
        (true, false) => b,
        (false, true) => a,
        _ => {
            if b > a {
                b
            } else {
                a
            }
        }
    }
}

/// The class bit of `v_cmp_class`: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0,
/// 6 +0, 7 +denorm, 8 +normal, 9 +inf. `quiet_bit` is the top mantissa bit of the format.
pub fn class_bit(bits: u64, exp_bits: u32, man_bits: u32) -> u32 {
    let sign = (bits >> (exp_bits + man_bits)) & 1 == 1;
    let exp = (bits >> man_bits) & ((1 << exp_bits) - 1);
    let man = bits & ((1 << man_bits) - 1);
    let emax = (1 << exp_bits) - 1;
    if exp == emax {
        if man == 0 {
            return if sign { 2 } else { 9 };
        }
        return if man >> (man_bits - 1) & 1 == 1 { 1 } else { 0 };
    }
    match (exp, man, sign) {
        (0, 0, true) => 5,
        (0, 0, false) => 6,
        (0, _, true) => 4,
        (0, _, false) => 7,
        (_, _, true) => 3,
        (_, _, false) => 8,
    }
}

/// Saturating conversions (Rust's `as` saturates and maps NaN to 0, as the hardware does).
pub fn f32_to_i32(x: f32) -> i32 {
    x as i32
}
pub fn f32_to_u32(x: f32) -> u32 {
    x as u32
}
pub fn f64_to_i32(x: f64) -> i32 {
    x as i32
}
pub fn f64_to_u32(x: f64) -> u32 {
    x as u32
}

/// sin(2π·x), x in revolutions, via the fraction so large inputs keep their precision.
pub fn sin_rev(x: f32) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    let f = (x as f64) - (x as f64).round();
    (f * std::f64::consts::TAU).sin() as f32
}

pub fn cos_rev(x: f32) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    let f = (x as f64) - (x as f64).round();
    (f * std::f64::consts::TAU).cos() as f32
}

pub fn exp2_32(x: f32) -> f32 {
    (x as f64).exp2() as f32
}

pub fn log2_32(x: f32) -> f32 {
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    (x as f64).log2() as f32
}

/// frexp mantissa in [0.5, 1) with the sign of x; NaN/inf give NaN... per ISA: inf → NaN?
/// The ISA returns the input for NaN and inf; we follow that.
pub fn frexp_mant64(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let e = frexp_exp64(x);
    x / 2f64.powi(e)
}

pub fn frexp_exp64(x: f64) -> i32 {
    if !x.is_finite() || x == 0.0 {
        return 0;
    }
    let a = x.abs();
    let mut e = a.log2().floor() as i32 + 1;
    // correct off-by-one from log2 rounding
    let m = a / 2f64.powi(e);
    if m >= 1.0 {
        e += 1;
    } else if m < 0.5 {
        e -= 1;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trip_every_value() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            let back = f32_to_f16(f);
            if f.is_nan() {
                assert!(back & 0x7c00 == 0x7c00 && back & 0x3ff != 0, "{h:#x}");
            } else {
                assert_eq!(back, h, "{h:#x} -> {f}");
            }
        }
    }

    #[test]
    fn f16_rounding_ties_to_even() {
        // 1 + 2^-11 is halfway between 1 and the next f16 (1 + 2^-10): ties to 1.0
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        // 1 + 3*2^-11 ties to 1 + 2*2^-10
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65519.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000);
        assert_eq!(f64_to_f16(1.5 * 2f64.powi(-25)), 0x0001);
    }

    #[test]
    fn class_bits() {
        assert_eq!(class_bit(f32::NAN.to_bits() as u64, 8, 23), 1);
        assert_eq!(class_bit(0x7f800001, 8, 23), 0);
        assert_eq!(class_bit((-0.0f32).to_bits() as u64, 8, 23), 5);
        assert_eq!(class_bit(1u64, 8, 23), 7);
        assert_eq!(class_bit(f64::NEG_INFINITY.to_bits(), 11, 52), 2);
    }
}

/// f32 rounding directions of MODE.FP_ROUND: 0 nearest even, 1 +inf, 2 -inf, 3 zero.
fn directed(r: f32, err: f32, rm: u32, finite_inputs: bool) -> f32 {
    if r.is_nan() {
        return r;
    }
    if r.is_infinite() {
        if !finite_inputs {
            return r;
        }
        // overflowed under round-to-nearest: the directed result may be the largest finite
        let pos = r > 0.0;
        return match (rm, pos) {
            (3, _) | (2, true) => f32::MAX.copysign(r),
            (1, false) => -f32::MAX,
            _ => r,
        };
    }
    let up = |x: f32| x.next_up();
    let down = |x: f32| x.next_down();
    match rm {
        1 if err > 0.0 => up(r),
        2 if err < 0.0 => down(r),
        3 if r > 0.0 && err < 0.0 => down(r),
        3 if r < 0.0 && err > 0.0 => up(r),
        3 if r == 0.0 => r,
        _ => r,
    }
}

/// a + b in round mode `rm` (exact error term by TwoSum).
pub fn add_rm(a: f32, b: f32, rm: u32) -> f32 {
    let s = a + b;
    if rm == 0 {
        return s;
    }
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    directed(s, err, rm, a.is_finite() && b.is_finite())
}

/// a * b in round mode `rm` (exact error term by fused multiply-add).
pub fn mul_rm(a: f32, b: f32, rm: u32) -> f32 {
    let p = a * b;
    if rm == 0 {
        return p;
    }
    let err = a.mul_add(b, -p);
    directed(p, err, rm, a.is_finite() && b.is_finite())
}

#[cfg(test)]
mod round_tests {
    use super::*;

    #[test]
    fn directed_rounding_brackets_the_exact_result() {
        let third = 1.0f32 / 3.0; // rounded
        for (a, b) in [
            (1.0f32, 1e-8f32),
            (third, third),
            (-1.0, 1e-8),
            (3.0, -1e-9),
        ] {
            let exact = a as f64 + b as f64;
            let up = add_rm(a, b, 1) as f64;
            let dn = add_rm(a, b, 2) as f64;
            let tz = add_rm(a, b, 3) as f64;
            assert!(up >= exact && dn <= exact, "{a} + {b}");
            assert!(tz.abs() <= exact.abs());
            assert!((up - dn) <= (f32::EPSILON as f64) * exact.abs() * 2.0);
            let pe = a as f64 * b as f64;
            assert!(mul_rm(a, b, 1) as f64 >= pe && mul_rm(a, b, 2) as f64 <= pe);
        }
        assert_eq!(add_rm(f32::MAX, f32::MAX, 3), f32::MAX);
        assert_eq!(add_rm(f32::MAX, f32::MAX, 1), f32::INFINITY);
        assert_eq!(mul_rm(-f32::MAX, 2.0, 1), -f32::MAX);
        assert_eq!(add_rm(1.0, 1.0, 3), 2.0);
    }
}

// ---- directed rounding beyond f32 add/sub/mul -------------------------------------------
//
// Every result below is carried as an f64 `x` plus the sign of the exact remainder
// (`err`: exact result − x, possibly 0), then rounded once to the destination format in
// MODE's direction. The f64 carrier is exact for f16 add/sub/mul, f32·f32 products, and
// integer → f32 conversions; sums get their remainder from TwoSum, square
// roots from a fused multiply-add (the remainder of a correctly rounded f64 square root
// of an f32 input is exactly representable).

/// The exact error of `a + b` (TwoSum): returns (a + b rounded, remainder).
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// f64 `x` (+ remainder `err`) rounded to f32 in direction `rm` (0 nearest even, 1 +inf,
/// 2 −inf, 3 zero).
pub fn round_to_f32(x: f64, err: f64, rm: u32) -> f32 {
    let r = x as f32;
    if rm == 0 || x.is_nan() {
        return r;
    }
    // x − r is exact (r is x rounded to fewer bits); a non-zero one dominates `err`
    let e = if r.is_finite() { x - r as f64 } else { 0.0 };
    let e = if e != 0.0 { e } else { err };
    // only the remainder's sign matters (its f32 value could underflow to 0)
    let sign = if e > 0.0 {
        1.0
    } else if e < 0.0 {
        -1.0
    } else {
        0.0
    };
    directed(r, sign, rm, x.is_finite())
}

/// f64 `x` (+ remainder `err`) rounded to f16 bits in direction `rm`.
pub fn round_to_f16(x: f64, err: f64, rm: u32) -> u16 {
    let r = f64_to_f16(x);
    if rm == 0 || x.is_nan() {
        return r;
    }
    let rv = f16_to_f64(r);
    let e = if rv.is_finite() { x - rv } else { 0.0 };
    let e = if e != 0.0 { e } else { err };
    let neg = r >> 15 == 1;
    if rv.is_infinite() {
        if !x.is_finite() {
            return r;
        }
        // overflowed under nearest-even: toward zero (or away from the infinity's side)
        // gives the largest finite value
        return match (rm, neg) {
            (3, _) | (2, false) | (1, true) => (r & 0x8000) | 0x7bff,
            _ => r,
        };
    }
    let up = |h: u16| f16_step(h, true);
    let down = |h: u16| f16_step(h, false);
    match rm {
        1 if e > 0.0 => up(r),
        2 if e < 0.0 => down(r),
        3 if rv > 0.0 && e < 0.0 => down(r),
        3 if rv < 0.0 && e > 0.0 => up(r),
        _ => r,
    }
}

/// The next f16 toward +inf (`up`) or −inf, for finite `h`.
fn f16_step(h: u16, up: bool) -> u16 {
    let mag = h & 0x7fff;
    let neg = h >> 15 == 1;
    if mag == 0 {
        return if up { 0x0001 } else { 0x8001 };
    }
    // moving away from zero increments the magnitude
    if up != neg {
        h + 1
    } else {
        h - 1
    }
}

/// f64 result with remainder, rounded to f64 in direction `rm`.
fn directed64(r: f64, err: f64, rm: u32, finite_inputs: bool) -> f64 {
    if r.is_nan() || rm == 0 {
        return r;
    }
    if r.is_infinite() {
        if !finite_inputs {
            return r;
        }
        return match (rm, r > 0.0) {
            (3, _) | (2, true) => f64::MAX.copysign(r),
            (1, false) => -f64::MAX,
            _ => r,
        };
    }
    match rm {
        1 if err > 0.0 => r.next_up(),
        2 if err < 0.0 => r.next_down(),
        3 if r > 0.0 && err < 0.0 => r.next_down(),
        3 if r < 0.0 && err > 0.0 => r.next_up(),
        _ => r,
    }
}

/// f64 a + b in direction `rm`.
pub fn add64_rm(a: f64, b: f64, rm: u32) -> f64 {
    let (s, e) = two_sum(a, b);
    directed64(s, e, rm, a.is_finite() && b.is_finite())
}

/// f64 a · b in direction `rm` (remainder by fused multiply-add).
pub fn mul64_rm(a: f64, b: f64, rm: u32) -> f64 {
    let p = a * b;
    if rm == 0 || !p.is_finite() {
        return directed64(p, 0.0, rm, a.is_finite() && b.is_finite());
    }
    directed64(p, a.mul_add(b, -p), rm, true)
}

/// f32 fused a · b + c in direction `rm`.
pub fn fma32_rm(a: f32, b: f32, c: f32, rm: u32) -> f32 {
    if rm == 0 {
        return a.mul_add(b, c);
    }
    let (s, e) = two_sum(a as f64 * b as f64, c as f64);
    round_to_f32(s, e, rm)
}

/// f32 square root in direction `rm`.
pub fn sqrt32_rm(a: f32, rm: u32) -> f32 {
    let a = a as f64;
    let q = a.sqrt();
    if rm == 0 || !q.is_finite() || q == 0.0 {
        return round_to_f32(q, 0.0, rm);
    }
    round_to_f32(q, (-q).mul_add(q, a), rm)
}

/// f16 fused a · b + c (operands already widened) in direction `rm`, as f16 bits.
pub fn fma16_rm(a: f64, b: f64, c: f64, rm: u32) -> u16 {
    let (s, e) = two_sum(a * b, c);
    round_to_f16(s, e, rm)
}

#[cfg(test)]
mod directed_tests {
    use super::*;

    #[test]
    fn f32_results_bracket_the_exact_value() {
        // sqrt(2), 1 + 2^-30 (fma): the up/down results are the neighbours around the
        // exact value, toward-zero the smaller magnitude
        let r2 = 2f32.sqrt();
        assert!(
            (r2 as f64) < 2f64.sqrt(),
            "nearest-even rounds sqrt(2) down"
        );
        assert_eq!(sqrt32_rm(2.0, 1), r2.next_up());
        assert_eq!(sqrt32_rm(2.0, 2), r2);
        assert_eq!(sqrt32_rm(2.0, 3), r2);
        assert_eq!(sqrt32_rm(4.0, 2), 2.0);
        let tiny = 2f32.powi(-30);
        assert_eq!(fma32_rm(1.0, 1.0, tiny, 0), 1.0);
        assert_eq!(fma32_rm(1.0, 1.0, tiny, 1), 1.0f32.next_up());
        assert_eq!(fma32_rm(1.0, 1.0, -tiny, 3), 1.0f32.next_down());
        assert_eq!(fma32_rm(f32::MAX, 2.0, 0.0, 3), f32::MAX);
        // remainder below an f64 ulp: 1 + 2^-60 is 1.0 in f64, but rounds up under +inf
        assert_eq!(round_to_f32(1.0, 2f64.powi(-60), 1), 1.0f32.next_up());
        assert_eq!(round_to_f32(1.0, -2f64.powi(-60), 2), 1.0f32.next_down());
        assert_eq!(round_to_f32(1.0, -2f64.powi(-60), 1), 1.0);
    }

    #[test]
    fn f64_and_f16_directed() {
        let tiny = 2f64.powi(-80);
        assert_eq!(add64_rm(1.0, tiny, 1), 1.0f64.next_up());
        assert_eq!(add64_rm(1.0, tiny, 2), 1.0);
        assert_eq!(add64_rm(1.0, -tiny, 3), 1.0f64.next_down());
        assert_eq!(mul64_rm(1.0 / 3.0, 3.0, 0), 1.0);
        assert!(mul64_rm(1.0 / 3.0, 3.0, 2) < 1.0);
        assert_eq!(add64_rm(f64::MAX, f64::MAX, 3), f64::MAX);
        // f16: 1 + 2^-12 lies between 1.0 (0x3c00) and 1 + 2^-10 (0x3c01)
        let x = 1.0 + 2f64.powi(-12);
        assert_eq!(round_to_f16(x, 0.0, 0), 0x3c00);
        assert_eq!(round_to_f16(x, 0.0, 1), 0x3c01);
        assert_eq!(round_to_f16(-x, 0.0, 2), 0xbc01);
        assert_eq!(round_to_f16(-x, 0.0, 3), 0xbc00);
        assert_eq!(round_to_f16(70000.0, 0.0, 3), 0x7bff);
        assert_eq!(round_to_f16(70000.0, 0.0, 1), 0x7c00);
        assert_eq!(round_to_f16(-70000.0, 0.0, 1), 0xfbff);
        assert_eq!(
            round_to_f16(2f64.powi(-30), 0.0, 1),
            0x0001,
            "up to the smallest denormal"
        );
        assert_eq!(round_to_f16(-2f64.powi(-30), 0.0, 1), 0x8000);
        assert_eq!(fma16_rm(1.0, 1.0, 2f64.powi(-40), 1), 0x3c01);
    }
}
