//! IEEE 754 binary16 conversions, written out so constant folding is exact without a
//! dependency: f16→f32 is exact; f32→f16 and f64→f16 round once, directly from the wider
//! format (no double rounding through f32), to nearest-even or toward zero.

/// Widens an f16 bit pattern to f32 (exact; NaN payloads kept, quieted).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = if exp == 0x1f {
        sign | 0x7f80_0000 | (man << 13) | if man != 0 { 0x40_0000 } else { 0 }
    } else if exp == 0 {
        if man == 0 {
            sign
        } else {
            // Subnormal: value = man * 2^-24, exactly representable in f32.
            let v = man as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
    } else {
        sign | ((exp + 112) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

/// Widens an f16 bit pattern to f64 (exact).
pub fn f16_to_f64(h: u16) -> f64 {
    f16_to_f32(h) as f64
}

/// Rounds an f64 to f16. `rtz` selects round-toward-zero, else round-to-nearest-even.
pub fn f64_to_f16(x: f64, rtz: bool) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let man = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return if man != 0 {
            sign | 0x7e00 | ((man >> 42) as u16 & 0x1ff)
        } else {
            sign | 0x7c00
        };
    }
    if exp == 0 && man == 0 {
        return sign;
    }
    // Unbiased exponent and the significand with its implicit bit (53 bits).
    let (e, sig) = if exp == 0 {
        (-1022, man)
    } else {
        (exp - 1023, man | (1u64 << 52))
    };
    // Target: value = q * 2^(e16) with q having 11 bits for normals, e16 >= -24.
    // Choose the quantum: normal f16 has quantum 2^(e-10), subnormal 2^-24.
    let quantum_exp = if e >= -14 { e - 10 } else { -24 };
    // sig * 2^(e-52) / 2^quantum_exp = sig >> (quantum_exp - e + 52)
    let shift = (quantum_exp - e + 52) as u32;
    let (mut q, rem_nonzero, half, above_half) = if shift >= 64 {
        (0u64, sig != 0, false, false)
    } else {
        let q = sig >> shift;
        let rem = sig & ((1u64 << shift) - 1);
        let halfv = 1u64 << (shift - 1);
        (q, rem != 0, rem == halfv, rem > halfv)
    };
    if !rtz && (above_half || (half && (q & 1) == 1)) {
        q += 1;
    }
    let _ = rem_nonzero;
    // Re-assemble: q is the significand in units of 2^quantum_exp.
    let mut biased = quantum_exp + 10 + 15; // exponent field if q has 11 bits
    if quantum_exp == -24 {
        // Subnormal range: q < 2^10 is subnormal; q == 2^10 became the smallest normal.
        if q >= 1 << 10 {
            return sign | (1 << 10) | (q as u16 & 0x3ff);
        }
        return sign | q as u16;
    }
    if q >= 1 << 11 {
        q >>= 1;
        biased += 1;
    }
    if biased >= 0x1f {
        return if rtz { sign | 0x7bff } else { sign | 0x7c00 };
    }
    sign | ((biased as u16) << 10) | (q as u16 & 0x3ff)
}

/// Rounds an f32 to f16 (f32→f64 is exact, so this rounds once).
pub fn f32_to_f16(x: f32, rtz: bool) -> u16 {
    f64_to_f16(x as f64, rtz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhaustive_round_trip_f16_f32_f16() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            let back = f32_to_f16(f, false);
            if f.is_nan() {
                assert_eq!(back & 0x7c00, 0x7c00);
                assert_ne!(back & 0x3ff, 0);
            } else {
                assert_eq!(back, h, "{:#x} -> {} -> {:#x}", h, f, back);
            }
        }
    }

    #[test]
    fn rounding_cases() {
        assert_eq!(f32_to_f16(1.0, false), 0x3c00);
        assert_eq!(f32_to_f16(65504.0, false), 0x7bff);
        assert_eq!(f32_to_f16(65520.0, false), 0x7c00); // rounds up to inf
        assert_eq!(f32_to_f16(65520.0, true), 0x7bff);
        assert_eq!(f32_to_f16(5.960_464_5e-8, false), 0x0001); // 2^-24
        assert_eq!(f32_to_f16(2.980_232_2e-8, false), 0x0000); // 2^-25: tie to even (0)
        assert_eq!(f32_to_f16(4.470_348_4e-8, false), 0x0001); // 1.5 * 2^-25 rounds up
                                                               // 1 + 2^-11 is a tie between 1.0 and 1+2^-10: to even → 1.0
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0, false), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0, false), 0x3c02);
        assert_eq!(f32_to_f16(-2.0, false), 0xc000);
        // Largest subnormal rounding up into the smallest normal.
        assert_eq!(f32_to_f16(6.103_515_6e-5 - 1e-12, false), 0x0400);
        // Double rounding hazard: f64 just above a tie must round up.
        let x = 1.0 + 1.0 / 2048.0 + 1e-12;
        assert_eq!(f64_to_f16(x, false), 0x3c01);
    }
}
