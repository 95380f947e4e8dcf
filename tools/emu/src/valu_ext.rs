//! The less common VALU operations, split from `valu` to keep files small: the division
//! helpers (`v_div_scale/fmas/fixup`), 16-bit integer and float three-operand forms,
//! packed conversions, sums of absolute differences, dot products, cube-map helpers,
//! `v_swap`, M0-relative moves and the lane permutes.
//!
//! Division helpers follow the ISA manuals' pseudocode: `v_div_scale` scales an operand by
//! 2^±64 (f64: 2^±128) when the quotient or the operands would be denormal or overflow,
//! setting VCC when the quotient itself must be rescaled; `v_div_fmas` undoes that with
//! the same factor. The manuals print the `v_div_fmas` factor as 2^32/2^64; the emulator
//! uses 2^64 (f64 2^128) upward when the scaled quotient is ≥ 2 and downward otherwise,
//! the only choice consistent with `v_div_scale`'s ±64 scaling; likewise, for a huge
//! denominator with a denormal quotient the denominator is scaled *down*. The full
//! division sequences LLVM emits (tests/compiled.rs: llc-19 output for f32 and f64 fdiv
//! on every generation) give the correctly rounded quotient with these rules.

use crate::error::{Error, Result};
use crate::float::*;
use crate::valu::{
    b32, b64, bh, chk, cndmask, f32s, f64s, h, load, mask_in, mask_out, med3, nth, run, sources,
    write_vdst, Lanes, Ty,
};
use crate::wave::{Env, Wave};
use gcnc::isa::{EncDesc, Field, Inst, Opcode as O, Operand};

fn exp32(x: f32) -> i32 {
    ((x.to_bits() >> 23) & 0xff) as i32
}
fn exp64(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32
}

fn ldexp32(x: f32, e: i32) -> f32 {
    (x as f64 * 2f64.powi(e)) as f32
}
fn ldexp64(x: f64, e: i32) -> f64 {
    x * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
}

fn div_scale32(s0: f32, s1: f32, s2: f32) -> (f32, bool) {
    let den_tiny = |x: f32| x != 0.0 && x.is_subnormal();
    if s2 == 0.0 || s1 == 0.0 {
        return (f32::NAN, false);
    }
    if exp32(s2) - exp32(s1) >= 96 {
        return (if s0 == s1 { ldexp32(s0, 64) } else { s0 }, true);
    }
    if den_tiny(s1) {
        return (ldexp32(s0, 64), false);
    }
    let rcp_tiny = den_tiny((1.0f64 / s1 as f64) as f32);
    let q_tiny = den_tiny((s2 as f64 / s1 as f64) as f32);
    if rcp_tiny && q_tiny {
        return (if s0 == s1 { ldexp32(s0, -64) } else { s0 }, true);
    }
    if rcp_tiny {
        return (ldexp32(s0, -64), false);
    }
    if q_tiny {
        return (if s0 == s2 { ldexp32(s0, 64) } else { s0 }, true);
    }
    if exp32(s2) <= 23 {
        return (ldexp32(s0, 64), false);
    }
    (s0, false)
}

fn div_scale64(s0: f64, s1: f64, s2: f64) -> (f64, bool) {
    let tiny = |x: f64| x != 0.0 && x.is_subnormal();
    if s2 == 0.0 || s1 == 0.0 {
        return (f64::NAN, false);
    }
    if exp64(s2) - exp64(s1) >= 768 {
        return (if s0 == s1 { ldexp64(s0, 128) } else { s0 }, true);
    }
    if tiny(s1) {
        return (ldexp64(s0, 128), false);
    }
    let rcp_tiny = tiny(1.0 / s1);
    let q_tiny = tiny(s2 / s1);
    if rcp_tiny && q_tiny {
        return (if s0 == s1 { ldexp64(s0, -128) } else { s0 }, true);
    }
    if rcp_tiny {
        return (ldexp64(s0, -128), false);
    }
    if q_tiny {
        return (if s0 == s2 { ldexp64(s0, 128) } else { s0 }, true);
    }
    if exp64(s2) <= 53 {
        return (ldexp64(s0, 128), false);
    }
    (s0, false)
}

/// v_div_fixup: special cases of num/den, else the quotient with the right sign.
fn div_fixup(q: f64, den: f64, num: f64, max_exp_gap: i32, exps: (i32, i32), inf_exp: i32) -> f64 {
    let neg = den.is_sign_negative() != num.is_sign_negative();
    let sgn = |x: f64| if neg { -x } else { x };
    if num.is_nan() {
        return num;
    }
    if den.is_nan() {
        return den;
    }
    if (den == 0.0 && num == 0.0) || (den.is_infinite() && num.is_infinite()) {
        return f64::NAN;
    }
    if den == 0.0 || num.is_infinite() {
        return sgn(f64::INFINITY);
    }
    if den.is_infinite() || num == 0.0 {
        return sgn(0.0);
    }
    let (en, ed) = exps;
    if en - ed < -max_exp_gap {
        return sgn(0.0);
    }
    if ed == inf_exp {
        return sgn(f64::INFINITY);
    }
    if q.is_nan() {
        return sgn(f64::INFINITY);
    }
    sgn(q.abs())
}

/// Runs a per-lane op that also produces a lane flag (written to the mask destination).
fn with_flag(
    w: &mut Wave,
    inst: &Inst,
    d: &EncDesc,
    env: &Env,
    ty: Ty,
    f: impl Fn(&[u64]) -> (u64, bool),
) -> Result<()> {
    let exec = w.regs.exec();
    let so = sources(inst, d);
    let mut srcs = Vec::new();
    for (i, o) in so.iter().enumerate() {
        srcs.push((load(w, o, ty, exec, chk(inst, i, env.checks.uninit))?, ty));
    }
    let mut res = Vec::new();
    let mut flags = 0u64;
    {
        let l = Lanes::new(w, srcs, inst, env.checks.uninit)?;
        for lane in 0..w.lanes() {
            if l.live >> lane & 1 == 0 {
                continue;
            }
            let v: Vec<u64> = (0..l.srcs.len()).map(|i| l.get(i, lane)).collect();
            let (r, fl) = f(&v);
            if fl {
                flags |= 1 << lane;
            }
            res.push((lane, r));
        }
    }
    for (lane, r) in res {
        write_vdst(w, inst, d, lane, r, ty)?;
    }
    mask_out(w, inst, d, flags)?;
    Ok(())
}

fn sad_u8(a: u32, b: u32) -> u32 {
    (0..4)
        .map(|k| ((a >> (8 * k)) & 0xff).abs_diff((b >> (8 * k)) & 0xff))
        .sum()
}

fn sat_i16(x: i32) -> u64 {
    x.clamp(-32768, 32767) as u16 as u64
}

fn pknorm_i16(x: f32) -> u16 {
    let v = (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even();
    if x.is_nan() {
        0
    } else {
        v as i16 as u16
    }
}
fn pknorm_u16(x: f32) -> u16 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
    }
}

/// Cube-map face selection: (id, sc, tc, ma) for direction (x, y, z).
fn cube(x: f32, y: f32, z: f32) -> (f32, f32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        let id = if z < 0.0 { 5.0 } else { 4.0 };
        (id, if z < 0.0 { -x } else { x }, -y, 2.0 * z)
    } else if ay >= ax {
        let id = if y < 0.0 { 3.0 } else { 2.0 };
        (id, x, if y < 0.0 { -z } else { z }, 2.0 * y)
    } else {
        let id = if x < 0.0 { 1.0 } else { 0.0 };
        (id, if x < 0.0 { z } else { -z }, -y, 2.0 * x)
    }
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &Env) -> Result<()> {
    use Ty::*;
    let clamp = inst.mods.clamp;
    let name = inst.op.name();
    macro_rules! iop {
        ($tys:expr, $out:expr, |$s:ident| $e:expr) => {
            run(w, inst, d, env, &$tys, $out, false, |$s| $e)
        };
    }
    let s16 = |v: u64| v as u16 as i16 as i32;
    match inst.op {
        O::VDivScaleF32 => with_flag(w, inst, d, env, F32, |s| {
            let (r, f) = div_scale32(f32s(s[0]), f32s(s[1]), f32s(s[2]));
            (b32(r), f)
        }),
        O::VDivScaleF64 => with_flag(w, inst, d, env, F64, |s| {
            let (r, f) = div_scale64(f64s(s[0]), f64s(s[1]), f64s(s[2]));
            (b64(r), f)
        }),
        O::VDivFmasF32 | O::VDivFmasF64 => {
            let vcc = mask_in(w, inst, d)?;
            let f64op = inst.op == O::VDivFmasF64;
            let ty = if f64op { F64 } else { F32 };
            let exec = w.regs.exec();
            let so = sources(inst, d);
            let mut srcs = Vec::new();
            for (i, o) in so.iter().enumerate().take(3) {
                srcs.push((load(w, o, ty, exec, chk(inst, i, env.checks.uninit))?, ty));
            }
            let mut res = Vec::new();
            {
                let l = Lanes::new(w, srcs, inst, env.checks.uninit)?;
                for lane in 0..w.lanes() {
                    if l.live >> lane & 1 == 0 {
                        continue;
                    }
                    let (a, b, c) = (l.get(0, lane), l.get(1, lane), l.get(2, lane));
                    let scaled = vcc >> lane & 1 == 1;
                    let r = if f64op {
                        let r = f64s(a).mul_add(f64s(b), f64s(c));
                        b64(if scaled {
                            ldexp64(r, if exp64(f64s(c)) > 1023 { 128 } else { -128 })
                        } else {
                            r
                        })
                    } else {
                        let r = f32s(a).mul_add(f32s(b), f32s(c));
                        b32(if scaled {
                            ldexp32(r, if exp32(f32s(c)) > 127 { 64 } else { -64 })
                        } else {
                            r
                        })
                    };
                    res.push((lane, r));
                }
            }
            for (lane, r) in res {
                write_vdst(w, inst, d, lane, r, ty)?;
            }
            Ok(())
        }
        O::VDivFixupF32 => run(w, inst, d, env, &[F32, F32, F32], F32, false, |s| {
            let (q, den, num) = (f32s(s[0]), f32s(s[1]), f32s(s[2]));
            let r = div_fixup(
                q as f64,
                den as f64,
                num as f64,
                150,
                (exp32(num), exp32(den)),
                255,
            );
            b32(if r.is_nan() {
                f32::NAN
            } else if r.is_infinite() || r == 0.0 {
                r as f32
            } else {
                (r as f32).copysign(r as f32)
            })
        }),
        O::VDivFixupF64 => run(w, inst, d, env, &[F64, F64, F64], F64, false, |s| {
            let (q, den, num) = (f64s(s[0]), f64s(s[1]), f64s(s[2]));
            b64(div_fixup(q, den, num, 1075, (exp64(num), exp64(den)), 2047))
        }),
        O::VDivFixupF16 | O::VDivFixupLegacyF16 => {
            run(w, inst, d, env, &[F16, F16, F16], F16, false, |s| {
                let (q, den, num) = (h(s[0]), h(s[1]), h(s[2]));
                let e = |v: u64| ((v >> 10) & 0x1f) as i32;
                bh(div_fixup(q, den, num, 25, (e(s[2]), e(s[1])), 31))
            })
        }
        // ---- 16-bit float
        O::VMadF16 | O::VMadLegacyF16 | O::VMadakF16 | O::VMadmkF16 => {
            run(w, inst, d, env, &[F16, F16, F16], F16, false, |s| {
                bh(f16_to_f64(f64_to_f16(h(s[0]) * h(s[1]))) + h(s[2]))
            })
        }
        O::VFmaakF16 | O::VFmamkF16 | O::VFmaLegacyF16 => {
            run(w, inst, d, env, &[F16, F16, F16], F16, false, |s| {
                bh(h(s[0]).mul_add(h(s[1]), h(s[2])))
            })
        }
        O::VMacF16 => run(w, inst, d, env, &[F16, F16], F16, true, |s| {
            bh(f16_to_f64(f64_to_f16(h(s[0]) * h(s[1]))) + h(s[2]))
        }),
        O::VMin3F16 => run(w, inst, d, env, &[F16; 3], F16, false, |s| {
            bh(min_num(
                min_num(h(s[0]), h(s[1]), f64::is_nan),
                h(s[2]),
                f64::is_nan,
            ))
        }),
        O::VMax3F16 => run(w, inst, d, env, &[F16; 3], F16, false, |s| {
            bh(max_num(
                max_num(h(s[0]), h(s[1]), f64::is_nan),
                h(s[2]),
                f64::is_nan,
            ))
        }),
        O::VMed3F16 => run(w, inst, d, env, &[F16; 3], F16, false, |s| {
            bh(med3(h(s[0]), h(s[1]), h(s[2])))
        }),
        O::VLdexpF16 => run(w, inst, d, env, &[F16, I16], F16, false, |s| {
            bh(h(s[0]) * 2f64.powi(s16(s[1]).clamp(-100, 100)))
        }),
        O::VFractF16 => run(w, inst, d, env, &[F16], F16, false, |s| {
            let x = h(s[0]);
            bh(if x.is_infinite() {
                f64::NAN
            } else {
                (x - x.floor()).min(f16_to_f64(0x3bff))
            })
        }),
        O::VFrexpMantF16 => run(w, inst, d, env, &[F16], F16, false, |s| {
            bh(frexp_mant64(h(s[0])))
        }),
        O::VFrexpExpI16F16 => iop!([F16], I16, |s| frexp_exp64(h(s[0])) as u16 as u64),
        O::VSinF16 => run(w, inst, d, env, &[F16], F16, false, |s| {
            bh(sin_rev(h(s[0]) as f32) as f64)
        }),
        O::VCosF16 => run(w, inst, d, env, &[F16], F16, false, |s| {
            bh(cos_rev(h(s[0]) as f32) as f64)
        }),
        O::VCvtNormI16F16 => iop!([F16], I16, |s| pknorm_i16(h(s[0]) as f32) as u64),
        O::VCvtNormU16F16 => iop!([F16], I16, |s| pknorm_u16(h(s[0]) as f32) as u64),
        // ---- 16-bit integer
        O::VMadU16 | O::VMadLegacyU16 => iop!([I16, I16, I16], I16, |s| {
            let r = s[0] * s[1] + s[2];
            if clamp {
                r.min(0xffff)
            } else {
                r & 0xffff
            }
        }),
        O::VMadI16 | O::VMadLegacyI16 => iop!([I16, I16, I16], I16, |s| {
            let r = s16(s[0]) * s16(s[1]) + s16(s[2]);
            if clamp {
                sat_i16(r)
            } else {
                r as u16 as u64
            }
        }),
        O::VMadU32U16 => iop!([I16, I16, B32], B32, |s| (s[0] * s[1] + s[2]) & 0xffff_ffff),
        O::VMadI32I16 => iop!([I16, I16, B32], B32, |s| (s16(s[0]) * s16(s[1]))
            .wrapping_add(s[2] as i32)
            as u32 as u64),
        O::VMin3U16 => iop!([I16; 3], I16, |s| s[0].min(s[1]).min(s[2])),
        O::VMax3U16 => iop!([I16; 3], I16, |s| s[0].max(s[1]).max(s[2])),
        O::VMed3U16 => iop!([I16; 3], I16, |s| med3(s[0], s[1], s[2])),
        O::VMin3I16 => iop!(
            [I16; 3],
            I16,
            |s| s16(s[0]).min(s16(s[1])).min(s16(s[2])) as u16 as u64
        ),
        O::VMax3I16 => iop!(
            [I16; 3],
            I16,
            |s| s16(s[0]).max(s16(s[1])).max(s16(s[2])) as u16 as u64
        ),
        O::VMed3I16 => iop!(
            [I16; 3],
            I16,
            |s| med3(s16(s[0]), s16(s[1]), s16(s[2])) as u16 as u64
        ),
        O::VAddI16 | O::VAddNcI16 => iop!([I16, I16], I16, |s| {
            let r = s16(s[0]) + s16(s[1]);
            if clamp {
                sat_i16(r)
            } else {
                r as u16 as u64
            }
        }),
        O::VSubI16 | O::VSubNcI16 => iop!([I16, I16], I16, |s| {
            let r = s16(s[0]) - s16(s[1]);
            if clamp {
                sat_i16(r)
            } else {
                r as u16 as u64
            }
        }),
        O::VAndB16 => iop!([I16, I16], I16, |s| s[0] & s[1]),
        O::VOrB16 => iop!([I16, I16], I16, |s| s[0] | s[1]),
        O::VXorB16 => iop!([I16, I16], I16, |s| s[0] ^ s[1]),
        O::VNotB16 => iop!([I16], I16, |s| !s[0] & 0xffff),
        O::VCvtI32I16 => iop!([I16], B32, |s| s16(s[0]) as u32 as u64),
        O::VCvtU32U16 => iop!([I16], B32, |s| s[0] & 0xffff),
        O::VCndmaskB16 => cndmask(w, inst, d, env, F16, false, F16),
        // ---- packing conversions
        O::VCvtPknormI16F32 | O::VCvtPkNormI16F32 => {
            iop!([F32, F32], B32, |s| (pknorm_i16(f32s(s[0])) as u64)
                | (pknorm_i16(f32s(s[1])) as u64) << 16)
        }
        O::VCvtPknormU16F32 | O::VCvtPkNormU16F32 => {
            iop!([F32, F32], B32, |s| (pknorm_u16(f32s(s[0])) as u64)
                | (pknorm_u16(f32s(s[1])) as u64) << 16)
        }
        O::VCvtPknormI16F16 | O::VCvtPkNormI16F16 => {
            iop!([F16, F16], B32, |s| (pknorm_i16(h(s[0]) as f32) as u64)
                | (pknorm_i16(h(s[1]) as f32) as u64) << 16)
        }
        O::VCvtPknormU16F16 | O::VCvtPkNormU16F16 => {
            iop!([F16, F16], B32, |s| (pknorm_u16(h(s[0]) as f32) as u64)
                | (pknorm_u16(h(s[1]) as f32) as u64) << 16)
        }
        O::VCvtPkU16F32 => iop!([F32, F32], B32, |s| (f32s(s[0]) as u16 as u64)
            | (f32s(s[1]) as u16 as u64) << 16),
        O::VCvtPkI16F32 => iop!([F32, F32], B32, |s| (f32s(s[0]) as i16 as u16 as u64)
            | (f32s(s[1]) as i16 as u16 as u64) << 16),
        O::VCvtPkU8F32 => iop!([F32, B32, B32], B32, |s| {
            let sh = 8 * (s[1] & 3);
            let byte = f32s(s[0]).round_ties_even() as u8 as u64;
            (s[2] & !(0xff << sh)) | byte << sh
        }),
        O::VSatPkU8I16 => iop!([B32], B32, |s| {
            let lo = s16(s[0] & 0xffff).clamp(0, 255) as u64;
            let hi = s16(s[0] >> 16).clamp(0, 255) as u64;
            lo | hi << 8
        }),
        O::VCvtOffF32I4 => run(w, inst, d, env, &[B32], F32, false, |s| {
            b32((((s[0] as u32 & 0xf) << 28) as i32 >> 28) as f32 * 0.0625)
        }),
        // ---- misc integer
        O::VXadU32 => iop!([B32, B32, B32], B32, |s| ((s[0] ^ s[1]) + s[2])
            & 0xffff_ffff),
        O::VSadU8 => iop!([B32, B32, B32], B32, |s| (sad_u8(s[0] as u32, s[1] as u32)
            as u64
            + s[2])
            & 0xffff_ffff),
        O::VSadHiU8 => iop!([B32, B32, B32], B32, |s| ((sad_u8(s[0] as u32, s[1] as u32)
            as u64)
            << 16)
            .wrapping_add(s[2])
            & 0xffff_ffff),
        O::VSadU16 => iop!([B32, B32, B32], B32, |s| {
            let (a, b) = (s[0] as u32, s[1] as u32);
            (((a & 0xffff).abs_diff(b & 0xffff) + (a >> 16).abs_diff(b >> 16)) as u64 + s[2])
                & 0xffff_ffff
        }),
        O::VSadU32 => iop!(
            [B32, B32, B32],
            B32,
            |s| ((s[0] as u32).abs_diff(s[1] as u32) as u64 + s[2]) & 0xffff_ffff
        ),
        O::VMsadU8 => iop!([B32, B32, B32], B32, |s| {
            let (a, b) = (s[0] as u32, s[1] as u32);
            let t: u32 = (0..4)
                .filter(|k| (b >> (8 * k)) & 0xff != 0)
                .map(|k| ((a >> (8 * k)) & 0xff).abs_diff((b >> (8 * k)) & 0xff))
                .sum();
            (t as u64 + s[2]) & 0xffff_ffff
        }),
        O::VLerpU8 => iop!([B32, B32, B32], B32, |s| {
            let mut r = 0u64;
            for k in 0..4 {
                let a = (s[0] >> (8 * k)) & 0xff;
                let b = (s[1] >> (8 * k)) & 0xff;
                let c = (s[2] >> (8 * k)) & 1;
                r |= ((a + b + c) >> 1) << (8 * k);
            }
            r
        }),
        O::VMaxminF32 => run(w, inst, d, env, &[F32; 3], F32, false, |s| {
            b32(min_num(
                max_num(f32s(s[0]), f32s(s[1]), f32::is_nan),
                f32s(s[2]),
                f32::is_nan,
            ))
        }),
        O::VMinmaxF32 => run(w, inst, d, env, &[F32; 3], F32, false, |s| {
            b32(max_num(
                min_num(f32s(s[0]), f32s(s[1]), f32::is_nan),
                f32s(s[2]),
                f32::is_nan,
            ))
        }),
        O::VMaxminF16 => run(w, inst, d, env, &[F16; 3], F16, false, |s| {
            bh(min_num(
                max_num(h(s[0]), h(s[1]), f64::is_nan),
                h(s[2]),
                f64::is_nan,
            ))
        }),
        O::VMinmaxF16 => run(w, inst, d, env, &[F16; 3], F16, false, |s| {
            bh(max_num(
                min_num(h(s[0]), h(s[1]), f64::is_nan),
                h(s[2]),
                f64::is_nan,
            ))
        }),
        O::VMaxminU32 => iop!([B32; 3], B32, |s| s[0].max(s[1]).min(s[2])),
        O::VMinmaxU32 => iop!([B32; 3], B32, |s| s[0].min(s[1]).max(s[2])),
        O::VMaxminI32 => iop!(
            [B32; 3],
            B32,
            |s| (s[0] as i32).max(s[1] as i32).min(s[2] as i32) as u32 as u64
        ),
        O::VMinmaxI32 => iop!(
            [B32; 3],
            B32,
            |s| (s[0] as i32).min(s[1] as i32).max(s[2] as i32) as u32 as u64
        ),
        O::VCubeidF32 | O::VCubescF32 | O::VCubetcF32 | O::VCubemaF32 => {
            let k = match inst.op {
                O::VCubeidF32 => 0,
                O::VCubescF32 => 1,
                O::VCubetcF32 => 2,
                _ => 3,
            };
            run(w, inst, d, env, &[F32; 3], F32, false, move |s| {
                let c = cube(f32s(s[0]), f32s(s[1]), f32s(s[2]));
                b32([c.0, c.1, c.2, c.3][k])
            })
        }
        // ---- dot products (sources are packed lanes of the 32-bit operands)
        O::VDot4U32U8 => iop!([B32; 3], B32, |s| (0..4).fold(s[2], |a, k| a
            .wrapping_add(((s[0] >> (8 * k)) & 0xff) * ((s[1] >> (8 * k)) & 0xff)))
            & 0xffff_ffff),
        O::VDot4cI32I8 => run(w, inst, d, env, &[B32, B32], B32, true, |s| {
            (0..4).fold(s[2] as i32, |a, k| {
                a.wrapping_add(
                    ((s[0] >> (8 * k)) as u8 as i8 as i32) * ((s[1] >> (8 * k)) as u8 as i8 as i32),
                )
            }) as u32 as u64
        }),
        O::VDot4I32I8 => iop!([B32; 3], B32, |s| {
            (0..4).fold(s[2] as i32, |a, k| {
                a.wrapping_add(
                    ((s[0] >> (8 * k)) as u8 as i8 as i32) * ((s[1] >> (8 * k)) as u8 as i8 as i32),
                )
            }) as u32 as u64
        }),
        O::VDot8U32U4 => iop!([B32; 3], B32, |s| (0..8).fold(s[2], |a, k| a
            .wrapping_add(((s[0] >> (4 * k)) & 0xf) * ((s[1] >> (4 * k)) & 0xf)))
            & 0xffff_ffff),
        O::VDot2U32U16 => iop!([B32; 3], B32, |s| (s[2]
            + (s[0] & 0xffff) * (s[1] & 0xffff)
            + (s[0] >> 16) * (s[1] >> 16))
            & 0xffff_ffff),
        O::VDot2I32I16 => iop!([B32; 3], B32, |s| {
            (s[2] as i32)
                .wrapping_add(s16(s[0]) * s16(s[1]))
                .wrapping_add(s16(s[0] >> 16) * s16(s[1] >> 16)) as u32 as u64
        }),
        O::VDot2F32F16 => run(w, inst, d, env, &[B32, B32, F32], F32, false, |s| {
            let p = h(s[0] & 0xffff) * h(s[1] & 0xffff) + h(s[0] >> 16) * h(s[1] >> 16);
            b32((p + f32s(s[2]) as f64) as f32)
        }),
        // ---- moves
        O::VSwapB32 => {
            let so = sources(inst, d);
            let (Some(Operand::Reg(dst)), Operand::Reg(src)) =
                (inst.get(d, Field::Vdst).copied(), *nth(&so, 0)?)
            else {
                return Err(Error::unsupported("v_swap operands"));
            };
            let (a, b) = (vgpr_index(dst, "v_swap")?, vgpr_index(src, "v_swap")?);
            let exec = w.regs.exec();
            if env.checks.uninit {
                w.regs.check_v(a, exec)?;
                w.regs.check_v(b, exec)?;
            }
            for lane in 0..w.lanes() {
                if exec >> lane & 1 == 1 {
                    let (x, y) = (w.regs.v(a, lane), w.regs.v(b, lane));
                    w.regs.set_v(a, lane, y)?;
                    w.regs.set_v(b, lane, x)?;
                }
            }
            Ok(())
        }
        O::VMovrelsB32 | O::VMovreldB32 | O::VMovrelsdB32 | O::VMovrelsd2B32 => {
            let m0 = w.regs.s(124)?;
            let so = sources(inst, d);
            let Some(Operand::Reg(dst)) = inst.get(d, Field::Vdst).copied() else {
                return Err(Error::unsupported("v_movrel destination"));
            };
            let (dm, sm) = match inst.op {
                O::VMovrelsB32 => (0, m0),
                O::VMovreldB32 => (m0, 0),
                O::VMovrelsdB32 => (m0, m0),
                _ => ((m0 >> 16) & 0x3ff, m0 & 0x3ff),
            };
            let dn = dst.base.0 as u32 - 256 + dm;
            let exec = w.regs.exec();
            let vals: Vec<(u32, u32)> = match *nth(&so, 0)? {
                Operand::Reg(r) if r.base.is_vgpr() => {
                    let sn = (r.base.0 as u32 - 256 + sm) as u16;
                    if env.checks.uninit {
                        w.regs.check_v(sn, exec)?;
                    }
                    (0..w.lanes())
                        .filter(|l| exec >> l & 1 == 1)
                        .map(|l| (l, w.regs.v(sn, l)))
                        .collect()
                }
                ref o => {
                    let v = w.s_read(o, 1, false, false)? as u32;
                    (0..w.lanes())
                        .filter(|l| exec >> l & 1 == 1)
                        .map(|l| (l, v))
                        .collect()
                }
            };
            for (lane, v) in vals {
                w.regs.set_v(dn as u16, lane, v)?;
            }
            Ok(())
        }
        O::VPermlane16B32 | O::VPermlanex16B32 | O::VPermlane64B32 => {
            let so = sources(inst, d);
            let Operand::Reg(src) = *nth(&so, 0)? else {
                return Err(Error::unsupported("v_permlane source"));
            };
            let sn = vgpr_index(src, "v_permlane source")?;
            let sel: u64 = if inst.op == O::VPermlane64B32 {
                0
            } else {
                w.s_read(nth(&so, 1)?, 1, false, false)?
                    | w.s_read(nth(&so, 2)?, 1, false, false)? << 32
            };
            let fi = inst.mods.op_sel & 1 == 1;
            let bound = inst.mods.op_sel >> 1 & 1 == 1;
            let exec = w.regs.exec();
            let lanes = w.lanes();
            let mut res = Vec::new();
            for lane in 0..lanes {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let from = match inst.op {
                    O::VPermlane64B32 => (lane + 32) % lanes,
                    _ => {
                        let row = lane / 16;
                        let s = ((sel >> (4 * (lane % 16))) & 0xf) as u32;
                        let r = if inst.op == O::VPermlanex16B32 {
                            row ^ 1
                        } else {
                            row
                        };
                        r * 16 + s
                    }
                };
                if from < lanes && (exec >> from & 1 == 1 || fi) {
                    if env.checks.uninit {
                        w.regs.check_v(sn, 1 << from)?;
                    }
                    res.push((lane, w.regs.v(sn, from)));
                } else if bound {
                    res.push((lane, 0));
                }
            }
            let Some(Operand::Reg(dst)) = inst.get(d, Field::Vdst).copied() else {
                return Err(Error::unsupported("v_permlane destination"));
            };
            let dn = vgpr_index(dst, "v_permlane destination")?;
            for (lane, v) in res {
                w.regs.set_v(dn, lane, v)?;
            }
            Ok(())
        }
        _ => {
            let _ = name;
            Err(Error::unimpl(inst.op.name()))
        }
    }
}

/// The VGPR number of a register operand that must be a VGPR; a scalar register there (a
/// 9-bit source field can encode one) is an operand combination the hardware does not
/// define for `what`, reported rather than indexed.
fn vgpr_index(r: gcnc::isa::Reg, what: &str) -> Result<u16> {
    if r.base.is_vgpr() {
        Ok(r.base.0 - 256)
    } else {
        Err(Error::unsupported(format!(
            "{what}: a scalar register where a VGPR is needed"
        )))
    }
}
