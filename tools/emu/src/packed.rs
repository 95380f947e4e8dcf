//! VOP3P packed 16-bit math: each 32-bit source holds two halves; the low result takes
//! the half op_sel picks (bit i for source i), the high result the half op_sel_hi picks;
//! `neg` negates the low-half inputs of float ops, `neg_hi` the high-half ones; clamp
//! clamps float results to [0, 1] and saturates integer ones.

use crate::error::{Error, Result};
use crate::float::*;
use crate::wave::{inline_value, Env, Wave};
use gcnc::isa::{EncDesc, Field, Inst, Opcode as O, Operand};

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &Env) -> Result<()> {
    let exec = w.regs.exec();
    let m = inst.mods;
    // the ops with f16 results (FP_ROUND applies; inline constants are f16)
    let float = matches!(
        inst.op,
        O::VPkAddF16
            | O::VPkMulF16
            | O::VPkFmaF16
            | O::VPkMinF16
            | O::VPkMaxF16
            | O::VFmaMixloF16
            | O::VFmaMixhiF16
            | O::VMadMixloF16
            | O::VMadMixhiF16
    );
    let srcs: Vec<Operand> = d
        .explicit()
        .zip(inst.operands.iter())
        .filter(|(od, _)| matches!(od.field, Field::Src0 | Field::Src1 | Field::Src2))
        .map(|(_, o)| *o)
        .collect();
    for o in &srcs {
        if let Operand::Reg(r) = o {
            if r.base.is_vgpr() && env.checks.uninit {
                w.regs.check_v(r.base.0 - 256, exec)?;
            }
        }
    }
    if float && (w.mode >> 2) & 3 != 0 {
        return Err(Error::unsupported("MODE.FP_ROUND other than nearest-even"));
    }
    let op = inst.op;
    if matches!(
        op,
        O::VFmaMixF32
            | O::VFmaMixloF16
            | O::VFmaMixhiF16
            | O::VMadMixF32
            | O::VMadMixloF16
            | O::VMadMixhiF16
    ) {
        return fma_mix(w, inst, d, &srcs, exec);
    }
    let f: fn(u64, u64, u64, bool) -> u64 = match op {
        O::VPkAddF16 => |a, b, _, _| f64_to_f16(f16_to_f64(a as u16) + f16_to_f64(b as u16)) as u64,
        O::VPkMulF16 => |a, b, _, _| f64_to_f16(f16_to_f64(a as u16) * f16_to_f64(b as u16)) as u64,
        O::VPkFmaF16 => |a, b, c, _| {
            f64_to_f16(f16_to_f64(a as u16).mul_add(f16_to_f64(b as u16), f16_to_f64(c as u16)))
                as u64
        },
        O::VPkMinF16 => |a, b, _, _| {
            f64_to_f16(min_num(
                f16_to_f64(a as u16),
                f16_to_f64(b as u16),
                f64::is_nan,
            )) as u64
        },
        O::VPkMaxF16 => |a, b, _, _| {
            f64_to_f16(max_num(
                f16_to_f64(a as u16),
                f16_to_f64(b as u16),
                f64::is_nan,
            )) as u64
        },
        O::VPkAddU16 => |a, b, _, c| {
            if c {
                (a + b).min(0xffff)
            } else {
                (a + b) & 0xffff
            }
        },
        O::VPkSubU16 => |a, b, _, c| {
            if c {
                a.saturating_sub(b)
            } else {
                a.wrapping_sub(b) & 0xffff
            }
        },
        O::VPkAddI16 => |a, b, _, c| {
            let r = a as u16 as i16 as i32 + b as u16 as i16 as i32;
            (if c { r.clamp(-32768, 32767) } else { r }) as u16 as u64
        },
        O::VPkSubI16 => |a, b, _, c| {
            let r = a as u16 as i16 as i32 - b as u16 as i16 as i32;
            (if c { r.clamp(-32768, 32767) } else { r }) as u16 as u64
        },
        O::VPkMulLoU16 => |a, b, _, _| (a * b) & 0xffff,
        O::VPkMadU16 => |a, b, c, _| (a * b + c) & 0xffff,
        O::VPkMadI16 => |a, b, c, _| {
            ((a as u16 as i16 as i32) * (b as u16 as i16 as i32) + c as u16 as i16 as i32) as u16
                as u64
        },
        O::VPkLshlrevB16 => |a, b, _, _| (b << (a & 15)) & 0xffff,
        O::VPkLshrrevB16 => |a, b, _, _| b >> (a & 15),
        O::VPkAshrrevI16 => |a, b, _, _| ((b as u16 as i16) >> (a & 15)) as u16 as u64,
        O::VPkMinU16 => |a, b, _, _| a.min(b),
        O::VPkMaxU16 => |a, b, _, _| a.max(b),
        O::VPkMinI16 => |a, b, _, _| (a as u16 as i16).min(b as u16 as i16) as u16 as u64,
        O::VPkMaxI16 => |a, b, _, _| (a as u16 as i16).max(b as u16 as i16) as u16 as u64,
        _ => return Err(Error::unimpl(inst.op.name())),
    };
    let ftz = (w.mode >> 6) & 1 == 0;
    let ftz_out = (w.mode >> 7) & 1 == 0;
    let mut res = Vec::new();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let mut raw = [0u32; 3];
        for (i, o) in srcs.iter().enumerate() {
            raw[i] = match *o {
                Operand::Reg(r) if r.base.is_vgpr() => w.regs.v(r.base.0 - 256, lane),
                Operand::Inline(c) => inline_value(c, 1, float, float) as u32,
                Operand::Literal(v) => v,
                _ => w.s_read(o, 1, false, false)? as u32,
            };
        }
        let half = |i: usize, hi_res: bool| -> u64 {
            let sel = if hi_res {
                m.op_sel_hi >> i & 1
            } else {
                m.op_sel >> i & 1
            };
            let mut v = (raw[i] >> (16 * sel as u32)) as u64 & 0xffff;
            let neg = if hi_res { m.neg_hi } else { m.neg };
            if float {
                if ftz {
                    v = flush16(v as u16) as u64;
                }
                if neg >> i & 1 == 1 {
                    v ^= 0x8000;
                }
            }
            v
        };
        let mut out = 0u32;
        for hi_res in [false, true] {
            let mut r = f(half(0, hi_res), half(1, hi_res), half(2, hi_res), m.clamp);
            if float {
                if m.clamp {
                    let x = f16_to_f64(r as u16);
                    r = f64_to_f16(if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }) as u64;
                }
                if ftz_out {
                    r = flush16(r as u16) as u64;
                }
            }
            out |= (r as u32 & 0xffff) << if hi_res { 16 } else { 0 };
        }
        res.push((lane, out));
    }
    let Some(Operand::Reg(r)) = inst.get(d, Field::Vdst) else {
        return Err(Error::unsupported("packed op without VGPR destination"));
    };
    let n = r.base.0 - 256;
    for (lane, v) in res {
        w.regs.set_v(n, lane, v)?;
    }
    Ok(())
}

/// v_fma_mix* / v_mad_mix* (GFX9): each source is f32, or (op_sel_hi bit set) the f16
/// half op_sel picks, widened; neg negates, neg_hi is abs; the result (fused for fma_mix;
/// for mad_mix the product is rounded and flushed first, as v_mad_f32's) is f32 (mix_f32)
/// or rounded to f16 into the low (mixlo) or high (mixhi) half, the other half kept.
fn fma_mix(w: &mut Wave, inst: &Inst, d: &EncDesc, srcs: &[Operand], exec: u64) -> Result<()> {
    let m = inst.mods;
    if (w.mode & 3) != 0 {
        return Err(Error::unsupported("MODE.FP_ROUND other than nearest-even"));
    }
    let Some(Operand::Reg(r)) = inst.get(d, Field::Vdst) else {
        return Err(Error::unsupported("fma_mix destination"));
    };
    let n = r.base.0 - 256;
    let mut res = Vec::new();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let mut v = [0f32; 3];
        for (i, o) in srcs.iter().enumerate().take(3) {
            let raw = match *o {
                Operand::Reg(r) if r.base.is_vgpr() => w.regs.v(r.base.0 - 256, lane),
                Operand::Inline(c) => inline_value(c, 1, true, m.op_sel_hi >> i & 1 == 1) as u32,
                Operand::Literal(x) => x,
                _ => w.s_read(o, 1, false, false)? as u32,
            };
            let mut x = if m.op_sel_hi >> i & 1 == 1 {
                f16_to_f32((raw >> (16 * (m.op_sel >> i & 1) as u32)) as u16)
            } else {
                f32::from_bits(raw)
            };
            if m.neg_hi >> i & 1 == 1 {
                x = x.abs();
            }
            if m.neg >> i & 1 == 1 {
                x = -x;
            }
            v[i] = x;
        }
        let mut r = if matches!(inst.op, O::VMadMixF32 | O::VMadMixloF16 | O::VMadMixhiF16) {
            flush32(v[0] * v[1]) + v[2]
        } else {
            v[0].mul_add(v[1], v[2])
        };
        if m.clamp {
            r = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) };
        }
        let old = w.regs.v(n, lane);
        let out = match inst.op {
            O::VFmaMixF32 | O::VMadMixF32 => r.to_bits(),
            O::VFmaMixloF16 | O::VMadMixloF16 => (old & 0xffff_0000) | f32_to_f16(r) as u32,
            _ => (old & 0xffff) | (f32_to_f16(r) as u32) << 16,
        };
        res.push((lane, out));
    }
    for (lane, v) in res {
        w.regs.set_v(n, lane, v)?;
    }
    Ok(())
}
