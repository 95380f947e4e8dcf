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
